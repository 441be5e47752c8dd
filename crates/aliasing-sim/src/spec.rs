//! What a simulation is, as data: the payload spec (parsed here, once) and
//! the parameter set every result depends on ([`Params`]), which builds the
//! [`Plan`] and is stored in shard and checkpoint files.
//!
//! ```
//! use aliasing_sim::channel::Channel;
//! use aliasing_sim::spec::{Params, PayloadSpec};
//! use aliasing_sim::{Frames, Seed};
//! let payload = PayloadSpec::parse("pattern:48656c6c6f").unwrap();
//! let p = Params::new("ethernet-tcp", 1518, Channel::Bsc { ber: 1e-4 }, payload, Frames(2_000_000), Seed(7));
//! let plan = p.plan().unwrap();
//! assert_eq!(plan.frame.checks.len(), 3);
//! // the parameters (payload bytes included) survive a file round trip
//! let back: Params = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
//! assert_eq!(back, p);
//! ```

use crate::channel::Channel;
use crate::run::{DEFAULT_CHUNK_FRAMES, Frames, Plan, Seed};
use crate::stack::{Frame, Payload};
use aliasing_core::{Error, Result};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The payload of every frame: fresh random bytes, or the same bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayloadSpec {
    /// Fresh random bytes in every frame.
    Random,
    /// These bytes, repeated (or truncated) to the payload length.
    Fixed(Vec<u8>),
}

impl PayloadSpec {
    /// Parses `random`, `pattern:HEX` (an optional `0x` prefix) or `file:PATH`
    /// (the file's bytes: a regular file of at most [`MAX_PAYLOAD_BYTES`],
    /// read by [`read_payload_file`]).
    pub fn parse(spec: &str) -> Result<Self> {
        let s = spec.trim();
        if s.eq_ignore_ascii_case("random") {
            return Ok(PayloadSpec::Random);
        }
        let bytes = if let Some(hex) = s.strip_prefix("pattern:") {
            parse_hex(hex.trim_start_matches("0x"))?
        } else if let Some(path) = s.strip_prefix("file:") {
            read_payload_file(std::path::Path::new(path), MAX_PAYLOAD_BYTES)?
        } else {
            return Err(Error::Invalid(format!(
                "payload `{s}`: expected random, pattern:HEX or file:PATH"
            )));
        };
        if bytes.is_empty() {
            return Err(Error::Invalid("the payload is empty".into()));
        }
        Ok(PayloadSpec::Fixed(bytes))
    }

    /// The frame's payload.
    pub fn payload(&self) -> Payload {
        match self {
            PayloadSpec::Random => Payload::Random,
            PayloadSpec::Fixed(b) => Payload::Fixed(b.clone()),
        }
    }

    /// The same payload for frames of `bytes` bytes, without bytes past the
    /// frame's end (which no frame reads).
    fn fitted(self, bytes: usize) -> Self {
        match self {
            PayloadSpec::Fixed(mut b) if b.len() > bytes => {
                b.truncate(bytes.max(1));
                PayloadSpec::Fixed(b)
            }
            p => p,
        }
    }
}

/// The longest payload a simulated frame can hold: the longest frame
/// ([`Frame::new`] refuses more than 1 MiB).
pub const MAX_PAYLOAD_BYTES: u64 = 1 << 20;

/// The bytes of the payload file at `path`, refusing before reading
/// anything what cannot be a payload of at most `max_bytes` bytes: a folder,
/// a special file (FIFO, character or block device, socket: `/dev/zero`
/// would never end), a file longer than `max_bytes` or empty. The read
/// itself stops after `max_bytes + 1` bytes, so a file that grows (or a
/// file whose size the system does not report, as under `/proc`) is refused
/// too. Every command that reads a payload file calls this; each refusal is
/// one line. ([`crate::shard::read_bounded`] with the payload's words.)
pub fn read_payload_file(path: &std::path::Path, max_bytes: u64) -> Result<Vec<u8>> {
    let bytes = crate::shard::read_bounded(path, max_bytes, "payload file", "a frame can hold")?;
    if bytes.is_empty() {
        return Err(Error::Invalid(format!(
            "payload file {} is empty",
            path.display()
        )));
    }
    Ok(bytes)
}

fn parse_hex(hex: &str) -> Result<Vec<u8>> {
    if hex.is_empty() || !hex.len().is_multiple_of(2) || !hex.chars().all(|c| c.is_ascii_hexdigit())
    {
        return Err(Error::Invalid(format!(
            "payload pattern `{hex}` is not an even number of hex digits"
        )));
    }
    Ok((0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digits"))
        .collect())
}

/// In files: `random` or `bytes:HEX`.
impl Serialize for PayloadSpec {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            PayloadSpec::Random => s.serialize_str("random"),
            PayloadSpec::Fixed(b) => {
                let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
                s.serialize_str(&format!("bytes:{hex}"))
            }
        }
    }
}

impl<'de> Deserialize<'de> for PayloadSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s == "random" {
            return Ok(PayloadSpec::Random);
        }
        let hex = s
            .strip_prefix("bytes:")
            .ok_or_else(|| serde::de::Error::custom(format!("payload `{s}`")))?;
        parse_hex(hex)
            .map(PayloadSpec::Fixed)
            .map_err(serde::de::Error::custom)
    }
}

/// Everything a simulation's result depends on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Stack name.
    pub stack: String,
    /// Frame length in bytes.
    pub bytes: usize,
    /// Error model.
    pub channel: Channel,
    /// The payload (its bytes, when fixed).
    pub payload: PayloadSpec,
    /// Frames in the whole run (all shards).
    pub frames: u64,
    /// Seed.
    pub seed: u64,
    /// Frames per chunk.
    pub chunk_frames: u64,
}

impl Params {
    /// A parameter set with the default chunk size (`frames, seed` in the
    /// order of [`Plan::new`], each its own type).
    pub fn new(
        stack: &str,
        bytes: usize,
        channel: Channel,
        payload: PayloadSpec,
        frames: Frames,
        seed: Seed,
    ) -> Self {
        let (Frames(frames), Seed(seed)) = (frames, seed);
        Params {
            stack: stack.trim().to_string(),
            bytes,
            channel,
            payload: payload.fitted(bytes),
            frames,
            seed,
            chunk_frames: DEFAULT_CHUNK_FRAMES,
        }
    }

    /// The plan (frame layout with its payload, channel, chunks), validated.
    pub fn plan(&self) -> Result<Plan> {
        let frame = Frame::new(&self.stack, self.bytes, self.payload.payload())?;
        let mut plan = Plan::new(frame, self.channel, Frames(self.frames), Seed(self.seed));
        plan.chunk_frames = self.chunk_frames;
        plan.validate()?;
        Ok(plan)
    }

    /// Hash identifying the parameters (an error only for parameters JSON
    /// cannot hold, which no constructor makes).
    pub fn hash(&self) -> Result<String> {
        crate::shard::params_hash(self)
    }

    /// The first field in which `other` differs, as `name: A here, B there`
    /// (`None` when they are the same).
    pub fn difference(&self, other: &Params, here: &str, there: &str) -> Option<String> {
        let (Ok(a), Ok(b)) = (serde_json::to_value(self), serde_json::to_value(other)) else {
            return (self != other).then(|| "parameters that cannot be compared".to_string());
        };
        let (a, b) = (a.as_object()?, b.as_object()?);
        for (k, va) in a {
            let vb = b.get(k)?;
            if va != vb {
                return Some(format!("{k}: {va} {here}, {vb} {there}"));
            }
        }
        None
    }
}
