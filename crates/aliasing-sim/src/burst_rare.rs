//! Rare CRC escapes on a Gilbert-Elliott burst channel, for any width:
//! an unbiased importance-sampling estimate with its interval.
//!
//! # Why an estimate
//!
//! The exact product chain ([`aliasing_core::markov::gilbert`]) costs
//! `O(n 2^r)` and stops at 24 bits. The dual-code route for 32 bits sums
//! `2^32` signed terms, one 2x2 transfer-matrix product per dual word, down
//! to `P_ud`: the terms are of order `P(no error)`, near 1, and `P_ud` is
//! near 1e-15, so about fifteen of the sixteen digits cancel and nothing
//! here proves how many survive. So 32-bit CRCs under bursts get this
//! estimator instead, and it says so in its output.
//!
//! # The estimator
//!
//! `P_ud = sum over nonzero codewords e of P(e)`, with `P(e)` the
//! probability that exactly the bits of `e` flip (an error pattern over the
//! frame in transmission order). An error pattern `x` is drawn from a
//! *proposal* `Q`, another Gilbert-Elliott channel ([`default_proposal`]:
//! bursts and good-state errors more frequent, so that a frame carries a
//! few errors), and turned into codewords in three ways:
//!
//! 1. **Window completion**, anchored at each error `a` of `x`. `W_a` is the
//!    first `r` positions after `a` whose syndromes are independent (for a
//!    CRC read in transmission order, `a+1 ..= a+r`; in general a greedy
//!    basis, a function of `a` alone). The bits of `x` outside `W_a` (the
//!    *head*) have a syndrome; if it lies in the span of `W_a`, exactly one
//!    choice of the bits in `W_a` completes a codeword `e`. `e` is produced
//!    from anchor `a` by exactly the draws that agree with it outside
//!    `W_a`, so the expected number of times a draw produces `e` this way is
//!    `Q1(e) = sum over a in e of Q(e outside W_a, W_a anything)`. This
//!    finds the codewords a burst makes: errors dense after `a`, the
//!    completion a typical burst pattern.
//! 2. **Syndrome lookup.** Every position `m` not in `x` whose syndrome
//!    equals `x`'s completes the codeword `e = x + m`:
//!    `Q2(e) = sum over j in e of Q(e - j)`. This finds codewords of a few
//!    scattered errors, as the BSC's conditional sampler ([`crate::rare`])
//!    does.
//! 3. **Short-burst lookup.** Every short burst `B` (an error at `s` and at
//!    most two more in `s+1 .. s+L`, `L` up to 64) with the syndrome of
//!    `x`, where `x` has no error in `s .. s+L`, completes `e = x + B`:
//!    `Q3(e) = sum over s in e with at most 3 errors of e in s .. s+L of
//!    Q(e minus its errors in s .. s+L)`. This finds codewords made of a
//!    burst of a few errors plus scattered ones, which carry most of the
//!    mass on sparse-burst channels (a bad state whose BER is well below
//!    1/2: a burst holds one to three errors, and a codeword's cluster is
//!    rarely drawn, but its scattered errors often are). For a CRC over
//!    the frame (`table[p] = B table[p+1]` for one linear map `B`, checked
//!    at every position) the bursts with a syndrome `t` are found by one
//!    pass over the starts in strides of 64, looking `B^(64 j) t` up among
//!    the bursts at the first 64 starts (`ShortBursts`): any span up to 64
//!    at `O(n / 64)` a draw, no big table. Other layouts use a table of every burst at every start
//!    (at most 2^21 entries). The span is the widest whose bursts, at every
//!    start, number at most `2^r / 16` (so a draw meets about 1/16 of a
//!    chance match at most).
//!
//! Each codeword found counts `P(e) / D(e)`, `D = Q1 + Q2 + Q3` (the
//! balance heuristic of multiple importance sampling), so a draw scores
//! `Z = sum over found e of P(e) / D(e)` and
//! `E_Q[Z] = sum_e P(e) D(e) / D(e) = P_ud` exactly:
//! the estimator is unbiased for any proposal whose four parameters lie
//! strictly inside (0, 1) (then `Q2(e) > 0` for every codeword). `P`,
//! `Q1`, `Q2` and `Q3` are exact forward (and backward) products of 2x2 matrices
//! over the pattern's errors, with the clean runs between them taken from
//! precomputed matrix powers, in scaled form with a log scale (no
//! underflow for any frame). Tests check `E_Q[Z] = P_ud` to 1e-12 by
//! enumerating every pattern of a small frame.
//!
//! The estimate is the mean of `Z` over the draws; its standard error is
//! the sample standard deviation over `sqrt(N)`, and the interval is the
//! normal one, mean +- 1.96 standard errors, reported with the number of
//! draws that found a codeword (*hits*): with few hits, importance weights
//! are heavy-tailed and the interval is not to be trusted (a run with no
//! hit reports 0 and an upper end of infinity: it bounds nothing).
//!
//! # The joint escape of a stack
//!
//! For a stack of one CRC over the whole frame and Internet checksums
//! (`ethernet-tcp`, `ipv4-tcp+CRC`; [`BurstRareWork::joint`]) the same
//! draws, over the stack's frame, find the same codewords (the CRC's
//! syndrome table depends on its length and bit order only, so the CRC's
//! estimate is the lone CRC's, digit for digit), and each codeword `e`
//! also counts `P(e) pass(e) / D(e)`, where `pass(e)` is the exact
//! probability over the random payload that every checksum passes
//! (the joint model's pass probability: any number of flipped bits,
//! the conventions and field model of the binary symmetric joint). Then
//! `E_Q[Z_joint] = sum over codewords e of P(e) pass(e)`, the joint escape:
//! unbiased for any pass function (tested over every draw of small frames),
//! with its own hits, variance and normal interval, widened by the field
//! model's bound (the same weighted sum of
//! the joint model's per-pattern bound over the codewords that flip a field
//! computed from random data; negligible beyond tiny frames). The draws are
//! shaped for CRC codewords, most of which fail a checksum, so the joint's
//! relative error is several times the CRC's.
//!
//! Streams: work item `i` draws `min(CHUNK, rest)` patterns from
//! `chunk_rng(seed, i, 3000)`; the sums of the scores and of their squares
//! are exact ([`crate::exact_sum`]), so they add up to the same bits in any
//! order, and the result depends on the seed and the parameters only (not
//! on threads, shards, MPI ranks or where a run was resumed).

use crate::channel::{Channel, GilbertElliott, geometric};
use crate::exact_sum::ExactSum;
use crate::rare::{Lookup, RareEstimate, widest_crc};
use crate::run::Plan;
use crate::stream::{chunk_rng, unit_f64};
use aliasing_core::__private::joint::JointModel;
use aliasing_core::markov::gilbert;
use aliasing_core::{Error, Limit, Result};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// Draws per work item.
pub const CHUNK: u64 = 1 << 14;

/// The most draws one run accepts.
pub const MAX_SAMPLES: u64 = 1_000_000_000_000;

/// Stream family of the draws (distinct from the frame and BSC rare streams).
#[doc(hidden)]
pub const FAMILY: u64 = 3000;

mod bursts;
mod law;
mod report;
mod work;

pub use bursts::*;
pub use law::*;
pub use report::*;
pub use work::*;
