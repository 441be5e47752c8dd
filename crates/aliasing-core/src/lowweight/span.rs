//! Codeword counts by span ([`span_counts`]) and by length
//! ([`weight_counts`]), weights 2 to 6.

use super::*;
use crate::ctx::Ctx;
use crate::units::MemoryBudget;

/// Refuses, before any work, what [`span_counts`] would refuse: a weight
/// outside 2..=6, a length over the limits of work or of the memory
/// `budget`.
pub(crate) fn check_span(g: &Generator, w: u32, max_len: u64, budget: MemoryBudget) -> Result<()> {
    check_width(g)?;
    if !(2..=6).contains(&w) {
        return Err(Error::Limit(Limit::SpanWeight { weight: w }));
    }
    if max_len > MAX_SPAN_LEN {
        return Err(Error::TooBig {
            what: format!("weight-{w} counts up to {max_len} bits"),
            need: crate::error::human_bytes(max_len as f64 * 40.0),
            limit: crate::error::human_bytes(MAX_SPAN_LEN as f64 * 40.0),
        });
    }
    let n = max_len as usize;
    let probes = match w {
        4 => (n as f64).powi(2) / 2.0,
        6 => (n as f64).powi(3) / 6.0,
        _ => 0.0,
    };
    if probes > WORK_LIMIT {
        return Err(Error::Limit(Limit::SpanWork {
            weight: w,
            bits: max_len,
            probes,
            max: WORK_LIMIT,
        }));
    }
    if w >= 5 {
        let pairs = (n as f64) * (n as f64) / 2.0;
        // open addressing at load <= 1/2: 16 bytes a slot, 2-4 slots a pair
        let need = 64.0 * pairs.max(16.0);
        let limit = budget.get();
        if need > limit {
            return Err(Error::TooBig {
                what: format!("weight-5 counts up to {n} bits (pair table)"),
                need: crate::error::human_bytes(need),
                limit: crate::error::human_bytes(limit),
            });
        }
    }
    Ok(())
}

/// `c_w(L)` for `L = 0..max_len`: the number of weight-`w` codewords whose
/// lowest position is 0 and highest is `L` (`w` = 2 to 6).
///
/// Cost `O(max_len)` for `w <= 3`, `O(max_len^2 / 2)` hash probes for
/// `w = 4` (parallel over `L`), and for `w = 5` a table of the
/// `max_len^2 / 2` pair syndromes (meet in the middle: `{0, a, b, c, L}` is
/// a codeword iff `s_a ^ s_b = 1 ^ s_L ^ s_c`), `max_len^2 / 2` probes and as
/// many inserts; about 4 GiB and some seconds at Ethernet lengths. For
/// `w = 6` the same pair table is probed for every `(c, d, L)`:
/// `max_len^3 / 6` probes, refused above `2e10` (lengths up to about
/// 4,900 bits).
///
/// The pair table is held to the memory budget of `ctx`; progress goes to
/// its watcher: one stage, `"weight-w spans"`, of one unit per span `L`
/// (weights 2 to 4) or per third position `c` of the meet in the middle
/// (weights 5 and 6).
pub fn span_counts(g: &Generator, w: u32, max_len: u64, ctx: &Ctx) -> Result<Vec<u64>> {
    check_span(g, w, max_len, ctx.budget())?;
    let progress = ctx.progress();
    let n = max_len as usize;
    if w >= 5 {
        progress.stage(&format!("weight-{w} spans"), n.saturating_sub(1) as u64);
        return Ok(span_counts56(&syndromes(g, n.max(1)), n, w, progress));
    }
    progress.stage(&format!("weight-{w} spans"), n as u64);
    let period = gf2::period(g);
    let distinct = (n as u128).min(period) as usize;
    let syn = syndromes(g, n.max(1));
    let mut first = if w == 4 {
        // n^2 / 2 probes, nearly all of absent syndromes
        Table::with_filter(distinct)
    } else {
        Table::with_capacity(distinct)
    };
    for (j, &s) in syn.iter().enumerate().take(distinct) {
        first.insert(s, j as u64);
    }
    let count_in = |s: u64, l: u64| count_in(&first, period, s, l);
    let out: Vec<u64> = (0..n as u64)
        .into_par_iter()
        .map(|l| {
            if l == 0 {
                return 0;
            }
            let t = 1 ^ syn[l as usize];
            match w {
                2 => (t == 0) as u64,
                3 => count_in(t, l),
                _ => {
                    let mut ordered = 0u64;
                    for &sb in &syn[1..l as usize] {
                        ordered += count_in(t ^ sb, l);
                    }
                    if t == 0 {
                        ordered -= l - 1;
                    }
                    // O(l) probes per span: worth one report each
                    progress.advance(1);
                    ordered / 2
                }
            }
        })
        .collect();
    if w < 4 {
        progress.advance(n as u64);
    } else if n > 0 {
        progress.advance(1); // L = 0
    }
    Ok(out)
}

/// Positions `i` in `(0, l)` with syndrome `s`, from `first` (the first
/// position of each syndrome) and the `period` of the generator. Forced
/// inline: it is the probe of the weight-4 count's inner loop, and as a
/// closure called from two places it became a call per probe (the
/// `a4_all_lengths_to_12144` bench: 277 ms before, 338 ms).
#[inline(always)]
pub(super) fn count_in(first: &Table, period: u128, s: u64, l: u64) -> u64 {
    match first.get(s) {
        None => 0,
        Some(j) => {
            let (j, l) = (j as u128, l as u128);
            let c = if j == 0 {
                l.saturating_sub(1) / period
            } else if j < l {
                (l - 1 - j) / period + 1
            } else {
                0
            };
            c as u64
        }
    }
}

/// `c_5(L)` and `c_6(L)` by meet in the middle over the third position `c`:
/// before `c` is processed the table holds the syndromes of every pair
/// `1 <= a < b < c`; a codeword `{0, a, b, c, L}` needs the pair syndrome
/// `1 ^ s_L ^ s_c`, and `{0, a, b, c, d, L}` needs `1 ^ s_L ^ s_c ^ s_d`.
pub(super) fn span_counts56(syn: &[u64], n: usize, w: u32, progress: &dyn Progress) -> Vec<u64> {
    let mut out = vec![0u64; n];
    let mut pairs = Table::with_capacity(n * n.saturating_sub(1) / 2);
    for c in 1..n {
        progress.advance(1);
        if c >= 3 && c + 1 < n {
            let sc = syn[c];
            let table = &pairs;
            if w == 5 {
                out[c + 1..]
                    .par_iter_mut()
                    .zip(&syn[c + 1..n])
                    .for_each(|(o, &sl)| *o += table.get(1 ^ sl ^ sc).unwrap_or(0));
            } else {
                // L > d > c: for each L, sum over d in (c, L)
                out[c + 2..].par_iter_mut().enumerate().for_each(|(i, o)| {
                    let l = c + 2 + i;
                    let t = 1 ^ syn[l] ^ sc;
                    *o += syn[c + 1..l]
                        .iter()
                        .map(|&sd| table.get(t ^ sd).unwrap_or(0))
                        .sum::<u64>();
                });
            }
        }
        for &sa in &syn[1..c] {
            pairs.increment(sa ^ syn[c]);
        }
    }
    out
}

/// `A_w(n)` for every `n` in `0..max_len` (index `n`), `w` = 2 to 6, in
/// `ctx` (its memory budget and progress: one stage, `"weight-w spans"`).
pub fn weight_counts(g: &Generator, w: u32, max_len: u64, ctx: &Ctx) -> Result<Vec<u128>> {
    let c = span_counts(g, w, max_len, ctx)?;
    let mut out = Vec::with_capacity(c.len());
    let (mut a, mut cum) = (0u128, 0u128);
    for (l, &cl) in c.iter().enumerate() {
        if l > 0 {
            a += cum;
        }
        out.push(a);
        cum += cl as u128;
    }
    Ok(out)
}
