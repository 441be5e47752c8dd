//! The corruption table of docs/study/corruption.md: for each sample file
//! (made by `scripts/make-sample-data.sh DIR`) and each corruption model,
//! the TCP checksum's exact miss probability over the file's segments
//! against uniformly random data, and the effective check bits
//! `-log2 p_miss`; then what Stone and Partridge's packet-failure rates
//! imply per terabyte. The table is built by
//! `aliasing_examples::corruption_table` (tested against the committed
//! table: `cargo test -p aliasing-examples --test study corruption_table`).
//!
//! ```text
//! scripts/make-sample-data.sh /tmp/samples
//! cargo run --release -p aliasing-examples --example corruption_table -- /tmp/samples [SEGMENT_BYTES]
//! ```

use aliasing_examples::corruption_table::table;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: corruption_table DIR [SEGMENT_BYTES]");
        std::process::exit(2);
    };
    let seg: u64 = match args.get(1).map(|s| s.parse()) {
        None => 1460,
        Some(Ok(s)) => s,
        Some(Err(_)) => {
            eprintln!("error: SEGMENT_BYTES must be a whole number");
            std::process::exit(2)
        }
    };
    match table(Path::new(dir), seg) {
        Ok(t) => print!("{t}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2)
        }
    }
}
