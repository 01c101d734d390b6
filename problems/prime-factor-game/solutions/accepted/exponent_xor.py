# Each prime power p^e in N is a Nim pile of size e; Alice wins iff the XOR of the exponents
# is non-zero. Trial division up to sqrt(N): O(sqrt N), at most 10^4 steps.
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
    if n > 1:
        x ^= 1
    print("Alice" if x else "Bob")

main()
