# Nim against the judge: play first iff the XOR of the piles is non-zero, then always move to a
# position whose XOR is zero (Bouton 1901). Reads line by line and flushes after every line.
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
            for i, a in enumerate(piles):
                if a ^ x < a:
                    print(i + 1, a - (a ^ x), flush=True)
                    piles[i] = a ^ x
                    break


main()
