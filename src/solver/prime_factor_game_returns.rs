//! `prime-factor-game-returns`: yukicoder No.103 「素因数ゲーム リターンズ」.
//!
//! A move divides one number by p or by p² (p prime, dividing it). Each
//! prime power p^e is a pile where a move removes 1 or 2, with Grundy value
//! e mod 3; Alice wins iff the XOR over all numbers and primes is non-zero.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines,
    prime_factor_game::prime_exponents,
    push_numbers,
};

pub const MAX_N: usize = 100;
pub const MAX_M: u64 = 10_000;

pub struct PrimeFactorGameReturns;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrimeFactorGameReturnsInput {
    pub numbers: Vec<u64>,
}

/// The Grundy value of one number: XOR of its exponents mod 3.
pub fn number_grundy(m: u64) -> u64 {
    prime_exponents(m).fold(0, |x, (_, e)| x ^ (e % 3))
}

impl Problem for PrimeFactorGameReturns {
    const ID: &'static str = "prime-factor-game-returns";
    type Input = PrimeFactorGameReturnsInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<PrimeFactorGameReturnsInput, InputError> {
        let mut s = Scanner::new(text);
        let n = s.usize(Field::new("N"), 1, MAX_N)?;
        let mut numbers = Vec::with_capacity(n);
        for i in 1..=n {
            numbers.push(s.u64(Field::new("M_i").at(i), 1, MAX_M)?);
        }
        s.finish()?;
        Ok(PrimeFactorGameReturnsInput { numbers })
    }

    fn solve(input: &PrimeFactorGameReturnsInput) -> Outcome {
        let xor = input.numbers.iter().fold(0, |x, &m| x ^ number_grundy(m));
        Outcome::from_first_wins(xor != 0)
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "Alice", "Bob")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let numbers: Vec<u64> = match kind {
            TestKind::Small => (0..rng.range(1, 4)).map(|_| rng.range(1, 60)).collect(),
            TestKind::Edge => match rng.range(0, 2) {
                0 => vec![1],
                1 => vec![MAX_M; MAX_N],
                _ => vec![8192, 6561, 9973, 1, 4096],
            },
            TestKind::Random => (0..rng.range(1, MAX_N as u64))
                .map(|_| rng.log_uniform(1, MAX_M))
                .collect(),
            TestKind::Max => (0..MAX_N).map(|_| rng.range(MAX_M - 100, MAX_M)).collect(),
        };
        let mut out = String::new();
        push_numbers(&mut out, [numbers.len() as u64]);
        push_numbers(&mut out, numbers.iter().copied());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search, grundy_table, one_pile_moves};
    use proptest::prelude::*;

    fn is_prime(p: u64) -> bool {
        p >= 2
            && (2..p)
                .take_while(|q| q * q <= p)
                .all(|q| !p.is_multiple_of(q))
    }

    /// The numbers reachable from `m` in one move, from the rules.
    fn moves(m: u64) -> Vec<u64> {
        let mut next = Vec::new();
        for p in (2..=m).filter(|&p| m.is_multiple_of(p) && is_prime(p)) {
            next.push(m / p);
            if m.is_multiple_of(p * p) {
                next.push(m / (p * p));
            }
        }
        next
    }

    #[test]
    fn single_number_grundy_matches_mex_search_up_to_the_bound() {
        let table = grundy_table(MAX_M as usize, |m, out| {
            out.extend(moves(m as u64).into_iter().map(|w| w as usize))
        });
        let checked = agrees_with_search(1..=MAX_M, |&m| number_grundy(m), |&m| table[m as usize]);
        assert_eq!(checked, MAX_M as usize);
    }

    #[test]
    fn whole_game_matches_search_over_small_multisets() {
        let mut search = WinLoseSearch::normal_play(|ms: &Vec<u64>| one_pile_moves(ms, moves));
        let triples = (1..=40u64).flat_map(|a| {
            (a..=40).flat_map(move |b| [1, 2, 4, 12, 36].map(|c| vec![a, b, c]))
        });
        let checked = agrees_with_search(
            triples,
            |numbers| {
                PrimeFactorGameReturns::solve(&PrimeFactorGameReturnsInput {
                    numbers: numbers.clone(),
                })
            },
            |numbers| {
                let mut sorted = numbers.clone();
                sorted.sort_unstable();
                Outcome::from_first_wins(search.mover_wins(&sorted))
            },
        );
        assert_eq!(checked, 40 * 41 / 2 * 5);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Two random numbers up to the bound, searched over pairs of divisors.
        #[test]
        fn whole_game_matches_search_for_random_pairs(a in 1..=MAX_M, b in 1..=MAX_M) {
            let mut search = WinLoseSearch::normal_play(|ms: &Vec<u64>| one_pile_moves(ms, moves));
            agrees_with_search(
                [vec![a, b]],
                |numbers| PrimeFactorGameReturns::solve(&PrimeFactorGameReturnsInput { numbers: numbers.clone() }),
                |numbers| {
                    let mut sorted = numbers.clone();
                    sorted.sort_unstable();
                    Outcome::from_first_wins(search.mover_wins(&sorted))
                },
            );
        }
    }
}
