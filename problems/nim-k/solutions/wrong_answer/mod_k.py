# WRONG ANSWER: an off-by-one in Moore's rule: tests the bit column counts modulo K instead of
# K+1 (for K = 1 it even says every position is lost). Ordinary Nim is K = 1 with modulus 2,
# so the modulus is K+1. O(N log max A).
import sys

def main():
    data = sys.stdin.buffer.read().split()
    n, k = int(data[0]), int(data[1])
    a = [int(v) for v in data[2:2 + n]]
    win = False
    for b in range(31):
        c = sum((v >> b) & 1 for v in a)
        if c % k:
            win = True
            break
    print("Alice" if win else "Bob")

main()
