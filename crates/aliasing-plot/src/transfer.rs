//! Transfers (`alias transfer`): expected escapes per petabyte moved
//! against BER, one line per MTU (and hop count), the bracket as a band.

use crate::error::Result;
use crate::figure::{Figure, Series, Shape, XAxis, colour};
use aliasing_core::document::Transfer;

/// Bytes in a petabyte (decimal): the unit of the figure's y axis.
pub const PETABYTE: f64 = 1e15;

/// Builds the figure of a transfer document: for each (MTU, hops), the
/// expected escapes per 1e15 bytes (`escapes x 1e15 / size`) against BER,
/// the estimate as a line and `[low, high]` as a band (BER 0 left out: it
/// has no place on a log axis).
pub fn figure(doc: &Transfer) -> Result<Figure> {
    let per_pb = PETABYTE / doc.size_bytes as f64;
    let mut keys: Vec<(u64, u32)> = doc.points.iter().map(|p| (p.mtu, p.hops)).collect();
    keys.sort_unstable();
    keys.dedup();
    let several_hops = keys.iter().any(|k| k.1 != keys[0].1);
    let mut series = Vec::new();
    for (i, &(mtu, hops)) in keys.iter().enumerate() {
        let at: Vec<_> = doc
            .points
            .iter()
            .filter(|p| p.mtu == mtu && p.hops == hops && p.ber > 0.0)
            .collect();
        let name = if several_hops {
            format!("MTU {mtu}, {hops} hops")
        } else {
            format!(
                "MTU {mtu} ({} bytes on the wire)",
                at.first().map_or(0, |p| p.frame_bytes)
            )
        };
        let line: Vec<(f64, f64)> = at
            .iter()
            .filter_map(|p| p.escapes.estimate.map(|e| (p.ber, e * per_pb)))
            .collect();
        let band: Vec<(f64, f64, f64)> = at
            .iter()
            .map(|p| (p.ber, p.escapes.low * per_pb, p.escapes.high * per_pb))
            .collect();
        series.push(Series {
            label: name.clone(),
            colour: colour(i),
            shape: Shape::Line(line),
        });
        series.push(Series {
            label: format!("{name}: bracket"),
            colour: colour(i),
            shape: Shape::Band(band),
        });
    }
    let hops = if several_hops {
        String::new()
    } else {
        format!(", {} hop(s)", keys.first().map_or(1, |k| k.1))
    };
    Ok(Figure {
        title: format!("Corrupted frames delivered, {}", doc.stack),
        subtitle: Some(format!(
            "expected escapes per petabyte moved (every check passed), BSC{hops}"
        )),
        x_label: "bit error rate".into(),
        y_label: "expected escapes per PB".into(),
        x_axis: XAxis::Log,
        series,
    })
}
