//! Monte Carlo results (`alias simulate`): estimates with their confidence
//! interval bars, the exact value beside each where one is known.
//!
//! One run plots one column per check (and one for the whole stack); a JSON
//! array of runs that differ in BER or frame length plots the estimates with
//! bars against that parameter, beside the exact line of each check.

use crate::doc::{Estimate, SimulateDoc};
use crate::error::{PlotError, Result};
use crate::figure::{Figure, Interval, Series, Shape, XAxis, colour};
use crate::ticks::tick_label;
use crate::{Options, XUnit};

const Y_LABEL: &str = "escape rate  [undetected errors per frame]";

/// The run parameter a sweep can vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Param {
    Ber,
    Bytes,
}

impl Param {
    fn of(self, doc: &SimulateDoc) -> Option<f64> {
        match self {
            Param::Ber => doc.ber,
            Param::Bytes => doc.bytes,
        }
    }
}

fn interval(x: f64, e: &Estimate) -> Interval {
    Interval {
        x,
        y: e.rate.filter(|r| *r > 0.0 && e.escapes > 0.0),
        low: e.ci_low.unwrap_or(0.0),
        high: e.ci_high.or(e.rate).unwrap_or(0.0),
    }
}

/// The estimates of a run, in plot order: every check, then the stack.
fn columns(doc: &SimulateDoc) -> Vec<(String, &Estimate)> {
    let mut cols: Vec<(String, &Estimate)> = doc
        .checks
        .iter()
        .map(|c| (c.name.clone(), &c.estimate))
        .collect();
    if let Some(s) = &doc.stack {
        cols.push(("stack".into(), s));
    }
    cols
}

fn run_description(doc: &SimulateDoc) -> String {
    let mut parts = vec![format!("{} frames", tick_label(doc.frames))];
    if let Some(fe) = doc.frames_with_error {
        parts[0].push_str(&format!(" ({} with errors)", tick_label(fe)));
    }
    if let Some(b) = doc.ber {
        parts.push(format!("BER {}", tick_label(b)));
    }
    if let Some(b) = doc.bytes {
        parts.push(format!("{} bytes", tick_label(b)));
    }
    if let Some(s) = doc.seed {
        parts.push(format!("seed {s}"));
    }
    parts.join(", ")
}

/// Builds the figure of one simulate run.
pub fn figure(doc: &SimulateDoc, _opts: &Options) -> Result<Figure> {
    let cols = columns(doc);
    if cols.is_empty() {
        return Err(PlotError::Empty(
            "the simulate result lists no checks".into(),
        ));
    }
    let names: Vec<String> = cols.iter().map(|c| c.0.clone()).collect();
    let estimates: Vec<Interval> = cols
        .iter()
        .enumerate()
        .map(|(i, (_, e))| interval(i as f64 - 0.1, e))
        .collect();
    let exact: Vec<(f64, f64)> = cols
        .iter()
        .enumerate()
        .filter_map(|(i, (_, e))| e.exact.map(|x| (i as f64 + 0.1, x)))
        .collect();
    let mut series = vec![Series {
        label: "estimate, 95% interval".into(),
        colour: colour(0),
        shape: Shape::Estimates(estimates),
    }];
    if !exact.is_empty() {
        series.push(Series {
            label: "exact".into(),
            colour: colour(1),
            shape: Shape::Exact(exact),
        });
    }
    Ok(Figure {
        title: format!("Monte Carlo escapes: {}", names.join(", ")),
        subtitle: Some(format!(
            "{}; triangles: upper bounds after zero escapes",
            run_description(doc)
        )),
        x_label: "check".into(),
        y_label: Y_LABEL.into(),
        x_axis: XAxis::Categories(names),
        series,
    })
}

/// Which run parameter a sweep varies.
fn sweep_axis(docs: &[SimulateDoc]) -> Result<Param> {
    for key in [Param::Ber, Param::Bytes] {
        let vals: Vec<Option<f64>> = docs.iter().map(|d| key.of(d)).collect();
        if vals.iter().all(Option::is_some) {
            let first = vals[0];
            if vals.iter().any(|v| *v != first) {
                return Ok(key);
            }
        }
    }
    Err(PlotError::UnknownDocument(
        "an array of simulate results must vary params \"ber\" or \"bytes\"".into(),
    ))
}

/// Builds the figure of several simulate runs swept over BER or frame length.
pub fn sweep_figure(docs: &[SimulateDoc], opts: &Options) -> Result<Figure> {
    let key = sweep_axis(docs)?;
    let scale = if key == Param::Bytes && opts.x == XUnit::Bits {
        8.0
    } else {
        1.0
    };
    let mut names: Vec<String> = Vec::new();
    for d in docs {
        for (n, _) in columns(d) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    // With several checks, each one's estimates sit a little to the side
    // (a few percent on the log axis) so their bars do not overlap.
    let spread = |i: usize| {
        if names.len() > 1 {
            1.07f64.powf(i as f64 - (names.len() - 1) as f64 / 2.0)
        } else {
            1.0
        }
    };
    let mut series = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let mut est = Vec::new();
        let mut exact = Vec::new();
        for d in docs {
            let x = key.of(d).unwrap_or(f64::NAN) * scale;
            if let Some((_, e)) = columns(d).into_iter().find(|c| &c.0 == name) {
                est.push(interval(x * spread(i), e));
                if let Some(v) = e.exact {
                    exact.push((x, v));
                }
            }
        }
        series.push(Series {
            label: format!("{name} estimate, 95% interval"),
            colour: colour(i),
            shape: Shape::Estimates(est),
        });
        if !exact.is_empty() {
            series.push(Series {
                label: format!("{name} exact"),
                colour: colour(i),
                shape: Shape::Line(exact),
            });
        }
    }
    let frames: Vec<f64> = docs.iter().map(|d| d.frames).collect();
    let fmin = frames.iter().copied().fold(f64::INFINITY, f64::min);
    let fmax = frames.iter().copied().fold(0.0, f64::max);
    let mut subtitle = if fmin == fmax {
        format!("{} frames per point", tick_label(fmin))
    } else {
        format!(
            "{} to {} frames per point",
            tick_label(fmin),
            tick_label(fmax)
        )
    };
    let other = if key == Param::Ber {
        Param::Bytes
    } else {
        Param::Ber
    };
    if let Some(v) = other.of(&docs[0]) {
        subtitle.push_str(&if other == Param::Ber {
            format!(", BER {}", tick_label(v))
        } else {
            format!(", {} bytes", tick_label(v))
        });
    }
    if let Some(s) = docs[0].seed {
        subtitle.push_str(&format!(", seed {s}"));
    }
    Ok(Figure {
        title: format!("Monte Carlo escapes: {}", names.join(", ")),
        subtitle: Some(subtitle),
        x_label: match (key, scale == 8.0) {
            (Param::Ber, _) => "bit error rate  [flips per bit]".into(),
            (_, true) => "frame length  [bits]".into(),
            _ => "frame length  [bytes]".into(),
        },
        y_label: Y_LABEL.into(),
        x_axis: XAxis::Log,
        series,
    })
}
