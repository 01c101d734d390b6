# TIME LIMIT EXCEEDED: right answer (XOR of the exponents), but it tries every p up to the
# remaining n instead of stopping at sqrt(n), and tests each candidate for primality by trial
# division first. For a prime N near 10^8 that is ~10^8 candidates, each with its own loop up to
# sqrt(p): far beyond the 6 s a Python program gets (2 s x 3). (Trial division up to n alone,
# ~10^8 plain iterations, took 5.3 s of CPU on one machine: too close to the limit to be sure.)
def is_prime(p):
    q = 2
    while q * q <= p:
        if p % q == 0:
            return False
        q += 1
    return True


def main():
    n = int(input())
    x = 0
    p = 2
    while n > 1:
        if is_prime(p):
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            x ^= e
        p += 1
    print("Alice" if x else "Bob")


main()
