// Nim on the plates (plate i starts with i coins): play first iff 1 ^ 2 ^ ... ^ N is non-zero
// (N mod 4 != 3), then always take from a plate c with c ^ x < c down to c ^ x. Flushes after
// every line.
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int t = 0; t < games; t++) {
        int n;
        scanf("%d", &n);
        std::vector<long long> c(n);
        long long x = 0;
        for (int i = 0; i < n; i++) { c[i] = i + 1; x ^= c[i]; }
        bool mine = x != 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                long long k;
                scanf("%lld", &k);
                int i = atoi(word) - 1;
                x ^= c[i];
                c[i] -= k;
                x ^= c[i];
            }
            mine = false;
            for (int i = 0; i < n; i++) {
                if ((c[i] ^ x) < c[i]) {
                    long long keep = c[i] ^ x;
                    printf("%d %lld\n", i + 1, c[i] - keep);
                    fflush(stdout);
                    c[i] = keep;
                    x = 0;
                    break;
                }
            }
        }
    }
}
