//! `dont-say-n-play`: yukicoder No.1313 「N言っちゃダメゲーム (4)」, played
//! against the judge (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each a case of `dont-say-n`'s input (`N K`, then
//! `S`). The count starts at 0; a move is one integer `w`, the number said:
//! `v < w ≤ v + K` after `v`, below `N`, and safe (`S_w = o`). Saying a
//! number ≥ N or a dangerous one loses on the spot, so those are not moves:
//! the player with no safe number to say loses. A game ends within `N − 1`
//! moves.
//!
//! The judge's winning move comes from `dont-say-n`'s table
//! ([`losing_numbers`]), computed once per game: say a safe number after
//! which the player to speak loses.
//!
//! `dont-say-n`'s input describes only a count at 0, so a position in play
//! (the practice page's) is that input plus a third line, the number said
//! last ([`Game::write_start`] sends the input alone).

use std::sync::Arc;

use super::{
    Problem, SeededRng, TestKind,
    dont_say_n::{DontSayNInput, losing_numbers, scan_case},
    input::{Field, InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, read_games},
    outcome_lines, push_numbers, push_u64,
};

pub const MAX_GAMES: usize = 10;
pub const MAX_N: usize = 10_000;

pub struct DontSayNPlay;

/// One game's rules and the solver core's table for them.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub k: usize,
    /// `safe[w]` for `0 ≤ w < N` (0 is the start).
    pub safe: Vec<bool>,
    /// `lose[v]`: the player to speak after `v` loses.
    lose: Vec<bool>,
}

impl Rules {
    pub fn new(input: DontSayNInput) -> Rules {
        let lose = losing_numbers(&input);
        Rules {
            k: input.k,
            safe: input.safe,
            lose,
        }
    }

    pub fn n(&self) -> usize {
        self.safe.len()
    }

    /// The safe numbers that may be said after `v`.
    fn moves(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        (v + 1..=(v + self.k).min(self.n() - 1)).filter(|&w| self.safe[w])
    }
}

/// A game in play: its rules and the number said last.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Count {
    pub rules: Arc<Rules>,
    pub said: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DontSayNPlayInput {
    pub games: Vec<Arc<Rules>>,
}

fn write_rules(rules: &Rules, out: &mut String) {
    push_numbers(out, [rules.n() as u64, rules.k as u64]);
    out.extend(
        rules.safe[1..]
            .iter()
            .map(|&safe| if safe { 'o' } else { 'x' }),
    );
    out.push('\n');
}

impl Game for DontSayNPlay {
    type Position = Count;
    /// The number said.
    type Move = usize;
    const MOVE_FORMAT: &'static str = "w (the number you say)";
    const POSITION_FORMAT: Option<&'static str> =
        Some("N K, then S, then the number said last (0 at the start)");
    const STUCK: &'static str =
        "every number you may say is dangerous or at least N: you lost";

    fn write_position(count: &Count, out: &mut String) {
        write_rules(&count.rules, out);
        push_numbers(out, [count.said as u64]);
    }

    fn write_start(count: &Count, out: &mut String) {
        debug_assert_eq!(count.said, 0);
        write_rules(&count.rules, out);
    }

    fn parse_move(line: &str) -> Result<usize, String> {
        let mut words = line.split_ascii_whitespace();
        let (Some(word), None) = (words.next(), words.next()) else {
            return Err("expected one integer `w`".to_string());
        };
        word.parse::<u64>()
            .map(|w| usize::try_from(w).unwrap_or(usize::MAX))
            .map_err(|_| "`w` must be a non-negative integer".to_string())
    }

    fn check_move(count: &Count, w: usize) -> Result<(), String> {
        let rules = &count.rules;
        let v = count.said;
        if w <= v || w - v > rules.k {
            return Err(format!(
                "after {v} the number said is {} to {}, not {w}",
                v + 1,
                v + rules.k
            ));
        }
        if w >= rules.n() {
            return Err(format!("{w} is at least N = {}: saying it loses", rules.n()));
        }
        if !rules.safe[w] {
            return Err(format!("{w} is dangerous (S_{w} = x): saying it loses"));
        }
        Ok(())
    }

    fn play(count: &mut Count, w: usize) {
        count.said = w;
    }

    fn write_move(w: usize, out: &mut String) {
        push_u64(out, w as u64);
    }

    fn winning_move(count: &Count) -> Option<usize> {
        let rules = &count.rules;
        rules.moves(count.said).find(|&w| rules.lose[w])
    }

    fn any_move(count: &Count, rng: &mut SeededRng) -> Option<usize> {
        let rules = &count.rules;
        let open = rules.moves(count.said).count();
        if open == 0 {
            return None;
        }
        rules.moves(count.said).nth(rng.range_usize(0, open - 1))
    }

    /// `N K`, `S`, then the number said last (0 at the start).
    fn parse_position(text: &str) -> Result<Count, InputError> {
        let mut s = Scanner::new(text);
        let rules = Rules::new(scan_case(&mut s, MAX_N)?);
        let said = s.usize(Field::new("v"), 0, rules.n() - 1)?;
        if !rules.safe[said] {
            return Err(InputError::Invalid {
                line: s.line(),
                message: format!("v = {said} is dangerous: nobody says it and plays on"),
            });
        }
        s.finish()?;
        Ok(Count {
            rules: Arc::new(rules),
            said,
        })
    }

    fn deal(rng: &mut SeededRng) -> Count {
        let n = rng.range_usize(15, 30);
        let k = rng.range_usize(2, 4);
        let mut safe = vec![true];
        safe.extend((1..n).map(|_| !rng.chance(1, 4)));
        Count {
            rules: Arc::new(Rules::new(DontSayNInput { k, safe })),
            said: 0,
        }
    }

    fn winning_moves(count: &Count) -> Vec<usize> {
        let rules = &count.rules;
        rules.moves(count.said).filter(|&w| rules.lose[w]).collect()
    }

    fn explain(count: &Count) -> Vec<String> {
        let rules = &count.rules;
        let targets: Vec<String> = (count.said + 1..rules.n())
            .filter(|&w| rules.safe[w] && rules.lose[w])
            .take(12)
            .map(|w| w.to_string())
            .collect();
        vec![
            format!(
                "Count back from N − 1 = {}: after a number v, the player to speak loses when none of v + 1 … v + {} is a safe number below N after which the player to speak loses. Call those safe numbers the targets: say a target and you win.",
                rules.n() - 1,
                rules.k
            ),
            if targets.is_empty() {
                format!("No target lies beyond {}.", count.said)
            } else {
                format!("The next targets beyond {}: {}.", count.said, targets.join(", "))
            },
            if rules.lose[count.said] {
                format!(
                    "None of them is within reach of {}, so the player to speak loses.",
                    count.said
                )
            } else {
                format!(
                    "One is within reach of {}, so the player to speak wins: say it.",
                    count.said
                )
            },
        ]
    }
}

impl Problem for DontSayNPlay {
    const ID: &'static str = "dont-say-n-play";
    const INTERACTIVE: bool = true;
    type Input = DontSayNPlayInput;
    type Output = Vec<super::Outcome>;

    fn parse(text: &str) -> Result<DontSayNPlayInput, InputError> {
        Ok(DontSayNPlayInput {
            games: read_games(text, MAX_GAMES, |s, _| {
                Ok(Arc::new(Rules::new(scan_case(s, MAX_N)?)))
            })?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &DontSayNPlayInput) -> Vec<super::Outcome> {
        input
            .games
            .iter()
            .map(|rules| super::Outcome::from_first_wins(!rules.lose[0]))
            .collect()
    }

    fn format(output: &Vec<super::Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let max = MAX_N as u64;
        let games: Vec<(u64, u64, u64)> = match kind {
            TestKind::Small => (0..6)
                .map(|_| {
                    let n = rng.range(2, 14);
                    (n, rng.range(1, n - 1), rng.range(0, 2))
                })
                .collect(),
            TestKind::Edge => vec![(2, 1, 0), (2, 1, 4), (max, 1, 0), (max, max - 1, 4), (max, 2, 1)],
            TestKind::Random => (0..6)
                .map(|_| {
                    let n = rng.log_uniform(2, max);
                    (n, rng.log_uniform(1, n - 1), rng.range(0, 2))
                })
                .collect(),
            TestKind::Max => (0..MAX_GAMES)
                .map(|_| (max, rng.range(2, 20), 1))
                .collect(),
        };
        let mut out = String::new();
        push_numbers(&mut out, [games.len() as u64]);
        for (n, k, danger) in games {
            // `danger` in quarters: the chance that a number is dangerous.
            push_numbers(&mut out, [n, k]);
            out.extend((1..n).map(|_| if rng.chance(danger, 4) { 'x' } else { 'o' }));
            out.push('\n');
        }
        out
    }

    fn referee(input: &DontSayNPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        let games = input
            .games
            .iter()
            .map(|rules| Count {
                rules: Arc::clone(rules),
                said: 0,
            })
            .collect();
        Some(Box::new(Match::<DontSayNPlay>::new(games, seed)))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<DontSayNPlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{grundy::WinLoseSearch, interactive::check_strategy};

    /// Every legal move, from the rules.
    fn rule_moves(count: &Count) -> Vec<usize> {
        let rules = &count.rules;
        (count.said + 1..=count.said + rules.k)
            .filter(|&w| w < rules.n() && rules.safe[w])
            .collect()
    }

    /// Every N ≤ 10, every K < N and every S, from the count at 0 (and so
    /// every number reached), against a search from the rules.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let mut starts = Vec::new();
        for n in 2..=10usize {
            for k in 1..n {
                for mask in 0u32..(1 << (n - 1)) {
                    let mut safe = vec![true];
                    safe.extend((0..n - 1).map(|i| mask >> i & 1 == 0));
                    starts.push(Count {
                        rules: Arc::new(Rules::new(DontSayNInput { k, safe })),
                        said: 0,
                    });
                }
            }
        }
        let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|count: &Count| {
            rule_moves(count)
                .into_iter()
                .map(|said| Count {
                    rules: Arc::clone(&count.rules),
                    said,
                })
                .collect::<Vec<_>>()
        }));
        let visited = check_strategy::<DontSayNPlay>(
            starts,
            rule_moves,
            |count| (0..=count.said + count.rules.k + 2).collect(),
            |count| search.borrow_mut().mover_wins(count),
        );
        let games: usize = (2..=10).map(|n| (n - 1) << (n - 1)).sum();
        assert!(visited >= games, "{visited}");
    }

    #[test]
    fn a_position_in_play_carries_the_number_said() {
        let count = DontSayNPlay::parse_position("6 2\noxoxo\n3\n").unwrap();
        assert_eq!(count.said, 3);
        let mut text = String::new();
        DontSayNPlay::write_position(&count, &mut text);
        assert_eq!(text, "6 2\noxoxo\n3\n");
        let mut start = String::new();
        DontSayNPlay::write_start(
            &Count {
                said: 0,
                ..count.clone()
            },
            &mut start,
        );
        assert_eq!(start, "6 2\noxoxo\n");
        let err = DontSayNPlay::parse_position("6 2\noxoxo\n2\n").unwrap_err();
        assert!(err.to_string().contains("v = 2 is dangerous"), "{err}");
    }

    #[test]
    fn a_losing_number_is_named() {
        let count = DontSayNPlay::parse_position("6 2\noxoxo\n3\n").unwrap();
        let check = |line: &str| {
            let w = DontSayNPlay::parse_move(line)?;
            DontSayNPlay::check_move(&count, w)
        };
        assert_eq!(check("5"), Ok(()));
        assert_eq!(check("4").unwrap_err(), "4 is dangerous (S_4 = x): saying it loses");
        assert_eq!(check("6").unwrap_err(), "after 3 the number said is 4 to 5, not 6");
        assert_eq!(check("3").unwrap_err(), "after 3 the number said is 4 to 5, not 3");
        assert_eq!(check("five").unwrap_err(), "`w` must be a non-negative integer");
        let near_end = DontSayNPlay::parse_position("6 3\nooooo\n4\n").unwrap();
        assert_eq!(
            DontSayNPlay::check_move(&near_end, 6).unwrap_err(),
            "6 is at least N = 6: saying it loses"
        );
    }
}
