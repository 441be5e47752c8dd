//! Argument parsing shared by the subcommands: BER lists, payloads, shards.

use aliasing_core::ctx::Ctx;
use aliasing_core::units::MemoryBudget;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// Parses a comma-separated list of bit error rates, each in [0, 1]
/// ([`aliasing_core::parse::bers`]).
pub fn parse_bers(spec: &str) -> Result<Vec<f64>> {
    Ok(aliasing_core::parse::bers(spec)?)
}

/// The clap value parser of every `--ber` list: the text if [`parse_bers`]
/// accepts it (so a bad list is refused when the arguments are parsed, with
/// the same message in every command), else that message.
pub fn ber_list(s: &str) -> std::result::Result<String, String> {
    parse_bers(s)
        .map(|_| s.to_string())
        .map_err(|e| format!("{e:#}"))
}

/// The clap value parser of a single `--ber` (`alias simulate`): one
/// bit error rate, parsed as each item of [`parse_bers`] is, as a
/// validated [`Ber`](aliasing_core::units::Ber).
pub fn one_ber(s: &str) -> std::result::Result<aliasing_core::units::Ber, String> {
    if s.contains(',') {
        return Err(format!("`{s}`: one bit error rate here, not a list"));
    }
    let v = parse_bers(s).map_err(|e| format!("{e:#}"))?;
    aliasing_core::units::Ber::new(v[0]).map_err(|e| e.to_string())
}

/// The clap value parser of every `--burst` and `--proposal`: the text if
/// it is a valid Gilbert-Elliott channel `PG,PB,G2B,B2G` (the one parser,
/// [`GilbertElliott`](aliasing_core::channel::GilbertElliott)'s `FromStr`),
/// else its message.
pub fn burst_spec(s: &str) -> std::result::Result<String, String> {
    s.parse::<aliasing_core::channel::GilbertElliott>()
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// The context of a run: the memory budget of `--memory` if given, else
/// the environment's (read here, once per run), watched by nothing (set
/// a bar with [`Ctx::with_progress`]), every core, no team.
pub fn context(memory: Option<&str>) -> Result<Ctx<'static>> {
    let budget = match memory {
        Some(m) => MemoryBudget::parse(m).with_context(|| {
            format!("--memory `{m}` is not a byte count (e.g. 8G, 512M, 1000000)")
        })?,
        None => MemoryBudget::from_env()?,
    };
    Ok(Ctx::new(budget))
}

/// Parses `--shard I/N` (1-based, `1 <= I <= N`: the `FromStr` of
/// [`Shard`](aliasing_core::shard::Shard)), for every command that splits
/// its work.
pub fn parse_shard(s: &str) -> Result<aliasing_core::shard::Shard> {
    s.parse()
        .map_err(|_| anyhow::anyhow!("--shard `{s}`: expected I/N with 1 <= I <= N"))
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

/// The payload of `--payload FILE` or `--payload-hex HEX`, if either is
/// given. The file is the frame, so it holds at most the longest length a
/// command accepts ([`crate::lengths::MAX_LENGTH`] bits); special files
/// (`/dev/zero`, FIFOs) and longer files are refused before any read
/// ([`aliasing_sim::spec::read_payload_file`], shared with `simulate`).
pub fn read_payload(file: Option<&Path>, hex: Option<&str>) -> Result<Option<Vec<u8>>> {
    match (file, hex) {
        (Some(f), _) => Ok(Some(aliasing_sim::spec::read_payload_file(
            f,
            crate::lengths::MAX_LENGTH / 8,
        )?)),
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
pub fn plot<D: aliasing_plot::Plot + ?Sized>(path: Option<&Path>, doc: &D) -> Result<()> {
    if let Some(p) = path {
        aliasing_plot::render(doc, p).with_context(|| format!("cannot plot {}", p.display()))?;
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
