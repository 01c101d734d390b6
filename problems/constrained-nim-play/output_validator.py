#!/usr/bin/env python3
# Kattis output validator (the judge) of constrained-nim-play: Nim with
# forbidden moves (X, Y), the judge playing by constrained-nim's Grundy
# values, as nimjudge's referee does (src/solver/constrained_nim_play.rs,
# the values by GrundyTable in src/solver/constrained_nim/table.rs); the
# protocol and Nim's moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from bisect import bisect_right

from nimjudge_interactor import Foul, TakeGame, judge


class GrundyTable:
    """g(n) and h(n) = max g(0..=n) at every point n of S = {0} ∪ {X_i}
    (the official editorial's method), from forbidden moves sorted by
    (X, Y) and distinct."""

    def __init__(self, forbidden):
        self.points = [0]
        self.grundy = [0]
        self.best = [0]
        # How many more times than once each value occurs so far.
        repeats = {}
        start = 0
        while start < len(forbidden):
            n = forbidden[start][0]
            end = start
            while end < len(forbidden) and forbidden[end][0] == n:
                end += 1
            # h(n − 1), from the last point below n.
            h_before = n - 1 - self.points[-1] + self.best[-1]
            hit_values = sorted(self.value(n - y) for _, y in forbidden[start:end])
            g = h_before + 1
            i = 0
            while i < len(hit_values):
                v = hit_values[i]
                j = i
                while j < len(hit_values) and hit_values[j] == v:
                    j += 1
                if j - i == 1 + repeats.get(v, 0):
                    g = v  # runs come in increasing order: the smallest
                    break
                i = j
            if g <= h_before:
                repeats[g] = repeats.get(g, 0) + 1
            self.points.append(n)
            self.grundy.append(g)
            self.best.append(max(h_before, g))
            start = end

    def value(self, n):
        j = max(bisect_right(self.points, n) - 1, 0)
        if self.points[j] == n:
            return self.grundy[j]
        return n - self.points[j] + self.best[j]


class Rules:
    """One game's forbidden moves and the pile values they give, shared by
    every position of the game."""

    def __init__(self, forbidden, largest_pile):
        self.forbidden = forbidden  # sorted, distinct
        self.forbidden_set = set(forbidden)
        table = GrundyTable(forbidden)
        self.grundy = [table.value(n) for n in range(largest_pile + 1)]
        # How many moves from a pile of each size are forbidden.
        self.forbidden_at = {}
        for x, _ in forbidden:
            self.forbidden_at[x] = self.forbidden_at.get(x, 0) + 1

    def __deepcopy__(self, memo):
        return self

    def forbids(self, pile, take):
        return (pile, take) in self.forbidden_set

    def value(self, pile):
        return self.grundy[pile]


class Piles:
    def __init__(self, rules, piles):
        self.rules = rules
        self.piles = piles

    def xor(self):
        x = 0
        for a in self.piles:
            x ^= self.rules.value(a)
        return x

    def takes(self, pile):
        """The legal takes from pile `pile`, ascending."""
        a = self.piles[pile]
        forbids = self.rules.forbids
        return [y for y in range(1, a + 1) if not forbids(a, y)]

    def has_take(self, pile):
        a = self.piles[pile]
        return a > self.rules.forbidden_at.get(a, 0)


class ConstrainedNimPlay(TakeGame):
    TAKE = "y"

    def piles(self, position):
        return position.piles

    def read_games(self, tokens):
        games = []
        for _ in range(tokens.int()):
            n, m = tokens.int(), tokens.int()
            piles = [tokens.int() for _ in range(n)]
            forbidden = sorted((tokens.int(), tokens.int()) for _ in range(m))
            games.append(Piles(Rules(forbidden, max(piles, default=0)), piles))
        return games

    def write_start(self, position):
        forbidden = position.rules.forbidden
        lines = [f"{len(position.piles)} {len(forbidden)}", " ".join(map(str, position.piles))]
        lines.extend(f"{x} {y}" for x, y in forbidden)
        return "".join(line + "\n" for line in lines)

    def check_move(self, position, move):
        super().check_move(position, move)
        pile, take = move
        a = position.piles[pile]
        if position.rules.forbids(a, take):
            raise Foul(f"taking {take} from pile {pile + 1} of {a} is forbidden (X = {a}, Y = {take})")

    def winning_move(self, position):
        x = position.xor()
        if x == 0:
            return None
        rules = position.rules
        forbids = rules.forbids
        for pile, a in enumerate(position.piles):
            target = rules.value(a) ^ x
            if target >= rules.value(a):
                continue
            for y in range(1, a + 1):
                if not forbids(a, y) and rules.value(a - y) == target:
                    return pile, y
        return None

    def any_move(self, position, rng):
        open_piles = [pile for pile in range(len(position.piles)) if position.has_take(pile)]
        if not open_piles:
            return None
        pile = rng.pick(open_piles)
        return pile, rng.pick(position.takes(pile))


GAME = ConstrainedNimPlay()

if __name__ == "__main__":
    judge(GAME)
