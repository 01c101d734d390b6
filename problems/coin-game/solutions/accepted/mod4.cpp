// Plain Nim on piles 1..N; the XOR 1^2^...^N is N, 1, N+1, 0 for N mod 4 = 0, 1, 2, 3,
// so the first player loses exactly when N mod 4 = 3. O(1).
#include <cstdio>
int main() {
    unsigned long long n;
    if (scanf("%llu", &n) != 1) return 0;
    puts(n % 4 == 3 ? "X" : "O");
}
