//! The vector path: AVX-512 (8 lanes) or AVX2 (4 lanes) with FMA where the
//! [`Isa`] has them, else the scalar group (same arithmetic, same bits).

use super::block::{Block, Shared};
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::markov::cpu::Isa;

/// Cosets per lane group for `isa`: 8 with AVX-512, else 4.
pub fn lanes(isa: Isa) -> usize {
    if isa.avx512().is_some() { 8 } else { 4 }
}

/// One block's groups on the path chosen for the [`Isa`].
pub struct Kernel {
    q: f64,
    p: f64,
    /// The hardware FMA of the scalar path.
    fma: Option<crate::markov::cpu::Fma>,
    #[cfg(target_arch = "x86_64")]
    plan: Option<x86::Plan>,
}

impl Kernel {
    /// The kernel of `block` on `isa`.
    pub fn new(block: &Block, q: f64, p: f64, isa: Isa) -> Kernel {
        Kernel {
            q,
            p,
            fma: isa.fma(),
            #[cfg(target_arch = "x86_64")]
            plan: x86::Plan::new(block, isa),
        }
    }

    /// Steps the coset groups `range`: the cosets `y ^ j ^ V`,
    /// `j < lanes`, for `y` = [`Block::rep`] of each index in `range`.
    ///
    /// # Safety
    /// [`Shared`]'s contract for every position of these groups; `v`
    /// holds `2^r` values for `block`.
    pub unsafe fn groups(&self, block: &Block, v: Shared, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        let y0 = block.rep(range.start);
        #[cfg(target_arch = "x86_64")]
        if let Some(plan) = &self.plan {
            // SAFETY: `plan` was built for `block`, whose positions all
            // lie in `v`, owned by this call (the caller's contract);
            // the plan holds the token of its instructions.
            unsafe { plan.groups(v.base(), y0, range.len(), block.clear_mask, self.q, self.p) };
            return;
        }
        // SAFETY: the caller's contract.
        unsafe {
            block.scalar_groups(self.fma, v, y0, range.len(), self.q, self.p, None);
        }
    }
}
