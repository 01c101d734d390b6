#!/usr/bin/env python3
# Kattis input validator for xy-game-play: G, then G games in xy-game's
# format (N X Y, X < Y, then the N piles A_i), with at most 20 piles of at
# most 1,000 stones. Mirrors nimjudge's parser (scan_game in
# src/solver/xy_game_play.rs); the token rules are nimjudge_input's (shipped
# beside this file).

from nimjudge_input import fail, read

s = read()
for _ in range(s.int("G", 1, 10, "1 ≤ G ≤ 10")):
    n = s.int("N", 1, 20, "1 ≤ N ≤ 20")
    x = s.int("X", 1, 10**9, "1 ≤ X ≤ 10^9")
    y = s.int("Y", 1, 10**9, "1 ≤ Y ≤ 10^9")
    if x >= y:
        fail(f"line {s.line}: X = {x} and Y = {y} violate the constraint X < Y")
    for i in range(1, n + 1):
        s.int(f"A_{i}", 1, 1000, "1 ≤ A_i ≤ 1000")
s.finish()
