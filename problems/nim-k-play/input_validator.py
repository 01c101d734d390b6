#!/usr/bin/env python3
# Kattis input validator for nim-k-play: G, then G games in nim-k's format
# (N and K, then the N piles A_i), with the interactive problem's bounds
# (piles may be empty). Mirrors nimjudge's parser (NimKPlay::parse and
# scan_position in src/solver/nim_k_play.rs); the token rules are
# nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
for _ in range(s.int("G", 1, 20, "1 ≤ G ≤ 20")):
    n = s.int("N", 1, 100, "1 ≤ N ≤ 100")
    s.int("K", 1, 10, "1 ≤ K ≤ 10")
    for i in range(1, n + 1):
        s.int(f"A_{i}", 0, 1000, "0 ≤ A_i ≤ 1000")
s.finish()
