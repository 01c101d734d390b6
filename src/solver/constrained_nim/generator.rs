//! The constrained-nim testcase generators: piles and distinct forbidden
//! moves, with forbidden moves aimed at other sizes so Grundy values repeat,
//! and half of the non-edge inputs turned into first-player losses.

use super::{
    MAX_M, MAX_N, MAX_VALUE,
    table::{GrundyTable, first_size_with_value},
};
use crate::solver::{SeededRng, TestKind, push_numbers};

/// A valid input of the given kind, printed the way the judge reads it.
pub(super) fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
    let (mut piles, pairs) = match kind {
        TestKind::Small => small_instance(rng, 30),
        TestKind::Edge => edge_instance(rng),
        TestKind::Random => random_instance(rng),
        TestKind::Max => max_instance(rng),
    };
    // Large random Grundy values almost never XOR to zero: make half of
    // the non-edge inputs a loss for Takahashi on purpose.
    if kind != TestKind::Edge && rng.chance(1, 2) {
        make_losing(&mut piles, &pairs);
    }
    render(&piles, &pairs)
}

/// Up to 5 piles and 12 pairs, every value at most a random `max ≤ limit`.
pub(super) fn small_instance(rng: &mut SeededRng, limit: u64) -> (Vec<u64>, Vec<(u64, u64)>) {
    let max = rng.range(1, limit);
    let n = rng.range_usize(1, 5);
    let piles = (0..n).map(|_| rng.range(1, max)).collect();
    let wanted = rng.range_usize(1, 12);
    let mut pairs = Vec::with_capacity(wanted);
    for _ in 0..wanted {
        let x = rng.range(1, max);
        pairs.push((x, rng.range(1, x)));
    }
    (piles, distinct(pairs, rng))
}

fn edge_instance(rng: &mut SeededRng) -> (Vec<u64>, Vec<(u64, u64)>) {
    match rng.range(0, 4) {
        // N = M = 1 at both ends of the range.
        0 => (vec![1], vec![(1, 1)]),
        1 => (vec![MAX_VALUE], vec![(MAX_VALUE, MAX_VALUE)]),
        // Every pair at one X: the largest group the constraints allow.
        2 => {
            let x = MAX_VALUE - rng.range(0, 3);
            let pairs = (1..=MAX_M as u64).map(|y| (x, y)).collect();
            (vec![x; rng.range_usize(1, 3)], pairs)
        }
        // Y = X everywhere: emptying a pile is forbidden at every listed size.
        3 => {
            let pairs: Vec<(u64, u64)> = (0..MAX_M as u64)
                .map(|i| {
                    let x = MAX_VALUE - 2 * i;
                    (x, x)
                })
                .collect();
            let piles = (0..MAX_N as u64).map(|i| MAX_VALUE - i).collect();
            (piles, pairs)
        }
        // A_i = X_i = 10^18 for every pile, the pairs spread over few sizes.
        _ => {
            let pairs = (0..MAX_M as u64)
                .map(|i| (MAX_VALUE - i % 4, 1 + i / 4 + (i % 4) * 7))
                .collect();
            let n = MAX_N - rng.range_usize(0, 1);
            (vec![MAX_VALUE; n], pairs)
        }
    }
}

fn random_instance(rng: &mut SeededRng) -> (Vec<u64>, Vec<(u64, u64)>) {
    let n = rng.range_usize(1, 1000);
    let m = rng.range_usize(1, 1000);
    let max = rng.log_uniform(1, MAX_VALUE);
    let mut pairs = Vec::with_capacity(m);
    let mut xs: Vec<u64> = Vec::new();
    for _ in 0..m {
        let x = if !xs.is_empty() && rng.chance(1, 2) {
            *rng.pick(&xs)
        } else {
            rng.range(1, max)
        };
        xs.push(x);
        let y = match rng.range(0, 3) {
            // Aim at another point of S (or just past it) so values repeat.
            0 => {
                let other = *rng.pick(&xs);
                let target = other.saturating_add(rng.range(0, 1)).min(x - 1);
                x - target
            }
            1 => x,
            2 => rng.range(1, x.min(8)),
            _ => rng.range(1, x),
        };
        pairs.push((x, y));
    }
    let pairs = distinct(pairs, rng);
    let piles = (0..n)
        .map(|_| {
            if rng.chance(1, 2) {
                *rng.pick(&xs)
            } else {
                rng.range(1, max)
            }
        })
        .collect();
    (piles, pairs)
}

/// N = M = 2·10^5 with values near 10^18: a few hundred sizes carry most of
/// the pairs, and many forbidden moves land on other points of S, where
/// Grundy values repeat, so the per-X work is exercised in full.
fn max_instance(rng: &mut SeededRng) -> (Vec<u64>, Vec<(u64, u64)>) {
    let low = MAX_VALUE - (1 << 40);
    let sizes = rng.range_usize(300, 3000);
    let mut xs: Vec<u64> = (0..sizes).map(|_| rng.range(low, MAX_VALUE)).collect();
    xs.sort_unstable();
    xs.dedup();
    let mut pairs: Vec<(u64, u64)> = Vec::with_capacity(MAX_M + MAX_M / 8);
    while pairs.len() < MAX_M {
        let j = rng.range_usize(0, xs.len() - 1);
        let x = xs[j];
        let y = match rng.range(0, 4) {
            0 if j > 0 => x - xs[rng.range_usize(0, j - 1)],
            1 if j > 0 => (x - xs[rng.range_usize(0, j - 1)]).saturating_sub(rng.range(0, 3)),
            2 => rng.range(1, 1000),
            3 => x,
            _ => rng.range(1, x),
        }
        .clamp(1, x);
        pairs.push((x, y));
        if pairs.len() == MAX_M {
            pairs.sort_unstable();
            pairs.dedup();
        }
    }
    rng.shuffle(&mut pairs);
    let piles = (0..MAX_N)
        .map(|_| {
            if rng.chance(1, 2) {
                *rng.pick(&xs)
            } else {
                rng.range(low, MAX_VALUE)
            }
        })
        .collect();
    (piles, pairs)
}

/// Replaces the last pile by one whose Grundy value cancels the others, when
/// such a size exists within the bounds (or drops it if the rest already
/// cancel), so that the first player loses.
fn make_losing(piles: &mut Vec<u64>, pairs: &[(u64, u64)]) {
    let mut sorted = pairs.to_vec();
    sorted.sort_unstable();
    let table = GrundyTable::build(&sorted);
    let Some((_, rest)) = piles.split_last() else {
        return;
    };
    let target = rest.iter().fold(0, |acc, &a| acc ^ table.value(a));
    if target == 0 {
        if piles.len() > 1 {
            piles.pop();
        }
        return;
    }
    if let Some(size) = first_size_with_value(&table, target).filter(|&n| n <= MAX_VALUE)
        && let Some(last) = piles.last_mut()
    {
        *last = size;
    }
}

/// The pairs without repeats, in a random order.
fn distinct(mut pairs: Vec<(u64, u64)>, rng: &mut SeededRng) -> Vec<(u64, u64)> {
    pairs.sort_unstable();
    pairs.dedup();
    rng.shuffle(&mut pairs);
    pairs
}

fn render(piles: &[u64], pairs: &[(u64, u64)]) -> String {
    let mut out = String::with_capacity((piles.len() + 2 * pairs.len()) * 20 + 16);
    push_numbers(&mut out, [piles.len() as u64, pairs.len() as u64]);
    push_numbers(&mut out, piles.iter().copied());
    for &(x, y) in pairs {
        push_numbers(&mut out, [x, y]);
    }
    out
}
