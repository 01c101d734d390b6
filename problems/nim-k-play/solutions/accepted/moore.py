# Moore's Nim_K: the mover loses iff every bit's column count is a multiple of K + 1. Winning move,
# from the top bit: touched piles have free lower bits; a column with m = count mod (K+1) != 0
# gets the bit set in K+1-m touched piles if there are that many, else m more piles are touched.
import sys


def losing(a, k):
    return all(sum((v >> bit) & 1 for v in a) % (k + 1) == 0 for bit in range(10))


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        n, k = map(int, read().split())
        a = [int(t) for t in read().split()]
        mine = not losing(a, k)
        print("First" if mine else "Second", flush=True)
        while True:
            if not mine:
                words = read().split()
                if not words or words[0] == "none":
                    break
                nums = list(map(int, words))
                for j in range(nums[0]):
                    a[nums[1 + 2 * j] - 1] -= nums[2 + 2 * j]
            mine = False
            b = a[:]
            touched = [False] * n
            count = 0
            for bit in range(9, -1, -1):
                mask = 1 << bit
                fixed = []
                for i in range(n):
                    if touched[i]:
                        b[i] &= ~mask
                    elif b[i] & mask:
                        fixed.append(i)
                m = len(fixed) % (k + 1)
                if m == 0:
                    continue
                if count >= k + 1 - m:
                    need = k + 1 - m
                    for i in range(n):
                        if need and touched[i]:
                            b[i] |= mask
                            need -= 1
                else:
                    for i in fixed[:m]:
                        touched[i] = True
                        b[i] &= ~mask
                        count += 1
            moves = [f"{i + 1} {a[i] - b[i]}" for i in range(n) if touched[i]]
            print(len(moves), *moves, flush=True)
            a = b


main()
