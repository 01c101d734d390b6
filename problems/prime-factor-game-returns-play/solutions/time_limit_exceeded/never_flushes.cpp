// Chooses its side right but never flushes: the side stays in the output buffer (stdout to a pipe
// is fully buffered), the judge never reads it, and the run ends at the wall-clock limit.
#include <cstdio>

int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2) return 1;
    int x = 0;
    for (int i = 0; i < n; i++) {
        int v;
        scanf("%d", &v);
        for (int p = 2; p <= v; p++) {
            int e = 0;
            while (v % p == 0) v /= p, e++;
            x ^= e % 3;
        }
    }
    puts(x ? "First" : "Second");
    char word[32];
    scanf("%31s", word);
}
