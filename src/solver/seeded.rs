//! A small deterministic random source for testcase generators.
//!
//! Generators must print the same input for the same seed on every machine and
//! every version of every dependency, so nimjudge carries its own generator
//! (SplitMix64, Steele, Lea and Flood 2014) instead of depending on one whose
//! stream may change between releases.

/// SplitMix64: 64 bits of state, one multiply-xorshift mix per output.
#[derive(Debug, Clone)]
pub struct SeededRng {
    state: u64,
}

impl SeededRng {
    pub fn new(seed: u64) -> Self {
        SeededRng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `low..=high` (Lemire's multiply-shift; the bias is
    /// below 2^-64 per draw, irrelevant for test data).
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        assert!(low <= high, "empty range {low}..={high}");
        let span = high - low;
        if span == u64::MAX {
            return self.next_u64();
        }
        let wide = (self.next_u64() as u128) * (span as u128 + 1);
        low + (wide >> 64) as u64
    }

    /// A uniform `usize` in `low..=high`.
    pub fn range_usize(&mut self, low: usize, high: usize) -> usize {
        self.range(low as u64, high as u64) as usize
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.range(1, denominator) <= numerator
    }

    /// A value spread across orders of magnitude: a random bit length first,
    /// then a uniform value of that length, clamped to `low..=high`.
    pub fn log_uniform(&mut self, low: u64, high: u64) -> u64 {
        let bits = 64 - high.leading_zeros() as u64;
        let chosen = self.range(1, bits.max(1));
        let top = if chosen >= 64 {
            u64::MAX
        } else {
            (1u64 << chosen) - 1
        };
        self.range(low, high.min(top).max(low))
    }

    /// Picks one element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range_usize(0, items.len() - 1)]
    }

    /// Shuffles `items` in place (Fisher–Yates, from the back: one draw per
    /// element after the first).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.range_usize(0, i));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed_for_a_seed() {
        // Reference values of SplitMix64 seeded with 0.
        let mut rng = SeededRng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn ranges_stay_inside_their_bounds() {
        let mut rng = SeededRng::new(7);
        for _ in 0..10_000 {
            let v = rng.range(5, 9);
            assert!((5..=9).contains(&v));
            let w = rng.log_uniform(1, 1_000_000_000_000_000_000);
            assert!((1..=1_000_000_000_000_000_000).contains(&w));
        }
        assert_eq!(rng.range(3, 3), 3);
    }

    #[test]
    fn shuffling_permutes_and_follows_the_seed() {
        let mut items: Vec<u32> = (0..50).collect();
        SeededRng::new(9).shuffle(&mut items);
        let mut again: Vec<u32> = (0..50).collect();
        SeededRng::new(9).shuffle(&mut again);
        assert_eq!(items, again);
        assert_ne!(items, (0..50).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<_>>());
    }
}
