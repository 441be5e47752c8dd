//! Regenerates `docs/study/`: the figures and numbers of section 3 of the
//! study this project grew from (`shared/papers/packet-aliasing-study.txt`),
//! computed exactly, for `docs/study/README.md` to put beside its claims.
//!
//! `cargo run --release --example reproduce_study` (about half a minute on
//! 2 cores; the CRC-32 values use the dual-code method).
//!
//! Writes `fig6.*` (16-bit maximal-length CRC, BER 1e-4..1e-8), `fig7.*`
//! (8-, 16-, 20-bit maximal-length CRCs at 1e-7), `fig8.*` (Internet
//! checksum against packet size at 1.5e-5), each as JSON + SVG + PNG, and
//! `numbers.txt` with every figure quoted in the study's text.

use aliasing_core::bsc::{self, CurvePoint};
use aliasing_core::curve::{self, Method};
use aliasing_core::{catalogue, internet};
use aliasing_sim::interval::clopper_pearson;
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const STUDY_BERS: [f64; 5] = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/study".into()),
    );
    std::fs::create_dir_all(&dir)?;
    let mut out = String::new();

    // Figure 6: the default 16-bit maximal-length CRC, BER 1e-4 .. 1e-8,
    // lengths from 64 bits to 65536 bits (well beyond 12,000).
    let lengths: Vec<u64> = log_lengths(64, 65536, 60, &[12144, 12000]);
    let crc16 = catalogue::resolve("16")?;
    let fig6 = curve::exact(&crc16, &lengths, &STUDY_BERS, Method::Markov)?;
    save(&dir, "fig6", &curve_doc(&fig6))?;

    // Figure 7: 8-, 16- and 20-bit maximal-length CRCs at BER 1e-7.
    let mut checks = Vec::new();
    let mut points = Vec::new();
    for w in ["8", "16", "20"] {
        let crc = catalogue::resolve(w)?;
        let lens: Vec<u64> = lengths
            .iter()
            .copied()
            .filter(|&n| n > crc.width() as u64)
            .collect();
        let res = curve::exact(&crc, &lens, &[1e-7], Method::Markov)?;
        let name = format!("{} ({})", res.name, res.generator.full_string());
        checks.push(json!({"name": name, "check_bits": crc.width()}));
        for pt in &res.points {
            points.push(point_json(&name, pt));
        }
    }
    save(&dir, "fig7", &json!({"checks": checks, "points": points}))?;

    // Figure 8: the Internet (TCP) checksum against packet size at BER 1.5e-5.
    let sizes: Vec<u64> = log_lengths(64, 9000, 40, &[1500]);
    let fig8 = internet::curve(&sizes, &[1.5e-5])?;
    let fig8_doc = json!({
        "checks": [{"name": "Internet checksum (random data)", "check_bits": 16}],
        "points": fig8.iter().map(|pt| point_json("Internet checksum (random data)", pt)).collect::<Vec<_>>(),
    });
    save(&dir, "fig8", &fig8_doc)?;

    // The numbers quoted in the text.
    let ideal16 = 2f64.powi(-16);
    writeln!(
        out,
        "# Numbers of section 3 of the study, computed exactly by alias"
    )?;
    writeln!(
        out,
        "# regenerate: cargo run --release --example reproduce_study"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "## 16-bit CRCs: P(alias | error) / 2^-16 at the study's BERs"
    )?;
    writeln!(
        out,
        "# 64-byte frame = 512 bits, 1518-byte = 12144, iSCSI 8 KB = 65536 bits (+ 32 bits of frame check ignored)"
    )?;
    for spec in ["16", "CRC-16/IBM-3740", "CRC-16/ARC"] {
        let crc = catalogue::resolve(spec)?;
        let res = curve::exact(&crc, &[512, 12000, 12144, 65536], &STUDY_BERS, Method::Auto)?;
        writeln!(
            out,
            "{} {} (method {})",
            res.name,
            res.generator,
            res.method.name()
        )?;
        for pt in &res.points {
            writeln!(
                out,
                "  ber {:>7.0e}  bits {:>6}  P(alias|error) {:.6e}  ratio to 2^-16 {:.6e}",
                pt.ber,
                pt.bits,
                pt.p_alias_given_error,
                pt.p_alias_given_error / ideal16
            )?;
        }
    }
    writeln!(out)?;

    writeln!(
        out,
        "## TCP checksum, 1500 bytes, BER 1.5e-5 (study: 45 of 16,743 errored packets = 0.0027)"
    )?;
    let tcp = internet::curve(&[1500], &[1.5e-5])?[0];
    let (lo, hi) = clopper_pearson(45, 16_743, 0.95);
    writeln!(
        out,
        "  exact P(alias | error) random data: {:.6e}",
        tcp.p_alias_given_error
    )?;
    writeln!(
        out,
        "  study 45/16743 = {:.6e}, 95% Clopper-Pearson [{lo:.6e}, {hi:.6e}]",
        45.0 / 16_743.0
    )?;
    writeln!(
        out,
        "  exact value inside the interval: {}; expected escapes among 16,743 errored: {:.2}",
        lo <= tcp.p_alias_given_error && tcp.p_alias_given_error <= hi,
        16_743.0 * tcp.p_alias_given_error
    )?;
    writeln!(out)?;

    writeln!(
        out,
        "## Combined estimate (study: 0.00008 x 0.0027 = 0.00000021 -> 4,800,000 packets, 7 GB)"
    )?;
    let study_product = 0.00008 * 0.0027;
    writeln!(
        out,
        "  study product {study_product:.3e}; packets until one escape {:.3e}",
        1.0 / study_product
    )?;
    let crc16_pt = curve::exact(&crc16, &[12000], &[1e-5], Method::Auto)?.points[0];
    let tcp5 = internet::curve(&[1500], &[1e-5])?[0];
    let indep = crc16_pt.p_alias_given_error * tcp5.p_alias_given_error;
    writeln!(
        out,
        "  exact at BER 1e-5, 1500 bytes: P(alias|error) CRC {} = {:.6e}, TCP = {:.6e}",
        crc16.name, crc16_pt.p_alias_given_error, tcp5.p_alias_given_error
    )?;
    writeln!(
        out,
        "  independence product per errored packet {indep:.6e}; per packet {:.6e}; packets until one escape {:.3e} ({:.3e} bytes)",
        indep * crc16_pt.p_error,
        1.0 / (indep * crc16_pt.p_error),
        1500.0 / (indep * crc16_pt.p_error)
    )?;
    writeln!(out)?;

    writeln!(
        out,
        "## Combined, exactly: the joint escape of Ethernet FCS + IPv4 + TCP (ethernet-tcp, 1518 bytes)"
    )?;
    {
        use aliasing_core::joint::{self, JointOptions, JointStack};
        use aliasing_core::layout::{Frame, Payload};
        let f = Frame::new("ethernet-tcp", 1518, Payload::Random)?;
        let st = JointStack::new(&f, &JointOptions::default())?;
        for p in [1e-5, 1e-6, 1e-8] {
            let jp = st.at(p)?;
            let pe = bsc::p_error(f.n_bits(), p);
            let mut product = 1.0;
            for i in 0..f.checks.len() {
                let (bits, pud) = joint::check_p_undetected(&f, i, Some(&st.dual), p)?;
                product *= pud / bsc::p_error(bits, p);
            }
            writeln!(
                out,
                "  BER {p:e}: joint P(escape) {:.6e} (95% [{:.6e}, {:.6e}], certified [{:.6e}, {:.6e}]); per errored frame {:.6e}; independence product {product:.6e}; joint / product {:.3e}",
                jp.estimate,
                jp.interval.0,
                jp.interval.1,
                jp.low,
                jp.high,
                jp.estimate / pe,
                jp.estimate / pe / product
            )?;
        }
    }
    writeln!(out)?;

    writeln!(
        out,
        "## The billion-packet CRC-32 run (0x104C11DB7, BER 1e-4, maximum-size packets)"
    )?;
    let crc32 = catalogue::resolve("crc32")?;
    for bytes in [1500u64, 1518] {
        let pt = curve::exact(&crc32, &[8 * bytes], &[1e-4], Method::Dual)?.points[0];
        let expected = 1e9 * pt.p_undetected;
        writeln!(
            out,
            "  {bytes} bytes: P_ud {:.6e}, P(alias|error) {:.6e} (= {:.3e} x 2^-32); expected escapes in 1e9 packets {expected:.3e}; P(none) {:.6}",
            pt.p_undetected,
            pt.p_alias_given_error,
            pt.p_alias_given_error * 2f64.powi(32),
            (-expected).exp()
        )?;
    }
    let (_, hi0) = clopper_pearson(0, 1_000_000_000, 0.95);
    writeln!(
        out,
        "  what 0 escapes in 1e9 frames can show: P_ud < {hi0:.3e} (95% upper bound)"
    )?;
    let (p_err_1e4, n) = (bsc::p_error(12000, 1e-4), 1e9);
    writeln!(
        out,
        "  errored packets in the run: {:.3e} (P(error) = {p_err_1e4:.4})",
        n * p_err_1e4
    )?;

    std::fs::write(dir.join("numbers.txt"), &out)?;
    print!("{out}");
    eprintln!("wrote {}", dir.display());
    Ok(())
}

/// `count` lengths spaced evenly in log scale from `a` to `b`, plus `extra`.
fn log_lengths(a: u64, b: u64, count: usize, extra: &[u64]) -> Vec<u64> {
    let (la, lb) = ((a as f64).ln(), (b as f64).ln());
    let mut v: Vec<u64> = (0..count)
        .map(|i| {
            (la + (lb - la) * i as f64 / (count - 1) as f64)
                .exp()
                .round() as u64
        })
        .chain(extra.iter().copied())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn point_json(check: &str, pt: &CurvePoint) -> serde_json::Value {
    json!({
        "check": check, "ber": pt.ber, "bytes": pt.bits / 8, "bits": pt.bits,
        "p_error": pt.p_error, "p_undetected": pt.p_undetected,
        "p_alias_given_error": pt.p_alias_given_error,
    })
}

fn curve_doc(res: &curve::CurveResult) -> serde_json::Value {
    let g = res.generator;
    json!({
        "crc": {"name": res.name, "width": g.width(), "full": g.full_string(), "koopman": g.koopman_string()},
        "method": res.method.name(),
        "points": res.points,
    })
}

fn save(dir: &Path, stem: &str, doc: &serde_json::Value) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::write(
        dir.join(format!("{stem}.json")),
        serde_json::to_string_pretty(doc)? + "\n",
    )?;
    for ext in ["svg", "png"] {
        aliasing_plot::render(doc, &dir.join(format!("{stem}.{ext}")))?;
    }
    Ok(())
}
