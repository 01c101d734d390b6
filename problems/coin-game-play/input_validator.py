#!/usr/bin/env python3
# Kattis input validator for coin-game-play: G, then G games in coin-game's
# format (one integer N, the number of plates). Mirrors nimjudge's parser
# (src/solver/coin_game_play.rs); the token rules are nimjudge_input's
# (shipped beside this file).

from nimjudge_input import read

s = read()
for _ in range(s.int("G", 1, 20, "1 ≤ G ≤ 20")):
    s.int("N", 1, 400, "1 ≤ N ≤ 400")
s.finish()
