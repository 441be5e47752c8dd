//! [`SearchJob`]: `alias search` as a library job, with its report (the
//! [`Search`] document, the catalogue's CRCs of the width beside the
//! results). A shard's result is its [`Partial`]; the simulator's session
//! (`aliasing_sim::search`) writes it to a shard file and merges those.

use crate::catalogue;
use crate::ctx::{Ctx, Job};
use crate::document::{Search, SearchCatalogueEntry, SearchResult, SearchStages};
use crate::error::{Error, Result};
use crate::poly::Generator;
use crate::search::{self as space_search, Objective, Partial, Query, Ranked, Space, Standing};
use crate::shard::{Shard, fnv1a64};
use serde::{Deserialize, Serialize};

/// Which candidates a search covered (enough to tell shards of one search
/// apart).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceId {
    /// `all`, `candidates` or `sample`.
    pub kind: String,
    /// Number of candidates.
    pub count: u64,
    /// FNV-1a of the candidates' full notations (lists), or the seed (samples).
    pub id: String,
}

impl SpaceId {
    /// How the report names the candidates.
    fn describe(&self, width: u32) -> String {
        match self.kind.as_str() {
            "all" => format!(
                "all {} generators of width {width} with the +1 term",
                self.count
            ),
            "sample" => format!("a sample of {} generators ({})", self.count, self.id),
            _ => format!("{} generators from the candidates file", self.count),
        }
    }
}

/// The generators listed in a candidates file's `text` (one per line, any
/// notation [`catalogue::resolve`] reads, `#` comments), each of `width`
/// bits, sorted without repeats; `name` names the file in messages.
pub fn parse_candidates(text: &str, name: &str, width: u32) -> Result<Vec<Generator>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.split('#').next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let g = catalogue::resolve(t)
            .map_err(|e| e.within(format!("{name} line {}", i + 1)))?
            .generator();
        if g.width() != width {
            return Err(Error::Invalid(format!(
                "{name} line {}: {} has width {}, not {width}",
                i + 1,
                g.full_string(),
                g.width()
            )));
        }
        out.push(g);
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return Err(Error::Invalid(format!("{name} lists no generators")));
    }
    Ok(out)
}

/// A generator search: which generator of a width to use, by Hamming
/// distance at the lengths and then by exact `P_ud` at the BERs, over all
/// generators, a list or a seeded sample, optionally one shard of them.
/// Its run gives the [`Search`] document (and the shard's file).
///
/// ```
/// use aliasing_core::ctx::{Ctx, Job};
/// use aliasing_core::job::SearchJob;
/// use aliasing_core::search::{Objective, Query};
/// let q = Query::new(8, vec![64], vec![1e-5], 0, 3, Objective::Hd).unwrap();
/// let job = SearchJob::all(q, None).unwrap();
/// let doc = job.run(&Ctx::default()).unwrap().document.unwrap();
/// assert_eq!(doc.results.len(), 3);
/// assert_eq!(doc.examined, 128);
/// ```
#[derive(Debug, Clone)]
pub struct SearchJob {
    query: Query,
    space: Space,
    id: SpaceId,
    shard: Shard,
}

/// What a [`SearchJob`] gives at a team's member 0 (or alone): the shard's
/// result and the report. Other members give nothing.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct SearchOutcome {
    /// The shard's result, what its shard file records (`None` on members
    /// other than 0).
    pub partial: Option<Partial>,
    /// The report (`None` on members other than 0).
    pub document: Option<Search>,
}

impl SearchJob {
    /// Every generator of the query's width (an exhaustive search over 24
    /// bits only as a shard: `shard` given).
    pub fn all(query: Query, shard: Option<Shard>) -> Result<SearchJob> {
        query.validate()?;
        let width = query.width;
        if width > 24 && shard.is_none() {
            return Err(Error::Param {
                param: crate::error::Param::Candidates,
                reason: format!(
                    "an exhaustive search of width {width} has {} candidates; \
                     sample them, list them or search one shard",
                    1u64 << (width - 1)
                ),
            });
        }
        let id = SpaceId {
            kind: "all".into(),
            count: Space::All.len(width),
            id: String::new(),
        };
        Ok(SearchJob::of(query, Space::All, id, shard))
    }

    /// The generators `list` (of the query's width).
    pub fn list(query: Query, list: Vec<Generator>, shard: Option<Shard>) -> Result<SearchJob> {
        query.validate()?;
        if let Some(g) = list.iter().find(|g| g.width() != query.width) {
            return Err(Error::Invalid(format!(
                "{} has width {}, not {}",
                g.full_string(),
                g.width(),
                query.width
            )));
        }
        let names: Vec<String> = list.iter().map(Generator::full_string).collect();
        let id = SpaceId {
            kind: "candidates".into(),
            count: list.len() as u64,
            id: format!("{:016x}", fnv1a64(names.join(",").as_bytes())),
        };
        Ok(SearchJob::of(query, Space::List(list), id, shard))
    }

    /// A seeded random sample of `n` generators of the query's width.
    pub fn sample(query: Query, n: u64, seed: u64, shard: Option<Shard>) -> Result<SearchJob> {
        query.validate()?;
        let space = Space::sample(query.width, n, seed)?;
        let id = SpaceId {
            kind: "sample".into(),
            count: n,
            id: format!("seed {seed}"),
        };
        Ok(SearchJob::of(query, space, id, shard))
    }

    fn of(query: Query, space: Space, id: SpaceId, shard: Option<Shard>) -> SearchJob {
        SearchJob {
            query,
            space,
            id,
            shard: shard.unwrap_or(Shard::WHOLE),
        }
    }

    /// The query.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// Which candidates the search covers (as its shard files record them).
    #[doc(hidden)] // the type is internal: reached through `crate::__private`
    pub fn space_id(&self) -> &SpaceId {
        &self.id
    }

    /// The shard of the candidates this job searches.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// The same search ranked at `bits` alone (one of the query's lengths
    /// or any other valid one), over the same candidates.
    pub fn at_length(&self, bits: u64) -> Result<SearchJob> {
        let query = Query {
            lengths: vec![bits],
            ..self.query.clone()
        };
        query.validate()?;
        Ok(SearchJob {
            query,
            ..self.clone()
        })
    }

    /// The estimated time of the run in seconds, in one process, under the
    /// memory budget of `ctx`.
    pub fn estimated_seconds(&self, ctx: &Ctx) -> Result<f64> {
        space_search::estimate_seconds(&self.query, &self.space, self.shard, ctx.budget())
    }

    /// The shard's result in `ctx`: with a team, its members split the
    /// shard into consecutive ranges (member `r` of `S` runs shard
    /// `(I-1) S + r + 1` of `N S`: together exactly shard `I/N`), and member
    /// 0 gathers and merges their parts; `None` on the other members.
    pub fn partial(&self, ctx: &Ctx) -> Result<Option<Partial>> {
        let (q, space, shard) = (&self.query, &self.space, self.shard);
        let Some(t) = ctx.team() else {
            return Ok(Some(
                ctx.install_with(|c| space_search::run(q, space, shard, c))??,
            ));
        };
        let size = t.size() as u64;
        let count = shard.count.checked_mul(size).ok_or_else(|| Error::Param {
            param: crate::error::Param::Shard,
            reason: "the shard count times the number of ranks is too large".into(),
        })?;
        let mine = Shard::new((shard.index - 1) * size + t.rank() as u64 + 1, count)?;
        let part = ctx.install_with(|c| space_search::run(q, space, mine, c))??;
        let bytes = serde_json::to_vec(&part).map_err(|e| Error::Invalid(e.to_string()))?;
        let parts = t.gather(bytes);
        if t.rank() != 0 {
            return Ok(None);
        }
        let parts = parts
            .iter()
            .map(|b| serde_json::from_slice(b))
            .collect::<serde_json::Result<Vec<Partial>>>()
            .map_err(|e| {
                Error::Invalid(format!("a rank sent an unreadable partial result: {e}"))
            })?;
        Ok(Some(Partial::merge(q, parts)))
    }
}

impl Job for SearchJob {
    type Output = SearchOutcome;

    /// [`SearchJob::partial`], then, at member 0, the shard's file and the
    /// report.
    fn run(&self, ctx: &Ctx) -> Result<SearchOutcome> {
        let Some(part) = self.partial(ctx)? else {
            return Ok(SearchOutcome {
                partial: None,
                document: None,
            });
        };
        let document = report(&self.query, &self.id, self.shard, &part, ctx)?;
        Ok(SearchOutcome {
            partial: Some(part),
            document: Some(document),
        })
    }
}

/// A catalogue CRC of the searched width, evaluated like a candidate.
struct Known {
    names: String,
    ranked: Ranked,
    standing: Option<Standing>,
}

/// The catalogue's CRCs of the query's width, each evaluated in full (a
/// 32-bit CRC's dual code takes seconds; one stage, `"catalogue CRCs"`).
fn catalogue_of(query: &Query, id: &SpaceId, part: &Partial, ctx: &Ctx) -> Result<Vec<Known>> {
    let mut by_gen: Vec<(Generator, Vec<&str>)> = Vec::new();
    for e in catalogue::ENTRIES.iter().filter(|e| e.width == query.width) {
        let g = Generator::new(e.width, e.poly)?;
        match by_gen.iter_mut().find(|(h, _)| *h == g) {
            Some((_, v)) => v.push(e.name),
            None => by_gen.push((g, vec![e.name])),
        }
    }
    let p = ctx.progress();
    p.stage("catalogue CRCs", by_gen.len() as u64);
    let mut out = Vec::new();
    for (g, names) in by_gen {
        let ranked = ctx.install_with(|c| space_search::evaluate(&g, query, c))??;
        p.advance(1);
        let standing = (id.kind == "all" && query.objective == Objective::Hd)
            .then(|| space_search::standing(&ranked, part));
        out.push(Known {
            names: names.join(" "),
            ranked,
            standing,
        });
    }
    p.finish();
    Ok(out)
}

/// A probability as the reports print it: `0`, or 7 significant digits.
fn prob(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x:.6e}")
    }
}

/// Notes where a generator of lower distance has the lower `P_ud` (at
/// most 20).
fn notes(query: &Query, listed: &[(String, &Ranked)]) -> Vec<String> {
    let mut out = Vec::new();
    let Some((best_name, best)) = listed.first() else {
        return out;
    };
    for (name, r) in &listed[1..] {
        if r.min_hd >= best.min_hd {
            continue;
        }
        for (li, &n) in query.lengths.iter().enumerate() {
            for (bi, &p) in query.bers.iter().enumerate() {
                let (a, b) = (r.p_undetected[li][bi], best.p_undetected[li][bi]);
                if a < b {
                    out.push(format!(
                        "{name} (HD {}) has a lower P_ud than {best_name} (HD {}) at {n} bits, BER {p:e}: {} < {}",
                        r.min_hd,
                        best.min_hd,
                        prob(a),
                        prob(b)
                    ));
                }
            }
        }
    }
    out.truncate(20);
    out
}

/// The report of a search's (merged) result `part`: the results, the
/// catalogue's CRCs of the width evaluated beside them (watched by `ctx`),
/// and notes where a lower distance has the lower `P_ud`.
pub fn report(
    query: &Query,
    id: &SpaceId,
    shard: Shard,
    part: &Partial,
    ctx: &Ctx,
) -> Result<Search> {
    let known = catalogue_of(query, id, part, ctx)?;
    let rec = space_search::reciprocal_of(&part.results);
    let mut listed: Vec<(String, &Ranked)> = part
        .results
        .iter()
        .map(|r| (r.generator.koopman_string(), r))
        .collect();
    for k in &known {
        listed.push((k.names.clone(), &k.ranked));
    }
    let stages = SearchStages {
        distance: (&part.distance_stage).into(),
        p_undetected: (&part.pud_stage).into(),
    };
    let mut doc = Search::new(
        query,
        id.describe(query.width),
        shard,
        part.examined,
        part.hd_histogram.clone(),
        stages,
    );
    doc.results = part
        .results
        .iter()
        .zip(&rec)
        .enumerate()
        .map(|(i, (r, m))| {
            let mirror = m.map(|j| part.results[j].generator.koopman_string());
            SearchResult::new(query, i as u64 + 1, r, mirror)
        })
        .collect();
    doc.catalogue = known
        .iter()
        .map(|k| SearchCatalogueEntry::new(query, k.names.clone(), &k.ranked, k.standing))
        .collect();
    doc.notes = notes(query, &listed);
    Ok(doc)
}

mod lengths;
