#!/usr/bin/env python3
# Kattis output validator (the judge) of football-game-play: POJ 2315's
# football game in units (ball i is a_i = ⌈S_i/(2πR)⌉ whole turns away, a kick
# rolls at most k = ⌊L/(2πR)⌋), the judge playing capped Nim (M = 1) or
# Moore's Nim_M, as nimjudge's referee does (src/solver/football_game_play.rs,
# with src/solver/football_game/ and the moves of src/solver/nim_k_play.rs);
# the protocol and the
# shared moves are nimjudge_interactor's (src/kattis/nimjudge_interactor.py,
# shipped beside this file).

from nimjudge_interactor import Foul, judge, moore_move, parse_takes, write_takes

SCALE = 10**30
PI_LOW = 3141592653589793238462643383279  # ⌊π·10^30⌋
PI_HIGH = PI_LOW + 1  # ⌈π·10^30⌉


def whole_turns(distance, radius):
    """⌊distance/(2π·radius)⌋ exactly, or None where the π bracket cannot decide."""
    numerator = distance * SCALE
    at_most = numerator // (PI_HIGH * 2 * radius)
    at_least = numerator // (PI_LOW * 2 * radius)
    return at_most if at_most == at_least else None


class Pitch:
    """M, the kick cap k, each ball's turns to the goal, and the numbers the
    game started from (N M L R, then the distances)."""

    def __init__(self, m, cap, balls, start):
        self.m = m
        self.cap = cap
        self.balls = balls
        self.start = start


class FootballGamePlay:
    STUCK = "you have no legal move left: you lost"

    def read_games(self, tokens):
        games = []
        for _ in range(tokens.int()):
            n, m, limit, radius = tokens.int(), tokens.int(), tokens.int(), tokens.int()
            distances = [tokens.int() for _ in range(n)]
            # 2πR is irrational, so S/(2πR) is never an integer: ceil = floor + 1.
            balls = [whole_turns(s, radius) + 1 for s in distances]
            games.append(Pitch(m, whole_turns(limit, radius), balls, (n, m, limit, radius, distances)))
        return games

    def write_start(self, pitch):
        n, m, limit, radius, distances = pitch.start
        return f"{n} {m} {limit} {radius}\n{' '.join(map(str, distances))}\n"

    def parse_move(self, line):
        try:
            return parse_takes(line)
        except Foul as why:
            raise Foul(str(why).replace("from 1 to K", "from 1 to M")) from None

    def check_move(self, pitch, move):
        if len(move) > pitch.m:
            raise Foul(f"a move kicks at most M = {pitch.m} balls, not {len(move)}")
        for j, (ball, turns) in enumerate(move):
            if not 0 <= ball < len(pitch.balls):
                raise Foul(f"there is no ball {ball + 1} (the balls are 1 to {len(pitch.balls)})")
            left = pitch.balls[ball]
            i = ball + 1
            if any(other == ball for other, _ in move[:j]):
                raise Foul(f"ball {i} is named twice")
            if turns == 0:
                raise Foul(f"a kick rolls ball {i} at least one turn")
            if turns > pitch.cap:
                raise Foul(f"a kick rolls a ball at most k = {pitch.cap} turns, not {turns}")
            if turns > left:
                raise Foul(f"ball {i} is {left} turns from the goal, fewer than {turns}")

    def play(self, pitch, move):
        for ball, turns in move:
            pitch.balls[ball] -= turns
        return pitch

    def write_move(self, move):
        return write_takes(move)

    def winning_move(self, pitch):
        if pitch.m == 1:
            modulus = pitch.cap + 1
            x = 0
            for a in pitch.balls:
                x ^= a % modulus
            if x == 0:
                return None
            for ball, a in enumerate(pitch.balls):
                value = a % modulus
                if value ^ x < value:
                    return [(ball, value - (value ^ x))]
            return None
        return moore_move(pitch.m, pitch.balls)

    def any_move(self, pitch, rng):
        open_balls = [i for i, a in enumerate(pitch.balls) if a > 0]
        if not open_balls or pitch.cap == 0:
            return None
        rng.shuffle(open_balls)
        m = rng.range(1, min(len(open_balls), pitch.m))
        kicks = [(i, rng.range(1, min(pitch.balls[i], pitch.cap))) for i in open_balls[:m]]
        return sorted(kicks)


GAME = FootballGamePlay()

if __name__ == "__main__":
    judge(GAME)
