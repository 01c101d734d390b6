#!/usr/bin/env python3
# Kattis input validator for prime-factor-game-play: G, then G games in
# prime-factor-game's format (one integer N). Mirrors nimjudge's parser
# (src/solver/prime_factor_game_play.rs); the token rules are
# nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
for _ in range(s.int("G", 1, 20, "1 ≤ G ≤ 20")):
    s.int("N", 2, 10**8, "2 ≤ N ≤ 10^8")
s.finish()
