//! `nim-play`: plain Nim, played against the judge (see [`super::interactive`]
//! for the protocol).
//!
//! A testcase is `G` games, each in `nim`'s input format (`N`, then
//! `A_1 … A_N`). A move is `i k`: take `k ≥ 1` stones from pile `i`
//! (1-based), which must hold at least `k`. The player with no move (every
//! pile empty) loses. A game ends within `ΣA_i ≤ 100,000` moves.
//!
//! The judge's winning move is Bouton's: with `x` the XOR of the piles, take
//! from a pile `a` with `a ⊕ x < a` down to `a ⊕ x`.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, xor_conclusion},
    outcome_lines, push_numbers,
};

pub const MAX_GAMES: usize = 20;
pub const MAX_N: usize = 100;
pub const MAX_A: u64 = 1000;

pub struct NimPlay;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NimPlayInput {
    /// One pile list per game.
    pub games: Vec<Vec<u64>>,
}

/// A move: take `take` stones from pile `pile` (from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    pub pile: usize,
    pub take: u64,
}

/// Nim's rules and Bouton's strategy, shared with `misere-nim-play`.
pub struct NimRules;

impl NimRules {
    pub fn write_piles(piles: &[u64], out: &mut String) {
        push_numbers(out, [piles.len() as u64]);
        push_numbers(out, piles.iter().copied());
    }

    pub fn parse_take(line: &str) -> Result<Take, String> {
        let mut words = line.split_ascii_whitespace();
        let (Some(i), Some(k), None) = (words.next(), words.next(), words.next()) else {
            return Err("expected two integers `i k`".to_string());
        };
        let number = |word: &str, name: &str| {
            word.parse::<u64>()
                .map_err(|_| format!("`{name}` must be a non-negative integer"))
        };
        let pile = number(i, "i")?;
        let take = number(k, "k")?;
        Ok(Take {
            // Pile 0 is out of range; checked as a move, not as a form.
            pile: usize::try_from(pile).unwrap_or(usize::MAX).wrapping_sub(1),
            take,
        })
    }

    pub fn check_take(piles: &[u64], mv: Take) -> Result<(), String> {
        let Some(&stones) = piles.get(mv.pile) else {
            return Err(format!(
                "there is no pile {} (the piles are 1 to {})",
                mv.pile.wrapping_add(1),
                piles.len()
            ));
        };
        if mv.take == 0 {
            return Err("a move takes at least one stone".to_string());
        }
        if mv.take > stones {
            return Err(format!(
                "pile {} holds {stones}, fewer than {}",
                mv.pile + 1,
                mv.take
            ));
        }
        Ok(())
    }

    pub fn write_take(mv: Take, out: &mut String) {
        super::push_u64(out, mv.pile as u64 + 1);
        out.push(' ');
        super::push_u64(out, mv.take);
    }

    /// Every move to a position whose XOR is 0: one per pile `a` with
    /// `a ⊕ x < a`.
    pub fn xor_moves(piles: &[u64]) -> Vec<Take> {
        let x = piles.iter().fold(0, |x, &a| x ^ a);
        if x == 0 {
            return Vec::new();
        }
        (0..piles.len())
            .filter(|&pile| piles[pile] ^ x < piles[pile])
            .map(|pile| Take {
                pile,
                take: piles[pile] - (piles[pile] ^ x),
            })
            .collect()
    }

    /// Bouton's winning move in normal play, if the XOR is non-zero.
    pub fn xor_move(piles: &[u64]) -> Option<Take> {
        let x = piles.iter().fold(0, |x, &a| x ^ a);
        if x == 0 {
            return None;
        }
        piles
            .iter()
            .position(|&a| a ^ x < a)
            .map(|pile| Take {
                pile,
                take: piles[pile] - (piles[pile] ^ x),
            })
    }

    /// A random legal move: a uniform non-empty pile, a uniform amount.
    pub fn random_take(piles: &[u64], rng: &mut SeededRng) -> Option<Take> {
        let non_empty = piles.iter().filter(|&&a| a > 0).count();
        if non_empty == 0 {
            return None;
        }
        let nth = rng.range_usize(0, non_empty - 1);
        let pile = piles
            .iter()
            .enumerate()
            .filter(|&(_, &a)| a > 0)
            .nth(nth)
            .map(|(i, _)| i)?;
        Some(Take {
            pile,
            take: rng.range(1, piles[pile]),
        })
    }

    /// Every legal move, from the rules (tests).
    #[cfg(test)]
    pub fn all_takes(piles: &[u64]) -> Vec<Take> {
        piles
            .iter()
            .enumerate()
            .flat_map(|(pile, &a)| (1..=a).map(move |take| Take { pile, take }))
            .collect()
    }

    /// Candidate moves around every boundary, legal or not (tests).
    #[cfg(test)]
    pub fn candidate_takes(piles: &[u64]) -> Vec<Take> {
        let most = piles.iter().copied().max().unwrap_or(0);
        (0..=piles.len() + 1)
            .map(|i| i.wrapping_sub(1))
            .flat_map(|pile| (0..=most + 1).map(move |take| Take { pile, take }))
            .collect()
    }
}

impl Game for NimPlay {
    type Position = Vec<u64>;
    type Move = Take;
    const MOVE_FORMAT: &'static str = "i k (take k stones from pile i)";

    fn write_position(piles: &Vec<u64>, out: &mut String) {
        NimRules::write_piles(piles, out);
    }

    fn parse_move(line: &str) -> Result<Take, String> {
        NimRules::parse_take(line)
    }

    fn check_move(piles: &Vec<u64>, mv: Take) -> Result<(), String> {
        NimRules::check_take(piles, mv)
    }

    fn play(piles: &mut Vec<u64>, mv: Take) {
        piles[mv.pile] -= mv.take;
    }

    fn write_move(mv: Take, out: &mut String) {
        NimRules::write_take(mv, out);
    }

    fn winning_move(piles: &Vec<u64>) -> Option<Take> {
        NimRules::xor_move(piles)
    }

    fn any_move(piles: &Vec<u64>, rng: &mut SeededRng) -> Option<Take> {
        NimRules::random_take(piles, rng)
    }

    fn parse_position(text: &str) -> Result<Vec<u64>, InputError> {
        parse_piles(text, 0, ("N", "A_i"))
    }

    fn deal(rng: &mut SeededRng) -> Vec<u64> {
        deal_piles(rng, 0)
    }

    fn winning_moves(piles: &Vec<u64>) -> Vec<Take> {
        NimRules::xor_moves(piles)
    }

    fn explain(piles: &Vec<u64>) -> Vec<String> {
        let x = piles.iter().fold(0, |x, &a| x ^ a);
        vec![
            "A pile's Grundy value is its size: from a pile of a stones you can leave any smaller pile.".to_string(),
            format!("The XOR of the piles' values: {}.", xor_text(piles)),
            xor_conclusion(x != 0, "move to a position whose XOR is 0 (take from a pile a with a ⊕ x < a down to a ⊕ x)."),
        ]
    }
}

/// Parses `G` games of piles, each a count then the piles, named as the
/// base problem names them (`N` and `A_i` for `nim`).
pub fn parse_games(
    text: &str,
    min_pile: u64,
    names: (&'static str, &'static str),
) -> Result<Vec<Vec<u64>>, InputError> {
    let mut s = Scanner::new(text);
    let g = s.usize(Field::new("G"), 1, MAX_GAMES)?;
    let mut games = Vec::with_capacity(g);
    for _ in 0..g {
        games.push(scan_piles(&mut s, min_pile, names)?);
    }
    s.finish()?;
    Ok(games)
}

/// Parses one game's piles: a count, then the piles.
pub fn parse_piles(
    text: &str,
    min_pile: u64,
    names: (&'static str, &'static str),
) -> Result<Vec<u64>, InputError> {
    let mut s = Scanner::new(text);
    let piles = scan_piles(&mut s, min_pile, names)?;
    s.finish()?;
    Ok(piles)
}

fn scan_piles(
    s: &mut Scanner<'_>,
    min_pile: u64,
    (count, pile): (&'static str, &'static str),
) -> Result<Vec<u64>, InputError> {
    let n = s.usize(Field::new(count), 1, MAX_N)?;
    let mut piles = Vec::with_capacity(n);
    for i in 1..=n {
        piles.push(s.u64(Field::new(pile).at(i), min_pile, MAX_A)?);
    }
    Ok(piles)
}

/// A position to practise on: three to five piles of `min_pile` to 15,
/// half of them with XOR 0.
pub fn deal_piles(rng: &mut SeededRng, min_pile: u64) -> Vec<u64> {
    let n = rng.range_usize(3, 5);
    let mut piles: Vec<u64> = (0..n).map(|_| rng.range(min_pile, 15)).collect();
    maybe_losing(&mut piles, rng, min_pile);
    piles
}

/// `3 ⊕ 5 ⊕ 7 = 1`.
pub fn xor_text(piles: &[u64]) -> String {
    let terms: Vec<String> = piles.iter().map(u64::to_string).collect();
    let x = piles.iter().fold(0, |x, &a| x ^ a);
    format!("{} = {x}", terms.join(" ⊕ "))
}

/// Renders games in the testcase format.
pub fn render_games(games: &[Vec<u64>]) -> String {
    let mut out = String::new();
    push_numbers(&mut out, [games.len() as u64]);
    for piles in games {
        NimRules::write_piles(piles, &mut out);
    }
    out
}

/// Games of the given kind; `losing` makes a position the first player
/// loses under normal-play Nim, when the XOR of the rest is a legal pile.
pub fn generate_games(
    kind: TestKind,
    rng: &mut SeededRng,
    min_pile: u64,
    mut adjust: impl FnMut(&mut Vec<u64>, &mut SeededRng),
) -> Vec<Vec<u64>> {
    let (count, max_n, max_a) = match kind {
        TestKind::Small => (5, 4, 7),
        TestKind::Edge => (4, MAX_N, MAX_A),
        TestKind::Random => (10, 30, MAX_A),
        TestKind::Max => (MAX_GAMES, MAX_N, MAX_A),
    };
    (0..count)
        .map(|index| {
            let mut piles: Vec<u64> = match kind {
                TestKind::Edge => match index {
                    0 => vec![min_pile],
                    1 => vec![MAX_A],
                    2 => vec![MAX_A; MAX_N],
                    _ => vec![MAX_A, MAX_A - 1],
                },
                TestKind::Max => (0..max_n).map(|_| rng.range(max_a / 2, max_a)).collect(),
                _ => {
                    let n = rng.range_usize(1, max_n);
                    (0..n).map(|_| rng.range(min_pile, max_a)).collect()
                }
            };
            adjust(&mut piles, rng);
            piles
        })
        .collect()
}

/// Half the time, makes the XOR zero (a losing first player) by setting the
/// first pile to the XOR of the others, when that is a legal pile.
pub fn maybe_losing(piles: &mut [u64], rng: &mut SeededRng, min_pile: u64) {
    let rest = piles[1..].iter().fold(0, |x, &a| x ^ a);
    if piles.len() > 1 && rng.chance(1, 2) && (min_pile..=MAX_A).contains(&rest) {
        piles[0] = rest;
    }
}

impl Problem for NimPlay {
    const ID: &'static str = "nim-play";
    const INTERACTIVE: bool = true;
    type Input = NimPlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<NimPlayInput, InputError> {
        Ok(NimPlayInput {
            games: parse_games(text, 0, ("N", "A_i"))?,
        })
    }

    /// Which side wins each game: the side a correct program chooses.
    fn solve(input: &NimPlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|piles| Outcome::from_first_wins(NimRules::xor_move(piles).is_some()))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        render_games(&generate_games(kind, rng, 0, |piles, rng| {
            maybe_losing(piles, rng, 0)
        }))
    }

    fn referee(input: &NimPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<NimPlay>::new(input.games.clone(), seed)))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<NimPlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        grundy::{WinLoseSearch, all_vectors, one_pile_moves},
        interactive::{Heard, check_strategy},
    };

    /// Every position of up to three piles of up to 5 stones (and four
    /// piles of up to 3): the judge's strategy wins against every reply,
    /// its legality check agrees with the rules' move list.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let search =
            std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &Vec<u64>| {
                one_pile_moves(p, |a| 0..a)
            }));
        let starts = (1..=3)
            .flat_map(|len| all_vectors(len, 5))
            .chain(all_vectors(4, 3));
        let visited = check_strategy::<NimPlay>(
            starts,
            |p| NimRules::all_takes(p),
            |p| NimRules::candidate_takes(p),
            |p| search.borrow_mut().mover_wins(p),
        );
        assert_eq!(visited, 6 + 36 + 216 + 256);
    }

    fn play(referee: &mut dyn Referee, program: &mut impl FnMut(&str) -> Option<String>) -> Heard {
        let mut said = referee.opening();
        loop {
            let Some(line) = program(&said) else {
                return Heard::Over {
                    reply: String::new(),
                    result: Err(referee.foul("the program stopped")),
                };
            };
            match referee.hear(line.as_bytes()) {
                Heard::Reply(text) => said = text,
                over @ Heard::Over { .. } => return over,
            }
        }
    }

    /// A program that tracks the position from what it reads and plays
    /// `choose`'s move.
    fn tracking_program(
        choose: impl FnMut(&[u64]) -> Option<Take>,
    ) -> impl FnMut(&str) -> Option<String> {
        let mut player = crate::testing::NimPlayer::new(choose);
        move |said: &str| player.answer(said)
    }

    #[test]
    fn a_program_playing_bouton_wins_every_generated_testcase() {
        for kind in TestKind::ALL {
            for seed in 1..=5 {
                let text = crate::solver::find("nim-play")
                    .unwrap()
                    .generate(kind, seed);
                let input = NimPlay::parse(&text).unwrap();
                let mut referee = NimPlay::referee(&input, seed).unwrap();
                let mut program = tracking_program(NimRules::xor_move);
                let result = play(referee.as_mut(), &mut program);
                assert!(
                    matches!(result, Heard::Over { result: Ok(()), .. }),
                    "{kind} {seed}: {result:?}"
                );
                assert!(referee.finished());
            }
        }
    }

    #[test]
    fn a_program_playing_at_random_loses() {
        let text = "1\n3\n3 5 7\n";
        let input = NimPlay::parse(text).unwrap();
        let mut referee = NimPlay::referee(&input, 1).unwrap();
        let mut rng = SeededRng::new(3);
        let mut program = tracking_program(|p| NimRules::random_take(p, &mut rng));
        let Heard::Over {
            result: Err(foul), ..
        } = play(referee.as_mut(), &mut program)
        else {
            panic!("a random player won");
        };
        assert_eq!(foul.game, 1);
        assert!(
            foul.reason.contains("no legal move left"),
            "{}",
            foul.reason
        );
    }

    fn over_with(heard: Heard) -> String {
        match heard {
            Heard::Over {
                result: Err(foul), ..
            } => foul.to_string(),
            other => panic!("not a foul: {other:?}"),
        }
    }

    #[test]
    fn every_kind_of_foul_names_the_game_the_move_and_why() {
        let input = NimPlay::parse("2\n1\n3\n2\n2 2\n").unwrap();
        let referee = || NimPlay::referee(&input, 5).unwrap();

        let mut r = referee();
        assert_eq!(r.opening(), "2\n1\n3\n");
        assert_eq!(
            over_with(r.hear(b"Second")),
            "game 1: chose Second, but the second player loses this position"
        );

        let mut r = referee();
        r.opening();
        assert_eq!(
            over_with(r.hear(b"first")),
            "game 1: expected `First` or `Second`, read `first`"
        );

        let mut r = referee();
        r.opening();
        assert_eq!(r.hear(b"First"), Heard::Reply(String::new()));
        assert_eq!(
            over_with(r.hear(b"1 4")),
            "game 1, move 1: illegal move: pile 1 holds 3, fewer than 4"
        );

        let mut r = referee();
        r.opening();
        r.hear(b"First");
        assert_eq!(
            over_with(r.hear(b"2 1")),
            "game 1, move 1: illegal move: there is no pile 2 (the piles are 1 to 1)"
        );

        let mut r = referee();
        r.opening();
        r.hear(b"First");
        assert_eq!(
            over_with(r.hear(b"1 x")),
            "game 1, move 1: malformed move `1 x`: `k` must be a non-negative integer"
        );

        // Winning the first game: the judge says `none` and sends the next.
        let mut r = referee();
        r.opening();
        r.hear(b"First");
        assert_eq!(r.hear(b"1 3\r"), Heard::Reply("none\n2\n2 2\n".to_string()));
        assert_eq!(
            over_with(r.hear(b"First")),
            "game 2: chose First, but the first player loses this position"
        );

        let mut r = referee();
        r.opening();
        r.hear(b"First");
        r.hear(b"1 3");
        r.hear(b"Second");
        assert_eq!(r.foul("the program stopped").to_string(), "game 2, move 2: the program stopped");
        assert!(!r.finished());

        let mut r = referee();
        r.opening();
        assert_eq!(
            over_with(r.hear(&[0xff, 0xfe])),
            "game 1: the line is not UTF-8 text"
        );
    }

    #[test]
    fn a_position_with_no_move_is_won_by_the_second_player() {
        let input = NimPlay::parse("1\n2\n0 0\n").unwrap();
        let mut r = NimPlay::referee(&input, 1).unwrap();
        r.opening();
        assert_eq!(
            r.hear(b"Second"),
            Heard::Over {
                reply: "none\n".to_string(),
                result: Ok(())
            }
        );
        assert!(r.transcript().ends_with("program: Second\njudge:   none\n"));
    }

    #[test]
    fn the_same_testcase_gets_the_same_replies() {
        let input = NimPlay::parse("1\n2\n5 5\n").unwrap();
        let replies = |seed| {
            let mut r = NimPlay::referee(&input, seed).unwrap();
            r.opening();
            r.hear(b"Second")
        };
        assert_eq!(replies(9), replies(9));
    }

    #[test]
    fn inputs_name_the_constraint_they_break() {
        let error = NimPlay::parse("1\n2\n3 1001\n").unwrap_err().to_string();
        assert!(error.contains("A_2"), "{error}");
        assert!(NimPlay::parse("21\n").is_err());
        assert!(NimPlay::parse("1\n101\n").is_err());
    }
}
