#!/usr/bin/env python3
# Kattis output validator (the judge) of nim-k-play: Moore's Nim_K, a move
# taking stones from each of 1 to K distinct piles, the judge playing
# Moore's winning move, as nimjudge's referee does
# (src/solver/nim_k_play.rs); the protocol and the
# shared moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import Foul, judge, moore_move, parse_takes, write_takes

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
        return parse_takes(line)

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
        return write_takes(takes)

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
