//! `misere-nim`: HackerRank "Misère Nim".
//!
//! Nim where the player who removes the last stone loses. If every pile has
//! one stone, the first player wins iff the number of piles is even;
//! otherwise the first player wins iff the XOR of the piles is non-zero
//! (Bouton 1901, the misère correction).

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::InputError,
    outcome_lines,
    pile_cases::{self, PileCasesFormat},
};

pub const MAX_T: usize = 100;
pub const MAX_N: usize = 100;
pub const MAX_S: u64 = 1_000_000_000;

/// The input layout.
const FORMAT: PileCasesFormat = PileCasesFormat {
    max_cases: MAX_T,
    count: "n",
    max_count: MAX_N,
    pile: "s_i",
    min_pile: 1,
    max_pile: MAX_S,
};

pub struct MisereNim;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisereNimInput {
    /// One pile list per test case.
    pub cases: Vec<Vec<u64>>,
}

impl Problem for MisereNim {
    const ID: &'static str = "misere-nim";
    type Input = MisereNimInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<MisereNimInput, InputError> {
        Ok(MisereNimInput {
            cases: FORMAT.parse(text)?,
        })
    }

    fn solve(input: &MisereNimInput) -> Vec<Outcome> {
        input
            .cases
            .iter()
            .map(|piles| misere_outcome(piles))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let cases: Vec<Vec<u64>> = match kind {
            TestKind::Small => (0..rng.range(1, 10))
                .map(|_| (0..rng.range(1, 4)).map(|_| rng.range(1, 4)).collect())
                .collect(),
            TestKind::Edge => vec![
                vec![1],
                vec![1, 1],
                vec![1; MAX_N],
                vec![1; MAX_N - 1],
                vec![MAX_S; MAX_N],
                vec![2],
                vec![1, 1, 2],
                vec![MAX_S],
            ],
            TestKind::Random => (0..rng.range(1, MAX_T as u64))
                .map(|_| {
                    let n = rng.range(1, MAX_N as u64);
                    let all_ones = rng.chance(1, 5);
                    (0..n)
                        .map(|_| {
                            if all_ones {
                                1
                            } else {
                                rng.log_uniform(1, MAX_S)
                            }
                        })
                        .collect()
                })
                .collect(),
            TestKind::Max => (0..MAX_T)
                .map(|_| (0..MAX_N).map(|_| rng.range(MAX_S / 2, MAX_S)).collect())
                .collect(),
        };
        pile_cases::render(&cases)
    }
}

/// The outcome of one misère Nim position.
fn misere_outcome(piles: &[u64]) -> Outcome {
    let first_wins = if piles.iter().all(|&p| p <= 1) {
        piles.iter().filter(|&&p| p == 1).count() % 2 == 0
    } else {
        piles.iter().fold(0, |x, &p| x ^ p) != 0
    };
    Outcome::from_first_wins(first_wins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search, all_vectors, one_pile_moves};
    use proptest::prelude::*;

    /// Misère play from the rules: a move takes stones from one pile; the
    /// player facing no stones wins, because the opponent took the last one.
    #[test]
    fn rule_matches_game_search_on_all_small_positions() {
        let mut search =
            WinLoseSearch::stuck_player_wins(|p: &Vec<u64>| one_pile_moves(p, |a| 0..a));
        let checked = agrees_with_search(
            (1..=4).flat_map(|len| all_vectors(len, 4)),
            |piles| misere_outcome(piles),
            |piles| Outcome::from_first_wins(search.mover_wins(piles)),
        );
        assert_eq!(checked, 5 + 25 + 125 + 625);
    }

    #[test]
    fn official_sample() {
        let input = MisereNim::parse("2\n2\n1 1\n3\n2 1 3\n").unwrap();
        assert_eq!(
            MisereNim::format(&MisereNim::solve(&input)),
            "First\nSecond\n"
        );
    }

    proptest! {
        /// Positions beyond the exhaustive range: up to six piles of up to 6.
        #[test]
        fn rule_matches_game_search_on_random_positions(piles in prop::collection::vec(1..=6u64, 1..=6)) {
            let mut search = WinLoseSearch::stuck_player_wins(|p: &Vec<u64>| one_pile_moves(p, |a| 0..a));
            agrees_with_search(
                [piles],
                |piles| misere_outcome(piles),
                |piles| {
                    let mut sorted = piles.clone();
                    sorted.sort_unstable();
                    Outcome::from_first_wins(search.mover_wins(&sorted))
                },
            );
        }
    }
}
