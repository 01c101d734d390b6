// Moore's Nim_K: the player to move loses iff, for every bit position, the number of piles with
// that bit set is divisible by K+1. O(N log max A).
#include <cstdio>
int main() {
    int n, k;
    if (scanf("%d %d", &n, &k) != 2) return 0;
    long long cnt[31] = {0};
    for (int i = 0; i < n; i++) {
        long long a;
        scanf("%lld", &a);
        for (int b = 0; b < 31; b++) cnt[b] += (a >> b) & 1;
    }
    bool win = false;
    for (int b = 0; b < 31; b++) if (cnt[b] % (k + 1)) win = true;
    puts(win ? "Alice" : "Bob");
}
