//! Calibration: over many seeds, the 95% Clopper-Pearson intervals of tiny
//! runs cover the exact escape probability at (at least) the stated rate.
//! The exact values come from `exact` (the CRC kernel and the Internet
//! checksum's carry chain), each tested against brute force. Bounds are loose enough never to flake: with 95%
//! nominal coverage over 200 seeds, 88% is more than 4 standard deviations
//! below.

use aliasing_sim::channel::Channel;
use aliasing_sim::exact::exact_values;
use aliasing_sim::interval::clopper_pearson;
use aliasing_sim::run::{Plan, RunOptions, simulate};
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::{Frames, Seed};

/// Coverage, the mean estimate over the exact value, and the tolerance on that
/// ratio: 5 standard deviations of the pooled estimate (Poisson counts).
fn coverage(stack: &str, bytes: usize, ber: f64, frames: u64, seeds: u64) -> (f64, f64, f64) {
    let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
    let plan0 = Plan::new(frame, Channel::Bsc { ber }, Frames(frames), Seed(0));
    let exact = exact_values(&plan0, &aliasing_core::ctx::Ctx::default())
        .stack
        .expect("exact value");
    let mut covered = 0;
    let mut mean = 0.0;
    for seed in 0..seeds {
        let mut plan = plan0.clone();
        plan.seed = 1000 + seed;
        let o = RunOptions {
            threads: 1,
            ..Default::default()
        };
        let c = simulate(&plan, &o, None).unwrap();
        let (lo, hi) = clopper_pearson(c.stack_escapes, c.frames, 0.95);
        covered += (lo <= exact && exact <= hi) as u32;
        mean += c.stack_escapes as f64 / c.frames as f64;
    }
    let tol = 5.0 / (exact * (frames * seeds) as f64).sqrt();
    (
        covered as f64 / seeds as f64,
        mean / seeds as f64 / exact,
        tol,
    )
}

#[test]
fn crc8_intervals_cover_the_exact_value() {
    // about 5.7 escapes per seed, 1,100 in all
    let (cov, ratio, tol) = coverage("crc8", 16, 1e-2, 20_000, 200);
    assert!(cov >= 0.88, "coverage {cov}");
    assert!(
        (ratio - 1.0).abs() < tol,
        "mean/exact {ratio}, tolerance {tol}"
    );
}

#[test]
fn crc16_intervals_cover_the_exact_value() {
    // CRC-16/ARC on 6-byte frames at BER 0.1: P_ud about 1.5e-5
    // (the test command: half the frames, about 2.2 escapes per seed)
    let frames = crate::tier::pick(150_000, 300_000);
    let (cov, ratio, tol) = coverage("crc16", 6, 0.1, frames, 60);
    assert!(cov >= 0.85, "coverage {cov}");
    assert!(
        (ratio - 1.0).abs() < tol,
        "mean/exact {ratio}, tolerance {tol}"
    );
}

#[test]
fn tcp_checksum_intervals_cover_the_exact_value() {
    // A 40-byte TCP segment: known 20-byte header, random payload, a real
    // checksum field (exact: aliasing_core::internet::p_undetected_mixed).
    // BER 1e-2: P_ud about 6.9e-3, about 7 escapes per seed, 1,400 in all.
    let (cov, ratio, tol) = coverage("tcp", 40, 1e-2, 1_000, 200);
    assert!(cov >= 0.88, "coverage {cov}");
    assert!(
        (ratio - 1.0).abs() < tol,
        "mean/exact {ratio}, tolerance {tol}"
    );
}
