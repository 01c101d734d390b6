# WRONG ANSWER: handles the all-ones special case but with the parity backwards (first player
# wins iff n is odd). With n piles of 1 the moves are forced and whoever takes the last stone
# loses, so the first player wins iff n is even. O(sum n).
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
            first = n % 2 == 1
        else:
            x = 0
            for p in piles:
                x ^= p
            first = x != 0
        out.append("First" if first else "Second")
    print("\n".join(out))

main()
