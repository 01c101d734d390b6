#!/usr/bin/env python3
# Kattis input validator for misere-nim-play: G, then G games in
# misere-nim's format (n, then the n piles s_i, each at least 1). Mirrors
# nimjudge's parser (parse_games in src/solver/nim_play.rs, as
# src/solver/misere_nim_play.rs calls it); the token rules are
# nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
for _ in range(s.int("G", 1, 20, "1 ≤ G ≤ 20")):
    n = s.int("n", 1, 100, "1 ≤ n ≤ 100")
    for i in range(1, n + 1):
        s.int(f"s_{i}", 1, 1000, "1 ≤ s_i ≤ 1000")
s.finish()
