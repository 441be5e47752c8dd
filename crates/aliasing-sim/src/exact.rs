//! Exact escape probabilities to print beside the estimates, where an exact
//! method applies on a binary symmetric channel: a CRC check, and an
//! Internet checksum over known bytes, random data or a mix of both.
//!
//! The escape of a CRC depends on the error pattern only: the XOR of the
//! per-position syndrome table (see [`crate::sparse`]) must be zero. The
//! register chain's kernel (`aliasing_core::markov::walk`) carries, per
//! syndrome value, the mass of the paths that have seen at least one error
//! (every term positive, no `1 - (1-p)^n` cancellation), stepping by the
//! table's values, at `O(n 2^r)`. The core's registry of exact methods
//! chooses each check's method ([`aliasing_core::registry`]): this chain
//! up to `n 2^r <= 4e9` and 24 bits, else a CRC over the whole frame as a
//! plain codeword (the dual code, a few seconds for 32 bits), the
//! Gilbert-Elliott walk on a burst channel, the Internet checksum's and
//! Fletcher-16's own methods.

use crate::channel::Channel;
use crate::run::Plan;
use crate::sparse::{crc_bit_table, crc_wire_table};
use aliasing_core::__private::markov::walk::escape_of_translations;
use aliasing_core::ctx::Ctx;
use aliasing_core::registry::{self, Ask, Entry};
use aliasing_core::units::{Ber, Bits};

/// Exact values per check and for the stack (`None` where no exact method applies here).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ExactValues {
    /// Per check.
    pub checks: Vec<Option<f64>>,
    /// The whole stack.
    pub stack: Option<f64>,
}

/// Exact values for `plan`, where available, in `ctx`: every choice and
/// computation held to its memory budget, watched by its progress (the
/// stages of [`aliasing_core::curve::exact`] for a CRC over the whole frame
/// that its syndrome chain does not reach, the dual code's few seconds for
/// a 32-bit CRC; the other values take no stage).
///
/// Each check's method is the one the core's registry chooses for it in
/// its frame ([`registry::choose`] on an [`Ask::Placed`]); a check no
/// entry takes (or whose computation refuses a point) has no exact value.
pub fn exact_values(plan: &Plan, ctx: &Ctx) -> ExactValues {
    let f = &plan.frame;
    let mut out = ExactValues {
        checks: vec![None; f.checks.len()],
        stack: None,
    };
    let bers;
    let channel = match &plan.channel {
        Channel::Bsc { ber } => match Ber::new(*ber) {
            Ok(b) => {
                bers = [b];
                registry::Channel::Bsc(&bers)
            }
            Err(_) => return out,
        },
        Channel::Burst(ge) => registry::Channel::Burst(ge),
        _ => return out,
    };
    let budget = ctx.budget();
    for (i, c) in f.checks.iter().enumerate() {
        let ask = Ask::Placed {
            frame: f,
            index: i,
            channel,
            weights: None,
        };
        let Ok(entry) = registry::choose(&ask, budget) else {
            continue;
        };
        out.checks[i] = match (entry, channel) {
            (Entry::PlacedCrc, registry::Channel::Bsc(b)) => {
                let alg = c.crc().expect("the registry placed a CRC");
                // the stored field is 8 * field_len bits: padding bits make
                // syndromes up to that width
                let bits = (8 * c.field_len as u32).max(alg.width());
                let table = crc_bit_table(f, c);
                Some(escape_of_translations(bits, &table, b[0].get()))
            }
            (Entry::Markov | Entry::Dual, registry::Channel::Bsc(b)) => {
                // a CRC over the whole frame with its field at the end is a
                // plain codeword of length n: the core's curve methods
                use aliasing_core::curve::{Method, Request, exact};
                let alg = c.crc().expect("the registry placed a CRC");
                let method = if entry == Entry::Dual {
                    Method::Dual
                } else {
                    Method::Markov
                };
                Request::for_crc(alg, &[Bits(f.n_bits())], b)
                    .and_then(|req| exact(&req, method, ctx))
                    .ok()
                    .and_then(|r| r.points.first().map(|pt| pt.p_undetected))
            }
            (Entry::GilbertChain, registry::Channel::Burst(ge)) => {
                let alg = c.crc().expect("the registry placed a CRC");
                let bits = (8 * c.field_len as u32).max(alg.width());
                let wire = crc_wire_table(f, c);
                aliasing_core::__private::markov::gilbert::escape_of_translations(bits, &wire, ge)
                    .ok()
            }
            (Entry::PlacedInternet, registry::Channel::Bsc(b)) => {
                internet_exact(plan, &c.ranges, c.field, c.constant, b[0].get())
            }
            // Fletcher-16 over random data with its sum after it, alone in
            // the frame (refused points stay without an exact value)
            (Entry::Fletcher16, registry::Channel::Bsc(b)) => {
                aliasing_core::fletcher::p_undetected16(f.bytes as u64, b[0].get()).ok()
            }
            _ => None,
        };
    }
    if f.checks.len() == 1 {
        out.stack = out.checks[0];
    }
    out
}

/// The Internet checksum over `ranges` with its field at byte `field`:
/// exact (from the joint computation's Internet-checksum method) when the
/// covered bytes are all fixed (the given-payload method), or when some are
/// random data (the real-field model, known bytes flipping in their known
/// directions: a TCP segment's header and random payload). The check also
/// "escapes" when errors fall only outside its bytes:
/// `P = P_ud(covered) + (1-p)^covered * P_err(rest)`. `constant` is the
/// folded sum of the words summed but not sent (pseudo-header).
pub fn internet_exact(
    plan: &Plan,
    ranges: &[(usize, usize)],
    field: usize,
    constant: u16,
    ber: f64,
) -> Option<f64> {
    use aliasing_core::bsc;
    let f = &plan.frame;
    let (n_cov, p_cov) = aliasing_core::__private::joint::internet_p_undetected(
        f, "Internet", ranges, field, constant, ber,
    )
    .ok()?;
    let rest = f.n_bits() - n_cov;
    Some(p_cov + bsc::p_clean(n_cov, ber) * bsc::p_error(rest, ber))
}
