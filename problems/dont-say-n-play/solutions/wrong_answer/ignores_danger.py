# Plays the game as if every number were safe (say the numbers congruent to N - 1 modulo K + 1),
# while still never saying a dangerous one: with dangerous numbers about, that picks the wrong
# side or the wrong number.
import sys


def main():
    data = sys.stdin.readline
    games = int(data())
    for _ in range(games):
        n, k = map(int, data().split())
        s = data().strip()
        safe = [True] + [c == "o" for c in s]
        mine = (n - 1) % (k + 1) != 0
        print("First" if mine else "Second", flush=True)
        said = 0
        while True:
            if not mine:
                words = data().split()
                if not words or words[0] == "none":
                    break
                said = int(words[0])
            mine = False
            reach = [w for w in range(said + 1, min(said + k, n - 1) + 1) if safe[w]]
            target = [w for w in reach if (n - 1 - w) % (k + 1) == 0]
            said = (target or reach or [said + 1])[0]
            print(said, flush=True)


main()
