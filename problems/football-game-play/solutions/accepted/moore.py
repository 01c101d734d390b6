# Units first, exactly: a_i = floor(S_i / 2piR) + 1 and k = floor(L / 2piR) with 40 digits of pi
# (Decimal). With M = 1 the game is Nim with at most k a kick (a ball is worth a mod (k + 1));
# otherwise every ball is within one kick and it is Moore's Nim_M.
import sys
from decimal import Decimal, getcontext

getcontext().prec = 60
PI = Decimal("3.1415926535897932384626433832795028841971")


def moore(a, m):
    n = len(a)
    new = a[:]
    touched = [False] * n
    count = 0
    for bit in range(10, -1, -1):
        mask = 1 << bit
        fixed = [i for i in range(n) if not touched[i] and new[i] & mask]
        r = len(fixed) % (m + 1)
        for i in range(n):
            if touched[i]:
                new[i] &= ~mask
        if r == 0:
            continue
        if count >= m + 1 - r:
            need = m + 1 - r
            for i in range(n):
                if need and touched[i]:
                    new[i] |= mask
                    need -= 1
        else:
            for i in fixed[:r]:
                touched[i] = True
                new[i] &= ~mask
                count += 1
    return [(i, a[i] - new[i]) for i in range(n) if touched[i]]


def main():
    words = (w for line in iter(sys.stdin.readline, "") for w in line.split())
    games = int(next(words))
    for _ in range(games):
        n, m, L, R = (int(next(words)) for _ in range(4))
        girth = 2 * PI * R
        k = int(Decimal(L) / girth)
        a = [int(Decimal(int(next(words))) / girth) + 1 for _ in range(n)]

        def winning():
            if m == 1:
                x = 0
                for v in a:
                    x ^= v % (k + 1)
                if x == 0:
                    return []
                i = next(i for i, v in enumerate(a) if (v % (k + 1)) ^ x < v % (k + 1))
                g = a[i] % (k + 1)
                return [(i, g - (g ^ x))]
            return moore(a, m)

        mine = bool(winning())
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                first = next(words)
                if first == "none":
                    break
                for _ in range(int(first)):
                    i, d = int(next(words)), int(next(words))
                    a[i - 1] -= d
            mine = False
            kicks = winning()
            for i, d in kicks:
                a[i] -= d
            print(len(kicks), " ".join(f"{i + 1} {d}" for i, d in kicks), flush=True)


main()
