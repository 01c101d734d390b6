// Plain Nim: Sprague-Grundy says the first player wins iff the XOR of the piles is non-zero.
// O(N) time, O(1) memory; piles up to 10^18 need unsigned 64-bit.
#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    unsigned long long x = 0, a;
    for (int i = 0; i < n; i++) { scanf("%llu", &a); x ^= a; }
    puts(x ? "Alice" : "Bob");
}
