// Chooses its side right (Grundy e mod 3), then divides a random number by its smallest prime.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    srand(7);
    for (int g = 0; g < games; g++) {
        int n;
        scanf("%d", &n);
        std::vector<int> m(n);
        for (auto& v : m) scanf("%d", &v);
        int x = 0;
        for (int v : m)
            for (int p = 2; p <= v; p++) {
                int e = 0;
                while (v % p == 0) v /= p, e++;
                x ^= e % 3;
            }
        bool mine = x != 0;
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
            std::vector<int> open;
            for (int i = 0; i < n; i++) if (m[i] > 1) open.push_back(i);
            if (open.empty()) return 0;
            int i = open[rand() % open.size()], p = 2;
            while (m[i] % p) p++;
            printf("%d %d 1\n", i + 1, p);
            fflush(stdout);
            m[i] /= p;
        }
    }
}
