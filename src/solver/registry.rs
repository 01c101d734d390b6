//! The table of hosted problems, by id.
//!
//! [`Solver`] is the type-erased face of a [`Problem`]: text in, text out.
//! Everything outside the solver core (CLI, daemon, tests) goes through it.

use std::marker::PhantomData;

use super::{
    InputError, Problem, SeededRng, TestKind, coin_game::CoinGame, constrained_nim::ConstrainedNim,
    dont_say_n::DontSayN, football_game::FootballGame, habanero_tofu::HabaneroTofu,
    misere_nim::MisereNim, nim::Nim, nim_k::NimK, playing_with_stones::PlayingWithStones,
    prime_factor_game::PrimeFactorGame, prime_factor_game_returns::PrimeFactorGameReturns,
    xy_game::XyGame,
};

/// A problem seen through text only.
pub trait Solver: Sync {
    /// The problem id.
    fn id(&self) -> &'static str;
    /// Checks an input against every constraint, without solving it.
    fn validate(&self, input: &str) -> Result<(), InputError>;
    /// Validates and solves an input, returning the exact expected output.
    fn solve(&self, input: &str) -> Result<String, InputError>;
    /// A valid input of the given kind; the same seed gives the same text.
    fn generate(&self, kind: TestKind, seed: u64) -> String;
}

struct Erased<P>(PhantomData<fn() -> P>);

impl<P: Problem> Solver for Erased<P> {
    fn id(&self) -> &'static str {
        P::ID
    }

    fn validate(&self, input: &str) -> Result<(), InputError> {
        P::parse(input).map(drop)
    }

    fn solve(&self, input: &str) -> Result<String, InputError> {
        let parsed = P::parse(input)?;
        Ok(P::format(&P::solve(&parsed)))
    }

    fn generate(&self, kind: TestKind, seed: u64) -> String {
        // Mix the kind into the seed so `small 1` and `max 1` are unrelated.
        let salt = kind as u64 + 1;
        P::generate(
            kind,
            &mut SeededRng::new(seed ^ salt.wrapping_mul(0xA24B_AED4_963E_E407)),
        )
    }
}

const fn erased<P: Problem>() -> Erased<P> {
    Erased(PhantomData)
}

static SOLVERS: [&dyn Solver; 12] = [
    &erased::<Nim>(),
    &erased::<MisereNim>(),
    &erased::<NimK>(),
    &erased::<FootballGame>(),
    &erased::<ConstrainedNim>(),
    &erased::<XyGame>(),
    &erased::<DontSayN>(),
    &erased::<PrimeFactorGame>(),
    &erased::<PrimeFactorGameReturns>(),
    &erased::<CoinGame>(),
    &erased::<HabaneroTofu>(),
    &erased::<PlayingWithStones>(),
];

/// Every hosted problem, in catalogue order.
pub fn solvers() -> &'static [&'static dyn Solver] {
    &SOLVERS
}

/// The solver for a problem id, if nimjudge hosts it.
pub fn find(id: &str) -> Option<&'static dyn Solver> {
    SOLVERS.iter().copied().find(|solver| solver.id() == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_is_registered_once() {
        let mut ids: Vec<_> = solvers().iter().map(|s| s.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 12);
        for id in ids {
            assert_eq!(find(id).map(|s| s.id()), Some(id));
        }
        assert!(find("no-such-problem").is_none());
    }
}
