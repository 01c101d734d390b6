# Plain Nim on piles 1..N: XOR of 1..N is zero exactly when N mod 4 = 3 (then the first
# player loses). O(1).
n = int(input())
print("X" if n % 4 == 3 else "O")
