// TIME LIMIT EXCEEDED: computes the XOR 1^2^...^N with a loop. Correct, but O(N), and N goes up
// to 10^18 (the max testcase has N close to 10^18), which no loop can finish in 2 s.
#include <cstdio>
int main() {
    unsigned long long n;
    if (scanf("%llu", &n) != 1) return 0;
    unsigned long long x = 0;
    for (unsigned long long i = 1; i <= n; i++) x ^= i;
    puts(x ? "O" : "X");
}
