//! The entries of the registry and the typed reasons they refuse a request
//! with (kept apart from the assessments so that [`crate::Error`] can carry
//! a [`Refusal`] without naming the registry's other items).

use std::fmt;

/// The highest BER the dual-code method takes (above it `1 - 2p` is
/// negative and the terms of MacWilliams' sum alternate in sign).
pub const DUAL_MAX_BER: f64 = 0.5;

/// One exact method of the registry ([`crate::registry`]): what it computes,
/// over which (check, channel, data model), is its [`crate::registry::Domain`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Entry {
    /// The Markov chain over a CRC's register states.
    Markov,
    /// The dual code's weights and MacWilliams.
    Dual,
    /// The certified bracket of a wide CRC: bounds, not a value.
    Bracket,
    /// The Gilbert-Elliott product chain (a CRC on a burst channel).
    GilbertChain,
    /// The Internet checksum over uniformly random data.
    InternetRandom,
    /// The Internet checksum over given data (the field computed from them)
    /// or a captured frame whose field verifies.
    InternetGiven,
    /// Fletcher-16 over uniformly random data, its sum computed from them.
    Fletcher16,
    /// A CRC placed inside a frame: the chain over the frame's own syndrome
    /// table (its field's pad bits included), on a binary symmetric channel.
    PlacedCrc,
    /// An Internet checksum placed inside a frame: its byte ranges, fixed
    /// bytes flipping in their known directions, random payload.
    PlacedInternet,
    /// The joint escape of a stack (one CRC and Internet checksums): exact
    /// low-weight terms and a certified bracket.
    JointTerms,
}

impl Entry {
    /// Every entry, in the order a choice prefers them on equal rank and
    /// cost (and the order of the domain table).
    pub const ALL: &'static [Entry] = &[
        Entry::Markov,
        Entry::Dual,
        Entry::Bracket,
        Entry::GilbertChain,
        Entry::InternetRandom,
        Entry::InternetGiven,
        Entry::Fletcher16,
        Entry::PlacedCrc,
        Entry::PlacedInternet,
        Entry::JointTerms,
    ];

    /// Its short name (`markov`, `dual`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Entry::Markov => "markov",
            Entry::Dual => "dual",
            Entry::Bracket => "bracket",
            Entry::GilbertChain => "gilbert-chain",
            Entry::InternetRandom => "internet-random",
            Entry::InternetGiven => "internet-given",
            Entry::Fletcher16 => "fletcher16",
            Entry::PlacedCrc => "placed-crc",
            Entry::PlacedInternet => "placed-internet",
            Entry::JointTerms => "joint-terms",
        }
    }

    /// How a refusal names it: `the dual-code method`.
    pub fn phrase(self) -> &'static str {
        match self {
            Entry::Markov => "the Markov chain",
            Entry::Dual => "the dual-code method",
            Entry::Bracket => "the certified bracket",
            Entry::GilbertChain => "the exact burst-channel solver",
            Entry::InternetRandom => "the Internet checksum's random-data method",
            Entry::InternetGiven => "the Internet checksum's given-data method",
            Entry::Fletcher16 => "the Fletcher-16 method",
            Entry::PlacedCrc => "the placed CRC's syndrome chain",
            Entry::PlacedInternet => "the placed Internet checksum's method",
            Entry::JointTerms => "the joint computation",
        }
    }

    /// `false` for an entry that gives bounds, not a value ([`Entry::Bracket`]).
    pub fn gives_value(self) -> bool {
        self != Entry::Bracket
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a check sits in its frame, when that is what an entry refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Placement {
    /// The check is not a plain codeword: it does not cover the whole frame
    /// with its field at the end, or its field has pad bits (`field_bits`
    /// against the check's `width`).
    NotPlainCodeword {
        /// Bits of the stored field.
        field_bits: u32,
        /// The check's width.
        width: u32,
    },
    /// The check is not alone over random data with its field at the end.
    NotAloneOverRandomData,
    /// The dual weights given are of another length.
    WeightsLength {
        /// Their length in bits.
        have: u64,
        /// The frame's length in bits.
        need: u64,
    },
    /// An Internet checksum whose 16-bit words run across its byte ranges.
    WordsAcrossRanges,
    /// An Internet checksum whose field lies outside the bytes it sums.
    FieldOutsideRanges,
    /// An Internet checksum over bytes that vary while the payload is fixed.
    VariesWithFixedPayload,
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Placement::NotPlainCodeword { field_bits, width } => write!(
                f,
                "it is not a plain codeword (the whole frame with a {width}-bit field at the end; \
                 its field has {field_bits} bits)"
            ),
            Placement::NotAloneOverRandomData => {
                f.write_str("it is not alone over random data with its field at the end")
            }
            Placement::WeightsLength { have, need } => write!(
                f,
                "no dual weights at this length ({have} bits given, the frame has {need})"
            ),
            Placement::WordsAcrossRanges => f.write_str("words run across its byte ranges"),
            Placement::FieldOutsideRanges => f.write_str("its field is outside its ranges"),
            Placement::VariesWithFixedPayload => {
                f.write_str("covers bytes that vary with a fixed payload")
            }
        }
    }
}

/// Why an entry of the registry refuses a request: the entry, and the
/// numbers that lie outside its domain. One line each, naming no option of
/// the command line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The entry does not compute this check, or this kind of request.
    #[error("{} does not compute {what}", .entry.phrase())]
    NotItsCheck {
        /// The entry.
        entry: Entry,
        /// What was asked (a check's name, or the kind of request).
        what: String,
    },
    /// The channel is not the entry's.
    #[error("{} does not take a {channel} channel", .entry.phrase())]
    Channel {
        /// The entry.
        entry: Entry,
        /// The channel asked for.
        channel: &'static str,
    },
    /// The data model is not the entry's: `given` data where it takes
    /// random data only, or the reverse.
    #[error("{}", data_text(.check, *.given))]
    Data {
        /// The entry.
        entry: Entry,
        /// The check's name.
        check: String,
        /// `true`: data were given (the entry takes random data).
        given: bool,
    },
    /// A width outside `[min, max]`.
    #[error("{} handles widths {}, not {width}", .entry.phrase(), range_text(*.min as f64, *.max as f64, 1.0))]
    Width {
        /// The entry.
        entry: Entry,
        /// The check's width (for a placed CRC, its stored field's bits).
        width: u32,
        /// Smallest width taken.
        min: u32,
        /// Largest width taken.
        max: u32,
    },
    /// A bit error rate outside `[min, max]`.
    #[error("{} handles bit error rates {}, not {ber}", .entry.phrase(), range_text(*.min, *.max, 0.0))]
    Ber {
        /// The entry.
        entry: Entry,
        /// The BER asked for.
        ber: f64,
        /// Lowest BER taken.
        min: f64,
        /// Highest BER taken.
        max: f64,
    },
    /// A length outside `[min, max]` bits, or not a multiple of `step` bits.
    #[error("{} takes lengths {} bits{}, not {bits}", .entry.phrase(), range_text(*.min as f64, *.max as f64, 1.0), step_text(*.step))]
    Length {
        /// The entry.
        entry: Entry,
        /// The length asked for, in bits.
        bits: u64,
        /// Shortest length taken, in bits.
        min: u64,
        /// Longest length taken, in bits.
        max: u64,
        /// Lengths are multiples of this many bits (8: whole bytes, 16:
        /// an even number of bytes).
        step: u64,
    },
    /// The work (`n 2^width` steps) is over the entry's limit.
    #[error("{} over {bits} bits of a {width}-bit check: n 2^width = {work:.3e} is over its limit of {max:.0e}", .entry.phrase())]
    Work {
        /// The entry.
        entry: Entry,
        /// Bits of the frame.
        bits: u64,
        /// Width of the walk (the stored field's bits).
        width: u32,
        /// `bits 2^width`.
        work: f64,
        /// The limit.
        max: f64,
    },
    /// Where the check sits in its frame is outside the entry's domain.
    #[error("{check}: {why}")]
    Placement {
        /// The entry.
        entry: Entry,
        /// The check's name in its frame.
        check: String,
        /// What is outside the domain.
        why: Placement,
    },
    /// No entry computes this check: a sum with two components modulo
    /// `modulus` (Fletcher-32, Adler-32) has about 4.3e9 joint states.
    #[error(
        "no exact method for {check}: two sums modulo {modulus} give about 4.3e9 joint states; use `alias simulate`"
    )]
    TwoSums {
        /// The check's name.
        check: String,
        /// Its modulus (65535 or 65521).
        modulus: u32,
    },
    /// No entry computes this request.
    #[error("{what}: no exact method for this check here")]
    NoEntry {
        /// The check asked for.
        what: String,
    },
    /// A point of the Fletcher-16 method that neither of its bounds
    /// certifies to `crate::fletcher::TOLERANCE` relative.
    #[error(
        "Fletcher-16 over {bytes} bytes at BER {ber:e} is not certified exact ({method} bound \
         {bound:.1e} against {value:.3e}{}): simulate the frame instead",
        whole_text(*.whole)
    )]
    Uncertified {
        /// Frame length in bytes.
        bytes: u64,
        /// The BER.
        ber: f64,
        /// The coupling method tried first (`coupling` or `mirrored coupling`).
        method: &'static str,
        /// Its error bound.
        bound: f64,
        /// Its value.
        value: f64,
        /// The whole-frame character sum's rounding bound and value, where it ran.
        whole: Option<(f64, f64)>,
    },
}

impl Refusal {
    /// The entry that refused (`None` for [`Refusal::TwoSums`],
    /// [`Refusal::NoEntry`] and [`Refusal::Uncertified`], which no single
    /// assessment gives).
    pub fn entry(&self) -> Option<Entry> {
        match self {
            Refusal::NotItsCheck { entry, .. }
            | Refusal::Channel { entry, .. }
            | Refusal::Data { entry, .. }
            | Refusal::Width { entry, .. }
            | Refusal::Ber { entry, .. }
            | Refusal::Length { entry, .. }
            | Refusal::Work { entry, .. }
            | Refusal::Placement { entry, .. } => Some(*entry),
            Refusal::TwoSums { .. } | Refusal::NoEntry { .. } | Refusal::Uncertified { .. } => None,
        }
    }

    /// How much a refusal says about the request, for choosing the one to
    /// report when no entry accepts: 0 for "not its check", 1 for "not its
    /// channel", 2 for a number or placement outside the domain.
    pub(crate) fn relevance(&self) -> u8 {
        match self {
            Refusal::NotItsCheck { .. } => 0,
            Refusal::Channel { .. } => 1,
            _ => 2,
        }
    }
}

fn data_text(check: &str, given: bool) -> String {
    if given {
        format!("{check} for given data is not computed exactly (only for random data)")
    } else {
        format!("{check} for random data is not computed exactly here (only for given data)")
    }
}

/// `up to 32` (from the smallest there is), `33 to 64`, `from 17`.
fn range_text(min: f64, max: f64, least: f64) -> String {
    let open = max >= u64::MAX as f64;
    match (min <= least, open) {
        (true, true) => "of any size".into(),
        (true, false) => format!("up to {max}"),
        (false, true) => format!("from {min}"),
        (false, false) => format!("{min} to {max}"),
    }
}

fn step_text(step: u64) -> String {
    match step {
        0 | 1 => String::new(),
        8 => " (whole bytes)".into(),
        16 => " (an even number of bytes)".into(),
        s => format!(" (multiples of {s})"),
    }
}

fn whole_text(whole: Option<(f64, f64)>) -> String {
    match whole {
        Some((b, v)) => format!("; whole-frame sum's rounding bound {b:.1e} against {v:.3e}"),
        None => "; whole-frame sum: cancels to the no-error term here".into(),
    }
}

impl Refusal {
    /// The dual code's refusal of a BER outside `[0, DUAL_MAX_BER]`, whichever
    /// door the request came in by.
    pub(crate) fn dual_ber(ber: f64) -> Refusal {
        Refusal::Ber {
            entry: Entry::Dual,
            ber,
            min: 0.0,
            max: DUAL_MAX_BER,
        }
    }
}
