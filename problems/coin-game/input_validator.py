#!/usr/bin/env python3
# Kattis input validator for coin-game: one integer N. Mirrors nimjudge's
# parser (src/solver/coin_game.rs); the token rules are nimjudge_input's
# (shipped beside this file).

from nimjudge_input import read

s = read()
s.int("N", 1, 10**18, "1 ≤ N ≤ 10^18")
s.finish()
