# The editorial's Grundy values in O(A + M): every value up to h(n - 1) occurs below n, so g(n) is
# the smallest value all of whose occurrences the forbidden moves from n hit, or h(n - 1) + 1 if
# there is none. Play first iff the XOR is non-zero, then move a pile a to a size of value
# g(a) ^ x by a move not forbidden (sizes are listed by value).
import sys
from collections import defaultdict


def values(top, forbidden_from):
    g = [0] * (top + 1)
    count = defaultdict(int)
    count[0] = 1
    h = 0
    for n in range(1, top + 1):
        hit = defaultdict(int)
        for y in forbidden_from.get(n, ()):
            hit[g[n - y]] += 1
        missing = [v for v, k in hit.items() if k == count[v]]
        g[n] = min(missing) if missing else h + 1
        count[g[n]] += 1
        h = max(h, g[n])
    return g


def main():
    data = sys.stdin.readline
    games = int(data())
    for _ in range(games):
        n, m = map(int, data().split())
        piles = [int(t) for t in data().split()]
        forbidden = set()
        forbidden_from = defaultdict(list)
        for _ in range(m):
            x, y = map(int, data().split())
            forbidden.add((x, y))
            forbidden_from[x].append(y)
        g = values(max(piles), forbidden_from)
        sizes = defaultdict(list)
        for s, v in enumerate(g):
            sizes[v].append(s)
        x = 0
        for a in piles:
            x ^= g[a]
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = data().split()
                if not words or words[0] == "none":
                    break
                i = int(words[0]) - 1
                x ^= g[piles[i]]
                piles[i] -= int(words[1])
                x ^= g[piles[i]]
            mine = False
            move = next(
                (i, a - s)
                for i, a in enumerate(piles)
                if g[a] ^ x < g[a]
                for s in sizes[g[a] ^ x]
                if s < a and (a, a - s) not in forbidden
            )
            i, take = move
            x ^= g[piles[i]]
            piles[i] -= take
            x ^= g[piles[i]]
            print(i + 1, take, flush=True)


main()
