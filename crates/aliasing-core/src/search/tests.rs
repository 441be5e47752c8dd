use super::*;

fn query(width: u32, lengths: &[u64], bers: &[f64], top: usize) -> Query {
    Query {
        width,
        lengths: lengths.to_vec(),
        bers: bers.to_vec(),
        min_hd: 0,
        top,
        objective: Objective::Hd,
    }
}

pub fn dual_p_ud_matches_the_markov_chain() {
    // two independent exact methods on every 6-bit generator and a few 16-bit ones
    let lengths = [7u64, 20, 64];
    let bers = [1e-6, 1e-2, 0.3];
    let mut gens: Vec<Generator> = (0..32)
        .map(|i| Generator::new(6, 2 * i + 1).unwrap())
        .collect();
    for s in ["0x11021", "0x18005", "0x13D65"] {
        gens.push(s.parse().unwrap());
    }
    for g in gens {
        let ls: Vec<u64> = lengths.iter().map(|&n| n + g.width() as u64).collect();
        let a = p_undetected(&g, &ls, &bers, &crate::ctx::Ctx::default()).unwrap();
        let b = crate::markov::p_undetected(&g, &ls, &bers, &crate::ctx::Ctx::default()).unwrap();
        for (li, row) in a.iter().enumerate() {
            for (bi, &v) in row.iter().enumerate() {
                let m = b[bi][li];
                assert!(
                    (v - m).abs() <= 1e-11 * m.abs().max(1e-300),
                    "{} n={} p={}: {v} vs {m}",
                    g.full_string(),
                    ls[li],
                    bers[bi]
                );
            }
        }
    }
}

pub fn reciprocal_pairs_tie_exactly_and_are_named() {
    let q = query(8, &[8 + 20, 8 + 100], &[1e-4, 1e-2], 0);
    let part = run(&q, &Space::All, Shard::WHOLE, &crate::ctx::Ctx::default()).unwrap();
    let rec = reciprocal_of(&part.results);
    let mut pairs = 0;
    for (i, r) in rec.iter().enumerate() {
        let a = &part.results[i];
        let mirror = a.generator.reciprocal();
        if mirror == a.generator {
            continue;
        }
        let j = part
            .results
            .iter()
            .position(|o| o.generator == mirror)
            .expect("the reciprocal is a candidate too");
        let b = &part.results[j];
        assert_eq!(a.hd, b.hd);
        assert_eq!(a.p_undetected, b.p_undetected);
        // the same code read backwards: bit-identical figures, each
        // computed on its own (the search copies them)
        let (ea, eb) = (
            evaluate(&a.generator, &q, &crate::ctx::Ctx::default()).unwrap(),
            evaluate(&b.generator, &q, &crate::ctx::Ctx::default()).unwrap(),
        );
        assert_eq!(ea.hd, eb.hd);
        assert_eq!(ea.p_undetected, eb.p_undetected);
        assert_eq!(ea.p_undetected, a.p_undetected);
        assert_eq!(*r, if j < i { Some(j) } else { None });
        pairs += 1;
    }
    assert!(pairs > 50);
}

pub fn shards_merge_to_the_whole_run() {
    let q = query(9, &[9 + 30, 9 + 200], &[1e-5, 1e-3], 7);
    let space = Space::All;
    let whole = run(&q, &space, Shard::WHOLE, &crate::ctx::Ctx::default()).unwrap();
    for n in [2u64, 3, 5] {
        let parts = (1..=n)
            .map(|i| {
                run(
                    &q,
                    &space,
                    Shard::new(i, n).unwrap(),
                    &crate::ctx::Ctx::default(),
                )
                .unwrap()
            })
            .collect();
        let merged = Partial::merge(&q, parts);
        assert_eq!(merged.results, whole.results, "{n} shards");
        assert_eq!(merged.hd_histogram, whole.hd_histogram);
        assert_eq!(merged.classes, whole.classes);
        assert_eq!(merged.examined, 256);
    }
}

pub fn top_results_are_the_best_of_a_full_evaluation() {
    // the pruned search (P_ud only for the best distance classes) agrees
    // with evaluating every candidate
    let q = query(7, &[7 + 12, 7 + 50], &[1e-3, 0.05], 5);
    let space = Space::All;
    let part = run(&q, &space, Shard::WHOLE, &crate::ctx::Ctx::default()).unwrap();
    let mut all: Vec<Ranked> = (0..space.len(7))
        .map(|i| evaluate(&space.get(7, i), &q, &crate::ctx::Ctx::default()).unwrap())
        .collect();
    all.sort_by(|a, b| a.cmp_key(b, Objective::Hd));
    assert_eq!(part.results, all[..5].to_vec());
    let qp = Query {
        objective: Objective::Pud,
        ..q.clone()
    };
    let part = run(&qp, &space, Shard::WHOLE, &crate::ctx::Ctx::default()).unwrap();
    all.sort_by(|a, b| a.cmp_key(b, Objective::Pud));
    assert_eq!(part.results, all[..5].to_vec());
    // at a high BER a lower-distance generator can have the lower P_ud
    let q = query(8, &[8 + 32], &[0.2], 0);
    let part = run(&q, &Space::All, Shard::WHOLE, &crate::ctx::Ctx::default()).unwrap();
    let best = &part.results[0];
    assert!(
        part.results
            .iter()
            .any(|r| r.min_hd < best.min_hd && r.worst(0) < best.worst(0)),
        "no lower-HD generator beats the HD winner at BER 0.2"
    );
}

pub fn sample_is_reproducible_and_distinct() {
    let a = Space::sample(24, 1000, 7).unwrap();
    let b = Space::sample(24, 1000, 7).unwrap();
    let c = Space::sample(24, 1000, 8).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    let Space::List(v) = a else { panic!() };
    assert_eq!(v.len(), 1000);
    assert!(v.windows(2).all(|w| w[0] < w[1]));
    assert!(v.iter().all(|g| g.width() == 24));
    assert!(Space::sample(4, 9, 1).is_err()); // only 8 exist
}

pub fn refuses_bad_queries() {
    let good = query(8, &[64], &[1e-5], 3);
    assert!(good.validate().is_ok());
    for bad in [
        Query {
            width: 33,
            ..good.clone()
        },
        Query {
            lengths: vec![8],
            ..good.clone()
        },
        Query {
            lengths: vec![],
            ..good.clone()
        },
        Query {
            bers: vec![0.0],
            ..good.clone()
        },
        Query {
            bers: vec![0.7],
            ..good.clone()
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }
    assert!(Shard::new(0, 3).is_err());
    assert!(Shard::new(4, 3).is_err());
}

/// `data/koopman-best.txt`: (width, hd, longest data bits, Koopman, source).
fn best_rows() -> Vec<(u32, u32, u64, u64, String)> {
    include_str!("../../../../data/koopman-best.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                u64::from_str_radix(f[3].trim_start_matches("0x"), 16).unwrap(),
                f[4].to_string(),
            )
        })
        .collect()
}

/// Reproduces Koopman's best-generator rows by exhaustive search: at the
/// published length some generator of the width has the HD (the published
/// one among them) and at one data bit more none has.
fn check_best_rows(widths: std::ops::RangeInclusive<u32>) {
    let rows = best_rows();
    let mut checked = 0;
    for (r, hd, len, k, src) in rows.into_iter().filter(|x| widths.contains(&x.0)) {
        let rr = r as u64;
        let q = query(r, &[len + rr], &[1e-6], 1);
        let space = Space::All;
        let hist = hd_histogram(&q, &space, Shard::WHOLE).unwrap();
        let best = hist.keys().max().copied().unwrap();
        assert!(
            best >= hd,
            "width {r} HD {hd} at {len} ({src}): best {best}"
        );
        let g = Generator::from_koopman(r, k).unwrap();
        assert_eq!(g.width(), r);
        assert!(
            distance::min_distances(&g, &q.lengths).unwrap()[0] >= hd,
            "0x{k:x}"
        );
        let q1 = query(r, &[len + 1 + rr], &[1e-6], 1);
        let hist = hd_histogram(&q1, &space, Shard::WHOLE).unwrap();
        let best = hist.keys().max().copied().unwrap();
        assert!(
            best < hd,
            "width {r} HD {hd} at {} ({src}): best {best}",
            len + 1
        );
        checked += 1;
    }
    assert!(checked > 0);
}

pub fn koopman_best_rows_widths_8_to_12() {
    check_best_rows(8..=12);
}

pub fn koopman_best_rows_widths_13_to_16() {
    // widths 15 and 16 (2^14 and 2^15 candidates) in the full tier
    check_best_rows(13..=crate::tier::pick(14, 16));
}

/// The width is stated once, by the query: `Space::All` takes it from
/// there, and a list of another width is refused in one line.
pub fn the_query_alone_states_the_width() {
    let q = query(8, &[8 + 30], &[1e-4], 3);
    let part = run(&q, &Space::All, Shard::WHOLE, &crate::ctx::Ctx::default()).unwrap();
    assert_eq!(part.examined, 128);
    assert!(part.results.iter().all(|r| r.generator.width() == 8));
    let nine = Space::List(vec![Generator::new(9, 0x11).unwrap()]);
    let e = run(&q, &nine, Shard::WHOLE, &crate::ctx::Ctx::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("has width 9, not 8") && !e.contains('\n'), "{e}");
}

pub fn estimated_seconds_sample_the_space() {
    let q = Query {
        width: 12,
        lengths: vec![64],
        bers: vec![1e-5],
        min_hd: 0,
        top: 10,
        objective: Objective::Hd,
    };
    let all = estimate_seconds(
        &q,
        &Space::All,
        Shard::WHOLE,
        crate::units::MemoryBudget::bytes(8e9).unwrap(),
    )
    .unwrap();
    assert!(all.is_finite() && all > 0.0, "{all}");
    // under 1024 candidates: no pilot
    let few = Space::List(vec![Generator::new(12, 0x80F).unwrap()]);
    assert!(
        estimate_seconds(
            &q,
            &few,
            Shard::WHOLE,
            crate::units::MemoryBudget::bytes(8e9).unwrap()
        )
        .unwrap()
        .is_nan()
    );
}
