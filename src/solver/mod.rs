//! The solver core: one exact reference solver per hosted problem.
//!
//! Each problem is a type implementing [`Problem`]: `parse` turns the input
//! text into a typed input (strictly, with errors naming line, token and
//! constraint), `solve` computes the typed answer, `format` renders the exact
//! text the original judge expects, and `generate` makes valid inputs for
//! testcases. The [`registry`] maps problem ids to type-erased [`Solver`]s.
//!
//! **Invariant:** this module is pure and synchronous. No async, no database,
//! no file or network I/O, no global state. Bad input is an [`InputError`],
//! never a panic.
//!
//! # Layout
//! - [`input`]: the byte scanner and [`InputError`].
//! - `grundy` (tests only): mex, Grundy tables, win/lose search and the
//!   `agrees_with_search` harness every brute-force cross-check goes through.
//! - [`grundy_plot`]: the Grundy sequence of one pile, per problem that has
//!   one, for the web UI's plots.
//! - [`seeded`]: the deterministic random source behind the generators.
//! - [`interactive`]: the protocol of the interactive problems, whose
//!   programs play against the solver core, and its referee.
//! - [`pile_cases`]: the `T` cases of `n` piles layout two problems share.
//! - [`registry`]: the id → solver table and the [`ProblemVisitor`].
//! - one module per problem, each declared once, in the `hosted_problems!`
//!   list below.

#[cfg(test)]
pub mod grundy;
pub mod grundy_plot;
pub mod input;
pub mod interactive;
pub mod pile_cases;
pub mod registry;
pub mod seeded;

/// Declares the hosted problems from one list of `module::Type` pairs, in
/// catalogue order: the problem modules, the registry's table of erased
/// solvers and [`for_each_problem`]. Adding a problem is its own files plus
/// one line in the invocation below; everything that lists problems (the
/// registry, the data tests, the benchmark) reads this list.
macro_rules! hosted_problems {
    ($($module:ident :: $problem:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// Every hosted problem behind its text-only face, in catalogue order.
        static HOSTED: &[&dyn Solver] = &[$(&registry::erased::<$module::$problem>()),+];

        /// Calls `visitor` once per hosted problem, with its [`Problem`] type,
        /// in catalogue order: the typed counterpart of [`solvers`].
        pub fn for_each_problem(visitor: &mut impl ProblemVisitor) {
            $(visitor.visit::<$module::$problem>();)+
        }
    };
}

hosted_problems! {
    nim::Nim,
    misere_nim::MisereNim,
    nim_k::NimK,
    football_game::FootballGame,
    constrained_nim::ConstrainedNim,
    xy_game::XyGame,
    dont_say_n::DontSayN,
    prime_factor_game::PrimeFactorGame,
    prime_factor_game_returns::PrimeFactorGameReturns,
    coin_game::CoinGame,
    habanero_tofu::HabaneroTofu,
    playing_with_stones::PlayingWithStones,
    nim_play::NimPlay,
    misere_nim_play::MisereNimPlay,
    prime_factor_game_returns_play::PrimeFactorGameReturnsPlay,
    playing_with_stones_play::PlayingWithStonesPlay,
    nim_k_play::NimKPlay,
    prime_factor_game_play::PrimeFactorGamePlay,
    coin_game_play::CoinGamePlay,
    dont_say_n_play::DontSayNPlay,
    constrained_nim_play::ConstrainedNimPlay,
    habanero_tofu_play::HabaneroTofuPlay,
    xy_game_play::XyGamePlay,
    football_game_play::FootballGamePlay,
}

pub use input::InputError;
pub use registry::{ProblemVisitor, Solver, find, solvers};
pub use seeded::SeededRng;

use std::{fmt, str::FromStr};

/// The shape of a generated testcase.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TestKind {
    /// Small values, in the range a brute force can check.
    Small,
    /// Boundary values: minimum and maximum sizes and values.
    Edge,
    /// Random values across the whole allowed range, moderate sizes.
    Random,
    /// The largest input the constraints allow.
    Max,
}

impl TestKind {
    pub const ALL: [TestKind; 4] = [
        TestKind::Small,
        TestKind::Edge,
        TestKind::Random,
        TestKind::Max,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TestKind::Small => "small",
            TestKind::Edge => "edge",
            TestKind::Random => "random",
            TestKind::Max => "max",
        }
    }
}

impl fmt::Display for TestKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TestKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TestKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == s)
            .ok_or_else(|| {
                format!("unknown testcase kind `{s}` (expected small, edge, random or max)")
            })
    }
}

/// Who wins a game with perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    FirstPlayerWins,
    SecondPlayerWins,
}

impl Outcome {
    pub fn from_first_wins(first_wins: bool) -> Self {
        if first_wins {
            Outcome::FirstPlayerWins
        } else {
            Outcome::SecondPlayerWins
        }
    }

    /// The token the problem prints for this outcome.
    pub fn token(self, first: &'static str, second: &'static str) -> &'static str {
        match self {
            Outcome::FirstPlayerWins => first,
            Outcome::SecondPlayerWins => second,
        }
    }
}

/// One hosted problem: parse, solve, format, generate.
pub trait Problem {
    /// The id used everywhere: `problems/<id>/`, the API, the CLI.
    const ID: &'static str;
    /// The parsed, validated input, named `<Problem>Input`.
    type Input;
    /// The answer, before formatting.
    type Output;

    /// Parses and validates an input text against every constraint.
    fn parse(text: &str) -> Result<Self::Input, InputError>;
    /// Computes the exact answer. Total on every input `parse` accepts.
    fn solve(input: &Self::Input) -> Self::Output;
    /// The answer straight from the text: `solve(parse(text))`, which a
    /// problem whose answer folds over its input as it is read may replace
    /// by a pass that keeps nothing of the input (the same scan, so the same
    /// errors; its tests compare the two).
    fn answer(text: &str) -> Result<Self::Output, InputError> {
        Ok(Self::solve(&Self::parse(text)?))
    }
    /// Renders the answer exactly as the original judge expects it.
    fn format(output: &Self::Output) -> String;
    /// Makes a valid input of the given kind, deterministic in `rng`'s seed.
    fn generate(kind: TestKind, rng: &mut SeededRng) -> String;

    /// Whether a program plays the game against the judge (see
    /// [`interactive`]) instead of printing an output.
    const INTERACTIVE: bool = false;

    /// The judge of one testcase of an interactive problem, its losing-side
    /// replies drawn from `seed`; `None` for a batch problem.
    fn referee(_input: &Self::Input, _seed: u64) -> Option<Box<dyn interactive::Referee>> {
        None
    }

    /// The game for a person to practise on, move by move, for an
    /// interactive problem; `None` for a batch problem.
    fn practice() -> Option<&'static dyn interactive::Practice> {
        None
    }
}

/// The answer text for outcomes: one line each, `first` if the first player
/// wins, else `second`.
pub fn outcome_lines<'a>(
    outcomes: impl IntoIterator<Item = &'a Outcome>,
    first: &'static str,
    second: &'static str,
) -> String {
    let outcomes = outcomes.into_iter();
    let longest = first.len().max(second.len()) + 1;
    let mut out = String::with_capacity(outcomes.size_hint().0 * longest);
    for outcome in outcomes {
        out.push_str(outcome.token(first, second));
        out.push('\n');
    }
    out
}

/// Appends space-separated integers and a newline to `out`.
pub fn push_numbers<I: IntoIterator<Item = u64>>(out: &mut String, numbers: I) {
    let mut first = true;
    for n in numbers {
        if !first {
            out.push(' ');
        }
        first = false;
        push_u64(out, n);
    }
    out.push('\n');
}

/// Appends the decimal digits of `n` without allocating.
pub fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // The buffer holds only ASCII digits.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}
