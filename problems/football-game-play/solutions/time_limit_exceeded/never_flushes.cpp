// Says a side without flushing: the line stays in the output buffer (stdout to a pipe is fully
// buffered), the judge never reads it, and the program waits for a reply that never comes; the
// run ends at the wall-clock limit.
#include <cstdio>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    puts("First");
    char word[32];
    while (scanf("%31s", word) == 1) {
    }
}
