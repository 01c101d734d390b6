// WRONG ANSWER: ignores K and plays ordinary Nim (XOR of the piles). That is Nim_K only for K = 1;
// with K >= 2 a position is lost iff every bit column count is divisible by K+1, not by 2. O(N).
#include <cstdio>
int main() {
    int n, k;
    if (scanf("%d %d", &n, &k) != 2) return 0;
    long long x = 0, a;
    for (int i = 0; i < n; i++) { scanf("%lld", &a); x ^= a; }
    puts(x ? "Alice" : "Bob");
}
