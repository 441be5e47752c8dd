//! The committed `docs/study` against what the examples' library computes:
//! the study's figures and numbers (`figures`) and the corruption table of
//! `docs/study/corruption.md` (`corruption_table`). One test binary (the
//! library has no unit tests, so the test command compiles it once).

mod corruption_table;
mod figures;
