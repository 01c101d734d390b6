// WRONG ANSWER: decides by the parity of the number of prime factors counted with multiplicity,
// as if every move removed a single factor p. A move may remove p^j for any j, so each exponent
// is a Nim pile and the XOR of the exponents decides (e.g. N = 4: Alice divides by 4 and wins,
// but the count 2 is even). O(sqrt N).
#include <cstdio>
int main() {
    long long n;
    if (scanf("%lld", &n) != 1) return 0;
    int cnt = 0;
    for (long long p = 2; p * p <= n; p++)
        while (n % p == 0) { n /= p; cnt++; }
    if (n > 1) cnt++;
    puts(cnt % 2 ? "Alice" : "Bob");
}
