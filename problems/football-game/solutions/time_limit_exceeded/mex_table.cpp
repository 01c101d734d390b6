// TIME LIMIT EXCEEDED: for M = 1 (Nim with a kick cap k) it computes each pile's Grundy value by a
// mex table, g(v) = mex{g(v-d) : 1 <= d <= min(k, v)}, instead of the closed form v mod (k+1).
// Correct, but O(a * k) per pile with a and k up to ~1.6*10^7. (M >= 2: Moore's Nim_M test.)
#include <bits/stdc++.h>
typedef __int128 i128;
typedef long long ll;
const i128 D = (i128)10000000000000LL * 1000000000000LL;                  // 10^25
const i128 PI = (i128)31415926535897LL * 1000000000000LL + 932384626433LL;  // floor(pi * 10^25)
static bool below(ll m, ll v) { return 2 * PI * (i128)m < (i128)v * D; }
int main() {
    ll n, m, l, r;
    while (scanf("%lld %lld %lld %lld", &n, &m, &l, &r) == 4) {
        const double girth = 2 * M_PI * r;
        ll k = (ll)(l / girth);
        while (k > 0 && !below(r * k, l)) k--;
        while (below(r * (k + 1), l)) k++;
        std::vector<ll> pile(n);
        for (auto& a : pile) {
            ll s;
            scanf("%lld", &s);
            a = std::max<ll>(1, (ll)(s / girth));
            while (a > 1 && !below(r * (a - 1), s)) a--;
            while (below(r * a, s)) a++;
        }
        bool alice = false;
        if (m == 1) {
            ll top = *std::max_element(pile.begin(), pile.end());
            std::vector<int> g(top + 1, 0);
            for (ll v = 1; v <= top; v++) {
                std::vector<char> seen(k + 2, 0);
                for (ll d = 1; d <= std::min(k, v); d++) if (g[v - d] <= k) seen[g[v - d]] = 1;
                int x = 0;
                while (seen[x]) x++;
                g[v] = x;
            }
            ll x = 0;
            for (ll a : pile) x ^= g[a];
            alice = x != 0;
        } else {
            for (int b = 0; b < 40 && !alice; b++) {
                ll c = 0;
                for (ll a : pile) c += (a >> b) & 1;
                if (c % (m + 1)) alice = true;
            }
        }
        puts(alice ? "Alice" : "Bob");
    }
}
