//! Every model against brute force on small segments (all corruptions
//! enumerated, the real TCP checksum recomputed), the uniform closed forms
//! against residue histograms, the file reader against the in-memory one.

use aliasing_core::bsc;
use aliasing_core::checksum::ones_complement_sum;
use aliasing_core::internet;
use aliasing_core::progress::Silent;
use aliasing_sim::__private::corruption::*;
use aliasing_sim::corruption::*;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use std::path::Path;

/// A TCP segment around `data`: a 20-byte header (checksum field at 16,
/// filled in) after an IPv4 pseudo-header; `passes` recomputes the check
/// the receiver makes.
struct Segment {
    pseudo: u16,
    header: [u8; 20],
}

impl Segment {
    fn new(data: &[u8]) -> Self {
        let mut ph = vec![10, 0, 0, 1, 10, 0, 0, 2, 0, 6];
        ph.extend_from_slice(&((20 + data.len()) as u16).to_be_bytes());
        let pseudo = ones_complement_sum(&ph, 0);
        let mut header = [0u8; 20];
        for (i, h) in header.iter_mut().enumerate() {
            *h = (i as u8).wrapping_mul(37).wrapping_add(5);
        }
        header[16] = 0;
        header[17] = 0;
        let s = ones_complement_sum(&header, pseudo);
        let s = ones_complement_sum(data, s);
        header[16..18].copy_from_slice(&(!s).to_be_bytes());
        let seg = Segment { pseudo, header };
        assert!(seg.passes(data));
        seg
    }

    fn passes(&self, data: &[u8]) -> bool {
        let s = ones_complement_sum(&self.header, self.pseudo);
        ones_complement_sum(data, s) == 0xFFFF
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    a == b || (a - b).abs() <= rel * a.abs().max(b.abs())
}

/// Small segments with words 0x0000 and 0xFFFF, odd lengths, text.
fn samples() -> Vec<Vec<u8>> {
    vec![
        vec![0, 0, 0xFF, 0xFF],
        vec![0, 0, 0, 0, 0],
        vec![0xFF, 0xFF, 0x12, 0x34, 0, 0],
        vec![0x80, 0x00, 0x7F, 0xFF, 0xFF],
        b"abcdefg".to_vec(),
        vec![0xFF; 8],
        vec![0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00],
    ]
}

/// Brute force `word`: every word, every replacement.
fn word_brute(data: &[u8]) -> f64 {
    let seg = Segment::new(data);
    let words = data.len().div_ceil(2);
    let mut sum = 0.0;
    for w in 0..words {
        let mut d = data.to_vec();
        let (mut pass, mut total) = (0u64, 0u64);
        if 2 * w + 1 < data.len() {
            let old = u16::from_be_bytes([data[2 * w], data[2 * w + 1]]);
            for v in 0..=u16::MAX {
                if v == old {
                    continue;
                }
                d[2 * w..2 * w + 2].copy_from_slice(&v.to_be_bytes());
                total += 1;
                pass += seg.passes(&d) as u64;
            }
        } else {
            for v in 0..=u8::MAX {
                if v == data[2 * w] {
                    continue;
                }
                d[2 * w] = v;
                total += 1;
                pass += seg.passes(&d) as u64;
            }
        }
        sum += pass as f64 / total as f64;
    }
    sum / words as f64
}

fn get_bit(d: &[u8], j: usize) -> u8 {
    (d[j / 8] >> (7 - j % 8)) & 1
}

fn set_bit(d: &mut [u8], j: usize, v: u8) {
    let m = 1u8 << (7 - j % 8);
    if v == 1 {
        d[j / 8] |= m
    } else {
        d[j / 8] &= !m
    }
}

/// Brute force `burst:B`: every start, every different value.
fn burst_brute(data: &[u8], b: usize) -> f64 {
    let seg = Segment::new(data);
    let nbits = 8 * data.len();
    let starts = nbits - b + 1;
    let mut sum = 0.0;
    for s in 0..starts {
        let old: u64 = (0..b).fold(0, |v, i| v << 1 | get_bit(data, s + i) as u64);
        let mut pass = 0u64;
        let mut d = data.to_vec();
        for v in 0..(1u64 << b) {
            if v == old {
                continue;
            }
            for i in 0..b {
                set_bit(&mut d, s + i, ((v >> (b - 1 - i)) & 1) as u8);
            }
            pass += seg.passes(&d) as u64;
        }
        sum += pass as f64 / ((1u64 << b) - 1) as f64;
    }
    sum / starts as f64
}

/// Brute force `splice:C` of `data` followed by `next`.
fn splice_brute(data: &[u8], next: &[u8], c: usize) -> f64 {
    let seg = Segment::new(data);
    let cells = data.len().div_ceil(c);
    let mut miss = 0;
    for k in 0..cells {
        let mut d = data.to_vec();
        let end = data.len().min(next.len());
        if k * c < end {
            d[k * c..end].copy_from_slice(&next[k * c..end]);
        }
        if d != data && seg.passes(&d) {
            miss += 1;
        }
    }
    miss as f64 / cells as f64
}

/// Brute force `bits:P`: every flip pattern, weighted, over those with a flip.
fn bits_brute(data: &[u8], p: f64) -> f64 {
    let seg = Segment::new(data);
    let n = 8 * data.len();
    let mut pud = 0.0;
    for e in 1u64..(1 << n) {
        let mut d = data.to_vec();
        for j in 0..n {
            if (e >> j) & 1 == 1 {
                d[j / 8] ^= 1 << (j % 8);
            }
        }
        if seg.passes(&d) {
            let w = e.count_ones() as i32;
            pud += p.powi(w) * (1.0 - p).powi(n as i32 - w);
        }
    }
    pud / (1.0 - (1.0 - p).powi(n as i32))
}

#[test]
fn word_matches_brute_force() {
    for d in samples() {
        let got = segment(&Model::Word, &d, &d).unwrap().unwrap();
        let want = word_brute(&d);
        assert!(close(got, want, 1e-14), "{d:?}: {got} vs {want}");
    }
}

#[test]
fn burst_matches_brute_force() {
    for d in samples().into_iter().filter(|d| d.len() <= 5) {
        for b in [1, 7, 15, 16] {
            let got = segment(&Model::Burst { bits: b as u32 }, &d, &d)
                .unwrap()
                .unwrap();
            let want = burst_brute(&d, b);
            assert!(close(got, want, 1e-13), "{d:?} B={b}: {got} vs {want}");
        }
    }
    // longer bursts on segments with many residues near t = 2^(B mod 16)
    for (d, b) in [
        (&[0xFF, 0xFF, 0x00, 0x03][..], 17),
        (&[0x00, 0x00, 0xFF], 17),
        (&[0xFF, 0xFF, 0x00], 18),
    ] {
        let got = segment(&Model::Burst { bits: b }, d, d).unwrap().unwrap();
        let want = burst_brute(d, b as usize);
        assert!(close(got, want, 1e-13), "{d:?} B={b}: {got} vs {want}");
    }
    // too long for the segment: not hit
    let d = [1u8, 2, 3, 4];
    assert_eq!(segment(&Model::Burst { bits: 33 }, &d, &d).unwrap(), None);
}

#[test]
fn splice_matches_brute_force() {
    let s = samples();
    for (i, d) in s.iter().enumerate() {
        for next in [&s[(i + 1) % s.len()], &s[(i + 3) % s.len()], d] {
            for c in 1..=d.len() {
                let got = segment(&Model::Splice { cell: c as u64 }, d, next)
                    .unwrap()
                    .unwrap();
                let want = splice_brute(d, next, c);
                assert!(
                    close(got, want, 1e-15),
                    "{d:?} {next:?} C={c}: {got} vs {want}"
                );
            }
        }
    }
    // equal tails that differ: a swap of two words keeps the sum
    let a = [1, 2, 3, 4, 5, 6];
    let b = [1, 2, 5, 6, 3, 4];
    assert_eq!(
        segment(&Model::Splice { cell: 2 }, &a, &b)
            .unwrap()
            .unwrap(),
        2.0 / 3.0
    );
}

#[test]
fn bits_match_brute_force() {
    for d in [vec![0u8, 0], vec![0xFF, 0x00], vec![0x5A, 0xC3], vec![0x12]] {
        for p in [0.5, 0.1, 1e-3] {
            let got = segment(&Model::Bits { p }, &d, &d).unwrap().unwrap();
            let want = bits_brute(&d, p);
            assert!(close(got, want, 1e-11), "{d:?} p={p}: {got} vs {want}");
        }
    }
    // edges: no flip ever; every bit flips
    let d = [0u8, 0, 0xFF, 0xFF];
    assert_eq!(segment(&Model::Bits { p: 0.0 }, &d, &d).unwrap(), Some(0.0));
    let u = segment(&Model::Bits { p: 1.0 }, &d, &d).unwrap().unwrap();
    assert_eq!(u, 1.0); // 0x0000 <-> 0xFFFF twice: the sum is unchanged
}

#[test]
fn uniform_word_and_burst16_are_the_mean_over_all_words() {
    let mut sum = 0u64;
    for v in 0..=u16::MAX {
        sum += word_count(&v.to_be_bytes());
    }
    let mean = ratio(sum as u128, 65536) / 65535.0;
    assert_eq!(uniform(&Model::Word, 2).unwrap().p_miss, mean);
    assert_eq!(uniform(&Model::Word, 1460).unwrap().p_miss, mean);
    assert_eq!(uniform(&Model::Burst { bits: 16 }, 2).unwrap().p_miss, mean);
    // odd length: the half word never misses
    let w3 = uniform(&Model::Word, 3).unwrap().p_miss;
    assert!(close(w3, mean / 2.0, 1e-15));
    assert_eq!(uniform(&Model::Word, 1).unwrap().p_miss, 0.0);
}

#[test]
fn uniform_burst_matches_residue_histograms() {
    for b in [15u32, 16, 17, 18, 19, 20, 24] {
        // P(V' == V mod M, V' != V) for independent uniform V and V' != V
        let mut h = vec![0u64; 65535];
        for v in 0..(1u64 << b) {
            h[(v % 65535) as usize] += 1;
        }
        let pairs: u128 = h
            .iter()
            .map(|&c| c as u128 * c.saturating_sub(1) as u128)
            .sum();
        let n = 1u128 << b;
        let want = ratio(pairs, n * (n - 1));
        let got = uniform(&Model::Burst { bits: b }, 8).unwrap().p_miss;
        assert!(close(got, want, 1e-14), "B={b}: {got} vs {want}");
    }
    // long bursts tend to 1/65535 from below, never above
    for b in [64u32, 99, 100, 101, 1000, 11680] {
        let p = uniform(&Model::Burst { bits: b }, 1460).unwrap().p_miss;
        assert!(
            p > 0.0 && p <= 1.0 / 65535.0 && close(p, 1.0 / 65535.0, 1e-4),
            "{b} {p}"
        );
    }
}

/// `P(equal sums, different bytes)` of an `m`-byte region starting at an
/// odd offset (or not), by convolving the bytes' weighted values modulo M.
fn splice_region_histogram(m: usize, odd: bool) -> f64 {
    let mut h = vec![0u128; 65535];
    h[0] = 1;
    for i in 0..m {
        let w = if (i + odd as usize).is_multiple_of(2) {
            256
        } else {
            1
        };
        let mut g = vec![0u128; 65535];
        for (r, &c) in h.iter().enumerate() {
            if c == 0 {
                continue;
            }
            for v in 0..256u64 {
                g[((r as u64 + v * w) % 65535) as usize] += c;
            }
        }
        h = g;
    }
    let eq: u128 = h.iter().map(|&c| c * c).sum();
    let all = 1u128 << (16 * m);
    ratio(eq - (1u128 << (8 * m)), all)
}

#[test]
fn uniform_splice_regions_match_convolution() {
    for m in 1..=5 {
        for odd in [false, true] {
            let got = splice_uniform_region(m as u64, odd);
            let want = splice_region_histogram(m, odd);
            assert!(close(got, want, 1e-14), "m={m} odd={odd}: {got} vs {want}");
        }
    }
    // long regions: 1/65535 to within 2^-32
    let p = splice_uniform_region(1460, false);
    assert!(close(p, 1.0 / 65535.0, 1e-9) && p > 0.0);
    // the segment's value is the mean over its boundaries
    let s = uniform(&Model::Splice { cell: 3 }, 5).unwrap().p_miss;
    let want = (splice_uniform_region(5, false) + splice_uniform_region(2, true)) / 2.0;
    assert_eq!(s, want);
}

#[test]
fn uniform_bits_is_the_data_only_carry_chain() {
    let u = uniform(&Model::Bits { p: 1e-5 }, 1460).unwrap();
    let pud = aliasing_core::__private::internet::p_undetected_coins(1460, 1e-5).unwrap();
    assert_eq!(u.p_undetected, Some(pud));
    assert!(close(u.p_miss, pud / bsc::p_error(8 * 1460, 1e-5), 1e-15));
    assert_eq!(uniform(&Model::Bits { p: 0.0 }, 1460).unwrap().p_miss, 0.0);
}

#[test]
fn all_zero_file_word_is_one_in_65535_exactly() {
    let zeros = vec![0u8; 10 * 1460];
    let r = given(&zeros, 1460, &[Model::Word, Model::Splice { cell: 48 }]).unwrap();
    assert_eq!(r[0].p_miss, 1.0 / 65535.0);
    assert_eq!(r[0].segments, 10);
    assert_eq!(r[1].p_miss, 0.0); // splicing zeros with zeros changes nothing
    // with a partial last segment of odd length, its half word cannot miss
    let zeros = vec![0u8; 2 * 1460 + 3];
    let r = given(&zeros, 1460, &[Model::Word]).unwrap();
    let want = (2.0 / 65535.0 + (1.0 / 2.0) / 65535.0) / 3.0;
    assert!(close(r[0].p_miss, want, 1e-15));
}

fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

/// Random data with runs of 0x00 and 0xFF words.
fn mixed_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut v = random_bytes(n, seed);
    for (i, b) in v.iter_mut().enumerate() {
        match (i / 7) % 5 {
            0 => *b = 0,
            1 => *b = 0xFF,
            _ => {}
        }
    }
    v
}

#[test]
fn word_is_the_count_formula_for_any_data() {
    for (n, seg) in [(10_000usize, 1460u64), (4099, 1000), (777, 64), (5, 2)] {
        let d = mixed_bytes(n, n as u64);
        let got = given(&d, seg, &[Model::Word]).unwrap()[0].p_miss;
        let mut sum = 0.0;
        let segs: Vec<&[u8]> = d.chunks(seg as usize).collect();
        for s in &segs {
            let zeros = s
                .chunks_exact(2)
                .filter(|w| w == &[0, 0] || w == &[0xFF, 0xFF])
                .count();
            sum += zeros as f64 / (s.len().div_ceil(2) as f64 * 65535.0);
        }
        assert!(close(got, sum / segs.len() as f64, 1e-14), "{n} {seg}");
    }
}

/// The mean over segments of [`segment`], the last spliced with the first.
fn mean_of_segments(d: &[u8], seg: usize, m: &Model) -> f64 {
    let segs: Vec<&[u8]> = d.chunks(seg).collect();
    let mut sum = 0.0;
    let mut n = 0;
    for (i, s) in segs.iter().enumerate() {
        let next = segs[(i + 1) % segs.len()];
        if let Some(v) = segment(m, s, next).unwrap() {
            sum += v;
            n += 1;
        }
    }
    sum / n as f64
}

fn models() -> Vec<Model> {
    vec![
        Model::Word,
        Model::Burst { bits: 16 },
        Model::Burst { bits: 20 },
        Model::Splice { cell: 5 },
        Model::Splice { cell: 48 },
        Model::Bits { p: 1e-4 },
    ]
}

#[test]
fn given_data_is_the_mean_over_segments() {
    let mut d = mixed_bytes(3 * 100 + 37, 5);
    d.extend(std::iter::repeat_n(0, 100)); // identical zero segments spliced
    let r = given(&d, 100, &models()).unwrap();
    for (m, r) in models().iter().zip(&r) {
        let want = mean_of_segments(&d, 100, m);
        assert!(close(r.p_miss, want, 1e-13), "{m}: {} vs {want}", r.p_miss);
        assert_eq!(r.segments, 5);
    }
}

/// `got` and `want` model by model: the same values, digit for digit, and
/// the same segment counts (`at` says where, on failure).
fn same_misses(got: &[Miss], want: &[Miss], at: &str) {
    assert_eq!(got.len(), want.len(), "{at}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.p_miss, w.p_miss, "{} {at}", g.model);
        assert_eq!(g.p_undetected, w.p_undetected, "{} {at}", g.model);
        assert_eq!(g.segments, w.segments, "{} {at}", g.model);
    }
}

#[test]
fn file_equals_memory_for_any_chunk_and_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.bin");
    let d = mixed_bytes(50 * 64 + 11, 9);
    std::fs::write(&path, &d).unwrap();
    let want = given(&d, 64, &models()).unwrap();
    for chunk in [1, 64, 3 * 64, 1000, 1 << 20] {
        for threads in [1, 2, 3] {
            let got = aliasing_sim::shard::pool(threads)
                .unwrap()
                .install(|| file_chunked(&path, 64, &models(), &Silent, chunk))
                .unwrap();
            same_misses(&got, &want, &format!("chunk {chunk} threads {threads}"));
        }
    }
    // exactly whole segments, and a one-segment file
    for len in [64 * 8, 30] {
        std::fs::write(&path, &d[..len]).unwrap();
        let got = file_chunked(&path, 64, &models()[..4], &Silent, 128).unwrap();
        let want = given(&d[..len], 64, &models()[..4]).unwrap();
        same_misses(&got, &want, &format!("{len} bytes"));
    }
}

#[test]
fn several_sizes_in_one_pass_are_each_size_on_its_own() {
    // sizes that do not divide each other, a size above the chunk, and a
    // file that is not a whole number of segments of any
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.bin");
    let d = mixed_bytes(40 * 64 + 23, 4);
    std::fs::write(&path, &d).unwrap();
    let sizes = [64u64, 50, 250, 64];
    for chunk in [1, 100, 3 * 64, 1 << 20] {
        for threads in [1, 2] {
            let got = aliasing_sim::shard::pool(threads)
                .unwrap()
                .install(|| files_chunked(&path, &sizes, &models(), &Silent, chunk))
                .unwrap();
            assert_eq!(got.len(), sizes.len());
            for (&seg, got) in sizes.iter().zip(&got) {
                let want = given(&d, seg, &models()).unwrap();
                same_misses(
                    got,
                    &want,
                    &format!("size {seg} chunk {chunk} threads {threads}"),
                );
            }
        }
    }
    // one progress stage over the file, read once
    let rec = aliasing_core::__private::progress::Record::default();
    files_chunked(&path, &sizes, &[Model::Word], &rec, 100).unwrap();
    assert!(rec.complete(), "{:?}", rec.stages());
    assert_eq!(rec.stages().len(), 1);
    assert_eq!(rec.stages()[0].total, d.len() as u64);
}

#[test]
fn progress_adds_up_to_the_file_length() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.bin");
    std::fs::write(&path, vec![7u8; 1000]).unwrap();
    let rec = aliasing_core::__private::progress::Record::default();
    file_chunked(&path, 30, &[Model::Word], &rec, 90).unwrap();
    assert!(rec.complete(), "{:?}", rec.stages());
    assert_eq!(rec.stages()[0].total, 1000);
}

#[test]
fn parsing() {
    let c: Corruption = "word:1e-6".parse().unwrap();
    assert_eq!((c.model, c.rate), (Model::Word, Some(1e-6)));
    let c: Corruption = "bits:1e-7".parse().unwrap();
    assert_eq!((c.model, c.rate), (Model::Bits { p: 1e-7 }, None));
    let c: Corruption = "bits:1e-7:0.5".parse().unwrap();
    assert_eq!((c.model, c.rate), (Model::Bits { p: 1e-7 }, Some(0.5)));
    let c: Corruption = "burst:32:1e-6".parse().unwrap();
    assert_eq!(c.model, Model::Burst { bits: 32 });
    let c: Corruption = "splice:48:1".parse().unwrap();
    assert_eq!((c.model, c.rate), (Model::Splice { cell: 48 }, Some(1.0)));
    assert_eq!(
        "splice:48".parse::<Model>().unwrap(),
        Model::Splice { cell: 48 }
    );
    // round trip through Display
    for s in ["word:1e-6", "bits:1e-7", "burst:17:2e-3", "splice:48:1e0"] {
        let c: Corruption = s.parse().unwrap();
        assert_eq!(c.to_string().parse::<Corruption>().unwrap(), c);
    }
}

#[test]
fn bad_input_is_refused_in_one_line() {
    for s in [
        "word",
        "word:2",
        "word:-1e-6",
        "word:nan",
        "word:x",
        "bits:1.5",
        "bits:0.1:7",
        "burst:0:1e-6",
        "burst:32",
        "burst:x:1",
        "splice:0:1e-6",
        "splice:48",
        "crc:1e-6",
        "word:1e-6:3",
        "",
        "burst:99999999999:1",
    ] {
        let e = s.parse::<Corruption>().unwrap_err().to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{s}: {e}");
    }
    assert!(Model::Burst { bits: 8 * 1460 + 1 }.check(1460).is_err());
    assert!(Model::Burst { bits: 8 * 1460 }.check(1460).is_ok());
    assert!(Model::Splice { cell: 1461 }.check(1460).is_err());
    assert!(Model::Word.check(0).is_err());
    assert!(uniform(&Model::Splice { cell: 100 }, 50).is_err());
    assert!(given(&[], 10, &[Model::Word]).is_err());
    assert!(given(&[1, 2], 10, &[]).is_err());
    assert!(given(&[1, 2], MAX_SEGMENT_BYTES + 1, &[Model::Word]).is_err());
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    for p in [
        empty.as_path(),
        dir.path(),
        Path::new("/dev/zero"),
        Path::new("/nonexistent/file"),
    ] {
        let e = file_silent(p, 1460, &[Model::Word])
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\n'), "{e}");
    }
    // the segment checks come before the file is opened
    let e = file_silent(Path::new("/dev/zero"), 10, &[Model::Splice { cell: 11 }]).unwrap_err();
    assert!(e.to_string().contains("larger than a segment"), "{e}");
}

#[test]
fn points_multiply_out() {
    let c: Corruption = "word:1e-6".parse().unwrap();
    let m = uniform(&c.model, 1460).unwrap();
    let pt = c.point(&m, 1000);
    assert_eq!(pt.escapes, 1000.0 * 1e-6 * m.p_miss);
    let v = serde_json::to_value(&pt).unwrap();
    for k in ["model", "rate", "p_miss", "escapes", "method"] {
        assert!(v.get(k).is_some(), "{k}");
    }
    let c: Corruption = "bits:1e-7".parse().unwrap();
    let m = uniform(&c.model, 1460).unwrap();
    let pt = c.point(&m, 10);
    assert_eq!(pt.escapes, 10.0 * m.p_undetected.unwrap());
    assert_eq!(pt.rate, m.p_hit.unwrap());
}

#[test]
fn bit_column_counts() {
    for n in 0..70 {
        let d = random_bytes(n, n as u64);
        let mut ones = [0u32; 16];
        for (i, &b) in d.iter().enumerate() {
            for bit in 0..8 {
                // column 15 - (8 (i % 2) + (7 - bit)) = bit + 8 for even i
                ones[bit + if i % 2 == 0 { 8 } else { 0 }] += ((b >> bit) & 1) as u32;
            }
        }
        assert_eq!(bits_key(&d), (ones, n), "{n}");
    }
}

/// Brute force: over every start and every non-zero `b`-bit error pattern
/// of an `n`-byte message, the CRC's misses per start alignment.
fn crc_burst_brute(spec: &str, n: usize, b: usize) -> Vec<u64> {
    use aliasing_core::check::Check;
    let c = aliasing_core::catalogue::resolve(spec).unwrap();
    let data: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(91) ^ 0x5c).collect();
    let base = c.compute(&data);
    let mut misses = vec![0u64; 8];
    for (a, slot) in misses.iter_mut().enumerate() {
        // one start per alignment, in the middle
        let s = 8 + a;
        assert!(s + b <= 8 * n);
        let mut m = 0;
        for e in 1u64..(1 << b) {
            let mut d = data.clone();
            for t in 0..b {
                if (e >> t) & 1 == 1 {
                    let j = s + t;
                    d[j / 8] ^= 1 << (7 - j % 8);
                }
            }
            m += (c.compute(&d) == base) as u64;
        }
        *slot = m;
    }
    misses
}

#[test]
fn digest_burst_rank_matches_brute_force() {
    // reflected and not, bursts shorter and longer than the CRC
    for spec in ["CRC-8/SMBUS", "CRC-8/ROHC", "CRC-16/ARC"] {
        let d = Digest::resolve(spec).unwrap();
        for b in [4usize, 8, 9, 12, 15, 17] {
            let brute = crc_burst_brute(spec, 6, b);
            for (a, &m) in brute.iter().enumerate() {
                let k = b as u32 - d.burst_rank(a, b);
                assert_eq!(m, (1u64 << k) - 1, "{spec} B={b} a={a}");
            }
        }
    }
}

#[test]
fn digest_layers() {
    let crc = Digest::resolve("crc32c").unwrap();
    assert_eq!(crc.width, 32);
    assert!(Digest::resolve("internet").is_err());
    let seg = 1460;
    for m in models() {
        let tcp = uniform(&m, seg).unwrap();
        let both = with_digest(&m, &tcp, &crc, seg, true).unwrap();
        assert!(both.p_miss <= tcp.p_miss, "{m}");
        assert!(both.method.starts_with("exact") || both.method.starts_with("bound"));
    }
    // word and short bursts: exact 0; a burst within 32 bits at some
    // alignment only is not certified 0
    for m in [Model::Word, Model::Burst { bits: 18 }] {
        let tcp = uniform(&m, seg).unwrap();
        let both = with_digest(&m, &tcp, &crc, seg, true).unwrap();
        assert_eq!(both.p_miss, 0.0, "{m}");
        assert!(both.method.starts_with("exact"));
    }
    let b = Model::Burst { bits: 40 };
    let both = with_digest(&b, &uniform(&b, seg).unwrap(), &crc, seg, true).unwrap();
    assert!(both.p_miss > 0.0 && both.p_miss < 1e-9, "{}", both.p_miss);
    assert_eq!(
        crc.burst_miss(46),
        ((1u64 << 14) - 1) as f64 / ((1u64 << 46) - 1) as f64
    );
}

#[test]
fn fast_bit_flips_agree_with_the_core_method() {
    let mut used = 0;
    for (i, len) in [1usize, 2, 3, 17, 64, 255, 1460, 8960]
        .into_iter()
        .enumerate()
    {
        for data in [random_bytes(len, i as u64), mixed_bytes(len, 40 + i as u64)] {
            for p in [1e-9, 1e-7, 1e-5, 1e-3, 0.1] {
                let core = internet::p_undetected_payload(&data, p).unwrap();
                if let Some(fast) = bits_fast(&bits_key(&data), p) {
                    used += 1;
                    assert!(close(fast, core, 2e-13), "{len} {p}: {fast} vs {core}");
                }
            }
        }
    }
    // the fast chain must serve the low rates it is for
    assert!(used >= 40, "{used}");
    // where it cannot certify its cut it declines (all zeros: 16 flips needed)
    assert_eq!(bits_fast(&bits_key(&[0u8; 1460]), 1e-7), None);
}

/// Monte Carlo on real segments: flip the bits of a 12-byte text segment
/// (a real TCP segment around it, the checksum recomputed by the receiver),
/// keep the frames with a flip, and count the passes; the exact value must
/// lie in the 1 - 1e-6 Clopper-Pearson interval.
#[test]
fn bits_over_text_match_real_segments() {
    let data = b"The quick br".to_vec();
    let p = 0.01;
    let exact = segment(&Model::Bits { p }, &data, &data).unwrap().unwrap();
    let seg = Segment::new(&data);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let threshold = (p * 2f64.powi(32)) as u64;
    let (mut frames, mut passes) = (0u64, 0u64);
    while frames < 300_000 {
        let mut d = data.clone();
        let mut flipped = false;
        for j in 0..8 * d.len() {
            if rng.next_u64() >> 32 < threshold {
                d[j / 8] ^= 1 << (j % 8);
                flipped = true;
            }
        }
        if flipped {
            frames += 1;
            passes += seg.passes(&d) as u64;
        }
    }
    // the threshold makes the flip probability threshold / 2^32, not p
    let (lo, hi) = aliasing_sim::interval::clopper_pearson(passes, frames, 1.0 - 1e-6);
    let q = threshold as f64 / 2f64.powi(32);
    let exact_q = segment(&Model::Bits { p: q }, &data, &data)
        .unwrap()
        .unwrap();
    assert!((exact_q / exact - 1.0).abs() < 1e-6);
    assert!(
        lo <= exact_q && exact_q <= hi,
        "{exact_q} not in [{lo}, {hi}] ({passes}/{frames})"
    );
    assert!(passes > 100, "{passes} {exact}");
}

/// The carry chain of `bits_fast` one start carry at a time (the layout
/// `carry_chain` replaced): the reference its lanes must equal bit for bit.
fn carry_chain_per_start(
    w: usize,
    fi: i64,
    band: &[[[f64; 9]; 17]; 16],
    flip: &[[f64; 17]; 16],
    clean: &[f64; 16],
    widths: &[usize; 17],
) -> f64 {
    let lo = |c: usize| -> usize { c.div_ceil(2) };
    let mut total = 0.0;
    for t in 0..w {
        let mut x0 = 1.0f64;
        let mut c0 = Some(t);
        let mut a1 = [0.0f64; 17];
        for k in 0..16 {
            let mut b1 = [0.0f64; 17];
            for c in 0..w {
                let x = a1[c];
                if x == 0.0 {
                    continue;
                }
                let l = lo(c);
                let row = &band[k][c];
                for j in 0..widths[c] {
                    b1[l + j] += x * row[j];
                }
            }
            if let Some(c) = c0 {
                let l = lo(c);
                for j in 0..widths[c] {
                    let d = 2 * ((l + j) as i64 - fi) - (c as i64 - fi);
                    b1[l + j] += x0 * flip[k][(d + fi) as usize];
                }
                let cv = c as i64 - fi;
                if cv.rem_euclid(2) == 0 {
                    x0 *= clean[k];
                    c0 = Some((cv / 2 + fi) as usize);
                } else {
                    c0 = None;
                }
            }
            a1 = b1;
        }
        total += a1[t];
    }
    total
}

/// The vectorised carry chain and the fixed-width one of `bits_fast` give
/// the digits of the per-start one, bit for bit, over random, text-like, sparse and nearly constant segments at the
/// rates and lengths of real transfers.
#[test]
fn carry_chain_lanes_equal_the_per_start_chain() {
    let mut compared = 0;
    for (i, len) in [1usize, 2, 3, 17, 255, 1460, 1461, 8960]
        .into_iter()
        .enumerate()
    {
        let mut sparse = vec![0u8; len];
        for (j, b) in sparse.iter_mut().enumerate() {
            if j % 7 == 3 {
                *b = (j * 31) as u8;
            }
        }
        let mut ones = vec![0xFFu8; len];
        ones[len / 2] = 0x5A;
        let text: Vec<u8> = b"The quick brown fox jumps over the lazy dog. "
            .iter()
            .cycle()
            .take(len)
            .copied()
            .collect();
        for data in [
            random_bytes(len, 90 + i as u64),
            mixed_bytes(len, 95 + i as u64),
            text,
            sparse,
            ones,
            vec![0u8; len],
            vec![0xFFu8; len],
        ] {
            for p in [
                1e-300, 1e-12, 1e-9, 1e-7, 3e-6, 1e-5, 1e-3, 0.1, 0.3, 0.49, 0.5,
            ] {
                let key = bits_key(&data);
                let lanes = bits_fast_with(&key, p, carry_chain);
                let one = bits_fast_with(&key, p, carry_chain_per_start);
                assert_eq!(
                    lanes.map(f64::to_bits),
                    one.map(f64::to_bits),
                    "{len} {p}: {lanes:?} vs {one:?}"
                );
                // the fixed-width chain that `bits_fast` runs, vector and
                // portable
                for fixed in [bits_fast(&key, p), bits_fast_portable(&key, p)] {
                    assert_eq!(
                        fixed.map(f64::to_bits),
                        one.map(f64::to_bits),
                        "{len} {p}: {fixed:?} vs {one:?}"
                    );
                }
                #[cfg(target_arch = "x86_64")]
                if let Some(fixed) = bits_fast_avx2(&key, p) {
                    assert_eq!(
                        fixed.map(f64::to_bits),
                        one.map(f64::to_bits),
                        "avx2 {len} {p}: {fixed:?} vs {one:?}"
                    );
                }
                if p >= 0.5 {
                    assert_eq!(one, None, "{len} {p}");
                }
                compared += lanes.is_some() as u32;
            }
        }
    }
    assert!(compared >= 100, "{compared}");
}

/// The column counts of ones against a count bit by bit, on lengths around
/// the fold of the byte-lane counters (255 chunks of 32 bytes) and odd ones,
/// on the vector path and the portable one.
#[test]
fn bits_key_counts_every_column() {
    for (i, len) in [
        0usize, 1, 15, 16, 17, 31, 32, 33, 2031, 2032, 2033, 2047, 4065, 8159, 8160, 8161, 8191,
        8960, 9001, 16_321, 16_353,
    ]
    .into_iter()
    .enumerate()
    {
        for data in [
            random_bytes(len, 300 + i as u64),
            mixed_bytes(len, 320 + i as u64),
            vec![0xFF; len],
        ] {
            let mut want = [0u32; 16];
            for (j, &byte) in data.iter().enumerate() {
                for bit in 0..8 {
                    // byte 2i is the high byte of its word (columns 8..15)
                    want[bit + if j % 2 == 0 { 8 } else { 0 }] += ((byte >> bit) & 1) as u32;
                }
            }
            assert_eq!(bits_key(&data), (want, len), "{len}");
            assert_eq!(bits_key_body(&data), (want, len), "{len}");
        }
    }
}

/// The word count against a count word by word, with 0x0000 and 0xFFFF
/// words (and near misses: 0x00FF, 0xFF00, 0x0001, 0x8000, 0x7FFF) planted
/// at every offset class.
#[test]
fn word_count_is_the_word_by_word_count() {
    for (i, len) in [
        0usize, 1, 2, 7, 8, 9, 31, 32, 33, 39, 40, 64, 1460, 1461, 65_535, 131_073, 262_111,
        262_112, 262_113, 262_145,
    ]
    .into_iter()
    .enumerate()
    {
        let mut data = random_bytes(len, 400 + i as u64);
        let plant: [[u8; 2]; 7] = [
            [0, 0],
            [0xFF, 0xFF],
            [0, 0xFF],
            [0xFF, 0],
            [0, 1],
            [0x80, 0],
            [0x7F, 0xFF],
        ];
        for (j, w) in data.chunks_exact_mut(2).enumerate() {
            if j % 3 != 2 {
                w.copy_from_slice(&plant[(j * 5 + i) % 7]);
            }
        }
        let want = data
            .chunks_exact(2)
            .filter(|w| u16::from_be_bytes([w[0], w[1]]) % 0xFFFF == 0)
            .count() as u64;
        assert_eq!(word_count(&data), want, "{len}");
        assert_eq!(word_count_body(&data), want, "{len}");
        assert_eq!(word_count(&vec![0u8; len]), (len / 2) as u64);
        assert_eq!(word_count(&vec![0xFFu8; len]), (len / 2) as u64);
    }
}

/// Two `bits:P` models in one pass over the data (the per-thread cache of
/// values shared by the models): each gets the value it gets alone (before
/// the cache was keyed by `P` too, the second got the first's).
#[test]
fn two_bit_rates_in_one_pass_are_each_their_own() {
    let mut data = random_bytes(40 * 1460, 611);
    // repeated segments, so the cache is used
    let zeros = vec![0u8; 5 * 1460];
    data.extend_from_slice(&zeros);
    data.extend_from_slice(&random_bytes(1460, 612)[..700]);
    let (a, b) = (Model::Bits { p: 1e-7 }, Model::Bits { p: 1e-5 });
    let both = given(&data, 1460, &[a, b]).unwrap();
    let alone = [
        given(&data, 1460, &[a]).unwrap().remove(0),
        given(&data, 1460, &[b]).unwrap().remove(0),
    ];
    for (x, y) in both.iter().zip(&alone) {
        assert_eq!(x.p_miss.to_bits(), y.p_miss.to_bits(), "{x:?} {y:?}");
        assert_eq!(x.p_undetected, y.p_undetected);
        assert_eq!(x.p_hit, y.p_hit);
    }
    assert!(both[0].p_miss < both[1].p_miss, "{both:?}");
}

/// The cell sums of the splice model on the vector path and the portable
/// one against a byte-by-byte weighted sum, for even and odd cell sizes.
#[test]
fn cell_sums_are_the_weighted_byte_sums() {
    for (i, len) in [1usize, 2, 47, 48, 49, 1460, 1461, 8960]
        .into_iter()
        .enumerate()
    {
        let data = random_bytes(len, 700 + i as u64);
        for cell in [1usize, 2, 3, 47, 48, 1460] {
            let n = len.div_ceil(cell);
            let want: Vec<u64> = data
                .chunks(cell)
                .enumerate()
                .map(|(k, c)| {
                    c.iter()
                        .enumerate()
                        .map(|(j, &b)| b as u64 * if (k * cell + j) % 2 == 0 { 256 } else { 1 })
                        .sum()
                })
                .collect();
            let (mut fast, mut body) = (vec![0u64; n], vec![0u64; n]);
            cell_sums(&data, cell, &mut fast);
            cell_sums_body(&data, cell, &mut body);
            assert_eq!(fast, want, "{len} {cell}");
            assert_eq!(body, want, "{len} {cell}");
        }
    }
}
