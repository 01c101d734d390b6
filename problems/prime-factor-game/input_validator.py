#!/usr/bin/env python3
# Kattis input validator for prime-factor-game: one integer N. Mirrors
# nimjudge's parser (src/solver/prime_factor_game.rs); the token rules are
# nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
s.int("N", 2, 10**8, "2 ≤ N ≤ 10^8")
s.finish()
