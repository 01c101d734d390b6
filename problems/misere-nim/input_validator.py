#!/usr/bin/env python3
# Kattis input validator for misere-nim: T test cases, each n and its n
# piles s_i. Mirrors nimjudge's parser (src/solver/misere_nim.rs); the token
# rules are nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
t = s.int("T", 1, 100, "1 ≤ T ≤ 100")
for case in range(1, t + 1):
    n = s.int(f"n of test case {case}", 1, 100, "1 ≤ n ≤ 100")
    for i in range(1, n + 1):
        s.int(f"s_{i} of test case {case}", 1, 10**9, "1 ≤ s_i ≤ 10^9")
s.finish()
