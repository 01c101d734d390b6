// Grundy values by their definition, up to the largest pile (at most 1000): g(v) is the mex of
// g(v - d) over d in {1, 2} with v - d a multiple of neither X nor Y (0 counts as a multiple).
// Play first iff the XOR is non-zero, then take 1 or 2 from a pile to a free size of value
// g(a) ^ x. Flushes after every line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int t = 0; t < games; t++) {
        int n;
        long long X, Y;
        scanf("%d %lld %lld", &n, &X, &Y);
        std::vector<long long> a(n);
        long long top = 0;
        for (auto& v : a) { scanf("%lld", &v); if (v > top) top = v; }
        auto blocked = [&](long long v) { return v % X == 0 || v % Y == 0; };
        std::vector<int> g(top + 1, 0);
        for (long long v = 1; v <= top; v++) {
            int seen = 0;
            for (int d = 1; d <= 2; d++)
                if (v - d >= 1 && !blocked(v - d)) seen |= 1 << g[v - d];
            while (seen >> g[v] & 1) g[v]++;
        }
        int x = 0;
        for (long long v : a) x ^= g[v];
        bool mine = x != 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                long long d;
                scanf("%lld", &d);
                int i = atoi(word) - 1;
                x ^= g[a[i]];
                a[i] -= d;
                x ^= g[a[i]];
            }
            mine = false;
            bool moved = false;
            for (int i = 0; i < n && !moved; i++) {
                for (int d = 1; d <= 2 && !moved; d++) {
                    long long s = a[i] - d;
                    if (s >= 1 && !blocked(s) && g[s] == (g[a[i]] ^ x)) {
                        printf("%d %d\n", i + 1, d);
                        fflush(stdout);
                        a[i] = s;
                        x = 0;
                        moved = true;
                    }
                }
            }
        }
    }
}
