//! `nim-k`: Moore's Nim_K, as posed in the NimK article (seed 002).
//!
//! A move takes a positive number of stones from each of between 1 and K
//! non-empty piles. The player to move loses iff, for every bit position,
//! the number of piles with that bit set is a multiple of K + 1 (Moore 1910).

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines, push_numbers,
};

pub const MAX_N: usize = 100_000;
pub const MAX_A: u64 = 1_000_000_000;
pub const MAX_K: u64 = 100_000;

pub struct NimK;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NimKInput {
    pub k: u64,
    pub piles: Vec<u64>,
}

impl Problem for NimK {
    const ID: &'static str = "nim-k";
    type Input = NimKInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<NimKInput, InputError> {
        let mut s = Scanner::new(text);
        let n = s.usize(Field::new("N"), 1, MAX_N)?;
        let k = s.u64(Field::new("K"), 1, MAX_K)?;
        let mut piles = Vec::with_capacity(n);
        for i in 1..=n {
            piles.push(s.u64(Field::new("A_i").at(i), 1, MAX_A)?);
        }
        s.finish()?;
        Ok(NimKInput { k, piles })
    }

    fn solve(input: &NimKInput) -> Outcome {
        Outcome::from_first_wins(moore_first_wins(&input.piles, input.k))
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "Alice", "Bob")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let (k, piles): (u64, Vec<u64>) = match kind {
            TestKind::Small => {
                let n = rng.range_usize(1, 5);
                (rng.range(1, 4), (0..n).map(|_| rng.range(1, 6)).collect())
            }
            TestKind::Edge => match rng.range(0, 3) {
                0 => (1, vec![1]),
                1 => (MAX_K, vec![MAX_A; MAX_N]),
                2 => (MAX_K - 1, vec![MAX_A; MAX_N]),
                _ => (3, vec![MAX_A; 4]),
            },
            TestKind::Random => {
                let n = rng.range_usize(1, 2000);
                let k = rng.log_uniform(1, MAX_K);
                let mut piles: Vec<u64> = (0..n).map(|_| rng.log_uniform(1, MAX_A)).collect();
                if rng.chance(1, 2) {
                    // Repeat a block K+1 times so every bit count is a multiple of K+1.
                    let block = (n / (k as usize + 1)).max(1);
                    piles.truncate(block);
                    let copies = piles.repeat(k as usize + 1);
                    piles = copies.into_iter().take(MAX_N).collect();
                }
                (k, piles)
            }
            TestKind::Max => (
                rng.range(1, 8),
                (0..MAX_N).map(|_| rng.range(MAX_A / 2, MAX_A)).collect(),
            ),
        };
        let mut out = String::new();
        push_numbers(&mut out, [piles.len() as u64, k]);
        push_numbers(&mut out, piles.iter().copied());
        out
    }
}

/// Moore's criterion: the first player wins iff some bit column count is not
/// a multiple of `k + 1`.
pub fn moore_first_wins(piles: &[u64], k: u64) -> bool {
    let mut counts = [0u64; 64];
    for &pile in piles {
        let mut bits = pile;
        while bits != 0 {
            counts[bits.trailing_zeros() as usize] += 1;
            bits &= bits - 1;
        }
    }
    counts.iter().any(|&c| c % (k + 1) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search, all_vectors};
    use proptest::prelude::*;

    /// Every way to take a positive amount from each of 1..=k non-empty piles.
    fn moves(piles: &[u64], k: usize) -> Vec<Vec<u64>> {
        let mut next = Vec::new();
        let n = piles.len();
        for mask in 1u32..(1 << n) {
            let chosen: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
            if chosen.len() > k || chosen.iter().any(|&i| piles[i] == 0) {
                continue;
            }
            // Enumerate every vector of removal amounts over the chosen piles.
            let mut amounts = vec![1u64; chosen.len()];
            loop {
                let mut p = piles.to_vec();
                for (j, &i) in chosen.iter().enumerate() {
                    p[i] -= amounts[j];
                }
                p.sort_unstable();
                next.push(p);
                let mut j = 0;
                while j < chosen.len() && amounts[j] == piles[chosen[j]] {
                    amounts[j] = 1;
                    j += 1;
                }
                if j == chosen.len() {
                    break;
                }
                amounts[j] += 1;
            }
        }
        next
    }

    #[test]
    fn moore_rule_matches_game_search_on_all_small_positions() {
        let mut checked = 0;
        for k in 1..=3usize {
            let mut search = WinLoseSearch::normal_play(|p: &Vec<u64>| moves(p, k));
            checked += agrees_with_search(
                [(1, 6), (2, 5), (3, 4), (4, 3)]
                    .into_iter()
                    .flat_map(|(len, max)| all_vectors(len, max))
                    .map(|piles| (k, piles)),
                |(k, piles)| moore_first_wins(piles, *k as u64),
                |(_, piles)| {
                    let mut sorted = piles.clone();
                    sorted.sort_unstable();
                    search.mover_wins(&sorted)
                },
            );
        }
        assert_eq!(checked, 3 * (7 + 36 + 125 + 256));
    }

    #[test]
    fn blog_example_is_a_first_player_win() {
        // The worked example of the NimK posts: N=5, K=3, piles 22 11 42 23 19.
        let input = NimK::parse("5 3\n22 11 42 23 19\n").unwrap();
        assert_eq!(NimK::format(&NimK::solve(&input)), "Alice\n");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random K and positions beyond the exhaustive range.
        #[test]
        fn moore_rule_matches_game_search_on_random_positions(
            k in 1..=5usize,
            piles in prop::collection::vec(1..=5u64, 1..=4),
        ) {
            let mut search = WinLoseSearch::normal_play(|p: &Vec<u64>| moves(p, k));
            agrees_with_search(
                [piles],
                |piles| moore_first_wins(piles, k as u64),
                |piles| {
                    let mut sorted = piles.clone();
                    sorted.sort_unstable();
                    search.mover_wins(&sorted)
                },
            );
        }
    }
}
