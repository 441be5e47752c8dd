//! `alias search`: which generator to use, by Hamming distance at the
//! user's lengths and then by exact `P_ud` at the user's BERs
//! (`aliasing_core::search`). Shards write a checksummed file; `--merge`
//! combines them into the unsharded result.

use crate::args::parse_bers;
use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::ctx::Job;
use aliasing_core::document::{self, HdAt, PudAt, Search};
use aliasing_core::job::search::{self, SearchJob, ShardBody, ShardFile};
use aliasing_core::search::{Objective, Query};
use aliasing_sim::shard::Team;
use anyhow::{Context, Result, bail};
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

/// Parses and verifies the text of a shard file; `name` names it in messages.
fn shard_from_text(text: &str, name: &str) -> Result<ShardBody> {
    Ok(ShardFile::from_text(text, name)?)
}

/// The job `a` asks for.
fn job(a: &Args) -> Result<SearchJob> {
    let width = a.width.expect("clap requires --width");
    let query = Query {
        width,
        lengths: crate::lengths::bits_or_bytes(a.bits.as_deref(), a.bytes.as_deref())?,
        bers: parse_bers(a.ber.as_deref().expect("clap requires --ber"))?,
        min_hd: a.min_hd,
        top: a.top,
        objective: match a.objective {
            ObjectiveArg::Hd => Objective::Hd,
            ObjectiveArg::Pud => Objective::Pud,
        },
    };
    query.validate()?;
    let shard = a.shard.as_deref().map(crate::args::parse_shard);
    let job = if let Some(p) = &a.candidates {
        let text = aliasing_sim::shard::read_text(p)?;
        let list = search::parse_candidates(&text, &p.display().to_string(), width)?;
        SearchJob::list(query, list, shard.transpose()?)?
    } else if let Some(n) = a.sample {
        let seed = a.seed.expect("clap requires --seed");
        SearchJob::sample(query, n, seed, shard.transpose()?)?
    } else {
        SearchJob::all(query, shard.transpose()?)?
    };
    if let Some(out) = &a.out
        && a.shard.is_none()
    {
        bail!("--out {} needs --shard I/N", out.display());
    }
    Ok(job)
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
    let ctx = crate::args::context(None)?.with_team(team);
    if let Some(files) = &a.merge {
        if !ctx.is_root() {
            return Ok(());
        }
        let mut bodies = Vec::new();
        for p in files {
            let text = aliasing_sim::shard::read_text(p)?;
            let name = p.display().to_string();
            bodies.push((name.clone(), shard_from_text(&text, &name)?));
        }
        let bar = Bar::stderr();
        let doc = search::merge_report(bodies, &ctx.with_progress(&bar))?;
        return emit(&a, &doc);
    }
    let job = job(&a)?;
    if a.rank == RankArg::PerLength {
        return per_length(&a, &job);
    }
    if team.is_none() {
        // (under MPI every rank would have to take the same decision)
        output::long_run(job.estimated_seconds(&ctx)?, "this search")?;
    }
    let bar = Bar::when(ctx.is_root());
    let done = job.run(&ctx.with_progress(&bar))?;
    let (Some(file), Some(doc)) = (done.file, done.document) else {
        return Ok(()); // a rank other than 0
    };
    if let Some(out) = &a.out {
        aliasing_core::atomic::write(out, file.to_text()?.as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    emit(&a, &doc)
}

/// Prints (and plots) a report.
fn emit(a: &Args, doc: &Search) -> Result<()> {
    if let Some(p) = &a.plot {
        plot(doc, p)?;
    }
    output::emit(a.output.as_deref(), &render(doc, a.format)?)
}

/// `--rank per-length`: one search per length, each ranked as if it were
/// the only length; the reports one after the other (table), one CSV with
/// the `bits` column telling them apart, or one JSON document with a
/// `per_length` list of the single-length documents.
fn per_length(a: &Args, job: &SearchJob) -> Result<()> {
    if a.shard.is_some() || a.plot.is_some() {
        bail!("--rank per-length does not combine with --shard or --plot; use --rank worst");
    }
    let mut docs = Vec::new();
    for &n in &job.query().lengths {
        let bar = Bar::when(true);
        let ctx = crate::args::context(None)?;
        let done = job.at_length(n)?.run(&ctx.with_progress(&bar))?;
        docs.push((n, done.document.expect("one process")));
    }
    let text = match a.format {
        Format::Json => {
            let docs = docs.into_iter().map(|(_, d)| d).collect();
            document::to_json_sorted(&document::SearchPerLength::new(job.query(), docs))?
        }
        Format::Csv => {
            let mut out = String::new();
            for (i, (_, d)) in docs.iter().enumerate() {
                let t = render(d, Format::Csv)?;
                // one header: the later reports' first line is the same
                out += if i == 0 {
                    &t
                } else {
                    t.split_once('\n').map_or("", |x| x.1)
                };
            }
            out
        }
        Format::Table => docs
            .iter()
            .map(|(n, d)| {
                Ok(format!(
                    "## ranked at {n} bits alone\n{}",
                    render(d, Format::Table)?
                ))
            })
            .collect::<Result<Vec<_>>>()?
            .join("\n"),
    };
    output::emit(a.output.as_deref(), &text)
}

/// The report's text in `format`.
fn render(doc: &Search, format: Format) -> Result<String> {
    Ok(match format {
        Format::Json => document::to_json_sorted(doc)?,
        Format::Csv => output::csv(&csv_rows(doc)),
        Format::Table => table(doc),
    })
}

/// The CSV rows: one per result, length and BER.
fn csv_rows(doc: &Search) -> Vec<Vec<String>> {
    let head = [
        "rank",
        "koopman",
        "full",
        "reciprocal_of",
        "min_hd",
        "bits",
        "hd",
        "ber",
        "p_undetected",
    ];
    let mut rows = vec![head.map(String::from).to_vec()];
    for r in &doc.results {
        for (li, h) in r.hd.iter().enumerate() {
            for pt in &r.points[li * doc.bers.len()..(li + 1) * doc.bers.len()] {
                rows.push(vec![
                    r.rank.to_string(),
                    r.koopman.clone(),
                    r.full.clone(),
                    r.reciprocal_of.clone().unwrap_or_default(),
                    r.min_hd.to_string(),
                    h.bits.to_string(),
                    h.hd.to_string(),
                    format!("{:e}", pt.ber),
                    format!("{:e}", pt.p_undetected),
                ]);
            }
        }
    }
    rows
}

/// A table row: rank, Koopman and full forms, mirror or names, the HDs and
/// every P_ud.
fn row(
    rank: String,
    koopman: &str,
    full: &str,
    mirror: String,
    hd: &[HdAt],
    points: &[PudAt],
) -> Vec<String> {
    let hd: Vec<String> = hd.iter().map(|h| h.hd.to_string()).collect();
    let mut v = vec![rank, koopman.into(), full.into(), mirror, hd.join(",")];
    v.extend(points.iter().map(|p| output::prob(p.p_undetected)));
    v
}

/// The table form.
fn table(doc: &Search) -> String {
    let shard = match doc.shard.count {
        1 => String::new(),
        _ => format!("; shard {}/{}", doc.shard.index, doc.shard.count),
    };
    let mut s = format!(
        "# search: {}; objective {}{shard}\n",
        doc.candidates, doc.objective
    );
    s += "# lengths: codeword bits, check bits included; P_ud exact (dual-code weights); score = worst case over the lengths, BER by BER in the order given\n";
    let hist: Vec<String> = doc
        .hd_histogram
        .iter()
        .rev()
        .map(|(h, c)| format!("HD {h}: {c}"))
        .collect();
    s += &format!("# minimum distance over the lengths: {}\n", hist.join(", "));
    let (d, u) = (&doc.stages.distance, &doc.stages.p_undetected);
    s += &format!(
        "# stages: distance {} generators in {:.2} s ({:.0}/s); P_ud {} in {:.2} s ({:.1}/s)\n",
        d.generators, d.seconds, d.per_second, u.generators, u.seconds, u.per_second
    );
    let mut head = ["rank", "koopman", "full", "mirror", "hd"]
        .map(String::from)
        .to_vec();
    for &n in &doc.lengths {
        for &p in &doc.bers {
            head.push(format!("P_ud@{n},{p:e}"));
        }
    }
    let mut rows = vec![head.clone()];
    for r in &doc.results {
        let mirror = r
            .reciprocal_of
            .as_ref()
            .and_then(|k| doc.results.iter().position(|x| &x.koopman == k));
        let mirror = mirror
            .map(|j| format!("=#{} reversed", j + 1))
            .unwrap_or_default();
        rows.push(row(
            r.rank.to_string(),
            &r.koopman,
            &r.full,
            mirror,
            &r.hd,
            &r.points,
        ));
    }
    s += &output::table(&rows);
    s += &catalogue_table(doc, head);
    for n in &doc.notes {
        s += &format!("# note: {n}\n");
    }
    s
}

/// The catalogue's CRCs of the width, as rows under `head` (nothing when
/// the catalogue has none).
fn catalogue_table(doc: &Search, head: Vec<String>) -> String {
    if doc.catalogue.is_empty() {
        return String::new();
    }
    let mut s = format!("\n# the catalogue's CRCs of width {}\n", doc.width);
    let mut rows = vec![head];
    rows[0][3] = "names".into();
    for k in &doc.catalogue {
        let rank = match k.rank {
            Some(st) if st.best == st.worst => st.best.to_string(),
            Some(st) => format!("{}..{}", st.best, st.worst),
            None => "-".into(),
        };
        rows.push(row(
            rank,
            &k.koopman,
            &k.full,
            k.names.clone(),
            &k.hd,
            &k.points,
        ));
    }
    s += &output::table(&rows);
    s
}

/// Draws P(alias | error) of the first 8 results and the catalogue's CRCs.
fn plot(doc: &Search, path: &Path) -> Result<()> {
    let results = doc
        .results
        .iter()
        .take(8)
        .map(|r| (&r.koopman, r.min_hd, &r.points));
    let known = doc
        .catalogue
        .iter()
        .map(|k| (&k.names, k.min_hd, &k.points));
    let mut checks: Vec<document::CompareCheck> = Vec::new();
    let mut points = Vec::new();
    for (name, min_hd, pts) in results.chain(known) {
        let label = format!("{name} HD {min_hd}");
        if checks.iter().any(|c| c.name == label) {
            continue;
        }
        checks.push(document::CompareCheck::new(label.clone(), doc.width));
        for pt in pts {
            let width = u64::from(doc.width);
            let cp = aliasing_core::bsc::CurvePoint::new(pt.ber, pt.bits, width, pt.p_undetected);
            points.push(document::ComparePoint::new(label.clone(), &cp, None));
        }
    }
    crate::args::plot(Some(path), &document::Compare::new(None, checks, points))
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
