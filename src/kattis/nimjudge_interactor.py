"""The judge of nimjudge's interactive problems, as a Kattis output validator.

It follows nimjudge's referee (src/solver/interactive.rs) step for step, so a
program meets the same judge on Kattis as on nimjudge: the same lines, the
same moves, the same verdict. A test plays each problem's judge in lockstep
with the solver core's referee and requires equal transcripts.

1. The judge writes the number of games `G`, then the first game's start.
2. The program answers `First` or `Second`; the side that loses under
   perfect play is a wrong answer.
3. The players alternate, one move a line. From a winning position the
   judge plays the solver core's winning move, from a losing one a legal
   move drawn from a random source seeded by the testcase's text (the same
   splitmix64 stream and FNV-1a seed as nimjudge's).
4. A player without a move loses: the judge writes `none` and starts the
   next game; a program left without a move has lost the testcase.

A problem's validator (`main.py`) defines its game, an object with the
methods below, and calls `judge(game)`:

- `read_games(tokens)`: the starting positions, from the input's
  [`Tokens`] (the input validator has checked them);
- `write_start(position)`: the text (lines, each ending in a newline) the
  judge writes to start a game;
- `parse_move(line)` and `check_move(position, move)`: the move the line
  says, or `Foul(why)` raised, for its form and for the rules;
- `play(position, move)`: the position after a legal move (it may change
  and return `position`);
- `write_move(move)`: the move as a line, without its newline;
- `winning_move(position)` and `any_move(position, rng)`: the solver core's
  winning move or `None`, some legal move or `None`;
- `STUCK`: why a program left without a move lost.

Below the protocol are the pieces several games share, as the solver core
shares them: `TakeGame` (a move `i k` from one pile) and Nim's moves,
Moore's Nim_K moves, and primes.

Kattis runs it as `main.py input answer feedback_dir` with the program's
output on its standard input and its output to the program's input; it
exits 42 when the program won every game and 43 otherwise, with one line in
`feedback_dir/judgemessage.txt` saying where and why.
"""

import copy
import os
import re
import sys

MAX_LINE_BYTES = 256
NO_MOVE = "none"
MASK = (1 << 64) - 1

# Rust's `str::trim` removes Unicode White_Space; Python's `strip` removes
# a few more (\x1c to \x1f), so the set is spelled out.
WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# Rust's `split_ascii_whitespace`: no vertical tab.
ASCII_WHITE_SPACE = re.compile(r"[ \t\n\x0c\r]+")
UNSIGNED = re.compile(r"\+?[0-9]+")


class Foul(Exception):
    """A move the judge refuses, with the reason."""


class SeededRng:
    """nimjudge's deterministic random source (src/solver/seeded.rs)."""

    def __init__(self, seed):
        self.state = seed & MASK

    def clone(self):
        return SeededRng(self.state)

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def range(self, low, high):
        """Uniform in `low..=high`."""
        assert low <= high, f"empty range {low}..={high}"
        span = high - low
        if span == MASK:
            return self.next_u64()
        return low + ((self.next_u64() * (span + 1)) >> 64)

    def chance(self, numerator, denominator):
        return self.range(1, denominator) <= numerator

    def pick(self, items):
        return items[self.range(0, len(items) - 1)]

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.range(0, i)
            items[i], items[j] = items[j], items[i]


def seed_of(data):
    """The seed of a testcase's replies: FNV-1a of its bytes."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return h


def words(line):
    """The line's words, split as Rust's `split_ascii_whitespace` does."""
    return [word for word in ASCII_WHITE_SPACE.split(line) if word]


def unsigned(word):
    """The word as Rust parses a `u64` (digits, an optional `+`), or `None`."""
    if not UNSIGNED.fullmatch(word):
        return None
    value = int(word)
    return value if value <= MASK else None


def clip(text, chars=40):
    return text[:chars] + "…" if len(text) > chars else text


class Tokens:
    """A testcase's tokens, split as nimjudge's scanner splits them (ASCII
    whitespace), read in order."""

    def __init__(self, data):
        self._words = iter(data.split())

    def int(self):
        return int(next(self._words))

    def word(self):
        return next(self._words).decode("utf-8")


class Lost(Exception):
    """The testcase is over: the program lost, for this reason."""


class Referee:
    def __init__(self, game, games, seed, write):
        self.game = game
        self.games = games
        self.number = 0  # the game being played, from 0
        self.moves = 0
        self.position = None
        self.rng = SeededRng(seed)
        self.write = write

    def lose(self, reason):
        raise Lost(self.where(self.moves) + reason)

    def where(self, move_number):
        if move_number == 0:
            return f"game {self.number + 1}: "
        return f"game {self.number + 1}, move {move_number}: "

    def start_game(self):
        self.position = copy.deepcopy(self.games[self.number])
        self.moves = 0
        self.write(self.game.write_start(self.position))

    def opening(self):
        self.write(f"{len(self.games)}\n")
        self.start_game()

    def choose_side(self, text):
        side = text.strip(WHITE_SPACE)
        if side not in ("First", "Second"):
            self.lose(f"expected `First` or `Second`, read `{clip(side)}`")
        first = side == "First"
        if first != (self.game.winning_move(self.position) is not None):
            loser = "the first player" if first else "the second player"
            self.lose(f"chose {side}, but {loser} loses this position")
        return first

    def program_moves(self, text):
        """Plays the program's move; the judge then replies."""
        line = text.strip(WHITE_SPACE)
        number = self.moves + 1
        try:
            move = self.game.parse_move(line)
        except Foul as why:
            self.moves = number
            self.lose(f"malformed move `{clip(line)}`: {why}")
        try:
            self.game.check_move(self.position, move)
        except Foul as why:
            self.moves = number
            self.lose(f"illegal move: {why}")
        self.position = self.game.play(self.position, move)
        self.moves = number

    def judge_moves(self):
        """The judge's turn. True when the program is to move next, False
        when a new game starts; returns None after the last game."""
        game = self.game
        move = game.winning_move(self.position)
        if move is None:
            move = game.any_move(self.position, self.rng)
        if move is None:
            self.write(NO_MOVE + "\n")
            self.number += 1
            if self.number == len(self.games):
                return None
            self.start_game()
            return False
        self.position = game.play(self.position, move)
        self.moves += 1
        self.write(game.write_move(move) + "\n")
        if game.any_move(self.position, self.rng.clone()) is None:
            self.moves += 1
            self.lose(game.STUCK)
        return True


# Nim's moves (NimRules in src/solver/nim_play.rs), which several games share.


def read_piles(tokens):
    """`N`, then `N` piles."""
    return [tokens.int() for _ in range(tokens.int())]


def parse_take(line):
    """`i k`, as (pile from 0, stones); pile -1 is out of range."""
    parts = words(line)
    if len(parts) != 2:
        raise Foul("expected two integers `i k`")
    for word, name in zip(parts, "ik"):
        if unsigned(word) is None:
            raise Foul(f"`{name}` must be a non-negative integer")
    return unsigned(parts[0]) - 1, unsigned(parts[1])


def check_take(piles, move):
    i, k = move
    if not 0 <= i < len(piles):
        raise Foul(f"there is no pile {i + 1} (the piles are 1 to {len(piles)})")
    if k == 0:
        raise Foul("a move takes at least one stone")
    if k > piles[i]:
        raise Foul(f"pile {i + 1} holds {piles[i]}, fewer than {k}")


def xor_move(piles):
    x = 0
    for a in piles:
        x ^= a
    if x == 0:
        return None
    for i, a in enumerate(piles):
        if a ^ x < a:
            return i, a - (a ^ x)
    return None


def random_take(piles, rng):
    open_piles = [i for i, a in enumerate(piles) if a > 0]
    if not open_piles:
        return None
    i = open_piles[rng.range(0, len(open_piles) - 1)]
    return i, rng.range(1, piles[i])


def write_take(move):
    """`i k`, the pile from 1."""
    return f"{move[0] + 1} {move[1]}"


def write_piles(piles):
    """`N`, then the piles, on two lines."""
    return f"{len(piles)}\n{' '.join(map(str, piles))}\n"


class TakeGame:
    """A game whose move is `i k`, taking stones from one pile (NimRules):
    its piles are `self.piles(position)`, the position itself unless a game
    says otherwise, and a statement that calls the stones taken otherwise
    sets `TAKE`. A game overrides what its rules change."""

    STUCK = "you have no legal move left: you lost"
    TAKE = "k"

    def piles(self, position):
        return position

    def read_games(self, tokens):
        return [read_piles(tokens) for _ in range(tokens.int())]

    def write_start(self, position):
        return write_piles(self.piles(position))

    def parse_move(self, line):
        try:
            return parse_take(line)
        except Foul as why:
            name = self.TAKE
            raise Foul(str(why).replace("`i k`", f"`i {name}`").replace("`k`", f"`{name}`")) from None

    def check_move(self, position, move):
        check_take(self.piles(position), move)

    def play(self, position, move):
        self.piles(position)[move[0]] -= move[1]
        return position

    def write_move(self, move):
        return write_take(move)


# Moore's Nim_K moves (src/solver/nim_k_play.rs), which football-game-play
# shares.

MAX_TAKES = 10  # the most piles a move line may name (nim-k-play's K)


def parse_takes(line):
    """`m i_1 t_1 … i_m t_m`, as [(pile from 0, stones)]; pile -1 is out of
    range."""
    numbers = []
    for word in words(line):
        value = unsigned(word)
        if value is None:
            raise Foul(f"`{word}` is not a non-negative integer")
        numbers.append(value)
    if not numbers:
        raise Foul("expected `m` and m pairs `i t`")
    m, pairs = numbers[0], numbers[1:]
    if m == 0 or m > MAX_TAKES:
        raise Foul(f"m must be from 1 to K, not {m}")
    if len(pairs) != 2 * m:
        raise Foul(f"m = {m} needs {2 * m} more integers, not {len(pairs)}")
    return [(pairs[j] - 1, pairs[j + 1]) for j in range(0, len(pairs), 2)]


def write_takes(takes):
    return " ".join([str(len(takes))] + [f"{pile + 1} {take}" for pile, take in takes])


def moore_move(k, piles, bits=10):
    """Moore's winning move as [(pile from 0, stones)], or None if the mover
    loses: bit by bit from the highest of `bits`, each column made a
    multiple of K + 1."""
    modulus = k + 1
    new = list(piles)
    touched = [False] * len(new)
    touched_count = 0
    for bit in reversed(range(bits)):
        mask = 1 << bit
        fixed = [i for i in range(len(new)) if not touched[i] and new[i] & mask]
        m = len(fixed) % modulus
        # Touched piles' bits below their touching bit are free: clear them
        # all first, then set what the column needs.
        for i in range(len(new)):
            if touched[i]:
                new[i] &= ~mask
        if m == 0:
            continue
        if touched_count >= modulus - m:
            need = modulus - m
            for i in range(len(new)):
                if need > 0 and touched[i]:
                    new[i] |= mask
                    need -= 1
        else:
            for i in fixed[:m]:
                touched[i] = True
                new[i] &= ~mask
                touched_count += 1
    takes = [(i, piles[i] - new[i]) for i in range(len(new)) if touched[i]]
    return takes or None


# Primes (src/solver/prime_factor_game.rs and prime_factor_game_play.rs),
# which both prime factor games share.


def prime_exponents(n):
    """The prime factorisation of n as (prime, exponent) pairs, ascending."""
    factors = []
    p = 2
    while p * p <= n:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        if e > 0:
            factors.append((p, e))
        p += 1 if p == 2 else 2
    if n > 1:
        factors.append((n, 1))
    return factors


def is_prime(p):
    """Whether p is a prime: nimjudge's Miller-Rabin test, with the same
    fixed bases (exact for every 64-bit p)."""
    if p < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for b in bases:
        if p % b == 0:
            return p == b
    d, s = p - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for b in bases:
        y = pow(b, d, p)
        if y in (1, p - 1):
            continue
        for _ in range(s - 1):
            y = y * y % p
            if y == p - 1:
                break
        else:
            return False
    return True


def read_line(source):
    """The program's next line without its newline (the last may lack one);
    `None` at the end of its output; raises Lost for a line too long."""
    line = source.readline(MAX_LINE_BYTES + 1)
    if line.endswith(b"\n"):
        return line[:-1]
    if len(line) > MAX_LINE_BYTES:
        raise Lost(f"a line longer than {MAX_LINE_BYTES} bytes")
    return line if line else None


def play_match(game, data, source, sink):
    """Plays the testcase `data` (bytes) with the program; None when it won
    every game, else why it lost."""

    def write(text):
        sink.write(text.encode("utf-8"))
        sink.flush()

    referee = Referee(game, game.read_games(Tokens(data)), seed_of(data), write)
    try:
        referee.opening()
        to_move = False  # the side is chosen first
        while True:
            try:
                line = read_line(source)
            except Lost as why:
                move = referee.moves + 1 if to_move else 0
                raise Lost(referee.where(move) + str(why)) from None
            if line is None:
                move = referee.moves + 1 if to_move else 0
                raise Lost(referee.where(move) + "the program stopped before the match was over")
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                referee.lose("the line is not UTF-8 text")
            text = text.rstrip("\r")
            if to_move:
                referee.program_moves(text)
            elif referee.choose_side(text):
                to_move = True
                continue
            to_move = referee.judge_moves()
            if to_move is None:
                return None
    except Lost as why:
        return str(why)
    except BrokenPipeError:
        move = referee.moves + 1 if to_move else 0
        return referee.where(move) + "the program stopped before the match was over"


def judge(game):
    """The output validator's main: plays the testcase named by argv[1] and
    exits 42 (accepted) or 43 (wrong answer, said in judgemessage.txt)."""
    with open(sys.argv[1], "rb") as testcase:
        data = testcase.read()
    lost = play_match(game, data, sys.stdin.buffer, sys.stdout.buffer)
    if lost is None:
        sys.exit(42)
    with open(os.path.join(sys.argv[3], "judgemessage.txt"), "w", encoding="utf-8") as message:
        message.write(lost + "\n")
    sys.exit(43)
