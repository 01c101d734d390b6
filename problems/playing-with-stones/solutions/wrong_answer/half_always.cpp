// WRONG ANSWER: takes SG(x) = floor(x/2) for every x, extrapolated from the even sizes. For odd
// x = 2m+1 the reachable sizes are m+1..2m, and then SG(2m+1) = SG(m), not m (e.g. 3 can only
// go to 2, whose value is 1, so SG(3) = 0). O(N) per case.
#include <cstdio>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        unsigned long long x = 0, a;
        for (int i = 0; i < n; i++) { scanf("%llu", &a); x ^= a / 2; }
        puts(x ? "YES" : "NO");
    }
}
