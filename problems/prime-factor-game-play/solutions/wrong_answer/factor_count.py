# Decides by the parity of the number of prime factors (with multiplicity) and always divides out a
# single smallest prime: wrong whenever the exponents' XOR and that parity disagree.
import sys


def factor(n):
    f = []
    p = 2
    while p * p <= n:
        while n % p == 0:
            n //= p
            f.append(p)
        p += 1
    if n > 1:
        f.append(n)
    return f


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        n = int(read())
        mine = len(factor(n)) % 2 == 1
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                n //= int(words[0]) ** int(words[1])
            mine = False
            f = factor(n)
            if not f:
                return
            n //= f[0]
            print(f[0], 1, flush=True)


main()
