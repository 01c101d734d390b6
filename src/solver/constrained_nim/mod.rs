//! `constrained-nim`: AtCoder ABC255 G "Constrained Nim".
//!
//! N piles; a move removes any positive number of stones from one pile,
//! except that M forbidden moves (X_i, Y_i) say "never remove exactly Y_i
//! stones from a pile of exactly X_i". The player who cannot move loses;
//! Takahashi moves first. This module owns the input format and the parser
//! (every constraint, including distinct pairs and Y_i ≤ X_i). The
//! O((N + M) log M) Grundy computation of the official editorial (seed
//! `000_ed99f58028e64f35.txt`) lives in [`table`], the generators in
//! `generator`, and the brute force it is checked against in the tests,
//! written straight from the rules.
//!
//! # Layout
//! - [`table`]: [`GrundyTable`], g(n) for any size after one pass over the
//!   forbidden moves.
//! - `generator`: the testcase generators.

pub mod table;
mod generator;

pub use table::GrundyTable;

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines,
};

pub const MAX_N: usize = 200_000;
pub const MAX_M: usize = 200_000;
/// The bound on A_i, X_i and Y_i.
pub const MAX_VALUE: u64 = 1_000_000_000_000_000_000;

pub struct ConstrainedNim;

/// A validated input. The forbidden moves are kept sorted by (X, Y) and
/// pairwise distinct: [`GrundyTable::build`] relies on both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstrainedNimInput {
    piles: Vec<u64>,
    forbidden: Vec<(u64, u64)>,
}

impl ConstrainedNimInput {
    /// An input from its parts, or `None` if a forbidden pair breaks
    /// 1 ≤ Y ≤ X or repeats. Pile sizes are taken as given. Tests only:
    /// the parser builds inputs itself, after checking each constraint with
    /// its own message.
    #[cfg(test)]
    pub fn new(piles: Vec<u64>, mut forbidden: Vec<(u64, u64)>) -> Option<Self> {
        forbidden.sort_unstable();
        let well_formed = forbidden.iter().all(|&(x, y)| 1 <= y && y <= x)
            && forbidden.windows(2).all(|w| w[0] != w[1]);
        well_formed.then_some(ConstrainedNimInput { piles, forbidden })
    }

    pub fn piles(&self) -> &[u64] {
        &self.piles
    }

    /// The forbidden moves (X, Y), sorted and distinct.
    pub fn forbidden(&self) -> &[(u64, u64)] {
        &self.forbidden
    }
}

/// The bounds of one case: the base problem's, or an interactive
/// variant's smaller ones.
pub struct CaseLimits {
    pub n: usize,
    pub m: usize,
    /// The bound on A_i, X_i and Y_i.
    pub value: u64,
    /// The smallest pile: 1 in an input, 0 in a position in play.
    pub min_pile: u64,
}

impl CaseLimits {
    pub const BASE: CaseLimits = CaseLimits {
        n: MAX_N,
        m: MAX_M,
        value: MAX_VALUE,
        min_pile: 1,
    };
}

/// Reads one case (`N M`, the piles, the forbidden moves), checking every
/// constraint, distinct pairs included.
pub fn scan_case(s: &mut Scanner<'_>, limits: &CaseLimits) -> Result<ConstrainedNimInput, InputError> {
    let n = s.usize(Field::new("N"), 1, limits.n)?;
    let m = s.usize(Field::new("M"), 1, limits.m)?;
    let mut piles = Vec::with_capacity(n);
    for i in 1..=n {
        piles.push(s.u64(Field::new("A_i").at(i), limits.min_pile, limits.value)?);
    }
    // (X, Y, index) so equal pairs end up adjacent after sorting, and the
    // line of each pair, for the duplicate message.
    let mut pairs: Vec<(u64, u64, u32)> = Vec::with_capacity(m);
    let mut lines: Vec<u32> = Vec::with_capacity(m);
    for i in 1..=m {
        let x = s.u64(Field::new("X_i").at(i), 1, limits.value)?;
        let y = s.u64(Field::new("Y_i").at(i), 1, limits.value)?;
        if y > x {
            return Err(InputError::Invalid {
                line: s.line(),
                message: format!(
                    "Y_{i} = {y} exceeds X_{i} = {x}, violating the constraint Y_i ≤ X_i"
                ),
            });
        }
        pairs.push((x, y, i as u32));
        lines.push(s.line() as u32);
    }
    pairs.sort_unstable();
    // Report the repeat that comes first in the input.
    let repeat = pairs
        .windows(2)
        .filter(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
        .map(|w| (w[0].2, w[1].2))
        .min_by_key(|&(_, later)| later);
    if let Some((first, later)) = repeat {
        let line_of = |i: u32| lines.get(i as usize - 1).copied().unwrap_or(0) as usize;
        let (x, y) = pairs
            .iter()
            .find(|p| p.2 == later)
            .map_or((0, 0), |p| (p.0, p.1));
        return Err(InputError::Invalid {
            line: line_of(later),
            message: format!(
                "(X_{later}, Y_{later}) = ({x}, {y}) repeats (X_{first}, Y_{first}) on line {}; \
                 the pairs (X_i, Y_i) must be pairwise distinct",
                line_of(first)
            ),
        });
    }
    let forbidden = pairs.into_iter().map(|(x, y, _)| (x, y)).collect();
    Ok(ConstrainedNimInput { piles, forbidden })
}

impl Problem for ConstrainedNim {
    const ID: &'static str = "constrained-nim";
    type Input = ConstrainedNimInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<ConstrainedNimInput, InputError> {
        let mut s = Scanner::new(text);
        let input = scan_case(&mut s, &CaseLimits::BASE)?;
        s.finish()?;
        Ok(input)
    }

    fn solve(input: &ConstrainedNimInput) -> Outcome {
        let table = GrundyTable::build(&input.forbidden);
        let xor = input.piles.iter().fold(0, |acc, &a| acc ^ table.value(a));
        Outcome::from_first_wins(xor != 0)
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "Takahashi", "Aoki")
    }
    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        generator::generate(kind, rng)
    }
}

#[cfg(test)]
mod tests;
