// Chooses its side right but never flushes: `First`/`Second` stays in the program's output buffer
// (stdout to a pipe is fully buffered), the judge never reads it, the program waits for a move, and
// the run ends at the wall-clock limit.
#include <cstdio>
#include <vector>

int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2) return 1;
    std::vector<unsigned> a(n);
    unsigned x = 0, big = 0, ones = 0;
    for (auto& v : a) {
        scanf("%u", &v);
        x ^= v;
        big += v >= 2;
        ones += v == 1;
    }
    bool first = big == 0 ? ones % 2 == 0 : x != 0;
    puts(first ? "First" : "Second");
    char word[32];
    scanf("%31s", word);
}
