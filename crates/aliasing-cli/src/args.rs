//! Argument parsing shared by the subcommands: BER lists, payloads, shards.

use aliasing_core::channel::GilbertElliott;
use aliasing_core::ctx::Ctx;
use aliasing_core::job::GivenBytes;
use aliasing_core::units::MemoryBudget;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// Parses a comma-separated list of bit error rates, each in [0, 1]
/// ([`aliasing_core::parse::bers`]).
pub fn parse_bers(spec: &str) -> Result<Vec<f64>> {
    Ok(aliasing_core::parse::bers(spec)?)
}

/// The lengths of `--bits`, or of `--bytes` in bits (one of them is given;
/// the one syntax of [`aliasing_core::parse::lengths`]).
pub fn bits_or_bytes(bits: Option<&str>, bytes: Option<&str>) -> Result<Vec<u64>> {
    Ok(match (bits, bytes) {
        (Some(b), _) => aliasing_core::parse::lengths(b)?,
        (None, b) => aliasing_core::parse::byte_lengths(b.unwrap_or_default())?,
    })
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

/// The clap value parser of every `--burst` and `--proposal`: a
/// Gilbert-Elliott channel `PG,PB,G2B,B2G` (the one parser,
/// [`GilbertElliott`]'s `FromStr`), else its message.
pub fn burst(s: &str) -> std::result::Result<GilbertElliott, String> {
    s.parse().map_err(|e: aliasing_core::Error| e.to_string())
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

/// Given bytes instead of random data (`alias curve`, `alias compare`):
/// the data before the check field, or a captured frame.
#[derive(clap::Args)]
pub struct Given {
    /// Given data from FILE: the bytes a sender puts before the check field,
    /// which is computed from them as in `alias simulate --payload
    /// pattern:HEX` (the Internet checksum over the frame's actual bits; CRCs
    /// do not depend on the data); each length is a whole frame, the data
    /// repeated or cut to fill it, default the data plus the field.
    #[arg(long, conflicts_with_all = ["payload_hex", "frame", "frame_hex"])]
    pub payload: Option<PathBuf>,
    /// The data as hex digits (spaces allowed), instead of --payload.
    #[arg(long, conflicts_with_all = ["frame", "frame_hex"])]
    pub payload_hex: Option<String>,
    /// A whole frame from FILE as captured from a wire, its check field in
    /// place (verified under each check; a frame that does not verify is
    /// refused).
    #[arg(long, conflicts_with = "frame_hex")]
    pub frame: Option<PathBuf>,
    /// The captured frame as hex digits (spaces allowed), instead of --frame.
    #[arg(long)]
    pub frame_hex: Option<String>,
}

impl Given {
    /// The given data or frame, read (bounded) and checked, if any.
    pub fn read(&self) -> Result<Option<GivenBytes>> {
        let data = read_bytes(
            "payload",
            self.payload.as_deref(),
            self.payload_hex.as_deref(),
        )?;
        let frame = read_bytes("frame", self.frame.as_deref(), self.frame_hex.as_deref())?;
        Ok(match (data, frame) {
            (Some(d), _) => Some(GivenBytes::Data(d)),
            (None, f) => f.map(GivenBytes::Frame),
        })
    }
}

/// The bytes of `--payload FILE` or `--payload-hex HEX` (`what` =
/// `payload`), or of `--frame`/`--frame-hex` (`frame`: a captured frame), if
/// either is given. A file holds at most the longest length a command
/// accepts ([`aliasing_core::parse::MAX_LENGTH`] bits); special files (`/dev/zero`,
/// FIFOs) and longer files are refused before any read
/// ([`aliasing_sim::spec::read_payload_file`], shared with `simulate`).
fn read_bytes(what: &str, file: Option<&Path>, hex: Option<&str>) -> Result<Option<Vec<u8>>> {
    let bytes = match (file, hex) {
        (Some(f), _) => {
            aliasing_sim::spec::read_payload_file(f, aliasing_core::parse::MAX_LENGTH / 8)
        }
        (None, Some(h)) => aliasing_core::parse::hex(h),
        (None, None) => return Ok(None),
    };
    let flag = if file.is_some() { "" } else { "-hex" };
    match bytes {
        Ok(b) => Ok(Some(b)),
        Err(e) if what == "payload" && file.is_some() => Err(e.into()),
        Err(e) if file.is_some() => {
            bail!("{}", e.to_string().replace("payload file", "frame file"))
        }
        Err(e) => bail!("--{what}{flag}: {e}"),
    }
}

/// Renders `doc` to `path` (SVG or PNG by extension) when `--plot` was given.
pub fn plot<D: aliasing_plot::Plot + ?Sized>(path: Option<&Path>, doc: &D) -> Result<()> {
    if let Some(p) = path {
        aliasing_plot::render(doc, p).with_context(|| format!("cannot plot {}", p.display()))?;
    }
    Ok(())
}
