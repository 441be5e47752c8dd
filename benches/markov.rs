//! Criterion bench `markov`: the exact Markov solver.
//!
//! - `markov/w16_all_lengths_5_bers`: width 16, every length 1..=12144 bits,
//!   5 BERs in one pass (target: 0.5 s or less on 2 cores).
//! - `markov_growth/*`: one BER, shorter runs at widths 16, 20 and 24, with
//!   throughput in bytes moved (one read and one write of the `2^r` f64
//!   state vector per step), beside a plain memory copy of the same byte
//!   volume (`copy/*`) timed in the same run.
//!
//! Run: `cargo bench -p aliasing-benches --bench markov`

use aliasing_core::{catalogue, markov::butterfly};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::Duration;

fn all_lengths(c: &mut Criterion) {
    let g = catalogue::default_primitive(16).unwrap();
    let lengths: Vec<u64> = (1..=12144).collect();
    let bers = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8];
    let mut group = c.benchmark_group("markov");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("w16_all_lengths_5_bers", |b| {
        b.iter(|| butterfly::p_undetected(black_box(&g), &lengths, &bers))
    });
    group.finish();
}

fn growth(c: &mut Criterion) {
    let mut group = c.benchmark_group("markov_growth");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (width, steps) in [(16u32, 2048u64), (20, 256), (24, 16)] {
        let g = catalogue::default_primitive(width).unwrap();
        let n = 1usize << width;
        let bytes = steps * n as u64 * 16;
        group.throughput(Throughput::Bytes(bytes));
        let parallel = width >= butterfly::PARALLEL_WIDTH;
        group.bench_function(format!("butterfly/w{width}_{steps}_steps"), |b| {
            b.iter(|| butterfly::p_undetected_one(black_box(&g), &[steps], 1e-6, parallel))
        });
        let src = vec![1.0f64; n];
        let mut dst = vec![0.0f64; n];
        group.bench_function(format!("copy/w{width}_{steps}_steps"), |b| {
            b.iter(|| {
                for _ in 0..steps {
                    if parallel {
                        dst.par_chunks_mut(1 << 14)
                            .zip(src.par_chunks(1 << 14))
                            .for_each(|(d, s)| d.copy_from_slice(s));
                    } else {
                        dst.copy_from_slice(black_box(&src));
                    }
                    black_box(&mut dst);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, all_lengths, growth);
criterion_main!(benches);
