#!/usr/bin/env python3
# Input validator for nimjudge's `nim-k` (N and K, then the N piles A_i),
# mirroring nimjudge's parser: NimK::parse in src/solver/nim_k.rs on
# src/solver/input.rs.
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
n = s.int("N", 1, 100_000, "1 ≤ N ≤ 10^5")
s.int("K", 1, 100_000, "1 ≤ K ≤ 10^5")
for i in range(1, n + 1):
    s.int(f"A_{i}", 1, 10**9, "1 ≤ A_i ≤ 10^9")
s.finish()
sys.exit(42)
