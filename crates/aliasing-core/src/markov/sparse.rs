//! The general error-mass Markov engine over `sprs` CSR transition matrices.
//!
//! Any finite chain driven by a bit-error process fits: the state may be the
//! CRC register alone, or the product of the register and a channel state
//! (Gilbert-Elliott bursts). The one-step transition matrix is split into
//! `M = M_clean + M_error`: the transitions that flip no bit and those that
//! flip one. With `C_t` the mass of the error-free paths (a vector) and `Q_t`
//! the mass of the paths that have seen at least one error:
//!
//! ```text
//! C_{t+1} = M_clean C_t
//! Q_{t+1} = M_clean Q_t + M_error (Q_t + C_t)
//! P_undetected(t) = sum of Q_t over the accepting states
//! ```
//!
//! Every term is a sum of products of non-negative numbers, so the relative
//! error stays near `t * eps` even when `P_undetected` is 1e-40 or smaller;
//! nothing is ever subtracted.
//!
//! Matrices are column-stochastic in sum: entry `(i, j)` is the probability of
//! moving from state `j` to state `i` (rows are destinations), so one step is
//! a CSR matrix-vector product.

use crate::error::{Error, Result};
use crate::poly::Generator;
use rayon::prelude::*;
use sprs::CsMat;

/// Number of states above which a step is split across rayon threads.
const PARALLEL_STATES: usize = 1 << 15;

/// A finite Markov chain driven by bit errors, in error-mass form.
#[derive(Debug, Clone)]
pub(crate) struct ErrorChain {
    clean: CsMat<f64>,
    error: CsMat<f64>,
    start: Vec<f64>,
    accept: Vec<usize>,
}

impl ErrorChain {
    /// A chain from its error-free and error transitions (CSR, rows are
    /// destinations), its start distribution and its accepting states (where
    /// every check passes).
    ///
    /// Fails unless both matrices are square of the same size, entries and
    /// start masses are non-negative, each column of `clean + error` sums to 1
    /// and the start masses sum to 1 (both within 1e-12), and the accepting
    /// states are in range.
    pub fn new(
        clean: CsMat<f64>,
        error: CsMat<f64>,
        start: Vec<f64>,
        accept: Vec<usize>,
    ) -> Result<Self> {
        let n = start.len();
        let bad = |m: String| Err(Error::Invalid(format!("invalid Markov chain: {m}")));
        if clean.shape() != (n, n) || error.shape() != (n, n) {
            return bad(format!(
                "matrices are {:?} and {:?}, start vector has {n} states",
                clean.shape(),
                error.shape()
            ));
        }
        let clean = if clean.is_csr() {
            clean
        } else {
            clean.to_csr()
        };
        let error = if error.is_csr() {
            error
        } else {
            error.to_csr()
        };
        let mut colsum = vec![0.0; n];
        for m in [&clean, &error] {
            for (&j, &v) in m.indices().iter().zip(m.data()) {
                if !(v.is_finite() && v >= 0.0) {
                    return bad(format!("transition probability {v} into state {j}"));
                }
                colsum[j] += v;
            }
        }
        if let Some((j, s)) = colsum
            .iter()
            .enumerate()
            .find(|(_, s)| (**s - 1.0).abs() > 1e-12)
        {
            return bad(format!("transitions out of state {j} sum to {s}, not 1"));
        }
        if start.iter().any(|v| !(v.is_finite() && *v >= 0.0))
            || (start.iter().sum::<f64>() - 1.0).abs() > 1e-12
        {
            return bad("start distribution is not a probability vector".into());
        }
        if let Some(a) = accept.iter().find(|&&a| a >= n) {
            return bad(format!("accepting state {a} is out of range"));
        }
        Ok(ErrorChain {
            clean,
            error,
            start,
            accept,
        })
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.start.len()
    }

    /// The error-free transitions.
    pub fn clean(&self) -> &CsMat<f64> {
        &self.clean
    }

    /// The transitions that flip a bit.
    pub fn error(&self) -> &CsMat<f64> {
        &self.error
    }

    /// `P_undetected(t)` for every `t` in `lengths` (any order), in one pass
    /// up to the largest.
    pub fn p_undetected(&self, lengths: &[u64]) -> Vec<f64> {
        let n = self.states();
        let mut c = self.start.clone();
        let mut q = vec![0.0; n];
        let mut c_next = vec![0.0; n];
        let mut q_next = vec![0.0; n];
        let mut order: Vec<usize> = (0..lengths.len()).collect();
        order.sort_by_key(|&i| lengths[i]);
        let mut out = vec![0.0; lengths.len()];
        let mut k = 0;
        let mut t = 0u64;
        loop {
            while k < order.len() && lengths[order[k]] == t {
                out[order[k]] = self.accept.iter().map(|&a| q[a]).sum();
                k += 1;
            }
            if k == order.len() {
                break;
            }
            self.step(&c, &q, &mut c_next, &mut q_next);
            std::mem::swap(&mut c, &mut c_next);
            std::mem::swap(&mut q, &mut q_next);
            t += 1;
        }
        out
    }

    /// One step: `C' = M_clean C`, `Q' = M_clean Q + M_error (Q + C)`.
    fn step(&self, c: &[f64], q: &[f64], c_next: &mut [f64], q_next: &mut [f64]) {
        // Owned CSR matrices: the index pointers start at 0.
        let (cp, ep) = (self.clean.indptr(), self.error.indptr());
        let (ci, cx, cv) = (cp.raw_storage(), self.clean.indices(), self.clean.data());
        let (ei, ex, ev) = (ep.raw_storage(), self.error.indices(), self.error.data());
        let row = |i: usize, cn: &mut f64, qn: &mut f64| {
            let (mut sc, mut sq) = (0.0, 0.0);
            for k in ci[i]..ci[i + 1] {
                sc += cv[k] * c[cx[k]];
                sq += cv[k] * q[cx[k]];
            }
            for k in ei[i]..ei[i + 1] {
                sq += ev[k] * (q[ex[k]] + c[ex[k]]);
            }
            *cn = sc;
            *qn = sq;
        };
        if self.states() >= PARALLEL_STATES {
            const ROWS: usize = 4096;
            c_next
                .par_chunks_mut(ROWS)
                .zip(q_next.par_chunks_mut(ROWS))
                .enumerate()
                .for_each(|(b, (cs, qs))| {
                    for (o, (cn, qn)) in cs.iter_mut().zip(qs.iter_mut()).enumerate() {
                        row(b * ROWS + o, cn, qn);
                    }
                });
        } else {
            for (i, (cn, qn)) in c_next.iter_mut().zip(q_next.iter_mut()).enumerate() {
                row(i, cn, qn);
            }
        }
    }
}

/// The CRC register chain of `g` on a binary symmetric channel with BER `p`,
/// as CSR matrices.
///
/// State `s` is the `r`-bit register; an error bit `b` moves it to
/// `shift(s) ^ (msb(s) ^ b ? g : 0)`. The error-free register stays in state 0
/// (linearity), which is the start state and the only accepting state.
/// Memory: about `2^r * 40` bytes; the caller checks the width.
pub(crate) fn crc_chain(g: &Generator, p: f64) -> Result<ErrorChain> {
    crate::bsc::check_ber(p)?;
    let r = g.width();
    if r > 30 {
        return Err(Error::Limit(crate::error::Limit::SparseStates {
            width: r,
            max_log2: 30,
        }));
    }
    let n = 1usize << r;
    let half = n / 2;
    let h = (g.normal() >> 1) as usize;
    let q = 1.0 - p;
    // Row 2m   <- clean from m (b=0), error from m+half (b=1).
    // Row 2m+1 <- clean from (m^h)+half (b=0), error from m^h (b=1).
    let indptr: Vec<usize> = (0..=n).collect();
    let mut ci = Vec::with_capacity(n);
    let mut ei = Vec::with_capacity(n);
    for m in 0..half {
        let m2 = m ^ h;
        ci.push(m);
        ei.push(m + half);
        ci.push(m2 + half);
        ei.push(m2);
    }
    let clean = CsMat::new((n, n), indptr.clone(), ci, vec![q; n]);
    let error = CsMat::new((n, n), indptr, ei, vec![p; n]);
    let mut start = vec![0.0; n];
    start[0] = 1.0;
    ErrorChain::new(clean, error, start, vec![0])
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use sprs::TriMat;

    pub fn crc_chain_follows_the_register() {
        // Compare the CSR structure with a bit-serial register step.
        for spec in ["0x107", "0x11D", "0x13", "0x3", "0x1021F"] {
            let g: Generator = spec.parse().unwrap();
            let chain = crc_chain(&g, 0.25).unwrap();
            let r = g.width();
            let mask = g.mask();
            for s in 0..(1u64 << r) {
                for b in 0..2u64 {
                    let fb = (s >> (r - 1)) & 1 ^ b;
                    let next = ((s << 1) & mask) ^ if fb == 1 { g.normal() } else { 0 };
                    let m = if b == 0 { chain.clean() } else { chain.error() };
                    let v = m.get(next as usize, s as usize).copied();
                    assert_eq!(v, Some(if b == 0 { 0.75 } else { 0.25 }), "{spec} {s} {b}");
                }
            }
        }
    }

    pub fn rejects_bad_chains() {
        let mut t = TriMat::new((2, 2));
        t.add_triplet(0, 0, 0.5);
        t.add_triplet(1, 1, 0.5);
        let clean: CsMat<f64> = t.to_csr();
        // Error part missing: columns sum to 0.5.
        let zero = CsMat::zero((2, 2));
        assert!(ErrorChain::new(clean.clone(), zero, vec![1.0, 0.0], vec![0]).is_err());
        let mut e = TriMat::new((2, 2));
        e.add_triplet(1, 0, 0.5);
        e.add_triplet(0, 1, 0.5);
        let error: CsMat<f64> = e.to_csr();
        assert!(ErrorChain::new(clean.clone(), error.clone(), vec![1.0, 0.0], vec![0]).is_ok());
        assert!(ErrorChain::new(clean.clone(), error.clone(), vec![0.5, 0.0], vec![0]).is_err());
        assert!(ErrorChain::new(clean, error, vec![1.0, 0.0], vec![2]).is_err());
    }

    pub fn two_state_parity_chain() {
        // Width-1 CRC (x + 1) is a parity bit: escapes are even-weight patterns.
        // P_ud(n) = ((1 + (1-2p)^n) / 2) - (1-p)^n, checked at p = 1/4, n = 3:
        // patterns of weight 2: 3 * p^2 (1-p) = 3 * 1/16 * 3/4 = 9/64.
        let g: Generator = "0x3".parse().unwrap();
        let chain = crc_chain(&g, 0.25).unwrap();
        let v = chain.p_undetected(&[3, 0, 1, 2]);
        assert_eq!(v, vec![9.0 / 64.0, 0.0, 0.0, 1.0 / 16.0]);
    }

    /// A Gilbert-Elliott product chain (register x channel state,
    /// [`super::super::gilbert::sparse_chain`]) against
    /// brute force over every error pattern, each weighted by the channel's
    /// forward recursion: the general engine with a clean mass spread over
    /// several states and several accepting states.
    #[allow(clippy::needless_range_loop)]
    pub fn gilbert_elliott_product_chain_against_brute_force() {
        let g: Generator = "0x13".parse().unwrap(); // x^4 + x + 1
        let r = g.width();
        let pe = [1e-3, 0.3]; // error probability in the good and bad state
        // t[c][c2]: channel moves from c to c2 after each bit.
        let t = [[0.95, 0.05], [0.4, 0.6]];
        let pi = [0.4 / 0.45, 0.05 / 0.45]; // stationary distribution
        let ge = crate::channel::GilbertElliott {
            p_good: pe[0],
            p_bad: pe[1],
            good_to_bad: t[0][1],
            bad_to_good: t[1][0],
        };
        let chain = super::super::gilbert::sparse_chain(&g, &ge).unwrap();
        let nmax = 12usize;
        let lengths: Vec<u64> = (0..=nmax as u64).collect();
        let got = chain.p_undetected(&lengths);
        for n in 0..=nmax {
            let mut want = 0.0;
            for e in 1u64..(1 << n) {
                // Bit i (time i) is the coefficient of x^(n-1-i).
                let syn = (0..n).filter(|i| (e >> i) & 1 == 1).fold(0, |acc, i| {
                    acc ^ crate::gf2::x_pow_mod((n - 1 - i) as u128, &g)
                });
                if syn != 0 {
                    continue;
                }
                let mut alpha = pi;
                for i in 0..n {
                    let bit = (e >> i) & 1 == 1;
                    let mut next = [0.0; 2];
                    for c in 0..2 {
                        let emit = if bit { pe[c] } else { 1.0 - pe[c] };
                        for c2 in 0..2 {
                            next[c2] += alpha[c] * emit * t[c][c2];
                        }
                    }
                    alpha = next;
                }
                want += alpha[0] + alpha[1];
            }
            let tol = 1e-13 * want.abs().max(got[n].abs());
            assert!((got[n] - want).abs() <= tol, "n={n}: {} vs {want}", got[n]);
            if n > r as usize {
                assert!(want > 0.0);
            }
        }
    }
}
