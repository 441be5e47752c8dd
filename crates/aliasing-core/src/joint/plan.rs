//! The joint computation of one frame cut into work items fixed by the
//! frame and the options alone, each giving exact integer tallies, so that
//! threads, shards or machines can share it and any split adds up to the
//! same result bit for bit.
//!
//! Items, in order: the parts of every enumerated weight's codeword shapes
//! ([`crate::lowweight::ShapeParts`]), then the chunks of draws of the
//! sampled next weight. A shape part tallies its codewords and the sum of
//! their pass probabilities in units of `1 / PASS_SCALE` (exact integers,
//! see [`JointModel::pass_count`]); a sample chunk tallies the integer sums
//! of its ratio estimator. [`JointStack::from_tally`] turns a frame's total
//! into terms and the bracket.
//!
//! ```
//! use aliasing_core::__private::joint::JointPlan;
//! use aliasing_core::ctx::Ctx;
//! use aliasing_core::joint::{JointOptions, JointStack};
//! use aliasing_core::layout::{Frame, Payload};
//! let f = Frame::new("ipv4-tcp+CRC-16/ARC", 120, Payload::Random).unwrap();
//! let opts = JointOptions::new(4, 2048, 1).unwrap();
//! let plan = JointPlan::new(&f, &opts).unwrap();
//! // every item on its own, added in reverse: the same as in order
//! let mut a = plan.empty_tally();
//! let mut b = plan.empty_tally();
//! for i in 0..plan.items() {
//!     a.add(&plan.run(i));
//!     b.add(&plan.run(plan.items() - 1 - i));
//! }
//! assert_eq!(a, b);
//! let ctx = Ctx::default();
//! let st = JointStack::from_tally(&plan, &a, &ctx).unwrap();
//! let plain = JointStack::new(&f, &JointOptions::new(4, 0, 1).unwrap(), &ctx).unwrap();
//! assert_eq!(st.terms, plain.terms);
//! ```

use super::{JointModel, JointOptions, PASS_SCALE, SplitMix, Term};
use crate::error::{Error, Limit, Param, Result};
use crate::layout::Frame;
use crate::lowweight::zech::{self, Logs};
use crate::lowweight::{self, ShapeParts, Table};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Draws per sample chunk (each chunk has its own stream from `(seed, chunk)`).
pub const SAMPLE_CHUNK: u64 = 1024;

/// `u128` as a decimal string (JSON numbers stop at 64 bits).
mod decimal {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let t = String::deserialize(d)?;
        t.parse()
            .map_err(|_| D::Error::custom(format!("`{t}` is not a count")))
    }
}

/// Exact sums over some of one weight's codewords.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermTally {
    /// Codeword weight.
    pub weight: u32,
    /// Codewords (shape placements) counted.
    #[serde(with = "decimal")]
    pub codewords: u128,
    /// Sum of their pass probabilities times [`PASS_SCALE`].
    #[serde(with = "decimal")]
    pub pass_count: u128,
    /// Those that flip a field computed from random data.
    #[serde(with = "decimal")]
    pub touching: u128,
}

impl TermTally {
    fn add(&mut self, o: &TermTally) {
        self.codewords += o.codewords;
        self.pass_count += o.pass_count;
        self.touching += o.touching;
    }

    /// The exact term of these sums (`model` gives the field model's bound).
    pub fn term(&self, model: &JointModel) -> Term {
        Term {
            weight: self.weight,
            codewords: self.codewords,
            pass_sum: self.pass_count as f64 / PASS_SCALE as f64,
            pass_sum_ci: 0.0,
            model_error: self.touching as f64 * model.field_model_bound(self.weight),
            exact: true,
        }
    }
}

/// Exact sums of the sampled weight's ratio estimator: per draw, `Y` the
/// sum of the pass counts (in units of `1 / PASS_SCALE`) of the codewords
/// it found and `N` their number.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleTally {
    /// Draws made.
    pub draws: u64,
    /// Sum of `Y`.
    #[serde(with = "decimal")]
    pub y: u128,
    /// Sum of `N`.
    #[serde(with = "decimal")]
    pub n: u128,
    /// Sum of `Y^2`.
    #[serde(with = "decimal")]
    pub yy: u128,
    /// Sum of `N^2`.
    #[serde(with = "decimal")]
    pub nn: u128,
    /// Sum of `Y N`.
    #[serde(with = "decimal")]
    pub yn: u128,
}

impl SampleTally {
    fn add(&mut self, o: &SampleTally) {
        self.draws += o.draws;
        self.y += o.y;
        self.n += o.n;
        self.yy += o.yy;
        self.nn += o.nn;
        self.yn += o.yn;
    }

    /// The weight-`w` term estimated from these sums, `a_w` the exact number
    /// of weight-`w` codewords (see [`JointModel::sampled_term`] for the
    /// interval). Refused when the draws met no codeword.
    pub fn term(&self, model: &JointModel, w: u32, a_w: u128) -> Result<Term> {
        if self.n == 0 {
            return Err(Error::Limit(Limit::NoSampledCodeword {
                draws: self.draws,
                weight: w,
            }));
        }
        let u = PASS_SCALE as f64;
        let (sy, sn) = (self.y as f64 / u, self.n as f64);
        let (syy, snn, syn) = (self.yy as f64 / (u * u), self.nn as f64, self.yn as f64 / u);
        let d = self.draws as f64;
        let r = sy / sn;
        // Var of the ratio estimator: Var(Y - r N) / (d * mean(N)^2)
        let v = (syy - 2.0 * r * syn + r * r * snn) / d;
        let var_r = v / (d * (sn / d).powi(2)) * d / (d - 1.0).max(1.0);
        let aw = a_w as f64;
        let half = (1.96 * var_r.max(0.0).sqrt()).max(3.0 / sn - r);
        Ok(Term {
            weight: w,
            codewords: a_w,
            pass_sum: aw * r,
            pass_sum_ci: aw * half,
            model_error: aw * model.field_model_bound(w),
            exact: false,
        })
    }
}

/// The tallies of a frame's items: one per enumerated weight, and the sample.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameTally {
    /// Weights 2 to the highest enumerated, in order.
    pub terms: Vec<TermTally>,
    /// The next weight's draws.
    pub sample: SampleTally,
}

impl FrameTally {
    /// Adds `other` (of the same frame) into `self`: integer sums, so the
    /// order does not matter.
    ///
    /// # Panics
    /// If `other` has another number of weights.
    pub fn add(&mut self, other: &FrameTally) {
        assert_eq!(self.terms.len(), other.terms.len(), "tallies of one frame");
        for (a, b) in self.terms.iter_mut().zip(&other.terms) {
            a.add(b);
        }
        self.sample.add(&other.sample);
    }
}

/// The syndromes of the wire bits and their index, for drawing codewords.
struct Sampler {
    syn: Vec<u64>,
    /// Where the generator is primitive (width 32 or less): its logarithms
    /// and the Zech logarithms `Z(d)` of the exponent differences `d < n`;
    /// the pairs completing a draw are then found by one logarithm and a
    /// sequential scan ([`zech::pairs`]) instead of `n` hash probes.
    zech: Option<(Arc<Logs>, Arc<Vec<u32>>)>,
    /// The wire bit of each syndrome (without `zech`).
    index: Option<Table>,
}

impl Sampler {
    fn new(model: &JointModel) -> Self {
        Self::new_with(model, true)
    }

    /// [`Sampler::new`], with the Zech logarithms only if `fast` (the tests
    /// compare both).
    fn new_with(model: &JointModel, fast: bool) -> Self {
        let n = model.n as usize;
        // wire bit j is x^(n-1-j)
        let exps = lowweight::syndromes(&model.generator, n);
        let syn: Vec<u64> = (0..n).map(|j| exps[n - 1 - j]).collect();
        let zech = if fast {
            Logs::of(&model.generator).map(|l| {
                let z = l.zech(&exps);
                (l, z)
            })
        } else {
            None
        };
        let index = zech.is_none().then(|| {
            // probed n times a draw, nearly always for an absent syndrome
            let mut index = Table::with_filter(n);
            for (j, &s) in syn.iter().enumerate() {
                index.insert(s, j as u64);
            }
            index
        });
        Sampler { syn, zech, index }
    }

    /// Draws `k` distinct wire bits into `pos[..k]`; returns their syndrome.
    fn draw(&self, rng: &mut SplitMix, pos: &mut [u32], k: usize) -> u64 {
        let n = self.syn.len() as u64;
        let (mut s, mut m) = (0u64, 0);
        while m < k {
            let x = rng.below(n) as u32;
            if !pos[..m].contains(&x) {
                pos[m] = x;
                s ^= self.syn[x as usize];
                m += 1;
            }
        }
        s
    }

    /// Calls `f` with every codeword (sorted wire bits) that completes the
    /// `k` bits `pos[..k]` of syndrome `s` by a pair `{x, z}` outside them;
    /// `pos` and `sorted` have room for `k + 2`.
    fn complete(
        &self,
        pos: &mut [u32],
        sorted: &mut [u32],
        k: usize,
        s: u64,
        mut f: impl FnMut(&[u32]),
    ) {
        if let Some((logs, zt)) = &self.zech {
            // exponents e1 < e2 = e1 + d with x^e1 + x^e2 = s: wire bits
            // x = n-1-e2 < z = n-1-e1 (s = 0: no pair below the period)
            let n = self.syn.len() as u32;
            let Some(ls) = logs.log(s) else {
                return;
            };
            zech::pairs(&zt[..n as usize], logs.order(), ls as u32, 0, n, |e1, d| {
                let (x, z) = (n - 1 - (e1 + d), n - 1 - e1);
                if pos[..k].contains(&x) || pos[..k].contains(&z) {
                    return;
                }
                pos[k] = x;
                pos[k + 1] = z;
                sorted.copy_from_slice(&pos[..k + 2]);
                sorted.sort_unstable();
                f(sorted);
            });
            return;
        }
        let index = self.index.as_ref().expect("an index without zech");
        for (x, &sx) in self.syn.iter().enumerate() {
            let Some(z) = index.get(s ^ sx) else {
                continue;
            };
            let (x, z) = (x as u32, z as u32);
            if z <= x || pos[..k].contains(&x) || pos[..k].contains(&z) {
                continue;
            }
            pos[k] = x;
            pos[k + 1] = z;
            sorted.copy_from_slice(&pos[..k + 2]);
            sorted.sort_unstable();
            f(sorted);
        }
    }

    /// Chunk `c` of `samples` draws of `(w-2)`-subsets, completed by every
    /// pair of wire bits with the right syndrome.
    fn chunk(&self, model: &JointModel, w: u32, samples: u64, seed: u64, c: u64) -> SampleTally {
        let mut rng = SplitMix(seed ^ (c.wrapping_add(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let draws = SAMPLE_CHUNK.min(samples.saturating_sub(c * SAMPLE_CHUNK));
        let k = w as usize - 2;
        let mut t = SampleTally::default();
        let mut pos = vec![0u32; w as usize];
        let mut sorted = vec![0u32; w as usize];
        for _ in 0..draws {
            let s = self.draw(&mut rng, &mut pos, k);
            let (mut y, mut cnt) = (0u128, 0u128);
            self.complete(&mut pos, &mut sorted, k, s, |cw| {
                y += model
                    .pass_count(cw)
                    .expect("weights up to 8 flip at most 8 coins") as u128;
                cnt += 1;
            });
            t.draws += 1;
            t.y += y;
            t.n += cnt;
            t.yy += y * y;
            t.nn += cnt * cnt;
            t.yn += y * cnt;
        }
        t
    }
}

/// The work items of one frame's joint computation (see the module
/// documentation), fixed by the frame and the options.
pub struct JointPlan {
    /// The frame's model.
    pub model: JointModel,
    /// The frame.
    pub frame: Frame,
    /// Highest weight enumerated (the options' limit, lowered where the
    /// frame is over the pair limits of [`lowweight::shapes`]).
    pub max_weight: u32,
    /// Draws of the next weight (0 for none).
    pub samples: u64,
    /// Seed of the draws.
    pub seed: u64,
    parts: Vec<ShapeParts>,
    /// Index of the first item of each weight, and of the first sample chunk.
    starts: Vec<u64>,
    sampler: Option<Sampler>,
}

impl JointPlan {
    /// The plan for `frame`: its model, and the syndromes that the shapes
    /// and draws need (fractions of a second; no shape is listed yet).
    pub fn new(frame: &Frame, opts: &JointOptions) -> Result<Self> {
        if !(2..=5).contains(&opts.max_weight) {
            return Err(Error::Param {
                param: Param::MaxWeight,
                reason: format!(
                    "the joint computation enumerates weights 2 to 5, not up to {}",
                    opts.max_weight
                ),
            });
        }
        let model = JointModel::new(frame)?;
        if model.generator.width() > 32 {
            return Err(Error::Limit(Limit::JointWidth {
                width: model.generator.width(),
                max: 32,
            }));
        }
        let n = model.n as f64;
        let pairs = n * n / 2.0;
        let max_weight = if pairs > lowweight::SHAPE_PAIR_LIMIT {
            opts.max_weight.min(3)
        } else if pairs > lowweight::SHAPE5_PAIR_LIMIT {
            opts.max_weight.min(4)
        } else {
            opts.max_weight
        };
        let mut parts = Vec::new();
        let mut starts = vec![0u64];
        for w in 2..=max_weight {
            let p = ShapeParts::new(&model.generator, w, model.n as u64)?;
            starts.push(starts.last().expect("non-empty") + p.parts());
            parts.push(p);
        }
        let sampler = (opts.samples > 0).then(|| Sampler::new(&model));
        Ok(JointPlan {
            model,
            frame: frame.clone(),
            max_weight,
            samples: opts.samples,
            seed: opts.seed,
            parts,
            starts,
            sampler,
        })
    }

    /// Items of the enumeration (they come first).
    pub fn enumeration_items(&self) -> u64 {
        *self.starts.last().expect("non-empty")
    }

    /// Items in all: the enumeration's, then the sample chunks.
    pub fn items(&self) -> u64 {
        self.enumeration_items() + self.samples.div_ceil(SAMPLE_CHUNK)
    }

    /// The tally of no work.
    pub fn empty_tally(&self) -> FrameTally {
        FrameTally {
            terms: (2..=self.max_weight)
                .map(|weight| TermTally {
                    weight,
                    ..TermTally::default()
                })
                .collect(),
            sample: SampleTally::default(),
        }
    }

    /// The tally of `items` (each below [`JointPlan::items`]) added up, the
    /// items run in parallel on the current rayon pool, one job each (an
    /// item is milliseconds of work or more: a thread that frees up, from
    /// other work running beside, takes any item not yet begun rather than
    /// wait on a run of items split off before it was free); `progress`
    /// advances by one per item. Integer sums: the same tally for any
    /// thread count or order.
    pub fn tally(
        &self,
        items: std::ops::Range<u64>,
        progress: &dyn crate::progress::Progress,
    ) -> FrameTally {
        use rayon::prelude::*;
        let first = items.start;
        (0..items.end.saturating_sub(items.start) as usize)
            .into_par_iter()
            .with_max_len(1)
            .map(|k| {
                let t = self.run(first + k as u64);
                progress.advance(1);
                t
            })
            .reduce(
                || self.empty_tally(),
                |mut a, b| {
                    a.add(&b);
                    a
                },
            )
    }

    /// The tally of item `i` (below [`JointPlan::items`]; nothing otherwise).
    pub fn run(&self, i: u64) -> FrameTally {
        let mut t = self.empty_tally();
        let e = self.enumeration_items();
        if i < e {
            let k = self.starts.partition_point(|&s| s <= i) - 1;
            let term = &mut t.terms[k];
            let mut cache = super::RoleCache::new();
            let mut wire = Vec::new();
            for s in self.parts[k].part(i - self.starts[k]) {
                // exponent e is wire bit n-1-e: the shape reverses
                let span = *s.last().expect("non-empty");
                wire.clear();
                wire.extend(s.iter().rev().map(|&e| span - e));
                let (pass, placements, touching) = self.model.shape_sum_cached(&wire, &mut cache);
                term.codewords += placements as u128;
                term.pass_count += pass;
                term.touching += touching as u128;
            }
        } else if let Some(sm) = &self.sampler
            && i < self.items()
        {
            t.sample = sm.chunk(
                &self.model,
                self.max_weight + 1,
                self.samples,
                self.seed,
                i - e,
            );
        }
        t
    }
}

impl JointModel {
    /// Estimates `S_w` from `samples` uniformly drawn `(w-2)`-subsets of the
    /// frame's wire bits: each is completed by every pair `{x, y}` (outside
    /// it) with `s_x ^ s_y` equal to its syndrome, found by one lookup per
    /// `x`. Every weight-`w` codeword arises from exactly `C(w, 2)` subsets,
    /// so the draws sample codewords uniformly; the ratio estimator
    /// `S_w = A_w * (sum of pass probabilities) / (codewords found)` uses
    /// the exact `a_w`, with a 95% interval by the delta method, widened
    /// where few codewords pass: since every pass probability lies in
    /// `[0, 1]`, `P(pass probability > 0) >= mean`, and `N` codewords of
    /// which none passes put the mean below `3/N` at 95% (the rule of
    /// three), so the upper half-width is at least `A_w (3/N)` less the
    /// estimate. (Codewords found by one draw are not independent; with at
    /// most a few per draw this is a small effect, not a proof.) Chunks of
    /// [`SAMPLE_CHUNK`] draws have their own streams from `(seed, chunk)`
    /// and exact integer sums, so the estimate does not depend on the
    /// number of threads.
    pub fn sampled_term(&self, w: u32, a_w: u128, samples: u64, seed: u64) -> Result<Term> {
        use rayon::prelude::*;
        if !(3..=8).contains(&w) {
            return Err(Error::Limit(Limit::SampledWeight { weight: w }));
        }
        let sm = Sampler::new(self);
        let t = (0..samples.div_ceil(SAMPLE_CHUNK))
            .into_par_iter()
            .map(|c| sm.chunk(self, w, samples, seed, c))
            .reduce(SampleTally::default, |mut a, b| {
                a.add(&b);
                a
            });
        t.term(self, w, a_w)
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::joint::JointStack;
    use crate::layout::Payload;

    /// Builds `frames` real frames of `f` (random payload from `seed`, real
    /// IPv4/TCP checksums and FCS), flips `pat` and recomputes every check:
    /// the FCS must pass every time; returns how often all checks pass.
    fn passes_on_real_frames(f: &Frame, crc: usize, pat: &[u32], frames: u64, seed: u64) -> u64 {
        let mut rng = SplitMix(seed);
        let mut pass = 0;
        for _ in 0..frames {
            let payload: Vec<u8> = (f.random.0..f.random.1).map(|_| rng.next() as u8).collect();
            let mut fr = f.sent(&payload);
            f.flip(&mut fr, pat);
            assert!(f.verify(crc, &fr), "the FCS must pass: {pat:?}");
            pass += f.verify_all(&fr) as u64;
        }
        pass
    }

    /// Checks the computed pass probabilities of `codewords` on real frames:
    /// probability 0 never passes, the others within 5 sigma.
    fn validate(f: &Frame, m: &JointModel, codewords: &[Vec<u32>], seed: u64) -> (u32, u32) {
        let (mut zeros, mut positives) = (0, 0);
        for (i, cw) in codewords.iter().enumerate() {
            let want = m.pass_probability(cw);
            let frames = if want == 0.0 { 20 } else { 300 };
            let pass = passes_on_real_frames(f, m.crc, cw, frames, seed + i as u64);
            if want == 0.0 {
                assert_eq!(pass, 0, "{} bytes: {cw:?} has probability 0", f.bytes);
                zeros += 1;
            } else {
                let mean = want * frames as f64;
                let sd = (mean * (1.0 - want)).sqrt();
                assert!(
                    (pass as f64 - mean).abs() <= 5.0 * sd + 1.0,
                    "{} bytes: {cw:?}: {pass} passes of {frames}, expected {mean}",
                    f.bytes
                );
                positives += 1;
            }
        }
        (zeros, positives)
    }

    pub fn real_frames_from_64_to_9018_bytes() {
        // 64 bytes: every weight-5 codeword (the lowest weight there)
        let f = Frame::new("ethernet-tcp", 64, Payload::Random).unwrap();
        let m = JointModel::new(&f).unwrap();
        let parts = ShapeParts::new(&m.generator, 5, m.n as u64).unwrap();
        let mut all = Vec::new();
        for i in 0..parts.parts() {
            for s in parts.part(i) {
                let span = *s.last().unwrap();
                for o in 0..m.n - span {
                    let mut cw: Vec<u32> = s.iter().map(|&e| m.n - 1 - (e + o)).collect();
                    cw.sort_unstable();
                    all.push(cw);
                }
            }
        }
        assert_eq!(all.len(), 212);
        let (zeros, _) = validate(&f, &m, &all, 1);
        assert_eq!(zeros, 212, "no weight-5 codeword escapes at 64 bytes");
        // larger frames: codewords of the lowest weight that escapes (shapes
        // at random offsets up to 1518 bytes, drawn uniformly at 9018), some
        // with a positive pass probability, some with 0; at 594 bytes no
        // weight-4 codeword escapes (see the test below), so weight 5
        for (bytes, w) in [(594usize, 5u32), (1518, 4), (9018, 4)] {
            let f = Frame::new("ethernet-tcp", bytes, Payload::Random).unwrap();
            let m = JointModel::new(&f).unwrap();
            let mut rng = SplitMix(bytes as u64);
            let (mut zero, mut positive) = (Vec::new(), Vec::new());
            let mut keep = |cw: &[u32]| {
                if m.pass_probability(cw) > 0.0 {
                    positive.push(cw.to_vec());
                } else {
                    zero.push(cw.to_vec());
                }
            };
            if bytes <= 1518 {
                let shapes = crate::lowweight::shapes(&m.generator, w, m.n as u64).unwrap();
                assert!(!shapes.is_empty());
                for _ in 0..200_000 {
                    let s = &shapes[rng.below(shapes.len() as u64) as usize];
                    let span = *s.last().unwrap();
                    let o = rng.below((m.n - span) as u64) as u32;
                    let mut cw: Vec<u32> = s.iter().map(|&e| m.n - 1 - (e + o)).collect();
                    cw.sort_unstable();
                    keep(&cw);
                }
            } else {
                let sm = Sampler::new(&m);
                assert_eq!(w, 4);
                // two payload bits in one checksum column, so that some
                // completions cancel in the sums (uniform draws meet few)
                let (mut pos, mut sorted) = ([0u32; 4], [0u32; 4]);
                let (z0, z1) = m.zone.unwrap();
                for _ in 0..1500 {
                    let a = z0 + rng.below((z1 - z0 - 1700) as u64) as u32;
                    pos[0] = a;
                    pos[1] = a + 16 * (1 + rng.below(100) as u32);
                    let s = sm.syn[pos[0] as usize] ^ sm.syn[pos[1] as usize];
                    sm.complete(&mut pos, &mut sorted, 2, s, &mut keep);
                }
            }
            assert!(positive.len() >= 8 && zero.len() >= 20, "{bytes} bytes");
            positive.truncate(8);
            zero.truncate(20);
            let (z, p) = validate(&f, &m, &[zero, positive].concat(), bytes as u64);
            assert_eq!((z, p), (20, 8), "{bytes} bytes");
        }
    }

    pub fn draws_completed_by_zech_logarithms_tally_as_the_probes() {
        // CRC-32 (primitive): the Zech completions and the hash probes find
        // the same codewords for the same draws, so the same exact sums
        for (bytes, w) in [(200usize, 5u32), (1518, 5), (1518, 6), (9018, 5)] {
            let f = Frame::new("ethernet-tcp", bytes, Payload::Random).unwrap();
            let m = JointModel::new(&f).unwrap();
            let (fast, slow) = (Sampler::new_with(&m, true), Sampler::new_with(&m, false));
            assert!(fast.zech.is_some() && slow.zech.is_none());
            for c in 0..2 {
                let a = fast.chunk(&m, w, 1500, 7, c);
                let b = slow.chunk(&m, w, 1500, 7, c);
                assert_eq!(a, b, "{bytes} bytes, weight {w}, chunk {c}");
                assert!(a.draws > 0);
                if bytes >= 1518 {
                    assert!(a.n > 0, "{bytes} bytes: no codeword met");
                }
            }
        }
    }

    pub fn at_594_bytes_no_weight_4_codeword_escapes() {
        // 2480 weight-4 CRC-32 codewords fit in a 594-byte frame, and not
        // one passes both checksums: the joint escape rests on weight 5 and up
        let f = Frame::new("ethernet-tcp", 594, Payload::Random).unwrap();
        let opts = JointOptions {
            max_weight: 5,
            samples: 0,
            seed: 1,
        };
        let st = JointStack::new(&f, &opts, &crate::ctx::Ctx::default()).unwrap();
        let t4 = &st.terms[0];
        assert_eq!((t4.weight, t4.codewords, t4.pass_sum), (4, 2480, 0.0));
        let t5 = &st.terms[1];
        assert_eq!(t5.weight, 5);
        assert!(t5.pass_sum > 1000.0, "{}", t5.pass_sum);
        let jp = st.at(1e-6).unwrap();
        let w5 = t5.contribution(st.model.n as u64, 1e-6);
        assert_eq!(jp.low, w5);
        assert!(jp.high < 2.0 * jp.low, "{jp:?}");
        // the same on real frames: 40 of the weight-4 codewords never pass
        let m = &st.model;
        let shapes = crate::lowweight::shapes(&m.generator, 4, m.n as u64).unwrap();
        let mut rng = SplitMix(594);
        let cws: Vec<Vec<u32>> = (0..40)
            .map(|_| {
                let s = &shapes[rng.below(shapes.len() as u64) as usize];
                let span = *s.last().unwrap();
                let o = rng.below((m.n - span) as u64) as u32;
                let mut cw: Vec<u32> = s.iter().map(|&e| m.n - 1 - (e + o)).collect();
                cw.sort_unstable();
                cw
            })
            .collect();
        assert_eq!(validate(&f, m, &cws, 7), (40, 0));
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod serde_tests {
    use super::*;

    pub fn counts_above_64_bits_round_trip_through_json() {
        let t = FrameTally {
            terms: vec![TermTally {
                weight: 4,
                codewords: u128::MAX,
                pass_count: 1 << 100,
                touching: 3,
            }],
            sample: SampleTally {
                draws: 2,
                yy: (1 << 90) + 1,
                ..SampleTally::default()
            },
        };
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(serde_json::from_value::<FrameTally>(v).unwrap(), t);
    }
}
