#!/usr/bin/env python3
# Kattis input validator for playing-with-stones-play: G, then G games in
# playing-with-stones's format (N, then the N piles a_i), with piles of at
# most 1,000 stones. Mirrors nimjudge's parser (parse_games in
# src/solver/nim_play.rs, used by src/solver/playing_with_stones_play.rs);
# the token rules are nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
for _ in range(s.int("G", 1, 20, "1 ≤ G ≤ 20")):
    n = s.int("N", 1, 100, "1 ≤ N ≤ 100")
    for i in range(1, n + 1):
        s.int(f"a_{i}", 1, 1000, "1 ≤ a_i ≤ 1000")
s.finish()
