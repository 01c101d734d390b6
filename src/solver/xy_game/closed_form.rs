//! The exact Grundy value of one xy-game pile in O(1): the mathematics of the
//! problem, and nothing else (no parsing, no I/O).
//!
//! # The game on one pile
//!
//! Call a size *blocked* when it is a multiple of X or of Y (0 included): no
//! move may end there. From `v` a move goes to `v − 1` or `v − 2` if that size
//! is free, so `g(v) = mex{ g(v − d) : d ∈ {1, 2}, v − d free }`.
//!
//! # Intervals and their one-bit state
//!
//! Between consecutive blocked numbers `a < b` lies the *interval* `(a, b)`
//! with gap `L = b − a`. Inside it, at offset `t = v − a ∈ [1, L − 1]`, the
//! values follow a pattern `P[(t − 1) mod 3]` with `P = 012` (state `s = 0`)
//! or `P = 102` (`s = 1`): the first free value is `mex{g(a − 1)}` (the only
//! move that crosses a blocked number is `a + 1 → a − 1`), hence 0 or 1, and
//! the rest follows. The next interval starts in state 1 iff the last free
//! value of this one is 0, which gives, by `L mod 3` (seed 001, checked by
//! brute force in the tests):
//!
//! | `L mod 3` | map on `s` |
//! |---|---|
//! | 0 | identity |
//! | 1 | constant 0 (also `L = 1`: no free value, next pattern is `012`) |
//! | 2 | flip |
//!
//! The interval starting at 0 has `s = 0`.
//!
//! # X-intervals
//!
//! Since `X < Y`, each *X-interval* `[iX, (i + 1)X]` holds at most one
//! multiple `jY` strictly inside, at offset `r = jY − iX ∈ (0, X)`. Composing
//! the two gap maps `r` and `X − r`, the map of a whole X-interval depends only
//! on `X mod 3` and `ρ = r mod 3`:
//!
//! | `X mod 3` | no split | `ρ = 0` | `ρ = 1` | `ρ = 2` |
//! |---|---|---|---|---|
//! | 0 | id | id | const 1 | const 0 |
//! | 1 | const 0 | const 0 | const 0 | id |
//! | 2 | flip | flip | const 0 | flip |
//!
//! Let `S_i` be the state entering X-interval `i` (`S_0 = 0`):
//!
//! * `X ≡ 1`: every map sends 0 to 0, so `S_i = 0` for all `i`.
//! * `X ≡ 0`: only splits with `ρ ≠ 0` change the state, and then they set
//!   it. Here `ρ ≡ jY (mod 3)`, so if `Y ≡ 0` the state is always 0, and
//!   otherwise the last `j` with `jY < iX` and `j ≢ 0 (mod 3)` decides:
//!   `S_i = 1` iff `jY ≡ 1 (mod 3)`.
//! * `X ≡ 2`: every X-interval flips, except splits with `ρ = 1`, which reset.
//!   With `X ≡ −1 (mod 3)`, `ρ ≡ jY + ⌊jY/X⌋ = ⌊j·Y(X + 1)/X⌋ (mod 3)`. If
//!   `j*` is the last `j` with `jY < iX` and that floor `≡ 1`, in X-interval
//!   `i* = ⌊j*Y/X⌋`, then `S_i = (i − i* − 1) mod 2`; with no such `j`,
//!   `S_i = i mod 2`.
//!
//! Then a free `v` in X-interval `i = ⌊v/X⌋` lies in the interval starting at
//! `a = jY` (state: gap map of `r` applied to `S_i`) if a multiple `jY` lies
//! in `(iX, v)`, else at `a = iX` (state `S_i`), and `g(v) = P[(v − a − 1)
//! mod 3]`. A blocked `v` takes the mex over its free predecessors.
//!
//! # The last `j` with `⌊(a·j + b)/c⌋ ≡ w (mod 3)`
//!
//! Only the `X ≡ 2` case needs a search; [`last_with_floor_residue`] solves
//! it exactly in O(1). Adding multiples of `3c` to `a` does not change the
//! floor mod 3, so take `0 ≤ a < 3c`:
//!
//! * `a ≤ c`: `h(j) = ⌊(aj + b)/c⌋` is non-decreasing and moves by 0 or 1 per
//!   step, so it takes every value between `h(lo)` and `h(hi)`. The wanted `j`
//!   is the last one with `h(j) ≤ u`, where `u` is the largest value `≤ h(hi)`
//!   with `u ≡ w`, provided `u ≥ h(lo)`.
//! * `a ≥ 2c`: with `a' = 3c − a ∈ (0, c]`, `h(j) = 3j − ⌈(a'j − b)/c⌉`, so
//!   this is the first case for the ceiling, with residue `−w`.
//! * `c < a < 2c`: `h` drops by 1 or 2 per step down, so first walk down a
//!   few steps from `hi` (one division, then remainders); the answer is
//!   almost always there. Otherwise split `j = 2m + j₀` by parity. In `m` the
//!   slope is `2a ∈ (2c, 4c)`, which reduces mod `3c` to one of the two cases
//!   above.
//!
//! The search shifts `j` to start at 0 and keeps `a` and `b` below `3c`, so
//! every value it computes is non-negative and below `c·(2hi + 6)`. From
//! [`grundy`], `c = X` and `hi < v/Y`, so `c·hi < v` and the bound is below
//! `2v + 6X`: plain `u64` arithmetic for every pile up to `2^62` (the bound is
//! checked per call); beyond that the same code runs on `u128`.
//!
//! # Relation to seed 001
//!
//! Seed 001 (sounansya's editorial) has the same interval rule, and it looks
//! for the nearest interval of value 1 by a case analysis on `X mod 3`. The
//! X-interval maps make two of its three cases collapse: for `X ≡ 1` the state
//! entering every X-interval is 0 (the seed's skipping of `ρ = 2` chains is not
//! needed), and for `X ≡ 0` one look at the last `j ≢ 0 (mod 3)` decides.
//! For `X ≡ 2` its sub-cases 3-A/3-C are the slopes in `[0, 1)` and `[2, 3)`
//! above, and 3-B is the parity split. Its `Y`-multiple-of-`X` formula for
//! `X ≡ 2` conditions on `v mod 3`; the problems.md facts correct that to
//! `v mod X`, which is what this derivation gives as well.
//!
//! Everything here is checked in the tests against a Grundy DP written from
//! the rules (all `X < Y ≤ 60`, `v ≤ 5000`) and against the `reference` module's
//! interval walk for large parameters.

use std::ops::{Add, Div, Mul, Rem, Sub};

/// The Grundy value of a pile of `v` stones, for `1 ≤ x < y` and any `v`.
///
/// Exact for every `1 ≤ x < y ≤ 10^9` and `v ≤ 10^18` (and beyond, as long as
/// `y·(x + 1)` fits a `u64`). The result is 0, 1 or 2.
///
/// `x = 0` has no meaning in this game and divides by zero; the parser only
/// lets through `1 ≤ x < y`.
#[inline]
pub fn grundy(x: u64, y: u64, v: u64) -> u8 {
    debug_assert!(1 <= x && x < y, "need 1 ≤ x < y, got x = {x}, y = {y}");
    // One division per divisor gives both the quotient and the remainder.
    let (i, q) = (v / x, v / y);
    if v != i * x && v != q * y {
        // y ∤ v, so ⌊(v − 1)/y⌋ = ⌊v/y⌋.
        return free_grundy(x, y, v, i, q);
    }
    // A blocked size: the mex over the free sizes one or two below it.
    let mut seen = 0u8;
    for d in 1..=2 {
        if let Some(w) = v.checked_sub(d)
            && !is_blocked(x, y, w)
        {
            seen |= 1 << free_grundy(x, y, w, w / x, (w - 1) / y);
        }
    }
    (!seen).trailing_zeros() as u8
}

/// True when `v` is a multiple of `x` or of `y` (0 included).
#[inline]
pub fn is_blocked(x: u64, y: u64, v: u64) -> bool {
    v.is_multiple_of(x) || v.is_multiple_of(y)
}

/// The one-bit interval state after a gap of `gap` (only `gap mod 3` matters).
#[inline]
pub(crate) fn after_gap(gap: u64, state: u8) -> u8 {
    match gap % 3 {
        0 => state,
        1 => 0,
        _ => state ^ 1,
    }
}

/// The value at offset `t ≥ 1` of an interval in state `state`.
#[inline]
pub(crate) fn pattern(state: u8, t: u64) -> u8 {
    let k = ((t - 1) % 3) as u8;
    if state == 0 {
        k
    } else {
        // 1, 0, 2
        [1, 0, 2][k as usize]
    }
}

/// `g(v)` for a free `v` (not a multiple of `x` or `y`, so `x ≥ 2`), given
/// `i = ⌊v/x⌋` and `q = ⌊(v − 1)/y⌋`.
#[inline]
fn free_grundy(x: u64, y: u64, v: u64, i: u64, q: u64) -> u8 {
    let base = i * x;
    // The last multiple of y below v (v ≥ 1 since 0 is blocked).
    let below = q * y;
    // `last = ⌊(ix − 1)/y⌋`, the number of multiples jY in (0, ix): it is at
    // most q, as ix ≤ v, and at least q − 1, as v − ix < x < y. It is q
    // exactly when qY < ix (when i = 0 it is not used).
    let last = if below < base { q } else { q.wrapping_sub(1) };
    let entering = state_entering(x, y, i, last);
    let (start, state) = if below > base {
        (below, after_gap(below - base, entering))
    } else {
        (base, entering)
    };
    pattern(state, v - start)
}

/// `S_i`: the state of the interval that starts at `iX`, given
/// `last = ⌊(iX − 1)/Y⌋` (ignored when `i = 0`).
#[inline]
fn state_entering(x: u64, y: u64, i: u64, last: u64) -> u8 {
    if i == 0 {
        return 0;
    }
    let base = i * x;
    // Multiples jY, j ∈ [1, last], lie in X-intervals before i.
    match x % 3 {
        1 => 0,
        0 => {
            if y.is_multiple_of(3) {
                return 0;
            }
            let j = if !last.is_multiple_of(3) {
                last
            } else {
                last.saturating_sub(1)
            };
            if j == 0 {
                return 0;
            }
            // ρ ≡ jY (mod 3): 1 sets the state to 1, 2 sets it to 0.
            u8::from((j % 3) * (y % 3) % 3 == 1)
        }
        _ => {
            if last == 0 {
                return (i & 1) as u8;
            }
            // ρ ≡ ⌊j·Y(X+1)/X⌋ (mod 3). The slope Y(X + 1) mod 3X is
            // (X·(Y mod 3) + Y) mod 3X, as XY ≡ X·(Y mod 3) (mod 3X); t fits a
            // u64 because it is below Y(X + 1). Usually Y < 4X, so t < 6X and
            // one subtraction reduces it.
            let c3 = 3 * x;
            let t = x * (y % 3) + y;
            let a = if t < 2 * c3 {
                if t >= c3 { t - c3 } else { t }
            } else {
                t % c3
            };
            // j = k + 1 with k ∈ [0, last − 1]: the offset is a (< 3X).
            match last_from_zero_wide(
                u128::from(a),
                u128::from(a),
                u128::from(x),
                1,
                u128::from(last - 1),
            ) {
                Some(k) => {
                    // The reset is in X-interval i* = ⌊jY/X⌋ = i − 1 − ⌊(d − 1)/X⌋
                    // with d = iX − jY > 0 (jY < iX ≤ v, so no overflow);
                    // S_i = (i − i* − 1) mod 2. Usually d ≤ 2X.
                    let d = base - (k as u64 + 1) * y;
                    let back = if d <= x {
                        0
                    } else if d <= 2 * x {
                        1
                    } else {
                        (d - 1) / x
                    };
                    (back & 1) as u8
                }
                None => (i & 1) as u8,
            }
        }
    }
}

/// The largest `j ∈ [lo, hi]` with `⌊(a·j + b)/c⌋ ≡ w (mod 3)`, if any.
///
/// Needs `a ≥ 0`, `c > 0`, `w < 3`, no overflow of `3c·lo` and
/// `c·(2(hi − lo) + 6)` (the tests use negative `b` and `lo` too).
pub fn last_with_floor_residue(
    a: i128,
    b: i128,
    c: i128,
    w: i128,
    lo: i128,
    hi: i128,
) -> Option<i128> {
    if lo > hi {
        return None;
    }
    let c3 = 3 * c;
    let a = a.rem_euclid(c3);
    // With j = lo + k, a·j + b = a·k + (a·lo + b); adding a multiple of 3c to
    // the offset moves the floor by a multiple of 3, so reduce it mod 3c.
    let b = (a * lo + b).rem_euclid(c3);
    let span = hi.abs_diff(lo);
    last_from_zero_wide(a as u128, b as u128, c as u128, w as u8, span).map(|k| lo + k as i128)
}

/// The integer operations the search needs: `u64` on the fast path, `u128`
/// when an intermediate value could overflow a `u64`.
trait Word:
    Copy
    + Ord
    + From<u8>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
{
}

impl<T> Word for T where
    T: Copy
        + Ord
        + From<u8>
        + Add<Output = T>
        + Sub<Output = T>
        + Mul<Output = T>
        + Div<Output = T>
        + Rem<Output = T>
{
}

/// [`last_from_zero`] in `u64` whenever every intermediate value fits it,
/// else in `u128`. Needs `a, b < 3c`, `w < 3` and `c·(2hi + 6)` to fit a
/// `u128`.
#[inline]
fn last_from_zero_wide(a: u128, b: u128, c: u128, w: u8, hi: u128) -> Option<u128> {
    // Every intermediate value of the search is below c·(2hi + 6) (see
    // `last_from_zero`), so this bound makes the u64 version exact.
    if c * (2 * hi + 6) <= u128::from(u64::MAX) {
        last_from_zero(a as u64, b as u64, c as u64, u64::from(w), hi as u64).map(u128::from)
    } else {
        last_from_zero(a, b, c, u128::from(w), hi)
    }
}

/// The largest `k ∈ [0, hi]` with `⌊(a·k + b)/c⌋ ≡ w (mod 3)`, if any, for
/// `0 ≤ a, b < 3c` and `w < 3`.
///
/// Every value computed here is below `c·(2hi + 6)`: the walk's numerator
/// `ak + b` (with `a < 2c`) is below `c·(2hi + 3)`, the numerators of the
/// unit-slope search are below `c·(hi + 3)`, its last one at most
/// `c·(hi + 4)`, and the offsets and slopes are below `6c`.
#[inline]
fn last_from_zero<T: Word>(a: T, b: T, c: T, w: T, hi: T) -> Option<T> {
    let [one, two, three] = [1u8, 2, 3].map(T::from);
    let c3 = three * c;
    if a <= c {
        return last_on_unit_slope(a, b, c, w, hi);
    }
    if a >= two * c {
        return last_on_steep_slope(a, b, c, w, hi);
    }
    // c < a < 2c: h(k) = ⌊(ak + b)/c⌋ drops by 1 or 2 per step down. The
    // answer is usually among the top few k, so walk down from hi with the
    // remainder, one division in all.
    let e = a - c;
    let n = a * hi + b;
    let mut h = n / c;
    let mut rem = n - h * c;
    let mut k = hi;
    for _ in 0..4 {
        if h % three == w {
            return Some(k);
        }
        if k == T::from(0) {
            return None;
        }
        // a·(k − 1) + b = (ak + b) − c − e.
        k = k - one;
        if rem >= e {
            rem = rem - e;
            h = h - one;
        } else {
            rem = rem + c - e;
            h = h - two;
        }
    }
    // hi, …, k + 1 all missed: the answer, if any, is at most k.
    let hi = k;
    // k = 2m + k0: slope 2a ∈ (2c, 4c) in m, so 2a or 2a − 3c is in one of
    // the two cases above. The offset a·k0 + b < 6c reduces by one 3c.
    let a2 = if a + a >= c3 { a + a - c3 } else { a + a };
    let mut best = None;
    for k0 in [T::from(0), one] {
        if hi < k0 {
            break;
        }
        let b0 = a * k0 + b;
        let b0 = if b0 >= c3 { b0 - c3 } else { b0 };
        let m_hi = (hi - k0) / two;
        let m = if a2 <= c {
            last_on_unit_slope(a2, b0, c, w, m_hi)
        } else {
            last_on_steep_slope(a2, b0, c, w, m_hi)
        };
        if let Some(m) = m {
            let k = two * m + k0;
            best = Some(best.map_or(k, |b: T| b.max(k)));
        }
    }
    best
}

/// [`last_from_zero`] for `2c ≤ a < 3c`.
#[inline]
fn last_on_steep_slope<T: Word>(a: T, b: T, c: T, w: T, hi: T) -> Option<T> {
    let [one, three] = [1u8, 3].map(T::from);
    let c3 = three * c;
    // With a' = 3c − a ∈ (0, c], ak + b = 3ck − (a'k − b), so
    // ⌊(ak + b)/c⌋ = 3k − ⌈(a'k − b)/c⌉ = 3k + 3 − ⌊(a'k + 4c − 1 − b)/c⌋,
    // and 4c − 1 − b ∈ [c, 4c): one 3c brings it below 3c, residue kept.
    let b2 = c3 + c - one - b;
    let b2 = if b2 >= c3 { b2 - c3 } else { b2 };
    let w2 = if w == T::from(0) { w } else { three - w };
    last_on_unit_slope(c3 - a, b2, c, w2, hi)
}

/// [`last_from_zero`] for `0 ≤ a ≤ c`, where `h(k) = ⌊(ak + b)/c⌋` never
/// skips a value.
#[inline]
fn last_on_unit_slope<T: Word>(a: T, b: T, c: T, w: T, hi: T) -> Option<T> {
    let [zero, one, two, three] = [0u8, 1, 2, 3].map(T::from);
    let top = (a * hi + b) / c;
    // h(0) = ⌊b/c⌋ with b < 3c.
    let bottom = if b >= two * c {
        two
    } else if b >= c {
        one
    } else {
        zero
    };
    // top − r is the largest value ≤ top that is ≡ w (mod 3).
    let r = (top + three - w) % three;
    if top < bottom + r {
        return None;
    }
    if r == zero || a == zero {
        return Some(hi);
    }
    // The last k with a·k + b ≤ (top − r)·c + c − 1, where h(k) = top − r;
    // top − r ≥ h(0) makes the numerator non-negative.
    Some((((top - r + one) * c - one - b) / a).min(hi))
}
