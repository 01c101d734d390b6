// WRONG ANSWER: only counts the slabs on the low side of each axis (min x, min y, min z), as if
// cuts had to start at coordinate 0. A slab can be cut from either face, so each block has six
// heaps, including X-1-max x, Y-1-max y, Z-1-max z. O(sum M).
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
        long long lo[3] = {X, Y, Z};
        for (int j = 0; j < m; j++) {
            long long c[3];
            scanf("%lld %lld %lld", &c[0], &c[1], &c[2]);
            for (int d = 0; d < 3; d++) lo[d] = std::min(lo[d], c[d]);
        }
        for (int d = 0; d < 3; d++) x ^= lo[d];
    }
    puts(x ? "WIN" : "LOSE");
}
