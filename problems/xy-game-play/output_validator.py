#!/usr/bin/env python3
# Kattis output validator (the judge) of xy-game-play: AtCoder ARC208 E "XY
# Game" (take 1 or 2 from a pile, never leaving a multiple of X or Y), the
# judge moving a pile to a size whose Grundy value makes the XOR 0, as
# nimjudge's referee does (src/solver/xy_game_play.rs, the values from the
# closed form of src/solver/xy_game/closed_form.rs); the protocol is
# nimjudge_interactor's (src/kattis/nimjudge_interactor.py, shipped beside
# this file).

from functools import lru_cache

from nimjudge_interactor import Foul, TakeGame, judge

# The closed form of one pile's Grundy value (0, 1 or 2), as
# src/solver/xy_game/closed_form.rs computes it (Python's integers do not
# overflow, so its u64/u128 choice is one code path here).


@lru_cache(maxsize=None)
def grundy(x, y, v):
    i, q = v // x, v // y
    if v != i * x and v != q * y:
        return free_grundy(x, y, v, i, q)
    # A blocked size: the mex over the free sizes one or two below it.
    seen = 0
    for d in (1, 2):
        w = v - d
        if w >= 0 and not is_blocked(x, y, w):
            seen |= 1 << free_grundy(x, y, w, w // x, (w - 1) // y)
    value = 0
    while seen >> value & 1:
        value += 1
    return value


def is_blocked(x, y, v):
    """A multiple of x or of y (0 included)."""
    return v % x == 0 or v % y == 0


def after_gap(gap, state):
    """The one-bit interval state after a gap of `gap`."""
    r = gap % 3
    if r == 0:
        return state
    if r == 1:
        return 0
    return state ^ 1


def pattern(state, t):
    """The value at offset t ≥ 1 of an interval in state `state`."""
    k = (t - 1) % 3
    return k if state == 0 else (1, 0, 2)[k]


def free_grundy(x, y, v, i, q):
    """g(v) for a free v, given i = ⌊v/x⌋ and q = ⌊(v − 1)/y⌋."""
    base = i * x
    below = q * y
    last = q if below < base else q - 1
    entering = state_entering(x, y, i, last)
    if below > base:
        start, state = below, after_gap(below - base, entering)
    else:
        start, state = base, entering
    return pattern(state, v - start)


def state_entering(x, y, i, last):
    """S_i: the state of the interval that starts at iX, given
    last = ⌊(iX − 1)/Y⌋ (ignored when i = 0)."""
    if i == 0:
        return 0
    base = i * x
    if x % 3 == 1:
        return 0
    if x % 3 == 0:
        if y % 3 == 0:
            return 0
        j = last if last % 3 != 0 else max(last - 1, 0)
        if j == 0:
            return 0
        return 1 if (j % 3) * (y % 3) % 3 == 1 else 0
    if last == 0:
        return i & 1
    c3 = 3 * x
    t = x * (y % 3) + y
    if t < 2 * c3:
        a = t - c3 if t >= c3 else t
    else:
        a = t % c3
    k = last_from_zero(a, a, x, 1, last - 1)
    if k is None:
        return i & 1
    d = base - (k + 1) * y
    if d <= x:
        back = 0
    elif d <= 2 * x:
        back = 1
    else:
        back = (d - 1) // x
    return back & 1


def last_from_zero(a, b, c, w, hi):
    """The largest k in [0, hi] with ⌊(a·k + b)/c⌋ ≡ w (mod 3), if any, for
    0 ≤ a, b < 3c and w < 3."""
    c3 = 3 * c
    if a <= c:
        return last_on_unit_slope(a, b, c, w, hi)
    if a >= 2 * c:
        return last_on_steep_slope(a, b, c, w, hi)
    e = a - c
    n = a * hi + b
    h = n // c
    rem = n - h * c
    k = hi
    for _ in range(4):
        if h % 3 == w:
            return k
        if k == 0:
            return None
        k -= 1
        if rem >= e:
            rem -= e
            h -= 1
        else:
            rem = rem + c - e
            h -= 2
    hi = k
    a2 = a + a - c3 if a + a >= c3 else a + a
    best = None
    for k0 in (0, 1):
        if hi < k0:
            break
        b0 = a * k0 + b
        if b0 >= c3:
            b0 -= c3
        m_hi = (hi - k0) // 2
        if a2 <= c:
            m = last_on_unit_slope(a2, b0, c, w, m_hi)
        else:
            m = last_on_steep_slope(a2, b0, c, w, m_hi)
        if m is not None:
            k = 2 * m + k0
            best = k if best is None else max(best, k)
    return best


def last_on_steep_slope(a, b, c, w, hi):
    c3 = 3 * c
    b2 = c3 + c - 1 - b
    if b2 >= c3:
        b2 -= c3
    w2 = w if w == 0 else 3 - w
    return last_on_unit_slope(c3 - a, b2, c, w2, hi)


def last_on_unit_slope(a, b, c, w, hi):
    top = (a * hi + b) // c
    bottom = 2 if b >= 2 * c else 1 if b >= c else 0
    r = (top + 3 - w) % 3
    if top < bottom + r:
        return None
    if r == 0 or a == 0:
        return hi
    return min(((top - r + 1) * c - 1 - b) // a, hi)


class XyPiles:
    """A game in play: the two divisors and the piles."""

    def __init__(self, x, y, piles):
        self.x = x
        self.y = y
        self.piles = piles

    def value(self, a):
        return grundy(self.x, self.y, a)

    def xor(self):
        x = 0
        for a in self.piles:
            x ^= self.value(a)
        return x

    def allows(self, a, d):
        """Whether taking d from a pile of a is a move."""
        return 1 <= d <= 2 and a > d and not is_blocked(self.x, self.y, a - d)


class XyGamePlay(TakeGame):
    TAKE = "d"

    def piles(self, position):
        return position.piles

    def read_games(self, tokens):
        games = []
        for _ in range(tokens.int()):
            n, x, y = tokens.int(), tokens.int(), tokens.int()
            games.append(XyPiles(x, y, [tokens.int() for _ in range(n)]))
        return games

    def write_start(self, position):
        return f"{len(position.piles)} {position.x} {position.y}\n{' '.join(map(str, position.piles))}\n"

    def check_move(self, position, move):
        pile, d = move
        if not 0 <= pile < len(position.piles):
            raise Foul(f"there is no pile {pile + 1} (the piles are 1 to {len(position.piles)})")
        a = position.piles[pile]
        i = pile + 1
        if not 1 <= d <= 2:
            raise Foul(f"a move takes 1 or 2 stones, not {d}")
        if a <= d:
            raise Foul(f"pile {i} holds {a}: taking {d} would empty it, and 0 is a multiple of X")
        left = a - d
        for name, divisor in (("X", position.x), ("Y", position.y)):
            if left % divisor == 0:
                raise Foul(f"taking {d} from pile {i} leaves {left}, a multiple of {name} = {divisor}")

    def winning_move(self, position):
        x = position.xor()
        if x == 0:
            return None
        for pile, a in enumerate(position.piles):
            for d in (1, 2):
                if position.allows(a, d) and position.value(a - d) == position.value(a) ^ x:
                    return pile, d
        return None

    def any_move(self, position, rng):
        moves = [(pile, d) for pile, a in enumerate(position.piles) for d in (1, 2) if position.allows(a, d)]
        return rng.pick(moves) if moves else None


GAME = XyGamePlay()

if __name__ == "__main__":
    judge(GAME)
