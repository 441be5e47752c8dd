//! One check of a stack on its own: its exact `P_ud` at a BER.

use super::*;

/// An Internet checksum of `frame` named `name` (for errors), summing
/// `ranges` plus `constant` with its field at byte `field`, on its own at
/// BER `p`: `(covered bits, P_ud)`, counting only errors inside its ranges.
/// From [`crate::internet::p_undetected_payload`] when every covered byte is
/// fixed, else [`crate::internet::p_undetected_mixed`] (fixed bytes in their
/// known directions, random payload, the field a real checksum of it);
/// refused where words run across ranges, or covered bytes vary with a
/// fixed payload.
pub fn internet_p_undetected(
    frame: &Frame,
    name: &str,
    ranges: &[(usize, usize)],
    field: usize,
    constant: u16,
    p: f64,
) -> Result<(u64, f64)> {
    let refuse = |rule| {
        Error::Limit(Limit::ChecksumColumn {
            check: name.to_string(),
            rule,
        })
    };
    if ranges.len() > 1 && ranges.iter().any(|&(a, b)| (b - a) % 2 == 1) {
        return Err(refuse(StackRule::WordsAcrossRanges));
    }
    let covered: Vec<usize> = ranges.iter().flat_map(|&(a, b)| a..b).collect();
    let bits = 8 * covered.len() as u64;
    let pud = if covered.iter().all(|&b| !frame.varies[b]) {
        let bytes: Vec<u8> = covered.iter().map(|&b| frame.template[b]).collect();
        crate::internet::p_undetected_payload(&bytes, p)?
    } else if frame.payload == Payload::Random {
        let bytes: Vec<Option<u8>> = covered
            .iter()
            .map(|&b| (!frame.varies[b]).then_some(frame.template[b]))
            .collect();
        let at = covered
            .iter()
            .position(|&b| b == field)
            .ok_or_else(|| refuse(StackRule::FieldOutsideRanges))?;
        crate::internet::p_undetected_mixed(&bytes, at, constant, p)?
    } else {
        return Err(refuse(StackRule::VaryingFixedPayload));
    };
    Ok((bits, pud))
}
