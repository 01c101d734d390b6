// Piles a_i = ceil(S_i / 2piR), cap k = floor(L / 2piR), decided exactly with pi to 25 digits in
// 128-bit integers; then POJ's rule (exact on nimjudge's domain): reduce mod k+1, Moore's Nim_M
// test on the bit columns. O(N log S) per case.
#include <bits/stdc++.h>
typedef __int128 i128;
typedef long long ll;
const i128 D = (i128)10000000000000LL * 1000000000000LL;                  // 10^25
const i128 PI = (i128)31415926535897LL * 1000000000000LL + 932384626433LL;  // floor(pi * 10^25)
// Is 2*pi*m < v ?  (2*pi*m is irrational for m >= 1, so it never equals v.)
static bool below(ll m, ll v) { return 2 * PI * (i128)m < (i128)v * D; }
int main() {
    ll n, m, l, r;
    while (scanf("%lld %lld %lld %lld", &n, &m, &l, &r) == 4) {
        const double girth = 2 * M_PI * r;
        ll k = (ll)(l / girth);                   // close; fix it exactly
        while (k > 0 && !below(r * k, l)) k--;
        while (below(r * (k + 1), l)) k++;
        std::vector<ll> pile(n);
        for (auto& a : pile) {
            ll s;
            scanf("%lld", &s);
            a = std::max<ll>(1, (ll)(s / girth));  // smallest q with 2*pi*r*q > s
            while (a > 1 && !below(r * (a - 1), s)) a--;
            while (below(r * a, s)) a++;
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
