// Chooses its side right but never flushes: the side stays in the output buffer (stdout to a pipe
// is fully buffered), the judge never reads it, and the run ends at the wall-clock limit.
#include <cstdio>

int main() {
    int games;
    long long n;
    if (scanf("%d %lld", &games, &n) != 2) return 1;
    int x = 0;
    for (long long p = 2; p * p <= n; p++) {
        int e = 0;
        while (n % p == 0) n /= p, e++;
        x ^= e;
    }
    if (n > 1) x ^= 1;
    puts(x ? "First" : "Second");
    char word[32];
    scanf("%31s", word);
}
