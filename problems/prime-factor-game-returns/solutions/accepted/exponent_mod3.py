# An exponent e under moves "remove 1 or 2" has Grundy value e mod 3; Alice wins iff the XOR
# of (e mod 3) over every prime of every M_i is non-zero. O(N sqrt(max M)) = 100 * 100 steps.
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
            x ^= e % 3
            p += 1
        if m > 1:
            x ^= 1
    print("Alice" if x else "Bob")

main()
