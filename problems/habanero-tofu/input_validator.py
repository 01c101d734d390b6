#!/usr/bin/env python3
# Kattis input validator for habanero-tofu: N, then per block X Y Z, M and the
# M habanero cells x y z. Mirrors nimjudge's parser (src/solver/habanero_tofu.rs,
# on the Scanner of src/solver/input.rs): UTF-8 text of at most 64 MiB (what
# `nimjudge solve` reads), tokens split on ASCII whitespace, integers of 1 to
# 20 ASCII digits (leading zeros allowed, no sign), each block's cells inside
# it and distinct, ΣM_i ≤ 2·10^5, nothing after the last cell. Exits 42 if
# valid, else says why and exits 43.
import re
import sys

LIMIT = 64 << 20  # the most bytes `nimjudge solve` reads


def fail(line, message):
    where = f"line {line}: " if line else ""
    sys.stdout.buffer.write(f"{where}{message}\n".encode())
    sys.exit(43)


def echo(token):
    text = token.decode()
    return text[:40] + "…" if len(text) > 40 else text


class Scanner:
    """Tokens split on space \\t \\n \\r \\x0b \\x0c; `line` is the last token's line."""

    def __init__(self, data):
        self.data, self.end, self.cursor, self.line = data, 0, 1, 1
        self.tokens = re.finditer(rb"[^ \t\n\r\x0b\x0c]+", data)

    def token(self):
        match = next(self.tokens, None)
        if match is None:
            return None
        self.cursor += self.data.count(b"\n", self.end, match.start())
        self.end, self.line = match.end(), self.cursor
        return match.group()

    def int(self, field, low, high, constraint):
        token = self.token()
        if token is None:
            fail(self.line, f"expected {field}, but the input ended")
        # ASCII digits, leading zeros allowed, at most 20 of them, below 2^64.
        number = token.isdigit() and len(token) <= 20 and int(token) < 2**64
        if number and low <= int(token) <= high:
            return int(token)
        if not number and not token.removeprefix(b"-").isdigit():
            fail(self.line, f"token `{echo(token)}` is not an integer (expected {field})")
        fail(self.line, f"{field} = {echo(token)} violates the constraint {constraint}")

    def finish(self):
        token = self.token()
        if token is not None:
            fail(self.line, f"unexpected token `{echo(token)}` after the end of the input")


data = sys.stdin.buffer.read(LIMIT + 1)
if len(data) > LIMIT:
    fail(None, f"the input is larger than {LIMIT} bytes, the largest input accepted")
try:
    data.decode("utf-8")
except UnicodeDecodeError as error:
    fail(None, f"the input is not UTF-8 text (invalid byte at offset {error.start})")
s = Scanner(data)
n = s.int("N", 1, 100, "1 ≤ N ≤ 100")
total = 0
for b in range(1, n + 1):
    size = [s.int(f"{side} of test case {b}", 1, 10**9, f"1 ≤ {side} ≤ 10^9") for side in "XYZ"]
    m = s.int(f"M of test case {b}", 1, 200_000, "1 ≤ M ≤ 2·10^5")
    total += m
    if total > 200_000:
        fail(s.line, f"block {b}: the habanero counts so far sum to {total}, "
                     f"violating the constraint ΣM_i ≤ 2·10^5")
    lines = {}  # cell -> the lines it is listed on
    for _ in range(m):
        cell = tuple(s.int(f"{axis} of test case {b}", 0, side - 1,
                           f"0 ≤ {axis} < {axis.upper()} = {side}")
                     for axis, side in zip("xyz", size))
        lines.setdefault(cell, []).append(s.line)
    # Checked once the block is read; nimjudge names the smallest repeated cell.
    repeated = sorted(cell for cell, where in lines.items() if len(where) > 1)
    if repeated:
        first, second = lines[repeated[0]][:2]
        fail(second, f"block {b}: habanero cell {repeated[0]} is listed twice "
                     f"(lines {first} and {second}); cells must be distinct")
s.finish()
sys.exit(42)
