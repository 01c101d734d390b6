#!/usr/bin/env python3
# Kattis input validator for playing-with-stones: T test cases, each N and
# its N piles a_i. Mirrors nimjudge's parser
# (src/solver/playing_with_stones.rs); the token rules are nimjudge_input's
# (shipped beside this file).

from nimjudge_input import read

s = read()
t = s.int("T", 1, 100, "1 ≤ T ≤ 100")
for c in range(1, t + 1):
    n = s.int(f"N of test case {c}", 1, 100, "1 ≤ N ≤ 100")
    for i in range(1, n + 1):
        s.int(f"a_{i} of test case {c}", 1, 2 * 10**18, "1 ≤ a_i ≤ 2·10^18")
s.finish()
