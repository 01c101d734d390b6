#!/usr/bin/env python3
# Kattis input validator for constrained-nim-play: G, then G games in
# constrained-nim's format (N and M, the N piles A_i, then M forbidden moves
# (X_i, Y_i) with Y_i ≤ X_i, pairwise distinct), with smaller bounds.
# Mirrors nimjudge's parser (parse in src/solver/constrained_nim_play.rs,
# scan_case in src/solver/constrained_nim/mod.rs), which reports a repeated
# pair only once every pair of the game is read; the token rules are
# nimjudge_input's (shipped beside this file).

from nimjudge_input import fail, read

s = read()
for _ in range(s.int("G", 1, 10, "1 ≤ G ≤ 10")):
    n = s.int("N", 1, 20, "1 ≤ N ≤ 20")
    m = s.int("M", 1, 1000, "1 ≤ M ≤ 1000")
    for i in range(1, n + 1):
        s.int(f"A_{i}", 1, 1000, "1 ≤ A_i ≤ 1000")
    seen, repeat = {}, None  # (X, Y) -> (i, line of Y_i); the first repeat
    for i in range(1, m + 1):
        x = s.int(f"X_{i}", 1, 1000, "1 ≤ X_i ≤ 1000")
        y = s.int(f"Y_{i}", 1, 1000, "1 ≤ Y_i ≤ 1000")
        if y > x:
            fail(f"line {s.line}: Y_{i} = {y} exceeds X_{i} = {x}, violating the constraint Y_i ≤ X_i")
        if (x, y) not in seen:
            seen[(x, y)] = (i, s.line)
        elif repeat is None:
            repeat = (i, s.line, x, y) + seen[(x, y)]
    if repeat is not None:
        i, line, x, y, first, first_line = repeat
        fail(f"line {line}: (X_{i}, Y_{i}) = ({x}, {y}) repeats (X_{first}, Y_{first}) on line "
             f"{first_line}; the pairs (X_i, Y_i) must be pairwise distinct")
s.finish()
