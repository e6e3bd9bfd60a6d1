//! A tiny seeded PRNG (SplitMix64) so exam orderings are reproducible from a seed alone.

/// SplitMix64: fast, well distributed, and stable forever (unlike `rand`'s `StdRng`).
#[derive(Debug, Clone)]
pub struct SeededRng {
    state: u64,
}

impl SeededRng {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SeededRng {
        SeededRng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float uniformly drawn from the open interval (0, 1).
    pub fn next_unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// An index uniformly drawn from `0..len`; `len` must be non-zero.
    pub fn next_index(&mut self, len: usize) -> usize {
        (self.next_u64() % len as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = SeededRng::new(42);
        let mut b = SeededRng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(SeededRng::new(1).next_u64(), SeededRng::new(2).next_u64());
    }

    #[test]
    fn unit_values_stay_inside_the_open_interval() {
        let mut rng = SeededRng::new(7);
        for _ in 0..10_000 {
            let value = rng.next_unit();
            assert!(value > 0.0 && value < 1.0, "{value}");
        }
    }
}
