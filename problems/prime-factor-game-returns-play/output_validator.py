#!/usr/bin/env python3
# Kattis output validator (the judge) of prime-factor-game-returns-play:
# yukicoder No.103's game, a move `i p k` dividing M_i by p^k (k 1 or 2), the
# judge playing on the Grundy values e mod 3 of the prime powers, as
# nimjudge's referee does (src/solver/prime_factor_game_returns_play.rs,
# prime_exponents from src/solver/prime_factor_game.rs); the protocol is
# nimjudge_interactor's (src/kattis/nimjudge_interactor.py, shipped beside
# this file).

from nimjudge_interactor import MASK, Foul, is_prime, judge, prime_exponents, read_piles, unsigned, words, write_piles

U32_MAX = (1 << 32) - 1


def piles(numbers):
    """Every prime power of every number: (index, prime, exponent)."""
    return [(index, p, e) for index, m in enumerate(numbers) for p, e in prime_exponents(m)]


def xor(numbers):
    x = 0
    for _, _, e in piles(numbers):
        x ^= e % 3
    return x


def xor_moves(numbers):
    """Every winning move: k factors from a pile p^e whose new value
    (e - k) mod 3 is (e mod 3) xor x."""
    x = xor(numbers)
    if x == 0:
        return []
    return [
        (index, prime, k)
        for index, prime, e in piles(numbers)
        for k in (1, 2)
        if e >= k and (e - k) % 3 == (e % 3) ^ x
    ]


class PrimeFactorGameReturnsPlay:
    STUCK = "you have no legal move left: you lost"

    def read_games(self, tokens):
        return [read_piles(tokens) for _ in range(tokens.int())]

    def write_start(self, numbers):
        return write_piles(numbers)

    def parse_move(self, line):
        """`i p k`, as (number from 0, wrapping: 0 is 2^64 - 1; prime;
        power clamped to u32::MAX)."""
        parts = words(line)
        if len(parts) != 3:
            raise Foul("expected three integers `i p k`")
        values = []
        for word, name in zip(parts, "ipk"):
            value = unsigned(word)
            if value is None:
                raise Foul(f"`{name}` must be a non-negative integer")
            values.append(value)
        index, prime, power = values
        return (index - 1) & MASK, prime, min(power, U32_MAX)

    def check_move(self, numbers, move):
        index, prime, power = move
        if index >= len(numbers):
            raise Foul(
                f"there is no number {(index + 1) & MASK} (the numbers are 1 to {len(numbers)})"
            )
        m = numbers[index]
        if power not in (1, 2):
            raise Foul(f"k must be 1 or 2, not {power}")
        if not is_prime(prime):
            raise Foul(f"{prime} is not a prime")
        # Exact: a prime's square above 2^64 divides no M_i (Rust's
        # `checked_pow`).
        if m % prime**power != 0:
            shown = str(prime) if power == 1 else f"{prime}²"
            raise Foul(f"{shown} does not divide M_{index + 1} = {m}")

    def play(self, numbers, move):
        index, prime, power = move
        numbers[index] //= prime**power
        return numbers

    def write_move(self, move):
        return f"{move[0] + 1} {move[1]} {move[2]}"

    def winning_move(self, numbers):
        moves = xor_moves(numbers)
        return moves[0] if moves else None

    def any_move(self, numbers, rng):
        every = piles(numbers)
        if not every:
            return None
        index, prime, e = rng.pick(every)
        power = 2 if e >= 2 and rng.chance(1, 2) else 1
        return index, prime, power


GAME = PrimeFactorGameReturnsPlay()

if __name__ == "__main__":
    judge(GAME)
