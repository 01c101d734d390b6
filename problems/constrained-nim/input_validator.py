#!/usr/bin/env python3
# Kattis input validator for constrained-nim: N and M, the N piles A_i,
# then M forbidden moves (X_i, Y_i) with Y_i ≤ X_i, pairwise distinct.
# Mirrors nimjudge's parser (scan_case in src/solver/constrained_nim/mod.rs),
# which reports a repeated pair only once every pair is read; the token rules
# are nimjudge_input's (shipped beside this file).

from nimjudge_input import fail, read

s = read()
n = s.int("N", 1, 200_000, "1 ≤ N ≤ 2·10^5")
m = s.int("M", 1, 200_000, "1 ≤ M ≤ 2·10^5")
for i in range(1, n + 1):
    s.int(f"A_{i}", 1, 10**18, "1 ≤ A_i ≤ 10^18")
seen, repeat = {}, None  # (X, Y) -> (i, line of Y_i); the first repeat
for i in range(1, m + 1):
    x = s.int(f"X_{i}", 1, 10**18, "1 ≤ X_i ≤ 10^18")
    y = s.int(f"Y_{i}", 1, 10**18, "1 ≤ Y_i ≤ 10^18")
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
