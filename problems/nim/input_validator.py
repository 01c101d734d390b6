#!/usr/bin/env python3
# Kattis input validator for nim: N, then the N piles A_i. Mirrors
# nimjudge's parser (fold_piles in src/solver/nim.rs); the token rules are
# nimjudge_input's (src/kattis/nimjudge_input.py, shipped beside this file).

from nimjudge_input import read

s = read()
n = s.int("N", 1, 200_000, "1 ≤ N ≤ 2·10^5")
for i in range(1, n + 1):
    s.int(f"A_{i}", 0, 10**18, "0 ≤ A_i ≤ 10^18")
s.finish()
