// WRONG ANSWER: ignores the forbidden moves and plays ordinary Nim (XOR of the A_i). Forbidding
// a move changes Grundy values (sample 2: a pile of 5 with every move forbidden is a loss, while
// plain Nim says the first player takes all 5 and wins). O(N).
#include <cstdio>
int main() {
    int n, m;
    if (scanf("%d %d", &n, &m) != 2) return 0;
    long long x = 0, a;
    for (int i = 0; i < n; i++) { scanf("%lld", &a); x ^= a; }
    puts(x ? "Takahashi" : "Aoki");
}
