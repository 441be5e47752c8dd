//! The figures built from result documents: which series, which values, which labels.

use crate::common;

use aliasing_plot::doc::Document;
use aliasing_plot::figure::{Interval, Shape, XAxis};
use aliasing_plot::{Options, PlotError, XUnit, YQuantity, figure_of};
use common::fixture;
use serde_json::json;

fn fig(v: &serde_json::Value, opts: &Options) -> aliasing_plot::Figure {
    figure_of(&Document::from_value(v).unwrap(), opts).unwrap()
}

#[test]
fn curve_ratio_is_recomputed_when_missing_and_nulls_are_skipped() {
    let v = json!({"check": {"name": "internet", "check_bits": 16},
    "points": [
        {"ber": 1e-5, "bits": 512, "p_error": 4e-3, "p_undetected": 1e-9},
        {"ber": 1e-5, "bits": 1024, "p_error": null, "p_undetected": null, "p_alias_given_error": null},
        {"ber": 1e-4, "bits": 512, "p_alias_given_error": 3e-7}
    ]});
    let f = fig(&v, &Options::default());
    assert_eq!(f.title, "internet");
    assert_eq!(f.series.len(), 3);
    assert_eq!(f.series[0].label, "BER 1e-5");
    let Shape::Line(p) = &f.series[0].shape else {
        panic!()
    };
    assert_eq!(p[0], (512.0, 1e-9 / 4e-3));
    assert!(p[1].1.is_nan(), "null is carried as NaN and not drawn");
    assert_eq!(f.series[2].shape, Shape::Asymptote(2f64.powi(-16)));
    let f = fig(
        &v,
        &Options {
            x: XUnit::Bytes,
            y: YQuantity::Undetected,
            ..Options::default()
        },
    );
    let Shape::Line(p) = &f.series[0].shape else {
        panic!()
    };
    assert_eq!(p[0], (64.0, 1e-9));
    assert_eq!(f.series.len(), 2, "no asymptote for P_ud");
}

#[test]
fn curve_lines_are_sorted_by_ber_and_complete() {
    let f = fig(&fixture("curve.json"), &Options::default());
    let labels: Vec<&str> = f.series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "BER 1e-6",
            "BER 1e-5",
            "BER 1e-4",
            "BER 1e-3",
            "2^-16 = 1.53e-5"
        ]
    );
    let n = fixture("curve.json")["points"].as_array().unwrap().len();
    let total: usize = f
        .series
        .iter()
        .map(|s| {
            if let Shape::Line(p) = &s.shape {
                p.len()
            } else {
                0
            }
        })
        .sum();
    assert_eq!(total, n);
}

#[test]
fn compare_uses_bits_when_bytes_are_missing() {
    let v = json!({"checks": [{"name": "a", "check_bits": 8}, {"name": "b", "check_bits": 8}],
    "points": [
        {"check": "a", "ber": 1e-3, "bits": 80, "p_alias_given_error": 1e-3},
        {"check": "b", "ber": 1e-3, "bits": 80, "bytes": 10, "p_alias_given_error": 2e-3}
    ]});
    let f = fig(&v, &Options::default());
    assert!(f.x_label.contains("[bits"));
    assert_eq!(
        f.series[0].label, "a",
        "one BER: the BER goes in the subtitle"
    );
    assert_eq!(
        f.subtitle.as_deref(),
        Some("binary symmetric channel, BER 1e-3")
    );
    assert_eq!(f.series[1].shape, Shape::Line(vec![(80.0, 2e-3)]));
    assert_eq!(
        f.series.len(),
        3,
        "a, b and one asymptote for the one width"
    );
    let f = fig(
        &v,
        &Options {
            x: XUnit::Bytes,
            ..Options::default()
        },
    );
    assert_eq!(f.series[0].shape, Shape::Line(vec![(10.0, 1e-3)]));
}

#[test]
fn simulate_zero_escapes_is_an_upper_bound() {
    let f = fig(&fixture("simulate.json"), &Options::default());
    assert_eq!(
        f.x_axis,
        XAxis::Categories(vec![
            "CRC-32/ISO-HDLC".into(),
            "internet".into(),
            "fletcher32".into(),
            "stack".into()
        ])
    );
    let Shape::Estimates(e) = &f.series[0].shape else {
        panic!()
    };
    assert_eq!(
        e[0],
        Interval {
            x: -0.1,
            y: None,
            low: 0.0,
            high: 3.69e-9
        }
    );
    assert_eq!(e[1].y, Some(37e-9));
    let Shape::Exact(x) = &f.series[1].shape else {
        panic!()
    };
    assert_eq!(x, &vec![(0.1, 2.6e-11), (1.1, 3.1e-8)]);
}

#[test]
fn sweep_must_vary_ber_or_bytes() {
    let one = fixture("simulate.json");
    let v = json!([one.clone(), one.clone()]);
    let err = figure_of(&Document::from_value(&v).unwrap(), &Options::default()).unwrap_err();
    assert!(matches!(err, PlotError::UnknownDocument(_)), "{err}");
    // A one-element array is a single run.
    assert!(matches!(
        Document::from_value(&json!([one])),
        Ok(Document::Simulate(_))
    ));
    // x in bits on request.
    let mut v = fixture("simulate-sweep.json");
    for (i, run) in v.as_array_mut().unwrap().iter_mut().enumerate() {
        run["params"]["ber"] = 1e-5.into();
        run["params"]["bytes"] = (100 * (i + 1)).into();
    }
    let f = fig(
        &v,
        &Options {
            x: XUnit::Bits,
            ..Options::default()
        },
    );
    assert_eq!(f.x_label, "frame length  [bits]");
    let Shape::Line(exact) = &f.series[1].shape else {
        panic!()
    };
    assert_eq!(exact[0].0, 800.0);
}

#[test]
fn stack_like_documents_plot_as_comparisons() {
    // A document may name its checks only in the points.
    let v = json!({"stack": "ethernet-tcp", "points": [
        {"check": "stack", "ber": 1e-5, "bytes": 1518, "p_alias_given_error": 1e-12},
        {"check": "stack", "ber": 1e-5, "bytes": 64, "p_alias_given_error": 1e-13}]});
    let d = Document::from_value(&v).unwrap();
    assert!(matches!(d, Document::Compare(_)));
    let f = figure_of(&d, &Options::default()).unwrap();
    assert_eq!(f.series.len(), 1);
    assert_eq!(
        f.series[0].shape,
        Shape::Line(vec![(1518.0, 1e-12), (64.0, 1e-13)])
    );
}
