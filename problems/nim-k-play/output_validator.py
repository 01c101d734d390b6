#!/usr/bin/env python3
# Kattis output validator (the judge) of nim-k-play: Moore's Nim_K, a move
# taking stones from each of 1 to K distinct piles, the judge playing
# Moore's winning move, as nimjudge's referee does
# (src/solver/nim_k_play.rs); the protocol is nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import Foul, judge, unsigned, words

MAX_K = 10
BITS = 10  # bits of the largest pile


def moore_move(k, piles):
    """Moore's winning move as [(pile from 0, stones)], or None if the mover
    loses: bit by bit from the highest, each column made a multiple of K + 1."""
    modulus = k + 1
    new = list(piles)
    touched = [False] * len(new)
    touched_count = 0
    for bit in reversed(range(BITS)):
        mask = 1 << bit
        fixed = [i for i in range(len(new)) if not touched[i] and new[i] & mask]
        m = len(fixed) % modulus
        # Touched piles' bits below their touching bit are free: clear them
        # all first, then set what the column needs.
        for i in range(len(new)):
            if touched[i]:
                new[i] &= ~mask
        if m == 0:
            continue
        if touched_count >= modulus - m:
            need = modulus - m
            for i in range(len(new)):
                if need > 0 and touched[i]:
                    new[i] |= mask
                    need -= 1
        else:
            for i in fixed[:m]:
                touched[i] = True
                new[i] &= ~mask
                touched_count += 1
    takes = [(i, piles[i] - new[i]) for i in range(len(new)) if touched[i]]
    return takes or None


class NimKPlay:
    STUCK = "you have no legal move left: you lost"

    def read_games(self, tokens):
        games = []
        for _ in range(tokens.int()):
            n, k = tokens.int(), tokens.int()
            games.append((k, [tokens.int() for _ in range(n)]))
        return games

    def write_start(self, position):
        k, piles = position
        return f"{len(piles)} {k}\n{' '.join(map(str, piles))}\n"

    def parse_move(self, line):
        numbers = []
        for word in words(line):
            value = unsigned(word)
            if value is None:
                raise Foul(f"`{word}` is not a non-negative integer")
            numbers.append(value)
        if not numbers:
            raise Foul("expected `m` and m pairs `i t`")
        m, pairs = numbers[0], numbers[1:]
        if m == 0 or m > MAX_K:
            raise Foul(f"m must be from 1 to K, not {m}")
        if len(pairs) != 2 * m:
            raise Foul(f"m = {m} needs {2 * m} more integers, not {len(pairs)}")
        # Pile 0 (here -1) is out of range; checked as a move, not as a form.
        return [(pairs[j] - 1, pairs[j + 1]) for j in range(0, len(pairs), 2)]

    def check_move(self, position, takes):
        k, piles = position
        if len(takes) > k:
            raise Foul(f"a move touches at most K = {k} piles, not {len(takes)}")
        for j, (pile, take) in enumerate(takes):
            if not 0 <= pile < len(piles):
                raise Foul(f"there is no pile {pile + 1} (the piles are 1 to {len(piles)})")
            if any(other == pile for other, _ in takes[:j]):
                raise Foul(f"pile {pile + 1} is named twice")
            if take == 0:
                raise Foul(f"a move takes at least one stone from pile {pile + 1}")
            if take > piles[pile]:
                raise Foul(f"pile {pile + 1} holds {piles[pile]}, fewer than {take}")

    def play(self, position, takes):
        for pile, take in takes:
            position[1][pile] -= take
        return position

    def write_move(self, takes):
        return " ".join([str(len(takes))] + [f"{pile + 1} {take}" for pile, take in takes])

    def winning_move(self, position):
        return moore_move(*position)

    def any_move(self, position, rng):
        k, piles = position
        open_piles = [i for i, a in enumerate(piles) if a > 0]
        if not open_piles:
            return None
        rng.shuffle(open_piles)
        m = rng.range(1, min(len(open_piles), k))
        takes = [(i, rng.range(1, piles[i])) for i in open_piles[:m]]
        return sorted(takes)


GAME = NimKPlay()

if __name__ == "__main__":
    judge(GAME)
