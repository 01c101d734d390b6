# WRONG ANSWER: takes the Grundy value of an exponent e as e mod 2 ("moves of 1 or 2, so only
# parity matters"). The subtraction game with moves {1, 2} has value e mod 3: e = 2 has value 2
# (a win) and e = 3 value 0 (a loss), which parity gets wrong. O(N sqrt(max M)).
import sys

def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    x = 0
    for tok in data[1:1 + n]:
        m = int(tok)
        p = 2
        while p * p <= m:
            e = 0
            while m % p == 0:
                m //= p
                e += 1
            x ^= e % 2
            p += 1
        if m > 1:
            x ^= 1
    print("Alice" if x else "Bob")

main()
