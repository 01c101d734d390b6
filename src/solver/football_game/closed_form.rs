//! The mathematics of football-game: the exact arithmetic with 2πR and the
//! winner formula (no parsing, no I/O).
//!
//! # The winner formula
//! [`formula_first_wins`] is POJ's formula. It is the game's value only
//! inside the domain rule of the parent module (M = 1, or every pile within
//! the kick cap), which the parser enforces.
//!
//! # Exact arithmetic with π
//! Floors involving 2πR are never computed in floating point. π is bracketed
//! by two integers over 10^30, [`PI_LOW`] < π·10^30 < [`PI_HIGH`], and a floor
//! ⌊D/(2πR)⌋ is computed with both; [`whole_turns`] returns a value only when
//! the two agree, which then is the true floor. They always agree within the
//! constraints: the floor changes only where D crosses 2πm for m = Rq, and the
//! closest any integer D < 10^8 comes to such a 2πm is 1.48·10^-8 (at
//! D = 80143857, m = 12755291), while the bracket moves 2πm by at most
//! 2m·10^-30 < 4·10^-23. The test
//! `the_pi_bracket_decides_every_comparison_in_range` checks this for every
//! m, so the parser's "cannot decide" error is unreachable on valid input.

/// 10^30, the scale of the π bracket.
pub(super) const SCALE: u128 = 1_000_000_000_000_000_000_000_000_000_000;
/// ⌊π·10^30⌋ (π = 3.141592653589793238462643383279 502884…).
pub const PI_LOW: u128 = 3_141_592_653_589_793_238_462_643_383_279;
/// ⌈π·10^30⌉.
pub const PI_HIGH: u128 = PI_LOW + 1;

/// ⌊distance / (2π·radius)⌋, exactly, or `None` if the π bracket cannot
/// decide it (never within the constraints; see the module docs) or the
/// arguments are too large for the arithmetic.
pub fn whole_turns(distance: u64, radius: u64) -> Option<u64> {
    let numerator = (distance as u128).checked_mul(SCALE)?;
    let circumference = |pi: u128| pi.checked_mul(2 * radius as u128).filter(|&c| c > 0);
    // A larger π means a larger circumference and fewer whole turns.
    let at_most = numerator / circumference(PI_HIGH)?;
    let at_least = numerator / circumference(PI_LOW)?;
    (at_most == at_least).then(|| u64::try_from(at_most).ok())?
}

/// ⌊2π·m⌋ for the generators: the largest distance that `m` turns of a
/// radius-1 ball cover (exact for every m the constraints reach).
pub(super) fn floor_of_turns(m: u64) -> u64 {
    (2 * m as u128 * PI_LOW / SCALE) as u64
}

/// POJ's formula: with b_i = a_i mod (k + 1), the first player wins iff some
/// binary digit column of the b_i has a count that is not a multiple of
/// M + 1 (Moore's Nim_M). The true value only inside the domain rule.
pub fn formula_first_wins(piles: &[u64], balls_per_move: usize, cap: u64) -> bool {
    let modulus = balls_per_move as u64 + 1;
    let mut counts = [0u64; 64];
    for &a in piles {
        let mut bits = cap.checked_add(1).map_or(a, |period| a % period);
        while bits != 0 {
            if let Some(count) = counts.get_mut(bits.trailing_zeros() as usize) {
                *count += 1;
            }
            bits &= bits - 1;
        }
    }
    counts.iter().any(|&c| c % modulus != 0)
}
