//! The CPU's vector instructions, detected once: the one place the kernels
//! learn what they may run.
//!
//! An [`Isa`] lists the instruction sets the hand-vectorised kernels use
//! (FMA, AVX2, AVX-512F, AVX-512VL). Its fields are private, so a value that
//! claims a feature comes only from [`Isa::detect`], which asks the CPU once
//! per process (and honours `super::NO_SIMD_ENV`); [`Isa::scalar`], the
//! portable paths, is always available. From an `Isa` the kernels take
//! zero-sized *tokens* (`Fma`, `Avx2`, `Avx2Fma`, `Avx512`,
//! `Avx512Vl`) that only this module can make: holding one proves its
//! features are present, as `crc32fast`'s `State` does, so the
//! `#[target_feature]` functions of [`super::walk`], [`super::butterfly`]
//! and [`super::gilbert`] are reached only through a token, and each kernel
//! decides its path once per pass, not per block.
//!
//! Every path computes the same products and fused sums in the same order,
//! so the results are the same bits whichever `Isa` runs (tested against
//! [`Isa::scalar`]).
//!
//! ```
//! use aliasing_core::markov::cpu::Isa;
//! let cpu = Isa::detect();
//! assert_eq!(cpu, Isa::detect()); // detected once, the same every time
//! assert!(Isa::scalar().is_scalar());
//! ```

use std::sync::OnceLock;

/// The vector instructions the kernels may use on this CPU.
///
/// Made by [`Isa::detect`] (what the CPU has) or [`Isa::scalar`] (nothing:
/// the portable paths, the same bits, several times slower).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Isa {
    fma: bool,
    avx2: bool,
    avx512f: bool,
    avx512vl: bool,
}

impl Isa {
    /// The instruction sets of this CPU, asked once per process; all off
    /// when [`super::NO_SIMD_ENV`] is set (any value but `0`) or the CPU is
    /// not x86-64.
    pub fn detect() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let allowed = std::env::var(super::NO_SIMD_ENV).map_or(true, |v| v == "0");
            if allowed {
                Isa::of_this_cpu()
            } else {
                Isa::scalar()
            }
        })
    }

    #[cfg(target_arch = "x86_64")]
    fn of_this_cpu() -> Isa {
        Isa {
            fma: is_x86_feature_detected!("fma"),
            avx2: is_x86_feature_detected!("avx2"),
            avx512f: is_x86_feature_detected!("avx512f"),
            avx512vl: is_x86_feature_detected!("avx512vl"),
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn of_this_cpu() -> Isa {
        Isa::scalar()
    }

    /// No vector instructions: every kernel takes its portable path.
    pub const fn scalar() -> Isa {
        Isa {
            fma: false,
            avx2: false,
            avx512f: false,
            avx512vl: false,
        }
    }

    /// `true` when no kernel runs vector instructions (and the scalar
    /// fused multiply-adds are the library's).
    pub fn is_scalar(self) -> bool {
        self == Isa::scalar()
    }

    /// `true` when [`super::walk`] runs its vector path (AVX2 and FMA).
    pub fn vectorises_walk(self) -> bool {
        self.avx2_fma().is_some()
    }

    /// This `Isa` and its restrictions, widest first: without AVX-512VL,
    /// without AVX-512, FMA alone, nothing (features are only taken away,
    /// never added, so each still tells the truth). For tests that run
    /// every path on one machine.
    #[cfg(feature = "unit-tests")]
    pub(crate) fn restrictions(self) -> Vec<Isa> {
        let mut out = vec![
            self,
            Isa {
                avx512vl: false,
                ..self
            },
            Isa {
                avx512f: false,
                avx512vl: false,
                ..self
            },
            Isa {
                fma: self.fma,
                ..Isa::scalar()
            },
            Isa::scalar(),
        ];
        out.dedup();
        out
    }

    /// `true` when kernels may use AVX2 (for other crates' kernels, which
    /// check features through this one detection instead of their own).
    #[doc(hidden)]
    pub fn has_avx2(self) -> bool {
        self.avx2
    }

    /// `true` when kernels may use AVX-512F and AVX2 (as
    /// [`Isa::has_avx2`]).
    #[doc(hidden)]
    pub fn has_avx512f(self) -> bool {
        self.avx2 && self.avx512f
    }

    /// Hardware fused multiply-add for scalar code.
    pub(crate) fn fma(self) -> Option<Fma> {
        self.fma.then_some(Fma(()))
    }

    /// AVX2 (without FMA: the butterfly kernel's separate products).
    pub(crate) fn avx2(self) -> Option<Avx2> {
        self.avx2.then_some(Avx2(()))
    }

    /// AVX2 and FMA: 4-lane vectors with fused multiply-adds.
    pub(crate) fn avx2_fma(self) -> Option<Avx2Fma> {
        (self.avx2 && self.fma).then_some(Avx2Fma(()))
    }

    /// AVX2, FMA and AVX-512F: 8-lane vectors.
    pub(crate) fn avx512(self) -> Option<Avx512> {
        (self.avx2 && self.fma && self.avx512f).then_some(Avx512(()))
    }

    /// AVX2, FMA, AVX-512F and AVX-512VL: 4-lane instructions with 32
    /// vector registers.
    pub(crate) fn avx512vl(self) -> Option<Avx512Vl> {
        (self.avx2 && self.fma && self.avx512f && self.avx512vl).then_some(Avx512Vl(()))
    }
}

/// Proof that the CPU has FMA (made only by [`Isa::fma`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fma(());

/// Proof that the CPU has AVX2 (made only by [`Isa::avx2`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

/// Proof that the CPU has AVX2 and FMA (made only by [`Isa::avx2_fma`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Fma(());

/// Proof that the CPU has AVX2, FMA and AVX-512F (made only by
/// [`Isa::avx512`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(());

/// Proof that the CPU has AVX2, FMA, AVX-512F and AVX-512VL (made only by
/// [`Isa::avx512vl`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Vl(());

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn scalar_grants_no_token() {
        let s = Isa::scalar();
        assert!(s.fma().is_none() && s.avx2().is_none() && s.avx2_fma().is_none());
        assert!(s.avx512().is_none() && s.avx512vl().is_none());
        assert!(!s.vectorises_walk());
    }

    pub fn tokens_follow_the_features() {
        let d = Isa::detect();
        assert_eq!(d, Isa::detect());
        // A wider token implies the narrower ones.
        if d.avx512vl().is_some() {
            assert!(d.avx512().is_some());
        }
        if d.avx512().is_some() {
            assert!(d.avx2_fma().is_some());
        }
        if d.avx2_fma().is_some() {
            assert!(d.avx2().is_some() && d.fma().is_some());
        }
        #[cfg(target_arch = "x86_64")]
        if std::env::var(crate::markov::NO_SIMD_ENV).map_or(true, |v| v == "0") {
            assert_eq!(
                d.avx2_fma().is_some(),
                is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
            );
        }
    }
}
