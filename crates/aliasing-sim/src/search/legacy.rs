//! Search shard files of the first format (version 1, written before
//! search shards went through [`crate::session::Session`]):
//! `{"checksum": "<fnv1a64 hex>", "body": {"format": "alias-search",
//! "version": 1, "query", "space", "shard", "partial"}}`, compact JSON. Read
//! and verified as they were, then taken as files of the current format.

use super::{FORMAT, SearchFile, SearchParams, SearchTally};
use crate::shard::{Checkpoint, fnv1a64};
use aliasing_core::__private::job::SpaceId;
use aliasing_core::search::{Partial, Query};
use aliasing_core::shard::Shard;
use aliasing_core::{Error, Result};
use serde::{Deserialize, Serialize};

/// The body of a version-1 file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Body {
    format: String,
    version: u32,
    query: Query,
    space: SpaceId,
    shard: Shard,
    partial: Partial,
}

/// A version-1 file.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct File {
    checksum: String,
    body: Body,
}

fn checksum(body: &Body) -> Result<String> {
    let text = serde_json::to_string(body).map_err(|e| Error::Invalid(e.to_string()))?;
    Ok(format!("{:016x}", fnv1a64(text.as_bytes())))
}

/// Whether `text` says it is a version-1 search shard file (its body's
/// `format` and `version`); what it is otherwise is left to the reader of
/// the current format.
#[doc(hidden)]
pub fn is_v1(text: &str) -> bool {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    let body = v.get("body");
    let field = |k: &str| body.and_then(|b| b.get(k)).cloned();
    field("format").as_ref().and_then(|f| f.as_str()) == Some(FORMAT)
        && field("version").as_ref().and_then(|f| f.as_u64()) == Some(1)
}

/// Parses and verifies the text of a version-1 file (`name` names it in
/// messages), as the current format's file of the same shard. Refused:
/// a checksum that does not match, any text other than the one written
/// (an edit the checksum cannot see, such as a hex digit's case).
pub(super) fn from_text(text: &str, name: &str) -> Result<SearchFile> {
    let f: File = serde_json::from_str(text).map_err(|e| {
        Error::Invalid(format!(
            "{name} is not an `alias search` shard file: {}",
            e.to_string().replace('\n', " ")
        ))
    })?;
    if f.body.format != FORMAT || f.body.version != 1 {
        return Err(Error::Invalid(format!(
            "{name} is not an `alias search` shard file (version 1)"
        )));
    }
    if checksum(&f.body)? != f.checksum {
        return Err(Error::Invalid(format!(
            "{name} is corrupt: its checksum does not match"
        )));
    }
    let again = serde_json::to_string(&f).map_err(|e| Error::Invalid(e.to_string()))?;
    if again != text {
        return Err(Error::Invalid(format!(
            "{name} is corrupt: edited (not the text alias search writes)"
        )));
    }
    f.body
        .shard
        .checked()
        .map_err(|e| Error::Invalid(format!("{name}: {e}")))?;
    let b = f.body;
    let progress = Checkpoint {
        chunks_done: b.partial.examined,
        counts: SearchTally::new(&b.query, b.partial),
    };
    let params = SearchParams {
        query: b.query,
        space: b.space,
    };
    Ok(SearchFile::new(FORMAT, params, b.shard, true, progress))
}
