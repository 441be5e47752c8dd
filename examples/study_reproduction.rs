//! Reproduces the two simulations of the study (section 3 of
//! `shared/papers/packet-aliasing-study.txt`) and what exact/rare-event
//! methods expected them to see.
//!
//! 1. The TCP checksum run: 1500-byte segments, BER 1.5e-5, 100,001 packets.
//! 2. The one-billion-packet CRC-32 run at BER 1e-4 (1500-byte frames, FCS
//!    included), which saw no escape in 280 hours; beside it, the rare-event
//!    estimate of P_undetected and the number of escapes it predicts.
//!
//! Run: `cargo run --release -p aliasing-examples --example study_reproduction [frames]`
//! (default 1e9 frames for the second run).

use aliasing_sim::channel::Channel;
use aliasing_sim::interval::clopper_pearson;
use aliasing_sim::run::{Plan, RunOptions, simulate};
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::{Frames, Seed};
use std::time::Instant;

fn main() {
    let frames: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse::<f64>().ok())
        .map(|f| f as u64)
        .unwrap_or(1_000_000_000);

    // 1. TCP
    let tcp = Plan::new(
        Frame::new("tcp", 1500, Payload::Random).unwrap(),
        Channel::Bsc { ber: 1.5e-5 },
        Frames(100_001),
        Seed(1),
    );
    let c = simulate(&tcp, &RunOptions::default(), None).unwrap();
    let (lo, hi) = clopper_pearson(c.escapes[0], c.frames_with_error, 0.95);
    println!(
        "TCP checksum, 1500 bytes, BER 1.5e-5, 100001 packets (seed 1): {} errored, {} escapes; \
         P(escape | error) = {:.3e} (95% CI {:.3e} .. {:.3e}); the study saw 45 in 16743 = {:.3e}",
        c.frames_with_error,
        c.escapes[0],
        c.escapes[0] as f64 / c.frames_with_error as f64,
        lo,
        hi,
        45.0 / 16743.0
    );

    // 2. CRC-32, one billion frames at BER 1e-4
    let eth = Plan::new(
        Frame::new("ethernet", 1500, Payload::Random).unwrap(),
        Channel::Bsc { ber: 1e-4 },
        Frames(frames),
        Seed(1),
    );
    let t = Instant::now();
    let c = simulate(&eth, &RunOptions::default(), None).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let (_, hi) = clopper_pearson(c.stack_escapes, c.frames, 0.95);
    println!(
        "CRC-32/ISO-HDLC, 1500-byte frames, BER 1e-4, {} frames (seed 1) in {:.1} s: {} errored, \
         {} escapes; 95% upper bound on P_ud {:.3e}",
        c.frames, secs, c.frames_with_error, c.stack_escapes, hi
    );
    let t = Instant::now();
    let r = aliasing_sim::rare::estimate(&eth, 100_000_000, 0).unwrap();
    println!(
        "rare-event estimate (1e8 conditional samples, {:.1} s): P_ud = {:.3e} (rel. s.e. {:.3}, 95% CI {:.3e} .. {:.3e}); \
         expected escapes in {} frames: {:.3e}",
        t.elapsed().as_secs_f64(),
        r.stack.rate,
        r.stack.rel_std_err,
        r.stack.ci_low,
        r.stack.ci_high,
        frames,
        r.stack.rate * frames as f64
    );
}
