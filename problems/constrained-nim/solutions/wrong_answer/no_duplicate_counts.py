# WRONG ANSWER: the special-points method, but it assumes every value occurs only once in
# g(0..n-1), so any value hit by one forbidden move is taken as unreachable. Once a special size
# has repeated an earlier value, that value occurs twice, and one forbidden move no longer removes
# it. O((N+M) log M).
import sys
from bisect import bisect_right

def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    a = [int(v) for v in data[2:2 + n]]
    pos = 2 + n
    by_x = {}
    for i in range(m):
        x = int(data[pos + 2 * i]); y = int(data[pos + 2 * i + 1])
        by_x.setdefault(x, []).append(y)
    sx, sg, sh = [0], [0], [0]

    def g_of(v):
        i = bisect_right(sx, v) - 1
        if sx[i] == v:
            return sg[i]
        return sh[i] + (v - sx[i])

    for x in sorted(by_x):
        h = sh[-1] + (x - 1 - sx[-1])
        hit = sorted(set(g_of(x - y) for y in by_x[x]))
        gx = hit[0] if hit else h + 1
        sx.append(x); sg.append(gx); sh.append(max(h, gx))
    total = 0
    for v in a:
        total ^= g_of(v)
    print("Takahashi" if total else "Aoki")

main()
