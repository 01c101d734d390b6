# Free sizes between consecutive blocked numbers follow 012012.. or 102102.. (a 1-bit state); a gap
# g maps the state by g mod 3 (0 keep, 1 reset to 0, 2 flip). The state entering X-interval i needs
# only the last resetting Y-multiple, found by an O(1) floor-residue search. O(1) per pile.
import sys


def unit_slope(a, b, c, w, hi):
    # largest k in [0, hi] with floor((a k + b) / c) = w (mod 3), for 0 <= a <= c, 0 <= b < 3c
    top = (a * hi + b) // c
    u = top - (top - w) % 3
    if u < b // c:
        return -1
    if a == 0:
        return hi
    return min(hi, ((u + 1) * c - 1 - b) // a)


def steep_slope(a, b, c, w, hi):
    # 2c <= a < 3c: floor((ak+b)/c) = 3k - ceil(((3c-a)k - b)/c)
    return unit_slope(3 * c - a, (4 * c - 1 - b) % (3 * c), c, (3 - w) % 3, hi)


def last_residue(a, b, c, w, hi):
    if hi < 0:
        return -1
    if a <= c:
        return unit_slope(a, b, c, w, hi)
    if a >= 2 * c:
        return steep_slope(a, b, c, w, hi)
    best = -1
    a2 = 2 * a % (3 * c)
    for k0 in (0, 1):
        if k0 > hi:
            break
        b0 = (a * k0 + b) % (3 * c)
        mhi = (hi - k0) // 2
        r = unit_slope(a2, b0, c, w, mhi) if a2 <= c else steep_slope(a2, b0, c, w, mhi)
        if r >= 0 and 2 * r + k0 > best:
            best = 2 * r + k0
    return best


def make_grundy(x, y):
    xm, ym = x % 3, y % 3
    a3 = y * (x + 1) % (3 * x)

    def entering(i):
        if i == 0 or xm == 1:
            return 0
        big_j = (i * x - 1) // y
        if xm == 0:
            if ym == 0 or big_j == 0:
                return 0
            j = big_j if big_j % 3 else big_j - 1
            if j == 0:
                return 0
            return 1 if (j * ym) % 3 == 1 else 0
        if big_j == 0:
            return i & 1
        k = last_residue(a3, a3, x, 1, big_j - 1)
        if k < 0:
            return i & 1
        istar = (k + 1) * y // x
        return (i - istar - 1) & 1

    def free(v):
        i = v // x
        base = i * x
        jy = v // y * y
        s = entering(i)
        start = base
        if jy > base:
            g = (jy - base) % 3
            s = s if g == 0 else (0 if g == 1 else s ^ 1)
            start = jy
        t = (v - start - 1) % 3
        return t if s == 0 else (1, 0, 2)[t]

    def grundy(v):
        if v % x and v % y:
            return free(v)
        seen = set()
        for w in (v - 1, v - 2):
            if w >= 1 and w % x and w % y:
                seen.add(free(w))
        g = 0
        while g in seen:
            g += 1
        return g

    return grundy


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n, x, y = int(data[pos]), int(data[pos + 1]), int(data[pos + 2])
        pos += 3
        grundy = make_grundy(x, y)
        xr = 0
        for tok in data[pos:pos + n]:
            xr ^= grundy(int(tok))
        pos += n
        out.append("Alice" if xr else "Bob")
    print("\n".join(out))


main()
