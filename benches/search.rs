//! The generator search (`aliasing_core::search`), stage by stage.
//!
//! `cargo bench -p aliasing-benches --bench search`
//!
//! - `distance_w16_1518B`: the distance stage over all 32,768 width-16
//!   generators at 12144 bits (1518-byte frames).
//! - `pud_one_w16_1518B`: exact `P_ud` of one width-16 generator at 12144
//!   bits and two BERs (dual-code weights + high-precision sum), the unit
//!   of the second stage; `markov_one_w16_1518B`, the same figures by the
//!   Markov chain, is the baseline measured in the same run.
//! - `search_w8_w12_4len`: whole searches of widths 8 and 12 at four lengths.
use aliasing_core::poly::Generator;
use aliasing_core::search::{self, Objective, Query, Space};
use aliasing_core::shard::Shard;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn query(width: u32, lengths: &[u64], bers: &[f64]) -> Query {
    Query::new(width, lengths.to_vec(), bers.to_vec(), 0, 10, Objective::Hd).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut grp = c.benchmark_group("search");
    grp.sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let q16 = query(16, &[12144], &[1e-5, 1e-7]);
    grp.bench_function("distance_w16_1518B", |b| {
        b.iter(|| {
            aliasing_core::__private::search::hd_histogram(
                black_box(&q16),
                &Space::All,
                Shard::WHOLE,
            )
            .unwrap()
        })
    });
    let g: Generator = "0x1A2EB".parse().unwrap();
    grp.bench_function("pud_one_w16_1518B", |b| {
        b.iter(|| {
            aliasing_core::__private::search::p_undetected(
                black_box(&g),
                &[12144],
                &[1e-5, 1e-7],
                &aliasing_core::ctx::Ctx::default(),
            )
            .unwrap()
        })
    });
    grp.bench_function("markov_one_w16_1518B", |b| {
        b.iter(|| {
            aliasing_core::markov::p_undetected(
                black_box(&g),
                &[12144],
                &[1e-5, 1e-7],
                &aliasing_core::ctx::Ctx::default(),
            )
            .unwrap()
        })
    });
    grp.bench_function("search_w8_w12_4len", |b| {
        b.iter(|| {
            let q8 = query(8, &[16, 40, 128, 512], &[1e-5, 1e-3]);
            let q12 = query(12, &[64, 256, 1024, 4096], &[1e-6, 1e-4]);
            search::run(
                &q8,
                &Space::All,
                Shard::WHOLE,
                &aliasing_core::ctx::Ctx::default(),
            )
            .unwrap();
            search::run(
                &q12,
                &Space::All,
                Shard::WHOLE,
                &aliasing_core::ctx::Ctx::default(),
            )
            .unwrap()
        })
    });
    grp.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
