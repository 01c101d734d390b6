# TIME LIMIT EXCEEDED: right answer (XOR of the exponents), but the trial division runs p up to
# the remaining n instead of stopping at sqrt(n). For a prime N near 10^8 that is ~10^8 Python
# loop iterations, far beyond the 6 s a Python program gets (2 s x 3).
def main():
    n = int(input())
    x = 0
    p = 2
    while n > 1:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        x ^= e
        p += 1
    print("Alice" if x else "Bob")

main()
