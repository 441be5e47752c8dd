//! The whole frame by one character sum over the sent and the received sums.
//!
//! Words of `b` bits (Fletcher-16: `b = 8`), modulus `M = 2^b - 1`, `m`
//! uniformly random data words `d_i` with weights `w_i = m - i`, then the two
//! field words `A = sum d_i mod M` and `B = sum w_i d_i mod M` (each in
//! `0..M`). Write `a_i = d_i mod M` and `a'_i` for the received word mod `M`.
//! The receiver's sums are `A' = sum a'_i` and `B' = sum w_i a'_i`; it
//! passes the frame iff the received field words equal them, and a field
//! word `x` arrives as `y` with probability `Q(x, y) = p^|x^y| (1-p)^(b-|x^y|)`
//! (all-ones never equals a sum). So
//!
//! `P(pass) = sum_{x, y in Z_M^2} P(S = x, S' = y) Q(x1, y1) Q(x2, y2)`,
//!
//! with `S = (A, B)` and `S' = (A', B')`, and `P_ud = P(pass) - (1-p)^(b(m+2))`
//! (an error-free frame always passes). The per-word pairs `(a_i, a'_i)` are
//! independent and equally distributed, so by characters of `Z_M^4`
//!
//! `P(pass) = M^-4 sum_{s, t, u, v} Qh(s, u) Qh(t, v) prod_{j=1}^{m} phi(s + t j, u + v j)`
//!
//! where `phi(s, u) = E[w^(s a + u a')]` (`w = e^(2 pi i / M)`) of one word and
//! `Qh` is the transform of `Q` restricted to `0..M`. Both have closed forms
//! (bit by bit): `phi(s, u) = (-1)^(s+u) prod_k ((1-p) cos(pi 2^k (s+u) / M) +
//! p cos(pi 2^k (s-u) / M))`, real; `Qh(s, u) = 2^b phi(s, u) - E(s) - E(u) +
//! (1-p)^b` with `E(s) = prod_k (p + (1-p) w^(-s 2^k))` (the all-ones word
//! removed from the full `2^b x 2^b` transform).
//!
//! For a fixed `(t, v)` the product runs along the line `(s, u) + j (t, v)`:
//! on each cycle of that translation (length `L` dividing `M`) every window of
//! `m` consecutive values is a power of the cycle's product times a window of
//! `m mod L` values, each found with one multiplication from block prefix and
//! suffix products. Scaling all four frequencies by `2` (rotating the bits of
//! every word) leaves each term unchanged and negating them conjugates it, so
//! only one `(t, v)` per orbit of `{+-2^k}` and of the swap of the two
//! coordinates (sent and received change places) is summed, times the
//! orbit's size. Cost `O(M^4 / (4b))` products, about `1.3e8` for
//! Fletcher-16; a direction whose every window is negligible (it meets the
//! few large `phi` too rarely: `(0, 0)` in mid range, the diagonal near BER
//! 1, the anti-diagonal near 0) is skipped with its whole majorant in the
//! bound, which leaves a few directions on frames of tens of bytes.
//!
//! # Rounding
//!
//! Every computed quantity carries a bound: each `phi` an upper bound `U` on
//! `|phi| + |error|` (cosines within `16 eps` absolute), so a window of `m`
//! computed values is within `prod U - prod |phi|` of the true product (plus
//! the products' own rounding); the sum is compensated. The bound is summed
//! over every term, so it is large exactly where the terms cancel (low BER,
//! where `P(pass)` is nearly the no-error term): the caller returns the value
//! only where the bound is small against it.

use crate::series::Sum;
use rayon::prelude::*;

/// Value and rounding-error bound of the whole-frame character sum: the
/// escape probability `P(pass) - (1-p)^(b(m+2))` of `m` random `b`-bit data
/// words followed by their two Fletcher sums mod `2^b - 1`, at BER `p`.
pub(crate) fn escape(bits: u32, m: u64, p: f64) -> (f64, f64) {
    assert!((2..=8).contains(&bits) && m >= 1 && (0.0..=1.0).contains(&p));
    let eps = f64::EPSILON;
    let mw = (1usize << bits) - 1;
    let mf = mw as f64;
    let q1 = 1.0 - p;
    // cos(pi t / M) for t in 0..2M; each within 16 eps absolute (the argument
    // is below 2 pi with relative error 2 eps)
    let cosv: Vec<f64> = (0..2 * mw)
        .map(|t| (std::f64::consts::PI * t as f64 / mf).cos())
        .collect();
    let ce = 16.0 * eps;
    // bracket error: two cosines (16 eps each, weights summing to 1), the
    // products and sum (3 eps of 1), 1 - p (eps)
    let be = ce + 5.0 * eps;
    let idx = |s: usize, u: usize| s * mw + u;
    let mut phi = vec![0.0f64; mw * mw];
    let mut up = vec![0.0f64; mw * mw];
    for s in 0..mw {
        for u in 0..mw {
            let mut v = if (s + u) % 2 == 1 { -1.0 } else { 1.0 };
            let mut bound = 1.0;
            for k in 0..bits {
                let c1 = cosv[((s + u) << k) % (2 * mw)];
                let diff = (s as i64 - u as i64) << k;
                let c2 = cosv[diff.rem_euclid(2 * mw as i64) as usize];
                let br = q1 * c1 + p * c2;
                v *= br;
                bound *= br.abs() + be;
            }
            phi[idx(s, u)] = v;
            // |computed| + |error| <= prod (|br| + be), with the products'
            // own rounding
            up[idx(s, u)] = bound * (1.0 + 4.0 * bits as f64 * eps);
        }
    }
    // Qh and its error bound
    let ang = 2.0 * std::f64::consts::PI / mf;
    let e_of: Vec<(f64, f64)> = (0..mw)
        .map(|s| {
            let (mut re, mut im) = (1.0f64, 0.0f64);
            for k in 0..bits {
                let a = -ang * ((s << k) % mw) as f64;
                let (zr, zi) = (p + q1 * a.cos(), q1 * a.sin());
                let nr = re * zr - im * zi;
                im = re * zi + im * zr;
                re = nr;
            }
            (re, im)
        })
        .collect();
    let full = (1u64 << bits) as f64;
    let corner = q1.powi(bits as i32);
    let qh: Vec<(f64, f64)> = (0..mw * mw)
        .map(|i| {
            let (s, u) = (i / mw, i % mw);
            (
                full * phi[i] - e_of[s].0 - e_of[u].0 + corner,
                -e_of[s].1 - e_of[u].1,
            )
        })
        .collect();
    // |Qh| + |error|: 2^b (U - |phi|) from phi, E within 32 b eps each, the
    // sums' rounding within 8 eps of their magnitude
    let qa: Vec<f64> = (0..mw * mw)
        .map(|i| {
            let (re, im) = qh[i];
            let mag = re.hypot(im);
            let err =
                full * (up[i] - phi[i].abs()) + 64.0 * bits as f64 * eps + 8.0 * eps * (full + 3.0);
            mag + err + 2.0 * eps * mag
        })
        .collect();
    let qm: Vec<f64> = qh
        .iter()
        .map(|&(re, im)| re.hypot(im) * (1.0 - 2.0 * eps))
        .collect();

    // orbits of (t, v) under the multipliers {+-2^k} and the swap of the
    // two coordinates (the sent and the received sums change places: phi and
    // Qh are symmetric)
    let mut mult: Vec<usize> = Vec::new();
    for k in 0..bits {
        for g in [(1usize << k) % mw, (mw - (1usize << k) % mw) % mw] {
            if !mult.contains(&g) {
                mult.push(g);
            }
        }
    }
    let mut reps: Vec<(usize, usize, f64)> = Vec::new();
    for t in 0..mw {
        for v in 0..mw {
            let mut images: Vec<(usize, usize)> = mult
                .iter()
                .flat_map(|&g| [(g * t % mw, g * v % mw), (g * v % mw, g * t % mw)])
                .collect();
            if images.iter().all(|&x| x >= (t, v)) {
                images.sort_unstable();
                images.dedup();
                reps.push((t, v, images.len() as f64));
            }
        }
    }
    // relative rounding of one window product: at most m + 2 log2(m) + 2
    // multiplications (the cycle's product, its power, the partial window),
    // doubled for safety
    let gamma = 2.0 * (m as f64 + 64.0) * eps;
    let cells: Vec<Cell> = (0..mw * mw)
        .map(|i| Cell {
            phi: phi[i],
            up: up[i],
            qr: qh[i].0,
            qi: qh[i].1,
            qa: qa[i],
            qm: qm[i],
        })
        .collect();
    let tables = Tables {
        mw,
        m,
        cells: &cells,
        gamma,
    };
    // A direction all of whose terms are negligible is not summed; its terms
    // count as 0 with their whole majorant in the bound. Where U is large
    // it is large on a subgroup: (0, 0) (mid range), the diagonal `s = u`
    // (near BER 1: the received byte is about the complement) or the
    // anti-diagonal `s = -u` (near 0). A window meets such a subgroup
    // `c(x) = 0` at most `hits` times, `hits = (m - 1) / P + 1` with `P` the
    // period of `c(x + j (t, v))` in `j` (every time if `c(t, v) = 0` and
    // the subgroup is a line), and elsewhere has U at most the largest off it.
    let classes: [fn(usize, usize, usize) -> usize; 3] = [
        |s, u, _| usize::from(s != 0 || u != 0),
        |s, u, mw| (s + mw - u) % mw,
        |s, u, mw| (s + u) % mw,
    ];
    let extremes: Vec<(f64, f64)> = classes
        .iter()
        .map(|c| {
            let (mut on, mut off) = (0.0f64, 0.0f64);
            for (i, &x) in up.iter().enumerate() {
                if c(i / mw, i % mw, mw) == 0 {
                    on = on.max(x);
                } else {
                    off = off.max(x);
                }
            }
            (on.max(off), off)
        })
        .collect();
    let qa_total = qa.iter().sum::<f64>() * (1.0 + 1e-9);
    let m4 = mf * mf * mf * mf;
    let per_rep: Vec<(f64, f64, f64)> = reps
        .par_iter()
        .map(|&(t, v, size)| {
            let i = idx(t, v);
            let window = classes
                .iter()
                .zip(&extremes)
                .enumerate()
                .map(|(which, (c, &(on, off)))| {
                    let period = if which == 0 {
                        mw / gcd(gcd(t, v), mw)
                    } else {
                        mw / gcd(c(t, v, mw), mw)
                    };
                    let hits = ((m - 1) / period as u64 + 1).min(m);
                    on.powi(hits as i32) * off.powi((m - hits) as i32)
                })
                .fold(f64::INFINITY, f64::min)
                * (1.0 + gamma);
            let skip = qa[i] * qa_total * (window + 1e-300) * (1.0 + 1e-9);
            if skip <= SKIP * m4 {
                return (0.0, size * skip, size * skip);
            }
            let l = tables.line(t, v);
            let (tr, ti) = qh[i];
            let val = tr * l.re - ti * l.im;
            // |term error| <= majorant - |computed term| (see module docs);
            // the compensated sums within 8 eps of the majorant
            let err = qa[i] * l.maj * (1.0 + gamma) - qm[i] * l.low * (1.0 - gamma)
                + 8.0 * eps * qa[i] * l.maj;
            (size * val, size * err.max(0.0), size * qa[i] * l.maj)
        })
        .collect();
    let (mut total, mut err, mut abs) = (Sum::default(), 0.0f64, 0.0f64);
    for &(v, e, a) in &per_rep {
        total.add(v);
        err += e;
        abs += a;
    }
    let pass = total.value() / m4;
    let n = (bits as u64 * (m + 2)) as f64;
    let (clean, clean_err) = if p == 1.0 {
        (0.0, 0.0)
    } else {
        let l = n * f64::ln_1p(-p);
        let c = l.exp();
        (c, c * (4.0 * eps * (l.abs() + 2.0) + n * eps))
    };
    let bound = (err * (1.0 + 1e-6) + 8.0 * eps * abs) / m4 + clean_err + 4.0 * eps * pass.abs();
    (pass - clean, bound)
}

/// A direction whose terms' majorants sum to at most this (in the units of
/// `P(pass)`) is not summed.
const SKIP: f64 = 1e-30;

/// Everything one frequency pair `(s, u)` contributes, together in memory
/// (the lines visit the pairs out of order).
#[derive(Clone, Copy, Default)]
struct Cell {
    /// `phi(s, u)`.
    phi: f64,
    /// Upper bound on `|phi| + |its error|`.
    up: f64,
    /// `Qh(s, u)`, real and imaginary parts.
    qr: f64,
    qi: f64,
    /// Upper bound on `|Qh| + |its error|`.
    qa: f64,
    /// Lower bound on `|Qh|`.
    qm: f64,
}

/// The per-frequency tables of one evaluation.
struct Tables<'a> {
    mw: usize,
    m: u64,
    /// The cell of `(s, u)` at index `s * M + u`.
    cells: &'a [Cell],
    /// Relative rounding of a window product.
    gamma: f64,
}

/// The sums along one line direction.
struct Line {
    re: f64,
    im: f64,
    /// `sum (|Qh| + err) prod U`: every term's majorant.
    maj: f64,
    /// `sum |Qh| |F|` (a lower part of `maj`).
    low: f64,
}

impl Tables<'_> {
    /// For one `(t, v)`: `sum_{s,u} Qh(s, u) F(s, u)` with
    /// `F(s, u) = prod_{j=1}^{m} phi((s, u) + j (t, v))`, and the majorant and
    /// lower sums of its terms.
    fn line(&self, t: usize, v: usize) -> Line {
        let mw = self.mw;
        let len = mw / gcd(gcd(t, v), mw); // the cycle length of the translation by (t, v)
        let q = (self.m / len as u64) as i32;
        let r = (self.m % len as u64) as usize;
        let mut seen = vec![false; mw * mw];
        let (mut re, mut im, mut maj, mut low) = (
            Sum::default(),
            Sum::default(),
            Sum::default(),
            Sum::default(),
        );
        // the cycle's cells, twice over, and block prefix and suffix
        // products of phi and U along it
        let mut cyc: Vec<Cell> = vec![Cell::default(); 2 * len];
        let (mut fp, mut fs, mut up_p, mut up_s) = (
            vec![0.0f64; 2 * len],
            vec![0.0f64; 2 * len],
            vec![0.0f64; 2 * len],
            vec![0.0f64; 2 * len],
        );
        for start in 0..mw * mw {
            if seen[start] {
                continue;
            }
            let (mut s, mut u) = (start / mw, start % mw);
            for k in 0..len {
                let i = s * mw + u;
                seen[i] = true;
                cyc[k] = self.cells[i];
                cyc[k + len] = self.cells[i];
                s += t;
                if s >= mw {
                    s -= mw;
                }
                u += v;
                if u >= mw {
                    u -= mw;
                }
            }
            let (mut cf, mut cu) = (1.0f64, 1.0f64);
            for c in &cyc[..len] {
                cf *= c.phi;
                cu *= c.up;
            }
            let (pf, pu) = (cf.powi(q), cu.powi(q));
            if r > 0 {
                for b0 in (0..2 * len).step_by(r) {
                    let end = (b0 + r).min(2 * len);
                    let (mut a, mut b) = (1.0f64, 1.0f64);
                    for k in b0..end {
                        a *= cyc[k].phi;
                        b *= cyc[k].up;
                        fp[k] = a;
                        up_p[k] = b;
                    }
                    let (mut a, mut b) = (1.0f64, 1.0f64);
                    for k in (b0..end).rev() {
                        a *= cyc[k].phi;
                        b *= cyc[k].up;
                        fs[k] = a;
                        up_s[k] = b;
                    }
                }
            }
            let (mut cre, mut cim, mut cmaj, mut clow) = (0.0, 0.0, 0.0, 0.0);
            // position of k + 1 in its block of r
            let mut at = if r == 0 { 0 } else { 1 % r };
            for (k, c) in cyc[..len].iter().enumerate() {
                // the window k+1 ..= k+r along the cycle, after q whole cycles
                let (wf, wu) = if r == 0 {
                    (1.0, 1.0)
                } else {
                    let s0 = k + 1;
                    let e0 = s0 + r - 1;
                    let w = if at == 0 {
                        (fs[s0], up_s[s0])
                    } else {
                        (fs[s0] * fp[e0], up_s[s0] * up_p[e0])
                    };
                    at += 1;
                    if at == r {
                        at = 0;
                    }
                    w
                };
                let f = pf * wf;
                // subnormal products lose relative accuracy: an absolute margin
                let uu = pu * wu * (1.0 + self.gamma) + 1e-300;
                cre += c.qr * f;
                cim += c.qi * f;
                cmaj += c.qa * uu;
                clow += c.qm * f.abs();
            }
            re.add(cre);
            im.add(cim);
            maj.add(cmaj);
            low.add(clow);
        }
        // per-cycle plain sums (at most M terms): within M eps of the sum of
        // magnitudes, which the majorant bounds
        let slack = 2.0 * mw as f64 * f64::EPSILON;
        Line {
            re: re.value(),
            im: im.value(),
            maj: maj.value() * (1.0 + 2.0 * slack),
            low: low.value() * (1.0 - slack),
        }
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// The two sums of `b`-bit words mod `2^b - 1`, as a sender computes them
    /// (`A = sum d`, `B = sum of the running A`), each in `0..2^b - 1`.
    fn sums(bits: u32, words: &[u32]) -> (u32, u32) {
        let mw = (1u32 << bits) - 1;
        let (mut a, mut b) = (0u32, 0u32);
        for &x in words {
            a = (a + x) % mw;
            b = (b + a) % mw;
        }
        (a, b)
    }

    /// Every data value and every error pattern of the frame of `m` words
    /// and its two sum words: escapes counted by the weight of the error.
    fn brute(bits: u32, m: usize) -> Vec<u64> {
        let nw = m + 2;
        let nbits = bits as usize * nw;
        let mask = (1u32 << bits) - 1;
        let mut count = vec![0u64; nbits + 1];
        let mut frame = vec![0u32; nw];
        let mut recv = vec![0u32; nw];
        for data in 0u64..1 << (bits as usize * m) {
            for (i, w) in frame.iter_mut().take(m).enumerate() {
                *w = (data >> (bits as usize * i)) as u32 & mask;
            }
            let (a, b) = sums(bits, &frame[..m]);
            frame[m] = b;
            frame[m + 1] = a;
            for e in 1u64..1 << nbits {
                for (i, w) in recv.iter_mut().enumerate() {
                    *w = frame[i] ^ ((e >> (bits as usize * i)) as u32 & mask);
                }
                let (ra, rb) = sums(bits, &recv[..m]);
                if recv[m] == rb && recv[m + 1] == ra {
                    count[e.count_ones() as usize] += 1;
                }
            }
        }
        count
    }

    fn from_counts(count: &[u64], bits: u32, m: usize, p: f64) -> f64 {
        let n = count.len() - 1;
        let mut s = Sum::default();
        for (w, &c) in count.iter().enumerate() {
            s.add(c as f64 * p.powi(w as i32) * (1.0 - p).powi((n - w) as i32));
        }
        s.value() / (1u64 << (bits as usize * m)) as f64
    }

    pub fn sender_sums_are_fletcher16s() {
        use crate::check::Check;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in [1usize, 2, 7, 300] {
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            let words: Vec<u32> = data.iter().map(|&d| u32::from(d)).collect();
            let (a, b) = sums(8, &words);
            assert_eq!(
                crate::checksum::Fletcher16.compute(&data),
                u64::from(b << 8 | a)
            );
        }
    }

    pub fn agrees_with_every_data_value_and_error_pattern() {
        // 2-bit words (mod 3: every line's cycle, 3, is shorter than the
        // frame from 3 words on), 3-bit words (mod 7) and 4-bit words (mod 15)
        // (the test command leaves out 5 2-bit words and 3 3-bit words:
        // 2^24 data values and patterns each, as 2 4-bit words)
        let all = [
            (2u32, 1usize),
            (2, 3),
            (2, 5),
            (3, 1),
            (3, 2),
            (3, 3),
            (4, 2),
        ];
        let cases: Vec<(u32, usize)> = all
            .into_iter()
            .filter(|&c| crate::tier::full() || !matches!(c, (2, 5) | (3, 3)))
            .collect();
        let bers = [
            1e-3, 0.01, 0.1, 0.3, 0.45, 0.5, 0.55, 0.7, 0.9, 0.99, 0.999, 1.0,
        ];
        for (bits, m) in cases {
            let count = brute(bits, m);
            assert_eq!(count[1], 0, "{bits} {m}: a single flip always shows");
            for &p in &bers {
                let want = from_counts(&count, bits, m, p);
                let (v, bound) = escape(bits, m as u64, p);
                assert!(
                    (v - want).abs() <= bound.max(1e-15 * want),
                    "{bits} bits, {m} words, BER {p}: {v} vs {want} (bound {bound:e})"
                );
                // and the bound is tight enough to certify mid-range values
                if (0.1..=0.9).contains(&p) {
                    assert!(
                        bound <= 1e-10 * want,
                        "{bits} {m} {p}: {bound:e} vs {want:e}"
                    );
                }
            }
        }
    }
}
