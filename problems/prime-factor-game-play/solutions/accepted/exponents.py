# Each prime's exponent is a Nim pile. Play first iff the XOR of the exponents is non-zero, then lower
# an exponent e with e ^ x < e down to e ^ x.
import sys


def factor(n):
    f = []
    p = 2
    while p * p <= n:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        if e:
            f.append((p, e))
        p += 1
    if n > 1:
        f.append((n, 1))
    return f


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        n = int(read())
        x = 0
        for _, e in factor(n):
            x ^= e
        mine = x != 0
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                n //= int(words[0]) ** int(words[1])
            mine = False
            f = factor(n)
            x = 0
            for _, e in f:
                x ^= e
            p, e = next((p, e) for p, e in f if e ^ x < e)
            j = e - (e ^ x)
            n //= p ** j
            print(p, j, flush=True)


main()
