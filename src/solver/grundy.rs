//! The Grundy toolkit: mex, Grundy tables over a move function, and a
//! memoised win/lose search. These are the building blocks of the brute-force
//! game searches that every fast solver is checked against, written straight
//! from the rules of each game.

use std::{collections::HashMap, hash::Hash};

/// The minimum excludant: the least non-negative integer not in `values`.
pub fn mex<I: IntoIterator<Item = u64>>(values: I) -> u64 {
    let mut small: u128 = 0;
    let mut large = Vec::new();
    for v in values {
        if v < 128 {
            small |= 1 << v;
        } else {
            large.push(v);
        }
    }
    let m = (!small).trailing_zeros() as u64;
    if m < 128 {
        return m;
    }
    large.sort_unstable();
    large.dedup();
    let mut candidate = 128;
    for v in large {
        if v == candidate {
            candidate += 1;
        } else if v > candidate {
            break;
        }
    }
    candidate
}

/// Grundy values `g(0..=limit)` of a one-pile game whose moves from `v` go to
/// the sizes `moves(v)` (each smaller than `v`). `g(v)` is the mex of the
/// Grundy values of its successors.
pub fn grundy_table(limit: usize, mut moves: impl FnMut(usize, &mut Vec<usize>)) -> Vec<u64> {
    let mut table = Vec::with_capacity(limit + 1);
    let mut successors = Vec::new();
    for v in 0..=limit {
        successors.clear();
        moves(v, &mut successors);
        let g = mex(successors.iter().map(|&w| {
            assert!(w < v, "a move from {v} must go to a smaller size, not {w}");
            table[w]
        }));
        table.push(g);
    }
    table
}

/// Memoised search over a finite game graph without cycles.
pub struct WinLoseSearch<P, F> {
    successors: F,
    /// What a player with no legal move gets: `false` in normal play (they
    /// lose), `true` in misère play of a take-the-last game.
    stuck_player_wins: bool,
    memo: HashMap<P, bool>,
}

impl<P, F> WinLoseSearch<P, F>
where
    P: Clone + Eq + Hash,
    F: FnMut(&P) -> Vec<P>,
{
    /// A normal-play search: the player who cannot move loses.
    pub fn normal_play(successors: F) -> Self {
        WinLoseSearch {
            successors,
            stuck_player_wins: false,
            memo: HashMap::new(),
        }
    }

    /// A search where the player who cannot move wins.
    pub fn stuck_player_wins(successors: F) -> Self {
        WinLoseSearch {
            successors,
            stuck_player_wins: true,
            memo: HashMap::new(),
        }
    }

    /// True if the player to move from `position` wins with perfect play.
    pub fn mover_wins(&mut self, position: &P) -> bool {
        if let Some(&known) = self.memo.get(position) {
            return known;
        }
        let next = (self.successors)(position);
        let wins = if next.is_empty() {
            self.stuck_player_wins
        } else {
            next.iter().any(|p| !self.mover_wins(p))
        };
        self.memo.insert(position.clone(), wins);
        wins
    }
}

/// The positions reachable by replacing one pile `a` with any size in
/// `moves(a)`: the successor function of every game played pile by pile.
/// Each position is sorted, so permutations share one memo entry.
pub fn one_pile_moves<I: IntoIterator<Item = u64>>(
    piles: &[u64],
    moves: impl Fn(u64) -> I,
) -> Vec<Vec<u64>> {
    let mut next = Vec::new();
    for i in 0..piles.len() {
        for smaller in moves(piles[i]) {
            let mut position = piles.to_vec();
            position[i] = smaller;
            position.sort_unstable();
            next.push(position);
        }
    }
    next
}

/// Calls `visit` with every vector of `len` values in `0..=max`.
pub fn for_each_vector(len: usize, max: u64, mut visit: impl FnMut(&[u64])) {
    let mut current = vec![0u64; len];
    loop {
        visit(&current);
        let mut i = 0;
        loop {
            if i == len {
                return;
            }
            if current[i] < max {
                current[i] += 1;
                break;
            }
            current[i] = 0;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_finds_the_least_missing_value() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex(0..200), 200);
        assert_eq!(mex((0..128).chain([129])), 128);
    }

    #[test]
    fn the_grundy_table_of_subtract_one_or_two_is_periodic() {
        let g = grundy_table(9, |v, out| {
            out.extend((1..=2).filter(|&d| d <= v).map(|d| v - d))
        });
        assert_eq!(g, [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
    }

    #[test]
    fn win_lose_search_agrees_with_nim_on_two_piles() {
        let mut search = WinLoseSearch::normal_play(|p: &Vec<u64>| one_pile_moves(p, |a| 0..a));
        for a in 0..6 {
            for b in 0..6 {
                let mut position = vec![a, b];
                position.sort_unstable();
                assert_eq!(search.mover_wins(&position), a != b);
            }
        }
    }

    #[test]
    fn for_each_vector_visits_every_vector_once() {
        let mut seen = Vec::new();
        for_each_vector(2, 2, |v| seen.push(v.to_vec()));
        assert_eq!(seen.len(), 9);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 9);
    }
}
