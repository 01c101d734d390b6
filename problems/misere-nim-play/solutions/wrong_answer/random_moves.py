# Chooses its side correctly, then takes a random number of stones from a random pile.
import random
import sys


def first_wins(piles):
    if all(a <= 1 for a in piles):
        return sum(piles) % 2 == 0
    x = 0
    for a in piles:
        x ^= a
    return x != 0


def main():
    read = sys.stdin.readline
    rng = random.Random(2)
    games = int(read())
    for _ in range(games):
        read()
        piles = [int(t) for t in read().split()]
        mine = first_wins(piles)
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
