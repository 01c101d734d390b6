#!/usr/bin/env python3
# Kattis input validator for football-game-play: G, then G test cases in
# football-game's format (`N M L R`, then N distances S_i), with N ≤ 20,
# M ≤ 10, S_i ≤ 6000, M ≤ N and the hosted domain: M = 1 or every pile
# a_i = ⌈S_i/(2πR)⌉ within the kick cap k = ⌊L/(2πR)⌋, computed exactly with
# nimjudge's bracket of π. Mirrors nimjudge's parser (src/solver/
# football_game_play.rs with scan_case of src/solver/football_game/); the
# token rules are nimjudge_input's (shipped beside this file).

from nimjudge_input import fail, read

PI_LOW = 3141592653589793238462643383279  # ⌊π·10^30⌋; ⌈π·10^30⌉ is one more


def whole_turns(distance, radius):
    """⌊distance/(2π·radius)⌋, or None where the two ends of the π bracket differ."""
    at_most = distance * 10**30 // ((PI_LOW + 1) * 2 * radius)
    at_least = distance * 10**30 // (PI_LOW * 2 * radius)
    return at_most if at_most == at_least else None


def undecidable(case, what):
    fail(f"line {s.line}: test case {case}: {what}/(2πR) is too close to an integer "
         f"to decide with 30 digits of π")


s = read()
for case in range(1, s.int("G", 1, 10, "1 ≤ G ≤ 10") + 1):
    n = s.int(f"N of test case {case}", 1, 20, "1 ≤ N ≤ 20")
    m = s.int(f"M of test case {case}", 1, 10, "1 ≤ M ≤ 10")
    if m > n:
        fail(f"line {s.line}: test case {case}: M = {m} exceeds N = {n}, "
             f"violating the constraint M ≤ N")
    limit = s.int(f"L of test case {case}", 1, 99_999_999, "1 ≤ L ≤ 99999999")
    radius = s.int(f"R of test case {case}", 1, 9_999, "1 ≤ R ≤ 9999")
    cap = whole_turns(limit, radius)
    if cap is None:
        undecidable(case, "L")
    for i in range(1, n + 1):
        turns = whole_turns(s.int(f"S_{i} of test case {case}", 1, 6000, "1 ≤ S_i ≤ 6000"), radius)
        if turns is None:
            undecidable(case, "S_i")
        if m > 1 and turns + 1 > cap:  # 2πR is irrational: ⌈S/(2πR)⌉ = ⌊S/(2πR)⌋ + 1
            fail(f"line {s.line}: test case {case}: M = {m} and pile a_{i} = {turns + 1} "
                 f"exceeds the kick cap k = {cap}; nimjudge hosts football-game only where "
                 f"M = 1 or every pile is within the cap (see the statement)")
s.finish()
