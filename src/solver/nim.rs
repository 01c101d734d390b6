//! `nim`: plain Nim in nimjudge's own format.
//!
//! N piles; a move removes any positive number of stones from one pile; the
//! player who cannot move loses. The first player (Alice) wins iff the XOR of
//! the pile sizes is non-zero (Bouton 1901).

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines, push_numbers,
};

pub const MAX_N: usize = 200_000;
pub const MAX_A: u64 = 1_000_000_000_000_000_000;

pub struct Nim;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NimInput {
    pub piles: Vec<u64>,
}

impl Problem for Nim {
    const ID: &'static str = "nim";
    type Input = NimInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<NimInput, InputError> {
        let piles = fold_piles(text, Vec::with_capacity, |mut piles, a| {
            piles.push(a);
            piles
        })?;
        Ok(NimInput { piles })
    }

    fn solve(input: &NimInput) -> Outcome {
        Outcome::from_first_wins(input.piles.iter().fold(0, |x, &a| x ^ a) != 0)
    }

    /// The XOR taken as the piles are read: a largest input's 200,000 piles
    /// are never kept (1.6 MB, about 390 page faults of a 4 ms solve).
    fn answer(text: &str) -> Result<Outcome, InputError> {
        let xor = fold_piles(text, |_| 0, |x, a| x ^ a)?;
        Ok(Outcome::from_first_wins(xor != 0))
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "Alice", "Bob")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let piles: Vec<u64> = match kind {
            TestKind::Small => {
                let n = rng.range_usize(1, 5);
                (0..n).map(|_| rng.range(0, 7)).collect()
            }
            TestKind::Edge => match rng.range(0, 3) {
                0 => vec![0],
                1 => vec![MAX_A],
                2 => vec![MAX_A, MAX_A],
                _ => vec![0; MAX_N],
            },
            TestKind::Random => {
                let n = rng.range_usize(1, 1000);
                let mut piles: Vec<u64> = (0..n).map(|_| rng.log_uniform(0, MAX_A)).collect();
                // Half the time, force a losing position for the first player
                // (when the XOR of the other piles is itself a legal pile).
                let rest = piles[1..].iter().fold(0, |x, &a| x ^ a);
                if rng.chance(1, 2) && rest <= MAX_A {
                    piles[0] = rest;
                }
                piles
            }
            TestKind::Max => (0..MAX_N).map(|_| rng.range(MAX_A / 2, MAX_A)).collect(),
        };
        render(&piles)
    }
}

/// Reads an input, checking every constraint, and folds its piles in order
/// into the value `start` makes from their count: the one scan behind both
/// `parse` and `answer`.
fn fold_piles<T>(
    text: &str,
    start: impl FnOnce(usize) -> T,
    mut step: impl FnMut(T, u64) -> T,
) -> Result<T, InputError> {
    let mut s = Scanner::new(text);
    let n = s.usize(Field::new("N"), 1, MAX_N)?;
    let mut acc = start(n);
    for i in 1..=n {
        acc = step(acc, s.u64(Field::new("A_i").at(i), 0, MAX_A)?);
    }
    s.finish()?;
    Ok(acc)
}

fn render(piles: &[u64]) -> String {
    let mut out = String::with_capacity(piles.len() * 20 + 8);
    push_numbers(&mut out, [piles.len() as u64]);
    push_numbers(&mut out, piles.iter().copied());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search, all_vectors, one_pile_moves};
    use proptest::prelude::*;

    fn winner(text: &str) -> String {
        Nim::format(&Nim::solve(&Nim::parse(text).unwrap()))
    }

    /// Every position of up to three piles of up to 5 stones, searched from
    /// the rules: take any positive number from one pile.
    #[test]
    fn xor_rule_matches_game_search_on_all_small_positions() {
        let mut search = WinLoseSearch::normal_play(|p: &Vec<u64>| one_pile_moves(p, |a| 0..a));
        let checked = agrees_with_search(
            (1..=3).flat_map(|len| all_vectors(len, 5)),
            |piles| Nim::solve(&NimInput { piles: piles.clone() }),
            |piles| Outcome::from_first_wins(search.mover_wins(piles)),
        );
        assert_eq!(checked, 6 + 36 + 216);
    }

    #[test]
    fn answers_in_the_original_format() {
        assert_eq!(winner("2\n3 3\n"), "Bob\n");
        assert_eq!(winner("3\n1 2 4\n"), "Alice\n");
        assert_eq!(winner("1\n0\n"), "Bob\n");
    }

    proptest! {
        #[test]
        fn swapping_piles_never_changes_the_winner(mut piles in prop::collection::vec(0..=MAX_A, 1..20)) {
            let before = Nim::solve(&NimInput { piles: piles.clone() });
            piles.reverse();
            prop_assert_eq!(before, Nim::solve(&NimInput { piles }));
        }

        #[test]
        fn adding_the_xor_as_a_pile_makes_the_first_player_lose(piles in prop::collection::vec(0..=MAX_A, 1..20)) {
            let x = piles.iter().fold(0, |x, &a| x ^ a);
            let mut with_xor = piles.clone();
            with_xor.push(x);
            prop_assert_eq!(Nim::solve(&NimInput { piles: with_xor }), Outcome::SecondPlayerWins);
        }
    }
}
