# Wrong: takes only the multiples of 7 for lost positions, missing n mod 7 = 2.
import sys

data = sys.stdin.buffer.read().split()
for n in data[1 : 1 + int(data[0])]:
    print("Bob" if int(n) % 7 == 0 else "Alice")
