//! Searches (`alias search`): P(alias | error) of the best generators found
//! (the first eight) and of the catalogue's CRCs of the width, against
//! frame length, one line per (generator, BER), as a comparison is drawn.

use crate::Options;
use crate::error::Result;
use crate::figure::Figure;
use aliasing_core::bsc::CurvePoint;
use aliasing_core::document::{self, PudAt, Search};

/// The generators drawn: the first eight listed (results, then the
/// catalogue's entries where fewer were found), then every catalogue entry.
const DRAWN: usize = 8;

/// The comparison a search document draws as: each generator labelled
/// `NAME HD d` (its Koopman form, or the catalogue's names), with its
/// `P_ud` at every (length, BER) of the search.
pub fn as_compare(doc: &Search) -> document::Compare {
    let listed: Vec<(String, u32, &[PudAt])> = doc
        .results
        .iter()
        .map(|r| (r.koopman.clone(), r.min_hd, r.points.as_slice()))
        .chain(
            doc.catalogue
                .iter()
                .map(|k| (k.names.clone(), k.min_hd, k.points.as_slice())),
        )
        .collect();
    let mut checks: Vec<document::CompareCheck> = Vec::new();
    let mut points = Vec::new();
    let drawn = listed
        .iter()
        .take(DRAWN)
        .chain(listed.iter().skip(doc.results.len()));
    for (name, hd, at) in drawn {
        let label = format!("{name} HD {hd}");
        if checks.iter().any(|c| c.name == label) {
            continue;
        }
        checks.push(document::CompareCheck::new(label.clone(), doc.width));
        for p in *at {
            // (a search's BERs are in (0, 0.5]: P_err > 0, the ratio as computed before)
            let pt = CurvePoint::new(p.ber, p.bits, u64::from(doc.width), p.p_undetected);
            points.push(document::ComparePoint::new(label.clone(), &pt, None));
        }
    }
    document::Compare::new(None, checks, points)
}

/// Builds the figure of a search document ([`as_compare`], drawn as a
/// comparison).
pub fn figure(doc: &Search, opts: &Options) -> Result<Figure> {
    crate::compare::figure(&as_compare(doc).into(), opts)
}
