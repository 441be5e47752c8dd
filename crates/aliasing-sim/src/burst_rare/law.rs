//! The law of error patterns on a Gilbert-Elliott channel: exact pattern
//! probabilities ([`PatternLaw`]) from 2x2 transfer matrices, and the
//! proposal channel the draws come from.

use super::*;

/// A 2x2 matrix, row-vector convention: `a' = a M`, `M[i][j]` from state `i` to `j`.
pub(super) type M2 = [[f64; 2]; 2];

pub(super) fn vm(a: [f64; 2], m: &M2) -> [f64; 2] {
    [
        a[0] * m[0][0] + a[1] * m[1][0],
        a[0] * m[0][1] + a[1] * m[1][1],
    ]
}

pub(super) fn mv(m: &M2, b: [f64; 2]) -> [f64; 2] {
    [
        m[0][0] * b[0] + m[0][1] * b[1],
        m[1][0] * b[0] + m[1][1] * b[1],
    ]
}

pub(super) fn mm(a: &M2, b: &M2) -> M2 {
    [vm(a[0], b), vm(a[1], b)]
}

/// Scales `v` so its larger entry is 1, adding the log of the factor to
/// `ln`; an all-zero vector sets `ln` to minus infinity.
pub(super) fn renorm(v: &mut [f64; 2], ln: &mut f64) {
    let s = v[0].max(v[1]);
    if s > 0.0 {
        v[0] /= s;
        v[1] /= s;
        *ln += s.ln();
    } else {
        *ln = f64::NEG_INFINITY;
    }
}

pub(super) fn renorm_m(m: &mut M2) -> f64 {
    let s = m[0][0].max(m[0][1]).max(m[1][0]).max(m[1][1]);
    if s > 0.0 {
        for r in m.iter_mut() {
            r[0] /= s;
            r[1] /= s;
        }
        s.ln()
    } else {
        f64::NEG_INFINITY
    }
}

/// `ln(e^a + e^b)`.
pub(super) fn ln_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        hi
    } else {
        hi + (lo - hi).exp().ln_1p()
    }
}

/// Clean runs shorter than this come from one table entry.
pub(super) const SMALL: usize = 1 << 12;

/// Exact probabilities of error patterns on one Gilbert-Elliott channel over
/// frames of `n` bits: bit `t` is sent in state `c_t`, flips with `e_{c_t}`,
/// then the state moves; `c_0` is stationary.
#[derive(Debug, Clone)]
pub struct PatternLaw {
    pub(super) n: u64,
    pub(super) pi: [f64; 2],
    pub(super) err: M2,
    pub(super) clean: M2,
    pub(super) free: M2,
    /// `free^d` (the channel's own moves) for `d <= 64`.
    pub(super) free_pow: Vec<M2>,
    /// `clean^d` for `d < SMALL`, scaled, with its log scale.
    pub(super) small: Vec<(M2, f64)>,
    /// `clean^(SMALL q)` for `q <= n / SMALL`.
    pub(super) big: Vec<(M2, f64)>,
}

impl PatternLaw {
    /// The law of `ge` (validated) over frames of `n` bits.
    pub fn new(ge: &GilbertElliott, n: u64) -> Result<Self> {
        ge.validate()?;
        let t: M2 = [
            [1.0 - ge.good_to_bad, ge.good_to_bad],
            [ge.bad_to_good, 1.0 - ge.bad_to_good],
        ];
        let e = [ge.p_good, ge.p_bad];
        let err: M2 = [
            [e[0] * t[0][0], e[0] * t[0][1]],
            [e[1] * t[1][0], e[1] * t[1][1]],
        ];
        let clean: M2 = [
            [(1.0 - e[0]) * t[0][0], (1.0 - e[0]) * t[0][1]],
            [(1.0 - e[1]) * t[1][0], (1.0 - e[1]) * t[1][1]],
        ];
        let id: M2 = [[1.0, 0.0], [0.0, 1.0]];
        let mut small = Vec::with_capacity(SMALL);
        let (mut m, mut ln) = (id, 0.0);
        for _ in 0..SMALL.min(n as usize + 1).max(1) {
            small.push((m, ln));
            m = mm(&m, &clean);
            ln += renorm_m(&mut m);
        }
        // m is now clean^len(small); extend to SMALL if the frame is short
        while small.len() < SMALL {
            small.push((m, ln));
            m = mm(&m, &clean);
            ln += renorm_m(&mut m);
        }
        let step = {
            let (mut s, mut l) = small[SMALL - 1];
            s = mm(&s, &clean);
            l += renorm_m(&mut s);
            (s, l)
        };
        let mut big = vec![(id, 0.0)];
        for q in 1..=(n as usize / SMALL) {
            let (b, l) = big[q - 1];
            let mut c = mm(&b, &step.0);
            let lc = l + step.1 + renorm_m(&mut c);
            big.push((c, lc));
        }
        let mut free_pow = vec![id];
        for d in 1..=64 {
            free_pow.push(mm(&free_pow[d - 1], &t));
        }
        Ok(PatternLaw {
            n,
            free_pow,
            pi: ge.stationary(),
            err,
            clean,
            free: t,
            small,
            big,
        })
    }

    /// Row vector times `clean^d`.
    pub(super) fn gap_row(&self, a: &mut [f64; 2], ln: &mut f64, d: u64) {
        let (q, r) = ((d / SMALL as u64) as usize, (d % SMALL as u64) as usize);
        if r > 0 {
            let (m, l) = &self.small[r];
            *a = vm(*a, m);
            *ln += l;
            renorm(a, ln);
        }
        if q > 0 {
            let (m, l) = &self.big[q];
            *a = vm(*a, m);
            *ln += l;
            renorm(a, ln);
        }
    }

    /// `clean^d` times column vector.
    pub(super) fn gap_col(&self, b: &mut [f64; 2], ln: &mut f64, d: u64) {
        let (q, r) = ((d / SMALL as u64) as usize, (d % SMALL as u64) as usize);
        if r > 0 {
            let (m, l) = &self.small[r];
            *b = mv(m, *b);
            *ln += l;
            renorm(b, ln);
        }
        if q > 0 {
            let (m, l) = &self.big[q];
            *b = mv(m, *b);
            *ln += l;
            renorm(b, ln);
        }
    }

    /// `ln P(exactly the bits at `errors` flip)`, positions increasing and
    /// below `n`.
    ///
    /// ```
    /// use aliasing_sim::burst_rare::PatternLaw;
    /// use aliasing_sim::channel::GilbertElliott;
    /// let ge: GilbertElliott = "0.01,0.5,0.1,0.3".parse().unwrap();
    /// let law = PatternLaw::new(&ge, 2).unwrap();
    /// // the four patterns of two bits add up to 1
    /// let total: f64 = [&[][..], &[0], &[1], &[0, 1]]
    ///     .iter()
    ///     .map(|e| law.ln_prob(e).exp())
    ///     .sum();
    /// assert!((total - 1.0).abs() < 1e-15);
    /// ```
    pub fn ln_prob(&self, errors: &[u32]) -> f64 {
        let (mut a, mut ln) = (self.pi, 0.0);
        let mut pos = 0u64;
        for &p in errors {
            self.gap_row(&mut a, &mut ln, p as u64 - pos);
            a = vm(a, &self.err);
            renorm(&mut a, &mut ln);
            if ln == f64::NEG_INFINITY {
                return ln;
            }
            pos = p as u64 + 1;
        }
        self.gap_row(&mut a, &mut ln, self.n - pos);
        ln + (a[0] + a[1]).ln()
    }

    /// `ln sum over j of P(exactly errors - {errors[j]} flip)`, by one
    /// forward and one backward pass (`-inf` for no errors).
    pub fn ln_leave_one_out(&self, errors: &[u32]) -> f64 {
        let k = errors.len();
        if k == 0 {
            return f64::NEG_INFINITY;
        }
        // forward: the row vector before bit errors[j]
        let mut fwd = Vec::with_capacity(k);
        let (mut a, mut ln) = (self.pi, 0.0);
        let mut pos = 0u64;
        for &p in errors {
            self.gap_row(&mut a, &mut ln, p as u64 - pos);
            fwd.push((a, ln));
            a = vm(a, &self.err);
            renorm(&mut a, &mut ln);
            pos = p as u64 + 1;
        }
        // backward: the column vector after bit errors[j]
        let (mut b, mut lb) = ([1.0, 1.0], 0.0);
        let mut end = self.n;
        let mut total = f64::NEG_INFINITY;
        for j in (0..k).rev() {
            let p = errors[j] as u64;
            self.gap_col(&mut b, &mut lb, end - p - 1);
            let (a, la) = fwd[j];
            let c = vm(a, &self.clean);
            let v = c[0] * b[0] + c[1] * b[1];
            if v > 0.0 && la > f64::NEG_INFINITY && lb > f64::NEG_INFINITY {
                total = ln_add(total, la + lb + v.ln());
            }
            b = mv(&self.err, b);
            renorm(&mut b, &mut lb);
            end = p;
        }
        total
    }
}

/// The proposal [`estimate`] uses unless told otherwise: the channel with
/// its good-to-bad probability and good-state BER scaled up by the same
/// factor `c`, so that a frame of `n` bits carries about three errors
/// (`c = 3 / (n * mean BER)`, at least 1, each scaled probability at most
/// 1/2), then every parameter clamped into `[1e-9, 1 - 1e-9]` so the
/// proposal reaches every pattern. Burst length and the bad-state BER are
/// kept: bursts come more often, and look as they do on the channel.
/// Refused only where `ge` is no valid chain (a parameter not a number).
pub fn default_proposal(ge: &GilbertElliott, n: u64) -> Result<GilbertElliott> {
    let mean = n as f64 * ge.mean_ber();
    let c = if mean > 0.0 {
        (3.0 / mean).max(1.0)
    } else {
        1.0
    };
    let clamp = |p: f64| p.clamp(1e-9, 1.0 - 1e-9);
    GilbertElliott::new(
        clamp((ge.p_good * c).min(0.5).max(ge.p_good)),
        clamp(ge.p_bad),
        clamp((ge.good_to_bad * c).min(0.5).max(ge.good_to_bad)),
        clamp(ge.bad_to_good),
    )
}

/// Checks that a proposal reaches every error pattern.
pub(super) fn check_proposal(q: &GilbertElliott) -> Result<()> {
    q.validate()?;
    let inside = |p: f64| p > 0.0 && p < 1.0;
    if ![q.p_good, q.p_bad, q.good_to_bad, q.bad_to_good]
        .into_iter()
        .all(inside)
    {
        return Err(Error::Invalid(format!(
            "proposal {q}: every parameter must lie strictly between 0 and 1"
        )));
    }
    Ok(())
}
