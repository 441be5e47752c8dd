//! Dual-code weights, low-weight counts and HD profiles.
//!
//! `cargo bench -p aliasing-benches --bench dual`
//!
//! - `dual_weights_24bit/{blocks,serial}`: the same 2^24 windows at n = 12144
//!   counted with 64-bit table blocks and jump-ahead segments (the library)
//!   and with a one-bit-at-a-time register (baseline, in this file).
//! - `crc32/*`: the targets of issue 3 at n = 12144 (Ethernet).
use aliasing_core::{dual, highprec, lowweight, poly::Generator};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// Baseline: B_w of a primitive generator by stepping the register one bit
/// at a time over the m-sequence, sliding a window of n bits.
fn serial_dual(g: &Generator, n: u64) -> Vec<u64> {
    let r = g.width();
    let period = (1u64 << r) - 1;
    let step = |a: u64| {
        let top = (a >> (r - 1)) & 1;
        ((a << 1) & g.mask()) ^ (g.normal() & top.wrapping_neg())
    };
    let mut hist = vec![0u64; n as usize + 1];
    let (mut front, mut back) = (1u64, 1u64);
    let mut w = 0usize;
    for _ in 0..n {
        w += ((back >> (r - 1)) & 1) as usize;
        back = step(back);
    }
    for _ in 0..period {
        hist[w] += 1;
        w = w + ((back >> (r - 1)) & 1) as usize - ((front >> (r - 1)) & 1) as usize;
        back = step(back);
        front = step(front);
    }
    hist[0] += 1;
    hist
}

fn bench(c: &mut Criterion) {
    let g24: Generator = "0x100001B".parse().unwrap(); // x^24+x^4+x^3+x+1
    assert!(aliasing_core::gf2::is_primitive(&g24));
    let n = 12144u64;
    assert_eq!(
        dual::dual_weights(&g24, &[n], &aliasing_core::ctx::Ctx::default()).unwrap()[0].counts,
        serial_dual(&g24, n)
    );
    let mut grp = c.benchmark_group("dual_weights_24bit");
    grp.sample_size(10).measurement_time(Duration::from_secs(5));
    grp.bench_function("blocks", |b| {
        b.iter(|| {
            dual::dual_weights(black_box(&g24), &[n], &aliasing_core::ctx::Ctx::default()).unwrap()
        })
    });
    grp.bench_function("serial", |b| b.iter(|| serial_dual(black_box(&g24), n)));
    grp.finish();

    let crc32: Generator = "0x104C11DB7".parse().unwrap();
    let mut grp = c.benchmark_group("crc32");
    grp.sample_size(10).measurement_time(Duration::from_secs(4));
    grp.bench_function("hd_profile", |b| {
        b.iter(|| lowweight::hd_profile(black_box(&crc32), None).unwrap())
    });
    grp.bench_function("a4_all_lengths_to_12144", |b| {
        b.iter(|| {
            lowweight::weight_counts(
                black_box(&crc32),
                4,
                n + 1,
                &aliasing_core::ctx::Ctx::default(),
            )
            .unwrap()
        })
    });
    let d = dual::dual_weights(&crc32, &[n], &aliasing_core::ctx::Ctx::default())
        .unwrap()
        .remove(0);
    for p in [1e-15, 1e-5, 0.5] {
        grp.bench_function(format!("p_undetected_from_dual_{p:e}"), |b| {
            b.iter(|| highprec::p_undetected(black_box(&d), p).unwrap())
        });
    }
    grp.sample_size(10)
        .measurement_time(Duration::from_secs(30));
    grp.bench_function("dual_weights_12144", |b| {
        b.iter(|| {
            dual::dual_weights(black_box(&crc32), &[n], &aliasing_core::ctx::Ctx::default())
                .unwrap()
        })
    });
    grp.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
