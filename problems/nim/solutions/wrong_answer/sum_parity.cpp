// WRONG ANSWER: decides by the parity of the total number of stones ("each move takes stones,
// so whoever faces an odd total wins"). That is only right when every move takes exactly one
// stone; in Nim a move may take many, so the XOR, not the sum, decides. O(N).
#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    unsigned long long s = 0, a;
    for (int i = 0; i < n; i++) { scanf("%llu", &a); s += a; }  // wrap-around keeps the parity
    puts(s % 2 ? "Alice" : "Bob");
}
