//! Shards, checkpoints and merging, for any long computation whose work is a
//! list of items fixed by its parameters.
//!
//! A computation is cut into `items` work items (chunks of frames, strata
//! chunks of the rare-event sampler, codeword shapes, generator ranges...),
//! the list fixed by the parameters alone. Each item yields a [`Tally`]:
//! integer counts whose sum is exact and does not depend on order. Shard `i`
//! of `n` (1-based, an [`aliasing_core::shard::Shard`]) takes every `n`-th
//! item from `i - 1` ([`Shard::strided_item`]); an MPI rank, a
//! thread or a resumed run takes whichever items it is given. Because tallies
//! add exactly, every split gives the same total, bit for bit.
//!
//! [`drive`] runs a shard's items in parallel batches (rayon), reports
//! progress, and calls a checkpoint callback between batches; the items done
//! are always a prefix of the shard's list, so a checkpoint is just a count
//! and a tally. With a [`Team`] (MPI ranks, see the `mpi` feature) each batch
//! is spread over the team's members and reduced at member 0.
//!
//! [`ShardFile`] is the file of a shard or checkpoint: its kind, the
//! parameters, a hash of them, the shard, how far it got and its tally,
//! wrapped with a checksum of the whole body:
//! `{"checksum": "<fnv1a64 hex>", "body": {...}}`. Files are written
//! atomically (a temporary file renamed over the old), so a killed run never leaves a
//! half-written file. [`merge`] refuses, with one line, files of another kind,
//! other parameters, unfinished shards, a shard given twice or missing.
//!
//! ```
//! use aliasing_core::shard::Shard;
//! use aliasing_sim::shard::{drive, merge, Drive, Checkpoint, ShardFile};
//! // a toy computation: the sum of 0..1000 cut into 10 items of 100
//! let work = |item: u64| (item * 100..(item + 1) * 100).sum::<u64>();
//! let whole = drive(10, Shard::WHOLE, Checkpoint::start(0), &Drive::default(), work).unwrap();
//! let files: Vec<_> = (1..=3)
//!     .map(|i| {
//!         let s = Shard::new(i, 3).unwrap();
//!         let t = drive(10, s, Checkpoint::start(0), &Drive::default(), work).unwrap();
//!         (format!("s{i}"), ShardFile::finished("toy", "params".to_string(), s, 10, t))
//!     })
//!     .collect();
//! let (_, total) = merge(&files).unwrap();
//! assert_eq!(total, whole);
//! assert_eq!(whole, 499_500);
//! ```

use aliasing_core::shard::Shard;
use aliasing_core::{Error, Result};
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{Duration, Instant};

/// Integer tallies of part of a computation. `add` must be exact and
/// order-independent (integer sums), so every split gives the same total.
pub trait Tally: Clone + Send + Serialize + DeserializeOwned {
    /// The tally of no work, shaped like `self` (same number of checks, strata...).
    fn empty_like(&self) -> Self;
    /// Adds `other` into `self`.
    fn add(&mut self, other: &Self);
    /// Whether `self` has the shape of `other` (a checkpoint's tally
    /// against its run's empty tally). Always, unless the kind's tallies
    /// vary in shape.
    fn fits(&self, other: &Self) -> bool {
        let _ = other;
        true
    }
}

impl Tally for u64 {
    fn empty_like(&self) -> Self {
        0
    }
    fn add(&mut self, other: &Self) {
        *self += other;
    }
}

/// Element by element (histograms, one per length or check). A shorter
/// side is taken as padded with empty tallies, so adding never panics; the
/// caller checks the shape (the parameters fix it).
impl<T: Tally> Tally for Vec<T> {
    fn empty_like(&self) -> Self {
        self.iter().map(Tally::empty_like).collect()
    }
    /// As many entries, each fitting its counterpart.
    fn fits(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.fits(b))
    }
    fn add(&mut self, other: &Self) {
        for (a, b) in self.iter_mut().zip(other) {
            a.add(b);
        }
        if other.len() > self.len() {
            self.extend(other[self.len()..].iter().cloned());
        }
    }
}

/// A `u128` counter in a file, written exactly (a number up to `u64::MAX`,
/// a decimal string above; its one home is aliasing-core's document
/// module). Use as
/// `#[serde(with = "aliasing_sim::shard::wide")]`.
pub use aliasing_core::__private::document::wide;

/// Where a shard stands: items done (always a prefix of its item list) and their tally.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint<T> {
    /// Number of this shard's items done.
    pub chunks_done: u64,
    /// Tallies of those items.
    pub counts: T,
}

impl<T> Checkpoint<T> {
    /// Nothing done yet: `zero` is the empty tally.
    pub fn start(zero: T) -> Self {
        Checkpoint {
            chunks_done: 0,
            counts: zero,
        }
    }
}

/// A checkpoint callback: saves the progress; an error stops the run.
pub type CheckpointFn<'a, T> = &'a (dyn Fn(&Checkpoint<T>) -> Result<()> + Sync);

pub use aliasing_core::shard::Team;

/// How [`drive`] runs: threads, watcher, checkpoints, team.
pub struct Drive<'a, T> {
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Told of the items done: those of the starting state at once, then
    /// each batch's (at a team's member 0 only). [`drive`] announces no
    /// stage; its caller does, with the shard's item count.
    pub progress: &'a dyn aliasing_core::progress::Progress,
    /// Called with the state at most every `checkpoint_every`; an error stops the run.
    pub on_checkpoint: Option<CheckpointFn<'a, T>>,
    /// Interval between checkpoints.
    pub checkpoint_every: Duration,
    /// Processes sharing the work (MPI), if any.
    pub team: Option<&'a dyn Team>,
}

impl<T> Default for Drive<'_, T> {
    fn default() -> Self {
        Drive {
            threads: 0,
            progress: &aliasing_core::progress::Silent,
            on_checkpoint: None,
            checkpoint_every: Duration::from_secs(5),
            team: None,
        }
    }
}

pub use aliasing_core::__private::ctx::{MAX_THREADS, pool};

/// Every item of a run in this process, on `threads` threads (0 = all
/// cores), from nothing, without checkpoints: [`drive`] for library callers
/// that want the whole result at once.
pub fn drive_all<T: Tally + Sync>(
    items: u64,
    zero: T,
    threads: usize,
    work: impl Fn(u64) -> T + Sync,
) -> Result<T> {
    let opts = Drive {
        threads,
        ..Default::default()
    };
    drive(items, Shard::WHOLE, Checkpoint::start(zero), &opts, work)
}

/// An estimate, in seconds of wall-clock time on `threads` threads (0: every
/// core), of running every item of `items` (indices into a computation's
/// work list): runs a strided sample of at most `sample` of them, never more
/// than a sixteenth of the list, in parallel, and scales the sample's time
/// by the items per sampled item. A measured cost model's estimate, for
/// announcing long runs before they start; the sample's tallies are
/// discarded. `NaN` where the list is too short to sample (under 16 items).
pub fn pilot_seconds<T: Send>(
    items: &[u64],
    sample: usize,
    threads: usize,
    work: impl Fn(u64) -> T + Sync,
) -> Result<f64> {
    let take = sample.min(items.len() / 16);
    if take == 0 {
        return Ok(f64::NAN);
    }
    let stride = items.len() / take;
    let picked: Vec<u64> = items.iter().step_by(stride).take(take).copied().collect();
    let pool = pool(threads)?;
    let t0 = Instant::now();
    pool.install(|| {
        picked.par_iter().for_each(|&i| {
            std::hint::black_box(work(i));
        })
    });
    Ok(t0.elapsed().as_secs_f64() * items.len() as f64 / picked.len() as f64)
}

/// Runs shard `shard` of a computation of `items` items, `work(item)` giving
/// each item's tally, starting from `start` (the empty tally, or a
/// checkpoint's progress). Returns the shard's total (at a team's member 0).
pub fn drive<T: Tally + Sync>(
    items: u64,
    shard: Shard,
    start: Checkpoint<T>,
    opts: &Drive<T>,
    work: impl Fn(u64) -> T + Sync,
) -> Result<T> {
    shard.checked()?;
    let total = shard.strided_len(items);
    let pool = pool(opts.threads)?;
    let threads = pool.current_num_threads() as u64;
    let (rank, size) = opts
        .team
        .map(|t| (t.rank() as u64, t.size() as u64))
        .unwrap_or((0, 1));
    let run = |range: std::ops::Range<u64>| -> Option<T> {
        pool.install(|| {
            range
                .into_par_iter()
                .map(|j| work(shard.strided_item(j)))
                .reduce_with(|mut a, b| {
                    a.add(&b);
                    a
                })
        })
    };
    let mut state = start;
    if state.chunks_done > total {
        return Err(Error::Invalid(
            "the checkpoint does not fit this run".into(),
        ));
    }
    if rank == 0 {
        opts.progress.advance(state.chunks_done);
    }
    let mut last_checkpoint = Instant::now();
    // Batches of a few items per thread and member; they grow while quick.
    let mut batch = threads * 2 * size;
    while state.chunks_done < total {
        let start = state.chunks_done;
        let end = opts.team.map_or((start + batch).min(total), |t| {
            t.broadcast((start + batch).min(total))
        });
        let t0 = Instant::now();
        // member r takes the r-th of `size` equal slices of the batch
        let len = end - start;
        let lo = start + len * rank / size;
        let hi = start + len * (rank + 1) / size;
        let part = run(lo..hi);
        match opts.team {
            None => {
                if let Some(p) = part {
                    state.counts.add(&p);
                }
            }
            Some(team) => {
                let bytes = match part.map(|p| serde_json::to_vec(&p)).transpose() {
                    Ok(b) => b.unwrap_or_default(),
                    Err(e) => {
                        // the others wait for this member's tally: stop them all
                        team.abort(2);
                        return Err(Error::Invalid(format!("cannot send a tally: {e}")));
                    }
                };
                for b in team.gather(bytes) {
                    if !b.is_empty() {
                        let p: T = serde_json::from_slice(&b).map_err(|e| {
                            Error::Invalid(format!("a rank sent an unreadable tally: {e}"))
                        })?;
                        state.counts.add(&p);
                    }
                }
            }
        }
        state.chunks_done = end;
        if t0.elapsed() < Duration::from_millis(200) {
            batch = (batch * 2).min(threads * 64 * size);
        } else if batch > threads * size {
            batch /= 2;
        }
        if rank == 0 {
            opts.progress.advance(end - start);
            if let Some(cp) = opts.on_checkpoint
                && state.chunks_done < total
                && last_checkpoint.elapsed() >= opts.checkpoint_every
            {
                cp(&state)?;
                last_checkpoint = Instant::now();
            }
        }
    }
    Ok(state.counts)
}

pub use aliasing_core::__private::shard::fnv1a64;

/// Hash identifying a parameter set (of its compact JSON form); an error
/// where the parameters cannot be written as JSON.
pub(crate) fn params_hash<P: Serialize>(params: &P) -> Result<String> {
    let text = serde_json::to_string(params)
        .map_err(|e| Error::Invalid(format!("parameters not writable as JSON: {e}")))?;
    Ok(format!("{:016x}", fnv1a64(text.as_bytes())))
}

/// The contents of a shard result or checkpoint file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardFile<P, T> {
    /// What computed it (`alias-simulate`, `alias-rare`, ...).
    pub format: String,
    /// File format version.
    pub version: u32,
    /// Parameters of the computation.
    pub params: P,
    /// Hash identifying `params` (of their compact JSON form), checked on merge.
    pub params_hash: String,
    /// Shard `i` of `n` (1-based), in files as `[i, n]`.
    #[serde(with = "aliasing_core::__private::shard::as_pair")]
    pub shard: Shard,
    /// `true` when the shard ran to the end.
    pub complete: bool,
    /// Items done and tallies.
    pub progress: Checkpoint<T>,
}

/// Version of the file format.
pub const VERSION: u32 = 2;

impl<P: Serialize + DeserializeOwned, T: Serialize + DeserializeOwned> ShardFile<P, T> {
    /// A file of kind `format` for `params`, shard `shard`.
    pub fn new(
        format: &str,
        params: P,
        shard: Shard,
        complete: bool,
        progress: Checkpoint<T>,
    ) -> Self {
        ShardFile {
            format: format.into(),
            version: VERSION,
            // parameters that cannot be written get no hash here and are
            // refused by `to_text` (which writes them)
            params_hash: params_hash(&params).unwrap_or_default(),
            params,
            shard,
            complete,
            progress,
        }
    }

    /// The file of a finished shard of a computation of `items` items.
    pub fn finished(format: &str, params: P, shard: Shard, items: u64, counts: T) -> Self {
        let done = Checkpoint {
            chunks_done: shard.strided_len(items),
            counts,
        };
        Self::new(format, params, shard, true, done)
    }

    /// Serialized text, with its checksum: the body as a JSON object with
    /// its keys sorted (every counter exact: `u128` sums through [`wide`]).
    /// An error, not a panic, for a value JSON cannot hold.
    pub fn to_text(&self) -> Result<String> {
        let bad = |e: serde_json::Error| {
            Error::Invalid(format!("cannot write a {} file: {e}", self.format))
        };
        let body = serde_json::to_value(self).map_err(bad)?;
        if params_hash(&self.params)? != self.params_hash {
            return Err(Error::Invalid(format!(
                "cannot write a {} file: its parameter hash does not match its parameters",
                self.format
            )));
        }
        let compact = serde_json::to_string(&body).map_err(bad)?;
        let wrapped = serde_json::json!({
            "checksum": format!("{:016x}", fnv1a64(compact.as_bytes())),
            "body": body,
        });
        Ok(serde_json::to_string_pretty(&wrapped).map_err(bad)? + "\n")
    }

    /// Parses and verifies text written by [`ShardFile::to_text`], of kind
    /// `format`; `what` names the file in messages.
    pub fn from_text(text: &str, format: &str, what: &str) -> Result<Self> {
        let bad = |why: &str| Error::Invalid(format!("{what} is not a valid {format} file: {why}"));
        let v: serde_json::Value = serde_json::from_str(text).map_err(|_| bad("not JSON"))?;
        let body = v.get("body").ok_or_else(|| bad("no body"))?;
        let sum = v
            .get("checksum")
            .and_then(|s| s.as_str())
            .ok_or_else(|| bad("no checksum"))?;
        let compact = serde_json::to_string(body).map_err(|_| bad("not JSON"))?;
        if format!("{:016x}", fnv1a64(compact.as_bytes())) != sum {
            return Err(bad("checksum mismatch (corrupt or edited)"));
        }
        let kind = body.get("format").and_then(|f| f.as_str()).unwrap_or("?");
        let version = body.get("version").and_then(|f| f.as_u64()).unwrap_or(0);
        if kind != format || version != VERSION as u64 {
            return Err(bad(&format!(
                "it is format {kind} version {version}, expected {format} version {VERSION}"
            )));
        }
        let f: Self = serde_json::from_value(body.clone())
            .map_err(|e| bad(&e.to_string().replace('\n', " ")))?;
        if params_hash(&f.params).ok().as_ref() != Some(&f.params_hash) {
            return Err(bad("parameter hash mismatch"));
        }
        f.shard.checked().map_err(|e| bad(&e.to_string()))?;
        // byte for byte the text alias writes: any other edit (even of
        // white space the checksum does not see) is refused
        if f.to_text().ok().as_deref() != Some(text) {
            return Err(bad("edited (not the text alias writes)"));
        }
        Ok(f)
    }

    /// Reads and verifies a file of kind `format` (a bounded read: [`read_text`]).
    pub fn read(path: &Path, format: &str) -> Result<Self> {
        let text = read_text(path)?;
        Self::from_text(&text, format, &path.display().to_string())
    }

    /// Writes the file atomically (temporary file, fsync, rename).
    pub fn write(&self, path: &Path) -> Result<()> {
        aliasing_core::__private::atomic::write(path, self.to_text()?.as_bytes())
            .map_err(|e| Error::Invalid(format!("cannot write {}: {e}", path.display())))
    }
}

/// The largest shard, checkpoint or result file read (far above any that
/// `alias` writes: a few kilobytes, or megabytes for long histograms).
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The bytes of the file at `path` (`what` names it in messages: `payload
/// file`, `file`), refusing, before reading anything, a folder, a special
/// file (FIFO, device, socket: `/dev/zero` would never end) and a file
/// longer than `max_bytes` (`holds` says what: `more than the N {holds}`).
/// The read stops after `max_bytes + 1` bytes, so a file that grows, or
/// whose size the system does not report (`/proc`), is refused too. Each
/// refusal is one line.
pub fn read_bounded(path: &Path, max_bytes: u64, what: &str, holds: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let shown = path.display();
    let cannot = |e: std::io::Error| Error::Invalid(format!("cannot read {what} {shown}: {e}"));
    let special = || {
        Error::Invalid(format!(
            "{what} {shown} is not a regular file (a device, FIFO or socket): give a file of at most {max_bytes} bytes"
        ))
    };
    let too_long = |len: String| {
        Error::Invalid(format!(
            "{what} {shown} has {len} bytes, more than the {max_bytes} {holds}"
        ))
    };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if meta.is_dir() {
        return Err(Error::Invalid(format!("{what} {shown} is a folder")));
    }
    if !meta.is_file() {
        return Err(special());
    }
    if meta.len() > max_bytes {
        return Err(too_long(meta.len().to_string()));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    // what was opened, not what the path named a moment ago
    if !file.metadata().map_err(cannot)?.is_file() {
        return Err(special());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_long("more than that".into()));
    }
    Ok(bytes)
}

/// The text of the file at `path`: [`read_bounded`] to [`MAX_FILE_BYTES`],
/// refusing what is not UTF-8.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = read_bounded(path, MAX_FILE_BYTES, "file", "a result file may have")?;
    String::from_utf8(bytes)
        .map_err(|_| Error::Invalid(format!("{} is not a text file (not UTF-8)", path.display())))
}

/// Adds complete shards `files` of one computation: same kind and
/// parameters, every shard `1..=n` exactly once. Returns the parameters and
/// the total tally (equal, bit for bit, to the unsharded run's).
pub fn merge<P: Clone, T: Tally>(files: &[(String, ShardFile<P, T>)]) -> Result<(P, T)> {
    let Some((name0, first)) = files.first() else {
        return Err(Error::Invalid("no files to merge".into()));
    };
    let n = first.shard.count;
    let mut seen = std::collections::BTreeSet::new();
    let mut total = first.progress.counts.empty_like();
    for (name, f) in files {
        if f.format != first.format {
            return Err(Error::Invalid(format!(
                "{name} is a {} file, {name0} a {} file",
                f.format, first.format
            )));
        }
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
        if f.shard.count != n || f.shard.checked().is_err() {
            return Err(Error::Invalid(format!(
                "{name} is shard {}, not one of {n}",
                f.shard
            )));
        }
        if !seen.insert(f.shard.index) {
            return Err(Error::Invalid(format!(
                "shard {}/{n} given twice ({name})",
                f.shard.index
            )));
        }
        total.add(&f.progress.counts);
    }
    if let Some(missing) = (1..=n).find(|i| !seen.contains(i)) {
        return Err(Error::Invalid(format!("shard {missing}/{n} is missing")));
    }
    Ok((first.params.clone(), total))
}
