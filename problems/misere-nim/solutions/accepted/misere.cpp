// Misere Nim: if every pile is 1 the first player wins iff the number of piles is even;
// otherwise the first player wins iff the XOR is non-zero (the normal-play rule). O(sum n).
#include <cstdio>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        unsigned long long x = 0, s;
        bool all_ones = true;
        for (int i = 0; i < n; i++) { scanf("%llu", &s); x ^= s; if (s != 1) all_ones = false; }
        bool first = all_ones ? (n % 2 == 0) : (x != 0);
        puts(first ? "First" : "Second");
    }
}
