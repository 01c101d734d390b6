// WRONG ANSWER: the interval-state solution, plus a "fast path" for Y a multiple of X that uses
// the seed editorial's closed form as literally written: for X = 2 (mod 3) it tests v = 0 (mod 3)
// instead of r = v mod X = 0 (mod 3) (X = 2, Y = 4, v = 3 has value 1; this says 2). O(1) per pile.
#include <bits/stdc++.h>
typedef unsigned long long u64;
typedef __int128 i128;

// Largest k in [0, hi] with floor((a k + b) / c) = w (mod 3), for 0 <= a <= c, 0 <= b < 3c; -1 if none.
// There floor(...) steps by 0 or 1, so it takes every value between h(0) and h(hi).
static i128 unit_slope(i128 a, i128 b, i128 c, i128 w, i128 hi) {
    i128 top = (a * hi + b) / c, h0 = b / c;
    i128 u = top - (top + 3 - w) % 3;  // largest value <= top that is = w (mod 3)
    if (u < h0) return -1;
    if (a == 0) return hi;
    return std::min(hi, ((u + 1) * c - 1 - b) / a);
}
// Same for 2c <= a < 3c: floor((ak+b)/c) = 3k - ceil(((3c-a)k - b)/c), a unit slope in disguise.
static i128 steep_slope(i128 a, i128 b, i128 c, i128 w, i128 hi) {
    return unit_slope(3 * c - a, (4 * c - 1 - b) % (3 * c), c, (3 - w) % 3, hi);
}
// Same for any 0 <= a, b < 3c; c < a < 2c splits k by parity, giving slope 2a mod 3c.
static i128 last_residue(i128 a, i128 b, i128 c, i128 w, i128 hi) {
    if (hi < 0) return -1;
    if (a <= c) return unit_slope(a, b, c, w, hi);
    if (a >= 2 * c) return steep_slope(a, b, c, w, hi);
    i128 best = -1, a2 = 2 * a % (3 * c);
    for (i128 k0 = 0; k0 <= 1 && k0 <= hi; k0++) {
        i128 b0 = (a * k0 + b) % (3 * c), mhi = (hi - k0) / 2;
        i128 r = a2 <= c ? unit_slope(a2, b0, c, w, mhi) : steep_slope(a2, b0, c, w, mhi);
        if (r >= 0) best = std::max(best, 2 * r + k0);
    }
    return best;
}

struct Game {
    u64 x, y;
    bool blocked(u64 v) const { return v % x == 0 || v % y == 0; }
    static int after_gap(u64 gap, int s) { return gap % 3 == 0 ? s : gap % 3 == 1 ? 0 : s ^ 1; }
    // state of the interval starting at i*X (composition of the X-interval maps before it)
    int entering(u64 i) const {
        if (i == 0 || x % 3 == 1) return 0;  // X = 1 (mod 3): every X-interval map sends 0 to 0
        u64 base = i * x, J = (base - 1) / y;  // Y-multiples jY < base: j = 1..J
        if (x % 3 == 0) {
            // X-interval map: identity unless a Y-multiple splits it at r = jY (mod 3) != 0,
            // which sets the state to 1 (r = 1) or 0 (r = 2). Only the last such j counts.
            if (y % 3 == 0 || J == 0) return 0;
            u64 j = J % 3 ? J : J - 1;
            if (j == 0) return 0;
            return (j % 3) * (y % 3) % 3 == 1;
        }
        // X = 2 (mod 3): every X-interval flips, except a split with r = 1 (mod 3), which resets.
        // r = jY mod X = jY + floor(jY/X) = floor(jY(X+1)/X) (mod 3).
        if (J == 0) return i & 1;
        i128 a = (i128)y * (x + 1) % (3 * (i128)x);
        i128 k = last_residue(a, a, x, 1, (i128)J - 1);  // j = k + 1
        if (k < 0) return i & 1;
        u64 jstar = (u64)k + 1, istar = (u64)((i128)jstar * y / x);
        return (i - istar - 1) & 1;
    }
    int free_grundy(u64 v) const {
        if (y % x == 0) {  // the seed's closed form, with the misread X = 2 (mod 3) condition
            u64 r = v % x;
            if (x % 3 == 0) return (v - 1) % 3;
            if (x % 3 == 1) return (r + 2) % 3;
            if (v % 3 == 0) return 2;  // should test r % 3
            return (int)((r + 2) % 3) ^ (int)((v / x) & 1);
        }
        u64 i = v / x, base = i * x, jy = v / y * y;
        int s = entering(i);
        u64 start = base;
        if (jy > base) { s = after_gap(jy - base, s); start = jy; }
        int t = (v - start - 1) % 3;
        return s == 0 ? t : (t == 0 ? 1 : t == 1 ? 0 : 2);
    }
    int grundy(u64 v) const {
        if (!blocked(v)) return free_grundy(v);
        int seen = 0;
        for (u64 d = 1; d <= 2; d++)
            if (v > d && !blocked(v - d)) seen |= 1 << free_grundy(v - d);
        int g = 0;
        while (seen >> g & 1) g++;
        return g;
    }
};

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    std::string out;
    while (t--) {
        int n;
        Game gm;
        scanf("%d %llu %llu", &n, &gm.x, &gm.y);
        int xr = 0;
        for (int i = 0; i < n; i++) {
            u64 a;
            scanf("%llu", &a);
            xr ^= gm.grundy(a);
        }
        out += xr ? "Alice\n" : "Bob\n";
    }
    fputs(out.c_str(), stdout);
}
