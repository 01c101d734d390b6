//! `nim-k-play`: Moore's Nim_K, played against the judge (see
//! [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each in `nim-k`'s input format (`N K`, then
//! `A_1 … A_N`). A move is one line `m i_1 t_1 … i_m t_m`: take `t_j ≥ 1`
//! stones from pile `i_j`, for `1 ≤ m ≤ K` distinct piles. The player with no
//! move (every pile empty) loses. A game ends within `ΣA_i ≤ 100,000` moves.
//!
//! The judge's winning move (Moore 1910), bit by bit from the highest: with
//! `c` the piles not yet touched that have the bit set and `r` the piles
//! touched above (whose lower bits are free), make the column a multiple of
//! `K + 1`: if `c mod (K+1) = m ≠ 0`, either set the bit in `K + 1 − m` touched
//! piles (if `r` allows) or touch `m` more piles that have it, clearing it
//! (then `r + m ≤ K`). A pile touched at a bit loses that bit with its higher
//! bits unchanged, so it shrinks whatever its lower bits become.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee},
    nim_k::moore_first_wins,
    outcome_lines, push_numbers, push_u64,
};

pub const MAX_GAMES: usize = 20;
pub const MAX_N: usize = 100;
pub const MAX_K: u64 = 10;
pub const MAX_A: u64 = 1000;
/// Bits of the largest pile.
const BITS: u32 = 10;

pub struct NimKPlay;

/// A position: K and the piles.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NimKPosition {
    pub k: u64,
    pub piles: Vec<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NimKPlayInput {
    pub games: Vec<NimKPosition>,
}

/// A move: `(pile, stones taken)` for up to K distinct piles (piles from
/// 0), in the order written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Takes {
    len: usize,
    takes: [(usize, u64); MAX_K as usize],
}

impl Takes {
    pub fn new(list: &[(usize, u64)]) -> Takes {
        let mut takes = [(0, 0); MAX_K as usize];
        takes[..list.len()].copy_from_slice(list);
        Takes {
            len: list.len(),
            takes,
        }
    }

    pub fn list(&self) -> &[(usize, u64)] {
        &self.takes[..self.len]
    }

    /// The same takes in pile order, so that equal moves compare equal.
    pub fn sorted(mut self) -> Takes {
        self.takes[..self.len].sort_unstable();
        self
    }
}

/// Moore's winning move, or `None` if the mover loses.
pub fn moore_move(position: &NimKPosition) -> Option<Takes> {
    let modulus = position.k + 1;
    let mut new = position.piles.clone();
    let mut touched = vec![false; new.len()];
    let mut touched_count = 0u64;
    for bit in (0..BITS).rev() {
        let mask = 1u64 << bit;
        let fixed: Vec<usize> = (0..new.len())
            .filter(|&i| !touched[i] && new[i] & mask != 0)
            .collect();
        let m = fixed.len() as u64 % modulus;
        // Touched piles' bits below their touching bit are free: clear them
        // all first, then set what the column needs.
        for i in (0..new.len()).filter(|&i| touched[i]) {
            new[i] &= !mask;
        }
        if m == 0 {
            continue;
        }
        if touched_count >= modulus - m {
            let mut need = modulus - m;
            for i in 0..new.len() {
                if need > 0 && touched[i] {
                    new[i] |= mask;
                    need -= 1;
                }
            }
        } else {
            for &i in fixed.iter().take(m as usize) {
                touched[i] = true;
                new[i] &= !mask;
                touched_count += 1;
            }
        }
    }
    let takes: Vec<(usize, u64)> = (0..new.len())
        .filter(|&i| touched[i])
        .map(|i| (i, position.piles[i] - new[i]))
        .collect();
    (!takes.is_empty()).then(|| Takes::new(&takes))
}

impl Game for NimKPlay {
    type Position = NimKPosition;
    type Move = Takes;
    const MOVE_FORMAT: &'static str =
        "m i_1 t_1 … i_m t_m (take t_j stones from pile i_j, 1 ≤ m ≤ K distinct piles)";

    fn write_position(position: &NimKPosition, out: &mut String) {
        push_numbers(out, [position.piles.len() as u64, position.k]);
        push_numbers(out, position.piles.iter().copied());
    }

    fn parse_move(line: &str) -> Result<Takes, String> {
        let numbers: Vec<u64> = line
            .split_ascii_whitespace()
            .map(|w| {
                w.parse::<u64>()
                    .map_err(|_| format!("`{w}` is not a non-negative integer"))
            })
            .collect::<Result<_, _>>()?;
        let Some((&m, pairs)) = numbers.split_first() else {
            return Err("expected `m` and m pairs `i t`".to_string());
        };
        if m == 0 || m > MAX_K {
            return Err(format!("m must be from 1 to K, not {m}"));
        }
        if pairs.len() as u64 != 2 * m {
            return Err(format!(
                "m = {m} needs {} more integers, not {}",
                2 * m,
                pairs.len()
            ));
        }
        let takes: Vec<(usize, u64)> = pairs
            .chunks(2)
            .map(|pair| {
                (
                    usize::try_from(pair[0]).unwrap_or(usize::MAX).wrapping_sub(1),
                    pair[1],
                )
            })
            .collect();
        Ok(Takes::new(&takes))
    }

    fn check_move(position: &NimKPosition, mv: Takes) -> Result<(), String> {
        if mv.len as u64 > position.k {
            return Err(format!(
                "a move touches at most K = {} piles, not {}",
                position.k, mv.len
            ));
        }
        for (j, &(pile, take)) in mv.list().iter().enumerate() {
            let Some(&stones) = position.piles.get(pile) else {
                return Err(format!(
                    "there is no pile {} (the piles are 1 to {})",
                    pile.wrapping_add(1),
                    position.piles.len()
                ));
            };
            if mv.list()[..j].iter().any(|&(other, _)| other == pile) {
                return Err(format!("pile {} is named twice", pile + 1));
            }
            if take == 0 {
                return Err(format!("a move takes at least one stone from pile {}", pile + 1));
            }
            if take > stones {
                return Err(format!("pile {} holds {stones}, fewer than {take}", pile + 1));
            }
        }
        Ok(())
    }

    fn play(position: &mut NimKPosition, mv: Takes) {
        for &(pile, take) in mv.list() {
            position.piles[pile] -= take;
        }
    }

    fn write_move(mv: Takes, out: &mut String) {
        push_u64(out, mv.len as u64);
        for &(pile, take) in mv.list() {
            out.push(' ');
            push_u64(out, pile as u64 + 1);
            out.push(' ');
            push_u64(out, take);
        }
    }

    fn winning_move(position: &NimKPosition) -> Option<Takes> {
        moore_move(position)
    }

    fn any_move(position: &NimKPosition, rng: &mut SeededRng) -> Option<Takes> {
        let mut open: Vec<usize> = (0..position.piles.len())
            .filter(|&i| position.piles[i] > 0)
            .collect();
        if open.is_empty() {
            return None;
        }
        rng.shuffle(&mut open);
        let m = rng.range_usize(1, open.len().min(position.k as usize));
        let takes: Vec<(usize, u64)> = open[..m]
            .iter()
            .map(|&i| (i, rng.range(1, position.piles[i])))
            .collect();
        Some(Takes::new(&takes).sorted())
    }

    /// A practice position is smaller than a testcase's: its explanation
    /// lists every winning move by trying every move, which only small
    /// positions afford (a form may send any position).
    fn parse_position(text: &str) -> Result<NimKPosition, InputError> {
        let mut s = Scanner::new(text);
        let position = scan_position(&mut s, PRACTICE_BOUNDS)?;
        s.finish()?;
        Ok(position)
    }

    fn deal(rng: &mut SeededRng) -> NimKPosition {
        loop {
            let k = rng.range(1, 3);
            let piles = (0..rng.range_usize(3, 5)).map(|_| rng.range(1, 15)).collect();
            let mut position = NimKPosition { k, piles };
            maybe_losing(&mut position, rng);
            // Cutting the columns may empty every pile: deal again.
            if position.piles.iter().any(|&a| a > 0) {
                return position;
            }
        }
    }

    fn winning_moves(position: &NimKPosition) -> Vec<Takes> {
        // Every move to a losing position. Moore's rule finds one; the
        // others are found by trying every move, which only small
        // positions (practice) afford.
        if moore_move(position).is_none() {
            return Vec::new();
        }
        all_moves(position)
            .into_iter()
            .filter(|&mv| {
                let mut after = position.clone();
                NimKPlay::play(&mut after, mv);
                moore_move(&after).is_none()
            })
            .collect()
    }

    fn explain(position: &NimKPosition) -> Vec<String> {
        let modulus = position.k + 1;
        let mut columns = Vec::new();
        for bit in (0..BITS).rev() {
            let count = position
                .piles
                .iter()
                .filter(|&&a| a & (1 << bit) != 0)
                .count();
            if count > 0 {
                columns.push(format!("2^{bit}: {count}"));
            }
        }
        let losing = moore_move(position).is_none();
        vec![
            format!(
                "Write the piles in binary and count, for each bit, the piles that have it (Moore's rule for K = {}).",
                position.k
            ),
            format!("The counts: {}.", if columns.is_empty() { "none".to_string() } else { columns.join(", ") }),
            if losing {
                format!("Every count is a multiple of K + 1 = {modulus}, so the player to move loses.")
            } else {
                format!("Some count is not a multiple of K + 1 = {modulus}, so the player to move wins: change at most K piles so that every count is.")
            },
        ]
    }
}

/// Every legal move of a small position (tests and the explanations of
/// practice positions): every set of at most K piles, every amount.
fn all_moves(position: &NimKPosition) -> Vec<Takes> {
    let mut moves = Vec::new();
    let n = position.piles.len();
    let mut chosen: Vec<(usize, u64)> = Vec::new();
    fn walk(
        position: &NimKPosition,
        from: usize,
        chosen: &mut Vec<(usize, u64)>,
        moves: &mut Vec<Takes>,
        n: usize,
    ) {
        if !chosen.is_empty() {
            moves.push(Takes::new(chosen));
        }
        if chosen.len() as u64 == position.k {
            return;
        }
        for pile in from..n {
            for take in 1..=position.piles[pile] {
                chosen.push((pile, take));
                walk(position, pile + 1, chosen, moves, n);
                chosen.pop();
            }
        }
    }
    walk(position, 0, &mut chosen, &mut moves, n);
    moves
}

/// The largest N, K and A_i a position may have.
type Bounds = (usize, u64, u64);
const TESTCASE_BOUNDS: Bounds = (MAX_N, MAX_K, MAX_A);
/// Practice positions: at most 6 piles of 15, K ≤ 3, so that every move
/// (under 72,000) can be tried.
const PRACTICE_BOUNDS: Bounds = (6, 3, 15);

fn scan_position(
    s: &mut Scanner<'_>,
    (max_n, max_k, max_a): Bounds,
) -> Result<NimKPosition, InputError> {
    let n = s.usize(Field::new("N"), 1, max_n)?;
    let k = s.u64(Field::new("K"), 1, max_k)?;
    let mut piles = Vec::with_capacity(n);
    for i in 1..=n {
        piles.push(s.u64(Field::new("A_i").at(i), 0, max_a)?);
    }
    Ok(NimKPosition { k, piles })
}

/// Half the time, makes the first player lose: each column is cut down to
/// a multiple of K + 1 by clearing the bit in the last piles that have it.
fn maybe_losing(position: &mut NimKPosition, rng: &mut SeededRng) {
    if !rng.chance(1, 2) {
        return;
    }
    let modulus = position.k + 1;
    for bit in 0..BITS {
        let mask = 1u64 << bit;
        let holders: Vec<usize> = (0..position.piles.len())
            .filter(|&i| position.piles[i] & mask != 0)
            .collect();
        let extra = holders.len() as u64 % modulus;
        for &i in holders.iter().rev().take(extra as usize) {
            position.piles[i] &= !mask;
        }
    }
}

impl Problem for NimKPlay {
    const ID: &'static str = "nim-k-play";
    const INTERACTIVE: bool = true;
    type Input = NimKPlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<NimKPlayInput, InputError> {
        let mut s = Scanner::new(text);
        let g = s.usize(Field::new("G"), 1, MAX_GAMES)?;
        let mut games = Vec::with_capacity(g);
        for _ in 0..g {
            games.push(scan_position(&mut s, TESTCASE_BOUNDS)?);
        }
        s.finish()?;
        Ok(NimKPlayInput { games })
    }

    /// Which side wins each game.
    fn solve(input: &NimKPlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|p| Outcome::from_first_wins(moore_first_wins(&p.piles, p.k)))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let (count, max_n, max_a) = match kind {
            TestKind::Small => (5, 4, 7),
            TestKind::Edge => (4, MAX_N, MAX_A),
            TestKind::Random => (10, 30, MAX_A),
            TestKind::Max => (MAX_GAMES, MAX_N, MAX_A),
        };
        let games: Vec<NimKPosition> = (0..count)
            .map(|index| {
                let k = rng.range(1, MAX_K);
                let piles = match (kind, index) {
                    (TestKind::Edge, 0) => vec![0],
                    (TestKind::Edge, 1) => vec![MAX_A; MAX_N],
                    (TestKind::Edge, 2) => vec![1; 11],
                    (TestKind::Edge, _) => vec![MAX_A, MAX_A - 1, 1],
                    (TestKind::Max, _) => (0..max_n).map(|_| rng.range(max_a / 2, max_a)).collect(),
                    _ => (0..rng.range_usize(1, max_n))
                        .map(|_| rng.range(0, max_a))
                        .collect(),
                };
                let mut position = NimKPosition { k, piles };
                if kind != TestKind::Edge {
                    maybe_losing(&mut position, rng);
                }
                position
            })
            .collect();
        let mut out = String::new();
        push_numbers(&mut out, [games.len() as u64]);
        for game in &games {
            NimKPlay::write_position(game, &mut out);
        }
        out
    }

    fn referee(input: &NimKPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<NimKPlay>::new(input.games.clone(), seed)))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<NimKPlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{grundy::WinLoseSearch, interactive::check_strategy};

    /// Every position of up to four piles of up to 3 stones, for K = 1, 2
    /// and 3, against a search from the rules (every set of at most K piles,
    /// every amount); the move check against the rules' moves and against
    /// broken ones (a pile twice, too many piles, nothing taken, too much).
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &NimKPosition| {
            all_moves(p)
                .into_iter()
                .map(|mv| {
                    let mut next = p.clone();
                    NimKPlay::play(&mut next, mv);
                    next
                })
                .collect()
        }));
        let mut starts = Vec::new();
        for k in 1..=3 {
            for len in 1..=4 {
                for piles in crate::solver::grundy::all_vectors(len, 3) {
                    starts.push(NimKPosition { k, piles });
                }
            }
        }
        let visited = check_strategy::<NimKPlay>(
            starts,
            |p| all_moves(p).into_iter().map(Takes::sorted).collect(),
            |p| {
                let mut candidates: Vec<Takes> =
                    all_moves(p).into_iter().map(Takes::sorted).collect();
                let n = p.piles.len();
                for pile in 0..=n {
                    candidates.push(Takes::new(&[(pile, 0)]));
                    candidates.push(Takes::new(&[(pile, 4)]));
                    candidates.push(Takes::new(&[(pile, 1), (pile, 1)]));
                }
                candidates.push(Takes::new(&[(0, 1), (1, 1), (2, 1), (3, 1)]));
                candidates
            },
            |p| search.borrow_mut().mover_wins(p),
        );
        assert!(visited >= 3 * (4 + 16 + 64 + 256), "{visited}");
    }

    #[test]
    fn a_practice_position_is_small_enough_to_try_every_move() {
        let practice = NimKPlay::practice().unwrap();
        let error = practice.explain("7 3\n1 1 1 1 1 1 1\n").unwrap_err();
        assert!(error.contains("N = 7 violates the constraint 1 ≤ N ≤ 6"), "{error}");
        let error = practice.explain("2 4\n1 1\n").unwrap_err();
        assert!(error.contains("K = 4"), "{error}");
        let error = practice.explain("2 3\n16 1\n").unwrap_err();
        assert!(error.contains("A_1 = 16"), "{error}");
        // The largest practice position: every move tried, the winning
        // ones listed.
        let largest = practice.explain("6 3\n15 15 15 15 15 14\n").unwrap();
        assert!(largest.mover_wins && !largest.winning_moves.is_empty());
    }

    #[test]
    fn a_move_names_what_is_wrong() {
        let position = NimKPosition {
            k: 2,
            piles: vec![3, 5, 0],
        };
        let check = |line: &str| {
            let mv = NimKPlay::parse_move(line)?;
            NimKPlay::check_move(&position, mv)
        };
        assert_eq!(check("2 1 3 2 5"), Ok(()));
        assert_eq!(check("3 1 1 2 1 3 1").unwrap_err(), "a move touches at most K = 2 piles, not 3");
        assert_eq!(check("2 1 1 1 1").unwrap_err(), "pile 1 is named twice");
        assert_eq!(check("1 3 1").unwrap_err(), "pile 3 holds 0, fewer than 1");
        assert_eq!(check("2 1 1").unwrap_err(), "m = 2 needs 4 more integers, not 2");
        assert_eq!(check("0").unwrap_err(), "m must be from 1 to K, not 0");
    }

    #[test]
    fn the_outcome_agrees_with_the_base_problem() {
        for kind in TestKind::ALL {
            for seed in 1..=5 {
                let text = crate::solver::find(NimKPlay::ID).unwrap().generate(kind, seed);
                let input = NimKPlay::parse(&text).unwrap();
                for game in &input.games {
                    assert_eq!(
                        moore_move(game).is_some(),
                        moore_first_wins(&game.piles, game.k),
                        "{game:?}"
                    );
                }
            }
        }
    }
}
