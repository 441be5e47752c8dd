//! Times the corruption library over a file, as `alias transfer --payload
//! FILE --corruption ...` calls it: one pass per segment size, every model
//! in the pass.
//!
//! ```text
//! head -c 1000000000 /dev/urandom > /tmp/1g.bin
//! cargo run --release -p aliasing-examples --example corruption_file -- /tmp/1g.bin 1460,8960 word bits:1e-7
//! ```

use aliasing_sim::corruption::{self, Model};
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: corruption_file FILE SEGMENT_BYTES[,..] MODEL...");
        std::process::exit(2);
    }
    let path = Path::new(&args[0]);
    let sizes: Vec<u64> = args[1]
        .split(',')
        .map(|s| s.parse().expect("segment bytes"))
        .collect();
    let models: Vec<Model> = args[2..]
        .iter()
        .map(|s| {
            s.parse().unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(2)
            })
        })
        .collect();
    let start = Instant::now();
    for &seg in &sizes {
        let t = Instant::now();
        let r = corruption::file_silent(path, seg, &models).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(2)
        });
        for m in r {
            println!(
                "{seg} B  {:<14} p_miss {:.6e}  over {} segments  ({:.2} s)",
                m.model,
                m.p_miss,
                m.segments,
                t.elapsed().as_secs_f64()
            );
        }
    }
    println!("total {:.2} s", start.elapsed().as_secs_f64());
}
