# WRONG ANSWER: treats the game as Nim with a per-move cap k (XOR of a_i mod (k+1)), ignoring that
# one move may kick up to M balls. That is right only for M = 1; for M >= 2 the bit columns must be
# counted modulo M+1 (Moore's Nim_M). Exact pi arithmetic; O(N log S) per case.
import sys

D = 10 ** 30
PI = 3141592653589793238462643383279

def main():
    data = sys.stdin.buffer.read().split()
    out = []
    pos = 0
    while pos + 4 <= len(data):
        n, m, l, r = (int(t) for t in data[pos:pos + 4])
        pos += 4
        step = 2 * PI * r
        k = (l * D) // step
        x = 0
        for t in data[pos:pos + n]:
            x ^= (-((-int(t) * D) // step)) % (k + 1)
        pos += n
        out.append("Alice" if x else "Bob")
    print("\n".join(out))

main()
