//! Exact escape probabilities to print beside the estimates, where an exact
//! method applies on a binary symmetric channel: a CRC check, and an
//! Internet checksum over known bytes, random data or a mix of both.
//!
//! The escape of a CRC depends on the error pattern only: the XOR of the
//! per-position syndrome table (see [`crate::sparse`]) must be zero. The
//! register chain's kernel (`aliasing_core::markov::walk`) carries, per
//! syndrome value, the mass of the paths that have seen at least one error
//! (every term positive, no `1 - (1-p)^n` cancellation), stepping by the
//! table's values, at `O(n 2^r)`. It is used up to
//! `n 2^r <= 4e9`; a 32-bit CRC over the whole frame goes to the exact
//! engines of `aliasing-core` (the dual code, a few seconds; `--no-exact`
//! skips it).

use crate::channel::Channel;
use crate::run::Plan;
use crate::sparse::{crc_bit_table, crc_wire_table};
use aliasing_core::markov::walk::escape_of_translations;

/// Exact values per check and for the stack (`None` where no exact method applies here).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ExactValues {
    /// Per check.
    pub checks: Vec<Option<f64>>,
    /// The whole stack.
    pub stack: Option<f64>,
}

/// Exact values for `plan`, where available.
pub fn exact_values(plan: &Plan) -> ExactValues {
    exact_values_with(plan, &aliasing_core::progress::Silent)
}

/// [`exact_values`] watched by `progress`: the stages of
/// [`aliasing_core::curve::exact_with`] for a 32-bit CRC over the whole
/// frame (the dual code's few seconds); the other values take no stage.
pub fn exact_values_with(
    plan: &Plan,
    progress: &dyn aliasing_core::progress::Progress,
) -> ExactValues {
    let f = &plan.frame;
    let n = f.n_bits();
    let mut out = ExactValues {
        checks: vec![None; f.checks.len()],
        stack: None,
    };
    let ber = match &plan.channel {
        Channel::Bsc { ber } => *ber,
        Channel::Burst(ge) => {
            burst_values(plan, ge, &mut out);
            return out;
        }
        _ => return out,
    };
    for (i, c) in f.checks.iter().enumerate() {
        if let Some(alg) = c.crc() {
            let w = alg.width();
            // the stored field is 8 * field_len bits: padding bits make syndromes up to that width
            let bits = (8 * c.field_len as u32).max(w);
            if bits > 24 || (n as f64) * (1u64 << bits) as f64 > 4e9 {
                // A CRC over the whole frame with its field at the end is a
                // plain codeword of length n: ask the exact engines of the core
                // (they refuse what does not fit in memory).
                let whole = c.data == (0, c.field) && c.field + c.field_len == f.bytes;
                // (only 32 bits: the dual code's O(2^32) per length; other
                // widths here would take the chain's O(n 2^r), too slow to print)
                if whole && w == 32 && 8 * c.field_len as u32 == w {
                    use aliasing_core::curve::{Method, Request, exact_with};
                    use aliasing_core::units::{Ber, Bits, MemoryBudget};
                    let curve = Ber::new(ber)
                        .and_then(|b| Request::for_crc(alg, &[Bits(n)], &[b]))
                        .and_then(|req| {
                            exact_with(&req, Method::Auto, MemoryBudget::from_env()?, progress)
                        });
                    if let Ok(r) = curve {
                        out.checks[i] = r.points.first().map(|pt| pt.p_undetected);
                    }
                }
                continue;
            }
            let table = crc_bit_table(f, c);
            out.checks[i] = Some(escape_of_translations(bits, &table, ber));
        }
    }
    for (i, c) in f.checks.iter().enumerate() {
        if c.is_internet() {
            out.checks[i] = internet_exact(plan, &c.ranges, c.field, c.constant, ber);
        }
        // Fletcher-16 over random data with its sum after it, alone in the
        // frame: the frame of `aliasing_core::fletcher::p_undetected16`
        // (refused points stay without an exact value)
        if c.spec == aliasing_core::check::CheckSpec::Fletcher16
            && f.checks.len() == 1
            && f.payload == crate::stack::Payload::Random
            && c.data == (0, c.field)
            && c.field_len == 2
            && c.field + 2 == f.bytes
        {
            out.checks[i] = aliasing_core::fletcher::p_undetected16(f.bytes as u64, ber).ok();
        }
    }
    if f.checks.len() == 1 {
        out.stack = out.checks[0];
    }
    out
}

/// On a Gilbert-Elliott channel: each CRC check of up to 24 bits by the
/// product chain over its syndrome table in wire order (the channel's state
/// follows the bits as they are sent; [`aliasing_core::markov::gilbert::escape_of_translations`]),
/// where `n 2^r` is small enough to print; the stack when it is that check alone.
fn burst_values(plan: &Plan, ge: &aliasing_core::channel::GilbertElliott, out: &mut ExactValues) {
    use aliasing_core::markov::gilbert;
    let f = &plan.frame;
    for (i, c) in f.checks.iter().enumerate() {
        if let Some(alg) = c.crc() {
            let bits = (8 * c.field_len as u32).max(alg.width());
            if bits > gilbert::MAX_WIDTH {
                continue;
            }
            let wire = crc_wire_table(f, c);
            out.checks[i] = gilbert::escape_of_translations(bits, &wire, ge).ok();
        }
    }
    if f.checks.len() == 1 {
        out.stack = out.checks[0];
    }
}

/// The Internet checksum over `ranges` with its field at byte `field`:
/// exact (from [`aliasing_core::joint::internet_p_undetected`]) when the
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
    let (n_cov, p_cov) =
        aliasing_core::joint::internet_p_undetected(f, "Internet", ranges, field, constant, ber)
            .ok()?;
    let rest = f.n_bits() - n_cov;
    Some(p_cov + bsc::p_clean(n_cov, ber) * bsc::p_error(rest, ber))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stack::{Frame, Payload};

    /// The DP over the per-position table against the core's Markov chain
    /// over register states (an independent method), 1e-12 relative.
    #[test]
    fn dynamic_program_matches_markov_chain() {
        for (stack, bytes) in [("crc16", 64usize), ("CRC-16/IBM-3740", 200), ("crc8", 1518)] {
            let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
            let c = &frame.checks[0];
            let alg = c.crc().unwrap();
            let table = crc_bit_table(&frame, c);
            for p in [1e-7, 1e-4, 1e-2, 0.3] {
                let dp = escape_of_translations(alg.width(), &table, p);
                let mk = aliasing_core::markov::p_undetected(
                    &alg.generator(),
                    &[8 * bytes as u64],
                    &[p],
                )
                .unwrap()[0][0];
                assert!((dp / mk - 1.0).abs() < 1e-12, "{stack} {p}: {dp} {mk}");
            }
        }
    }

    /// Brute force over all 2^n error patterns of a tiny frame, each frame
    /// checked by computing its CRC as a receiver would (so the syndrome
    /// table is tested too).
    #[test]
    fn exact_value_matches_brute_force_on_real_frames() {
        for (stack, bytes) in [("4:0x3", 2usize), ("crc8", 2), ("CRC-5/USB", 2)] {
            let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
            let c = &frame.checks[0];
            let table = crc_bit_table(&frame, c);
            let mut sent = vec![0xA5u8; bytes];
            frame.fill_field(0, &mut sent);
            let n = 8 * bytes;
            let undetected: Vec<u32> = (1u32..(1 << n))
                .filter(|&e| {
                    let mut got = sent.clone();
                    for i in (0..n as u32).filter(|i| e >> i & 1 == 1) {
                        let (byte, mask) = frame.bit_at(i);
                        got[byte] ^= mask;
                    }
                    frame.verify(0, &got)
                })
                .map(u32::count_ones)
                .collect();
            assert!(!undetected.is_empty());
            for p in [1e-3f64, 0.1, 0.5] {
                let brute: f64 = undetected
                    .iter()
                    .map(|&w| p.powi(w as i32) * (1.0 - p).powi(n as i32 - w as i32))
                    .sum();
                let exact = escape_of_translations(8, &table, p);
                assert!(
                    (exact / brute - 1.0).abs() < 1e-12,
                    "{stack} {p}: {exact} {brute}"
                );
            }
        }
    }
}
