//! `alias search` split into shards, through [`Session`]: one shard of a
//! [`SearchJob`] runs as a [`SearchRun`], whose result file
//! ([`SearchFile`], kind [`FORMAT`]) records the query, the candidates and
//! the shard's [`Partial`] result; [`merge`] adds the files of every shard
//! into the report of the unsharded search. Files of the first format
//! (version 1) still load, and merge with files of the current one.
//!
//! ```
//! use aliasing_core::ctx::{Ctx, Job};
//! use aliasing_core::job::SearchJob;
//! use aliasing_core::search::{Objective, Query};
//! use aliasing_core::shard::Shard;
//! use aliasing_sim::search::{SearchRun, merge};
//! let q = Query::new(8, vec![64], vec![1e-5], 0, 3, Objective::Hd).unwrap();
//! let ctx = Ctx::default();
//! let whole = SearchJob::all(q.clone(), None).unwrap().run(&ctx).unwrap();
//! let files: Vec<_> = (1..=3)
//!     .map(|i| {
//!         let job = SearchJob::all(q.clone(), Some(Shard::new(i, 3).unwrap())).unwrap();
//!         let done = SearchRun::new(job).unwrap().run(&ctx).unwrap();
//!         (format!("shard {i}"), done.file.unwrap())
//!     })
//!     .collect();
//! let (_, merged) = merge(&files, &ctx).unwrap();
//! assert_eq!(merged.results, whole.document.unwrap().results);
//! ```

use crate::session::{RunKind, Session};
use crate::shard::{Checkpoint, ShardFile, Tally};
use aliasing_core::__private::job::{SpaceId, report};
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::document::Search;
use aliasing_core::job::SearchJob;
use aliasing_core::search::{Objective, Partial, Query};
use aliasing_core::shard::Shard;
use aliasing_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub(crate) mod legacy;

/// The kind of a search's shard files.
pub const FORMAT: &str = "alias-search";

/// What a search's result depends on: the query and which candidates it
/// covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    /// The query.
    pub query: Query,
    /// The candidates (enough to tell shards of one search apart).
    #[doc(hidden)]
    pub space: SpaceId,
}

/// A search shard's result as a [`Tally`]: the shard's [`Partial`], with
/// what adding two of them takes from the query (the ranking and how many
/// results are kept). Adding is [`Partial::merge_ranked`]: the same top
/// results in any order of adding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchTally {
    objective: Objective,
    top: usize,
    partial: Partial,
}

impl SearchTally {
    /// The tally of `partial`, a result of `query`.
    pub fn new(query: &Query, partial: Partial) -> SearchTally {
        SearchTally {
            objective: query.objective,
            top: query.top,
            partial,
        }
    }

    /// The result.
    pub fn partial(&self) -> &Partial {
        &self.partial
    }
}

impl Tally for SearchTally {
    fn empty_like(&self) -> Self {
        SearchTally {
            partial: Partial::merge_ranked(self.objective, self.top, Vec::new()),
            ..self.clone()
        }
    }

    fn add(&mut self, other: &Self) {
        let empty = Partial::merge_ranked(self.objective, self.top, Vec::new());
        let mine = std::mem::replace(&mut self.partial, empty);
        self.partial =
            Partial::merge_ranked(self.objective, self.top, vec![mine, other.partial.clone()]);
    }

    /// Of the same ranking and length of list.
    fn fits(&self, other: &Self) -> bool {
        (self.objective, self.top) == (other.objective, other.top)
    }
}

impl RunKind for SearchParams {
    type Tally = SearchTally;
    /// Nothing beyond the parameters (the candidates are the job's:
    /// [`SearchRun`]); the query is validated.
    type Plan = ();
    const FORMAT: &'static str = FORMAT;
    fn plan(&self) -> Result<()> {
        self.query.validate()
    }
}

/// A search's shard file.
pub type SearchFile = ShardFile<SearchParams, SearchTally>;

/// One shard of a [`SearchJob`] (its own shard, [`SearchJob::shard`]) as
/// a [`Session`]: its run gives the report of the shard and its result
/// file. With the context's team (MPI), the members split the shard's
/// candidates and member 0 alone gets the file and the report
/// ([`SearchJob::partial`]).
pub struct SearchRun {
    job: SearchJob,
    session: Session<SearchParams>,
}

/// What a [`SearchRun`] gives at a team's member 0 (or alone); other
/// members get nothing.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct SearchRunOutcome {
    /// The shard's result file (`None` on members other than 0).
    pub file: Option<SearchFile>,
    /// The shard's report (`None` on members other than 0).
    pub document: Option<Search>,
}

impl SearchRun {
    /// The session of `job`'s shard.
    pub fn new(job: SearchJob) -> Result<SearchRun> {
        let params = SearchParams {
            query: job.query().clone(),
            space: job.space_id().clone(),
        };
        let session = Session::planned(params, (), job.shard())?;
        Ok(SearchRun { job, session })
    }

    /// The job.
    pub fn job(&self) -> &SearchJob {
        &self.job
    }
}

impl Job for SearchRun {
    type Output = SearchRunOutcome;

    /// The job's run ([`Job::run`] of [`SearchJob`]), and the shard's file.
    fn run(&self, ctx: &Ctx) -> Result<SearchRunOutcome> {
        let done = self.job.run(ctx)?;
        let (Some(part), Some(document)) = (done.partial, done.document) else {
            return Ok(SearchRunOutcome {
                file: None,
                document: None,
            });
        };
        let s = &self.session;
        let file = finished(s.params.clone(), s.shard, part);
        Ok(SearchRunOutcome {
            file: Some(file),
            document: Some(document),
        })
    }
}

/// The finished file of shard `shard` of the search `params`, of result
/// `part` (items done: the candidates it examined).
fn finished(params: SearchParams, shard: Shard, part: Partial) -> SearchFile {
    let progress = Checkpoint {
        chunks_done: part.examined,
        counts: SearchTally::new(&params.query, part),
    };
    SearchFile::new(FORMAT, params, shard, true, progress)
}

/// Parses and verifies the text of a search shard file, of the current
/// format or the first (version 1); `name` names it in messages. Any text
/// other than the one written is refused.
pub fn from_text(text: &str, name: &str) -> Result<SearchFile> {
    if legacy::is_v1(text) {
        legacy::from_text(text, name)
    } else {
        SearchFile::from_text(text, FORMAT, name)
    }
}

/// Reads and verifies the search shard file at `path` ([`from_text`]; a
/// bounded read: [`crate::shard::read_text`]).
pub fn read(path: &Path) -> Result<SearchFile> {
    let text = crate::shard::read_text(path)?;
    from_text(&text, &path.display().to_string())
}

/// Adds the shard files of one search (each shard once, same query and
/// candidates, named for messages): the whole search's file and its
/// report, the single run's results (the catalogue's CRCs evaluated in
/// `ctx`, on its progress).
pub fn merge(files: &[(String, SearchFile)], ctx: &Ctx) -> Result<(SearchFile, Search)> {
    let (params, tally) = crate::shard::merge(files)?;
    let q = &params.query;
    if let Some((name, _)) = files.iter().find(|(_, f)| {
        let c = &f.progress.counts;
        (c.objective, c.top) != (q.objective, q.top)
    }) {
        return Err(Error::Invalid(format!(
            "{name} does not fit its own parameters"
        )));
    }
    let s = Session::<SearchParams>::new(params, Shard::WHOLE)?;
    let (query, space) = (&s.params.query, &s.params.space);
    let doc = report(query, space, Shard::WHOLE, &tally.partial, ctx)?;
    Ok((finished(s.params.clone(), Shard::WHOLE, tally.partial), doc))
}

/// Reads the shard files of one search at `paths` and adds them ([`merge`]).
pub fn merge_paths(paths: &[PathBuf], ctx: &Ctx) -> Result<(SearchFile, Search)> {
    let mut files = Vec::new();
    for p in paths {
        files.push((p.display().to_string(), read(p)?));
    }
    merge(&files, ctx)
}
