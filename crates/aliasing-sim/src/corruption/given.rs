//! `word`, `burst` and `splice` over one segment of given data: integer
//! counts.

use super::*;

/// Full data words equal to 0x0000 or 0xFFFF: compiled for AVX2 where the
/// CPU has it (integer counts: the same whichever path).
#[doc(hidden)]
pub fn word_count(seg: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: `has_avx2` checked that the CPU has AVX2.
        return unsafe { word_count_avx2(seg) };
    }
    word_count_body(seg)
}

/// [`word_count_body`] compiled with AVX2. Callers must check that the CPU
/// has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn word_count_avx2(seg: &[u8]) -> u64 {
    word_count_body(seg)
}

/// [`word_count`] on the portable path (inlined into the AVX2 one).
#[inline(always)]
#[doc(hidden)]
pub fn word_count_body(seg: &[u8]) -> u64 {
    // 4 words per little-endian u64 (a word's two bytes form one 16-bit
    // lane whatever their order): a lane is 0 iff its low 15 bits plus
    // 0x7FFF do not carry into bit 15 and its bit 15 is 0, exactly (no
    // carry crosses lanes); each lane of `acc` counts its zero lanes of
    // x and of !x, at most 2 x 8191 before it is folded. 32 bytes a step,
    // four u64 in four counters (one vector)
    const LOW: u64 = 0x7FFF_7FFF_7FFF_7FFF;
    let zeros = |x: u64| (!(((x & LOW) + LOW) | x) >> 15) & 0x0001_0001_0001_0001;
    let fold = |acc: u64| acc.wrapping_mul(0x0001_0001_0001_0001) >> 48;
    let mut n = 0u64;
    let mut it = seg.chunks_exact(32);
    loop {
        let mut acc = [0u64; 4];
        let mut k = 0;
        for c in it.by_ref().take(8191) {
            for (i, a) in acc.iter_mut().enumerate() {
                let x = u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().expect("8 bytes"));
                *a += zeros(x) + zeros(!x);
            }
            k += 1;
        }
        if k == 0 {
            break;
        }
        for a in acc {
            n += fold(a);
        }
    }
    let mut rest = it.remainder().chunks_exact(8);
    for c in &mut rest {
        let x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        n += fold(zeros(x) + zeros(!x));
    }
    for w in rest.remainder().chunks_exact(2) {
        n += (w[0] == w[1] && (w[0] == 0 || w[0] == 0xFF)) as u64;
    }
    n
}

/// The weighted byte sum of `b` (not reduced): weight 256 for bytes at even
/// offsets of the segment, 1 at odd ones; `odd` says where `b` starts.
#[inline(always)]
pub(super) fn wsum(b: &[u8], odd: bool) -> u64 {
    let (mut s, rest) = match (odd, b) {
        (true, [first, rest @ ..]) => (*first as u64, rest),
        _ => (0, b),
    };
    // high bytes and low bytes summed apart (vectorizes)
    let (mut hi, mut lo) = (0u64, 0u64);
    let mut it = rest.chunks_exact(2);
    for w in &mut it {
        hi += w[0] as u64;
        lo += w[1] as u64;
    }
    s += (hi << 8) + lo;
    if let [x] = it.remainder() {
        s += (*x as u64) << 8;
    }
    s
}

/// The last index below `end` where `a` and `b` differ.
pub(super) fn last_difference(a: &[u8], b: &[u8], end: usize) -> Option<usize> {
    let (a, b) = (&a[..end], &b[..end]);
    let mut hi = end;
    while hi > 0 {
        let lo = hi.saturating_sub(64);
        if a[lo..hi] != b[lo..hi] {
            return (lo..hi).rev().find(|&i| a[i] != b[i]);
        }
        hi = lo;
    }
    None
}

/// Splice boundaries (out of `ceil(len / cell)`) where the bytes change and
/// the sum does not.
pub(super) fn splice_hits(seg: &[u8], next: &[u8], cell: usize) -> u64 {
    let end = seg.len().min(next.len());
    splice_count(seg, next, end, cell, |a, b| {
        (wsum(&seg[a..b], a % 2 == 1), wsum(&next[a..b], a % 2 == 1))
    })
}

/// [`splice_hits`] for two segments of the same length whose cell sums
/// ([`cell_sums`]) are known.
pub(super) fn splice_hits_sums(
    seg: &[u8],
    next: &[u8],
    cell: usize,
    old: &[u64],
    new: &[u64],
) -> u64 {
    debug_assert_eq!(seg.len(), next.len());
    splice_count(seg, next, seg.len(), cell, |a, _| {
        (old[a / cell], new[a / cell])
    })
}

/// The splice count over the bytes below `end`, with `sums(a, b)` the
/// weighted sums of the old and new bytes `a..b` of one cell.
pub(super) fn splice_count(
    seg: &[u8],
    next: &[u8],
    end: usize,
    cell: usize,
    sums: impl Fn(usize, usize) -> (u64, u64),
) -> u64 {
    let Some(last) = last_difference(seg, next, end) else {
        return 0;
    };
    let mut hits = 0;
    let (mut old, mut new) = (0u64, 0u64);
    let mut k = (end - 1) / cell;
    loop {
        let a = k * cell;
        let (o, n) = sums(a, (a + cell).min(end));
        old += o;
        new += n;
        if a <= last && old % M == new % M {
            hits += 1;
        }
        if k == 0 {
            break;
        }
        k -= 1;
    }
    hits
}

/// The weighted sums ([`wsum`]) of the cells of `seg` into `out`: compiled
/// for AVX2 where the CPU has it (integer sums: the same whichever path).
#[doc(hidden)]
pub fn cell_sums(seg: &[u8], cell: usize, out: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: `has_avx2` checked that the CPU has AVX2.
        return unsafe { cell_sums_avx2(seg, cell, out) };
    }
    cell_sums_body(seg, cell, out)
}

/// [`cell_sums_body`] compiled with AVX2. Callers must check that the CPU
/// has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn cell_sums_avx2(seg: &[u8], cell: usize, out: &mut [u64]) {
    cell_sums_body(seg, cell, out)
}

/// [`cell_sums`] on the portable path (inlined into the AVX2 one).
#[inline(always)]
#[doc(hidden)]
pub fn cell_sums_body(seg: &[u8], cell: usize, out: &mut [u64]) {
    for (k, c) in seg.chunks(cell).enumerate() {
        out[k] = wsum(c, (k * cell) % 2 == 1);
    }
}

/// Burst starts (out of `8 len - B + 1`) whose window's residue is below
/// `t = 2^(B mod 16)`, for `B >= 16`.
pub(super) fn burst_low(seg: &[u8], bits: u32) -> u64 {
    let nbits = 8 * seg.len();
    let b = bits as usize;
    let t = burst_t(bits);
    // S(j): the sum of stream bits 0..j, bit i weighted 2^(15 - i mod 16),
    // mod M, for every j (no division: every step adds less than M)
    let reduce = |x: u32| if x >= M as u32 { x - M as u32 } else { x };
    let mut sj = Vec::with_capacity(nbits + 1);
    let mut acc = 0u32; // the sum at the start of the current word
    for c in seg.chunks(2) {
        let w = u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]) as u32;
        for r in 0..16 {
            // the word's top r bits, in place (at most 0xFFFE for r < 16)
            let top = w & !((1u32 << (16 - r)) - 1) & 0xFFFF;
            sj.push(reduce(acc + top));
        }
        acc = reduce(acc + w);
    }
    // S(8 len): for an odd length that is inside the half word, whose pad
    // byte is zero, so the whole word's sum
    sj.truncate(nbits);
    sj.push(acc);
    let mut n = 0u64;
    for s in 0..=nbits - b {
        let hi = sj[s + b];
        let lo = sj[s];
        let d = if hi >= lo {
            hi - lo
        } else {
            hi + M as u32 - lo
        };
        // V = D * 2^((s + B) mod 16) mod M: a rotation of d (< M)
        let v = (d as u16).rotate_left(((s + b) % 16) as u32) as u64;
        n += (v < t) as u64;
    }
    n
}
