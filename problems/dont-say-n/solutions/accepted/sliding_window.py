# Backward DP over the last number said: v loses for the mover iff no safe losing w lies in
# (v, v+K] below N; a sliding count makes it O(N). Winning first numbers: safe i <= K, losing.
import sys

def main():
    data = sys.stdin.read().split()
    n, k, s = int(data[0]), int(data[1]), data[2]
    good = [0] * (n + 1)
    cnt = 0
    for v in range(n - 1, -1, -1):
        if cnt == 0 and v >= 1 and s[v - 1] == 'o':
            good[v] = 1
            cnt += 1
        if v + k <= n - 1:
            cnt -= good[v + k]
    wins = [str(i) for i in range(1, k + 1) if good[i]]
    print("\n".join(wins) if wins else "0")

main()
