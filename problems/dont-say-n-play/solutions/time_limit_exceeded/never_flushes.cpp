// Says a side without flushing: the line stays in the output buffer (stdout to a pipe is fully
// buffered), the judge never reads it, and the run ends at the wall-clock limit.
#include <cstdio>

int main() {
    int games, n, k;
    static char s[20005];
    if (scanf("%d %d %d %20000s", &games, &n, &k, s) != 4) return 1;
    puts("First");
    char word[32];
    scanf("%31s", word);
}
