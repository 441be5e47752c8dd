//! Renders every plot kind to SVG and PNG and checks the files: size, each
//! series' legend text, the dashed asymptote, lines at the right places, and
//! PNGs that decode, are not blank, and show text drawn with the embedded font.

use crate::common;

use aliasing_plot::figure::{ASYMPTOTE, PALETTE, SIZE};
use aliasing_plot::{Document, Options, PlotError, XUnit, YQuantity, render, render_with};
use common::*;

/// The `(attribute value, text)` of every text element whose opening tag has `anchor`.
fn labels_with(svg: &str, anchor: &str, attr: &str) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    for chunk in svg.split("<text").skip(1) {
        let open = &chunk[..chunk.find('>').unwrap()];
        if !open.contains(anchor) {
            continue;
        }
        let i = open.find(&format!(" {attr}=\"")).unwrap() + attr.len() + 3;
        let v: f64 = open[i..i + open[i..].find('"').unwrap()].parse().unwrap();
        let text = chunk[chunk.find('>').unwrap() + 1..chunk.find("</text>").unwrap()].trim();
        out.push((v, text.to_string()));
    }
    out
}

/// A pixel coordinate for `v` on a log axis, interpolated between two tick labels.
fn log_pixel(ticks: &[(f64, String)], a: &str, b: &str, v: f64) -> f64 {
    let pa = ticks
        .iter()
        .find(|t| t.1 == a)
        .unwrap_or_else(|| panic!("tick {a}"))
        .0;
    let pb = ticks
        .iter()
        .find(|t| t.1 == b)
        .unwrap_or_else(|| panic!("tick {b}"))
        .0;
    let (va, vb): (f64, f64) = (a.parse().unwrap(), b.parse().unwrap());
    pa + (pb - pa) * (v / va).log10() / (vb / va).log10()
}

/// The x pixel where the legend column starts (its texts are left-anchored).
fn legend_left(svg: &str) -> f64 {
    let xs = labels_with(svg, "text-anchor=\"start\"", "x");
    xs.iter().map(|t| t.0).fold(f64::INFINITY, f64::min) - 60.0
}

/// Checks that the line of each BER passes through the pixel of each of its points.
fn check_lines(svg: &str, doc: &serde_json::Value, xs: (&str, &str), ys: (&str, &str)) {
    let yt = labels_with(svg, "text-anchor=\"end\"", "y");
    let xt = labels_with(svg, "text-anchor=\"middle\"", "x");
    let points = doc["points"].as_array().unwrap();
    for (i, ber) in [1e-6, 1e-5, 1e-4, 1e-3].into_iter().enumerate() {
        let want: Vec<(f64, f64)> = points
            .iter()
            .filter(|p| p["ber"].as_f64() == Some(ber))
            .map(|p| {
                (
                    log_pixel(&xt, xs.0, xs.1, p["bits"].as_f64().unwrap()),
                    log_pixel(&yt, ys.0, ys.1, p["p_alias_given_error"].as_f64().unwrap()),
                )
            })
            .collect();
        let lines = polylines(svg, &hex(PALETTE[i]));
        let line = lines.iter().max_by_key(|l| l.len()).unwrap();
        assert_eq!(line.len(), want.len(), "points of BER {ber}");
        for (got, w) in line.iter().zip(&want) {
            assert!(
                (got.0 - w.0).abs() <= 1.5 && (got.1 - w.1).abs() <= 1.5,
                "{got:?} vs {w:?}"
            );
        }
    }
}

fn check_png(path: &std::path::Path, colours: &[plotters::style::RGBColor]) {
    let img = png(path);
    assert_eq!(img.dimensions(), SIZE);
    // The title band holds only text: dark pixels there prove the embedded font drew it.
    assert!(
        count_dark(&img, 0..28) > 300,
        "title text missing in {path:?}"
    );
    // Axis labels and legend text below the title.
    assert!(count_dark(&img, 28..SIZE.1) > 3000, "{path:?} looks blank");
    for &c in colours {
        assert!(
            count_colour(&img, c, 0..SIZE.1) > 30,
            "no pixels of series colour {c:?} in {path:?}"
        );
    }
}

#[test]
fn curve_renders_to_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let doc = fixture("curve.json");
    let svg_path = dir.path().join("curve.svg");
    render(&doc, &svg_path).unwrap();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.len() > 10_000, "SVG only {} bytes", svg.len());
    let texts = svg_texts(&svg);
    let has = |s: &str| texts.iter().any(|t| t == s);
    for label in [
        "BER 1e-6",
        "BER 1e-5",
        "BER 1e-4",
        "BER 1e-3",
        "2^-16 = 1.53e-5",
    ] {
        assert!(has(label), "legend entry {label:?} missing");
    }
    assert!(has("CRC-16/IBM-3740   polynomial 0x11021   Koopman 0x8810"));
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("codeword length n") && t.contains("[bits"))
    );
    assert!(texts.iter().any(|t| t.starts_with("P(alias | error)")));
    for tick in ["1e-5", "1e-10", "100", "1000", "10000"] {
        assert!(has(tick), "tick label {tick} missing");
    }

    // Every point of every BER line sits where its value maps on the log-log axes.
    check_lines(&svg, &doc, ("100", "10000"), ("1e-14", "1e-4"));
    let yt = labels_with(&svg, "text-anchor=\"end\"", "y");

    // The asymptote is dashed (many short segments) at 2^-16, across the plot.
    let dashes = polylines(&svg, &hex(ASYMPTOTE));
    let right = legend_left(&svg);
    let on_plot: Vec<_> = dashes.iter().filter(|d| d[0].0 < right).collect();
    assert!(on_plot.len() >= 20, "only {} dashes", on_plot.len());
    let y16 = log_pixel(&yt, "1e-14", "1e-4", 2f64.powi(-16));
    for d in &on_plot {
        assert_eq!(d.len(), 2);
        assert!((d[0].1 - y16).abs() <= 1.5 && d[0].1 == d[1].1);
        assert!(d[1].0 - d[0].0 <= 11.0);
    }

    let png_path = dir.path().join("curve.png");
    render(&doc, &png_path).unwrap();
    assert!(std::fs::metadata(&png_path).unwrap().len() > 20_000);
    check_png(
        &png_path,
        &[PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[3], ASYMPTOTE],
    );
    assert_eq!(
        common::entries(&dir),
        ["curve.png", "curve.svg"],
        "no temporary files left"
    );
}

#[test]
fn tiny_probabilities_keep_their_ticks_and_places() {
    // A 64-bit check down to 1e-40: every decade mark must still be drawn
    // and every point placed (plotters' own log axis drops ticks below 2.2e-16).
    let dir = tempfile::tempdir().unwrap();
    let mut doc = fixture("curve.json");
    doc["crc"] = serde_json::json!({"name": "CRC-64/XZ", "width": 64,
        "full": "0x142F0E1EBA9EA3693", "koopman": "0xA17870F5D4F51B49"});
    for p in doc["points"].as_array_mut().unwrap() {
        let v = p["p_alias_given_error"].as_f64().unwrap();
        p["p_alias_given_error"] = (v * 1e-26).into();
    }
    let p = dir.path().join("tiny.svg");
    render(&doc, &p).unwrap();
    let svg = std::fs::read_to_string(&p).unwrap();
    let texts = svg_texts(&svg);
    for e in (-40..=-20).step_by(2) {
        let t = format!("1e{e}");
        assert!(texts.contains(&t), "tick {t} missing");
    }
    assert!(texts.contains(&"2^-64 = 5.42e-20".to_string()));
    check_lines(&svg, &doc, ("100", "10000"), ("1e-40", "1e-20"));
    let p = dir.path().join("tiny.png");
    render(&doc, &p).unwrap();
    check_png(&p, &PALETTE[..4]);
}

#[test]
fn curve_options_undetected_and_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        y: YQuantity::Undetected,
        x: XUnit::Bytes,
        ..Options::default()
    };
    let p = dir.path().join("ud.svg");
    render_with(
        &Document::from_value(&fixture("curve.json")).unwrap(),
        &p,
        &opts,
    )
    .unwrap();
    let svg = std::fs::read_to_string(&p).unwrap();
    let texts = svg_texts(&svg);
    assert!(texts.iter().any(|t| t.starts_with("P(undetected error)")));
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("frame length") && t.contains("[bytes"))
    );
    // No 2^-r asymptote for P_ud, which has none.
    assert!(!texts.iter().any(|t| t.starts_with("2^-")));
    assert!(polylines(&svg, &hex(ASYMPTOTE)).is_empty());
    let p = dir.path().join("ud.png");
    render_with(
        &Document::from_value(&fixture("curve.json")).unwrap(),
        &p,
        &opts,
    )
    .unwrap();
    check_png(&p, &PALETTE[..4]);
}

#[test]
fn compare_renders_to_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let doc = fixture("compare.json");
    let p = dir.path().join("compare.svg");
    render(&doc, &p).unwrap();
    let svg = std::fs::read_to_string(&p).unwrap();
    assert!(svg.len() > 10_000);
    let texts = svg_texts(&svg);
    let names = [
        "CRC-32/ISO-HDLC",
        "CRC-16/IBM-3740",
        "internet",
        "fletcher32",
    ];
    let mut i = 0;
    for name in names {
        for ber in ["1e-5", "1e-4"] {
            let label = format!("{name}, BER {ber}");
            assert!(texts.contains(&label), "legend entry {label:?} missing");
            // One line of 8 points per (check, BER), in its own colour.
            let lines = polylines(&svg, &hex(PALETTE[i]));
            assert!(lines.iter().any(|l| l.len() == 8), "line of {label}");
            i += 1;
        }
    }
    assert!(texts.contains(&"2^-16 = 1.53e-5".to_string()));
    assert!(texts.contains(&"2^-32 = 2.33e-10".to_string()));
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("frame length") && t.contains("[bytes"))
    );
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("Aliasing of CRC-32/ISO-HDLC vs"))
    );
    // Two dashed asymptotes at two heights.
    let mut ys: Vec<i64> = polylines(&svg, &hex(ASYMPTOTE))
        .iter()
        .filter(|d| d[0].0 < legend_left(&svg))
        .map(|d| d[0].1 as i64)
        .collect();
    ys.dedup();
    ys.sort_unstable();
    ys.dedup();
    assert_eq!(ys.len(), 2, "asymptote heights {ys:?}");

    let p = dir.path().join("compare.png");
    render(&doc, &p).unwrap();
    check_png(&p, &PALETTE);
}

#[test]
fn simulate_renders_to_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let doc = fixture("simulate.json");
    let p = dir.path().join("sim.svg");
    render(&doc, &p).unwrap();
    let svg = std::fs::read_to_string(&p).unwrap();
    let texts = svg_texts(&svg);
    for t in [
        "CRC-32/ISO-HDLC",
        "internet",
        "fletcher32",
        "stack",
        "estimate, 95% interval",
        "exact",
    ] {
        assert!(texts.iter().any(|x| x == t), "{t:?} missing");
    }
    assert!(
        texts
            .iter()
            .any(|t| t.contains("1e9 frames") && t.contains("seed 1"))
    );
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("escape rate") && t.contains("per frame]"))
    );
    // Four interval bars (two vertical points each) and two downward triangles
    // for the zero-escape upper bounds; two exact diamonds (closed 5-point paths).
    let blue = polylines(&svg, &hex(PALETTE[0]));
    let bars = blue
        .iter()
        .filter(|l| l.len() == 2 && l[0].0 == l[1].0 && (l[0].1 - l[1].1).abs() > 15.0);
    assert_eq!(bars.count(), 4 + 1, "four bars plus the legend's");
    let triangles = format!("<polygon opacity=\"1\" fill=\"{}\"", hex(PALETTE[0]));
    assert_eq!(svg.matches(&triangles).count(), 2, "upper-bound triangles");
    let dots = format!("r=\"5\" opacity=\"1\" fill=\"{}\"", hex(PALETTE[0]));
    assert_eq!(
        svg.matches(&dots).count(),
        2 + 1,
        "two estimates plus the legend's"
    );
    let red = polylines(&svg, &hex(PALETTE[1]));
    assert_eq!(
        red.iter().filter(|l| l.len() == 5).count(),
        2 + 1,
        "two exact diamonds plus the legend's"
    );

    let p = dir.path().join("sim.png");
    render(&doc, &p).unwrap();
    check_png(&p, &PALETTE[..2]);
}

#[test]
fn simulate_sweep_renders_to_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let doc = fixture("simulate-sweep.json");
    let p = dir.path().join("sweep.svg");
    render(&doc, &p).unwrap();
    let svg = std::fs::read_to_string(&p).unwrap();
    let texts = svg_texts(&svg);
    for t in [
        "CRC-16/IBM-3740 estimate, 95% interval",
        "CRC-16/IBM-3740 exact",
        "internet estimate, 95% interval",
    ] {
        assert!(texts.iter().any(|x| x == t), "{t:?} missing");
    }
    assert!(
        !texts.iter().any(|x| x == "internet exact"),
        "internet has no exact values"
    );
    assert!(texts.iter().any(|t| t.starts_with("bit error rate")));
    // The exact line of CRC-16 through five BERs.
    assert!(
        polylines(&svg, &hex(PALETTE[0]))
            .iter()
            .any(|l| l.len() == 5)
    );

    let p = dir.path().join("sweep.png");
    render(&doc, &p).unwrap();
    check_png(&p, &PALETTE[..2]);
}

#[test]
fn sweep_over_bytes_uses_length_axis() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = fixture("simulate-sweep.json");
    for (i, run) in doc.as_array_mut().unwrap().iter_mut().enumerate() {
        run["params"]["ber"] = 1e-5.into();
        run["params"]["bytes"] = (64u64 << i).into();
    }
    let p = dir.path().join("s.svg");
    render(&doc, &p).unwrap();
    let texts = svg_texts(&std::fs::read_to_string(&p).unwrap());
    assert!(texts.iter().any(|t| t == "frame length  [bytes]"));
    assert!(texts.iter().any(|t| t.contains("BER 1e-5")));
}

#[test]
fn bad_extension_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["plot.pdf", "plot", "plot.svg.txt"] {
        let err = render(&fixture("curve.json"), &dir.path().join(name)).unwrap_err();
        assert!(matches!(err, PlotError::BadExtension(_)), "{err}");
        assert!(err.to_string().contains(".svg or .png"));
    }
    // Case does not matter.
    render(&fixture("curve.json"), &dir.path().join("UP.SVG")).unwrap();
    assert_eq!(common::entries(&dir), ["UP.SVG"]);
}

#[test]
fn unknown_and_malformed_documents_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.png");
    let cases = [
        serde_json::json!({"profile": [1, 2, 3]}),
        serde_json::json!(42),
        serde_json::json!([]),
        serde_json::json!([{"crc": {}}]),
    ];
    for c in &cases {
        let err = render(c, &p).unwrap_err();
        assert!(matches!(err, PlotError::UnknownDocument(_)), "{err}");
        assert!(!err.to_string().contains('\n'));
    }
    let mut broken = fixture("curve.json");
    broken["points"][3].as_object_mut().unwrap().remove("ber");
    let err = render(&broken, &p).unwrap_err();
    assert!(
        matches!(err, PlotError::Malformed { kind: "curve", .. }),
        "{err}"
    );
    assert!(err.to_string().contains("ber"), "{err}");
    let mut broken = fixture("simulate.json");
    broken["checks"][0]["escapes"] = "many".into();
    assert!(matches!(
        render(&broken, &p),
        Err(PlotError::Malformed {
            kind: "simulate",
            ..
        })
    ));
    assert!(common::entries(&dir).is_empty());
}

#[test]
fn nothing_plottable_leaves_no_file_and_keeps_an_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = fixture("curve.json");
    for p in doc["points"].as_array_mut().unwrap() {
        p["p_alias_given_error"] = 0.0.into();
    }
    for name in ["e.svg", "e.png"] {
        let err = render(&doc, &dir.path().join(name)).unwrap_err();
        assert!(matches!(err, PlotError::Empty(_)), "{err}");
    }
    assert!(
        common::entries(&dir).is_empty(),
        "{:?}",
        common::entries(&dir)
    );
    std::fs::write(dir.path().join("old.png"), b"old").unwrap();
    assert!(render(&doc, &dir.path().join("old.png")).is_err());
    assert_eq!(std::fs::read(dir.path().join("old.png")).unwrap(), b"old");
    assert_eq!(common::entries(&dir), ["old.png"]);
}

#[test]
fn unwritable_destination_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["p.svg", "p.png"] {
        let p = dir.path().join("no-such-dir").join(name);
        let err = render(&fixture("curve.json"), &p).unwrap_err();
        assert!(
            matches!(err, PlotError::Io { .. } | PlotError::Render(_)),
            "{err}"
        );
        assert!(!err.to_string().contains('\n'));
    }
}

#[test]
fn long_titles_are_cut_and_small_pictures_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = fixture("compare.json");
    doc["checks"][0]["name"] = "X".repeat(300).into();
    for p in doc["points"].as_array_mut().unwrap() {
        if p["check"] == "CRC-32/ISO-HDLC" {
            p["check"] = "X".repeat(300).into();
        }
    }
    let p = dir.path().join("long.svg");
    render(&doc, &p).unwrap();
    let texts = svg_texts(&std::fs::read_to_string(&p).unwrap());
    let title = texts
        .iter()
        .find(|t| t.starts_with("Aliasing of XXX"))
        .unwrap();
    assert!(
        title.ends_with('\u{2026}') && title.chars().count() < 200,
        "{title}"
    );
    for size in [(200, 150), (400, 300), (64, 64)] {
        let opts = Options {
            size,
            ..Options::default()
        };
        for name in ["s.svg", "s.png"] {
            // Either a picture or a one-line error; never a panic.
            if let Err(e) = render_with(
                &Document::from_value(&fixture("curve.json")).unwrap(),
                &dir.path().join(name),
                &opts,
            ) {
                assert!(!e.to_string().contains('\n'));
            }
        }
    }
}
