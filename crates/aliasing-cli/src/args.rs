//! Argument parsing shared by the subcommands: BER lists, payloads, shards.

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
        out.push(aliasing_core::units::Ber::new(p)?.get());
    }
    Ok(out)
}

/// Parses `--shard I/N` (1-based, `1 <= I <= N`: the `FromStr` of
/// [`Shard`](aliasing_core::shard::Shard)), for every command that splits
/// its work.
pub fn parse_shard(s: &str) -> Result<aliasing_core::shard::Shard> {
    s.parse()
        .map_err(|_| anyhow::anyhow!("--shard `{s}`: expected I/N with 1 <= I <= N"))
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

/// The captured frame of `--frame FILE` or `--frame-hex HEX`, if either is
/// given (read as [`read_payload`] reads data; messages name the frame options).
pub fn read_frame(file: Option<&Path>, hex: Option<&str>) -> Result<Option<Vec<u8>>> {
    read_payload(file, hex).map_err(|e| {
        let m = format!("{e:#}")
            .replace("--payload-hex", "--frame-hex")
            .replace("payload file", "frame file");
        anyhow::anyhow!(m)
    })
}

/// Renders `doc` to `path` (SVG or PNG by extension) when `--plot` was given.
pub fn plot<D: aliasing_core::document::Document>(path: Option<&Path>, doc: &D) -> Result<()> {
    if let Some(p) = path {
        let doc = serde_json::to_value(aliasing_core::document::Tagged::new(doc))?;
        aliasing_plot::render(&doc, p).with_context(|| format!("cannot plot {}", p.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Any text: BERs in [0, 1], or one line; never a panic.
        #[test]
        fn ber_lists_never_panic(s in "[0-9e.,+-]{0,16}|\\PC{0,12}") {
            match parse_bers(&s) {
                Ok(v) => proptest::prop_assert!(v.iter().all(|p| (0.0..=1.0).contains(p))),
                Err(e) => {
                    let m = format!("{e:#}");
                    proptest::prop_assert!(!m.contains('\n') || s.contains('\n'), "{}", m);
                }
            }
        }

        /// BERs printed in exponent or plain form read back bit for bit,
        /// down to the smallest normal number.
        #[test]
        fn ber_lists_round_trip(v in proptest::collection::vec(0.0f64..=1.0, 1..5), tiny in -307i32..0) {
            let mut v = v;
            v.push(10f64.powi(tiny));
            let exp: Vec<String> = v.iter().map(|p| format!("{p:e}")).collect();
            proptest::prop_assert_eq!(parse_bers(&exp.join(",")).unwrap(), v.clone());
            let plain: Vec<String> = v.iter().map(|p| format!("{p}")).collect();
            proptest::prop_assert_eq!(parse_bers(&plain.join(" , ")).unwrap(), v);
        }

        /// Hex payloads: the bytes printed read back; odd or non-hex text is refused.
        #[test]
        fn hex_payloads(b in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..32), s in "\\PC{0,12}") {
            let hex: String = b.iter().map(|x| format!("{x:02x} ")).collect();
            proptest::prop_assert_eq!(parse_hex(&format!("0x{hex}")).unwrap(), b);
            let _ = parse_hex(&s);
        }
    }
}
