#!/usr/bin/env python3
# Kattis input validator for xy-game: T, then per case N X Y and the N piles.
# Mirrors nimjudge's parser (src/solver/xy_game/mod.rs, on the Scanner of
# src/solver/input.rs): UTF-8 text of at most 64 MiB (what `nimjudge solve`
# reads), tokens split on ASCII whitespace, integers of 1 to 20 ASCII digits
# (leading zeros allowed, no sign), X < Y in every case, ΣN ≤ 2·10^5, nothing
# after the last pile. Exits 42 if valid, else says why and exits 43.
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
t = s.int("T", 1, 200_000, "1 ≤ T ≤ 2·10^5")
total = 0
for c in range(1, t + 1):
    n = s.int(f"N of test case {c}", 1, 200_000, "1 ≤ N ≤ 2·10^5")
    total += n
    if total > 200_000:
        fail(s.line, f"N = {n} of test case {c} brings the sum of N to {total}, "
                     f"violating the constraint ΣN ≤ 2·10^5")
    x = s.int(f"X of test case {c}", 1, 10**9, "1 ≤ X ≤ 10^9")
    y = s.int(f"Y of test case {c}", 1, 10**9, "1 ≤ Y ≤ 10^9")
    if x >= y:
        fail(s.line, f"X = {x} and Y = {y} of test case {c} violate the constraint X < Y")
    for i in range(1, n + 1):
        s.int(f"A_{i} of test case {c}", 1, 10**18, "1 ≤ A_i ≤ 10^18")
s.finish()
sys.exit(42)
