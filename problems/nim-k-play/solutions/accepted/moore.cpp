// Moore's Nim_K: the mover loses iff, for every bit, the number of piles with that bit set is a
// multiple of K + 1. A winning move, bit by bit from the top: piles already touched have free lower
// bits; if the column's count of untouched ones is m (mod K+1) != 0, set the bit in K+1-m touched
// piles if there are that many, else touch m more piles that have the bit, clearing it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static bool losing(const std::vector<int>& a, int k) {
    for (int bit = 0; bit < 10; bit++) {
        int count = 0;
        for (int v : a) count += (v >> bit) & 1;
        if (count % (k + 1)) return false;
    }
    return true;
}

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        int n, k;
        scanf("%d %d", &n, &k);
        std::vector<int> a(n);
        for (auto& v : a) scanf("%d", &v);
        bool mine = !losing(a, k);
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                int m = atoi(word);
                for (int j = 0; j < m; j++) {
                    int i, t;
                    scanf("%d %d", &i, &t);
                    a[i - 1] -= t;
                }
            }
            mine = false;
            std::vector<int> b = a;
            std::vector<char> touched(n, 0);
            int touched_count = 0;
            for (int bit = 9; bit >= 0; bit--) {
                int mask = 1 << bit;
                std::vector<int> fixed;
                for (int i = 0; i < n; i++) {
                    if (touched[i]) b[i] &= ~mask;
                    else if (b[i] & mask) fixed.push_back(i);
                }
                int m = fixed.size() % (k + 1);
                if (m == 0) continue;
                if (touched_count >= k + 1 - m) {
                    int need = k + 1 - m;
                    for (int i = 0; i < n && need > 0; i++)
                        if (touched[i]) b[i] |= mask, need--;
                } else {
                    for (int j = 0; j < m; j++) {
                        touched[fixed[j]] = 1;
                        b[fixed[j]] &= ~mask;
                        touched_count++;
                    }
                }
            }
            printf("%d", touched_count);
            for (int i = 0; i < n; i++)
                if (touched[i]) printf(" %d %d", i + 1, a[i] - b[i]);
            printf("\n");
            fflush(stdout);
            a = b;
        }
    }
}
