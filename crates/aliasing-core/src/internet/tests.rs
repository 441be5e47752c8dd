//! Tests of the exact Internet-checksum escape probability: brute force on a
//! small-word analogue (4-bit words mod 15), exhaustive 2-bit errors against
//! the real checksum, the two exact methods against each other over the whole
//! BER range, and against an exact rational evaluation.

use super::field::*;
use super::*;
use crate::check::Check;
use crate::checksum::{Internet, ones_complement_sum};
use dashu_ratio::RBig;

fn rel(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        (a - b).abs() / a.abs().max(b.abs())
    }
}

const PS: [f64; 9] = [1e-12, 1e-9, 1e-6, 1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5];

/// Escape counts by error weight for a `w`-bit-word analogue: the bits are
/// (column, value) pairs; `None` values mean random data (each direction 1/2).
/// Returns `A[weight]` as a probability-weighted count (random data: the
/// fraction of data values, summed over patterns).
fn brute_force(bits: &[(usize, Option<bool>)], w: usize) -> Vec<f64> {
    let m = (1i64 << w) - 1;
    let n = bits.len();
    let mut a = vec![0.0; n + 1];
    for e in 1u32..(1 << n) {
        let flipped: Vec<usize> = (0..n).filter(|&i| e >> i & 1 == 1).collect();
        let free: Vec<usize> = flipped
            .iter()
            .copied()
            .filter(|&i| bits[i].1.is_none())
            .collect();
        let mut hits = 0u64;
        // enumerate values of the random bits that were flipped (other bits do not matter)
        for v in 0u32..(1 << free.len()) {
            let mut delta = 0i64;
            for &i in &flipped {
                let one = match bits[i].1 {
                    Some(b) => b,
                    None => v >> free.iter().position(|&x| x == i).unwrap() & 1 == 1,
                };
                let s = 1i64 << bits[i].0;
                delta += if one { -s } else { s };
            }
            if delta.rem_euclid(m) == 0 {
                hits += 1;
            }
        }
        a[flipped.len()] += hits as f64 / (1u64 << free.len()) as f64;
    }
    a
}

fn from_counts(a: &[f64], p: f64) -> f64 {
    let n = (a.len() - 1) as u64;
    (1..=n)
        .map(|w| a[w as usize] * bsc::pattern_probability(n, w, p))
        .sum()
}

fn random_bits(counts: &[u64]) -> Vec<(usize, Option<bool>)> {
    counts
        .iter()
        .enumerate()
        .flat_map(|(k, &c)| std::iter::repeat_n((k, None), c as usize))
        .collect()
}

pub fn small_word_analogue_matches_brute_force() {
    // 4-bit words mod 15: equal columns (3 words), unequal columns (like an
    // odd length), and 2-bit words mod 3.
    for counts in [
        vec![3u64, 3, 3, 3],
        vec![2, 2, 3, 3],
        vec![1, 4, 2, 3],
        vec![5, 5],
    ] {
        let w = counts.len();
        let a = brute_force(&random_bits(&counts), w);
        for p in PS {
            let exact = from_counts(&a, p);
            let c = carry_random(&counts, p).unwrap();
            let f = fourier_random(&counts, p);
            assert!(
                rel(c, exact) < 1e-12,
                "{counts:?} p={p}: carry {c} brute {exact}"
            );
            assert!(
                rel(f, exact) < 1e-11,
                "{counts:?} p={p}: fourier {f} brute {exact}"
            );
        }
    }
}

pub fn small_word_payloads_match_brute_force_and_average_to_random() {
    let counts = [2u64, 3, 3, 2];
    let bits = random_bits(&counts);
    let n = bits.len();
    let p = 0.01;
    let mut avg = 0.0;
    for data in 0u32..(1 << n) {
        let fixed: Vec<(usize, Option<bool>)> = bits
            .iter()
            .enumerate()
            .map(|(i, &(k, _))| (k, Some(data >> i & 1 == 1)))
            .collect();
        let mut up = [0u64; 4];
        let mut down = [0u64; 4];
        for &(k, v) in &fixed {
            if v == Some(true) {
                down[k] += 1;
            } else {
                up[k] += 1;
            }
        }
        if data % 97 == 0 {
            let exact = from_counts(&brute_force(&fixed, 4), p);
            let c = carry_payload(&up, &down, p).unwrap();
            assert!(rel(c, exact) < 1e-12, "data {data:#x}: {c} vs {exact}");
        }
        avg += carry_payload(&up, &down, p).unwrap();
    }
    avg /= (1u64 << n) as f64;
    let r = carry_random(&counts, p).unwrap();
    assert!(rel(avg, r) < 1e-12, "{avg} vs {r}");
}

pub fn every_two_bit_error_against_the_real_checksum() {
    // Real segments with a valid checksum field and a TCP pseudo-header; every
    // pair of flips escapes exactly when both are in one bit column of two
    // different words with opposite original values.
    let mut x = 0x1234_5678_9abc_def0u64;
    for len in [6usize, 7, 10, 13] {
        let ph = Internet::tcp_ipv4([192, 168, 0, 1], [10, 0, 0, 7], len as u16);
        let mut seg: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        seg[2] = 0;
        seg[3] = 0;
        let c = ph.compute(&seg) as u16;
        seg[2..4].copy_from_slice(&c.to_be_bytes());
        let init = ones_complement_sum(ph.pseudo_header(), 0);
        assert_eq!(ones_complement_sum(&seg, init), 0xFFFF);
        let col = |bit: usize| {
            let (byte, b) = (bit / 8, bit % 8);
            (byte / 2, if byte % 2 == 0 { 8 + b } else { b })
        };
        let val = |s: &[u8], bit: usize| s[bit / 8] >> (bit % 8) & 1;
        let mut escapes = 0u64;
        for i in 0..8 * len {
            for j in i + 1..8 * len {
                let mut r = seg.clone();
                r[i / 8] ^= 1 << (i % 8);
                r[j / 8] ^= 1 << (j % 8);
                let passes = ones_complement_sum(&r, init) == 0xFFFF;
                let (wi, ki) = col(i);
                let (wj, kj) = col(j);
                let rule = ki == kj && wi != wj && val(&seg, i) != val(&seg, j);
                assert_eq!(passes, rule, "len {len} bits {i} {j}");
                escapes += passes as u64;
            }
        }
        let d = Directions::from_payload(&seg);
        assert_eq!(d.escaping_pairs(), escapes);
        // leading term of the exact payload probability
        let p = 1e-9;
        let v = p_undetected_payload(&seg, p).unwrap();
        let lead = escapes as f64 * bsc::pattern_probability(8 * len as u64, 2, p);
        assert!(rel(v, lead) < 1e-6, "len {len}: {v} vs {lead}");
    }
}

pub fn one_word_needs_all_sixteen_flips() {
    // A 2-byte codeword escapes only by 0x0000 <-> 0xFFFF: p^16 * 2/65536.
    // (The characteristic function is not used here: with one word there is no
    // second-order term and its result would be rounding noise.)
    for p in [1e-12, 1e-3, 0.1, 0.5] {
        let v = p_undetected_coins(2, p).unwrap();
        assert!(rel(v, p.powi(16) / 32768.0) < 1e-13, "p={p}: {v}");
    }
    // One byte (pad not transmitted) can never escape.
    assert_eq!(p_undetected_coins(1, 0.3).unwrap(), 0.0);
    // All-zero payload: every flip adds, so the lightest escape is one flip in
    // every column (65535 has 16 ones): W^16 patterns of weight 16.
    for (bytes, p) in [(8usize, 1e-9), (64, 1e-9), (1500, 1e-12)] {
        let z = p_undetected_payload(&vec![0u8; bytes], p).unwrap();
        let w = (bytes / 2) as f64;
        let lead = w.powi(16) * bsc::pattern_probability(8 * bytes as u64, 16, p);
        assert!(rel(z, lead) < 1e-5, "{bytes}: {z} vs {lead}");
    }
}

pub fn leading_term_for_random_data() {
    // P_ud -> p^2 * sum_k W_k (W_k - 1) / 4 as p -> 0.
    for bytes in [4u64, 5, 64, 1500, 9001] {
        let w = column_counts(bytes);
        let a2: f64 = w.iter().map(|&c| (c * (c - 1)) as f64 / 4.0).sum();
        let p = 1e-12;
        let v = p_undetected_coins(bytes, p).unwrap();
        let lead = a2 * bsc::pattern_probability(8 * bytes, 2, p);
        assert!(rel(v, lead) < 1e-6, "{bytes}: {v} vs {lead}");
    }
}

pub fn carry_chain_and_characteristic_function_agree() {
    // Exact (uncut) carry chain for short codewords, the cut one for long ones,
    // against the characteristic function over Z_65535.
    for bytes in [3u64, 4, 5, 7, 16, 33, 64, 65, 128] {
        let w = column_counts(bytes);
        for p in PS {
            let c = carry_random(&w, p).unwrap();
            let f = fourier_random(&w, p);
            assert!(
                rel(c, f) < 1e-12,
                "{bytes} bytes p={p}: carry {c} fourier {f}"
            );
        }
    }
    // long codewords: both regimes of the characteristic function (factored
    // out below (1-p)^n = e^-20, plain sum above) against the cut chain
    for (bytes, hi) in [(576u64, 0.05), (1500, 0.02), (9000, 2e-3)] {
        let w = column_counts(bytes);
        for p in [1e-12, 1e-9, 1e-6, 1e-5, 1e-4, 1e-3, hi] {
            let c = carry_random(&w, p).unwrap();
            let f = fourier_random(&w, p);
            assert!(
                rel(c, f) < 1e-12,
                "{bytes} bytes p={p}: carry {c} fourier {f}"
            );
        }
    }
}

impl Semiring for RBig {
    fn zero() -> Self {
        RBig::ZERO
    }
    fn one() -> Self {
        RBig::ONE
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn is_zero(&self) -> bool {
        *self == RBig::ZERO
    }
}
pub fn exact_rational_evaluation() {
    // The carry chain in exact rational arithmetic (dashu) for p exactly the
    // f64 value; the f64 methods must agree to 1e-13 relative.
    fn law(n: u64, p: &RBig) -> ColumnLaw<RBig> {
        let cut = n as usize;
        let one_m = RBig::ONE - p;
        let mut flip = vec![RBig::ZERO; 2 * cut + 1];
        let mut clean = RBig::ONE;
        for _ in 0..n {
            clean = &clean * &one_m;
        }
        for f in 1..=n {
            // C(n, f) p^f (1-p)^(n-f) * C(f, u) / 2^f
            let mut pf = RBig::ONE;
            for i in 0..f {
                pf = pf * RBig::from(n - i) / RBig::from(i + 1) * p;
            }
            for _ in f..n {
                pf = &pf * &one_m;
            }
            let mut cu = RBig::ONE;
            let half_f = RBig::from_parts(1.into(), dashu_int::UBig::ONE << f as usize);
            for u in 0..=f {
                if u > 0 {
                    cu = cu * RBig::from(f - u + 1) / RBig::from(u);
                }
                let d = 2 * u as i64 - f as i64;
                flip[(d + cut as i64) as usize] += &pf * &cu * &half_f;
            }
        }
        ColumnLaw {
            clean,
            flip,
            tail: 0.0,
        }
    }
    for bytes in [4u64, 5, 8] {
        let counts = column_counts(bytes);
        let cut = counts.iter().copied().max().unwrap() as usize;
        for p in [1e-12, 1e-5, 0.25, 0.5] {
            let pr = RBig::try_from(p).unwrap();
            let laws: Vec<ColumnLaw<RBig>> = counts
                .iter()
                .map(|&n| {
                    let mut l = law(n, &pr);
                    // widen to the common cut
                    let pad = cut - n as usize;
                    let mut v = vec![RBig::ZERO; pad];
                    v.extend(l.flip);
                    v.extend(vec![RBig::ZERO; pad]);
                    l.flip = v;
                    l
                })
                .collect();
            let exact = carry_chain(&laws, cut).to_f64().value();
            let f = fourier_random(&counts, p);
            let c = p_undetected_coins(bytes, p).unwrap();
            assert!(
                rel(f, exact) < 1e-13,
                "{bytes} p={p}: fourier {f} exact {exact}"
            );
            assert!(
                rel(c, exact) < 1e-13,
                "{bytes} p={p}: carry {c} exact {exact}"
            );
        }
    }
}

pub fn payload_model_large_ber_uses_characteristic_function() {
    // Where the cut carry chain gives up, the plain characteristic function is
    // used; it must agree with the chain where both apply.
    let data: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
    let d = Directions::from_payload(&data);
    for p in [0.05, 0.1] {
        let c = carry_payload(&d.up, &d.down, p).unwrap();
        let f = fourier_payload(&d.up, &d.down, p);
        assert!(rel(c, f) < 1e-10, "p={p}: {c} vs {f}");
    }
    let big = vec![0x5Au8; 9000];
    let v = p_undetected_payload(&big, 0.3).unwrap();
    assert!(rel(v, 1.0 / 65535.0) < 1e-3, "{v}");
}

pub fn bad_input() {
    assert!(p_undetected_coins(0, 0.1).is_err());
    assert!(p_undetected_coins(10, 1.5).is_err());
    assert!(p_undetected_coins(10, f64::NAN).is_err());
    assert!(p_undetected_payload(&[], 0.1).is_err());
    assert!(curve_payload(&[1, 2, 3], &[4], &[0.1]).is_err());
    assert_eq!(p_undetected_coins(100, 0.0).unwrap(), 0.0);
}

pub fn real_field_model_against_brute_force() {
    // 4-bit analogue: data words with random bits, plus a check word uniform
    // on 0..=14 (15 values, as a real field is on 0..=0xFFFE). Brute force
    // over the check word's value against P_A + (P_A - P_f) / 15.
    let counts = [3u64, 3, 3, 3]; // 2 data words + the check word per column
    let data_bits: Vec<(usize, Option<bool>)> = random_bits(&[2, 2, 2, 2]);
    for p in [1e-9, 1e-3, 0.1, 0.5] {
        let mut avg = 0.0;
        for c in 0u32..15 {
            let mut bits = data_bits.clone();
            bits.extend((0..4).map(|k| (k, Some(c >> k & 1 == 1))));
            avg += from_counts(&brute_force(&bits, 4), p);
        }
        avg /= 15.0;
        let pa = carry_random(&counts, p).unwrap();
        let pf = carry_mixed(&[2, 2, 2, 2], &[0; 4], &[1; 4], p).unwrap();
        let formula = pa + (pa - pf) / 15.0;
        assert!(rel(formula, avg) < 1e-12, "p={p}: {formula} vs {avg}");
    }
    // 16 bits: the field's 65535 values change the answer only through
    // patterns of weight 3 or more (a pair through the field's word escapes
    // with probability 1/2 either way), so by far less than 1/(65535 W)
    // relative at low BER; and the mixed chain agrees with the mixed spectrum.
    for bytes in [64u64, 1500] {
        let a = p_undetected_coins(bytes, 1e-6).unwrap();
        let b = p_undetected_real_field(bytes, 1e-6).unwrap();
        let w = (bytes / 2) as f64;
        let d = (b - a) / a;
        assert!(d.abs() < 1.0 / (65535.0 * w) && d != 0.0, "{bytes}: {d:e}");
    }
    let mut random = column_counts(576);
    random.iter_mut().for_each(|r| *r -= 1);
    let p = 0.01;
    let c = carry_mixed(&random, &[0; 16], &[1; 16], p).unwrap();
    let f = Spectrum::new(16, p).mixed(&random, &[0; 16], &[1; 16], 0);
    assert!(rel(c, f) < 1e-11, "{c} vs {f}");
}

pub fn mixed_segment_all_random_is_the_random_model() {
    for (bytes, top) in [(20usize, 1e-3), (64, 0.1), (1500, 0.1), (1501, 0.1)] {
        let seg = vec![None; bytes];
        for p in [1e-6, 1.5e-5, 1e-3, 0.1].into_iter().filter(|&p| p <= top) {
            let m = p_undetected_mixed(&seg, 16, 0, p).unwrap();
            let r = p_undetected(bytes as u64, p).unwrap();
            assert!(rel(m, r) < 1e-12, "{bytes} p={p}: {m} vs {r}");
        }
    }
}

/// `P_ud` by the carry chain with the random bytes (`None`) as fair coins
/// and the others in their known directions.
fn carry_payload_mixed(seg: &[Option<u8>], p: f64) -> f64 {
    let mut random = [0u64; WIDTH];
    let mut d = Directions {
        up: [0; WIDTH],
        down: [0; WIDTH],
    };
    for (o, b) in seg.iter().enumerate() {
        match b {
            Some(v) => d.add_byte(o, *v),
            None => random[byte_columns(o)..][..8]
                .iter_mut()
                .for_each(|r| *r += 1),
        }
    }
    carry_mixed(&random, &d.up, &d.down, p).unwrap()
}

pub fn mixed_segment_fixed_bytes_against_given_payloads() {
    // Known bytes around the field, one random byte: the field-fixed term
    // is the average, over the random byte's 256 values, of the exact
    // given-payload probability (which tests where each known bit goes).
    let known = [0x45u8, 0x00, 0xC3, 0x7E, 0x12];
    for (x_at, p) in [(6usize, 1e-3), (7, 1e-2), (6, 0.2)] {
        let mut seg: Vec<Option<u8>> = known.iter().map(|&b| Some(b)).collect();
        seg.splice(2..2, [None, None]); // the field at offset 2
        seg.insert(x_at, None);
        let mut ffff = seg.clone();
        ffff[2] = Some(0xFF);
        ffff[3] = Some(0xFF);
        let pf = carry_payload_mixed(&ffff, p);
        let avg: f64 = (0..=255u8)
            .map(|x| {
                let frame: Vec<u8> = seg
                    .iter()
                    .enumerate()
                    .map(|(o, b)| match (o, b) {
                        (2 | 3, _) => 0xFF,
                        (_, Some(v)) => *v,
                        (_, None) => x,
                    })
                    .collect();
                p_undetected_payload(&frame, p).unwrap()
            })
            .sum::<f64>()
            / 256.0;
        assert!(rel(pf, avg) < 1e-12, "x at {x_at}, p={p}: {pf} vs {avg}");
    }
    // Bad input: an odd or outside field, no random byte.
    assert!(p_undetected_mixed(&[None; 8], 3, 0, 1e-3).is_err());
    assert!(p_undetected_mixed(&[None; 8], 8, 0, 1e-3).is_err());
    assert!(p_undetected_mixed(&[Some(1), Some(2), None, None], 2, 0, 1e-3).is_err());
    assert!(p_undetected_mixed(&[None; 8], 0, 0, 1.5).is_err());
}

pub fn half_ber_closed_form() {
    // At p = 1/2 the received words are uniform and independent of the sent
    // ones; a uniform 16-bit word has characteristic function 1/65536 at every
    // non-zero frequency of Z_65535 (0x0000 and 0xFFFF both count as 0), so
    // P(change = 0) = (1 + (M-1) 65536^-2W) / M, less the 2^-n of no flip.
    for bytes in [4u64, 6, 64, 1500, 9000] {
        let w = (bytes / 2) as i32;
        let m = MODULUS as f64;
        let exact = (1.0 + (m - 1.0) * 65536f64.powi(-2 * w)) / m - 0.5f64.powi(8 * bytes as i32);
        let v = p_undetected_coins(bytes, 0.5).unwrap();
        assert!(rel(v, exact) < 1e-13, "{bytes}: {v} vs {exact}");
        assert!(rel(fourier_random(&column_counts(bytes), 0.5), exact) < 1e-13);
    }
}

pub fn every_error_pattern_of_a_short_frame_against_the_real_checksum() {
    // All 2^24 error patterns of 3-byte frames (the pad byte is not sent),
    // judged by the real ones'-complement sum with a TCP pseudo-header,
    // against the exact payload probability: every weight, every BER.
    let ph = Internet::tcp_ipv4([10, 1, 2, 3], [10, 4, 5, 6], 3);
    let init = ones_complement_sum(ph.pseudo_header(), 0);
    for frame in [[0x00u8, 0xFF, 0x80], [0xFF, 0xFF, 0xFF], [0x12, 0xED, 0x00]] {
        let sent = ones_complement_sum(&frame, init);
        let mut count = [0u64; 25];
        for e in 1u32..(1 << 24) {
            let r = [
                frame[0] ^ e as u8,
                frame[1] ^ (e >> 8) as u8,
                frame[2] ^ (e >> 16) as u8,
            ];
            if ones_complement_sum(&r, init) == sent {
                count[e.count_ones() as usize] += 1;
            }
        }
        for p in [1e-9, 1e-4, 0.05, 0.3, 0.5] {
            let brute: f64 = (1..=24)
                .map(|w| count[w] as f64 * bsc::pattern_probability(24, w as u64, p))
                .sum();
            let v = p_undetected_payload(&frame, p).unwrap();
            assert!(rel(v, brute) < 1e-12, "{frame:x?} p={p}: {v} vs {brute}");
        }
    }
}

/// Escaping error patterns by weight, averaged over the data, by brute force:
/// `template` holds the frame with the field at bytes 0..2 (its entries
/// ignored) and at most one random byte (`None`); each data value's field is
/// computed with `constant` as a sender would, and every error pattern is
/// judged by the change of the ones'-complement sum (0 mod 65535). The
/// field word's 65536 patterns are sorted by their change and matched against
/// every pattern of the other bytes, so each pattern is counted once.
fn brute_force_field(template: &[Option<u8>], constant: u16) -> Vec<f64> {
    let n = 8 * template.len();
    let free = template[2..]
        .iter()
        .position(|b| b.is_none())
        .map(|i| i + 2);
    let values: Vec<u8> = if free.is_some() {
        (0..=255).collect()
    } else {
        vec![0]
    };
    let m = 65535i64;
    let word = |fr: &[u8], i: usize| -> i64 {
        let hi = fr[2 * i] as i64;
        let lo = fr.get(2 * i + 1).copied().unwrap_or(0) as i64;
        (hi << 8) | lo
    };
    let mut a = vec![0.0; n + 1];
    for &v in &values {
        let mut fr: Vec<u8> = template.iter().map(|b| b.unwrap_or(v)).collect();
        fr[0] = 0;
        fr[1] = 0;
        let f = !ones_complement_sum(&fr, constant);
        fr[..2].copy_from_slice(&f.to_be_bytes());
        // the field's error patterns `e` by the change they make,
        // `(f ^ e) - f` mod 65535: the received field `x = f ^ e` is
        // `f + c` mod 65535, so each change has the one or two `x` (0 and
        // 0xFFFF are both 0) found here, each checked (a lookup rather
        // than a sorted table of the 2^16 patterns, made per payload)
        let field = |c: i64| {
            let x = (f as i64 + c).rem_euclid(m);
            [x, x + m]
                .into_iter()
                .filter(|&x| x <= 0xFFFF)
                .map(move |x| {
                    assert_eq!((x - f as i64).rem_euclid(m), c);
                    (x as u32 ^ f as u32).count_ones()
                })
        };
        let rest_bits = n - 16;
        for e in 0u64..(1 << rest_bits) {
            // on the stack: this loop runs 2^16 times per payload value
            let mut buf = [0u8; 8];
            let r = &mut buf[..fr.len()];
            r.copy_from_slice(&fr);
            for (j, b) in r[2..].iter_mut().enumerate() {
                *b ^= (e >> (8 * j)) as u8;
            }
            let d: i64 = (1..template.len().div_ceil(2))
                .map(|i| word(r, i) - word(&fr, i))
                .sum();
            let want = (-d).rem_euclid(m);
            for w in field(want) {
                let weight = w as usize + e.count_ones() as usize;
                if weight > 0 {
                    a[weight] += 1.0;
                }
            }
        }
    }
    a.iter().map(|x| x / values.len() as f64).collect()
}

pub fn field_from_the_data_against_brute_force_on_tiny_frames() {
    // 3 bytes: the field and one random byte (odd length; with constant 0
    // the all-zero byte folds to the field 0xFFFF); 4 bytes: the field, a
    // known byte and a random one, with and without a pseudo-header constant.
    let cases: [(&[Option<u8>], u16); 4] = [
        (&[None, None, None], 0),
        (&[None, None, None], 0x1234),
        (&[None, None, Some(0xA5), None], 0),
        (&[None, None, Some(0x3C), None], 0xFFFF),
    ];
    // the 4-byte frames (2^32 patterns each) in the full tier only
    let mut random3 = Vec::new();
    for &(template, constant) in &cases[..crate::tier::pick(2, 4)] {
        let a = brute_force_field(template, constant);
        if random3.is_empty() {
            // the first case, kept for the random-data entry point below
            random3 = a.clone();
        }
        let n = (a.len() - 1) as i32;
        for p in [1e-6f64, 1e-3, 0.05, 0.3, 0.5, 0.7, 0.99, 1.0] {
            let brute: f64 = (1..=n)
                .map(|w| a[w as usize] * p.powi(w) * (1.0 - p).powi(n - w))
                .sum();
            let v = p_undetected_mixed(template, 0, constant, p).unwrap();
            assert!(
                rel(v, brute) < 1e-12,
                "{template:?} c={constant:#x} p={p}: {v} vs {brute}"
            );
        }
    }
    // the random-data entry point enumerates the same way (the first
    // case's enumeration: 3 random bytes, constant 0)
    assert_eq!(cases[0], (&[None, None, None][..], 0));
    let a = random3;
    for p in [1e-3f64, 0.7, 1.0] {
        let brute: f64 = (1..=24)
            .map(|w| a[w] * p.powi(w as i32) * (1.0 - p).powi(24 - w as i32))
            .sum();
        assert!(rel(p_undetected(3, p).unwrap(), brute) < 1e-12);
    }
}

pub fn every_bit_flipped() {
    // BER 1: a valid even-length frame with no constant stays valid; an odd
    // length (the pad is not sent) or a pseudo-header constant never does.
    for bytes in [4u64, 100, 1500] {
        assert_eq!(p_undetected(bytes, 1.0).unwrap(), 1.0);
    }
    for bytes in [5u64, 101, 1501] {
        assert_eq!(p_undetected(bytes, 1.0).unwrap(), 0.0);
    }
    let mut seg: Vec<Option<u8>> = (0..20u8).map(|b| Some(b * 7)).collect();
    seg.extend(std::iter::repeat_n(None, 180));
    assert_eq!(p_undetected_mixed(&seg, 16, 0x0506, 1.0).unwrap(), 0.0);
    assert_eq!(p_undetected_mixed(&seg, 16, 0, 1.0).unwrap(), 1.0);
    // the given-payload method agrees
    assert_eq!(
        p_undetected_payload(&[0x12, 0x34, 0xED, 0xCB], 1.0).unwrap(),
        1.0
    );
    assert_eq!(p_undetected_payload(&[0x12, 0x34, 0xED], 1.0).unwrap(), 0.0);
}

pub fn the_certified_methods_agree_where_they_overlap() {
    // At moderate BER on long frames both the independent-field model with
    // its coupling bound and the uniform-received-word bound certify: two
    // independent computations (carry chain or spectrum against 1/M - (1-p)^n).
    for (bytes, p) in [(1500u64, 0.1), (1500, 0.3), (9000, 0.05), (400, 0.45)] {
        let l = Layout::random(bytes);
        let a = independent_field(&l, 0, p).unwrap();
        let b = 1.0 / MODULUS as f64 - f64::exp(8.0 * bytes as f64 * f64::ln_1p(-p));
        assert!(rel(a, b) < 1e-12, "{bytes} p={p}: {a} vs {b}");
        assert!(coupling_bound(&l, p) < 1e-13 * a);
    }
    // Above 1/2 the mirror (target tau at 1 - p) against the same 1/M.
    for (bytes, p, constant) in [(1500usize, 0.7, 0u16), (1501, 0.9, 0), (1500, 0.8, 0x0506)] {
        let mut seg = vec![None; bytes];
        seg[4] = Some(0x45);
        let l = Layout::new(&seg, 0, constant).unwrap();
        let q = 1.0 - p;
        let clean = f64::exp(8.0 * bytes as f64 * f64::ln_1p(-p));
        let tail = if l.tau == 0 {
            f64::exp(8.0 * bytes as f64 * f64::ln_1p(-q))
        } else {
            0.0
        };
        let a = independent_field(&l, l.tau, q).unwrap() + tail - clean;
        let b = 1.0 / MODULUS as f64 - clean;
        assert!(rel(a, b) < 1e-12, "{bytes} p={p}: {a} vs {b}");
    }
}

pub fn refusals_name_the_reason() {
    let e = p_undetected(12, 0.2).unwrap_err().to_string();
    assert!(e.contains("cannot certify") && e.contains("BER 0.2"), "{e}");
    assert!(p_undetected(2, 1e-3).is_err());
    assert!(p_undetected(1, 1e-3).is_err());
}

pub fn real_field_model_agrees_with_the_real_model_at_ethernet_length() {
    let a = p_undetected(1500, 1.5e-5).unwrap();
    let b = p_undetected_real_field(1500, 1.5e-5).unwrap();
    assert!(((b - a) / a).abs() < 1e-13, "{a} {b}");
}

pub fn directions_count_the_bits_of_big_endian_words() {
    let d = Directions::from_payload(&[0x80, 0x01]);
    assert_eq!((d.down[15], d.up[15], d.down[0], d.up[1]), (1, 0, 1, 1));
}

pub fn random_data_at_ber_0_and_underflow() {
    // BER 0: nothing flips; BER 1e-300: every escape has two flips, below
    // 1e-590, which rounds to 0 (a length that certifies elsewhere too)
    for bytes in [3u64, 8, 64, 1500] {
        assert_eq!(super::p_undetected(bytes, 0.0).unwrap(), 0.0, "{bytes}");
        assert_eq!(super::p_undetected(bytes, 1e-300).unwrap(), 0.0, "{bytes}");
    }
    // 1e-150: (n p)^2 is about 1e-294, not rounded away
    assert!(super::p_undetected(1500, 1e-150).unwrap() > 0.0);
}
