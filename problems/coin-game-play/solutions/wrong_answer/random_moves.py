# Chooses its side right (N mod 4 != 3 plays first), then takes a random number of coins from a
# random non-empty plate: the judge, given a winning position, wins.
import random
import sys


def main():
    read = sys.stdin.readline
    rng = random.Random(524)
    games = int(read())
    for _ in range(games):
        n = int(read())
        coins = list(range(1, n + 1))
        mine = n % 4 != 3
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                coins[int(words[0]) - 1] -= int(words[1])
            mine = False
            i = rng.choice([i for i, c in enumerate(coins) if c > 0])
            take = rng.randint(1, coins[i])
            coins[i] -= take
            print(i + 1, take, flush=True)


main()
