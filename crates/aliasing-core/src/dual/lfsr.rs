//! The dual code's generator: the LFSR in Galois form, with byte tables
//! for 64 output bits and the 64-step jump at once.

use crate::error::{Error, Result};
use crate::gf2;
use crate::poly::Generator;

/// Widest generator this module accepts.
pub const MAX_WIDTH: u32 = 32;

/// Byte tables of a state of up to [`MAX_WIDTH`] bits.
const BYTES: usize = MAX_WIDTH as usize / 8;

/// The LFSR in Galois form with byte tables for 64 output bits and the
/// 64-step jump at once: one table per byte of the state, four whatever
/// the width (those above the width map their only index met, 0, to 0), so
/// that [`Lfsr::block`] and [`Lfsr::jump64`] are four loads without a loop.
#[derive(Debug, Clone)]
pub(crate) struct Lfsr {
    pub(super) width: u32,
    normal: u64,
    out: Box<[[u64; 256]; BYTES]>,
    jump: Box<[[u64; 256]; BYTES]>,
}

impl Lfsr {
    /// Builds the tables for `g` (width at most 32).
    pub fn new(g: &Generator) -> Result<Self> {
        let width = g.width();
        if width > MAX_WIDTH {
            return Err(Error::Refused(crate::registry::refusal::Refusal::Width {
                entry: crate::registry::refusal::Entry::Dual,
                width,
                min: 1,
                max: MAX_WIDTH,
            }));
        }
        let nbytes = width.div_ceil(8) as usize;
        let mut l = Lfsr {
            width,
            normal: g.normal(),
            out: Box::new([[0; 256]; BYTES]),
            jump: Box::new([[0; 256]; BYTES]),
        };
        let mask = g.mask();
        for k in 0..nbytes {
            for b in 0..256u64 {
                let a = (b << (8 * k)) & mask;
                let (blk, next) = l.serial_block(a);
                l.out[k][b as usize] = blk;
                l.jump[k][b as usize] = next;
            }
        }
        Ok(l)
    }

    /// One step: `x a mod g`.
    #[inline]
    pub fn step(&self, a: u64) -> u64 {
        let top = (a >> (self.width - 1)) & 1;
        ((a << 1) & mask_of(self.width)) ^ (self.normal & top.wrapping_neg())
    }

    pub(super) fn serial_block(&self, mut a: u64) -> (u64, u64) {
        let mut blk = 0u64;
        for i in 0..64 {
            blk |= ((a >> (self.width - 1)) & 1) << i;
            a = self.step(a);
        }
        (blk, a)
    }

    /// The next 64 output bits from state `a`, bit `i` = output at step `i`.
    #[inline]
    pub fn block(&self, a: u64) -> u64 {
        bytes_of(&self.out, a)
    }

    /// The state 64 steps after `a`: `a x^64 mod g`.
    #[inline]
    pub fn jump64(&self, a: u64) -> u64 {
        bytes_of(&self.jump, a)
    }

    fn generator(&self) -> Generator {
        Generator::new(self.width, self.normal).expect("valid")
    }

    /// The state `k` steps after `a`: `a x^k mod g` (jump-ahead).
    pub fn advance(&self, a: u64, k: u128) -> u64 {
        let g = self.generator();
        gf2::mul_residues(a, gf2::x_pow_mod(k, &g), &g)
    }
}

/// The XOR of the tables' entries at the bytes of the state `a` (below
/// `2^32`).
#[inline]
fn bytes_of(t: &[[u64; 256]; BYTES], a: u64) -> u64 {
    t[0][(a & 0xff) as usize]
        ^ t[1][(a >> 8 & 0xff) as usize]
        ^ t[2][(a >> 16 & 0xff) as usize]
        ^ t[3][(a >> 24 & 0xff) as usize]
}

fn mask_of(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
