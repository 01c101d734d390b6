# Treats every game as Nim with at most k a kick and one ball a move (a ball worth a mod (k + 1)),
# which is right for M = 1 only: where M >= 2 it picks the wrong side or a losing kick.
import math
import sys


def main():
    words = (w for line in iter(sys.stdin.readline, "") for w in line.split())
    games = int(next(words))
    for _ in range(games):
        n, m, L, R = (int(next(words)) for _ in range(4))
        girth = 2 * math.pi * R
        k = int(L / girth)
        a = [int(int(next(words)) / girth) + 1 for _ in range(n)]
        xor = lambda: __import__("functools").reduce(lambda x, v: x ^ (v % (k + 1)), a, 0)
        mine = xor() != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                first = next(words)
                if first == "none":
                    break
                for _ in range(int(first)):
                    i, d = int(next(words)), int(next(words))
                    a[i - 1] -= d
            mine = False
            x = xor()
            i = next((i for i, v in enumerate(a) if (v % (k + 1)) ^ x < v % (k + 1)), None)
            if i is None:
                i = next(i for i, v in enumerate(a) if v > 0)
                d = 1
            else:
                g = a[i] % (k + 1)
                d = g - (g ^ x)
            a[i] -= d
            print(1, i + 1, d, flush=True)


main()
