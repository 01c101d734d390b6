//! `prime-factor-game-returns-play`: yukicoder No.103's game, played against
//! the judge (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each in `prime-factor-game-returns`'s input
//! format (`N`, then `M_1 … M_N`). A move is `i p k`: divide `M_i` by `p^k`,
//! where `p` is a prime dividing `M_i` and `k` is 1 or 2 (`p²` must divide
//! `M_i` for `k = 2`). The player with no move (every number is 1) loses.
//! Every move removes one or two prime factors, so a game ends within
//! `Σ log₂ M_i ≤ 1,400` moves.
//!
//! The judge's winning move: each prime power `p^e` of each number is a pile
//! from which a move takes 1 or 2, of Grundy value `e mod 3`; with `x` the
//! XOR of them all, take `k` from a pile whose new value `(e - k) mod 3` is
//! `(e mod 3) ⊕ x`. Unlike Nim, that may be a pile of value 0 (`2^3` to
//! `2^2`): the exhaustive check found it.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, xor_conclusion},
    outcome_lines,
    prime_factor_game::prime_exponents,
    prime_factor_game_play::is_prime,
    push_numbers,
};

pub const MAX_GAMES: usize = 20;
pub const MAX_N: usize = 100;
pub const MAX_M: u64 = 10_000;

pub struct PrimeFactorGameReturnsPlay;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrimeFactorGameReturnsPlayInput {
    /// One list of numbers per game.
    pub games: Vec<Vec<u64>>,
}

/// A move: divide number `index` (from 0) by `prime^power`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Divide {
    pub index: usize,
    pub prime: u64,
    pub power: u32,
}


/// Every prime power of every number: `(index, prime, exponent)`.
fn piles(numbers: &[u64]) -> impl Iterator<Item = (usize, u64, u64)> + '_ {
    numbers
        .iter()
        .enumerate()
        .flat_map(|(index, &m)| prime_exponents(m).map(move |(p, e)| (index, p, e)))
}

fn xor(numbers: &[u64]) -> u64 {
    piles(numbers).fold(0, |x, (_, _, e)| x ^ (e % 3))
}

/// Every winning move: taking `k` factors from a pile `p^e` whose new value
/// `(e - k) mod 3` is `(e mod 3) ⊕ x`, so the XOR becomes 0. (From a pile of
/// value 0, e.g. `2^3`, that may raise its value: Grundy values of other
/// piles can be cancelled upwards too.)
fn xor_moves(numbers: &[u64]) -> Vec<Divide> {
    let x = xor(numbers);
    if x == 0 {
        return Vec::new();
    }
    piles(numbers)
        .flat_map(|(index, prime, e)| {
            (1..=2u32)
                .filter(move |&k| e >= u64::from(k) && (e - u64::from(k)) % 3 == (e % 3) ^ x)
                .map(move |power| Divide {
                    index,
                    prime,
                    power,
                })
        })
        .collect()
}

fn parse_numbers(s: &mut Scanner<'_>) -> Result<Vec<u64>, InputError> {
    let n = s.usize(Field::new("N"), 1, MAX_N)?;
    let mut numbers = Vec::with_capacity(n);
    for i in 1..=n {
        numbers.push(s.u64(Field::new("M_i").at(i), 1, MAX_M)?);
    }
    Ok(numbers)
}

fn write_numbers(numbers: &[u64], out: &mut String) {
    push_numbers(out, [numbers.len() as u64]);
    push_numbers(out, numbers.iter().copied());
}

impl Game for PrimeFactorGameReturnsPlay {
    type Position = Vec<u64>;
    type Move = Divide;
    const MOVE_FORMAT: &'static str = "i p k (divide M_i by p to the power k, p a prime, k 1 or 2)";

    fn write_position(numbers: &Vec<u64>, out: &mut String) {
        write_numbers(numbers, out);
    }

    fn parse_move(line: &str) -> Result<Divide, String> {
        let mut words = line.split_ascii_whitespace();
        let (Some(i), Some(p), Some(k), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err("expected three integers `i p k`".to_string());
        };
        let number = |word: &str, name: &str| {
            word.parse::<u64>()
                .map_err(|_| format!("`{name}` must be a non-negative integer"))
        };
        let index = number(i, "i")?;
        let prime = number(p, "p")?;
        let power = number(k, "k")?;
        Ok(Divide {
            index: usize::try_from(index).unwrap_or(usize::MAX).wrapping_sub(1),
            prime,
            power: u32::try_from(power).unwrap_or(u32::MAX),
        })
    }

    fn check_move(numbers: &Vec<u64>, mv: Divide) -> Result<(), String> {
        let Some(&m) = numbers.get(mv.index) else {
            return Err(format!(
                "there is no number {} (the numbers are 1 to {})",
                mv.index.wrapping_add(1),
                numbers.len()
            ));
        };
        if !(1..=2).contains(&mv.power) {
            return Err(format!("k must be 1 or 2, not {}", mv.power));
        }
        if !is_prime(mv.prime) {
            return Err(format!("{} is not a prime", mv.prime));
        }
        // A prime above 2^32 squared divides no u64.
        if mv.prime.checked_pow(mv.power).is_none_or(|divisor| m % divisor != 0) {
            return Err(format!(
                "{} does not divide M_{} = {m}",
                if mv.power == 1 {
                    mv.prime.to_string()
                } else {
                    format!("{}²", mv.prime)
                },
                mv.index + 1
            ));
        }
        Ok(())
    }

    fn play(numbers: &mut Vec<u64>, mv: Divide) {
        numbers[mv.index] /= mv.prime.pow(mv.power);
    }

    fn write_move(mv: Divide, out: &mut String) {
        super::push_u64(out, mv.index as u64 + 1);
        out.push(' ');
        super::push_u64(out, mv.prime);
        out.push(' ');
        super::push_u64(out, u64::from(mv.power));
    }

    fn winning_move(numbers: &Vec<u64>) -> Option<Divide> {
        xor_moves(numbers).into_iter().next()
    }

    fn any_move(numbers: &Vec<u64>, rng: &mut SeededRng) -> Option<Divide> {
        let all: Vec<(usize, u64, u64)> = piles(numbers).collect();
        if all.is_empty() {
            return None;
        }
        let &(index, prime, e) = rng.pick(&all);
        let power = if e >= 2 && rng.chance(1, 2) { 2 } else { 1 };
        Some(Divide {
            index,
            prime,
            power,
        })
    }

    fn parse_position(text: &str) -> Result<Vec<u64>, InputError> {
        let mut s = Scanner::new(text);
        let numbers = parse_numbers(&mut s)?;
        s.finish()?;
        Ok(numbers)
    }

    fn deal(rng: &mut SeededRng) -> Vec<u64> {
        (0..rng.range_usize(2, 4)).map(|_| rng.range(2, 200)).collect()
    }

    fn winning_moves(numbers: &Vec<u64>) -> Vec<Divide> {
        xor_moves(numbers)
    }

    fn explain(numbers: &Vec<u64>) -> Vec<String> {
        let mut lines = vec![
            "Each prime power p^e of each number is a pile: a move takes one or two factors p from one of them, so its Grundy value is e mod 3.".to_string(),
        ];
        let terms: Vec<String> = piles(numbers)
            .map(|(index, p, e)| format!("M_{}: {p}^{e} → {}", index + 1, e % 3))
            .collect();
        if terms.is_empty() {
            lines.push("Every number is 1: the player to move has no move.".to_string());
            return lines;
        }
        lines.push(format!("The piles: {}.", terms.join(", ")));
        let x = xor(numbers);
        lines.push(format!("The XOR of their values is {x}."));
        lines.push(xor_conclusion(x != 0, "make it 0 by taking 1 or 2 factors from one pile."));
        lines
    }
}

impl Problem for PrimeFactorGameReturnsPlay {
    const ID: &'static str = "prime-factor-game-returns-play";
    const INTERACTIVE: bool = true;
    type Input = PrimeFactorGameReturnsPlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<PrimeFactorGameReturnsPlayInput, InputError> {
        let mut s = Scanner::new(text);
        let g = s.usize(Field::new("G"), 1, MAX_GAMES)?;
        let mut games = Vec::with_capacity(g);
        for _ in 0..g {
            games.push(parse_numbers(&mut s)?);
        }
        s.finish()?;
        Ok(PrimeFactorGameReturnsPlayInput { games })
    }

    /// Which side wins each game.
    fn solve(input: &PrimeFactorGameReturnsPlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|numbers| Outcome::from_first_wins(xor(numbers) != 0))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let (count, max_n, max_m) = match kind {
            TestKind::Small => (5, 3, 60),
            TestKind::Edge => (4, MAX_N, MAX_M),
            TestKind::Random => (10, 30, MAX_M),
            TestKind::Max => (MAX_GAMES, MAX_N, MAX_M),
        };
        let games: Vec<Vec<u64>> = (0..count)
            .map(|index| match (kind, index) {
                (TestKind::Edge, 0) => vec![1],
                (TestKind::Edge, 1) => vec![8192],
                (TestKind::Edge, 2) => vec![MAX_M; MAX_N],
                (TestKind::Edge, _) => vec![2, 4, 8, 9],
                (TestKind::Max, _) => (0..max_n).map(|_| rng.range(max_m / 2, max_m)).collect(),
                _ => {
                    let n = rng.range_usize(1, max_n);
                    let mut numbers: Vec<u64> = (0..n).map(|_| rng.range(1, max_m)).collect();
                    // Half the time a losing first player: a second copy of
                    // the first number cancels it.
                    if n >= 2 && rng.chance(1, 2) {
                        let rest = xor(&numbers[2..]);
                        if rest == 0 {
                            numbers[1] = numbers[0];
                        }
                    }
                    numbers
                }
            })
            .collect();
        let mut out = String::new();
        push_numbers(&mut out, [games.len() as u64]);
        for numbers in &games {
            write_numbers(numbers, &mut out);
        }
        out
    }

    fn referee(input: &PrimeFactorGameReturnsPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<PrimeFactorGameReturnsPlay>::new(
            input.games.clone(),
            seed,
        )))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<PrimeFactorGameReturnsPlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        grundy::{WinLoseSearch, all_vectors},
        interactive::check_strategy,
    };

    /// Every legal move, from the rules: any number, any prime dividing it
    /// (found by trial over every integer), once or twice.
    fn rule_moves(numbers: &[u64]) -> Vec<Divide> {
        let mut moves = Vec::new();
        for (index, &m) in numbers.iter().enumerate() {
            for prime in 2..=m {
                if !(2..prime).all(|d| prime % d != 0) {
                    continue;
                }
                for power in 1..=2u32 {
                    if m % prime.pow(power) == 0 {
                        moves.push(Divide {
                            index,
                            prime,
                            power,
                        });
                    }
                }
            }
        }
        moves
    }

    /// Every position of one number up to 64, two up to 24 and three up to
    /// 12 (and the positions they reach): the judge's strategy wins against every reply, its move
    /// check agrees with the rules' moves, including non-primes, powers
    /// 0 and 3 and missing numbers.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &Vec<u64>| {
            rule_moves(p)
                .into_iter()
                .map(|mv| {
                    let mut next = p.clone();
                    PrimeFactorGameReturnsPlay::play(&mut next, mv);
                    next
                })
                .collect()
        }));
        let numbers = |len: usize, most: u64| {
            all_vectors(len, most - 1).map(|v| v.iter().map(|m| m + 1).collect::<Vec<u64>>())
        };
        let starts = numbers(1, 64).chain(numbers(2, 24)).chain(numbers(3, 12));
        let visited = check_strategy::<PrimeFactorGameReturnsPlay>(
            starts,
            |p| rule_moves(p),
            |p| {
                let most = p.iter().copied().max().unwrap_or(1);
                let mut candidates = Vec::new();
                for index in 0..=p.len() + 1 {
                    for prime in 0..=most + 1 {
                        for power in 0..=3 {
                            candidates.push(Divide {
                                index: index.wrapping_sub(1),
                                prime,
                                power,
                            });
                        }
                    }
                }
                candidates
            },
            |p| search.borrow_mut().mover_wins(p),
        );
        assert!(visited >= 64 + 24 * 24 + 12 * 12 * 12, "{visited}");
    }

    #[test]
    fn a_move_names_what_is_wrong() {
        let numbers = vec![12, 7];
        let check = |line: &str| {
            let mv = PrimeFactorGameReturnsPlay::parse_move(line)?;
            PrimeFactorGameReturnsPlay::check_move(&numbers, mv)
        };
        assert_eq!(check("1 2 2"), Ok(()));
        assert_eq!(check("1 3 2").unwrap_err(), "3² does not divide M_1 = 12");
        assert_eq!(check("1 4 1").unwrap_err(), "4 is not a prime");
        assert_eq!(check("2 7 3").unwrap_err(), "k must be 1 or 2, not 3");
        assert_eq!(check("3 2 1").unwrap_err(), "there is no number 3 (the numbers are 1 to 2)");
        assert_eq!(check("1 2").unwrap_err(), "expected three integers `i p k`");
    }

    #[test]
    fn the_outcome_agrees_with_the_base_problem() {
        use crate::solver::prime_factor_game_returns::{
            PrimeFactorGameReturns, PrimeFactorGameReturnsInput,
        };
        for kind in TestKind::ALL {
            for seed in 1..=5 {
                let text = crate::solver::find(PrimeFactorGameReturnsPlay::ID)
                    .unwrap()
                    .generate(kind, seed);
                let input = PrimeFactorGameReturnsPlay::parse(&text).unwrap();
                for (numbers, outcome) in input.games.iter().zip(PrimeFactorGameReturnsPlay::solve(&input)) {
                    let base = PrimeFactorGameReturns::solve(&PrimeFactorGameReturnsInput {
                        numbers: numbers.clone(),
                    });
                    assert_eq!(outcome, base);
                }
            }
        }
    }
}
