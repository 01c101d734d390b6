# WRONG ANSWER: uses the editorial's closed form (X = 0 mod 3: (v-1) mod 3; X = 1: (v mod X - 1)
# mod 3; X = 2: r = v mod X, 2 if r = 0 mod 3 else ((r-1) mod 3) xor (floor(v/X) mod 2)) for every
# pile. It is exact only when Y is a multiple of X or v < Y; elsewhere Y-multiples change the
# pattern (e.g. X = 3, Y = 4, v = 5 has value 0, the form says 1). O(1) per pile.
import sys


def make_grundy(x, y):
    def free(v):
        if x % 3 == 0:
            return (v - 1) % 3
        r = v % x
        if x % 3 == 1:
            return (r - 1) % 3
        return 2 if r % 3 == 0 else ((r - 1) % 3) ^ ((v // x) & 1)

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
