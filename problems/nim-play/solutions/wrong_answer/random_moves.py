# Chooses its side correctly, then plays a random legal move: it must lose to the judge's replies.
import random
import sys


def main():
    read = sys.stdin.readline
    rng = random.Random(1)
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
                if not words:
                    return
                if words[0] == "none":
                    break
                piles[int(words[0]) - 1] -= int(words[1])
            mine = False
            choices = [i for i, a in enumerate(piles) if a > 0]
            if not choices:
                return
            i = rng.choice(choices)
            k = rng.randint(1, piles[i])
            piles[i] -= k
            print(i + 1, k, flush=True)


main()
