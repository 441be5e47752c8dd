//! Criterion bench `simulate`: the Monte Carlo engines, beside baselines
//! timed in the same run.
//!
//! - `simulate/sparse_ethernet_tcp_1e7_{1t,2t}`: 1e7 frames of 1518 bytes at
//!   BER 1e-5 through `ethernet-tcp`, sparse engine, 1 and 2 threads
//!   (throughput in frames).
//! - `simulate/per_frame_syndrome_loop_1e7`: baseline, a loop that visits
//!   every frame, draws its errors and XORs their syndromes (the cost the
//!   sparse engine avoids by jumping over clean frames).
//! - `dense/{ethernet,ethernet_tcp}_2e5_{1t,2t}`: the dense engine, bytes of
//!   frames per second, payload generation included; `dense/memcpy_2e5` and
//!   `dense/crc32fast_2e5` are the baselines over the same byte volume.
//! - `rare/crc32_1518_1e-5_1e7_samples`: the rare-event estimator.
//! - `rare_burst/{dense,sparse}_crc32_1518_2^16_draws_1t`: the burst-channel
//!   estimator (`--rare --burst`) on a dense-burst channel
//!   (`1e-7,0.5,1e-5,0.1`) and a sparse one (`1e-6,0.01,1e-4,0.05`), one
//!   thread, throughput in draws; `rare_burst/draw_verdicts_2^16_1t`, the
//!   baseline: the same number of frames drawn from the sparse channel's
//!   proposal and judged by the sparse engine's CRC verdict (what a plain
//!   Monte Carlo pays per frame).
//!
//! Run: `cargo bench -p aliasing-benches --bench simulate`

use aliasing_sim::channel::{Channel, ErrorStream};
use aliasing_sim::run::{Engine, Plan, RunOptions, simulate};
use aliasing_sim::sparse::Sparse;
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::stream::chunk_rng;
use aliasing_sim::{Frames, Seed};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn plan(stack: &str, frames: u64) -> Plan {
    Plan::new(
        Frame::new(stack, 1518, Payload::Random).unwrap(),
        Channel::Bsc { ber: 1e-5 },
        Frames(frames),
        Seed(1),
    )
}

fn sparse(c: &mut Criterion) {
    let frames = 10_000_000u64;
    let p = plan("ethernet-tcp", frames);
    let mut g = c.benchmark_group("simulate");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Elements(frames));
    for t in [1usize, 2] {
        g.bench_function(format!("sparse_ethernet_tcp_1e7_{t}t"), |b| {
            let o = RunOptions {
                threads: t,
                ..Default::default()
            };
            b.iter(|| simulate(black_box(&p), &o, None).unwrap())
        });
    }
    let sp = Sparse::new(&p.frame, 1);
    g.bench_function("per_frame_syndrome_loop_1e7", |b| {
        b.iter(|| {
            // visit every frame: draw its errors and evaluate it
            let mut s = ErrorStream::new(&p.channel, p.frame.n_bits(), chunk_rng(1, 0, 0));
            let mut flips = Vec::new();
            let mut buf = Vec::new();
            let mut esc = 0u64;
            for i in 0..frames {
                s.next_frame(&mut flips);
                esc += sp.verdict(i, &flips, &mut buf) & 1;
            }
            esc
        })
    });
    g.finish();
}

fn dense(c: &mut Criterion) {
    let frames = 200_000u64;
    let bytes = frames * 1518;
    let mut g = c.benchmark_group("dense");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Bytes(bytes));
    for (name, stack) in [("ethernet", "ethernet"), ("ethernet_tcp", "ethernet-tcp")] {
        let p = plan(stack, frames);
        for t in [1usize, 2] {
            g.bench_function(format!("{name}_2e5_{t}t"), |b| {
                let o = RunOptions {
                    engine: Engine::Dense,
                    threads: t,
                    ..Default::default()
                };
                b.iter(|| simulate(black_box(&p), &o, None).unwrap())
            });
        }
    }
    let src = vec![0x5Au8; 1518];
    let mut dst = vec![0u8; 1518];
    g.bench_function("memcpy_2e5", |b| {
        b.iter(|| {
            for _ in 0..frames {
                dst.copy_from_slice(black_box(&src));
                black_box(&mut dst);
            }
        })
    });
    g.bench_function("crc32fast_2e5", |b| {
        b.iter(|| {
            let mut x = 0u32;
            for _ in 0..frames {
                x ^= crc32fast::hash(black_box(&src));
            }
            x
        })
    });
    g.finish();
}

fn rare(c: &mut Criterion) {
    let p = plan("ethernet", 1);
    let mut g = c.benchmark_group("rare");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.bench_function("crc32_1518_1e-5_1e7_samples", |b| {
        b.iter(|| aliasing_sim::rare::estimate(black_box(&p), 10_000_000, 0).unwrap())
    });
    g.finish();
}

fn rare_burst(c: &mut Criterion) {
    use aliasing_sim::burst_rare::{default_proposal, estimate};
    use aliasing_sim::channel::GilbertElliott;
    let draws = 1u64 << 16;
    let mut g = c.benchmark_group("rare_burst");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(draws));
    let on = |ge: &str| {
        let ge: GilbertElliott = ge.parse().unwrap();
        Plan::new(
            Frame::new("crc32", 1518, Payload::Random).unwrap(),
            Channel::Burst(ge),
            Frames(1),
            Seed(1),
        )
    };
    for (name, ge) in [
        ("dense", "1e-7,0.5,1e-5,0.1"),
        ("sparse", "1e-6,0.01,1e-4,0.05"),
    ] {
        let p = on(ge);
        g.bench_function(format!("{name}_crc32_1518_2^16_draws_1t"), |b| {
            b.iter(|| estimate(black_box(&p), draws, None, 1).unwrap())
        });
    }
    // baseline: draw the frames from the proposal, give the CRC's verdict
    let p = on("1e-6,0.01,1e-4,0.05");
    let q = default_proposal(&"1e-6,0.01,1e-4,0.05".parse().unwrap(), p.frame.n_bits()).unwrap();
    let sp = Sparse::new(&p.frame, 1);
    g.bench_function("draw_verdicts_2^16_1t", |b| {
        b.iter(|| {
            let ch = Channel::Burst(q);
            let mut s = ErrorStream::new(&ch, p.frame.n_bits(), chunk_rng(1, 0, 3000));
            let (mut flips, mut buf) = (Vec::new(), Vec::new());
            let mut pass = 0u64;
            for i in 0..draws {
                s.next_frame(&mut flips);
                pass += sp.verdict(i, &flips, &mut buf) & 1;
            }
            pass
        })
    });
    g.finish();
}

criterion_group!(benches, sparse, dense, rare, rare_burst);
criterion_main!(benches);
