# WRONG ANSWER: indexes the danger string as if S[i] described number i (0-based), while S_1 is
# the first character: number i is dangerous iff S[i-1] == 'x'. Every danger mark moves one number
# down, so the wrong numbers are avoided. O(N) sliding-window DP otherwise correct.
import sys

def main():
    data = sys.stdin.read().split()
    n, k, s = int(data[0]), int(data[1]), data[2]
    good = [0] * (n + 1)
    cnt = 0
    for v in range(n - 1, -1, -1):
        safe = v >= 1 and (v >= len(s) or s[v] == 'o')  # the off-by-one
        if cnt == 0 and safe:
            good[v] = 1
            cnt += 1
        if v + k <= n - 1:
            cnt -= good[v + k]
    wins = [str(i) for i in range(1, k + 1) if good[i]]
    print("\n".join(wins) if wins else "0")

main()
