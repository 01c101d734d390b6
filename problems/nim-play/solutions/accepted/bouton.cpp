// Nim against the judge: play first iff the XOR of the piles is non-zero, then always move to a
// position whose XOR is zero (Bouton 1901): with x the XOR, take from a pile a with (a ^ x) < a
// down to a ^ x. O(N) a move; flushes after every line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static unsigned xor_of(const std::vector<unsigned>& a) {
    unsigned x = 0;
    for (unsigned v : a) x ^= v;
    return x;
}

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        int n;
        scanf("%d", &n);
        std::vector<unsigned> a(n);
        for (auto& v : a) scanf("%u", &v);
        bool mine = xor_of(a) != 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
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
            unsigned x = xor_of(a);
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
