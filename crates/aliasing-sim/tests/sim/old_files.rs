//! Shard and checkpoint files written before the shard became one type
//! (`aliasing_core::shard::Shard`; the simulator had a pair `(i, n)`) still
//! load, byte for byte: the fixtures were written by `alias simulate
//! --shard I/N --out` and `--checkpoint` of that code (`crc8`, 8 bytes,
//! seed 5, BER 1e-2), and the checkpoint was cut short by killing the run.

use aliasing_core::shard::Shard;
use aliasing_sim::run::RunOptions;
use aliasing_sim::session::{self, Given, RunFile, Session};
use aliasing_sim::shard::merge;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn load(name: &str) -> (String, RunFile) {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    let f = RunFile::from_text(&text, session::FORMAT, name).unwrap();
    // from_text accepts only the text this code writes: the same bytes
    assert_eq!(f.to_text().unwrap(), text, "{name}");
    assert!(text.contains("\"shard\": [\n"), "{name}: the pair form");
    (name.to_string(), f)
}

#[test]
fn old_shard_files_load_and_merge_to_the_single_run() {
    let files = vec![
        load("simulate-shard-1of2.json"),
        load("simulate-shard-2of2.json"),
    ];
    assert_eq!(files[0].1.shard, Shard::new(1, 2).unwrap());
    assert_eq!(files[1].1.shard, Shard::new(2, 2).unwrap());
    let (params, total) = merge(&files).unwrap();
    let whole = Session::new(params, Shard::WHOLE)
        .unwrap()
        .run(RunOptions::default())
        .unwrap();
    assert_eq!(total, whole);
}

#[test]
fn an_old_checkpoint_loads_and_resumes_its_shard() {
    let (_, f) = load("simulate-checkpoint-2of3.json");
    assert!(!f.complete);
    assert_eq!(f.shard, Shard::new(2, 3).unwrap());
    assert_eq!(f.progress.chunks_done, 574);
    // --resume reads it: the session is that shard (not run here: the
    // rest of its 1e9 frames)
    let s = <Session>::resume(
        &fixture("simulate-checkpoint-2of3.json"),
        &Given::default(),
        Some(Shard::new(2, 3).unwrap()),
    )
    .unwrap();
    assert_eq!(s.shard, Shard::new(2, 3).unwrap());
    let e = <Session>::resume(
        &fixture("simulate-checkpoint-2of3.json"),
        &Given::default(),
        Some(Shard::new(1, 3).unwrap()),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("is for shard 2/3, not 1/3"), "{e}");
}
