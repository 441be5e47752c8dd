//! The study's Figure 8 and its 0.0027 figure, exactly.
//!
//! The study simulated the TCP checksum on 1500-byte packets at a BER of about
//! 1.5e-5 and saw 45 escapes among 16,743 errored packets (0.0027). This
//! prints the exact `P(alias | error)` of the Internet checksum against packet
//! size at BER 1.5e-5 (random data, and two real-data cases: all-zero and
//! repeated English text), then the exact value at 1500 bytes beside the
//! study's estimate with its 95% Clopper-Pearson interval.
//!
//! Run: `cargo run --release -p aliasing-examples --example figure8`

use aliasing_core::{bsc, internet};

/// ln P(X = k) for X ~ Binomial(n, p).
fn ln_pmf(n: u64, k: u64, p: f64) -> f64 {
    let ln_choose: f64 = (0..k).map(|i| ((n - i) as f64 / (i + 1) as f64).ln()).sum();
    ln_choose + k as f64 * p.ln() + (n - k) as f64 * (-p).ln_1p()
}

/// P(X <= k).
fn cdf(n: u64, k: u64, p: f64) -> f64 {
    (0..=k).map(|i| ln_pmf(n, i, p).exp()).sum()
}

/// 95% Clopper-Pearson interval for k successes in n trials, by bisection.
fn clopper_pearson(k: u64, n: u64) -> (f64, f64) {
    let solve = |f: &dyn Fn(f64) -> bool| {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if f(mid) { hi = mid } else { lo = mid }
        }
        0.5 * (lo + hi)
    };
    // lower: P(X >= k | p) = 0.025; upper: P(X <= k | p) = 0.025
    let lower = solve(&|p| 1.0 - cdf(n, k - 1, p) >= 0.025);
    let upper = solve(&|p| cdf(n, k, p) <= 0.025);
    (lower, upper)
}

fn main() {
    let ber = 1.5e-5;
    let text = b"It is a truth universally acknowledged, that a single man in possession \
of a good fortune, must be in want of a wife. ";
    println!("bytes,p_error,random,all_zero,text");
    for bytes in (64..=9000u64).step_by(64).chain([1500]) {
        let frame: Vec<u8> = text.iter().copied().cycle().take(bytes as usize).collect();
        let pe = bsc::p_error(8 * bytes, ber);
        let r = internet::p_undetected(bytes, ber).unwrap() / pe;
        let z = internet::p_undetected_payload(&vec![0u8; bytes as usize], ber).unwrap() / pe;
        let t = internet::p_undetected_payload(&frame, ber).unwrap() / pe;
        println!("{bytes},{pe:e},{r:e},{z:e},{t:e}");
    }
    let (k, n) = (45u64, 16_743u64);
    let (lo, hi) = clopper_pearson(k, n);
    // the BER at which 16,743 of 100,001 packets of 12,000 bits are errored
    let ber_fit = -(-(n as f64) / 100_001.0).ln_1p() / 12_000.0;
    let exact = internet::p_undetected(1500, ber).unwrap() / bsc::p_error(12_000, ber);
    let exact_fit = internet::p_undetected(1500, ber_fit).unwrap() / bsc::p_error(12_000, ber_fit);
    println!();
    println!(
        "study: {k}/{n} = {:.5}, 95% Clopper-Pearson [{lo:.5}, {hi:.5}]",
        k as f64 / n as f64
    );
    println!("exact P(alias|error), 1500 bytes, BER 1.5e-5: {exact:.5e}");
    println!("exact P(alias|error), 1500 bytes, BER {ber_fit:.4e} (fitted): {exact_fit:.5e}");
    println!(
        "expected escapes among {n}: {:.1}; within the interval: {}",
        exact * n as f64,
        lo <= exact && exact <= hi
    );
}
