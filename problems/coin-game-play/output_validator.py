#!/usr/bin/env python3
# Kattis output validator (the judge) of coin-game-play: Nim on plates, plate
# i starting with i coins, the judge sending N and playing Bouton's winning
# move, as nimjudge's referee does (src/solver/coin_game_play.rs); the
# protocol and Nim's moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import Foul, TakeGame, judge, random_take, xor_move


def plates(n):
    """The plates at the start: plate i holds i coins."""
    return list(range(1, n + 1))


class CoinGamePlay(TakeGame):
    def read_games(self, tokens):
        return [plates(tokens.int()) for _ in range(tokens.int())]

    def write_start(self, coins):
        # coin-game's input describes only starting positions: N.
        return f"{len(coins)}\n"

    def check_move(self, coins, move):
        try:
            super().check_move(coins, move)
        except Foul as why:
            raise Foul(str(why).replace("pile", "plate").replace("stone", "coin")) from None

    def winning_move(self, coins):
        return xor_move(coins)

    def any_move(self, coins, rng):
        return random_take(coins, rng)


GAME = CoinGamePlay()

if __name__ == "__main__":
    judge(GAME)
