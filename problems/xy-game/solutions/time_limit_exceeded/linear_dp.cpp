// TIME LIMIT EXCEEDED: computes each pile's Grundy value by the defining DP, walking v = 1..A_i
// with the last two values: correct, but O(A_i) per pile, and piles go up to 10^18.
#include <cstdio>
typedef unsigned long long u64;
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        u64 x, y;
        scanf("%d %llu %llu", &n, &x, &y);
        int xr = 0;
        for (int i = 0; i < n; i++) {
            u64 a;
            scanf("%llu", &a);
            int g1 = 0, g2 = 0;  // g(v-1), g(v-2) (g(0) = 0, and 0 is blocked anyway)
            for (u64 v = 1; v <= a; v++) {
                int seen = 0;
                if (v >= 1 && (v - 1) % x && (v - 1) % y) seen |= 1 << g1;
                if (v >= 2 && (v - 2) % x && (v - 2) % y) seen |= 1 << g2;
                int g = 0;
                while (seen >> g & 1) g++;
                g2 = g1;
                g1 = g;
            }
            xr ^= a ? g1 : 0;
        }
        puts(xr ? "Alice" : "Bob");
    }
}
