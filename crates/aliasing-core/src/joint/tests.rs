//! The joint model against brute force and the other exact methods.

use super::*;
use crate::catalogue;
use crate::check::CheckSpec;
use crate::layout::CheckDef;
use model::{CoinTable, FirstBit};

/// A 7-byte frame sent most significant bit first: a fixed header word,
/// an Internet checksum field over bytes 0..6, one random word, and
/// CRC-8/SMBUS over bytes 0..6 at byte 6.
fn tiny() -> Frame {
    let mut template = vec![0u8; 7];
    template[0] = 0xA5;
    template[1] = 0x3C;
    Frame {
        stack: "tiny".into(),
        bytes: 7,
        lsb_first: false,
        checks: vec![
            CheckDef {
                name: "Internet".into(),
                spec: CheckSpec::Internet,
                data: (0, 6),
                field: 2,
                field_len: 2,
                little_endian: false,
                ranges: vec![(0, 6)],
                constant: 0,
            },
            CheckDef {
                name: "CRC-8/SMBUS".into(),
                spec: CheckSpec::Crc(Box::new(catalogue::resolve("CRC-8/SMBUS").unwrap())),
                data: (0, 6),
                field: 6,
                field_len: 1,
                little_endian: false,
                ranges: Vec::new(),
                constant: 0,
            },
        ],
        random: (4, 6),
        payload: Payload::Random,
        template,
        varies: vec![false, false, true, true, true, true, true],
    }
}

/// Every payload: the fraction of frames on which every check passes
/// after flipping the wire bits `pat`, and whether the CRC passed always.
/// The frames `f` sends for each value `v` of its random word, by `v`
/// (built once for every pattern [`brute`] checks).
fn sent_frames(f: &Frame) -> Vec<Vec<u8>> {
    (0..=0xFFFFu16).map(|v| f.sent(&v.to_be_bytes())).collect()
}

fn brute(f: &Frame, sent: &[Vec<u8>], pat: &[u32]) -> (f64, bool) {
    let mut pass = 0u64;
    let mut crc_always = true;
    let crc = f.checks.iter().position(|c| c.crc().is_some()).unwrap();
    assert_eq!(sent.len(), 65536);
    let mut fr = sent[0].clone();
    for sent in sent {
        fr.copy_from_slice(sent);
        f.flip(&mut fr, pat);
        crc_always &= f.verify(crc, &fr);
        pass += f.verify_all(&fr) as u64;
    }
    (pass as f64 / 65536.0, crc_always)
}

pub fn field_count_counts_the_field_values() {
    // one flipped field column c: F's bit is 0 for 32768 values, 1 for 32767
    for c in 0..16 {
        let v = 1i64 << c;
        assert_eq!(field_count(-v, 1 << c), 32768);
        assert_eq!(field_count(v, 1 << c), 32767);
        assert_eq!(field_count(v + 3, 1 << c), 0);
    }
    // all 16 columns: only F = 0 (all up: +0xFFFF = 0 mod 65535) and
    // F = 0xFFFF (excluded) cancel on their own
    assert_eq!(field_count(0, 0xFFFF), 1);
}

pub fn tiny_layout_matches_brute_force_on_every_low_weight_codeword() {
    let f = tiny();
    let m = JointModel::new(&f).unwrap();
    let n = m.n;
    let mut checked = (0, 0);
    // every pattern of weight 2..=4 that the CRC accepts
    let mut pat = Vec::new();
    let sent = sent_frames(&f);
    // each wire bit's syndrome
    let syn: Vec<u64> = (0..n)
        .map(|t| crate::gf2::x_pow_mod((n - 1 - t) as u128, &m.generator))
        .collect();
    fn rec(
        f: &Frame,
        sent: &[Vec<u8>],
        syn: &[u64],
        m: &JointModel,
        pat: &mut Vec<u32>,
        from: u32,
        checked: &mut (u32, u32),
    ) {
        let n = m.n;
        if checked.0 >= 150 && checked.1 >= 30 {
            return;
        }
        if pat.len() >= 2 {
            let syn = pat.iter().fold(0u64, |a, &t| a ^ syn[t as usize]);
            let touches = m.touches_field(pat);
            let full = if touches {
                checked.1 >= 30
            } else {
                checked.0 >= 150
            };
            if syn == 0 && !full {
                let (want, crc_ok) = brute(f, sent, pat);
                assert!(crc_ok, "{pat:?}");
                let got = m.pass_probability(pat);
                if touches {
                    // one random word: the field is a function of it, and
                    // the model is only bounded (trivially here)
                    assert!((got - want).abs() <= m.field_model_bound(pat.len() as u32));
                    checked.1 += 1;
                } else {
                    assert_eq!(got, want, "{pat:?}");
                    checked.0 += 1;
                }
            }
        }
        if pat.len() == 4 {
            return;
        }
        for t in from..n {
            pat.push(t);
            rec(f, sent, syn, m, pat, t + 1, checked);
            pat.pop();
        }
    }
    rec(&f, &sent, &syn, &m, &mut pat, 0, &mut checked);
    assert!(checked.0 > 100 && checked.1 > 10, "{checked:?}");
    // the enumeration sees the same codewords
    let st = JointStack::new(
        &f,
        &JointOptions {
            max_weight: 4,
            samples: 0,
            seed: 1,
        },
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    let total: u128 = st.terms.iter().map(|t| t.codewords).sum();
    assert!(total > 0);
    assert_eq!(n, 56);
}

pub fn pass_counts_are_those_of_every_check_for_every_coin_assignment() {
    // random patterns of 1 to 10 flips, half of them in the first bytes
    // (headers, check fields) and half anywhere: the Gray-code pass
    // count with the coinless checks taken once against the first form
    for (stack, bytes) in [
        ("ethernet-tcp", 120usize),
        ("ethernet-tcp", 1518),
        ("ethernet-tcp+CRC-16/ARC", 200),
        ("ipv4-tcp+CRC-16/ARC", 90),
        ("tcp+CRC-8/SAE-J1850", 22),
        ("internet+CRC-8/MAXIM-DOW", 5),
    ] {
        let f = Frame::new(stack, bytes, Payload::Random).unwrap();
        let m = JointModel::new(&f).unwrap();
        let mut r = SplitMix(bytes as u64);
        let (mut positive, mut field) = (0, 0);
        for i in 0..40_000 {
            let w = 1 + r.below(10) as usize;
            let span = if i % 2 == 0 { 500.min(m.n) } else { m.n };
            let mut p: Vec<u32> = Vec::new();
            while p.len() < w {
                let t = r.below(span as u64) as u32;
                if !p.contains(&t) {
                    p.push(t);
                }
            }
            let (a, b) = (m.pass_count(&p), m.pass_count_reference(&p));
            assert_eq!(a, b, "{stack} {bytes}: {p:?}");
            positive += (a.unwrap_or(0) > 0) as u32;
            field += m.touches_field(&p) as u32;
        }
        if bytes >= 90 {
            assert!(positive > 100 && field > 100, "{stack}: {positive} {field}");
        }
        // patterns that often pass: 1 to 6 payload bits (coins, in distinct
        // columns or not) with 0 to 2 bits of the first 500 (headers,
        // fields), so that the one-check shortcut meets passes and misses
        let payload = (8 * f.random.0 as u32, 8 * f.random.1 as u32);
        if payload.1 - payload.0 < 64 {
            continue;
        }
        let mut passing = 0;
        // and every pattern of one bit of the first 500 with one or two of
        // the first 32 payload bits (a header bit and coins in its column
        // pass with the shortcut)
        for h in 0..500.min(m.n) {
            for c1 in payload.0..payload.0 + 32 {
                for c2 in c1..payload.0 + 32 {
                    let p = if c2 == c1 {
                        vec![h, c1]
                    } else {
                        vec![h, c1, c2]
                    };
                    if p[1..].contains(&h) {
                        continue;
                    }
                    let (a, b) = (m.pass_count(&p), m.pass_count_reference(&p));
                    assert_eq!(a, b, "{stack} {bytes}: {p:?}");
                    passing += (a.unwrap_or(0) > 0) as u32;
                }
            }
        }
        for _ in 0..40_000 {
            let (coins, fixed) = (1 + r.below(6) as usize, r.below(3) as usize);
            let mut p: Vec<u32> = Vec::new();
            while p.len() < coins + fixed {
                let t = if p.len() < coins {
                    payload.0 + r.below(64) as u32
                } else {
                    r.below(500.min(m.n) as u64) as u32
                };
                if !p.contains(&t) {
                    p.push(t);
                }
            }
            let (a, b) = (m.pass_count(&p), m.pass_count_reference(&p));
            assert_eq!(a, b, "{stack} {bytes}: {p:?}");
            passing += (a.unwrap_or(0) > 0) as u32;
        }
        assert!(passing > 2000, "{stack} {bytes}: {passing}");
    }
}

pub fn shape_sums_match_placement_by_placement() {
    let f = Frame::new("ethernet-tcp", 400, Payload::Random).unwrap();
    let m = JointModel::new(&f).unwrap();
    assert!(m.zone.is_some());
    for shape in [
        vec![0u32, 5, 16, 21],
        vec![0, 3, 19, 100, 2000],
        vec![0, 1, 2, 3],
    ] {
        let (sum, count, _) = m.shape_sum(&shape);
        let span = *shape.last().unwrap();
        let mut want = 0u128;
        for o in 0..m.n - span {
            let p: Vec<u32> = shape.iter().map(|&s| s + o).collect();
            want += m.pass_count(&p).unwrap() as u128;
        }
        assert_eq!(count, (m.n - span) as u64);
        assert_eq!(sum, want, "{shape:?}");
    }
}

pub fn role_classes_sum_as_placement_by_placement() {
    // every shape of weights 4 and 5 at 594 bytes, and the weight-5 shapes
    // of two slices at 1518 bytes (the real frame), and a few at 64 and
    // 9018: the cached sums equal the direct ones, with one cache shared
    // by the shapes as the plan shares it; other stacks too, and a fixed
    // payload (a zone of fixed bits, every check's field fixed). Most
    // shapes take the offsets before the zone by class (`prefix`), some
    // (a second bit before the zone's start) one by one: both are met.
    // The test command takes 4 parts of the 16-bit stacks' shapes (every
    // part in the full tier), 1 of the 1518-byte frame's weight-5 slices
    // (2), and 2 of the 9018-byte frame's (4).
    let fixed = Payload::Fixed(vec![0xA5, 0x3C]);
    let crc16 = crate::tier::pick(4, u64::MAX);
    let real = crate::tier::pick(1, 2);
    let jumbo = crate::tier::pick(2, 4);
    for (stack, bytes, w, parts, payload) in [
        ("ethernet-tcp", 64usize, 5u32, u64::MAX, Payload::Random),
        ("ethernet-tcp", 594, 4, u64::MAX, Payload::Random),
        ("ethernet-tcp", 594, 5, u64::MAX, Payload::Random),
        ("ethernet-tcp", 1518, 5, real, Payload::Random),
        ("ethernet-tcp", 9018, 4, jumbo, Payload::Random),
        ("ipv4-tcp+CRC-16/ARC", 200, 4, crc16, Payload::Random),
        ("ipv4-tcp+CRC-32C", 1500, 4, 8, Payload::Random),
        ("ethernet-tcp", 594, 5, u64::MAX, fixed.clone()),
        ("ipv4-tcp+CRC-16/ARC", 300, 4, crc16, fixed.clone()),
    ] {
        let f = Frame::new(stack, bytes, payload.clone()).unwrap();
        let m = JointModel::new(&f).unwrap();
        assert!(m.role_id.is_some());
        let (z0, _) = m.zone.unwrap();
        assert!(m.prefix.is_some(), "{stack} {bytes}");
        let (mut by_class, mut one_by_one) = (0, 0);
        let p = crate::lowweight::ShapeParts::new(&m.generator, w, m.n as u64).unwrap();
        let mut cache = RoleCache::new();
        let (mut shapes, mut positive) = (0, 0);
        // `parts` parts spread over the list (all where it is u64::MAX)
        let step = (p.parts() / parts.min(p.parts()).max(1)).max(1) as usize;
        for i in (0..p.parts()).step_by(step) {
            for s in p.part(i) {
                let span = *s.last().unwrap();
                let wire: Vec<u32> = s.iter().rev().map(|&e| span - e).collect();
                let a = m.shape_sum_cached(&wire, &mut cache);
                assert_eq!(
                    a,
                    m.shape_sum_direct(&wire),
                    "{stack} {bytes} {payload:?} {wire:?}"
                );
                if wire[1] >= z0 {
                    by_class += 1;
                } else {
                    one_by_one += 1;
                }
                shapes += 1;
                positive += (a.0 > 0) as u32;
            }
        }
        assert!(shapes > 0, "{stack} {bytes} weight {w}");
        if bytes >= 594 {
            assert!(by_class > 0 && one_by_one > 0, "{stack} {bytes} weight {w}");
        }
        if bytes == 1518 {
            assert!(positive > 0, "{stack} {bytes} weight {w}");
        }
    }
}

/// A random shape of `w` bits (first 0) of span below `max_span`: half
/// the time its bits 16 apart or near (the same or a neighbouring
/// checksum column, so that coins cancel and sums hit `+-2^c`), else
/// anywhere.
fn random_shape(r: &mut SplitMix, w: usize, max_span: u32) -> Vec<u32> {
    let aligned = r.below(2) == 0;
    let mut s = vec![0u32];
    while s.len() < w {
        let t = if aligned {
            let k = 1 + r.below(u64::from((max_span / 16).max(2) - 1)) as u32;
            (16 * k + [0, 1, 15, 8][r.below(4) as usize]).min(max_span - 1)
        } else {
            1 + r.below(u64::from(max_span - 1)) as u32
        };
        if t > 0 && !s.contains(&t) {
            s.push(t);
        }
    }
    s.sort_unstable();
    s
}

pub fn coin_tables_give_the_reference_pass_counts() {
    // the closed forms of the shape sums (a fixed, free or field first bit
    // before the zone and coins in it; every bit a coin; coins and the FCS)
    // against the first form of the pass count, placement by placement, on
    // the frames of real stacks: small and large, two Internet checksums
    // (IPv4 header and TCP), one (TCP, Internet over random data), the
    // random field before or after the zone. 3000 random shapes a frame
    // (each tried at every offset); the test command takes the first 1000
    // of the short frames', 500 of the 1500- and 1518-byte frames' and 150
    // of the 9018-byte frame's
    use crate::tier::pick;
    let (short, long, jumbo) = (pick(1000, 3000), pick(500, 3000), pick(150, 3000));
    for (stack, bytes, shapes) in [
        ("ethernet-tcp", 58usize, short),
        ("ethernet-tcp", 64, short),
        ("ethernet-tcp", 1518, long),
        ("ethernet-tcp", 9018, jumbo),
        ("ipv4-tcp+CRC-16/ARC", 90, short),
        ("ipv4-tcp+CRC-32C", 1500, long),
        ("tcp+CRC-8/SAE-J1850", 40, short),
        ("internet+CRC-32C", 300, short),
    ] {
        let f = Frame::new(stack, bytes, Payload::Random).unwrap();
        let m = JointModel::new(&f).unwrap();
        let (z0, z1) = m.zone.unwrap();
        let classes = m.prefix.clone().unwrap();
        let kinds = |k: fn(&FirstBit) -> bool| classes.iter().filter(|c| k(&c.bit)).count();
        let fixed = kinds(|b| matches!(b, FirstBit::Fixed { .. }));
        let field = kinds(|b| matches!(b, FirstBit::Field { .. }));
        eprintln!("{stack} {bytes}: zone {z0}..{z1}, {fixed} fixed, {field} field classes");
        if bytes >= 90 && (stack.starts_with("ethernet") || stack.starts_with("ipv4")) {
            assert!(fixed >= 16 && field == 16, "{stack}: {fixed} {field}");
        }
        let mut r = SplitMix(bytes as u64 + 7);
        let (mut closed, mut positive, mut touching) = (0u32, 0u32, 0u32);
        let reference = |o: u32, shape: &[u32]| {
            let p: Vec<u32> = shape.iter().map(|&s| s + o).collect();
            (m.pass_count_reference(&p).unwrap(), m.touches_field(&p))
        };
        for _ in 0..shapes {
            let w = 1 + r.below(5) as usize;
            let max_span = (z1 - z0).min(700);
            let shape = random_shape(&mut r, w, max_span);
            let span = *shape.last().unwrap();
            let t = CoinTable::new(&m.zone_coins, &shape[1..]);
            // the first bit before the zone, the others in it
            if w >= 2 && shape[1] >= z0 {
                for cl in &classes {
                    if let Some((p, touch)) = t.first(cl.first % 16, cl.bit, w) {
                        assert_eq!((p, touch), reference(cl.first, &shape), "{stack} {shape:?}");
                        closed += 1;
                        positive += (p > 0) as u32;
                        touching += touch as u32;
                    }
                }
            }
            // every bit in the zone
            for o in z0..(z0 + 16).min(z1 - span) {
                if let Some(p) = t.coin(o % 16, m.zone_coins[(o % 16) as usize], w) {
                    assert_eq!(p, reference(o, &shape).0, "{stack} {shape:?} at {o}");
                    closed += 1;
                    positive += (p > 0) as u32;
                }
            }
            // the placements not wholly in the zone, nor one bit before it
            // and the others in it: the run in the zone by its coin sums
            let mut cache = RoleCache::new();
            cache.clear();
            for o in 0..m.n - span {
                let a = shape.partition_point(|&s| s + o < z0);
                let b = shape.partition_point(|&s| s + o < z1);
                if b - a == w || (a == 1 && b == w) {
                    continue;
                }
                let Some(z) = cache.zone_sums(&m.zone_coins, &shape, (a, b), o) else {
                    continue;
                };
                if let Some(p) = m.split_count(&shape, o, (a, b), &z) {
                    assert_eq!(p, reference(o, &shape), "{stack} {shape:?} at {o}");
                    closed += 1;
                    positive += (p.0 > 0) as u32;
                    touching += p.1 as u32;
                }
            }
        }
        eprintln!("{stack} {bytes}: {closed} closed forms, {positive} positive, {touching} field");
        assert!(
            closed > 10_000 && positive > 300,
            "{stack} {bytes}: {closed} {positive}"
        );
        if field > 0 {
            assert!(touching > 100, "{stack} {bytes}: {touching}");
        }
    }
}

pub fn closed_form_shape_sums_match_placement_by_placement() {
    // random shapes (weights 1 to 5, spans from 1 bit to the whole frame,
    // many reaching from the headers into the zone or from the zone into
    // the FCS): the cached sums with their closed forms against the direct
    // ones, edges first (tiny frames, a zone only just longer than the
    // shape, a fixed payload where no closed form applies)
    let fixed = Payload::Fixed(vec![0xA5, 0x3C]);
    for (stack, bytes, payload, shapes) in [
        ("ethernet-tcp", 58usize, Payload::Random, 3000),
        ("ethernet-tcp", 70, Payload::Random, 3000),
        ("ethernet-tcp", 1518, Payload::Random, 1500),
        ("ethernet-tcp", 9018, Payload::Random, 150),
        ("ethernet-tcp", 600, fixed.clone(), 500),
        ("ipv4-tcp+CRC-16/ARC", 90, Payload::Random, 3000),
        ("ipv4-tcp+CRC-32C", 1500, Payload::Random, 1000),
        ("tcp+CRC-8/SAE-J1850", 40, Payload::Random, 3000),
        ("internet+CRC-32C", 300, Payload::Random, 3000),
        ("internet+CRC-32C", 300, fixed.clone(), 500),
    ] {
        let f = Frame::new(stack, bytes, payload.clone()).unwrap();
        let m = JointModel::new(&f).unwrap();
        let mut r = SplitMix(bytes as u64);
        let mut cache = RoleCache::new();
        let mut positive = 0;
        for i in 0..shapes {
            let w = 1 + r.below(5) as usize;
            // a third of the shapes as long as the frame allows
            let max_span = if i % 3 == 0 { m.n } else { m.n.min(600) };
            let shape = random_shape(&mut r, w, max_span);
            let a = m.shape_sum_cached(&shape, &mut cache);
            assert_eq!(a, m.shape_sum_direct(&shape), "{stack} {bytes} {shape:?}");
            positive += (a.0 > 0) as u32;
        }
        assert!(positive > shapes / 20, "{stack} {bytes}: {positive}");
    }
}

/// A small deterministic generator for payloads.
fn payload(seed: u64, len: usize) -> Vec<u8> {
    let mut r = SplitMix(seed);
    (0..len).map(|_| r.next() as u8).collect()
}

/// Real frames of `stack`: placements of weight-`w` codewords (60 at
/// random, a third of them touching bytes that are not random payload,
/// then the first 60 with a positive probability met scanning random
/// placements) flipped in `frames` real frames each (random payload,
/// every check filled in by the sender's code): the CRC passes every
/// time; a pattern of probability 0 never passes; each pattern's passes
/// are within 5 standard deviations (+1) of the computed probability,
/// and all of them together within 4. Returns (probability-0 patterns,
/// positive ones, ones touching non-random bytes).
fn real_frames_pass_at_the_computed_rates(
    stack: &str,
    bytes: usize,
    w: u32,
    frames: u64,
) -> (u32, u32, u32) {
    let f = Frame::new(stack, bytes, Payload::Random).unwrap();
    let m = JointModel::new(&f).unwrap();
    let exps = lowweight::shapes(&m.generator, w, m.n as u64).unwrap();
    assert!(!exps.is_empty(), "{stack}: no weight-{w} codeword");
    let (r0, r1) = (8 * f.random.0 as u32, 8 * f.random.1 as u32);
    let mut rng = SplitMix(7);
    let (mut total_pass, mut total_want, mut total_var) = (0.0, 0.0, 0.0);
    let (mut zeros, mut positives, mut fixed) = (0, 0, 0);
    let mut chosen: Vec<Vec<u32>> = Vec::new();
    let mut found = 0;
    for i in 0..100_000u64 {
        let s = &exps[rng.below(exps.len() as u64) as usize];
        let span = *s.last().unwrap();
        let wire: Vec<u32> = s.iter().rev().map(|&e| span - e).collect();
        let offsets = m.n - span;
        // a third: offsets where the pattern meets the header (below
        // r0) or the check fields at the end (from r1)
        let edge0 = r1.saturating_sub(span).min(offsets);
        let edge = r0.min(offsets) + (offsets - edge0);
        let o = if i % 3 == 0 && edge > 0 {
            let k = rng.below(edge as u64) as u32;
            if k < r0.min(offsets) {
                k
            } else {
                edge0 + k - r0.min(offsets)
            }
        } else {
            rng.below(offsets as u64) as u32
        };
        let pat: Vec<u32> = wire.iter().map(|&t| t + o).collect();
        if i < 60 {
            chosen.push(pat);
        } else if found < 60 && m.pass_probability(&pat) > 0.0 {
            found += 1;
            chosen.push(pat);
        }
    }
    for (i, pat) in chosen.iter().enumerate() {
        let i = i as u64;
        fixed += pat.iter().any(|&t| t < r0 || t >= r1) as u32;
        let want = m.pass_probability(pat);
        let mut pass = 0u64;
        for k in 0..frames {
            let mut fr = f.sent(&payload(i * 1_000_003 + k, f.random.1 - f.random.0));
            f.flip(&mut fr, pat);
            assert!(f.verify(m.crc, &fr), "{stack}: the CRC must pass: {pat:?}");
            pass += f.verify_all(&fr) as u64;
        }
        if want == 0.0 {
            assert_eq!(pass, 0, "{stack}: {pat:?} has probability 0");
            zeros += 1;
        } else {
            positives += 1;
            let mean = want * frames as f64;
            let sd = (mean * (1.0 - want)).sqrt();
            assert!(
                (pass as f64 - mean).abs() <= 5.0 * sd + 1.0,
                "{stack}: {pat:?}: {pass} passes, expected {mean}"
            );
        }
        total_pass += pass as f64;
        total_want += want * frames as f64;
        total_var += want * (1.0 - want) * frames as f64;
    }
    assert!(
        (total_pass - total_want).abs() <= 4.0 * total_var.sqrt() + 1.0,
        "{stack}: {total_pass} passes, expected {total_want}"
    );
    (zeros, positives, fixed)
}

/// The pass probability by enumerating every sign of the flipped random
/// bits (any number, `2^k` steps), as `pass_count` does up to 16.
fn pass_by_every_sign(m: &JointModel, pattern: &[u32]) -> f64 {
    let nc = m.internet.len();
    let mut fixed = [0i64; MAX_CHECKS];
    let mut field = [0u16; MAX_CHECKS];
    let mut coins: Vec<[i64; MAX_CHECKS]> = Vec::new();
    for &t in pattern {
        let mut coin = [0i64; MAX_CHECKS];
        let mut any = false;
        for (i, r) in m.roles[t as usize].iter().enumerate().take(nc) {
            let Some((c, d)) = *r else { continue };
            match d {
                Dir::Up => fixed[i] += 1 << c,
                Dir::Down => fixed[i] -= 1 << c,
                Dir::Field => field[i] |= 1 << c,
                Dir::Coin => {
                    coin[i] = 1 << c;
                    any = true;
                }
            }
        }
        if any {
            coins.push(coin);
        }
    }
    let k = coins.len();
    let mut total = 0.0;
    for mask in 0u64..1 << k {
        let mut v = 1.0;
        for i in 0..nc {
            let d = coins.iter().enumerate().fold(fixed[i], |d, (j, c)| {
                if mask >> j & 1 == 1 {
                    d - c[i]
                } else {
                    d + c[i]
                }
            });
            v *= if field[i] == 0 {
                (d.rem_euclid(MODULUS) == 0) as u8 as f64
            } else {
                field_count(d, field[i]) as f64 / MODULUS as f64
            };
        }
        total += v;
    }
    total / (1u64 << k) as f64
}

/// `pass_probability_any` (full sets of columns taken out, the rest met
/// in the middle) against `pass_count` up to 16 random bits and against
/// every sign beyond, on patterns that flip headers, fields and payload.
pub fn pass_probability_any_matches_every_sign() {
    let f = Frame::new("ethernet-tcp", 200, Payload::Random).unwrap();
    let m = JointModel::new(&f).unwrap();
    assert!(m.random_bits_under_one_check());
    let (payload0, n) = (8 * 54u32, m.n);
    let mut rng = SplitMix(11);
    let (mut positive, mut many, mut sets) = (0, 0, 0);
    // 150 patterns in the test command, 300 in the full tier
    let trials = crate::tier::pick(150, 300);
    for trial in 0..trials {
        // bursts: every bit of a run in the payload (full sets of
        // columns), dense flips near the TCP field (bytes 50..52) or in
        // the payload, or anywhere (headers)
        let mut pat: Vec<u32> = match trial % 4 {
            0 => {
                let a = payload0 + rng.below(400) as u32;
                (a..a + 16 + rng.below(5) as u32).collect()
            }
            k => {
                let len = 8 + rng.below(if k == 3 { 40 } else { 24 }) as u32;
                let start = match k {
                    1 => 8 * 46 + rng.below(60) as u32,
                    2 => payload0 + rng.below(600) as u32,
                    _ => rng.below((n - len) as u64) as u32,
                };
                (start..start + len).filter(|_| rng.below(3) != 0).collect()
            }
        };
        for _ in 0..rng.below(2) {
            pat.push(payload0 + rng.below((n - payload0 - 32) as u64) as u32);
        }
        if trial % 5 == 0 {
            // pairs in one column: cancel half the time
            let a = payload0 + 16 * rng.below(20) as u32 + rng.below(16) as u32;
            pat.extend([a, a + 160]);
        }
        pat.sort_unstable();
        pat.dedup();
        let got = m.pass_probability_any(&pat).unwrap();
        let coins = pat
            .iter()
            .filter(|&&t| {
                m.roles[t as usize]
                    .iter()
                    .any(|r| matches!(r, Some((_, Dir::Coin))))
            })
            .count();
        let want = if coins <= MAX_COINS {
            m.pass_probability(&pat)
        } else if coins <= 19 {
            many += 1;
            pass_by_every_sign(&m, &pat)
        } else {
            continue;
        };
        if coins <= 12 {
            // the two enumerations agree with each other as well
            let brute = pass_by_every_sign(&m, &pat);
            assert!((brute - want).abs() <= 1e-15 * want, "{pat:?}");
        }
        assert!(
            (got - want).abs() <= 1e-13 * want,
            "{pat:?}: {got} vs {want} ({coins} random bits)"
        );
        positive += (want > 0.0) as u32;
        let mut cols = [0u32; 16];
        for &t in &pat {
            if let Some((c, Dir::Coin)) = m.roles[t as usize][1] {
                cols[c as usize] += 1;
            }
        }
        sets += (cols.iter().all(|&c| c > 0)) as u32;
    }
    eprintln!("{positive} positive, {many} beyond 16 random bits, {sets} with full sets");
    assert!(
        positive > trials * 2 / 15 && many > trials / 15 && sets > trials / 15,
        "{positive} {many} {sets}"
    );
    // far beyond enumeration: near 1/65535 for a dense burst in the
    // payload, and the full-set identity on two copies of every column
    let burst: Vec<u32> = (payload0 + 5..payload0 + 5 + 200).collect();
    let p = m.pass_probability_any(&burst).unwrap();
    assert!((p * 65535.0 - 1.0).abs() < 1e-3, "{p}");
    let two: Vec<u32> = (payload0..payload0 + 32).collect();
    let one: Vec<u32> = (payload0..payload0 + 16).collect();
    let (p2, p1) = (
        m.pass_probability_any(&two).unwrap(),
        m.pass_probability(&one),
    );
    assert!((p2 - (1.0 + p1) / 65536.0).abs() <= 1e-15 * p2, "{p2} {p1}");
    // many random bits in half the columns (even bytes: columns 8..15):
    // summed over the residues, as counted in the middle
    let even: Vec<u32> = (0..4)
        .flat_map(|b| (0..8).map(move |t| payload0 + 16 * b + t))
        .collect();
    let cols: Vec<u8> = even.iter().map(|&t| 8 + (t % 8) as u8).collect();
    let mut positive = 0;
    let mut rng = SplitMix(5);
    for d in (0..4096).step_by(128) {
        let counted = count_zero_sums(d, &cols[..20]) as f64 / (1u64 << 20) as f64;
        let dense = dense_pass(d, &cols[..20]);
        assert!(
            (counted - dense).abs() <= 1e-14 * counted,
            "{d}: {counted} {dense}"
        );
        positive += (counted > 0.0) as u32;
        // and by columns, on random multisets of columns
        let mut by = [0u32; 16];
        let some: Vec<u8> = (0..18).map(|_| rng.below(16) as u8).collect();
        for &c in &some {
            by[c as usize] += 1;
        }
        let d = d + rng.below(65535) as i64 - 30000;
        assert_eq!(
            count_by_columns(d, &by),
            Some(count_zero_sums(d, &some) as u128),
            "{d} {some:?}"
        );
    }
    assert!(positive >= 4, "{positive}");
    let p = m.pass_probability_any(&even).unwrap();
    assert!(
        p > 0.0 && (p - dense_pass(0, &cols)).abs() <= 1e-14 * p,
        "{p}"
    );
    // no flip under a checksum: passes surely; one payload flip: never
    assert_eq!(m.pass_probability_any(&[n - 3]), Some(1.0));
    assert_eq!(m.pass_probability_any(&[payload0 + 9]), Some(0.0));
}

pub fn real_ethernet_tcp_frames_pass_at_the_computed_rates() {
    // 600-byte frames: CRC-32 weight-5 codewords (HD 5 at 4800 bits).
    let (zeros, positives, fixed) =
        real_frames_pass_at_the_computed_rates("ethernet-tcp", 600, 5, 400);
    assert!(
        zeros > 30 && positives >= 60 && fixed > 20,
        "{zeros} {positives} {fixed}"
    );
}

pub fn real_frames_of_user_stacks_pass_at_the_computed_rates() {
    // IPv4 + TCP under CRC-16/ARC (reflected; weight 4 at 960 bits), and
    // random data + Internet checksum under CRC-32C (weight 4 from 5276 bits)
    for (stack, bytes, w) in [
        ("ipv4-tcp+CRC-16/ARC", 120, 4),
        ("internet+crc32c", 1000, 4),
    ] {
        let (zeros, positives, fixed) =
            real_frames_pass_at_the_computed_rates(stack, bytes, w, 400);
        eprintln!("{stack}: {zeros} zero, {positives} positive, {fixed} at the edges");
        assert!(
            zeros > 20 && positives >= 30 && fixed > 15,
            "{stack}: {zeros} {positives} {fixed}"
        );
    }
}

/// Every pattern of weight `1..=max_w` on every payload of a tiny frame,
/// by building and checking real frames: per weight, `(codewords the CRC
/// accepts, passes of patterns that flip no random field, passes of
/// those that do, the model's pass counts summed over them)`, passes in
/// frames (out of `2^random bits`), the model in units of 1/PASS_SCALE.
fn brute_force_terms(f: &Frame, m: &JointModel, max_w: usize) -> Vec<[u128; 4]> {
    let r = f.random.1 - f.random.0;
    let payloads: u64 = if f.payload == Payload::Random {
        1 << (8 * r)
    } else {
        1
    };
    let build = |v: u64, pat: &[u32]| {
        let mut fr = f.sent(&v.to_le_bytes()[..r.min(8)]);
        f.flip(&mut fr, pat);
        fr
    };
    // the CRC's syndrome of a received frame, and per wire bit its
    // change, measured on real frames (the CRC is affine)
    let c = &f.checks[m.crc];
    let syndrome = |fr: &[u8]| {
        let (alg, little_endian) = (c.crc().unwrap(), c.little_endian);
        let stored =
            fr[c.field..c.field + c.field_len]
                .iter()
                .enumerate()
                .fold(0u64, |v, (j, &b)| {
                    let sh = if little_endian {
                        j
                    } else {
                        c.field_len - 1 - j
                    };
                    v | (b as u64) << (8 * sh)
                });
        crate::layout::crc_value(alg, &fr[c.data.0..c.data.1]) ^ stored
    };
    let clean = syndrome(&build(0, &[]));
    assert_eq!(clean, 0);
    let delta: Vec<u64> = (0..m.n).map(|t| syndrome(&build(0, &[t]))).collect();
    // every payload's sent frame, built once (each pattern's frames are
    // these with the pattern flipped, as `build` makes them)
    let sent: Vec<Vec<u8>> = (0..payloads).map(|v| build(v, &[])).collect();
    let mut fr = sent[0].clone();
    let mut out = vec![[0u128; 4]; max_w + 1];
    let n = m.n;
    let mut pat = Vec::new();
    fn each(n: u32, from: u32, left: usize, pat: &mut Vec<u32>, visit: &mut dyn FnMut(&[u32])) {
        if !pat.is_empty() {
            visit(pat);
        }
        if left == 0 {
            return;
        }
        for t in from..n {
            pat.push(t);
            each(n, t + 1, left - 1, pat, visit);
            pat.pop();
        }
    }
    each(n, 0, max_w, &mut pat, &mut |pat| {
        if pat.iter().fold(0, |a, &t| a ^ delta[t as usize]) != 0 {
            return;
        }
        let mut pass = 0u128;
        for sent in &sent {
            fr.copy_from_slice(sent);
            f.flip(&mut fr, pat);
            // the CRC passes on every payload, so the frame passes where
            // every other check does (as `verify_all`, the CRC once)
            assert!(f.verify(m.crc, &fr), "{pat:?}");
            pass += (0..f.checks.len()).all(|i| i == m.crc || f.verify(i, &fr)) as u128;
        }
        let o = &mut out[pat.len()];
        o[0] += 1;
        o[if m.touches_field(pat) { 2 } else { 1 }] += pass;
        o[3] += m.pass_count(pat).unwrap() as u128;
        if !m.touches_field(pat) {
            // exact: passes / payloads = count / PASS_SCALE
            assert_eq!(
                pass * PASS_SCALE as u128,
                m.pass_count(pat).unwrap() as u128 * payloads as u128,
                "{pat:?}"
            );
        }
    });
    out
}

/// Tiny user stacks, every pattern up to weight `max_w` on every payload,
/// against the enumeration (weights `2..=max_w`):
/// - a TCP segment with one payload byte under CRC-8/SAE-J1850 (odd
///   weights too; MSB first): 22 bytes, 176 bits, 256 payloads, up to
///   weight `tcp_w`;
/// - random data + Internet checksum under CRC-8/MAXIM-DOW (LSB first):
///   5 bytes, 40 bits, 65536 payloads, up to weight 4.
fn user_stacks_against_brute_force(tcp_w: u32) {
    for (stack, bytes, max_w) in [
        ("tcp+CRC-8/SAE-J1850", 22, tcp_w),
        ("internet+CRC-8/MAXIM-DOW", 5, 4),
    ] {
        let f = Frame::new(stack, bytes, Payload::Random).unwrap();
        let m = JointModel::new(&f).unwrap();
        let opts = JointOptions {
            max_weight: max_w,
            samples: 0,
            seed: 1,
        };
        let st = JointStack::new(&f, &opts, &crate::ctx::Ctx::default()).unwrap();
        let brute = brute_force_terms(&f, &m, max_w as usize);
        assert_eq!(brute[1][0], 0, "{stack}: a weight-1 codeword");
        let payloads = (1u64 << (8 * (f.random.1 - f.random.0))) as f64;
        let scale = PASS_SCALE as f64;
        let mut exact_part = 0;
        for w in 2..=max_w {
            let b = brute[w as usize];
            let Some(t) = st.terms.iter().find(|t| t.weight == w) else {
                // a weight the enumeration has no codeword of
                assert_eq!(b[0], 0, "{stack}: weight-{w} codewords missed");
                continue;
            };
            // the enumeration lists exactly the codewords found by brute
            // force, with the same model sum
            assert_eq!(t.codewords, b[0], "{stack} weight {w}");
            let model = b[3] as f64 / scale;
            assert!((t.pass_sum - model).abs() <= 1e-12 * model, "{stack}");
            // the real pass probabilities: exact where no random field
            // bit flips (asserted per pattern), within the field model's
            // stated bound where one does (1 random word here: the bound
            // is 1 per pattern)
            let real = (b[1] + b[2]) as f64 / payloads;
            assert!(
                (real - t.pass_sum).abs() <= t.model_error + 1e-12 * real,
                "{stack} weight {w}: {real} vs {} +- {}",
                t.pass_sum,
                t.model_error
            );
            exact_part += b[1];
        }
        // some patterns that flip no field bit do pass (the exact part
        // is not empty) where fixed bytes can cancel a payload flip
        assert!(exact_part > 0 || !stack.starts_with("tcp"), "{stack}");
        assert!(
            st.terms.iter().map(|t| t.codewords).sum::<u128>() > 10,
            "{stack}"
        );
    }
}

pub fn user_stacks_match_brute_force_over_every_pattern_and_payload() {
    user_stacks_against_brute_force(3);
}

/// The same with the TCP stack up to weight 4 (about 15 s).
#[ignore]
pub fn user_stacks_match_brute_force_to_weight_4() {
    user_stacks_against_brute_force(4);
}

pub fn a_fixed_payload_stack_matches_brute_force_exactly() {
    // no random byte: every flip has a known direction and the model is
    // exact, so the joint escape itself matches brute force to 1e-12
    for stack in ["internet+CRC-8/SMBUS", "internet+CRC-8/MAXIM-DOW"] {
        let f = Frame::new(stack, 7, Payload::Fixed(vec![0xA5, 0x3C, 0x01, 0x80])).unwrap();
        let m = JointModel::new(&f).unwrap();
        let opts = JointOptions {
            max_weight: 5,
            samples: 0,
            seed: 1,
        };
        let st = JointStack::new(&f, &opts, &crate::ctx::Ctx::default()).unwrap();
        assert!(st.terms.iter().all(|t| t.model_error == 0.0));
        let brute = brute_force_terms(&f, &m, 5);
        let n = m.n as u64;
        for p in [1e-6, 1e-3, 0.05, 0.3] {
            let want: f64 = (2..=5)
                .map(|w| brute[w][1] as f64 * bsc::pattern_probability(n, w as u64, p))
                .sum();
            let jp = st.at(p).unwrap();
            assert!(want > 0.0);
            assert!(
                (jp.low - want).abs() <= 1e-12 * want,
                "{stack} {p}: {} vs {want}",
                jp.low
            );
            assert!(jp.high >= jp.low);
        }
    }
}

pub fn bracket_holds_the_brute_force_value_on_a_tiny_layout() {
    // all patterns of weight <= 4 by brute force vs the bracket of
    // exact weights 2..=3 (weight 4 left to the certified remainder)
    let f = tiny();
    let st = JointStack::new(
        &f,
        &JointOptions {
            max_weight: 3,
            samples: 0,
            seed: 1,
        },
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    let p = 0.01;
    let pt = st.at(p).unwrap();
    assert!(pt.low <= pt.high);
    let full = JointStack::new(
        &f,
        &JointOptions {
            max_weight: 5,
            samples: 0,
            seed: 1,
        },
        &crate::ctx::Ctx::default(),
    )
    .unwrap()
    .at(p)
    .unwrap();
    assert!(pt.low <= full.low * (1.0 + 1e-12) && full.high <= pt.high * (1.0 + 1e-12));
}

pub fn reports_every_work_item() {
    // two stages: the plan's work items (shape parts of every weight),
    // each reported once, then the dual code's windows
    let f = tiny();
    let opts = JointOptions {
        max_weight: 4,
        samples: 0,
        seed: 1,
    };
    let r = crate::progress::Record::default();
    let st = JointStack::new(&f, &opts, &crate::ctx::Ctx::default().with_progress(&r)).unwrap();
    assert!(r.complete(), "{:?}", r.stages());
    assert_eq!(r.names(), ["work items", "dual-code windows"]);
    let plan = JointPlan::new(&f, &opts).unwrap();
    assert_eq!(r.stages()[0].total, plan.items());
    assert!(plan.items() >= 3, "{}", plan.items());
    let plain = JointStack::new(&f, &opts, &crate::ctx::Ctx::default()).unwrap();
    assert_eq!(st.at(0.01).unwrap(), plain.at(0.01).unwrap());
}

/// Each rule of the joint computation refuses with its own typed reason and
/// its numbers (a different rule refusing would fail the match).
pub fn refusals_are_typed() {
    use crate::error::{Limit, Param, StackRule};
    let alone = Frame::new("fletcher16", 8, Payload::Random).unwrap();
    assert!(matches!(
        JointModel::new(&alone),
        Err(Error::Limit(Limit::JointStack {
            rule: StackRule::OneCrcAndChecksums,
            ..
        }))
    ));
    let f = tiny();
    let opts = |max_weight| JointOptions {
        max_weight,
        samples: 0,
        seed: 1,
    };
    let Err(e) = JointPlan::new(&f, &opts(6)) else {
        panic!("weight 6 accepted")
    };
    assert!(
        matches!(
            &e,
            Error::Param {
                param: Param::MaxWeight,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "the joint computation enumerates weights 2 to 5, not up to 6"
    );
    let wide = Frame::new("internet+CRC-40/GSM", 33, Payload::Random).unwrap();
    assert!(matches!(
        JointPlan::new(&wide, &opts(3)),
        Err(Error::Limit(Limit::JointWidth { width: 40, max: 32 }))
    ));
    let m = JointModel::new(&f).unwrap();
    assert!(matches!(
        m.sampled_term(9, 1, 10, 1),
        Err(Error::Limit(Limit::SampledWeight { weight: 9 }))
    ));
    assert!(matches!(
        SampleTally::default().term(&m, 4, 1),
        Err(Error::Limit(Limit::NoSampledCodeword {
            draws: 0,
            weight: 4
        }))
    ));
    assert_eq!(
        Limit::JointStack {
            stack: "s".into(),
            rule: StackRule::ChecksumsOver { max: 4 }
        }
        .to_string(),
        "the joint computation does not handle stack `s`: more than 4 Internet checksums"
    );
}
