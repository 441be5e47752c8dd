//! Result documents: every result the `alias` commands print as JSON, as a
//! typed serde struct, inside one envelope that tags it with its kind and a
//! schema version.
//!
//! A document on the wire is a JSON object with `"kind"` (e.g. `"curve"`),
//! `"schema"` (the version, [`SCHEMA`]) and the fields of its type. The CLI
//! builds its JSON only by serializing these types with their tags, and
//! the plot crate reads them back with [`from_value`], choosing the type by
//! the `kind` tag.
//!
//! Documents saved before the envelope existed carry no `kind` or `schema`:
//! [`from_value`] reads them as schema 1 (the curve's check may then sit
//! under its old key `"crc"`), so old files still parse and plot.
//!
//! The kinds, each with its own module:
//!
//! | kind | type | command |
//! |------|------|---------|
//! | `curve` | [`Curve`] | `alias curve` (CRCs and checksums) |
//! | `bracket` | [`BracketDoc`] | `alias curve` for CRCs over 32 bits |
//! | `compare` | [`Compare`] | `alias compare` |
//! | `hd` | [`Hd`] | `alias hd` |
//! | `weights` | [`Weights`] | `alias weights` |
//! | `stack` | [`Stack`] | `alias stack` |
//! | `search` | [`Search`] | `alias search` |
//! | `transfer` | [`Transfer`] | `alias transfer` |
//!
//! Simulation reports (`simulate`, `simulate-rare`) are defined in
//! `aliasing-sim`, which implements [`Document`] for them.
//!
//! ```
//! use aliasing_core::document::{self, CheckInfo, Curve, Tagged};
//! let doc = Curve::new(CheckInfo::named("Internet", 16), "exact, random data", vec![], None);
//! let v = serde_json::to_value(Tagged::new(&doc)).unwrap();
//! assert_eq!(v["kind"], "curve");
//! assert_eq!(v["schema"], document::SCHEMA);
//! let back: Curve = document::from_value(v).unwrap();
//! assert_eq!(back, doc);
//! ```

mod compare;
pub(crate) mod count;
mod curve;
mod hd;
mod search;
mod stack;
pub mod text;
pub(crate) mod transfer;
mod weights;

pub use compare::Compare;
pub(crate) use count::wide;
pub use curve::{BracketDoc, Curve};
pub use hd::Hd;
pub use search::Search;
pub use stack::Stack;
pub use transfer::Transfer;
pub use weights::Weights;

// The rows of the documents (their points, checks, terms, ...): serde structs
// named by the documents' fields and constructors, reachable here by those
// names, hidden from the documentation (their fields are the JSON's, shown in
// the guide's examples); not part of the stable API.
#[doc(hidden)]
pub use compare::{CompareCheck, ComparePoint};
#[doc(hidden)]
pub use count::Count;
#[doc(hidden)]
pub use curve::{BracketPoint, ChannelInfo, CheckInfo};
#[doc(hidden)]
pub use hd::HdExample;
#[doc(hidden)]
pub use search::{
    HdAt, PudAt, SearchCatalogueEntry, SearchPerLength, SearchResult, SearchStage, SearchStages,
};
#[doc(hidden)]
pub use stack::{JointEstimate, StackCheck, StackPoint, StackTerm};
#[doc(hidden)]
pub use transfer::{Bracketed, CorruptionPoint, TransferPoint};
#[doc(hidden)]
pub use weights::{DualWeightCount, WeightCount};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The schema version written by this library. A reader accepts every
/// version up to this one; documents without a `schema` key are version 1.
pub const SCHEMA: u32 = 1;

/// A result document type: its fields, and the `kind` tag it travels under.
pub trait Document: Serialize + DeserializeOwned {
    /// The value of the `"kind"` key, e.g. `"curve"`.
    const KIND: &'static str;
}

/// The envelope of a document on the wire: `kind` and `schema` beside the
/// document's own fields (serialize it; build it with [`Tagged::new`]).
///
/// Serialized directly (`serde_json::to_string_pretty`), `kind` and `schema`
/// come first and the fields follow in their declared order; through
/// `serde_json::to_value` the keys are in alphabetical order.
#[derive(Debug, Serialize)]
#[doc(hidden)] // internal: reached through `crate::__private`
pub struct Tagged<'a, D> {
    /// The document's kind, [`Document::KIND`].
    pub kind: &'static str,
    /// The schema version, [`SCHEMA`].
    pub schema: u32,
    /// The document.
    #[serde(flatten)]
    pub body: &'a D,
}

impl<'a, D: Document> Tagged<'a, D> {
    /// Wraps `body` with its kind and the current schema version.
    pub fn new(body: &'a D) -> Self {
        Tagged {
            kind: D::KIND,
            schema: SCHEMA,
            body,
        }
    }
}

/// Why a JSON value is not a document of the asked kind.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DocumentError {
    /// The `kind` tag names another kind of document.
    #[error("expected a `{expected}` document, found kind `{found}`")]
    WrongKind {
        /// The kind asked for.
        expected: &'static str,
        /// The kind found.
        found: String,
    },
    /// The `kind` or `schema` key has the wrong JSON type.
    #[error("the `{0}` key of a result document must be a {1}")]
    BadTag(&'static str, &'static str),
    /// Written by a newer version of this library.
    #[error("schema version {found} is newer than this reader's ({SCHEMA})")]
    NewerSchema {
        /// The version found.
        found: u64,
    },
    /// The fields do not match the kind's type.
    #[error("malformed `{kind}` document: {error}")]
    Malformed {
        /// The kind being read.
        kind: &'static str,
        /// The parser's message.
        error: serde_json::Error,
    },
}

/// The `kind` tag of a JSON document, if it has one (legacy documents do not).
///
/// Fails if `kind` is present but not a string.
pub fn kind_of(v: &Value) -> Result<Option<&str>, DocumentError> {
    match v.get("kind") {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(DocumentError::BadTag("kind", "string")),
    }
}

/// The schema version of a JSON document (1 when absent).
pub(crate) fn schema_of(v: &Value) -> Result<u64, DocumentError> {
    match v.get("schema") {
        None => Ok(1),
        Some(s) => s
            .as_u64()
            .ok_or(DocumentError::BadTag("schema", "non-negative integer")),
    }
}

/// Reads a document of type `D` from JSON: its `kind`, if present, must be
/// `D::KIND`, and its `schema` at most [`SCHEMA`]; a legacy document with
/// neither key is read as schema 1.
pub fn from_value<D: Document>(mut v: Value) -> Result<D, DocumentError> {
    if let Some(k) = kind_of(&v)?
        && k != D::KIND
    {
        return Err(DocumentError::WrongKind {
            expected: D::KIND,
            found: k.to_string(),
        });
    }
    let schema = schema_of(&v)?;
    if schema > u64::from(SCHEMA) {
        return Err(DocumentError::NewerSchema { found: schema });
    }
    if let Value::Object(o) = &mut v {
        o.remove("kind");
        o.remove("schema");
    }
    D::deserialize(v).map_err(|error| DocumentError::Malformed {
        kind: D::KIND,
        error,
    })
}

/// Pretty JSON of a document with its keys in alphabetical order (the order
/// of every command's JSON output except `simulate`'s), ending in a newline.
pub fn to_json_sorted<D: Document>(doc: &D) -> serde_json::Result<String> {
    let v = serde_json::to_value(Tagged::new(doc))?;
    Ok(serde_json::to_string_pretty(&v)? + "\n")
}

/// Pretty JSON of a document with `kind` and `schema` first and its fields in
/// declared order, ending in a newline.
pub fn to_json<D: Document>(doc: &D) -> serde_json::Result<String> {
    Ok(serde_json::to_string_pretty(&Tagged::new(doc))? + "\n")
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
