use super::*;

/// A_w(n) for all w by listing the 2^(n-r) codewords.
fn brute(g: &Generator, n: u64) -> Vec<u128> {
    let k = n - g.width() as u64;
    let mut a = vec![0u128; n as usize + 1];
    let mut c = 0u128;
    a[0] = 1;
    for i in 1u64..(1u64 << k) {
        c ^= g.full() << i.trailing_zeros();
        a[c.count_ones() as usize] += 1;
    }
    a
}

/// HD profile straight from the definition by listing codewords.
fn brute_profile(g: &Generator, max_k: u64) -> Vec<u64> {
    let r = g.width() as u64;
    let d: Vec<u32> = (1..=max_k)
        .map(|k| {
            let a = brute(g, k + r);
            (1..a.len()).find(|&w| a[w] > 0).unwrap() as u32
        })
        .collect();
    let wt = g.full().count_ones();
    (3..=wt)
        .map(|h| (1..=max_k).rev().find(|&k| d[k as usize - 1] >= h).unwrap())
        .collect()
}

pub fn hd_at_matches_brute_force() {
    // Independent check: the minimum weight of m x^r + (m x^r mod g)
    // over every non-zero data word m of k bits.
    for g in [
        Generator::new(8, 0x07).unwrap(),
        Generator::from_koopman(8, 0x9C).unwrap(),
        Generator::new(5, 0x05).unwrap(),
    ] {
        let p = hd_profile(&g, None).unwrap();
        let r = g.width();
        for k in 1..=14u32 {
            let mut min = u32::MAX;
            for m in 1u128..(1u128 << k) {
                let shifted = m << r;
                let (_, rem) = gf2::divmod(shifted, g.full());
                min = min.min((shifted ^ rem).count_ones());
            }
            assert_eq!(p.hd_at(k as u64).unwrap(), min, "{g} at {k} data bits");
        }
    }
}

pub fn presence_filter_has_no_false_negatives_and_few_false_positives() {
    // xorshift64 keys, with the table's empty marker and 0 among them
    let mut x = 0x1234_5678_9ABC_DEF0u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // the empty-slot marker and 0 first, so that every growth has to
    // keep their bits
    let mut keys = vec![u64::MAX, 0];
    keys.extend((0..10_000).map(|_| next()));
    // from 32 slots, so the table and its filter grow 10 times
    let mut t = Table::with_filter(1);
    for (i, &k) in keys.iter().enumerate() {
        t.insert(k, i as u64);
    }
    let f = t.filter.as_ref().unwrap();
    assert!(keys.iter().all(|&k| f.may_hold(k)));
    for (i, &k) in keys.iter().enumerate() {
        assert_eq!(t.get(k), Some(i as u64));
    }
    // 10,002 keys in 2^15 slots, 2^20 filter bits: about 1% of other
    // keys find a set bit
    let others = 100_000;
    let absent: Vec<u64> = (0..others).map(|_| next()).collect();
    let fp = absent.iter().filter(|&&k| f.may_hold(k)).count();
    assert!(fp < others / 50, "{fp} false positives in {others}");
    assert!(fp > 0, "a filter this full must let some through");
    assert!(absent.iter().all(|&k| t.get(k).is_none()));
    let empty = Table::with_filter(1);
    assert!(empty.get(0).is_none() && empty.get(u64::MAX).is_none());
}

pub fn shapes_match_counts_and_brute_force() {
    for (spec, nmax) in [
        ("0x107", 26u64),
        ("0x11021", 60),
        ("0x18005", 60),
        ("0x1F", 24),
        ("0x11D", 60),
    ] {
        let g: Generator = spec.parse().unwrap();
        let period = gf2::period(&g) as u64;
        let nmax = nmax.min(period);
        for w in 2..=5u32 {
            let sh = shapes(&g, w, nmax).unwrap();
            let counts = weight_counts(&g, w, nmax + 1, &crate::ctx::Ctx::default()).unwrap();
            for n in 1..=nmax {
                let a: u128 = sh
                    .iter()
                    .filter(|s| (*s.last().unwrap() as u64) < n)
                    .map(|s| (n - *s.last().unwrap() as u64) as u128)
                    .sum();
                assert_eq!(a, counts[n as usize], "{spec} w={w} n={n}");
            }
            for s in &sh {
                assert_eq!(s.len(), w as usize);
                assert_eq!(s[0], 0);
                assert!(s.windows(2).all(|p| p[0] < p[1]));
                let x = s.iter().fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
                assert_eq!(x, 0, "{spec} {s:?}");
            }
        }
    }
}

pub fn weight4_shapes_by_zech_logarithms_are_the_probes_shapes() {
    // primitive generators (the Zech search) at lengths with shapes,
    // against the hash probes, part by part and in order
    for (spec, n) in [
        ("0x11D", 255u64),
        ("0x1000000AF", 3000),
        ("0x104C11DB7", 9000),
        ("0x104C11DB7", 20000),
    ] {
        let g: Generator = spec.parse().unwrap();
        assert!(zech::Logs::of(&g).is_some(), "{spec} is primitive");
        // the window search against the scan of every difference
        let fast = ShapeParts::new_with(&g, 4, n, true).unwrap();
        let (order, z) = fast.zech.clone().unwrap();
        for l in (1..n as usize).step_by(97).chain([n as usize - 1]) {
            let mut want = Vec::new();
            zech::pairs(&z[..l], order, z[l], 1, l as u32, |a, d| {
                want.push((a + d, a))
            });
            want.sort_unstable();
            let want: Vec<Vec<u32>> = want.iter().map(|&(b, a)| vec![0, a, b, l as u32]).collect();
            let i = (l - 1) / SPANS_PER_PART;
            let got: Vec<Vec<u32>> = fast
                .part(i as u64)
                .into_iter()
                .filter(|s| s[3] == l as u32)
                .collect();
            assert_eq!(got, want, "{spec} span {l}");
        }
        let fast = ShapeParts::new_with(&g, 4, n, true).unwrap();
        let slow = ShapeParts::new_with(&g, 4, n, false).unwrap();
        assert!(fast.zech.is_some() && slow.zech.is_none());
        assert_eq!(fast.parts(), slow.parts());
        let mut total = 0;
        for i in 0..fast.parts() {
            let (a, b) = (fast.part(i), slow.part(i));
            assert_eq!(a, b, "{spec} part {i}");
            total += a.len();
        }
        assert!(total > 0, "{spec}: no shape below {n} bits");
    }
}

/// The weight-5 join of one slice as [`shapes5_slice_in`] made it with
/// `filter_bits > 0` before it made each pair once: the pairs of a
/// sub-slice made `x` by `x` (each `x` with its group's `y > x`) twice,
/// first counted in the presence filter, then kept where their bucket
/// holds two or more, sorted by key ([`sort_by_key_radix`]) and joined.
fn two_pass_slice(
    syn: &[u64],
    slice: u64,
    slices: u64,
    sub_pairs: u64,
    filter_bits: u32,
) -> Vec<Vec<u32>> {
    let n = syn.len();
    let pairs = (n * n.saturating_sub(1) / 2) as u64 / slices;
    let subs = (pairs / sub_pairs).max(1).next_power_of_two();
    let total = slices * subs;
    let h = |y: usize| ((syn[y] >> 1) & (total - 1)) as usize;
    let (start, by_h) = group_positions(syn, total);
    let mut found = Vec::new();
    let mut v: Vec<(u64, u32, u32)> = Vec::new();
    let pairs_of = |target: usize, f: &mut dyn FnMut(u64, u32, u32)| {
        for x in 1..n {
            let sx = syn[x];
            let g = target ^ h(x);
            let group = &by_h[start[g]..start[g + 1]];
            let from = group.partition_point(|&y| y as usize <= x);
            for &y in &group[from..] {
                f(sx ^ syn[y as usize], x as u32, y);
            }
        }
    };
    let words = 1usize << filter_bits.saturating_sub(6);
    let (mut once, mut twice) = (vec![0u64; words], vec![0u64; words]);
    let bucket = |k: u64| {
        let b = (k >> 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - filter_bits.max(6));
        (b as usize >> 6, 1u64 << (b & 63))
    };
    for sub in 0..subs {
        let target = (slice + sub * slices) as usize;
        v.clear();
        once.fill(0);
        twice.fill(0);
        pairs_of(target, &mut |k, _, _| {
            let (i, m) = bucket(k);
            twice[i] |= once[i] & m;
            once[i] |= m;
        });
        pairs_of(target, &mut |k, x, y| {
            let (i, m) = bucket(k);
            if twice[i] & m != 0 {
                v.push((k, x, y));
            }
        });
        sort_by_key_radix(&mut v);
        join5(&v, &mut found);
    }
    found
}

/// Every weight-5 shape of the syndromes `syn` (bit 0 and four later
/// bits whose syndromes add to 0), by brute force, in increasing order.
fn weight5_brute_force(syn: &[u64]) -> Vec<Vec<u32>> {
    let n = syn.len();
    let mut want = Vec::new();
    for a in 1..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for l in c + 1..n {
                    if 1 ^ syn[a] ^ syn[b] ^ syn[c] ^ syn[l] == 0 {
                        want.push(vec![0, a as u32, b as u32, c as u32, l as u32]);
                    }
                }
            }
        }
    }
    want
}

pub fn weight5_slices_cover_the_pairs_once() {
    // the join cut into 1 to 32 slices (the grouping by slice bits):
    // the same shapes, each once, as every pair joined with every pair
    for spec in ["0x11D", "0x18BB7", "0x104C11DB7"] {
        let g: Generator = spec.parse().unwrap();
        let n = 90usize;
        let syn = syndromes(&g, n);
        let want = weight5_brute_force(&syn);
        assert!(!want.is_empty() || spec == "0x104C11DB7", "{spec}");
        // (the test command: 1, 4 and 32 slices; sub-slices of the
        // default size, 16 and 300 pairs, and of 1 pair at 32 slices of
        // 0x11D only (4096 sub-slices, each clearing the default
        // filter's bitmaps: most of the time); filters of 0, 6 and the
        // default bits)
        use crate::tier::pick;
        for &slices in pick(&[1u64, 4, 32][..], &[1, 2, 4, 8, 32]) {
            let one_pair = slices == 32 && spec == "0x11D";
            for &sub_pairs in pick(
                if one_pair {
                    &[SUB_SLICE_PAIRS, 1, 16, 300][..]
                } else {
                    &[SUB_SLICE_PAIRS, 16, 300][..]
                },
                &[SUB_SLICE_PAIRS, 1, 16, 300],
            ) {
                // without the presence filter, with a tiny one (most
                // buckets shared) and with the one the searches use
                // (6 and 8 also cut each sub-slice into chunks of 4 and
                // 16 pairs); each slice's shapes in the order of the
                // two-pass filter where a sub-slice is one chunk
                for &filter in pick(&[0, 6, FILTER_BITS][..], &[0, 6, 8, FILTER_BITS]) {
                    let per: Vec<Vec<Vec<u32>>> = (0..slices)
                        .map(|i| shapes5_slice_in(&syn, i, slices, sub_pairs, filter))
                        .collect();
                    if filter == FILTER_BITS {
                        let two: Vec<Vec<Vec<u32>>> = (0..slices)
                            .map(|i| two_pass_slice(&syn, i, slices, sub_pairs, filter))
                            .collect();
                        assert_eq!(per, two, "{spec}, {slices} slices, {sub_pairs}");
                    }
                    let mut got: Vec<Vec<u32>> = per.into_iter().flatten().collect();
                    got.sort_unstable();
                    assert_eq!(got, want, "{spec}, {slices} slices, {sub_pairs}, {filter}");
                }
            }
        }
    }
    // the shortest lengths (no pair, one pair, the first shapes of 0x11D
    // and 0x1F): the search as the oracle and as brute force, in order
    for spec in ["0x11D", "0x1F", "0x107"] {
        let g: Generator = spec.parse().unwrap();
        for n in 2..=16usize {
            let syn = syndromes(&g, n);
            let want = weight5_brute_force(&syn);
            for (slices, sub_pairs) in [(slices5(n), SUB_SLICE_PAIRS), (1, 1), (2, 3)] {
                for filter in [6, 8, FILTER_BITS] {
                    let per: Vec<Vec<Vec<u32>>> = (0..slices)
                        .map(|i| shapes5_slice_in(&syn, i, slices, sub_pairs, filter))
                        .collect();
                    let two: Vec<Vec<Vec<u32>>> = (0..slices)
                        .map(|i| two_pass_slice(&syn, i, slices, sub_pairs, filter))
                        .collect();
                    if filter == FILTER_BITS {
                        assert_eq!(per, two, "{spec}, n = {n}, {slices}, {sub_pairs}");
                    }
                    let mut two: Vec<Vec<u32>> = two.into_iter().flatten().collect();
                    two.sort_unstable();
                    assert_eq!(
                        two, want,
                        "{spec}, n = {n}, {slices}, {sub_pairs}, {filter}"
                    );
                    let mut got: Vec<Vec<u32>> = per.into_iter().flatten().collect();
                    got.sort_unstable();
                    assert_eq!(
                        got, want,
                        "{spec}, n = {n}, {slices}, {sub_pairs}, {filter}"
                    );
                }
            }
        }
    }
    // CRC-32 at 3000 and 5000 bits (3000 in the test command): the search
    // against the two-pass filter, in order (the parts' shapes and their
    // order as before), and against neither the sub-slices nor the
    // filter, as sets
    for &bits in crate::tier::pick(&[3000][..], &[3000, 5000]) {
        let g: Generator = "0x104C11DB7".parse().unwrap();
        let syn = syndromes(&g, bits);
        let slices = slices5(bits);
        let (mut total, mut one) = (0, 0);
        for i in 0..slices {
            let mut a = shapes5_slice(&syn, i, slices);
            assert_eq!(
                a,
                two_pass_slice(&syn, i, slices, SUB_SLICE_PAIRS, FILTER_BITS),
                "{bits}: slice {i}"
            );
            let mut b = shapes5_slice_in(&syn, i, slices, u64::MAX, 0);
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "slice {i}");
            total += a.len();
            one += 1;
        }
        assert!(total > 0 && one == slices as usize);
    }
}

pub fn counts_match_brute_force() {
    for (spec, nmax) in [
        ("0x107", 26u64),
        ("0x11021", 34),
        ("0x18005", 34),
        ("0x1F", 24),
        ("0x11", 20),
    ] {
        let g: Generator = spec.parse().unwrap();
        for w in 2..=6u32 {
            let a = weight_counts(&g, w, nmax + 1, &crate::ctx::Ctx::default()).unwrap();
            for n in g.width() as u64 + 1..=nmax {
                // no codeword of weight w above the length n
                let want = brute(&g, n).get(w as usize).copied().unwrap_or(0);
                assert_eq!(a[n as usize], want, "{spec} w={w} n={n}");
            }
        }
    }
}

pub fn counts_beyond_the_period_match_brute_force() {
    // x^4+x+1 has period 15: weight-2 codewords and repeated syndromes.
    let g: Generator = "0x13".parse().unwrap();
    for w in 2..=6u32 {
        let a = weight_counts(&g, w, 25, &crate::ctx::Ctx::default()).unwrap();
        for n in 5..25u64 {
            let want = brute(&g, n).get(w as usize).copied().unwrap_or(0);
            assert_eq!(a[n as usize], want, "w={w} n={n}");
        }
    }
}

pub fn profiles_match_brute_force_for_8_bit_generators() {
    // a quarter of the 128 generators in the test command (a fixed
    // pseudo-random choice), every one under ALIAS_TESTS=full
    let sampled =
        |n: u64| crate::tier::full() || (n.wrapping_mul(0x9E37_79B9) >> 8).is_multiple_of(4);
    for normal in (1..256u64).step_by(2).filter(|&n| sampled(n)) {
        let g = Generator::new(8, normal).unwrap();
        let p = hd_profile(&g, None).unwrap();
        let got: Vec<u64> = p.entries.iter().map(|e| e.max_data_bits).collect();
        let maxk = got.first().copied().unwrap_or(1).min(14) + 1;
        let want = brute_profile(&g, maxk);
        let got: Vec<u64> = got.iter().map(|&v| v.min(maxk)).collect();
        assert_eq!(got, want, "{}", g.full_string());
        for e in &p.entries {
            let syn: u64 = e
                .example
                .iter()
                .fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
            assert!(e.example.len() < e.hd as usize);
            assert_eq!(syn, 0);
            assert_eq!(*e.example.last().unwrap(), e.max_data_bits + 8);
        }
    }
}

pub fn a_length_bound_cuts_the_profile_exactly() {
    // every bound gives the full profile's entries ending below it, and
    // the highest HD ending beyond it as the open one
    for spec in ["0x104C11DB7", "0x11021", "0x1D5", "k:0xa2572962"] {
        let g: Generator = spec.parse().unwrap();
        let r = g.width() as u64;
        let full = hd_profile(&g, Some(8)).unwrap();
        // (the test command: both ends and two bounds between)
        let bounds = [1u64, 5, 20, 100, 300, 3000, 100_000];
        for &data in crate::tier::pick(&[1u64, 20, 300, 100_000][..], &bounds[..]) {
            let (p, open) = hd_profile_up_to(&g, Some(8), Some(data + r), &Silent).unwrap();
            let want: Vec<&HdEntry> = full
                .entries
                .iter()
                .filter(|e| e.max_data_bits < data)
                .collect();
            assert_eq!(p.entries.iter().collect::<Vec<_>>(), want, "{spec} {data}");
            let beyond = full.entries.iter().rfind(|e| e.max_data_bits >= data);
            assert_eq!(open, beyond.map(|e| e.hd), "{spec} {data}");
        }
    }
}

pub fn min_span_search_matches_enumeration() {
    // force the meet-in-the-middle path for lengths the enumeration also covers
    for spec in ["0x11021", "0x18005", "0x1A2EB", "0x15D6DCB"] {
        let g: Generator = spec.parse().unwrap();
        let r = g.width() as u64;
        let best = small_codewords(&g, 18);
        for w in 3..=7u32 {
            let want = (0..18).find(|&d| best[d].0 <= w).map(|d| d as u64 + r);
            let mut budget = f64::INFINITY;
            let got = match min_span(&g, w, 1, r + 18, &mut budget, &Silent).unwrap() {
                Span::Found(l, _) => Some(l),
                Span::Clear => None,
                stop => panic!("{stop:?}"),
            };
            assert_eq!(got, want, "{spec} w={w}");
        }
    }
}

fn published() -> Vec<(u64, Vec<u64>, String)> {
    include_str!("../../data/koopman-hd-profiles.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let k = u64::from_str_radix(f[0].trim_start_matches("0x"), 16).unwrap();
            let prof = f[1]
                .trim_matches(|c| c == '{' || c == '}')
                .split(',')
                .map(|v| v.parse().unwrap())
                .collect();
            (k, prof, f[2].to_string())
        })
        .collect()
}

pub fn profiles_match_koopmans_published_tables() {
    let list = published();
    assert!(list.len() >= 90);
    // The catalogue CRCs these published lines cover.
    for (name, k) in [
        ("crc16-ccitt", 0x8810u64),
        ("crc16-ibm", 0xc002),
        ("crc8", 0x83),
        ("CRC-16/DNP", 0x9eb2),
        ("crc32", 0x82608edb),
    ] {
        let g = crate::catalogue::resolve(name).unwrap().generator();
        assert_eq!(g.koopman(), k, "{name}");
        assert!(list.iter().any(|(lk, _, _)| *lk == k), "{name}");
    }
    // the test command checks every fourth line and the catalogue CRCs'
    // (the CRC-32's included); ALIAS_TESTS=full every line
    let catalogued = [0x8810u64, 0xc002, 0x83, 0x9eb2, 0x82608edb];
    let mut checked = 0;
    for (i, (k, want, src)) in list.into_iter().enumerate() {
        if !(crate::tier::full() || i.is_multiple_of(4) || catalogued.contains(&k)) {
            continue;
        }
        checked += 1;
        let g = Generator::guess_koopman(k).unwrap();
        if src == "op" {
            // The premise of the [op] rule: g = (x+1) * a primitive
            // polynomial of degree k-1 (see the data file).
            assert!(g.divisible_by_x_plus_1(), "0x{k:x}");
            let (q, r) = gf2::divmod(g.full(), 0b11);
            assert_eq!(r, 0);
            assert!(
                gf2::is_primitive(&Generator::from_full(q).unwrap()),
                "0x{k:x}"
            );
        }
        let p = hd_profile(&g, None).unwrap();
        let got: Vec<u64> = p.entries.iter().map(|e| e.max_data_bits).collect();
        assert_eq!(got, want, "0x{k:x} ({src})");
        let r = g.width() as u64;
        for e in &p.entries {
            // each example: a codeword of weight < hd, exactly one bit too long
            let syn = e
                .example
                .iter()
                .fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
            assert_eq!(syn, 0, "0x{k:x} hd {}", e.hd);
            assert!(e.example.len() < e.hd as usize);
            assert_eq!(e.example[0], 0);
            assert_eq!(*e.example.last().unwrap(), e.max_data_bits + r);
        }
    }
    assert!(checked >= 25, "{checked}");
}

/// `data/hdlen-gold.txt`: (Koopman generator, profile) for each of the
/// 363 full profiles of hdlen's test suite.
pub(crate) fn hdlen_gold() -> Vec<(u64, Vec<u64>)> {
    include_str!("../../data/hdlen-gold.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (k, prof) = l.split_once(' ').unwrap();
            let k = u64::from_str_radix(k.trim_start_matches("0x"), 16).unwrap();
            let prof = prof.trim().trim_matches(|c| c == '{' || c == '}');
            let prof = if prof.is_empty() {
                Vec::new()
            } else {
                prof.split(',').map(|v| v.parse().unwrap()).collect()
            };
            (k, prof)
        })
        .collect()
}

/// Every one of hdlen's 363 gold profiles (widths 4 to 64), computed in
/// full with no HD cap, with each example checked to be a codeword of
/// weight below its HD exactly one data bit too long.
pub fn every_hdlen_gold_profile() {
    let list = hdlen_gold();
    assert_eq!(list.len(), 363);
    let t = std::time::Instant::now();
    // every 12th profile (all widths) in the test command, all in the full tier
    for (k, want) in list.into_iter().step_by(crate::tier::pick(12, 1)) {
        let g = Generator::guess_koopman(k).unwrap();
        let p = hd_profile(&g, None).unwrap();
        let got: Vec<u64> = p.entries.iter().map(|e| e.max_data_bits).collect();
        assert_eq!(got, want, "0x{k:x}");
        let r = g.width() as u64;
        for e in &p.entries {
            let syn = e
                .example
                .iter()
                .fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
            assert_eq!(syn, 0, "0x{k:x} hd {}", e.hd);
            assert!(e.example.len() < e.hd as usize, "0x{k:x} hd {}", e.hd);
            assert_eq!(e.example[0], 0);
            assert_eq!(*e.example.last().unwrap(), e.max_data_bits + r);
        }
    }
    eprintln!("hdlen profiles in {:.2?}", t.elapsed());
}

/// A search cut short by its budget reports a prefix of the full
/// profile, and the HD it claims up to `clear_to_bits` holds there in
/// the full profile; budget 0 settles only what needs no probe.
pub fn budgeted_profiles_are_prefixes_of_the_full_ones() {
    let mut stops = 0;
    for spec in [
        "0x104C11DB7",
        "0x11EDC6F41",
        "0x11021",
        "0x15D6DCB",
        "0x18005",
    ] {
        let g: Generator = spec.parse().unwrap();
        let r = g.width() as u64;
        let full = hd_profile(&g, None).unwrap();
        // (the test command: 0, 1e3, 1e5 and 1e7)
        let budgets = [0.0, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7];
        for &budget in crate::tier::pick(&[0.0, 1e3, 1e5, 1e7][..], &budgets[..]) {
            let s = hd_profile_within(&g, None, None, budget, &Silent).unwrap();
            let n = s.profile.entries.len();
            assert_eq!(s.profile.entries[..], full.entries[..n], "{spec} {budget}");
            match s.stopped {
                None => assert_eq!(n, full.entries.len(), "{spec} {budget}"),
                Some(st) => {
                    stops += 1;
                    assert_eq!(st.searched_hd, full.entries[n].hd, "{spec} {budget}");
                    assert!(st.hd_at_least >= st.searched_hd);
                    for e in &full.entries[n..] {
                        if e.hd <= st.hd_at_least {
                            assert!(e.max_data_bits + r >= st.clear_to_bits, "{spec} {budget}");
                        }
                    }
                }
            }
        }
    }
    eprintln!("{stops} stopped searches");
    assert!(stops >= crate::tier::pick(8, 10), "{stops}");
    // budget 0: what the period and the discrete logarithms settle
    let g = crate::catalogue::resolve("crc64-xz").unwrap().generator();
    let s = hd_profile_within(&g, None, None, 0.0, &Silent).unwrap();
    assert_eq!(s.profile.entries.len(), 2);
    assert_eq!(s.stopped.unwrap().clear_to_bits, ENUM_BITS as u64 + 64);
}

/// Rows of `data/published-32bit.txt` of one kind, split into fields.
pub(crate) fn published_32bit(kind: &str) -> Vec<Vec<String>> {
    include_str!("../../data/published-32bit.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && l.split_whitespace().next() == Some(kind))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

pub fn published_32bit_thresholds() {
    // Koopman 2002: the largest data length at which each HD still holds
    // (HD d holds up to L means the HD-(d) entry of the profile is >= L
    // and the HD-(d+1) entry is below L where listed).
    let rows = published_32bit("hd");
    assert!(rows.len() >= 5);
    for f in rows {
        let k = u64::from_str_radix(f[1].trim_start_matches("0x"), 16).unwrap();
        let hd: u32 = f[2].parse().unwrap();
        let len: u64 = f[3].parse().unwrap();
        let g = Generator::guess_koopman(k).unwrap();
        let p = hd_profile(&g, Some(hd)).unwrap();
        let e = p.entries.iter().find(|e| e.hd == hd).unwrap();
        assert_eq!(e.max_data_bits, len, "{} HD {hd}", f[4]);
    }
}

pub fn crc32_hd5_example_is_koopmans() {
    // [hdlen]: "Len=2975 {0,2215,2866} (0x80000000) (Bits=4)": a 2975-bit
    // data word with bits 0, 2215, 2866 set and a one-bit FCS. Ours is the
    // same codeword: those three positions and the FCS bit at 2975 + 31.
    let g = Generator::from_koopman(32, 0x82608edb).unwrap();
    let p = hd_profile(&g, Some(5)).unwrap();
    let e = &p.entries[2];
    assert_eq!(e.max_data_bits, 2974);
    assert_eq!(e.example, vec![0, 2215, 2866, 2975 + 31]);
}

pub fn crc32_weight4_boundary() {
    // no weight-4 codeword at 2974 data bits, exactly one at 2975
    let g: Generator = "0x104C11DB7".parse().unwrap();
    let a = weight_counts(&g, 4, 3008, &crate::ctx::Ctx::default()).unwrap();
    assert_eq!(a[2974 + 32], 0);
    assert_eq!(a[2975 + 32], 1);
    let a3 = weight_counts(&g, 3, 3008, &crate::ctx::Ctx::default()).unwrap();
    assert_eq!(a3[3007], 0);
}

pub fn reciprocal_polynomials_have_the_same_profile() {
    for spec in [
        "0x104C11DB7",
        "0x11EDC6F41",
        "0x11021",
        "0x1D5",
        "0x15D6DCB",
    ] {
        let g: Generator = spec.parse().unwrap();
        let a = hd_profile(&g, Some(8)).unwrap();
        let b = hd_profile(&g.reciprocal(), Some(8)).unwrap();
        let pa: Vec<u64> = a.entries.iter().map(|e| e.max_data_bits).collect();
        let pb: Vec<u64> = b.entries.iter().map(|e| e.max_data_bits).collect();
        assert_eq!(pa, pb, "{spec}");
        let n = 600u64.min(pa[1] + g.width() as u64 + 50);
        for w in 2..=4 {
            assert_eq!(
                weight_counts(&g, w, n, &crate::ctx::Ctx::default()).unwrap(),
                weight_counts(&g.reciprocal(), w, n, &crate::ctx::Ctx::default()).unwrap(),
                "{spec} w={w}"
            );
        }
    }
}

/// The radix sort orders the keys as a comparison sort does and keeps
/// every element, on short and long vectors, full-width keys and keys
/// sharing bits (as a slice's do), with many equal keys.
pub fn radix_sort_orders_like_a_comparison_sort() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for (len, mask, set) in [
        (0usize, u64::MAX, 0u64),
        (5, u64::MAX, 0),
        (1023, 0xFFFF, 0),
        (1024, 0xFFFF_FFFF, 0),
        (50_000, 0xFFFF_FFFF & !0x7FE, 0x2A4),
        (70_000, u64::MAX, 0),
        (70_000, 0xFF, 0x1_0000_0000),
        (20_000, 0, 7),
    ] {
        let v: Vec<(u64, u32, u32)> = (0..len)
            .map(|i| ((next() & mask) | set, i as u32, next() as u32))
            .collect();
        let mut a = v.clone();
        sort_by_key_radix(&mut a);
        assert!(a.windows(2).all(|w| w[0].0 <= w[1].0), "{len}");
        let mut b = v.clone();
        b.sort_unstable();
        a.sort_unstable();
        assert_eq!(a, b, "{len}");
    }
}

/// Each limit of the enumeration refuses with its own typed reason and its
/// numbers (a different rule refusing would fail the match).
pub fn limits_refuse_with_their_typed_reasons() {
    use crate::error::Limit;
    let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
    let ctx = crate::ctx::Ctx::default();
    fn limit<T>(r: Result<T>) -> Limit {
        match r {
            Err(Error::Limit(l)) => l,
            Err(e) => panic!("not a limit: {e}"),
            Ok(_) => panic!("not refused"),
        }
    }
    assert_eq!(
        limit(span_counts(&g, 7, 100, &ctx)),
        Limit::SpanWeight { weight: 7 }
    );
    let l = limit(span_counts(&g, 6, 5000, &ctx));
    assert!(
        matches!(l, Limit::SpanWork { weight: 6, bits: 5000, max, probes } if probes > max),
        "{l}"
    );
    let l = limit(span_counts(&g, 4, 300_000, &ctx));
    assert!(
        matches!(
            l,
            Limit::SpanWork {
                weight: 4,
                bits: 300_000,
                ..
            }
        ),
        "{l}"
    );
    assert_eq!(
        limit(ShapeParts::new(&g, 6, 100)),
        Limit::ShapeWeight { weight: 6 }
    );
    let past = u32::MAX as u64 + 1;
    assert_eq!(
        limit(ShapeParts::new(&g, 3, past)),
        Limit::ShapeLength { bits: past }
    );
    let l = limit(ShapeParts::new(&g, 5, 30_000));
    assert!(
        matches!(l, Limit::ShapeWork { weight: 5, bits: 30_000, probes, max } if probes > max),
        "{l}"
    );
    // the messages keep their one-line wording
    assert_eq!(
        Limit::SpanWeight { weight: 7 }.to_string(),
        "counts for every length are available for weights 2 to 6, not 7; \
         use the dual-code weights for higher weights"
    );
    let g808d = Generator::from_koopman(16, 0x808d).unwrap();
    assert_eq!(
        limit(trinomial::shortest(&g808d)),
        Limit::TrinomialSquareFree
    );
    assert!(matches!(
        limit(trinomial::shortest(&g)),
        Limit::TrinomialOrder { degree: 32, .. }
    ));
}
