//! `constrained-nim-play`: AtCoder ABC255 G "Constrained Nim", played
//! against the judge (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each a case of `constrained-nim`'s input
//! (`N M`, the piles, `M` forbidden moves `X_i Y_i`), with smaller bounds.
//! A move is `i y`: take `y ≥ 1` stones from pile `i`, which must hold at
//! least `y`, unless `(a_i, y)` is forbidden. The player with no move loses
//! (a non-empty pile may allow none). A game ends within `ΣA_i ≤ 20,000`
//! moves.
//!
//! The judge's winning move: the pile values come from `constrained-nim`'s
//! [`GrundyTable`] (the official editorial's), tabulated once per game up
//! to the largest pile; with `x` their XOR, it moves a pile `a` whose value
//! `g` has `g ⊕ x < g` to a smaller size of value `g ⊕ x` that a
//! non-forbidden move reaches (the mex says one exists).

use std::sync::Arc;

use super::{
    Outcome, Problem, SeededRng, TestKind,
    constrained_nim::{CaseLimits, GrundyTable, scan_case},
    input::{InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, read_games, xor_conclusion},
    nim_play::{NimRules, Take},
    outcome_lines, push_numbers,
};

pub const MAX_GAMES: usize = 10;
pub const MAX_N: usize = 20;
pub const MAX_M: usize = 1000;
pub const MAX_VALUE: u64 = 1000;

pub struct ConstrainedNimPlay;

/// One game's forbidden moves and the pile values they give.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// `(X, Y)`, sorted and distinct.
    pub forbidden: Vec<(u64, u64)>,
    /// `grundy[n]` for every size up to the game's largest pile.
    grundy: Vec<u64>,
}

impl Rules {
    fn new(forbidden: Vec<(u64, u64)>, largest_pile: u64) -> Rules {
        let table = GrundyTable::build(&forbidden);
        let grundy = (0..=largest_pile).map(|n| table.value(n)).collect();
        Rules { forbidden, grundy }
    }

    fn forbids(&self, pile: u64, take: u64) -> bool {
        self.forbidden.binary_search(&(pile, take)).is_ok()
    }

    fn value(&self, pile: u64) -> u64 {
        self.grundy[pile as usize]
    }
}

/// A game in play: its rules and the piles.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Piles {
    pub rules: Arc<Rules>,
    pub piles: Vec<u64>,
}

impl Piles {
    fn xor(&self) -> u64 {
        self.piles.iter().fold(0, |x, &a| x ^ self.rules.value(a))
    }

    /// The legal takes from pile `pile`.
    fn takes(&self, pile: usize) -> impl Iterator<Item = u64> + '_ {
        let a = self.piles[pile];
        (1..=a).filter(move |&y| !self.rules.forbids(a, y))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstrainedNimPlayInput {
    pub games: Vec<Piles>,
}

const LIMITS: CaseLimits = CaseLimits {
    n: MAX_N,
    m: MAX_M,
    value: MAX_VALUE,
    min_pile: 1,
};

fn scan_game(s: &mut Scanner<'_>, limits: &CaseLimits) -> Result<Piles, InputError> {
    let input = scan_case(s, limits)?;
    let largest = input.piles().iter().copied().max().unwrap_or(0);
    Ok(Piles {
        rules: Arc::new(Rules::new(input.forbidden().to_vec(), largest)),
        piles: input.piles().to_vec(),
    })
}

/// Every winning move: to a size of value `g ⊕ x`, by a move not forbidden.
fn winning_takes(position: &Piles) -> Vec<Take> {
    let x = position.xor();
    if x == 0 {
        return Vec::new();
    }
    let rules = &position.rules;
    let mut moves = Vec::new();
    for (pile, &a) in position.piles.iter().enumerate() {
        let target = rules.value(a) ^ x;
        moves.extend(
            position
                .takes(pile)
                .filter(|&y| rules.value(a - y) == target)
                .map(|take| Take { pile, take }),
        );
    }
    moves
}

impl Game for ConstrainedNimPlay {
    type Position = Piles;
    type Move = Take;
    const MOVE_FORMAT: &'static str = "i y (take y stones from pile i, unless forbidden)";

    fn write_position(position: &Piles, out: &mut String) {
        let forbidden = &position.rules.forbidden;
        push_numbers(
            out,
            [position.piles.len() as u64, forbidden.len() as u64],
        );
        push_numbers(out, position.piles.iter().copied());
        for &(x, y) in forbidden {
            push_numbers(out, [x, y]);
        }
    }

    fn parse_move(line: &str) -> Result<Take, String> {
        NimRules::parse_take(line).map_err(|e| e.replace("`i k`", "`i y`").replace("`k`", "`y`"))
    }

    fn check_move(position: &Piles, mv: Take) -> Result<(), String> {
        NimRules::check_take(&position.piles, mv)?;
        let a = position.piles[mv.pile];
        if position.rules.forbids(a, mv.take) {
            return Err(format!(
                "taking {} from pile {} of {a} is forbidden (X = {a}, Y = {})",
                mv.take,
                mv.pile + 1,
                mv.take
            ));
        }
        Ok(())
    }

    fn play(position: &mut Piles, mv: Take) {
        position.piles[mv.pile] -= mv.take;
    }

    fn write_move(mv: Take, out: &mut String) {
        NimRules::write_take(mv, out);
    }

    fn winning_move(position: &Piles) -> Option<Take> {
        let x = position.xor();
        if x == 0 {
            return None;
        }
        let rules = &position.rules;
        position.piles.iter().enumerate().find_map(|(pile, &a)| {
            let target = rules.value(a) ^ x;
            if target >= rules.value(a) {
                return None;
            }
            position
                .takes(pile)
                .find(|&y| rules.value(a - y) == target)
                .map(|take| Take { pile, take })
        })
    }

    fn any_move(position: &Piles, rng: &mut SeededRng) -> Option<Take> {
        let open: Vec<usize> = (0..position.piles.len())
            .filter(|&pile| position.takes(pile).next().is_some())
            .collect();
        if open.is_empty() {
            return None;
        }
        let pile = *rng.pick(&open);
        let takes: Vec<u64> = position.takes(pile).collect();
        Some(Take {
            pile,
            take: *rng.pick(&takes),
        })
    }

    /// One case in the input's format, a pile of 0 allowed.
    fn parse_position(text: &str) -> Result<Piles, InputError> {
        let mut s = Scanner::new(text);
        let position = scan_game(
            &mut s,
            &CaseLimits {
                min_pile: 0,
                ..LIMITS
            },
        )?;
        s.finish()?;
        Ok(position)
    }

    /// Three or four piles up to 12 and a few forbidden moves; half the
    /// time the first pile is set to make the XOR 0 (a losing first player).
    fn deal(rng: &mut SeededRng) -> Piles {
        let mut piles: Vec<u64> = (0..rng.range_usize(3, 4)).map(|_| rng.range(1, 12)).collect();
        let mut forbidden = std::collections::BTreeSet::new();
        for _ in 0..rng.range_usize(3, 6) {
            let x = rng.range(1, 12);
            forbidden.insert((x, rng.range(1, x)));
        }
        let rules = Rules::new(forbidden.into_iter().collect(), 12);
        if rng.chance(1, 2) {
            let rest = piles[1..].iter().fold(0, |x, &a| x ^ rules.value(a));
            if let Some(size) = (1..=12).find(|&a| rules.value(a) == rest) {
                piles[0] = size;
            }
        }
        Piles {
            rules: Arc::new(rules),
            piles,
        }
    }

    fn winning_moves(position: &Piles) -> Vec<Take> {
        winning_takes(position)
    }

    fn explain(position: &Piles) -> Vec<String> {
        let rules = &position.rules;
        let values: Vec<String> = position
            .piles
            .iter()
            .map(|&a| format!("{a} → {}", rules.value(a)))
            .collect();
        let x = position.xor();
        vec![
            "A pile's Grundy value g(a) is the smallest value not among those of the sizes a move reaches; without a forbidden move it would be a itself, and each forbidden move (a, y) may hide the value of a − y.".to_string(),
            format!("The piles' values: {}.", values.join(", ")),
            format!("Their XOR is {x}."),
            xor_conclusion(x != 0, "move a pile to a size whose value makes the XOR 0, by a move that is not forbidden."),
        ]
    }
}

impl Problem for ConstrainedNimPlay {
    const ID: &'static str = "constrained-nim-play";
    const INTERACTIVE: bool = true;
    type Input = ConstrainedNimPlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<ConstrainedNimPlayInput, InputError> {
        Ok(ConstrainedNimPlayInput {
            games: read_games(text, MAX_GAMES, |s, _| scan_game(s, &LIMITS))?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &ConstrainedNimPlayInput) -> Vec<Outcome> {
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
        // (games, N, largest pile, M, largest X)
        let (count, max_n, max_a, max_m, max_x) = match kind {
            TestKind::Small => (6, 4, 8, 5, 8),
            TestKind::Edge => (1, MAX_N, MAX_VALUE, MAX_M, MAX_VALUE),
            TestKind::Random => (6, MAX_N, MAX_VALUE, MAX_M, MAX_VALUE),
            TestKind::Max => (MAX_GAMES, MAX_N, MAX_VALUE, MAX_M, MAX_VALUE),
        };
        // (piles, forbidden moves) of each game.
        type GameParts = (Vec<u64>, Vec<(u64, u64)>);
        let mut games: Vec<GameParts> = (0..count)
            .map(|_| {
                let (n, m) = if kind == TestKind::Max {
                    (max_n, max_m)
                } else {
                    (rng.range_usize(1, max_n), rng.range_usize(1, max_m))
                };
                let low = if kind == TestKind::Max { max_a / 2 } else { 1 };
                let piles = (0..n).map(|_| rng.range(low, max_a)).collect();
                let mut forbidden = std::collections::BTreeSet::new();
                while forbidden.len() < m.min((max_x * (max_x + 1) / 2) as usize) {
                    let x = rng.range(1, max_x);
                    forbidden.insert((x, rng.range(1, x)));
                }
                (piles, forbidden.into_iter().collect())
            })
            .collect();
        if kind == TestKind::Edge {
            // A lone pile whose only move is forbidden; the largest pile
            // with every move from it forbidden but one; the largest game.
            games = vec![
                (vec![1], vec![(1, 1)]),
                (vec![MAX_VALUE], (2..=MAX_VALUE).map(|y| (MAX_VALUE, y)).take(MAX_M).collect()),
                games.swap_remove(0),
            ];
        }
        let mut out = String::new();
        push_numbers(&mut out, [games.len() as u64]);
        for (piles, mut forbidden) in games {
            forbidden.sort_unstable();
            let largest = piles.iter().copied().max().unwrap_or(0);
            ConstrainedNimPlay::write_position(
                &Piles {
                    rules: Arc::new(Rules::new(forbidden, largest)),
                    piles,
                },
                &mut out,
            );
        }
        out
    }

    fn referee(input: &ConstrainedNimPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<ConstrainedNimPlay>::new(
            input.games.clone(),
            seed,
        )))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<ConstrainedNimPlay>::NEW)
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
    fn rule_moves(position: &Piles) -> Vec<Take> {
        let mut moves = Vec::new();
        for (pile, &a) in position.piles.iter().enumerate() {
            for take in 1..=a {
                if !position.rules.forbidden.contains(&(a, take)) {
                    moves.push(Take { pile, take });
                }
            }
        }
        moves
    }

    /// For 40 random sets of forbidden moves among sizes up to 6, every
    /// position of two piles up to 6 and three up to 4, against a search
    /// from the rules (which knows nothing of Grundy values).
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let mut rng = SeededRng::new(255);
        let mut visited = 0;
        for set in 0..40 {
            let mut forbidden = std::collections::BTreeSet::new();
            for _ in 0..rng.range_usize(1, 3 + set % 8) {
                let x = rng.range(1, 6);
                forbidden.insert((x, rng.range(1, x)));
            }
            let rules = Arc::new(Rules::new(forbidden.into_iter().collect(), 6));
            let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &Piles| {
                rule_moves(p)
                    .into_iter()
                    .map(|mv| {
                        let mut next = p.clone();
                        next.piles[mv.pile] -= mv.take;
                        next
                    })
                    .collect::<Vec<_>>()
            }));
            let starts = all_vectors(2, 6)
                .chain(all_vectors(3, 4))
                .map(|piles| Piles {
                    rules: Arc::clone(&rules),
                    piles,
                });
            visited += check_strategy::<ConstrainedNimPlay>(
                starts,
                rule_moves,
                |p| NimRules::candidate_takes(&p.piles),
                |p| search.borrow_mut().mover_wins(p),
            );
        }
        assert!(visited >= 40 * (49 + 125), "{visited}");
    }

    #[test]
    fn a_forbidden_move_is_named() {
        let position = ConstrainedNimPlay::parse_position("2 2\n5 0\n5 2\n3 3\n").unwrap();
        let check = |line: &str| {
            let mv = ConstrainedNimPlay::parse_move(line)?;
            ConstrainedNimPlay::check_move(&position, mv)
        };
        assert_eq!(check("1 3"), Ok(()));
        assert_eq!(
            check("1 2").unwrap_err(),
            "taking 2 from pile 1 of 5 is forbidden (X = 5, Y = 2)"
        );
        assert_eq!(check("2 1").unwrap_err(), "pile 2 holds 0, fewer than 1");
        assert_eq!(check("1").unwrap_err(), "expected two integers `i y`");
        // A testcase's piles hold at least one stone.
        let err = ConstrainedNimPlay::parse("1\n2 1\n5 0\n5 2\n").unwrap_err();
        assert!(err.to_string().contains("A_2 = 0"), "{err}");
    }

    /// The official samples of `constrained-nim`, as games.
    #[test]
    fn the_official_samples_pick_their_sides() {
        let input = ConstrainedNimPlay::parse("2\n3 4\n1 2 4\n2 1\n3 3\n3 1\n1 1\n1 5\n5\n5 1\n5 2\n5 3\n5 4\n5 5\n").unwrap();
        assert_eq!(
            ConstrainedNimPlay::format(&ConstrainedNimPlay::solve(&input)),
            "First\nSecond\n"
        );
    }
}
