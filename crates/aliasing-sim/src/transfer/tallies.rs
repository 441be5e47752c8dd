//! What `alias transfer` keeps between calls ([`Tallies`]): per frame
//! length, the BER-independent tallies and dual weights.

use super::*;

/// The BER-independent part of one frame length: the CRC codeword tally
/// (enumeration, and the draws once some BER needed them) and the CRC's
/// dual weight distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptFrame {
    /// Frame length in bytes.
    pub bytes: u64,
    /// The tally of the plan's items.
    pub tally: FrameTally,
    /// The CRC's dual weights at this length.
    pub dual: DualWeights,
}

/// What [`report_with`] keeps between calls: per frame length of one stack
/// and one set of options, everything that does not depend on the BER, the
/// size or the hops. A file of it (`--tallies`) makes the next question at
/// other BERs a matter of a second.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tallies {
    /// [`TALLIES_FORMAT`].
    pub format: String,
    /// The stack.
    pub stack: String,
    /// Highest weight enumerated.
    pub max_weight: u32,
    /// Draws of the next weight.
    pub samples: u64,
    /// Seed of the draws.
    pub seed: u64,
    /// The frame lengths kept so far.
    pub frames: Vec<KeptFrame>,
}

/// The largest tallies file read: 256 MiB (a length keeps about 1 MB).
pub const MAX_TALLIES_BYTES: u64 = 256 << 20;

impl Tallies {
    /// Nothing kept yet, for the stack and options of `params`.
    pub fn new(params: &TransferParams) -> Self {
        Tallies {
            format: TALLIES_FORMAT.into(),
            stack: params.stack.clone(),
            max_weight: params.max_weight,
            samples: params.samples,
            seed: params.seed,
            frames: Vec::new(),
        }
    }

    /// Reads a tallies file (at most [`MAX_TALLIES_BYTES`]; special files
    /// refused), checking its format.
    pub fn read(path: &std::path::Path) -> Result<Self> {
        let bytes = crate::shard::read_bounded(
            path,
            MAX_TALLIES_BYTES,
            "tallies file",
            "bytes a tallies file may hold",
        )?;
        let bad = |why: String| {
            Error::Invalid(format!(
                "tallies file {} is not an `alias transfer` tallies file: {why}",
                path.display()
            ))
        };
        let t: Tallies = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
        if t.format != TALLIES_FORMAT {
            return Err(bad(format!("its format is `{}`", t.format)));
        }
        Ok(t)
    }

    /// The tallies kept in the file at `path` for `params` (read, and
    /// refused when kept for another stack or other options), or nothing
    /// kept yet where there is no file.
    pub fn kept_at(path: &std::path::Path, params: &TransferParams) -> Result<Self> {
        if !path.exists() {
            return Ok(Tallies::new(params));
        }
        let t = Tallies::read(path)?;
        t.check(params)?;
        Ok(t)
    }

    /// The file's text (JSON).
    pub fn to_text(&self) -> Result<String> {
        serde_json::to_string(self)
            .map(|s| s + "\n")
            .map_err(|e| Error::Invalid(format!("cannot write the tallies: {e}")))
    }

    /// Refuses tallies kept for another stack or other options.
    pub fn check(&self, params: &TransferParams) -> Result<()> {
        let want = Tallies::new(params);
        let what = |a: &str, b: &str| {
            Err(Error::Invalid(format!(
                "the tallies file was kept for {a}, this request is for {b}: give another file"
            )))
        };
        if self.stack != want.stack {
            return what(
                &format!("stack `{}`", self.stack),
                &format!("stack `{}`", want.stack),
            );
        }
        let opts = |t: &Tallies| {
            format!(
                "--max-weight {} --samples {} --seed {}",
                t.max_weight, t.samples, t.seed
            )
        };
        if opts(self) != opts(&want) {
            return what(&opts(self), &opts(&want));
        }
        Ok(())
    }

    pub(super) fn get(&self, bytes: u64) -> Option<&KeptFrame> {
        self.frames.iter().find(|f| f.bytes == bytes)
    }
}
