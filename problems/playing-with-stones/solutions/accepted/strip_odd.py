# SG(x) = x//2 for even x and SG(x//2) for odd x: drop trailing 1-bits, then halve.
# XOR over the piles, YES iff non-zero. O(N * 64) per test case.
import sys

def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos]); pos += 1
        x = 0
        for tok in data[pos:pos + n]:
            a = int(tok)
            while a & 1:
                a >>= 1
            x ^= a >> 1
        pos += n
        out.append("YES" if x else "NO")
    print("\n".join(out))

main()
