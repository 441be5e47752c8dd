//! Stacks (`alias stack`): the joint P(escape | error) of a stack of checks,
//! with its interval, beside the study's independence product, against
//! BER, one pair of series per frame length.

use crate::error::Result;
use crate::figure::{Figure, Interval, Series, Shape, XAxis, colour};
use aliasing_core::document::{Stack, StackPoint};

/// The legend of one length's joint line, by how its points were obtained
/// (the terms behind `joint.method`): exact terms and the certified bracket,
/// or an estimate with a sampled weight.
fn joint_label(at: &[&StackPoint]) -> String {
    let sampled: Vec<u32> = at
        .iter()
        .flat_map(|p| p.terms.iter().filter(|t| !t.exact).map(|t| t.weight))
        .collect();
    match sampled.iter().max() {
        None => "joint (exact terms + bracket)".into(),
        Some(w) => format!("joint (estimate, sampled weight {w})"),
    }
}

/// Builds the figure of a stack document: for each frame length, joint
/// P(escape | error) as a line, its `[low, high]` as intervals, and the
/// independence product as exact points (BER 0 left out: it has no place
/// on a log axis).
pub fn figure(doc: &Stack) -> Result<Figure> {
    let mut lengths: Vec<u64> = doc.points.iter().map(|p| p.bytes).collect();
    lengths.dedup();
    let mut series = Vec::new();
    for (k, &b) in lengths.iter().enumerate() {
        let at: Vec<&StackPoint> = doc
            .points
            .iter()
            .filter(|p| p.bytes == b && p.p_error > 0.0)
            .collect();
        let joint: Vec<Interval> = at
            .iter()
            .map(|p| Interval {
                x: p.ber,
                y: p.joint_given_error(),
                low: p.joint.low / p.p_error,
                high: p.joint.high / p.p_error,
            })
            .collect();
        let line: Vec<(f64, f64)> = joint.iter().filter_map(|i| i.y.map(|y| (i.x, y))).collect();
        let product: Vec<(f64, f64)> = at
            .iter()
            .filter_map(|p| p.independence_product.map(|x| (p.ber, x)))
            .collect();
        series.push(Series {
            label: format!("{b} bytes: {}", joint_label(&at)),
            colour: colour(k),
            shape: Shape::Line(line),
        });
        series.push(Series {
            label: format!("{b} bytes: joint interval"),
            colour: colour(k),
            shape: Shape::Estimates(joint),
        });
        series.push(Series {
            label: format!("{b} bytes: independence product (study's)"),
            colour: colour(k),
            shape: Shape::Exact(product),
        });
    }
    Ok(Figure {
        title: format!("Joint escape of {} vs the independence product", doc.stack),
        subtitle: Some("P(every check passes | at least one bit error), BSC".into()),
        x_label: "bit error rate".into(),
        y_label: "P(escape | error)".into(),
        x_axis: XAxis::Log,
        series,
    })
}
