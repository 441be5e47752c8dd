//! Tests of the Markov solvers against independent methods.

use super::*;
use crate::{catalogue, gf2};
use dashu_int::{IBig, UBig};
use dashu_ratio::RBig;

fn rel_close(a: f64, b: f64, tol: f64) -> bool {
    a.is_finite() && b.is_finite() && (a - b).abs() <= tol * a.abs().max(b.abs())
}

/// Brute force: `A_w` counts of the length-`n` code for every `n <= nmax`,
/// by enumerating all `2^nmax` patterns (syndromes built incrementally).
/// `counts[n][w]`.
fn brute_weights(g: &Generator, nmax: usize) -> Vec<Vec<u64>> {
    let cols: Vec<u64> = (0..nmax).map(|i| gf2::x_pow_mod(i as u128, g)).collect();
    let mut syn = vec![0u64; 1 << nmax];
    // by_top[h][w]: codewords of weight w whose highest set bit is h.
    let mut by_top = vec![vec![0u64; nmax + 1]; nmax];
    for e in 1usize..(1 << nmax) {
        let low = e.trailing_zeros() as usize;
        syn[e] = syn[e & (e - 1)] ^ cols[low];
        if syn[e] == 0 {
            let top = usize::BITS as usize - 1 - e.leading_zeros() as usize;
            by_top[top][e.count_ones() as usize] += 1;
        }
    }
    let mut counts = vec![vec![0u64; nmax + 1]; nmax + 1];
    for n in 1..=nmax {
        counts[n] = counts[n - 1].clone();
        for w in 0..=nmax {
            counts[n][w] += by_top[n - 1][w];
        }
    }
    counts
}

fn brute_p_ud(counts: &[u64], n: u64, p: f64) -> f64 {
    counts
        .iter()
        .enumerate()
        .take(n as usize + 1)
        .skip(1)
        .map(|(w, &a)| a as f64 * bsc::pattern_probability(n, w as u64, p))
        .sum()
}

const BERS: [f64; 8] = [0.5, 0.3, 0.1, 1e-3, 1e-9, 1e-15, 0.0, 1.0];

pub fn brute_force_small_widths_every_path() {
    // Primitive, irreducible non-primitive, reducible, with and without (x+1),
    // widths 1..=8, 10 and 12, all lengths up to 18 bits.
    let specs = [
        "0x3", "0x7", "0xB", "0xF", "0x13", "0x19", "0x25", "0x3D", "0x43", "0x89", "0x107",
        "0x11D", "0x131", "0x1D5", "0x101", "0x1FF", "0x12F", // Widths 10 and 12.
        "0x409", "0x40F", "0x1053", "0x180F",
    ];
    let nmax = 18;
    let lengths: Vec<u64> = (0..=nmax as u64).collect();
    for spec in specs {
        let g: Generator = spec.parse().unwrap();
        let counts = brute_weights(&g, nmax);
        let fast = butterfly::p_undetected(&g, &lengths, &BERS);
        for (bi, &p) in BERS.iter().enumerate() {
            let chain = sparse::crc_chain(&g, p).unwrap();
            let slow = chain.p_undetected(&lengths);
            // The fused kernel from its smallest width (scalar or vector
            // path, whichever this CPU has).
            let walked = walk::supports(&g).then(|| walk::p_undetected_one(&g, &lengths, p, false));
            for n in 0..=nmax {
                let want = brute_p_ud(&counts[n], n as u64, p);
                let (f, s) = (fast[bi][n], slow[n]);
                if let Some(w) = &walked {
                    assert!(
                        rel_close(w[n], want, 1e-12),
                        "{spec} p={p} n={n}: walk {} vs {want}",
                        w[n]
                    );
                }
                assert!(
                    rel_close(f, want, 1e-12),
                    "{spec} p={p} n={n}: {f} vs {want}"
                );
                assert!(
                    rel_close(s, want, 1e-12),
                    "{spec} p={p} n={n}: {s} vs {want}"
                );
                assert!(rel_close(f, s, 1e-13), "{spec} p={p} n={n}: {f} vs {s}");
            }
        }
    }
}

pub fn brute_force_twenty_bits() {
    // The largest brute-force case: n = 20, the CRC-8 polynomial 0x107.
    let g: Generator = "0x107".parse().unwrap();
    let counts = brute_weights(&g, 20);
    let fast = solve(
        &g,
        &[20, 19],
        &[0.5, 1e-9, 1e-15, 0.01],
        &crate::ctx::Ctx::default(),
    );
    for (bi, p) in [0.5, 1e-9, 1e-15, 0.01].into_iter().enumerate() {
        for (li, n) in [20usize, 19].into_iter().enumerate() {
            let want = brute_p_ud(&counts[n], n as u64, p);
            assert!(rel_close(fast[bi][li], want, 1e-12), "p={p} n={n}");
            assert!(want > 0.0);
        }
    }
}

pub fn half_ber_identity() {
    // At p = 1/2 every pattern is equally likely: P_ud = 2^-r - 2^-n (n >= r).
    for spec in ["0x107", "0x11021", "0x18005", "0x1002D", "0x3"] {
        let g: Generator = spec.parse().unwrap();
        let r = g.width() as i32;
        let mut lengths = vec![r as u64, r as u64 + 1, 40, 100, 1000];
        if r <= 8 {
            lengths.push(12144);
        }
        let v = p_undetected(&g, &lengths, &[0.5], &crate::ctx::Ctx::default()).unwrap();
        for (i, &n) in lengths.iter().enumerate() {
            let want = 2f64.powi(-r) - 2f64.powi(-(n as i32));
            assert!(rel_close(v[0][i], want, 1e-13), "{spec} n={n}: {}", v[0][i]);
        }
    }
}

/// Exact `P_ud` from the dual code in rational arithmetic:
/// `P(syndrome 0) = 2^-r sum_w B_w (1-2p)^w`, minus `(1-p)^n`, where `B_w`
/// counts the functionals `u` with `w` positions `i < n` where
/// `parity(u & (x^i mod g)) = 1`.
fn dual_exact(g: &Generator, n: usize, p_num: u64, p_den: u64) -> f64 {
    let r = g.width();
    let cols: Vec<u64> = (0..n).map(|i| gf2::x_pow_mod(i as u128, g)).collect();
    let mut b = vec![0u64; n + 1];
    for u in 0..(1u64 << r) {
        let w = cols
            .iter()
            .filter(|&&c| (u & c).count_ones() & 1 == 1)
            .count();
        b[w] += 1;
    }
    let one_minus_2p = RBig::from_parts(IBig::from(p_den - 2 * p_num), UBig::from(p_den));
    let one_minus_p = RBig::from_parts(IBig::from(p_den - p_num), UBig::from(p_den));
    let mut sum = RBig::ZERO;
    let mut pw = RBig::ONE;
    for bw in &b {
        sum += RBig::from(*bw) * &pw;
        pw *= &one_minus_2p;
    }
    let mut clean = RBig::ONE;
    for _ in 0..n {
        clean *= &one_minus_p;
    }
    let p_ud = sum / RBig::from(1u64 << r) - clean;
    assert!(p_ud > RBig::ZERO);
    p_ud.to_f64().value()
}

pub fn width16_against_exact_dual_code() {
    // Independent exact method at width 16: dual-code weights and rational
    // arithmetic (no cancellation error), BERs that are exact binary fractions.
    // (BER 1/1024 in the full tier)
    for (spec, n) in [("0x11021", 60usize), ("0x18005", 100), ("16", 200)] {
        let g = catalogue::resolve(spec).unwrap().generator();
        let bers = [(1u64, 8u64), (1, 1024), (1, 1 << 20)];
        for &(num, den) in crate::tier::pick(&[(1u64, 8u64), (1, 1 << 20)][..], &bers[..]) {
            let p = num as f64 / den as f64;
            let want = dual_exact(&g, n, num, den);
            let fast =
                p_undetected(&g, &[n as u64], &[p], &crate::ctx::Ctx::default()).unwrap()[0][0];
            let slow = sparse::crc_chain(&g, p).unwrap().p_undetected(&[n as u64])[0];
            assert!(
                rel_close(fast, want, 1e-12),
                "{spec} n={n} p={p}: {fast} vs {want}"
            );
            assert!(
                rel_close(slow, want, 1e-12),
                "{spec} n={n} p={p}: {slow} vs {want}"
            );
        }
    }
}

/// `A_w` for `w <= 4` of the length-`n` code by enumeration: pairs of
/// positions and a table of `x^k mod g` (brute force on low weights).
fn low_weights(g: &Generator, n: usize) -> [u64; 5] {
    use std::collections::HashMap;
    let cols: Vec<u64> = (0..n).map(|i| gf2::x_pow_mod(i as u128, g)).collect();
    let mut pos: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, &c) in cols.iter().enumerate() {
        pos.entry(c).or_default().push(i);
    }
    let mut a = [0u64; 5];
    // w = 2: i < j with equal columns.
    for v in pos.values() {
        let k = v.len() as u64;
        a[2] += k * (k - 1) / 2;
    }
    // w = 3: i < j < k with cols[i]^cols[j] == cols[k].
    for i in 0..n {
        for j in i + 1..n {
            if let Some(ks) = pos.get(&(cols[i] ^ cols[j])) {
                a[3] += ks.iter().filter(|&&k| k > j).count() as u64;
            }
        }
    }
    // w = 4: pairs {i<j} and {k<l} with equal XOR, j < ... counted by the
    // number of ways to split four positions: each codeword of weight 4
    // appears as 3 unordered pairs of disjoint pairs.
    let mut pairs: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
    for i in 0..n {
        for j in i + 1..n {
            pairs.entry(cols[i] ^ cols[j]).or_default().push((i, j));
        }
    }
    let mut four = 0u64;
    for v in pairs.values() {
        for x in 0..v.len() {
            for y in x + 1..v.len() {
                let (i, j) = v[x];
                let (k, l) = v[y];
                if i != k && i != l && j != k && j != l {
                    four += 1;
                }
            }
        }
    }
    a[4] = four / 3;
    a
}

pub fn tiny_probabilities_match_leading_terms() {
    // Width 16 at p = 1e-12: P_ud ~ A_3 p^3 (1-p)^(n-3) + A_4 p^4 ..., far
    // below 1e-30; the error-mass form must give it to ~1e-9 relative.
    let g = catalogue::default_primitive(16).unwrap();
    for n in [300usize, 1500] {
        let a = low_weights(&g, n);
        assert_eq!(a[2], 0, "primitive: no weight-2 codewords below the period");
        for p in [1e-12f64, 1e-20] {
            let terms: f64 = (2..=4)
                .map(|w| a[w] as f64 * bsc::pattern_probability(n as u64, w as u64, p))
                .sum();
            let got =
                p_undetected(&g, &[n as u64], &[p], &crate::ctx::Ctx::default()).unwrap()[0][0];
            assert!(got > 0.0 && got < 1e-30, "n={n} p={p}: {got}");
            assert!(rel_close(got, terms, 1e-9), "n={n} p={p}: {got} vs {terms}");
        }
    }
    // Below 1e-40 for a larger distance: CRC-16/CCITT polynomial has d = 4 at
    // these lengths, so P_ud ~ A_4 p^4 ~ 1e-4x.
    let g: Generator = "0x11021".parse().unwrap();
    let a = low_weights(&g, 200);
    assert_eq!(a[2] + a[3], 0);
    let p = 1e-12;
    let want = a[4] as f64 * bsc::pattern_probability(200, 4, p);
    let got = p_undetected(&g, &[200], &[p], &crate::ctx::Ctx::default()).unwrap()[0][0];
    assert!(got < 1e-40 && got > 0.0, "{got}");
    assert!(rel_close(got, want, 1e-9), "{got} vs {want}");
}

pub fn sparse_and_butterfly_agree_at_width_16_long_lengths() {
    let g: Generator = "0x18005".parse().unwrap();
    // (the test command: to 512 bits; the time is linear in the longest)
    let lengths: &[u64] = crate::tier::pick(&[17, 512], &[17, 512, 1000, 3000]);
    let bers: &[f64] = crate::tier::pick(&[1e-3, 1e-9], &[1e-3, 1e-6, 1e-9]);
    let fast = p_undetected(&g, lengths, bers, &crate::ctx::Ctx::default()).unwrap();
    for (bi, &p) in bers.iter().enumerate() {
        let slow = sparse::crc_chain(&g, p).unwrap().p_undetected(lengths);
        for li in 0..lengths.len() {
            assert!(
                rel_close(fast[bi][li], slow[li], 1e-13),
                "p={p} n={}: {} vs {}",
                lengths[li],
                fast[bi][li],
                slow[li]
            );
        }
    }
}

pub fn parallel_and_serial_are_identical() {
    // Width 20 exercises chunk pairing; the thread split must not change a bit.
    let g = catalogue::default_primitive(20).unwrap();
    let a = butterfly::p_undetected_one(&g, &[30, 64], 1e-4, true);
    let b = butterfly::p_undetected_one(&g, &[64, 30], 1e-4, false);
    assert_eq!(a[0].to_bits(), b[1].to_bits());
    assert_eq!(a[1].to_bits(), b[0].to_bits());
    // The in-place kernel (widths from INPLACE_WIDTH up): same bits.
    let c = [1e-4, 0.3].map(|p| inplace::p_undetected_one(&g, &[30, 64], p));
    assert_eq!(c[0][0].to_bits(), a[0].to_bits());
    assert_eq!(c[0][1].to_bits(), a[1].to_bits());
    let d = butterfly::p_undetected_one(&g, &[30, 64], 0.3, true);
    assert_eq!(c[1][0].to_bits(), d[0].to_bits());
    assert_eq!(c[1][1].to_bits(), d[1].to_bits());
}

pub fn memory_refusal() {
    assert!(check_memory(16, 5, 1e9).is_ok());
    let e = check_memory(40, 1, 1e9).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("8.0 TiB") && msg.contains("953.7 MiB"),
        "{msg}"
    );
    assert!(!msg.contains('\n'));
    let parse = |s: &str| crate::units::MemoryBudget::parse(s).map(|b| b.get());
    assert_eq!(parse("8G"), Some(8.0 * (1u64 << 30) as f64));
    assert_eq!(parse("1000"), Some(1000.0));
    assert_eq!(parse("x"), None);
    assert_eq!(parse("-1M"), None);
}

pub fn curve_points_are_consistent() {
    let g: Generator = "0x11021".parse().unwrap();
    let pts = curve(&g, &[512, 100], &[1e-5, 1e-7], &crate::ctx::Ctx::default()).unwrap();
    assert_eq!(pts.len(), 4);
    assert_eq!((pts[0].ber, pts[0].bits), (1e-5, 512));
    assert_eq!((pts[1].ber, pts[1].bits, pts[1].data_bits), (1e-5, 100, 84));
    assert_eq!((pts[3].ber, pts[3].bits), (1e-7, 100));
    for pt in pts {
        assert!(pt.p_undetected > 0.0 && pt.p_undetected < pt.p_error);
        assert!(rel_close(
            pt.p_alias_given_error,
            pt.p_undetected / pt.p_error,
            1e-15
        ));
    }
    assert!(p_undetected(&g, &[10], &[1.5], &crate::ctx::Ctx::default()).is_err());
}

pub fn solver_bits_do_not_depend_on_the_thread_count() {
    // Width 20: one BER runs split across threads when there are more
    // threads than BERs (Kernel::WalkSplit), on one thread otherwise.
    let g = catalogue::default_primitive(20).unwrap();
    let lengths = [1u64, 25, 77, 300];
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            (
                Kernel::new(20, 1),
                solve(&g, &lengths, &[1e-4], &crate::ctx::Ctx::default()),
            )
        })
    };
    let (plan1, one) = run(1);
    let (plan4, four) = run(4);
    if walk::vectorised() {
        assert_eq!((plan1, plan4), (Kernel::WalkPerBer, Kernel::WalkSplit));
    }
    let bits = |v: &Vec<Vec<f64>>| v[0].iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&one), bits(&four));
    assert!(one[0][3] > 0.0);
}
