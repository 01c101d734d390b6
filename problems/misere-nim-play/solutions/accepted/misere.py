# Misère Nim against the judge: Nim's move while two or more piles hold two stones or more; with
# one such pile, leave an odd number of one-stone piles; with none, take a one-stone pile.
import sys


def winning(piles):
    big = [i for i, a in enumerate(piles) if a >= 2]
    ones = [i for i, a in enumerate(piles) if a == 1]
    if not big:
        return (ones[0], 1) if ones and len(ones) % 2 == 0 else None
    if len(big) == 1:
        i = big[0]
        return (i, piles[i] - (0 if len(ones) % 2 == 1 else 1))
    x = 0
    for a in piles:
        x ^= a
    for i, a in enumerate(piles):
        if a ^ x < a:
            return (i, a - (a ^ x))
    return None


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        read()
        piles = [int(t) for t in read().split()]
        mine = winning(piles) is not None
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                piles[int(words[0]) - 1] -= int(words[1])
            mine = False
            i, k = winning(piles)
            piles[i] -= k
            print(i + 1, k, flush=True)


main()
