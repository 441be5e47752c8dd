//! The figures of the `hd` and `weights` documents: the Hamming-distance
//! profile and the weight distribution ([`crate::structure`]), named by the
//! CRC and its full generator.

use crate::error::Result;
use crate::figure::Figure;
use crate::{Options, Plot, structure};
use aliasing_core::document::{Hd, Weights};

/// `NAME 0xFULL`, the name a figure gives a CRC.
fn title(c: &aliasing_core::document::CheckInfo) -> String {
    format!("{} {}", c.name, c.full.as_deref().unwrap_or(""))
}

/// The HD profile: the longest data length against HD, log scale.
impl Plot for Hd {
    fn figure(&self, _opts: &Options) -> Result<Figure> {
        let rows: Vec<(u32, u64)> = self
            .examples
            .iter()
            .map(|e| (e.hd, e.max_data_bits))
            .collect();
        structure::hd_figure(&title(&self.crc), &rows)
    }
}

/// The weight distribution: `A_w` against `w`, log scale, and the dual
/// code's `B_w` where the document has them. The counts are exact
/// integers; the picture takes each as the nearest `f64` (the decimal
/// string read, correctly rounded).
impl Plot for Weights {
    fn figure(&self, _opts: &Options) -> Result<Figure> {
        let a: Vec<f64> = self
            .weights
            .iter()
            .map(|c| c.count.to_string().parse::<f64>().unwrap_or(f64::INFINITY))
            .collect();
        let b: Vec<(usize, f64)> = self.dual.iter().map(|d| (d.w, d.count as f64)).collect();
        structure::weights_figure(&title(&self.crc), self.bits, &a, &b)
    }
}
