//! `football-game`: POJ 2315 "Football Game", on the domain where its
//! published answer is the true game value.
//!
//! N balls lie S_i from a goal; each rolls only whole circumferences 2πR, and
//! no kick goes farther than L. A move kicks between 1 and M balls that are
//! not yet in; whoever faces all balls in loses. So ball i is a pile of
//! a_i = ⌈S_i/(2πR)⌉ units and a move lowers 1..=M piles by 1..=k each,
//! k = ⌊L/(2πR)⌋. Alice moves first; test cases run to the end of the input.
//!
//! This module owns the parser (with the domain rule below), the exact
//! arithmetic with 2πR, the winner formula and the generators.
//!
//! # The domain rule
//! POJ accepts "reduce each pile mod k + 1, then apply Moore's Nim_M test"
//! (seed `002_35c4f94c91ea1046.txt`). That is the game's value when M = 1
//! (Nim with a per-move cap k, Grundy value a mod (k + 1)) and when every
//! a_i ≤ k (the cap never binds, so the game is Moore's Nim_M), but not
//! otherwise: (1, 1, 4, 6) with M = 2,
//! k = 3 is a first-player loss that the formula calls a win (the tests show
//! it by game search). nimjudge hosts only those two cases; the parser rejects
//! any other test case with a message that says why.
//!
//! # Exact arithmetic with π
//! Floors involving 2πR are never computed in floating point. π is bracketed
//! by two integers over 10^30, [`PI_LOW`] < π·10^30 < [`PI_HIGH`], and a floor
//! ⌊D/(2πR)⌋ is computed with both; [`whole_turns`] returns a value only when
//! the two agree, which then is the true floor. They always agree within the
//! constraints: the floor changes only where D crosses 2πm for m = Rq, and the
//! closest any integer D < 10^8 comes to such a 2πm is 1.48·10^-8 (at
//! D = 80143857, m = 12755291), while the bracket moves 2πm by at most
//! 2m·10^-30 < 4·10^-23. The test
//! `the_pi_bracket_decides_every_comparison_in_range` checks this for every
//! m, so the parser's "cannot decide" error is unreachable on valid input.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines, push_numbers,
};

/// The bound on N (and so on M).
pub const MAX_N: usize = 30;
/// S_i and L are below 10^8.
pub const MAX_DISTANCE: u64 = 99_999_999;
/// R is below 10^4.
pub const MAX_RADIUS: u64 = 9_999;

/// 10^30, the scale of the π bracket.
const SCALE: u128 = 1_000_000_000_000_000_000_000_000_000_000;
/// ⌊π·10^30⌋ (π = 3.141592653589793238462643383279 502884…).
pub const PI_LOW: u128 = 3_141_592_653_589_793_238_462_643_383_279;
/// ⌈π·10^30⌉.
pub const PI_HIGH: u128 = PI_LOW + 1;

/// ⌊distance / (2π·radius)⌋, exactly, or `None` if the π bracket cannot
/// decide it (never within the constraints; see the module docs) or the
/// arguments are too large for the arithmetic.
pub fn whole_turns(distance: u64, radius: u64) -> Option<u64> {
    let numerator = (distance as u128).checked_mul(SCALE)?;
    let circumference = |pi: u128| pi.checked_mul(2 * radius as u128).filter(|&c| c > 0);
    // A larger π means a larger circumference and fewer whole turns.
    let at_most = numerator / circumference(PI_HIGH)?;
    let at_least = numerator / circumference(PI_LOW)?;
    (at_most == at_least).then(|| u64::try_from(at_most).ok())?
}

/// ⌊2π·m⌋ for the generators: the largest distance that `m` turns of a
/// radius-1 ball cover (exact for every m the constraints reach).
fn floor_of_turns(m: u64) -> u64 {
    (2 * m as u128 * PI_LOW / SCALE) as u64
}

pub struct FootballGame;

/// One test case reduced to the game: piles a_i, the kick cap k and M.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FootballCase {
    /// M: how many balls one move may kick.
    balls_per_move: usize,
    /// k = ⌊L/(2πR)⌋: the most units one kick moves a ball.
    cap: u64,
    /// a_i = ⌈S_i/(2πR)⌉ ≥ 1. Within the domain rule: M = 1 or all a_i ≤ k.
    piles: Vec<u64>,
}

impl FootballCase {
    /// A case from its game form, or `None` outside the hosted domain
    /// (M = 0, M > N, a pile of 0, or M ≥ 2 with a pile above the cap).
    pub fn new(piles: Vec<u64>, balls_per_move: usize, cap: u64) -> Option<Self> {
        let valid = balls_per_move >= 1
            && balls_per_move <= piles.len()
            && piles.iter().all(|&a| a >= 1)
            && (balls_per_move == 1 || piles.iter().all(|&a| a <= cap));
        valid.then_some(FootballCase {
            balls_per_move,
            cap,
            piles,
        })
    }

    pub fn piles(&self) -> &[u64] {
        &self.piles
    }

    pub fn cap(&self) -> u64 {
        self.cap
    }

    pub fn balls_per_move(&self) -> usize {
        self.balls_per_move
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FootballInput {
    pub cases: Vec<FootballCase>,
}

/// POJ's formula: with b_i = a_i mod (k + 1), the first player wins iff some
/// binary digit column of the b_i has a count that is not a multiple of
/// M + 1 (Moore's Nim_M). The true value only inside the domain rule.
pub fn formula_first_wins(piles: &[u64], balls_per_move: usize, cap: u64) -> bool {
    let modulus = balls_per_move as u64 + 1;
    let mut counts = [0u64; 64];
    for &a in piles {
        let mut bits = cap.checked_add(1).map_or(a, |period| a % period);
        while bits != 0 {
            if let Some(count) = counts.get_mut(bits.trailing_zeros() as usize) {
                *count += 1;
            }
            bits &= bits - 1;
        }
    }
    counts.iter().any(|&c| c % modulus != 0)
}

impl Problem for FootballGame {
    const ID: &'static str = "football-game";
    type Input = FootballInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<FootballInput, InputError> {
        let mut s = Scanner::new(text);
        let mut cases = Vec::new();
        // At least one case: the first N is required even in an empty input.
        loop {
            cases.push(parse_case(&mut s, cases.len() + 1)?);
            if s.at_end() {
                break;
            }
        }
        s.finish()?;
        Ok(FootballInput { cases })
    }

    fn solve(input: &FootballInput) -> Vec<Outcome> {
        input
            .cases
            .iter()
            .map(|c| {
                Outcome::from_first_wins(formula_first_wins(&c.piles, c.balls_per_move, c.cap))
            })
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "Alice", "Bob")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let cases: Vec<RawCase> = match kind {
            TestKind::Small => (0..rng.range(1, 5)).map(|_| small_case(rng)).collect(),
            TestKind::Edge => edge_cases(rng),
            TestKind::Random => (0..rng.range(1, 100)).map(|_| random_case(rng)).collect(),
            TestKind::Max => (0..10_000).map(|_| max_case(rng)).collect(),
        };
        let mut out = String::with_capacity(cases.len() * (MAX_N * 9 + 32));
        for case in &cases {
            push_numbers(
                &mut out,
                [
                    case.distances.len() as u64,
                    case.balls_per_move as u64,
                    case.limit,
                    case.radius,
                ],
            );
            push_numbers(&mut out, case.distances.iter().copied());
        }
        out
    }
}

fn parse_case(s: &mut Scanner<'_>, case: usize) -> Result<FootballCase, InputError> {
    let n = s.usize(Field::new("N").in_case(case), 1, MAX_N)?;
    let m = s.usize(Field::new("M").in_case(case), 1, MAX_N)?;
    if m > n {
        return Err(InputError::Invalid {
            line: s.line(),
            message: format!(
                "test case {case}: M = {m} exceeds N = {n}, violating the constraint M ≤ N"
            ),
        });
    }
    let limit = s.u64(Field::new("L").in_case(case), 1, MAX_DISTANCE)?;
    let radius = s.u64(Field::new("R").in_case(case), 1, MAX_RADIUS)?;
    let cap = whole_turns(limit, radius).ok_or_else(|| undecidable(s.line(), case, "L"))?;
    let mut piles = Vec::with_capacity(n);
    for i in 1..=n {
        let distance = s.u64(Field::new("S_i").at(i).in_case(case), 1, MAX_DISTANCE)?;
        // 2πR is irrational, so S/(2πR) is never an integer: ceil = floor + 1.
        let pile =
            whole_turns(distance, radius).ok_or_else(|| undecidable(s.line(), case, "S_i"))? + 1;
        if m > 1 && pile > cap {
            return Err(InputError::Invalid {
                line: s.line(),
                message: format!(
                    "test case {case}: M = {m} and pile a_{i} = {pile} exceeds the kick cap \
                     k = {cap}; nimjudge hosts football-game only where M = 1 or every pile \
                     is within the cap (see the statement)"
                ),
            });
        }
        piles.push(pile);
    }
    Ok(FootballCase {
        balls_per_move: m,
        cap,
        piles,
    })
}

/// Unreachable within the constraints (see the module docs), but an error
/// rather than a guess if it ever happened.
#[cold]
fn undecidable(line: usize, case: usize, what: &str) -> InputError {
    InputError::Invalid {
        line,
        message: format!(
            "test case {case}: {what}/(2πR) is too close to an integer to decide with 30 digits of π"
        ),
    }
}

/// A test case in the problem's own terms, as generators print it.
struct RawCase {
    balls_per_move: usize,
    limit: u64,
    radius: u64,
    distances: Vec<u64>,
}

/// A distance S ≤ 10^8 − 1 whose pile ⌈S/(2πR)⌉ is exactly `pile`, or the
/// largest distance if `pile` units reach past it.
fn distance_for_pile(rng: &mut SeededRng, pile: u64, radius: u64) -> u64 {
    let low = floor_of_turns((pile - 1) * radius) + 1;
    let high = floor_of_turns(pile * radius).min(MAX_DISTANCE);
    rng.range(low.min(high), high)
}

/// A case with `n` balls, `m` per move, kick limit L and radius R. With
/// m ≥ 2 every pile is drawn within the cap (the cap must be at least 1);
/// with m = 1 any distance goes.
fn make_case(
    rng: &mut SeededRng,
    n: usize,
    m: usize,
    limit: u64,
    radius: u64,
    max_distance: u64,
) -> RawCase {
    let cap = whole_turns(limit, radius).unwrap_or(0);
    let m = if cap == 0 { 1 } else { m };
    let distances = (0..n)
        .map(|_| {
            if m == 1 {
                rng.range(1, max_distance)
            } else {
                // Piles near the cap half the time, where the formula's
                // reduction mod k + 1 matters least and Moore's test most.
                let pile = if rng.chance(1, 2) {
                    rng.range(cap.saturating_sub(3).max(1), cap)
                } else {
                    rng.range(1, cap)
                };
                distance_for_pile(rng, pile, radius)
            }
        })
        .collect();
    RawCase {
        balls_per_move: m,
        limit,
        radius,
        distances,
    }
}

/// A case the first player loses by construction: every pile's residue
/// mod k + 1 appears a multiple of M + 1 times, so every binary digit column
/// count is a multiple of M + 1. Piles stay at most `max_pile` (and at most
/// k when M ≥ 2); N is at most `n_max` and a multiple of M + 1.
fn losing_case(
    rng: &mut SeededRng,
    n_max: usize,
    m: usize,
    limit: u64,
    radius: u64,
    max_pile: u64,
) -> RawCase {
    let cap = whole_turns(limit, radius).unwrap_or(0);
    let copies = (m + 1).min(n_max);
    if cap == 0 || copies < 2 {
        // k = 0 is a loss whatever the piles; a single pile is a loss when
        // it is a multiple of k + 1, if one fits.
        let pile = if cap < max_pile { cap + 1 } else { 1 };
        return RawCase {
            balls_per_move: 1,
            limit,
            radius,
            distances: vec![distance_for_pile(rng, pile, radius)],
        };
    }
    let m = copies - 1;
    let mut piles = Vec::with_capacity(n_max);
    for _ in 0..n_max / copies {
        let top = if m >= 2 { cap.min(max_pile) } else { max_pile };
        let v = rng.range(1, top);
        let residue = v % (cap + 1);
        for _ in 0..copies {
            let pile = if m == 1 {
                // Another pile with the same residue, never zero.
                let most = (max_pile - residue) / (cap + 1);
                residue + rng.range(u64::from(residue == 0), most) * (cap + 1)
            } else {
                v
            };
            piles.push(pile);
        }
    }
    shuffle(&mut piles, rng);
    RawCase {
        balls_per_move: m,
        limit,
        radius,
        distances: piles
            .iter()
            .map(|&pile| distance_for_pile(rng, pile, radius))
            .collect(),
    }
}

/// Fisher–Yates.
fn shuffle<T>(items: &mut [T], rng: &mut SeededRng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.range_usize(0, i));
    }
}

fn small_case(rng: &mut SeededRng) -> RawCase {
    let n = rng.range_usize(1, 4);
    let m = rng.range_usize(1, n);
    let radius = rng.range(1, 3);
    // Caps up to 6 and piles up to 8: the brute-force range.
    let limit = rng.range(1, floor_of_turns(7 * radius));
    if rng.chance(1, 2) {
        return losing_case(rng, n, m, limit, radius, 8);
    }
    let max_distance = floor_of_turns(8 * radius);
    make_case(rng, n, m, limit, radius, max_distance)
}

fn random_case(rng: &mut SeededRng) -> RawCase {
    let n = rng.range_usize(1, MAX_N);
    let m = if rng.chance(1, 2) {
        1
    } else {
        rng.range_usize(1, n)
    };
    let radius = rng.log_uniform(1, MAX_RADIUS);
    let limit = rng.log_uniform(1, MAX_DISTANCE);
    let max_distance = rng.log_uniform(1, MAX_DISTANCE);
    if rng.chance(1, 2) {
        let max_pile = whole_turns(max_distance, radius).unwrap_or(0).max(1);
        return losing_case(rng, n, m, limit, radius, max_pile);
    }
    make_case(rng, n, m, limit, radius, max_distance)
}

fn max_case(rng: &mut SeededRng) -> RawCase {
    let radius = if rng.chance(1, 2) {
        rng.range(1, 9)
    } else {
        rng.range(MAX_RADIUS - 999, MAX_RADIUS)
    };
    let limit = rng.range(MAX_DISTANCE - 10_000_000, MAX_DISTANCE);
    if rng.chance(1, 2) {
        // M + 1 divides 30, so all 30 balls take part in the construction.
        let m = *rng.pick(&[1, 2, 4, 5, 9, 14, 29]);
        let max_pile = whole_turns(MAX_DISTANCE, radius).unwrap_or(1);
        return losing_case(rng, MAX_N, m, limit, radius, max_pile);
    }
    let m = if rng.chance(1, 2) {
        1
    } else {
        rng.range_usize(2, MAX_N)
    };
    let mut case = make_case(rng, MAX_N, m, limit, radius, MAX_DISTANCE);
    if case.balls_per_move == 1 {
        for d in &mut case.distances {
            *d = rng.range(MAX_DISTANCE - 10_000_000, MAX_DISTANCE);
        }
    }
    case
}

/// Boundary cases, all in one input: k = 0, the largest values, N = M = 30
/// with every pile at the cap, and the distance closest to a whole number of
/// turns (80143857 with R = 1).
fn edge_cases(rng: &mut SeededRng) -> Vec<RawCase> {
    let mut cases = vec![
        // N = M = 1 and k = 0: nobody can move.
        RawCase {
            balls_per_move: 1,
            limit: 1,
            radius: 1,
            distances: vec![1],
        },
        // k = 0 with the largest radius and distances.
        RawCase {
            balls_per_move: 1,
            limit: floor_of_turns(MAX_RADIUS),
            radius: MAX_RADIUS,
            distances: vec![MAX_DISTANCE; MAX_N],
        },
        // The near-miss distance, as both S and L.
        RawCase {
            balls_per_move: 1,
            limit: 80_143_857,
            radius: 1,
            distances: vec![80_143_857, 80_143_857 - 1, 1],
        },
        RawCase {
            balls_per_move: 1,
            limit: MAX_DISTANCE,
            radius: 1,
            distances: vec![MAX_DISTANCE; MAX_N],
        },
    ];
    // Every pile exactly at the cap, N = M = 30 and N = 30, M = 29.
    for (radius, m) in [(1, MAX_N), (MAX_RADIUS, MAX_N), (1, MAX_N - 1)] {
        let cap = whole_turns(MAX_DISTANCE, radius).unwrap_or(1);
        cases.push(RawCase {
            balls_per_move: m,
            limit: MAX_DISTANCE,
            radius,
            distances: (0..MAX_N)
                .map(|_| distance_for_pile(rng, cap, radius))
                .collect(),
        });
    }
    cases.push(make_case(rng, MAX_N, MAX_N, MAX_DISTANCE, MAX_RADIUS, 1));
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, for_each_vector};
    use proptest::prelude::*;

    /// Every position one move away: choose 1..=M non-empty piles and lower
    /// each by 1..=k (never below zero). Positions are sorted tuples.
    fn successors(piles: &[u64], m: usize, k: u64) -> Vec<Vec<u64>> {
        let mut next = Vec::new();
        let mut amounts = vec![0u64; piles.len()];
        loop {
            let moved = amounts.iter().filter(|&&d| d > 0).count();
            if (1..=m).contains(&moved) {
                let mut p: Vec<u64> = piles.iter().zip(&amounts).map(|(a, d)| a - d).collect();
                p.sort_unstable();
                next.push(p);
            }
            // Next vector of amounts, each in 0..=min(k, pile).
            let mut i = 0;
            loop {
                if i == piles.len() {
                    next.sort();
                    next.dedup();
                    return next;
                }
                if amounts[i] < k.min(piles[i]) {
                    amounts[i] += 1;
                    break;
                }
                amounts[i] = 0;
                i += 1;
            }
        }
    }

    fn search(m: usize, k: u64) -> impl FnMut(&[u64]) -> bool {
        let mut search = WinLoseSearch::normal_play(move |p: &Vec<u64>| successors(p, m, k));
        move |piles: &[u64]| {
            let mut sorted = piles.to_vec();
            sorted.sort_unstable();
            search.mover_wins(&sorted)
        }
    }

    fn answer(text: &str) -> String {
        FootballGame::format(&FootballGame::solve(
            &FootballGame::parse(text).expect("valid input"),
        ))
    }

    fn error(text: &str) -> String {
        FootballGame::parse(text)
            .expect_err("invalid input")
            .to_string()
    }

    #[test]
    fn the_formula_matches_game_search_on_every_valid_small_position() {
        let mut checked = 0;
        for m in 1..=4 {
            for k in 0..=7 {
                let mut first_wins = search(m, k);
                for n in m..=4 {
                    for_each_vector(n, 5, |v| {
                        let piles: Vec<u64> = v.iter().map(|a| a + 1).collect();
                        if let Some(case) = FootballCase::new(piles.clone(), m, k) {
                            assert_eq!(
                                formula_first_wins(case.piles(), m, k),
                                first_wins(&piles),
                                "piles {piles:?}, M = {m}, k = {k}"
                            );
                            checked += 1;
                        }
                    });
                }
            }
        }
        // Every tuple is valid for M = 1; for M ≥ 2 only those within k.
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn outside_the_domain_the_formula_is_wrong_so_such_inputs_are_refused() {
        // (1, 1, 4, 6) with M = 2, k = 3: a first-player loss by game search,
        // but the formula says Alice.
        let piles = [1, 1, 4, 6];
        assert!(!search(2, 3)(&piles));
        assert!(formula_first_wins(&piles, 2, 3));
        assert_eq!(FootballCase::new(piles.to_vec(), 2, 3), None);
        // The same position in the problem's terms: R = 1, L = 20 (k = 3),
        // distances 1, 1, 20, 35 (piles 1, 1, 4, 6).
        assert_eq!(
            error("4 2 20 1\n1 1 20 35\n"),
            "line 2: test case 1: M = 2 and pile a_3 = 4 exceeds the kick cap k = 3; \
             nimjudge hosts football-game only where M = 1 or every pile is within the cap \
             (see the statement)"
        );
    }

    /// Both ends of the π bracket classify every integer near every 2πm,
    /// m = R·q, the same way, so `whole_turns` never fails in range; and the
    /// closest approach is the one the problem facts record (1.48·10^-8 at
    /// D = 80143857).
    #[test]
    fn the_pi_bracket_decides_every_comparison_in_range() {
        // 2π·15915494 < 10^8 − 1 < 2π·15915495 (with room): beyond the last m
        // every distance in range is below 2πm under both bounds.
        let last = 15_915_494u128;
        assert!(2 * last * PI_HIGH < MAX_DISTANCE as u128 * SCALE);
        assert!(2 * (last + 1) * PI_LOW > (MAX_DISTANCE as u128 + 1) * SCALE);
        let mut closest = (u128::MAX, 0);
        for m in 1..=last {
            let low = 2 * m * PI_LOW;
            let high = 2 * m * PI_HIGH;
            // No integer D with low ≤ D·10^30 ≤ high.
            let below = low / SCALE;
            assert!(below * SCALE < low && (below + 1) * SCALE > high, "m = {m}");
            let gap = (low - below * SCALE).min((below + 1) * SCALE - high);
            if gap < closest.0 {
                closest = (gap, m);
            }
        }
        let (gap, m) = closest;
        assert_eq!(m, 12_755_291);
        // 2πm lies just above the distance 80143857.
        assert_eq!(floor_of_turns(m as u64), 80_143_857);
        // 1.48·10^-8, in units of 10^-30.
        assert!((14_700_000_000_000_000_000_000..14_900_000_000_000_000_000_000).contains(&gap));
    }

    #[test]
    fn the_near_miss_distance_is_handled_exactly() {
        // 80143857/(2π) = 12755290.9999999976…: the pile is 12755291 and a
        // kick of L = 80143857 covers 12755290 whole turns.
        assert_eq!(whole_turns(80_143_857, 1), Some(12_755_290));
        let input = FootballGame::parse("1 1 80143857 1\n80143857\n").expect("valid");
        assert_eq!(input.cases[0].piles(), [12_755_291]);
        assert_eq!(input.cases[0].cap(), 12_755_290);
        // A pile of exactly k + 1 is a loss for the mover: Bob wins. The usual
        // double-precision code with a +10^-9 nudge on k gets the cap wrong
        // here (k = 12755291, so the pile is not reduced and it says Alice).
        let naive_cap = (80_143_857f64 / (2.0 * std::f64::consts::PI) + 1e-9).floor() as u64;
        assert_eq!(naive_cap, 12_755_291);
        assert!(formula_first_wins(&[12_755_291], 1, naive_cap));
        assert_eq!(answer("1 1 80143857 1\n80143857\n"), "Bob\n");
    }

    #[test]
    fn whole_turns_agrees_with_floating_point_away_from_the_edge() {
        let mut rng = SeededRng::new(2315);
        for _ in 0..100_000 {
            let d = rng.range(1, MAX_DISTANCE);
            let r = rng.range(1, MAX_RADIUS);
            let exact = whole_turns(d, r).expect("decidable in range");
            let x = d as f64 / (2.0 * std::f64::consts::PI * r as f64);
            if (x - x.round()).abs() > 1e-6 {
                assert_eq!(exact, x.floor() as u64, "D = {d}, R = {r}");
            }
        }
    }

    #[test]
    fn extra_case_file() {
        // The extra case of the problem facts, a solver's local input file from
        // demonSong/Algorithm (not an official sample); every
        // case has M = 1, where the formula is the game's value.
        let text = "2 1 30 1\n8 14\n2 1 30 1\n8 12\n2 1 30 1\n8 10\n2 1 30 1\n40 200\n";
        assert_eq!(answer(text), "Alice\nBob\nBob\nBob\n");
        let input = FootballGame::parse(text).expect("valid");
        for case in &input.cases {
            let mut first_wins = search(case.balls_per_move(), case.cap());
            assert_eq!(
                formula_first_wins(case.piles(), case.balls_per_move(), case.cap()),
                first_wins(case.piles())
            );
        }
    }

    #[test]
    fn a_cap_of_zero_means_bob_wins() {
        assert_eq!(answer("2 1 6 1\n100 3\n"), "Bob\n");
    }

    #[test]
    fn every_generator_kind_is_accepted_by_the_parser() {
        for kind in TestKind::ALL {
            for seed in 1..=4 {
                let text = FootballGame::generate(kind, &mut SeededRng::new(seed));
                let input = FootballGame::parse(&text)
                    .unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"));
                if kind == TestKind::Max {
                    assert_eq!(input.cases.len(), 10_000);
                    assert!(input.cases.iter().all(|c| c.piles().len() == MAX_N));
                }
            }
        }
    }

    #[test]
    fn generators_make_both_outcomes() {
        for kind in [TestKind::Small, TestKind::Random, TestKind::Max] {
            let text: String = (1..=6)
                .map(|seed| FootballGame::generate(kind, &mut SeededRng::new(seed)))
                .collect();
            let outcomes = FootballGame::solve(&FootballGame::parse(&text).expect("valid"));
            let losses = outcomes
                .iter()
                .filter(|&&o| o == Outcome::SecondPlayerWins)
                .count();
            // At least a fifth of the cases go each way.
            assert!(losses * 5 >= outcomes.len(), "{kind}: {losses}");
            assert!(
                (outcomes.len() - losses) * 5 >= outcomes.len(),
                "{kind}: {losses}"
            );
        }
    }

    #[test]
    fn small_generated_cases_agree_with_game_search() {
        for seed in 1..=40 {
            let text = FootballGame::generate(TestKind::Small, &mut SeededRng::new(seed));
            let input = FootballGame::parse(&text).expect("valid");
            for case in &input.cases {
                let mut first_wins = search(case.balls_per_move(), case.cap());
                assert_eq!(
                    formula_first_wins(case.piles(), case.balls_per_move(), case.cap()),
                    first_wins(case.piles()),
                    "{case:?}"
                );
            }
        }
    }

    #[test]
    fn distances_for_a_pile_give_that_pile() {
        let mut rng = SeededRng::new(1);
        for radius in 1..=30 {
            for pile in 1..=60 {
                let d = distance_for_pile(&mut rng, pile, radius);
                assert_eq!(whole_turns(d, radius).map(|q| q + 1), Some(pile));
            }
        }
    }

    proptest! {
        /// q = whole_turns(D, R) satisfies 2πR·q < D < 2πR·(q + 1), checked
        /// with the bound of π that makes each inequality hardest.
        #[test]
        fn whole_turns_brackets_the_distance(d in 1..=MAX_DISTANCE, r in 1..=MAX_RADIUS) {
            let q = whole_turns(d, r).expect("decidable in range") as u128;
            let scaled = d as u128 * SCALE;
            prop_assert!(2 * r as u128 * q * PI_HIGH < scaled);
            prop_assert!(scaled < 2 * r as u128 * (q + 1) * PI_LOW);
        }

        /// Random valid cases with M ≥ 2 and every pile within the cap agree
        /// with game search.
        #[test]
        fn random_capped_cases_agree_with_game_search(
            raw in prop::collection::vec(1u64..=5, 2..=4),
            m in 2usize..=4,
            extra_cap in 0u64..=2,
        ) {
            let m = m.min(raw.len());
            let cap = raw.iter().copied().max().unwrap_or(1) + extra_cap;
            let case = FootballCase::new(raw.clone(), m, cap).expect("within the domain");
            prop_assert_eq!(
                formula_first_wins(case.piles(), m, cap),
                search(m, cap)(&raw)
            );
        }
    }
}
