//! Result and checkpoint files, and merging shards.
//!
//! A file holds the run's parameters, a hash of them, the shard, how far the
//! run got and its tallies, wrapped with a checksum of the whole body:
//! `{"checksum": "<fnv1a64 hex>", "body": {...}}`. Files are written to a
//! temporary name and renamed into place, so a killed run never leaves a
//! half-written file. A corrupt file, or one from other parameters or
//! another seed, is refused with a message naming the problem.

use crate::channel::Channel;
use crate::run::{Counts, Progress};
use aliasing_core::{Error, Result};
use serde::{Deserialize, Serialize};

use std::path::Path;

/// Everything a run's result depends on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Stack name.
    pub stack: String,
    /// Frame length in bytes.
    pub bytes: usize,
    /// Error model.
    pub channel: Channel,
    /// Payload description (`random`, or the fixed bytes' length and hash).
    pub payload: String,
    /// Frames in the whole run (all shards).
    pub frames: u64,
    /// Seed.
    pub seed: u64,
    /// Frames per chunk.
    pub chunk_frames: u64,
}

/// 64-bit FNV-1a hash (integrity and identity of files, not security).
pub fn fnv1a64(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

impl Params {
    /// Hash identifying the parameters.
    pub fn hash(&self) -> String {
        format!(
            "{:016x}",
            fnv1a64(
                serde_json::to_string(self)
                    .expect("serializable")
                    .as_bytes()
            )
        )
    }
}

/// The contents of a result or checkpoint file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    /// Always `alias-simulate`.
    pub format: String,
    /// File format version.
    pub version: u32,
    /// Parameters of the run.
    pub params: Params,
    /// `params.hash()`.
    pub params_hash: String,
    /// Shard `i` of `n` (1-based).
    pub shard: (u64, u64),
    /// `true` when the shard ran to the end.
    pub complete: bool,
    /// Chunks done and tallies.
    pub progress: Progress,
}

const FORMAT: &str = "alias-simulate";
const VERSION: u32 = 1;

impl RunFile {
    /// A file for `params`, shard `shard`.
    pub fn new(params: Params, shard: (u64, u64), complete: bool, progress: Progress) -> Self {
        RunFile {
            format: FORMAT.into(),
            version: VERSION,
            params_hash: params.hash(),
            params,
            shard,
            complete,
            progress,
        }
    }

    /// Serialized text, with its checksum.
    pub fn to_text(&self) -> String {
        let body = serde_json::to_value(self).expect("serializable");
        let compact = serde_json::to_string(&body).expect("serializable");
        let wrapped = serde_json::json!({
            "checksum": format!("{:016x}", fnv1a64(compact.as_bytes())),
            "body": body,
        });
        serde_json::to_string_pretty(&wrapped).expect("serializable") + "\n"
    }

    /// Parses and verifies text written by [`RunFile::to_text`].
    pub fn from_text(text: &str, what: &str) -> Result<Self> {
        let bad =
            |why: &str| Error::Invalid(format!("{what} is not a valid simulation file: {why}"));
        let v: serde_json::Value = serde_json::from_str(text).map_err(|_| bad("not JSON"))?;
        let body = v.get("body").ok_or_else(|| bad("no body"))?;
        let sum = v
            .get("checksum")
            .and_then(|s| s.as_str())
            .ok_or_else(|| bad("no checksum"))?;
        let compact = serde_json::to_string(body).expect("serializable");
        if format!("{:016x}", fnv1a64(compact.as_bytes())) != sum {
            return Err(bad("checksum mismatch (corrupt or edited)"));
        }
        let f: RunFile = serde_json::from_value(body.clone()).map_err(|e| bad(&e.to_string()))?;
        if f.format != FORMAT || f.version != VERSION {
            return Err(bad(&format!("format {} version {}", f.format, f.version)));
        }
        if f.params.hash() != f.params_hash {
            return Err(bad("parameter hash mismatch"));
        }
        Ok(f)
    }

    /// Reads and verifies a file.
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::Invalid(format!("cannot read {}: {e}", path.display())))?;
        Self::from_text(&text, &path.display().to_string())
    }

    /// Writes the file atomically (temporary file, fsync, rename).
    pub fn write(&self, path: &Path) -> Result<()> {
        aliasing_core::atomic::write(path, self.to_text().as_bytes())
            .map_err(|e| Error::Invalid(format!("cannot write {}: {e}", path.display())))
    }
}

/// Adds complete shards `files` of one run: same parameters and seed, every
/// shard `1..=n` exactly once. Returns the parameters and the total tallies.
pub fn merge(files: &[(String, RunFile)]) -> Result<(Params, Counts)> {
    let Some((name0, first)) = files.first() else {
        return Err(Error::Invalid("no files to merge".into()));
    };
    let n = first.shard.1;
    let mut seen = vec![false; n as usize];
    let mut total = Counts::zero(first.progress.counts.escapes.len());
    for (name, f) in files {
        if f.params_hash != first.params_hash {
            return Err(Error::Invalid(format!(
                "{name} comes from other parameters or another seed than {name0}"
            )));
        }
        if !f.complete {
            return Err(Error::Invalid(format!(
                "{name} is an unfinished run (a checkpoint)"
            )));
        }
        if f.shard.1 != n || f.shard.0 == 0 || f.shard.0 > n {
            return Err(Error::Invalid(format!(
                "{name} is shard {}/{}, not one of {n}",
                f.shard.0, f.shard.1
            )));
        }
        let i = (f.shard.0 - 1) as usize;
        if seen[i] {
            return Err(Error::Invalid(format!(
                "shard {}/{n} given twice ({name})",
                i + 1
            )));
        }
        seen[i] = true;
        total.add(&f.progress.counts);
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(Error::Invalid(format!(
            "shard {}/{n} is missing",
            missing + 1
        )));
    }
    Ok((first.params.clone(), total))
}

/// What the payload of a run is, as given on the command line: `random`,
/// `pattern:HEX` or `file:PATH`.
pub fn parse_payload(spec: &str) -> Result<(crate::stack::Payload, String)> {
    use crate::stack::Payload;
    let s = spec.trim();
    if s.eq_ignore_ascii_case("random") {
        return Ok((Payload::Random, "random".into()));
    }
    let bytes = if let Some(hex) = s.strip_prefix("pattern:") {
        let hex = hex.trim_start_matches("0x");
        if hex.is_empty() || hex.len() % 2 == 1 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(Error::Invalid(format!(
                "payload pattern `{hex}` is not an even number of hex digits"
            )));
        }
        (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digits"))
            .collect::<Vec<u8>>()
    } else if let Some(path) = s.strip_prefix("file:") {
        std::fs::read(path)
            .map_err(|e| Error::Invalid(format!("cannot read payload file {path}: {e}")))?
    } else {
        return Err(Error::Invalid(format!(
            "payload `{s}`: expected random, pattern:HEX or file:PATH"
        )));
    };
    if bytes.is_empty() {
        return Err(Error::Invalid("the payload is empty".into()));
    }
    let desc = format!("fixed:{}:{:016x}", bytes.len(), fnv1a64(&bytes));
    Ok((Payload::Fixed(bytes), desc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(shard: (u64, u64), seed: u64) -> RunFile {
        let params = Params {
            stack: "ethernet".into(),
            bytes: 64,
            channel: Channel::Bsc { ber: 1e-3 },
            payload: "random".into(),
            frames: 1000,
            seed,
            chunk_frames: 100,
        };
        let mut c = Counts::zero(1);
        c.frames = shard.0 * 10;
        RunFile::new(
            params,
            shard,
            true,
            Progress {
                chunks_done: 1,
                counts: c,
            },
        )
    }

    #[test]
    fn round_trip_and_corruption() {
        let f = file((1, 2), 1);
        let t = f.to_text();
        assert_eq!(RunFile::from_text(&t, "x").unwrap(), f);
        let edited = t.replace("\"frames\": 10", "\"frames\": 11");
        assert_ne!(edited, t);
        let e = RunFile::from_text(&edited, "x").unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        assert!(RunFile::from_text(&t[..t.len() / 2], "x").is_err());
    }

    #[test]
    fn merge_refuses_mismatches() {
        let a = ("a".to_string(), file((1, 2), 1));
        let b = ("b".to_string(), file((2, 2), 1));
        let (_, c) = merge(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(c.frames, 30);
        assert!(
            merge(&[a.clone(), ("c".into(), file((2, 2), 2))])
                .unwrap_err()
                .to_string()
                .contains("another seed")
        );
        assert!(
            merge(&[a.clone(), a.clone()])
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
        assert!(
            merge(std::slice::from_ref(&a))
                .unwrap_err()
                .to_string()
                .contains("missing")
        );
        let mut unfinished = b.clone();
        unfinished.1.complete = false;
        assert!(merge(&[a, unfinished]).is_err());
    }
}
