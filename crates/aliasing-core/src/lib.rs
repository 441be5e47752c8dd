//! # aliasing-core
//!
//! Exact probabilities that a corrupted frame slips past its CRC or checksum
//! (an *undetected error*, *escape* or *aliasing*), for any generator
//! polynomial, codeword length, bit error rate and stack of checks.
//!
//! - [`poly`]: generator polynomials and their four notations.
//! - [`gf2`]: arithmetic over GF(2): `x^k mod g`, period, primitivity.
//! - [`factor`]: a generator's irreducible factors and the order of `x`
//!   modulo each.
//! - [`trinomial`]: weight-3 codewords by discrete (Zech) logarithms, for
//!   period-limited generators.
//! - [`catalogue`]: RevEng names, aliases, default primitive polynomials.
//! - [`crc`]: real CRC computation with full parameters.
//! - [`check`]: the [`check::Check`] trait shared by CRCs and checksums, and
//!   the one name table of checks ([`check::resolve`]).
//! - [`checksum`]: Internet (RFC 1071), Fletcher-16/32 and Adler-32.
//! - [`bsc`]: the binary symmetric channel, computed without cancellation.
//! - [`burst`]: burst-error guarantees of a CRC, counted by enumeration.
//! - [`channel`]: the Gilbert-Elliott burst channel's parameters.
//! - [`markov`]: the exact Markov-chain solver over register states.
//! - [`dual`], [`weights`], [`highprec`]: exact `P_ud` from the dual code's
//!   weights (MacWilliams), up to 32-bit CRCs.
//! - [`lowweight`]: low-weight codewords by meet-in-the-middle, HD profiles.
//! - [`units`]: typed BER, lengths in bits or bytes, the memory budget.
//! - [`curve`]: exact aliasing curves of CRCs: the [`curve::ExactMethod`]
//!   trait (a new exact method goes here), `auto`, one-point [`curve::escape`].
//! - [`search`]: which generator to use: exhaustive or sampled search by
//!   Hamming distance, then exact `P_ud`.
//! - [`shard`]: shard `i` of `n` of any split computation (search,
//!   simulation, dual pass), its one validation rule and its two deals.
//! - [`bracket`]: a certified bracket on `P_ud` for CRCs wider than 32 bits.
//! - [`internet`]: exact Internet-checksum escapes (random data, given payload).
//! - [`fletcher`]: exact Fletcher-16 escapes; why not Fletcher-32/Adler-32.
//! - [`layout`]: frame layouts and stacks of checks (Ethernet, IPv4, TCP),
//!   shared by the simulator and the exact joint computation.
//! - [`joint`]: exact joint escape of a CRC and Internet checksums over a layout.
//! - [`compare`]: exact curves of any check over byte lengths.
//! - [`ctx`]: the one context of a run ([`ctx::Ctx`]: memory budget,
//!   progress, threads, MPI team) and [`ctx::Job`], a command as a library
//!   call.
//! - [`job`]: the commands as library jobs (validated requests whose run
//!   returns their document).
//! - [`document`]: every result as a typed serde document, tagged with its
//!   kind and a schema version (the CLI's JSON output; what the plots read).
//!
//! ```
//! use aliasing_core::{bsc, catalogue};
//! let crc = catalogue::resolve("crc32").unwrap();
//! assert_eq!(crc.generator().full_string(), "0x104C11DB7");
//! assert!(bsc::p_error(12144, 1e-5) > 0.1);
//! ```
//!
//! ## Where things go
//!
//! - **A new check** (a checksum or CRC family): a variant of
//!   [`check::CheckSpec`] with its names in [`check::resolve`] (the one name
//!   table of every command), a [`check::Check`] implementation, its frame
//!   layout in [`layout`] (a [`layout::CheckDef`] names the check by its
//!   [`check::CheckSpec`] and adds only its placement), and its exact method (if any) reached from
//!   [`compare::curve`].
//! - **A new exact method**: an [`registry::Entry`] (its domain, and its
//!   assessment of a request: a cost in time and memory against the one
//!   [`units::MemoryBudget`], or a typed [`registry::Refusal`]); `auto`
//!   ([`registry::choose`]) then considers it. For a CRC's curve, also a type
//!   implementing [`curve::ExactMethod`] (the computation), listed in
//!   [`curve::methods`] with a [`curve::Method`] variant.
//! - **A new stack** (frame layout): [`layout::Frame::new`]; the simulator
//!   and the exact joint computation read the same layout.
//! - **A new exact method for a checksum** (not a CRC): a function in that
//!   check's module ([`internet`], [`fletcher`]) returning
//!   [`bsc::CurvePoint`]s, an [`registry::Entry`] that states its domain,
//!   and its arm in [`compare::curve`], which computes what the registry
//!   chose.
//! - **A new result document** (a command's JSON output): a serde struct in
//!   its own module under [`document`], `#[non_exhaustive]` with a
//!   constructor, implementing [`document::Document`] with its `KIND` tag;
//!   add it to the table in [`document`], a legacy fixture to the plot
//!   crate's tests if files of it exist, and a view in `aliasing-plot` if it
//!   plots. The CLI prints it with [`document::to_json_sorted`].
//! - **A new error** a library call can refuse with: a variant of [`Error`]
//!   (one line, for `error: ...`); it is `#[non_exhaustive]`, so adding one
//!   breaks no caller.
//! - **A new channel** (for exact methods): its parameters in [`channel`]
//!   beside [`channel::GilbertElliott`], shared with the simulator.
//!
//! ## What is not public
//!
//! Kernels and internals are private or hidden. What the sibling crates
//! (`aliasing-sim`, the CLI, the plots, the Python module) and the benches
//! need of them has one door, the hidden module `aliasing_core::__private`,
//! whose modules mirror the crate's: the Markov chain's step kernels and
//! CPU dispatch (`markov::walk`, `butterfly`, `inplace`, `cpu`,
//! `gilbert::fused`), the Internet checksum's Fourier sums, the dual pass by
//! shards, the joint computation's model and sampling plan, the search's
//! shard files, the `_with` (progress) forms of the low-weight searches,
//! tuning limits, the CLI's text helpers and long-run guard, atomic file
//! writes, and `parse` (the command line's value syntax). Items marked
//! `#[doc(hidden)]` in a public module stay reachable at their own path
//! too; the rows of the result documents (`document::CheckInfo`,
//! `document::StackPoint`, ...: the field types of the documented
//! documents, whose fields are the JSON's) and `parse` are named there. None
//! of it is part of the stable API: it may change without notice. A command's computation is a job ([`ctx::Job`])
//! run in a [`ctx::Ctx`]; a long computation outside a job takes the
//! context too (`f(.., ctx: &Ctx)`), and honours its memory budget and
//! progress watcher. The memory budget is read from the environment
//! (`ALIAS_MEMORY_LIMIT`) only where a context is built
//! ([`ctx::Ctx::from_env`], [`ctx::Ctx::default`]).
#![warn(missing_docs)]

mod atomic;
pub mod bracket;
pub mod bsc;
pub mod burst;
pub mod catalogue;
pub mod channel;
pub mod check;
pub mod checksum;
pub mod compare;
pub mod crc;
pub mod ctx;
pub mod curve;
pub mod document;
pub mod dual;
mod error;
pub mod factor;
pub mod fletcher;
pub mod gf2;
pub mod highprec;
pub mod internet;
pub mod job;
pub mod joint;
pub mod layout;
pub mod lowweight;
pub mod markov;
#[doc(hidden)] // the command line's value syntax (the CLI's; also `__private::parse`)
pub mod parse;
pub mod poly;
pub mod progress;
pub mod registry;
pub mod search;
mod series;
pub mod shard;
#[cfg(feature = "unit-tests")]
mod tier;
pub use lowweight::trinomial;
pub mod units;
pub mod weights;

/// The one door to internals for the sibling crates and the benches: not
/// part of the stable API (see "What is not public" above).
#[doc(hidden)]
pub mod __private;

pub use error::{Error, Limit, Param, Result, StackRule};

/// Exact unsigned big integers (`dashu_int::UBig`, re-exported): the counts of
/// codewords ([`weights::WeightDistribution::counts`],
/// [`joint::JointStack::a`], the `weights` document) that can exceed 128 bits.
#[doc(no_inline)]
pub use dashu_int::UBig;

/// The crate's README, whose example runs as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;

/// The unit tests' modules, compiled into the library under the
/// `unit-tests` feature (each test a `pub fn`) and run by the `core` test
/// target through the wrappers of `tests/core/unit.rs`; both files are
/// written by `scripts/unit-tests.py`. The test build then compiles the
/// library once, not a second time with its tests (`docs/testing.md`).
#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod __unit;
