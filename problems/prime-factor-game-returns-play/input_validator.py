#!/usr/bin/env python3
# Kattis input validator for prime-factor-game-returns-play: G, then G games
# in prime-factor-game-returns' format (N, then the N numbers M_i). Mirrors
# nimjudge's parser (src/solver/prime_factor_game_returns_play.rs); the token
# rules are nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
for _ in range(s.int("G", 1, 20, "1 ≤ G ≤ 20")):
    n = s.int("N", 1, 100, "1 ≤ N ≤ 100")
    for i in range(1, n + 1):
        s.int(f"M_{i}", 1, 10**4, "1 ≤ M_i ≤ 10^4")
s.finish()
