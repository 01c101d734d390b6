# Misere Nim: with all piles of size 1 the first player wins iff n is even; otherwise
# iff the XOR of the piles is non-zero. O(sum n).
import sys

def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos]); pos += 1
        piles = [int(v) for v in data[pos:pos + n]]; pos += n
        if all(p == 1 for p in piles):
            first = n % 2 == 0
        else:
            x = 0
            for p in piles:
                x ^= p
            first = x != 0
        out.append("First" if first else "Second")
    print("\n".join(out))

main()
