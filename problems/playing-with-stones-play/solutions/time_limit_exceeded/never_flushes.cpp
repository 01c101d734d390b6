// Chooses its side right but never flushes: the side stays in the output buffer (stdout to a pipe
// is fully buffered), the judge never reads it, and the run ends at the wall-clock limit.
#include <cstdio>

static long long g(long long a) { while (a % 2 == 1) a /= 2; return a / 2; }

int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2) return 1;
    long long x = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        scanf("%lld", &a);
        x ^= g(a);
    }
    puts(x ? "First" : "Second");
    char word[32];
    scanf("%31s", word);
}
