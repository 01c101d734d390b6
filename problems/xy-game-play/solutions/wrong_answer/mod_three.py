# Plays the subtraction game {1, 2} as if nothing were blocked (a pile is worth its size mod 3),
# while making only legal moves: the blocked sizes change the values, so it picks the wrong side
# or a losing move.
import sys


def main():
    data = sys.stdin.readline
    games = int(data())
    for _ in range(games):
        n, X, Y = map(int, data().split())
        piles = [int(t) for t in data().split()]
        free = lambda v: v >= 1 and v % X != 0 and v % Y != 0
        value = lambda: [a % 3 for a in piles]
        x = 0
        for v in value():
            x ^= v
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = data().split()
                if not words or words[0] == "none":
                    break
                piles[int(words[0]) - 1] -= int(words[1])
            mine = False
            x = 0
            for v in value():
                x ^= v
            legal = [(i, d) for i, a in enumerate(piles) for d in (1, 2) if free(a - d)]
            good = [(i, d) for i, d in legal if (piles[i] - d) % 3 == piles[i] % 3 ^ x]
            i, d = (good or legal)[0]
            piles[i] -= d
            print(i + 1, d, flush=True)


main()
