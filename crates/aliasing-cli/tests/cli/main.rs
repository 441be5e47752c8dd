//! End-to-end tests of the `alias` binary, one test binary (as ripgrep
//! keeps them) with a module per command or concern and one shared helper
//! module, [`util`]. Run one module with a filter, e.g.
//! `cargo test -p aliasing-cli --test cli curve::`.

mod util;

mod checksums;
mod compare;
mod curve;
mod embed;
mod exact_domains;
mod golden;
mod hd_weights;
mod jobs;
mod plot;
mod progress;
mod prop;
mod readme;
mod refusals;
mod robust;
mod search;
mod sim_jobs;
mod simulate;
mod stack;
mod transfer;
mod weights_shards;
