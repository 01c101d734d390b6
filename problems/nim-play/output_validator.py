#!/usr/bin/env python3
# Kattis output validator (the judge) of nim-play: Nim, the judge playing
# Bouton's winning move, as nimjudge's referee does (src/solver/nim_play.rs);
# the protocol and Nim's moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import check_take, judge, parse_take, random_take, read_piles, write_piles, write_take, xor_move


class NimPlay:
    STUCK = "you have no legal move left: you lost"

    def read_games(self, tokens):
        return [read_piles(tokens) for _ in range(tokens.int())]

    def write_start(self, piles):
        return write_piles(piles)

    def parse_move(self, line):
        return parse_take(line)

    def check_move(self, piles, move):
        check_take(piles, move)

    def play(self, piles, move):
        piles[move[0]] -= move[1]
        return piles

    def write_move(self, move):
        return write_take(move)

    def winning_move(self, piles):
        return xor_move(piles)

    def any_move(self, piles, rng):
        return random_take(piles, rng)


GAME = NimPlay()

if __name__ == "__main__":
    judge(GAME)
