//! # aliasing-sim
//!
//! Monte Carlo and rare-event estimation of undetected-error rates through
//! stacks of checks.
