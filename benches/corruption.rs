//! Criterion bench `corruption`: the TCP checksum's miss of corruption
//! inside hosts and routers over given data (`aliasing_sim::corruption`),
//! 64 MiB of pseudo-random bytes in 1460-byte segments, every thread of the
//! machine. Throughput is reported in bytes per second; the target is
//! 1 GB/s per core or better for `word` and `splice:48`.
//! `given_8MiB_1460B/bits:1e-7`: the `bits:P` model (the exact carry chain
//! of each segment's own column counts) over the first 8 MiB.
//! `file_64MiB_{1460,8960}B/word+bits:1e-7`: the file path of
//! `alias transfer --payload FILE --corruption word:R --corruption bits:1e-7`
//! (`corruption::file`: the file read in chunks, both models in one pass)
//! over the 64 MiB written to a temporary file, at the TCP payloads of
//! MTU 1500 and 9000; `files_64MiB_1460B+8960B/word+bits:1e-7`: both
//! sizes in one pass (`corruption::files`, what `alias transfer` runs for
//! two MTUs).
//!
//! Run: `cargo bench -p aliasing-benches --bench corruption`

use aliasing_core::progress::Silent;
use aliasing_sim::corruption::{Model, file_silent, files, given};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn data(n: usize) -> Vec<u8> {
    // xorshift64*: fast, reproducible bytes
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut v = Vec::with_capacity(n + 8);
    while v.len() < n {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        v.extend_from_slice(&x.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    v.truncate(n);
    v
}

fn bench(c: &mut Criterion) {
    let d = data(64 << 20);
    let mut g = c.benchmark_group("corruption");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Bytes(d.len() as u64));
    for m in [Model::Word, Model::Splice { cell: 48 }] {
        g.bench_function(format!("given_64MiB_1460B/{m}"), |b| {
            b.iter(|| given(black_box(&d), 1460, &[m]).unwrap())
        });
    }
    let small = &d[..8 << 20];
    g.throughput(Throughput::Bytes(small.len() as u64));
    let bits = Model::Bits { p: 1e-7 };
    g.bench_function(format!("given_8MiB_1460B/{bits}"), |b| {
        b.iter(|| given(black_box(small), 1460, &[bits]).unwrap())
    });
    let path =
        std::env::temp_dir().join(format!("alias-bench-corruption-{}.bin", std::process::id()));
    std::fs::write(&path, &d).expect("temporary file");
    g.throughput(Throughput::Bytes(d.len() as u64));
    let both = [Model::Word, bits];
    for seg in [1460u64, 8960] {
        g.bench_function(format!("file_64MiB_{seg}B/word+{bits}"), |b| {
            b.iter(|| file_silent(black_box(&path), seg, &both).unwrap())
        });
    }
    g.bench_function(format!("files_64MiB_1460B+8960B/word+{bits}"), |b| {
        b.iter(|| files(black_box(&path), &[1460, 8960], &both, &Silent).unwrap())
    });
    let _ = std::fs::remove_file(&path);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
