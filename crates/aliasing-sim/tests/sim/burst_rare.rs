//! The tests of `aliasing_sim::burst_rare` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_core::__private::joint::JointModel;
use aliasing_sim::burst_rare::*;
use aliasing_sim::channel::{Channel, GilbertElliott};
use aliasing_sim::run::Plan;
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::stream::chunk_rng;
use aliasing_sim::{Frames, Seed};

/// The rare-event work of one frame of `stack` (`bytes`, random payload)
/// on the Gilbert-Elliott channel `channel`, seed 1, one thread.
fn one_frame_work(stack: &str, bytes: usize, channel: &str) -> BurstRareWork {
    let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
    let plan = Plan::new(frame, Channel::Burst(ge(channel)), Frames(1), Seed(1));
    BurstRareWork::new(&plan, 1, None).unwrap()
}

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
            let want: f64 = xs.iter().map(|&j| brute_prob(&g, n, x & !(1 << j))).sum();
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

/// The exact escape over any syndrome table (register state x channel
/// state, one bit at a time, plainly; an oracle for layouts with padding
/// bits, which `gilbert` does not model): `q[c][s]` is the mass of the
/// paths with at least one error in syndrome `s` and channel state `c`.
fn chain_over_table(table: &[u64], g: &GilbertElliott) -> f64 {
    let bits = 64 - table.iter().fold(0, |a, &b| a | b).leading_zeros();
    let size = 1usize << bits;
    let e = [g.p_good, g.p_bad];
    let mut q = [vec![0.0f64; size], vec![0.0f64; size]];
    let mut clean = g.stationary();
    for &t in table {
        let mut nq = [vec![0.0f64; size], vec![0.0f64; size]];
        for c in 0..2 {
            for s in 0..size {
                nq[c][s] = (1.0 - e[c]) * q[c][s] + e[c] * q[c][s ^ t as usize];
            }
            nq[c][t as usize] += e[c] * clean[c];
        }
        clean = [clean[0] * (1.0 - e[0]), clean[1] * (1.0 - e[1])];
        let (a, b) = (g.good_to_bad, g.bad_to_good);
        for s in 0..size {
            let (x, y) = (nq[0][s], nq[1][s]);
            q[0][s] = (1.0 - a) * x + b * y;
            q[1][s] = a * x + (1.0 - b) * y;
        }
        clean = [
            (1.0 - a) * clean[0] + b * clean[1],
            a * clean[0] + (1.0 - b) * clean[1],
        ];
    }
    q[0][0] + q[1][0]
}

/// Every error pattern of a small frame: `sum_x Q(x) score(x)` must equal
/// `P_ud` (the sum of `P(e)` over nonzero codewords) exactly; that is the
/// estimator's unbiasedness, checked without sampling.
fn check_unbiased(stack: &str, bytes: usize, channel: &str, proposal: Option<&str>) {
    check_unbiased_with(stack, bytes, channel, proposal, None);
}

/// [`check_unbiased`] with the short bursts of span `L` found by a scan
/// (`true`) or a table, where `short` is given.
fn check_unbiased_with(
    stack: &str,
    bytes: usize,
    channel: &str,
    proposal: Option<&str>,
    short: Option<(u64, bool)>,
) {
    let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
    let g = ge(channel);
    let plan = Plan::new(frame, Channel::Burst(g), Frames(1), Seed(1));
    let mut work = BurstRareWork::new(&plan, 1, proposal.map(ge)).unwrap();
    // every other check's pass probability, as a joint run weighs it: a
    // pseudo-random value per pattern (0 for a fifth of them)
    work.checks = Checks::Given(given_pass);
    if let Some((span, scan)) = short {
        work.short = ShortBursts::with(&work.table, work.width as u32, span, scan);
        assert_eq!(matches!(work.short.finder, Finder::Scan { .. }), scan);
    }
    let n = work.table.len() as u32;
    assert!(n <= 16);
    let (mut p_ud, mut mean, mut routes) = (0.0, 0.0, [0.0; 3]);
    let (mut p_joint, mut mean_joint) = (0.0, 0.0);
    for x in 1u64..1 << n {
        let xs = bits(x, n);
        let s = xs.iter().fold(0, |s, &p| s ^ work.table[p as usize]);
        if s == 0 {
            p_ud += work.p.ln_prob(&xs).exp();
            p_joint += work.p.ln_prob(&xs).exp() * given_pass(&xs);
        }
    }
    for x in 0u64..1 << n {
        let xs = bits(x, n);
        let q = work.q.ln_prob(&xs).exp();
        let sc = work.score(&xs);
        mean += q * sc.total();
        mean_joint += q * sc.joint;
        for (r, v) in routes.iter_mut().zip([sc.window, sc.position, sc.burst]) {
            *r += q * v;
        }
    }
    assert!(p_ud > 0.0);
    // the brute-force sum is the product chain's value over the layout's
    // table (and gilbert's where the layout is its codeword)
    let chain = chain_over_table(&work.table, &g);
    assert!(
        (chain - p_ud).abs() <= 1e-11 * p_ud,
        "{stack} {channel}: chain {chain} vs brute force {p_ud}"
    );
    if let Some(exact) = exact_escape(&plan, &aliasing_core::ctx::Ctx::default()) {
        assert!(
            (exact - p_ud).abs() <= 1e-11 * p_ud,
            "{stack} {channel}: gilbert {exact} vs brute force {p_ud}"
        );
    }
    assert!(
        (mean - p_ud).abs() <= 1e-12 * p_ud,
        "{stack} {channel}: E[Z] {mean} vs P_ud {p_ud}"
    );
    // the joint weighting is unbiased for any pass probability
    assert!(
        p_joint > 0.05 * p_ud && p_joint < 0.95 * p_ud,
        "{p_joint} {p_ud}"
    );
    assert!(
        (mean_joint - p_joint).abs() <= 1e-12 * p_joint,
        "{stack} {channel}: E[Z_joint] {mean_joint} vs {p_joint}"
    );
    // every way of finding codewords takes part
    assert!(routes.iter().all(|&r| r > 0.0), "{routes:?} of {mean}");
}

/// A pass probability for the tests of the joint weighting: a hash of the
/// pattern mapped to `[0, 1]`, 0 for about a fifth of the patterns.
fn given_pass(e: &[u32]) -> f64 {
    let h = e.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &p| {
        aliasing_sim::__private::stream::mix64(h ^ u64::from(p).wrapping_mul(0xBF58_476D_1CE4_E5B9))
    });
    let u = (h >> 11) as f64 / (1u64 << 53) as f64;
    if u < 0.2 { 0.0 } else { (u - 0.2) / 0.8 }
}

#[test]
fn the_estimator_is_unbiased_over_every_pattern_of_a_small_frame() {
    // CRC-8 (wire order = register order), CRC-5 (3 padding bits in its
    // field byte), a dense and a sparse channel, default and given proposals
    // (the test command meets the sparse channel with the scanned bursts
    // below; `ALIAS_TESTS=full` with the table's bursts too; a given
    // proposal only in the full tier, the test command draws from one in
    // burst_rare_sessions)
    check_unbiased("crc8", 2, "0.01,0.5,0.05,0.2", None);
    check_unbiased("CRC-5/USB", 2, "0.01,0.5,0.05,0.2", None);
    if crate::tier::full() {
        check_unbiased("crc8", 2, "1e-4,0.02,1e-3,0.05", None);
        check_unbiased(
            "CRC-8/SMBUS",
            2,
            "0.01,0.5,0.05,0.2",
            Some("0.3,0.3,0.3,0.3"),
        );
    }
    // wide short bursts (up to three errors in 9 bits), found by a scan
    // over the starts and from a table (the test command: the scan on the
    // sparse channel)
    for &scan in crate::tier::pick(&[true][..], &[true, false]) {
        check_unbiased_with("crc8", 2, "1e-4,0.02,1e-3,0.05", None, Some((9, scan)));
        if crate::tier::full() {
            check_unbiased_with("crc8", 2, "0.01,0.5,0.05,0.2", None, Some((9, scan)));
        }
    }
}

/// The scan over the starts finds exactly the bursts the table holds.
#[test]
fn the_burst_scan_finds_what_the_table_finds() {
    for (stack, bytes) in [("crc8", 6), ("CRC-16/ARC", 20), ("ethernet", 64)] {
        let work = one_frame_work(stack, bytes, "1e-4,0.02,1e-3,0.05");
        let (t, r) = (&work.table, work.width as u32);
        let scan = ShortBursts::with(t, r, 20, true);
        assert!(matches!(scan.finder, Finder::Scan { .. }), "{stack}");
        let table = ShortBursts::with(t, r, 20, false);
        let n = t.len() as u64;
        let mut rng = chunk_rng(3, 0, 77);
        let mut seen = 0;
        for i in 0..300u64 {
            // syndromes of random bursts (so that there is something to
            // find), and random syndromes
            let s = if i % 2 == 0 {
                let st = (rand_xoshiro::rand_core::Rng::next_u64(&mut rng) % n) as usize;
                let pat = scan.patterns[i as usize % scan.patterns.len()];
                (0..19)
                    .filter(|j| pat >> j & 1 == 1 && st + 1 + j < t.len())
                    .fold(t[st], |a, j| a ^ t[st + 1 + j])
            } else {
                rand_xoshiro::rand_core::Rng::next_u64(&mut rng) & ((1u64 << r) - 1)
            };
            let (mut a, mut b) = (Vec::new(), Vec::new());
            scan.each(t, s, |st, p| a.push((st, p)));
            table.each(t, s, |st, p| b.push((st, p)));
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{stack} syndrome {s:x}");
            seen += a.len();
        }
        assert!(seen >= 150, "{stack}: {seen}");
    }
    // a layout without the shift structure (padding bits in the field) has no scan
    let work = one_frame_work("CRC-5/USB", 4, "1e-4,0.02,1e-3,0.05");
    let s = ShortBursts::with(&work.table, 5, 6, true);
    assert!(matches!(s.finder, Finder::Table(_)));
}

/// Runs the estimator and returns the result and the exact value.
fn run(
    stack: &str,
    bytes: usize,
    channel: &str,
    samples: u64,
    seed: u64,
) -> (BurstRareResult, f64) {
    let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
    let plan = Plan::new(frame, Channel::Burst(ge(channel)), Frames(1), Seed(seed));
    let r = estimate(&plan, samples, None, 0).unwrap();
    let exact = match exact_escape(&plan, &aliasing_core::ctx::Ctx::default()) {
        Some(x) => x,
        None => {
            let work = BurstRareWork::new(&plan, 1, None).unwrap();
            chain_over_table(&work.table, &ge(channel))
        }
    };
    (r, exact)
}

/// The estimate of a lone CRC on a burst channel lies within 4 standard
/// errors of the exact chain's value and rejects a value 15% off (the test
/// command on 25,000 draws a case, relative standard errors 1.0% and 1.8%,
/// `ALIAS_TESTS=full` on 200,000 and two more cases).
#[test]
fn estimates_agree_with_the_exact_chain_and_reject_a_wrong_value() {
    let cases = [
        ("crc8", 64, "1e-4,0.5,1e-3,0.1", 200_000),
        ("CRC-16/ARC", 128, "1e-6,0.5,1e-4,0.1", 200_000),
        // the full tier adds a 12-bit CRC and a longer frame
        ("CRC-12/DECT", 100, "1e-5,0.3,1e-3,0.05", 200_000),
        ("CRC-16/ARC", 256, "1e-5,0.05,1e-3,0.05", 200_000),
    ];
    for (stack, bytes, channel, samples) in cases.into_iter().take(crate::tier::pick(2, 4)) {
        let samples = crate::tier::pick(25_000, samples);
        let (r, exact) = run(stack, bytes, channel, samples, 7);
        let e = &r.crc;
        let z = (e.rate - exact) / e.std_err;
        eprintln!(
            "{stack} {bytes} {channel}: {} +- {} (rse {:.4}, hits {}, window {:.3}) exact {exact} z {z:.2}",
            e.rate, e.std_err, e.rel_std_err, r.hits, r.window_share
        );
        assert!(z.abs() < 4.0, "{stack} {channel}: z {z}");
        // tight enough that a value 15% off is rejected
        for wrong in [exact * 1.15, exact * 0.85] {
            let zw = (e.rate - wrong) / e.std_err;
            assert!(
                zw.abs() > 3.0,
                "{stack} {channel}: a wrong value passes (z {zw})"
            );
        }
    }
}

/// With wide short bursts found by the scan (as for 32-bit CRCs), on a
/// sparse channel where they carry most of the mass, and one where good-state
/// errors dominate: the estimate agrees
/// with the exact chain, and is tight enough to reject a value 15% off (the
/// test command on 20,000 draws of the first channel, `ALIAS_TESTS=full`
/// on 60,000 of both).
#[test]
fn scanned_bursts_agree_with_the_exact_chain_on_a_sparse_channel() {
    // sparse bursts, and good-state errors dominating
    let channels = ["1e-6,0.01,1e-4,0.05", "1e-5,0.05,1e-5,0.1"];
    for channel in &channels[..crate::tier::pick(1, 2)] {
        let frame = Frame::new("CRC-16/ARC", 128, Payload::Random).unwrap();
        let plan = Plan::new(frame, Channel::Burst(ge(channel)), Frames(1), Seed(7));
        let exact = exact_escape(&plan, &aliasing_core::ctx::Ctx::default()).unwrap();
        let samples = crate::tier::pick(20_000, 60_000);
        let mut work = BurstRareWork::new(&plan, samples, None).unwrap();
        work.short = ShortBursts::with(&work.table, 16, 24, true);
        assert!(matches!(work.short.finder, Finder::Scan { .. }));
        let tally =
            aliasing_sim::shard::drive_all(work.items(), work.zero(), 0, |i| work.item(i)).unwrap();
        let r = work.finish(&tally);
        let e = &r.crc;
        let z = (e.rate - exact) / e.std_err;
        eprintln!(
            "{channel} scan: {} +- {} (rse {:.4}, shares {:.3}/{:.3}/{:.3}) exact {exact} z {z:.2}",
            e.rate, e.std_err, e.rel_std_err, r.window_share, r.position_share, r.burst_share
        );
        assert!(z.abs() < 4.0, "{channel}: z {z}");
        assert!(r.burst_share > 0.1, "{channel}: {}", r.burst_share);
        for wrong in [exact * 1.15, exact * 0.85] {
            assert!(
                ((e.rate - wrong) / e.std_err).abs() > 3.0,
                "{channel}: {wrong} passes"
            );
        }
    }
}

/// The proposal's sampler draws patterns with the law the weights assume:
/// a chi-square test over every pattern of a 16-bit frame.
#[test]
fn draws_follow_the_proposal_law() {
    let work = one_frame_work("crc8", 2, "0.01,0.5,0.05,0.2");
    let mut rng = chunk_rng(1, 0, FAMILY);
    let mut counts = vec![0u64; 1 << 16];
    let mut xs = Vec::new();
    let n = 1_000_000;
    for _ in 0..n {
        work.draw(&mut rng, &mut xs);
        counts[xs.iter().fold(0usize, |a, &p| a | 1 << p)] += 1;
    }
    let mut chi = 0.0;
    let mut dof = 0;
    for x in 0..1u64 << 16 {
        let p = work.q.ln_prob(&bits(x, 16)).exp() * n as f64;
        if p > 20.0 {
            chi += (counts[x as usize] as f64 - p).powi(2) / p;
            dof += 1;
        }
    }
    // chi-square with `dof` degrees of freedom: mean dof, sd sqrt(2 dof)
    let sd = (2.0 * dof as f64).sqrt();
    assert!(dof > 100, "{dof}");
    assert!((chi - dof as f64).abs() < 5.0 * sd, "chi2 {chi} on {dof}");
    // and a wrong law is rejected: the channel itself instead of the proposal
    let mut wrong = 0.0;
    for x in 0..1u64 << 16 {
        let p = work.p.ln_prob(&bits(x, 16)).exp() * n as f64;
        if p > 20.0 {
            wrong += (counts[x as usize] as f64 - p).powi(2) / p;
        }
    }
    assert!(wrong > dof as f64 + 20.0 * sd, "{wrong}");
}

/// The joint run of `plan` with `samples` draws.
fn run_joint(plan: &Plan, samples: u64, threads: usize) -> BurstJointResult {
    let work = BurstRareWork::joint(plan, samples, None).unwrap();
    let t =
        aliasing_sim::shard::drive_all(work.items(), JointBurstTally::default(), threads, |i| {
            work.joint_item(i)
        })
        .unwrap();
    work.finish_joint(&t)
}

/// The state of the product chain (syndrome x channel state) of
/// [`fourier_joint`]: per channel state, the weighted mass of the paths
/// with at least one error, by syndrome (real and imaginary parts; the
/// imaginary part stays 0 while every weight so far is real), and the mass
/// of the clean path.
#[derive(Clone)]
struct Chain {
    re: [Vec<f64>; 2],
    im: [Vec<f64>; 2],
    clean: [f64; 2],
}

/// The channel's state change after a bit: `q = n` times the transition matrix.
fn transition(q: &mut [Vec<f64>; 2], n: &[Vec<f64>; 2], gb: f64, bg: f64) {
    for s in 0..q[0].len() {
        let (a, b) = (n[0][s], n[1][s]);
        q[0][s] = a * (1.0 - gb) + b * bg;
        q[1][s] = a * gb + b * (1.0 - bg);
    }
}

impl Chain {
    fn new(size: usize, g: &GilbertElliott) -> Self {
        Chain {
            re: [vec![0.0; size], vec![0.0; size]],
            im: [vec![0.0; size], vec![0.0; size]],
            clean: g.stationary(),
        }
    }

    /// The bits of `table`, the error branch of bit `j` weighted by
    /// `phi[j]` (`(re, im)`; the imaginary parts are read only where
    /// `complex`, else taken as 0). `next` is scratch of the same size.
    fn steps(
        &mut self,
        next: &mut Chain,
        table: &[u64],
        g: &GilbertElliott,
        phi: &[(f64, f64)],
        complex: bool,
    ) {
        let e = [g.p_good, g.p_bad];
        let (gb, bg) = (g.good_to_bad, g.bad_to_good);
        for (&t, &(fr, fi)) in table.iter().zip(phi) {
            let t = t as usize;
            for (c, &flip) in e.iter().enumerate() {
                let keep = 1.0 - flip;
                let (qr, nr) = (&self.re[c], &mut next.re[c]);
                if complex {
                    let (qi, ni) = (&self.im[c], &mut next.im[c]);
                    for s in 0..qr.len() {
                        let (ar, ai) = (qr[s ^ t], qi[s ^ t]);
                        nr[s] = keep * qr[s] + flip * (ar * fr - ai * fi);
                        ni[s] = keep * qi[s] + flip * (ar * fi + ai * fr);
                    }
                    ni[t] += flip * self.clean[c] * fi;
                } else {
                    for s in 0..qr.len() {
                        nr[s] = keep * qr[s] + flip * qr[s ^ t] * fr;
                    }
                }
                nr[t] += flip * self.clean[c] * fr;
            }
            let cl = [self.clean[0] * (1.0 - e[0]), self.clean[1] * (1.0 - e[1])];
            self.clean = [
                cl[0] * (1.0 - gb) + cl[1] * bg,
                cl[0] * gb + cl[1] * (1.0 - bg),
            ];
            transition(&mut self.re, &next.re, gb, bg);
            if complex {
                transition(&mut self.im, &next.im, gb, bg);
            }
        }
    }

    /// The real part of the mass at syndrome 0.
    fn at_zero(&self) -> f64 {
        self.re[0][0] + self.re[1][0]
    }
}

/// The exact joint escape of `internet+CRC-8/MAXIM-DOW` over 5 bytes (wire
/// bits least significant first: random bytes 0 and 1 in checksum columns
/// `8 + b` and `b`, the field bytes 2 and 3 likewise, the CRC byte 4), by
/// characteristic functions: `[x = 0 mod 65535] = (1/65535) sum_t w^(t x)`,
/// a random bit in column `c` contributes `cos(2 pi t 2^c / 65535)`, and the
/// field model's `F` (uniform on `0..=0xFFFE`) is `65536/65535` times fair
/// bits minus `1/65535` times `0xFFFF` (every field bit flipped down:
/// `w^(-t 2^c)`). Per `t`, two weighted product chains ([`Chain`]), which
/// share their first 16 bits. The term of
/// `65535 - t` is the complex conjugate of that of `t` (every phase
/// negated), so its real part is the same: the sum runs over `t = 0` and
/// twice over `1..=32767`.
fn fourier_joint(table: &[u64], g: &GilbertElliott) -> f64 {
    use rayon::prelude::*;
    const M: f64 = 65535.0;
    let col = |j: usize| {
        if (j / 8).is_multiple_of(2) {
            8 + j % 8
        } else {
            j % 8
        }
    };
    let size = 1usize << (64 - table.iter().fold(0, |a, &b| a | b).leading_zeros());
    let parts: Vec<(f64, f64)> = (0..=32767u32)
        .into_par_iter()
        .map(|t| {
            let twice = if t == 0 { 1.0 } else { 2.0 };
            let th = |c: usize| 2.0 * std::f64::consts::PI * f64::from(t) * (1u64 << c) as f64 / M;
            // per bit: the fair chain's weight, and the down chain's
            let fair: Vec<(f64, f64)> = (0..40)
                .map(|j| {
                    if j < 32 {
                        (th(col(j)).cos(), 0.0)
                    } else {
                        (1.0, 0.0)
                    }
                })
                .collect();
            let down: Vec<(f64, f64)> = (0..40)
                .map(|j| match j {
                    0..16 => (th(col(j)).cos(), 0.0),
                    16..32 => (th(col(j)).cos(), -th(col(j)).sin()),
                    _ => (1.0, 0.0),
                })
                .collect();
            // the two chains share their first 16 bits (the random
            // payload's, real weights): run them once
            let mut next = Chain::new(size, g);
            let mut down_chain = Chain::new(size, g);
            down_chain.steps(&mut next, &table[..16], g, &down[..16], false);
            let mut fair_chain = down_chain.clone();
            fair_chain.steps(&mut next, &table[16..], g, &fair[16..], false);
            down_chain.steps(&mut next, &table[16..], g, &down[16..], true);
            (twice * fair_chain.at_zero(), twice * down_chain.at_zero())
        })
        .collect();
    let (a, b) = parts.iter().fold((0.0, 0.0), |s, p| (s.0 + p.0, s.1 + p.1));
    (65536.0 / M * a - b / M) / M
}

/// A tiny stack with a random payload (16 random bits, the Internet
/// checksum's field computed from them, CRC-8 over the 40-bit frame): the
/// exact joint escape over every error pattern ([`fourier_joint`]: the
/// pattern law of the 2x2 chain times the field model's pass probability,
/// checked against `pass_probability_any` on single patterns) against the
/// estimator: within 4 standard errors, tight enough to reject a value 40%
/// off. The CRC part of the same draws is the lone CRC's digit for digit,
/// and the same on 1 and 2 threads. The test command: on a channel of
/// sparser bursts (`0.01,0.5,0.01,0.3`, whose draws cost a fifth), the
/// estimate on 100,000 draws (relative standard error 8%), the lone CRC's
/// digits and the thread counts on a run of 20,000 draws (two chunks, the
/// last one partial); `ALIAS_TESTS=full`: on `0.02,0.4,0.05,0.1`, the
/// estimate and both checks on 200,000 draws.
#[test]
fn joint_estimate_agrees_with_the_exact_joint_of_a_tiny_stack() {
    let frame = Frame::new("internet+CRC-8/MAXIM-DOW", 5, Payload::Random).unwrap();
    let model = JointModel::new(&frame).unwrap();
    // the layout assumed by fourier_joint: an identity table makes the
    // chain sum over every pattern, weighted by its pass probability
    // the test command: a channel of sparser bursts (about 1 error a
    // frame rather than 6; the default proposal draws 3), whose draws cost
    // a fifth as much
    let g = crate::tier::pick(ge("0.01,0.5,0.01,0.3"), ge("0.02,0.4,0.05,0.1"));
    let plan = Plan::new(frame, Channel::Burst(g), Frames(1), Seed(5));
    let work = BurstRareWork::joint(&plan, 1, None).unwrap();
    for e in [
        &[3u32, 19][..],
        &[0, 16],
        &[1, 2, 17, 18],
        &[5, 13, 21, 29, 30],
    ] {
        // one pattern's pass probability from the same characteristic
        // functions as fourier_joint
        let col = |j: u32| {
            if (j / 8).is_multiple_of(2) {
                8 + j % 8
            } else {
                j % 8
            }
        };
        let mut sum = 0.0;
        for t in 0..65535u32 {
            let th =
                |c: u32| 2.0 * std::f64::consts::PI * f64::from(t) * f64::from(1u32 << c) / 65535.0;
            let fair: f64 = e.iter().map(|&j| th(col(j)).cos()).product();
            let (mut re, mut im) = (1.0, 0.0);
            for &j in e.iter() {
                let (c, s) = if j < 16 {
                    (th(col(j)).cos(), 0.0)
                } else {
                    (th(col(j)).cos(), -th(col(j)).sin())
                };
                (re, im) = (re * c - im * s, re * s + im * c);
            }
            sum += 65536.0 / 65535.0 * fair - re / 65535.0;
        }
        let want = model.pass_probability_any(e).unwrap();
        assert!(
            (sum / 65535.0 - want).abs() < 1e-9,
            "{e:?}: {} vs {want}",
            sum / 65535.0
        );
    }
    let exact = fourier_joint(&work.table, &g);
    let crc_all = chain_over_table(&work.table, &g);
    // the test command: 100,000 draws (relative standard error 9%)
    let samples = crate::tier::pick(100_000, 200_000);
    let res = run_joint(&plan, samples, 0);
    let j = &res.joint;
    let z = (j.rate - exact) / j.std_err;
    eprintln!(
        "tiny stack: joint {:e} +- {:e} (hits {}), exact {exact:e} z {z:.2}; CRC {:e} exact \
         {crc_all:e}; model bound {:e}",
        j.rate, j.std_err, res.hits, res.crc.crc.rate, res.model_error
    );
    assert!(exact > 0.0 && exact < 0.1 * crc_all);
    assert!(z.abs() < 4.0, "z {z}");
    for wrong in [1.4 * exact, 0.6 * exact] {
        assert!(((j.rate - wrong) / j.std_err).abs() > 3.0, "{wrong} passes");
    }
    // one random word: the field model's bound is trivial, and widens the
    // reported interval
    assert!(res.model_error > 0.0 && j.ci_high >= j.rate + res.model_error);
    let lone = Plan::new(
        Frame::new("CRC-8/MAXIM-DOW", 5, Payload::Random).unwrap(),
        Channel::Burst(g),
        Frames(1),
        Seed(5),
    );
    let draws = crate::tier::pick(20_000, samples);
    let fewer;
    let base = if draws == samples {
        &res
    } else {
        fewer = run_joint(&plan, draws, 1);
        &fewer
    };
    assert_eq!(estimate(&lone, draws, None, 1).unwrap().crc, base.crc.crc);
    assert_eq!(&run_joint(&plan, draws, 2), base);
}

/// A channel whose two states have the same BER is the binary symmetric
/// channel: the joint estimate of `ipv4-tcp+CRC-16/ARC` on a small frame
/// lies within 4 standard errors of `alias stack`'s exact
/// bracket (weights up to 5 enumerated, the rest bounded or sampled), and
/// rejects a value 3 times larger or smaller (the proposal suits the CRC's
/// escape: the joint's relative error is several times the CRC's). The
/// test command checks the same on `internet+CRC-16/ARC` over 20 bytes at
/// BER 5e-3 (bracket 0.8% wide; 100,000 draws, relative standard error
/// 10%), `ALIAS_TESTS=full` on `ipv4-tcp+CRC-16/ARC` over 70 bytes at 2e-3
/// (600,000 draws, 20%: that joint estimate's tail is heavy).
#[test]
fn degenerate_burst_channel_agrees_with_the_exact_bsc_joint() {
    use aliasing_core::joint::{JointOptions, JointStack};
    // (ethernet-tcp's small frames have no tight binary symmetric bracket
    // to compare with: CRC-32's weights above 5 are only bounded there)
    {
        let (stack, bytes, p, draws) = crate::tier::pick(
            ("internet+CRC-16/ARC", 20usize, 5e-3, 100_000),
            ("ipv4-tcp+CRC-16/ARC", 70, 2e-3, 600_000),
        );
        let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
        let opts = JointOptions::new(5, 0, 1).unwrap();
        let mut st = JointStack::new(&frame, &opts, &aliasing_core::ctx::Ctx::default()).unwrap();
        st.sample_next(50_000, 1).unwrap();
        let exact = st.at(p).unwrap();
        let g: GilbertElliott = format!("{p},{p},0.01,0.1").parse().unwrap();
        let plan = Plan::new(frame, Channel::Burst(g), Frames(1), Seed(9));
        let res = run_joint(&plan, draws, 0);
        let j = &res.joint;
        eprintln!(
            "{stack} {bytes} BER {p}: burst joint {:e} +- {:e} (hits {}), BSC joint {:?} in \
             [{:e}, {:e}] interval {:?}",
            j.rate, j.std_err, res.hits, exact.estimate, exact.low, exact.high, exact.interval
        );
        let (lo, hi) = exact.interval;
        assert!(
            j.rate + 4.0 * j.std_err >= lo && j.rate - 4.0 * j.std_err <= hi,
            "{stack}"
        );
        assert!(j.rel_std_err < 0.3, "{stack}: {}", j.rel_std_err);
        // tight enough to tell a factor of 3
        let mid = (lo + hi) / 2.0;
        assert!(3.0 * mid - j.rate > 3.0 * j.std_err && j.rate - mid / 3.0 > 3.0 * j.std_err);
    }
}

#[test]
#[ignore]
fn timing_joint_against_lone() {
    for (stack, lone, bytes) in [
        ("ipv4-tcp+CRC-16/ARC", "random+CRC-16/ARC", 228usize),
        ("ethernet-tcp", "random+crc32", 1518),
    ] {
        let g = ge("1e-6,0.1,1e-4,0.05");
        let t = std::time::Instant::now();
        let plan = Plan::new(
            Frame::new(lone, bytes, Payload::Random).unwrap(),
            Channel::Burst(g),
            Frames(1),
            Seed(7),
        );
        let r = estimate(&plan, 20_000, None, 1).unwrap();
        let a = t.elapsed();
        let t = std::time::Instant::now();
        let plan = Plan::new(
            Frame::new(stack, bytes, Payload::Random).unwrap(),
            Channel::Burst(g),
            Frames(1),
            Seed(7),
        );
        let j = run_joint(&plan, 20_000, 1);
        eprintln!(
            "{stack} {bytes}: lone {a:?} joint {:?}; crc {:e} joint {:e} +- {:e} hits {} / {}",
            t.elapsed(),
            r.crc.rate,
            j.joint.rate,
            j.joint.std_err,
            j.hits,
            j.crc.hits
        );
    }
}
