//! Figures of a code's structure: the Hamming-distance profile (`alias hd
//! --plot`) and the weight distribution (`alias weights --plot`). Both put
//! small integers (the HD, the weight) on a category axis and a count or a
//! length on a logarithmic one.

use crate::error::{PlotError, Result};
use crate::figure::{Figure, Series, Shape, XAxis, colour};

/// Category labels `0..n` of `values`, thinned to about 20 so they stay
/// legible (every `k`-th one shown, the others empty).
fn labels<T: ToString>(values: &[T]) -> Vec<String> {
    let step = values.len().div_ceil(20).max(1);
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if i % step == 0 {
                v.to_string()
            } else {
                String::new()
            }
        })
        .collect()
}

/// The HD profile of `check` (its name and polynomial): for each Hamming
/// distance `hd` in `rows`, the longest data length in bits at which the
/// code still has that HD, on a log axis against HD. Rows in HD order.
pub fn hd_figure(check: &str, rows: &[(u32, u64)]) -> Result<Figure> {
    if rows.is_empty() {
        return Err(PlotError::Empty(
            "the HD profile has no entry to draw (every HD holds beyond the searched length)"
                .into(),
        ));
    }
    let hds: Vec<u32> = rows.iter().map(|r| r.0).collect();
    let pts = rows
        .iter()
        .enumerate()
        .map(|(i, &(_, bits))| (i as f64, bits as f64))
        .collect();
    Ok(Figure {
        title: format!("Hamming-distance profile of {check}"),
        subtitle: Some("longest data length at which each HD holds".into()),
        x_label: "Hamming distance (HD)".into(),
        y_label: "max data length  [bits]".into(),
        x_axis: XAxis::Categories(labels(&hds)),
        series: vec![Series {
            label: check.split_whitespace().next().unwrap_or(check).to_string(),
            colour: colour(0),
            shape: Shape::Line(pts),
        }],
    })
}

/// The weight distribution of `check` at `bits` bits: `A_w` (the number of
/// codewords of weight `w`) on a log axis against `w = 0, 1, ...` (one
/// entry per weight, in order), and the dual code's `B_w` when `dual` is
/// not empty (`(w, B_w)` pairs). Zero counts cannot go on a log axis: they
/// are left out, and the subtitle says so.
pub fn weights_figure(
    check: &str,
    bits: u64,
    counts: &[f64],
    dual: &[(usize, f64)],
) -> Result<Figure> {
    let n = counts
        .len()
        .max(dual.iter().map(|d| d.0 + 1).max().unwrap_or(0));
    if n == 0 {
        return Err(PlotError::Empty("the weight distribution is empty".into()));
    }
    let ws: Vec<usize> = (0..n).collect();
    let a: Vec<(f64, f64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0.0)
        .map(|(w, &c)| (w as f64, c))
        .collect();
    let zeros = counts.iter().filter(|c| **c <= 0.0).count();
    let mut series = vec![Series {
        label: "A_w (code)".into(),
        colour: colour(0),
        shape: Shape::Line(a),
    }];
    if !dual.is_empty() {
        series.push(Series {
            label: "B_w (dual code)".into(),
            colour: colour(1),
            shape: Shape::Line(dual.iter().map(|&(w, c)| (w as f64, c)).collect()),
        });
    }
    let mut subtitle = format!("{bits}-bit codewords");
    if zeros > 0 {
        subtitle.push_str(&format!(
            "; {zeros} weight{} with no codeword left out (log axis)",
            if zeros == 1 { "" } else { "s" }
        ));
    }
    Ok(Figure {
        title: format!("Weight distribution of {check}"),
        subtitle: Some(subtitle),
        x_label: "weight w".into(),
        y_label: "number of codewords of weight w".into(),
        x_axis: XAxis::Categories(labels(&ws)),
        series,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hd_profile_figure() {
        let f = hd_figure("CRC-16/ARC 0x18005", &[(3, 32751), (4, 32751)]).unwrap();
        assert_eq!(f.x_axis, XAxis::Categories(vec!["3".into(), "4".into()]));
        assert_eq!(
            f.series[0].shape,
            Shape::Line(vec![(0.0, 32751.0), (1.0, 32751.0)])
        );
        assert!(hd_figure("x", &[]).is_err());
    }

    #[test]
    fn weights_figure_leaves_zero_counts_out() {
        let f = weights_figure("CRC-8", 16, &[1.0, 0.0, 0.0, 5.0], &[(0, 1.0), (4, 3.0)]).unwrap();
        assert_eq!(f.series[0].shape, Shape::Line(vec![(0.0, 1.0), (3.0, 5.0)]));
        assert_eq!(f.series.len(), 2);
        assert!(f.subtitle.unwrap().contains("2 weights with no codeword"));
        // weights 0..=4 on the axis (the dual's reach beyond A's)
        assert_eq!(f.x_axis, XAxis::Categories(labels(&[0, 1, 2, 3, 4])));
        let many: Vec<usize> = (0..100).collect();
        let l = labels(&many);
        assert_eq!(l.iter().filter(|s| !s.is_empty()).count(), 20);
        assert!(weights_figure("x", 8, &[], &[]).is_err());
    }
}
