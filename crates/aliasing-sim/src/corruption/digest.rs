//! An end-to-end CRC over each segment's data, on top of TCP.

use super::*;

/// An end-to-end CRC over each segment's data on top of the TCP checksum:
/// an iSCSI data digest (CRC-32C) or an application CRC (CRC-64/NVME, ...).
/// Both checks see the same corrupted data; a corruption escapes when both
/// pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest {
    /// The CRC's catalogue name.
    pub name: String,
    /// Its width `r` in bits.
    pub width: u32,
    /// The generator without its `x^r` term.
    normal: u64,
    /// Bytes enter least significant bit first.
    refin: bool,
}

impl Digest {
    /// The CRC named `spec` (`crc32c`, `iscsi`, `crc64-nvme`, any catalogue
    /// name or generator `alias` accepts); refuses a check that is not a CRC
    /// and a generator without the `+1` term.
    pub fn resolve(spec: &str) -> Result<Self> {
        let c = aliasing_core::catalogue::resolve(spec)?;
        let normal = c.generator().normal();
        if normal & 1 == 0 {
            return Err(bad(format!(
                "end-to-end CRC `{spec}`: a generator divisible by x detects no burst"
            )));
        }
        Ok(Digest {
            name: c.name().to_string(),
            width: c.width(),
            normal,
            refin: c.refin(),
        })
    }

    /// `x^d mod g` for `d = 0..n`.
    pub(super) fn powers(&self, n: usize) -> Vec<u64> {
        let r = self.width;
        let top = 1u64 << (r - 1);
        let mask = if r == 64 { u64::MAX } else { (1u64 << r) - 1 };
        let mut v = 1u64;
        (0..n)
            .map(|_| {
                let out = v;
                let carry = v & top != 0;
                v = (v << 1) & mask;
                if carry {
                    v ^= self.normal;
                }
                out
            })
            .collect()
    }

    /// The rank over GF(2) of the CRC's syndromes of the `bits` stream bits
    /// starting at bit `a` (0..8) of a byte: the CRC misses `2^(bits -
    /// rank) - 1` of the non-zero error patterns there.
    #[doc(hidden)]
    pub fn burst_rank(&self, a: usize, bits: usize) -> u32 {
        let nbytes = (a + bits).div_ceil(8);
        let pw = self.powers(8 * nbytes);
        let mut basis: Vec<u64> = Vec::new(); // reduced rows, distinct leading bits
        for t in 0..bits {
            let j = a + t; // stream bit j: bit 7 - j % 8 of byte j / 8
            let (byte, bit) = (j / 8, 7 - j % 8);
            // the order the CRC reads the bits in; the degree is the reverse
            let order = 8 * byte + if self.refin { bit } else { 7 - bit };
            let mut v = pw[8 * nbytes - 1 - order];
            for &b in &basis {
                v = v.min(v ^ b);
            }
            if v != 0 {
                basis.push(v);
                basis.sort_unstable_by(|x, y| y.cmp(x));
            }
            if basis.len() as u32 == self.width {
                break;
            }
        }
        basis.len() as u32
    }

    /// The CRC's own largest miss of `burst:B` over the 8 bit alignments of
    /// its start (independent of the data: the error pattern is uniform on
    /// the non-zero `B`-bit values), 0 where every alignment is detected.
    #[doc(hidden)]
    pub fn burst_miss(&self, bits: u32) -> f64 {
        (0..8)
            .map(|a| {
                let k = bits - self.burst_rank(a, bits as usize);
                // (2^k - 1) / (2^B - 1)
                if k == 0 {
                    0.0
                } else {
                    // (2^(k - B) - 2^-B) / (1 - 2^-B)
                    let x = (-(bits as f64)).exp2();
                    ((k as f64 - bits as f64).exp2() - x) / (1.0 - x)
                }
            })
            .fold(0.0, f64::max)
    }

    /// The CRC's own miss of a uniformly random non-zero difference over `m`
    /// whole bytes: `(2^(8m - r) - 1) / 2^(8m)`, 0 below `r` bits.
    pub(super) fn region_miss(&self, m: u64) -> f64 {
        let n = 8 * m;
        if n <= self.width as u64 {
            return 0.0;
        }
        (-(self.width as f64)).exp2() - (-(n as f64)).exp2()
    }
}

/// `p_miss` of the TCP checksum and `digest` together for `model`, from the
/// TCP checksum's own [`Miss`] over the same data (`uniform_data`: that
/// `tcp` came from [`uniform`] for segments of `segment_bytes`). Exact 0
/// where the CRC detects every error the model can make (`word`, and
/// `burst:B` whose bits lie within `r` consecutive bits of the CRC's order
/// at every alignment); otherwise a certified upper bound, the smaller of
/// the TCP value and the CRC's own miss (per splice boundary for uniform
/// data); the method says which.
pub fn with_digest(
    model: &Model,
    tcp: &Miss,
    digest: &Digest,
    segment_bytes: u64,
    uniform_data: bool,
) -> Result<Miss> {
    model.check(segment_bytes)?;
    let r = digest.width;
    let name = &digest.name;
    let (p, method) = match *model {
        Model::Word => (
            0.0,
            format!("exact: {name} detects every error within {r} consecutive bits"),
        ),
        Model::Burst { bits } => {
            let crc = digest.burst_miss(bits);
            if crc == 0.0 {
                (
                    0.0,
                    format!("exact: {name} detects every {bits}-bit burst at every alignment"),
                )
            } else {
                (
                    tcp.p_miss.min(crc),
                    format!(
                        "bound: the smaller of the TCP checksum's exact miss and {name}'s ({crc:.6e}, exact for any data)"
                    ),
                )
            }
        }
        Model::Splice { cell } if uniform_data => {
            let cells = segment_bytes.div_ceil(cell);
            let mut sum = 0.0;
            for k in 0..cells {
                let a = k * cell;
                let m = segment_bytes - a;
                sum += splice_uniform_region(m, a % 2 == 1).min(digest.region_miss(m));
            }
            (
                sum / cells as f64,
                format!(
                    "bound: per cell boundary the smaller of the TCP checksum's exact miss and {name}'s, uniform data"
                ),
            )
        }
        Model::Splice { .. } | Model::Bits { .. } => (
            tcp.p_miss,
            format!("bound: the TCP checksum's exact miss ({name}'s own miss not computed)"),
        ),
    };
    let mut out = tcp.clone();
    out.p_miss = p;
    out.method = method;
    if let (Some(h), true) = (tcp.p_hit, p == 0.0) {
        out.p_undetected = Some(0.0);
        out.p_hit = Some(h);
    } else if tcp.p_hit.is_some() {
        // the bound on P(flip and pass) is the TCP value
        out.p_undetected = tcp.p_undetected;
    }
    Ok(out)
}
