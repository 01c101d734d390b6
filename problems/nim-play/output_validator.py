#!/usr/bin/env python3
# Kattis output validator (the judge) of nim-play: Nim, the judge playing
# Bouton's winning move, as nimjudge's referee does (src/solver/nim_play.rs);
# the protocol and Nim's moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import TakeGame, judge, random_take, xor_move


class NimPlay(TakeGame):
    def winning_move(self, piles):
        return xor_move(piles)

    def any_move(self, piles, rng):
        return random_take(piles, rng)


GAME = NimPlay()

if __name__ == "__main__":
    judge(GAME)
