//! `misere-nim-play`: misère Nim (the player who takes the last stone
//! loses), played against the judge (see [`super::interactive`]).
//!
//! A testcase is `G` games, each a case of `misere-nim`'s input (`n`, then
//! `s_1 … s_n`, every `s_i ≥ 1`). A move is `i k`, as in `nim-play`.
//!
//! The protocol's games end when the player to move has no move, and that
//! player loses. Misère Nim fits it exactly when taking the last stone is
//! not a move at all: nobody takes it while another move exists (it loses
//! at once), and a player facing a single stone, who must take it, is a
//! player with no move who loses. So the judge refuses a move that takes
//! the last stone ("you took the last stone: you lost"), and writes `none`
//! when it would have to take it. The exhaustive check below plays this
//! against a search of misère Nim from its own rules.
//!
//! The judge's winning move (Bouton 1901): while two or more piles hold two
//! stones or more, Nim's move; with exactly one such pile, reduce it to 0 or
//! 1 so that an odd number of one-stone piles remains; with none, take a
//! one-stone pile when their number is even.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::InputError,
    interactive::{Game, Match, Practice, Practiced, Referee},
    nim_play::{self, NimRules, Take},
    outcome_lines,
};

pub struct MisereNimPlay;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisereNimPlayInput {
    /// One pile list per game.
    pub games: Vec<Vec<u64>>,
}

fn total(piles: &[u64]) -> u64 {
    piles.iter().sum()
}

/// The misère winning move, or `None` if the mover loses.
fn misere_move(piles: &[u64]) -> Option<Take> {
    let big: Vec<usize> = (0..piles.len()).filter(|&i| piles[i] >= 2).collect();
    let ones = piles.iter().filter(|&&a| a == 1).count();
    match big.as_slice() {
        [] => (ones % 2 == 0 && ones > 0)
            .then(|| piles.iter().position(|&a| a == 1))
            .flatten()
            .map(|pile| Take { pile, take: 1 }),
        &[pile] => {
            // Leave an odd number of one-stone piles.
            let keep = if ones % 2 == 1 { 0 } else { 1 };
            Some(Take {
                pile,
                take: piles[pile] - keep,
            })
        }
        _ => NimRules::xor_move(piles),
    }
}

impl Game for MisereNimPlay {
    type Position = Vec<u64>;
    type Move = Take;
    const MOVE_FORMAT: &'static str = "i k (take k stones from pile i)";
    const STUCK: &'static str = "one stone is left on your turn: you must take it and lose";

    fn write_position(piles: &Vec<u64>, out: &mut String) {
        NimRules::write_piles(piles, out);
    }

    fn parse_move(line: &str) -> Result<Take, String> {
        NimRules::parse_take(line)
    }

    fn check_move(piles: &Vec<u64>, mv: Take) -> Result<(), String> {
        NimRules::check_take(piles, mv)?;
        if mv.take == total(piles) {
            return Err("you took the last stone: you lost".to_string());
        }
        Ok(())
    }

    fn play(piles: &mut Vec<u64>, mv: Take) {
        piles[mv.pile] -= mv.take;
    }

    fn write_move(mv: Take, out: &mut String) {
        NimRules::write_take(mv, out);
    }

    fn winning_move(piles: &Vec<u64>) -> Option<Take> {
        misere_move(piles)
    }

    fn any_move(piles: &Vec<u64>, rng: &mut SeededRng) -> Option<Take> {
        if total(piles) <= 1 {
            return None;
        }
        let mut mv = NimRules::random_take(piles, rng)?;
        if mv.take == total(piles) {
            // The only non-empty pile, holding two or more: leave one.
            mv.take = rng.range(1, mv.take - 1);
        }
        Some(mv)
    }

    /// A position during play: piles may be empty, but a stone is left
    /// (taking the last one ends the game).
    fn parse_position(text: &str) -> Result<Vec<u64>, InputError> {
        let piles = nim_play::parse_piles(text, 0, ("n", "s_i"))?;
        if total(&piles) == 0 {
            return Err(InputError::Invalid {
                line: 2,
                message: "every pile is empty: a position holds at least one stone".into(),
            });
        }
        Ok(piles)
    }

    fn deal(rng: &mut SeededRng) -> Vec<u64> {
        nim_play::deal_piles(rng, 1)
    }

    fn winning_moves(piles: &Vec<u64>) -> Vec<Take> {
        let big = piles.iter().filter(|&&a| a >= 2).count();
        match big {
            // Any one-stone pile, when their number is even.
            0 => match misere_move(piles) {
                Some(_) => (0..piles.len())
                    .filter(|&pile| piles[pile] == 1)
                    .map(|pile| Take { pile, take: 1 })
                    .collect(),
                None => Vec::new(),
            },
            1 => misere_move(piles).into_iter().collect(),
            _ => NimRules::xor_moves(piles),
        }
    }

    fn explain(piles: &Vec<u64>) -> Vec<String> {
        let big = piles.iter().filter(|&&a| a >= 2).count();
        let ones = piles.iter().filter(|&&a| a == 1).count();
        match big {
            0 => vec![
                format!("Every pile holds at most one stone: {ones} one-stone piles."),
                "Each move takes one of them, and whoever takes the last loses, so the player to move wins exactly when their number is even.".to_string(),
                if ones % 2 == 0 {
                    "It is even: take one, and the opponent is left to take the last.".to_string()
                } else {
                    "It is odd: the player to move will take the last stone.".to_string()
                },
            ],
            1 => vec![
                "Exactly one pile holds two stones or more: the player to move wins.".to_string(),
                format!("There are {ones} one-stone piles besides it: reduce it to {} so that an odd number of one-stone piles remains, and the opponent takes the last.", if ones % 2 == 1 { 0 } else { 1 }),
            ],
            _ => vec![
                "Two or more piles hold two stones or more: play as in Nim, whose Grundy value of a pile is its size.".to_string(),
                format!("The XOR of the piles: {}.", nim_play::xor_text(piles)),
                if NimRules::xor_move(piles).is_some() {
                    "It is not 0, so the player to move wins: move to XOR 0 (until one big pile is left; then leave an odd number of one-stone piles).".to_string()
                } else {
                    "It is 0, so the player to move loses.".to_string()
                },
            ],
        }
    }
}

impl Problem for MisereNimPlay {
    const ID: &'static str = "misere-nim-play";
    const INTERACTIVE: bool = true;
    type Input = MisereNimPlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<MisereNimPlayInput, InputError> {
        Ok(MisereNimPlayInput {
            games: nim_play::parse_games(text, 1, ("n", "s_i"))?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &MisereNimPlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|piles| Outcome::from_first_wins(misere_move(piles).is_some()))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        nim_play::render_games(&nim_play::generate_games(kind, rng, 1, |piles, rng| {
            // A fifth of the games are all one-stone piles, the endgame
            // where misère differs from Nim.
            if kind != TestKind::Edge && rng.chance(1, 5) {
                piles.iter_mut().for_each(|a| *a = 1);
            } else {
                nim_play::maybe_losing(piles, rng, 1);
            }
        }))
    }

    fn referee(input: &MisereNimPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<MisereNimPlay>::new(
            input.games.clone(),
            seed,
        )))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<MisereNimPlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        grundy::{WinLoseSearch, all_vectors, one_pile_moves},
        interactive::check_strategy,
    };

    /// Every position of up to four piles of 1 to 4 stones (and five of 1
    /// to 3), judged against a search of misère Nim from its own rules (the
    /// player who faces no stone wins): the judge's strategy wins against
    /// every reply, and its move check is the rules' moves minus taking the
    /// last stone.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let search = std::cell::RefCell::new(WinLoseSearch::stuck_player_wins(|p: &Vec<u64>| {
            one_pile_moves(p, |a| 0..a)
        }));
        let non_empty = |piles: Vec<u64>| piles.into_iter().map(|a| a + 1).collect::<Vec<u64>>();
        let starts = (1..=4)
            .flat_map(|len| all_vectors(len, 3).map(non_empty))
            .chain(all_vectors(5, 2).map(non_empty));
        let visited = check_strategy::<MisereNimPlay>(
            starts,
            |p| {
                NimRules::all_takes(p)
                    .into_iter()
                    .filter(|mv| mv.take < total(p))
                    .collect()
            },
            |p| NimRules::candidate_takes(p),
            |p| search.borrow_mut().mover_wins(p),
        );
        assert!(visited >= 4 + 16 + 64 + 256 + 243, "{visited}");
    }

    #[test]
    fn taking_the_last_stone_is_named() {
        let input = MisereNimPlay::parse("1\n2\n1 1\n").unwrap();
        let mut referee = MisereNimPlay::referee(&input, 1).unwrap();
        referee.opening();
        // Two one-stone piles: the first player wins by taking one.
        match referee.hear(b"First") {
            crate::solver::interactive::Heard::Reply(text) => assert_eq!(text, ""),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            referee.hear(b"1 1"),
            crate::solver::interactive::Heard::Over {
                reply: "none\n".into(),
                result: Ok(())
            }
        );
        let input = MisereNimPlay::parse("1\n1\n3\n").unwrap();
        let mut referee = MisereNimPlay::referee(&input, 1).unwrap();
        referee.opening();
        referee.hear(b"First");
        let crate::solver::interactive::Heard::Over {
            result: Err(foul), ..
        } = referee.hear(b"1 3")
        else {
            panic!("taking the last stone was allowed");
        };
        assert_eq!(
            foul.to_string(),
            "game 1, move 1: illegal move: you took the last stone: you lost"
        );
    }

    #[test]
    fn the_outcome_agrees_with_misere_nim() {
        use crate::solver::misere_nim::{MisereNim, MisereNimInput};
        for kind in TestKind::ALL {
            for seed in 1..=5 {
                let text = crate::solver::find(MisereNimPlay::ID)
                    .unwrap()
                    .generate(kind, seed);
                let input = MisereNimPlay::parse(&text).unwrap();
                assert_eq!(
                    MisereNimPlay::solve(&input),
                    MisereNim::solve(&MisereNimInput {
                        cases: input.games.clone()
                    })
                );
            }
        }
    }
}
