//! `playing-with-stones`: UVa 1482 / LA 5059 / BOJ 7824 "Playing With Stones".
//!
//! A move removes between 1 and ⌊a/2⌋ stones from one pile. The Grundy value
//! is a/2 for even a and g(⌊a/2⌋) for odd a (g(1) = 0): strip the trailing
//! one bits, then halve. The first player wins iff the XOR is non-zero.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::InputError,
    outcome_lines,
    pile_cases::{self, PileCasesFormat},
};

pub const MAX_T: usize = 100;
pub const MAX_N: usize = 100;
pub const MAX_A: u64 = 2_000_000_000_000_000_000;

/// The input layout.
const FORMAT: PileCasesFormat = PileCasesFormat {
    max_cases: MAX_T,
    count: "N",
    max_count: MAX_N,
    pile: "a_i",
    min_pile: 1,
    max_pile: MAX_A,
};

pub struct PlayingWithStones;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayingWithStonesInput {
    pub cases: Vec<Vec<u64>>,
}

/// The Grundy value of a pile of `a` stones.
pub fn pile_grundy(a: u64) -> u64 {
    // Shifting out the trailing ones leaves an even number (or 0), then halve.
    (a >> a.trailing_ones()) >> 1
}

impl Problem for PlayingWithStones {
    const ID: &'static str = "playing-with-stones";
    type Input = PlayingWithStonesInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<PlayingWithStonesInput, InputError> {
        Ok(PlayingWithStonesInput {
            cases: FORMAT.parse(text)?,
        })
    }

    fn solve(input: &PlayingWithStonesInput) -> Vec<Outcome> {
        input
            .cases
            .iter()
            .map(|piles| {
                Outcome::from_first_wins(piles.iter().fold(0, |x, &a| x ^ pile_grundy(a)) != 0)
            })
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "YES", "NO")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let cases: Vec<Vec<u64>> = match kind {
            TestKind::Small => (0..rng.range(1, 10))
                .map(|_| (0..rng.range(1, 4)).map(|_| rng.range(1, 12)).collect())
                .collect(),
            TestKind::Edge => vec![
                vec![1],
                vec![MAX_A],
                vec![MAX_A - 1; MAX_N],
                vec![(1 << 60) - 1, 1],
                vec![1; MAX_N],
                vec![2, 3],
            ],
            TestKind::Random => (0..rng.range(1, MAX_T as u64))
                .map(|_| {
                    (0..rng.range(1, MAX_N as u64))
                        .map(|_| rng.log_uniform(1, MAX_A))
                        .collect()
                })
                .collect(),
            TestKind::Max => (0..MAX_T)
                .map(|_| (0..MAX_N).map(|_| rng.range(MAX_A / 2, MAX_A)).collect())
                .collect(),
        };
        pile_cases::render(&cases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{
        WinLoseSearch, agrees_with_search, all_vectors, grundy_table, one_pile_moves,
    };
    use proptest::prelude::*;

    fn moves(a: u64) -> impl Iterator<Item = u64> {
        (1..=a / 2).map(move |t| a - t)
    }

    #[test]
    fn grundy_formula_matches_mex_search_up_to_3000() {
        let table = grundy_table(3000, |a, out| {
            out.extend(moves(a as u64).map(|w| w as usize))
        });
        let checked = agrees_with_search(1..=3000u64, |&a| pile_grundy(a), |&a| table[a as usize]);
        assert_eq!(checked, 3000);
    }

    #[test]
    fn whole_game_matches_search_over_small_positions() {
        let mut search = WinLoseSearch::normal_play(|p: &Vec<u64>| one_pile_moves(p, moves));
        let checked = agrees_with_search(
            (1..=3)
                .flat_map(|len| all_vectors(len, 9))
                .filter(|piles| !piles.contains(&0)),
            |piles| {
                PlayingWithStones::solve(&PlayingWithStonesInput {
                    cases: vec![piles.clone()],
                })
            },
            |piles| vec![Outcome::from_first_wins(search.mover_wins(piles))],
        );
        assert_eq!(checked, 9 + 81 + 729);
    }

    #[test]
    fn values_up_to_two_times_ten_to_the_eighteen_are_exact() {
        assert_eq!(pile_grundy(MAX_A), MAX_A / 2);
        assert_eq!(pile_grundy(MAX_A - 1), pile_grundy((MAX_A - 1) / 2));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random positions of up to four piles of up to 40 stones.
        #[test]
        fn whole_game_matches_search_on_random_positions(piles in prop::collection::vec(1..=40u64, 1..=4)) {
            let mut search = WinLoseSearch::normal_play(|p: &Vec<u64>| one_pile_moves(p, moves));
            agrees_with_search(
                [piles],
                |piles| PlayingWithStones::solve(&PlayingWithStonesInput { cases: vec![piles.clone()] }),
                |piles| {
                    let mut sorted = piles.clone();
                    sorted.sort_unstable();
                    vec![Outcome::from_first_wins(search.mover_wins(&sorted))]
                },
            );
        }
    }
}
