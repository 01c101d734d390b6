// Each exponent e of a prime in some M_i is a pile where a move removes 1 or 2: Grundy e mod 3.
// Alice wins iff the XOR over all numbers and primes of (e mod 3) is non-zero. O(N sqrt(max M)).
#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    int x = 0;
    for (int i = 0; i < n; i++) {
        int m;
        scanf("%d", &m);
        for (int p = 2; p * p <= m; p++) {
            int e = 0;
            while (m % p == 0) { m /= p; e++; }
            x ^= e % 3;
        }
        if (m > 1) x ^= 1;
    }
    puts(x ? "Alice" : "Bob");
}
