// WRONG ANSWER: reuses the rule of the original "Prime Factor Game" (No.2), XOR of the raw
// exponents. Here a move divides by p or p^2 only, so an exponent is a subtraction game with
// moves {1, 2} whose Grundy value is e mod 3, not e (e.g. M = 8: e = 3 has value 0). O(N sqrt M).
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
            x ^= e;
        }
        if (m > 1) x ^= 1;
    }
    puts(x ? "Alice" : "Bob");
}
