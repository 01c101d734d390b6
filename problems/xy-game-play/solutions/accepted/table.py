# Grundy values by their definition up to the largest pile: g(v) is the mex of g(v - d) over
# d in {1, 2} with v - d a multiple of neither X nor Y (0 counts). Play first iff the XOR is
# non-zero, then take 1 or 2 from a pile to a free size of value g(a) ^ x.
import sys


def main():
    data = sys.stdin.readline
    games = int(data())
    for _ in range(games):
        n, X, Y = map(int, data().split())
        piles = [int(t) for t in data().split()]
        free = lambda v: v >= 1 and v % X != 0 and v % Y != 0
        g = [0] * (max(piles) + 1)
        for v in range(1, len(g)):
            seen = {g[v - d] for d in (1, 2) if free(v - d)}
            while g[v] in seen:
                g[v] += 1
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
            i, d = next(
                (i, d)
                for i, a in enumerate(piles)
                for d in (1, 2)
                if free(a - d) and g[a - d] == g[a] ^ x
            )
            piles[i] -= d
            x = 0
            print(i + 1, d, flush=True)


main()
