// Grundy values straight from the definition: g(n) is the mex of g(n - y) over the moves y that
// are not forbidden (sizes are at most 1000, so O(A^2) a game). Play first iff the XOR is
// non-zero, then move a pile a to a size s < a with g(s) = g(a) ^ x by a move not forbidden.
// Flushes after every line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int t = 0; t < games; t++) {
        int n, m;
        scanf("%d %d", &n, &m);
        std::vector<long long> a(n);
        long long top = 0;
        for (auto& v : a) { scanf("%lld", &v); if (v > top) top = v; }
        std::set<std::pair<long long, long long>> forbidden;
        for (int i = 0; i < m; i++) {
            long long x, y;
            scanf("%lld %lld", &x, &y);
            forbidden.insert({x, y});
        }
        std::vector<long long> g(top + 1, 0);
        for (long long s = 1; s <= top; s++) {
            std::vector<char> seen(s + 2, 0);
            for (long long y = 1; y <= s; y++)
                if (!forbidden.count({s, y})) seen[g[s - y]] = 1;
            while (seen[g[s]]) g[s]++;
        }
        long long x = 0;
        for (long long v : a) x ^= g[v];
        bool mine = x != 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                long long y;
                scanf("%lld", &y);
                int i = atoi(word) - 1;
                x ^= g[a[i]];
                a[i] -= y;
                x ^= g[a[i]];
            }
            mine = false;
            bool moved = false;
            for (int i = 0; i < n && !moved; i++) {
                long long want = g[a[i]] ^ x;
                if (want >= g[a[i]]) continue;
                for (long long s = a[i] - 1; s >= 0 && !moved; s--) {
                    if (g[s] == want && !forbidden.count({a[i], a[i] - s})) {
                        printf("%d %lld\n", i + 1, a[i] - s);
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
