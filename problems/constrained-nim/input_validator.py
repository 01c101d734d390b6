#!/usr/bin/env python3
# Input validator for nimjudge's `constrained-nim` (N and M, the N piles A_i,
# then M pairwise distinct pairs X_i Y_i with Y_i <= X_i), mirroring nimjudge's
# parser: scan_case in src/solver/constrained_nim/mod.rs on src/solver/input.rs.
# As there, a repeated pair is reported once every pair is read.
# Tokens are split on ASCII whitespace (space \t \n \r \x0b \x0c); an integer is
# 1 to 20 ASCII digits (leading zeros allowed, no sign); the input must be UTF-8
# of at most 64 MiB, with nothing after the last expected token. Exits 42 if
# the input is valid, else prints what is wrong and exits 43.
import sys

LIMIT = 64 << 20  # bytes: `nimjudge solve` refuses a larger input


def fail(message):
    sys.stdout.buffer.write(message.encode() + b"\n")
    sys.exit(43)


def echo(token):  # a token as messages show it: at most 40 characters
    text = token.decode()
    return text[:40] + "…" if len(text) > 40 else text


def tokens(data):  # bytes.split() splits on exactly the scanner's whitespace
    for number, line in enumerate(data.split(b"\n"), 1):
        for token in line.split():
            yield token, number


class Scanner:
    def __init__(self, data):
        self.tokens, self.line = tokens(data), 1  # line: of the last token read

    def token(self):
        token, self.line = next(self.tokens, (None, self.line))
        return token

    def int(self, field, low, high, constraint):
        token = self.token()
        if token is None:
            fail(f"line {self.line}: expected {field}, but the input ended")
        negative = token.startswith(b"-")
        if not (token[1:] if negative else token).isdigit():
            fail(f"line {self.line}: token `{echo(token)}` is not an integer (expected {field})")
        if negative or len(token) > 20 or not low <= int(token) <= high:
            fail(f"line {self.line}: {field} = {echo(token)} violates the constraint {constraint}")
        return int(token)

    def finish(self):
        token = self.token()
        if token is not None:
            fail(f"line {self.line}: unexpected token `{echo(token)}` after the end of the input")


data = sys.stdin.buffer.read()
if len(data) > LIMIT:
    fail(f"the input is larger than {LIMIT} bytes, the largest input accepted")
try:
    data.decode("utf-8")
except UnicodeDecodeError as error:
    fail(f"the input is not UTF-8 text (invalid byte at offset {error.start})")
s = Scanner(data)
n = s.int("N", 1, 200_000, "1 ≤ N ≤ 2·10^5")
m = s.int("M", 1, 200_000, "1 ≤ M ≤ 2·10^5")
for i in range(1, n + 1):
    s.int(f"A_{i}", 1, 10**18, "1 ≤ A_i ≤ 10^18")
seen, repeat = {}, None  # (X, Y) -> (i, line of Y_i); the first repeat
for i in range(1, m + 1):
    x = s.int(f"X_{i}", 1, 10**18, "1 ≤ X_i ≤ 10^18")
    y = s.int(f"Y_{i}", 1, 10**18, "1 ≤ Y_i ≤ 10^18")
    if y > x:
        fail(f"line {s.line}: Y_{i} = {y} exceeds X_{i} = {x}, violating the constraint Y_i ≤ X_i")
    if (x, y) not in seen:
        seen[(x, y)] = (i, s.line)
    elif repeat is None:
        repeat = (i, s.line, x, y) + seen[(x, y)]
if repeat is not None:
    i, line, x, y, first, first_line = repeat
    fail(f"line {line}: (X_{i}, Y_{i}) = ({x}, {y}) repeats (X_{first}, Y_{first}) on line "
         f"{first_line}; the pairs (X_i, Y_i) must be pairwise distinct")
s.finish()
sys.exit(42)
