# Each face of a block is a Nim pile: the free distance from it to the box around the block's
# habaneros. Play first iff the XOR of the 6N distances is non-zero, then always make it 0.
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
        x = 0
        for v in d:
            x ^= v
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                b = next(words)
                if b == "none":
                    break
                h = 6 * (int(b) - 1) + int(next(words)) - 1
                x ^= d[h]
                d[h] -= int(next(words))
                x ^= d[h]
            mine = False
            h = next(h for h, v in enumerate(d) if v ^ x < v)
            keep = d[h] ^ x
            print(h // 6 + 1, h % 6 + 1, d[h] - keep, flush=True)
            d[h] = keep
            x = 0


main()
