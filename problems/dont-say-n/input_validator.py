#!/usr/bin/env python3
# Kattis input validator for dont-say-n: N and K with K < N, then S, N − 1
# characters each `o` or `x`. Mirrors nimjudge's parser (scan_case in
# src/solver/dont_say_n.rs); the token rules are nimjudge_input's (shipped
# beside this file).

from nimjudge_input import fail, read

s = read()
n = s.int("N", 2, 200_000, "2 ≤ N ≤ 2·10^5")
k = s.int("K", 1, 199_999, "1 ≤ K ≤ 199999")
if k >= n:
    fail(f"line {s.line}: K = {k} violates the constraint K < N (N = {n})")
word = s.word("S")
for i, c in enumerate(word):
    if c not in b"ox":
        fail(f"line {s.line}: character {i + 1} of S is `{word[i:].decode()[0]}`; "
             f"S may contain only `o` and `x`")
if len(word) != n - 1:  # every character is `o` or `x`: one byte each
    fail(f"line {s.line}: S has {len(word)} characters, "
         f"violating the constraint |S| = N − 1 = {n - 1}")
s.finish()
