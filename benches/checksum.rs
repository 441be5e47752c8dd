//! Criterion bench `checksum`: exact escape probabilities of checksums.
//!
//! - `internet/point_1500B_1.5e-5`: one length and BER, random data (the
//!   carry chain; target 50 ms or less), and the same point by the
//!   characteristic function over Z_65535 (`internet/fourier_1500B_1.5e-5`).
//! - `internet/point_9000B_1e-2`: high BER (plain characteristic function).
//! - `internet/curve_100_lengths_*`: 100 lengths `log:64:9000:100`, one BER
//!   (target 1 s or less on 2 cores).
//! - `internet/payload_1500B_1.5e-5`: a given 1500-byte payload.
//! - `fletcher16/point_1500B_1e-5`: exact Fletcher-16 (2-D characteristic function).
//! - `baseline/internet_checksum_1500B`: computing one 1500-byte checksum, the
//!   unit the figures are compared against in the same run.
//!
//! Run: `cargo bench -p aliasing-benches --bench checksum`

use aliasing_core::check::Check;
use aliasing_core::checksum::Internet;
use aliasing_core::{fletcher, internet};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn lengths() -> Vec<u64> {
    // log:64:9000:100, as `alias compare --bytes log:64:9000:100` would give
    let (a, b) = ((64f64).ln(), (9000f64).ln());
    let mut v: Vec<u64> = (0..100)
        .map(|i| (a + (b - a) * i as f64 / 99.0).exp().round() as u64)
        .collect();
    v.dedup();
    v
}

fn bench(c: &mut Criterion) {
    let frame: Vec<u8> = (0..1500u32).map(|i| (i * 131 % 251) as u8).collect();
    let mut g = c.benchmark_group("internet");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("point_1500B_1.5e-5", |b| {
        b.iter(|| internet::p_undetected(black_box(1500), black_box(1.5e-5)).unwrap())
    });
    g.bench_function("fourier_1500B_1.5e-5", |b| {
        let w = aliasing_core::__private::internet::column_counts(1500);
        b.iter(|| {
            aliasing_core::__private::internet::fourier_random(black_box(&w), black_box(1.5e-5))
        })
    });
    g.bench_function("point_9000B_1e-2", |b| {
        b.iter(|| internet::p_undetected(black_box(9000), black_box(1e-2)).unwrap())
    });
    let ls = lengths();
    for ber in [1.5e-5, 1e-3] {
        g.bench_function(format!("curve_100_lengths_{ber:e}"), |b| {
            b.iter(|| internet::curve(black_box(&ls), &[ber]).unwrap())
        });
    }
    g.bench_function("payload_1500B_1.5e-5", |b| {
        b.iter(|| internet::p_undetected_payload(black_box(&frame), black_box(1.5e-5)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("fletcher16");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("point_1500B_1e-5", |b| {
        b.iter(|| fletcher::p_undetected16(black_box(1500), black_box(1e-5)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("baseline");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.bench_function("internet_checksum_1500B", |b| {
        b.iter(|| Internet::new().compute(black_box(&frame)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
