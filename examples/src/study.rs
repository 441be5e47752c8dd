//! The study's reproduction (`docs/study/`) as a library function, so that
//! the `reproduce_study` example and the test that keeps the committed
//! files honest compute the same thing: [`compute`] returns `numbers.txt`
//! and the figures' JSON documents; the example writes them with their SVG
//! and PNG renderings.

use aliasing_core::bsc::{self, CurvePoint};
use aliasing_core::curve::{self, Method};
use aliasing_core::document::StackPoint;
use aliasing_core::document::{Transfer, TransferPoint};
use aliasing_core::{catalogue, internet};
use aliasing_sim::interval::clopper_pearson;
use aliasing_sim::joint::{StackParams, StackReport, report};
use aliasing_sim::transfer::{self, Tallies, TransferParams};
use serde_json::json;
use std::fmt::Write as _;

/// Errors of the computation.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

const STUDY_BERS: [f64; 5] = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8];

/// What `docs/study/` holds: `numbers.txt` and each figure's JSON by stem
/// (`fig6`, `fig7`, `fig8`, `transfer`).
pub struct Study {
    /// The text of `numbers.txt`.
    pub numbers: String,
    /// `(stem, document)` of each figure, in order.
    pub figures: Vec<(&'static str, serde_json::Value)>,
}

/// Computes every number and figure of `docs/study/`: [`curves`], then the
/// combined sections (the joint stacks of the study's 16-bit case, about 3
/// minutes of CPU for its weight-4 codewords at 12,016 bits, and of
/// `ethernet-tcp`), the billion-packet CRC-32 run (dual codes) and the
/// transfers of [`transfers`] (the joint tallies of 1518- and 9018-byte
/// frames, tens of seconds): about 6 minutes of CPU in all.
pub fn compute() -> Result<Study, Error> {
    let Study {
        numbers: mut out,
        mut figures,
    } = curves()?;
    let study16 = combined(&mut out, &mut figures)?;
    billion(&mut out)?;
    transfers(&mut out, &mut figures, &study16)?;
    Ok(Study {
        numbers: out,
        figures,
    })
}

/// The first part of `docs/study/` (seconds): figures 6, 7 and 8 and the
/// sections of `numbers.txt` up to the independence product; what
/// [`compute`] writes starts with it.
pub fn curves() -> Result<Study, Error> {
    curves_to(u64::MAX)
}

/// [`curves`] with the lengths of figures 6 and 7 cut at `max_bits` (their
/// points beyond it left out; everything else as in [`curves`]): each
/// Markov curve costs in proportion to its longest length, the width-20
/// curve of figure 7 to 65,536 bits most of all.
pub fn curves_to(max_bits: u64) -> Result<Study, Error> {
    let mut figures = Vec::new();
    let mut out = String::new();

    // Figure 6: the default 16-bit maximal-length CRC, BER 1e-4 .. 1e-8,
    // lengths from 64 bits to 65536 bits (well beyond 12,000).
    let lengths: Vec<u64> = log_lengths(64, 65536, 60, &[12144, 12000])
        .into_iter()
        .filter(|&n| n <= max_bits)
        .collect();
    let crc16 = catalogue::resolve("16")?;
    let fig6 = exact(&crc16, &lengths, &STUDY_BERS, Method::Markov)?;
    figures.push(("fig6", curve_doc(&fig6)));

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
        let res = exact(&crc, &lens, &[1e-7], Method::Markov)?;
        let name = format!("{} ({})", res.name, res.generator.full_string());
        checks.push(json!({"name": name, "check_bits": crc.width()}));
        for pt in &res.points {
            points.push(point_json(&name, pt));
        }
    }
    figures.push(("fig7", json!({"checks": checks, "points": points})));

    // Figure 8: the Internet (TCP) checksum against packet size at BER 1.5e-5.
    let sizes: Vec<u64> = log_lengths(64, 9000, 40, &[1500]);
    let fig8 = internet::curve(&sizes, &[1.5e-5])?;
    let fig8_doc = json!({
        "checks": [{"name": "Internet checksum (random data)", "check_bits": 16}],
        "points": fig8.iter().map(|pt| point_json("Internet checksum (random data)", pt)).collect::<Vec<_>>(),
    });
    figures.push(("fig8", fig8_doc));

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
        let res = exact(&crc, &[512, 12000, 12144, 65536], &STUDY_BERS, Method::Auto)?;
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
    let crc16_pt = exact(&crc16, &[12000], &[1e-5], Method::Auto)?.points[0];
    let tcp5 = internet::curve(&[1500], &[1e-5])?[0];
    let indep = crc16_pt.p_alias_given_error * tcp5.p_alias_given_error;
    writeln!(
        out,
        "  exact at BER 1e-5, 1500 bytes: P(alias|error) CRC {} = {:.6e}, TCP = {:.6e}",
        crc16.name(),
        crc16_pt.p_alias_given_error,
        tcp5.p_alias_given_error
    )?;
    writeln!(
        out,
        "  independence product per errored packet {indep:.6e}; per packet {:.6e}; packets until one escape {:.3e} ({:.3e} bytes)",
        indep * crc16_pt.p_error,
        1.0 / (indep * crc16_pt.p_error),
        1500.0 / (indep * crc16_pt.p_error)
    )?;
    writeln!(out)?;

    Ok(Study {
        numbers: out,
        figures,
    })
}

/// The billion-packet CRC-32 run, exactly.
fn billion(out: &mut String) -> Result<(), Error> {
    writeln!(
        out,
        "## The billion-packet CRC-32 run (0x104C11DB7, BER 1e-4, maximum-size packets)"
    )?;
    let crc32 = catalogue::resolve("crc32")?;
    for bytes in [1500u64, 1518] {
        let pt = exact(&crc32, &[8 * bytes], &[1e-4], Method::Dual)?.points[0];
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
    Ok(())
}

/// `count` lengths spaced evenly in log scale from `a` to `b`, plus `extra`.
/// The exact curve of `crc` at `bits` (codeword bits) and `bers` with
/// `method`, in the environment's context.
fn exact(
    crc: &aliasing_core::crc::CrcAlgorithm,
    bits: &[u64],
    bers: &[f64],
    method: Method,
) -> Result<curve::CurveResult, Error> {
    use aliasing_core::units::{Ber, Bits};
    let bits: Vec<Bits> = bits.iter().map(|&n| Bits(n)).collect();
    let req = curve::Request::for_crc(crc, &bits, &Ber::list(bers)?)?;
    Ok(curve::exact(
        &req,
        method,
        &aliasing_core::ctx::Ctx::from_env()?,
    )?)
}

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

/// The joint report of `stack` (the library call behind `alias stack`).
fn stack(
    stack: &str,
    bytes: &[u64],
    bers: &[f64],
    max_weight: u32,
    samples: u64,
) -> Result<StackReport, Error> {
    let params = StackParams {
        stack: stack.into(),
        bytes: bytes.to_vec(),
        bers: bers.to_vec(),
        max_weight,
        samples,
        seed: 1,
    };
    Ok(report(&params, &aliasing_core::ctx::Ctx::default())?)
}

/// `x` with 6 digits, or `-` for none.
fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |x| format!("{x:.6e}"))
}

/// One stack point in full: each check, the joint escape, the products,
/// and what it means per packet.
fn study_case(
    out: &mut String,
    title: &str,
    stack: &str,
    pt: &StackPoint,
    packet_bytes: u64,
) -> Result<(), Error> {
    writeln!(out, "## {title}")?;
    writeln!(
        out,
        "# stack {stack}, {} bytes ({} bits), BER {:e}; P(error) per packet {:.6e}",
        pt.bytes, pt.bits, pt.ber, pt.p_error
    )?;
    for c in &pt.checks {
        writeln!(
            out,
            "  {}: {} bits, P_ud {}, P(alias|error) {}",
            c.name,
            c.covered_bits.map_or("-".into(), |b| b.to_string()),
            opt(c.p_undetected),
            opt(c.p_alias_given_error)
        )?;
    }
    let j = &pt.joint;
    writeln!(
        out,
        "  joint P(escape) per packet {} in [{:.6e}, {:.6e}] ({})",
        opt(j.estimate),
        j.low,
        j.high,
        j.method
    )?;
    writeln!(
        out,
        "  joint P(escape | error) {}; the study's product (CRC x TCP P(alias|error)) {}; ratio {}; all checks multiplied {}",
        opt(pt.joint_given_error()),
        opt(pt.independence_product),
        opt(pt.ratio),
        opt(pt.all_checks_product)
    )?;
    let per = |q: f64| 1.0 / q;
    match j.estimate {
        Some(e) => writeln!(
            out,
            "  packets until one escape {:.3e} (bracket [{:.3e}, {:.3e}]), {:.3e} bytes at {packet_bytes} bytes a packet; the study said 4.8e6 packets, 7 GB",
            per(e),
            per(j.high),
            per(j.low),
            per(e) * packet_bytes as f64
        )?,
        None => writeln!(
            out,
            "  packets until one escape in [{:.3e}, {:.3e}] at {packet_bytes} bytes a packet",
            per(j.high),
            per(j.low)
        )?,
    }
    writeln!(out)?;
    Ok(())
}

/// The combined sections: the study's own case and Ethernet's, exactly,
/// and the joint escape against the study's product over lengths and BERs.
/// Returns the stack point of the study's own case (16-bit CRC, 1502
/// bytes, BER 1e-5), for [`transfers`].
fn combined(
    out: &mut String,
    figures: &mut Vec<(&'static str, serde_json::Value)>,
) -> Result<StackPoint, Error> {
    // a 1500-byte IPv4/TCP packet followed by the 16-bit CRC; weights up to
    // 4 exact (weight 5 at 12,016 bits is minutes of enumeration)
    let r16 = stack("ipv4-tcp+16", &[1502], &[1e-5], 4, 50_000)?;
    study_case(
        out,
        "The study's case exactly: 16-bit CRC (primitive-16) + TCP checksum, 1500-byte packets, BER 1e-5",
        &r16.stack,
        &r16.points[0],
        1500,
    )?;
    let all = stack(
        "ethernet-tcp",
        &[594, 1518],
        &[1e-4, 1e-5, 1e-6, 1e-8],
        5,
        50_000,
    )?;
    let pt32 = all
        .points
        .iter()
        .find(|p| p.bytes == 1518 && p.ber == 1e-5)
        .ok_or("no 1518-byte point at BER 1e-5")?;
    study_case(
        out,
        "Ethernet's CRC-32 instead: FCS + IPv4 + TCP, 1500-byte packets (1518-byte frames), BER 1e-5",
        &all.stack,
        pt32,
        1500,
    )?;
    writeln!(
        out,
        "## Combined, exactly: ethernet-tcp, joint P(escape | error) against the study's product (FCS x TCP) and all checks multiplied"
    )?;
    for pt in &all.points {
        writeln!(
            out,
            "  {:>5} bytes  BER {:>5.0e}: joint P(escape) {} [{:.6e}, {:.6e}]; per errored frame {}; study's product {}; ratio {}; all checks {}",
            pt.bytes,
            pt.ber,
            opt(pt.joint.estimate),
            pt.joint.low,
            pt.joint.high,
            opt(pt.joint_given_error()),
            opt(pt.independence_product),
            opt(pt.ratio),
            opt(pt.all_checks_product)
        )?;
    }
    writeln!(out)?;
    let doc = aliasing_core::document::to_json_sorted(&all)?;
    figures.push(("joint", serde_json::from_str(&doc)?));
    Ok(r16.points[0].clone())
}

/// The BERs of the transfer figure.
pub const TRANSFER_BERS: [f64; 8] = [1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12];

/// The transfer figure's document (`transfer.json`): `alias transfer
/// --size 1PB --mtu 1500,9000 --ber 1e-5,...,1e-12` (`ethernet-tcp`, one
/// hop, `alias stack`'s defaults), so its escapes are per petabyte; and the
/// tallies kept, for the 7 GB question at the same frame length.
pub fn transfer_figure() -> Result<(Transfer, Tallies), Error> {
    let params = TransferParams::new(
        "ethernet-tcp",
        1_000_000_000_000_000,
        vec![1500, 9000],
        TRANSFER_BERS.to_vec(),
        vec![1],
    );
    let mut kept = Tallies::new(&params);
    let (doc, _) = transfer::report_with(&params, &mut kept, &aliasing_core::ctx::Ctx::default())?;
    Ok((doc, kept))
}

/// The transfers section: the figure's numbers, jumbo against standard
/// frames per byte moved, and the study's 7 GB file as `alias transfer`
/// answers it, for its 16-bit case (`study16`, the stack point of
/// [`combined`]) and for Ethernet's CRC-32.
fn transfers(
    out: &mut String,
    figures: &mut Vec<(&'static str, serde_json::Value)>,
    study16: &StackPoint,
) -> Result<(), Error> {
    let (doc, mut kept) = transfer_figure()?;
    transfer_numbers(out, &doc)?;
    writeln!(
        out,
        "## The study's 7 GB file (\"one bad packet in 4,800,000 packets, a 7 GB file\"), BER 1e-5, 1500-byte MTU"
    )?;
    let size = 7_000_000_000u128;
    let mut p16 = TransferParams::new("ipv4-tcp+16", size, vec![1500], vec![1e-5], vec![1]);
    p16.max_weight = 4;
    let t16 = transfer::one_hop_point(&p16, 1500, study16)?;
    seven_gb(
        out,
        "alias transfer --size 7GB --mtu 1500 --ber 1e-5 --stack ipv4-tcp+16 --max-weight 4",
        size,
        &t16,
    )?;
    let p32 = TransferParams::new("ethernet-tcp", size, vec![1500], vec![1e-5], vec![1]);
    let (t32, _) = transfer::report_with(&p32, &mut kept, &aliasing_core::ctx::Ctx::default())?;
    seven_gb(
        out,
        "alias transfer --size 7GB --mtu 1500 --ber 1e-5",
        size,
        &t32.points[0],
    )?;
    writeln!(out)?;
    let text = aliasing_core::document::to_json_sorted(&doc)?;
    figures.push(("transfer", serde_json::from_str(&text)?));
    Ok(())
}

/// The figure's points, and the ratios of jumbo to standard frames at each
/// BER: per frame, in frames, and per byte moved.
pub fn transfer_numbers(out: &mut String, doc: &Transfer) -> Result<(), Error> {
    writeln!(
        out,
        "## Transfers: expected corrupted frames delivered per petabyte, ethernet-tcp, one hop"
    )?;
    writeln!(
        out,
        "# alias transfer --size 1PB --mtu 1500,9000 --ber 1e-5,1e-6,1e-7,1e-8,1e-9,1e-10,1e-11,1e-12 --plot transfer.svg"
    )?;
    for pt in &doc.points {
        writeln!(
            out,
            "  MTU {:>4} ({} bytes, {} frames)  BER {:>5.0e}: joint per frame {} [{:.6e}, {:.6e}]; escapes per PB {} [{:.6e}, {:.6e}]; bytes per escape {}",
            pt.mtu,
            pt.frame_bytes,
            pt.frames,
            pt.ber,
            opt(pt.joint_per_frame.estimate),
            pt.joint_per_frame.low,
            pt.joint_per_frame.high,
            opt(pt.escapes.estimate),
            pt.escapes.low,
            pt.escapes.high,
            opt(pt.bytes_per_escape)
        )?;
    }
    writeln!(
        out,
        "# jumbo (MTU 9000) against standard (MTU 1500) frames: per frame, frames moved, per byte moved"
    )?;
    for &ber in &TRANSFER_BERS {
        let at = |mtu: u64| {
            doc.points
                .iter()
                .find(|p| p.mtu == mtu && p.ber == ber)
                .ok_or_else(|| format!("no MTU {mtu} point at BER {ber:e}"))
        };
        let (a, b) = (at(1500)?, at(9000)?);
        let ratio = |x: Option<f64>, y: Option<f64>| match (x, y) {
            (Some(x), Some(y)) if y > 0.0 => Some(x / y),
            _ => None,
        };
        writeln!(
            out,
            "  BER {:>5.0e}: joint per frame x{}; frames x{:.6e}; escapes per byte moved x{}",
            ber,
            opt(ratio(
                b.joint_per_frame.estimate,
                a.joint_per_frame.estimate
            )),
            b.frames as f64 / a.frames as f64,
            opt(ratio(b.escapes.estimate, a.escapes.estimate))
        )?;
    }
    Ok(())
}

/// One line of the 7 GB question.
fn seven_gb(out: &mut String, command: &str, size: u128, pt: &TransferPoint) -> Result<(), Error> {
    writeln!(
        out,
        "  {command}: {} frames of {} bytes; joint per frame {}; expected escapes {} [{:.6e}, {:.6e}]; P(at least one) {}; bytes per escape {} ({size} bytes moved)",
        pt.frames,
        pt.frame_bytes,
        opt(pt.joint_per_frame.estimate),
        opt(pt.escapes.estimate),
        pt.escapes.low,
        pt.escapes.high,
        opt(pt.p_at_least_one.estimate),
        opt(pt.bytes_per_escape)
    )?;
    Ok(())
}
