#!/usr/bin/env python3
# Kattis input validator for habanero-tofu: N blocks, each its sides X Y Z,
# M and M distinct habanero cells x y z inside it, the M summing to at most
# 2·10^5. Mirrors nimjudge's parser (scan_case in src/solver/habanero_tofu.rs),
# which checks a block's cells for repeats once the block is read; the token
# rules are nimjudge_input's (shipped beside this file).

from nimjudge_input import fail, read

s = read()
n = s.int("N", 1, 100, "1 ≤ N ≤ 100")
total = 0
for b in range(1, n + 1):
    size = [s.int(f"{side} of test case {b}", 1, 10**9, f"1 ≤ {side} ≤ 10^9") for side in "XYZ"]
    m = s.int(f"M of test case {b}", 1, 200_000, "1 ≤ M ≤ 2·10^5")
    total += m
    if total > 200_000:
        fail(f"line {s.line}: block {b}: the habanero counts so far sum to {total}, "
             f"violating the constraint ΣM_i ≤ 2·10^5")
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
