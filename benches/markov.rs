//! Criterion bench `markov`: the exact Markov solver.
//!
//! - `markov/w16_all_lengths_5_bers_solver`: width 16, every length
//!   1..=12144 bits, 5 BERs, as the solver runs it (target: 0.5 s or less on
//!   2 cores); `markov/w16_all_lengths_5_bers` the same with the butterfly
//!   kernel alone, the baseline measured in the same run.
//! - `markov/w16_all_lengths_gilbert_elliott`: width 16, every length
//!   1..=12144 bits, one Gilbert-Elliott channel ([`gilbert::solve`],
//!   target: 2 s or less); `markov/w16_all_lengths_1_ber_solver` the BSC
//!   solver on one BER, its baseline in the same run.
//! - `markov_growth/butterfly/*`: the kernel, one BER, shorter runs at widths
//!   16, 20 and 24 on preallocated vectors, with throughput in bytes moved
//!   (one read and one write of the `2^r` f64 state vector per step), beside
//!   a plain memory copy of the same byte volume (`copy/*`, parallel from
//!   the same width as the kernel) timed in the same run.
//! - `markov_growth/inplace/*`: the in-place butterfly kernel, same byte
//!   count.
//! - `markov_growth/walk/*`: the fused kernel the solver uses, on a
//!   preallocated vector; its throughput counts the bytes one step at a time
//!   would move, so above the copy means fewer passes than steps.
//! - `markov_growth/solver/w20_256_steps`: the whole one-BER solver
//!   (`markov::solve`), allocation included.
//!
//! Run: `cargo bench -p aliasing-benches --bench markov`

use aliasing_core::__private::markov::{butterfly, inplace, walk};
use aliasing_core::{
    catalogue,
    channel::GilbertElliott,
    ctx::Ctx,
    markov::{self, gilbert},
};
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
    // a silent context, built once (its budget is not consulted by `solve`)
    let ctx = Ctx::default();
    group.bench_function("w16_all_lengths_5_bers", |b| {
        b.iter(|| butterfly::p_undetected(black_box(&g), &lengths, &bers))
    });
    // What `alias curve` runs (the walk kernel on x86-64 with AVX2).
    group.bench_function("w16_all_lengths_5_bers_solver", |b| {
        b.iter(|| markov::solve(black_box(&g), &lengths, &bers, &ctx))
    });
    // Gilbert-Elliott (issue 11 target: 2 s or less), beside the BSC
    // solver on one BER as the baseline in the same run.
    let ge: GilbertElliott = "1e-7,0.3,1e-4,0.05".parse().unwrap();
    group.bench_function("w16_all_lengths_1_ber_solver", |b| {
        b.iter(|| markov::solve(black_box(&g), &lengths, &bers[..1], &ctx))
    });
    group.bench_function("w16_all_lengths_gilbert_elliott", |b| {
        b.iter(|| gilbert::solve(black_box(&g), &lengths, &ge, &ctx))
    });
    group.finish();
}

fn growth(c: &mut Criterion) {
    let mut group = c.benchmark_group("markov_growth");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (width, steps) in [(16u32, 2048u64), (20, 128), (24, 8)] {
        let g = catalogue::default_primitive(width).unwrap();
        let n = 1usize << width;
        let bytes = steps * n as u64 * 16;
        group.throughput(Throughput::Bytes(bytes));
        let parallel = width >= butterfly::PARALLEL_WIDTH;
        // The kernel alone on preallocated vectors, as the solver runs it.
        let mut v: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
        let mut w = vec![0.0f64; n];
        group.bench_function(format!("butterfly/w{width}_{steps}_steps"), |b| {
            b.iter(|| {
                for _ in 0..steps {
                    butterfly::step(&g, 1e-6, black_box(&v), &mut w, parallel);
                    std::mem::swap(&mut v, &mut w);
                }
            })
        });
        // The in-place kernel the solver uses from INPLACE_WIDTH up.
        if parallel {
            let mut x = v.clone();
            group.bench_function(format!("inplace/w{width}_{steps}_steps"), |b| {
                b.iter(|| {
                    for k in 0..steps {
                        inplace::step_in_place(
                            &g,
                            1e-6,
                            black_box(&mut x),
                            (k % width as u64) as u32,
                        );
                    }
                })
            });
        }
        // The fused in-place kernel the solver uses (BLOCK steps per pass
        // over the vector), on a preallocated vector like the others, from
        // step 1000: past the first r steps, whose translations are single
        // bits with unusually local access, so the figure holds for a long run.
        let mut x = v.clone();
        group.bench_function(format!("walk/w{width}_{steps}_steps"), |b| {
            b.iter(|| {
                walk::advance(
                    &g,
                    1e-6,
                    black_box(&mut x),
                    1000,
                    steps,
                    parallel,
                    |_, _| {},
                )
            })
        });
        // The same byte volume as a plain copy (one read, one write).
        group.bench_function(format!("copy/w{width}_{steps}_steps"), |b| {
            b.iter(|| {
                for _ in 0..steps {
                    if parallel {
                        w.par_chunks_mut(1 << 14)
                            .zip(v.par_chunks(1 << 14))
                            .for_each(|(d, s)| d.copy_from_slice(s));
                    } else {
                        w.copy_from_slice(black_box(&v));
                    }
                    std::mem::swap(&mut v, &mut w);
                }
            })
        });
    }
    // The whole solver (allocation included) at width 20, one BER.
    let g = catalogue::default_primitive(20).unwrap();
    group.throughput(Throughput::Bytes(256 * (1u64 << 20) * 16));
    let ctx = Ctx::default();
    group.bench_function("solver/w20_256_steps", |b| {
        b.iter(|| markov::solve(black_box(&g), &[256], &[1e-6], &ctx))
    });
    group.finish();
}

criterion_group!(benches, all_lengths, growth);
criterion_main!(benches);
