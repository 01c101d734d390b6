//! `coin-game-play`: yukicoder No.524 「コインゲーム」, played against the
//! judge (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each a case of `coin-game`'s input: `N`, the
//! number of plates; plate `i` starts with `i` coins. A move is `i k`: take
//! `k ≥ 1` coins from plate `i`, which must hold at least `k`. The player
//! with no move (no coin left) loses. A game ends within
//! `N(N+1)/2 ≤ 80,200` moves.
//!
//! `coin-game`'s input describes only starting positions, so the judge
//! sends `N` ([`Game::write_start`]) while a position in play (the practice
//! page's) is the plates' coins, `N` then `c_1 … c_N`. The game is Nim on
//! the plates, so the judge's winning move is Bouton's.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    coin_game::plates_grundy,
    input::{Field, InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, read_games, xor_conclusion},
    nim_play::{NimRules, Take, xor_text},
    outcome_lines, push_numbers,
};

pub const MAX_GAMES: usize = 20;
pub const MAX_N: u64 = 400;

pub struct CoinGamePlay;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoinGamePlayInput {
    /// The number of plates of each game.
    pub games: Vec<u64>,
}

/// The plates at the start: plate `i` holds `i` coins.
fn plates(n: u64) -> Vec<u64> {
    (1..=n).collect()
}

impl Game for CoinGamePlay {
    /// The coins on each plate.
    type Position = Vec<u64>;
    type Move = Take;
    const MOVE_FORMAT: &'static str = "i k (take k coins from plate i)";
    const POSITION_FORMAT: Option<&'static str> =
        Some("N, then the coins on plates 1 to N");

    fn write_position(coins: &Vec<u64>, out: &mut String) {
        NimRules::write_piles(coins, out);
    }

    fn write_start(coins: &Vec<u64>, out: &mut String) {
        debug_assert_eq!(*coins, plates(coins.len() as u64));
        push_numbers(out, [coins.len() as u64]);
    }

    fn parse_move(line: &str) -> Result<Take, String> {
        NimRules::parse_take(line)
    }

    fn check_move(coins: &Vec<u64>, mv: Take) -> Result<(), String> {
        NimRules::check_take(coins, mv).map_err(|why| {
            why.replace("pile", "plate").replace("stone", "coin")
        })
    }

    fn play(coins: &mut Vec<u64>, mv: Take) {
        coins[mv.pile] -= mv.take;
    }

    fn write_move(mv: Take, out: &mut String) {
        NimRules::write_take(mv, out);
    }

    fn winning_move(coins: &Vec<u64>) -> Option<Take> {
        NimRules::xor_move(coins)
    }

    fn any_move(coins: &Vec<u64>, rng: &mut SeededRng) -> Option<Take> {
        NimRules::random_take(coins, rng)
    }

    /// `N`, then the coins on each plate (at most `N` each).
    fn parse_position(text: &str) -> Result<Vec<u64>, InputError> {
        let mut s = Scanner::new(text);
        let n = s.u64(Field::new("N"), 1, MAX_N)?;
        let mut coins = Vec::with_capacity(n as usize);
        for i in 1..=n as usize {
            coins.push(s.u64(Field::new("c_i").at(i), 0, n)?);
        }
        s.finish()?;
        Ok(coins)
    }

    fn deal(rng: &mut SeededRng) -> Vec<u64> {
        plates(rng.range(3, 9))
    }

    fn winning_moves(coins: &Vec<u64>) -> Vec<Take> {
        NimRules::xor_moves(coins)
    }

    fn explain(coins: &Vec<u64>) -> Vec<String> {
        let x = coins.iter().fold(0, |x, &a| x ^ a);
        let n = coins.len() as u64;
        vec![
            "This is Nim on the plates: a plate of c coins is worth c.".to_string(),
            format!(
                "At the start plate i holds i coins, and 1 ⊕ 2 ⊕ … ⊕ N is N, 1, N + 1 or 0 as N mod 4 is 0, 1, 2 or 3: {} for N = {n}, so the first player loses exactly when N mod 4 = 3.",
                plates_grundy(n)
            ),
            format!("The XOR of the plates now: {}.", xor_text(coins)),
            xor_conclusion(x != 0, "take from a plate c with c ⊕ x < c down to c ⊕ x."),
        ]
    }
}

impl Problem for CoinGamePlay {
    const ID: &'static str = "coin-game-play";
    const INTERACTIVE: bool = true;
    type Input = CoinGamePlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<CoinGamePlayInput, InputError> {
        Ok(CoinGamePlayInput {
            games: read_games(text, MAX_GAMES, |s, _| s.u64(Field::new("N"), 1, MAX_N))?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &CoinGamePlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|&n| Outcome::from_first_wins(plates_grundy(n) != 0))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    /// Half of the random games are first-player losses (`N ≡ 3 mod 4`).
    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let games: Vec<u64> = match kind {
            TestKind::Small => (0..6).map(|_| rng.range(1, 8)).collect(),
            TestKind::Edge => vec![1, 2, 3, MAX_N, MAX_N - 1],
            TestKind::Random | TestKind::Max => {
                let (count, low) = if kind == TestKind::Max {
                    (MAX_GAMES, MAX_N - 50)
                } else {
                    (10, 1)
                };
                (0..count)
                    .map(|_| {
                        let n = rng.range(low, MAX_N);
                        if rng.chance(1, 2) && n >= 3 {
                            n - (n + 1) % 4
                        } else {
                            n
                        }
                    })
                    .collect()
            }
        };
        let mut out = String::new();
        push_numbers(&mut out, [games.len() as u64]);
        for n in games {
            push_numbers(&mut out, [n]);
        }
        out
    }

    fn referee(input: &CoinGamePlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<CoinGamePlay>::new(
            input.games.iter().map(|&n| plates(n)).collect(),
            seed,
        )))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<CoinGamePlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        grundy::{WinLoseSearch, one_pile_moves},
        interactive::check_strategy,
    };

    /// Every position of up to seven plates (plate `i` holding at most `i`
    /// coins), against a search from the rules.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &Vec<u64>| {
            one_pile_moves(p, |a| 0..a)
        }));
        let starts = (1..=7u64).flat_map(|n| {
            (1..=n).fold(vec![Vec::new()], |partial, plate| {
                partial
                    .iter()
                    .flat_map(|coins| {
                        (0..=plate).map(move |c| {
                            let mut next: Vec<u64> = coins.clone();
                            next.push(c);
                            next
                        })
                    })
                    .collect()
            })
        });
        let visited = check_strategy::<CoinGamePlay>(
            starts,
            |p| NimRules::all_takes(p),
            |p| NimRules::candidate_takes(p),
            |p| search.borrow_mut().mover_wins(p),
        );
        // (n + 1)! positions of n plates.
        assert_eq!(visited, (2..=8).map(|n| (1..=n).product::<usize>()).sum::<usize>());
    }

    #[test]
    fn the_start_is_sent_as_n_and_a_position_as_its_plates() {
        let mut start = String::new();
        CoinGamePlay::write_start(&plates(4), &mut start);
        assert_eq!(start, "4\n");
        let mut text = String::new();
        CoinGamePlay::write_position(&vec![1, 0, 3, 2], &mut text);
        assert_eq!(text, "4\n1 0 3 2\n");
        assert_eq!(CoinGamePlay::parse_position(&text), Ok(vec![1, 0, 3, 2]));
        let err = CoinGamePlay::parse_position("2\n1 3\n").unwrap_err();
        assert!(err.to_string().contains("c_2"), "{err}");
    }

    #[test]
    fn a_move_names_plates_and_coins() {
        let coins = vec![1, 2];
        assert_eq!(
            CoinGamePlay::check_move(&coins, Take { pile: 0, take: 2 }).unwrap_err(),
            "plate 1 holds 1, fewer than 2"
        );
        assert_eq!(
            CoinGamePlay::check_move(&coins, Take { pile: 2, take: 1 }).unwrap_err(),
            "there is no plate 3 (the plates are 1 to 2)"
        );
        assert_eq!(
            CoinGamePlay::check_move(&coins, Take { pile: 1, take: 0 }).unwrap_err(),
            "a move takes at least one coin"
        );
    }
}
