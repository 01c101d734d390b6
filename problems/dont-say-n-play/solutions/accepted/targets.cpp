// Backward DP: after the number v, the player to speak loses iff no safe w in (v, v + K], w < N,
// is itself such a number (a target). Play first iff 0 is not losing; then always say the next
// target, which is within reach whenever the position is winning. Flushes after every line.
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    static char s[20005];
    for (int t = 0; t < games; t++) {
        int n, k;
        scanf("%d %d %20000s", &n, &k, s);
        std::vector<char> safe(n, 1), lose(n, 0);
        for (int i = 1; i < n; i++) safe[i] = s[i - 1] == 'o';
        int window = 0;
        for (int v = n - 1; v >= 0; v--) {
            lose[v] = window == 0;
            if (safe[v] && lose[v]) window++;
            if (v + k < n && safe[v + k] && lose[v + k]) window--;
        }
        // next_target[v]: the smallest target above v, or n.
        std::vector<int> next_target(n + 1, n);
        for (int v = n - 2; v >= 0; v--)
            next_target[v] = safe[v + 1] && lose[v + 1] ? v + 1 : next_target[v + 1];
        bool mine = !lose[0];
        puts(mine ? "First" : "Second");
        fflush(stdout);
        int said = 0;
        for (;;) {
            if (!mine) {
                char word[32];
                if (scanf("%31s", word) != 1) return 0;
                if (strcmp(word, "none") == 0) break;
                said = atoi(word);
            }
            mine = false;
            said = next_target[said];
            printf("%d\n", said);
            fflush(stdout);
        }
    }
}
