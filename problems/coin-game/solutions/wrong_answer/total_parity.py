# WRONG ANSWER: decides by the parity of the total number of coins N(N+1)/2 ("odd total, first
# player wins"), as if every move took one coin. A move may take many coins from a plate, so this
# is Nim and the XOR of 1..N decides (zero iff N mod 4 = 3). O(1).
n = int(input())
print("O" if n * (n + 1) // 2 % 2 == 1 else "X")
