# Takes the rule of prime-factor-game (No.2, where any power may be divided out: Grundy e) for this
# game's (only p or p^2: Grundy e mod 3). It picks the wrong side as soon as an exponent reaches 3.
import sys


def piles(numbers):
    for i, m in enumerate(numbers):
        p = 2
        while m > 1:
            if p * p > m:
                yield i, m, 1
                break
            e = 0
            while m % p == 0:
                m //= p
                e += 1
            if e:
                yield i, p, e
            p += 1


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        read()
        numbers = [int(t) for t in read().split()]
        x = 0
        for _, _, e in piles(numbers):
            x ^= e
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                numbers[int(words[0]) - 1] //= int(words[1]) ** int(words[2])
            mine = False
            x = 0
            for _, _, e in piles(numbers):
                x ^= e
            move = None
            for i, p, e in piles(numbers):
                for k in (1, 2):
                    if k <= e and (e - k) == e ^ x:
                        move = (i, p, k)
            if move is None:
                i, p, _ = next(piles(numbers))
                move = (i, p, 1)
            i, p, k = move
            numbers[i] //= p ** k
            print(i + 1, p, k, flush=True)


main()
