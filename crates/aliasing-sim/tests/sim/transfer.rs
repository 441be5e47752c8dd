//! The tests of `aliasing_sim::transfer` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_core::Error;
use aliasing_core::bsc;
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::document::{Bracketed, JointEstimate};
use aliasing_sim::corruption::{self};
use aliasing_sim::joint::{self};
use aliasing_sim::transfer::*;

/// A small stack the debug build computes in a moment (a CRC-16, so the
/// dual code has 65,536 words).
const SMALL: &str = "ipv4-tcp+CRC-16/ARC";

fn params(mtus: &[u64], bers: &[f64], hops: &[u32]) -> TransferParams {
    let mut p = TransferParams::new(
        SMALL,
        10_000_000,
        mtus.to_vec(),
        bers.to_vec(),
        hops.to_vec(),
    );
    // fast in a debug build: weights up to 4, no draws (the test of kept
    // tallies draws)
    p.max_weight = 4;
    p.samples = 0;
    p
}

/// The budget of the context (not of the environment) holds the transfer's
/// paths: a 1 KiB budget refuses the dual code before any work item is
/// run, and a kept tally whose dual code is missing alike; a roomy budget
/// lets the same request through.
#[test]
fn the_context_budget_holds_every_transfer_path() {
    use aliasing_core::units::MemoryBudget;
    let tiny = Ctx::new(MemoryBudget::bytes(1024.0).unwrap());
    let roomy = Ctx::new(MemoryBudget::bytes(1e9).unwrap());
    let p = params(&[68, 200], &[1e-5], &[1, 2]);
    let watch = aliasing_core::progress::Record::default();
    let e = report(&p, &tiny.with_progress(&watch)).unwrap_err();
    assert!(matches!(e.root(), Error::TooBig { .. }), "{e}");
    assert!(
        !watch.names().iter().any(|n| n == "work items"),
        "{:?}",
        watch.names()
    );
    let mut kept = Tallies::new(&p);
    let e = report_with(&p, &mut kept, &tiny).unwrap_err();
    assert!(matches!(e.root(), Error::TooBig { .. }), "{e}");
    assert!(kept.frames.is_empty());
    let (doc, changed) = report_with(&p, &mut kept, &roomy).unwrap();
    assert!(changed);
    assert_eq!(doc, report(&p, &roomy).unwrap());
    // the job runs in its context too
    let job = TransferJob::new(p.clone(), None).unwrap();
    let e = job.run(&tiny).unwrap_err();
    assert!(matches!(e.root(), Error::TooBig { .. }), "{e}");
}

/// At one hop the per-frame joint escape is `alias stack`'s for the frame
/// length and BER, every field equal (estimate, bracket, method), and so is
/// P(error); the expected escapes are frames sent x that value, bit for bit.
#[test]
fn one_hop_is_the_stack_digit_for_digit() {
    let bers = [0.0, 1e-300, 1e-9, 1e-5, 1e-3, 0.05, 0.5];
    let mut p = params(&[68, 200], &bers, &[1]);
    p.samples = 2000;
    let doc = report(&p, &Ctx::default()).unwrap();
    let st = joint::report(&p.stack_params(), &Ctx::default()).unwrap();
    assert_eq!(doc.points.len(), st.points.len());
    for (t, s) in doc.points.iter().zip(&st.points) {
        let what = format!("{} bytes at {}", s.bytes, s.ber);
        assert_eq!(t.frame_bytes, s.bytes, "{what}");
        assert_eq!(t.frame_bytes, t.mtu + 2, "{what}");
        assert_eq!(t.payload_bytes, t.mtu - 40);
        assert_eq!(t.frames, 10_000_000u64.div_ceil(t.payload_bytes));
        assert_eq!(t.joint_per_frame, s.joint, "{what}");
        assert_eq!(t.p_error, s.p_error, "{what}");
        let e = &t.joint_per_frame;
        // the identity the table promises
        if let Some(j) = e.estimate {
            assert_eq!(
                t.escapes.estimate,
                Some(t.frames_sent.unwrap() * j),
                "{what}"
            );
        }
        assert!(t.escapes.low <= t.escapes.high, "{what}");
        if let Some(x) = t.escapes.estimate {
            assert!(t.escapes.low <= x && x <= t.escapes.high, "{what}");
        }
        assert!(t.p_at_least_one.low <= t.p_at_least_one.high && t.p_at_least_one.high <= 1.0);
        if t.ber == 0.0 {
            assert_eq!(t.escapes, Bracketed::new(Some(0.0), 0.0, 0.0));
            assert_eq!(t.frames_sent, Some(t.frames as f64));
            assert_eq!(t.bytes_per_escape, None);
        } else if t.ber >= 1e-100 {
            assert!(t.escapes.low > 0.0, "{what}: {t:?}");
        }
        // the study's product, over the frames
        let ind = s
            .independence_product
            .map(|x| x * s.p_error * t.frames as f64);
        assert_eq!(t.independence_escapes, ind, "{what}");
    }
}

/// `1 - (1 - q)^n` computed independently: by its binomial series where
/// `n q` is small (the direct formula loses digits there), else directly,
/// within its own rounding (`n` ulps of `1 - q`).
fn check_at_least_one(got: f64, q: f64, n: f64, what: &str) {
    if n * q < 0.1 {
        // sum_k (-1)^(k+1) C(n,k) q^k, its terms falling fast
        let (mut term, mut sum) = (1.0, 0.0);
        for k in 1..30 {
            term *= (n - f64::from(k) + 1.0) / f64::from(k) * q;
            sum += if k % 2 == 1 { term } else { -term };
        }
        assert!((got - sum).abs() <= 1e-12 * sum, "{what}: {got} vs {sum}");
    } else {
        let direct = 1.0 - (1.0 - q).powf(n);
        assert!(
            (got - direct).abs() <= n * 1e-15,
            "{what}: {got} vs {direct}"
        );
    }
}

/// P(at least one escape) against `1 - (1 - q)^frames` computed
/// independently, at small and moderate q; and the bytes per escape.
#[test]
fn at_least_one_matches_the_direct_formula() {
    let p = params(&[200], &[1e-6, 1e-5, 1e-4], &[1, 2]);
    let doc = report(&p, &Ctx::default()).unwrap();
    let mut checked = 0;
    for t in &doc.points {
        let Some(e) = t.joint_per_frame.estimate else {
            continue;
        };
        checked += 1;
        let q = e * t.frames_sent.unwrap() / t.frames as f64;
        let got = t.p_at_least_one.estimate.unwrap();
        check_at_least_one(got, q, t.frames as f64, &format!("{t:?}"));
        let per = 1e7 / t.escapes.estimate.unwrap();
        assert_eq!(t.bytes_per_escape, Some(per));
    }
    assert!(checked >= 4, "{checked}");
    // moderate q (high BER, 100 segments), from the bracket's lower end
    let mut p = params(&[68], &[0.01, 0.05], &[1]);
    p.size = 2800;
    for t in &report(&p, &Ctx::default()).unwrap().points {
        let q = t.escapes.low / 100.0;
        assert!(q > 1e-6, "{t:?}");
        check_at_least_one(t.p_at_least_one.low, q, 100.0, &format!("{t:?}"));
    }
}

/// A cyclic code of length 6 (generator x^2 + x + 1), and an arbitrary
/// probability that an error pattern passes the checksums.
fn tiny() -> (u32, Vec<bool>, Vec<f64>) {
    let n = 6;
    let mut code = vec![false; 1 << n];
    for m in 0u32..16 {
        // m(x) (x^2 + x + 1) over GF(2)
        let w = m ^ (m << 1) ^ (m << 2);
        code[w as usize] = true;
    }
    let pass = (0..1u32 << n)
        .map(|e| {
            if (e & 0b110000).count_ones() % 2 == 0 {
                1.0
            } else {
                0.3
            }
        })
        .collect();
    (n, code, pass)
}

/// The hops bracket holds the value of the model computed by brute force
/// over every error pattern of every link (a 6-bit code, 2 and 3 links):
/// per attempt, the frame is delivered corrupted iff every link's pattern
/// is a codeword, their sum is not zero, and the checksums pass the sum.
#[test]
fn hops_bracket_holds_the_brute_force_value() {
    let (n, code, pass) = tiny();
    let words = 1usize << n;
    for p in [1e-3f64, 0.05, 0.2, 0.45] {
        let pr = |e: usize| {
            p.powi(e.count_ones() as i32) * (1.0 - p).powi(n as i32 - e.count_ones() as i32)
        };
        let j: f64 = (1..words)
            .filter(|&e| code[e])
            .map(|e| pr(e) * pass[e])
            .sum();
        let u: f64 = (1..words).filter(|&e| code[e]).map(pr).sum();
        let single = JointEstimate::new(Some(j), j, j, "brute".into());
        for h in [1u32, 2, 3] {
            // brute force: every tuple of patterns
            let (mut e, mut ok) = (0.0, 0.0);
            let mut idx = vec![0usize; h as usize];
            loop {
                let prob: f64 = idx.iter().map(|&x| pr(x)).product();
                if idx.iter().all(|&x| code[x]) {
                    let s = idx.iter().fold(0, |a, &x| a ^ x);
                    if s == 0 {
                        ok += prob;
                    } else {
                        e += prob * pass[s];
                        ok += prob * pass[s];
                    }
                }
                // next tuple
                let mut k = 0;
                while k < idx.len() {
                    idx[k] += 1;
                    if idx[k] < words {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
                if k == idx.len() {
                    break;
                }
            }
            let (got, more) = hops_joint(h, &single, Some(u), u64::from(n), p).unwrap();
            let what = format!(
                "p {p}, {h} hops: brute {e:e} in [{:e}, {:e}]",
                got.low, got.high
            );
            let tol = 1e-12;
            assert!(
                got.low <= e * (1.0 + tol) && e <= got.high * (1.0 + tol),
                "{what}"
            );
            // 1 - d lies in [c^H + e, c^H + e + B]
            let clean = bsc::p_clean(u64::from(n * h), p);
            assert!(
                clean + e <= ok * (1.0 + tol) && ok <= (clean + e + more) * (1.0 + tol),
                "{what}"
            );
            if h == 1 {
                assert_eq!(more, 0.0);
                assert!((e - j).abs() <= 1e-15, "{what}");
            } else {
                assert!(more > 0.0 && got.high > got.low, "{what}");
            }
        }
    }
}

/// Hops on a real stack: the lower end is exactly H x J x c^(H-1), the
/// upper adds the two-link bound; more links, more escapes per frame.
#[test]
fn hops_scale_the_single_link() {
    let p = params(&[200], &[1e-6], &[1, 2, 10]);
    let doc = report(&p, &Ctx::default()).unwrap();
    let one = &doc.points[0].joint_per_frame;
    for t in &doc.points[1..] {
        let n = 8 * t.frame_bytes;
        let c = bsc::p_clean(n * u64::from(t.hops - 1), 1e-6);
        assert_eq!(t.joint_per_frame.low, f64::from(t.hops) * one.low * c);
        assert!(t.joint_per_frame.high >= f64::from(t.hops) * one.high * c);
        assert!(
            t.joint_per_frame.method.contains("links"),
            "{}",
            t.joint_per_frame.method
        );
        assert!(t.escapes.low > doc.points[0].escapes.low);
        assert_eq!(t.p_error, bsc::p_error(n * u64::from(t.hops), 1e-6));
    }
}

/// Bad requests are refused by `validate`, before any work, one line each.
#[test]
fn bad_requests_are_refused() {
    let ok = params(&[100], &[1e-6], &[1]);
    ok.validate().unwrap();
    type Change = Box<dyn Fn(&mut TransferParams)>;
    let cases: Vec<(Change, &str)> = vec![
        (Box::new(|p| p.size = 0), "0 bytes"),
        (Box::new(|p| p.size = MAX_SIZE + 1), "2^64"),
        (Box::new(|p| p.mtus = vec![67]), "MTU 67"),
        (Box::new(|p| p.mtus = vec![9217]), "MTU 9217"),
        (Box::new(|p| p.mtus = vec![]), "no MTU"),
        (Box::new(|p| p.bers = vec![0.6]), "0.6"),
        (Box::new(|p| p.hops = vec![0]), "0 hops"),
        (Box::new(|p| p.hops = vec![256]), "256 hops"),
        (Box::new(|p| p.stack = "tcp".into()), "IPv4 and TCP"),
        (
            Box::new(|p| p.stack = "internet+crc32".into()),
            "IPv4 and TCP",
        ),
        (Box::new(|p| p.stack = "nonsense+".into()), "nonsense"),
        (Box::new(|p| p.max_weight = 6), "max-weight"),
    ];
    for (change, want) in cases {
        let mut p = ok.clone();
        change(&mut p);
        let e = report(&p, &Ctx::default()).unwrap_err().to_string();
        assert!(e.contains(want) && !e.contains('\n'), "{want}: {e}");
    }
    // the largest size: 2^64 bytes, still a whole number of segments
    let mut p = ok.clone();
    p.size = MAX_SIZE;
    p.bers = vec![0.0];
    let t = &report(&p, &Ctx::default()).unwrap().points[0];
    assert_eq!(t.frames, ((1u128 << 64).div_ceil(60)) as u64);
}

/// Kept tallies: a second call at other BERs computes nothing and gives
/// what a fresh call gives; a stale or foreign file is refused.
#[test]
fn kept_tallies_are_reused_and_checked() {
    let mut p = params(&[100, 200], &[1e-3, 1e-6], &[1]);
    p.samples = 2000;
    let mut kept = Tallies::new(&p);
    let (_, changed) = report_with(&p, &mut kept, &Ctx::default()).unwrap();
    assert!(changed);
    let text = kept.to_text().unwrap();
    let mut back: Tallies = serde_json::from_str(&text).unwrap();
    assert_eq!(back, kept);
    p.bers = vec![1e-3, 1e-9, 0.5];
    p.hops = vec![1, 4];
    let (again, changed) = report_with(&p, &mut back, &Ctx::default()).unwrap();
    assert!(!changed);
    assert_eq!(again, report(&p, &Ctx::default()).unwrap());
    // another stack, other options
    let mut q = p.clone();
    q.stack = "ipv4-tcp+CRC-16/IBM-3740".into();
    let e = report_with(&q, &mut back.clone(), &Ctx::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("kept for stack"), "{e}");
    let mut q = p.clone();
    q.seed = 2;
    let e = report_with(&q, &mut back.clone(), &Ctx::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("--seed 1"), "{e}");
    // an altered tally: its codeword count no longer matches the dual code
    let mut bad = back.clone();
    bad.frames[0].tally.terms[0].codewords += 1;
    let e = report_with(&p, &mut bad, &Ctx::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("stale"), "{e}");
    let mut bad = back.clone();
    bad.frames[1].dual.counts[3] += 1;
    let e = report_with(&p, &mut bad, &Ctx::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("stale"), "{e}");
}

/// The two-or-more-links sum: 0 for one link, `C(h,2) u^2 c^(h-2) + ...`
/// otherwise, never above the union bound `C(h,2) u^2`, and never NaN at
/// the edges.
#[test]
fn two_or_more_links() {
    assert_eq!(two_or_more(1, 0.1, 0.5), 0.0);
    let v = two_or_more(2, 1e-3, 0.9);
    assert!((v - 1e-6).abs() <= 1e-18, "{v}");
    let v = two_or_more(3, 1e-3, 0.9);
    let want = 3.0 * 1e-6 * 0.9 + 1e-9;
    assert!((v - want).abs() <= 1e-15 * want, "{v} vs {want}");
    for (h, u, c) in [
        (255, 1e-10, 1e-300),
        (255, 0.01, 0.0),
        (7, 0.0, 1.0),
        (2, 1e-200, 1.0),
    ] {
        let v = two_or_more(h, u, c);
        let union = f64::from(h) * f64::from(h - 1) / 2.0 * u * u;
        assert!(
            v.is_finite() && v >= 0.0 && v <= union.max(1e-300) * (1.0 + 1e-12),
            "{h} {u} {c}: {v}"
        );
    }
}

/// `corruption`: one entry per model, each `frames x rate x p_miss` from
/// `corruption::uniform` for the MTU's segment size (or the file's data
/// with a payload file); the total adds the link's escapes at every end;
/// the request's JSON keeps the specs as text; a burst longer than a
/// segment is refused by `validate`.
#[test]
fn corruption_entries_and_total() {
    let mut p = params(&[68, 200], &[1e-5], &[1, 2]);
    p.corruption = vec![
        "word:1e-6".parse().unwrap(),
        "splice:8:1e-3".parse().unwrap(),
    ];
    let doc = report(&p, &Ctx::default()).unwrap();
    for pt in &doc.points {
        assert_eq!(pt.corruption.len(), 2);
        let mut sum = 0.0;
        for (c, e) in p.corruption.iter().zip(&pt.corruption) {
            let u = corruption::uniform(&c.model, pt.payload_bytes).unwrap();
            assert_eq!(e.p_miss, u.p_miss);
            assert_eq!(e.escapes, pt.frames as f64 * c.rate.unwrap() * u.p_miss);
            sum += e.escapes;
        }
        let t = pt.total_escapes.as_ref().unwrap();
        assert_eq!(t.low, pt.escapes.low + sum);
        assert_eq!(t.high, pt.escapes.high + sum);
        assert_eq!(t.estimate, pt.escapes.estimate.map(|x| x + sum));
    }
    // a payload file: its data, one segment per frame
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("zeros.bin");
    std::fs::write(&f, vec![0u8; 5 * 160]).unwrap();
    let mut q = params(&[200], &[0.0], &[1]);
    q.size = 800;
    q.payload_file = Some(f.display().to_string());
    q.corruption = vec!["word:1e-6".parse().unwrap()];
    let doc = report(&q, &Ctx::default()).unwrap();
    assert_eq!(doc.points[0].corruption[0].p_miss, 1.0 / 65535.0);
    // the request as JSON keeps the specs as text
    let text = serde_json::to_string(&p).unwrap();
    assert!(
        text.contains(r#""corruption":["word:1e-6","splice:8:1e-3"]"#),
        "{text}"
    );
    let back: TransferParams = serde_json::from_str(&text).unwrap();
    assert_eq!(back, p);
    // refused before any work
    p.corruption = vec!["burst:300:1e-6".parse().unwrap()];
    let e = p.validate().unwrap_err().to_string();
    assert!(e.contains("longer than a segment"), "{e}");
}

/// `--burst` keeps the corruption entries (they do not depend on the link
/// channel) and the end-to-end CRC, as the binary symmetric channel does.
#[test]
fn the_burst_channel_keeps_corruption_and_digest() {
    use aliasing_sim::corruption::{Model, uniform};
    let mut p = TransferParams::new("ipv4-tcp+CRC-16/ARC", 1_000_000, vec![68], vec![], vec![1]);
    // the corruption and digest entries do not depend on the draws: the
    // test command takes fewer
    p.samples = crate::tier::pick(2_000, 20_000);
    p.seed = 3;
    p.corruption = vec!["word:1e-3".parse().unwrap()];
    let ge: aliasing_core::channel::GilbertElliott = "1e-6,0.5,1e-4,0.1".parse().unwrap();
    let doc = aliasing_sim::transfer::burst::report(&p, ge).unwrap();
    let pt = &doc.points[0];
    let e = &pt.corruption[0];
    assert_eq!(e.p_miss, uniform(&Model::Word, 28).unwrap().p_miss);
    assert_eq!(e.escapes, pt.frames as f64 * 1e-3 * e.p_miss);
    let total = pt.total_escapes.as_ref().unwrap();
    assert_eq!(total.high, pt.escapes.high + e.escapes);
    assert!(doc.digest.is_none());
    p.digest = Some("crc32c".into());
    let d = aliasing_sim::transfer::burst::report(&p, ge).unwrap();
    assert_eq!(d.digest.as_deref(), Some("CRC-32/ISCSI"));
    assert_eq!(d.points[0].corruption[0].p_miss, 0.0);
    assert!(
        d.model.contains("End-to-end CRC CRC-32/ISCSI"),
        "{}",
        d.model
    );
    // the link part is the same with and without the digest
    assert_eq!(d.points[0].escapes, pt.escapes);
}

mod burst;
mod cost;
