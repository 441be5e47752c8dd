//! The commands of `alias` as library jobs: each a request validated once,
//! when it is built (its fields cannot then be wrong), whose
//! [`Job::run`](crate::ctx::Job::run) in a [`Ctx`](crate::ctx::Ctx) returns
//! the command's result document. The command-line tool parses its
//! arguments into one of these, runs it and renders the document; a
//! library user building the same job gets the same numbers.
//!
//! | job | document | command |
//! |-----|----------|---------|
//! | [`CurveJob`] | [`Curve`](crate::document::Curve) | `alias curve` (CRCs to 32 bits, checksums) |
//! | [`CompareJob`] | [`Compare`](crate::document::Compare) | `alias compare` |
//! | [`HdJob`] | [`Hd`](crate::document::Hd) | `alias hd` |
//! | [`SearchJob`] | [`Search`](crate::document::Search) | `alias search` (its shard files and merge: `aliasing_sim::search`) |
//!
//! ```
//! use aliasing_core::ctx::{Ctx, Job};
//! use aliasing_core::job::HdJob;
//! let crc = aliasing_core::catalogue::resolve("crc16").unwrap();
//! let doc = HdJob::new(crc).max_hd(4).unwrap().run(&Ctx::default()).unwrap();
//! assert_eq!(doc.profile[0], 32751); // HD 3 up to 32751 data bits
//! ```

mod compare;
pub(crate) mod cost;
mod curve;
mod hd;
pub(crate) mod search;

pub use compare::CompareJob;
pub use curve::{CurveBuilder, CurveJob, GivenBytes};
pub use hd::HdJob;
pub use search::{SearchJob, SearchOutcome};
