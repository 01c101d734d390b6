//! `football-game`: POJ 2315 "Football Game", on the domain where its
//! published answer is the true game value.
//!
//! N balls lie S_i from a goal; each rolls only whole circumferences 2πR, and
//! no kick goes farther than L. A move kicks between 1 and M balls that are
//! not yet in; whoever faces all balls in loses. So ball i is a pile of
//! a_i = ⌈S_i/(2πR)⌉ units and a move lowers 1..=M piles by 1..=k each,
//! k = ⌊L/(2πR)⌋. Alice moves first; test cases run to the end of the input.
//!
//! This module owns the input format and the parser, with the domain rule
//! below. The exact arithmetic with 2πR and the winner formula live in
//! [`closed_form`], the testcase generators in `generator`.
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
//! Floors involving 2πR are never computed in floating point: see
//! [`closed_form`], which also shows that the parser's "cannot decide" error
//! is unreachable on valid input.
//!
//! # Layout
//! - [`closed_form`]: the π bracket, [`whole_turns`] and the winner formula.
//! - `generator`: the testcase generators.

pub mod closed_form;
mod generator;

pub use closed_form::{formula_first_wins, whole_turns};

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines,
};

/// The bound on N (and so on M).
pub const MAX_N: usize = 30;
/// S_i and L are below 10^8.
pub const MAX_DISTANCE: u64 = 99_999_999;
/// R is below 10^4.
pub const MAX_RADIUS: u64 = 9_999;

pub struct FootballGame;

/// One test case reduced to the game: piles a_i, the kick cap k and M.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FootballGameCase {
    /// M: how many balls one move may kick.
    balls_per_move: usize,
    /// k = ⌊L/(2πR)⌋: the most units one kick moves a ball.
    cap: u64,
    /// a_i = ⌈S_i/(2πR)⌉ ≥ 1. Within the domain rule: M = 1 or all a_i ≤ k.
    piles: Vec<u64>,
}

impl FootballGameCase {
    /// A case from its game form, or `None` outside the hosted domain
    /// (M = 0, M > N, a pile of 0, or M ≥ 2 with a pile above the cap).
    /// Tests only: the parser builds cases itself, after checking each
    /// constraint with its own message.
    #[cfg(test)]
    pub fn new(piles: Vec<u64>, balls_per_move: usize, cap: u64) -> Option<Self> {
        let valid = balls_per_move >= 1
            && balls_per_move <= piles.len()
            && piles.iter().all(|&a| a >= 1)
            && (balls_per_move == 1 || piles.iter().all(|&a| a <= cap));
        valid.then_some(FootballGameCase {
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
pub struct FootballGameInput {
    pub cases: Vec<FootballGameCase>,
}

impl Problem for FootballGame {
    const ID: &'static str = "football-game";
    type Input = FootballGameInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<FootballGameInput, InputError> {
        let mut s = Scanner::new(text);
        let mut cases = Vec::new();
        // At least one case: the first N is required even in an empty input.
        loop {
            cases.push(scan_case(&mut s, cases.len() + 1, &CaseLimits::BASE, |_, _, _| {})?);
            if s.at_end() {
                break;
            }
        }
        s.finish()?;
        Ok(FootballGameInput { cases })
    }

    fn solve(input: &FootballGameInput) -> Vec<Outcome> {
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
        generator::generate(kind, rng)
    }
}

/// The bounds of one case: the base problem's, or an interactive
/// variant's smaller ones.
pub struct CaseLimits {
    pub n: usize,
    pub m: usize,
    /// The bound on S_i.
    pub distance: u64,
}

impl CaseLimits {
    pub const BASE: CaseLimits = CaseLimits {
        n: MAX_N,
        m: MAX_N,
        distance: MAX_DISTANCE,
    };
}

/// Reads one case, `N M L R` then the distances, and reduces it to the
/// game, refusing cases outside the hosted domain. `numbers` sees `L`, `R`
/// and each `S_i` as read (the interactive variant sends them on).
pub fn scan_case(
    s: &mut Scanner<'_>,
    case: usize,
    limits: &CaseLimits,
    mut numbers: impl FnMut(u64, u64, u64),
) -> Result<FootballGameCase, InputError> {
    let n = s.usize(Field::new("N").in_case(case), 1, limits.n)?;
    let m = s.usize(Field::new("M").in_case(case), 1, limits.m)?;
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
        let distance = s.u64(Field::new("S_i").at(i).in_case(case), 1, limits.distance)?;
        numbers(limit, radius, distance);
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
    Ok(FootballGameCase {
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

#[cfg(test)]
mod tests;
