# WRONG ANSWER: treats every pile as an ordinary Nim pile (SG(x) = x). The "at most half" rule
# caps the moves, so the values are SG(x) = x/2 for even x and SG(x//2) for odd x; e.g. a single
# pile of 1 is dead (NO), which plain Nim calls a win. O(N) per case.
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
            x ^= int(tok)
        pos += n
        out.append("YES" if x else "NO")
    print("\n".join(out))

main()
