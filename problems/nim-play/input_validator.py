#!/usr/bin/env python3
# Kattis input validator for nim-play: G, then G games in nim's format (N,
# then the N piles A_i). Mirrors nimjudge's parser (parse_games in
# src/solver/nim_play.rs); the token rules are nimjudge_input's (shipped
# beside this file).

from nimjudge_input import read

s = read()
for _ in range(s.int("G", 1, 20, "1 ≤ G ≤ 20")):
    n = s.int("N", 1, 100, "1 ≤ N ≤ 100")
    for i in range(1, n + 1):
        s.int(f"A_{i}", 0, 1000, "0 ≤ A_i ≤ 1000")
s.finish()
