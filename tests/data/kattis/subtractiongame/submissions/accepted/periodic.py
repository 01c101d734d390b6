# Positions with n mod 7 in {0, 2} are lost for the player to move: from
# them every move (1, 3 or 4) reaches a residue in {1, 3, 4, 5, 6}, and
# from each of those some move reaches 0 or 2.
import sys

data = sys.stdin.buffer.read().split()
count = int(data[0])
print("\n".join("Bob" if int(n) % 7 in (0, 2) else "Alice" for n in data[1 : 1 + count]))
