// Always plays first and then like Bouton's strategy: wrong on every position whose XOR is zero.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        int n;
        scanf("%d", &n);
        std::vector<unsigned> a(n);
        for (auto& v : a) scanf("%u", &v);
        puts("First");
        fflush(stdout);
        bool mine = true;
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
            unsigned x = 0;
            for (unsigned v : a) x ^= v;
            for (int i = 0; i < n; i++) {
                if ((a[i] ^ x) < a[i]) {
                    printf("%d %u\n", i + 1, a[i] - (a[i] ^ x));
                    fflush(stdout);
                    a[i] ^= x;
                    break;
                }
            }
        }
    }
}
