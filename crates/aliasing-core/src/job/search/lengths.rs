//! `--rank per-length`: one search per length, each ranked as if that
//! length were the only one.

use super::SearchJob;
use crate::ctx::{Ctx, Job};
use crate::document::SearchPerLength;
use crate::error::{Error, Result};

impl SearchJob {
    /// One search per length of the query ([`SearchJob::at_length`]), each
    /// ranked as if that length were the only one, in the query's order;
    /// in one process (not split into shards or over a team).
    pub fn per_length(&self, ctx: &Ctx) -> Result<SearchPerLength> {
        let mut docs = Vec::new();
        for &n in &self.query().lengths {
            let done = self.at_length(n)?.run(ctx)?;
            docs.push(done.document.ok_or_else(|| {
                Error::Invalid("a per-length search runs in one process, not a team".into())
            })?);
        }
        Ok(SearchPerLength::new(self.query(), docs))
    }
}
