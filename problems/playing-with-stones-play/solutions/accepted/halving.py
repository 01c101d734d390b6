# A pile's Grundy value: a/2 for even a, g(a/2) for odd a; so the sizes worth v are 2v and
# (2v+1)*2^j - 1 (j >= 1). Play first iff the XOR is non-zero, then move a pile a to a size in
# [a - a//2, a - 1] worth g(a) ^ x, which makes the XOR 0.
import sys


def g(a):
    while a % 2 == 1:
        a //= 2
    return a // 2


def sizes(v, below):
    if 2 * v < below:
        yield 2 * v
    n = (2 * v + 1) * 2 - 1
    while n < below:
        yield n
        n = (n + 1) * 2 - 1


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        read()
        piles = [int(t) for t in read().split()]
        values = [g(a) for a in piles]
        x = 0
        for v in values:
            x ^= v
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                i = int(words[0]) - 1
                piles[i] -= int(words[1])
                x ^= values[i]
                values[i] = g(piles[i])
                x ^= values[i]
            mine = False
            move = next(
                (i, a - s)
                for i, a in enumerate(piles)
                for s in sizes(values[i] ^ x, a)
                if s >= a - a // 2
            )
            i, take = move
            piles[i] -= take
            x ^= values[i]
            values[i] = g(piles[i])
            x ^= values[i]
            print(i + 1, take, flush=True)


main()
