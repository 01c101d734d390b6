#!/usr/bin/env python3
# Kattis output validator (the judge) of playing-with-stones-play: "Playing
# With Stones" (take 1 to half of a pile), the judge moving a pile to a size
# whose Grundy value makes the XOR 0, as nimjudge's referee does
# (src/solver/playing_with_stones_play.rs, the values from
# src/solver/playing_with_stones.rs); the protocol and Nim's moves are
# nimjudge_interactor's (src/kattis/nimjudge_interactor.py, shipped beside
# this file).

from nimjudge_interactor import MASK, Foul, TakeGame, judge


def pile_grundy(a):
    """a/2 for an even a, the value of ⌊a/2⌋ for an odd one: shift out the
    trailing ones, then halve."""
    ones = 0
    while (a >> ones) & 1:
        ones += 1
    return (a >> ones) >> 1


def xor(piles):
    x = 0
    for a in piles:
        x ^= pile_grundy(a)
    return x


def sizes_of_value(value, below):
    """The sizes of Grundy value `value`, smallest first, up to `below`:
    2·value, then (2·value + 1)·2^j − 1 for j ≥ 1."""
    if 2 * value < below:
        yield 2 * value
    for j in range(1, 63):
        n = max(min((2 * value + 1) * (1 << j), MASK) - 1, 0)
        if n >= below:
            return
        yield n


def winning_takes(piles):
    """Every winning move: to a size of value g ⊕ x in reach."""
    x = xor(piles)
    if x == 0:
        return []
    moves = []
    for pile, a in enumerate(piles):
        target = pile_grundy(a) ^ x
        # Reachable sizes: a - ⌊a/2⌋ ..= a - 1.
        lowest = a - a // 2
        for size in sizes_of_value(target, a):
            if size >= lowest:
                moves.append((pile, a - size))
    return moves


class PlayingWithStonesPlay(TakeGame):
    TAKE = "t"

    def check_move(self, piles, move):
        i, t = move
        if not 0 <= i < len(piles):
            raise Foul(f"there is no pile {i + 1} (the piles are 1 to {len(piles)})")
        a = piles[i]
        if t == 0:
            raise Foul("a move takes at least one stone")
        if t > a // 2:
            raise Foul(f"pile {i + 1} holds {a}: a move takes at most {a // 2} of it, not {t}")

    def winning_move(self, piles):
        moves = winning_takes(piles)
        return moves[0] if moves else None

    def any_move(self, piles, rng):
        open_piles = [i for i, a in enumerate(piles) if a >= 2]
        if not open_piles:
            return None
        pile = rng.pick(open_piles)
        return pile, rng.range(1, piles[pile] // 2)


GAME = PlayingWithStonesPlay()

if __name__ == "__main__":
    judge(GAME)
