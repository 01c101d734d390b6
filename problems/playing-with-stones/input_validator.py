#!/usr/bin/env python3
# Kattis input validator for playing-with-stones: T, then per case N and the
# N piles. Mirrors nimjudge's parser (src/solver/pile_cases.rs with the bounds
# of src/solver/playing_with_stones.rs, on the Scanner of src/solver/input.rs):
# UTF-8 text of at most 64 MiB (what `nimjudge solve` reads), tokens split on
# ASCII whitespace, integers of 1 to 20 ASCII digits (leading zeros allowed,
# no sign), nothing after the last pile. Exits 42 if valid, else says why and
# exits 43.
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
t = s.int("T", 1, 100, "1 ≤ T ≤ 100")
for c in range(1, t + 1):
    n = s.int(f"N of test case {c}", 1, 100, "1 ≤ N ≤ 100")
    for i in range(1, n + 1):
        s.int(f"a_{i} of test case {c}", 1, 2 * 10**18, "1 ≤ a_i ≤ 2·10^18")
s.finish()
sys.exit(42)
