//! `dont-say-n`: yukicoder No.1313 「N言っちゃダメゲーム (4)」.
//!
//! Starting from 0, players alternately add 1..=K to the number; whoever says
//! a number ≥ N or a dangerous number (S_i = `x`) loses. Backward DP: the
//! player to move at v loses iff no safe w in (v, v + K], w ≤ N − 1, is a
//! losing position; a sliding count makes it O(N). The answer lists every
//! winning first number i in 1..=K, ascending, one per line, or `0`.

use super::{
    Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    push_numbers, push_u64,
};

pub const MAX_N: u64 = 200_000;

pub struct DontSayN;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DontSayNInput {
    pub k: usize,
    /// `safe[i]` for 1 ≤ i ≤ N − 1 (index 0 is the start and always safe).
    pub safe: Vec<bool>,
}

impl DontSayNInput {
    pub fn n(&self) -> usize {
        self.safe.len()
    }
}

impl Problem for DontSayN {
    const ID: &'static str = "dont-say-n";
    type Input = DontSayNInput;
    /// The winning first numbers, ascending; empty if the first player loses.
    type Output = Vec<u64>;

    fn parse(text: &str) -> Result<DontSayNInput, InputError> {
        let mut s = Scanner::new(text);
        let input = scan_case(&mut s, MAX_N as usize)?;
        s.finish()?;
        Ok(input)
    }

    fn solve(input: &DontSayNInput) -> Vec<u64> {
        let lose = losing_numbers(input);
        (1..=input.k)
            .filter(|&i| input.safe[i] && lose[i])
            .map(|i| i as u64)
            .collect()
    }

    fn format(output: &Vec<u64>) -> String {
        let mut out = String::with_capacity(output.len().max(1) * 7);
        if output.is_empty() {
            out.push_str("0\n");
        }
        for &i in output {
            push_u64(&mut out, i);
            out.push('\n');
        }
        out
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let (n, k, danger) = match kind {
            TestKind::Small => {
                let n = rng.range(2, 14);
                (n, rng.range(1, n - 1), rng.range(0, 3))
            }
            TestKind::Edge => *rng.pick(&[
                (2, 1, 0),
                (2, 1, 4),
                (MAX_N, 1, 0),
                (MAX_N, MAX_N - 1, 4),
                (MAX_N, 2, 1),
            ]),
            TestKind::Random => {
                let n = rng.log_uniform(2, MAX_N);
                (n, rng.log_uniform(1, n - 1), rng.range(0, 3))
            }
            TestKind::Max => (MAX_N, rng.range(2, 20), 1),
        };
        // `danger` in quarters: the chance that a number is dangerous.
        let s: String = (1..n)
            .map(|_| if rng.chance(danger, 4) { 'x' } else { 'o' })
            .collect();
        let mut out = String::new();
        push_numbers(&mut out, [n, k]);
        out.push_str(&s);
        out.push('\n');
        out
    }
}

/// Reads one case, `N K` then `S`, with `N` at most `max_n`.
pub fn scan_case(s: &mut Scanner<'_>, max_n: usize) -> Result<DontSayNInput, InputError> {
    let n = s.usize(Field::new("N"), 2, max_n)?;
    let k = s.usize(Field::new("K"), 1, max_n - 1)?;
    if k >= n {
        return Err(InputError::Invalid {
            line: s.line(),
            message: format!("K = {k} violates the constraint K < N (N = {n})"),
        });
    }
    let (word, line) = s.word(Field::new("S"))?;
    // The characters first: once each is `o` or `x`, its length in bytes
    // is its length in characters.
    let mut safe = Vec::with_capacity(n);
    safe.push(true);
    for (i, &c) in word.iter().enumerate() {
        match c {
            b'o' => safe.push(true),
            b'x' => safe.push(false),
            _ => {
                return Err(InputError::Invalid {
                    line,
                    message: format!(
                        "character {} of S is `{}`; S may contain only `o` and `x`",
                        i + 1,
                        String::from_utf8_lossy(&word[i..])
                            .chars()
                            .next()
                            .unwrap_or('?')
                    ),
                });
            }
        }
    }
    if word.len() != n - 1 {
        return Err(InputError::Invalid {
            line,
            message: format!(
                "S has {} characters, violating the constraint |S| = N − 1 = {}",
                word.len(),
                n - 1
            ),
        });
    }
    Ok(DontSayNInput { k, safe })
}

/// `lose[v]`: the player to move after the number `v` has been said loses,
/// for every `v < N`. O(N): a sliding count of the safe losing numbers in
/// the window `(v, v + K]`.
pub fn losing_numbers(input: &DontSayNInput) -> Vec<bool> {
    let n = input.n();
    let k = input.k;
    let mut lose = vec![false; n];
    let mut window = 0usize;
    for v in (0..n).rev() {
        lose[v] = window == 0;
        if input.safe[v] && lose[v] {
            window += 1;
        }
        let leaving = v + k;
        if leaving < n && input.safe[leaving] && lose[leaving] {
            window -= 1;
        }
    }
    lose
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search};
    use proptest::prelude::*;

    /// The winning first numbers from the rules, by game search. A position
    /// is the number last said; from v the mover says some w in v+1..=v+K,
    /// and only a safe w < N does not lose on the spot, so those are the
    /// moves, and a player with none loses.
    fn searched_winning_first_numbers(input: &DontSayNInput) -> Vec<u64> {
        let (n, k, safe) = (input.n(), input.k, &input.safe);
        let mut search = WinLoseSearch::normal_play(|&v: &usize| {
            (v + 1..=v + k)
                .filter(|&w| w < n && safe[w])
                .collect::<Vec<_>>()
        });
        (1..=k)
            .filter(|&i| i < n && safe[i] && !search.mover_wins(&i))
            .map(|i| i as u64)
            .collect()
    }

    /// Every N ≤ 12, every K < N and every S.
    fn every_small_input() -> impl Iterator<Item = DontSayNInput> {
        (2..=12usize).flat_map(|n| {
            (1..n).flat_map(move |k| {
                (0u32..(1 << (n - 1))).map(move |mask| {
                    let mut safe = vec![true];
                    safe.extend((0..n - 1).map(|i| mask >> i & 1 == 0));
                    DontSayNInput { k, safe }
                })
            })
        })
    }

    #[test]
    fn dp_matches_game_search_for_every_small_input() {
        let checked = agrees_with_search(
            every_small_input(),
            DontSayN::solve,
            searched_winning_first_numbers,
        );
        let expected: usize = (2..=12).map(|n| (n - 1) << (n - 1)).sum();
        assert_eq!(checked, expected);
    }

    #[test]
    fn answers_print_one_number_per_line_or_zero() {
        // K = 1, N = 3, S = "oo": say 1, opponent says 2, you must say 3 = N.
        let input = DontSayN::parse("3 1\noo\n").unwrap();
        assert_eq!(DontSayN::format(&DontSayN::solve(&input)), "0\n");
        // N = 5, K = 2: saying 1 leaves 2 or 3, and both let you reach 4.
        let input = DontSayN::parse("5 2\noooo\n").unwrap();
        assert_eq!(DontSayN::format(&DontSayN::solve(&input)), "1\n");
    }

    proptest! {
        /// Random inputs beyond the exhaustive range: N up to 300.
        #[test]
        fn dp_matches_game_search_on_random_inputs(
            (n, k, danger) in (2..=300usize).prop_flat_map(|n| (Just(n), 1..n, prop::collection::vec(prop::bool::weighted(0.3), n - 1)))
        ) {
            let mut safe = vec![true];
            safe.extend(danger.iter().map(|&d| !d));
            prop_assert_eq!(safe.len(), n);
            agrees_with_search([DontSayNInput { k, safe }], DontSayN::solve, searched_winning_first_numbers);
        }
    }
}
