//! The one door to the crate's internals, for its own integration tests
//! (`tests/sim/`, where the unit tests of each module live, so that the
//! library compiles once in the test build): tallies, kernels and oracles
//! that the tests compare with the public results. **Not part of the
//! stable API**: anything here may change or go without notice, in any
//! release. Library users call the documented modules.
//!
//! The modules mirror the crate's (`__private::run::Pairs` is the Monte
//! Carlo driver's `Pairs`).

/// Order-free exact sums: the split of a double and the addition of a word.
pub mod exact_sum {
    pub use crate::exact_sum::split;
}

/// The binomial tails behind the Clopper-Pearson intervals.
pub mod interval {
    pub use crate::interval::ln_binom_pmf;
}

/// The Monte Carlo driver's two tallies of a chunk.
pub mod run {
    pub use crate::run::{FrameTally, Pairs, PerCheck};
}

/// Uniform draws from a chunk's stream, and its mixer.
pub mod stream {
    pub use crate::stream::{below, mix64, unit_f64};
}

/// A CRC's syndrome table over a frame (the sparse engine's).
pub mod sparse {
    pub use crate::sparse::crc_bit_table;
}

/// The burst channel's rare-event sampler: its stream family, the checks
/// a pattern must pass, and the short bursts' finders.
pub mod burst_rare {
    pub use crate::burst_rare::{Checks, FAMILY, Finder, ShortBursts};
}

/// The kernels of the corruption models and the tests' oracles for them.
pub mod corruption {
    #[cfg(target_arch = "x86_64")]
    pub use crate::corruption::bits::bits_fast_avx2;
    pub use crate::corruption::bits::{
        Chain, bits_fast, bits_fast_portable, bits_fast_with, bits_key, bits_key_body, carry_chain,
    };
    pub use crate::corruption::given::{cell_sums, cell_sums_body, word_count, word_count_body};
    pub use crate::corruption::uniform::{ratio, splice_uniform_region};
}

/// The search's reader of its first file format.
pub mod search {
    /// Version-1 search shard files.
    pub mod legacy {
        pub use crate::search::legacy::is_v1;
    }
}
