// WRONG ANSWER: the right game rule with pi in double precision (M_PI) and the `+ 1e-9` that
// several accepted POJ codes add when they compute the kick cap k. The double is close enough
// for every pile, but the epsilon pushes k = floor(L/(2 pi R)) over an integer where L lies just
// below a multiple of 2 pi R: L = 80143857, R = 1 gives k = 12755291 instead of 12755290. The
// edge testcases hold such cases. O(N log S) per case.
#include <bits/stdc++.h>
typedef long long ll;
int main() {
    ll n, m, l, r;
    while (scanf("%lld %lld %lld %lld", &n, &m, &l, &r) == 4) {
        const double girth = 2 * M_PI * r;
        ll k = (ll)(l / girth + 1e-9);
        std::vector<ll> pile(n);
        for (auto& a : pile) {
            ll s;
            scanf("%lld", &s);
            a = (ll)(s / girth) + 1;
        }
        bool alice = false;
        for (int b = 0; b < 40 && !alice; b++) {
            ll c = 0;
            for (ll a : pile) c += ((a % (k + 1)) >> b) & 1;
            if (c % (m + 1)) alice = true;
        }
        puts(alice ? "Alice" : "Bob");
    }
}
