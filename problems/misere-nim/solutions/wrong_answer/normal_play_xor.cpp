// WRONG ANSWER: applies the normal-play Nim rule (first player wins iff XOR != 0) to misere Nim.
// It agrees whenever some pile is >= 2, but fails when every pile is 1: e.g. "1 1" has XOR 0,
// yet the first player wins (take one, the opponent must take the last stone). O(sum n).
#include <cstdio>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        unsigned long long x = 0, s;
        for (int i = 0; i < n; i++) { scanf("%llu", &s); x ^= s; }
        puts(x ? "First" : "Second");
    }
}
