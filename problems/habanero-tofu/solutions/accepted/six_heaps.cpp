// Each block is 6 Nim heaps: the safe slabs that can be cut from each face before touching the
// habanero bounding box (min x, X-1-max x, same for y, z; 0-indexed). XOR all 6N heaps. O(sum M).
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
        for (int d = 0; d < 3; d++) x ^= lo[d] ^ (dim[d] - 1 - hi[d]);
    }
    puts(x ? "WIN" : "LOSE");
}
