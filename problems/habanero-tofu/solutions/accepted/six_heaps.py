# Each block gives 6 Nim heaps: min x, X-1-max x, min y, Y-1-max y, min z, Z-1-max z over its
# habanero cells (0-indexed); Takahashi wins iff their XOR is non-zero. O(sum M).
import sys

def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    n = int(data[pos]); pos += 1
    x = 0
    for _ in range(n):
        dims = [int(data[pos]), int(data[pos + 1]), int(data[pos + 2])]
        m = int(data[pos + 3])
        pos += 4
        cells = list(map(int, data[pos:pos + 3 * m]))
        pos += 3 * m
        for d in range(3):
            col = cells[d::3]
            x ^= min(col) ^ (dims[d] - 1 - max(col))
    print("WIN" if x else "LOSE")

main()
