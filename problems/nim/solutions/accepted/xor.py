# Plain Nim: the first player wins iff the XOR of the piles is non-zero.
# O(N) time; all input is read at once and split into tokens.
import sys

def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = 0
    for tok in data[1:1 + n]:
        x ^= int(tok)
    print("Alice" if x else "Bob")

main()
