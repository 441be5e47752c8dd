//! Error models: the binary symmetric channel, Gilbert-Elliott bursts and
//! exactly `k` random errors per frame.
//!
//! Errors are drawn over one continuous bit stream per chunk, in transmission
//! order, by geometric gaps: the cost is per error (and per burst-state
//! change), not per bit or per frame. Both the sparse and the dense engine
//! take their error positions from here, so on one seed they see the same
//! errors.
//!
//! ```
//! use aliasing_sim::channel::{Channel, ErrorStream};
//! use aliasing_sim::stream::chunk_rng;
//! let mut s = ErrorStream::new(&Channel::Exactly { k: 3 }, 100, chunk_rng(1, 0, 0));
//! let mut flips = Vec::new();
//! s.next_frame(&mut flips);
//! assert_eq!(flips.len(), 3);
//! ```

use crate::stream::{below, unit_f64};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// The Gilbert-Elliott channel's parameters (shared with the exact solver,
/// [`aliasing_core::markov::gilbert`]).
pub use aliasing_core::channel::GilbertElliott;

/// An error model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Channel {
    /// Every bit flips independently with probability `ber`.
    Bsc {
        /// Bit error rate.
        ber: f64,
    },
    /// Gilbert-Elliott bursts.
    Burst(GilbertElliott),
    /// Exactly `k` distinct bits of each frame flip, uniformly at random.
    Exactly {
        /// Number of errors per frame.
        k: u32,
    },
}

impl Channel {
    /// Checks the parameters against a frame of `n_bits` bits.
    pub fn validate(&self, n_bits: u64) -> aliasing_core::Result<()> {
        match *self {
            // the core's one BER rule (and its error)
            Channel::Bsc { ber } => aliasing_core::units::Ber::new(ber).map(|_| ()),
            Channel::Burst(g) => g.validate(),
            Channel::Exactly { k } => {
                if k == 0 || k as u64 > n_bits {
                    Err(aliasing_core::Error::Param {
                        param: aliasing_core::Param::Errors,
                        reason: format!("{k} errors per frame: expected 1 to {n_bits}"),
                    })
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// Number of failures before the first success of a Bernoulli(p) sequence,
/// given `ln(1-p)`; saturates far beyond any frame stream.
#[inline(always)]
pub(crate) fn geometric(rng: &mut Xoshiro256PlusPlus, ln_q: f64) -> u64 {
    if ln_q == 0.0 {
        return NONE;
    }
    let g = unit_f64(rng).ln() / ln_q;
    if g < NONE as f64 { g as u64 } else { NONE }
}

/// Error positions of consecutive frames of one chunk.
pub struct ErrorStream {
    rng: Xoshiro256PlusPlus,
    n_bits: u64,
    frame_start: u64,
    kind: Kind,
}

/// The end of a stream of unknown length: a Gilbert-Elliott stream looks no
/// further for its next error.
const FAR: u64 = u64::MAX / 8;

/// The error position that stands for "none in this stream".
const NONE: u64 = u64::MAX / 4;

enum Kind {
    Bsc {
        ln_q: f64,
        next: u64,
    },
    Burst {
        ln_q: [f64; 2],
        ln_stay: [f64; 2],
        bad: bool,
        state_end: u64,
        next: u64,
        /// Where the stream ends: no error is looked for beyond it.
        horizon: u64,
    },
    Exactly {
        k: u32,
    },
}

impl ErrorStream {
    /// The stream of a chunk, for frames of `n_bits` bits, drawing from `rng`.
    pub fn new(channel: &Channel, n_bits: u64, rng: Xoshiro256PlusPlus) -> Self {
        Self::with_frames(channel, n_bits, u64::MAX, rng)
    }

    /// [`ErrorStream::new`] for a stream of at most `frames` frames: the
    /// same errors in those frames, and a Gilbert-Elliott channel looks for
    /// none past them. A channel whose states never err (both error rates
    /// 0) draws nothing at all, and one whose errors are far apart (rates
    /// near 0 in both states) costs at most one step per state change
    /// within the frames, never a walk to the end of a 64-bit stream.
    pub fn with_frames(
        channel: &Channel,
        n_bits: u64,
        frames: u64,
        mut rng: Xoshiro256PlusPlus,
    ) -> Self {
        let horizon = frames.saturating_mul(n_bits).min(FAR);
        let kind = match *channel {
            // no state errs: no error anywhere, at no cost
            Channel::Burst(g) if g.p_good == 0.0 && g.p_bad == 0.0 => Kind::Bsc {
                ln_q: 0.0,
                next: NONE,
            },
            Channel::Bsc { ber } => {
                let ln_q = (-ber).ln_1p();
                let next = geometric(&mut rng, ln_q);
                Kind::Bsc { ln_q, next }
            }
            Channel::Burst(g) => {
                let ln_q = [(-g.p_good).ln_1p(), (-g.p_bad).ln_1p()];
                let ln_stay = [(-g.good_to_bad).ln_1p(), (-g.bad_to_good).ln_1p()];
                let bad = unit_f64(&mut rng) <= g.bad_fraction();
                let state_end = 1 + geometric(&mut rng, ln_stay[bad as usize]);
                let mut k = Kind::Burst {
                    ln_q,
                    ln_stay,
                    bad,
                    state_end,
                    next: 0,
                    horizon,
                };
                burst_advance(&mut k, &mut rng, 0);
                k
            }
            Channel::Exactly { k } => Kind::Exactly { k },
        };
        ErrorStream {
            rng,
            n_bits,
            frame_start: 0,
            kind,
        }
    }

    /// Skips the error-free frames before the next frame with an error, up
    /// to `max` frames; returns how many were skipped. Equivalent to calling
    /// [`ErrorStream::next_frame`] that many times (clean frames draw nothing).
    #[inline]
    pub fn skip_clean(&mut self, max: u64) -> u64 {
        let next = match &self.kind {
            Kind::Bsc { next, .. } | Kind::Burst { next, .. } => *next,
            Kind::Exactly { .. } => return 0,
        };
        let skip = ((next - self.frame_start) / self.n_bits).min(max);
        self.frame_start += skip * self.n_bits;
        skip
    }

    /// Appends to `out` (after clearing it) the flipped bits of the next frame,
    /// as ascending bit indices in transmission order.
    // Forced inline, as `Sparse::verdict`: loops in other crates call it
    // once per frame.
    #[inline(always)]
    pub fn next_frame(&mut self, out: &mut Vec<u32>) {
        out.clear();
        let start = self.frame_start;
        let end = start + self.n_bits;
        self.frame_start = end;
        match &mut self.kind {
            Kind::Bsc { ln_q, next } => {
                while *next < end {
                    out.push((*next - start) as u32);
                    *next = *next + 1 + geometric(&mut self.rng, *ln_q);
                }
            }
            kind @ Kind::Burst { .. } => loop {
                let Kind::Burst { next, .. } = kind else {
                    unreachable!()
                };
                if *next >= end {
                    break;
                }
                let at = *next;
                out.push((at - start) as u32);
                burst_advance(kind, &mut self.rng, at + 1);
            },
            Kind::Exactly { k } => {
                // Floyd's algorithm: k distinct values of 0..n
                let n = self.n_bits;
                let k = *k as u64;
                for j in (n - k)..n {
                    let t = below(&mut self.rng, j + 1) as u32;
                    if out.contains(&t) {
                        out.push(j as u32);
                    } else {
                        out.push(t);
                    }
                }
                out.sort_unstable();
            }
        }
    }
}

/// Sets `next` to the first error at or after `from` of a Gilbert-Elliott stream.
fn burst_advance(kind: &mut Kind, rng: &mut Xoshiro256PlusPlus, mut from: u64) {
    let Kind::Burst {
        ln_q,
        ln_stay,
        bad,
        state_end,
        next,
        horizon,
    } = kind
    else {
        unreachable!()
    };
    loop {
        let cand = from.saturating_add(geometric(rng, ln_q[*bad as usize]));
        if cand < *state_end {
            *next = cand;
            return;
        }
        from = *state_end;
        *bad = !*bad;
        *state_end = from.saturating_add(1 + geometric(rng, ln_stay[*bad as usize]));
        if from >= *horizon {
            *next = NONE;
            return;
        }
    }
}
