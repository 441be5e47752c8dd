//! The one door to the crate's internals, for its sibling crates
//! (`aliasing-sim`, `aliasing-cli`, `aliasing-plot`, the Python module) and
//! its benches: kernels, tuning limits, shard-file plumbing and the CLI's text
//! helpers. **Not part of the stable API**: anything here may change or go
//! without notice, in any release. Library users call the documented modules.
//!
//! The modules mirror the crate's (`__private::joint::JointModel` is the
//! joint computation's `JointModel`).

/// Thread pools.
pub mod ctx {
    pub use crate::ctx::{MAX_THREADS, pool};
}

/// Serde adapters and the text helpers of the CLI.
pub mod document {
    pub use crate::document::Tagged;
    pub use crate::document::count::wide;
    /// The CLI's table, CSV and number formats.
    pub mod text {
        pub use crate::document::text::{csv, duration, prob, table};
    }
}

/// The dual pass by shards and its cycle walkers.
pub mod dual {
    pub use crate::dual::cycles::{CycleMethod, cycle_method};
    pub use crate::dual::pass::{DualPass, dual_weights_with};
}

/// Atomic file writes (the CLI, the simulator, the plots).
pub mod atomic {
    pub use crate::atomic::{check_writable, resolved, temp_path, write, write_with};
}

/// Kernels of the Internet checksum's exact method.
pub mod internet {
    pub use crate::internet::field::p_undetected_mixed;
    pub use crate::internet::{column_counts, fourier_random, p_undetected_coins};
}

/// The CLI's long-run guard, and the search's candidates and report (for
/// its shard files, in the simulator).
pub mod job {
    pub use crate::job::cost::{LongRun, before_run};
    pub use crate::job::search::{SpaceId, parse_candidates, report};
}

/// The joint computation's model and sampling plan (the simulator's).
pub mod joint {
    pub use crate::joint::model::{JointModel, RoleCache};
    pub use crate::joint::plan::{FrameTally, JointPlan, SampleTally, TermTally};
    pub use crate::joint::single::internet_p_undetected;
    pub use crate::joint::uniform::{escape_at_half, uniform_pass_probability};
    pub use crate::joint::{PASS_SCALE, Term};
}

/// Low-weight searches watched by a progress, and their limits.
pub mod lowweight {
    pub use crate::lowweight::hd::{DEFAULT_BUDGET, hd_profile_with};
    pub use crate::lowweight::shapes::{
        SHAPE_PAIR_LIMIT, SHAPE5_PAIR_LIMIT, ShapeParts, shapes_with,
    };
    pub use crate::lowweight::span::span_counts;
}

/// The Markov chain's kernels.
pub mod markov {
    pub use crate::markov::{butterfly, cpu, inplace, walk};
    /// The Gilbert-Elliott chain's kernel.
    pub mod gilbert {
        pub use crate::markov::gilbert::{escape_of_translations, fused};
    }
}

/// The fixed-point tail sum of the joint computation.
pub mod highprec {
    pub use crate::highprec::p_undetected_above;
}

/// The command line's value syntax: counts, length and BER lists, sizes.
pub use crate::parse;

/// Bit reflection.
pub mod poly {
    pub use crate::poly::reflect;
}

/// A placed check's exact `P_ud` (the simulator's), and the table of
/// the exact methods' domains (`alias methods`, the guide).
pub mod registry {
    pub use crate::registry::domain::domain_table;
    pub use crate::registry::{choose_or_bracket, placed_p_undetected};
}

/// The search's report helpers.
pub mod search {
    pub use crate::search::{StageStats, hd_histogram, p_undetected, reciprocal_of};
    /// The minimum distance at every length (the search's first stage).
    pub mod distance {
        pub use crate::search::distance::min_distances;
    }
}

/// The shard-file checksum and the serde adapter of a shard as a pair.
pub mod shard {
    pub use crate::shard::{as_pair, fnv1a64};
}

/// The weight distribution's pieces.
pub mod weights {
    pub use crate::weights::{binomial, estimated_seconds, from_dual, macwilliams, uses_dual};
}

/// The recording watcher of the tests (every stage and advance).
pub mod progress {
    pub use crate::progress::{Record, Stage};
}
