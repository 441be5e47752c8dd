//! Length lists, counts and sizes: the one syntax of every command, in
//! [`aliasing_core::parse`] (re-exported here under the names the commands
//! use).

pub use aliasing_core::parse::{MAX_LENGTH, count};

/// Parses a length list ([`aliasing_core::parse::lengths`]).
pub fn parse_lengths(spec: &str) -> anyhow::Result<Vec<u64>> {
    Ok(aliasing_core::parse::lengths(spec)?)
}

/// The lengths of `--bits`, or of `--bytes` in bits (one of them is given).
pub fn bits_or_bytes(bits: Option<&str>, bytes: Option<&str>) -> anyhow::Result<Vec<u64>> {
    Ok(match (bits, bytes) {
        (Some(b), _) => aliasing_core::parse::lengths(b)?,
        (None, b) => aliasing_core::parse::byte_lengths(b.unwrap_or_default())?,
    })
}

/// Parses a transfer size (`--size`) exactly, in bytes
/// ([`aliasing_core::parse::size`]; the message names the option).
pub fn parse_size(s: &str) -> anyhow::Result<u128> {
    aliasing_core::parse::size(s).map_err(|e| anyhow::anyhow!("--{e}"))
}
