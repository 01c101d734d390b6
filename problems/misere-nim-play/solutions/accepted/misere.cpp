// Misère Nim against the judge. While two or more piles hold two stones or more, play Nim (move to
// XOR 0); with exactly one such pile, reduce it to 0 or 1 so that an odd number of one-stone piles
// remains; with none, take a one-stone pile. Play first iff that position is a win. Flushes.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// The winning move (pile, stones), or pile -1 if the mover loses.
static std::pair<int, unsigned> winning(const std::vector<unsigned>& a) {
    int big = 0, big_pile = -1, ones = 0, one_pile = -1;
    unsigned x = 0;
    for (int i = 0; i < (int)a.size(); i++) {
        x ^= a[i];
        if (a[i] >= 2) big++, big_pile = i;
        if (a[i] == 1) ones++, one_pile = i;
    }
    if (big == 0) return ones % 2 == 0 && ones > 0 ? std::make_pair(one_pile, 1u) : std::make_pair(-1, 0u);
    if (big == 1) return {big_pile, a[big_pile] - (ones % 2 == 1 ? 0 : 1)};
    for (int i = 0; i < (int)a.size(); i++)
        if ((a[i] ^ x) < a[i]) return {i, a[i] - (a[i] ^ x)};
    return {-1, 0};
}

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        int n;
        scanf("%d", &n);
        std::vector<unsigned> a(n);
        for (auto& v : a) scanf("%u", &v);
        bool mine = winning(a).first >= 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                unsigned k;
                scanf("%u", &k);
                a[atoi(word) - 1] -= k;
            }
            mine = false;
            auto [pile, take] = winning(a);
            printf("%d %u\n", pile + 1, take);
            fflush(stdout);
            a[pile] -= take;
        }
    }
}
