//! # aliasing-sim
//!
//! Monte Carlo and rare-event estimation of undetected-error rates through
//! stacks of checks.
//!
//! - [`stack`]: frame layouts (Ethernet, Ethernet+IPv4+TCP, bare TCP, any CRC or
//!   checksum), re-exported from `aliasing_core::layout`.
//! - [`channel`]: BSC, Gilbert-Elliott bursts, exactly `k` errors.
//! - [`stream`]: per-chunk random streams and the counter-based payload hash.
//! - [`sparse`]: verdicts from error positions alone (cost per error).
//! - [`dense`]: real bytes and real checks (the reference).
//! - [`run`]: the parallel, chunked, resumable driver.
//! - [`interval`]: exact Clopper-Pearson intervals.
//! - `mpi` (feature `mpi`): MPI ranks as a [`shard::Team`].
//! - [`exact_sum`]: exact, order-free sums of `f64` values and their squares.
//! - [`rare`]: stratified, conditional sampling for rare CRC escapes.
//! - [`burst_rare`]: importance sampling for rare CRC escapes on a
//!   Gilbert-Elliott burst channel, any width (an estimate with its interval).
//! - [`spec`]: the payload spec and the parameter set of a run ([`spec::Params`]).
//! - [`session`]: a run as the command line sees it: parameters, shard,
//!   checkpoint and resume, result files, merge and the report.
//! - [`shard`]: shards, checkpoints and merging for any computation cut
//!   into a fixed list of work items (frames, rare-event strata, ...).
//! - [`joint`]: the exact joint stack computation (`alias stack`) as shard
//!   work: parameters, items, tallies and shard files; [`joint::StackJob`],
//!   the command as a library job.
//! - [`simulate`]: `alias simulate` as a library job
//!   ([`simulate::SimulateJob`]): one request routed to Monte Carlo or a
//!   rare-event sampler, run in an `aliasing_core::ctx::Ctx`, and the merge
//!   of its shard files.
//! - [`report`]: escapes per check and for the stack, with intervals.
//! - [`corruption`]: corruption inside hosts and routers (word, burst,
//!   splice, bit flips) and whether the TCP checksum misses it, over uniform
//!   data or a file.
//! - [`transfer`]: corrupted frames delivered in a transfer
//!   ([`transfer::TransferJob`], `alias transfer` as a library job).
//! - [`weights`]: `alias weights` as a job, its dual-code pass split into
//!   shard files and their merge.
//! - [`search`]: `alias search` split into shards through [`session`]: a
//!   shard's run, its result file and the merge into the unsharded search.
//! - [`exact`]: exact values to print beside the estimates (CRCs and Internet
//!   checksums on a BSC).
//!
//! A check *escapes* on a frame when the frame has at least one flipped bit
//! (anywhere) and that check passes; the stack escapes when every check passes.
//!
//! ```
//! use aliasing_sim::channel::Channel;
//! use aliasing_sim::interval::clopper_pearson;
//! use aliasing_sim::run::{Frames, Plan, RunOptions, Seed, simulate};
//! use aliasing_sim::stack::{Frame, Payload};
//!
//! // 100,000 64-byte frames through CRC-8/SMBUS at BER 1e-3, seed 7.
//! let frame = Frame::new("crc8", 64, Payload::Random).unwrap();
//! let plan = Plan::new(frame, Channel::Bsc { ber: 1e-3 }, Frames(100_000), Seed(7));
//! let c = simulate(&plan, &RunOptions::default(), None).unwrap();
//! assert_eq!(c.frames, 100_000);
//! // same seed, same answer, whatever the thread count
//! assert_eq!(c, simulate(&plan, &RunOptions::default(), None).unwrap());
//! let (lo, hi) = clopper_pearson(c.escapes[0], c.frames, 0.95);
//! assert!(lo <= c.escapes[0] as f64 / 1e5 && c.escapes[0] as f64 / 1e5 <= hi);
//! ```
//!
//! ## Where things go
//!
//! - **A new channel** (an error model): a variant of [`channel::Channel`]
//!   with its parameters (its command-line flags are parsed by the CLI), its
//!   check in `Channel::validate`, and its sampler in
//!   [`channel::ErrorStream`]: the error positions of one frame, drawn from
//!   that chunk's stream ([`stream`]). Both engines then run it; an
//!   exact value to print beside the estimates goes in [`exact`].
//! - **A new engine** (another way to decide the verdicts of a frame): a
//!   type beside [`sparse::Sparse`] and [`dense::Dense`] that gives every
//!   check's verdict for one frame's error positions, a variant of
//!   [`run::Engine`], and its arm in the driver in [`run`]; it must agree
//!   frame for frame with [`dense::Dense`], the reference (see
//!   `tests/engines.rs`).
//! - **A new stack** (frame layout) is data in `aliasing_core::layout`
//!   ([`stack::Frame::new`]), shared with the exact joint computation; the
//!   simulator reads it as it is.
//! - **A new report field** goes in [`report::Report`], the `simulate`
//!   result document (it implements `aliasing_core::document::Document`, so
//!   it travels tagged with its kind and schema version). The plot crate
//!   reads `simulate` documents through this same type, so a field it
//!   should draw goes into its view in `aliasing_plot::doc` too.
//! - **A new estimator** (another way to estimate a rare escape): a module
//!   beside [`rare`] and [`burst_rare`] with its parameters, its work cut
//!   into a fixed list of items whose integer tallies add
//!   ([`shard::Tally`]), run by [`shard::drive`] (so shards, checkpoints,
//!   resume and [`shard::merge`] come for free), and its result document
//!   implementing `aliasing_core::document::Document` under its own kind
//!   (as [`rare::RareReport`] and [`burst_rare::BurstRareReport`]).
//! - **A new kind of resumable run** with the command line's rules (resume,
//!   checkpoints, result files): a [`session::RunKind`] implementation for
//!   its parameters, driven by [`session::Session`].
//!
//! ## What is not public
//!
//! The exact binomial tails behind [`interval::clopper_pearson`] and the
//! shard check are not part of the API. The crate's tests (`tests/sim/`, a
//! module per source module) reach them and the other internals they check
//! (the driver's tallies, the corruption kernels, the rare-event samplers'
//! fields) through the hidden module `__private`, which is no part of the
//! stable API either: anything in it may change in any release.
//! [`run::Checkpoint`] and [`run::CheckpointFn`] are the Monte Carlo run's
//! instances of the generic [`shard::Checkpoint`] and
//! [`shard::CheckpointFn`], not other types.
#![warn(missing_docs)]

#[doc(hidden)] // the integration tests' door: not part of the API
pub mod __private;
pub mod burst_rare;
pub mod channel;
pub mod corruption;
pub mod dense;
pub mod exact;
pub mod exact_sum;
pub mod interval;
pub mod joint;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod rare;
pub mod report;
pub mod run;
pub mod search;
pub mod session;
pub mod shard;
pub mod simulate;
pub mod sparse;
pub mod spec;
pub mod stack;
pub mod stream;
pub mod transfer;
pub mod weights;

pub use aliasing_core::{Error, Limit, Param, Result};
pub use run::{Frames, Seed};

/// The crate's README, whose example runs as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;
