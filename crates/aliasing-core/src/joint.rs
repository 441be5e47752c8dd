//! Exact joint escape of a stack of one CRC and Internet checksums on a
//! binary symmetric channel: the probability that a frame is corrupted and
//! *every* check passes, from the CRC's low-weight codewords placed in the
//! frame's wire positions.
//!
//! # The sum
//!
//! An error pattern escapes the CRC iff it is a codeword, so
//! `P_joint = sum_w p^w (1-p)^(n-w) S_w`, where `S_w` sums, over the
//! weight-`w` codewords at the frame length, the probability over the random
//! bytes that every Internet checksum passes too. Codewords are named by wire
//! position: the CRC covers the whole frame with its field at the end and
//! processes bits in wire order, so wire bit `j` of an `n`-bit frame is the
//! coefficient of `x^(n-1-j)` (Ethernet: bytes least significant bit first,
//! CRC-32/ISO-HDLC reflected). [`JointModel::new`] checks this on a real
//! frame and refuses a layout where it does not hold.
//!
//! Codeword *shapes* ([`crate::lowweight::shapes`]) slide over the frame.
//! Inside the random payload a bit's role repeats every 16 bits (its column
//! in the checksum's 16-bit word), so for the offsets where a shape lies
//! wholly in that periodic zone only the offset mod 16 matters: 16
//! evaluations, each counted as often as it occurs. The other offsets (those
//! touching headers, check fields or the FCS) are evaluated one by one.
//!
//! # One pattern's pass probability
//!
//! The received ones'-complement sum folds to `0xFFFF` iff the integer sum is
//! `0 mod 65535` and not zero; a valid frame's sum is `0 mod 65535`. The
//! received integer sum is never zero for a pattern of fewer than 16 flips,
//! in any layout: it is zero only if the constant is 0 and every summed
//! word is 0 after the flips, so the pattern flips every 1 bit of the sent
//! words, and those are at least 16 (the sent words fold to `0xFFFF`, and
//! neither adding nor folding raises the count of 1 bits). Flipping bit `c`
//! of a 16-bit word (its column; `2^16 = 1 mod 65535`, so only the column
//! counts) adds `+2^c` if the bit was 0 and `-2^c` if it was 1, so a pattern
//! passes check `i` iff `sum_j s_j 2^(c_j) = 0 mod 65535`. Then:
//! - a flip in a fixed byte has a known sign;
//! - a flip in a random payload bit has a fair-coin sign, independent of the
//!   other bits (the same coin in every check that covers the bit);
//! - a flip in a checksum field computed from random data has the sign of
//!   the field's bit. The field is `F = 0xFFFF - fold(sum of the other
//!   words)`, a function of the data: it takes the 65535 values
//!   `0x0000..=0xFFFE`, never `0xFFFF`. The model: `F` uniform on those
//!   65535 values, independent of the flipped payload bits; a set of `f`
//!   flipped field columns then shows the bit pattern `b` with probability
//!   `(2^(16-f) - [b all ones]) / 65535`.
//!
//! Why the model is (almost) exact. Condition on every payload bit but the
//! `m` random 16-bit words the pattern does not touch. Their sum mod 65535
//! has Fourier coefficients `65536^-m` at every non-zero frequency (one
//! uniform word: `sum_{v<65536} w^(tv) / 65536 = 1/65536`, because `0` and
//! `0xFFFF` are both `0 mod 65535`), so each residue has probability
//! `1/65535` within `65536^-m`, and the total variation distance between
//! `F` (given the touched bits) and the model is at most
//! `65534/2 * 65536^-m < 2^(15 - 16m)`. A pattern that flips no field bit
//! does not depend on `F` at all, so its probability is exact; one that
//! does is within `2^(15-16m)` of the model, with `m` at least the check's
//! random words minus `w - 1`. [`Term::model_error`] carries that bound
//! (summed over the patterns that touch a field) into the bracket. For
//! weights up to 5 it is below 1e-160 once the check has 40 random words
//! (frames of 138 bytes or more in `ethernet-tcp`); tiny frames state it.
//!
//! # The bracket
//!
//! Every pass probability is at most 1, so the weights not enumerated add
//! at most `R = P_ud(CRC) - sum_{w<=W} A_w p^w (1-p)^(n-w)`, with `P_ud` and
//! `A_w` exact from the dual code (MacWilliams). `R` is formed in binary
//! fixed point with a proven error bound ([`crate::highprec::p_undetected_above`]),
//! so it is not lost to cancellation. `[low, high] = [sum_w S_w p^w (1-p)^(n-w),
//! low + R]`, each widened by the field model's bound where that is not 0.
//!
//! ```
//! use aliasing_core::joint::JointModel;
//! use aliasing_core::layout::{Frame, Payload};
//! let f = Frame::new("ethernet-tcp", 600, Payload::Random).unwrap();
//! let m = JointModel::new(&f).unwrap();
//! // two flips in one payload column cancel half the time ...
//! let a = 8 * 100 + 3;
//! assert_eq!(m.pass_probability(&[a, a + 16]), 0.5);
//! // ... and one flip never passes the TCP checksum
//! assert_eq!(m.pass_probability(&[a]), 0.0);
//! ```

use crate::bsc;
use crate::check::CheckSpec;
use crate::error::{Error, Result};
use crate::layout::{Frame, Payload};
use crate::lowweight;
use crate::poly::Generator;
use crate::progress::{Progress, Silent};
use rayon::prelude::*;

mod plan;
mod uniform;
pub use plan::{FrameTally, JointPlan, SAMPLE_CHUNK, SampleTally, TermTally};
pub use uniform::{escape_at_half, uniform_pass_probability};

/// Most Internet checksums a stack may have beside its CRC.
pub const MAX_CHECKS: usize = 4;

/// Most random payload bits one pattern may flip (its coins are enumerated).
pub const MAX_COINS: usize = 16;

const MODULUS: i64 = 65535;

/// The denominator of [`JointModel::pass_count`]: `65535 * 2^16`.
pub const PASS_SCALE: u64 = 65535 << MAX_COINS;

/// How a flip of one bit changes one checksum's sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    /// A fixed 0 bit: `+2^c`.
    Up,
    /// A fixed 1 bit: `-2^c`.
    Down,
    /// A random payload bit: either, with probability 1/2 each.
    Coin,
    /// A bit of this check's own field, computed from random data.
    Field,
}

/// Per wire bit: for each Internet check, `Some((column, direction))` when
/// the check covers the bit.
type BitRole = [Option<(u8, Dir)>; MAX_CHECKS];

/// The stack's checks as the joint computation sees them: the CRC and, per
/// wire bit, its role in each Internet checksum.
#[derive(Debug, Clone)]
pub struct JointModel {
    /// Frame length in bits.
    pub n: u32,
    /// The CRC's generator.
    pub generator: Generator,
    /// Index of the CRC in the frame's checks.
    pub crc: usize,
    /// Indices of the Internet checksums in the frame's checks.
    pub internet: Vec<usize>,
    roles: Vec<BitRole>,
    /// `[z0, z1)`: wire bits whose role repeats with period 16.
    zone: Option<(u32, u32)>,
    /// Per Internet check with a random field: its 16-bit words that are
    /// wholly random payload (for the field model's bound); `None` for a
    /// check whose field is fixed.
    random_words: Vec<Option<u64>>,
}

fn column(offset: usize, bit: u32) -> u8 {
    // big-endian words: the even byte of a word holds columns 8..16
    if offset.is_multiple_of(2) {
        8 + bit as u8
    } else {
        bit as u8
    }
}

impl JointModel {
    /// The model of `frame`: exactly one CRC over the whole frame with its
    /// field at the end, sent in the bit order the CRC reads (checked on a
    /// real frame), plus up to [`MAX_CHECKS`] Internet checksums; at most
    /// one Internet field may depend on random data, and no other varying
    /// field may lie under an Internet checksum.
    pub fn new(frame: &Frame) -> Result<Self> {
        let refuse = |why: &str| {
            Error::Unsupported(format!(
                "the joint computation does not handle stack `{}`: {why}",
                frame.stack
            ))
        };
        let crcs: Vec<usize> = (0..frame.checks.len())
            .filter(|&i| frame.checks[i].crc().is_some())
            .collect();
        let internet: Vec<usize> = (0..frame.checks.len())
            .filter(|&i| frame.checks[i].is_internet())
            .collect();
        if crcs.len() != 1 || crcs.len() + internet.len() != frame.checks.len() {
            return Err(refuse(
                "it needs one CRC and otherwise Internet checksums only",
            ));
        }
        if internet.len() > MAX_CHECKS {
            return Err(refuse("more than 4 Internet checksums"));
        }
        let crc = crcs[0];
        let c = &frame.checks[crc];
        let alg = c.crc().expect("filtered above");
        if c.data != (0, c.field)
            || c.field + c.field_len != frame.bytes
            || 8 * c.field_len as u32 != alg.width()
        {
            return Err(refuse(
                "the CRC must cover the whole frame with its field, of whole bytes, at the end",
            ));
        }
        let n = u32::try_from(frame.n_bits()).map_err(|_| refuse("frame too long"))?;
        let mut roles: Vec<BitRole> = vec![[None; MAX_CHECKS]; n as usize];
        let mut random_words = Vec::new();
        let random_byte = |b: usize| {
            frame.payload == Payload::Random && (frame.random.0..frame.random.1).contains(&b)
        };
        for (k, &i) in internet.iter().enumerate() {
            let ch = &frame.checks[i];
            let ranges = &ch.ranges;
            let field_varies = frame.varies[ch.field];
            let mut off = 0usize;
            let mut words = 0u64;
            let mut pending_random = false;
            for &(a, b) in ranges {
                for byte in a..b {
                    let own = (ch.field..ch.field + ch.field_len).contains(&byte);
                    if own && (off - (byte - ch.field)) % 2 == 1 {
                        return Err(refuse("a checksum field does not start a 16-bit word"));
                    }
                    let random = random_byte(byte);
                    if frame.varies[byte] && !random && !own {
                        return Err(refuse(
                            "a field computed from random data lies under another checksum",
                        ));
                    }
                    if off.is_multiple_of(2) {
                        pending_random = random;
                    } else if random && pending_random {
                        words += 1;
                    }
                    for bit in 0..8u32 {
                        let dir = if own && field_varies {
                            Dir::Field
                        } else if random {
                            Dir::Coin
                        } else if (frame.template[byte] >> bit) & 1 == 0 {
                            Dir::Up
                        } else {
                            Dir::Down
                        };
                        let t = wire_bit(frame, byte, bit);
                        roles[t as usize][k] = Some((column(off, bit), dir));
                    }
                    off += 1;
                }
            }
            random_words.push(field_varies.then_some(words));
        }
        if random_words.iter().filter(|w| w.is_some()).count() > 1 {
            return Err(refuse(
                "more than one checksum field computed from random data",
            ));
        }
        let zone = periodic_zone(&roles);
        let model = JointModel {
            n,
            generator: alg.generator(),
            crc,
            internet,
            roles,
            zone,
            random_words,
        };
        model.check_wire_order(frame)?;
        Ok(model)
    }

    /// Flips a codeword (`x^k g(x)` in wire positions) in a real frame and
    /// checks that the CRC still passes, and that one flip fails it.
    fn check_wire_order(&self, frame: &Frame) -> Result<()> {
        let fr = frame.sent(&vec![0; frame.random.1 - frame.random.0]);
        let g = self.generator.full();
        let deg = self.generator.width();
        let n = self.n;
        let bad = || {
            Error::Unsupported(format!(
                "stack `{}`: its CRC does not read the frame in wire bit order",
                frame.stack
            ))
        };
        if !frame.verify(self.crc, &fr) {
            return Err(bad());
        }
        let k = (n - deg - 1) / 2;
        let codeword: Vec<u32> = (0..=deg)
            .filter(|e| (g >> e) & 1 == 1)
            .map(|e| n - 1 - (e + k))
            .collect();
        let mut flipped = fr.clone();
        frame.flip(&mut flipped, &codeword);
        let mut one = fr.clone();
        frame.flip(&mut one, &[n / 2]);
        if !frame.verify(self.crc, &flipped) || frame.verify(self.crc, &one) {
            return Err(bad());
        }
        Ok(())
    }

    /// The probability over the random bytes that every Internet checksum
    /// passes when the wire bits `pattern` (distinct) flip; the CRC is not
    /// consulted. Exact for patterns that flip no field computed from random
    /// data, else within the bound of the module documentation.
    ///
    /// # Panics
    /// If a position is not below [`JointModel::n`] or more than
    /// [`MAX_COINS`] random payload bits flip.
    pub fn pass_probability(&self, pattern: &[u32]) -> f64 {
        let c = self
            .pass_count(pattern)
            .expect("too many random bits flipped");
        c as f64 / PASS_SCALE as f64
    }

    /// [`JointModel::pass_probability`] times [`PASS_SCALE`]: an exact
    /// integer (coins contribute halves, the field model 65535ths). `None`
    /// when more than [`MAX_COINS`] random payload bits flip.
    ///
    /// # Panics
    /// If a position is not below [`JointModel::n`].
    pub fn pass_count(&self, pattern: &[u32]) -> Option<u64> {
        let nc = self.internet.len();
        let mut fixed = [0i64; MAX_CHECKS];
        let mut coins = [[0i64; MAX_CHECKS]; MAX_COINS];
        let mut has_coin = [false; MAX_CHECKS];
        let mut k = 0usize;
        let mut field = [0u16; MAX_CHECKS];
        for &t in pattern {
            let role = &self.roles[t as usize];
            let mut coin = None;
            for (i, r) in role.iter().enumerate().take(nc) {
                let Some((c, d)) = *r else { continue };
                let v = 1i64 << c;
                match d {
                    Dir::Up => fixed[i] += v,
                    Dir::Down => fixed[i] -= v,
                    Dir::Field => field[i] |= 1 << c,
                    Dir::Coin => {
                        let j = match coin {
                            Some(j) => j,
                            None => {
                                if k == MAX_COINS {
                                    return None;
                                }
                                k += 1;
                                coin = Some(k - 1);
                                k - 1
                            }
                        };
                        coins[j][i] = v;
                        has_coin[i] = true;
                    }
                }
            }
        }
        // At most one check has a random field (JointModel::new), so each
        // coin assignment contributes 65535 (every check passes), 0, or the
        // field's count. The checks no coin reaches give the same factor for
        // every assignment: taken once.
        let mut base = MODULUS as u64;
        let mut live = [0usize; MAX_CHECKS];
        let mut nl = 0;
        for i in 0..nc {
            if has_coin[i] {
                live[nl] = i;
                nl += 1;
            } else if field[i] == 0 {
                if fixed[i] % MODULUS != 0 {
                    return Some(0);
                }
            } else {
                base = field_count(fixed[i], field[i]);
                if base == 0 {
                    return Some(0);
                }
            }
        }
        let live = &live[..nl];
        // the coin assignments in Gray-code order: one coin changes sign a
        // step (a 1 bit of the mask: the coin's bit was 1, a flip down)
        let mut d = fixed;
        for c in coins.iter().take(k) {
            for &i in live {
                d[i] += c[i];
            }
        }
        let mut total = 0u64;
        let mut mask = 0u32;
        for step in 0u32..1 << k {
            if step > 0 {
                let j = step.trailing_zeros() as usize;
                mask ^= 1 << j;
                let twice = if (mask >> j) & 1 == 1 { -2 } else { 2 };
                for &i in live {
                    d[i] += twice * coins[j][i];
                }
            }
            let mut v = base;
            for &i in live {
                if field[i] == 0 {
                    if d[i] % MODULUS != 0 {
                        v = 0;
                        break;
                    }
                } else {
                    // the field's check has coins: `base` is 65535 here
                    v = field_count(d[i], field[i]);
                    if v == 0 {
                        break;
                    }
                }
            }
            total += v;
        }
        Some(total << (MAX_COINS - k))
    }

    /// The first form of [`JointModel::pass_count`] (every check for every
    /// coin assignment), for the tests.
    #[cfg(test)]
    fn pass_count_reference(&self, pattern: &[u32]) -> Option<u64> {
        let nc = self.internet.len();
        let mut fixed = [0i64; MAX_CHECKS];
        let mut coins = [[0i64; MAX_CHECKS]; MAX_COINS];
        let mut k = 0usize;
        let mut field = [0u16; MAX_CHECKS];
        for &t in pattern {
            let role = &self.roles[t as usize];
            let mut coin = None;
            for (i, r) in role.iter().enumerate().take(nc) {
                let Some((c, d)) = *r else { continue };
                let v = 1i64 << c;
                match d {
                    Dir::Up => fixed[i] += v,
                    Dir::Down => fixed[i] -= v,
                    Dir::Field => field[i] |= 1 << c,
                    Dir::Coin => {
                        let j = match coin {
                            Some(j) => j,
                            None => {
                                if k == MAX_COINS {
                                    return None;
                                }
                                k += 1;
                                coin = Some(k - 1);
                                k - 1
                            }
                        };
                        coins[j][i] = v;
                    }
                }
            }
        }
        // at most one check has a random field (JointModel::new), so each
        // coin assignment contributes 65535 (passes), 0, or the field's count
        let mut total = 0u64;
        for mask in 0u32..1 << k {
            let mut v = MODULUS as u64;
            for i in 0..nc {
                let mut d = fixed[i];
                for (j, c) in coins.iter().enumerate().take(k) {
                    if (mask >> j) & 1 == 1 {
                        d -= c[i]
                    } else {
                        d += c[i]
                    }
                }
                v = if field[i] == 0 {
                    v * (d.rem_euclid(MODULUS) == 0) as u64
                } else {
                    field_count(d, field[i]) * (v / MODULUS as u64)
                };
                if v == 0 {
                    break;
                }
            }
            total += v;
        }
        Some(total << (MAX_COINS - k))
    }

    /// [`JointModel::pass_probability`] for any number of flipped random
    /// payload bits, as a float: `None` only where more than [`MAX_COINS`]
    /// of them flip and some lie under two checks, or under different
    /// checks (no stack of [`crate::layout::StackSpec`] puts random bytes
    /// under two Internet checksums).
    ///
    /// Where the random bits flipped lie under one check `i`, the other
    /// checks see fixed changes (their factor is 0 or 1, or the field
    /// model's count), and check `i` sees `d + sum_j s_j 2^(c_j)` with fair
    /// signs `s_j`. One flipped random bit in each of the 16 columns adds
    /// `2J - 65535` for `J` uniform on `0..=65535`, which is uniform on
    /// `Z_65535` except that 0 has twice the mass: its law is
    /// `(1 + [x = 0]) / 65536`, so with such a full set taken out,
    /// `P(pass) = (1 + P(pass without it)) / 65536`. Full sets are taken
    /// out while every column has a flipped random bit; the rest (some
    /// column without one) is counted exactly, meeting in the middle (the
    /// residues of half the signs sorted, the other half looked up), up to
    /// 24 bits, else summed over the 65535 residues. A flipped field of `f`
    /// bits: the model's `F`, uniform on `0..=0xFFFE`, is `65536/65535`
    /// times fair bits minus `1/65535` times the excluded `0xFFFF`, whose
    /// term is at most `2^(f-16)` of the first (so no cancellation below
    /// 16 bits; at 16 a full set makes it `1 + P - P'`). Same conventions
    /// and field model as [`JointModel::pass_probability`], equal to it up
    /// to rounding.
    ///
    /// # Panics
    /// If a position is not below [`JointModel::n`].
    pub fn pass_probability_any(&self, pattern: &[u32]) -> Option<f64> {
        let nc = self.internet.len();
        let mut fixed = [0i64; MAX_CHECKS];
        let mut field = [0u16; MAX_CHECKS];
        let mut columns = [0u32; 16];
        let (mut owner, mut coins, mut shared) = (None, 0usize, false);
        for &t in pattern {
            let role = &self.roles[t as usize];
            let mut here = 0;
            for (i, r) in role.iter().enumerate().take(nc) {
                let Some((c, d)) = *r else { continue };
                let v = 1i64 << c;
                match d {
                    Dir::Up => fixed[i] += v,
                    Dir::Down => fixed[i] -= v,
                    Dir::Field => field[i] |= 1 << c,
                    Dir::Coin => {
                        here += 1;
                        shared |= owner.is_some_and(|o| o != i);
                        owner = Some(i);
                        columns[c as usize] += 1;
                    }
                }
            }
            coins += (here > 0) as usize;
            shared |= here > 1;
        }
        if shared {
            return self
                .pass_count(pattern)
                .map(|c| c as f64 / PASS_SCALE as f64);
        }
        // the checks without random bits flipped: a fixed factor
        let pass = |i: usize, d: i64| {
            if field[i] == 0 {
                (d.rem_euclid(MODULUS) == 0) as u8 as f64
            } else {
                field_count(d, field[i]) as f64 / MODULUS as f64
            }
        };
        let i = owner.unwrap_or(0);
        let mut other = 1.0;
        for j in (0..nc).filter(|&j| j != i) {
            other *= pass(j, fixed[j]);
        }
        if other == 0.0 || nc == 0 {
            return Some(if nc == 0 { 1.0 } else { 0.0 });
        }
        if coins == 0 {
            return Some(other * pass(i, fixed[i]));
        }
        let p = if field[i] == 0 {
            coin_pass(fixed[i], &columns)
        } else {
            // F uniform on 0..=0xFFFE: 65536 x (its flipped bits fair coins)
            // minus the excluded 0xFFFF (every flipped bit 1: -2^c each),
            // over 65535; the first term is at least 2^(16-f) times the
            // second, so at most one bit is lost below 16 flipped columns,
            // and all 16 give 1 + P - P' (a full set: see above)
            let mut with = columns;
            for (c, w) in with.iter_mut().enumerate() {
                *w += u32::from(field[i] >> c & 1);
            }
            let all_ones = coin_pass(fixed[i] - i64::from(field[i]), &columns);
            ((65536.0 * coin_pass(fixed[i], &with) - all_ones) / MODULUS as f64).max(0.0)
        };
        Some(other * p)
    }

    /// `true` if every random payload bit lies under at most one Internet
    /// checksum, the same for all: then
    /// [`JointModel::pass_probability_any`] answers every pattern.
    pub fn random_bits_under_one_check(&self) -> bool {
        let mut owner = None;
        self.roles.iter().all(|role| {
            let mut here = role
                .iter()
                .enumerate()
                .filter(|(_, r)| matches!(r, Some((_, Dir::Coin))))
                .map(|(i, _)| i);
            match (here.next(), here.next()) {
                (None, _) => true,
                (Some(i), None) => *owner.get_or_insert(i) == i,
                _ => false,
            }
        })
    }

    /// `true` if `pattern` flips a bit of a field computed from random data
    /// (its pass probability is then the field model's, within
    /// [`JointModel::field_model_bound`]).
    pub fn flips_random_field(&self, pattern: &[u32]) -> bool {
        self.touches_field(pattern)
    }

    /// `true` if `pattern` flips a bit of a field computed from random data.
    fn touches_field(&self, pattern: &[u32]) -> bool {
        pattern.iter().any(|&t| {
            self.roles[t as usize]
                .iter()
                .any(|r| matches!(r, Some((_, Dir::Field))))
        })
    }

    /// Bound on `|true - model|` for one pattern of weight `w` that flips a
    /// field bit: `2^(15 - 16 m)`, `m` the random words of that check not
    /// touched (at least its random words minus `w - 1`), capped at 1.
    pub fn field_model_bound(&self, w: u32) -> f64 {
        self.random_words
            .iter()
            .flatten()
            .map(|&words| {
                let m = words as i64 - (w as i64 - 1);
                if m <= 0 {
                    1.0
                } else {
                    (2f64.powi(15) * 2f64.powi(-16 * m.min(70) as i32)).min(1.0)
                }
            })
            .fold(0.0, f64::max)
    }

    /// Sum of the pass counts ([`JointModel::pass_count`], in units of
    /// `1 / PASS_SCALE`) of `shape` (wire positions, lowest 0) over every
    /// offset at which it fits in the frame: `(pass count sum, placements,
    /// placements that flip a random field)`. Exact integers.
    ///
    /// # Panics
    /// If the shape flips more than [`MAX_COINS`] random payload bits.
    pub fn shape_sum(&self, shape: &[u32]) -> (u128, u64, u64) {
        let span = *shape.last().expect("non-empty shape");
        if span >= self.n {
            return (0, 0, 0);
        }
        let offsets = self.n - span;
        let (lo, hi) = match self.zone {
            Some((z0, z1)) if z1 >= span && z0 < z1 - span => (z0, z1 - span),
            _ => (0, 0),
        };
        let w = shape.len();
        let mut buf = [0u32; 64];
        let place = |buf: &mut [u32; 64], o: u32| {
            for (b, &s) in buf.iter_mut().zip(shape) {
                *b = s + o;
            }
        };
        let count = |buf: &[u32]| -> u128 {
            self.pass_count(buf).expect("too many random bits flipped") as u128
        };
        let (mut sum, mut touching) = (0u128, 0u64);
        for o in (0..lo).chain(hi.max(lo)..offsets) {
            place(&mut buf, o);
            sum += count(&buf[..w]);
            touching += self.touches_field(&buf[..w]) as u64;
        }
        if hi > lo {
            for r in 0..16u32.min(hi - lo) {
                let first = lo + r;
                let times = (hi - first).div_ceil(16);
                place(&mut buf, first);
                sum += times as u128 * count(&buf[..w]);
            }
        }
        (sum, offsets as u64, touching)
    }

    /// The weight-`w` term: every shape of span below `n` placed at every
    /// offset (weights 2 to 5; see [`lowweight::shapes`] for the limits),
    /// summed exactly in integers, so the result does not depend on the
    /// number of threads.
    pub fn exact_term(&self, w: u32) -> Result<Term> {
        let parts = lowweight::ShapeParts::new(&self.generator, w, self.n as u64)?;
        let t = (0..parts.parts())
            .into_par_iter()
            .map(|i| {
                let mut t = TermTally {
                    weight: w,
                    ..TermTally::default()
                };
                for s in parts.part(i) {
                    let span = *s.last().expect("non-empty");
                    let wire: Vec<u32> = s.iter().rev().map(|&e| span - e).collect();
                    let (pass, placements, touching) = self.shape_sum(&wire);
                    t.codewords += placements as u128;
                    t.pass_count += pass;
                    t.touching += touching as u128;
                }
                t
            })
            .reduce(
                || TermTally {
                    weight: w,
                    ..TermTally::default()
                },
                |mut a, b| {
                    a.codewords += b.codewords;
                    a.pass_count += b.pass_count;
                    a.touching += b.touching;
                    a
                },
            );
        Ok(t.term(self))
    }
}

/// The probability over fair signs that `d + sum s 2^c` is 0 modulo
/// 65535, with `columns[c]` signs in column `c`: full sets of the 16
/// columns taken out (`P = (1 + P_rest) / 65536` each), the rest counted
/// exactly by [`count_zero_sums`] up to 24 signs, else summed over the
/// residues ([`dense_pass`]).
fn coin_pass(d: i64, columns: &[u32; 16]) -> f64 {
    let sets = *columns.iter().min().expect("16 columns");
    let rest: Vec<u8> = (0..16u8)
        .flat_map(|c| std::iter::repeat_n(c, (columns[c as usize] - sets) as usize))
        .collect();
    let mut left = *columns;
    for m in left.iter_mut() {
        *m -= sets;
    }
    let mut p = if rest.len() <= 12 {
        count_zero_sums(d, &rest) as f64 / (1u64 << rest.len()) as f64
    } else if let Some(c) = count_by_columns(d, &left) {
        c as f64 / (1u128 << rest.len()) as f64
    } else {
        dense_pass(d, &rest)
    };
    for _ in 0..sets {
        p = (1.0 + p) / 65536.0;
    }
    p
}

/// The number of the `2^k` sign choices (`k = cols.len()`, at most 24)
/// with `d + sum s_j 2^(cols_j) = 0` modulo 65535: the residues of the
/// second half sorted, those of the first half looked up.
fn count_zero_sums(d: i64, cols: &[u8]) -> u64 {
    let (a, b) = cols.split_at(cols.len() / 2);
    let sums = |start: i64, cs: &[u8], out: &mut Vec<u32>| {
        out.clear();
        out.push(start.rem_euclid(MODULUS) as u32);
        for &c in cs {
            let v = 1u32 << c;
            let len = out.len();
            for j in 0..len {
                let r = out[j];
                out[j] = (r + v) % MODULUS as u32;
                out.push((r + MODULUS as u32 - v) % MODULUS as u32);
            }
        }
    };
    let (mut left, mut right) = (
        Vec::with_capacity(1 << a.len()),
        Vec::with_capacity(1 << b.len()),
    );
    sums(d, a, &mut left);
    sums(0, b, &mut right);
    right.sort_unstable();
    left.iter()
        .map(|&l| {
            let want = (MODULUS as u32 - l) % MODULUS as u32;
            let lo = right.partition_point(|&r| r < want);
            let hi = right.partition_point(|&r| r <= want);
            (hi - lo) as u64
        })
        .sum()
}

/// [`count_zero_sums`] by columns, for up to 62 signs (`columns[c]` of
/// them in column `c`): the low byte's columns (0..8) give an integer
/// `X` of `sum (2 j_c - m_c) 2^c` with `C(m_c, j_c)` choices each, the high
/// byte's `256 Y` likewise; both are small (`|X| <= 255 k`), so the `X`
/// are counted in an array and, for each `Y`, the few `X = -d - 256 Y`
/// modulo 65535 in range are looked up. `None` beyond 62 signs or where a
/// side has over 2^18 column choices.
fn count_by_columns(d: i64, columns: &[u32; 16]) -> Option<u128> {
    let k: u32 = columns.iter().sum();
    if k > 62 {
        return None;
    }
    // the values of one byte's columns with their numbers of sign choices
    let side = |cols: &[u32]| -> Option<Vec<(i64, u128)>> {
        let size: u64 = cols.iter().map(|&m| u64::from(m) + 1).product();
        if size > 1 << 18 {
            return None;
        }
        let mut out = vec![(0i64, 1u128)];
        for (c, &m) in cols.iter().enumerate() {
            let binom: Vec<u128> = (0..=m)
                .scan(1u128, |b, j| {
                    let v = *b;
                    *b = *b * u128::from(m - j) / u128::from(j + 1);
                    Some(v)
                })
                .collect();
            out = out
                .iter()
                .flat_map(|&(x, n)| {
                    binom
                        .iter()
                        .enumerate()
                        .map(move |(j, &b)| (x + (2 * j as i64 - m as i64) * (1 << c), n * b))
                })
                .collect();
        }
        Some(out)
    };
    let low = side(&columns[..8])?;
    let high = side(&columns[8..])?;
    let reach: i64 = columns[..8]
        .iter()
        .enumerate()
        .map(|(c, &m)| i64::from(m) << c)
        .sum();
    let mut counts = vec![0u128; 2 * reach as usize + 1];
    for &(x, n) in &low {
        counts[(x + reach) as usize] += n;
    }
    let mut total = 0u128;
    for &(y, n) in &high {
        let t = (-d - 256 * y).rem_euclid(MODULUS);
        // X = t + 65535 q with |X| <= reach
        let mut x = t - (t + reach) / MODULUS * MODULUS;
        while x <= reach {
            if x >= -reach {
                total += n * counts[(x + reach) as usize];
            }
            x += MODULUS;
        }
    }
    Some(total)
}

/// [`count_zero_sums`] as a probability for any number of signs: the law
/// of the sum over the 65535 residues, one sign at a time (every term a
/// sum of positive halves).
fn dense_pass(d: i64, cols: &[u8]) -> f64 {
    let m = MODULUS as usize;
    let mut law = vec![0.0f64; m];
    law[d.rem_euclid(MODULUS) as usize] = 1.0;
    let mut next = vec![0.0f64; m];
    for &c in cols {
        let v = 1usize << c;
        for (x, out) in next.iter_mut().enumerate() {
            *out = 0.5 * (law[(x + m - v) % m] + law[(x + v) % m]);
        }
        std::mem::swap(&mut law, &mut next);
    }
    law[0]
}

/// The number of field values `F` in `0..=0xFFFE` whose bits at the columns
/// in `cols` make `d + sum (+-2^c)` vanish mod 65535 (out of 65535).
fn field_count(d: i64, cols: u16) -> u64 {
    let f = cols.count_ones();
    let mut hits = 0u64;
    // `ones`: the columns where F has a 1 (flip down)
    let mut ones: u16 = 0;
    loop {
        let delta = cols as i64 - 2 * ones as i64;
        if (d + delta).rem_euclid(MODULUS) == 0 {
            hits += (1u64 << (16 - f)) - (ones == cols) as u64;
        }
        if ones == cols {
            break;
        }
        ones = (ones.wrapping_sub(cols)) & cols; // next subset
    }
    hits
}

fn wire_bit(frame: &Frame, byte: usize, bit: u32) -> u32 {
    let within = if frame.lsb_first { bit } else { 7 - bit };
    8 * byte as u32 + within
}

/// The longest run of wire bits whose role equals that of the bit 16
/// before, extended back by 16: `[z0, z1)` with `role[t] = role[t + 16]`
/// wherever both lie inside. `None` if shorter than 32 bits.
fn periodic_zone(roles: &[BitRole]) -> Option<(u32, u32)> {
    let mut best = (0usize, 0usize);
    let mut start = None;
    for t in 16..=roles.len() {
        let same = t < roles.len() && roles[t] == roles[t - 16];
        match (same, start) {
            (true, None) => start = Some(t),
            (false, Some(s)) => {
                if t - s > best.1 - best.0 {
                    best = (s, t);
                }
                start = None;
            }
            _ => {}
        }
    }
    let (s, e) = best;
    if s >= 16 && e > s && e - s + 16 >= 32 {
        Some(((s - 16) as u32, e as u32))
    } else {
        None
    }
}

/// One weight's share of the joint escape.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    /// Codeword weight `w`.
    pub weight: u32,
    /// Weight-`w` codewords at the frame length (`A_w`; for a sampled term,
    /// the exact `A_w` from the dual code).
    pub codewords: u128,
    /// Sum of the pass probabilities over those codewords (`S_w`; an
    /// estimate for a sampled term).
    pub pass_sum: f64,
    /// Half-width of the 95% confidence interval of `pass_sum` (0 when exact).
    pub pass_sum_ci: f64,
    /// Bound on the field model's error summed over the codewords (see the
    /// module documentation).
    pub model_error: f64,
    /// `false` for a sampled term.
    pub exact: bool,
}

impl Term {
    /// `S_w p^w (1-p)^(n-w)`.
    pub fn contribution(&self, n: u64, p: f64) -> f64 {
        self.pass_sum * bsc::pattern_probability(n, self.weight as u64, p)
    }
}

/// One check of the stack on its own at BER `p`: `(covered bits, P_ud)`,
/// counting only errors inside the bits it covers (its field included).
/// A CRC over the whole frame comes from `dual` (its exact dual weights at
/// the frame length); an Internet checksum from
/// [`crate::internet::p_undetected_payload`] when every covered byte is
/// fixed, else [`crate::internet::p_undetected_mixed`] (fixed bytes in their
/// known directions, random payload, the field a real checksum of it).
pub fn check_p_undetected(
    frame: &Frame,
    i: usize,
    dual: Option<&crate::weights::DualWeights>,
    p: f64,
) -> Result<(u64, f64)> {
    let c = &frame.checks[i];
    match &c.spec {
        CheckSpec::Crc(_) => {
            let d = dual.filter(|d| d.bits == frame.n_bits()).ok_or_else(|| {
                Error::Unsupported(format!("{}: no dual weights at this length", c.name))
            })?;
            Ok((d.bits, crate::dual::p_undetected(d, p)?))
        }
        CheckSpec::Internet => {
            internet_p_undetected(frame, &c.name, &c.ranges, c.field, c.constant, p)
        }
        _ => Err(Error::Unsupported(format!(
            "{}: no exact method for this check here",
            c.name
        ))),
    }
}

/// An Internet checksum of `frame` named `name` (for errors), summing
/// `ranges` plus `constant` with its field at byte `field`, on its own at
/// BER `p`: `(covered bits, P_ud)`, counting only errors inside its ranges.
/// From [`crate::internet::p_undetected_payload`] when every covered byte is
/// fixed, else [`crate::internet::p_undetected_mixed`] (fixed bytes in their
/// known directions, random payload, the field a real checksum of it);
/// refused where words run across ranges, or covered bytes vary with a
/// fixed payload.
pub fn internet_p_undetected(
    frame: &Frame,
    name: &str,
    ranges: &[(usize, usize)],
    field: usize,
    constant: u16,
    p: f64,
) -> Result<(u64, f64)> {
    if ranges.len() > 1 && ranges.iter().any(|&(a, b)| (b - a) % 2 == 1) {
        return Err(Error::Unsupported(format!(
            "{name}: words run across its byte ranges"
        )));
    }
    let covered: Vec<usize> = ranges.iter().flat_map(|&(a, b)| a..b).collect();
    let bits = 8 * covered.len() as u64;
    let pud = if covered.iter().all(|&b| !frame.varies[b]) {
        let bytes: Vec<u8> = covered.iter().map(|&b| frame.template[b]).collect();
        crate::internet::p_undetected_payload(&bytes, p)?
    } else if frame.payload == Payload::Random {
        let bytes: Vec<Option<u8>> = covered
            .iter()
            .map(|&b| (!frame.varies[b]).then_some(frame.template[b]))
            .collect();
        let at = covered.iter().position(|&b| b == field).ok_or_else(|| {
            Error::Unsupported(format!("{name}: its field is outside its ranges"))
        })?;
        crate::internet::p_undetected_mixed(&bytes, at, constant, p)?
    } else {
        return Err(Error::Unsupported(format!(
            "{name}: covers bytes that vary with a fixed payload"
        )));
    };
    Ok((bits, pud))
}

/// How far [`JointStack::new`] goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointOptions {
    /// Highest weight enumerated exactly (2 to 5). Weight 5 is skipped (and
    /// the highest exact weight is 4) where the frame is over the pair limit
    /// of [`lowweight::shapes`].
    pub max_weight: u32,
    /// 4-subsets (generally `w-2`-subsets) drawn to estimate the next weight;
    /// 0 for none.
    pub samples: u64,
    /// Seed of the sampler (the same seed gives the same estimate for any
    /// thread count).
    pub seed: u64,
}

impl Default for JointOptions {
    fn default() -> Self {
        JointOptions {
            max_weight: 5,
            samples: 50_000,
            seed: 1,
        }
    }
}

/// The BER-independent part of the joint computation for one frame: the
/// enumerated and sampled terms, and the CRC's exact weight distribution.
#[derive(Debug, Clone)]
pub struct JointStack {
    /// The model the terms were computed with.
    pub model: JointModel,
    /// Exact terms, lowest weight first (weights with no codeword left out).
    pub terms: Vec<Term>,
    /// The sampled next weight, if any.
    pub sampled: Option<Term>,
    /// Highest weight enumerated.
    pub max_weight: u32,
    /// The CRC's dual weight distribution at the frame length.
    pub dual: crate::weights::DualWeights,
    /// `A_0 ..= A_{max_weight + 1}` from the dual code (MacWilliams).
    pub a: Vec<dashu_int::UBig>,
    /// The frame, for the exact value at BER 0.5 ([`escape_at_half`]).
    pub frame: Option<Frame>,
}

/// Where the estimate of a [`JointPoint`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointMethod {
    /// BER 0: nothing flips, every value is 0.
    NoError,
    /// The enumerated weights dominate: the certified remainder is at most
    /// their sum, so the value lies in `[low, 2 low]`; the estimate is `low`.
    Enumerated,
    /// As [`JointMethod::Enumerated`], plus the sampled next weight; the
    /// remainder above it is at most the estimate.
    Sampled,
    /// No checksum beside the CRC: the joint escape is the CRC's `P_ud`,
    /// exact from the dual code at every BER.
    CrcAlone,
    /// BER 0.5: every received word is equally likely, so the exact value is
    /// [`escape_at_half`] (`low = high = estimate`).
    Uniform,
    /// The enumerated (and sampled) weights do not dominate: the certified
    /// remainder exceeds them, so no estimate is given, the bracket alone.
    BracketOnly,
}

/// The joint escape at one BER.
#[derive(Debug, Clone, PartialEq)]
pub struct JointPoint {
    /// Bit error rate.
    pub ber: f64,
    /// Certified lower bound: the enumerated weights' contributions, less
    /// the field model's bound (the exact value at BER 0 and 0.5).
    pub low: f64,
    /// Certified upper bound: `low` plus the CRC's `P_ud` share of every
    /// weight not enumerated, plus the field model's bound (the exact value
    /// at BER 0 and 0.5).
    pub high: f64,
    /// The estimate, always inside `[low, high]`: see [`JointPoint::method`];
    /// `None` where no method valid at this BER gives one
    /// ([`JointMethod::BracketOnly`]).
    pub estimate: Option<f64>,
    /// 95% interval of the estimate, inside `[low, high]`: the sampled
    /// term's interval plus the certified bound on the weights above it
    /// (`(low, high)` when no weight is sampled).
    pub interval: (f64, f64),
    /// `low` and `high` come from exact terms alone; `true` also when no
    /// sampled term was used.
    pub exact: bool,
    /// Where the estimate comes from.
    pub method: JointMethod,
}

impl JointStack {
    /// Enumerates weights up to `opts.max_weight` for `frame`, computes the
    /// CRC's dual weights (a few seconds for a 32-bit CRC) and, when
    /// `opts.samples > 0`, estimates the next weight.
    pub fn new(frame: &Frame, opts: &JointOptions) -> Result<JointStack> {
        JointStack::new_with(frame, opts, &Silent)
    }

    /// [`JointStack::new`] watched by `progress`: every item of
    /// [`JointPlan`] in parallel (stage `"work items"`), then
    /// [`JointStack::from_tally_with`] (stage `"dual-code windows"`).
    pub fn new_with(
        frame: &Frame,
        opts: &JointOptions,
        progress: &dyn Progress,
    ) -> Result<JointStack> {
        let plan = JointPlan::new(frame, opts)?;
        let p = progress;
        p.stage("work items", plan.items());
        let t = (0..plan.items())
            .into_par_iter()
            .map(|i| {
                let t = plan.run(i);
                p.advance(1);
                t
            })
            .reduce(
                || plan.empty_tally(),
                |mut a, b| {
                    a.add(&b);
                    a
                },
            );
        let st = JointStack::from_tally_with(&plan, &t, p);
        p.finish();
        st
    }

    /// The stack from the total tally of a plan's items (the enumeration's
    /// at least; the sample chunks' too, or none of them): computes the
    /// CRC's dual weights, checks that the enumeration counted every
    /// codeword the dual code says there are, and estimates the sampled
    /// weight when the tally has draws (and they met a codeword).
    pub fn from_tally(plan: &JointPlan, t: &FrameTally) -> Result<JointStack> {
        JointStack::from_tally_with(plan, t, &Silent)
    }

    /// [`JointStack::from_tally`] watched by `progress`: the stage of
    /// [`crate::dual::dual_weights_with`] (`"dual-code windows"`, the few
    /// seconds of a 32-bit CRC).
    pub fn from_tally_with(
        plan: &JointPlan,
        t: &FrameTally,
        progress: &dyn Progress,
    ) -> Result<JointStack> {
        let n = plan.model.n as u64;
        let budget = crate::units::MemoryBudget::from_env()?;
        let dual = crate::dual::dual_weights_with(&plan.model.generator, &[n], budget, progress)?
            .remove(0);
        JointStack::from_tally_and_dual(plan, t, dual)
    }

    /// [`JointStack::from_tally`] with the CRC's dual weights at the frame
    /// length already known (kept from an earlier run: the dual code is the
    /// slow part). `dual` is refused unless it is a complete distribution
    /// (`2^r` words) of the plan's CRC width at the frame length; the tally
    /// is then checked against it as [`JointStack::from_tally`] does (every
    /// codeword the dual code counts must have been enumerated).
    pub fn from_tally_and_dual(
        plan: &JointPlan,
        t: &FrameTally,
        dual: crate::weights::DualWeights,
    ) -> Result<JointStack> {
        let model = plan.model.clone();
        let max_weight = plan.max_weight;
        let n = model.n as u64;
        let r = model.generator.width();
        if dual.bits != n
            || dual.width != r
            || dual.counts.len() as u64 != n + 1
            || dual.total() != 1u128 << r
        {
            return Err(Error::Invalid(format!(
                "dual weights of {} bits and width {} (total {}) for a frame of {n} bits and a {r}-bit CRC",
                dual.bits,
                dual.width,
                dual.total()
            )));
        }
        let a = crate::weights::macwilliams(&dual, max_weight as usize + 1)?;
        if t.terms.len() as u32 != max_weight - 1 {
            return Err(Error::Invalid(format!(
                "a tally of weights 2 to {} for a plan of weights 2 to {max_weight}",
                t.terms.len() + 1
            )));
        }
        let mut terms = Vec::new();
        for tt in &t.terms {
            let w = tt.weight;
            let want = u128::try_from(&a[w as usize]).unwrap_or(u128::MAX);
            if tt.codewords != want {
                return Err(Error::Invalid(format!(
                    "{} weight-{w} codewords enumerated, the dual code says {want} \
                     (an incomplete tally, or an internal error)",
                    tt.codewords
                )));
            }
            if want > 0 {
                terms.push(tt.term(&model));
            }
        }
        let mut st = JointStack {
            model,
            terms,
            sampled: None,
            max_weight,
            dual,
            a,
            frame: Some(plan.frame.clone()),
        };
        st.set_sample(&t.sample, plan.samples)?;
        Ok(st)
    }

    /// Sets the sampled next weight from the total tally of a plan's
    /// `samples` draws: none when the tally has no draws, there is no
    /// codeword of that weight, or the draws met none; refused when the
    /// tally has some draws but not all.
    pub fn set_sample(&mut self, t: &SampleTally, samples: u64) -> Result<()> {
        let next = self.max_weight + 1;
        let a_next = u128::try_from(&self.a[next as usize]).unwrap_or(u128::MAX);
        self.sampled = if t.draws == 0 || a_next == 0 {
            None
        } else if t.draws != samples {
            return Err(Error::Invalid(format!(
                "{} draws tallied, the plan makes {samples}",
                t.draws
            )));
        } else {
            // too few draws to meet a codeword (short frames): no estimate
            match t.term(&self.model, next, a_next) {
                Ok(t) => Some(t),
                Err(Error::Unsupported(_)) => None,
                Err(e) => return Err(e),
            }
        };
        Ok(())
    }

    /// Estimates the weight above the enumerated ones from `samples` draws
    /// (see [`JointModel::sampled_term`]); nothing when `samples` is 0,
    /// there is no codeword of that weight, or the draws met none.
    pub fn sample_next(&mut self, samples: u64, seed: u64) -> Result<()> {
        let next = self.max_weight + 1;
        let a_next = u128::try_from(&self.a[next as usize]).unwrap_or(u128::MAX);
        self.sampled = if samples > 0 && a_next > 0 {
            // too few draws to meet a codeword (short frames): no estimate
            match self.model.sampled_term(next, a_next, samples, seed) {
                Ok(t) => Some(t),
                Err(Error::Unsupported(_)) => None,
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        Ok(())
    }

    /// The bracket and estimate at BER `p` (in [0, 0.5]). The estimate
    /// lies inside the bracket at every BER: at 0 everything is 0; at 0.5 the
    /// exact value comes from counting the words that pass
    /// ([`escape_at_half`]); elsewhere it is given only where the enumerated
    /// (and sampled) weights dominate, that is where the certified remainder
    /// above them is at most their sum ([`JointMethod`]).
    pub fn at(&self, p: f64) -> Result<JointPoint> {
        bsc::check_ber(p)?;
        let exact_point = |v: f64, method| JointPoint {
            ber: p,
            low: v,
            high: v,
            estimate: Some(v),
            interval: (v, v),
            exact: true,
            method,
        };
        if p == 0.0 {
            return Ok(exact_point(0.0, JointMethod::NoError));
        }
        if self.model.internet.is_empty() {
            let v = crate::dual::p_undetected(&self.dual, p)?;
            return Ok(exact_point(v, JointMethod::CrcAlone));
        }
        let n = self.model.n as u64;
        let w = self.max_weight as usize;
        let pp = |t: &Term| bsc::pattern_probability(n, t.weight as u64, p);
        let sum: f64 = self.terms.iter().map(|t| t.contribution(n, p)).sum();
        let model_err: f64 = self.terms.iter().map(|t| t.model_error * pp(t)).sum();
        let rest = crate::highprec::p_undetected_above(&self.dual, p, &self.a[1..=w])?;
        let low = (sum - model_err).max(0.0);
        let high = sum + model_err + rest;
        if p == 0.5
            && let Some(f) = &self.frame
            && let Ok(v) = escape_at_half(f)
        {
            if !(low * (1.0 - 1e-12) <= v && v <= high * (1.0 + 1e-12)) {
                return Err(Error::Invalid(format!(
                    "internal error at BER 0.5: the exact value {v:e} is outside the bracket [{low:e}, {high:e}]"
                )));
            }
            return Ok(exact_point(v, JointMethod::Uniform));
        }
        let enumerated = |est: f64, interval| JointPoint {
            ber: p,
            low,
            high,
            estimate: Some(est),
            interval,
            exact: true,
            method: JointMethod::Enumerated,
        };
        let bracket_only = JointPoint {
            ber: p,
            low,
            high,
            estimate: None,
            interval: (low, high),
            exact: true,
            method: JointMethod::BracketOnly,
        };
        let dominated = rest + 2.0 * model_err <= low;
        let Some(s) = &self.sampled else {
            return Ok(if dominated {
                enumerated(low, (low, high))
            } else {
                bracket_only
            });
        };
        let rest2 = crate::highprec::p_undetected_above(&self.dual, p, &self.a[1..=w + 1])?;
        let ps = pp(s);
        let est = sum + s.contribution(n, p);
        let err = model_err + s.model_error * ps;
        let lo = (sum + (s.pass_sum - s.pass_sum_ci).max(0.0) * ps - err).max(low);
        let hi = (sum + (s.pass_sum + s.pass_sum_ci) * ps + err + rest2).min(high);
        if rest2 + 2.0 * err > est {
            // the sampled weight does not settle it either
            return Ok(if dominated {
                enumerated(low, (low, high))
            } else {
                bracket_only
            });
        }
        Ok(JointPoint {
            ber: p,
            low,
            high,
            estimate: Some(est.clamp(low, high)),
            interval: (lo.min(hi), hi),
            exact: false,
            method: JointMethod::Sampled,
        })
    }
}

/// SplitMix64: a small counter-based generator for reproducible draws.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..m` (Lemire's multiply-shift with rejection).
    fn below(&mut self, m: u64) -> u64 {
        loop {
            let x = self.next();
            let r = (x as u128 * m as u128) >> 64;
            let lo = (x as u128 * m as u128) as u64;
            if lo >= m.wrapping_neg() % m {
                return r as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;
    use crate::layout::CheckDef;

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
    fn brute(f: &Frame, pat: &[u32]) -> (f64, bool) {
        let mut pass = 0u64;
        let mut crc_always = true;
        let crc = f.checks.iter().position(|c| c.crc().is_some()).unwrap();
        for v in 0..=0xFFFFu16 {
            let mut fr = f.sent(&v.to_be_bytes());
            f.flip(&mut fr, pat);
            crc_always &= f.verify(crc, &fr);
            pass += f.verify_all(&fr) as u64;
        }
        (pass as f64 / 65536.0, crc_always)
    }

    #[test]
    fn field_count_counts_the_field_values() {
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

    #[test]
    fn tiny_layout_matches_brute_force_on_every_low_weight_codeword() {
        let f = tiny();
        let m = JointModel::new(&f).unwrap();
        let n = m.n;
        let mut checked = (0, 0);
        // every pattern of weight 2..=4 that the CRC accepts
        let mut pat = Vec::new();
        fn rec(f: &Frame, m: &JointModel, pat: &mut Vec<u32>, from: u32, checked: &mut (u32, u32)) {
            let n = m.n;
            if checked.0 >= 150 && checked.1 >= 30 {
                return;
            }
            if pat.len() >= 2 {
                let syn = pat.iter().fold(0u64, |a, &t| {
                    a ^ crate::gf2::x_pow_mod((n - 1 - t) as u128, &m.generator)
                });
                let touches = m.touches_field(pat);
                let full = if touches {
                    checked.1 >= 30
                } else {
                    checked.0 >= 150
                };
                if syn == 0 && !full {
                    let (want, crc_ok) = brute(f, pat);
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
                rec(f, m, pat, t + 1, checked);
                pat.pop();
            }
        }
        rec(&f, &m, &mut pat, 0, &mut checked);
        assert!(checked.0 > 100 && checked.1 > 10, "{checked:?}");
        // the enumeration sees the same codewords
        let st = JointStack::new(
            &f,
            &JointOptions {
                max_weight: 4,
                samples: 0,
                seed: 1,
            },
        )
        .unwrap();
        let total: u128 = st.terms.iter().map(|t| t.codewords).sum();
        assert!(total > 0);
        assert_eq!(n, 56);
    }

    #[test]
    fn pass_counts_are_those_of_every_check_for_every_coin_assignment() {
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
        }
    }

    #[test]
    fn shape_sums_match_placement_by_placement() {
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
    #[test]
    fn pass_probability_any_matches_every_sign() {
        let f = Frame::new("ethernet-tcp", 200, Payload::Random).unwrap();
        let m = JointModel::new(&f).unwrap();
        assert!(m.random_bits_under_one_check());
        let (payload0, n) = (8 * 54u32, m.n);
        let mut rng = SplitMix(11);
        let (mut positive, mut many, mut sets) = (0, 0, 0);
        for trial in 0..300 {
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
            positive > 40 && many > 20 && sets > 20,
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

    #[test]
    fn real_ethernet_tcp_frames_pass_at_the_computed_rates() {
        // 600-byte frames: CRC-32 weight-5 codewords (HD 5 at 4800 bits).
        let (zeros, positives, fixed) =
            real_frames_pass_at_the_computed_rates("ethernet-tcp", 600, 5, 400);
        assert!(
            zeros > 30 && positives >= 60 && fixed > 20,
            "{zeros} {positives} {fixed}"
        );
    }

    #[test]
    fn real_frames_of_user_stacks_pass_at_the_computed_rates() {
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
            for v in 0..payloads {
                let fr = build(v, pat);
                assert!(f.verify(m.crc, &fr), "{pat:?}");
                pass += f.verify_all(&fr) as u128;
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
            let st = JointStack::new(&f, &opts).unwrap();
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

    #[test]
    fn user_stacks_match_brute_force_over_every_pattern_and_payload() {
        user_stacks_against_brute_force(3);
    }

    /// The same with the TCP stack up to weight 4 (about 15 s).
    #[test]
    #[ignore]
    fn user_stacks_match_brute_force_to_weight_4() {
        user_stacks_against_brute_force(4);
    }

    #[test]
    fn a_fixed_payload_stack_matches_brute_force_exactly() {
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
            let st = JointStack::new(&f, &opts).unwrap();
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

    #[test]
    fn bracket_holds_the_brute_force_value_on_a_tiny_layout() {
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
        )
        .unwrap()
        .at(p)
        .unwrap();
        assert!(pt.low <= full.low * (1.0 + 1e-12) && full.high <= pt.high * (1.0 + 1e-12));
    }

    #[test]
    fn reports_every_work_item() {
        // two stages: the plan's work items (shape parts of every weight),
        // each reported once, then the dual code's windows
        let f = tiny();
        let opts = JointOptions {
            max_weight: 4,
            samples: 0,
            seed: 1,
        };
        let r = crate::progress::Record::default();
        let st = JointStack::new_with(&f, &opts, &r).unwrap();
        assert!(r.complete(), "{:?}", r.stages());
        assert_eq!(r.names(), ["work items", "dual-code windows"]);
        let plan = JointPlan::new(&f, &opts).unwrap();
        assert_eq!(r.stages()[0].total, plan.items());
        assert!(plan.items() >= 3, "{}", plan.items());
        let plain = JointStack::new(&f, &opts).unwrap();
        assert_eq!(st.at(0.01).unwrap(), plain.at(0.01).unwrap());
    }
}

#[cfg(test)]
mod sampling_tests {
    use super::*;

    #[test]
    fn sampled_term_agrees_with_the_enumeration() {
        // ethernet-tcp headers and payload over 200 bytes under CRC-16/ARC:
        // weight-4 codewords are plentiful, enumerated and sampled
        let f = Frame::new("ethernet-tcp+CRC-16/ARC", 200, Payload::Random).unwrap();
        let m = JointModel::new(&f).unwrap();
        let exact = m.exact_term(4).unwrap();
        assert!(exact.pass_sum > 100.0, "{}", exact.pass_sum);
        let s = m.sampled_term(4, exact.codewords, 20_000, 3).unwrap();
        assert!(s.pass_sum_ci > 0.0);
        assert!(
            (s.pass_sum - exact.pass_sum).abs() <= s.pass_sum_ci,
            "{} +- {} vs {}",
            s.pass_sum,
            s.pass_sum_ci,
            exact.pass_sum
        );
        // the same seed gives the same estimate
        let again = m.sampled_term(4, exact.codewords, 20_000, 3).unwrap();
        eprintln!(
            "{} +- {} vs {} ({} codewords)",
            s.pass_sum, s.pass_sum_ci, exact.pass_sum, exact.codewords
        );
        assert_eq!(s, again);
    }
}
