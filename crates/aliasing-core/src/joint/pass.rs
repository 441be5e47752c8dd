//! The pass count and probability of one error pattern under a
//! [`JointModel`]'s Internet checksums: the exact integer count
//! ([`JointModel::pass_count`]), its reference evaluation (a test oracle),
//! and the probability for patterns with any number of random bits
//! ([`JointModel::pass_probability_any`]).

use super::*;

impl JointModel {
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
        // One check with coins, no field in it, each coin in its own column
        // (the usual case: payload bits under TCP): with every coin up the
        // sum is `D = fixed + sum 2^c_j`, and turning the coins of a set T
        // down subtracts `2 S_T`, `S_T = sum_(j in T) 2^c_j`. The check
        // passes iff `2 S_T = D` mod 65535, i.e. `S_T = t = D 2^-1`
        // (`2^-1 = 32768`). With distinct columns the `S_T` are the
        // submasks of the columns' mask `M`, integers in `[0, 0xFFFF]`:
        // `S_T = t` for one T iff `t` is a submask of `M`, and `S_T =
        // 0xFFFF = t + 65535` for `t = 0` when `M` is all 16 columns.
        if let [i] = *live
            && field[i] == 0
        {
            let (mut mask, mut up) = (0i64, fixed[i]);
            for c in coins.iter().take(k) {
                mask |= c[i];
                up += c[i];
            }
            if mask.count_ones() as usize == k {
                let t = up.rem_euclid(MODULUS) * 32768 % MODULUS;
                let hits = u64::from(t & !mask == 0) + u64::from(t == 0 && mask == 0xFFFF);
                return Some((base * hits) << (MAX_COINS - k));
            }
        }
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
    #[cfg(feature = "unit-tests")]
    pub(super) fn pass_count_reference(&self, pattern: &[u32]) -> Option<u64> {
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
}
