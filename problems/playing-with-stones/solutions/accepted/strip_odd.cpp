// SG(x) = x/2 for even x, SG(x) = SG(x/2) for odd x (SG(1) = 0): strip trailing 1-bits, halve.
// XOR over the piles, YES iff non-zero. O(N * 64) per test case.
#include <cstdio>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        unsigned long long x = 0, a;
        for (int i = 0; i < n; i++) {
            scanf("%llu", &a);
            while (a % 2 == 1) a /= 2;
            x ^= a / 2;
        }
        puts(x ? "YES" : "NO");
    }
}
