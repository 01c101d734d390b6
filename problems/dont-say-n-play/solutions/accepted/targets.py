# Backward DP: after the number v, the player to speak loses iff no safe w in (v, v + K], w < N,
# is itself such a number (a target). Play first iff 0 is not losing, then say the next target.
import sys


def main():
    data = sys.stdin.readline
    games = int(data())
    for _ in range(games):
        n, k = map(int, data().split())
        s = data().strip()
        safe = [True] + [c == "o" for c in s]
        lose = [False] * n
        window = 0
        for v in range(n - 1, -1, -1):
            lose[v] = window == 0
            if safe[v] and lose[v]:
                window += 1
            if v + k < n and safe[v + k] and lose[v + k]:
                window -= 1
        next_target = [n] * (n + 1)
        for v in range(n - 2, -1, -1):
            next_target[v] = v + 1 if safe[v + 1] and lose[v + 1] else next_target[v + 1]
        mine = not lose[0]
        print("First" if mine else "Second", flush=True)
        said = 0
        while True:
            if not mine:
                words = data().split()
                if not words or words[0] == "none":
                    break
                said = int(words[0])
            mine = False
            said = next_target[said]
            print(said, flush=True)


main()
