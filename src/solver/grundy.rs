//! The brute-force toolkit: mex, Grundy tables over a move function, a
//! memoised win/lose search, and [`agrees_with_search`], the one harness
//! through which every fast solver is compared with a game search written
//! straight from the rules of its game. Test-only: nothing here ships.

use std::{collections::HashMap, fmt::Debug, hash::Hash};

/// Compares `fast` with `search` on every input, in order, and panics at the
/// first disagreement, naming the input and both answers. Returns how many
/// inputs were compared, so a test can assert that it covered the range it
/// meant to.
pub fn agrees_with_search<I, A>(
    inputs: impl IntoIterator<Item = I>,
    mut fast: impl FnMut(&I) -> A,
    mut search: impl FnMut(&I) -> A,
) -> usize
where
    I: Debug,
    A: PartialEq + Debug,
{
    let mut checked = 0;
    for input in inputs {
        let expected = search(&input);
        let actual = fast(&input);
        assert!(
            actual == expected,
            "the fast answer differs from the search on input {input:?}:\n  \
             fast:   {actual:?}\n  search: {expected:?}"
        );
        checked += 1;
    }
    checked
}

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

/// Every vector of `len` values in `0..=max`, the first value changing
/// fastest: `(max + 1)^len` of them.
pub fn all_vectors(len: usize, max: u64) -> impl Iterator<Item = Vec<u64>> {
    let mut next = Some(vec![0u64; len]);
    std::iter::from_fn(move || {
        let current = next.take()?;
        let mut following = current.clone();
        for value in following.iter_mut() {
            if *value < max {
                *value += 1;
                next = Some(following);
                break;
            }
            *value = 0;
        }
        Some(current)
    })
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
        let checked = agrees_with_search(
            all_vectors(2, 5),
            |pair| pair[0] != pair[1],
            |pair| {
                let mut position = pair.clone();
                position.sort_unstable();
                search.mover_wins(&position)
            },
        );
        assert_eq!(checked, 36);
    }

    #[test]
    fn all_vectors_lists_every_vector_once() {
        let mut seen: Vec<_> = all_vectors(2, 2).collect();
        assert_eq!(seen.len(), 9);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 9);
        assert_eq!(all_vectors(0, 5).count(), 1);
        assert_eq!(all_vectors(3, 0).collect::<Vec<_>>(), [vec![0, 0, 0]]);
    }

    #[test]
    fn the_harness_counts_what_it_compared() {
        assert_eq!(agrees_with_search(0..10u64, |&n| n % 3, |&n| n % 3), 10);
        assert_eq!(agrees_with_search(Vec::<u64>::new(), |_| 0, |_| 1), 0);
    }

    #[test]
    #[should_panic(expected = "on input 7")]
    fn the_harness_names_the_first_input_that_disagrees() {
        agrees_with_search(0..10u64, |&n| n.min(6), |&n| n);
    }
}
