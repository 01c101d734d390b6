// Chooses its side right but never flushes: the side stays in the output buffer (stdout to a pipe
// is fully buffered), the judge never reads it, and the run ends at the wall-clock limit.
#include <cstdio>

int main() {
    long long games, n;
    if (scanf("%lld %lld", &games, &n) != 2) return 1;
    puts(n % 4 != 3 ? "First" : "Second");
    char word[32];
    scanf("%31s", word);
}
