//! `xy-game`: AtCoder ARC208 E "XY Game".
//!
//! T cases; in each, N piles, and a move removes 1 or 2 stones from one pile
//! provided the new size is not a multiple of X or of Y (0 counts, so a pile
//! never empties). Normal play, Alice first. By Sprague-Grundy, Alice wins a
//! case iff the XOR of the piles' Grundy values is non-zero.
//!
//! This module owns the input format, its validation, the answer's format and
//! the testcase generators. The mathematics lives in [`closed_form`]
//! ([`grundy`] evaluates one pile in O(1) for sizes up to 10^18); the slow
//! exact references it is tested against live in `reference`, which is
//! compiled for tests only.
//!
//! # Layout
//! - [`closed_form`]: the O(1) Grundy value and its derivation.
//! - `reference` (tests only): brute-force DP and interval-by-interval
//!   simulation.

pub mod closed_form;
#[cfg(test)]
mod reference;

pub use closed_form::grundy;

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner, pretty_bound},
    outcome_lines, push_numbers,
};

/// Most test cases in one input.
pub const MAX_T: usize = 200_000;
/// Most piles over all test cases of one input (also the bound on one N).
pub const MAX_SUM_N: usize = 200_000;
/// Largest X and Y.
pub const MAX_XY: u64 = 1_000_000_000;
/// Largest pile.
pub const MAX_A: u64 = 1_000_000_000_000_000_000;

pub struct XyGame;

/// One test case: the two divisors and the range of its piles in
/// [`XyGameInput::piles`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XyGameCase {
    pub x: u64,
    pub y: u64,
    /// Where this case's piles sit in the shared pile array. One flat array
    /// instead of a `Vec` per case: 2·10^5 cases of one pile each would
    /// otherwise cost 2·10^5 allocations.
    pub piles: std::ops::Range<usize>,
}

/// A validated input: every case satisfies `1 ≤ X < Y ≤ 10^9`, every pile is
/// in `1..=10^18`, and there are at most 2·10^5 piles in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XyGameInput {
    pub cases: Vec<XyGameCase>,
    pub piles: Vec<u64>,
}

impl XyGameInput {
    /// The cases as `(x, y, piles)`, in input order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64, &[u64])> {
        self.cases.iter().map(|case| {
            let piles = self.piles.get(case.piles.clone()).unwrap_or_default();
            (case.x, case.y, piles)
        })
    }
}

/// Whether Alice wins one case: the XOR of the piles' Grundy values.
pub fn winner(x: u64, y: u64, piles: &[u64]) -> Outcome {
    let xor = piles.iter().fold(0, |acc, &v| acc ^ grundy(x, y, v));
    Outcome::from_first_wins(xor != 0)
}

impl Problem for XyGame {
    const ID: &'static str = "xy-game";
    type Input = XyGameInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<XyGameInput, InputError> {
        let mut s = Scanner::new(text);
        let t = s.usize(Field::new("T"), 1, MAX_T)?;
        let mut cases = Vec::with_capacity(t);
        let mut piles = Vec::new();
        for c in 1..=t {
            let n = s.usize(Field::new("N").in_case(c), 1, MAX_SUM_N)?;
            let total = piles.len() + n;
            if total > MAX_SUM_N {
                return Err(InputError::Invalid {
                    line: s.line(),
                    message: format!(
                        "N = {n} of test case {c} brings the sum of N to {total}, \
                         violating the constraint ΣN ≤ {}",
                        pretty_bound(MAX_SUM_N as u64)
                    ),
                });
            }
            let x = s.u64(Field::new("X").in_case(c), 1, MAX_XY)?;
            let y = s.u64(Field::new("Y").in_case(c), 1, MAX_XY)?;
            if x >= y {
                return Err(InputError::Invalid {
                    line: s.line(),
                    message: format!(
                        "X = {x} and Y = {y} of test case {c} violate the constraint X < Y"
                    ),
                });
            }
            let start = piles.len();
            piles.reserve(n);
            for i in 1..=n {
                piles.push(s.u64(Field::new("A_i").at(i).in_case(c), 1, MAX_A)?);
            }
            cases.push(XyGameCase {
                x,
                y,
                piles: start..piles.len(),
            });
        }
        s.finish()?;
        Ok(XyGameInput { cases, piles })
    }

    fn solve(input: &XyGameInput) -> Vec<Outcome> {
        input
            .iter()
            .map(|(x, y, piles)| winner(x, y, piles))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "Alice", "Bob")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let cases = match kind {
            TestKind::Small => small(rng),
            TestKind::Edge => edge(rng),
            TestKind::Random => random(rng),
            TestKind::Max => max(rng),
        };
        render(&cases)
    }
}

/// A generated case: `(x, y, piles)`.
type GenCase = (u64, u64, Vec<u64>);

/// Values a brute force over `v ≤ 60` checks: X, Y ≤ 15.
fn small(rng: &mut SeededRng) -> Vec<GenCase> {
    let t = rng.range_usize(1, 6);
    (0..t)
        .map(|_| {
            let x = rng.range(1, 12);
            let y = rng.range(x + 1, 15);
            let n = rng.range_usize(1, 5);
            (x, y, (0..n).map(|_| rng.range(1, 60)).collect())
        })
        .collect()
}

/// A pile on or just around a multiple of `x` or `y`, clamped into range.
fn near_blocked(rng: &mut SeededRng, x: u64, y: u64) -> u64 {
    let d = *rng.pick(&[x, y]);
    let k = rng.log_uniform(1, MAX_A / d);
    let v = (k * d).saturating_add_signed(*rng.pick(&[-2, -1, 0, 1, 2, 3]));
    v.clamp(1, MAX_A)
}

/// One boundary-shaped case of `n` piles.
fn edge_case(rng: &mut SeededRng, n: usize) -> GenCase {
    let (x, y) = match rng.range(0, 6) {
        0 => (1, rng.log_uniform(2, MAX_XY)),
        1 => {
            let x = rng.log_uniform(1, MAX_XY - 1);
            (x, x + 1)
        }
        2 => {
            let x = rng.log_uniform(1, MAX_XY / 2);
            (x, x * rng.range(2, MAX_XY / x))
        }
        3 => (MAX_XY - 1, MAX_XY),
        4 => {
            // Y just below 2X.
            let x = rng.log_uniform(2, MAX_XY / 2);
            (x, 2 * x - rng.range(1, 2.min(x - 1)))
        }
        _ => (rng.range(1, 3), rng.range(4, 6)),
    };
    let y = y.max(x + 1).min(MAX_XY);
    let piles = (0..n)
        .map(|_| match rng.range(0, 3) {
            0 => MAX_A - rng.range(0, 2),
            1 => rng.range(1, 3),
            _ => near_blocked(rng, x, y),
        })
        .collect();
    (x, y, piles)
}

/// Boundary shapes: X = 1, Y = X + 1, Y a multiple of X, Y just below 2X,
/// piles on and just above blocked numbers and at 10^18; sometimes the most
/// cases the constraints allow, one pile each.
fn edge(rng: &mut SeededRng) -> Vec<GenCase> {
    if rng.chance(1, 4) {
        return (0..MAX_T).map(|_| edge_case(rng, 1)).collect();
    }
    let t = rng.range_usize(1, 50);
    (0..t)
        .map(|_| {
            let n = rng.range_usize(1, 20);
            edge_case(rng, n)
        })
        .collect()
}

/// Mixed moderate inputs across the whole range.
fn random(rng: &mut SeededRng) -> Vec<GenCase> {
    let t = rng.range_usize(1, 100);
    (0..t)
        .map(|_| {
            let x = rng.log_uniform(1, MAX_XY - 1);
            let y = rng.log_uniform(x + 1, MAX_XY);
            let n = rng.range_usize(1, 100);
            let piles = (0..n)
                .map(|_| {
                    if rng.chance(1, 4) {
                        near_blocked(rng, x, y)
                    } else {
                        rng.log_uniform(1, MAX_A)
                    }
                })
                .collect();
            (x, y, piles)
        })
        .collect()
}

/// A hard (X, Y): X ≡ 2 (mod 3), the only case with a search, and Y = X + d
/// with Y/X near 1. For d < X the search's slope `Y(X + 1) mod 3X` over X is
/// `(d mod 3) + d/X`, so `d ≡ 1 (mod 3)`, chosen three times in four, puts it
/// in `(1, 2)`: the slowest path, which splits the search by parity.
fn hard_pair(rng: &mut SeededRng) -> (u64, u64) {
    let x = rng.range(MAX_XY / 2, MAX_XY - 1_000) / 3 * 3 + 2;
    let most = if rng.chance(1, 2) {
        1_000
    } else {
        (x / 1_000).min(MAX_XY - x)
    };
    let mut d = rng.range(1, most);
    if rng.chance(3, 4) {
        d = d / 3 * 3 + 1;
        if d > most {
            d -= 3;
        }
    }
    (x, x + d)
}

/// ΣN = 2·10^5 piles near 10^18 with hard (X, Y): one case of all the piles,
/// or 2·10^5 cases of one pile with a different (X, Y) each, or in between.
fn max(rng: &mut SeededRng) -> Vec<GenCase> {
    let t = *rng.pick(&[1, 1_000, MAX_T]);
    let n = MAX_SUM_N / t;
    let mut pair = hard_pair(rng);
    (0..t)
        .map(|_| {
            if t > 1 {
                pair = hard_pair(rng);
            }
            let piles = (0..n)
                .map(|_| rng.range(MAX_A - MAX_A / 10, MAX_A))
                .collect();
            (pair.0, pair.1, piles)
        })
        .collect()
}

fn render(cases: &[GenCase]) -> String {
    let piles: usize = cases.iter().map(|(_, _, p)| p.len()).sum();
    let mut out = String::with_capacity(cases.len() * 32 + piles * 20 + 8);
    push_numbers(&mut out, [cases.len() as u64]);
    for (x, y, piles) in cases {
        push_numbers(&mut out, [piles.len() as u64, *x, *y]);
        push_numbers(&mut out, piles.iter().copied());
    }
    out
}

#[cfg(test)]
mod tests;
