# Piles a = ceil(S / 2piR) and cap k = floor(L / 2piR), computed exactly with integer pi to 30
# digits; then reduce piles mod k+1 and apply Moore's Nim_M bit-column test (exact on the hosted
# domain: M = 1 or no pile above k). O(N log S) per case.
import sys

D = 10 ** 30
PI = 3141592653589793238462643383279  # floor(pi * 10^30)

def ceil_div(num, den):
    return -((-num) // den)

def main():
    data = sys.stdin.buffer.read().split()
    out = []
    pos = 0
    while pos + 4 <= len(data):
        n, m, l, r = (int(t) for t in data[pos:pos + 4])
        pos += 4
        s = [int(t) for t in data[pos:pos + n]]
        pos += n
        step = 2 * PI * r      # 2*pi*r scaled by D; 2*pi*r*q is never an integer for q >= 1
        k = (l * D) // step
        piles = [ceil_div(v * D, step) for v in s]
        alice = False
        for b in range(40):
            c = sum(((a % (k + 1)) >> b) & 1 for a in piles)
            if c % (m + 1):
                alice = True
                break
        out.append("Alice" if alice else "Bob")
    print("\n".join(out))

main()
