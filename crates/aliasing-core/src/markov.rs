//! The exact Markov-chain solver over CRC register states (design.md, method 1).
//!
//! The state is the `r`-bit remainder of the error pattern; one step feeds
//! one error bit. By linearity the escape depends on the error pattern only,
//! so the error-free register sits in state 0 and `P_undetected(n)` is the
//! mass of the paths with at least one error that end in state 0 after `n`
//! steps (a length-`n` codeword, check bits included, is `n` steps).
//!
//! The chain is carried in *error-mass form* (see `sparse`): the mass of the
//! error-free paths and the mass `Q_t` of the paths with at least one error
//! are kept apart, so `P_undetected = Q_n[0]` is a sum of positive terms and
//! stays accurate to about `n * eps` relative, down to 1e-40 and below.
//!
//! Three implementations agree to 1e-13 relative (tested):
//! - `sparse`: a general engine over `sprs` CSR matrices for any finite
//!   chain (product chains for burst channels fit);
//! - `butterfly`: a kernel for the CRC chain, one read and one write of the
//!   state vector per step, parallel with rayon; with its in-place variant
//!   `inplace` (one vector, same bits) for large widths;
//! - `walk`: the chain as a random walk on unwound syndromes, where each
//!   step is a butterfly on fixed pairs, so a block of steps runs in
//!   registers per pass over the vector (vectorised for AVX2); the solver's
//!   kernel from width 8 on x86-64.
//!
//! `cpu` detects the CPU's vector instructions once; every kernel's
//! vector path is reached only through its `cpu::Isa`, and the scalar
//! path it always has gives the same bits (tested).
//!
//! [`gilbert`] runs the product chain (register x channel state) of a
//! Gilbert-Elliott burst channel on the butterfly kernel.
//!
//! One pass yields every length up to the largest requested. Cost
//! `O(n_max * 2^r)` per BER; memory one vector of `2^r` f64 per BER in
//! flight with `walk` (`estimate_bytes`). [`p_undetected`] refuses a run
//! that would not fit the memory budget ([`crate::units::MemoryBudget`])
//! before anything is allocated.
//!
//! ```
//! use aliasing_core::{markov, poly::Generator};
//! let g: Generator = "0x11021".parse().unwrap(); // CRC-16/CCITT polynomial
//! let ctx = aliasing_core::ctx::Ctx::default();
//! let pts = markov::curve(&g, &[512, 12144], &[1e-5], &ctx).unwrap();
//! assert_eq!(pts[1].bits, 12144);
//! assert!(pts[1].p_undetected > 0.0 && pts[1].p_undetected < 1e-9);
//! ```

// Every `unsafe` block of the kernels says why it is sound.
#![warn(clippy::undocumented_unsafe_blocks)]

#[doc(hidden)] // kernel: public for the benches only
pub mod butterfly;
#[doc(hidden)] // kernel dispatch: public for the benches and tests only
pub mod cpu;
pub mod gilbert;
#[doc(hidden)] // kernel: public for the benches only
pub mod inplace;
#[cfg(feature = "unit-tests")]
pub(crate) mod sparse;
#[doc(hidden)] // kernel: public for the benches only
pub mod walk;

use crate::bsc::{self, CurvePoint};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::poly::Generator;
use crate::progress::Progress;
use rayon::prelude::*;

/// Environment variable that turns the hand-vectorised kernels off (any
/// value but `0`; read once by `cpu::Isa::detect`): the solver then takes
/// the portable paths a CPU without AVX2 would, for testing them or ruling
/// them out. The results stay exact (the walk and butterfly kernels agree
/// to 1e-13).
pub(crate) const NO_SIMD_ENV: &str = "ALIAS_NO_SIMD";

/// How [`solve`] runs a `width`-bit chain with `bers` BERs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// [`walk`], one BER per rayon thread (one vector each).
    WalkPerBer,
    /// [`walk`], one BER after the other, each block split across threads
    /// (one vector): fewer BERs than threads at widths from
    /// [`butterfly::PARALLEL_WIDTH`].
    WalkSplit,
    /// [`butterfly::p_undetected`]: widths below [`walk::MIN_WIDTH`], or a
    /// CPU without the vector path of [`walk`].
    Butterfly,
}

impl Kernel {
    /// The plan for a `width`-bit chain with `bers` BERs on this machine.
    pub(crate) fn new(width: u32, bers: usize) -> Kernel {
        Kernel::on(cpu::Isa::detect(), width, bers)
    }

    /// The plan for a `width`-bit chain with `bers` BERs on the
    /// instructions of `isa`.
    pub(crate) fn on(isa: cpu::Isa, width: u32, bers: usize) -> Kernel {
        if width < walk::MIN_WIDTH || !isa.vectorises_walk() {
            Kernel::Butterfly
        } else if width >= butterfly::PARALLEL_WIDTH && bers < rayon::current_num_threads() {
            Kernel::WalkSplit
        } else {
            Kernel::WalkPerBer
        }
    }
}

/// Estimated peak memory in bytes of the solver for a `width`-bit CRC and
/// `bers` BERs, following the kernel [`solve`] picks: [`walk`] holds one vector of
/// `2^width` f64 per BER in flight (one BER per thread, or one in all when
/// split); the butterfly kernel two (one BER per thread below
/// [`butterfly::PARALLEL_WIDTH`], one BER at a time up to
/// [`butterfly::INPLACE_WIDTH`]), then one per BER, one BER per thread.
pub(crate) fn estimate_bytes(width: u32, bers: usize) -> f64 {
    let per_thread = bers.min(rayon::current_num_threads()).max(1) as f64;
    let vectors = match Kernel::new(width, bers) {
        Kernel::WalkPerBer => per_thread,
        Kernel::WalkSplit => 1.0,
        Kernel::Butterfly if width >= butterfly::INPLACE_WIDTH => per_thread,
        Kernel::Butterfly if width >= butterfly::PARALLEL_WIDTH => 2.0,
        Kernel::Butterfly => 2.0 * per_thread,
    };
    vectors * 8.0 * 2f64.powi(width as i32) + (1 << 20) as f64
}

/// Refuses a run whose [`estimate_bytes`] exceeds `limit` bytes, with a
/// one-line [`crate::Error::TooBig`] giving both.
pub(crate) fn check_memory(width: u32, bers: usize, limit: f64) -> Result<()> {
    crate::units::MemoryBudget::bytes(limit)?.admit(
        || {
            format!(
                "the exact Markov solver for a {width}-bit CRC ({bers} BER{})",
                if bers == 1 { "" } else { "s" }
            )
        },
        estimate_bytes(width, bers),
    )
}

/// `P_undetected` of the CRC `g` for every BER (outer index) and length
/// (inner index), after checking the BERs and the memory (against the
/// context's budget, [`Ctx::budget`]), watched by the context's progress;
/// see [`solve`].
pub fn p_undetected(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    ctx: &Ctx,
) -> Result<Vec<Vec<f64>>> {
    p_undetected_in(g, lengths, bers, ctx.budget(), ctx.progress())
}

/// [`p_undetected`] held to `budget`, watched by `progress`.
pub(crate) fn p_undetected_in(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    budget: crate::units::MemoryBudget,
    progress: &dyn Progress,
) -> Result<Vec<Vec<f64>>> {
    for &p in bers {
        bsc::check_ber(p)?;
    }
    check_memory(g.width(), bers.len(), budget.get())?;
    Ok(solve_watched(g, lengths, bers, progress))
}

/// Steps of a chain pass per progress report: about `2^24` state updates.
pub(crate) fn report_every(width: u32) -> u64 {
    1u64 << 24u32.saturating_sub(width)
}

/// `P_undetected` for every BER (outer index) and length (inner index) with
/// the kernel this machine runs fastest, without checks: the BERs must lie in
/// `[0, 1]` and `estimate_bytes` must fit. The result does not depend on
/// the thread count.
///
/// Watched by the progress of `ctx`: one stage, `"chain steps"`, of
/// `max(lengths)` steps for each BER, reported in blocks of about `2^24`
/// state updates. (Unchecked, the run does not consult the context's
/// memory budget: [`p_undetected`] does.)
pub fn solve(g: &Generator, lengths: &[u64], bers: &[f64], ctx: &Ctx) -> Vec<Vec<f64>> {
    solve_watched(g, lengths, bers, ctx.progress())
}

/// [`solve`] watched by `progress` (the library's own callers, which hold
/// a watcher rather than a context).
pub(crate) fn solve_watched(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    progress: &dyn Progress,
) -> Vec<Vec<f64>> {
    let n_max = lengths.iter().copied().max().unwrap_or(0);
    progress.stage("chain steps", n_max.saturating_mul(bers.len() as u64));
    match Kernel::new(g.width(), bers.len()) {
        Kernel::WalkPerBer => bers
            .par_iter()
            .map(|&p| walk::p_undetected_one_with(g, lengths, p, false, progress))
            .collect(),
        Kernel::WalkSplit => bers
            .iter()
            .map(|&p| walk::p_undetected_one_with(g, lengths, p, true, progress))
            .collect(),
        Kernel::Butterfly => butterfly::p_undetected_with(g, lengths, bers, progress),
    }
}

/// The aliasing curve of `g`: one [`CurvePoint`] per BER and length, BER-major
/// (all lengths of the first BER, then the next), computed in one pass per
/// BER, in `ctx` (see [`p_undetected`]).
pub fn curve(g: &Generator, lengths: &[u64], bers: &[f64], ctx: &Ctx) -> Result<Vec<CurvePoint>> {
    let pud = p_undetected(g, lengths, bers, ctx)?;
    Ok(points(g, lengths, bers, &pud))
}

/// Curve points, BER-major, from the chain's `P_ud` rows (one row per BER).
pub(crate) fn points(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    pud: &[Vec<f64>],
) -> Vec<CurvePoint> {
    let r = g.width() as u64;
    bers.iter()
        .zip(pud)
        .flat_map(|(&p, row)| {
            lengths
                .iter()
                .zip(row)
                .map(move |(&n, &ud)| CurvePoint::new(p, n, r, ud))
        })
        .collect()
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
