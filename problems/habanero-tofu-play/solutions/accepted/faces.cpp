// Each face of a block is a Nim pile: the free distance from it to the box around the block's
// habaneros. Play first iff the XOR of the 6N distances is non-zero, then cut a face whose
// distance d has d ^ x < d down to d ^ x. Flushes after every line.
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
        std::vector<long long> d(6 * n);
        for (int b = 0; b < n; b++) {
            long long size[3];
            int m;
            scanf("%lld %lld %lld %d", &size[0], &size[1], &size[2], &m);
            long long lo[3] = {size[0], size[1], size[2]}, hi[3] = {-1, -1, -1};
            for (int i = 0; i < m; i++) {
                for (int a = 0; a < 3; a++) {
                    long long c;
                    scanf("%lld", &c);
                    if (c < lo[a]) lo[a] = c;
                    if (c > hi[a]) hi[a] = c;
                }
            }
            for (int a = 0; a < 3; a++) {
                d[6 * b + 2 * a] = lo[a];
                d[6 * b + 2 * a + 1] = size[a] - 1 - hi[a];
            }
        }
        long long x = 0;
        for (long long v : d) x ^= v;
        bool mine = x != 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                int f;
                long long th;
                scanf("%d %lld", &f, &th);
                int h = 6 * (atoi(word) - 1) + f - 1;
                x ^= d[h];
                d[h] -= th;
                x ^= d[h];
            }
            mine = false;
            for (int h = 0; h < 6 * n; h++) {
                if ((d[h] ^ x) < d[h]) {
                    long long keep = d[h] ^ x;
                    printf("%d %d %lld\n", h / 6 + 1, h % 6 + 1, d[h] - keep);
                    fflush(stdout);
                    d[h] = keep;
                    x = 0;
                    break;
                }
            }
        }
    }
}
