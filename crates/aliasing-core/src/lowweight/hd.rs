//! The Hamming-distance profile ([`hd_profile`]) in the notation of
//! Koopman's CRC tables.

use super::*;

/// One entry of a Hamming-distance profile.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct HdEntry {
    /// The Hamming distance.
    pub hd: u32,
    /// Largest data-word length (bits, check bits excluded) at which every
    /// error of fewer than `hd` bits is detected.
    pub max_data_bits: u64,
    /// An undetectable error pattern of weight below `hd` at the next
    /// length (`max_data_bits + 1` data bits): bit positions, `x^i`
    /// counted from the end of the codeword, lowest first.
    pub example: Vec<u64>,
}

/// The Hamming-distance profile of a CRC, as in Koopman's tables:
/// entries for HD 3, 4, ... up to the weight of `g` (the HD at one data bit)
/// or `max_hd`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct HdProfile {
    /// The generator.
    pub generator: Generator,
    /// Entries in order of increasing HD.
    pub entries: Vec<HdEntry>,
}

impl HdProfile {
    /// Koopman's notation: `{4294967263,91607,2974,...}`.
    pub fn koopman_notation(&self) -> String {
        let v: Vec<String> = self
            .entries
            .iter()
            .map(|e| e.max_data_bits.to_string())
            .collect();
        format!("{{{}}}", v.join(","))
    }

    /// The Hamming distance at `data_bits` data bits (check bits excluded):
    /// the fewest bit errors that can go undetected in a codeword of that
    /// length.
    ///
    /// Fails on `data_bits == 0`, and where the profile was cut short by a
    /// `max_hd` below the weight of the generator so that only a lower bound
    /// is known.
    ///
    /// ```
    /// use aliasing_core::{Error, Limit, lowweight::hd_profile, poly::Generator};
    /// let p = hd_profile(&Generator::from_koopman(32, 0x82608EDB).unwrap(), Some(6)).unwrap();
    /// assert_eq!(p.hd_at(12112).unwrap(), 4); // CRC-32 on an Ethernet frame
    /// assert_eq!(p.hd_at(2974).unwrap(), 5);
    /// assert_eq!(p.hd_at(269).unwrap(), 5);
    /// // HD >= 6: the profile stops there
    /// let stop = Limit::ProfileEnd { hd: 6, data_bits: 268 };
    /// assert_eq!(p.hd_at(268), Err(Error::Limit(stop)));
    /// ```
    pub fn hd_at(&self, data_bits: u64) -> Result<u32> {
        if data_bits == 0 {
            return Err(Error::BadLength(
                "a codeword needs at least 1 data bit".into(),
            ));
        }
        let covering = self
            .entries
            .iter()
            .rev()
            .find(|e| e.max_data_bits >= data_bits);
        match covering {
            // Beyond the HD-3 length (the period): a weight-2 codeword exists.
            None => Ok(2),
            Some(e) if e.hd == self.entries.last().map_or(0, |l| l.hd) => {
                // The top entry: exact only if it is the weight of g, an
                // upper bound at every length (g is itself a codeword).
                let wt = self.generator.full().count_ones();
                if e.hd == wt {
                    Ok(wt)
                } else {
                    Err(Error::Limit(Limit::ProfileEnd {
                        hd: e.hd,
                        data_bits,
                    }))
                }
            }
            Some(e) => Ok(e.hd),
        }
    }
}

/// Data lengths up to this many bits are settled by listing every codeword.
pub(super) const ENUM_BITS: u32 = 22;

/// Minimum weight of `q g` over non-zero `q` of each degree `< k`, with an
/// example codeword: `best[d] = (weight, codeword)` for `deg q = d`.
pub(super) fn small_codewords(g: &Generator, k: u32) -> Vec<(u32, u128)> {
    let mut best = vec![(u32::MAX, 0u128); k as usize];
    let mut c = 0u128;
    for i in 1u64..(1u64 << k) {
        c ^= g.full() << i.trailing_zeros();
        let gray = i ^ (i >> 1);
        let d = 63 - gray.leading_zeros() as usize;
        let wt = c.count_ones();
        if wt < best[d].0 {
            best[d] = (wt, c);
        }
    }
    best
}

pub(super) fn positions(c: u128) -> Vec<u64> {
    (0..128).filter(|&i| (c >> i) & 1 == 1).collect()
}

/// Enumerates subsets of `lo..limit` of size `1..=k` (with their syndrome
/// XOR and positions packed `bits` bits each) and calls `f`.
pub(super) fn subsets(
    syn: &[u64],
    lo: usize,
    limit: usize,
    k: usize,
    bits: u32,
    f: &mut impl FnMut(u64, u64, usize),
) {
    struct Walk<'a, F> {
        syn: &'a [u64],
        limit: usize,
        bits: u32,
        f: &'a mut F,
    }
    impl<F: FnMut(u64, u64, usize)> Walk<'_, F> {
        fn rec(&mut self, start: usize, left: usize, x: u64, packed: u64, depth: usize) {
            for i in start..self.limit {
                let nx = x ^ self.syn[i];
                let np = packed | ((i as u64) << (depth as u32 * self.bits));
                (self.f)(nx, np, depth + 1);
                if left > 1 {
                    self.rec(i + 1, left - 1, nx, np, depth + 1);
                }
            }
        }
    }
    if k == 0 {
        return;
    }
    let mut w = Walk {
        syn,
        limit,
        bits,
        f,
    };
    w.rec(lo, k, 0, 0, 0);
}

pub(super) fn unpack(packed: u64, bits: u32) -> Vec<u64> {
    let mut v = Vec::new();
    let mut p = packed;
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    while p != 0 {
        v.push(p & mask);
        p = if bits >= 64 { 0 } else { p >> bits };
    }
    v
}

pub(super) fn choose(n: f64, k: usize) -> f64 {
    (0..k).fold(1.0, |a, i| a * (n - i as f64) / (i as f64 + 1.0))
}

/// What [`min_span`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Span {
    /// The smallest span and a codeword of that span (positions).
    Found(u64, Vec<u64>),
    /// No codeword of weight at most `w` with a span below `until`.
    Clear,
    /// The search stopped before span `at` (budget, table or position
    /// limits: the reason): every span below `at` is clear, `at` and up
    /// are unknown.
    Stopped { at: u64, reason: String },
}

/// Smallest span `L` in `[from, until)` of a codeword of weight at most `w`
/// (all shapes with position 0 and `L`), by meet-in-the-middle, spending at
/// most `budget` hash probes (decremented by the probes spent).
pub(super) fn min_span(
    g: &Generator,
    w: u32,
    from: u64,
    until: u64,
    budget: &mut f64,
    progress: &dyn Progress,
) -> Result<Span> {
    let inner = (w - 2) as usize;
    let h1 = inner.div_ceil(2);
    let h2 = inner - h1;
    let bits = 64 / h1.max(h2).max(1) as u32;
    let mut work = 0f64;
    let from = from.max(1);
    let total = until.saturating_sub(from);
    progress.stage(&format!("weight-{w} spans"), total);
    let mut spans = Batch::new(progress, 64);
    let mut syn = syndromes(g, from as usize + 1);
    // every span probes it for each subset of the other half, and all but
    // the last span find nothing
    let mut table = Table::with_filter(1024);
    table.insert(0, 0); // empty subset
    subsets(&syn, 1, from as usize, h1, bits, &mut |x, p, _| {
        table.insert(x, p)
    });
    for l in from..until {
        spans.add(1);
        if syn.len() <= l as usize {
            let more = syndromes_from(g, *syn.last().expect("non-empty"), syn.len());
            syn.extend(more);
        }
        if bits < 64 && l >= 1u64 << bits {
            spans.add(until - l);
            return Ok(Span::Stopped {
                at: l,
                reason: format!("positions over {bits} bits"),
            });
        }
        let probes = (0..=h2).map(|i| choose(l as f64, i)).sum::<f64>();
        if work + probes > *budget || table.len > TABLE_LIMIT {
            *budget -= work;
            spans.add(until - l);
            return Ok(Span::Stopped {
                at: l,
                reason: if table.len > TABLE_LIMIT {
                    format!("over {TABLE_LIMIT} table entries")
                } else {
                    format!("the budget of hash probes ran out after {work:.2e}")
                },
            });
        }
        work += probes;
        let t = 1 ^ syn[l as usize];
        let mut hit: Option<(u64, u64)> = table.get(t).map(|p1| (p1, 0));
        if hit.is_none() {
            let mut found = None;
            subsets(&syn, 1, l as usize, h2, bits, &mut |x, p2, _| {
                if found.is_none()
                    && let Some(p1) = table.get(t ^ x)
                {
                    found = Some((p1, p2));
                }
            });
            hit = found;
        }
        if let Some((p1, p2)) = hit {
            let mut set = std::collections::BTreeSet::new();
            set.insert(0u64);
            set.insert(l);
            for i in unpack(p1, bits).into_iter().chain(unpack(p2, bits)) {
                if !set.remove(&i) {
                    set.insert(i);
                }
            }
            // the longer spans are settled by this one
            spans.add(until - l - 1);
            *budget -= work;
            return Ok(Span::Found(l, set.into_iter().collect()));
        }
        // add subsets containing l (so the table covers (0, l+1))
        let sl = syn[l as usize];
        let shift = bits;
        table.insert(sl, l);
        if h1 > 1 {
            subsets(&syn, 1, l as usize, h1 - 1, bits, &mut |x, p, _| {
                table.insert(x ^ sl, (p << shift) | l)
            });
        }
    }
    *budget -= work;
    Ok(Span::Clear)
}

/// The Hamming-distance profile of `g` for HD 3 up to `max_hd` (default and
/// cap: the weight of `g`, which is the HD at one data bit).
///
/// HD 3 comes from the period of `g`; lengths up to 22 data bits from
/// listing every codeword; HD 4 (weight 3) from discrete logarithms
/// ([`crate::trinomial`]) where the factors of `g` allow; the rest from a
/// meet-in-the-middle search (refused with an error if it would exceed its work limit,
/// `2e10` probes, or its table limit, `2^25` entries).
pub fn hd_profile(g: &Generator, max_hd: Option<u32>) -> Result<HdProfile> {
    hd_profile_with(g, max_hd, &Silent)
}

/// [`hd_profile`] watched by `progress`: a stage `"weight-w spans"` for
/// each weight searched by meet in the middle (one unit per span tried;
/// the spans beyond the first codeword found are reported at once).
pub fn hd_profile_with(
    g: &Generator,
    max_hd: Option<u32>,
    progress: &dyn Progress,
) -> Result<HdProfile> {
    Ok(hd_profile_up_to(g, max_hd, None, progress)?.0)
}

/// The Hamming-distance profile of `g` searched only up to codeword length
/// `max_bits` (check bits included; `None`: no limit, as [`hd_profile`]),
/// watched by `progress` (the stages of the full profile's search).
///
/// HD limits fall as the HD rises, so the low HDs may end beyond the bound:
/// their entries are left out and `Some(h)`, the highest of them, says HD
/// `>= h` holds at every length up to `max_bits` (nothing more is known of
/// them). The entries returned, those ending below the bound, are exact.
/// This is how far profiles of wide generators reach: the weight-`w`
/// search costs about `L^ceil((w-2)/2)` table entries and more probes at
/// span `L`, so a length bound keeps it finite.
///
/// ```
/// use aliasing_core::{lowweight, poly::Generator, progress::Silent};
/// let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
/// let (p, open) = lowweight::hd_profile_up_to(&g, None, Some(32 + 1000), &Silent).unwrap();
/// // HD 3, 4, 5 end beyond 1000 data bits (at 2^32-33, 91607, 2974)
/// assert_eq!(open, Some(5));
/// assert_eq!(p.entries[0].hd, 6);
/// assert_eq!(p.entries[0].max_data_bits, 268);
/// ```
pub fn hd_profile_up_to(
    g: &Generator,
    max_hd: Option<u32>,
    max_bits: Option<u64>,
    progress: &dyn Progress,
) -> Result<(HdProfile, Option<u32>)> {
    let s = hd_profile_within(g, max_hd, max_bits, WORK_LIMIT, progress)?;
    if let Some(stop) = s.stopped {
        return Err(Error::Limit(Limit::HdSearch {
            weight: stop.searched_hd - 1,
            reason: stop.reason,
            bits: stop.clear_to_bits + 1,
        }));
    }
    Ok((s.profile, s.open))
}

/// Hash probes `alias hd` lets [`hd_profile_within`] spend by default
/// (`--budget`): about 4 s of one core (measured: 4.0 s user for
/// CRC-64/XZ, whose weight-4 search it stops at 44,720 bits). Every one of
/// hdlen's 363 gold profiles (widths 4 to 64) completes well within it.
pub const DEFAULT_BUDGET: f64 = 1e9;

/// Where a budgeted profile search stopped ([`HdSearch::stopped`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct HdStop {
    /// The HD whose search (for codewords of weight `searched_hd - 1`)
    /// stopped; every HD below it is in the profile, exact.
    pub searched_hd: u32,
    /// HD at least this at every codeword length up to
    /// [`HdStop::clear_to_bits`] (`searched_hd`, or more where `x + 1`
    /// divides `g` and the next weights are odd).
    pub hd_at_least: u32,
    /// Codeword length (check bits included) up to which every length was
    /// searched and found clear.
    pub clear_to_bits: u64,
    /// Why it stopped (the budget of probes, table or position limits).
    pub reason: String,
    /// The budget of hash probes the search was given.
    pub budget: f64,
}

/// A profile search within a budget ([`hd_profile_within`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HdSearch {
    /// The exact entries found (all HDs below [`HdStop::searched_hd`] when
    /// the search stopped; under a length bound, those ending below it).
    pub profile: HdProfile,
    /// Under a length bound `max_bits`: the highest HD that holds at every
    /// length up to it (its entry and the lower ones are left out), as
    /// [`hd_profile_up_to`].
    pub open: Option<u32>,
    /// `Some` if the budget (or a table or position limit) ended the search
    /// before every HD up to `max_hd` was settled; the HDs above
    /// [`HdStop::hd_at_least`] were not searched.
    pub stopped: Option<HdStop>,
}

impl HdSearch {
    /// Whether every HD asked for was settled.
    pub fn is_complete(&self) -> bool {
        self.stopped.is_none()
    }
}

/// [`hd_profile_up_to`] spending at most `budget` hash probes in its
/// meet-in-the-middle searches (all weights together; the period, the
/// discrete logarithms and the listing of short codewords are not counted).
/// Where the budget runs out, the search stops with what it has proved
/// ([`HdSearch::stopped`]) instead of failing.
///
/// ```
/// use aliasing_core::{catalogue, lowweight, progress::Silent};
/// let g = catalogue::resolve("crc64-xz").unwrap().generator();
/// let s = lowweight::hd_profile_within(&g, None, None, 1e6, &Silent).unwrap();
/// // HD 3 and 4 end at the period of (x+1) p(x); HD 5 holds at least as far
/// // as 1e6 probes reach (spans below about sqrt(2e6)), HD 6 as well (odd
/// // weights are excluded by x+1), higher HDs not searched
/// assert_eq!(s.profile.koopman_notation(), "{8589606850,8589606850}");
/// let stop = s.stopped.unwrap();
/// assert_eq!((stop.searched_hd, stop.hd_at_least), (5, 6));
/// assert!(stop.clear_to_bits > 1000);
/// ```
pub fn hd_profile_within(
    g: &Generator,
    max_hd: Option<u32>,
    max_bits: Option<u64>,
    budget: f64,
    progress: &dyn Progress,
) -> Result<HdSearch> {
    check_width(g)?;
    let r = g.width() as u64;
    let wt = g.full().count_ones();
    let top = max_hd.unwrap_or(wt).min(wt);
    let k = ENUM_BITS.min(127 - g.width());
    let best = small_codewords(g, k);
    // d[k'] = min distance at k' data bits, k' = 1..=k
    let mut dmin = vec![u32::MAX; k as usize + 1];
    let mut arg = vec![0u128; k as usize + 1];
    for kk in 1..=k as usize {
        let (pw, pc) = if kk > 1 {
            (dmin[kk - 1], arg[kk - 1])
        } else {
            (u32::MAX, 0)
        };
        let (bw, bc) = best[kk - 1];
        (dmin[kk], arg[kk]) = if bw < pw { (bw, bc) } else { (pw, pc) };
    }
    let lim = max_bits.unwrap_or(u64::MAX);
    if lim <= r {
        return Err(Error::BadLength(format!(
            "{lim} bits is not longer than the {r} check bits"
        )));
    }
    let period = gf2::period(g);
    let total_budget = budget;
    let mut budget = budget;
    let mut open = None;
    let mut stopped: Option<HdStop> = None;
    let mut entries: Vec<HdEntry> = Vec::new();
    // shortest length (n) with a codeword of weight < current hd
    let mut prev: Option<(u64, Vec<u64>)> = None;
    for hd in 3..=top {
        let w = hd - 1;
        let odd_impossible = g.divisible_by_x_plus_1() && w % 2 == 1;
        if let Some(st) = stopped.as_mut() {
            // Past a stop only the odd weights that x + 1 excludes follow
            // for free; the first weight that needs a search ends it.
            if odd_impossible && st.hd_at_least + 1 == hd && dmin[k as usize] >= hd {
                st.hd_at_least = hd;
                continue;
            }
            break;
        }
        let from = k as u64 + r;
        let search = |w: u32, from: u64, until: u64, budget: &mut f64| {
            min_span(g, w, from, until, budget, progress)
        };
        let found: std::result::Result<(u64, Vec<u64>), u64> = if dmin[k as usize] < hd {
            // settled by enumeration: first data length with d < hd
            let kk = (1..=k as usize).find(|&kk| dmin[kk] < hd).expect("exists");
            Ok((kk as u64 + r, positions(arg[kk])))
        } else if w == 2 {
            let p = u64::try_from(period).map_err(|_| Error::Limit(Limit::Period { period }))?;
            // 1 + x^p at length p + 1; a period of 2^64 - 1 (a primitive
            // generator of width 64) puts that length at 2^64, one past
            // the last u64: it is held as u64::MAX, and the entry below
            // reads the exact limit from the pattern's top position
            Ok((p.saturating_add(1), vec![0, p]))
        } else {
            let (cap, cap_ex) = prev.clone().expect("hd 3 handled first");
            let until = (cap - 1).min(lim);
            // the answer when nothing shorter turns up below `until`
            let none_below = |until: u64| {
                if until < cap - 1 {
                    // none up to the length bound: the limit lies beyond it
                    (u64::MAX, Vec::new())
                } else {
                    (cap, cap_ex.clone())
                }
            };
            if odd_impossible {
                Ok((cap, cap_ex.clone()))
            } else if w == 3 {
                // Weight 3: a short scan first (most shortest trinomials lie
                // within a few thousand bits, where the scan is far cheaper
                // than the discrete-log tables), then discrete logarithms
                // where the factors allow, then the scan to the end.
                let quick = until.min(from.max(1) + QUICK_SPANS);
                match search(w, from, quick, &mut budget)? {
                    Span::Clear if quick < until => match crate::trinomial::shortest(g).ok() {
                        Some(Some(t)) if t.b + 1 < cap => Ok((t.b + 1, t.positions())),
                        Some(_) => Ok((cap, cap_ex.clone())),
                        None => settle(
                            search(w, quick, until, &mut budget)?,
                            || none_below(until),
                            hd,
                            total_budget,
                            &mut stopped,
                        ),
                    },
                    span => settle(span, || none_below(until), hd, total_budget, &mut stopped),
                }
            } else {
                settle(
                    search(w, from, until, &mut budget)?,
                    || none_below(until),
                    hd,
                    total_budget,
                    &mut stopped,
                )
            }
        };
        let Ok((n_first, example)) = found else {
            continue;
        };
        if n_first > lim {
            // HD >= hd at every length up to the bound; the next weight is
            // searched up to the bound only
            open = Some(hd);
            prev = Some((lim + 1, Vec::new()));
            continue;
        }
        // the pattern's top position is the first failing length less
        // one, exact even where that length (2^64) does not fit a u64
        let last_good = example.last().copied().unwrap_or(n_first - 1);
        entries.push(HdEntry {
            hd,
            max_data_bits: last_good - r,
            example: example.clone(),
        });
        prev = Some((n_first, example));
    }
    Ok(HdSearch {
        profile: HdProfile {
            generator: *g,
            entries,
        },
        open,
        stopped,
    })
}

/// What one span search of [`hd_profile_within`] settles: the first length
/// with a codeword and that codeword, the answer `clear` gives where none
/// turned up, or the length where it stopped (recorded in `stopped`, with
/// the HD searched and the budget given).
pub(super) fn settle(
    span: Span,
    clear: impl FnOnce() -> (u64, Vec<u64>),
    hd: u32,
    budget: f64,
    stopped: &mut Option<HdStop>,
) -> std::result::Result<(u64, Vec<u64>), u64> {
    match span {
        Span::Found(l, ex) => Ok((l + 1, ex)),
        Span::Clear => Ok(clear()),
        Span::Stopped { at, reason } => {
            *stopped = Some(HdStop {
                searched_hd: hd,
                hd_at_least: hd,
                clear_to_bits: at,
                reason,
                budget,
            });
            Err(at)
        }
    }
}

/// Spans the weight-3 search scans before it turns to discrete logarithms.
pub(super) const QUICK_SPANS: u64 = 1 << 16;
