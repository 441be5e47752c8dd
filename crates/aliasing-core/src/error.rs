//! The library's error type: every variant is one line that names the problem.

use thiserror::Error;

/// Errors from parsing specifications and from solvers refusing a run.
///
/// Every message is a single line, suitable for printing after `error: `.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A polynomial, CRC name or check name that could not be understood.
    #[error("invalid polynomial or CRC `{spec}`: {reason}")]
    BadPolynomial {
        /// What the user typed.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A catalogue name that is not known; `suggestions` holds close matches.
    #[error("unknown CRC or check `{name}`{}", suggest(.suggestions))]
    UnknownName {
        /// The name as typed.
        name: String,
        /// Close matches.
        suggestions: Vec<String>,
    },
    /// A stack description (`--stack`) whose parts cannot be understood;
    /// `reason` names the bad part.
    #[error("invalid stack `{stack}`: {reason}")]
    BadStack {
        /// The description as given.
        stack: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A bit error rate outside [0, 1] or not a number.
    #[error("bit error rate {0} is outside [0, 1]")]
    BadBer(String),
    /// A frame length that is empty, zero, negative or shorter than the check.
    #[error("invalid length: {0}")]
    BadLength(String),
    /// A run that would need more memory than the limit allows.
    #[error("{what} needs about {need} of memory, over the limit of {limit}")]
    TooBig {
        /// The run refused.
        what: String,
        /// Estimated memory.
        need: String,
        /// The limit in force.
        limit: String,
    },
    /// A request outside the limits of a method or estimator that is not
    /// an entry of the registry (a search's range, an enumeration's size,
    /// an estimator's channel): the typed reason, with its numbers.
    #[error("{0}")]
    Limit(Limit),
    /// A request outside the domain of an exact method of the registry
    /// ([`crate::registry`]), or of every method: the typed reason, with
    /// the numbers outside the domain.
    #[error("{0}")]
    Refused(crate::registry::refusal::Refusal),
    /// A parameter of a request that cannot be used as given: which one,
    /// and why (one line, naming no option of the command line; the
    /// `alias` command adds the option that sets `param`).
    #[error("{reason}")]
    Param {
        /// The parameter.
        param: Param,
        /// What is wrong with it.
        reason: String,
    },
    /// Any other invalid argument.
    #[error("{0}")]
    Invalid(String),
    /// `error`, met in the part of a request named `what` (one check of a
    /// comparison); [`Error::root`] is the error itself.
    #[error("{what}: {error}")]
    Within {
        /// The part, e.g. a check's name.
        what: String,
        /// The error.
        error: Box<Error>,
    },
}

impl Error {
    /// This error, met in the part of a request named `what`.
    pub fn within(self, what: impl Into<String>) -> Error {
        Error::Within {
            what: what.into(),
            error: Box::new(self),
        }
    }

    /// The error under any [`Error::Within`] wrappers.
    pub fn root(&self) -> &Error {
        match self {
            Error::Within { error, .. } => error.root(),
            e => e,
        }
    }
}

/// The parameter of a request that an [`Error::Param`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Param {
    /// The frame or codeword lengths.
    Lengths,
    /// The exact method asked for.
    Method,
    /// The shard of a split computation.
    Shard,
    /// The candidates of a search (all, a sample, a list, a shard).
    Candidates,
    /// The checks compared.
    Checks,
    /// The largest Hamming distance reported.
    MaxHd,
    /// The longest codeword searched.
    MaxBits,
    /// The hash probes a search may spend.
    ProbeBudget,
    /// The largest codeword weight enumerated.
    MaxWeight,
    /// The number of errors per frame.
    Errors,
    /// A checkpoint file.
    Checkpoint,
}

/// Why a method outside the registry refuses a request: one line each,
/// with the numbers outside its limits, naming no option of the command
/// line (the `alias` command adds the option the user can change).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Limit {
    /// The generator search's widths.
    #[error("the generator search handles widths 2 to {max}, not {width}")]
    SearchWidth {
        /// The width asked for.
        width: u32,
        /// The widest search.
        max: u32,
    },
    /// The generator search ranks at BERs in (0, 0.5].
    #[error("the search ranks at bit error rates in (0, 0.5], not {ber}")]
    SearchBer {
        /// The BER asked for.
        ber: f64,
    },
    /// The distance search's probes for one weight and span.
    #[error("the weight-{weight} codeword search needs over {max:.0e} probes by span {span}")]
    DistanceWork {
        /// The codeword weight searched.
        weight: u32,
        /// The span reached.
        span: usize,
        /// The probe limit.
        max: f64,
    },
    /// The sparse Markov chain's states (a test oracle for small widths).
    #[error(
        "the sparse Markov chain of a {width}-bit CRC has 2^{width} states; at most 2^{max_log2}"
    )]
    SparseStates {
        /// The CRC's width.
        width: u32,
        /// `log2` of the most states.
        max_log2: u32,
    },
    /// The certified bracket's enumerated weights.
    #[error("weights are enumerated up to 2 to {max}, not {weight}")]
    EnumeratedWeight {
        /// The weight asked for.
        weight: u32,
        /// The largest weight enumerated.
        max: u32,
    },
    /// Burst patterns counted one by one.
    #[error(
        "bursts of length {length} are {patterns} patterns, more than the {max} counted one by one"
    )]
    BurstPatterns {
        /// The burst length.
        length: u32,
        /// Its number of patterns.
        patterns: u64,
        /// The most patterns counted.
        max: u64,
    },
    /// No exact method of a checksum reached the accuracy required.
    #[error("no exact method reached the required accuracy for this {what} at BER {ber}")]
    Accuracy {
        /// What was computed (`payload`, `segment`).
        what: &'static str,
        /// The BER.
        ber: f64,
    },
    /// The Internet checksum's real-field model cannot certify a point.
    #[error(
        "the exact Internet-checksum model (field computed from the data) cannot certify \
         1e-13 relative accuracy at BER {ber} for {bits} bits with {words} random data words: {reason}; \
         frames with more random data words are covered at every BER"
    )]
    FieldAccuracy {
        /// The BER.
        ber: f64,
        /// Bits covered.
        bits: u64,
        /// Random data words.
        words: u64,
        /// The bound that failed.
        reason: String,
    },
    /// The dual code's weights need the dual method's widths.
    #[error("the dual code's weights need the dual method (CRC width up to {max}, not {width})")]
    DualWeightsWidth {
        /// The CRC's width.
        width: u32,
        /// The dual method's widest CRC.
        max: u32,
    },
    /// The syndromes method's weights (and the dual method's widths).
    #[error("the syndromes method counts weights up to {max}{}, not {weight}", dual_text(*.dual_max_width))]
    SyndromesWeight {
        /// The weight asked for.
        weight: u64,
        /// The syndromes method's largest weight.
        max: u64,
        /// The dual method's widest CRC, where the CRC is wider (so the
        /// dual method cannot count it either).
        dual_max_width: Option<u32>,
    },
    /// The exact burst-channel curve's widths.
    #[error(
        "exact burst-channel curves take CRCs up to {max} bits and {check} has {width}; \
         estimate it with `alias simulate`"
    )]
    BurstCurveWidth {
        /// The CRC's name.
        check: String,
        /// Its width.
        width: u32,
        /// The widest CRC.
        max: u32,
    },
    /// The rare-event estimator's channel.
    #[error("the rare-event estimator needs a binary symmetric channel")]
    RareChannel,
    /// The rare-event estimator's BERs.
    #[error("the rare-event estimator needs 0 < BER < 1, not {ber}")]
    RareBer {
        /// The BER.
        ber: f64,
    },
    /// The rare-event estimator needs a CRC.
    #[error("the rare-event estimator needs a CRC in the stack")]
    RareCrc,
    /// The burst rare-event estimator's channel.
    #[error("the burst rare-event estimator needs a Gilbert-Elliott channel")]
    BurstRareChannel,
    /// The burst rare-event estimator's stacks.
    #[error(
        "the burst rare-event estimator estimates a lone CRC's escape (a CRC stack such as \
         ethernet or crc32); the other checks of stack `{stack}` are not modelled"
    )]
    BurstRareStack {
        /// The stack.
        stack: String,
    },
    /// A CRC-and-checksum estimate of a stack without a checksum.
    #[error("stack `{stack}` has no Internet checksum beside its CRC: its escape is the CRC's")]
    NoChecksumBesideCrc {
        /// The stack.
        stack: String,
    },
    /// Random bytes under two Internet checksums.
    #[error("stack `{stack}`: random bytes under two Internet checksums")]
    TwoChecksums {
        /// The stack.
        stack: String,
    },
    /// The low-weight enumeration's widths.
    #[error("low-weight enumeration handles widths up to {max}, not {width}")]
    EnumerationWidth {
        /// The generator's width.
        width: u32,
        /// The widest generator.
        max: u32,
    },
    /// A generator whose period does not fit 64 bits.
    #[error("the period of the generator, {period}, is over 2^64 - 1")]
    Period {
        /// The period.
        period: u128,
    },
    /// Codeword counts for every length: weights 2 to 6.
    #[error(
        "counts for every length are available for weights 2 to 6, not {weight}; \
         use the dual-code weights for higher weights"
    )]
    SpanWeight {
        /// The weight asked for.
        weight: u32,
    },
    /// Codeword counts for every length: the work of weights 4 and 6.
    #[error(
        "weight-{weight} counts up to {bits} bits need about {probes:.1e} probes, \
         over the limit of {max:.0e}"
    )]
    SpanWork {
        /// The weight.
        weight: u32,
        /// The longest length counted.
        bits: u64,
        /// The hash probes it needs.
        probes: f64,
        /// The most probes.
        max: f64,
    },
    /// Codeword shapes: weights 2 to 5.
    #[error("codeword shapes are listed for weights 2 to 5, not {weight}")]
    ShapeWeight {
        /// The weight asked for.
        weight: u32,
    },
    /// Codeword shapes: lengths up to the generator's period.
    #[error(
        "codeword shapes are listed for lengths up to the period of the generator, not {bits} bits"
    )]
    ShapeLength {
        /// The length asked for.
        bits: u64,
    },
    /// Codeword shapes: the pair probes of weights 4 and 5.
    #[error(
        "weight-{weight} shapes up to {bits} bits need about {probes:.1e} pair probes, \
         over the limit of {max:.0e}"
    )]
    ShapeWork {
        /// The weight.
        weight: u32,
        /// The longest span listed.
        bits: u64,
        /// The pair probes it needs.
        probes: f64,
        /// The most pair probes.
        max: f64,
    },
    /// The discrete-log search for weight-3 codewords: a generator with a
    /// repeated factor.
    #[error("the discrete-log search for weight-3 codewords needs a square-free generator")]
    TrinomialSquareFree,
    /// The discrete-log search: a factor's order over the Zech table's.
    #[error(
        "the order of x modulo a degree-{degree} factor is {order}, over the {max} a Zech table allows"
    )]
    TrinomialOrder {
        /// The factor's degree.
        degree: u32,
        /// The order of `x` modulo the factor.
        order: u128,
        /// The largest order of a Zech table.
        max: u128,
    },
    /// The discrete-log search: the spans it would try.
    #[error("the discrete-log search for weight-3 codewords would try over {max} spans")]
    TrinomialSpans {
        /// The most spans tried.
        max: u64,
    },
    /// A Hamming-distance profile asked beyond its top entry.
    #[error("the profile stops at HD {hd}; the HD at {data_bits} data bits is at least {hd}")]
    ProfileEnd {
        /// The profile's top HD.
        hd: u32,
        /// The data length asked for.
        data_bits: u64,
    },
    /// The Hamming-distance profile's search stopped at a limit.
    #[error(
        "searching for weight-{weight} codewords is beyond this tool's limits ({reason}, at {bits} bits); \
         ask for a lower largest HD to stop earlier"
    )]
    HdSearch {
        /// The codeword weight searched.
        weight: u32,
        /// The limit met (probes, table or positions).
        reason: String,
        /// The codeword length reached.
        bits: u64,
    },
    /// A stack the joint computation does not model, and the rule it
    /// breaks.
    #[error("the joint computation does not handle stack `{stack}`: {rule}")]
    JointStack {
        /// The stack.
        stack: String,
        /// The rule broken.
        rule: StackRule,
    },
    /// A stack whose CRC does not read the frame in wire bit order.
    #[error("stack `{stack}`: its CRC does not read the frame in wire bit order")]
    WireOrder {
        /// The stack.
        stack: String,
    },
    /// The joint computation's certified bracket needs the dual code.
    #[error("the certified bracket needs the dual code: CRCs up to {max} bits")]
    JointWidth {
        /// The CRC's width.
        width: u32,
        /// The widest CRC of the dual code.
        max: u32,
    },
    /// The joint computation samples weights 3 to 8.
    #[error("sampling weight {weight}: weights 3 to 8 only")]
    SampledWeight {
        /// The weight asked for.
        weight: u32,
    },
    /// The draws of the next weight met no codeword.
    #[error("{draws} draws found no weight-{weight} codeword: give more samples")]
    NoSampledCodeword {
        /// The draws made.
        draws: u64,
        /// The weight sampled.
        weight: u32,
    },
    /// A stack whose value at BER 0.5 is not computed exactly, and the rule
    /// it breaks.
    #[error("BER 0.5 for stack `{stack}`: {rule}")]
    HalfStack {
        /// The stack.
        stack: String,
        /// The rule broken.
        rule: StackRule,
    },
    /// The value at BER 0.5: a checksum group with too many unpaired bytes.
    #[error("BER 0.5: more than {max} unpaired bytes in one checksum group")]
    UnpairedBytes {
        /// The unpaired bytes of the group.
        bytes: u32,
        /// The most unpaired bytes.
        max: u32,
    },
    /// An Internet checksum of a frame that its exact column does not
    /// model, and the rule it breaks.
    #[error("{check}: {rule}")]
    ChecksumColumn {
        /// The check's name.
        check: String,
        /// The rule broken.
        rule: StackRule,
    },
    /// The burst channel's joint estimate needs Internet checksums beside
    /// the CRC.
    #[error(
        "stack `{stack}`: the joint estimate needs Internet checksums beside the CRC, the \
         random payload under one of them"
    )]
    BurstJointStack {
        /// The stack.
        stack: String,
    },
    /// A frame crossing several links needs the CRC's exact `P_ud` for the
    /// bound on two or more links passing a codeword.
    #[error("no exact P_ud of the CRC, so no bound for several links")]
    SeveralLinks {
        /// The links crossed.
        hops: u32,
    },
}

/// The rule of a stack model that a frame breaks ([`Limit::JointStack`],
/// [`Limit::HalfStack`], [`Limit::ChecksumColumn`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum StackRule {
    /// Checks other than one CRC and Internet checksums.
    #[error("it needs one CRC and otherwise Internet checksums only")]
    OneCrcAndChecksums,
    /// Checks other than CRCs and Internet checksums.
    #[error("one CRC and Internet checksums only")]
    CrcAndChecksumsOnly,
    /// More than one CRC.
    #[error("more than one CRC")]
    CrcsOver,
    /// More Internet checksums than modelled.
    #[error("more than {max} Internet checksums")]
    ChecksumsOver {
        /// The most Internet checksums.
        max: usize,
    },
    /// More than two Internet checksums (the value at BER 0.5).
    #[error("more than two Internet checksums")]
    ChecksumsOverTwo,
    /// The CRC does not cover the whole frame with its field at the end.
    #[error("the CRC must cover the whole frame with its field, of whole bytes, at the end")]
    CrcCoversFrame,
    /// The CRC's field does not end the frame in whole bytes.
    #[error("the CRC's field must end the frame in whole bytes")]
    CrcFieldEnds,
    /// A frame too long for the model's bit positions.
    #[error("frame too long")]
    FrameLength {
        /// The frame's bits.
        bits: u64,
    },
    /// An Internet checksum field that does not start a 16-bit word.
    #[error("a checksum field does not start a 16-bit word")]
    FieldAlignment,
    /// A field computed from random data under another checksum.
    #[error("a field computed from random data lies under another checksum")]
    RandomFieldCovered,
    /// Two checksum fields computed from random data.
    #[error("more than one checksum field computed from random data")]
    RandomFields,
    /// An Internet checksum that reads the CRC's field.
    #[error("a checksum reads the CRC's field")]
    ChecksumReadsCrc,
    /// An Internet checksum that reads a byte twice.
    #[error("a checksum reads a byte twice")]
    ByteReadTwice,
    /// A byte of two weights in two checksums.
    #[error("a byte has two weights in two checksums")]
    ByteWeights,
    /// Words that run across a checksum's byte ranges.
    #[error("words run across its byte ranges")]
    WordsAcrossRanges,
    /// A checksum's field outside its ranges.
    #[error("its field is outside its ranges")]
    FieldOutsideRanges,
    /// Covered bytes that vary with a fixed payload.
    #[error("covers bytes that vary with a fixed payload")]
    VaryingFixedPayload,
}

fn dual_text(w: Option<u32>) -> String {
    w.map(|w| format!(", and the dual method takes widths up to {w}"))
        .unwrap_or_default()
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", s.join(", "))
    }
}

/// Shorthand for results with [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Formats a byte count for error messages, e.g. `12.0 GiB`.
pub(crate) fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = bytes;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{v:.0} {}", UNITS[i])
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
}
