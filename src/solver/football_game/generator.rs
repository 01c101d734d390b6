//! The football-game testcase generators: whole cases in the problem's own
//! terms (distances, L and R), drawn so that every case stays inside the
//! hosted domain and about half of them are first-player losses.

use super::{
    MAX_DISTANCE, MAX_N, MAX_RADIUS,
    closed_form::{floor_of_turns, whole_turns},
};
use crate::solver::{SeededRng, TestKind, push_numbers};

/// A valid input of the given kind, printed the way the judge reads it.
pub(super) fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
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

/// A test case in the problem's own terms, as generators print it.
pub(super) struct RawCase {
    balls_per_move: usize,
    limit: u64,
    radius: u64,
    distances: Vec<u64>,
}

/// A distance S ≤ 10^8 − 1 whose pile ⌈S/(2πR)⌉ is exactly `pile`, or the
/// largest distance if `pile` units reach past it.
pub(super) fn distance_for_pile(rng: &mut SeededRng, pile: u64, radius: u64) -> u64 {
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
    rng.shuffle(&mut piles);
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
        // The near miss alone, which a double π with the `+ 1e-9` some
        // accepted codes add to k gets wrong: k = 12,755,290 and the one
        // pile ⌈S/(2π)⌉ = 12,755,291 is a multiple of k + 1, so Bob wins;
        // that k comes out 12,755,291 and Alice would.
        RawCase {
            balls_per_move: 1,
            limit: 80_143_857,
            radius: 1,
            distances: vec![80_143_857],
        },
        // The same with R = 148: k = ⌊4,272,943/(296π)⌋ = 4,594, and the
        // double with the `+ 1e-9` says 4,595.
        RawCase {
            balls_per_move: 1,
            limit: 4_272_943,
            radius: 148,
            distances: vec![4_272_943],
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
