//! `bits:P` over one segment of given data: the carry chain of the
//! ones'-complement sum over the segment's per-column counts of ones.

use super::*;

/// Per-bit column counts of ones and the length: what the given-data
/// `bits:P` value depends on.
pub(super) type BitsKey = ([u32; 16], usize);

/// Given-data `bits:P` values already computed, `(P_ud, P_err)` by key and
/// `P`: a direct-mapped cache of [`BITS_CACHE_SLOTS`] entries per thread
/// (data that repeats its segments, such as runs of zeros, hits it; random
/// data costs one hash and one compare per segment). Every value is a pure
/// function of its key and `P`, so what the cache holds never changes a
/// digit.
pub(super) struct BitsCache;

/// One entry of the per-thread cache: `(P as bits, key, (P_ud, P_err))`.
type BitsSlot = Option<(u64, BitsKey, (f64, f64))>;

thread_local! {
    /// The slots of [`BitsCache`] on this thread (empty until first used).
    static BITS_SLOTS: std::cell::RefCell<Vec<BitsSlot>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The entries of the [`BitsCache`] of each thread.
pub(super) const BITS_CACHE_SLOTS: usize = 1024;

impl BitsCache {
    fn slot(key: &BitsKey, p: f64) -> usize {
        // four independent multiply-rotate lanes, then mixed
        let mut h = [p.to_bits(), key.1 as u64, 0, 0];
        for (i, &x) in key.0.iter().enumerate() {
            let l = &mut h[i % 4];
            *l = (l.rotate_left(5) ^ x as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        let m = h.iter().fold(0u64, |a, &x| {
            (a.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95)
        });
        (m >> 32) as usize % BITS_CACHE_SLOTS
    }

    /// The value kept for `key` at `p`, or `make()` (then kept). The cache
    /// is not borrowed while `make` runs (it may run other segments on
    /// this thread).
    pub(super) fn get_or(
        key: &BitsKey,
        p: f64,
        make: impl FnOnce() -> Result<(f64, f64)>,
    ) -> Result<(f64, f64)> {
        let i = Self::slot(key, p);
        let kept = BITS_SLOTS.with(|cell| match cell.borrow().get(i) {
            Some(Some((pb, k, v))) if *pb == p.to_bits() && k == key => Some(*v),
            _ => None,
        });
        if let Some(v) = kept {
            return Ok(v);
        }
        let v = make()?;
        BITS_SLOTS.with(|cell| {
            let mut slots = cell.borrow_mut();
            if slots.is_empty() {
                slots.resize(BITS_CACHE_SLOTS, None);
            }
            slots[i] = Some((p.to_bits(), *key, v));
        });
        Ok(v)
    }
}

/// The column counts of ones of `seg` and its length, at memory speed:
/// compiled for AVX2 where the CPU has it (integer sums: the same counts).
#[doc(hidden)]
pub fn bits_key(seg: &[u8]) -> BitsKey {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: `has_avx2` checked that the CPU has AVX2.
        return unsafe { bits_key_avx2(seg) };
    }
    bits_key_body(seg)
}

/// [`bits_key_body`] compiled with AVX2. Callers must check that the CPU
/// has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn bits_key_avx2(seg: &[u8]) -> BitsKey {
    bits_key_body(seg)
}

/// [`bits_key`] on the portable path (inlined into the AVX2 one).
#[inline(always)]
#[doc(hidden)]
pub fn bits_key_body(seg: &[u8]) -> BitsKey {
    // 32 bytes (16 words) as four little-endian u64, each its own lane of
    // the counters (one vector): even byte lanes hold high bytes (columns
    // 8..15), odd lanes low bytes (0..7). acc[b][i] counts bit b of every
    // byte lane of u64 i, up to 255 per byte lane before it is folded into
    // the columns (no popcount instruction needed)
    const LANES: u64 = 0x0101_0101_0101_0101;
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    let mut ones = [0u32; 16];
    let mut it = seg.chunks_exact(32);
    loop {
        let mut acc = [[0u64; 4]; 8];
        let mut n = 0;
        for c in it.by_ref().take(255) {
            let x: [u64; 4] = std::array::from_fn(|i| {
                u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().expect("8 bytes"))
            });
            for (bit, a) in acc.iter_mut().enumerate() {
                for (s, &v) in a.iter_mut().zip(&x) {
                    *s += (v >> bit) & LANES;
                }
            }
            n += 1;
        }
        if n == 0 {
            break;
        }
        for (bit, a) in acc.iter().enumerate() {
            // four 16-bit lanes of at most 4 x 255 each: their sum in the
            // top one
            let sum = |x: u64| (x.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
            let hi: u64 = a.iter().map(|&v| v & EVEN).sum();
            let lo: u64 = a.iter().map(|&v| (v >> 8) & EVEN).sum();
            ones[8 + bit] += sum(hi);
            ones[bit] += sum(lo);
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
#[doc(hidden)]
pub fn bits_fast(key: &BitsKey, p: f64) -> Option<f64> {
    with_laws(key, p, |f, tail, h| {
        let total = match f {
            1 => fixed_dispatch::<1, 3, 1, 1>(h),
            2 => fixed_dispatch::<2, 5, 2, 1>(h),
            3 => fixed_dispatch::<3, 7, 2, 1>(h),
            4 => fixed_dispatch::<4, 9, 3, 2>(h),
            5 => fixed_dispatch::<5, 11, 3, 2>(h),
            6 => fixed_dispatch::<6, 13, 4, 2>(h),
            7 => fixed_dispatch::<7, 15, 4, 2>(h),
            _ => fixed_dispatch::<8, 17, 5, 3>(h),
        };
        certify(tail, total)
    })
}

/// The signature of [`carry_chain`].
#[doc(hidden)]
pub type Chain =
    fn(usize, i64, &[[[f64; 9]; 17]; 16], &[[f64; 17]; 16], &[f64; 16], &[usize; 17]) -> f64;

/// The binomial heads ([`binomial_head`]: the terms, the tail bounds) of the
/// 32 column sizes of a key: ups (bits at 0) of column `k` at `2 k`, downs
/// (bits at 1) at `2 k + 1`.
pub(super) type Laws<'a> = [(&'a [f64; 9], &'a [f64; 9]); 32];

/// `total` (the chain's value) where the cut's `tail` is certified against
/// it (the cut was chosen against a lower bound).
fn certify(tail: f64, total: f64) -> Option<f64> {
    if tail == 0.0 || tail <= CUT_TOLERANCE * total {
        return Some(total);
    }
    None
}

/// Runs `body(f, tail, laws)` with the cut `f` (1 to 8) of `key` at `p`,
/// the bound `tail` on the mass it leaves out and the column laws (see
/// [`bits_fast`]); `None` where no cut `f <= 8` is certified or `p` is
/// outside `(0, 0.5)`.
pub(super) fn with_laws(
    key: &BitsKey,
    p: f64,
    body: impl FnOnce(usize, f64, &Laws) -> Option<f64>,
) -> Option<f64> {
    let (ones, len) = key;
    if !(p > 0.0 && p < 0.5) {
        return None;
    }
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
    let lower = pairs as f64 * p * p * clean_but_two(8 * *len as u64, p);
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
        let mut h: Laws = [(&[0.0; 9], &[0.0; 9]); 32];
        for (slot, &n) in h.iter_mut().zip(&ns) {
            let head = if n < HEADS_TABLE {
                table[n as usize].as_ref().expect("filled above")
            } else {
                next_big.next().expect("one per size")
            };
            let (a, b) = head.as_ref()?;
            *slot = (a, b);
        }
        // the tail bounds of every cut at once, each summed over the
        // columns in order
        let mut tails = [0.0f64; 9];
        for (_, t) in &h {
            for (s, &x) in tails.iter_mut().zip(t.iter()) {
                *s += x;
            }
        }
        let f = (0..9).find(|&f| tails[f] == 0.0 || tails[f] <= CUT_TOLERANCE * lower)?;
        let f = f.max(1);
        body(f, tails[f], &h)
    })
}

/// A pure function of `(n, p)` kept for the last pair asked on this thread
/// (the segments of a file share one length): the same bits as computing
/// it each time.
pub(super) fn memo_last(
    cell: &'static std::thread::LocalKey<std::cell::Cell<(u64, u64, f64)>>,
    n: u64,
    p: f64,
    f: impl FnOnce() -> f64,
) -> f64 {
    cell.with(|c| {
        let (kn, kp, v) = c.get();
        if kn == n && kp == p.to_bits() {
            return v;
        }
        let v = f();
        c.set((n, p.to_bits(), v));
        v
    })
}

thread_local! {
    /// [`clean_but_two`]'s last value on this thread.
    static CLEAN_BUT_TWO: std::cell::Cell<(u64, u64, f64)> =
        const { std::cell::Cell::new((u64::MAX, 0, 0.0)) };
    /// [`p_hit`]'s last value on this thread.
    static P_HIT: std::cell::Cell<(u64, u64, f64)> =
        const { std::cell::Cell::new((u64::MAX, 0, 0.0)) };
}

/// `(1 - p)^(n - 2)`: no flip in the other bits of a segment of `n` bits.
fn clean_but_two(n: u64, p: f64) -> f64 {
    memo_last(&CLEAN_BUT_TWO, n, p, || {
        f64::exp((n as f64 - 2.0) * f64::ln_1p(-p))
    })
}

/// `P(at least one flip)` in a segment of `n` bits ([`bsc::p_error`]).
pub(super) fn p_hit(n: u64, p: f64) -> f64 {
    memo_last(&P_HIT, n, p, || bsc::p_error(n, p))
}

/// Per column `k`: `flip[k][d + F]`, the weight of the flip patterns (at
/// least one flip, at most `F` per direction) that change the column by
/// `d`, and `clean[k]`, the weight of no flip.
#[inline(always)]
fn column_laws<const F: usize, const W: usize>(h: &Laws) -> ([[f64; W]; 16], [f64; 16]) {
    let mut clean = [0.0f64; 16];
    let mut flip = [[0.0f64; W]; 16];
    for k in 0..16 {
        let (hu, hd) = (h[2 * k].0, h[2 * k + 1].0);
        clean[k] = hu[0] * hd[0];
        for (a, &x) in hu.iter().enumerate().take(F + 1) {
            for (b, &y) in hd.iter().enumerate().take(F + 1) {
                if a + b > 0 {
                    flip[k][a + F - b] += x * y;
                }
            }
        }
    }
    (flip, clean)
}

/// [`bits_fast`] with the carry chain `chain` (over the band layout of
/// [`carry_chain`]): the tests' oracle for the fixed-width chain.
#[doc(hidden)]
pub fn bits_fast_with(key: &BitsKey, p: f64, chain: Chain) -> Option<f64> {
    with_laws(key, p, |f, tail, h| {
        // the sums of column_laws::<f, 2 f + 1>, in a table of 17
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
        band_chain(f, tail, &flip, &clean, chain)
    })
}

/// The band layout of [`carry_chain`] for the cut `f`, and its chain.
fn band_chain(
    f: usize,
    tail: f64,
    flip: &[[f64; 17]; 16],
    clean: &[f64; 16],
    chain: Chain,
) -> Option<f64> {
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
    certify(tail, chain(w, fi, &band, flip, clean, &widths))
}

/// [`column_laws`] and [`chain_fixed`] for the cut `F` (`W = 2 F + 1`,
/// `V = ceil(W / 4)`, `V8 = ceil(W / 8)`), on 8-lane AVX-512 vectors
/// ([`chain_avx512`]) or 4-lane AVX2 ones ([`chain_avx2`]) where the CPU
/// has them (separate products and sums: the same bits) and
/// `ALIAS_NO_SIMD` is not set.
fn fixed_dispatch<const F: usize, const W: usize, const V: usize, const V8: usize>(
    h: &Laws,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            // SAFETY: `has_avx512` checked that the CPU has AVX-512F.
            return unsafe { fixed_avx512::<F, W, V8>(h) };
        }
        if has_avx2() {
            // SAFETY: `has_avx2` checked that the CPU has AVX2.
            return unsafe { fixed_avx2::<F, W, V>(h) };
        }
    }
    fixed::<F, W>(h)
}

/// Whether the CPU has AVX-512F and AVX2 and vector code is allowed.
#[cfg(target_arch = "x86_64")]
pub(super) fn has_avx512() -> bool {
    aliasing_core::markov::cpu::Isa::detect().has_avx512f()
}

/// Runs `$row!(nc)` for each row `nc < $w` (`$w` at most 17), each with
/// `nc` a constant: the rows of a carry-chain column written out, so that
/// each row's band of old carries has constant bounds.
macro_rules! each_row {
    ($w:expr, $row:ident) => {
        each_row!(@ $w, $row, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
    (@ $w:expr, $row:ident, $($nc:literal)*) => {
        $(
            if $nc < $w {
                $row!($nc);
            }
        )*
    };
}

/// [`column_laws`], then [`chain_avx512`]. Callers must check that the CPU
/// has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f")]
unsafe fn fixed_avx512<const F: usize, const W: usize, const V8: usize>(h: &Laws) -> f64 {
    let (flip, clean) = column_laws::<F, W>(h);
    // SAFETY: the caller checked AVX-512F
    unsafe { chain_avx512::<F, W, V8>(&flip, &clean) }
}

/// Defines `$name`, [`chain_fixed`] with each row of carries (the `W`
/// start carries, padded to `$lanes V` lanes that stay 0: they never
/// receive a first flip) as `V` vectors of `$lanes` f64, under the target
/// features `$feat`, with the vector type's intrinsics `$zero`, `$set1`,
/// `$load`, `$store`, `$add`, `$mul`: per lane the same products and sums
/// in the same order (no fused multiply-add), so the same bits. One body
/// for the AVX2 and the AVX-512 chains.
macro_rules! simd_chain {
    ($(#[$doc:meta])* $name:ident, $feat:literal, $lanes:literal,
     $zero:ident, $set1:ident, $load:ident, $store:ident, $add:ident, $mul:ident) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feat)]
        unsafe fn $name<const F: usize, const W: usize, const V: usize>(
            flip: &[[f64; W]; 16],
            clean: &[f64; 16],
        ) -> f64 {
            use std::arch::x86_64::*;
            debug_assert!(W == 2 * F + 1 && $lanes * V >= W && $lanes * V < W + $lanes);
            let mut a = [[[0.0f64; $lanes]; V]; W];
            let mut b = [[[0.0f64; $lanes]; V]; W];
            let mut x0 = [1.0f64; W];
            let mut c0: [Option<usize>; W] = std::array::from_fn(Some);
            for k in 0..16 {
                let fl = &flip[k];
                let (src, dst) = if k % 2 == 0 {
                    (&a, &mut b)
                } else {
                    (&b, &mut a)
                };
                let fc: [f64; W] =
                    std::array::from_fn(|i| fl[i] + if i == F { clean[k] } else { 0.0 });
                // column 0: no run has flipped yet, `dst` (`b`) holds zeros.
                // Each row `nc` is written out for its constant value
                // ([`each_row`]), so its band of old carries has constant
                // bounds: straight-line code, no loop exits to mispredict,
                // the rows' sums overlapping
                if k > 0 {
                    macro_rules! row {
                        ($nc:expr) => {{
                            let nc: usize = $nc;
                            let mut acc = [$zero(); V];
                            for c in (2 * nc).saturating_sub(2 * F)..=(2 * nc).min(W - 1) {
                                let r = $set1(fc[2 * nc - c]);
                                for (v, s) in acc.iter_mut().enumerate() {
                                    // SAFETY: src[c][v] is one vector of f64, in bounds
                                    let x = unsafe { $load(src[c][v].as_ptr()) };
                                    *s = $add(*s, $mul(x, r));
                                }
                            }
                            for (v, s) in acc.iter().enumerate() {
                                // SAFETY: dst[nc][v] is one vector of f64, in bounds
                                unsafe { $store(dst[nc][v].as_mut_ptr(), *s) };
                            }
                        }};
                    }
                    each_row!(W, row);
                }
                for t in 0..W {
                    if let Some(c) = c0[t] {
                        // the first flips of this run, in this column
                        for nc in c.div_ceil(2)..=(c / 2 + F).min(W - 1) {
                            dst[nc][t / $lanes][t % $lanes] += x0[t] * fl[2 * nc - c];
                        }
                        // no flip: carry c - F must be even, halved
                        if (c + F).is_multiple_of(2) {
                            x0[t] *= clean[k];
                            c0[t] = Some((c + F) / 2);
                        } else {
                            c0[t] = None;
                        }
                    }
                }
            }
            // 16 columns: the last wrote `a`
            let mut total = 0.0;
            for (t, row) in a.iter().enumerate() {
                total += row[t / $lanes][t % $lanes];
            }
            total
        }
    };
}

simd_chain!(
    /// The chain on 8-lane AVX-512 vectors ([`simd_chain`]). Callers must
    /// check that the CPU has AVX-512F.
    chain_avx512, "avx2,avx512f", 8,
    _mm512_setzero_pd, _mm512_set1_pd, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_add_pd,
    _mm512_mul_pd
);

/// [`bits_fast`] on the AVX2 path (where the CPU has AVX2): the tests
/// compare it with the others.
#[cfg(target_arch = "x86_64")]
#[doc(hidden)]
pub fn bits_fast_avx2(key: &BitsKey, p: f64) -> Option<Option<f64>> {
    if !has_avx2() {
        return None;
    }
    Some(with_laws(key, p, |f, tail, h| {
        // SAFETY: AVX2 checked above
        let total = unsafe {
            match f {
                1 => fixed_avx2::<1, 3, 1>(h),
                2 => fixed_avx2::<2, 5, 2>(h),
                3 => fixed_avx2::<3, 7, 2>(h),
                4 => fixed_avx2::<4, 9, 3>(h),
                5 => fixed_avx2::<5, 11, 3>(h),
                6 => fixed_avx2::<6, 13, 4>(h),
                7 => fixed_avx2::<7, 15, 4>(h),
                _ => fixed_avx2::<8, 17, 5>(h),
            }
        };
        certify(tail, total)
    }))
}

/// Whether the CPU has AVX2 and vector code is allowed (`ALIAS_NO_SIMD`
/// unset, as [`aliasing_core::markov::cpu::Isa::detect`] reads it).
#[cfg(target_arch = "x86_64")]
pub(super) fn has_avx2() -> bool {
    aliasing_core::markov::cpu::Isa::detect().has_avx2()
}

/// [`bits_fast`] on the portable path only (no AVX2): the tests compare
/// it with the vector one.
#[doc(hidden)]
pub fn bits_fast_portable(key: &BitsKey, p: f64) -> Option<f64> {
    with_laws(key, p, |f, tail, h| {
        let total = match f {
            1 => fixed::<1, 3>(h),
            2 => fixed::<2, 5>(h),
            3 => fixed::<3, 7>(h),
            4 => fixed::<4, 9>(h),
            5 => fixed::<5, 11>(h),
            6 => fixed::<6, 13>(h),
            7 => fixed::<7, 15>(h),
            _ => fixed::<8, 17>(h),
        };
        certify(tail, total)
    })
}

/// [`column_laws`], then [`chain_avx2`]. Callers must check that the CPU
/// has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fixed_avx2<const F: usize, const W: usize, const V: usize>(h: &Laws) -> f64 {
    let (flip, clean) = column_laws::<F, W>(h);
    // SAFETY: the caller checked AVX2
    unsafe { chain_avx2::<F, W, V>(&flip, &clean) }
}

simd_chain!(
    /// The chain on 4-lane AVX2 vectors ([`simd_chain`]). Callers must
    /// check that the CPU has AVX2.
    chain_avx2, "avx2", 4,
    _mm256_setzero_pd, _mm256_set1_pd, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_add_pd,
    _mm256_mul_pd
);

/// [`column_laws`], then [`chain_fixed`].
#[inline(always)]
fn fixed<const F: usize, const W: usize>(h: &Laws) -> f64 {
    let (flip, clean) = column_laws::<F, W>(h);
    chain_fixed::<F, W>(&flip, &clean)
}

/// The carry chain of [`carry_chain`] for a cut `F` known at compile time
/// (`W = 2 F + 1` start carries and carries; `flip[k][d + F]` as in
/// [`column_laws`]): the band of each new carry `nc` gathered from the old
/// carries `c` in `2 nc - 2 F ..= 2 nc` (the weight of the column change
/// `d = 2 nc - c - F`), lane by lane the same products and sums in the same
/// order as [`carry_chain`] (so the same bits), with no zeroed band tables
/// and loops of constant length.
#[inline(always)]
pub(super) fn chain_fixed<const F: usize, const W: usize>(
    flip: &[[f64; W]; 16],
    clean: &[f64; 16],
) -> f64 {
    debug_assert_eq!(W, 2 * F + 1);
    let mut a = [[0.0f64; W]; W];
    let mut b = [[0.0f64; W]; W];
    let mut x0 = [1.0f64; W];
    let mut c0: [Option<usize>; W] = std::array::from_fn(Some);
    for k in (0..16).step_by(2) {
        column_step::<F, W>(&flip[k], clean[k], &a, &mut b, &mut x0, &mut c0);
        column_step::<F, W>(&flip[k + 1], clean[k + 1], &b, &mut a, &mut x0, &mut c0);
    }
    let mut total = 0.0;
    for (t, row) in a.iter().enumerate() {
        total += row[t];
    }
    total
}

/// One column of [`chain_fixed`]: the runs that have flipped, `a1` to `b1`
/// (every row written), then the first flips of the runs that have not
/// (`x0`, `c0`).
#[inline(always)]
fn column_step<const F: usize, const W: usize>(
    fl: &[f64; W],
    clean: f64,
    a1: &[[f64; W]; W],
    b1: &mut [[f64; W]; W],
    x0: &mut [f64; W],
    c0: &mut [Option<usize>; W],
) {
    // the band weights by d + F: the clean probability joins d = 0
    let fc: [f64; W] = std::array::from_fn(|i| fl[i] + if i == F { clean } else { 0.0 });
    for (nc, out) in b1.iter_mut().enumerate() {
        let mut acc = [0.0f64; W];
        for c in (2 * nc).saturating_sub(2 * F)..=(2 * nc).min(W - 1) {
            let r = fc[2 * nc - c];
            for (s, &x) in acc.iter_mut().zip(&a1[c]) {
                *s += x * r;
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
            if (c + F).is_multiple_of(2) {
                x0[t] *= clean;
                c0[t] = Some((c + F) / 2);
            } else {
                c0[t] = None;
            }
        }
    }
}

/// The carry chain of [`bits_fast`] over its `w` start carries at once:
/// `sum_t` (the weight of the runs that start at carry `t`, flip at least
/// once and end at carry `t`). Each start carry `t` is one lane of every
/// vector, so a column step is a few broadcast multiply-adds over the lanes
/// (vectorised), and each lane does exactly the operations, in the same
/// order, of a run computed on its own (the tests' reference computes the
/// runs one by one): the digits do not depend on the layout.
#[doc(hidden)]
pub fn carry_chain(
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
