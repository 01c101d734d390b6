// Units first: a_i = floor(S_i / 2piR) + 1 (2piR is irrational, so S_i / 2piR is never whole) and
// k = floor(L / 2piR), in long double (64-bit mantissa: far closer than any distance here comes to
// a multiple of 2piR). With M = 1 the game is Nim with at most k a kick (a ball is worth
// a mod (k + 1)); otherwise every ball is within one kick and it is Moore's Nim_M: bit by bit from
// the top, make each column's count a multiple of M + 1. Flushes after every line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static const long double PI = 3.14159265358979323846264338327950288L;

// Moore's move for Nim_M: returns the new piles (touched piles shrink), or false if none.
static bool moore(std::vector<long long>& a, int m) {
    int n = a.size();
    std::vector<long long> nw = a;
    std::vector<char> touched(n, 0);
    int count = 0;
    for (int bit = 10; bit >= 0; bit--) {
        long long mask = 1LL << bit;
        std::vector<int> fixed;
        for (int i = 0; i < n; i++)
            if (!touched[i] && (nw[i] & mask)) fixed.push_back(i);
        int r = fixed.size() % (m + 1);
        for (int i = 0; i < n; i++)
            if (touched[i]) nw[i] &= ~mask;
        if (r == 0) continue;
        if (count >= m + 1 - r) {
            int need = m + 1 - r;
            for (int i = 0; i < n && need > 0; i++)
                if (touched[i]) { nw[i] |= mask; need--; }
        } else {
            for (int j = 0; j < r; j++) {
                touched[fixed[j]] = 1;
                nw[fixed[j]] &= ~mask;
                count++;
            }
        }
    }
    if (count == 0) return false;
    std::vector<int> idx;
    for (int i = 0; i < n; i++) if (touched[i]) idx.push_back(i);
    printf("%d", (int)idx.size());
    for (int i : idx) printf(" %d %lld", i + 1, a[i] - nw[i]);
    printf("\n");
    fflush(stdout);
    a = nw;
    return true;
}

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int t = 0; t < games; t++) {
        int n, m;
        long long L, R;
        scanf("%d %d %lld %lld", &n, &m, &L, &R);
        long double girth = 2 * PI * R;
        long long k = (long long)floorl(L / girth);
        std::vector<long long> a(n);
        for (auto& v : a) {
            long long s;
            scanf("%lld", &s);
            v = (long long)floorl(s / girth) + 1;
        }
        auto first_wins = [&]() {
            if (m == 1) {
                long long x = 0;
                for (long long v : a) x ^= v % (k + 1);
                return x != 0;
            }
            for (int bit = 0; bit <= 10; bit++) {
                int c = 0;
                for (long long v : a) c += v >> bit & 1;
                if (c % (m + 1)) return true;
            }
            return false;
        };
        bool mine = first_wins();
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                int cnt = atoi(word);
                for (int j = 0; j < cnt; j++) {
                    int i;
                    long long d;
                    scanf("%d %lld", &i, &d);
                    a[i - 1] -= d;
                }
            }
            mine = false;
            if (m == 1) {
                long long x = 0;
                for (long long v : a) x ^= v % (k + 1);
                for (int i = 0; i < n; i++) {
                    long long g = a[i] % (k + 1);
                    if ((g ^ x) < g) {
                        printf("1 %d %lld\n", i + 1, g - (g ^ x));
                        fflush(stdout);
                        a[i] -= g - (g ^ x);
                        break;
                    }
                }
            } else {
                moore(a, m);
            }
        }
    }
}
