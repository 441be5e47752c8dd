//! The tests of `aliasing_sim::interval` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_sim::interval::*;

/// ln C(n, k) p^k (1-p)^(n-k) by direct summation, for small k.
fn naive_ln_pmf(k: u64, n: u64, p: f64) -> f64 {
    let mut l = 0.0;
    for i in 0..k {
        l += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    l + k as f64 * p.ln() + (n - k) as f64 * (-p).ln_1p()
}

#[test]
fn pmf_matches_direct_computation() {
    for &(n, p) in &[
        (10u64, 0.3),
        (1000, 1e-3),
        (1_000_000_000, 3e-9),
        (1u64 << 40, 1e-12),
    ] {
        for k in 0..8.min(n) {
            let a = ln_binom_pmf(k, n, p);
            let b = naive_ln_pmf(k, n, p);
            assert!(
                (a - b).abs() < 1e-9 * b.abs().max(1.0),
                "n={n} k={k}: {a} {b}"
            );
        }
    }
}

#[test]
fn published_clopper_pearson_bounds() {
    // R: binom.test(x, n)$conf.int (exact Clopper-Pearson, 95%)
    let cases = [
        (0u64, 10u64, 0.0, 0.3084971),
        (1, 10, 0.002528579, 0.4450161),
        (5, 10, 0.1870860, 0.8129140),
        (10, 10, 0.6915029, 1.0),
    ];
    for (x, n, lo, hi) in cases {
        let (l, h) = clopper_pearson(x, n, 0.95);
        assert!(
            (l - lo).abs() <= 5e-7 * lo.max(1e-300) + 1e-300,
            "{x}/{n}: {l}"
        );
        assert!((h - hi).abs() <= 5e-7 * hi, "{x}/{n}: {h}");
    }
}

#[test]
fn bounds_solve_their_defining_equations_at_large_n() {
    // Check the tails at the solved bounds by direct summation of pmf terms.
    for &(x, n) in &[
        (1u64, 1_000_000_000u64),
        (3, 1_000_000_000),
        (45, 16_743),
        (7, 1u64 << 40),
    ] {
        let (lo, hi) = clopper_pearson(x, n, 0.95);
        let lower: f64 = (0..=x).map(|j| naive_ln_pmf(j, n, hi).exp()).sum();
        assert!((lower / 0.025 - 1.0).abs() < 1e-8, "{x}/{n} upper: {lower}");
        let below: f64 = (0..x).map(|j| naive_ln_pmf(j, n, lo).exp()).sum();
        assert!(
            ((1.0 - below) / 0.025 - 1.0).abs() < 1e-8,
            "{x}/{n} lower: {below}"
        );
        assert!(lo < x as f64 / n as f64 && (x as f64 / n as f64) < hi);
    }
}

#[test]
fn large_counts_are_fast_and_sane() {
    // 1e8 successes in 1e9 trials: normal approximation is excellent here
    let (lo, hi) = clopper_pearson(100_000_000, 1_000_000_000, 0.95);
    let sd = (0.1f64 * 0.9 / 1e9).sqrt();
    assert!(((0.1 - lo) / (1.959964 * sd) - 1.0).abs() < 1e-3, "{lo}");
    assert!(((hi - 0.1) / (1.959964 * sd) - 1.0).abs() < 1e-3, "{hi}");
}
