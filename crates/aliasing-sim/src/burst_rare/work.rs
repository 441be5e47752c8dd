//! The work of a run: draws, scores and their tallies ([`BurstRareWork`]),
//! the exact escape where a cheap method applies, and the drivers.

use super::*;

/// What a codeword found must pass beside the CRC.
#[doc(hidden)]
pub enum Checks {
    /// Nothing: a lone CRC.
    Lone,
    /// The stack's Internet checksums, over a random payload.
    Joint(Box<JointModel>),
    /// A given pass probability per pattern (tests of the weighting).
    #[doc(hidden)]
    Given(fn(&[u32]) -> f64),
}

/// A burst-channel rare-event run cut into work items fixed by the parameters.
pub struct BurstRareWork {
    #[doc(hidden)]
    pub checks: Checks,
    pub(super) seed: u64,
    pub(super) crc_name: String,
    /// The names of the frame's checks, in its order.
    pub(super) check_names: Vec<String>,
    #[doc(hidden)]
    pub table: Vec<u64>,
    pub(super) lookup: Lookup,
    #[doc(hidden)]
    pub width: usize,
    /// Every window is the run of the `width` bits after its anchor.
    pub(super) contiguous: bool,
    /// The short bursts the lookup knows, and how they are found.
    #[doc(hidden)]
    pub short: ShortBursts,
    pub(super) channel: GilbertElliott,
    pub(super) proposal: GilbertElliott,
    #[doc(hidden)]
    pub p: PatternLaw,
    #[doc(hidden)]
    pub q: PatternLaw,
    /// Per state of the proposal (good, bad): `ln(1 - leave)` and
    /// `ln(1 - p_error)`, the logs of [`BurstRareWork::draw`]'s geometric
    /// steps, computed once, not per draw.
    pub(super) ln_leave: [f64; 2],
    pub(super) ln_clean: [f64; 2],
    pub(super) samples: u64,
}

impl BurstRareWork {
    /// Plans the run of `plan` (a lone CRC on a Gilbert-Elliott channel)
    /// with `samples` draws from `proposal` ([`default_proposal`] if `None`).
    pub fn new(plan: &Plan, samples: u64, proposal: Option<GilbertElliott>) -> Result<Self> {
        Self::build(plan, samples, proposal, false)
    }

    /// Plans the run of `plan`, a stack of one CRC over the whole frame and
    /// Internet checksums (`ethernet-tcp`, `ipv4-tcp+CRC`, `internet+CRC`;
    /// the stacks of the joint computation) on a Gilbert-Elliott channel, for the joint
    /// escape: the draws, codewords and weights of [`BurstRareWork::new`]
    /// over the stack's frame (so the CRC's estimate is the one of a lone
    /// CRC at that length), each codeword also counted with the exact
    /// probability over the random payload that every checksum passes
    /// (the joint model's, for any number of flipped bits). Unbiased for the joint
    /// escape, as the CRC's estimate is for the CRC's: `E_Q[sum over found
    /// e of P(e) pass(e) / D(e)] = sum over codewords e of P(e) pass(e)`.
    pub fn joint(plan: &Plan, samples: u64, proposal: Option<GilbertElliott>) -> Result<Self> {
        Self::build(plan, samples, proposal, true)
    }

    pub(super) fn build(
        plan: &Plan,
        samples: u64,
        proposal: Option<GilbertElliott>,
        joint: bool,
    ) -> Result<Self> {
        plan.validate()?;
        let Channel::Burst(ge) = plan.channel else {
            return Err(Error::Limit(Limit::BurstRareChannel));
        };
        if samples == 0 || samples > MAX_SAMPLES {
            return Err(Error::Invalid(format!(
                "{samples} samples: expected 1 to {MAX_SAMPLES:e}"
            )));
        }
        let f = &plan.frame;
        let checks = if !joint {
            if f.checks.len() != 1 || f.checks[0].crc().is_none() {
                return Err(Error::Limit(Limit::BurstRareStack {
                    stack: f.stack.clone(),
                }));
            }
            Checks::Lone
        } else {
            let m = JointModel::new(f)?;
            if m.internet.is_empty() {
                return Err(Error::Limit(Limit::NoChecksumBesideCrc {
                    stack: f.stack.clone(),
                }));
            }
            if !m.random_bits_under_one_check() {
                return Err(Error::Limit(Limit::TwoChecksums {
                    stack: f.stack.clone(),
                }));
            }
            Checks::Joint(Box::new(m))
        };
        let (ci, table) = widest_crc(plan)?;
        let alg = f.checks[ci].crc().expect("a CRC");
        let n = f.n_bits();
        let proposal = match proposal {
            Some(q) => q,
            None => default_proposal(&ge, n)?,
        };
        check_proposal(&proposal)?;
        let width = alg.width() as usize;
        Ok(BurstRareWork {
            checks,
            contiguous: contiguous_windows(&table, width),
            short: ShortBursts::new(&table, alg.width()),
            seed: plan.seed,
            crc_name: f.checks[ci].name.clone(),
            check_names: f.checks.iter().map(|c| c.name.clone()).collect(),
            lookup: Lookup::new(&table),
            width,
            table,
            channel: ge,
            proposal,
            p: PatternLaw::new(&ge, n)?,
            q: PatternLaw::new(&proposal, n)?,
            ln_leave: [
                (-proposal.good_to_bad).ln_1p(),
                (-proposal.bad_to_good).ln_1p(),
            ],
            ln_clean: [(-proposal.p_good).ln_1p(), (-proposal.p_bad).ln_1p()],
            samples,
        })
    }

    /// Number of work items.
    pub fn items(&self) -> u64 {
        self.samples.div_ceil(CHUNK)
    }

    /// The empty tally.
    pub fn zero(&self) -> BurstTally {
        BurstTally::default()
    }

    /// The proposal in use.
    pub fn proposal(&self) -> GilbertElliott {
        self.proposal
    }

    /// Draws one error pattern from the proposal (positions increasing).
    #[doc(hidden)]
    pub fn draw(&self, rng: &mut Xoshiro256PlusPlus, xs: &mut Vec<u32>) {
        xs.clear();
        let n = self.table.len() as u64;
        let (ln_leave, ln_clean) = (self.ln_leave, self.ln_clean);
        // the proposal's stationary law, kept by its pattern law
        let mut bad = (unit_f64(rng) <= self.q.pi[1]) as usize;
        let mut pos = 0u64;
        while pos < n {
            let end = pos.saturating_add(1 + geometric(rng, ln_leave[bad])).min(n);
            let mut t = pos + geometric(rng, ln_clean[bad]);
            while t < end {
                xs.push(t as u32);
                t += 1 + geometric(rng, ln_clean[bad]);
            }
            pos = end;
            bad ^= 1;
        }
    }

    /// The window of anchor `a` (its positions only) into `out`.
    pub(super) fn window_positions(&self, a: u32, win: &mut Window, out: &mut Vec<u32>) {
        out.clear();
        if self.contiguous {
            let last = (a as u64 + self.width as u64).min(self.table.len() as u64 - 1) as u32;
            out.extend(a + 1..=last);
        } else {
            win.build(&self.table, a, self.width);
            out.extend_from_slice(&win.pos);
        }
    }

    /// `ln D(e) = ln (Q1(e) + Q2(e) + Q3(e))` for a codeword `e` (positions increasing): the
    /// expected number of times one draw produces `e`, by a window anchored
    /// at one of its errors (`Q1`) or by the lookup (`Q2`). One forward and
    /// one backward pass over `e`, then `O(r)` per anchor (`O(1)` when the
    /// windows are runs of consecutive bits).
    pub(super) fn ln_denominator(&self, e: &[u32], sc: &mut Scratch) -> f64 {
        let q = &self.q;
        let k = e.len();
        let n = q.n;
        sc.fwd.clear();
        let (mut a, mut la) = (q.pi, 0.0);
        let mut pos = 0u64;
        for &p in e {
            q.gap_row(&mut a, &mut la, p as u64 - pos);
            sc.fwd.push((a, la));
            a = vm(a, &q.err);
            renorm(&mut a, &mut la);
            pos = p as u64 + 1;
        }
        // bwd[j]: the column vector of bits e_j.. (bit e_j flipped, the rest as in e)
        sc.bwd.clear();
        sc.bwd.resize(k + 1, ([1.0, 1.0], 0.0));
        let mut total = f64::NEG_INFINITY;
        let mut end = n;
        for j in (0..k).rev() {
            let (mut b, mut lb) = sc.bwd[j + 1];
            q.gap_col(&mut b, &mut lb, end - e[j] as u64 - 1);
            // leave e_j out (Q2's term)
            let (fa, fl) = sc.fwd[j];
            let c = vm(fa, &q.clean);
            let v = c[0] * b[0] + c[1] * b[1];
            if v > 0.0 {
                total = ln_add(total, fl + lb + v.ln());
            }
            b = mv(&q.err, b);
            renorm(&mut b, &mut lb);
            sc.bwd[j] = (b, lb);
            end = e[j] as u64;
        }
        // Q1: a window after each error of e
        for i in 0..k {
            let (mut a, mut la) = sc.fwd[i];
            a = vm(a, &q.err);
            renorm(&mut a, &mut la);
            let mut pos = e[i] as u64 + 1;
            let mut j = i + 1;
            if self.contiguous {
                let last = (e[i] as u64 + self.width as u64).min(n - 1);
                if last >= pos {
                    a = vm(a, &q.free_pow[(last + 1 - pos) as usize]);
                    renorm(&mut a, &mut la);
                    pos = last + 1;
                }
                while j < k && (e[j] as u64) < pos {
                    j += 1;
                }
            } else {
                let mut wpos = std::mem::take(&mut sc.wpos);
                self.window_positions(e[i], &mut sc.win, &mut wpos);
                for &w in &wpos {
                    while j < k && e[j] < w {
                        q.gap_row(&mut a, &mut la, e[j] as u64 - pos);
                        a = vm(a, &q.err);
                        renorm(&mut a, &mut la);
                        pos = e[j] as u64 + 1;
                        j += 1;
                    }
                    if j < k && e[j] == w {
                        j += 1; // summed out with the window
                    }
                    q.gap_row(&mut a, &mut la, w as u64 - pos);
                    a = vm(a, &q.free);
                    renorm(&mut a, &mut la);
                    pos = w as u64 + 1;
                }
                sc.wpos = wpos;
            }
            let term = if j < k {
                q.gap_row(&mut a, &mut la, e[j] as u64 - pos);
                let (b, lb) = sc.bwd[j];
                la + lb + (a[0] * b[0] + a[1] * b[1]).ln()
            } else {
                q.gap_row(&mut a, &mut la, n - pos);
                la + (a[0] + a[1]).ln()
            };
            if la > f64::NEG_INFINITY {
                total = ln_add(total, term);
            }
        }
        // Q3: the short burst e ∩ [s, s+L) for each error s of e, the rest drawn
        for i in 0..k {
            let s0 = e[i] as u64;
            let mut j = i;
            while j < k && (e[j] as u64) < s0 + self.short.span {
                j += 1;
            }
            if j - i > BURST_ERRORS as usize {
                continue; // not a short burst the lookup knows
            }
            let (mut a, mut la) = sc.fwd[i];
            let term = if j < k {
                q.gap_row(&mut a, &mut la, e[j] as u64 - s0);
                let (b, lb) = sc.bwd[j];
                la + lb + (a[0] * b[0] + a[1] * b[1]).ln()
            } else {
                q.gap_row(&mut a, &mut la, n - s0);
                la + (a[0] + a[1]).ln()
            };
            if la > f64::NEG_INFINITY {
                total = ln_add(total, term);
            }
        }
        total
    }

    /// `P(e) / D(e)` for a codeword `e` (positions increasing).
    pub(super) fn weight(&self, e: &[u32], sc: &mut Scratch) -> f64 {
        let lp = self.p.ln_prob(e);
        if lp == f64::NEG_INFINITY {
            return 0.0;
        }
        (lp - self.ln_denominator(e, sc)).exp()
    }

    /// A codeword `e` found: `(P(e) / D(e), that times the probability
    /// that every other check passes, that times the field model's bound
    /// where `e` flips a field computed from random data)`.
    pub(super) fn found(&self, e: &[u32], sc: &mut Scratch) -> (f64, f64, f64) {
        let w = self.weight(e, sc);
        if w == 0.0 {
            return (0.0, 0.0, 0.0);
        }
        match &self.checks {
            Checks::Lone => (w, 0.0, 0.0),
            Checks::Joint(m) => {
                // every pattern answers: random bits under one check (build)
                let pass = m.pass_probability_any(e).unwrap_or(1.0);
                let model = if m.flips_random_field(e) {
                    w * m.field_model_bound(e.len() as u32)
                } else {
                    0.0
                };
                (w, w * pass, model)
            }
            Checks::Given(f) => (w, w * f(e), 0.0),
        }
    }

    /// The score of the draw `xs` (error positions, increasing).
    pub fn score(&self, xs: &[u32]) -> Score {
        self.score_with(xs, &mut Scratch::default())
    }

    pub(super) fn score_with(&self, xs: &[u32], sc: &mut Scratch) -> Score {
        let mut out = Score::default();
        let mut e = std::mem::take(&mut sc.e);
        let mut head = std::mem::take(&mut sc.head);
        // 1. window completion after each error
        for &a in xs {
            sc.win.build(&self.table, a, self.width);
            head.clear();
            head.extend(xs.iter().copied().filter(|p| !sc.win.pos.contains(p)));
            let s = head.iter().fold(0u64, |s, &p| s ^ self.table[p as usize]);
            if let Some(mask) = sc.win.solve(s) {
                e.clear();
                e.extend_from_slice(&head);
                e.extend(
                    (0..sc.win.pos.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| sc.win.pos[i]),
                );
                e.sort_unstable();
                let (w, j, m) = self.found(&e, sc);
                out.window += w;
                out.joint += j;
                out.model += m;
            }
        }
        // 2. syndrome lookup: every position completing xs
        let s = xs.iter().fold(0u64, |s, &p| s ^ self.table[p as usize]);
        let mut found = std::mem::take(&mut sc.found);
        found.clear();
        self.lookup.each(s, |m| {
            if xs.binary_search(&m).is_err() {
                found.push(m);
            }
        });
        for &m in &found {
            e.clear();
            e.extend_from_slice(xs);
            let at = e.binary_search(&m).unwrap_err();
            e.insert(at, m);
            let (w, j, md) = self.found(&e, sc);
            out.position += w;
            out.joint += j;
            out.model += md;
        }
        // 3. short-burst lookup: every short burst B completing xs, clear of
        // xs over its span
        let mut bursts = std::mem::take(&mut sc.bursts);
        bursts.clear();
        self.short.each(&self.table, s, |st, pat| {
            let at = xs.partition_point(|&p| (p as u64) < st);
            if at == xs.len() || xs[at] as u64 >= st + self.short.span {
                bursts.push((st, pat));
            }
        });
        for &(st, pat) in &bursts {
            e.clear();
            e.extend_from_slice(xs);
            e.push(st as u32);
            e.extend(
                (0..self.short.span - 1)
                    .filter(|j| pat >> j & 1 == 1)
                    .map(|j| (st + 1 + j) as u32),
            );
            e.sort_unstable();
            let (w, j, m) = self.found(&e, sc);
            out.burst += w;
            out.joint += j;
            out.model += m;
        }
        sc.found = found;
        sc.bursts = bursts;
        sc.e = e;
        sc.head = head;
        out
    }

    /// The tally of item `i`: `min(CHUNK, rest)` draws from its own stream.
    pub fn item(&self, i: u64) -> BurstTally {
        let count = CHUNK.min(self.samples - i * CHUNK);
        let mut rng = chunk_rng(self.seed, i, FAMILY);
        let mut xs = Vec::new();
        let mut scratch = Scratch::default();
        let mut t = BurstTally::default();
        for _ in 0..count {
            self.draw(&mut rng, &mut xs);
            t.push(&self.score_with(&xs, &mut scratch));
        }
        t
    }

    /// The joint tally of item `i`: the draws of [`BurstRareWork::item`]
    /// (the same stream), scored for the CRC and for the whole stack.
    pub fn joint_item(&self, i: u64) -> JointBurstTally {
        let count = CHUNK.min(self.samples - i * CHUNK);
        let mut rng = chunk_rng(self.seed, i, FAMILY);
        let mut xs = Vec::new();
        let mut scratch = Scratch::default();
        let mut t = JointBurstTally::default();
        for _ in 0..count {
            self.draw(&mut rng, &mut xs);
            t.push(&self.score_with(&xs, &mut scratch));
        }
        t
    }

    /// The joint estimate from the tally of a whole run: the CRC's escape
    /// ([`BurstRareWork::finish`] of the same draws) and the joint escape,
    /// the mean of the joint scores with its normal 95% interval, widened
    /// by the field model's bound (the mean of the draws' bound scores)
    /// where it is not 0. With no draw whose joint score is positive, the
    /// estimate is 0 and the upper end the CRC's (every draw's joint score
    /// is at most its CRC score).
    pub fn finish_joint(&self, tally: &JointBurstTally) -> BurstJointResult {
        let crc = self.finish(&tally.crc);
        let n = tally.crc.n.max(1) as f64;
        let mean = tally.sum.to_f64() / n;
        let var = crate::exact_sum::variance(tally.crc.n, &tally.sum, &tally.sum2);
        let se = (var / n).sqrt();
        let model = tally.model.to_f64() / n;
        let joint = RareEstimate {
            rate: mean,
            std_err: se,
            rel_std_err: if mean > 0.0 { se / mean } else { f64::INFINITY },
            ci_low: (mean - 1.959964 * se - model).max(0.0),
            ci_high: if tally.hits > 0 {
                mean + 1.959964 * se + model
            } else {
                crc.crc.ci_high
            },
            exact: None,
        };
        let checks = match &self.checks {
            Checks::Joint(m) => m
                .internet
                .iter()
                .map(|&i| self.check_names[i].clone())
                .collect(),
            _ => Vec::new(),
        };
        BurstJointResult {
            method: JOINT_METHOD.into(),
            checks,
            hits: tally.hits,
            model_error: model,
            joint,
            crc,
        }
    }

    /// The estimate from the tally of a whole run (or of the items done so
    /// far: the draws counted are the draws made).
    pub fn finish(&self, tally: &BurstTally) -> BurstRareResult {
        let n = tally.n.max(1) as f64;
        let sum = tally.sum.to_f64();
        let mean = sum / n;
        let var = crate::exact_sum::variance(tally.n, &tally.sum, &tally.sum2);
        let se = (var / n).sqrt();
        let share = |r: &ExactSum| if sum > 0.0 { r.to_f64() / sum } else { 0.0 };
        let crc = RareEstimate {
            rate: mean,
            std_err: se,
            rel_std_err: if mean > 0.0 { se / mean } else { f64::INFINITY },
            ci_low: (mean - 1.959964 * se).max(0.0),
            ci_high: if tally.hits > 0 {
                mean + 1.959964 * se
            } else {
                f64::INFINITY
            },
            exact: None,
        };
        BurstRareResult {
            method: METHOD.into(),
            crc_name: self.crc_name.clone(),
            channel: self.channel,
            proposal: self.proposal,
            samples: tally.n,
            hits: tally.hits,
            window_share: share(&tally.routes[0]),
            position_share: share(&tally.routes[1]),
            burst_share: share(&tally.routes[2]),
            crc,
        }
    }
}

/// The exact escape of `plan`'s lone CRC on its Gilbert-Elliott channel,
/// where a cheap exact method applies: the simulator's exact values
/// ([`crate::exact::exact_values`]) if they cover the channel, else the
/// product chain ([`aliasing_core::markov::gilbert`]) for a CRC over the
/// whole frame in transmission order with its field (whole bytes, no
/// padding) at the end, up to
/// `n 2^r <= 4e9`. `None` otherwise (32 bits: no exact method, see the
/// module notes). Computed in `ctx`: held to its memory budget, watched by
/// its progress (the stages of [`crate::exact::exact_values`], then
/// `"chain steps"` of the product chain when it runs).
pub fn exact_escape(plan: &Plan, ctx: &aliasing_core::ctx::Ctx) -> Option<f64> {
    let Channel::Burst(ge) = plan.channel else {
        return None;
    };
    let f = &plan.frame;
    if let Some(v) = crate::exact::exact_values(plan, ctx)
        .checks
        .first()
        .copied()
        .flatten()
    {
        return Some(v);
    }
    let [c] = &f.checks[..] else { return None };
    let alg = c.crc()?;
    let w = alg.width();
    let n = f.n_bits();
    // (a field with padding bits is not the chain's codeword)
    let whole =
        c.data == (0, c.field) && c.field + c.field_len == f.bytes && 8 * c.field_len as u32 == w;
    if !whole || w > gilbert::MAX_WIDTH || (n as f64) * 2f64.powi(w as i32) > 4e9 {
        return None;
    }
    gilbert::solve(&alg.generator(), &[n], &ge, ctx)
        .first()
        .map(|pt| pt.p_undetected)
}

/// Estimates the joint escape of `plan`'s stack (one CRC and Internet
/// checksums, [`BurstRareWork::joint`]) on its Gilbert-Elliott channel, and
/// its CRC's escape from the same draws, with `samples` draws from
/// `proposal` ([`default_proposal`] if `None`) on `threads` threads (0 =
/// all cores); the result depends on the seed and parameters only.
pub fn estimate_joint(
    plan: &Plan,
    samples: u64,
    proposal: Option<GilbertElliott>,
    threads: usize,
) -> Result<BurstJointResult> {
    let work = BurstRareWork::joint(plan, samples, proposal)?;
    let tally = crate::shard::drive_all(work.items(), JointBurstTally::default(), threads, |i| {
        work.joint_item(i)
    })?;
    Ok(work.finish_joint(&tally))
}

/// Estimates the escape of `plan`'s CRC on its Gilbert-Elliott channel with
/// `samples` draws from `proposal` ([`default_proposal`] if `None`), on
/// `threads` threads (0 = all cores).
pub fn estimate(
    plan: &Plan,
    samples: u64,
    proposal: Option<GilbertElliott>,
    threads: usize,
) -> Result<BurstRareResult> {
    let work = BurstRareWork::new(plan, samples, proposal)?;
    let tally = crate::shard::drive_all(work.items(), work.zero(), threads, |i| work.item(i))?;
    Ok(work.finish(&tally))
}
