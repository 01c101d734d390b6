// WRONG ANSWER: the right game rule (piles mod k+1, Moore's Nim_M test) but with pi written as
// 3.14159. Its relative error ~8e-7 moves S/(2piR) by up to ~13 units for S near 10^8, so the
// pile counts and the cap k come out wrong on large inputs. O(N log S) per case.
#include <bits/stdc++.h>
typedef long long ll;
int main() {
    ll n, m, l, r;
    while (scanf("%lld %lld %lld %lld", &n, &m, &l, &r) == 4) {
        const double girth = 2 * 3.14159 * r;
        ll k = (ll)(l / girth);
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
