//! What every kernel of the walk shares: a block of steps described once
//! ([`Block`]), the state vector shared by the threads of a block
//! ([`Shared`]), and the one butterfly ([`mix`]).

/// Steps fused per pass over the state vector.
pub const BLOCK: usize = 4;

/// The most lanes a vector holds (8 f64 in an AVX-512 register); a block's
/// lane count is 4 or 8 (`vector::lanes`).
pub(super) const MAX_LANES: usize = 8;

/// One butterfly `(a, b) -> (q a + p b, q b + p a)`, each sum one fused
/// multiply-add on `q a` (the vector path does the same).
#[inline(always)]
pub(super) fn mix(a: f64, b: f64, q: f64, p: f64) -> (f64, f64) {
    (p.mul_add(b, q * a), p.mul_add(a, q * b))
}

/// The coset representative after `y`: the next value with zeros at the
/// bits of `mask`.
#[inline(always)]
pub(super) fn next_rep(y: usize, mask: usize) -> usize {
    ((y | mask).wrapping_add(1)) & !mask
}

/// One block of steps, described once and shared by every coset.
pub(super) struct Block<'a> {
    /// `G_t` of each step of the block.
    pub(super) gens: &'a [u64],
    /// `elems[c]`: the XOR of `gens[i]` over the bits `i` of `c`.
    pub(super) elems: Vec<usize>,
    /// Cosets per lane group (the low `log2(lanes)` position bits).
    pub(super) lanes: usize,
    /// The bits a coset representative keeps clear: the lane bits and one
    /// pivot (leading bit of the reduced basis) per step.
    pub(super) clear_mask: usize,
}

impl<'a> Block<'a> {
    /// `None` when `span(gens)` meets the lane bits or `gens` are dependent
    /// (run step by step).
    pub(super) fn new(gens: &'a [u64], lanes: usize) -> Option<Block<'a>> {
        let mut basis: Vec<u64> = Vec::with_capacity(gens.len());
        for &x in gens {
            let mut y = x & !(lanes as u64 - 1);
            for &b in &basis {
                y = y.min(y ^ b);
            }
            if y == 0 {
                return None;
            }
            basis.push(y);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
        let elems = (0..1usize << gens.len())
            .map(|c| {
                gens.iter()
                    .enumerate()
                    .filter(|(i, _)| c >> i & 1 == 1)
                    .fold(0usize, |acc, (_, &g)| acc ^ g as usize)
            })
            .collect();
        let pivots = basis
            .iter()
            .fold(0, |m, b| m | 1usize << (63 - b.leading_zeros()));
        let clear_mask = (lanes - 1) | pivots;
        Some(Block {
            gens,
            lanes,
            elems,
            clear_mask,
        })
    }

    /// The representative of coset group `i`: `i` with zero bits inserted
    /// at the bits of `clear_mask`, lowest first.
    #[inline]
    pub(super) fn rep(&self, i: usize) -> usize {
        let (mut y, mut m) = (i, self.clear_mask);
        while m != 0 {
            let b = m.trailing_zeros();
            y = ((y >> b) << (b + 1)) | (y & ((1usize << b) - 1));
            m &= m - 1;
        }
        y
    }
}

/// The state vector of one block, shared by the threads that step its
/// coset groups: a raw pointer, so that no thread holds a `&mut [f64]` that
/// overlaps another's.
///
/// Contract of every access (each `unsafe` read or write through it): the
/// position is below `len`, and while the block runs each position is
/// accessed by one thread only, the one stepping the coset group that
/// holds it. The coset groups of a block are disjoint (distinct cosets of
/// `V + lanes`), and `run_block` gives each group to one range and each
/// range to one thread, so no position is read or written by two threads.
/// The borrow `'a` of the vector lasts as long as the `Shared`, so nothing
/// else touches the vector meanwhile.
#[derive(Clone, Copy)]
pub(super) struct Shared<'a> {
    ptr: *mut f64,
    len: usize,
    _vector: std::marker::PhantomData<&'a mut [f64]>,
}

// SAFETY: a `Shared` is a `&mut [f64]` split by positions; its contract
// (each position accessed by one thread only) makes sending it sound.
unsafe impl Send for Shared<'_> {}
// SAFETY: as for `Send`: threads that share it touch disjoint positions.
unsafe impl Sync for Shared<'_> {}

impl<'a> Shared<'a> {
    /// Shares `v` for one block.
    #[inline]
    pub(super) fn new(v: &'a mut [f64]) -> Shared<'a> {
        Shared {
            ptr: v.as_mut_ptr(),
            len: v.len(),
            _vector: std::marker::PhantomData,
        }
    }

    /// The first value (for the vector paths' pointer arithmetic).
    #[inline]
    pub(super) fn base(self) -> *mut f64 {
        self.ptr
    }

    /// The value at `i`.
    ///
    /// # Safety
    /// The contract of [`Shared`] for position `i`.
    #[inline(always)]
    pub(super) unsafe fn read(self, i: usize) -> f64 {
        debug_assert!(i < self.len);
        // SAFETY: `i < len` and no other thread accesses `i` (contract).
        unsafe { *self.ptr.add(i) }
    }

    /// Sets the value at `i`.
    ///
    /// # Safety
    /// The contract of [`Shared`] for position `i`.
    #[inline(always)]
    pub(super) unsafe fn write(self, i: usize, x: f64) {
        debug_assert!(i < self.len);
        // SAFETY: `i < len` and no other thread accesses `i` (contract).
        unsafe { *self.ptr.add(i) = x }
    }
}
