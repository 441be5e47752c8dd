//! Exact (Clopper-Pearson) confidence intervals for a binomial proportion,
//! written by hand: the bounds solve `P(X >= x; n, p) = alpha/2` and
//! `P(X <= x; n, p) = alpha/2` by bisection on `p` in log space, with the
//! binomial tail computed as the regularized incomplete beta function
//! (continued fraction) and its prefactor as a binomial probability by
//! Loader's saddle-point method, which stays accurate for `n` up to 1e15.
//!
//! ```
//! use aliasing_sim::interval::clopper_pearson;
//! let (lo, hi) = clopper_pearson(0, 1_000_000_000, 0.95);
//! assert_eq!(lo, 0.0);
//! assert!((hi / 3.6888794541139363e-9 - 1.0).abs() < 1e-8); // about -ln(0.025)/n
//! ```

use std::f64::consts::PI;

/// `ln(k!) - ln(sqrt(2 pi k) (k/e)^k)`, the error of Stirling's formula.
fn stirlerr(k: f64) -> f64 {
    if k <= 15.0 {
        // exact ln k! by summation, k integer
        let mut lf = 0.0;
        let mut i = 2.0;
        while i <= k {
            lf += f64::ln(i);
            i += 1.0;
        }
        if k == 0.0 {
            return 0.0; // unused (handled by callers)
        }
        return lf - ((k + 0.5) * k.ln() - k + 0.5 * (2.0 * PI).ln());
    }
    let k2 = k * k;
    (1.0 / 12.0
        - (1.0 / 360.0 - (1.0 / 1260.0 - (1.0 / 1680.0 - 1.0 / (1188.0 * k2)) / k2) / k2) / k2)
        / k
}

/// `x ln(x/m) + m - x` (the deviance), given `d = x - m` computed without cancellation.
fn bd0(x: f64, m: f64, d: f64) -> f64 {
    if d.abs() < 0.1 * (x + m) {
        let v = d / (x + m);
        let mut s = d * v;
        let mut ej = 2.0 * x * v;
        let v2 = v * v;
        for j in 1..1000 {
            ej *= v2;
            let s1 = s + ej / (2 * j + 1) as f64;
            if s1 == s {
                return s1;
            }
            s = s1;
        }
        s
    } else {
        x * (x / m).ln() + m - x
    }
}

/// `ln P(X = k)` for `X ~ Binomial(n, p)`, `0 < p < 1`.
#[doc(hidden)]
pub fn ln_binom_pmf(k: u64, n: u64, p: f64) -> f64 {
    let (kf, nf) = (k as f64, n as f64);
    let q = 1.0 - p;
    if k == 0 {
        return nf * (-p).ln_1p();
    }
    if k == n {
        return nf * p.ln();
    }
    let np = nf * p;
    let nq = nf * q;
    let d1 = kf - np;
    let d2 = -d1; // (n - k) - nq = np - k exactly
    stirlerr(nf)
        - stirlerr(kf)
        - stirlerr((n - k) as f64)
        - bd0(kf, np, d1)
        - bd0((n - k) as f64, nq, d2)
        + 0.5 * (nf / (2.0 * PI * kf * (n - k) as f64)).ln()
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn betacf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let floor = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let (mut c, mut d) = (1.0, 1.0 / floor(1.0 - qab * x / qap));
    let mut h = d;
    // One Lentz step with coefficient `aa`; returns the factor it puts on `h`.
    let mut step = |aa: f64| {
        d = 1.0 / floor(1.0 + aa * d);
        c = floor(1.0 + aa / c);
        d * c
    };
    for m in 1..10_000_000u64 {
        let m = m as f64;
        let m2 = 2.0 * m;
        h *= step(m * (b - m) * x / ((qam + m2) * (a + m2)));
        let del = step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)));
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// Upper tail `P(X >= k)` for `X ~ Binomial(n, p)`, `1 <= k <= n`.
pub(crate) fn binom_upper_tail(k: u64, n: u64, p: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 || k == 0 {
        return 1.0;
    }
    // P(X >= k) = I_p(k, n-k+1); prefactor p^k q^(n-k+1) / (k B(k, n-k+1)) = pmf(k) q
    let (a, b) = (k as f64, (n - k + 1) as f64);
    if p < (a + 1.0) / (a + b + 2.0) {
        (ln_binom_pmf(k, n, p) + (-p).ln_1p()).exp() * betacf(a, b, p)
    } else {
        1.0 - binom_lower_tail(k - 1, n, p)
    }
}

/// Lower tail `P(X <= k)` for `X ~ Binomial(n, p)`.
pub(crate) fn binom_lower_tail(k: u64, n: u64, p: f64) -> f64 {
    if k >= n || p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    let (a, b) = ((k + 1) as f64, (n - k) as f64);
    if p < (a + 1.0) / (a + b + 2.0) {
        return 1.0 - binom_upper_tail(k + 1, n, p);
    }
    if k <= 5000 {
        // Sum pmf(k), pmf(k-1), ... by the ratio pmf(j-1)/pmf(j) = j q / ((n-j+1) p):
        // every term is positive, no cancellation.
        let ratio = (-p).ln_1p() - p.ln();
        let mut term = ln_binom_pmf(k, n, p);
        let mut sum = term.exp();
        let mut j = k;
        while j > 0 {
            term += (j as f64).ln() - ((n - j + 1) as f64).ln() + ratio;
            let t = term.exp();
            sum += t;
            if t < sum * 1e-17 {
                break;
            }
            j -= 1;
        }
        return sum;
    }
    // Large k: the continued fraction of the complement (relative error about
    // eps * n / sqrt(k), far below what a printed interval shows).
    (ln_binom_pmf(k, n, p) + p.ln()).exp() * betacf(b, a, 1.0 - p)
}

/// Solves `f(p) = target` for a monotone `f` on (0, 1) by bisection on `ln p`
/// (then on `p`), `increasing` giving the direction.
fn solve(f: impl Fn(f64) -> f64, target: f64, increasing: bool) -> f64 {
    let (mut lo, mut hi) = (f64::MIN_POSITIVE, 1.0);
    for _ in 0..200 {
        let mid = if hi / lo > 4.0 {
            (lo * hi).sqrt()
        } else {
            0.5 * (lo + hi)
        };
        if mid <= lo || mid >= hi {
            break;
        }
        let above = f(mid) > target;
        if above == increasing {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The Clopper-Pearson interval for `x` successes in `n` trials at
/// confidence `level` (e.g. 0.95). Zero successes give `(0, upper bound)`.
pub fn clopper_pearson(x: u64, n: u64, level: f64) -> (f64, f64) {
    assert!(x <= n && n > 0);
    let a2 = (1.0 - level) / 2.0;
    let lo = if x == 0 {
        0.0
    } else if x == n {
        // (p)^n = a2
        (a2.ln() / n as f64).exp()
    } else {
        solve(|p| binom_upper_tail(x, n, p), a2, true)
    };
    let hi = if x == n {
        1.0
    } else if x == 0 {
        // (1-p)^n = a2  =>  p = -expm1(ln(a2)/n)
        -(a2.ln() / n as f64).exp_m1()
    } else {
        solve(|p| binom_lower_tail(x, n, p), a2, false)
    };
    (lo, hi)
}
