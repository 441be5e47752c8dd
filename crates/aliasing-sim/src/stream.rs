//! Reproducible random streams.
//!
//! The frame index space is cut into fixed chunks; chunk `c` of a run with
//! seed `s` draws its error positions from its own xoshiro256++ stream seeded
//! from `(s, c)`. Payload bytes come from a counter-based hash of
//! `(seed, frame index, word index)`, so any payload bit can be read without
//! generating the frame. Results therefore depend only on the seed and the
//! parameters, never on thread count, shard split or resume point.
//!
//! ```
//! use aliasing_sim::stream::chunk_rng;
//! use rand_xoshiro::rand_core::Rng;
//! let mut a = chunk_rng(1, 7, 0);
//! let mut b = chunk_rng(1, 7, 0);
//! assert_eq!(a.next_u64(), b.next_u64());
//! // another chunk of the same run has its own stream
//! assert_ne!(a.next_u64(), chunk_rng(1, 8, 0).next_u64());
//! ```

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// The SplitMix64 finalizer: a bijective 64-bit mixing function.
#[inline(always)]
#[doc(hidden)]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The golden-ratio increment of SplitMix64.
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The xoshiro256++ stream of chunk `chunk` in stream family `family`
/// (0 = error positions of the frame simulation; rare-event strata use others).
pub fn chunk_rng(seed: u64, chunk: u64, family: u64) -> Xoshiro256PlusPlus {
    let key = mix64(mix64(seed ^ 0x05EE_D0FA_11A5) ^ mix64(chunk.wrapping_add(GOLDEN)))
        ^ mix64(family.wrapping_mul(GOLDEN) ^ 0xFA_u64);
    Xoshiro256PlusPlus::seed_from_u64(key)
}

/// A uniform double in (0, 1] (never 0, so its logarithm is finite).
#[inline(always)]
#[doc(hidden)]
pub fn unit_f64<R: Rng>(rng: &mut R) -> f64 {
    ((rng.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A uniform integer in `0..n` (Lemire's multiply-shift; bias below 2^-64 * n, exact
/// enough for simulation and fully deterministic).
#[inline(always)]
#[doc(hidden)]
pub fn below<R: Rng>(rng: &mut R, n: u64) -> u64 {
    ((rng.next_u64() as u128 * n as u128) >> 64) as u64
}

/// Key of frame `frame` for payload words: a function of the seed and the frame index only.
#[inline(always)]
pub(crate) fn frame_key(seed: u64, frame: u64) -> u64 {
    mix64(mix64(seed ^ 0xDA7A_DA7A) ^ frame.wrapping_mul(GOLDEN))
}

/// Payload word `word` of the frame with key `key` (8 bytes, little-endian in the frame).
#[inline(always)]
pub(crate) fn payload_word(key: u64, word: u64) -> u64 {
    mix64(key.wrapping_add(word.wrapping_mul(GOLDEN)))
}
