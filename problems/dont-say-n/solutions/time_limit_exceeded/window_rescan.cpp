// TIME LIMIT EXCEEDED: the right backward DP, but each v rescans its whole window (v, v+K]
// instead of keeping a sliding count: O(N*K). With N = 2*10^5 and K = N-1 that is ~2*10^10 steps.
#include <cstdio>
#include <vector>
#include <string>
#include <iostream>
int main() {
    std::ios::sync_with_stdio(false);
    int n, k;
    std::string s;
    if (!(std::cin >> n >> k >> s)) return 0;
    std::vector<char> lose(n + 1, 0);
    for (int v = n - 1; v >= 0; v--) {
        bool can_win = false;
        for (int w = v + 1; w <= v + k && w <= n - 1; w++)
            if (s[w - 1] == 'o' && lose[w]) can_win = true;  // no early exit: scans the window
        lose[v] = !can_win;
    }
    bool any = false;
    for (int i = 1; i <= k; i++)
        if (s[i - 1] == 'o' && lose[i]) { printf("%d\n", i); any = true; }
    if (!any) puts("0");
}
