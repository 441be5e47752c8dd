//! One registry of exact methods over (check, channel, data model).
//!
//! Every exact method of the crate is an [`Entry`]: the CRC curve methods
//! ([`Entry::Markov`], [`Entry::Dual`]), the certified bracket of wide CRCs,
//! the Gilbert-Elliott chain, the Internet checksum over random or given
//! data, Fletcher-16, a CRC or Internet checksum placed inside a frame, and
//! the joint terms of a stack. Each states its [`Domain`] and assesses a
//! request ([`Ask`]) with [`Entry::assess`]: a [`Cost`], or a typed
//! [`Refusal`] that names the number outside its domain. [`choose`] is
//! `auto`: among the entries that accept and fit the memory budget, the
//! preferred one ([`rank`](Entry::assess) first, then the estimated time).
//!
//! The callers (`curve`, [`crate::compare`], the simulator's exact column,
//! the stack's per-check column) ask [`choose`] and compute with the entry
//! it returns; none keeps rules of its own.
//!
//! ```
//! use aliasing_core::registry::{self, Ask, Channel, Check, Entry, Refusal};
//! use aliasing_core::units::{Ber, Bits, MemoryBudget};
//! use aliasing_core::catalogue;
//! let g = catalogue::resolve("CRC-16/IBM-3740")?.generator();
//! let bers = [Ber::new(0.7)?];
//! let ask = Ask::Codeword {
//!     check: Check::Crc(g),
//!     lengths: &[Bits(12144)],
//!     channel: Channel::Bsc(&bers),
//!     given: None,
//! };
//! // BER 0.7 is outside the dual code's domain: auto takes the chain
//! assert_eq!(registry::choose(&ask, MemoryBudget::bytes(1e9)?)?, Entry::Markov);
//! let e = Entry::Dual.assess(&ask).unwrap_err();
//! assert!(matches!(e, aliasing_core::Error::Refused(Refusal::Ber { max: 0.5, .. })));
//! # Ok::<(), aliasing_core::Error>(())
//! ```

pub(crate) mod domain;
pub(crate) mod refusal;

#[cfg(feature = "unit-tests")]
use domain::domain_table; // the tests' (the crate reaches it as `domain::domain_table`)
pub use domain::{Domain, domains};
pub(crate) use refusal::DUAL_MAX_BER;
pub use refusal::{Entry, Placement, Refusal};

use crate::channel::GilbertElliott;
use crate::check::CheckSpec;
use crate::error::{Error, Result};
use crate::layout::{CheckDef, Frame, Payload};
use crate::poly::Generator;
use crate::units::{Ber, Bits, MemoryBudget};
use crate::weights::DualWeights;
use crate::{dual, fletcher, markov};

/// What an exact method expects a request to cost. Estimates, used only to
/// refuse what does not fit and to choose between methods.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Cost {
    /// Estimated time in seconds (a model with per-operation costs measured
    /// on the development machine; only ratios between methods matter).
    pub seconds: f64,
    /// Estimated peak memory in bytes.
    pub bytes: f64,
}

impl Cost {
    /// A cost of `seconds` and `bytes` (the struct may grow, so it is built
    /// here).
    pub const fn new(seconds: f64, bytes: f64) -> Cost {
        Cost { seconds, bytes }
    }
}

/// Known bytes for a given-data computation: what `alias curve` and
/// `alias compare` take as data or as a captured frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given<'a> {
    /// The data a sender puts before the check field: each frame of `L`
    /// bytes is these bytes repeated or cut to `L - field` bytes, then the
    /// check field computed from them as a sender would (big-endian for
    /// the Internet checksum); the frame the simulator sends with a fixed
    /// payload of these bytes. Without lengths, `L` is the data's length
    /// plus the field.
    Data(&'a [u8]),
    /// A whole frame as captured from a wire, its check field in place: the
    /// field is verified (a frame that does not verify is refused with
    /// [`Error::Invalid`]) and the only length is the frame's.
    Frame(&'a [u8]),
}

impl Given<'_> {
    /// The bytes given.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Given::Data(b) | Given::Frame(b) => b,
        }
    }
}

/// The check of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Check {
    /// A CRC (its value depends on the generator alone).
    Crc(Generator),
    /// The Internet checksum (RFC 1071).
    Internet,
    /// Fletcher-16 (two sums modulo 255).
    Fletcher16,
    /// Fletcher-32 (two sums modulo 65535).
    Fletcher32,
    /// Adler-32 (two sums modulo 65521).
    Adler32,
}

impl From<&CheckSpec> for Check {
    fn from(c: &CheckSpec) -> Check {
        match c {
            CheckSpec::Crc(alg) => Check::Crc(alg.generator()),
            CheckSpec::Internet => Check::Internet,
            CheckSpec::Fletcher16 => Check::Fletcher16,
            CheckSpec::Fletcher32 => Check::Fletcher32,
            CheckSpec::Adler32 => Check::Adler32,
        }
    }
}

impl Check {
    /// Its name in refusals.
    pub fn name(&self) -> String {
        match self {
            Check::Crc(g) => format!("the CRC {}", g.full_string()),
            Check::Internet => "Internet".into(),
            Check::Fletcher16 => "Fletcher-16".into(),
            Check::Fletcher32 => "Fletcher-32".into(),
            Check::Adler32 => "Adler-32".into(),
        }
    }
}

/// The channel of a request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Channel<'a> {
    /// The binary symmetric channel at these bit error rates.
    Bsc(&'a [Ber]),
    /// A Gilbert-Elliott burst channel.
    Burst(&'a GilbertElliott),
}

impl Channel<'_> {
    fn name(&self) -> &'static str {
        match self {
            Channel::Bsc(_) => "binary symmetric",
            Channel::Burst(_) => "Gilbert-Elliott",
        }
    }
}

/// A request to the registry.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Ask<'a> {
    /// A codeword of `check` (data, then its field) at each of `lengths`
    /// (bits, field included), on `channel`, over random data or `given`
    /// bytes.
    Codeword {
        /// The check.
        check: Check,
        /// Codeword lengths in bits, check bits included.
        lengths: &'a [Bits],
        /// The channel.
        channel: Channel<'a>,
        /// The data: `None` for uniformly random data.
        given: Option<Given<'a>>,
    },
    /// Check `index` of `frame` on its own, counting only errors in the bits
    /// it covers (a CRC: the whole frame).
    Placed {
        /// The frame.
        frame: &'a Frame,
        /// Which of its checks.
        index: usize,
        /// The channel.
        channel: Channel<'a>,
        /// The CRC's dual weights at the frame's length, where the caller
        /// holds them ([`Entry::Dual`] then uses them first).
        weights: Option<&'a DualWeights>,
    },
    /// The joint escape of the stack of `frame`.
    Stack {
        /// The frame.
        frame: &'a Frame,
    },
}

// Per-operation costs measured on the development machine (2 cores): a chain
// state update about 0.15 ns with the fused kernel of [`markov::walk`]
// (`alias curve --crc 16 --bits 17:12144:1 --ber 1e-5`: 0.1 s of chain for
// 8e8 updates), a dual-code window step about 0.8 ns (CRC-32 weights at 12144
// bits: 3.3 s for 2^32 windows) and a high-precision term of the dual
// evaluation about 250 ns (3.1 ms for one P_ud at 12144 bits). Only the ratio
// matters.
const CHAIN_NS: f64 = 0.15;
const WINDOW_NS: f64 = 0.8;
const TERM_NS: f64 = 250.0;
/// A checksum point (carry chains and Fourier sums): a rough figure, only
/// to order the entries.
const POINT_S: f64 = 1e-3;

/// The widest CRC the certified bracket takes.
pub(crate) const BRACKET_MAX_WIDTH: u32 = 64;
/// The widest stored field the placed CRC's syndrome chain walks.
pub(crate) const PLACED_MAX_WIDTH: u32 = 24;
/// The most chain steps (`n 2^width`) the placed CRC's syndrome chain takes
/// (beside a simulation, a few seconds at most).
pub(crate) const PLACED_MAX_WORK: f64 = 4e9;

fn refused(r: Refusal) -> Error {
    Error::Refused(r)
}

fn not_its(entry: Entry, what: impl Into<String>) -> Error {
    refused(Refusal::NotItsCheck {
        entry,
        what: what.into(),
    })
}

fn bers_of<'a>(entry: Entry, channel: Channel<'a>) -> Result<&'a [Ber]> {
    match channel {
        Channel::Bsc(b) => Ok(b),
        c => Err(refused(Refusal::Channel {
            entry,
            channel: c.name(),
        })),
    }
}

fn ber_at_most(entry: Entry, bers: &[Ber], max: f64) -> Result<()> {
    match bers.iter().find(|p| p.get() > max) {
        Some(p) => Err(refused(Refusal::Ber {
            entry,
            ber: p.get(),
            min: 0.0,
            max,
        })),
        None => Ok(()),
    }
}

/// The Gilbert-Elliott chain's channel, validated; refused for any other.
fn gilbert_channel(entry: Entry, channel: Channel<'_>) -> Result<()> {
    let Channel::Burst(ge) = channel else {
        return Err(refused(Refusal::Channel {
            entry,
            channel: channel.name(),
        }));
    };
    ge.validate()
}

fn width_in(entry: Entry, width: u32, min: u32, max: u32) -> Result<()> {
    if (min..=max).contains(&width) {
        Ok(())
    } else {
        Err(refused(Refusal::Width {
            entry,
            width,
            min,
            max,
        }))
    }
}

fn lengths_in(entry: Entry, lengths: &[Bits], min: u64, max: u64, step: u64) -> Result<()> {
    match lengths
        .iter()
        .find(|n| n.0 < min || n.0 > max || n.0 % step != 0)
    {
        Some(n) => Err(refused(Refusal::Length {
            entry,
            bits: n.0,
            min,
            max,
            step,
        })),
        None => Ok(()),
    }
}

/// A CRC check of a frame that is a plain codeword: the whole frame, its
/// field at the end, the field exactly its width.
fn plain_codeword(entry: Entry, frame: &Frame, c: &CheckDef, width: u32) -> Result<()> {
    let field_bits = 8 * c.field_len as u32;
    let whole = c.data == (0, c.field) && c.field + c.field_len == frame.bytes;
    if whole && field_bits == width {
        Ok(())
    } else {
        Err(refused(Refusal::Placement {
            entry,
            check: c.name.clone(),
            why: Placement::NotPlainCodeword { field_bits, width },
        }))
    }
}

/// Bits the placed CRC's syndromes take: its stored field's, at least its
/// width (pad bits make syndromes up to the field's width).
fn placed_bits(c: &CheckDef, width: u32) -> u32 {
    (8 * c.field_len as u32).max(width)
}

fn the_check(entry: Entry, frame: &Frame, index: usize) -> Result<&CheckDef> {
    frame.checks.get(index).ok_or_else(|| {
        Error::Invalid(format!(
            "{}: stack `{}` has {} checks, not {}",
            entry.phrase(),
            frame.stack,
            frame.checks.len(),
            index + 1
        ))
    })
}

impl Entry {
    /// Whether the entry computes `ask`, and at what cost: a [`Cost`], or
    /// [`Error::Refused`] with the typed reason (for the joint terms, the
    /// joint model's own refusal of a stack it does not handle). It refuses
    /// every request outside [`Entry::domain`]. Memory is not judged here
    /// ([`Entry::admit`] holds it to a budget).
    pub fn assess(self, ask: &Ask<'_>) -> Result<Cost> {
        match *ask {
            Ask::Codeword {
                check,
                lengths,
                channel,
                given,
            } => self.assess_codeword(check, lengths, channel, given),
            Ask::Placed {
                frame,
                index,
                channel,
                weights,
            } => self.assess_placed(frame, index, channel, weights),
            Ask::Stack { frame } => self.assess_stack(frame),
        }
    }

    fn assess_codeword(
        self,
        check: Check,
        lengths: &[Bits],
        channel: Channel<'_>,
        given: Option<Given<'_>>,
    ) -> Result<Cost> {
        let n_max = lengths.iter().map(|n| n.0).max().unwrap_or(0) as f64;
        let points = |bers: &[Ber]| (lengths.len() * bers.len()) as f64;
        match (self, check) {
            (Entry::Markov | Entry::Dual | Entry::Bracket | Entry::GilbertChain, Check::Crc(g)) => {
                let r = g.width();
                let min = r as u64 + 1;
                if self == Entry::GilbertChain {
                    gilbert_channel(self, channel)?;
                    width_in(self, r, 1, markov::gilbert::MAX_WIDTH)?;
                    lengths_in(self, lengths, min, u64::MAX, 1)?;
                    let seconds = 2.0 * CHAIN_NS * 1e-9 * n_max * (r as f64).exp2();
                    return Ok(Cost::new(seconds, markov::gilbert::estimate_bytes(r)));
                }
                let bers = bers_of(self, channel)?;
                match self {
                    Entry::Markov => {
                        lengths_in(self, lengths, min, u64::MAX, 1)?;
                        Ok(markov_cost(r, n_max, bers.len()))
                    }
                    Entry::Dual => {
                        width_in(self, r, 1, dual::MAX_WIDTH)?;
                        ber_at_most(self, bers, DUAL_MAX_BER)?;
                        lengths_in(self, lengths, min, u64::MAX, 1)?;
                        let raw: Vec<u64> = lengths.iter().map(|n| n.0).collect();
                        Ok(dual_cost(&g, &raw, bers.len()))
                    }
                    _ => {
                        // the bracket answers where no value method can:
                        // widths above the dual code's
                        width_in(self, r, dual::MAX_WIDTH + 1, BRACKET_MAX_WIDTH)?;
                        lengths_in(self, lengths, min, u64::MAX, 1)?;
                        Ok(Cost::new(POINT_S * points(bers), 0.0))
                    }
                }
            }
            (Entry::InternetRandom | Entry::InternetGiven, Check::Internet) => {
                let bers = bers_of(self, channel)?;
                match (self, given) {
                    (Entry::InternetRandom, None) => {
                        // data and the 16-bit field: 3 bytes or more
                        lengths_in(self, lengths, 24, u64::MAX, 8)?;
                    }
                    (Entry::InternetRandom, Some(_)) => {
                        return Err(refused(Refusal::Data {
                            entry: self,
                            check: check.name(),
                            given: true,
                        }));
                    }
                    (_, Some(Given::Data(_))) => {
                        lengths_in(self, lengths, 32, u64::MAX, 16)?;
                    }
                    (_, Some(Given::Frame(f))) => {
                        let n = 8 * f.len() as u64;
                        lengths_in(self, lengths, n, n, 8)?;
                    }
                    (_, None) => {
                        return Err(refused(Refusal::Data {
                            entry: self,
                            check: check.name(),
                            given: false,
                        }));
                    }
                }
                Ok(Cost::new(POINT_S * points(bers), 0.0))
            }
            (Entry::Fletcher16, Check::Fletcher16) => {
                let bers = bers_of(self, channel)?;
                if given.is_some() {
                    return Err(refused(Refusal::Data {
                        entry: self,
                        check: check.name(),
                        given: true,
                    }));
                }
                lengths_in(self, lengths, 24, 8 * fletcher::MAX_LEN, 8)?;
                Ok(Cost::new(POINT_S * points(bers), 0.0))
            }
            (Entry::PlacedCrc | Entry::PlacedInternet | Entry::JointTerms, _) => Err(not_its(
                self,
                "a bare codeword (it takes a check inside a frame)",
            )),
            (_, check) => Err(not_its(self, check.name())),
        }
    }

    fn assess_placed(
        self,
        frame: &Frame,
        index: usize,
        channel: Channel<'_>,
        weights: Option<&DualWeights>,
    ) -> Result<Cost> {
        let c = the_check(self, frame, index)?;
        let n = frame.n_bits();
        let spec = &c.spec;
        match (self, spec) {
            (
                Entry::Markov | Entry::Dual | Entry::PlacedCrc | Entry::GilbertChain,
                CheckSpec::Crc(alg),
            ) => {
                let g = alg.generator();
                let r = g.width();
                if self == Entry::GilbertChain {
                    gilbert_channel(self, channel)?;
                    let bits = placed_bits(c, r);
                    width_in(self, bits, 1, markov::gilbert::MAX_WIDTH)?;
                    let work = n as f64 * (bits as f64).exp2();
                    if work > markov::gilbert::TRANSLATION_WORK_LIMIT {
                        return Err(refused(Refusal::Work {
                            entry: self,
                            bits: n,
                            width: bits,
                            work,
                            max: markov::gilbert::TRANSLATION_WORK_LIMIT,
                        }));
                    }
                    return Ok(Cost::new(2.0 * CHAIN_NS * 1e-9 * work, 0.0));
                }
                let bers = bers_of(self, channel)?;
                match self {
                    Entry::PlacedCrc => {
                        let bits = placed_bits(c, r);
                        width_in(self, bits, 1, PLACED_MAX_WIDTH)?;
                        let work = n as f64 * (bits as f64).exp2();
                        if work > PLACED_MAX_WORK {
                            return Err(refused(Refusal::Work {
                                entry: self,
                                bits: n,
                                width: bits,
                                work,
                                max: PLACED_MAX_WORK,
                            }));
                        }
                        let seconds = CHAIN_NS * 1e-9 * work * bers.len() as f64;
                        Ok(Cost::new(seconds, 8.0 * (bits as f64).exp2()))
                    }
                    Entry::Dual => {
                        width_in(self, r, 1, dual::MAX_WIDTH)?;
                        ber_at_most(self, bers, DUAL_MAX_BER)?;
                        match weights {
                            // the weights at hand: only the terms are left
                            Some(d) if d.bits == n => Ok(Cost::new(
                                1e-9 * TERM_NS * (n as f64 + 1.0) * bers.len() as f64,
                                0.0,
                            )),
                            Some(d) => Err(refused(Refusal::Placement {
                                entry: self,
                                check: c.name.clone(),
                                why: Placement::WeightsLength {
                                    have: d.bits,
                                    need: n,
                                },
                            })),
                            None => {
                                plain_codeword(self, frame, c, r)?;
                                Ok(dual_cost(&g, &[n], bers.len()))
                            }
                        }
                    }
                    _ => {
                        plain_codeword(self, frame, c, r)?;
                        Ok(markov_cost(r, n as f64, bers.len()))
                    }
                }
            }
            (Entry::PlacedInternet, CheckSpec::Internet) => {
                let bers = bers_of(self, channel)?;
                let place = |why| {
                    Err(refused(Refusal::Placement {
                        entry: self,
                        check: c.name.clone(),
                        why,
                    }))
                };
                let ranges = &c.ranges;
                if ranges.len() > 1 && ranges.iter().any(|&(a, b)| (b - a) % 2 == 1) {
                    return place(Placement::WordsAcrossRanges);
                }
                let mut covered = ranges.iter().flat_map(|&(a, b)| a..b);
                if covered.clone().any(|b| frame.varies[b]) {
                    if frame.payload != Payload::Random {
                        return place(Placement::VariesWithFixedPayload);
                    }
                    if !covered.any(|b| b == c.field) {
                        return place(Placement::FieldOutsideRanges);
                    }
                }
                Ok(Cost::new(POINT_S * bers.len() as f64, 0.0))
            }
            (Entry::Fletcher16, CheckSpec::Fletcher16) => {
                let bers = bers_of(self, channel)?;
                let alone = frame.checks.len() == 1
                    && frame.payload == Payload::Random
                    && c.data == (0, c.field)
                    && c.field_len == 2
                    && c.field + 2 == frame.bytes;
                if !alone {
                    return Err(refused(Refusal::Placement {
                        entry: self,
                        check: c.name.clone(),
                        why: Placement::NotAloneOverRandomData,
                    }));
                }
                lengths_in(self, &[Bits(n)], 24, 8 * fletcher::MAX_LEN, 8)?;
                Ok(Cost::new(POINT_S * bers.len() as f64, 0.0))
            }
            (
                Entry::Bracket | Entry::InternetRandom | Entry::InternetGiven | Entry::JointTerms,
                _,
            ) => Err(not_its(self, "a check inside a frame")),
            _ => Err(not_its(self, c.name.clone())),
        }
    }

    fn assess_stack(self, frame: &Frame) -> Result<Cost> {
        if self != Entry::JointTerms {
            return Err(not_its(
                self,
                format!("the joint escape of stack `{}`", frame.stack),
            ));
        }
        let model = crate::joint::JointModel::new(frame)?;
        width_in(self, model.generator.width(), 1, dual::MAX_WIDTH)?;
        Ok(Cost::new(0.0, 0.0))
    }

    /// [`Entry::assess`], then [`Error::TooBig`] if the memory does not fit
    /// `budget`.
    pub fn admit(self, ask: &Ask<'_>, budget: MemoryBudget) -> Result<Cost> {
        let cost = self.assess(ask)?;
        budget.admit(|| self.describe(ask), cost.bytes)?;
        Ok(cost)
    }

    /// What a refusal for memory names: `the exact Markov solver for a
    /// 16-bit CRC (1 BER)`.
    pub fn describe(self, ask: &Ask<'_>) -> String {
        match (self, ask) {
            (
                Entry::Markov,
                Ask::Codeword {
                    check: Check::Crc(g),
                    channel: Channel::Bsc(bers),
                    ..
                },
            ) => {
                let bers = bers.len();
                format!(
                    "the exact Markov solver for a {}-bit CRC ({bers} BER{})",
                    g.width(),
                    if bers == 1 { "" } else { "s" }
                )
            }
            (
                Entry::Dual,
                Ask::Codeword {
                    check: Check::Crc(g),
                    ..
                },
            ) => format!(
                "the dual-code weights of {} at these lengths",
                g.full_string()
            ),
            (
                Entry::GilbertChain,
                Ask::Codeword {
                    check: Check::Crc(g),
                    ..
                },
            ) => format!("the burst-channel chain for a {}-bit CRC", g.width()),
            _ => self.phrase().to_string(),
        }
    }

    /// The preference of this entry for `ask`, lower first (the cost
    /// decides between entries of one rank): dual weights the caller holds
    /// at the frame's length come first (only their terms are left), then
    /// the chain over a placed CRC's own syndromes (it reads the frame as
    /// sent, pad bits included), then every other entry.
    fn rank(self, ask: &Ask<'_>) -> u8 {
        match (self, ask) {
            (
                Entry::Dual,
                Ask::Placed {
                    weights: Some(_), ..
                },
            ) => 0,
            (Entry::PlacedCrc, _) => 1,
            _ => 2,
        }
    }
}

fn markov_cost(r: u32, n_max: f64, bers: usize) -> Cost {
    Cost::new(
        CHAIN_NS * 1e-9 * n_max * (r as f64).exp2() * bers as f64,
        markov::estimate_bytes(r, bers),
    )
}

fn dual_cost(g: &Generator, lengths: &[u64], bers: usize) -> Cost {
    let terms: f64 = lengths.iter().map(|&n| n as f64 + 1.0).sum();
    let seconds =
        1e-9 * (WINDOW_NS * dual::work_estimate(g, lengths) + TERM_NS * terms * bers as f64);
    Cost::new(seconds, dual::memory_estimate(g, lengths))
}

/// `auto`: the entry that computes `ask` exactly, among those that accept
/// it and fit `budget` the one of lowest rank, then lowest estimated time
/// (the first listed on a tie). Entries giving bounds only
/// ([`Entry::Bracket`]) are left out: a CRC wider than the dual code takes
/// a certified bracket ([`crate::bracket`]).
///
/// When none accepts: the most telling refusal (a number or placement
/// outside a domain before a channel, before "not its check"; the first
/// listed among equals), or [`Refusal::TwoSums`] / [`Refusal::NoEntry`]
/// where no entry computes the check at all.
pub fn choose(ask: &Ask<'_>, budget: MemoryBudget) -> Result<Entry> {
    choose_among(
        ask,
        budget,
        Entry::ALL.iter().copied().filter(|e| e.gives_value()),
    )
}

/// [`choose`], with the certified bracket as the last resort: the answer
/// for a CRC wider than the dual code (33 to 64 bits) on a binary
/// symmetric channel.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn choose_or_bracket(ask: &Ask<'_>, budget: MemoryBudget) -> Result<Entry> {
    choose_among(ask, budget, Entry::ALL.iter().copied())
}

fn choose_among(
    ask: &Ask<'_>,
    budget: MemoryBudget,
    entries: impl Iterator<Item = Entry>,
) -> Result<Entry> {
    let mut best: Option<(Entry, (u8, f64))> = None;
    let mut error: Option<(u8, Error)> = None;
    for e in entries {
        match e.admit(ask, budget) {
            Ok(c) => {
                let key = (e.rank(ask), c.seconds);
                if best.is_none_or(|(_, k)| key.0 < k.0 || (key.0 == k.0 && key.1 < k.1)) {
                    best = Some((e, key));
                }
            }
            Err(err) => {
                let relevance = match &err {
                    Error::Refused(r) => r.relevance(),
                    _ => 2,
                };
                if error.as_ref().is_none_or(|(r, _)| relevance > *r) {
                    error = Some((relevance, err));
                }
            }
        }
    }
    if let Some((e, _)) = best {
        return Ok(e);
    }
    match error {
        Some((r, e)) if r > 0 => Err(e),
        _ => Err(refused(no_entry(ask))),
    }
}

/// The refusal when no entry computes the check at all.
fn no_entry(ask: &Ask<'_>) -> Refusal {
    let (check, name) = match ask {
        Ask::Codeword { check, .. } => (Some(*check), check.name()),
        Ask::Placed { frame, index, .. } => (
            frame.checks.get(*index).map(|c| Check::from(&c.spec)),
            frame
                .checks
                .get(*index)
                .map_or_else(String::new, |c| c.name.clone()),
        ),
        Ask::Stack { frame } => (None, format!("stack `{}`", frame.stack)),
    };
    match check {
        Some(Check::Fletcher32) => Refusal::TwoSums {
            check: "Fletcher-32".into(),
            modulus: 65535,
        },
        Some(Check::Adler32) => Refusal::TwoSums {
            check: "Adler-32".into(),
            modulus: 65521,
        },
        _ => Refusal::NoEntry { what: name },
    }
}

/// Check `i` of `frame` on its own at BER `p`, as the stack's per-check
/// column shows it: `(covered bits, P_ud)`, counting only errors inside the
/// bits it covers, by the entry [`choose`] picks (`weights`, the CRC's dual
/// weights at the frame's length, are used where given). Refused, typed,
/// where no entry applies; a placed CRC that only the simulator's syndrome
/// chain reaches is refused here too. The choice and the computation are
/// held to one memory budget, `budget` (a context's [`crate::ctx::Ctx::budget`]).
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn placed_p_undetected(
    frame: &Frame,
    i: usize,
    weights: Option<&DualWeights>,
    p: f64,
    budget: MemoryBudget,
) -> Result<(u64, f64)> {
    let bers = [Ber::new(p)?];
    let ask = Ask::Placed {
        frame,
        index: i,
        channel: Channel::Bsc(&bers),
        weights,
    };
    let entry = choose(&ask, budget)?;
    let c = &frame.checks[i];
    let n = frame.n_bits();
    match (entry, weights) {
        (Entry::Dual, Some(d)) => Ok((d.bits, dual::p_undetected(d, p)?)),
        (Entry::Dual, None) => {
            let g = c.crc().expect("assessed as a CRC").generator();
            let pts = dual::curve_in(&g, &[n], &[p], budget, &crate::progress::Silent)?;
            Ok((n, pts[0].p_undetected))
        }
        (Entry::Markov, _) => {
            let g = c.crc().expect("assessed as a CRC").generator();
            let silent = &crate::progress::Silent;
            Ok((
                n,
                markov::p_undetected_in(&g, &[n], &[p], budget, silent)?[0][0],
            ))
        }
        (Entry::PlacedInternet, _) => {
            crate::joint::internet_p_undetected(frame, &c.name, &c.ranges, c.field, c.constant, p)
        }
        (Entry::Fletcher16, _) => Ok((n, fletcher::p_undetected16(frame.bytes as u64, p)?)),
        _ => Err(refused(Refusal::NoEntry {
            what: c.name.clone(),
        })),
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
