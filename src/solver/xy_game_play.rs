//! `xy-game-play`: AtCoder ARC208 E "XY Game", played against the judge
//! (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each a case of `xy-game`'s input (`N X Y`, then
//! `A_1 … A_N`), with piles of at most 1,000 stones. A move is `i d`: take
//! `d ∈ {1, 2}` stones from pile `i`, leaving a size that is a multiple of
//! neither `X` nor `Y` (0 is a multiple of both, so a pile never empties).
//! The player with no move loses. A game ends within `ΣA_i ≤ 20,000` moves.
//!
//! The judge's winning move: the pile values are `xy-game`'s closed form
//! ([`grundy`], 0, 1 or 2); with `x` their XOR, it takes 1 or 2 from a pile
//! whose value `g` has `g ⊕ x < g`, to a free size of value `g ⊕ x`.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, read_games, xor_conclusion},
    nim_play::{NimRules, Take},
    outcome_lines, push_numbers,
    xy_game::{
        MAX_XY,
        closed_form::{grundy, is_blocked},
    },
};

pub const MAX_GAMES: usize = 10;
pub const MAX_N: usize = 20;
pub const MAX_A: u64 = 1000;

pub struct XyGamePlay;

/// A game in play: the two divisors and the piles.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct XyPiles {
    pub x: u64,
    pub y: u64,
    pub piles: Vec<u64>,
}

impl XyPiles {
    fn value(&self, a: u64) -> u8 {
        grundy(self.x, self.y, a)
    }

    fn xor(&self) -> u8 {
        self.piles.iter().fold(0, |x, &a| x ^ self.value(a))
    }

    /// Whether taking `d` from a pile of `a` is a move.
    fn allows(&self, a: u64, d: u64) -> bool {
        (1..=2).contains(&d) && a > d && !is_blocked(self.x, self.y, a - d)
    }

    /// The moves to a size of value `g ⊕ x`.
    fn winning_takes(&self) -> impl Iterator<Item = Take> + '_ {
        let x = self.xor();
        self.piles.iter().enumerate().flat_map(move |(pile, &a)| {
            (1..=2)
                .filter(move |&d| {
                    x != 0 && self.allows(a, d) && self.value(a - d) == self.value(a) ^ x
                })
                .map(move |take| Take { pile, take })
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XyGamePlayInput {
    pub games: Vec<XyPiles>,
}

fn scan_game(s: &mut Scanner<'_>) -> Result<XyPiles, InputError> {
    let n = s.usize(Field::new("N"), 1, MAX_N)?;
    let x = s.u64(Field::new("X"), 1, MAX_XY)?;
    let y = s.u64(Field::new("Y"), 1, MAX_XY)?;
    if x >= y {
        return Err(InputError::Invalid {
            line: s.line(),
            message: format!("X = {x} and Y = {y} violate the constraint X < Y"),
        });
    }
    let mut piles = Vec::with_capacity(n);
    for i in 1..=n {
        piles.push(s.u64(Field::new("A_i").at(i), 1, MAX_A)?);
    }
    Ok(XyPiles { x, y, piles })
}

impl Game for XyGamePlay {
    type Position = XyPiles;
    type Move = Take;
    const MOVE_FORMAT: &'static str =
        "i d (take 1 or 2 stones from pile i, leaving a multiple of neither X nor Y)";

    fn write_position(position: &XyPiles, out: &mut String) {
        push_numbers(
            out,
            [position.piles.len() as u64, position.x, position.y],
        );
        push_numbers(out, position.piles.iter().copied());
    }

    fn parse_move(line: &str) -> Result<Take, String> {
        NimRules::parse_take(line).map_err(|e| e.replace("`i k`", "`i d`").replace("`k`", "`d`"))
    }

    fn check_move(position: &XyPiles, mv: Take) -> Result<(), String> {
        let Some(&a) = position.piles.get(mv.pile) else {
            return Err(format!(
                "there is no pile {} (the piles are 1 to {})",
                mv.pile.wrapping_add(1),
                position.piles.len()
            ));
        };
        let (i, d) = (mv.pile + 1, mv.take);
        if !(1..=2).contains(&d) {
            return Err(format!("a move takes 1 or 2 stones, not {d}"));
        }
        if a <= d {
            return Err(format!(
                "pile {i} holds {a}: taking {d} would empty it, and 0 is a multiple of X"
            ));
        }
        let left = a - d;
        for (name, divisor) in [("X", position.x), ("Y", position.y)] {
            if left.is_multiple_of(divisor) {
                return Err(format!(
                    "taking {d} from pile {i} leaves {left}, a multiple of {name} = {divisor}"
                ));
            }
        }
        Ok(())
    }

    fn play(position: &mut XyPiles, mv: Take) {
        position.piles[mv.pile] -= mv.take;
    }

    fn write_move(mv: Take, out: &mut String) {
        NimRules::write_take(mv, out);
    }

    fn winning_move(position: &XyPiles) -> Option<Take> {
        position.winning_takes().next()
    }

    fn any_move(position: &XyPiles, rng: &mut SeededRng) -> Option<Take> {
        let moves: Vec<Take> = position
            .piles
            .iter()
            .enumerate()
            .flat_map(|(pile, &a)| {
                (1..=2)
                    .filter(move |&d| position.allows(a, d))
                    .map(move |take| Take { pile, take })
            })
            .collect();
        (!moves.is_empty()).then(|| *rng.pick(&moves))
    }

    fn parse_position(text: &str) -> Result<XyPiles, InputError> {
        let mut s = Scanner::new(text);
        let position = scan_game(&mut s)?;
        s.finish()?;
        Ok(position)
    }

    fn deal(rng: &mut SeededRng) -> XyPiles {
        let x = rng.range(2, 5);
        let y = rng.range(x + 1, 9);
        let piles = (0..rng.range_usize(2, 4)).map(|_| rng.range(3, 20)).collect();
        XyPiles { x, y, piles }
    }

    fn winning_moves(position: &XyPiles) -> Vec<Take> {
        position.winning_takes().collect()
    }

    fn explain(position: &XyPiles) -> Vec<String> {
        let values: Vec<String> = position
            .piles
            .iter()
            .map(|&a| format!("{a} → {}", position.value(a)))
            .collect();
        let x = position.xor();
        vec![
            format!(
                "A pile's Grundy value is the smallest value not among those of the sizes one or two below it that are multiples of neither X = {} nor Y = {}: 0, 1 or 2.",
                position.x, position.y
            ),
            format!("The piles' values: {}.", values.join(", ")),
            format!("Their XOR is {x}."),
            xor_conclusion(x != 0, "take 1 or 2 from a pile to a size whose value makes the XOR 0."),
        ]
    }
}

impl Problem for XyGamePlay {
    const ID: &'static str = "xy-game-play";
    const INTERACTIVE: bool = true;
    type Input = XyGamePlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<XyGamePlayInput, InputError> {
        Ok(XyGamePlayInput {
            games: read_games(text, MAX_GAMES, |s, _| scan_game(s))?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &XyGamePlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|game| Outcome::from_first_wins(game.xor() != 0))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let (count, max_n, max_xy) = match kind {
            TestKind::Small => (6, 4, 15),
            TestKind::Edge => (5, MAX_N, MAX_XY),
            TestKind::Random => (6, MAX_N, 60),
            TestKind::Max => (MAX_GAMES, MAX_N, 60),
        };
        let games: Vec<XyPiles> = (0..count)
            .map(|index| {
                let (x, y) = match (kind, index) {
                    (TestKind::Edge, 0) => (1, 2),
                    (TestKind::Edge, 1) => (MAX_XY - 1, MAX_XY),
                    (TestKind::Edge, 2) => (2, 3),
                    (TestKind::Edge, _) => (rng.range(2, 10), 1000),
                    _ => {
                        let x = rng.range(2, max_xy - 1);
                        (x, rng.range(x + 1, max_xy))
                    }
                };
                let (n, low, high) = match kind {
                    TestKind::Small => (rng.range_usize(1, max_n), 1, 30),
                    TestKind::Max => (max_n, MAX_A / 2, MAX_A),
                    TestKind::Edge => (max_n, MAX_A - 5, MAX_A),
                    TestKind::Random => (rng.range_usize(1, max_n), 1, MAX_A),
                };
                XyPiles {
                    x,
                    y,
                    piles: (0..n).map(|_| rng.range(low, high)).collect(),
                }
            })
            .collect();
        let mut out = String::new();
        push_numbers(&mut out, [games.len() as u64]);
        for game in &games {
            XyGamePlay::write_position(game, &mut out);
        }
        out
    }

    fn referee(input: &XyGamePlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<XyGamePlay>::new(input.games.clone(), seed)))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<XyGamePlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        grundy::{WinLoseSearch, all_vectors},
        interactive::check_strategy,
    };

    /// Every legal move, from the rules.
    fn rule_moves(position: &XyPiles) -> Vec<Take> {
        let mut moves = Vec::new();
        for (pile, &a) in position.piles.iter().enumerate() {
            for take in 1..=2u64 {
                if a > take && (a - take) % position.x != 0 && (a - take) % position.y != 0 {
                    moves.push(Take { pile, take });
                }
            }
        }
        moves
    }

    /// For every `X < Y ≤ 7`, every position of two piles up to 14 and
    /// three up to 6, against a search from the rules.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let mut visited = 0;
        let mut pairs = 0;
        for x in 1..=6 {
            for y in x + 1..=7 {
                pairs += 1;
                let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &XyPiles| {
                    rule_moves(p)
                        .into_iter()
                        .map(|mv| {
                            let mut next = p.clone();
                            next.piles[mv.pile] -= mv.take;
                            next
                        })
                        .collect::<Vec<_>>()
                }));
                let starts = all_vectors(2, 13)
                    .chain(all_vectors(3, 5))
                    .map(|piles| XyPiles {
                        x,
                        y,
                        piles: piles.iter().map(|a| a + 1).collect(),
                    });
                visited += check_strategy::<XyGamePlay>(
                    starts,
                    rule_moves,
                    |p| NimRules::candidate_takes(&p.piles),
                    |p| search.borrow_mut().mover_wins(p),
                );
            }
        }
        assert!(visited >= pairs * (196 + 216), "{visited}");
    }

    #[test]
    fn a_move_onto_a_multiple_is_named() {
        let position = XyGamePlay::parse_position("2 2 3\n5 2\n").unwrap();
        let check = |line: &str| {
            let mv = XyGamePlay::parse_move(line)?;
            XyGamePlay::check_move(&position, mv)
        };
        assert_eq!(
            check("1 1").unwrap_err(),
            "taking 1 from pile 1 leaves 4, a multiple of X = 2"
        );
        assert_eq!(
            check("1 2").unwrap_err(),
            "taking 2 from pile 1 leaves 3, a multiple of Y = 3"
        );
        assert_eq!(
            check("2 2").unwrap_err(),
            "pile 2 holds 2: taking 2 would empty it, and 0 is a multiple of X"
        );
        assert_eq!(check("2 1"), Ok(()));
        assert_eq!(check("1 3").unwrap_err(), "a move takes 1 or 2 stones, not 3");
        let err = XyGamePlay::parse_position("1 3 3\n5\n").unwrap_err();
        assert!(err.to_string().contains("X < Y"), "{err}");
    }

    /// The official sample's games that fit the bounds, with their answers.
    #[test]
    fn the_official_sample_picks_its_sides() {
        let input = XyGamePlay::parse("2\n2 3 5\n4 12\n5 1 2\n1 2 3 4 5\n").unwrap();
        assert_eq!(XyGamePlay::format(&XyGamePlay::solve(&input)), "First\nSecond\n");
    }
}
