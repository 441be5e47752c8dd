//! Comparisons of several checks (`alias compare`):
//! one line per (check, BER) against frame length, with the `2^-r` asymptote
//! of each distinct check width dashed.

use crate::curve::{by_ber, y_label, y_of};
use crate::doc::CompareDoc;
use crate::error::Result;
use crate::figure::{ASYMPTOTE, Figure, Series, Shape, XAxis, colour};
use crate::ticks::{asymptote_label, tick_label};
use crate::{Options, XUnit};

/// Builds the figure of a compare document.
pub fn figure(doc: &CompareDoc, opts: &Options) -> Result<Figure> {
    let all_bytes = doc.points.iter().all(|p| p.bytes.is_some());
    let bytes = match opts.x {
        XUnit::Bytes => true,
        XUnit::Bits => false,
        XUnit::Auto => all_bytes,
    };
    let x_of = |bytes_v: Option<f64>, bits_v: Option<f64>| -> f64 {
        match (bytes, bytes_v, bits_v) {
            (true, Some(b), _) => b,
            (true, None, Some(b)) => b / 8.0,
            (false, _, Some(b)) => b,
            (false, Some(b), None) => b * 8.0,
            _ => f64::NAN,
        }
    };
    // Checks in the order the document lists them, then any only named by points.
    let mut names: Vec<String> = doc.checks.iter().map(|c| c.name.clone()).collect();
    for p in &doc.points {
        if !names.contains(&p.check) {
            names.push(p.check.clone());
        }
    }
    let bers = by_ber(doc.points.iter().map(|p| (p.ber, ())));
    let single_ber = bers.len() == 1;
    let mut series = Vec::new();
    for name in &names {
        let groups = by_ber(doc.points.iter().filter(|p| &p.check == name).map(|p| {
            let y = y_of(opts.y, p.p_alias_given_error, p.p_undetected, p.p_error);
            (p.ber, (x_of(p.bytes, p.bits), y.unwrap_or(f64::NAN)))
        }));
        for (ber, pts) in groups {
            let label = if single_ber {
                name.clone()
            } else {
                format!("{name}, BER {}", tick_label(ber))
            };
            series.push(Series {
                label,
                colour: colour(series.len()),
                shape: Shape::Line(pts),
            });
        }
    }
    if opts.y == crate::YQuantity::AliasGivenError {
        let mut widths: Vec<u32> = doc.checks.iter().map(|c| c.check_bits).collect();
        widths.sort_unstable();
        widths.dedup();
        for r in widths {
            series.push(Series {
                label: asymptote_label(r),
                colour: ASYMPTOTE,
                shape: Shape::Asymptote(2f64.powi(-(r as i32))),
            });
        }
    }
    let mut subtitle = String::from("binary symmetric channel");
    if single_ber {
        subtitle.push_str(&format!(", BER {}", tick_label(bers[0].0)));
    }
    Ok(Figure {
        title: format!("Aliasing of {}", names.join(" vs ")),
        subtitle: Some(subtitle),
        x_label: if bytes {
            "frame length  [bytes, check bytes included]".into()
        } else {
            "frame length  [bits, check bits included]".into()
        },
        y_label: y_label(opts.y).into(),
        x_axis: XAxis::Log,
        series,
    })
}
