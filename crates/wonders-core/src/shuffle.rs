//! The engine's shuffle: the very permutation, and the very draws from the generator, of
//! `rand` 0.10.3's [`SliceRandom::shuffle`](rand::seq::SliceRandom::shuffle), without its
//! divisions.
//!
//! `rand` shuffles by Fisher–Yates and saves draws: one draw of the generator gives the swap
//! positions of several cards at once (a number below the product `(n+1)(n+2)…(n+k)` that fits
//! in 32 bits, taken apart digit by digit in a mixed radix). Taking it apart costs a 32-bit
//! division per card, and the chunk's bound is found by a loop of checked products each draw.
//! Here the bounds are a table made at compile time and each division is a multiplication by
//! the divisor's reciprocal (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
//! 2019: for a 32-bit numerator and divisor, `⌈2⁶⁴/d⌉` gives the exact quotient and remainder).
//! Every deal is the same as with `rand`'s shuffle, which `every_length_and_seed_shuffles_as_rand_does`
//! checks; slices longer than [`FAST_MAX`] items are handed to `rand`'s own.
//!
//! Dealing is a few per cent of a random game: about 100 cards shuffled per
//! 4-player game, each with a division of 10–20 cycles.
//!
//! ```
//! use rand::SeedableRng;
//! use rand::seq::SliceRandom;
//! use rand_chacha::ChaCha8Rng;
//!
//! let mut ours: Vec<u32> = (0..49).collect();
//! let mut theirs = ours.clone();
//! let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(7), ChaCha8Rng::seed_from_u64(7));
//! wonders_core::shuffle::shuffle(&mut ours, &mut a);
//! theirs.shuffle(&mut b);
//! assert_eq!(ours, theirs);
//! assert_eq!(a, b); // the same draws were taken
//! ```

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

/// The longest slice shuffled here; longer ones go to `rand`'s shuffle (the same result).
pub const FAST_MAX: usize = 256;

/// For each `m` in `1..=FAST_MAX`: the product `m(m+1)…(m+k−1)` of the most consecutive
/// factors that fits in a `u32`, and `k` (`rand`'s `calculate_bound_u32`).
const BOUNDS: [(u32, u8); FAST_MAX + 1] = {
    let mut t = [(0u32, 0u8); FAST_MAX + 1];
    let mut m = 1;
    while m <= FAST_MAX {
        let mut product = m as u32;
        let mut current = m as u32 + 1;
        while let Some(p) = product.checked_mul(current) {
            product = p;
            current += 1;
        }
        t[m] = (product, (current - m as u32) as u8);
        m += 1;
    }
    t
};

/// `⌈2⁶⁴/d⌉` for each divisor `d` in `2..=FAST_MAX` (0 for 0 and 1, never used).
const RECIPROCALS: [u64; FAST_MAX + 1] = {
    let mut t = [0u64; FAST_MAX + 1];
    let mut d = 2;
    while d <= FAST_MAX {
        t[d] = u64::MAX / d as u64 + 1;
        d += 1;
    }
    t
};

/// `(x / d, x % d)` for a divisor `d` in `2..=FAST_MAX`, with two multiplications.
#[inline]
fn div_rem(x: u32, d: u32) -> (u32, u32) {
    let c = RECIPROCALS[d as usize];
    let quotient = ((c as u128 * x as u128) >> 64) as u32;
    let low = c.wrapping_mul(x as u64);
    let remainder = ((low as u128 * d as u128) >> 64) as u32;
    (quotient, remainder)
}

/// Shuffles `items` in place exactly as `items.shuffle(rng)` does with `rand` 0.10.3: the same
/// permutation, and the generator left in the same state.
pub fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    let len = items.len();
    if len > FAST_MAX {
        items.shuffle(rng);
        return;
    }
    if len <= 1 {
        return;
    }
    // `rand`'s `IncreasingUniform` from n = 0: position 0 swaps with itself without a draw;
    // each later position i takes a digit of base i+1 from the current chunk.
    let mut chunk = 0u32;
    let mut remaining = 0u8;
    for i in 1..len {
        let base = i as u32 + 1;
        if remaining == 0 {
            // A new chunk: a number below base·(base+1)·…, `count` digits (2 or more here).
            let (bound, count) = BOUNDS[base as usize];
            chunk = rng.random_range(..bound);
            remaining = count;
        }
        remaining -= 1;
        // The chunk's last digit is the chunk itself.
        let index = if remaining == 0 {
            chunk
        } else {
            let (q, r) = div_rem(chunk, base);
            chunk = q;
            r
        };
        items.swap(i, index as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_bound_table_is_rands_products() {
        // m = 2: 2·3·…·12 = 12! = 479,001,600 fits in 32 bits, ·13 = 6,227,020,800 does not.
        assert_eq!(BOUNDS[2], (479_001_600, 11));
        // m = 49: 49·50·51·52·53 = 344,362,200 fits, ·54 = 18,595,558,800 does not.
        assert_eq!(BOUNDS[49], (344_362_200, 5));
        // m = 256: 256·257·258 = 16,974,336 fits, ·259 = 4,396,353,024 does not.
        assert_eq!(BOUNDS[256], (16_974_336, 3));
        assert!(BOUNDS[1..].iter().all(|&(_, count)| count >= 2));
    }

    #[test]
    fn division_by_reciprocal_is_exact() {
        let samples = [0u32, 1, 2, 3, 255, 256, 65_535, 65_536, 1 << 31, u32::MAX - 1, u32::MAX];
        for d in 2..=FAST_MAX as u32 {
            for &x in &samples {
                assert_eq!(div_rem(x, d), (x / d, x % d), "{x} / {d}");
            }
            // Around every multiple of d near the top of the range, and a stride through it.
            for k in [1u32, 2, 3, 1_000, u32::MAX / d - 1, u32::MAX / d] {
                let m = k * d;
                for x in [m - 1, m, m.saturating_add(1)] {
                    assert_eq!(div_rem(x, d), (x / d, x % d), "{x} / {d}");
                }
            }
            let mut x = 7u32;
            for _ in 0..2_000 {
                assert_eq!(div_rem(x, d), (x / d, x % d), "{x} / {d}");
                x = x.wrapping_mul(2_654_435_761).wrapping_add(d);
            }
        }
    }

    #[test]
    fn every_length_and_seed_shuffles_as_rand_does() {
        for len in 0..=FAST_MAX + 3 {
            for seed in 0..40u64 {
                let mut ours: Vec<u16> = (0..len as u16).collect();
                let mut theirs = ours.clone();
                let mut a = ChaCha8Rng::seed_from_u64(seed * 1_000 + len as u64);
                let mut b = a.clone();
                shuffle(&mut ours, &mut a);
                theirs.shuffle(&mut b);
                assert_eq!(ours, theirs, "{len} items, seed {seed}");
                assert_eq!(a, b, "{len} items, seed {seed}: the generators differ after");
            }
        }
    }

    #[test]
    fn a_pinned_deal() {
        // rand 0.10.3's shuffle of 0..10 from ChaCha8 seed 1, written down: if `rand` ever
        // changes its shuffle, this crate's deals stay these.
        let mut v: Vec<u8> = (0..10).collect();
        shuffle(&mut v, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(v, [3, 8, 5, 2, 7, 9, 6, 0, 4, 1]);
        let mut w: Vec<u8> = (0..10).collect();
        w.shuffle(&mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(w, v, "rand's own shuffle (the version in Cargo.lock)");
    }
}
