use super::*;
use crate::gf2;

/// `|a - b| <= tol * max(|a|, |b|)`, with a message.
fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(
        (a - b).abs() <= tol * a.abs().max(b.abs()),
        "{what}: {a:e} vs {b:e} (rel {:e})",
        (a - b).abs() / a.abs().max(b.abs())
    );
}

fn ge(p_good: f64, p_bad: f64, good_to_bad: f64, bad_to_good: f64) -> GilbertElliott {
    GilbertElliott {
        p_good,
        p_bad,
        good_to_bad,
        bad_to_good,
    }
}

/// The probability of one error pattern (`bits[i]`: bit `i` in time order
/// flipped) by the channel's forward recursion, straight from its definition.
fn path_probability(bits: &[bool], ch: &GilbertElliott) -> f64 {
    let pe = [ch.p_good, ch.p_bad];
    let t = [
        [1.0 - ch.good_to_bad, ch.good_to_bad],
        [ch.bad_to_good, 1.0 - ch.bad_to_good],
    ];
    let s = ch.good_to_bad + ch.bad_to_good;
    let mut alpha = [ch.bad_to_good / s, ch.good_to_bad / s];
    for &b in bits {
        let mut next = [0.0; 2];
        for c in 0..2 {
            let emit = if b { pe[c] } else { 1.0 - pe[c] };
            for c2 in 0..2 {
                next[c2] += alpha[c] * emit * t[c][c2];
            }
        }
        alpha = next;
    }
    alpha[0] + alpha[1]
}

/// `(P_error, P_undetected)` over all `2^n` error patterns: a pattern
/// escapes iff its polynomial (bit `i` the coefficient of `x^(n-1-i)`) is a
/// nonzero multiple of `g`, decided by polynomial division.
fn brute_force(g: &Generator, n: usize, ch: &GilbertElliott) -> (f64, f64) {
    // Compensated (Neumaier) sums: up to 2^13 terms, accurate to a few eps.
    let (mut err, mut ud) = ([0.0; 2], [0.0; 2]);
    let add = |acc: &mut [f64; 2], x: f64| {
        let s = acc[0] + x;
        acc[1] += if acc[0].abs() >= x.abs() {
            (acc[0] - s) + x
        } else {
            (x - s) + acc[0]
        };
        acc[0] = s;
    };
    for e in 1u64..(1 << n) {
        let bits: Vec<bool> = (0..n).map(|i| (e >> (n - 1 - i)) & 1 == 1).collect();
        let pr = path_probability(&bits, ch);
        add(&mut err, pr);
        if gf2::rem(e as u128, g.full()) == 0 {
            add(&mut ud, pr);
        }
    }
    (err[0] + err[1], ud[0] + ud[1])
}

fn channels() -> Vec<GilbertElliott> {
    vec![
        ge(1e-3, 0.3, 0.05, 0.4),
        ge(0.0, 0.5, 0.1, 0.25),
        ge(0.02, 0.02, 0.3, 0.3), // a BSC in disguise
        ge(1e-4, 0.9, 0.2, 0.6),
        ge(0.1, 1.0, 1.0, 1.0), // alternating states
    ]
}

#[allow(clippy::needless_range_loop)]
pub fn brute_force_every_pattern() {
    for spec in ["0x3", "0x7", "0xB", "0x13", "0x19", "0x1F", "0x107"] {
        let g: Generator = spec.parse().unwrap();
        let nmax = 13usize;
        let lengths: Vec<u64> = (0..=nmax as u64).collect();
        for ch in channels() {
            let got = solve(&g, &lengths, &ch, &crate::ctx::Ctx::default());
            for n in 0..=nmax {
                let (err, ud) = brute_force(&g, n, &ch);
                let what = format!("{spec} {ch} n={n}");
                assert_eq!(got[n].bits, n as u64);
                if ud == 0.0 {
                    assert_eq!(got[n].p_undetected, 0.0, "{what}");
                } else {
                    close(got[n].p_undetected, ud, 1e-13, &what);
                }
                if n > 0 {
                    close(got[n].p_error, err, 1e-13, &what);
                }
            }
        }
    }
}

pub fn bit_order_does_not_matter() {
    // Pattern by pattern: a stationary two-state chain is reversible.
    let ch = ge(1e-3, 0.3, 0.05, 0.4);
    for e in 0u32..(1 << 10) {
        let bits: Vec<bool> = (0..10).map(|i| (e >> i) & 1 == 1).collect();
        let rev: Vec<bool> = bits.iter().rev().copied().collect();
        close(
            path_probability(&bits, &ch),
            path_probability(&rev, &ch),
            1e-14,
            "reverse",
        );
    }
    // So a CRC and its reciprocal (which divides the reversed patterns)
    // escape equally, through the solver; and a non-stationary start would
    // not have this symmetry (the brute force above pins the start).
    // (The second 16-bit generator in the full tier.)
    for &spec in crate::tier::pick(&["0x11021", "0x107"][..], &["0x11021", "0x1C867", "0x107"]) {
        let g: Generator = spec.parse().unwrap();
        let gr = g.reciprocal();
        assert_ne!(g, gr);
        let lengths = [20, 100, 700];
        for ch in [ge(1e-6, 0.2, 1e-3, 0.05), ge(1e-3, 0.5, 0.01, 0.1)] {
            let a = solve(&g, &lengths, &ch, &crate::ctx::Ctx::default());
            let b = solve(&gr, &lengths, &ch, &crate::ctx::Ctx::default());
            for (x, y) in a.iter().zip(&b) {
                close(x.p_undetected, y.p_undetected, 1e-12, spec);
            }
        }
    }
}

pub fn equal_state_bers_reduce_to_the_binary_symmetric_channel() {
    // Widths 8 and 16 (the BSC solver runs its walk kernel there on x86-64,
    // an independent implementation), BERs from 0.5 down to 1e-10 (P_ud
    // near 1e-37 at the shortest lengths; 1e-5 in the full tier).
    for (spec, lengths) in [
        ("0x107", vec![9u64, 10, 50, 333, 2000]),
        ("0x11021", vec![17, 18, 40, 512, 1200]),
    ] {
        let g: Generator = spec.parse().unwrap();
        for &p in crate::tier::pick(&[0.5, 1e-10][..], &[0.5, 1e-5, 1e-10]) {
            let want = crate::markov::solve(&g, &lengths, &[p], &crate::ctx::Ctx::default());
            let want = &want[0];
            for (g2b, b2g) in [(0.1, 0.2), (1.0, 0.0)] {
                let got = solve(
                    &g,
                    &lengths,
                    &ge(p, p, g2b, b2g),
                    &crate::ctx::Ctx::default(),
                );
                for (i, pt) in got.iter().enumerate() {
                    let what = format!("{spec} p={p} n={}", pt.bits);
                    assert!(pt.p_undetected > 0.0, "{what}");
                    close(pt.p_undetected, want[i], 1e-12, &what);
                    close(pt.p_error, crate::bsc::p_error(pt.bits, p), 1e-12, &what);
                    close(pt.ber, p, 1e-15, &what);
                }
            }
        }
    }
}

pub fn sparse_product_chain_agrees() {
    // The general CSR engine on the same product chain, down to tiny
    // probabilities (P_ud below 1e-40 for the first channel at short
    // lengths).
    for (spec, lengths) in [
        ("0x107", vec![0u64, 5, 9, 64, 300, 1500]),
        ("0x1021", vec![0, 5, 13, 64, 300]),
        ("0x1C867", vec![0, 5, 17, 18, 64]),
    ] {
        let g: Generator = spec.parse().unwrap();
        for ch in [
            ge(1e-14, 1e-9, 1e-5, 0.1),
            ge(1e-7, 0.3, 1e-4, 0.05),
            ge(0.0, 0.5, 0.01, 0.2),
        ] {
            let want = sparse_chain(&g, &ch).unwrap().p_undetected(&lengths);
            let got = solve(&g, &lengths, &ch, &crate::ctx::Ctx::default());
            for (pt, &w) in got.iter().zip(&want) {
                let what = format!("{spec} {ch} n={}", pt.bits);
                if w == 0.0 {
                    assert_eq!(pt.p_undetected, 0.0, "{what}");
                } else {
                    close(pt.p_undetected, w, 1e-12, &what);
                }
            }
        }
    }
    // The first channel really reaches the tiny range.
    let g: Generator = "0x1C867".parse().unwrap();
    let pt = solve(
        &g,
        &[64],
        &ge(1e-14, 1e-9, 1e-5, 0.1),
        &crate::ctx::Ctx::default(),
    )[0];
    assert!(pt.p_undetected > 0.0 && pt.p_undetected < 1e-40, "{pt:?}");
}

pub fn results_in_the_order_given_and_checks() {
    let g: Generator = "0x107".parse().unwrap();
    let ch = ge(1e-3, 0.3, 0.05, 0.4);
    let a = solve(&g, &[100, 9, 50], &ch, &crate::ctx::Ctx::default());
    let b = solve(&g, &[9, 50, 100], &ch, &crate::ctx::Ctx::default());
    assert_eq!((a[0], a[1], a[2]), (b[2], b[0], b[1]));
    let budget = MemoryBudget::bytes(1e9).unwrap();
    assert!(
        curve(
            &g,
            &[100],
            &ge(0.1, 0.2, 0.0, 0.0),
            &crate::ctx::Ctx::new(budget)
        )
        .is_err()
    );
    assert!(
        curve(
            &g,
            &[100],
            &ge(0.1, 1.5, 0.1, 0.1),
            &crate::ctx::Ctx::new(budget)
        )
        .is_err()
    );
    let wide: Generator = "0x104C11DB7".parse().unwrap();
    let e = curve(&wide, &[100], &ch, &crate::ctx::Ctx::new(budget)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Refused(crate::registry::Refusal::Width {
                width: 32,
                max: MAX_WIDTH,
                ..
            })
        ),
        "{e}"
    );
    let w20: Generator = "0x100009".parse().unwrap();
    let small = MemoryBudget::bytes(1e6).unwrap();
    let e = curve(&w20, &[100], &ch, &crate::ctx::Ctx::new(small)).unwrap_err();
    assert!(matches!(e, Error::TooBig { .. }), "{e}");
}

pub fn fused_kernel_matches_stepwise() {
    // Every length (so every block boundary and tail), widths 8 to 16,
    // serial and parallel cosets.
    for spec in ["0x107", "0x11D", "0x1021", "0x11021", "0x1C867"] {
        let g: Generator = spec.parse().unwrap();
        let lengths: Vec<u64> = (0..=301).rev().collect();
        for ch in [ge(1e-3, 0.3, 0.05, 0.4), ge(1e-12, 1e-3, 1e-6, 0.2)] {
            let want = solve_stepwise(&g, &lengths, &ch);
            for parallel in [false, true] {
                let got = fused::run(&g, &ch, &lengths, parallel, &crate::progress::Silent);
                for (w, &(pe, pu)) in want.iter().zip(&got) {
                    let what = format!("{spec} {ch} n={} parallel={parallel}", w.bits);
                    if w.p_undetected == 0.0 {
                        assert_eq!(pu, 0.0, "{what}");
                    } else {
                        close(pu, w.p_undetected, 1e-13, &what);
                    }
                    if w.bits > 0 {
                        close(pe, w.p_error, 1e-14, &what);
                    }
                }
            }
        }
    }
}

pub fn fused_scalar_path_gives_the_vector_paths_bits() {
    // The fused kernel forced onto each instruction set this CPU has, down
    // to no vector instructions and the library's fused multiply-add:
    // equal bits, serial and parallel (width 16: 8 tasks of cosets).
    // Lengths to 59 in the test command (14 blocks of 4 bits and one of
    // 3, as 203 has 50 and one of 3), to 203 in the full tier: each bit
    // on the path without vector instructions is most of the time.
    let g: Generator = "0x1C867".parse().unwrap();
    let lengths: Vec<u64> = (0..=crate::tier::pick(59, 203)).collect();
    let last = lengths.len() - 1;
    let ch = ge(1e-3, 0.3, 0.05, 0.4);
    let bits = |v: &[(f64, f64)]| -> Vec<(u64, u64)> {
        v.iter().map(|(a, b)| (a.to_bits(), b.to_bits())).collect()
    };
    let want = fused::run_on(
        crate::markov::cpu::Isa::scalar(),
        &g,
        &ch,
        &lengths,
        false,
        &crate::progress::Silent,
    );
    assert!(want[last].1 > 0.0);
    for isa in crate::markov::cpu::Isa::detect().restrictions() {
        for parallel in [false, true] {
            if isa == crate::markov::cpu::Isa::scalar() && !parallel {
                // `want` itself
                continue;
            }
            let got = fused::run_on(isa, &g, &ch, &lengths, parallel, &crate::progress::Silent);
            assert_eq!(bits(&got), bits(&want), "{isa:?} parallel={parallel}");
        }
    }
}

/// Every error pattern of `t.len()` bits with its probability by the
/// forward recursion over channel states.
fn brute_translations(t: &[u64], ge: &GilbertElliott) -> f64 {
    let e = [ge.p_good, ge.p_bad];
    let m = [
        [1.0 - ge.good_to_bad, ge.good_to_bad],
        [ge.bad_to_good, 1.0 - ge.bad_to_good],
    ];
    let mut total = 0.0;
    for pat in 1u32..1 << t.len() {
        let syn = (0..t.len())
            .filter(|&i| (pat >> i) & 1 == 1)
            .fold(0, |a, i| a ^ t[i]);
        if syn != 0 {
            continue;
        }
        let mut alpha = ge.stationary();
        for i in 0..t.len() {
            let f = (pat >> i) & 1 == 1;
            let w = [
                alpha[0] * if f { e[0] } else { 1.0 - e[0] },
                alpha[1] * if f { e[1] } else { 1.0 - e[1] },
            ];
            alpha = [
                w[0] * m[0][0] + w[1] * m[1][0],
                w[0] * m[0][1] + w[1] * m[1][1],
            ];
        }
        total += alpha[0] + alpha[1];
    }
    total
}

pub fn translation_walk_matches_every_pattern_and_the_crc_chain() {
    let ge: GilbertElliott = "2e-2,0.4,5e-2,0.3".parse().unwrap();
    // tiny: arbitrary translations, zeros (bits a check does not cover) included
    let t = [3u64, 5, 0, 6, 1, 3, 0, 7, 2, 4, 5, 1];
    let got = escape_of_translations(3, &t, &ge).unwrap();
    let want = brute_translations(&t, &ge);
    assert!((got - want).abs() <= 1e-13 * want, "{got} vs {want}");
    // a whole-frame CRC-16: wire bit j translates by x^(n-1-j) mod g, and
    // the walk gives the product chain's P_ud
    let g: Generator = "0x18005".parse().unwrap();
    let n = 300usize;
    let syn = crate::lowweight::syndromes(&g, n);
    let t: Vec<u64> = (0..n).map(|j| syn[n - 1 - j]).collect();
    let ge: GilbertElliott = "1e-4,0.2,1e-3,0.05".parse().unwrap();
    let got = escape_of_translations(16, &t, &ge).unwrap();
    let want = solve_stepwise(&g, &[n as u64], &ge)[0].p_undetected;
    assert!(want > 1e-12);
    assert!((got - want).abs() <= 1e-12 * want, "{got} vs {want}");
    // refusals
    assert!(escape_of_translations(3, &[8], &ge).is_err());
    assert!(escape_of_translations(25, &[1], &ge).is_err());
}
