# Nim on the plates (plate i starts with i coins): play first iff N mod 4 != 3 (the XOR of
# 1..N is N, 1, N + 1, 0 by N mod 4), then always move to XOR 0.
import sys


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        n = int(read())
        coins = list(range(1, n + 1))
        x = [n, 1, n + 1, 0][n % 4]
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                i = int(words[0]) - 1
                x ^= coins[i]
                coins[i] -= int(words[1])
                x ^= coins[i]
            mine = False
            i = next(i for i, c in enumerate(coins) if c ^ x < c)
            keep = coins[i] ^ x
            print(i + 1, coins[i] - keep, flush=True)
            coins[i] = keep
            x = 0


main()
