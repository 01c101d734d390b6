// Each prime's exponent in N is a Nim pile (a move lowers one exponent by any amount). Play first iff
// the XOR of the exponents is non-zero, then lower an exponent e with e ^ x < e down to e ^ x.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static std::vector<std::pair<long long, int>> factor(long long n) {
    std::vector<std::pair<long long, int>> f;
    for (long long p = 2; p * p <= n; p++) {
        int e = 0;
        while (n % p == 0) n /= p, e++;
        if (e) f.push_back({p, e});
    }
    if (n > 1) f.push_back({n, 1});
    return f;
}

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        long long n;
        scanf("%lld", &n);
        int x = 0;
        for (auto [p, e] : factor(n)) x ^= e;
        bool mine = x != 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                long long p = atoll(word);
                int j;
                scanf("%d", &j);
                while (j--) n /= p;
            }
            mine = false;
            auto f = factor(n);
            x = 0;
            for (auto [p, e] : f) x ^= e;
            for (auto [p, e] : f) {
                if ((e ^ x) < e) {
                    int j = e - (e ^ x);
                    printf("%lld %d\n", p, j);
                    fflush(stdout);
                    while (j--) n /= p;
                    break;
                }
            }
        }
    }
}
