// WRONG ANSWER: forgets that saying a dangerous number ('x') loses: it treats every number below
// N as sayable. That is the plain "don't say N" game (losing positions every K+1 from N-1), which
// differs from the real one as soon as a dangerous number matters. O(N) sliding window.
#include <cstdio>
#include <vector>
#include <string>
#include <iostream>
int main() {
    std::ios::sync_with_stdio(false);
    int n, k;
    std::string s;
    if (!(std::cin >> n >> k >> s)) return 0;
    std::vector<char> good(n + 1, 0);
    int cnt = 0;
    for (int v = n - 1; v >= 0; v--) {
        if (cnt == 0 && v >= 1) good[v] = 1;
        cnt += good[v];
        if (v + k <= n - 1) cnt -= good[v + k];
    }
    bool any = false;
    for (int i = 1; i <= k; i++)
        if (good[i]) { printf("%d\n", i); any = true; }
    if (!any) puts("0");
}
