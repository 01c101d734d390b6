#!/usr/bin/env python3
# Kattis input validator for dont-say-n-play: G, then G games in
# dont-say-n's format (N and K with K < N, then S, N − 1 characters each `o`
# or `x`), with a smaller bound on N. Mirrors nimjudge's parser (parse in
# src/solver/dont_say_n_play.rs, scan_case in src/solver/dont_say_n.rs); the
# token rules are nimjudge_input's (shipped beside this file).

from nimjudge_input import fail, read

s = read()
for _ in range(s.int("G", 1, 10, "1 ≤ G ≤ 10")):
    n = s.int("N", 2, 10_000, "2 ≤ N ≤ 10000")
    k = s.int("K", 1, 9_999, "1 ≤ K ≤ 9999")
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
