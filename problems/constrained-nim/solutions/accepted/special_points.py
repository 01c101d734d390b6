# Grundy values only deviate at sizes X_i: elsewhere g(n) = 1 + max g(0..n-1). At a special n,
# the smallest value all of whose occurrences are hit by forbidden moves is g(n) (else max+1);
# occurrences of v are 1 + extra[v]. O((N+M) log M).
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
    sx, sg, sh = [0], [0], [0]   # special positions, their g, running max after them
    extra = {}

    def g_of(v):
        i = bisect_right(sx, v) - 1
        if sx[i] == v:
            return sg[i]
        return sh[i] + (v - sx[i])

    for x in sorted(by_x):
        h = sh[-1] + (x - 1 - sx[-1])
        hits = {}
        for y in by_x[x]:
            v = g_of(x - y)
            hits[v] = hits.get(v, 0) + 1
        gx = h + 1
        for v in sorted(hits):
            if hits[v] == 1 + extra.get(v, 0):
                gx = v
                break
        if gx <= h:
            extra[gx] = extra.get(gx, 0) + 1
        sx.append(x); sg.append(gx); sh.append(max(h, gx))
    total = 0
    for v in a:
        total ^= g_of(v)
    print("Takahashi" if total else "Aoki")

main()
