# Each prime power p^e is a pile from which a move takes 1 or 2 factors: Grundy e mod 3. Play first
# iff the XOR is non-zero, then take k factors from a pile whose new value cancels the XOR.
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


def xor(numbers):
    x = 0
    for _, _, e in piles(numbers):
        x ^= e % 3
    return x


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        read()
        numbers = [int(t) for t in read().split()]
        mine = xor(numbers) != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                i, p, k = int(words[0]) - 1, int(words[1]), int(words[2])
                numbers[i] //= p ** k
            mine = False
            x = xor(numbers)
            move = next(
                (i, p, k)
                for i, p, e in piles(numbers)
                for k in (1, 2)
                if k <= e and (e - k) % 3 == (e % 3) ^ x
            )
            i, p, k = move
            numbers[i] //= p ** k
            print(i + 1, p, k, flush=True)


main()
