// A pile's Grundy value is a/2 for even a and g(a/2) for odd a (strip trailing one bits, halve).
// Play first iff the XOR is non-zero; then move a pile a to a size s in [a - a/2, a - 1] whose
// value makes the XOR 0 (a scan of that range: sizes are at most 1000). Flushes after every line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static long long g(long long a) { while (a % 2 == 1) a /= 2; return a / 2; }

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int t = 0; t < games; t++) {
        int n;
        scanf("%d", &n);
        std::vector<long long> a(n);
        for (auto& v : a) scanf("%lld", &v);
        long long x = 0;
        for (long long v : a) x ^= g(v);
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
                a[atoi(word) - 1] -= k;
            }
            mine = false;
            x = 0;
            for (long long v : a) x ^= g(v);
            int done = 0;
            for (int i = 0; i < n && !done; i++) {
                long long want = g(a[i]) ^ x;
                for (long long s = a[i] - a[i] / 2; s < a[i] && !done; s++) {
                    if (g(s) == want) {
                        printf("%d %lld\n", i + 1, a[i] - s);
                        fflush(stdout);
                        a[i] = s;
                        done = 1;
                    }
                }
            }
        }
    }
}
