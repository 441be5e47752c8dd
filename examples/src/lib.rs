//! Worked examples for protocol designers (the `examples/` programs) and the
//! library tour (`docs/library-tour.md`), doc-tested here.

pub mod corruption_table;
pub mod study;

#[doc = include_str!("../../docs/library-tour.md")]
#[doc(hidden)]
pub mod library_tour {}
