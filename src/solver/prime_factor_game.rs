//! `prime-factor-game`: yukicoder No.2 「素因数ゲーム」.
//!
//! A move divides the current number by p^j for a prime p and j ≥ 1 with
//! p^j dividing it; whoever reaches 1 wins. Each prime's exponent is a Nim
//! pile, so Alice wins iff the XOR of the exponents of N is non-zero.
//! Trial division up to √N ≤ 10^4.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines, push_numbers,
};

pub const MIN_N: u64 = 2;
pub const MAX_N: u64 = 100_000_000;

pub struct PrimeFactorGame;

/// A validated input: the starting number, `2 ≤ N ≤ 10^8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrimeFactorGameInput {
    pub n: u64,
}

impl Problem for PrimeFactorGame {
    const ID: &'static str = "prime-factor-game";
    type Input = PrimeFactorGameInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<PrimeFactorGameInput, InputError> {
        let mut s = Scanner::new(text);
        let n = s.u64(Field::new("N"), MIN_N, MAX_N)?;
        s.finish()?;
        Ok(PrimeFactorGameInput { n })
    }

    fn solve(input: &PrimeFactorGameInput) -> Outcome {
        let xor = prime_exponents(input.n).fold(0, |x, (_, e)| x ^ e);
        Outcome::from_first_wins(xor != 0)
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "Alice", "Bob")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let n = match kind {
            TestKind::Small => rng.range(MIN_N, 3000),
            // 99999989 is the largest prime below 10^8; 2^26 and 3^16 are
            // single-prime powers; 10^8 = 2^8 5^8 is a loss.
            TestKind::Edge => *rng.pick(&[2, 4, 99_999_989, 67_108_864, 43_046_721, MAX_N]),
            TestKind::Random => rng.log_uniform(MIN_N, MAX_N),
            TestKind::Max => *rng.pick(&[99_999_989, 99_999_971, 99_999_959]),
        };
        let mut out = String::new();
        push_numbers(&mut out, [n]);
        out
    }
}

/// The prime factorisation of `n` as (prime, exponent) pairs, ascending.
pub fn prime_exponents(mut n: u64) -> impl Iterator<Item = (u64, u64)> {
    let mut p = 2;
    std::iter::from_fn(move || {
        while p * p <= n {
            let prime = p;
            p += if p == 2 { 1 } else { 2 };
            let mut e = 0;
            while n.is_multiple_of(prime) {
                n /= prime;
                e += 1;
            }
            if e > 0 {
                return Some((prime, e));
            }
        }
        (n > 1).then(|| {
            let prime = n;
            n = 1;
            (prime, 1)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search, grundy_table};
    use proptest::prelude::*;

    /// The primes dividing `n`, by trial division over every d ≤ √n, kept
    /// apart from [`prime_exponents`] so the search does not use the code it
    /// checks.
    fn prime_divisors(n: u64) -> Vec<u64> {
        let mut primes = Vec::new();
        let mut rest = n;
        let mut d = 2;
        while d * d <= rest {
            if rest.is_multiple_of(d) {
                primes.push(d);
                while rest.is_multiple_of(d) {
                    rest /= d;
                }
            }
            d += 1;
        }
        if rest > 1 {
            primes.push(rest);
        }
        primes
    }

    /// The moves from `n`, from the rules: divide by p^j for a prime p and
    /// j ≥ 1 with p^j | n. From 1 there is none, so whoever reaches 1 has
    /// left the opponent stuck: normal play.
    fn moves(n: u64) -> Vec<u64> {
        let mut next = Vec::new();
        if n < 2 {
            return next;
        }
        for p in prime_divisors(n) {
            let mut m = n;
            while m.is_multiple_of(p) {
                m /= p;
                next.push(m);
            }
        }
        next
    }

    #[test]
    fn exponent_xor_matches_game_search_below_20000() {
        const LIMIT: usize = 20_000;
        let table = grundy_table(LIMIT - 1, |n, out| {
            out.extend(moves(n as u64).into_iter().map(|m| m as usize))
        });
        let checked = agrees_with_search(
            (MIN_N..LIMIT as u64).map(|n| PrimeFactorGameInput { n }),
            PrimeFactorGame::solve,
            |input| Outcome::from_first_wins(table[input.n as usize] != 0),
        );
        assert_eq!(checked, LIMIT - 2);
    }

    #[test]
    fn factorisation_is_exact() {
        let f: Vec<_> = prime_exponents(360).collect();
        assert_eq!(f, [(2, 3), (3, 2), (5, 1)]);
        let f: Vec<_> = prime_exponents(99_999_989).collect();
        assert_eq!(f, [(99_999_989, 1)]);
        let f: Vec<_> = prime_exponents(MAX_N).collect();
        assert_eq!(f, [(2, 8), (5, 8)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// A random N up to the bound, searched over its divisors.
        #[test]
        fn exponent_xor_matches_game_search_for_random_n(n in MIN_N..=MAX_N) {
            let mut search = WinLoseSearch::normal_play(|&m: &u64| moves(m));
            agrees_with_search(
                [PrimeFactorGameInput { n }],
                PrimeFactorGame::solve,
                |input| Outcome::from_first_wins(search.mover_wins(&input.n)),
            );
        }
    }
}
