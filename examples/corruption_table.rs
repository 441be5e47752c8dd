//! The corruption table of docs/study/corruption.md: for each sample file
//! (made by `scripts/make-sample-data.sh DIR`) and each corruption model,
//! the TCP checksum's exact miss probability over the file's segments
//! against uniformly random data, and the effective check bits
//! `-log2 p_miss`; then what Stone and Partridge's packet-failure rates
//! imply per terabyte.
//!
//! ```text
//! scripts/make-sample-data.sh /tmp/samples
//! cargo run --release -p aliasing-examples --example corruption_table -- /tmp/samples [SEGMENT_BYTES]
//! ```

use aliasing_sim::corruption::{self, Model};
use std::path::Path;

const FILES: [(&str, &str); 5] = [
    ("zeros.bin", "all zeros"),
    ("text.txt", "English text"),
    ("text.gz", "gzip archive"),
    ("random.bin", "random bytes"),
    ("pages.db", "database pages"),
];

fn bits(p: f64) -> String {
    if p == 0.0 {
        "never".into()
    } else {
        format!("{:.1}", -p.log2())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: corruption_table DIR [SEGMENT_BYTES]");
        std::process::exit(2);
    };
    let seg: u64 = args
        .get(1)
        .map_or(1460, |s| s.parse().expect("segment bytes"));
    let models: Vec<Model> = [
        "word",
        "burst:16",
        "burst:17",
        "burst:32",
        "splice:48",
        "bits:1e-7",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let uniform: Vec<f64> = models
        .iter()
        .map(|m| corruption::uniform(m, seg).unwrap().p_miss)
        .collect();
    println!("Segments of {seg} data bytes.\n");
    println!("| data | model | p_miss | uniform data | ratio | check bits | uniform bits |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    let mut per_file = Vec::new();
    for (name, what) in FILES {
        let path = Path::new(dir).join(name);
        let r = corruption::file_silent(&path, seg, &models).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(2)
        });
        for (m, u) in r.iter().zip(&uniform) {
            let ratio = if *u > 0.0 {
                format!("{:.3}", m.p_miss / u)
            } else {
                "-".into()
            };
            println!(
                "| {what} | `{}` | {:.4e} | {:.4e} | {ratio} | {} | {} |",
                m.model,
                m.p_miss,
                u,
                bits(m.p_miss),
                bits(*u)
            );
        }
        per_file.push((what, r));
    }
    // Stone and Partridge (SIGCOMM 2000): 1 in 1,100 to 1 in 32,000 packets
    // failed the TCP checksum.
    let segments_per_tb = 1e12 / seg as f64;
    println!("\nPer terabyte ({segments_per_tb:.4e} segments), undetected corruptions:\n");
    println!("| data | model | rate 1/1100 | rate 1/32000 |");
    println!("|---|---|---:|---:|");
    for (what, r) in &per_file {
        for m in r
            .iter()
            .filter(|m| m.model == "word" || m.model == "splice:48")
        {
            println!(
                "| {what} | `{}` | {:.3e} | {:.3e} |",
                m.model,
                segments_per_tb / 1100.0 * m.p_miss,
                segments_per_tb / 32000.0 * m.p_miss
            );
        }
    }
}
