use super::cycles::*;
use super::lfsr::*;
use super::pass::*;
use super::*;
use crate::gf2;

fn naive_dual(g: &Generator, n: u64) -> Vec<u64> {
    // B_w straight from the definition: for every linear functional u on
    // the syndromes x^i mod g, the weight of (u . (x^i mod g))_{i<n}.
    let r = g.width();
    let syn: Vec<u64> = (0..n).map(|i| gf2::x_pow_mod(i as u128, g)).collect();
    let mut b = vec![0u64; n as usize + 1];
    for u in 0..(1u64 << r) {
        let w = syn
            .iter()
            .filter(|&&s| (s & u).count_ones() & 1 == 1)
            .count();
        b[w] += 1;
    }
    b
}

pub fn lengths_in_one_pass_weigh_as_one_pass_each() {
    // what `alias transfer` does for the frame lengths it lacks
    for spec in ["0x11021", "0x18005", "0x1864CFB"] {
        let g: Generator = spec.parse().unwrap();
        let lengths = [40u64, 300, 1000, 12144];
        let all = dual_weights(&g, &lengths, &crate::ctx::Ctx::default()).unwrap();
        for (d, &n) in all.iter().zip(&lengths) {
            assert_eq!(
                *d,
                dual_weights(&g, &[n], &crate::ctx::Ctx::default())
                    .unwrap()
                    .remove(0),
                "{spec} {n}"
            );
        }
    }
}

pub fn lfsr_tables_match_serial_steps() {
    // widths 1 to 32 (the tables above the width unused): the first and
    // last states and a spread of others
    for spec in [
        "0x3",
        "0x7",
        "0x107",
        "0x11D",
        "0x1021",
        "0x11021",
        "0x100001B",
        "0x104C11DB7",
    ] {
        let g: Generator = spec.parse().unwrap();
        let lf = Lfsr::new(&g).unwrap();
        let top = g.mask();
        for a in [0u64, 1, 0xDEADBEEF, 0x80000000, 0x12345, top, top >> 1] {
            let a = a & top;
            let (blk, next) = lf.serial_block(a);
            assert_eq!(lf.block(a), blk, "{spec} {a:#x}");
            assert_eq!(lf.jump64(a), next, "{spec} {a:#x}");
            assert_eq!(lf.advance(a, 64), next, "{spec} {a:#x}");
        }
    }
}

pub fn cycles_cover_all_states() {
    for (spec, method) in [
        ("0x11021", CycleMethod::XPlusOneTimesPrimitive),
        ("0x1100B", CycleMethod::Primitive),
        ("0x18005", CycleMethod::XPlusOneTimesPrimitive),
        ("0x1F", CycleMethod::Walk),
        ("0x11", CycleMethod::Walk),
    ] {
        let g: Generator = spec.parse().unwrap();
        assert_eq!(cycle_method(&g), method, "{spec}");
        let c = cycles(&g).unwrap();
        let total: u64 = c.iter().map(|c| c.len).sum();
        assert_eq!(total, 1 << g.width(), "{spec}");
    }
}

pub fn dual_weights_match_definition_for_all_small_generators() {
    for width in 1..=7u32 {
        for normal in (1..(1u64 << width)).step_by(2) {
            let g = Generator::new(width, normal).unwrap();
            let lens = [1u64, 3, 8, 13, 64, 65, 130];
            let d = dual_weights(&g, &lens, &crate::ctx::Ctx::default()).unwrap();
            for (k, &n) in lens.iter().enumerate() {
                assert_eq!(d[k].counts, naive_dual(&g, n), "{} n={n}", g.full_string());
            }
        }
    }
}

pub fn dual_weights_match_definition_for_16_bit_crcs_and_long_cycles() {
    // Segments and jump-ahead (cycles over 2^22 only happen at r >= 23)
    // are covered by the 23-bit case below; here the three cycle methods.
    for spec in ["0x11021", "0x18005", "0x1100B", "0x18BB7", "0x13D65"] {
        let g: Generator = spec.parse().unwrap();
        let lens = [17u64, 200, 1000];
        let d = dual_weights(&g, &lens, &crate::ctx::Ctx::default()).unwrap();
        for (k, &n) in lens.iter().enumerate() {
            assert_eq!(d[k].counts, naive_dual(&g, n), "{spec} n={n}");
        }
    }
}

pub fn segmented_cycles_agree_with_one_segment() {
    // x^23 + x^5 + 1 is primitive: one cycle of 2^23 - 1, cut into segments.
    let g = Generator::new(23, (1 << 5) | 1).unwrap();
    assert!(gf2::is_primitive(&g));
    let lens = [30u64, 333];
    let d = dual_weights(&g, &lens, &crate::ctx::Ctx::default()).unwrap();
    let lf = Lfsr::new(&g).unwrap();
    let mut h = Hists::new(&lens);
    run_task(
        &lf,
        &Task {
            rep: 1,
            start: 0,
            count: (1 << 23) - 1,
        },
        &lens,
        &mut h,
        &crate::progress::Silent,
    );
    for (k, hk) in h.h.iter().enumerate() {
        let mut counts: Vec<u64> = hk.chunks(LANES).map(|c| c.iter().sum()).collect();
        counts[0] += 1; // the zero state
        assert_eq!(d[k].counts, counts);
        assert_eq!(d[k].total(), 1 << 23);
    }
}

pub fn nibble_classes_count_as_stepping_every_position() {
    // the (weight, class) counts of run_task against the position-by-
    // position oracle: tasks of every remainder mod 64, short and long
    // lengths, a 16-bit and a 23-bit primitive generator
    for g in [
        Generator::new(23, (1 << 5) | 1).unwrap(),
        "0x11021".parse::<Generator>().unwrap(),
    ] {
        let lf = Lfsr::new(&g).unwrap();
        let lens = [17u64, 64, 333, 1000];
        for (rep, start, count) in [
            (1u64, 0u64, 1u64),
            (1, 5, 63),
            (3, 77, 64),
            (1, 1000, 6400 + 37),
            (5, 12345, 40_000 + 13),
        ] {
            let t = Task { rep, start, count };
            let (mut a, mut b) = (Hists::new(&lens), Hists::new(&lens));
            run_task_nibbles(&lf, &t, &lens, &mut a, &crate::progress::Silent);
            run_task_bits(&lf, &t, &lens, &mut b, &crate::progress::Silent);
            let sum = |h: &Hists| -> Vec<Vec<u64>> {
                h.h.iter()
                    .map(|hk| hk.chunks(LANES).map(|c| c.iter().sum()).collect())
                    .collect()
            };
            assert_eq!(sum(&a), sum(&b), "{g:?} task ({rep}, {start}, {count})");
            assert_eq!(sum(&a)[0].iter().sum::<u64>(), count);
        }
    }
}

fn add_into(total: &mut [Vec<u64>], part: &[Vec<u64>]) {
    for (t, c) in total.iter_mut().zip(part) {
        for (a, b) in t.iter_mut().zip(c) {
            *a += b;
        }
    }
}

pub fn pass_items_add_up_to_the_definition_whatever_the_split() {
    let budget = MemoryBudget::bytes(1e9).unwrap();
    // every cycle method; 0x1F and 0x11 have many short cycles that
    // share an item; 0x1100B (16 bits) has 16 items of 2^12 states
    for spec in ["0x11021", "0x1100B", "0x1F", "0x11", "0x18BB7"] {
        let g: Generator = spec.parse().unwrap();
        let lens = [5u64, 70, 300];
        let pass = DualPass::new(&g, &lens, budget).unwrap();
        assert_eq!(
            pass.items(),
            (1u64 << g.width()).div_ceil(DualPass::segment(g.width()))
        );
        for shards in [1u64, 2, 3, 7] {
            let mut total = pass.zero();
            for s in 0..shards {
                let mut part = pass.zero();
                for i in (s..pass.items()).step_by(shards as usize) {
                    add_into(&mut part, &pass.item(i));
                }
                add_into(&mut total, &part);
            }
            let d = pass.finish(&total).unwrap();
            for (k, &n) in lens.iter().enumerate() {
                assert_eq!(
                    d[k].counts,
                    naive_dual(&g, n),
                    "{spec} n={n} {shards} shards"
                );
            }
        }
        // a missing item or one counted twice is caught by the state count
        if pass.items() > 1 {
            let mut short = pass.zero();
            for i in 1..pass.items() {
                add_into(&mut short, &pass.item(i));
            }
            assert!(matches!(pass.finish(&short), Err(Error::Invalid(_))));
            add_into(&mut short, &pass.item(1));
            add_into(&mut short, &pass.item(0));
            assert!(pass.finish(&short).is_err());
        }
        assert!(pass.finish(&[vec![0; 3]]).is_err());
    }
}

pub fn pass_items_of_a_long_cycle_match_one_task() {
    // 2^23 - 1 states in one cycle: 2^13 states per item, 1024 items
    let g = Generator::new(23, (1 << 5) | 1).unwrap();
    let pass = DualPass::new(&g, &[40], MemoryBudget::bytes(1e9).unwrap()).unwrap();
    assert_eq!(pass.items(), 1024);
    let mut total = pass.zero();
    for i in (0..pass.items()).rev() {
        add_into(&mut total, &pass.item(i));
    }
    assert_eq!(
        pass.finish(&total).unwrap(),
        dual_weights(&g, &[40], &crate::ctx::Ctx::default()).unwrap()
    );
}

pub fn rejects_bad_input() {
    let g: Generator = "0x104C11DB7".parse().unwrap();
    assert!(matches!(
        dual_weights(&g, &[0], &crate::ctx::Ctx::default()),
        Err(Error::BadLength(_))
    ));
    assert!(curve(&g, &[100], &[0.7], &crate::ctx::Ctx::default()).is_err());
    assert!(curve(&g, &[100], &[-1.0], &crate::ctx::Ctx::default()).is_err());
    let wide = Generator::new(40, 0x11).unwrap();
    assert!(matches!(
        dual_weights(&wide, &[100], &crate::ctx::Ctx::default()),
        Err(Error::Refused(crate::registry::Refusal::Width {
            width: 40,
            max: 32,
            ..
        }))
    ));
}

/// A_w of the length-n code by enumerating its 2^(n-r) codewords q g.
fn codeword_weights(g: &Generator, n: u64) -> Vec<u64> {
    let k = n - g.width() as u64;
    let mut a = vec![0u64; n as usize + 1];
    let mut c: u128 = 0;
    a[0] += 1;
    for i in 1u64..(1u64 << k) {
        let bit = i.trailing_zeros();
        c ^= g.full() << bit;
        a[c.count_ones() as usize] += 1;
    }
    a
}

/// Exact P_ud = sum A_w p^w (1-p)^(n-w) as a dyadic rational, rounded to f64.
fn exact_pud(a: &[u64], n: u64, p: f64) -> f64 {
    let a: Vec<dashu_int::UBig> = a.iter().map(|&x| x.into()).collect();
    exact_pud_big(&a, n, p)
}

fn exact_pud_big(a: &[dashu_int::UBig], n: u64, p: f64) -> f64 {
    use dashu_int::UBig;
    // p = m 2^-q exactly
    let (m, q) = {
        let mut q = 0usize;
        let mut x = p;
        while x.fract() != 0.0 {
            x *= 2.0;
            q += 1;
        }
        (x as u64, q)
    };
    let mm = UBig::from(m);
    let cm = (UBig::ONE << q) - &mm;
    let mut num = UBig::ZERO;
    for (w, aw) in a.iter().enumerate().skip(1) {
        if *aw > UBig::ZERO {
            num += aw * mm.pow(w) * cm.pow(n as usize - w);
        }
    }
    highprec::fixed_to_f64(&num, q * n as usize)
}

fn bers() -> Vec<f64> {
    let mut v: Vec<f64> = (0..=29)
        .map(|i| 10f64.powf(-15.0 + i as f64 * 0.5))
        .collect();
    v.extend([0.3, 0.4999, 0.5, 1.2345e-3]);
    v.retain(|&p| p <= 0.5);
    v
}

pub fn curve_matches_exact_codeword_enumeration_over_the_whole_ber_range() {
    // Independent oracle: A_w by enumerating codewords, P_ud summed
    // exactly in rationals. 1e-12 relative at every BER in [1e-15, 0.5].
    for (spec, lens) in [
        ("0x107", vec![9u64, 12, 20, 24]),
        ("0x11021", vec![17u64, 20, 30, 32]),
        ("0x18005", vec![18u64, 25, 31]),
        ("0x1D", vec![5u64, 9, 17]),
        ("0x3", vec![2u64, 7, 16]),
        ("0x100001B", vec![25u64, 32, 40]),
    ] {
        let g: Generator = spec.parse().unwrap();
        let bers = bers();
        let pts = curve(&g, &lens, &bers, &crate::ctx::Ctx::default()).unwrap();
        for (i, &n) in lens.iter().enumerate() {
            let a = codeword_weights(&g, n);
            for (j, &p) in bers.iter().enumerate() {
                let got = pts[i * bers.len() + j].p_undetected;
                let want = exact_pud(&a, n, p);
                assert!(want > 0.0);
                let rel = (got / want - 1.0).abs();
                assert!(
                    rel < 1e-12,
                    "{spec} n={n} p={p}: {got} vs {want} (rel {rel:e})"
                );
            }
        }
    }
}

pub fn curve_matches_markov_state_vector_at_longer_lengths() {
    // Independent oracle: the register as a Markov chain, carrying only the
    // mass of paths that have already seen an error (all terms positive);
    // one pass to the longest of `lens`, the escape read at each.
    fn markov(g: &Generator, lens: &[u64], p: f64) -> Vec<f64> {
        let r = g.width();
        let size = 1usize << r;
        let mut q = vec![0f64; size];
        let mut next = vec![0f64; size];
        let mut clean = 1f64; // (1-p)^t
        let mut out = vec![f64::NAN; lens.len()];
        let last = lens.iter().copied().max().unwrap_or(0);
        for t in 0..=last {
            for (i, &n) in lens.iter().enumerate() {
                if n == t {
                    out[i] = q[0];
                }
            }
            if t == last {
                break;
            }
            next.fill(0.0);
            for (s, &v) in q.iter().enumerate() {
                if v == 0.0 {
                    continue;
                }
                for (b, pb) in [(0u64, 1.0 - p), (1u64, p)] {
                    let s = s as u64;
                    let fb = ((s >> (r - 1)) & 1) ^ b;
                    let t = ((s << 1) & g.mask()) ^ if fb == 1 { g.normal() } else { 0 };
                    next[t as usize] += v * pb;
                }
            }
            // clean path hit by its first error: state 0 -> g.normal()
            next[g.normal() as usize] += clean * p;
            clean *= 1.0 - p;
            std::mem::swap(&mut q, &mut next);
        }
        out
    }
    for (spec, lens) in [
        ("0x107", vec![40u64, 300]),
        ("12:0x80F", vec![216u64]),
        ("0x11021", vec![17u64, 1000]),
        ("20:0x9", vec![21u64, 64]),
    ] {
        let g: Generator = spec.parse().unwrap();
        // (the test command: the smallest, a middle and the largest BER)
        let bers: &[f64] = crate::tier::pick(&[1e-12, 1e-3, 0.5], &[1e-12, 1e-6, 1e-3, 0.05, 0.5]);
        let pts = curve(&g, &lens, bers, &crate::ctx::Ctx::default()).unwrap();
        let chain: Vec<Vec<f64>> = bers.iter().map(|&p| markov(&g, &lens, p)).collect();
        for (i, &n) in lens.iter().enumerate() {
            for (j, &p) in bers.iter().enumerate() {
                let got = pts[i * bers.len() + j].p_undetected;
                let want = chain[j][i];
                let rel = (got / want - 1.0).abs();
                // the f64 chain itself carries about n * eps
                assert!(rel < 1e-12, "{spec} n={n} p={p}: {got} vs {want} ({rel:e})");
            }
        }
    }
}

pub fn short_lengths_have_no_codewords() {
    let g: Generator = "0x11021".parse().unwrap();
    let pts = curve(&g, &[1, 16], &[0.1, 0.5], &crate::ctx::Ctx::default()).unwrap();
    assert!(pts.iter().all(|p| p.p_undetected == 0.0));
    let pts = curve(&g, &[17], &[0.0], &crate::ctx::Ctx::default()).unwrap();
    assert_eq!(pts[0].p_undetected, 0.0);
}

pub fn macwilliams_matches_codeword_enumeration_and_sums_to_2_pow_k() {
    use crate::weights::macwilliams;
    use dashu_int::UBig;
    for (spec, lens) in [
        ("0x11021", vec![17u64, 25, 34]),
        ("0x18005", vec![20u64, 33]),
        ("0x1F", vec![5u64, 12, 20]),
    ] {
        let g: Generator = spec.parse().unwrap();
        let d = dual_weights(&g, &lens, &crate::ctx::Ctx::default()).unwrap();
        for (k, &n) in lens.iter().enumerate() {
            let a = macwilliams(&d[k], n as usize).unwrap();
            let want = codeword_weights(&g, n);
            let want: Vec<UBig> = want.into_iter().map(UBig::from).collect();
            assert_eq!(a, want, "{spec} n={n}");
            let total: UBig = a.iter().sum();
            assert_eq!(total, UBig::ONE << (n as usize - g.width() as usize));
        }
    }
}

pub fn macwilliams_matches_syndrome_counts_at_long_lengths() {
    use crate::lowweight::weight_counts;
    use crate::weights::macwilliams;
    use dashu_int::UBig;
    // 20-bit primitive (x^20 + x^3 + 1) and two 16-bit CRCs, to 5000 bits
    let g20 = Generator::new(20, (1 << 3) | 1).unwrap();
    for g in [g20, "0x11021".parse().unwrap(), "0x18BB7".parse().unwrap()] {
        let lens = [60u64, 700, 5000];
        let d = dual_weights(&g, &lens, &crate::ctx::Ctx::default()).unwrap();
        let counts: Vec<Vec<u128>> = (2..=4)
            .map(|w| weight_counts(&g, w, 5001, &crate::ctx::Ctx::default()).unwrap())
            .collect();
        // weight 5 by meet in the middle, to 701 bits (a 245,000-pair table)
        let a5 = weight_counts(&g, 5, 701, &crate::ctx::Ctx::default()).unwrap();
        for (k, &n) in lens.iter().enumerate() {
            let a = macwilliams(&d[k], 5).unwrap();
            assert_eq!(a[1], UBig::ZERO);
            if n <= 700 {
                assert_eq!(
                    a[5],
                    UBig::from(a5[n as usize]),
                    "{} n={n} w=5",
                    g.full_string()
                );
            }
            for w in 2..=4usize {
                assert_eq!(
                    a[w],
                    UBig::from(counts[w - 2][n as usize]),
                    "{} n={n} w={w}",
                    g.full_string()
                );
            }
        }
    }
}

pub fn distinguished_point_walk_finds_the_same_cycles_as_the_bitmap() {
    // (x^3+x+1)(x^23+x^5+1): width 26, neither primitive nor (x+1) p
    let f = gf2::clmul(0b1011, (1 << 23) | (1 << 5) | 1);
    let g = Generator::from_full(f).unwrap();
    assert_eq!(cycle_method(&g), CycleMethod::Walk);
    let lf = Lfsr::new(&g).unwrap();
    let mut a: Vec<u64> = walk_distinguished(&g, &lf)
        .expect("covers all states")
        .iter()
        .map(|c| c.len)
        .collect();
    let mut b: Vec<u64> = walk_bitmap(&lf, 26).iter().map(|c| c.len).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}

pub fn curve_matches_exact_rationals_at_longer_lengths() {
    // A_w for every weight by MacWilliams (itself checked against
    // enumeration and syndrome counts above), then P_ud summed exactly
    // in rationals: checks the fixed-point evaluation where n p spans
    // 1e-13 .. 150 and the cancellation is deepest.
    use crate::weights::macwilliams;
    for (spec, n) in [("0x180F", 300u64), ("0x11021", 200), ("0x107", 500)] {
        let g: Generator = spec.parse().unwrap();
        let d = dual_weights(&g, &[n], &crate::ctx::Ctx::default())
            .unwrap()
            .remove(0);
        let a = macwilliams(&d, n as usize).unwrap();
        assert!(
            a.iter().any(|x| u64::try_from(x).is_err()),
            "big counts exercised"
        );
        for p in [1e-15, 3e-11, 1e-7, 1e-4, 0.01, 0.3, 0.5] {
            let got = curve(&g, &[n], &[p], &crate::ctx::Ctx::default()).unwrap()[0].p_undetected;
            let want = exact_pud_big(&a, n, p);
            let rel = (got / want - 1.0).abs();
            assert!(rel < 1e-12, "{spec} n={n} p={p}: {got} vs {want} ({rel:e})");
        }
    }
}
