//! The joint escape at BER 0.5, exactly: every error pattern is equally
//! likely, so the received frame is a uniformly random word whatever was
//! sent, and
//! `P(escape) = P(a uniform word passes every check) - 2^-n`
//! (the error-free word, which always passes, taken out).
//!
//! A CRC whose field (whole bytes, read by no other check) closes the frame
//! passes a uniform word with probability `2^-(field bits)`, independently
//! of the bytes before it. An Internet checksum passes iff its integer sum
//! (covered words plus its constant) is `0 mod 65535` and not zero. Its
//! covered bytes are uniform: a byte enters a sum with weight `256` (the
//! high byte of its word) or `1`. The bytes are grouped by the checks that
//! read them (at most two checks, a byte read by both with one weight in
//! both); each group's sum mod 65535 has an exact distribution, kept as its
//! deviation from uniform, `D(y) = 65535 P(y) - 1` (for `W` whole words,
//! `D = 65536^-W (65535 [y = 0] - 1)`; an odd byte is one convolution), so
//! the small deviations are never lost against the uniform part. The
//! "not zero" condition removes the words where a check with constant 0
//! reads only zero bytes (inclusion-exclusion over the checks).

use crate::error::{Error, Limit, Result, StackRule};
use crate::layout::Frame;

const M: usize = 65535;

/// Deviation from uniform of a sum mod 65535: `D(y) = 65535 P(y) - 1`.
struct Deviation(Vec<f64>);

impl Deviation {
    /// The sum of `words` uniform 16-bit words and `high`/`low` further
    /// uniform bytes of weight 256 / 1 (at most 4 of them).
    fn of(words: u64, high: u32, low: u32) -> Result<Deviation> {
        if high + low > 4 {
            return Err(Error::Limit(Limit::UnpairedBytes {
                bytes: high + low,
                max: 4,
            }));
        }
        let d0 = (-(words as f64) * 65536f64.ln()).exp();
        let mut d = vec![-d0; M];
        d[0] = d0 * (M as f64 - 1.0);
        let mut dev = Deviation(d);
        for _ in 0..high {
            dev = dev.add_byte(256);
        }
        for _ in 0..low {
            dev = dev.add_byte(1);
        }
        Ok(dev)
    }

    /// The deviation after adding `c * X`, `X` a uniform byte:
    /// `D'(y) = mean over x of D(y - c x)`.
    fn add_byte(&self, c: usize) -> Deviation {
        let mut out = vec![0.0; M];
        for x in 0..256usize {
            let shift = (c * x) % M;
            for (y, o) in out.iter_mut().enumerate() {
                *o += self.0[(y + M - shift) % M];
            }
        }
        out.iter_mut().for_each(|o| *o /= 256.0);
        Deviation(out)
    }

    fn at(&self, y: i64) -> f64 {
        self.0[y.rem_euclid(M as i64) as usize]
    }
}

/// One group of bytes: uniform words and unpaired bytes.
#[derive(Default, Clone, Copy)]
struct Group {
    high: u64,
    low: u64,
}

impl Group {
    fn deviation(&self) -> Result<Deviation> {
        let words = self.high.min(self.low);
        Deviation::of(words, (self.high - words) as u32, (self.low - words) as u32)
    }
    fn bytes(&self) -> u64 {
        self.high + self.low
    }
}

/// `P(a uniformly random word of the frame's length passes every check)`,
/// exact (to rounding) for frames of one or no CRC whose field ends the
/// frame in whole bytes unread by the other checks, and up to two Internet
/// checksums (a byte read by both with the same weight); refused otherwise.
pub fn uniform_pass_probability(frame: &Frame) -> Result<f64> {
    let refuse = |rule| {
        Error::Limit(Limit::HalfStack {
            stack: frame.stack.clone(),
            rule,
        })
    };
    let mut p = 1.0;
    let mut inet = Vec::new();
    let mut read_by_sums = vec![false; frame.bytes];
    for (i, c) in frame.checks.iter().enumerate() {
        if c.is_internet() {
            inet.push(i);
            for &(a, b) in &c.ranges {
                read_by_sums[a..b].iter_mut().for_each(|r| *r = true);
            }
        } else if let Some(alg) = c.crc() {
            if c.field + c.field_len != frame.bytes || 8 * c.field_len as u32 != alg.width() {
                return Err(refuse(StackRule::CrcFieldEnds));
            }
            p *= 2f64.powi(-(alg.width() as i32));
        } else {
            return Err(refuse(StackRule::CrcAndChecksumsOnly));
        }
    }
    if frame.checks.iter().filter(|c| c.crc().is_some()).count() > 1 {
        return Err(refuse(StackRule::CrcsOver));
    }
    for c in frame.checks.iter().filter(|c| c.crc().is_some()) {
        if read_by_sums[c.field..c.field + c.field_len]
            .iter()
            .any(|&r| r)
        {
            return Err(refuse(StackRule::ChecksumReadsCrc));
        }
    }
    if inet.len() > 2 {
        return Err(refuse(StackRule::ChecksumsOverTwo));
    }
    // weight of each byte in each check: 0 (not read), 1 or 256
    let k = inet.len();
    let mut weight = vec![[0u16; 2]; frame.bytes];
    for (j, &i) in inet.iter().enumerate() {
        let mut off = 0usize;
        for &(a, b) in &frame.checks[i].ranges {
            for w in &mut weight[a..b] {
                if w[j] != 0 {
                    return Err(refuse(StackRule::ByteReadTwice));
                }
                w[j] = if off.is_multiple_of(2) { 256 } else { 1 };
                off += 1;
            }
        }
    }
    // groups: 0 = first check only, 1 = second only, 2 = both
    let mut groups = [Group::default(); 3];
    for w in &weight {
        let g = match (w[0], w[1]) {
            (0, 0) => continue,
            (_, 0) => 0,
            (0, _) => 1,
            (a, b) if a == b => 2,
            _ => return Err(refuse(StackRule::ByteWeights)),
        };
        let c = w[0].max(w[1]);
        if c == 256 {
            groups[g].high += 1;
        } else {
            groups[g].low += 1;
        }
    }
    let constants: Vec<i64> = inet
        .iter()
        .map(|&i| frame.checks[i].constant as i64)
        .collect();
    let zero_all = |bytes: u64| (-(bytes as f64) * 256f64.ln()).exp();
    let inet_p = match k {
        0 => 1.0,
        1 => {
            let d = groups[0].deviation()?;
            let modp = (1.0 + d.at(-constants[0])) / M as f64;
            let zero = if constants[0] == 0 {
                zero_all(groups[0].bytes())
            } else {
                0.0
            };
            modp - zero
        }
        _ => {
            let d1 = groups[0].deviation()?;
            let d2 = groups[1].deviation()?;
            let d12 = groups[2].deviation()?;
            // mean over y of (1 + D12(y))(1 + D1(-c1-y))(1 + D2(-c2-y)), less 1:
            // each single deviation sums to 0, so only the products remain
            let mut excess = 0.0;
            for y in 0..M as i64 {
                let (a, b, c) = (
                    d12.at(y),
                    d1.at(-constants[0] - y),
                    d2.at(-constants[1] - y),
                );
                excess += a * b + a * c + b * c + a * b * c;
            }
            excess /= M as f64;
            let both = (1.0 + excess) / (M as f64 * M as f64);
            // a check with constant 0 fails where it reads only zero bytes
            let n1 = groups[0].bytes() + groups[2].bytes();
            let n2 = groups[1].bytes() + groups[2].bytes();
            let mut zero = 0.0;
            if constants[0] == 0 {
                zero += zero_all(n1) * (1.0 + d2.at(-constants[1])) / M as f64;
            }
            if constants[1] == 0 {
                zero += zero_all(n2) * (1.0 + d1.at(-constants[0])) / M as f64;
            }
            if constants[0] == 0 && constants[1] == 0 {
                zero -= zero_all(n1 + groups[1].bytes());
            }
            both - zero
        }
    };
    Ok(p * inet_p)
}

/// The exact joint escape at BER 0.5: [`uniform_pass_probability`] less
/// `2^-n` (the error-free word).
pub fn escape_at_half(frame: &Frame) -> Result<f64> {
    let pass = uniform_pass_probability(frame)?;
    let clean = (-(frame.n_bits() as f64) * 2f64.ln()).exp();
    Ok(pass - clean)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::layout::Payload;

    /// Two words `(w1, w2)`, every pair counted by brute force with the
    /// folded sum (one fold suffices below 0x1FFFF): 65535 pairs sum to
    /// 65535 or 0x1FFFE, two more have 0 with 0xFFFF; (0, 0) fails.
    pub fn two_words_against_brute_force() {
        let f = Frame::new("internet", 4, Payload::Random).unwrap();
        let mut pass = 0u64;
        // half-open ranges and wrapping arithmetic (no sum here exceeds 17
        // bits) let the 2^32 cases vectorise under the tests' overflow
        // checks: under 2 s of CPU rather than 9
        for w1 in 0..0x1_0000u32 {
            let mut c = 0u32;
            for w2 in 0..0x1_0000u32 {
                let s = w1.wrapping_add(w2);
                c = c.wrapping_add(((s & 0xFFFF).wrapping_add(s >> 16) == 0xFFFF) as u32);
            }
            pass += c as u64;
        }
        assert_eq!(pass, 65537);
        let want = pass as f64 / 2f64.powi(32);
        let got = uniform_pass_probability(&f).unwrap();
        assert!((got - want).abs() <= 1e-15 * want, "{got} vs {want}");
    }

    /// Uniform words drawn at random and verified on the real frame: the
    /// count is within 5 sigma of the computed probability (one checksum,
    /// an odd length with an unpaired byte too).
    pub fn sampled_uniform_words_pass_as_computed() {
        for (stack, bytes) in [("internet", 20), ("tcp", 21)] {
            let f = Frame::new(stack, bytes, Payload::Random).unwrap();
            let p = uniform_pass_probability(&f).unwrap();
            let mut rng = crate::joint::SplitMix(7);
            let draws = 4_000_000u64;
            let mut pass = 0u64;
            let mut w = vec![0u8; bytes];
            for _ in 0..draws {
                for b in w.iter_mut() {
                    *b = rng.next() as u8;
                }
                pass += f.verify_all(&w) as u64;
            }
            let mean = p * draws as f64;
            assert!(
                (pass as f64 - mean).abs() <= 5.0 * mean.sqrt(),
                "{stack}: {pass} of {draws}, expected {mean}"
            );
        }
    }

    /// Two checksums sharing the IPv4 addresses, and the FCS: within a
    /// relative 1e-15 of the independent value `2^-32 65535^-2`, as the
    /// Fourier bound says (the deviations are below `65536^-4`).
    pub fn ethernet_tcp_is_nearly_independent() {
        for bytes in [64, 1518, 9018] {
            let f = Frame::new("ethernet-tcp", bytes, Payload::Random).unwrap();
            let p = escape_at_half(&f).unwrap();
            let ind = 2f64.powi(-32) / (65535.0 * 65535.0);
            assert!((p / ind - 1.0).abs() < 1e-15, "{bytes}: {p} vs {ind}");
        }
        let f = Frame::new("random+CRC-8/SAE-J1850", 21, Payload::Random).unwrap();
        assert_eq!(escape_at_half(&f).unwrap(), 2f64.powi(-8) - 2f64.powi(-168));
    }
}
