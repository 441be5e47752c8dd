use super::*;
use crate::stack::{Frame, Payload};

fn ge(s: &str) -> GilbertElliott {
    s.parse().unwrap()
}

/// `P(exactly the bits of `x` flip)` over `n` bits by summing over every
/// state path (independent of the forward algorithm).
fn brute_prob(g: &GilbertElliott, n: u32, x: u64) -> f64 {
    let e = [g.p_good, g.p_bad];
    let t = [
        [1.0 - g.good_to_bad, g.good_to_bad],
        [g.bad_to_good, 1.0 - g.bad_to_good],
    ];
    let pi = g.stationary();
    let mut total = 0.0;
    for path in 0u64..1 << n {
        let c = |i: u32| (path >> i & 1) as usize;
        let mut p = pi[c(0)];
        for i in 0..n {
            let ci = c(i);
            p *= if x >> i & 1 == 1 { e[ci] } else { 1.0 - e[ci] };
            if i + 1 < n {
                p *= t[ci][c(i + 1)];
            }
        }
        total += p;
    }
    total
}

fn bits(x: u64, n: u32) -> Vec<u32> {
    (0..n).filter(|&i| x >> i & 1 == 1).collect()
}

#[test]
fn pattern_law_matches_a_sum_over_every_state_path() {
    for s in ["0.01,0.5,0.1,0.3", "1e-3,0.9,0.02,0.6", "0,0.5,0.2,0.2"] {
        let g = ge(s);
        let n = 9;
        let law = PatternLaw::new(&g, n as u64).unwrap();
        let mut total = 0.0;
        for x in 0u64..1 << n {
            let want = brute_prob(&g, n, x);
            let got = law.ln_prob(&bits(x, n)).exp();
            assert!(
                (got - want).abs() <= 1e-13 * want,
                "{s} {x:b}: {got} vs {want}"
            );
            total += got;
            // leave-one-out: the sum over the patterns with one error fewer
            let xs = bits(x, n);
            let want: f64 = xs
                .iter()
                .map(|&j| brute_prob(&g, n, x & !(1 << j)))
                .sum();
            let got = law.ln_leave_one_out(&xs).exp();
            assert!(
                (got - want).abs() <= 1e-13 * want,
                "{s} {x:b} leave-one-out: {got} vs {want}"
            );
        }
        assert!((total - 1.0).abs() < 1e-13, "{s}: {total}");
    }
}

#[test]
fn long_clean_runs_match_a_bit_by_bit_forward() {
    // gaps beyond the small table go through its powers; check against a
    // plain per-bit forward with rescaling, on frames far longer than 1e-308 allows
    let g = ge("0.2,0.6,0.01,0.05");
    let n = 50_000u64;
    let law = PatternLaw::new(&g, n).unwrap();
    let errors = [3u32, 4100, 4101, 20_000, 49_999];
    let e = [g.p_good, g.p_bad];
    let t = [
        [1.0 - g.good_to_bad, g.good_to_bad],
        [g.bad_to_good, 1.0 - g.bad_to_good],
    ];
    let (mut a, mut ln) = (g.stationary(), 0.0f64);
    for i in 0..n as u32 {
        let f = |c: usize| {
            if errors.contains(&i) {
                e[c]
            } else {
                1.0 - e[c]
            }
        };
        let b = [a[0] * f(0), a[1] * f(1)];
        a = [
            b[0] * t[0][0] + b[1] * t[1][0],
            b[0] * t[0][1] + b[1] * t[1][1],
        ];
        let s = a[0] + a[1];
        a = [a[0] / s, a[1] / s];
        ln += s.ln();
    }
    let got = law.ln_prob(&errors);
    assert!(got < -1000.0, "{got}");
    assert!((got - ln).abs() < 1e-9 * ln.abs(), "{got} vs {ln}");
}

/// Every error pattern of a small frame: `sum_x Q(x) score(x)` must equal
/// `P_ud` (the sum of `P(e)` over nonzero codewords) exactly; that is the
/// estimator's unbiasedness, checked without sampling.
fn check_unbiased(stack: &str, bytes: usize, channel: &str, proposal: Option<&str>) {
    let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
    let g = ge(channel);
    let plan = Plan::new(frame, Channel::Burst(g), 1, 1);
    let work = BurstRareWork::new(&plan, 1, proposal.map(ge)).unwrap();
    let n = work.table.len() as u32;
    assert!(n <= 16);
    let (mut p_ud, mut mean, mut window) = (0.0, 0.0, 0.0);
    for x in 1u64..1 << n {
        let xs = bits(x, n);
        let s = xs.iter().fold(0, |s, &p| s ^ work.table[p as usize]);
        if s == 0 {
            p_ud += work.p.ln_prob(&xs).exp();
        }
    }
    for x in 0u64..1 << n {
        let xs = bits(x, n);
        let q = work.q.ln_prob(&xs).exp();
        let sc = work.score(&xs);
        mean += q * (sc.window + sc.lookup);
        window += q * sc.window;
    }
    assert!(p_ud > 0.0);
    assert!(
        (mean - p_ud).abs() <= 1e-12 * p_ud,
        "{stack} {channel}: E[Z] {mean} vs P_ud {p_ud}"
    );
    // both ways of finding codewords take part
    assert!(window > 0.0 && window < mean, "{window} of {mean}");
}

#[test]
fn the_estimator_is_unbiased_over_every_pattern_of_a_small_frame() {
    // CRC-8 (wire order = register order), CRC-5 (3 padding bits in its
    // field byte), a dense and a sparse channel, default and given proposals
    check_unbiased("crc8", 2, "0.01,0.5,0.05,0.2", None);
    check_unbiased("crc8", 2, "1e-4,0.02,1e-3,0.05", None);
    check_unbiased("CRC-5/USB", 2, "0.01,0.5,0.05,0.2", None);
    check_unbiased("CRC-8/SMBUS", 2, "0.01,0.5,0.05,0.2", Some("0.3,0.3,0.3,0.3"));
}
