//! Criterion bench `transfer`: `aliasing_sim::transfer`, the library call
//! behind `alias transfer`, on small frames (a CRC-16 stack, so each run is
//! a fraction of a second).
//!
//! - `transfer/from_nothing_202B`: a whole request from nothing (MTU 200
//!   under `ipv4-tcp+CRC-16/ARC`, weights up to 4, 4 BERs, 2 hop counts):
//!   the codeword enumeration, the dual code, every point.
//! - `transfer/kept_tallies_202B`: the same request at other BERs from
//!   kept tallies (what `--tallies` saves): the points only.
//!
//! - `transfer/weight4_shapes_9018B`: the CRC-32 weight-4 codeword shapes
//!   of a 9018-byte frame (spans below 72,144 bits), the search behind the
//!   tallies of MTU 9000 (Zech logarithms, CRC-32 being primitive).
//! - `transfer/weight5_shapes_1518B`: the CRC-32 weight-5 shapes of a
//!   1518-byte frame (the sorted pair join), behind MTU 1500's tallies.
//!
//! The whole command at Ethernet sizes (`alias transfer --size 10TB --mtu
//! 1500,9000 --ber 1e-6,1e-8,1e-10,1e-12`) is timed outside criterion; see
//! docs/guide/transfer.md.
//!
//! Run: `cargo bench -p aliasing-benches --bench transfer`

use aliasing_core::ctx::Ctx;
use aliasing_core::lowweight;
use aliasing_core::poly::Generator;
use aliasing_sim::transfer::{Tallies, TransferParams, report, report_with};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn params(bers: &[f64]) -> TransferParams {
    let mut p = TransferParams::new(
        "ipv4-tcp+CRC-16/ARC",
        10_000_000_000_000,
        vec![200],
        bers.to_vec(),
        vec![1, 4],
    );
    p.max_weight = 4;
    p.samples = 0;
    p
}

fn bench(c: &mut Criterion) {
    let ctx = Ctx::default();
    let first = params(&[1e-6, 1e-8, 1e-10, 1e-12]);
    let mut kept = Tallies::new(&first);
    report_with(&first, &mut kept, &ctx).unwrap();
    let other = params(&[1e-5, 1e-7, 1e-9, 1e-11]);
    let mut g = c.benchmark_group("transfer");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("from_nothing_202B", |b| {
        b.iter(|| report(black_box(&first), &ctx).unwrap())
    });
    g.bench_function("kept_tallies_202B", |b| {
        b.iter(|| {
            let mut k = kept.clone();
            report_with(black_box(&other), &mut k, &ctx).unwrap()
        })
    });
    let crc32: Generator = "0x104C11DB7".parse().unwrap();
    g.bench_function("weight4_shapes_9018B", |b| {
        b.iter(|| lowweight::shapes(black_box(&crc32), 4, 9018 * 8).unwrap())
    });
    g.bench_function("weight5_shapes_1518B", |b| {
        b.iter(|| lowweight::shapes(black_box(&crc32), 5, 1518 * 8).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
