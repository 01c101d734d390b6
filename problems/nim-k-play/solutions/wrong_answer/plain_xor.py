# Plays plain Nim (XOR, one pile a move) whatever K is: right for K = 1, wrong side or wrong reply
# once K > 1.
import sys


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        n, k = map(int, read().split())
        a = [int(t) for t in read().split()]
        x = 0
        for v in a:
            x ^= v
        mine = x != 0
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
            x = 0
            for v in a:
                x ^= v
            i = next((i for i, v in enumerate(a) if v ^ x < v), None)
            if i is None:
                i = next((i for i, v in enumerate(a) if v > 0), None)
                if i is None:
                    return
                take = 1
            else:
                take = a[i] - (a[i] ^ x)
            a[i] -= take
            print(1, i + 1, take, flush=True)


main()
