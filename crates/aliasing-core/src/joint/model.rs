//! [`JointModel`]: the CRC and, per wire bit, its role in each Internet
//! checksum; the sums of pass counts over shapes, and the exact weight
//! terms (the pass count of one pattern is in `pass.rs`).

use super::*;

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
    pub(super) roles: Vec<BitRole>,
    /// `[z0, z1)`: wire bits whose role repeats with period 16.
    pub(super) zone: Option<(u32, u32)>,
    /// Per Internet check with a random field: its 16-bit words that are
    /// wholly random payload (for the field model's bound); `None` for a
    /// check whose field is fixed.
    pub(super) random_words: Vec<Option<u64>>,
    /// Per wire bit, the number of its role among the frame's distinct
    /// roles (0: under no Internet checksum); `None` where there are more
    /// than [`RoleCache::MAX_ROLE`] distinct roles.
    pub(super) role_id: Option<Vec<u16>>,
    /// The offsets `[0, z0)` before the zone grouped by (role number of
    /// the bit there, offset mod 16): per class its first offset and its
    /// number of offsets. A shape whose second bit lies at `z0` or beyond
    /// and which fits in the zone from `z0` puts, at every offset below
    /// `z0`, its first bit there and the others in the zone, so offsets of
    /// one class flip bits of the same roles (the zone repeats with period
    /// 16) and have one pass count ([`JointModel::shape_sum_cached`]).
    /// Left out: the classes whose bit flips a fixed bit under a check that
    /// no zone bit is under and no bit is a random field (their placements
    /// fail that check and flip no field). `None` without a zone or role
    /// numbers.
    pub(super) prefix: Option<Vec<PrefixClass>>,
    /// Per wire position mod 16 inside the zone: `Some((check, column))`
    /// where the bit there is a random payload bit under that one Internet
    /// check and no other (a coin of one check), else `None` (all `None`
    /// without a zone).
    pub(super) zone_coins: [Option<(u8, u8)>; 16],
    /// The roles of the wire bits before the zone, then of those after it,
    /// as [`JointModel::split_count`] adds them (empty without a zone).
    outside: Vec<Outside>,
}

/// One wire bit's role as sums: per Internet check its change (`+-2^c`,
/// 0 for a check not over it or a field) and its field bit, and whether it
/// is a random payload bit.
#[derive(Debug, Clone, Copy, Default)]
struct Outside {
    change: [i32; MAX_CHECKS],
    field: [u16; MAX_CHECKS],
    coin: bool,
}

impl Outside {
    fn of(role: &BitRole) -> Outside {
        let mut o = Outside::default();
        for (j, r) in role.iter().enumerate() {
            let Some((c, d)) = *r else { continue };
            match d {
                Dir::Up => o.change[j] = 1 << c,
                Dir::Down => o.change[j] = -(1 << c),
                Dir::Field => o.field[j] = 1 << c,
                Dir::Coin => o.coin = true,
            }
        }
        o
    }
}

/// One class of [`JointModel::prefix`]: its first offset, its number of
/// offsets, and the role of the bit there as the closed forms of
/// [`CoinTable`] take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PrefixClass {
    /// The class's first offset.
    pub(super) first: u32,
    /// Its number of offsets.
    pub(super) times: u32,
    /// The role of the shape's first bit at those offsets.
    pub(super) bit: FirstBit,
}

/// The role of one wire bit as the closed forms of [`CoinTable`] take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FirstBit {
    /// Under no Internet checksum.
    Free,
    /// A fixed bit under the one check `check`: the placement passes where
    /// the coins sum to `want`, that is minus the bit's change (mod 65535).
    Fixed {
        /// The check.
        check: u8,
        /// Minus the bit's change, modulo 65535.
        want: u16,
    },
    /// A bit of the random field of `check`, in `column`, under no other
    /// check.
    Field {
        /// The check.
        check: u8,
        /// The bit's column.
        column: u8,
    },
    /// Any other role ([`JointModel::pass_count`] answers).
    Other,
}

impl FirstBit {
    fn of(role: &BitRole) -> FirstBit {
        let mut here = role
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.map(|r| (i as u8, r)));
        match (here.next(), here.next()) {
            (None, _) => FirstBit::Free,
            (Some((check, (c, Dir::Up))), None) => FirstBit::Fixed {
                check,
                want: minus(1 << c),
            },
            (Some((check, (c, Dir::Down))), None) => FirstBit::Fixed {
                check,
                want: 1 << c,
            },
            (Some((check, (column, Dir::Field))), None) => FirstBit::Field { check, column },
            _ => FirstBit::Other,
        }
    }
}

/// `-v` modulo 65535, for `v` in `1..=0x8000`.
fn minus(v: u16) -> u16 {
    (MODULUS as u32 - u32::from(v)) as u16
}

/// The residues modulo 65535 (each below 65535) of the `2^k` sign choices
/// of `sum_j s_j 2^(c_j)`, coins in columns `cols` (`k` at most 4), the
/// entries from `2^k` on [`NO_SUM`] (no residue), so that a count over all
/// 16 entries counts the sums.
fn coin_sums(cols: &[u8]) -> [u16; 16] {
    let m = MODULUS as u32;
    let mut sums = [NO_SUM; 16];
    sums[0] = 0;
    let mut len = 1;
    for &c in cols {
        let v = 1u32 << c;
        for j in 0..len {
            let r = u32::from(sums[j]);
            // r + v and r - v, reduced once: both below 2 * 65535
            let (up, down) = (r + v, r + m - v);
            sums[len + j] = (if down >= m { down - m } else { down }) as u16;
            sums[j] = (if up >= m { up - m } else { up }) as u16;
        }
        len *= 2;
    }
    sums
}

/// Filler of [`coin_sums`] past its `2^k` sums: 65535 is no residue.
const NO_SUM: u16 = u16::MAX;

/// How many of `sums` ([`coin_sums`]) equal `want` (below 65535).
fn hits(sums: &[u16; 16], want: u16) -> u64 {
    sums.iter().filter(|&&s| s == want).count() as u64
}

/// One shape's coin sums in the periodic zone: for each offset residue
/// `rho` (mod 16) at which the shape's bits from the second on, placed in
/// the zone, are all coins of one check, that check, and the residues of
/// their `2^(w-1)` signed sums ([`coin_sums`]). With the first bit fixed,
/// free, a field bit or a coin of the same check, a placement then passes
/// for the choices that sum to minus its change: the pass count of
/// [`JointModel::pass_count`] in closed form (that check sees `change +
/// sum`, every other check nothing).
pub(super) struct CoinTable {
    check: [u8; 16],
    sums: [[u16; 16]; 16],
}

impl CoinTable {
    const NONE: u8 = u8::MAX;

    /// The table of the bits `rest` (the shape's bits from the second on,
    /// at most 4).
    pub(super) fn new(zone_coins: &[Option<(u8, u8)>; 16], rest: &[u32]) -> CoinTable {
        let mut t = CoinTable {
            check: [Self::NONE; 16],
            sums: [[NO_SUM; 16]; 16],
        };
        let mut cols = [0u8; RoleCache::MAX_BITS];
        'rho: for rho in 0..16u32 {
            let mut check = Self::NONE;
            for (c, &s) in cols.iter_mut().zip(rest) {
                match zone_coins[((rho + s) % 16) as usize] {
                    Some((i, col)) if check == Self::NONE || check == i => {
                        check = i;
                        *c = col;
                    }
                    _ => continue 'rho,
                }
            }
            if check == Self::NONE {
                // no bit after the first: any check takes it
                check = 0;
            }
            t.check[rho as usize] = check;
            t.sums[rho as usize] = coin_sums(&cols[..rest.len()]);
        }
        t
    }

    /// The pass count and field flag of a placement at an offset of residue
    /// `rho` whose first bit has role `bit` (the other bits in the zone),
    /// `w` bits in all; `None` where the closed form does not apply.
    pub(super) fn first(&self, rho: u32, bit: FirstBit, w: usize) -> Option<(u64, bool)> {
        let (i, h) = (self.check[rho as usize], &self.sums[rho as usize]);
        if i == Self::NONE {
            return None;
        }
        // w - 1 coins
        let shift = MAX_COINS + 1 - w;
        let m = MODULUS as u64;
        match bit {
            FirstBit::Free => Some(((m * hits(h, 0)) << shift, false)),
            FirstBit::Fixed { check, want } if check == i => {
                Some(((m * hits(h, want)) << shift, false))
            }
            FirstBit::Field { check, column } if check == i => {
                // the field's bit is 0 (+2^c) for 2^15 of its 65535 values,
                // 1 (-2^c) for 2^15 - 1 (`field_count` with one column)
                let v = 1u16 << column;
                let up = (1u64 << 15) * hits(h, minus(v));
                let down = ((1u64 << 15) - 1) * hits(h, v);
                Some(((up + down) << shift, true))
            }
            _ => None,
        }
    }

    /// The pass count of a placement wholly in the zone at an offset of
    /// residue `rho`, its first bit a coin `first` (check, column).
    pub(super) fn coin(&self, rho: u32, first: Option<(u8, u8)>, w: usize) -> Option<u64> {
        let (i, h) = (self.check[rho as usize], &self.sums[rho as usize]);
        match first {
            Some((check, c)) if i != Self::NONE && (check == i || w == 1) => {
                // the first coin up (+2^c) or down (-2^c)
                let v = 1u16 << c;
                let n = hits(h, minus(v)) + hits(h, v);
                Some((MODULUS as u64 * n) << (MAX_COINS - w))
            }
            _ => None,
        }
    }
}

/// Pass counts of patterns by their roles: [`JointModel::pass_count`] and
/// `JointModel::touches_field` depend on a pattern only through the
/// multiset of its bits' roles (each check's column and direction), so a
/// pattern of up to 5 bits is keyed by its role numbers, sorted (bits
/// under no checksum left out), and each key evaluated once per shape: a
/// shape's placements outside the periodic zone take a few hundred keys
/// (the zone's bits repeat with period 16), against about 500 placements.
/// A small open-addressing table, cleared per shape by a stamp, so that it
/// stays in the first-level cache (a table shared by many shapes holds
/// about a million keys and costs a memory access a lookup, as much as an
/// evaluation).
#[derive(Debug)]
pub struct RoleCache {
    /// `(stamp, key, pass count << 1 | touches a field)`: a slot of another
    /// stamp is free.
    slots: Vec<(u32, u64, u64)>,
    stamp: u32,
    len: usize,
    /// Per run `a..b` of the shape's bits and offset residue (see
    /// [`RoleCache::zone_sums`]): the stamp of the shape it was made for,
    /// and the residues of the run's coin sums.
    sums: Vec<(u32, ZoneSums)>,
}

/// The coin sums of a run of a shape's bits placed in the periodic zone at
/// one offset residue: the check whose coins they all are
/// ([`ZoneSums::NONE`] if they are not all coins of one check), and the
/// residues modulo 65535 of `sum_j s_j 2^(c_j)` over the `2^k` sign
/// choices ([`coin_sums`]; `k` the run's length, at most 4 for 5 bits).
#[derive(Debug, Clone, Copy)]
pub(super) struct ZoneSums {
    check: u8,
    sums: [u16; 16],
}

impl ZoneSums {
    const NONE: u8 = u8::MAX;
}

impl Default for RoleCache {
    fn default() -> Self {
        let none = ZoneSums {
            check: ZoneSums::NONE,
            sums: [NO_SUM; 16],
        };
        RoleCache {
            slots: vec![(0, 0, 0); Self::SLOTS],
            stamp: 1,
            len: 0,
            sums: vec![(0, none); (Self::MAX_BITS + 1) * (Self::MAX_BITS + 1) * 16],
        }
    }
}

impl RoleCache {
    /// Largest role number (12 bits a role, 5 roles in a key).
    pub const MAX_ROLE: usize = 4095;
    /// Most bits of a pattern keyed.
    pub const MAX_BITS: usize = 5;
    /// Slots of the table (a power of 2); at most half are filled, the
    /// keys beyond are evaluated without being kept.
    const SLOTS: usize = 1024;

    /// An empty cache.
    pub fn new() -> Self {
        RoleCache::default()
    }

    /// Forgets every key (a new shape).
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0, 0));
            for e in &mut self.sums {
                e.0 = 0;
            }
            self.stamp = 1;
        }
    }

    /// The coin sums of the shape's bits `a..b` (`b - a` at most 4, each in
    /// the zone when the shape sits at `o`) at the residue of `o`, made
    /// once per shape: `None` unless they are all coins of one check.
    pub(super) fn zone_sums(
        &mut self,
        zone_coins: &[Option<(u8, u8)>; 16],
        shape: &[u32],
        (a, b): (usize, usize),
        o: u32,
    ) -> Option<ZoneSums> {
        let at = (a * (Self::MAX_BITS + 1) + b) * 16 + (o % 16) as usize;
        let (st, z) = &mut self.sums[at];
        if *st != self.stamp {
            *st = self.stamp;
            z.check = ZoneSums::NONE;
            let mut cols = [0u8; Self::MAX_BITS];
            let mut check = None;
            for (col, &s) in cols.iter_mut().zip(&shape[a..b]) {
                let (i, c) = zone_coins[((s + o) % 16) as usize]?;
                if *check.get_or_insert(i) != i {
                    return None;
                }
                *col = c;
            }
            z.check = check.unwrap_or(0);
            z.sums = coin_sums(&cols[..b - a]);
        }
        (z.check != ZoneSums::NONE).then_some(*z)
    }

    fn slot(key: u64) -> usize {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 40) as usize & (Self::SLOTS - 1)
    }

    /// The value of `key`, or the free slot where it goes.
    fn get(&self, key: u64) -> std::result::Result<u64, usize> {
        let mut i = Self::slot(key);
        loop {
            let (st, k, v) = self.slots[i];
            if st != self.stamp {
                return Err(i);
            }
            if k == key {
                return Ok(v);
            }
            i = (i + 1) & (Self::SLOTS - 1);
        }
    }

    fn insert(&mut self, slot: usize, key: u64, v: u64) {
        if 2 * (self.len + 1) <= Self::SLOTS {
            self.slots[slot] = (self.stamp, key, v);
            self.len += 1;
        }
    }
}

pub(super) fn column(offset: usize, bit: u32) -> u8 {
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
        let refuse = |rule| {
            Error::Limit(Limit::JointStack {
                stack: frame.stack.clone(),
                rule,
            })
        };
        let crcs: Vec<usize> = (0..frame.checks.len())
            .filter(|&i| frame.checks[i].crc().is_some())
            .collect();
        let internet: Vec<usize> = (0..frame.checks.len())
            .filter(|&i| frame.checks[i].is_internet())
            .collect();
        if crcs.len() != 1 || crcs.len() + internet.len() != frame.checks.len() {
            return Err(refuse(StackRule::OneCrcAndChecksums));
        }
        if internet.len() > MAX_CHECKS {
            return Err(refuse(StackRule::ChecksumsOver { max: MAX_CHECKS }));
        }
        let crc = crcs[0];
        let c = &frame.checks[crc];
        let alg = c.crc().expect("filtered above");
        if c.data != (0, c.field)
            || c.field + c.field_len != frame.bytes
            || 8 * c.field_len as u32 != alg.width()
        {
            return Err(refuse(StackRule::CrcCoversFrame));
        }
        let n = u32::try_from(frame.n_bits()).map_err(|_| {
            refuse(StackRule::FrameLength {
                bits: frame.n_bits(),
            })
        })?;
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
                        return Err(refuse(StackRule::FieldAlignment));
                    }
                    let random = random_byte(byte);
                    if frame.varies[byte] && !random && !own {
                        return Err(refuse(StackRule::RandomFieldCovered));
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
            return Err(refuse(StackRule::RandomFields));
        }
        let zone = periodic_zone(&roles);
        let role_id = role_ids(&roles);
        let prefix = prefix_classes(&roles, zone, role_id.as_deref());
        let mut zone_coins = [None; 16];
        if let Some((z0, _)) = zone {
            for t in z0..z0 + 16 {
                let mut here = roles[t as usize]
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.map(|r| (i as u8, r)));
                if let (Some((i, (c, Dir::Coin))), None) = (here.next(), here.next()) {
                    zone_coins[(t % 16) as usize] = Some((i, c));
                }
            }
        }
        let outside = match zone {
            Some((z0, z1)) => roles[..z0 as usize]
                .iter()
                .chain(&roles[z1 as usize..])
                .map(Outside::of)
                .collect(),
            None => Vec::new(),
        };
        let model = JointModel {
            n,
            generator: alg.generator(),
            crc,
            internet,
            roles,
            zone,
            random_words,
            role_id,
            prefix,
            zone_coins,
            outside,
        };
        model.check_wire_order(frame)?;
        Ok(model)
    }

    /// Flips a codeword (`x^k g(x)` in wire positions) in a real frame and
    /// checks that the CRC still passes, and that one flip fails it.
    pub(super) fn check_wire_order(&self, frame: &Frame) -> Result<()> {
        let fr = frame.sent(&vec![0; frame.random.1 - frame.random.0]);
        let g = self.generator.full();
        let deg = self.generator.width();
        let n = self.n;
        let bad = || {
            Error::Limit(Limit::WireOrder {
                stack: frame.stack.clone(),
            })
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
    pub(super) fn touches_field(&self, pattern: &[u32]) -> bool {
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
        self.shape_sum_cached(shape, &mut RoleCache::new())
    }

    /// [`JointModel::shape_sum`] with closed forms where the shape's bits
    /// in the periodic zone are coins of one check: per shape the residues
    /// of their signed sums at each offset residue (`CoinTable`, and the
    /// runs of `RoleCache::zone_sums`), against which a placement's other
    /// bits (before the zone, by the classes of `JointModel::prefix`, or
    /// after it) are matched (`JointModel::split_count`); the other
    /// placements once per role class ([`RoleCache`], whose tables a
    /// caller reuses from shape to shape). The same exact integers as
    /// `JointModel::shape_sum_direct` (tested on the shapes of real
    /// stacks).
    ///
    /// # Panics
    /// As [`JointModel::shape_sum`].
    pub fn shape_sum_cached(&self, shape: &[u32], cache: &mut RoleCache) -> (u128, u64, u64) {
        let w = shape.len();
        let Some(ids) = self.role_id.as_ref().filter(|_| w <= RoleCache::MAX_BITS) else {
            return self.shape_sum_direct(shape);
        };
        let span = *shape.last().expect("non-empty shape");
        if span >= self.n {
            return (0, 0, 0);
        }
        let offsets = self.n - span;
        let (lo, hi) = match self.zone {
            Some((z0, z1)) if z1 >= span && z0 < z1 - span => (z0, z1 - span),
            _ => (0, 0),
        };
        let (mut sum, mut touching) = (0u128, 0u64);
        cache.clear();
        // one placement by the role classes of the cache
        let by_roles = |cache: &mut RoleCache, o: u32| -> u64 {
            // the role numbers, sorted (insertion: at most 5), packed
            let mut r = [0u16; RoleCache::MAX_BITS];
            let mut k = 0;
            for &s in shape {
                let id = ids[(s + o) as usize];
                if id != 0 {
                    let mut j = k;
                    while j > 0 && r[j - 1] > id {
                        r[j] = r[j - 1];
                        j -= 1;
                    }
                    r[j] = id;
                    k += 1;
                }
            }
            let key = r[..k]
                .iter()
                .fold(0u64, |acc, &id| (acc << 12) | u64::from(id));
            match cache.get(key) {
                Ok(v) => v,
                Err(slot) => {
                    let mut buf = [0u32; RoleCache::MAX_BITS];
                    for (b, &s) in buf.iter_mut().zip(shape) {
                        *b = s + o;
                    }
                    let p = self.pass_count(&buf[..w]).expect("at most 5 coins");
                    let v = (p << 1) | u64::from(self.touches_field(&buf[..w]));
                    cache.insert(slot, key, v);
                    v
                }
            }
        };
        let placed = |o: u32| -> (u64, bool) {
            let mut buf = [0u32; RoleCache::MAX_BITS];
            for (b, &s) in buf.iter_mut().zip(shape) {
                *b = s + o;
            }
            let p = self.pass_count(&buf[..w]).expect("at most 5 coins");
            (p, self.touches_field(&buf[..w]))
        };
        // the coin sums of the bits after the first, per offset residue,
        // where the shape fits in the zone somewhere
        let table = (hi > lo).then(|| CoinTable::new(&self.zone_coins, &shape[1..]));
        // the offsets below the zone by class (see `prefix`) where the
        // shape's other bits stay in the zone there, else one by one
        let first = match (&self.prefix, &table) {
            (Some(classes), Some(table)) if w >= 2 && shape[1] >= lo => {
                for cl in classes {
                    let (p, t) = table
                        .first(cl.first % 16, cl.bit, w)
                        .unwrap_or_else(|| placed(cl.first));
                    sum += u128::from(cl.times) * u128::from(p);
                    touching += u64::from(cl.times) * u64::from(t);
                }
                lo
            }
            _ => 0,
        };
        // the offsets after the zone, and before it where the second bit
        // is not in the zone: the run of bits in the zone by its coin sums
        // ([`JointModel::split_count`]), else by role classes
        let one = |cache: &mut RoleCache, o: u32, (a, b): (usize, usize)| -> u64 {
            if b - a < w
                && let Some(z) = cache.zone_sums(&self.zone_coins, shape, (a, b), o)
                && let Some((p, t)) = self.split_count(shape, o, (a, b), &z)
            {
                return (p << 1) | u64::from(t);
            }
            by_roles(cache, o)
        };
        for (start, end) in [(first, lo), (hi.max(lo), offsets)] {
            let Some((z0, z1)) = self.zone else {
                for o in start..end {
                    let v = by_roles(cache, o);
                    sum += u128::from(v >> 1);
                    touching += v & 1;
                }
                continue;
            };
            // by runs of offsets with the same bits in the zone: `a..b`
            // changes where a bit reaches `z0` or `z1`
            let mut o = start;
            while o < end {
                let a = shape.partition_point(|&s| s + o < z0);
                let b = shape.partition_point(|&s| s + o < z1);
                // the bits a - 1 and b - 1 reach z0 and z1 first
                let mut next = end;
                if a > 0 {
                    next = next.min(z0 - shape[a - 1]);
                }
                if b > 0 {
                    next = next.min(z1 - shape[b - 1]);
                }
                for o in o..next {
                    let v = one(cache, o, (a, b));
                    sum += u128::from(v >> 1);
                    touching += v & 1;
                }
                o = next;
            }
        }
        if let Some(table) = &table {
            for r in 0..16u32.min(hi - lo) {
                let first = lo + r;
                let times = (hi - first).div_ceil(16);
                let p = table
                    .coin(first % 16, self.zone_coins[(first % 16) as usize], w)
                    .unwrap_or_else(|| placed(first).0);
                sum += times as u128 * u128::from(p);
            }
        }
        (sum, offsets as u64, touching)
    }

    /// The pass count and field flag of `shape` at `o` whose bits `a..b`
    /// lie in the zone with coin sums `z` (`a..b` may be empty: `z` then
    /// the one empty sum): [`JointModel::pass_count`] with its sign choices
    /// read from `z`, the other bits (before and after the zone) taken as
    /// there. `None` where one of them is a coin.
    pub(super) fn split_count(
        &self,
        shape: &[u32],
        o: u32,
        (a, b): (usize, usize),
        z: &ZoneSums,
    ) -> Option<(u64, bool)> {
        let nc = self.internet.len();
        let (z0, z1) = self.zone?;
        let mut fixed32 = [0i32; MAX_CHECKS];
        let mut field = [0u16; MAX_CHECKS];
        let mut coin = false;
        let before = shape[..a].iter().map(|&s| (s + o) as usize);
        let after = shape[b..].iter().map(|&s| (s + o - z1 + z0) as usize);
        for t in before.chain(after) {
            let r = &self.outside[t];
            for j in 0..MAX_CHECKS {
                fixed32[j] += r.change[j];
                field[j] |= r.field[j];
            }
            coin |= r.coin;
        }
        if coin {
            return None;
        }
        let fixed = fixed32.map(i64::from);
        let touch = field.iter().any(|&f| f != 0);
        // as in `pass_count`: the checks without coins give one factor;
        // with coins (those of the run, all under check `i`) only `i`
        let i = if a < b { z.check as usize } else { usize::MAX };
        let mut base = MODULUS as u64;
        for j in (0..nc).filter(|&j| j != i) {
            if field[j] == 0 {
                if fixed[j] % MODULUS != 0 {
                    return Some((0, touch));
                }
            } else {
                base = field_count(fixed[j], field[j]);
                if base == 0 {
                    return Some((0, touch));
                }
            }
        }
        if i == usize::MAX {
            return Some((base << MAX_COINS, touch));
        }
        let total = if field[i] == 0 {
            base * hits(&z.sums, (-fixed[i]).rem_euclid(MODULUS) as u16)
        } else {
            // the field's check has coins: `base` is 65535 (one random field)
            z.sums
                .iter()
                .filter(|&&s| s != NO_SUM)
                .map(|&s| field_count(fixed[i] + i64::from(s), field[i]))
                .sum()
        };
        Some((total << (MAX_COINS - (b - a)), touch))
    }

    /// [`JointModel::shape_sum`] evaluating every placement outside the
    /// periodic zone on its own (any weight; the tests' oracle for
    /// [`JointModel::shape_sum_cached`]).
    pub(super) fn shape_sum_direct(&self, shape: &[u32]) -> (u128, u64, u64) {
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
                let mut cache = RoleCache::new();
                let mut wire = Vec::new();
                for s in parts.part(i) {
                    let span = *s.last().expect("non-empty");
                    wire.clear();
                    wire.extend(s.iter().rev().map(|&e| span - e));
                    let (pass, placements, touching) = self.shape_sum_cached(&wire, &mut cache);
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

/// The role number of every wire bit: 0 for a bit under no Internet
/// checksum, else 1 + the index of its role among the distinct roles in
/// order of first appearance; `None` over [`RoleCache::MAX_ROLE`] roles.
fn role_ids(roles: &[BitRole]) -> Option<Vec<u16>> {
    let mut seen: std::collections::HashMap<BitRole, u16> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(roles.len());
    for r in roles {
        if r.iter().all(|x| x.is_none()) {
            out.push(0);
            continue;
        }
        let next = seen.len() + 1;
        if next > RoleCache::MAX_ROLE {
            return None;
        }
        out.push(*seen.entry(*r).or_insert(next as u16));
    }
    Some(out)
}

/// The classes of [`JointModel::prefix`]: the offsets below the zone's
/// start `z0` by (role number, offset mod 16), in order of first offset,
/// without the classes that fail a check outright.
fn prefix_classes(
    roles: &[BitRole],
    zone: Option<(u32, u32)>,
    ids: Option<&[u16]>,
) -> Option<Vec<PrefixClass>> {
    let ((z0, z1), ids) = (zone?, ids?);
    // the checks some zone bit is under, and whether one is a field
    let (mut under, mut field) = ([false; MAX_CHECKS], false);
    for role in &roles[z0 as usize..z1 as usize] {
        for (i, r) in role.iter().enumerate() {
            if let Some((_, d)) = r {
                under[i] = true;
                field |= *d == Dir::Field;
            }
        }
    }
    let fails = |role: &BitRole| {
        !field
            && role.iter().all(|r| !matches!(r, Some((_, Dir::Field))))
            && role
                .iter()
                .zip(&under)
                .any(|(r, &u)| matches!(r, Some((_, Dir::Up | Dir::Down))) && !u)
    };
    let mut classes: Vec<PrefixClass> = Vec::new();
    let mut index: std::collections::HashMap<(u16, u32), usize> = Default::default();
    for o in 0..z0 {
        let role = &roles[o as usize];
        if fails(role) {
            continue;
        }
        let k = *index.entry((ids[o as usize], o % 16)).or_insert_with(|| {
            classes.push(PrefixClass {
                first: o,
                times: 0,
                bit: FirstBit::of(role),
            });
            classes.len() - 1
        });
        classes[k].times += 1;
    }
    Some(classes)
}

pub(super) fn wire_bit(frame: &Frame, byte: usize, bit: u32) -> u32 {
    let within = if frame.lsb_first { bit } else { 7 - bit };
    8 * byte as u32 + within
}

/// The longest run of wire bits whose role equals that of the bit 16
/// before, extended back by 16: `[z0, z1)` with `role[t] = role[t + 16]`
/// wherever both lie inside. `None` if shorter than 32 bits.
pub(super) fn periodic_zone(roles: &[BitRole]) -> Option<(u32, u32)> {
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
