//! `bits:P` over one segment of given data: the carry chain of the
//! ones'-complement sum over the segment's per-column counts of ones.

use super::*;

/// Per-bit column counts of ones and the length: what the given-data
/// `bits:P` value depends on.
pub(super) type BitsKey = ([u32; 16], usize);

/// Given-data `bits:P` values already computed: `(P_ud, P_err)` by key.
pub(super) type BitsCache = FastMap<BitsKey, (f64, f64)>;

/// A multiply-rotate hasher for the small integer keys of the `bits:P`
/// caches (SipHash, the default, costs more per segment than a cache hit
/// saves on random data). The keys are computed, not chosen by a peer.
#[derive(Default, Clone, Copy)]
pub(super) struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.add(x.into());
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
}

/// A hash map keyed through [`FxHasher`].
pub(super) type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

/// The most keys a [`BitsCache`] keeps (per thread and chunk).
pub(super) const BITS_CACHE_MAX: usize = 4096;

pub(super) fn bits_key(seg: &[u8]) -> BitsKey {
    // 16 bytes (8 words) as two little-endian u64: even byte lanes hold
    // high bytes (columns 8..15), odd lanes low bytes (0..7). acc[b] counts
    // bit b of every byte lane, up to 2 x 127 = 254 per lane before it is
    // folded into the columns (no popcount instruction needed)
    const LANES: u64 = 0x0101_0101_0101_0101;
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    let mut ones = [0u32; 16];
    let mut it = seg.chunks_exact(16);
    loop {
        let mut acc = [0u64; 8];
        let mut n = 0;
        for c in it.by_ref().take(127) {
            let x0 = u64::from_le_bytes(c[..8].try_into().expect("8 bytes"));
            let x1 = u64::from_le_bytes(c[8..].try_into().expect("8 bytes"));
            for (bit, a) in acc.iter_mut().enumerate() {
                *a += ((x0 >> bit) & LANES) + ((x1 >> bit) & LANES);
            }
            n += 1;
        }
        if n == 0 {
            break;
        }
        for (bit, &a) in acc.iter().enumerate() {
            // four 16-bit lanes of at most 254 each: their sum in the top one
            let sum = |x: u64| (x.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
            ones[8 + bit] += sum(a & EVEN);
            ones[bit] += sum((a >> 8) & EVEN);
        }
    }
    for (i, &byte) in it.remainder().iter().enumerate() {
        let base = if i % 2 == 0 { 8 } else { 0 };
        for bit in 0..8 {
            ones[base + bit] += ((byte >> bit) & 1) as u32;
        }
    }
    (ones, seg.len())
}

/// [`binomial_head`] of one `n`: `None` where the bound cannot be formed.
pub(super) type Heads = Option<([f64; 9], [f64; 9])>;

/// Column sizes below this have their [`binomial_head`] kept per thread, in
/// a table indexed by the size (segments of up to 64 KiB of data); larger
/// ones are computed per segment (rare, and small next to reading them).
const HEADS_TABLE: u64 = 1 << 15;

thread_local! {
    /// [`binomial_head`] already computed on this thread for one `p`, by `n`
    /// (a pure function of `(n, p)`, so the digits do not depend on which
    /// thread computed what): `None` where not yet computed.
    static HEADS: std::cell::RefCell<(f64, Vec<Option<Heads>>)> =
        const { std::cell::RefCell::new((f64::NAN, Vec::new())) };
}

/// Relative bound on the mass the fast carry chain leaves out, as in
/// `aliasing_core::internet`.
pub(super) const CUT_TOLERANCE: f64 = 1e-13;

/// `P(Bin(n, p) = j)` for `j = 0..=8` (0 above `n`) and, for each cut
/// `f = 0..=8`, a bound on `P(Bin(n, p) > f)`; `None` where the bound cannot
/// be formed (the terms above 8 not yet falling fast).
pub(super) fn binomial_head(n: u64, p: f64) -> Option<([f64; 9], [f64; 9])> {
    let mut h = [0.0; 9];
    let q = p / (1.0 - p);
    let mut x = f64::exp(n as f64 * f64::ln_1p(-p));
    if x < 1e-290 {
        return None;
    }
    h[0] = x;
    let top = n.min(8) as usize;
    for j in 0..top {
        x *= (n - j as u64) as f64 / (j + 1) as f64 * q;
        h[j + 1] = x;
    }
    // above 8 the terms fall at least geometrically with the first ratio
    let mut above = 0.0;
    if n > 8 {
        let next = x * (n - 8) as f64 / 9.0 * q;
        let r = (n - 9) as f64 / 10.0 * q;
        if r >= 0.5 {
            return None;
        }
        above = next / (1.0 - r);
    }
    let mut tails = [0.0; 9];
    for f in (0..9).rev() {
        tails[f] = above;
        above += h[f];
    }
    Some((h, tails))
}

/// `P(at least one flip and the data's sum unchanged mod 65535)` when the
/// bits of each column `k` are known (`ones[k]` of them 1), each flipping
/// with probability `p`: the carry chain of `aliasing_core::internet` (a sum
/// of products of non-negative terms), with the column laws cut at `f`
/// flips per direction, the smallest `f <= 8` whose neglected mass is below
/// `1e-13` of a lower bound of the result (the patterns of one up and one
/// down flip in one column, which always escape). `None` where no such cut
/// exists (the caller then uses `internet::p_undetected_payload`).
pub(super) fn bits_fast(key: &BitsKey, p: f64) -> Option<f64> {
    let prep = prepare(key, p)?;
    let (flip, clean) = (&prep.flip, &prep.clean);
    let total = match prep.f {
        1 => chain_fixed_dispatch::<1, 3>(flip, clean),
        2 => chain_fixed_dispatch::<2, 5>(flip, clean),
        3 => chain_fixed_dispatch::<3, 7>(flip, clean),
        4 => chain_fixed_dispatch::<4, 9>(flip, clean),
        5 => chain_fixed_dispatch::<5, 11>(flip, clean),
        6 => chain_fixed_dispatch::<6, 13>(flip, clean),
        7 => chain_fixed_dispatch::<7, 15>(flip, clean),
        _ => chain_fixed_dispatch::<8, 17>(flip, clean),
    };
    prep.certify(total)
}

/// The signature of [`carry_chain`].
pub(super) type Chain =
    fn(usize, i64, &[[[f64; 9]; 17]; 16], &[[f64; 17]; 16], &[f64; 16], &[usize; 17]) -> f64;

/// What the carry chain of one key needs: the cut `f` (1 to 8), the bound
/// `tail` on the mass the cut leaves out, and per column `k` the weight
/// `flip[k][d + f]` of the flip patterns (at least one flip, at most `f`
/// per direction) that change the column by `d`, and `clean[k]`, the
/// weight of no flip.
pub(super) struct Prepared {
    f: usize,
    tail: f64,
    flip: [[f64; 17]; 16],
    clean: [f64; 16],
}

impl Prepared {
    /// `total` (the chain's value) where the cut is certified against it.
    fn certify(&self, total: f64) -> Option<f64> {
        // the cut was chosen against a lower bound; check against the result
        if self.tail == 0.0 || self.tail <= CUT_TOLERANCE * total {
            return Some(total);
        }
        None
    }
}

/// The column laws of `key` at `p` and the cut (see [`bits_fast`]); `None`
/// where no cut `f <= 8` is certified or `p` is outside `(0, 0.5)`.
pub(super) fn prepare(key: &BitsKey, p: f64) -> Option<Prepared> {
    let (ones, len) = key;
    if !(p > 0.0 && p < 0.5) {
        return None;
    }
    // the column sizes: ups (bits at 0) at 2k, downs (bits at 1) at 2k + 1
    let mut ns = [0u64; 32];
    let mut pairs = 0u64;
    for k in 0..16 {
        // columns 8..15: high bytes (even offsets); 0..7: low bytes
        let total = if k >= 8 { len.div_ceil(2) } else { len / 2 } as u64;
        let down = ones[k] as u64;
        let up = total - down;
        ns[2 * k] = up;
        ns[2 * k + 1] = down;
        pairs += up * down;
    }
    // lower bound: exactly two flips, up and down in one column
    let n = (8 * *len) as f64;
    let lower = pairs as f64 * p * p * f64::exp((n - 2.0) * f64::ln_1p(-p));
    HEADS.with(|cell| {
        let mut memo = cell.borrow_mut();
        if memo.0.to_bits() != p.to_bits() {
            *memo = (p, Vec::new());
        }
        let table = &mut memo.1;
        // sizes beyond the table: computed here, in the order of `ns`
        let mut big: Vec<Heads> = Vec::new();
        for &n in &ns {
            if n < HEADS_TABLE {
                let i = n as usize;
                if table.len() <= i {
                    table.resize(i + 1, None);
                }
                if table[i].is_none() {
                    table[i] = Some(binomial_head(n, p));
                }
            } else {
                big.push(binomial_head(n, p));
            }
        }
        let mut next_big = big.iter();
        let heads: [&Heads; 32] = std::array::from_fn(|i| {
            let n = ns[i];
            if n < HEADS_TABLE {
                table[n as usize].as_ref().expect("filled above")
            } else {
                next_big.next().expect("one per size")
            }
        });
        let mut h = [(&[0.0f64; 9], &[0.0f64; 9]); 32];
        for (slot, head) in h.iter_mut().zip(heads) {
            let (a, b) = head.as_ref()?;
            *slot = (a, b);
        }
        let f = (0..9).find(|&f| {
            let tail: f64 = h.iter().map(|h| h.1[f]).sum();
            tail == 0.0 || tail <= CUT_TOLERANCE * lower
        })?;
        let f = f.max(1);
        let tail: f64 = h.iter().map(|h| h.1[f]).sum();
        let mut clean = [0.0f64; 16];
        let mut flip = [[0.0f64; 17]; 16];
        for k in 0..16 {
            let (hu, hd) = (h[2 * k].0, h[2 * k + 1].0);
            clean[k] = hu[0] * hd[0];
            for (a, &x) in hu.iter().enumerate().take(f + 1) {
                for (b, &y) in hd.iter().enumerate().take(f + 1) {
                    if a + b > 0 {
                        flip[k][a + f - b] += x * y;
                    }
                }
            }
        }
        Some(Prepared {
            f,
            tail,
            flip,
            clean,
        })
    })
}

/// [`bits_fast`] with the carry chain `chain` (over the band layout of
/// [`carry_chain`]): the tests' oracle for the fixed-width chain.
pub(super) fn bits_fast_with(key: &BitsKey, p: f64, chain: Chain) -> Option<f64> {
    let prep = prepare(key, p)?;
    let (f, flip, clean) = (prep.f, &prep.flip, &prep.clean);
    let w = 2 * f + 1;
    // Per column, the change d of the column (ups minus downs, |d| <= f)
    // takes carry c to (c + d) / 2 (c + d even): for each c a contiguous
    // band of new carries. band[k][c] holds, from the lowest new carry
    // lo(c), the weight of each: P(a flip pattern with that d), plus the
    // clean probability at d = 0 for the runs that have flipped already
    // (a1); a run that has not flipped (a0) sits at one carry.
    let fi = f as i64;
    let lo = |c: usize| -> usize { c.div_ceil(2) };
    let mut band = [[[0.0f64; 9]; 17]; 16];
    for (k, bk) in band.iter_mut().enumerate() {
        for (c, row) in bk.iter_mut().enumerate().take(w) {
            let l = lo(c);
            // new carry index nc (shifted by f) <-> d = 2 (nc - f) - (c - f)
            let mut j = 0;
            let mut nc = l;
            while nc < w {
                let d = 2 * (nc as i64 - fi) - (c as i64 - fi);
                if d > fi {
                    break;
                }
                row[j] = flip[k][(d + fi) as usize] + if d == 0 { clean[k] } else { 0.0 };
                j += 1;
                nc += 1;
            }
        }
    }
    let width = |c: usize| -> usize {
        let l = lo(c) as i64;
        // the largest nc with 2 (nc - f) - (c - f) <= f
        let hi = ((c / 2) as i64 + fi).min(w as i64 - 1);
        (hi - l + 1).max(0) as usize
    };
    let widths: [usize; 17] = std::array::from_fn(|c| if c < w { width(c) } else { 0 });
    prep.certify(chain(w, fi, &band, flip, clean, &widths))
}

/// [`chain_fixed`] for the cut `F` (`W = 2 F + 1` start carries), compiled
/// for AVX2 where the CPU has it (separate products and sums, as in the
/// portable build: the same bits) and `ALIAS_NO_SIMD` is not set.
fn chain_fixed_dispatch<const F: usize, const W: usize>(
    flip: &[[f64; 17]; 16],
    clean: &[f64; 16],
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: `has_avx2` checked that the CPU has AVX2.
        return unsafe { chain_fixed_avx2::<F, W>(flip, clean) };
    }
    chain_fixed::<F, W>(flip, clean)
}

/// Whether the CPU has AVX2 and vector code is allowed (`ALIAS_NO_SIMD`
/// unset, as [`aliasing_core::markov::cpu::Isa::detect`] reads it).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX2.get_or_init(|| {
        !aliasing_core::markov::cpu::Isa::detect().is_scalar() && is_x86_feature_detected!("avx2")
    })
}

/// [`chain_fixed`] compiled with AVX2 (4-lane vectors, no fused
/// multiply-add). Callers must check that the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn chain_fixed_avx2<const F: usize, const W: usize>(
    flip: &[[f64; 17]; 16],
    clean: &[f64; 16],
) -> f64 {
    chain_fixed::<F, W>(flip, clean)
}

/// The carry chain of [`carry_chain`] for a cut `F` known at compile time
/// (`W = 2 F + 1` start carries and carries): the band of each new carry
/// `nc` gathered from the old carries `c` in `2 nc - 2 F ..= 2 nc` (the
/// weight of the column change `d = 2 nc - c - F`), lane by lane the same
/// products and sums in the same order as [`carry_chain`] (so the same
/// bits), with no zeroed band tables and loops of constant length.
#[inline(always)]
fn chain_fixed<const F: usize, const W: usize>(flip: &[[f64; 17]; 16], clean: &[f64; 16]) -> f64 {
    debug_assert_eq!(W, 2 * F + 1);
    let mut a1 = [[0.0f64; W]; W];
    let mut x0 = [1.0f64; W];
    let mut c0: [Option<usize>; W] = std::array::from_fn(Some);
    for k in 0..16 {
        let fl = &flip[k];
        // the band weights by d + F: the clean probability joins d = 0
        let fc: [f64; W] =
            std::array::from_fn(|i| fl[i] + if i == F { clean[k] } else { 0.0 });
        let mut b1 = [[0.0f64; W]; W];
        for (nc, out) in b1.iter_mut().enumerate() {
            let mut acc = [0.0f64; W];
            for c in (2 * nc).saturating_sub(2 * F)..=(2 * nc).min(W - 1) {
                let r = fc[2 * nc - c];
                for (a, &x) in acc.iter_mut().zip(&a1[c]) {
                    *a += x * r;
                }
            }
            *out = acc;
        }
        for t in 0..W {
            if let Some(c) = c0[t] {
                // the first flips of this run, in this column
                for nc in c.div_ceil(2)..=(c / 2 + F).min(W - 1) {
                    b1[nc][t] += x0[t] * fl[2 * nc - c];
                }
                // no flip: carry c - F must be even, halved
                if (c + F) % 2 == 0 {
                    x0[t] *= clean[k];
                    c0[t] = Some((c + F) / 2);
                } else {
                    c0[t] = None;
                }
            }
        }
        a1 = b1;
    }
    let mut total = 0.0;
    for (t, row) in a1.iter().enumerate() {
        total += row[t];
    }
    total
}

/// The carry chain of [`bits_fast`] over its `w` start carries at once:
/// `sum_t` (the weight of the runs that start at carry `t`, flip at least
/// once and end at carry `t`). Each start carry `t` is one lane of every
/// vector, so a column step is a few broadcast multiply-adds over the lanes
/// (vectorised), and each lane does exactly the operations, in the same
/// order, of a run computed on its own (the tests' reference computes the
/// runs one by one): the digits do not depend on the layout.
pub(super) fn carry_chain(
    w: usize,
    fi: i64,
    band: &[[[f64; 9]; 17]; 16],
    flip: &[[f64; 17]; 16],
    clean: &[f64; 16],
    widths: &[usize; 17],
) -> f64 {
    let lo = |c: usize| -> usize { c.div_ceil(2) };
    // a1[c][t]: weight at carry c of the runs started at t that have flipped
    // (two buffers, swapped by reference after each column; only carries
    // and lanes below w are ever used)
    let [buf0, buf1] = &mut [[[0.0f64; 17]; 17]; 2];
    let (mut a1, mut b1) = (buf0, buf1);
    // a0: the run of lane t that has not flipped yet, weight x0[t] at c0[t]
    let mut x0 = [1.0f64; 17];
    let mut c0: [Option<usize>; 17] = std::array::from_fn(|t| (t < w).then_some(t));
    for k in 0..16 {
        for row in b1[..w].iter_mut() {
            row[..w].fill(0.0);
        }
        for c in 0..w {
            let l = lo(c);
            let row = &band[k][c];
            let src = &a1[c];
            for j in 0..widths[c] {
                let r = row[j];
                for (b, &x) in b1[l + j][..w].iter_mut().zip(&src[..w]) {
                    *b += x * r;
                }
            }
        }
        for t in 0..w {
            if let Some(c) = c0[t] {
                // the first flips of this run, in this column
                let l = lo(c);
                for j in 0..widths[c] {
                    let d = 2 * ((l + j) as i64 - fi) - (c as i64 - fi);
                    b1[l + j][t] += x0[t] * flip[k][(d + fi) as usize];
                }
                // no flip: carry c - f must be even, halved
                let cv = c as i64 - fi;
                if cv.rem_euclid(2) == 0 {
                    x0[t] *= clean[k];
                    c0[t] = Some((cv / 2 + fi) as usize);
                } else {
                    c0[t] = None;
                }
            }
        }
        std::mem::swap(&mut a1, &mut b1);
    }
    let mut total = 0.0;
    for (t, row) in a1.iter().enumerate().take(w) {
        total += row[t];
    }
    total
}
