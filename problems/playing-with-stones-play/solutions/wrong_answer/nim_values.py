# Treats each pile as a Nim pile (value a): the wrong Grundy values pick the wrong side, or a move to
# "XOR 0" that takes more than half a pile.
import sys


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        read()
        piles = [int(t) for t in read().split()]
        x = 0
        for a in piles:
            x ^= a
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                piles[int(words[0]) - 1] -= int(words[1])
            mine = False
            x = 0
            for a in piles:
                x ^= a
            i = next((i for i, a in enumerate(piles) if a ^ x < a), None)
            if i is None:
                i = next(i for i, a in enumerate(piles) if a >= 2)
                take = 1
            else:
                take = piles[i] - (piles[i] ^ x)
            piles[i] -= take
            print(i + 1, take, flush=True)


main()
