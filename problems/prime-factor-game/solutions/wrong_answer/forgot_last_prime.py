# WRONG ANSWER: the right rule (XOR of the exponents), but the trial division stops at sqrt(n) and
# forgets the prime factor that may remain above it (the "if n > 1" step). For a prime N, or any N
# with one factor above sqrt(N), that exponent 1 is left out of the XOR. O(sqrt N).
def main():
    n = int(input())
    x = 0
    p = 2
    while p * p <= n:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        x ^= e
        p += 1
    print("Alice" if x else "Bob")

main()
