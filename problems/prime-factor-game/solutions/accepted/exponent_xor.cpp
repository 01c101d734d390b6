// Each prime p^e of N is a Nim pile of size e (a move lowers one exponent by any amount >= 1).
// Factor N by trial division, Alice wins iff the XOR of the exponents is non-zero. O(sqrt N).
#include <cstdio>
int main() {
    long long n;
    if (scanf("%lld", &n) != 1) return 0;
    int x = 0;
    for (long long p = 2; p * p <= n; p++) {
        int e = 0;
        while (n % p == 0) { n /= p; e++; }
        x ^= e;
    }
    if (n > 1) x ^= 1;
    puts(x ? "Alice" : "Bob");
}
