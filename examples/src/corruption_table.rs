//! The corruption table of docs/study/corruption.md
//! (`examples/corruption_table.rs` prints it; a test compares it with the
//! committed one): for each sample file of `scripts/make-sample-data.sh`
//! and each corruption model, the TCP checksum's exact miss probability
//! over the file's segments against uniformly random data, the effective
//! check bits `-log2 p_miss`, and what Stone and Partridge's packet-failure
//! rates imply per terabyte.

use aliasing_core::Result;
use aliasing_sim::corruption::{self, Miss, Model};
use std::path::Path;

/// The sample files (as `scripts/make-sample-data.sh` names them) and how
/// the table names their data.
pub const FILES: [(&str, &str); 5] = [
    ("zeros.bin", "all zeros"),
    ("text.txt", "English text"),
    ("text.gz", "gzip archive"),
    ("random.bin", "random bytes"),
    ("pages.db", "database pages"),
];

/// The models of the table, in its order.
pub const MODELS: [&str; 6] = [
    "word",
    "burst:16",
    "burst:17",
    "burst:32",
    "splice:48",
    "bits:1e-7",
];

/// [`MODELS`], parsed.
pub fn models() -> Vec<Model> {
    MODELS
        .iter()
        .map(|s| s.parse().expect("the table's models parse"))
        .collect()
}

fn bits(p: f64) -> String {
    if p == 0.0 {
        "never".into()
    } else {
        format!("{:.1}", -p.log2())
    }
}

/// Each model's exact miss over uniformly random segments of `seg` bytes.
pub fn uniform(seg: u64) -> Result<Vec<f64>> {
    models()
        .iter()
        .map(|m| corruption::uniform(m, seg).map(|u| u.p_miss))
        .collect()
}

/// The main table's rows of one file (`what` its data), from its misses
/// `r` and the uniform values `u`.
pub fn rows(what: &str, r: &[Miss], u: &[f64]) -> Vec<String> {
    r.iter()
        .zip(u)
        .map(|(m, u)| {
            let ratio = if *u > 0.0 {
                format!("{:.3}", m.p_miss / u)
            } else {
                "-".into()
            };
            format!(
                "| {what} | `{}` | {:.4e} | {:.4e} | {ratio} | {} | {} |",
                m.model,
                m.p_miss,
                u,
                bits(m.p_miss),
                bits(*u)
            )
        })
        .collect()
}

/// The per-terabyte rows of one file (`word` and `splice:48` at Stone and
/// Partridge's rates, 1 in 1,100 and 1 in 32,000 packets).
pub fn terabyte_rows(what: &str, r: &[Miss], seg: u64) -> Vec<String> {
    let segments_per_tb = 1e12 / seg as f64;
    r.iter()
        .filter(|m| m.model == "word" || m.model == "splice:48")
        .map(|m| {
            format!(
                "| {what} | `{}` | {:.3e} | {:.3e} |",
                m.model,
                segments_per_tb / 1100.0 * m.p_miss,
                segments_per_tb / 32000.0 * m.p_miss
            )
        })
        .collect()
}

/// The misses of every model over the file at `path`.
pub fn file(path: &Path, seg: u64) -> Result<Vec<Miss>> {
    corruption::file_silent(path, seg, &models())
}

/// The whole output of `examples/corruption_table.rs` for the sample files
/// in `dir` and segments of `seg` data bytes.
pub fn table(dir: &Path, seg: u64) -> Result<String> {
    let u = uniform(seg)?;
    let mut out = format!("Segments of {seg} data bytes.\n\n");
    out.push_str("| data | model | p_miss | uniform data | ratio | check bits | uniform bits |\n");
    out.push_str("|---|---|---:|---:|---:|---:|---:|\n");
    let mut per_file = Vec::new();
    for (name, what) in FILES {
        let r = file(&dir.join(name), seg)?;
        for line in rows(what, &r, &u) {
            out.push_str(&line);
            out.push('\n');
        }
        per_file.push((what, r));
    }
    let segments_per_tb = 1e12 / seg as f64;
    out.push_str(&format!(
        "\nPer terabyte ({segments_per_tb:.4e} segments), undetected corruptions:\n\n"
    ));
    out.push_str("| data | model | rate 1/1100 | rate 1/32000 |\n");
    out.push_str("|---|---|---:|---:|\n");
    for (what, r) in &per_file {
        for line in terabyte_rows(what, r, seg) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}
