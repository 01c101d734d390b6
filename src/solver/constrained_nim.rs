//! `constrained-nim`: AtCoder ABC255 G "Constrained Nim".
//!
//! N piles; a move removes any positive number of stones from one pile,
//! except that M forbidden moves (X_i, Y_i) say "never remove exactly Y_i
//! stones from a pile of exactly X_i". The player who cannot move loses;
//! Takahashi moves first. This module owns the parser (every constraint,
//! including distinct pairs and Y_i ≤ X_i), the O((N + M) log M) Grundy
//! computation of the official editorial (seed `000_ed99f58028e64f35.txt`)
//! and the generators. It does not own the brute force it is checked
//! against: that lives in the tests, written straight from the rules.
//!
//! # The algorithm
//! Let g(n) be the Grundy value of one pile of n stones, h(n) = max g(0..=n)
//! and S = {0} ∪ {X_i}. Every value 0..=h(n−1) occurs among g(0..n), so a
//! size n outside S (no forbidden move) has g(n) = h(n−1) + 1: between two
//! points of S the values simply count up, g(n) = n − n̄ + h(n̄) with n̄ the
//! largest point of S not above n. At a point n of S, a value v ≤ h(n−1) is
//! missing from the options exactly when every occurrence of v in g(0..n) is
//! the target of a forbidden move, so g(n) is the smallest such v, or
//! h(n−1) + 1 if there is none. Occurrences are tracked as "one, plus the
//! number of points of S where v reappeared" (`repeats`), and the forbidden
//! targets at one X are counted by sorting their values, not with a map.

use std::collections::HashMap;

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner},
    outcome_lines, push_numbers,
};

pub const MAX_N: usize = 200_000;
pub const MAX_M: usize = 200_000;
/// The bound on A_i, X_i and Y_i.
pub const MAX_VALUE: u64 = 1_000_000_000_000_000_000;

pub struct ConstrainedNim;

/// A validated input. The forbidden moves are kept sorted by (X, Y) and
/// pairwise distinct: [`GrundyTable::build`] relies on both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstrainedNimInput {
    piles: Vec<u64>,
    forbidden: Vec<(u64, u64)>,
}

impl ConstrainedNimInput {
    /// An input from its parts, or `None` if a forbidden pair breaks
    /// 1 ≤ Y ≤ X or repeats. Pile sizes are taken as given.
    pub fn new(piles: Vec<u64>, mut forbidden: Vec<(u64, u64)>) -> Option<Self> {
        forbidden.sort_unstable();
        let well_formed = forbidden.iter().all(|&(x, y)| 1 <= y && y <= x)
            && forbidden.windows(2).all(|w| w[0] != w[1]);
        well_formed.then_some(ConstrainedNimInput { piles, forbidden })
    }

    pub fn piles(&self) -> &[u64] {
        &self.piles
    }

    /// The forbidden moves (X, Y), sorted and distinct.
    pub fn forbidden(&self) -> &[(u64, u64)] {
        &self.forbidden
    }
}

/// g(n) and h(n) at every point n of S = {0} ∪ {X_i}, enough to answer g at
/// any size in O(log |S|).
#[derive(Debug, Clone)]
pub struct GrundyTable {
    /// The points of S in increasing order; `points[0] = 0`.
    points: Vec<u64>,
    /// g at each point.
    grundy: Vec<u64>,
    /// h at each point: the largest Grundy value at or below it.
    best: Vec<u64>,
}

impl GrundyTable {
    /// Builds the table from forbidden moves sorted by (X, Y) and distinct
    /// (the invariant of [`ConstrainedNimInput`]).
    pub fn build(forbidden: &[(u64, u64)]) -> Self {
        let capacity = forbidden.len() + 1;
        let mut table = GrundyTable {
            points: Vec::with_capacity(capacity),
            grundy: Vec::with_capacity(capacity),
            best: Vec::with_capacity(capacity),
        };
        table.points.push(0);
        table.grundy.push(0);
        table.best.push(0);
        // How many more times than once each value occurs so far. Only values
        // that reappear at a point of S are stored, at most one per point.
        let mut repeats: HashMap<u64, u64> = HashMap::new();
        let mut hit_values: Vec<u64> = Vec::new();
        for group in forbidden.chunk_by(|a, b| a.0 == b.0) {
            let n = group[0].0;
            // h(n − 1), from the last point below n (n ≥ 1, points are < n).
            let below = table.points.len() - 1;
            let h_before = n - 1 - table.points[below] + table.best[below];
            hit_values.clear();
            // Distinct Y give distinct targets n − Y < n, so the multiplicity
            // of a value in `hit_values` counts distinct hit occurrences.
            hit_values.extend(group.iter().map(|&(_, y)| table.value(n - y)));
            hit_values.sort_unstable();
            let mut g = h_before + 1;
            for run in hit_values.chunk_by(|a, b| a == b) {
                let v = run[0];
                let occurrences = 1 + repeats.get(&v).copied().unwrap_or(0);
                if run.len() as u64 == occurrences {
                    // Runs come in increasing order: this is the smallest.
                    g = v;
                    break;
                }
            }
            if g <= h_before {
                *repeats.entry(g).or_insert(0) += 1;
            }
            table.points.push(n);
            table.grundy.push(g);
            table.best.push(h_before.max(g));
        }
        table
    }

    /// g(n), the Grundy value of one pile of `n` stones.
    pub fn value(&self, n: u64) -> u64 {
        // `points[0] = 0 ≤ n`, so the partition point is at least 1.
        let j = self.points.partition_point(|&p| p <= n).saturating_sub(1);
        match (self.points.get(j), self.grundy.get(j), self.best.get(j)) {
            (Some(&p), Some(&g), _) if p == n => g,
            (Some(&p), _, Some(&h)) => n - p + h,
            // Unreachable: the three vectors always hold the point 0.
            _ => n,
        }
    }
}

impl Problem for ConstrainedNim {
    const ID: &'static str = "constrained-nim";
    type Input = ConstrainedNimInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<ConstrainedNimInput, InputError> {
        let mut s = Scanner::new(text);
        let n = s.usize(Field::new("N"), 1, MAX_N)?;
        let m = s.usize(Field::new("M"), 1, MAX_M)?;
        let mut piles = Vec::with_capacity(n);
        for i in 1..=n {
            piles.push(s.u64(Field::new("A_i").at(i), 1, MAX_VALUE)?);
        }
        // (X, Y, index) so equal pairs end up adjacent after sorting, and the
        // line of each pair, for the duplicate message.
        let mut pairs: Vec<(u64, u64, u32)> = Vec::with_capacity(m);
        let mut lines: Vec<u32> = Vec::with_capacity(m);
        for i in 1..=m {
            let x = s.u64(Field::new("X_i").at(i), 1, MAX_VALUE)?;
            let y = s.u64(Field::new("Y_i").at(i), 1, MAX_VALUE)?;
            if y > x {
                return Err(InputError::Invalid {
                    line: s.line(),
                    message: format!(
                        "Y_{i} = {y} exceeds X_{i} = {x}, violating the constraint Y_i ≤ X_i"
                    ),
                });
            }
            pairs.push((x, y, i as u32));
            lines.push(s.line() as u32);
        }
        s.finish()?;
        pairs.sort_unstable();
        // Report the repeat that comes first in the input.
        let repeat = pairs
            .windows(2)
            .filter(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
            .map(|w| (w[0].2, w[1].2))
            .min_by_key(|&(_, later)| later);
        if let Some((first, later)) = repeat {
            let line_of = |i: u32| lines.get(i as usize - 1).copied().unwrap_or(0) as usize;
            let (x, y) = pairs
                .iter()
                .find(|p| p.2 == later)
                .map_or((0, 0), |p| (p.0, p.1));
            return Err(InputError::Invalid {
                line: line_of(later),
                message: format!(
                    "(X_{later}, Y_{later}) = ({x}, {y}) repeats (X_{first}, Y_{first}) on line {}; \
                     the pairs (X_i, Y_i) must be pairwise distinct",
                    line_of(first)
                ),
            });
        }
        let forbidden = pairs.into_iter().map(|(x, y, _)| (x, y)).collect();
        Ok(ConstrainedNimInput { piles, forbidden })
    }

    fn solve(input: &ConstrainedNimInput) -> Outcome {
        let table = GrundyTable::build(&input.forbidden);
        let xor = input.piles.iter().fold(0, |acc, &a| acc ^ table.value(a));
        Outcome::from_first_wins(xor != 0)
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "Takahashi", "Aoki")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
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
}

/// Up to 5 piles and 12 pairs, every value at most a random `max ≤ limit`.
fn small_instance(rng: &mut SeededRng, limit: u64) -> (Vec<u64>, Vec<(u64, u64)>) {
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
    shuffle(&mut pairs, rng);
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

/// The smallest n with g(n) = v. Since g(n) ≤ h(n − 1) + 1, h climbs one
/// step at a time, so v first occurs where h first reaches v: inside the gap
/// below the first point of S whose h is at least v, or at that point.
fn first_size_with_value(table: &GrundyTable, v: u64) -> Option<u64> {
    let j = table.best.partition_point(|&h| h < v);
    if j == 0 {
        return Some(0);
    }
    let (p, h) = (*table.points.get(j - 1)?, *table.best.get(j - 1)?);
    match table.points.get(j) {
        Some(&next) if v > h + (next - p - 1) => Some(next),
        _ => Some(p + (v - h)),
    }
}

/// The pairs without repeats, in a random order.
fn distinct(mut pairs: Vec<(u64, u64)>, rng: &mut SeededRng) -> Vec<(u64, u64)> {
    pairs.sort_unstable();
    pairs.dedup();
    shuffle(&mut pairs, rng);
    pairs
}

/// Fisher–Yates.
fn shuffle<T>(items: &mut [T], rng: &mut SeededRng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.range_usize(0, i));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::grundy_table;
    use proptest::prelude::*;

    /// g(0..=max) from the rules: from n, remove any 1 ≤ y ≤ n unless (n, y)
    /// is forbidden.
    fn brute_grundy(max: u64, forbidden: &[(u64, u64)]) -> Vec<u64> {
        grundy_table(max as usize, |n, out| {
            let n = n as u64;
            for y in 1..=n {
                if !forbidden.contains(&(n, y)) {
                    out.push((n - y) as usize);
                }
            }
        })
    }

    /// Compares g(n) for every n ≤ max, which decides every pile multiset
    /// with piles ≤ max (the winner is the XOR of per-pile values).
    fn assert_table_matches(max: u64, pairs: Vec<(u64, u64)>) {
        let expected = brute_grundy(max, &pairs);
        let input = ConstrainedNimInput::new(vec![1], pairs).expect("well-formed pairs");
        let table = GrundyTable::build(input.forbidden());
        for (n, &g) in expected.iter().enumerate() {
            assert_eq!(
                table.value(n as u64),
                g,
                "g({n}) with forbidden {:?}",
                input.forbidden()
            );
        }
    }

    fn answer(text: &str) -> String {
        ConstrainedNim::format(&ConstrainedNim::solve(
            &ConstrainedNim::parse(text).expect("valid input"),
        ))
    }

    #[test]
    fn every_forbidden_set_with_sizes_up_to_five_matches_the_brute_force() {
        let all: Vec<(u64, u64)> = (1..=5u64)
            .flat_map(|x| (1..=x).map(move |y| (x, y)))
            .collect();
        assert_eq!(all.len(), 15);
        for mask in 0u32..1 << all.len() {
            let pairs = all
                .iter()
                .enumerate()
                .filter(|&(i, _)| mask >> i & 1 == 1)
                .map(|(_, &p)| p)
                .collect();
            // Sizes above 5 carry no forbidden move but their values depend on
            // the ones below.
            assert_table_matches(9, pairs);
        }
    }

    #[test]
    fn random_forbidden_sets_up_to_forty_match_the_brute_force() {
        let mut rng = SeededRng::new(255);
        for _ in 0..3000 {
            let max = rng.range(1, 40);
            let wanted = rng.range_usize(1, 60);
            let mut pairs = Vec::new();
            for _ in 0..wanted {
                let x = rng.range(1, max);
                // Half the time aim at small removals, where values collide.
                let y = if rng.chance(1, 2) {
                    rng.range(1, x.min(4))
                } else {
                    rng.range(1, x)
                };
                pairs.push((x, y));
            }
            pairs.sort_unstable();
            pairs.dedup();
            assert_table_matches(max, pairs);
        }
    }

    #[test]
    fn solving_agrees_with_the_xor_of_brute_force_values() {
        let mut rng = SeededRng::new(7);
        for _ in 0..500 {
            let (piles, pairs) = small_instance(&mut rng, 30);
            let brute = brute_grundy(30, &pairs);
            let xor = piles.iter().fold(0, |acc, &a| acc ^ brute[a as usize]);
            let input = ConstrainedNimInput::new(piles, pairs).expect("well-formed");
            assert_eq!(
                ConstrainedNim::solve(&input),
                Outcome::from_first_wins(xor != 0)
            );
        }
    }

    #[test]
    fn the_first_size_with_a_value_matches_the_brute_force() {
        let mut rng = SeededRng::new(3);
        for _ in 0..500 {
            let (_, pairs) = small_instance(&mut rng, 30);
            let brute = brute_grundy(60, &pairs);
            let mut sorted = pairs.clone();
            sorted.sort_unstable();
            let table = GrundyTable::build(&sorted);
            for v in 0..=40 {
                if let Some(n) = brute.iter().position(|&g| g == v) {
                    assert_eq!(
                        first_size_with_value(&table, v),
                        Some(n as u64),
                        "{pairs:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn generators_make_both_outcomes() {
        for kind in [TestKind::Small, TestKind::Random, TestKind::Max] {
            let outcomes: Vec<Outcome> = (1..=8)
                .map(|seed| {
                    let text = ConstrainedNim::generate(kind, &mut SeededRng::new(seed));
                    ConstrainedNim::solve(&ConstrainedNim::parse(&text).expect("valid"))
                })
                .collect();
            assert!(outcomes.contains(&Outcome::FirstPlayerWins), "{kind}");
            assert!(outcomes.contains(&Outcome::SecondPlayerWins), "{kind}");
        }
    }

    #[test]
    fn official_samples() {
        for (input, output) in [
            (
                include_str!("../../problems/constrained-nim/testcases/sample-1.in"),
                include_str!("../../problems/constrained-nim/testcases/sample-1.out"),
            ),
            (
                include_str!("../../problems/constrained-nim/testcases/sample-2.in"),
                include_str!("../../problems/constrained-nim/testcases/sample-2.out"),
            ),
        ] {
            assert_eq!(answer(input), output);
        }
    }

    #[test]
    fn huge_sizes_follow_the_counting_rule() {
        // With (1, 1) forbidden, g(1) = 0 and from 2 on every size is a new
        // maximum one above the previous: g(n) = n − 1.
        let table = GrundyTable::build(&[(1, 1)]);
        assert_eq!(table.value(1), 0);
        assert_eq!(table.value(2), 1);
        assert_eq!(table.value(MAX_VALUE), MAX_VALUE - 1);
        // Forbidding the removal of one stone at X = 10^18 hides the only
        // occurrence of the value X − 1, so g(X) = X − 1; above X the count
        // resumes from h(X) = X − 1.
        let table = GrundyTable::build(&[(MAX_VALUE, 1)]);
        assert_eq!(table.value(MAX_VALUE - 1), MAX_VALUE - 1);
        assert_eq!(table.value(MAX_VALUE), MAX_VALUE - 1);
    }

    #[test]
    fn every_generator_kind_is_accepted_by_the_parser() {
        for kind in TestKind::ALL {
            for seed in 1..=3 {
                let text = ConstrainedNim::generate(kind, &mut SeededRng::new(seed));
                let input = ConstrainedNim::parse(&text)
                    .unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"));
                if kind == TestKind::Max {
                    assert_eq!(input.piles().len(), MAX_N);
                    assert_eq!(input.forbidden().len(), MAX_M);
                }
                if kind == TestKind::Small {
                    assert!(input.piles().iter().all(|&a| a <= 30));
                }
            }
        }
    }

    proptest! {
        #[test]
        fn random_small_instances_match_the_brute_force(
            piles in prop::collection::vec(1u64..=25, 1..6),
            raw in prop::collection::vec((1u64..=25, 0u64..25), 1..40),
        ) {
            let mut pairs: Vec<(u64, u64)> = raw.iter().map(|&(x, y)| (x, 1 + y % x)).collect();
            pairs.sort_unstable();
            pairs.dedup();
            let brute = brute_grundy(25, &pairs);
            let xor = piles.iter().fold(0, |acc, &a| acc ^ brute[a as usize]);
            let input = ConstrainedNimInput::new(piles, pairs).expect("well-formed");
            prop_assert_eq!(ConstrainedNim::solve(&input), Outcome::from_first_wins(xor != 0));
        }
    }
}
