//! `playing-with-stones-play`: "Playing With Stones" (UVa 1482), played
//! against the judge (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each a case of `playing-with-stones`'s input
//! (`N`, then `a_1 … a_N`). A move is `i t`: take `t` stones from pile `i`,
//! `1 ≤ t ≤ ⌊a_i / 2⌋` (a pile of one stone is dead). The player with no move
//! loses. A game ends within `Σa_i ≤ 100,000` moves.
//!
//! The judge's winning move: a pile's Grundy value `g(a)` is `a/2` for even
//! `a` and `g(⌊a/2⌋)` for odd `a`, so the sizes of value `v` are `2v` and
//! `(2v+1)·2^j − 1` (j ≥ 1). With `x` the XOR, a pile `a` of value `g` with
//! `g ⊕ x < g` moves to the size of value `g ⊕ x` within `⌈a/2⌉ … a−1`
//! (there is one: the mex says every smaller value is reachable).

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::InputError,
    interactive::{Game, Match, Practice, Practiced, Referee, xor_conclusion},
    nim_play::{self, NimRules, Take},
    outcome_lines,
    playing_with_stones::pile_grundy,
};

pub struct PlayingWithStonesPlay;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayingWithStonesPlayInput {
    /// One pile list per game.
    pub games: Vec<Vec<u64>>,
}

fn xor(piles: &[u64]) -> u64 {
    piles.iter().fold(0, |x, &a| x ^ pile_grundy(a))
}

/// The sizes of Grundy value `value`, smallest first, up to `below`.
fn sizes_of_value(value: u64, below: u64) -> impl Iterator<Item = u64> {
    let odd = (1..63u32)
        .map(move |j| (2 * value + 1).saturating_mul(1 << j).saturating_sub(1))
        .take_while(move |&n| n < below);
    std::iter::once(2 * value)
        .filter(move |&n| n < below)
        .chain(odd)
}

/// Half the time, makes the first player lose: the first pile becomes the
/// smallest size worth the XOR of the others.
fn maybe_losing(piles: &mut [u64], rng: &mut SeededRng) {
    if piles.len() >= 2 && rng.chance(1, 2) {
        let rest = xor(&piles[1..]);
        if let Some(size) = sizes_of_value(rest, nim_play::MAX_A + 1).find(|&n| n >= 1) {
            piles[0] = size;
        }
    }
}

/// Every winning move: to a size of value `g ⊕ x` in reach.
fn winning_takes(piles: &[u64]) -> Vec<Take> {
    let x = xor(piles);
    if x == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    for (pile, &a) in piles.iter().enumerate() {
        let target = pile_grundy(a) ^ x;
        // Reachable sizes: a - ⌊a/2⌋ ..= a - 1.
        let lowest = a - a / 2;
        for size in sizes_of_value(target, a) {
            if size >= lowest {
                moves.push(Take {
                    pile,
                    take: a - size,
                });
            }
        }
    }
    moves
}

impl Game for PlayingWithStonesPlay {
    type Position = Vec<u64>;
    type Move = Take;
    const MOVE_FORMAT: &'static str = "i t (take t stones from pile i, at most half of it)";

    fn write_position(piles: &Vec<u64>, out: &mut String) {
        NimRules::write_piles(piles, out);
    }

    fn parse_move(line: &str) -> Result<Take, String> {
        NimRules::parse_take(line).map_err(|e| e.replace("`i k`", "`i t`").replace("`k`", "`t`"))
    }

    fn check_move(piles: &Vec<u64>, mv: Take) -> Result<(), String> {
        let Some(&a) = piles.get(mv.pile) else {
            return Err(format!(
                "there is no pile {} (the piles are 1 to {})",
                mv.pile.wrapping_add(1),
                piles.len()
            ));
        };
        if mv.take == 0 {
            return Err("a move takes at least one stone".to_string());
        }
        if mv.take > a / 2 {
            return Err(format!(
                "pile {} holds {a}: a move takes at most {} of it, not {}",
                mv.pile + 1,
                a / 2,
                mv.take
            ));
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
        winning_takes(piles).into_iter().next()
    }

    fn any_move(piles: &Vec<u64>, rng: &mut SeededRng) -> Option<Take> {
        let open: Vec<usize> = (0..piles.len()).filter(|&i| piles[i] >= 2).collect();
        if open.is_empty() {
            return None;
        }
        let pile = *rng.pick(&open);
        Some(Take {
            pile,
            take: rng.range(1, piles[pile] / 2),
        })
    }

    fn parse_position(text: &str) -> Result<Vec<u64>, InputError> {
        nim_play::parse_piles(text, 1, ("N", "a_i"))
    }

    fn deal(rng: &mut SeededRng) -> Vec<u64> {
        let mut piles: Vec<u64> = (0..rng.range_usize(3, 5)).map(|_| rng.range(1, 30)).collect();
        maybe_losing(&mut piles, rng);
        piles
    }

    fn winning_moves(piles: &Vec<u64>) -> Vec<Take> {
        winning_takes(piles)
    }

    fn explain(piles: &Vec<u64>) -> Vec<String> {
        let values: Vec<String> = piles
            .iter()
            .map(|&a| format!("{a} → {}", pile_grundy(a)))
            .collect();
        let x = xor(piles);
        vec![
            "A pile's Grundy value: a/2 for an even size a, and the value of ⌊a/2⌋ for an odd one (a pile of 1 is worth 0).".to_string(),
            format!("The piles' values: {}.", values.join(", ")),
            format!("Their XOR is {x}."),
            xor_conclusion(x != 0, "move a pile to a size whose value makes the XOR 0."),
        ]
    }
}

impl Problem for PlayingWithStonesPlay {
    const ID: &'static str = "playing-with-stones-play";
    const INTERACTIVE: bool = true;
    type Input = PlayingWithStonesPlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<PlayingWithStonesPlayInput, InputError> {
        Ok(PlayingWithStonesPlayInput {
            games: nim_play::parse_games(text, 1, ("N", "a_i"))?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &PlayingWithStonesPlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|piles| Outcome::from_first_wins(xor(piles) != 0))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        nim_play::render_games(&nim_play::generate_games(kind, rng, 1, |piles, rng| maybe_losing(piles, rng)))
    }

    fn referee(input: &PlayingWithStonesPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<PlayingWithStonesPlay>::new(
            input.games.clone(),
            seed,
        )))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<PlayingWithStonesPlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        grundy::{WinLoseSearch, all_vectors, one_pile_moves},
        interactive::check_strategy,
    };

    /// Every legal move, from the rules.
    fn rule_moves(piles: &[u64]) -> Vec<Take> {
        piles
            .iter()
            .enumerate()
            .flat_map(|(pile, &a)| (1..=a / 2).map(move |take| Take { pile, take }))
            .collect()
    }

    /// Every position of one pile up to 200, two up to 30 and three up to
    /// 12 (and what they reach), against a search from the rules.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &Vec<u64>| {
            one_pile_moves(p, |a| (a - a / 2)..a)
        }));
        let piles = |len: usize, most: u64| {
            all_vectors(len, most - 1).map(|v| v.iter().map(|a| a + 1).collect::<Vec<u64>>())
        };
        let starts = piles(1, 200).chain(piles(2, 30)).chain(piles(3, 12));
        let visited = check_strategy::<PlayingWithStonesPlay>(
            starts,
            |p| rule_moves(p),
            |p| NimRules::candidate_takes(p),
            |p| search.borrow_mut().mover_wins(p),
        );
        assert!(visited >= 200 + 900 + 1728, "{visited}");
    }

    #[test]
    fn the_sizes_of_a_value_have_that_value() {
        for value in 0..50 {
            let sizes: Vec<u64> = sizes_of_value(value, 100_000).collect();
            assert!(sizes.len() > 3);
            for size in sizes {
                assert_eq!(pile_grundy(size), value, "{size}");
            }
        }
        // And nothing else has it, below 2,000.
        for size in 0..2000 {
            let value = pile_grundy(size);
            assert!(sizes_of_value(value, 2000).any(|n| n == size), "{size}");
        }
    }

    #[test]
    fn a_move_over_half_is_named() {
        let piles = vec![7, 1];
        let check = |line: &str| {
            let mv = PlayingWithStonesPlay::parse_move(line)?;
            PlayingWithStonesPlay::check_move(&piles, mv)
        };
        assert_eq!(check("1 3"), Ok(()));
        assert_eq!(
            check("1 4").unwrap_err(),
            "pile 1 holds 7: a move takes at most 3 of it, not 4"
        );
        assert_eq!(
            check("2 1").unwrap_err(),
            "pile 2 holds 1: a move takes at most 0 of it, not 1"
        );
        assert_eq!(check("1").unwrap_err(), "expected two integers `i t`");
    }
}
