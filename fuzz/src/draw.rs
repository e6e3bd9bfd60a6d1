//! The seeded choices every generator makes: a SplitMix64 stream, so input `i` of seed `s`
//! is the same on every machine and a failure is reproduced from its number alone.

use viva_blueprint::rng::SeededRng;

/// A seeded source of choices.
#[derive(Debug, Clone)]
pub struct Draw {
    rng: SeededRng,
}

impl Draw {
    /// The generator of input `index` under `seed`.
    pub fn new(seed: u64, index: u64) -> Draw {
        let mut mixer = SeededRng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        Draw {
            rng: SeededRng::new(mixer.next_u64()),
        }
    }

    /// A number in `0..len` (0 when `len` is 0).
    pub fn below(&mut self, len: usize) -> usize {
        if len == 0 {
            0
        } else {
            self.rng.next_index(len)
        }
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high.saturating_sub(low) + 1)
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: usize, denominator: usize) -> bool {
        self.below(denominator) < numerator
    }

    /// One of `items` (`None` when empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }

    /// 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_index_give_the_same_choices() {
        let draw = |seed, index| {
            let mut g = Draw::new(seed, index);
            (0..8).map(|_| g.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7, 3), draw(7, 3));
        assert_ne!(draw(7, 3), draw(7, 4));
        assert_ne!(draw(7, 3), draw(8, 3));
    }
}
