"""The token reader of nimjudge's Kattis input validators.

It follows nimjudge's own scanner (src/solver/input.rs) rule for rule, so a
validator built on it accepts exactly the inputs nimjudge does: UTF-8 text of
at most 64 MiB (the most `nimjudge solve` reads); tokens split on ASCII
whitespace (space, \\t, \\n, \\r, \\x0b, \\x0c), a line being counted at each
\\n; an integer is ASCII digits, leading zeros allowed (however many), and a
sign makes it out of range; nothing may follow the last expected token.

A validator calls `read()`, reads its fields with the scanner it returns and
ends with `finish()`: exit status 42 for a valid input; on the first fault,
one line saying what is wrong (its line, the token, the constraint), in
nimjudge's words, and exit status 43. nimjudge ships this file beside each
problem's validator in an exported package.
"""

import sys

LIMIT = 64 << 20  # bytes


def fail(message):
    """Says what is wrong (UTF-8, whatever the locale) and rejects the input."""
    sys.stdout.buffer.write(message.encode("utf-8") + b"\n")
    sys.exit(43)


def echo(token):
    """A token as messages show it: at most 40 characters."""
    text = token.decode("utf-8")
    return text[:40] + "…" if len(text) > 40 else text


class Scanner:
    """The tokens of an input, in order; `line` is that of the last one read."""

    def __init__(self, data):
        # bytes.split() splits on exactly the scanner's whitespace.
        self._tokens = (
            (token, number)
            for number, text in enumerate(data.split(b"\n"), 1)
            for token in text.split()
        )
        self._next = next(self._tokens, None)
        self.line = 1

    def word(self, field):
        """The next token, as bytes."""
        if self._next is None:
            fail(f"line {self.line}: expected {field}, but the input ended")
        token, self.line = self._next
        self._next = next(self._tokens, None)
        return token

    def int(self, field, low, high, constraint):
        """The next token as an integer in `low..=high`; `constraint` says so."""
        token = self.word(field)
        negative = token.startswith(b"-")
        if not (token[1:] if negative else token).isdigit():
            fail(f"line {self.line}: token `{echo(token)}` is not an integer (expected {field})")
        if negative or not low <= int(token) <= high:
            fail(f"line {self.line}: {field} = {echo(token)} violates the constraint {constraint}")
        return int(token)

    def at_end(self):
        """True when only whitespace is left."""
        return self._next is None

    def finish(self):
        """Accepts the input if nothing follows the last token read."""
        if self._next is not None:
            token, line = self._next
            fail(f"line {line}: unexpected token `{echo(token)}` after the end of the input")
        sys.exit(42)


def read():
    """A scanner over standard input, once its size and encoding are checked."""
    data = sys.stdin.buffer.read(LIMIT + 1)
    if len(data) > LIMIT:
        fail(f"the input is larger than {LIMIT} bytes, the largest input accepted")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(f"the input is not UTF-8 text (invalid byte at offset {error.start})")
    return Scanner(data)
