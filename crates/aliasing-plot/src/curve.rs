//! Aliasing curves (`alias curve`): P(alias | error) against codeword length,
//! one line per BER, with the `2^-r` asymptote dashed.

use crate::doc::CurveDoc;
use crate::error::Result;
use crate::figure::{ASYMPTOTE, Figure, Series, Shape, XAxis, colour};
use crate::ticks::{asymptote_label, tick_label};
use crate::{Options, XUnit, YQuantity};

/// A polynomial field (hex string or number) as text.
fn poly_text(v: &Option<serde_json::Value>) -> Option<String> {
    match v.as_ref()? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => n.as_u64().map(|u| format!("0x{u:X}")),
        _ => None,
    }
}

/// Groups items by BER, keeping the order in which the BERs first appear,
/// and returns the groups sorted by increasing BER.
pub(crate) fn by_ber<T>(items: impl IntoIterator<Item = (f64, T)>) -> Vec<(f64, Vec<T>)> {
    let mut groups: Vec<(f64, Vec<T>)> = Vec::new();
    for (ber, t) in items {
        match groups.iter_mut().find(|g| g.0.to_bits() == ber.to_bits()) {
            Some(g) => g.1.push(t),
            None => groups.push((ber, vec![t])),
        }
    }
    groups.sort_by(|a, b| a.0.total_cmp(&b.0));
    groups
}

/// The y value of a point for the chosen quantity; the ratio is recomputed
/// from `p_undetected / p_error` when the document omits it.
pub(crate) fn y_of(
    q: YQuantity,
    p_alias: Option<f64>,
    p_ud: Option<f64>,
    p_err: Option<f64>,
) -> Option<f64> {
    match q {
        YQuantity::Undetected => p_ud,
        YQuantity::AliasGivenError => p_alias.or_else(|| match (p_ud, p_err) {
            (Some(u), Some(e)) if e > 0.0 => Some(u / e),
            _ => None,
        }),
    }
}

/// Axis label of the chosen quantity, with its unit.
pub(crate) fn y_label(q: YQuantity) -> &'static str {
    match q {
        YQuantity::AliasGivenError => "P(alias | error)  [probability per corrupted frame]",
        YQuantity::Undetected => "P(undetected error)  [probability per frame]",
    }
}

/// Builds the figure of a curve document.
pub fn figure(doc: &CurveDoc, opts: &Options) -> Result<Figure> {
    let bytes = opts.x == XUnit::Bytes;
    let scale = if bytes { 1.0 / 8.0 } else { 1.0 };
    let groups = by_ber(doc.points.iter().map(|p| {
        let y = y_of(opts.y, p.p_alias_given_error, p.p_undetected, p.p_error);
        (p.ber, (p.bits * scale, y.unwrap_or(f64::NAN)))
    }));
    let mut series: Vec<Series> = groups
        .into_iter()
        .enumerate()
        .map(|(i, (ber, pts))| Series {
            label: format!("BER {}", tick_label(ber)),
            colour: colour(i),
            shape: Shape::Line(pts),
        })
        .collect();
    if opts.y == YQuantity::AliasGivenError {
        series.push(Series {
            label: asymptote_label(doc.crc.width),
            colour: ASYMPTOTE,
            shape: Shape::Asymptote(2f64.powi(-(doc.crc.width as i32))),
        });
    }
    let mut title = doc.crc.name.clone();
    if let Some(full) = poly_text(&doc.crc.full) {
        title.push_str(&format!("   polynomial {full}"));
    }
    if let Some(k) = poly_text(&doc.crc.koopman) {
        title.push_str(&format!("   Koopman {k}"));
    }
    let mut subtitle = format!("{} check bits, binary symmetric channel", doc.crc.width);
    if let Some(m) = &doc.method {
        subtitle.push_str(&format!(", exact ({m})"));
    }
    Ok(Figure {
        title,
        subtitle: Some(subtitle),
        x_label: if bytes {
            "frame length  [bytes, check bytes included]".into()
        } else {
            "codeword length n  [bits, check bits included]".into()
        },
        y_label: y_label(opts.y).into(),
        x_axis: XAxis::Log,
        series,
    })
}
