//! Regenerates `docs/study/`: the figures and numbers of section 3 of the
//! study this project grew from (`shared/papers/packet-aliasing-study.txt`),
//! computed exactly, for `docs/study/README.md` to put beside its claims.
//!
//! `cargo run --release --example reproduce_study [DIR]` (about a minute on
//! 2 cores; the CRC-32 values use the dual-code method, the combined
//! sections the joint stack computation of `alias stack`).
//!
//! Writes `fig6.*` (16-bit maximal-length CRC, BER 1e-4..1e-8), `fig7.*`
//! (8-, 16-, 20-bit maximal-length CRCs at 1e-7), `fig8.*` (Internet
//! checksum against packet size at 1.5e-5), each as JSON + SVG + PNG,
//! `joint.json` (the joint escape of `ethernet-tcp` beside the study's
//! product), `transfer.*` (expected escapes per petabyte against BER for
//! MTUs 1500 and 9000, `alias transfer`'s library call and figure) and
//! `numbers.txt` with every figure quoted in the study's text.
//! The computation is `aliasing_examples::study::compute`, which a test
//! compares with the committed files.

use std::path::PathBuf;

fn main() -> Result<(), aliasing_examples::study::Error> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/study".into()),
    );
    std::fs::create_dir_all(&dir)?;
    let study = aliasing_examples::study::compute()?;
    for (stem, doc) in &study.figures {
        std::fs::write(
            dir.join(format!("{stem}.json")),
            serde_json::to_string_pretty(doc)? + "\n",
        )?;
        if stem.starts_with("fig") || *stem == "transfer" {
            for ext in ["svg", "png"] {
                aliasing_plot::render(doc, &dir.join(format!("{stem}.{ext}")))?;
            }
        }
    }
    std::fs::write(dir.join("numbers.txt"), &study.numbers)?;
    print!("{}", study.numbers);
    eprintln!("wrote {}", dir.display());
    Ok(())
}
