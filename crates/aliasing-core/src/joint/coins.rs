//! The pass probability over fair signs of flipped random payload bits:
//! counts of zero sums modulo 65535, exactly.

use super::*;

/// The probability over fair signs that `d + sum s 2^c` is 0 modulo
/// 65535, with `columns[c]` signs in column `c`: full sets of the 16
/// columns taken out (`P = (1 + P_rest) / 65536` each), the rest counted
/// exactly by [`count_zero_sums`] up to 24 signs, else summed over the
/// residues ([`dense_pass`]).
pub(super) fn coin_pass(d: i64, columns: &[u32; 16]) -> f64 {
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
pub(super) fn count_zero_sums(d: i64, cols: &[u8]) -> u64 {
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
pub(super) fn count_by_columns(d: i64, columns: &[u32; 16]) -> Option<u128> {
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
pub(super) fn dense_pass(d: i64, cols: &[u8]) -> f64 {
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
pub(super) fn field_count(d: i64, cols: u16) -> u64 {
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
