//! The committed corruption table of docs/study/corruption.md against what
//! `examples/corruption_table.rs` prints (`aliasing_examples::corruption_table`).
//!
//! The test command runs the cheap part: every row's uniform-data columns,
//! the rows and their order, and the all-zeros rows over the sample
//! script's all-zero file (16 MiB of zeros, written here). The whole table
//! needs the five sample files of `scripts/make-sample-data.sh` (Python and
//! gzip, about half a minute); it is `#[ignore]`d:
//!
//! ```text
//! cargo test -p aliasing-examples --test study corruption_table -- --ignored
//! ```

use aliasing_examples::corruption_table::{self as table, FILES, MODELS};
use std::path::{Path, PathBuf};

/// The segment size of the committed table (MTU 1500).
const SEG: u64 = 1460;
/// The sample script's default file size.
const SAMPLE_BYTES: usize = 16 << 20;

fn doc() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/study/corruption.md");
    std::fs::read_to_string(p).expect("docs/study/corruption.md")
}

/// The doc's rows of the main table (7 columns) and of the per-terabyte
/// table (4 columns), in order.
fn doc_rows(doc: &str) -> (Vec<String>, Vec<String>) {
    let rows = |cols: usize| -> Vec<String> {
        doc.lines()
            .filter(|l| {
                l.starts_with("| ") && l.contains(" | `") && l.matches('|').count() == cols + 1
            })
            .map(String::from)
            .collect()
    };
    (rows(7), rows(4))
}

/// A folder of its own under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!(
            "alias-corruption-table-{tag}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_committed_rows_uniform_columns_and_all_zeros_rows() {
    let doc = doc();
    let (main, tb) = doc_rows(&doc);
    // every (data, model) in order
    assert_eq!(main.len(), FILES.len() * MODELS.len(), "{main:#?}");
    assert_eq!(tb.len(), FILES.len() * 2, "{tb:#?}");
    for (i, row) in main.iter().enumerate() {
        let (what, model) = (FILES[i / MODELS.len()].1, MODELS[i % MODELS.len()]);
        assert!(
            row.starts_with(&format!("| {what} | `{model}` |")),
            "row {i}: {row}"
        );
    }
    // the uniform-data columns (4 and 7) of every row: the library's
    // closed forms
    let u = table::uniform(SEG).unwrap();
    for (i, row) in main.iter().enumerate() {
        let cols: Vec<&str> = row.split('|').map(str::trim).collect();
        let want: Vec<String> = table::rows(
            "x",
            &[miss(MODELS[i % MODELS.len()], 0.5)],
            &[u[i % MODELS.len()]],
        )[0]
        .split('|')
        .map(|c| c.trim().to_string())
        .collect();
        assert_eq!(
            (cols[4], cols[7]),
            (want[4].as_str(), want[7].as_str()),
            "row {i}: {row}"
        );
    }
    // all zeros: the sample script's file is 16 MiB of zero bytes
    let dir = TempDir::new("zeros");
    let zeros = dir.0.join("zeros.bin");
    std::fs::write(&zeros, vec![0u8; SAMPLE_BYTES]).unwrap();
    let r = table::file(&zeros, SEG).unwrap();
    let got = table::rows("all zeros", &r, &u);
    assert_eq!(got, main[..MODELS.len()].to_vec());
    assert_eq!(table::terabyte_rows("all zeros", &r, SEG), tb[..2].to_vec());
}

/// A miss of `p` for `model` (only its model and value are printed).
fn miss(model: &str, p: f64) -> aliasing_sim::corruption::Miss {
    aliasing_sim::corruption::Miss {
        model: model.to_string(),
        p_miss: p,
        segments: 1,
        p_hit: None,
        p_undetected: None,
        method: String::new(),
    }
}

#[test]
#[ignore = "makes the five 16 MiB sample files (Python, gzip): 20 s of CPU"]
fn the_whole_committed_table_is_what_the_example_prints() {
    let dir = TempDir::new("all");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let st = std::process::Command::new("bash")
        .arg(root.join("scripts/make-sample-data.sh"))
        .arg(&dir.0)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("bash");
    assert!(st.success(), "scripts/make-sample-data.sh failed");
    let printed = table::table(&dir.0, SEG).unwrap();
    let (main, tb) = doc_rows(&doc());
    let (pmain, ptb) = doc_rows(&printed);
    assert_eq!(pmain, main);
    assert_eq!(ptb, tb);
}
