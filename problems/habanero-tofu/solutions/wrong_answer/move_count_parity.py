# WRONG ANSWER: counts the safe one-layer cuts (the total of the 6N face distances) and decides by
# its parity, as if every cut removed exactly one layer. A single cut may remove many layers at
# once, so each face distance is a Nim heap and the XOR decides, not the parity of the sum. O(sum M).
import sys

def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    n = int(data[pos]); pos += 1
    total = 0
    for _ in range(n):
        dims = [int(data[pos]), int(data[pos + 1]), int(data[pos + 2])]
        m = int(data[pos + 3])
        pos += 4
        cells = list(map(int, data[pos:pos + 3 * m]))
        pos += 3 * m
        for d in range(3):
            col = cells[d::3]
            total += min(col) + (dims[d] - 1 - max(col))
    print("WIN" if total % 2 else "LOSE")

main()
