// Each prime power p^e of each number is a pile from which a move takes 1 or 2: Grundy e mod 3.
// Play first iff the XOR of all of them is non-zero; then always take k factors from a pile whose
// new value (e - k) mod 3 cancels the XOR. Factorises by trial division each move (M <= 10^4).
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>

static int exponent(int m, int p) { int e = 0; while (m % p == 0) m /= p, e++; return e; }

static int grundy_xor(const std::vector<int>& m) {
    int x = 0;
    for (int v : m)
        for (int p = 2; p <= v; p++)
            if (v % p == 0) { int e = exponent(v, p); x ^= e % 3; while (v % p == 0) v /= p; }
    return x;
}

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        int n;
        scanf("%d", &n);
        std::vector<int> m(n);
        for (auto& v : m) scanf("%d", &v);
        bool mine = grundy_xor(m) != 0;
        puts(mine ? "First" : "Second");
        fflush(stdout);
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                int p, k;
                scanf("%d %d", &p, &k);
                int i = atoi(word) - 1;
                for (int j = 0; j < k; j++) m[i] /= p;
            }
            mine = false;
            int x = grundy_xor(m), done = 0;
            for (int i = 0; i < n && !done; i++) {
                int v = m[i];
                for (int p = 2; p <= v && !done; p++) {
                    if (v % p) continue;
                    int e = exponent(m[i], p);
                    for (int k = 1; k <= 2 && k <= e && !done; k++) {
                        if ((e - k) % 3 == ((e % 3) ^ x)) {
                            printf("%d %d %d\n", i + 1, p, k);
                            fflush(stdout);
                            for (int j = 0; j < k; j++) m[i] /= p;
                            done = 1;
                        }
                    }
                    while (v % p == 0) v /= p;
                }
            }
        }
    }
}
