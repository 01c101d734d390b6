# Plays plain Nim (a pile is worth its size) and never makes a forbidden move: where Bouton's
# move is forbidden it takes one stone (or anything allowed). The forbidden moves change the
# values, so it picks the wrong side or a losing move.
import sys


def main():
    data = sys.stdin.readline
    games = int(data())
    for _ in range(games):
        n, m = map(int, data().split())
        piles = [int(t) for t in data().split()]
        forbidden = set()
        for _ in range(m):
            x, y = map(int, data().split())
            forbidden.add((x, y))
        x = 0
        for a in piles:
            x ^= a
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
            for a in piles:
                x ^= a
            legal = [(i, y) for i, a in enumerate(piles) for y in range(1, a + 1) if (a, y) not in forbidden]
            bouton = [(i, a - (a ^ x)) for i, a in enumerate(piles) if a ^ x < a]
            i, take = next((mv for mv in bouton if mv in legal), legal[0])
            piles[i] -= take
            print(i + 1, take, flush=True)


main()
