//! A simulate document written through the type the CLI writes
//! ([`aliasing_sim::report::Report`], serialized by
//! `aliasing_core::document::to_json`) reads into the plot through that same
//! type: every number the figure shows is the report's own.

use aliasing_core::document::{self, Document as _};
use aliasing_plot::figure::{Interval, Shape, XAxis};
use aliasing_plot::{Document, Options, PlotError, figure_of};
use aliasing_sim::channel::Channel;
use aliasing_sim::report::Report;
use aliasing_sim::run::{RunOptions, simulate};
use aliasing_sim::spec::{Params, PayloadSpec};
use aliasing_sim::{Frames, Seed};
use serde_json::Value;

const STACK: &str = "crc8";

/// A real run of `frames` 64-byte frames through CRC-8/SMBUS at `ber`,
/// and its report as the CLI prints it with `--format json`.
fn run(ber: f64, frames: u64) -> (Report, Value) {
    let p = Params::new(
        STACK,
        64,
        Channel::Bsc { ber },
        PayloadSpec::Random,
        Frames(frames),
        Seed(3),
    );
    let plan = p.plan().unwrap();
    let counts = simulate(&plan, &RunOptions::default(), None).unwrap();
    let report = Report::of(
        &plan,
        p,
        &counts,
        false,
        &aliasing_core::ctx::Ctx::default(),
    );
    let text = document::to_json(&report).unwrap();
    (report, serde_json::from_str(&text).unwrap())
}

#[test]
fn a_simulate_report_round_trips_into_the_plot() {
    let (report, json) = run(1e-3, 20_000);
    assert_eq!(json["kind"], Report::KIND);
    let Document::Simulate(view) = Document::from_value(&json).unwrap() else {
        panic!("a simulate run")
    };
    assert_eq!(view.ber, Some(1e-3));
    assert_eq!(view.bytes, Some(64.0));
    assert_eq!(view.seed, Some(3));
    assert_eq!(view.frames, report.frames as f64);
    assert_eq!(
        view.frames_with_error,
        Some(report.frames_with_error as f64)
    );
    assert_eq!(view.checks.len(), report.checks.len());
    for (v, r) in view.checks.iter().zip(&report.checks) {
        assert_eq!(Some(&v.name), r.name.as_ref());
        assert_eq!(v.estimate.escapes, r.escapes as f64);
        assert_eq!(v.estimate.rate, Some(r.rate));
        assert_eq!(v.estimate.ci_low, Some(r.ci_low));
        assert_eq!(v.estimate.ci_high, Some(r.ci_high));
        assert_eq!(v.estimate.exact, r.exact);
    }
    let stack = view.stack.as_ref().unwrap();
    assert_eq!(stack.escapes, report.stack.escapes as f64);
    assert_eq!(stack.ci_high, Some(report.stack.ci_high));

    // the figure: one column per check and the stack, each estimate at the
    // report's rate with its interval, and the subtitle from the typed params
    let f = figure_of(&Document::Simulate(view), &Options::default()).unwrap();
    let names: Vec<String> = report
        .checks
        .iter()
        .map(|c| c.name.clone().unwrap())
        .chain(["stack".to_string()])
        .collect();
    assert_eq!(f.x_axis, XAxis::Categories(names));
    let Shape::Estimates(e) = &f.series[0].shape else {
        panic!()
    };
    let c = &report.checks[0];
    assert!(c.escapes > 0, "CRC-8 misses about 1 errored frame in 256");
    assert_eq!(
        e[0],
        Interval {
            x: -0.1,
            y: Some(c.rate),
            low: c.ci_low,
            high: c.ci_high
        }
    );
    let sub = f.subtitle.unwrap();
    assert!(
        sub.contains("BER 1e-3") && sub.contains("64 bytes"),
        "{sub}"
    );
    assert!(sub.contains("seed 3"), "{sub}");
}

#[test]
fn reports_swept_over_the_ber_plot_against_it() {
    // the channel's BER sits at params.channel.bsc.ber in the document
    let runs: Vec<(Report, Value)> = [1e-3, 3e-3].iter().map(|&b| run(b, 5_000)).collect();
    let array = Value::Array(runs.iter().map(|r| r.1.clone()).collect());
    let f = figure_of(&Document::from_value(&array).unwrap(), &Options::default()).unwrap();
    assert_eq!(f.x_axis, XAxis::Log);
    assert_eq!(f.x_label, "bit error rate  [flips per bit]");
    // the first check's exact line, at each run's BER
    let Shape::Line(exact) = &f.series[1].shape else {
        panic!("{:?}", f.series[1])
    };
    assert_eq!(exact.len(), 2);
    assert_eq!(exact[0], (1e-3, runs[0].0.checks[0].exact.unwrap()));
    assert_eq!(exact[1], (3e-3, runs[1].0.checks[0].exact.unwrap()));
}

#[test]
fn a_tagged_report_is_read_strictly() {
    // a tagged document is the CLI's type: a missing field is an error
    // naming it, where an untagged one would be read leniently
    let (_, mut json) = run(1e-3, 2_000);
    json.as_object_mut().unwrap().remove("bit_errors");
    let e = Document::from_value(&json).unwrap_err();
    assert!(matches!(e, PlotError::Document(_)), "{e}");
    assert!(e.to_string().contains("bit_errors"), "{e}");
    json.as_object_mut().unwrap().remove("kind");
    json.as_object_mut().unwrap().remove("schema");
    assert!(matches!(
        Document::from_value(&json),
        Ok(Document::Simulate(_))
    ));
}
