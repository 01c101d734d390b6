// WRONG ANSWER: reads the coordinates as 1-indexed (heaps min-1 and X-max), as some upstream
// codes would; nimjudge's coordinates are 0-indexed, so every heap is off by one on one side
// (min x cells can be cut on the low side, X-1-max x on the high side). O(sum M).
#include <cstdio>
#include <algorithm>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    long long x = 0;
    for (int i = 0; i < n; i++) {
        long long X, Y, Z;
        int m;
        scanf("%lld %lld %lld %d", &X, &Y, &Z, &m);
        long long lo[3] = {X, Y, Z}, hi[3] = {-1, -1, -1}, dim[3] = {X, Y, Z};
        for (int j = 0; j < m; j++) {
            long long c[3];
            scanf("%lld %lld %lld", &c[0], &c[1], &c[2]);
            for (int d = 0; d < 3; d++) { lo[d] = std::min(lo[d], c[d]); hi[d] = std::max(hi[d], c[d]); }
        }
        for (int d = 0; d < 3; d++) x ^= (lo[d] - 1) ^ (dim[d] - hi[d]);
    }
    puts(x ? "WIN" : "LOSE");
}
