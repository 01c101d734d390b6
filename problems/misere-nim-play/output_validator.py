#!/usr/bin/env python3
# Kattis output validator (the judge) of misere-nim-play: misère Nim, taking
# the last stone refused as a move, the judge playing Bouton's misère winning
# move, as nimjudge's referee does (src/solver/misere_nim_play.rs); the
# protocol and Nim's moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import Foul, TakeGame, judge, random_take, xor_move


def misere_move(piles):
    """The misère winning move, or None if the mover loses."""
    big = [i for i, a in enumerate(piles) if a >= 2]
    ones = sum(1 for a in piles if a == 1)
    if not big:
        if ones % 2 == 0 and ones > 0:
            return piles.index(1), 1
        return None
    if len(big) == 1:
        # Leave an odd number of one-stone piles.
        pile = big[0]
        keep = 0 if ones % 2 == 1 else 1
        return pile, piles[pile] - keep
    return xor_move(piles)


class MisereNimPlay(TakeGame):
    STUCK = "one stone is left on your turn: you must take it and lose"

    def check_move(self, piles, move):
        super().check_move(piles, move)
        if move[1] == sum(piles):
            raise Foul("you took the last stone: you lost")

    def winning_move(self, piles):
        return misere_move(piles)

    def any_move(self, piles, rng):
        if sum(piles) <= 1:
            return None
        move = random_take(piles, rng)
        if move is None:
            return None
        pile, take = move
        if take == sum(piles):
            # The only non-empty pile, holding two or more: leave one.
            take = rng.range(1, take - 1)
        return pile, take


GAME = MisereNimPlay()

if __name__ == "__main__":
    judge(GAME)
