//! Slow, exact references for xy-game, used to check [`super::grundy`].
//!
//! Two independent routes, neither of which uses the X-interval analysis of
//! the closed form:
//!
//! * [`brute_table`]: the Grundy DP straight from the rules, O(v).
//! * [`Simulator`]: walks the blocked numbers in order and applies the
//!   interval transition rule gap by gap. The blocked set repeats with period
//!   `lcm(X, Y)`, so the walk first jumps over whole periods with the period's
//!   state map (a power in the 4-element monoid of maps on one bit). The cost
//!   is O(lcm/X + lcm/Y) ≤ O(X + Y) per call, whatever `v`.

use super::closed_form::{after_gap, is_blocked, pattern};
use std::cell::OnceCell;

use crate::solver::grundy::{grundy_table, mex};

/// `g(0..=limit)` from the rules: `g(v) = mex{ g(v − d) : d ∈ {1, 2},
/// v − d ≥ 0, v − d not a multiple of x or y }`.
pub fn brute_table(x: u64, y: u64, limit: usize) -> Vec<u64> {
    grundy_table(limit, |v, moves| {
        for d in 1..=2 {
            if let Some(w) = v.checked_sub(d)
                && !(w as u64).is_multiple_of(x)
                && !(w as u64).is_multiple_of(y)
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

/// The blocked numbers after a blocked `start`, in increasing order: the merge
/// of the multiples of `x` and of `y`, one addition per step.
struct Blocked {
    x: u64,
    y: u64,
    next_x: u64,
    next_y: u64,
}

impl Blocked {
    fn after(x: u64, y: u64, start: u64) -> Blocked {
        Blocked {
            x,
            y,
            next_x: (start / x + 1).saturating_mul(x),
            next_y: (start / y + 1).saturating_mul(y),
        }
    }
}

impl Iterator for Blocked {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        let b = self.next_x.min(self.next_y);
        if self.next_x == b {
            self.next_x = self.next_x.saturating_add(self.x);
        }
        if self.next_y == b {
            self.next_y = self.next_y.saturating_add(self.y);
        }
        Some(b)
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The interval walk for one `(x, y)`: `g(v)` exact for every `1 ≤ x < y`
/// and `v`, with the state map of one period of the blocked set computed on
/// first use.
pub struct Simulator {
    x: u64,
    y: u64,
    /// `lcm(x, y)`: the blocked set repeats with this period.
    period: u128,
    /// The state map of the gaps in `[0, period]`. Walking a period costs
    /// O(x + y), so it is only done when a pile is at least one period long.
    period_map: OnceCell<BitMap>,
}

impl Simulator {
    pub fn new(x: u64, y: u64) -> Simulator {
        assert!(1 <= x && x < y, "need 1 ≤ x < y, got x = {x}, y = {y}");
        Simulator {
            x,
            y,
            period: u128::from(x / gcd(x, y)) * u128::from(y),
            period_map: OnceCell::new(),
        }
    }

    /// `g(v)`: the mex over free predecessors when `v` is blocked.
    pub fn grundy(&self, v: u64) -> u8 {
        let (x, y) = (self.x, self.y);
        if !is_blocked(x, y, v) {
            return self.free(v);
        }
        let mut seen = Vec::new();
        for d in 1..=2 {
            if let Some(w) = v.checked_sub(d)
                && !is_blocked(x, y, w)
            {
                seen.push(u64::from(self.free(w)));
            }
        }
        mex(seen) as u8
    }

    /// The state map of the gaps between consecutive blocked numbers in
    /// `[0, end]`, where `end` is blocked.
    fn walk_map(&self, end: u64) -> BitMap {
        let mut map = BitMap::IDENTITY;
        let mut a = 0;
        for b in Blocked::after(self.x, self.y, 0) {
            if b > end {
                break;
            }
            map = map.then(BitMap::of_gap(b - a));
            a = b;
        }
        map
    }

    fn free(&self, v: u64) -> u8 {
        let (mut a, mut state) = if self.period <= u128::from(v) {
            // Whole periods first: the gaps repeat, so their maps do.
            let periods = u128::from(v) / self.period;
            let map = *self
                .period_map
                .get_or_init(|| self.walk_map(self.period as u64));
            ((periods * self.period) as u64, map.power(periods).apply(0))
        } else {
            (0, 0)
        };
        for b in Blocked::after(self.x, self.y, a) {
            if b > v {
                break;
            }
            state = after_gap(b - a, state);
            a = b;
        }
        pattern(state, v - a)
    }
}
