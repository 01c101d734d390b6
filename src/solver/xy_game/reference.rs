//! Slow, exact references for xy-game, used to check [`super::grundy`].
//!
//! Two independent routes, neither of which uses the X-interval analysis of
//! the closed form:
//!
//! * [`brute_table`]: the Grundy DP straight from the rules, O(v).
//! * [`simulate`]: walks the blocked numbers in order and applies the
//!   interval transition rule gap by gap. The blocked set repeats with period
//!   `lcm(X, Y)`, so the walk first jumps over whole periods with the period's
//!   state map (a power in the 4-element monoid of maps on one bit). The cost
//!   is O(lcm/X + lcm/Y) ≤ O(X + Y) per call, whatever `v`.

use super::closed_form::{after_gap, is_blocked, pattern};
use crate::solver::grundy::grundy_table;

/// `g(0..=limit)` from the rules: `g(v) = mex{ g(v − d) : d ∈ {1, 2},
/// v − d ≥ 0, v − d not a multiple of x or y }`.
pub fn brute_table(x: u64, y: u64, limit: usize) -> Vec<u64> {
    grundy_table(limit, |v, moves| {
        for d in 1..=2 {
            if let Some(w) = v.checked_sub(d)
                && (w as u64) % x != 0
                && (w as u64) % y != 0
            {
                moves.push(w);
            }
        }
    })
}

/// A map on the one-bit state, `s ↦ (s & mask) ^ flip`: identity `(1, 0)`,
/// flip `(1, 1)`, constant 0 `(0, 0)`, constant 1 `(0, 1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BitMap {
    mask: u8,
    flip: u8,
}

impl BitMap {
    const IDENTITY: BitMap = BitMap { mask: 1, flip: 0 };

    fn of_gap(gap: u64) -> BitMap {
        BitMap {
            mask: after_gap(gap, 1) ^ after_gap(gap, 0),
            flip: after_gap(gap, 0),
        }
    }

    fn apply(self, s: u8) -> u8 {
        (s & self.mask) ^ self.flip
    }

    /// First `self`, then `next`.
    fn then(self, next: BitMap) -> BitMap {
        BitMap {
            mask: self.mask & next.mask,
            flip: (self.flip & next.mask) ^ next.flip,
        }
    }

    fn power(self, mut k: u128) -> BitMap {
        let (mut result, mut base) = (BitMap::IDENTITY, self);
        while k > 0 {
            if k & 1 == 1 {
                result = result.then(base);
            }
            base = base.then(base);
            k >>= 1;
        }
        result
    }
}

/// The smallest blocked number greater than `a`.
fn next_blocked(x: u64, y: u64, a: u64) -> u64 {
    (a / x + 1)
        .saturating_mul(x)
        .min((a / y + 1).saturating_mul(y))
}

/// The state map of the gaps between consecutive blocked numbers in `[0, end]`,
/// where `end` is blocked.
fn walk_map(x: u64, y: u64, end: u64) -> BitMap {
    let (mut map, mut a) = (BitMap::IDENTITY, 0);
    while a < end {
        let b = next_blocked(x, y, a);
        map = map.then(BitMap::of_gap(b - a));
        a = b;
    }
    map
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `g(v)` by walking the intervals: exact for every `1 ≤ x < y` and `v`.
pub fn simulate(x: u64, y: u64, v: u64) -> u8 {
    assert!(1 <= x && x < y, "need 1 ≤ x < y, got x = {x}, y = {y}");
    if !is_blocked(x, y, v) {
        return simulate_free(x, y, v);
    }
    let mut seen = Vec::new();
    for d in 1..=2 {
        if let Some(w) = v.checked_sub(d)
            && !is_blocked(x, y, w)
        {
            seen.push(u64::from(simulate_free(x, y, w)));
        }
    }
    crate::solver::grundy::mex(seen) as u8
}

fn simulate_free(x: u64, y: u64, v: u64) -> u8 {
    let period = u128::from(x / gcd(x, y)) * u128::from(y);
    let (mut a, mut state) = if period <= u128::from(v) {
        // Whole periods first: the gaps repeat, so their maps do.
        let periods = u128::from(v) / period;
        let start = (periods * period) as u64;
        let map = walk_map(x, y, period as u64).power(periods);
        (start, map.apply(0))
    } else {
        (0, 0)
    };
    loop {
        let b = next_blocked(x, y, a);
        if b > v {
            return pattern(state, v - a);
        }
        state = after_gap(b - a, state);
        a = b;
    }
}
