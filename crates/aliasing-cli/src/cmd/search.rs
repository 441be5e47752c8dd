//! `alias search`: which generator to use, by Hamming distance at the
//! user's lengths and then by exact `P_ud` at the user's BERs
//! (`aliasing_core::search`). Shards write a checksummed file; `--merge`
//! combines them into the unsharded result.

use crate::args::parse_bers;
use crate::lengths::parse_lengths;
use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use aliasing_core::poly::Generator;
use aliasing_core::search::{self, Objective, Partial, Query, Ranked, Space};
use aliasing_core::shard::Shard;
use aliasing_core::{catalogue, document};
use aliasing_sim::shard::{Team, fnv1a64};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Ranking objective on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ObjectiveArg {
    /// Highest minimum distance at the lengths first, then lowest P_ud.
    Hd,
    /// Lowest P_ud (worst case over the lengths), distance ignored.
    Pud,
}

/// How the lengths enter the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RankArg {
    /// One ranking: worst case over the lengths (the distance at the
    /// longest, the largest P_ud).
    Worst,
    /// One ranking per length, each as if that length were the only one.
    PerLength,
}

/// Arguments of `alias search`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC width r: every generator of width r with the +1 term is a
    /// candidate (2^(r-1) of them) unless --candidates or --sample is given.
    /// [required unless --merge]
    #[arg(long, required_unless_present = "merge", value_parser = crate::lengths::count::<u32>, allow_negative_numbers = true)]
    pub width: Option<u32>,
    /// Codeword lengths in bits, check bits included (values, START:STOP:STEP, log:START:STOP:N).
    /// [required unless --bytes or --merge]
    #[arg(long, conflicts_with = "bytes", required_unless_present_any = ["bytes", "merge"], allow_hyphen_values = true)]
    pub bits: Option<String>,
    /// Codeword lengths in bytes (x 8 bits), check bytes included; same
    /// forms as --bits.
    #[arg(long, allow_hyphen_values = true)]
    pub bytes: Option<String>,
    /// Bit error rates in (0, 0.5], comma-separated; the first decides ties of P_ud first.
    /// [required unless --merge]
    #[arg(long, required_unless_present = "merge", value_parser = crate::args::ber_list, allow_hyphen_values = true)]
    pub ber: Option<String>,
    /// Drop candidates whose minimum distance over the lengths is below D.
    #[arg(long, default_value_t = 0, value_parser = crate::lengths::count::<u32>, allow_negative_numbers = true)]
    pub min_hd: u32,
    /// How many generators to list (0: every survivor).
    #[arg(long, default_value_t = 10, value_parser = crate::lengths::count::<usize>, allow_negative_numbers = true)]
    pub top: usize,
    /// Ranking objective.
    #[arg(long, value_enum, default_value_t = ObjectiveArg::Hd)]
    pub objective: ObjectiveArg,
    /// Only the generators in FILE (one per line, any notation of `--crc`; `#` comments).
    #[arg(long, conflicts_with = "sample")]
    pub candidates: Option<PathBuf>,
    /// A seeded random sample of N generators of the width instead of all.
    #[arg(long, requires = "seed", value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    pub sample: Option<u64>,
    /// Seed of --sample.
    #[arg(long, value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Run shard I of N (candidates split by index) and write its result file to --out.
    #[arg(long, requires = "out")]
    pub shard: Option<String>,
    /// Shard result file (with --shard).
    #[arg(long, value_parser = OutPath::parse)]
    pub out: Option<OutPath>,
    /// Combine the result files of every shard of one search instead of searching.
    #[arg(long, num_args = 1.., conflicts_with_all = ["width", "bits", "bytes", "ber", "shard", "candidates", "sample"])]
    pub merge: Option<Vec<PathBuf>>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, short, value_parser = OutPath::parse)]
    pub output: Option<OutPath>,
    /// Rank by the worst case over the lengths (one list), or per length
    /// (one list for each length; not with --shard, --merge or --plot).
    #[arg(long, value_enum, default_value_t = RankArg::Worst)]
    pub rank: RankArg,
    /// Also draw P(alias | error) of the listed generators and the catalogue's
    /// CRCs of the width to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    pub plot: Option<PlotPath>,
}

/// Which candidates a search covered (enough to tell shards of one search apart).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SpaceId {
    /// `all`, `candidates` or `sample`.
    kind: String,
    /// Number of candidates.
    count: u64,
    /// FNV-1a of the candidates' full notations (lists), or the seed (samples).
    id: String,
}

/// The body of a shard result file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ShardBody {
    format: String,
    version: u32,
    query: Query,
    space: SpaceId,
    shard: Shard,
    partial: Partial,
}

#[derive(Serialize, Deserialize)]
struct ShardFile {
    checksum: String,
    body: ShardBody,
}

const FORMAT: &str = "alias-search";

fn checksum(body: &ShardBody) -> Result<String> {
    Ok(format!(
        "{:016x}",
        fnv1a64(serde_json::to_string(body)?.as_bytes())
    ))
}

fn read_shard(p: &Path) -> Result<ShardBody> {
    let text = aliasing_sim::shard::read_text(p)?;
    shard_from_text(&text, &p.display().to_string())
}

/// Parses and verifies the text of a shard file; `name` names it in messages.
fn shard_from_text(text: &str, name: &str) -> Result<ShardBody> {
    let f: ShardFile = serde_json::from_str(text)
        .with_context(|| format!("{name} is not an `alias search` shard file"))?;
    if f.body.format != FORMAT || f.body.version != 1 {
        bail!("{name} is not an `alias search` shard file (version 1)");
    }
    if checksum(&f.body)? != f.checksum {
        bail!("{name} is corrupt: its checksum does not match");
    }
    // byte for byte the text `alias search` writes: an edit the checksum
    // cannot see (a hex digit's case, another spelling of the same number)
    // is refused too
    if serde_json::to_string(&f)? != text {
        bail!("{name} is corrupt: edited (not the text alias search writes)");
    }
    Ok(f.body)
}

fn lengths(a: &Args) -> Result<Vec<u64>> {
    if let Some(b) = &a.bits {
        return parse_lengths(b);
    }
    let b = a.bytes.as_deref().expect("clap requires --bits or --bytes");
    parse_lengths(b)?
        .into_iter()
        .map(|v| {
            v.checked_mul(8)
                .with_context(|| format!("invalid length: {v} bytes is too large"))
        })
        .collect()
}

fn read_candidates(p: &Path, width: u32) -> Result<Vec<Generator>> {
    let text = aliasing_sim::shard::read_text(p)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.split('#').next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let g = catalogue::resolve(t)
            .with_context(|| format!("{} line {}", p.display(), i + 1))?
            .generator();
        if g.width() != width {
            bail!(
                "{} line {}: {} has width {}, not {width}",
                p.display(),
                i + 1,
                g.full_string(),
                g.width()
            );
        }
        out.push(g);
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        bail!("{} lists no generators", p.display());
    }
    Ok(out)
}

/// Runs `alias search`. Under MPI (the `mpi` feature, `mpirun -n S`) the
/// ranks split the shard's candidates into `S` consecutive ranges (shard
/// `(I-1) S + r + 1` of `N S` for rank `r`: together exactly shard `I/N`),
/// rank 0 gathers the partial results, merges them as `--merge` does and
/// alone prints and writes; a rank that fails ends the job.
pub fn run(a: Args) -> Result<()> {
    crate::team::run_ranked(|team| run_in(a, team))
}

fn run_in(a: Args, team: Option<&dyn Team>) -> Result<()> {
    crate::output::distinct(&[
        ("--output", a.output.as_ref()),
        ("--plot", a.plot.as_ref().map(PlotPath::out)),
        ("--out", a.out.as_ref()),
    ])?;
    if let Some(files) = &a.merge {
        if team.is_some_and(|t| t.rank() != 0) {
            return Ok(());
        }
        return merge(&a, files);
    }
    let width = a.width.expect("clap requires --width");
    let query = Query {
        width,
        lengths: lengths(&a)?,
        bers: parse_bers(a.ber.as_deref().expect("clap requires --ber"))?,
        min_hd: a.min_hd,
        top: a.top,
        objective: match a.objective {
            ObjectiveArg::Hd => Objective::Hd,
            ObjectiveArg::Pud => Objective::Pud,
        },
    };
    query.validate()?;
    let (space, id) = if let Some(p) = &a.candidates {
        let v = read_candidates(p, width)?;
        let names: Vec<String> = v.iter().map(Generator::full_string).collect();
        let id = SpaceId {
            kind: "candidates".into(),
            count: v.len() as u64,
            id: format!("{:016x}", fnv1a64(names.join(",").as_bytes())),
        };
        (Space::List(v), id)
    } else if let Some(n) = a.sample {
        let seed = a.seed.expect("clap requires --seed");
        let s = Space::sample(width, n, seed)?;
        let id = SpaceId {
            kind: "sample".into(),
            count: n,
            id: format!("seed {seed}"),
        };
        (s, id)
    } else {
        if width > 24 && a.shard.is_none() {
            bail!(
                "an exhaustive search of width {width} has {} candidates; \
                 use --sample, --candidates or --shard",
                1u64 << (width - 1)
            );
        }
        let s = Space::All;
        let id = SpaceId {
            kind: "all".into(),
            count: s.len(width),
            id: String::new(),
        };
        (s, id)
    };
    let shard = match &a.shard {
        Some(s) => crate::args::parse_shard(s)?,
        None => Shard::WHOLE,
    };
    if let Some(out) = &a.out
        && a.shard.is_none()
    {
        bail!("--out {} needs --shard I/N", out.display());
    }
    if a.rank == RankArg::PerLength {
        return per_length(&a, &query, &space, &id);
    }
    let root = team.is_none_or(|t| t.rank() == 0);
    if team.is_none() {
        // (under MPI every rank would have to take the same decision)
        crate::output::long_run(
            search::estimate_seconds(&query, &space, shard)?,
            "this search",
        )?;
    }
    let bar = crate::progress::Bar::when(root);
    let part = match team {
        None => search::run_with(&query, &space, shard, &bar)?,
        Some(t) => {
            let size = t.size() as u64;
            let count = shard
                .count
                .checked_mul(size)
                .context("--shard N times the number of ranks is too large")?;
            let mine = Shard::new((shard.index - 1) * size + t.rank() as u64 + 1, count)?;
            let part = search::run_with(&query, &space, mine, &bar)?;
            let parts = t.gather(serde_json::to_vec(&part)?);
            if !root {
                return Ok(());
            }
            let parts = parts
                .iter()
                .map(|b| serde_json::from_slice(b))
                .collect::<serde_json::Result<Vec<Partial>>>()
                .context("a rank sent an unreadable partial result")?;
            Partial::merge(&query, parts)
        }
    };
    bar.finish();
    if let Some(out) = &a.out {
        let body = ShardBody {
            format: FORMAT.into(),
            version: 1,
            query: query.clone(),
            space: id.clone(),
            shard,
            partial: part.clone(),
        };
        let f = ShardFile {
            checksum: checksum(&body)?,
            body,
        };
        aliasing_core::atomic::write(out, serde_json::to_string(&f)?.as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    report(&a, &query, &id, shard, &part)
}

fn merge(a: &Args, files: &[PathBuf]) -> Result<()> {
    let mut bodies = Vec::new();
    for p in files {
        bodies.push((p, read_shard(p)?));
    }
    let (_, first) = &bodies[0];
    let n = first.shard.count;
    if n == 0 || n > 1 << 20 {
        bail!("{} has an invalid shard count {n}", bodies[0].0.display());
    }
    let mut seen: Vec<Option<&Path>> = vec![None; n as usize];
    for (p, b) in &bodies {
        if b.query != first.query || b.space != first.space {
            bail!(
                "{} is from another search (parameters differ from {})",
                p.display(),
                bodies[0].0.display()
            );
        }
        if b.shard.count != n || b.shard.checked().is_err() {
            bail!("{} is shard {}, not of {n}", p.display(), b.shard);
        }
        let slot = &mut seen[b.shard.index as usize - 1];
        if let Some(q) = slot {
            bail!(
                "shard {}/{n} given twice: {} and {}",
                b.shard.index,
                q.display(),
                p.display()
            );
        }
        *slot = Some(p.as_path());
    }
    if let Some(i) = seen.iter().position(Option::is_none) {
        bail!("shard {}/{n} is missing", i + 1);
    }
    let query = first.query.clone();
    let id = first.space.clone();
    let part = Partial::merge(&query, bodies.into_iter().map(|(_, b)| b.partial).collect());
    report(a, &query, &id, Shard::WHOLE, &part)
}

/// A catalogue CRC of the searched width, evaluated like a candidate.
struct Known {
    names: String,
    ranked: Ranked,
    standing: Option<search::Standing>,
}

fn catalogue_of(query: &Query, id: &SpaceId, part: &Partial) -> Result<Vec<Known>> {
    let mut by_gen: Vec<(Generator, Vec<&str>)> = Vec::new();
    for e in catalogue::ENTRIES.iter().filter(|e| e.width == query.width) {
        let g = Generator::new(e.width, e.poly)?;
        match by_gen.iter_mut().find(|(h, _)| *h == g) {
            Some((_, v)) => v.push(e.name),
            None => by_gen.push((g, vec![e.name])),
        }
    }
    let mut out = Vec::new();
    // each is a full evaluation (a 32-bit CRC's dual code takes seconds)
    let bar = crate::progress::Bar::stderr();
    aliasing_core::progress::Progress::stage(&bar, "catalogue CRCs", by_gen.len() as u64);
    for (g, names) in by_gen {
        let ranked = search::evaluate(&g, query)?;
        aliasing_core::progress::Progress::advance(&bar, 1);
        let standing = (id.kind == "all" && query.objective == Objective::Hd)
            .then(|| search::standing(&ranked, part));
        out.push(Known {
            names: names.join(" "),
            ranked,
            standing,
        });
    }
    bar.finish();
    Ok(out)
}

fn hd_text(r: &Ranked) -> String {
    r.hd.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Notes where a generator of lower distance has the lower P_ud.
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
                        output::prob(a),
                        output::prob(b)
                    ));
                }
            }
        }
    }
    out.truncate(20);
    out
}

/// `--rank per-length`: one search per length, each ranked as if it were
/// the only length; the reports one after the other (table), one CSV with
/// the `bits` column telling them apart, or one JSON document with a
/// `per_length` list of the single-length documents.
fn per_length(a: &Args, query: &Query, space: &Space, id: &SpaceId) -> Result<()> {
    if a.shard.is_some() || a.plot.is_some() {
        bail!("--rank per-length does not combine with --shard or --plot; use --rank worst");
    }
    let mut texts = Vec::new();
    for &n in &query.lengths {
        let q = Query {
            lengths: vec![n],
            ..query.clone()
        };
        let bar = crate::progress::Bar::when(true);
        let part = search::run_with(&q, space, Shard::WHOLE, &bar)?;
        bar.finish();
        texts.push((n, render(a, &q, id, Shard::WHOLE, &part)?));
    }
    let text = match a.format {
        Format::Json => {
            let docs = texts
                .iter()
                .map(|(_, t)| {
                    let v: serde_json::Value = serde_json::from_str(t)?;
                    Ok(document::from_value::<document::Search>(v)?)
                })
                .collect::<Result<Vec<_>>>()?;
            document::to_json_sorted(&document::SearchPerLength::new(query, docs))?
        }
        Format::Csv => {
            let mut out = String::new();
            for (i, (_, t)) in texts.iter().enumerate() {
                // one header: the later reports' first line is the same
                let body = if i == 0 {
                    t.as_str()
                } else {
                    t.split_once('\n').map_or("", |x| x.1)
                };
                out += body;
            }
            out
        }
        Format::Table => texts
            .iter()
            .map(|(n, t)| format!("## ranked at {n} bits alone\n{t}"))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    output::emit(a.output.as_deref(), &text)
}

fn report(a: &Args, query: &Query, id: &SpaceId, shard: Shard, part: &Partial) -> Result<()> {
    let text = render(a, query, id, shard, part)?;
    output::emit(a.output.as_deref(), &text)
}

/// The report's text; also draws the plot when `--plot` asks.
fn render(a: &Args, query: &Query, id: &SpaceId, shard: Shard, part: &Partial) -> Result<String> {
    let known = catalogue_of(query, id, part)?;
    let rec = search::reciprocal_of(&part.results);
    let mut listed: Vec<(String, &Ranked)> = part
        .results
        .iter()
        .map(|r| (r.generator.koopman_string(), r))
        .collect();
    for k in &known {
        listed.push((k.names.clone(), &k.ranked));
    }
    let notes = notes(query, &listed);
    let space_text = match id.kind.as_str() {
        "all" => format!(
            "all {} generators of width {} with the +1 term",
            id.count, query.width
        ),
        "sample" => format!("a sample of {} generators ({})", id.count, id.id),
        _ => format!("{} generators from the candidates file", id.count),
    };
    let text = match a.format {
        Format::Json => {
            let stages = document::SearchStages {
                distance: (&part.distance_stage).into(),
                p_undetected: (&part.pud_stage).into(),
            };
            let mut doc = document::Search::new(
                query,
                space_text.clone(),
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
                    document::SearchResult::new(query, i as u64 + 1, r, mirror)
                })
                .collect();
            doc.catalogue = known
                .iter()
                .map(|k| {
                    document::SearchCatalogueEntry::new(
                        query,
                        k.names.clone(),
                        &k.ranked,
                        k.standing,
                    )
                })
                .collect();
            doc.notes = notes.clone();
            document::to_json_sorted(&doc)?
        }
        Format::Csv => {
            let mut rows = vec![
                [
                    "rank",
                    "koopman",
                    "full",
                    "reciprocal_of",
                    "min_hd",
                    "bits",
                    "hd",
                    "ber",
                    "p_undetected",
                ]
                .map(String::from)
                .to_vec(),
            ];
            for (i, (r, m)) in part.results.iter().zip(&rec).enumerate() {
                for (li, &n) in query.lengths.iter().enumerate() {
                    for (bi, &p) in query.bers.iter().enumerate() {
                        rows.push(vec![
                            (i + 1).to_string(),
                            r.generator.koopman_string(),
                            r.generator.full_string(),
                            m.map(|j| part.results[j].generator.koopman_string())
                                .unwrap_or_default(),
                            r.min_hd.to_string(),
                            n.to_string(),
                            r.hd[li].to_string(),
                            format!("{p:e}"),
                            format!("{:e}", r.p_undetected[li][bi]),
                        ]);
                    }
                }
            }
            output::csv(&rows)
        }
        Format::Table => {
            let mut s = String::new();
            s += &format!(
                "# search: {space_text}; objective {}{}\n",
                query.objective.name(),
                if shard.count > 1 {
                    format!("; shard {}/{}", shard.index, shard.count)
                } else {
                    String::new()
                }
            );
            s += "# lengths: codeword bits, check bits included; P_ud exact (dual-code weights); score = worst case over the lengths, BER by BER in the order given\n";
            let hist: Vec<String> = part
                .hd_histogram
                .iter()
                .rev()
                .map(|(h, c)| format!("HD {h}: {c}"))
                .collect();
            s += &format!("# minimum distance over the lengths: {}\n", hist.join(", "));
            s += &format!(
                "# stages: distance {} generators in {:.2} s ({:.0}/s); P_ud {} in {:.2} s ({:.1}/s)\n",
                part.distance_stage.generators,
                part.distance_stage.seconds,
                part.distance_stage.rate(),
                part.pud_stage.generators,
                part.pud_stage.seconds,
                part.pud_stage.rate()
            );
            let mut head = vec![
                "rank".to_string(),
                "koopman".into(),
                "full".into(),
                "mirror".into(),
                "hd".into(),
            ];
            for &n in &query.lengths {
                for &p in &query.bers {
                    head.push(format!("P_ud@{n},{p:e}"));
                }
            }
            let row = |rank: String, r: &Ranked, mirror: String| {
                let mut v = vec![
                    rank,
                    r.generator.koopman_string(),
                    r.generator.full_string(),
                    mirror,
                    hd_text(r),
                ];
                for row in &r.p_undetected {
                    for &x in row {
                        v.push(output::prob(x));
                    }
                }
                v
            };
            let mut rows = vec![head.clone()];
            for (i, (r, m)) in part.results.iter().zip(&rec).enumerate() {
                rows.push(row(
                    (i + 1).to_string(),
                    r,
                    m.map(|j| format!("=#{} reversed", j + 1))
                        .unwrap_or_default(),
                ));
            }
            s += &output::table(&rows);
            if !known.is_empty() {
                s += &format!("\n# the catalogue's CRCs of width {}\n", query.width);
                let mut rows = vec![head];
                rows[0][0] = "rank".into();
                rows[0][3] = "names".into();
                for k in &known {
                    let rank = match k.standing {
                        Some(st) if st.best == st.worst => st.best.to_string(),
                        Some(st) => format!("{}..{}", st.best, st.worst),
                        None => "-".into(),
                    };
                    rows.push(row(rank, &k.ranked, k.names.clone()));
                }
                s += &output::table(&rows);
            }
            for n in &notes {
                s += &format!("# note: {n}\n");
            }
            s
        }
    };
    if let Some(p) = &a.plot {
        let mut checks: Vec<document::CompareCheck> = Vec::new();
        let mut points = Vec::new();
        for (name, r) in listed
            .iter()
            .take(8)
            .chain(listed.iter().skip(part.results.len()))
        {
            let label = format!("{name} HD {}", r.min_hd);
            if checks.iter().any(|c| c.name == label) {
                continue;
            }
            checks.push(document::CompareCheck::new(label.clone(), query.width));
            for (li, &n) in query.lengths.iter().enumerate() {
                for (bi, &ber) in query.bers.iter().enumerate() {
                    let pe = aliasing_core::bsc::p_error(n, ber);
                    let ud = r.p_undetected[li][bi];
                    let pt = aliasing_core::bsc::CurvePoint {
                        ber,
                        bits: n,
                        data_bits: n.saturating_sub(u64::from(query.width)),
                        p_error: pe,
                        p_undetected: ud,
                        p_alias_given_error: ud / pe,
                    };
                    points.push(document::ComparePoint::new(label.clone(), &pt, None));
                }
            }
        }
        let doc = document::Compare::new(None, checks, points);
        crate::args::plot(Some(p), &doc)?;
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        a: Args,
    }

    /// A shard file with any single byte changed, cut short or with a byte
    /// doubled is refused in one line (every position, several bytes each).
    #[test]
    fn a_shard_file_with_any_byte_changed_is_refused() {
        let dir = std::env::temp_dir().join(format!("alias-search-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("s1.json");
        let args = [
            "x", "--width", "8", "--bits", "20", "--ber", "1e-5", "--top", "2",
        ];
        let mut args: Vec<&str> = args.to_vec();
        let out_s = out.display().to_string();
        let report = dir.join("report.csv").display().to_string();
        args.extend([
            "--shard", "1/2", "--out", &out_s, "--format", "csv", "--output", &report,
        ]);
        run(Cli::try_parse_from(args).unwrap().a).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(shard_from_text(&text, "f").is_ok());
        let bytes = text.as_bytes();
        let mut tried = 0;
        for i in 0..bytes.len() {
            let mut edits: Vec<Vec<u8>> = [1u8, 2, 0x20, 0x80]
                .iter()
                .map(|d| bytes[i] ^ d)
                .chain([b'0', b'9', b' ', b'"', b'E', b'X'])
                .filter(|&r| r != bytes[i])
                .map(|r| {
                    let mut b = bytes.to_vec();
                    b[i] = r;
                    b
                })
                .collect();
            edits.push(bytes[..i].to_vec());
            let mut doubled = bytes.to_vec();
            doubled.insert(i, bytes[i]);
            edits.push(doubled);
            for b in edits {
                let Ok(s) = String::from_utf8(b) else {
                    continue;
                };
                tried += 1;
                let e = shard_from_text(&s, "f").expect_err(&format!("byte {i} edited: {s}"));
                assert!(!format!("{e:#}").contains('\n'), "{e:#}");
            }
        }
        assert!(tried > 8 * bytes.len());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
