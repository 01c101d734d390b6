// Chooses its side right but never flushes: the side stays in the output buffer (stdout to a pipe
// is fully buffered), the judge never reads it, and the run ends at the wall-clock limit.
#include <cstdio>
#include <vector>

int main() {
    int games, n, k;
    if (scanf("%d %d %d", &games, &n, &k) != 3) return 1;
    std::vector<int> a(n);
    for (auto& v : a) scanf("%d", &v);
    bool losing = true;
    for (int bit = 0; bit < 10; bit++) {
        int count = 0;
        for (int v : a) count += (v >> bit) & 1;
        if (count % (k + 1)) losing = false;
    }
    puts(losing ? "Second" : "First");
    char word[32];
    scanf("%31s", word);
}
