#!/usr/bin/env python3
# Kattis input validator for nim-k: N and K, then the N piles A_i. Mirrors
# nimjudge's parser (src/solver/nim_k.rs); the token rules are
# nimjudge_input's (shipped beside this file).

from nimjudge_input import read

s = read()
n = s.int("N", 1, 100_000, "1 ≤ N ≤ 10^5")
s.int("K", 1, 100_000, "1 ≤ K ≤ 10^5")
for i in range(1, n + 1):
    s.int(f"A_{i}", 1, 10**9, "1 ≤ A_i ≤ 10^9")
s.finish()
