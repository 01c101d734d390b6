#!/usr/bin/env python3
# Kattis input validator for xy-game: T test cases, each N, X < Y and N
# numbers A_i, the N summing to at most 2·10^5. Mirrors nimjudge's parser
# (src/solver/xy_game); the token rules are nimjudge_input's (shipped beside
# this file).

from nimjudge_input import fail, read

s = read()
t = s.int("T", 1, 200_000, "1 ≤ T ≤ 2·10^5")
total = 0
for c in range(1, t + 1):
    n = s.int(f"N of test case {c}", 1, 200_000, "1 ≤ N ≤ 2·10^5")
    total += n
    if total > 200_000:
        fail(f"line {s.line}: N = {n} of test case {c} brings the sum of N to {total}, "
             f"violating the constraint ΣN ≤ 2·10^5")
    x = s.int(f"X of test case {c}", 1, 10**9, "1 ≤ X ≤ 10^9")
    y = s.int(f"Y of test case {c}", 1, 10**9, "1 ≤ Y ≤ 10^9")
    if x >= y:
        fail(f"line {s.line}: X = {x} and Y = {y} of test case {c} violate the constraint X < Y")
    for i in range(1, n + 1):
        s.int(f"A_{i} of test case {c}", 1, 10**18, "1 ≤ A_i ≤ 10^18")
s.finish()
