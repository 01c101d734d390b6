//! `coin-game`: yukicoder No.524 「コインゲーム」.
//!
//! Plate i holds i coins (1 ≤ i ≤ N); a move takes coins from one plate. This
//! is Nim on piles 1..N, and 1 ^ 2 ^ … ^ N is N, 1, N + 1, 0 for N mod 4 =
//! 0, 1, 2, 3, so the first player loses exactly when N ≡ 3 (mod 4).

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines, push_numbers,
};

pub const MAX_N: u64 = 1_000_000_000_000_000_000;

pub struct CoinGame;

/// The Grundy value of the whole position with `n` plates, `1 ^ 2 ^ … ^ n`,
/// in O(1) by `n mod 4`.
pub fn plates_grundy(n: u64) -> u64 {
    match n % 4 {
        0 => n,
        1 => 1,
        2 => n + 1,
        _ => 0,
    }
}

/// A validated input: the number of plates, `1 ≤ N ≤ 10^18`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoinGameInput {
    pub n: u64,
}

impl Problem for CoinGame {
    const ID: &'static str = "coin-game";
    type Input = CoinGameInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<CoinGameInput, InputError> {
        let mut s = Scanner::new(text);
        let n = s.u64(Field::new("N"), 1, MAX_N)?;
        s.finish()?;
        Ok(CoinGameInput { n })
    }

    fn solve(input: &CoinGameInput) -> Outcome {
        Outcome::from_first_wins(plates_grundy(input.n) != 0)
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "O", "X")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let n = match kind {
            TestKind::Small => rng.range(1, 20),
            TestKind::Edge => *rng.pick(&[1, 3, MAX_N, MAX_N - 1, MAX_N - 2, MAX_N - 3]),
            TestKind::Random => rng.log_uniform(1, MAX_N),
            TestKind::Max => rng.range(MAX_N - 1000, MAX_N),
        };
        let mut out = String::new();
        push_numbers(&mut out, [n]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search, one_pile_moves};
    use proptest::prelude::*;

    /// The plates as a game from the rules, searched exhaustively.
    #[test]
    fn rule_matches_game_search_for_small_n() {
        let mut search = WinLoseSearch::normal_play(|p: &Vec<u64>| one_pile_moves(p, |a| 0..a));
        let checked = agrees_with_search(
            (1..=6u64).map(|n| CoinGameInput { n }),
            CoinGame::solve,
            |input| {
                let plates: Vec<u64> = (1..=input.n).collect();
                Outcome::from_first_wins(search.mover_wins(&plates))
            },
        );
        assert_eq!(checked, 6);
    }

    /// By Sprague-Grundy the position is Nim: the XOR of all the plates.
    #[test]
    fn rule_matches_the_xor_of_all_plates() {
        let checked = agrees_with_search(
            (1..5000u64).map(|n| CoinGameInput { n }),
            CoinGame::solve,
            |input| Outcome::from_first_wins((1..=input.n).fold(0, |x, plate| x ^ plate) != 0),
        );
        assert_eq!(checked, 4999);
    }

    /// The position's Grundy value, not only its sign, is the XOR.
    #[test]
    fn plates_grundy_is_the_xor_of_all_plates() {
        let checked = agrees_with_search(
            1..5000u64,
            |&n| plates_grundy(n),
            |&n| (1..=n).fold(0, |x, plate| x ^ plate),
        );
        assert_eq!(checked, 4999);
    }

    #[test]
    fn answers_with_o_and_x() {
        assert_eq!(CoinGame::format(&CoinGame::solve(&CoinGameInput { n: 3 })), "X\n");
        assert_eq!(CoinGame::format(&CoinGame::solve(&CoinGameInput { n: MAX_N })), "O\n");
    }

    /// Bit b of 1 ^ 2 ^ … ^ N is the parity of how many of 1..=N have bit b
    /// set, counted by whole blocks of 2^(b+1): a derivation that does not
    /// use the N mod 4 rule.
    fn xor_one_to_n_by_bit_counts(n: u64) -> u64 {
        let mut xor = 0;
        for b in 0..64 {
            let block = 1u128 << (b + 1);
            let m = n as u128 + 1; // numbers 0..=n
            let ones = m / block * (block / 2) + (m % block).saturating_sub(block / 2);
            xor |= ((ones & 1) as u64) << b;
        }
        xor
    }

    proptest! {
        #[test]
        fn rule_matches_bit_counting_for_any_n(n in 1..=MAX_N) {
            agrees_with_search(
                [CoinGameInput { n }],
                CoinGame::solve,
                |input| Outcome::from_first_wins(xor_one_to_n_by_bit_counts(input.n) != 0),
            );
        }

        #[test]
        fn plates_grundy_matches_bit_counting_for_any_n(n in 1..=MAX_N) {
            prop_assert_eq!(plates_grundy(n), xor_one_to_n_by_bit_counts(n));
        }
    }
}
