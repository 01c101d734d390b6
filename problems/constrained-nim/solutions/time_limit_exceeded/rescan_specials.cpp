// TIME LIMIT EXCEEDED: the special-points method, but instead of keeping a count of repeated
// values it rescans every earlier special size to count how often a value occurs: O(M * |S|),
// about 4*10^10 steps when the M forbidden pairs have ~2*10^5 distinct X.
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
    vector<ll> sx = {0}, sg = {0}, sh = {0};
    auto g_of = [&](ll v) -> ll {
        size_t i = upper_bound(sx.begin(), sx.end(), v) - sx.begin() - 1;
        if (sx[i] == v) return sg[i];
        return sh[i] + (v - sx[i]);
    };
    for (size_t i = 0; i < f.size();) {
        ll x = f[i].first;
        size_t j = i;
        ll h = sh.back() + (x - 1 - sx.back());
        map<ll, ll> hits;
        for (; j < f.size() && f[j].first == x; j++) hits[g_of(x - f[j].second)]++;
        ll gx = h + 1;
        for (auto& [v, c] : hits) {
            ll occ = 1;  // the first occurrence; then every special that repeated v
            for (size_t t = 1; t < sx.size(); t++)
                if (sg[t] == v && sg[t] <= sh[t - 1] + (sx[t] - 1 - sx[t - 1])) occ++;
            if (c == occ) { gx = v; break; }
        }
        sx.push_back(x); sg.push_back(gx); sh.push_back(max(h, gx));
        i = j;
    }
    ll total = 0;
    for (ll v : a) total ^= g_of(v);
    puts(total ? "Takahashi" : "Aoki");
}
