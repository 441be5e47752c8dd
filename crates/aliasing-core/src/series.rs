//! Small numerical kernels shared by the characteristic-function methods
//! ([`crate::internet`], [`crate::fletcher`]): the tails of the exponential
//! series without cancellation, and compensated summation.

/// `1 / m!` for `m = 0..=21`.
const INV_FACT: [f64; 22] = {
    let mut t = [1.0f64; 22];
    let mut f = 1.0f64;
    let mut m = 1;
    while m <= 21 {
        f *= m as f64;
        t[m] = 1.0 / f;
        m += 1;
    }
    t
};

/// `exp(z) - 1 - z`, accurate near 0 (series for `|z| < 0.5`, where
/// `0.5^21 / 21!` is below 1e-22 relative).
pub(crate) fn expm1_minus(z: f64) -> f64 {
    if z.abs() < 0.5 {
        let mut s = 0.0;
        for inv in INV_FACT[2..].iter().rev() {
            s = s * z + inv;
        }
        s * z * z
    } else {
        f64::exp_m1(z) - z
    }
}

/// `exp(z) - 1 - z - z^2/2`, accurate near 0.
pub(crate) fn expm1_minus2(z: f64) -> f64 {
    if z.abs() < 0.5 {
        let mut s = 0.0;
        for inv in INV_FACT[3..].iter().rev() {
            s = s * z + inv;
        }
        s * z * z * z
    } else {
        f64::exp_m1(z) - z - 0.5 * z * z
    }
}

/// `ln(1+x) - x`, accurate near 0 (series for `|x| < 0.1`:
/// `0.1^18 / 20` is below 1e-19 relative to `x^2 / 2`).
pub(crate) fn ln1p_minus(x: f64) -> f64 {
    if x.abs() < 0.1 {
        let mut s = 0.0;
        for m in (2..=20).rev() {
            let c = if m % 2 == 0 { -1.0 } else { 1.0 } / m as f64;
            s = s * x + c;
        }
        s * x * x
    } else {
        f64::ln_1p(x) - x
    }
}

/// Neumaier compensated sum.
#[derive(Default)]
pub(crate) struct Sum {
    s: f64,
    c: f64,
}

impl Sum {
    pub(crate) fn add(&mut self, x: f64) {
        let t = self.s + x;
        if self.s.abs() >= x.abs() {
            self.c += (self.s - t) + x;
        } else {
            self.c += (x - t) + self.s;
        }
        self.s = t;
    }
    pub(crate) fn value(&self) -> f64 {
        self.s + self.c
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn series_tails_match_direct_evaluation_away_from_zero_and_are_exact_near_it() {
        for z in [-0.49, -0.3, -0.1, 0.2, 0.49] {
            assert!((expm1_minus(z) - (f64::exp_m1(z) - z)).abs() < 1e-15);
            assert!((expm1_minus2(z) - (f64::exp_m1(z) - z - z * z / 2.0)).abs() < 1e-15);
        }
        // near 0 the leading terms z^2/2 and z^3/6 dominate
        let z = 1e-9;
        assert!((expm1_minus(z) / (z * z / 2.0) - 1.0).abs() < 1e-8);
        assert!((expm1_minus2(z) / (z * z * z / 6.0) - 1.0).abs() < 1e-8);
        for x in [-0.09, -0.01, 0.05, 0.2] {
            assert!((ln1p_minus(x) - (f64::ln_1p(x) - x)).abs() < 1e-15);
        }
        assert!((ln1p_minus(1e-9) / (-0.5e-18) - 1.0).abs() < 1e-8);
        let mut s = Sum::default();
        for x in [1e16, 1.0, -1e16, 1.0] {
            s.add(x);
        }
        assert_eq!(s.value(), 2.0);
    }
}
