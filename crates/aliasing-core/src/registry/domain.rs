//! Where each entry of the registry holds: its [`Domain`], and the table
//! the guide quotes (`domain_table`).

use super::{BRACKET_MAX_WIDTH, DUAL_MAX_BER, Entry, PLACED_MAX_WIDTH, PLACED_MAX_WORK};
use crate::{dual, fletcher, markov};

/// Where one exact method holds: the domain its refusal enforces. One row of
/// the table of `alias methods`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Domain {
    /// The method's name.
    pub method: &'static str,
    /// The function or check that refuses a request outside the domain.
    pub refused_by: &'static str,
    /// The checks it computes.
    pub checks: &'static str,
    /// The channel.
    pub channel: &'static str,
    /// What the data is (the value of a CRC does not depend on it).
    pub data: &'static str,
    /// The BERs it accepts.
    pub bers: String,
    /// The widths and lengths it accepts.
    pub sizes: String,
}

/// Where each entry holds, the source of the "where each exact method
/// holds" table: [`Entry::ALL`] in order, then the burst theorem (a count,
/// not a channel's probability).
pub fn domains() -> Vec<Domain> {
    let mut v: Vec<Domain> = Entry::ALL.iter().map(|e| e.domain()).collect();
    v.push(Domain {
        method: "burst guarantees",
        refused_by: "`burst::count_undetected`",
        checks: "any CRC",
        channel: "single bursts of length b",
        data: "any",
        bers: "-".into(),
        sizes: format!(
            "the theorem for every b; counted one pattern at a time up to {} patterns",
            crate::burst::MAX_ENUMERATED
        ),
    });
    v
}

/// The table of [`domains`] in Markdown, as `docs/guide/exact-methods.md`
/// quotes it.
pub fn domain_table() -> String {
    let mut s = String::from(
        "| method | checks | channel | data | BERs | widths and lengths | refused by |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for d in domains() {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            d.method, d.checks, d.channel, d.data, d.bers, d.sizes, d.refused_by
        );
    }
    s
}

impl Entry {
    /// Where the entry's value is exact (for [`Entry::Bracket`], where its
    /// bounds are certified): the checks, channel, data model, BERs, widths
    /// and lengths that [`Entry::assess`] accepts.
    pub fn domain(self) -> Domain {
        const ASSESS: &str = "`registry::Entry::assess`";
        match self {
            Entry::Markov => Domain {
                method: "Markov chain over register states",
                refused_by: "`registry::Entry::assess`, the memory budget",
                checks: "any CRC",
                channel: "BSC",
                data: "any (a CRC's escape depends on the error pattern alone)",
                bers: "[0, 1]".into(),
                sizes: "every width whose 2^r-state vector (8 * 2^r bytes per BER in flight) fits \
                        the memory budget; lengths from r + 1 bits; inside a frame, a CRC that is \
                        the whole frame with its field (exactly r bits) at the end"
                    .into(),
            },
            Entry::Dual => Domain {
                method: "dual code (MacWilliams)",
                refused_by: "`registry::Entry::assess`, the memory budget",
                checks: "any CRC",
                channel: "BSC",
                data: "any (a CRC's escape depends on the error pattern alone)",
                bers: format!("[0, {DUAL_MAX_BER}]"),
                sizes: format!(
                    "widths 1 to {}; lengths from r + 1 bits, as the memory budget admits; inside \
                     a frame, the dual weights at its length, or a CRC that is the whole frame \
                     with its field (exactly r bits) at the end",
                    dual::MAX_WIDTH
                ),
            },
            Entry::Bracket => Domain {
                method: "certified bracket (bounds, not a value)",
                refused_by: "`registry::Entry::assess`, `bracket::bracket`, `bracket::low_weights`",
                checks: "any CRC wider than the dual code takes",
                channel: "BSC",
                data: "any",
                bers: "[0, 1]".into(),
                sizes: format!(
                    "widths {} to {BRACKET_MAX_WIDTH}; weights counted exactly up to {} (meet in \
                     the middle); lengths from r + 1 bits",
                    dual::MAX_WIDTH + 1,
                    crate::bracket::MAX_ENUMERATED
                ),
            },
            Entry::GilbertChain => Domain {
                method: "Gilbert-Elliott product chain",
                refused_by: "`registry::Entry::assess`, the memory budget",
                checks: "any CRC",
                channel: "Gilbert-Elliott (stationary start; state BERs and transitions in [0, 1], not both transitions 0)",
                data: "any",
                bers: "each state's BER in [0, 1]".into(),
                sizes: format!(
                    "widths 1 to {}, as the memory budget admits; lengths from r + 1 bits; inside \
                     a frame, a stored field of up to {} bits and n 2^bits up to {:.0e}",
                    markov::gilbert::MAX_WIDTH,
                    markov::gilbert::MAX_WIDTH,
                    markov::gilbert::TRANSLATION_WORK_LIMIT
                ),
            },
            Entry::InternetRandom => Domain {
                method: "Internet checksum, random data",
                refused_by: "`registry::Entry::assess`, `internet::p_undetected`",
                checks: "Internet checksum (RFC 1071), field computed from the data",
                channel: "BSC",
                data: "uniformly random bytes",
                bers: "[0, 1]".into(),
                sizes: "frames from 3 bytes (data and the 16-bit field); refused where the bound is not certified to 1e-13 relative".into(),
            },
            Entry::InternetGiven => Domain {
                method: "Internet checksum, given data",
                refused_by: "`registry::Entry::assess`, `internet::p_undetected_payload`",
                checks: "Internet checksum (RFC 1071)",
                channel: "BSC",
                data: "the data given, its field computed as a sender would (`--payload`), or a captured frame whose field verifies (`--frame`)",
                bers: "[0, 1]".into(),
                sizes: "frames of an even number of bytes, at least 4; a captured frame at its own length".into(),
            },
            Entry::Fletcher16 => Domain {
                method: "Fletcher-16: closed forms, enumeration, independent-field sum with a coupling bound, whole-frame character sum over Z_255^4",
                refused_by: "`registry::Entry::assess`, `fletcher::p_undetected16` (a point where neither the coupling bound nor the whole-frame sum's rounding bound is within 1e-9 of it)",
                checks: "Fletcher-16 (mod 255): data, then sum2 and sum1 computed from it (the simulator's frame)",
                channel: "BSC",
                data: "uniformly random data bytes",
                bers: "0, 1/2 and 1 always; elsewhere where certified to 1e-9 relative (refused only for short frames at low BER, where the coupling bound is wide and the whole-frame sum cancels to the no-error term)".into(),
                sizes: format!("3 to {} bytes; inside a frame, alone over random data", fletcher::MAX_LEN),
            },
            Entry::PlacedCrc => Domain {
                method: "a CRC inside a frame: the chain over its syndrome table",
                refused_by: ASSESS,
                checks: "any CRC at its place in a frame, pad bits of its field included",
                channel: "BSC",
                data: "any",
                bers: "[0, 1]".into(),
                sizes: format!(
                    "stored fields of up to {PLACED_MAX_WIDTH} bits, n 2^bits up to {PLACED_MAX_WORK:.0e}"
                ),
            },
            Entry::PlacedInternet => Domain {
                method: "an Internet checksum inside a frame",
                refused_by: "`registry::Entry::assess`, `joint::internet_p_undetected`",
                checks: "Internet checksum over its byte ranges (pseudo-header words folded in)",
                channel: "BSC",
                data: "fixed bytes in their known directions, random payload, the field computed from them",
                bers: "[0, 1]".into(),
                sizes: "ranges whose words do not run across each other; with random bytes, its field inside its ranges and a random payload".into(),
            },
            Entry::JointTerms => Domain {
                method: "joint stack terms",
                refused_by: "`registry::Entry::assess`, `joint::JointStack::new`",
                checks: "one CRC and up to 4 Internet checksums",
                channel: "BSC",
                data: "random payload, fixed headers",
                bers: "[0, 1]: exact at 0 and 1/2; elsewhere exact terms up to weight 5 and a certified bracket, an estimate only where the enumerated (and sampled) weights dominate the remainder, else the bracket alone".into(),
                sizes: format!("CRCs the dual code takes (widths up to {})", dual::MAX_WIDTH),
            },
        }
    }
}
