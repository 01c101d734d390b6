// Backward DP: lose[v] (the player to move after v was said loses) iff no safe w in (v, v+K],
// w <= N-1, has lose[w]; a sliding count of such w gives O(N). Answer: safe i <= K with lose[i].
#include <cstdio>
#include <vector>
#include <string>
#include <iostream>
int main() {
    std::ios::sync_with_stdio(false);
    int n, k;
    std::string s;
    if (!(std::cin >> n >> k >> s)) return 0;
    std::vector<char> good(n + 1, 0), lose(n + 1, 0);  // good[w]: safe and losing for the mover
    int cnt = 0;  // number of good w in (v, min(v+k, n-1)]
    for (int v = n - 1; v >= 0; v--) {
        lose[v] = (cnt == 0);
        if (v >= 1 && s[v - 1] == 'o' && lose[v]) good[v] = 1;
        cnt += good[v];
        if (v + k <= n - 1) cnt -= good[v + k];  // window for v-1 is (v-1, v-1+k]
    }
    std::string out;
    for (int i = 1; i <= k; i++)
        if (good[i]) out += std::to_string(i) + "\n";
    if (out.empty()) out = "0\n";
    fputs(out.c_str(), stdout);
}
