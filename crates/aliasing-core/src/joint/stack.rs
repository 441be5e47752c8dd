//! [`JointStack`]: the BER-independent terms of one frame, and the joint
//! escape at each BER.

use super::*;

/// How far [`JointStack::new`] goes: built by [`JointOptions::new`]
/// (validated) or [`JointOptions::default`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct JointOptions {
    /// Highest weight enumerated exactly (2 to 5). Weight 5 is skipped (and
    /// the highest exact weight is 4) where the frame is over the pair limit
    /// of [`lowweight::shapes`].
    pub max_weight: u32,
    /// 4-subsets (generally `w-2`-subsets) drawn to estimate the next weight;
    /// 0 for none.
    pub samples: u64,
    /// Seed of the sampler (the same seed gives the same estimate for any
    /// thread count).
    pub seed: u64,
}

impl JointOptions {
    /// Weights 2 to `max_weight` enumerated exactly (2 to 5; refused
    /// otherwise), `samples` draws of the next weight (0 for none) from the
    /// sampler seeded with `seed`.
    ///
    /// ```
    /// use aliasing_core::joint::JointOptions;
    /// let o = JointOptions::new(4, 2048, 1).unwrap();
    /// assert_eq!((o.max_weight, o.samples), (4, 2048));
    /// assert!(JointOptions::new(6, 0, 1).is_err());
    /// ```
    pub fn new(max_weight: u32, samples: u64, seed: u64) -> Result<JointOptions> {
        if !(2..=5).contains(&max_weight) {
            return Err(Error::Param {
                param: crate::error::Param::MaxWeight,
                reason: format!(
                    "the joint computation enumerates weights 2 to 5, not up to {max_weight}"
                ),
            });
        }
        Ok(JointOptions {
            max_weight,
            samples,
            seed,
        })
    }
}

impl Default for JointOptions {
    fn default() -> Self {
        JointOptions {
            max_weight: 5,
            samples: 50_000,
            seed: 1,
        }
    }
}

/// The BER-independent part of the joint computation for one frame: the
/// enumerated and sampled terms, and the CRC's exact weight distribution.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct JointStack {
    /// The model the terms were computed with.
    pub model: JointModel,
    /// Exact terms, lowest weight first (weights with no codeword left out).
    pub terms: Vec<Term>,
    /// The sampled next weight, if any.
    pub sampled: Option<Term>,
    /// Highest weight enumerated.
    pub max_weight: u32,
    /// The CRC's dual weight distribution at the frame length.
    pub dual: crate::weights::DualWeights,
    /// `A_0 ..= A_{max_weight + 1}` from the dual code (MacWilliams).
    pub a: Vec<dashu_int::UBig>,
    /// The frame, for the exact value at BER 0.5.
    pub frame: Option<Frame>,
}

/// Where the estimate of a [`JointPoint`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointMethod {
    /// BER 0: nothing flips, every value is 0.
    NoError,
    /// The enumerated weights dominate: the certified remainder is at most
    /// their sum, so the value lies in `[low, 2 low]`; the estimate is `low`.
    Enumerated,
    /// As [`JointMethod::Enumerated`], plus the sampled next weight; the
    /// remainder above it is at most the estimate.
    Sampled,
    /// No checksum beside the CRC: the joint escape is the CRC's `P_ud`,
    /// exact from the dual code at every BER.
    CrcAlone,
    /// BER 0.5: every received word is equally likely, so the exact value is
    /// the exact escape at BER 0.5 (`low = high = estimate`).
    Uniform,
    /// The enumerated (and sampled) weights do not dominate: the certified
    /// remainder exceeds them, so no estimate is given, the bracket alone.
    BracketOnly,
}

/// The joint escape at one BER.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct JointPoint {
    /// Bit error rate.
    pub ber: f64,
    /// Certified lower bound: the enumerated weights' contributions, less
    /// the field model's bound (the exact value at BER 0 and 0.5).
    pub low: f64,
    /// Certified upper bound: `low` plus the CRC's `P_ud` share of every
    /// weight not enumerated, plus the field model's bound (the exact value
    /// at BER 0 and 0.5).
    pub high: f64,
    /// The estimate, always inside `[low, high]`: see [`JointPoint::method`];
    /// `None` where no method valid at this BER gives one
    /// ([`JointMethod::BracketOnly`]).
    pub estimate: Option<f64>,
    /// 95% interval of the estimate, inside `[low, high]`: the sampled
    /// term's interval plus the certified bound on the weights above it
    /// (`(low, high)` when no weight is sampled).
    pub interval: (f64, f64),
    /// `low` and `high` come from exact terms alone; `true` also when no
    /// sampled term was used.
    pub exact: bool,
    /// Where the estimate comes from.
    pub method: JointMethod,
}

impl JointStack {
    /// Enumerates weights up to `opts.max_weight` for `frame`, computes the
    /// CRC's dual weights (a few seconds for a 32-bit CRC) and, when
    /// `opts.samples > 0`, estimates the next weight, in `ctx`: every item
    /// of the joint plan in parallel (stage `"work items"`), then
    /// [`JointStack::from_tally`] (stage `"dual-code windows"`). The dual
    /// code's memory is checked against the context's budget before the
    /// enumeration starts.
    pub fn new(frame: &Frame, opts: &JointOptions, ctx: &Ctx) -> Result<JointStack> {
        let plan = JointPlan::new(frame, opts)?;
        // the dual code's memory refused before any enumeration
        let g = &plan.model.generator;
        ctx.budget().admit(
            || {
                format!(
                    "the dual-code weights of {} at these lengths",
                    g.full_string()
                )
            },
            crate::dual::memory_estimate(g, &[plan.model.n as u64]),
        )?;
        let p = ctx.progress();
        p.stage("work items", plan.items());
        let t = plan.tally(0..plan.items(), p);
        let st = JointStack::from_tally(&plan, &t, ctx);
        p.finish();
        st
    }

    /// The stack from the total tally of a plan's items (the enumeration's
    /// at least; the sample chunks' too, or none of them): computes the
    /// CRC's dual weights, checks that the enumeration counted every
    /// codeword the dual code says there are, and estimates the sampled
    /// weight when the tally has draws (and they met a codeword). The dual
    /// weights are held to the memory budget of `ctx` and watched by its
    /// progress (the stage of [`crate::dual::dual_weights`],
    /// `"dual-code windows"`, the few seconds of a 32-bit CRC).
    pub fn from_tally(plan: &JointPlan, t: &FrameTally, ctx: &Ctx) -> Result<JointStack> {
        let n = plan.model.n as u64;
        let dual = crate::dual::dual_weights(&plan.model.generator, &[n], ctx)?.remove(0);
        JointStack::from_tally_and_dual(plan, t, dual)
    }

    /// [`JointStack::from_tally`] with the CRC's dual weights at the frame
    /// length already known (kept from an earlier run: the dual code is the
    /// slow part). `dual` is refused unless it is a complete distribution
    /// (`2^r` words) of the plan's CRC width at the frame length; the tally
    /// is then checked against it as [`JointStack::from_tally`] does (every
    /// codeword the dual code counts must have been enumerated).
    pub fn from_tally_and_dual(
        plan: &JointPlan,
        t: &FrameTally,
        dual: crate::weights::DualWeights,
    ) -> Result<JointStack> {
        let model = plan.model.clone();
        let max_weight = plan.max_weight;
        let n = model.n as u64;
        let r = model.generator.width();
        if dual.bits != n
            || dual.width != r
            || dual.counts.len() as u64 != n + 1
            || dual.total() != 1u128 << r
        {
            return Err(Error::Invalid(format!(
                "dual weights of {} bits and width {} (total {}) for a frame of {n} bits and a {r}-bit CRC",
                dual.bits,
                dual.width,
                dual.total()
            )));
        }
        let a = crate::weights::macwilliams(&dual, max_weight as usize + 1)?;
        if t.terms.len() as u32 != max_weight - 1 {
            return Err(Error::Invalid(format!(
                "a tally of weights 2 to {} for a plan of weights 2 to {max_weight}",
                t.terms.len() + 1
            )));
        }
        let mut terms = Vec::new();
        for tt in &t.terms {
            let w = tt.weight;
            let want = u128::try_from(&a[w as usize]).unwrap_or(u128::MAX);
            if tt.codewords != want {
                return Err(Error::Invalid(format!(
                    "{} weight-{w} codewords enumerated, the dual code says {want} \
                     (an incomplete tally, or an internal error)",
                    tt.codewords
                )));
            }
            if want > 0 {
                terms.push(tt.term(&model));
            }
        }
        let mut st = JointStack {
            model,
            terms,
            sampled: None,
            max_weight,
            dual,
            a,
            frame: Some(plan.frame.clone()),
        };
        st.set_sample(&t.sample, plan.samples)?;
        Ok(st)
    }

    /// Sets the sampled next weight from the total tally of a plan's
    /// `samples` draws: none when the tally has no draws, there is no
    /// codeword of that weight, or the draws met none; refused when the
    /// tally has some draws but not all.
    pub fn set_sample(&mut self, t: &SampleTally, samples: u64) -> Result<()> {
        let next = self.max_weight + 1;
        let a_next = u128::try_from(&self.a[next as usize]).unwrap_or(u128::MAX);
        self.sampled = if t.draws == 0 || a_next == 0 {
            None
        } else if t.draws != samples {
            return Err(Error::Invalid(format!(
                "{} draws tallied, the plan makes {samples}",
                t.draws
            )));
        } else {
            // too few draws to meet a codeword (short frames): no estimate
            match t.term(&self.model, next, a_next) {
                Ok(t) => Some(t),
                Err(Error::Limit(Limit::NoSampledCodeword { .. })) => None,
                Err(e) => return Err(e),
            }
        };
        Ok(())
    }

    /// Estimates the weight above the enumerated ones from `samples` draws
    /// (a sampled term per weight); nothing when `samples` is 0,
    /// there is no codeword of that weight, or the draws met none.
    pub fn sample_next(&mut self, samples: u64, seed: u64) -> Result<()> {
        let next = self.max_weight + 1;
        let a_next = u128::try_from(&self.a[next as usize]).unwrap_or(u128::MAX);
        self.sampled = if samples > 0 && a_next > 0 {
            // too few draws to meet a codeword (short frames): no estimate
            match self.model.sampled_term(next, a_next, samples, seed) {
                Ok(t) => Some(t),
                Err(Error::Limit(Limit::NoSampledCodeword { .. })) => None,
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        Ok(())
    }

    /// The bracket and estimate at BER `p` (in [0, 0.5]). The estimate
    /// lies inside the bracket at every BER: at 0 everything is 0; at 0.5 the
    /// exact value comes from counting the words that pass
    /// (exact there); elsewhere it is given only where the enumerated
    /// (and sampled) weights dominate, that is where the certified remainder
    /// above them is at most their sum ([`JointMethod`]).
    pub fn at(&self, p: f64) -> Result<JointPoint> {
        bsc::check_ber(p)?;
        let exact_point = |v: f64, method| JointPoint {
            ber: p,
            low: v,
            high: v,
            estimate: Some(v),
            interval: (v, v),
            exact: true,
            method,
        };
        if p == 0.0 {
            return Ok(exact_point(0.0, JointMethod::NoError));
        }
        if self.model.internet.is_empty() {
            let v = crate::dual::p_undetected(&self.dual, p)?;
            return Ok(exact_point(v, JointMethod::CrcAlone));
        }
        let n = self.model.n as u64;
        let w = self.max_weight as usize;
        let pp = |t: &Term| bsc::pattern_probability(n, t.weight as u64, p);
        let sum: f64 = self.terms.iter().map(|t| t.contribution(n, p)).sum();
        let model_err: f64 = self.terms.iter().map(|t| t.model_error * pp(t)).sum();
        let rest = crate::highprec::p_undetected_above(&self.dual, p, &self.a[1..=w])?;
        let low = (sum - model_err).max(0.0);
        let high = sum + model_err + rest;
        if p == 0.5
            && let Some(f) = &self.frame
            && let Ok(v) = escape_at_half(f)
        {
            if !(low * (1.0 - 1e-12) <= v && v <= high * (1.0 + 1e-12)) {
                return Err(Error::Invalid(format!(
                    "internal error at BER 0.5: the exact value {v:e} is outside the bracket [{low:e}, {high:e}]"
                )));
            }
            return Ok(exact_point(v, JointMethod::Uniform));
        }
        let enumerated = |est: f64, interval| JointPoint {
            ber: p,
            low,
            high,
            estimate: Some(est),
            interval,
            exact: true,
            method: JointMethod::Enumerated,
        };
        let bracket_only = JointPoint {
            ber: p,
            low,
            high,
            estimate: None,
            interval: (low, high),
            exact: true,
            method: JointMethod::BracketOnly,
        };
        let dominated = rest + 2.0 * model_err <= low;
        let Some(s) = &self.sampled else {
            return Ok(if dominated {
                enumerated(low, (low, high))
            } else {
                bracket_only
            });
        };
        let rest2 = crate::highprec::p_undetected_above(&self.dual, p, &self.a[1..=w + 1])?;
        let ps = pp(s);
        let est = sum + s.contribution(n, p);
        let err = model_err + s.model_error * ps;
        let lo = (sum + (s.pass_sum - s.pass_sum_ci).max(0.0) * ps - err).max(low);
        let hi = (sum + (s.pass_sum + s.pass_sum_ci) * ps + err + rest2).min(high);
        if rest2 + 2.0 * err > est {
            // the sampled weight does not settle it either
            return Ok(if dominated {
                enumerated(low, (low, high))
            } else {
                bracket_only
            });
        }
        Ok(JointPoint {
            ber: p,
            low,
            high,
            estimate: Some(est.clamp(low, high)),
            interval: (lo.min(hi), hi),
            exact: false,
            method: JointMethod::Sampled,
        })
    }
}
