// WRONG ANSWER: misremembers the prefix-XOR pattern (N, 1, N+1, 0 for N mod 4 = 0..3) and
// takes "XOR is 0" to happen when N mod 4 = 0. The XOR is 0 exactly when N mod 4 = 3. O(1).
#include <cstdio>
int main() {
    unsigned long long n;
    if (scanf("%llu", &n) != 1) return 0;
    puts(n % 4 == 0 ? "X" : "O");
}
