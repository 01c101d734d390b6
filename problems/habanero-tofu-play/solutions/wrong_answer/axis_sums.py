# Treats each axis of a block as one pile, the free cells on both sides together, instead of two
# piles: the XOR of 3N sums picks the wrong side, or a cut that leaves the judge a win.
import sys


def main():
    tokens = iter(sys.stdin.readline, "")
    words = (w for line in tokens for w in line.split())
    games = int(next(words))
    for _ in range(games):
        n = int(next(words))
        d = []
        for _ in range(n):
            size = [int(next(words)) for _ in range(3)]
            m = int(next(words))
            cells = [[int(next(words)) for _ in range(3)] for _ in range(m)]
            for a in range(3):
                d.append(min(c[a] for c in cells))
                d.append(size[a] - 1 - max(c[a] for c in cells))
        sums = lambda: [d[2 * i] + d[2 * i + 1] for i in range(3 * n)]
        x = 0
        for v in sums():
            x ^= v
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                b = next(words)
                if b == "none":
                    break
                h = 6 * (int(b) - 1) + int(next(words)) - 1
                d[h] -= int(next(words))
            mine = False
            s = sums()
            x = 0
            for v in s:
                x ^= v
            axis = next((i for i, v in enumerate(s) if v ^ x < v), None)
            if axis is None:
                axis = next(i for i, v in enumerate(s) if v > 0)
                take = 1
            else:
                take = s[axis] - (s[axis] ^ x)
            h = 2 * axis if d[2 * axis] >= take else 2 * axis + 1
            take = min(take, d[h])
            d[h] -= take
            print(h // 6 + 1, h % 6 + 1, take, flush=True)


main()
