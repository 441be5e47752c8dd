//! The search shard file against corruption.

use super::*;
use crate::ctx::{Ctx, Job};
use crate::search::{Objective, Query};
use crate::units::MemoryBudget;

/// A shard file with any single byte changed, cut short or with a byte
/// doubled is refused in one line (every position, several bytes each).
#[test]
fn a_shard_file_with_any_byte_changed_is_refused() {
    let query = Query {
        width: 8,
        lengths: vec![20],
        bers: vec![1e-5],
        min_hd: 0,
        top: 2,
        objective: Objective::Hd,
    };
    let job = SearchJob::all(query, Some("1/2".parse().unwrap())).unwrap();
    let ctx = Ctx::new(MemoryBudget::bytes(1e9).unwrap());
    let text = job.run(&ctx).unwrap().file.unwrap().to_text().unwrap();
    assert!(ShardFile::from_text(&text, "f").is_ok());
    let bytes = text.as_bytes();
    let mut tried = 0;
    for i in 0..bytes.len() {
        let mut edits: Vec<Vec<u8>> = [1u8, 2, 0x20, 0x80]
            .iter()
            .map(|d| bytes[i] ^ d)
            .chain([b'0', b'9', b' ', b'"', b'E', b'X'])
            .filter(|&r| r != bytes[i])
            .map(|r| {
                let mut b = bytes.to_vec();
                b[i] = r;
                b
            })
            .collect();
        edits.push(bytes[..i].to_vec());
        let mut doubled = bytes.to_vec();
        doubled.insert(i, bytes[i]);
        edits.push(doubled);
        for b in edits {
            let Ok(s) = String::from_utf8(b) else {
                continue;
            };
            tried += 1;
            let e = ShardFile::from_text(&s, "f").expect_err(&format!("byte {i} edited: {s}"));
            assert!(!e.to_string().contains('\n'), "{e}");
        }
    }
    assert!(tried > 8 * bytes.len());
}
