# Moore's Nim_K: Alice (to move) loses iff every bit column count is divisible by K+1.
# O(N log max A): one pass over the piles per bit (30 bits).
import sys

def main():
    data = sys.stdin.buffer.read().split()
    n, k = int(data[0]), int(data[1])
    a = [int(v) for v in data[2:2 + n]]
    win = False
    for b in range(31):
        c = sum((v >> b) & 1 for v in a)
        if c % (k + 1):
            win = True
            break
    print("Alice" if win else "Bob")

main()
