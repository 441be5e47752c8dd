//! Every long computation reports its stages to a watcher, and the units it
//! reports add up to each stage's announced total; watching changes no
//! result (a watched context gives the same bits as a silent one).

use aliasing_core::__private::progress::{Record, Stage};
use aliasing_core::channel::GilbertElliott;
use aliasing_core::check::CheckSpec;
use aliasing_core::ctx::Ctx;
use aliasing_core::curve::{self, Method, Request};
use aliasing_core::markov::{self, gilbert};
use aliasing_core::poly::Generator;
use aliasing_core::search::{self, Objective, Query, Space};
use aliasing_core::shard::Shard;
use aliasing_core::units::{Ber, Bits, MemoryBudget};
use aliasing_core::{__private, bracket, catalogue, compare, dual, lowweight, weights};

/// The stages `r` saw, as (name, total), after checking each is complete.
fn complete(r: &Record) -> Vec<(String, u64)> {
    let stages = r.stages();
    for s in &stages {
        assert_eq!(s.done, s.total, "stage {s:?} of {stages:?}");
    }
    assert!(!stages.is_empty(), "no stage announced");
    stages
        .into_iter()
        .map(|Stage { name, total, .. }| (name, total))
        .collect()
}

fn stages(v: &[(&str, u64)]) -> Vec<(String, u64)> {
    v.iter().map(|&(n, t)| (n.to_string(), t)).collect()
}

fn budget() -> MemoryBudget {
    MemoryBudget::bytes(1e9).unwrap()
}

/// A context of [`budget`] watched by `r`.
fn watched(r: &Record) -> Ctx<'_> {
    Ctx::new(budget()).with_progress(r)
}

/// A silent context of [`budget`].
fn quiet() -> Ctx<'static> {
    Ctx::new(budget())
}

#[test]
fn markov_chain_steps() {
    // width 5 runs the butterfly kernel, 12 the walk kernel (where the CPU
    // has its vector path; the butterfly otherwise)
    for (w, poly) in [(5, 0x05), (8, 0x07), (12, 0x80F)] {
        let g = Generator::new(w, poly).unwrap();
        let lengths = [300u64, 40, 1000];
        let bers = [1e-3, 0.25, 0.5];
        let r = Record::default();
        let got = markov::solve(&g, &lengths, &bers, &watched(&r));
        assert_eq!(complete(&r), stages(&[("chain steps", 3000)]), "width {w}");
        assert_eq!(got, markov::solve(&g, &lengths, &bers, &quiet()));
        let r = Record::default();
        markov::curve(&g, &lengths, &bers[..1], &watched(&r)).unwrap();
        assert_eq!(complete(&r), stages(&[("chain steps", 1000)]));
    }
}

#[test]
fn gilbert_chain_steps() {
    let ge = GilbertElliott::new(1e-4, 0.2, 1e-3, 0.1).unwrap();
    // below and above the fused kernel's smallest width
    for (w, poly) in [(5, 0x05), (12, 0x80F)] {
        let g = Generator::new(w, poly).unwrap();
        let lengths = [700u64, 64];
        let r = Record::default();
        let got = gilbert::curve(&g, &lengths, &ge, &watched(&r)).unwrap();
        assert_eq!(complete(&r), stages(&[("chain steps", 700)]), "width {w}");
        assert_eq!(got, gilbert::solve(&g, &lengths, &ge, &quiet()));
    }
}

#[test]
fn dual_code_windows_and_terms() {
    let g = Generator::new(12, 0x80F).unwrap();
    let lengths = [100u64, 2000];
    let bers = [1e-4, 1e-2, 0.3];
    let r = Record::default();
    let got = dual::curve(&g, &lengths, &bers, &watched(&r)).unwrap();
    let s = complete(&r);
    assert_eq!(s[1], ("P_ud terms".to_string(), 6));
    // every register state (0 included) starts one window: 2^12 per length
    assert_eq!(s[0], ("dual-code windows".to_string(), 2 * 4096));
    assert_eq!(got, dual::curve(&g, &lengths, &bers, &quiet()).unwrap());
}

#[test]
fn exact_curve_reports_the_chosen_method() {
    let crc = catalogue::resolve("crc16-ccitt").unwrap();
    let req = Request::for_crc(
        &crc,
        &[Bits(40), Bits(512)],
        &Ber::list(&[1e-3, 1e-6]).unwrap(),
    )
    .unwrap();
    let r = Record::default();
    let m = curve::exact(&req, Method::Markov, &watched(&r)).unwrap();
    assert_eq!(complete(&r), stages(&[("chain steps", 1024)]));
    assert_eq!(m, curve::exact(&req, Method::Markov, &quiet()).unwrap());
    let r = Record::default();
    curve::exact(&req, Method::Dual, &watched(&r)).unwrap();
    assert_eq!(r.names(), ["dual-code windows", "P_ud terms"]);
    complete(&r);
}

#[test]
fn low_weight_spans_and_shapes() {
    let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
    for w in 2..=6 {
        let r = Record::default();
        let got = lowweight::weight_counts(&g, w, 300, &watched(&r)).unwrap();
        let total = if w >= 5 { 299 } else { 300 };
        assert_eq!(
            complete(&r),
            stages(&[(&format!("weight-{w} spans"), total)])
        );
        assert_eq!(got, lowweight::weight_counts(&g, w, 300, &quiet()).unwrap());
    }
    for w in 2..=5 {
        let r = Record::default();
        let got = __private::lowweight::shapes_with(&g, w, 400, &r).unwrap();
        let s = complete(&r);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].0, format!("weight-{w} shape search"));
        // one unit per part of the enumeration
        assert_eq!(
            s[0].1,
            __private::lowweight::ShapeParts::new(&g, w, 400)
                .unwrap()
                .parts()
        );
        assert_eq!(got, lowweight::shapes(&g, w, 400).unwrap());
    }
    // CRC-32's weight-4 shape first fits at 3007 bits (the module's example)
    let r = Record::default();
    assert_eq!(
        __private::lowweight::shapes_with(&g, 4, 3008, &r)
            .unwrap()
            .len(),
        1
    );
    complete(&r);
}

#[test]
fn hd_profile_spans() {
    // CRC-16-CCITT: HD 4 from the period, the weight-3 search by meet in the
    // middle; the spans past the first codeword are reported at once
    for spec in ["crc16-ccitt", "CRC-8/SMBUS", "crc32"] {
        let g = catalogue::resolve(spec).unwrap().generator();
        let r = Record::default();
        let got = __private::lowweight::hd_profile_with(&g, Some(6), &r).unwrap();
        assert_eq!(got, lowweight::hd_profile(&g, Some(6)).unwrap());
        for s in r.stages() {
            assert_eq!(s.done, s.total, "{spec}: {s:?}");
            assert!(s.name.starts_with("weight-") && s.name.ends_with(" spans"));
        }
        if spec == "crc32" {
            // HD 4, 5 and 6 come from the searches for weights 3, 4 and 5;
            // weight 3 in two parts: the first 2^16 spans, then (the
            // discrete logarithms do not apply to CRC-32's order 2^32 - 1)
            // the rest (the spans from the 22 listed data bits and 32 check
            // bits to the period, those past 91,607 data bits at once)
            assert_eq!(
                r.names(),
                [
                    "weight-3 spans",
                    "weight-3 spans",
                    "weight-4 spans",
                    "weight-5 spans"
                ]
            );
            let w3: Vec<u64> = r.stages().iter().take(2).map(|s| s.total).collect();
            assert_eq!(w3[0], 1 << 16);
            assert_eq!(w3[0] + w3[1], u64::from(u32::MAX) - 22 - 32);
        }
    }
}

#[test]
fn weight_distribution_by_either_method() {
    let g = catalogue::resolve("crc16-ccitt").unwrap().generator();
    let r = Record::default();
    let ctx = aliasing_core::ctx::Ctx::new(budget()).with_progress(&r);
    let d =
        weights::distribution(&g, 200, 4, weights::WeightMethod::Syndromes, false, &ctx).unwrap();
    assert_eq!(
        complete(&r),
        stages(&[
            ("weight-2 spans", 201),
            ("weight-3 spans", 201),
            ("weight-4 spans", 201)
        ])
    );
    let r = Record::default();
    let ctx = aliasing_core::ctx::Ctx::new(budget()).with_progress(&r);
    let dd = weights::distribution(&g, 200, 4, weights::WeightMethod::Dual, false, &ctx).unwrap();
    assert_eq!(complete(&r), stages(&[("dual-code windows", 65536)]));
    assert_eq!(d.counts, dd.counts);
}

#[test]
fn bracket_weights() {
    let g = catalogue::resolve("crc64-xz").unwrap().generator();
    let r = Record::default();
    let b = bracket::brackets(&g, &[200, 1000], &[1e-5], Some(4), &watched(&r)).unwrap();
    // CRC-64/XZ has the factor (x + 1): no odd weight is enumerated
    assert!(g.divisible_by_x_plus_1());
    assert_eq!(
        complete(&r),
        stages(&[("weight-2 spans", 1001), ("weight-4 spans", 1001)])
    );
    assert_eq!(
        b,
        bracket::brackets(&g, &[200, 1000], &[1e-5], Some(4), &quiet()).unwrap()
    );
}

#[test]
fn compare_points_and_crc_stages() {
    let r = Record::default();
    let check = CheckSpec::Internet;
    let got = compare::curve(&check, &[20, 64, 200], &[1e-4, 1e-2], None, &watched(&r)).unwrap();
    assert_eq!(complete(&r), stages(&[("points", 6)]));
    assert_eq!(
        got,
        compare::curve(&check, &[20, 64, 200], &[1e-4, 1e-2], None, &quiet()).unwrap()
    );
    let crc = CheckSpec::Crc(Box::new(catalogue::resolve("crc16-ccitt").unwrap()));
    let r = Record::default();
    compare::curve(&crc, &[64, 1500], &[1e-5], None, &watched(&r)).unwrap();
    assert!(!r.names().is_empty());
    complete(&r);
}

#[test]
fn search_stages() {
    let q = Query::new(8, vec![64, 200], vec![1e-4], 0, 5, Objective::Hd).unwrap();
    let space = Space::All;
    let r = Record::default();
    let part = search::run(&q, &space, Shard::new(2, 3).unwrap(), &watched(&r)).unwrap();
    let s = complete(&r);
    assert_eq!(s[0], ("distance".to_string(), 43)); // 128 candidates, shard 2 of 3
    assert_eq!(s[1].0, "P_ud");
    assert!(s[1].1 > 0);
    let plain = search::run(&q, &space, Shard::new(2, 3).unwrap(), &quiet()).unwrap();
    assert_eq!(part.results, plain.results);
    assert_eq!(s[1].1, part.pud_stage.generators);
}
