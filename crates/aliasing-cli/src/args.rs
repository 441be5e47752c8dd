//! Argument parsing shared by the subcommands: BER lists and payloads.

use anyhow::{Context, Result, bail};
use std::path::Path;

/// Parses a comma-separated list of bit error rates, each in [0, 1].
pub fn parse_bers(spec: &str) -> Result<Vec<f64>> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim) {
        if item.is_empty() {
            bail!("invalid bit error rate list `{spec}`: empty item");
        }
        let p: f64 = item
            .parse()
            .with_context(|| format!("bit error rate `{item}` is not a number"))?;
        let mantissa = item.split(['e', 'E']).next().unwrap_or("");
        if p == 0.0 && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            bail!("bit error rate `{item}` underflows to 0 (the smallest is about 2.2e-308)");
        }
        if p > 0.0 && p < f64::MIN_POSITIVE {
            bail!("bit error rate `{item}` is below the smallest normal number, 2.2e-308");
        }
        out.push(aliasing_core::bsc::check_ber(p)?);
    }
    Ok(out)
}

/// Refuses, before any work, output paths that cannot be written: a folder
/// that does not exist, or a path that is itself a folder. `None` passes.
pub fn check_outputs(paths: &[Option<&Path>]) -> Result<()> {
    for p in paths.iter().flatten() {
        if p.is_dir() {
            bail!("cannot write {}: it is a folder", p.display());
        }
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty())
            && !dir.is_dir()
        {
            bail!(
                "cannot write {}: the folder {} does not exist",
                p.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// Parses hex digits, ignoring whitespace and an optional `0x`.
pub fn parse_hex(s: &str) -> Result<Vec<u8>> {
    let digits: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let digits: &[char] = match digits.as_slice() {
        ['0', 'x' | 'X', rest @ ..] => rest,
        d => d,
    };
    if digits.is_empty() || !digits.len().is_multiple_of(2) {
        bail!("--payload-hex needs a non-empty, even number of hex digits");
    }
    digits
        .chunks(2)
        .map(|c| {
            let t: String = c.iter().collect();
            u8::from_str_radix(&t, 16)
                .map_err(|_| anyhow::anyhow!("`{t}` in --payload-hex is not hex"))
        })
        .collect()
}

/// The payload of `--payload FILE` or `--payload-hex HEX`, if either is given.
pub fn read_payload(file: Option<&Path>, hex: Option<&str>) -> Result<Option<Vec<u8>>> {
    match (file, hex) {
        (Some(f), _) => {
            let d = std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?;
            if d.is_empty() {
                bail!("payload file {} is empty", f.display());
            }
            Ok(Some(d))
        }
        (None, Some(h)) => Ok(Some(parse_hex(h)?)),
        (None, None) => Ok(None),
    }
}

/// Renders `doc` to `path` (SVG or PNG by extension) when `--plot` was given.
pub fn plot<D: aliasing_core::document::Document>(path: Option<&Path>, doc: &D) -> Result<()> {
    if let Some(p) = path {
        let doc = serde_json::to_value(aliasing_core::document::Tagged::new(doc))?;
        aliasing_plot::render(&doc, p).with_context(|| format!("cannot plot {}", p.display()))?;
    }
    Ok(())
}
