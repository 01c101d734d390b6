// Bouton's strategy, but its output is never flushed: the judge waits for a side that stays in the
// program's buffer, the program waits for a move, and the run ends at the wall-clock limit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main() {
    static char buffer[1 << 16];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        int n;
        scanf("%d", &n);
        std::vector<unsigned> a(n);
        for (auto& v : a) scanf("%u", &v);
        unsigned x = 0;
        for (unsigned v : a) x ^= v;
        bool mine = x != 0;
        puts(mine ? "First" : "Second");
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                unsigned k;
                scanf("%u", &k);
                a[atoi(word) - 1] -= k;
            }
            mine = false;
            x = 0;
            for (unsigned v : a) x ^= v;
            for (int i = 0; i < n; i++) {
                if ((a[i] ^ x) < a[i]) {
                    printf("%d %u\n", i + 1, a[i] - (a[i] ^ x));
                    a[i] ^= x;
                    break;
                }
            }
        }
    }
}
