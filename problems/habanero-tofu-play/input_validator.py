#!/usr/bin/env python3
# Kattis input validator for habanero-tofu-play: G, then G games in
# habanero-tofu's format (N blocks, each its sides X Y Z, M and M distinct
# habanero cells x y z inside it), with the smaller bounds of the
# interactive problem. Mirrors nimjudge's parser (read_games in
# src/solver/interactive.rs with scan_case in src/solver/habanero_tofu.rs),
# which checks a block's cells for repeats once the block is read; the
# token rules are nimjudge_input's (shipped beside this file).

from nimjudge_input import fail, read

s = read()
for _ in range(s.int("G", 1, 10, "1 ≤ G ≤ 10")):
    n = s.int("N", 1, 10, "1 ≤ N ≤ 10")
    total = 0
    for b in range(1, n + 1):
        size = [s.int(f"{side} of test case {b}", 1, 100, f"1 ≤ {side} ≤ 100") for side in "XYZ"]
        m = s.int(f"M of test case {b}", 1, 100, "1 ≤ M ≤ 100")
        total += m
        if total > 100:
            fail(f"line {s.line}: block {b}: the habanero counts so far sum to {total}, "
                 f"violating the constraint ΣM_i ≤ 100")
        lines = {}  # cell -> the lines it is listed on
        for _ in range(m):
            cell = tuple(s.int(f"{axis} of test case {b}", 0, side - 1,
                               f"0 ≤ {axis} < {axis.upper()} = {side}")
                         for axis, side in zip("xyz", size))
            lines.setdefault(cell, []).append(s.line)
        # nimjudge names the smallest repeated cell.
        repeated = sorted(cell for cell, where in lines.items() if len(where) > 1)
        if repeated:
            first, second = lines[repeated[0]][:2]
            fail(f"line {second}: block {b}: habanero cell {repeated[0]} is listed twice "
                 f"(lines {first} and {second}); cells must be distinct")
s.finish()
