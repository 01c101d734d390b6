// Plays normal-play Nim (Bouton's XOR rule) in a misère game: wrong in the endgame of one-stone
// piles, where it picks the losing side or takes the last stone.
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
        unsigned x = 0;
        for (unsigned v : a) x ^= v;
        bool mine = x != 0;
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
            x = 0;
            for (unsigned v : a) x ^= v;
            int moved = 0;
            for (int i = 0; i < n && !moved; i++) {
                if ((a[i] ^ x) < a[i]) {
                    printf("%d %u\n", i + 1, a[i] - (a[i] ^ x));
                    a[i] ^= x;
                    moved = 1;
                }
            }
            for (int i = 0; i < n && !moved; i++) {
                if (a[i] > 0) {
                    printf("%d 1\n", i + 1);
                    a[i] -= 1;
                    moved = 1;
                }
            }
            fflush(stdout);
        }
    }
}
