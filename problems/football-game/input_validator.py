#!/usr/bin/env python3
# Kattis input validator for football-game: cases `N M L R` and N distances
# S_i, up to the end of the input (at least one). Mirrors nimjudge's parser
# (src/solver/football_game/mod.rs and closed_form.rs, on the Scanner of
# src/solver/input.rs): UTF-8 text of at most 64 MiB (what `nimjudge solve`
# reads), tokens split on ASCII whitespace, integers of 1 to 20 ASCII digits
# (leading zeros allowed, no sign), M ≤ N, and the hosted domain rule: M = 1
# or every pile a_i = ⌈S_i/(2πR)⌉ within the kick cap k = ⌊L/(2πR)⌋, computed
# exactly with nimjudge's bracket of π. Exits 42 if valid, else says why and
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

    def at_end(self):
        return re.compile(rb"[^ \t\n\r\x0b\x0c]").search(self.data, self.end) is None


PI_LOW = 3141592653589793238462643383279  # ⌊π·10^30⌋; ⌈π·10^30⌉ is one more


def whole_turns(distance, radius):
    """⌊distance/(2π·radius)⌋, or None where the two ends of the π bracket differ."""
    at_most = distance * 10**30 // ((PI_LOW + 1) * 2 * radius)
    at_least = distance * 10**30 // (PI_LOW * 2 * radius)
    return at_most if at_most == at_least else None


def undecidable(case, what):
    fail(s.line, f"test case {case}: {what}/(2πR) is too close to an integer "
                 f"to decide with 30 digits of π")


data = sys.stdin.buffer.read(LIMIT + 1)
if len(data) > LIMIT:
    fail(None, f"the input is larger than {LIMIT} bytes, the largest input accepted")
try:
    data.decode("utf-8")
except UnicodeDecodeError as error:
    fail(None, f"the input is not UTF-8 text (invalid byte at offset {error.start})")
s = Scanner(data)
case = 0
while case == 0 or not s.at_end():
    case += 1
    n = s.int(f"N of test case {case}", 1, 30, "1 ≤ N ≤ 30")
    m = s.int(f"M of test case {case}", 1, 30, "1 ≤ M ≤ 30")
    if m > n:
        fail(s.line, f"test case {case}: M = {m} exceeds N = {n}, violating the constraint M ≤ N")
    limit = s.int(f"L of test case {case}", 1, 99_999_999, "1 ≤ L ≤ 99999999")
    radius = s.int(f"R of test case {case}", 1, 9_999, "1 ≤ R ≤ 9999")
    cap = whole_turns(limit, radius)
    if cap is None:
        undecidable(case, "L")
    for i in range(1, n + 1):
        turns = whole_turns(s.int(f"S_{i} of test case {case}", 1, 99_999_999,
                                  "1 ≤ S_i ≤ 99999999"), radius)
        if turns is None:
            undecidable(case, "S_i")
        if m > 1 and turns + 1 > cap:  # 2πR is irrational: ⌈S/(2πR)⌉ = ⌊S/(2πR)⌋ + 1
            fail(s.line, f"test case {case}: M = {m} and pile a_{i} = {turns + 1} exceeds "
                         f"the kick cap k = {cap}; nimjudge hosts football-game only where "
                         f"M = 1 or every pile is within the cap (see the statement)")
sys.exit(42)
