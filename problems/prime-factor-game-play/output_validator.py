#!/usr/bin/env python3
# Kattis output validator (the judge) of prime-factor-game-play: yukicoder
# No.2's game, a move `p j` dividing the number by p^j, the judge playing
# Nim on the prime exponents, as nimjudge's referee does
# (src/solver/prime_factor_game_play.rs, prime_exponents from
# src/solver/prime_factor_game.rs); the protocol and the
# shared moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import MASK, Foul, is_prime, judge, prime_exponents, unsigned, words

U32_MAX = (1 << 32) - 1


def xor(n):
    x = 0
    for _, e in prime_exponents(n):
        x ^= e
    return x


def xor_moves(n):
    x = xor(n)
    if x == 0:
        return []
    return [(p, e - (e ^ x)) for p, e in prime_exponents(n) if e ^ x < e]


class PrimeFactorGamePlay:
    STUCK = "you have no legal move left: you lost"

    def read_games(self, tokens):
        return [tokens.int() for _ in range(tokens.int())]

    def write_start(self, n):
        return f"{n}\n"

    def parse_move(self, line):
        parts = words(line)
        if len(parts) != 2:
            raise Foul("expected two integers `p j`")
        prime = unsigned(parts[0])
        if prime is None:
            raise Foul("`p` must be a non-negative integer")
        power = unsigned(parts[1])
        if power is None or power > U32_MAX:
            raise Foul("`j` must be a non-negative integer")
        return prime, power

    def check_move(self, n, move):
        prime, power = move
        if power == 0:
            raise Foul("j must be at least 1")
        if not is_prime(prime):
            raise Foul(f"{prime} is not a prime")
        # checked_pow: an overflow does not divide; a prime is at least 2,
        # so a power of 64 or more overflows.
        divisor = prime**power if power < 64 else MASK + 1
        if divisor > MASK or n % divisor != 0:
            raise Foul(f"{prime}^{power} does not divide {n}")

    def play(self, n, move):
        return n // move[0] ** move[1]

    def write_move(self, move):
        return f"{move[0]} {move[1]}"

    def winning_move(self, n):
        moves = xor_moves(n)
        return moves[0] if moves else None

    def any_move(self, n, rng):
        factors = prime_exponents(n)
        if not factors:
            return None
        prime, e = rng.pick(factors)
        return prime, rng.range(1, e)


GAME = PrimeFactorGamePlay()

if __name__ == "__main__":
    judge(GAME)
