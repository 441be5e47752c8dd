//! Criterion bench `stack`: the exact joint escape of `ethernet-tcp`
//! (FCS + IPv4 + TCP checksums) from CRC-32's low-weight codewords.
//!
//! - `joint/weight4_1518B`: every weight-4 codeword at 1518 bytes placed
//!   and passed through the checksums (listing and sums).
//! - `joint/weight5_600B`: every weight-5 codeword at 600 bytes.
//! - `joint/pass_probability`: one weight-5 pattern's exact pass probability.
//! - `baseline/crc32_1518B`: one CRC-32 of a 1518-byte frame (crc32fast), the
//!   unit the figures are compared against in the same run.
//!
//! The whole command (`alias stack --bytes 1518 --ber 1e-4,1e-5,1e-6,1e-8`,
//! weights 4 and 5 plus CRC-32's dual code) is timed outside criterion; see
//! the README.
//!
//! Run: `cargo bench -p aliasing-benches --bench stack`

use aliasing_core::__private::joint::JointModel;
use aliasing_core::layout::{Frame, Payload};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let f1518 = Frame::new("ethernet-tcp", 1518, Payload::Random).unwrap();
    let m1518 = JointModel::new(&f1518).unwrap();
    let f600 = Frame::new("ethernet-tcp", 600, Payload::Random).unwrap();
    let m600 = JointModel::new(&f600).unwrap();
    let mut g = c.benchmark_group("joint");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("weight4_1518B", |b| {
        b.iter(|| m1518.exact_term(black_box(4)).unwrap())
    });
    g.bench_function("weight5_600B", |b| {
        b.iter(|| m600.exact_term(black_box(5)).unwrap())
    });
    g.bench_function("pass_probability", |b| {
        let pat = [100u32, 433, 449, 5000, 9000];
        b.iter(|| m1518.pass_probability(black_box(&pat)))
    });
    g.finish();
    let frame: Vec<u8> = (0..1518u32).map(|i| (i * 131 % 251) as u8).collect();
    c.bench_function("baseline/crc32_1518B", |b| {
        b.iter(|| crc32fast::hash(black_box(&frame)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
