# WRONG ANSWER: "the first player wins iff some pile is larger than all the others" (a strict
# maximum) -- a plausible guess from tiny cases like (1,2) and (2,2), but (1,2,3) has a
# strict maximum and XOR 0, so it is a loss. The XOR of the piles decides. O(N).
import sys

def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    a = sorted(int(t) for t in data[1:1 + n])
    strict_max = n == 1 and a[0] > 0 or n > 1 and a[-1] > a[-2]
    print("Alice" if strict_max else "Bob")

main()
