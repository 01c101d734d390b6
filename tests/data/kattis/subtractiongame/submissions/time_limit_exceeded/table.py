# Too slow: walks every position up to the largest n, keeping the last four.
import sys

data = sys.stdin.buffer.read().split()
games = [int(n) for n in data[1 : 1 + int(data[0])]]
last = [False, True, False, True]  # won, for n = 0, 1, 2, 3
for n in range(4, max(games) + 1):
    last = last[1:] + [not (last[3] and last[1] and last[0])]
print("\n".join("Alice" if n % 7 not in (0, 2) else "Bob" for n in games))
