// Only sizes X_i with forbidden moves are special; elsewhere g(n) = h(n-1)+1 (h = running max).
// At a special n, v is unreachable iff forbidden moves hit all occurrences of v in g(0..n-1);
// count occurrences as 1 + extra[v]. O((N+M) log M).
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int main() {
    int n, m;
    if (scanf("%d %d", &n, &m) != 2) return 0;
    vector<ll> a(n);
    for (auto& v : a) scanf("%lld", &v);
    vector<pair<ll, ll>> f(m);
    for (auto& p : f) scanf("%lld %lld", &p.first, &p.second);
    sort(f.begin(), f.end());
    // specials: sorted X values, with 0 as a base point (g(0) = 0, h(0) = 0)
    vector<ll> sx = {0}, sg = {0}, sh = {0};  // position, g there, running max after it
    map<ll, ll> extra;                         // value -> occurrences beyond the first
    auto g_of = [&](ll v) -> ll {              // v below the special being processed
        size_t i = upper_bound(sx.begin(), sx.end(), v) - sx.begin() - 1;
        if (sx[i] == v) return sg[i];
        return sh[i] + (v - sx[i]);
    };
    for (size_t i = 0; i < f.size();) {
        ll x = f[i].first;
        size_t j = i;
        ll h = sh.back() + (x - 1 - sx.back());  // max of g(0..x-1)
        map<ll, ll> hits;
        for (; j < f.size() && f[j].first == x; j++) hits[g_of(x - f[j].second)]++;
        ll gx = h + 1;
        for (auto& [v, c] : hits) {
            auto it = extra.find(v);
            if (c == 1 + (it == extra.end() ? 0 : it->second)) { gx = v; break; }  // smallest first
        }
        if (gx <= h) extra[gx]++;
        sx.push_back(x); sg.push_back(gx); sh.push_back(max(h, gx));
        i = j;
    }
    ll total = 0;
    for (ll v : a) total ^= g_of(v);
    puts(total ? "Takahashi" : "Aoki");
}
