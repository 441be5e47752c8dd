//! `alias search`: which generator to use, by Hamming distance at the
//! user's lengths and then by exact `P_ud` at the user's BERs
//! (`aliasing_core::search`). A shard's result file and `--merge` are the
//! library's (`aliasing_sim::search`, one of the kinds `alias merge` adds).

use crate::args::parse_bers;
use crate::output;
use crate::output::{OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::ctx::Job;
use aliasing_core::document::Search;
use aliasing_core::job::SearchJob;
use aliasing_core::search::{Objective, Query};
use aliasing_sim::search::{self, SearchRun};
use aliasing_sim::session::kinds::{self, Merged};
use aliasing_sim::shard::Team;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

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
    #[arg(long, required_unless_present = "merge", value_parser = aliasing_core::parse::count::<u32>, allow_negative_numbers = true)]
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
    #[arg(long, default_value_t = 0, value_parser = aliasing_core::parse::count::<u32>, allow_negative_numbers = true)]
    pub min_hd: u32,
    /// How many generators to list (0: every survivor).
    #[arg(long, default_value_t = 10, value_parser = aliasing_core::parse::count::<usize>, allow_negative_numbers = true)]
    pub top: usize,
    /// Ranking objective.
    #[arg(long, value_enum, default_value_t = Objective::Hd)]
    pub objective: Objective,
    /// Only the generators in FILE (one per line, any notation of `--crc`; `#` comments).
    #[arg(long, conflicts_with = "sample")]
    pub candidates: Option<PathBuf>,
    /// A seeded random sample of N generators of the width instead of all.
    #[arg(long, requires = "seed", value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    pub sample: Option<u64>,
    /// Seed of --sample.
    #[arg(long, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Run shard I of N (candidates split by index) and write its result file to --out.
    #[arg(long, requires = "out")]
    pub shard: Option<aliasing_core::shard::Shard>,
    /// Shard result file (with --shard).
    #[arg(long, value_parser = OutPath::parse)]
    pub out: Option<OutPath>,
    /// Combine the result files of every shard of one search instead of searching.
    #[arg(long, num_args = 1.., conflicts_with_all = ["width", "bits", "bytes", "ber", "shard", "candidates", "sample"])]
    pub merge: Option<Vec<PathBuf>>,
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Rank by the worst case over the lengths (one list), or per length
    /// (one list for each length; not with --shard, --merge or --plot).
    #[arg(long, value_enum, default_value_t = RankArg::Worst)]
    pub rank: RankArg,
    /// Also draw P(alias | error) of the listed generators and the catalogue's
    /// CRCs of the width to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    pub plot: Option<PlotPath>,
}

/// The job `a` asks for.
fn job(a: &Args) -> Result<SearchJob> {
    let width = a.width.expect("clap requires --width");
    let query = Query::new(
        width,
        crate::args::bits_or_bytes(a.bits.as_deref(), a.bytes.as_deref())?,
        parse_bers(a.ber.as_deref().expect("clap requires --ber"))?,
        a.min_hd,
        a.top,
        a.objective,
    )?;
    let job = if let Some(p) = &a.candidates {
        let text = aliasing_sim::shard::read_text(p)?;
        let name = p.display().to_string();
        let list = aliasing_core::__private::job::parse_candidates(&text, &name, width)?;
        SearchJob::list(query, list, a.shard)?
    } else if let Some(n) = a.sample {
        let seed = a.seed.expect("clap requires --seed");
        SearchJob::sample(query, n, seed, a.shard)?
    } else {
        SearchJob::all(query, a.shard)?
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
    a.print
        .check(a.plot.as_ref(), &[("--out", a.out.as_ref())])?;
    let ctx = crate::args::context(None)?.with_team(team);
    if let Some(files) = &a.merge {
        if !ctx.is_root() {
            return Ok(());
        }
        let bar = Bar::stderr();
        let merged = kinds::merge(search::FORMAT, files, false, &ctx.with_progress(&bar))?;
        let Merged::Search(done) = merged else {
            bail!("search shard files merged into another kind");
        };
        return emit(&done.1, &a.print, a.plot.as_deref());
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
    let done = SearchRun::new(job)?.run(&ctx.with_progress(&bar))?;
    let (Some(file), Some(doc)) = (done.file, done.document) else {
        return Ok(()); // a rank other than 0
    };
    if let Some(out) = &a.out {
        file.write(out)?;
    }
    emit(&doc, &a.print, a.plot.as_deref())
}

/// Prints (and plots to `plot_to`) a report (also `alias merge`'s).
pub(crate) fn emit(doc: &Search, print: &output::Print, plot_to: Option<&Path>) -> Result<()> {
    crate::args::plot(plot_to, doc)?;
    print.emit(&doc.render(print.format())?)
}

/// `--rank per-length`: one search per length, each ranked as if it were
/// the only length; the reports one after the other (table), one CSV with
/// the `bits` column telling them apart, or one JSON document with a
/// `per_length` list of the single-length documents.
fn per_length(a: &Args, job: &SearchJob) -> Result<()> {
    if a.shard.is_some() || a.plot.is_some() {
        bail!("--rank per-length does not combine with --shard or --plot; use --rank worst");
    }
    let bar = Bar::when(true);
    let doc = job.per_length(&crate::args::context(None)?.with_progress(&bar))?;
    a.print.emit(&doc.render(a.print.format())?)
}
