#!/usr/bin/env python3
# Kattis output validator (the judge) of dont-say-n-play: the count from 0,
# each player saying a safe number below N within K of the last, the judge
# playing by dont-say-n's table of losing numbers, as nimjudge's referee does
# (src/solver/dont_say_n_play.rs, the table by losing_numbers in
# src/solver/dont_say_n.rs); the protocol and the
# shared moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import Foul, judge, unsigned, words


def losing_numbers(k, safe):
    """`lose[v]`: the player to speak after `v` loses, for every v < N: a
    sliding count of the safe losing numbers in the window (v, v + K]."""
    n = len(safe)
    lose = [False] * n
    window = 0
    for v in range(n - 1, -1, -1):
        lose[v] = window == 0
        if safe[v] and lose[v]:
            window += 1
        leaving = v + k
        if leaving < n and safe[leaving] and lose[leaving]:
            window -= 1
    return lose


class Rules:
    """One game's rules (`safe[w]` for 0 ≤ w < N, 0 the start) and the
    table for them, shared by every position of the game."""

    def __init__(self, k, safe):
        self.k = k
        self.safe = safe
        self.lose = losing_numbers(k, safe)

    def __deepcopy__(self, memo):
        return self

    def n(self):
        return len(self.safe)

    def moves(self, v):
        """The safe numbers that may be said after `v`, ascending."""
        return [w for w in range(v + 1, min(v + self.k, self.n() - 1) + 1) if self.safe[w]]


class Count:
    """A game in play: its rules and the number said last."""

    def __init__(self, rules, said=0):
        self.rules = rules
        self.said = said


class DontSayNPlay:
    STUCK = "every number you may say is dangerous or at least N: you lost"

    def read_games(self, tokens):
        games = []
        for _ in range(tokens.int()):
            n, k = tokens.int(), tokens.int()
            word = tokens.word()
            if isinstance(word, bytes):
                word = word.decode("ascii")
            safe = [True] + [c == "o" for c in word]
            assert len(safe) == n, "S has N − 1 characters"
            games.append(Count(Rules(k, safe)))
        return games

    def write_start(self, count):
        rules = count.rules
        s = "".join("o" if safe else "x" for safe in rules.safe[1:])
        return f"{rules.n()} {rules.k}\n{s}\n"

    def parse_move(self, line):
        parts = words(line)
        if len(parts) != 1:
            raise Foul("expected one integer `w`")
        w = unsigned(parts[0])
        if w is None:
            raise Foul("`w` must be a non-negative integer")
        return w

    def check_move(self, count, w):
        rules = count.rules
        v = count.said
        if w <= v or w - v > rules.k:
            raise Foul(f"after {v} the number said is {v + 1} to {v + rules.k}, not {w}")
        if w >= rules.n():
            raise Foul(f"{w} is at least N = {rules.n()}: saying it loses")
        if not rules.safe[w]:
            raise Foul(f"{w} is dangerous (S_{w} = x): saying it loses")

    def play(self, count, w):
        count.said = w
        return count

    def write_move(self, w):
        return str(w)

    def winning_move(self, count):
        rules = count.rules
        for w in rules.moves(count.said):
            if rules.lose[w]:
                return w
        return None

    def any_move(self, count, rng):
        moves = count.rules.moves(count.said)
        if not moves:
            return None
        return moves[rng.range(0, len(moves) - 1)]


GAME = DontSayNPlay()

if __name__ == "__main__":
    judge(GAME)
