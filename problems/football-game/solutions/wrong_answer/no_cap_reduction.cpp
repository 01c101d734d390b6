// WRONG ANSWER: applies Moore's Nim_M test to the raw piles a_i, forgetting the kick cap k (no
// reduction mod k+1). On the hosted domain that only matters when M = 1 and some pile exceeds k:
// then each pile is worth a_i mod (k+1), not a_i. Exact pi arithmetic; O(N log S) per case.
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
        if (k > 0)  // with k = 0 nobody can move, that much it gets right
            for (int b = 0; b < 40 && !alice; b++) {
                ll c = 0;
                for (ll a : pile) c += (a >> b) & 1;
                if (c % (m + 1)) alice = true;
            }
        puts(alice ? "Alice" : "Bob");
    }
}
