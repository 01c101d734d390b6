#!/usr/bin/env python3
# Input validator for dont-say-n (Kattis convention: exit 42 if valid, else
# print what is wrong and exit 43). Mirrors nimjudge's parser for the problem,
# src/solver/dont_say_n.rs with the Scanner of src/solver/input.rs:
# 2 ≤ N ≤ 2·10^5, 1 ≤ K ≤ 199999 with K < N, then S, a token of exactly N − 1
# characters each `o` or `x`, and nothing after it.
import re
import sys


def fail(message):
    # UTF-8 whatever the locale: messages use ≤ and …
    sys.stdout.buffer.write((message + "\n").encode("utf-8"))
    sys.exit(43)


def echo(token):
    text = token.decode("utf-8")
    return text if len(text) <= 40 else text[:40] + "…"


class Tokens:
    """Tokens split on ASCII whitespace (space \\t \\n \\r \\x0b \\x0c), each with
    its line; `line` is that of the last token read, where nimjudge reports
    a missing one."""

    def __init__(self, data):
        self.data, self.pos, self.line = data, 0, 1
        self.found = re.finditer(rb"[^ \t\n\r\x0b\x0c]+", data)

    def word(self, field):
        match = next(self.found, None)
        if match is None:
            fail(f"line {self.line}: expected {field}, but the input ended")
        self.line += self.data.count(b"\n", self.pos, match.start())
        self.pos = match.start()
        return match.group()

    def integer(self, field, constraint, low, high):
        # A u64 as nimjudge reads it: ASCII digits, leading zeros allowed, at
        # most 20 characters; a sign or a longer token is out of range.
        token = self.word(field)
        digits = token[1:] if token[:1] == b"-" else token
        if not re.fullmatch(rb"[0-9]+", digits):
            fail(f"line {self.line}: token `{echo(token)}` is not an integer (expected {field})")
        if digits != token or len(token) > 20 or not low <= int(token) <= high:
            fail(f"line {self.line}: {field} = {echo(token)} violates the constraint {constraint}")
        return int(token)

    def finish(self):
        match = next(self.found, None)
        if match is not None:
            self.line += self.data.count(b"\n", self.pos, match.start())
            fail(f"line {self.line}: unexpected token `{echo(match.group())}` after the end of the input")


def read_input():
    data = sys.stdin.buffer.read()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(f"stdin is not UTF-8 text (invalid byte at offset {e.start})")
    return Tokens(data)


tokens = read_input()
n = tokens.integer("N", "2 ≤ N ≤ 2·10^5", 2, 200_000)
k = tokens.integer("K", "1 ≤ K ≤ 199999", 1, 199_999)
if k >= n:
    fail(f"line {tokens.line}: K = {k} violates the constraint K < N (N = {n})")
s = tokens.word("S")
bad = re.search(rb"[^ox]", s)
if bad:
    fail(f"line {tokens.line}: character {bad.start() + 1} of S is "
         f"`{s[bad.start():].decode('utf-8')[0]}`; S may contain only `o` and `x`")
if len(s) != n - 1:  # every character is `o` or `x`: one byte each
    fail(f"line {tokens.line}: S has {len(s)} characters, "
         f"violating the constraint |S| = N − 1 = {n - 1}")
tokens.finish()
sys.exit(42)
