//! The Grundy values of one pile of constrained-nim, by the official
//! editorial's method: the mathematics of the problem, and nothing else (no
//! parsing, no I/O).
//!
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
    /// (the invariant of [`super::ConstrainedNimInput`]).
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

/// The smallest n with g(n) = v. Since g(n) ≤ h(n − 1) + 1, h climbs one
/// step at a time, so v first occurs where h first reaches v: inside the gap
/// below the first point of S whose h is at least v, or at that point.
pub(super) fn first_size_with_value(table: &GrundyTable, v: u64) -> Option<u64> {
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
