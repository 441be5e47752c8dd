//! The open-addressing syndrome table and its presence filter, shared by
//! the searches of [`super`].

/// Open-addressing hash map from syndromes to a `u64`. `u64::MAX` marks an
/// empty slot; that syndrome (possible at width 64) is kept aside in `max`.
///
/// A table built [`Table::with_filter`] also keeps a [`Presence`] filter of
/// its keys, which answers most lookups of absent keys without touching the
/// slots: for the searches that probe far more syndromes than they find.
pub(crate) struct Table {
    pub(super) keys: Vec<u64>,
    pub(super) vals: Vec<u64>,
    pub(super) len: usize,
    pub(super) max: Option<u64>,
    pub(super) filter: Option<Presence>,
}

pub(super) const EMPTY: u64 = u64::MAX;

/// Bits of a table's [`Presence`] filter per slot: at load 1/2 or less, at
/// least 64 bits a key (a quarter more memory than the slots' own 16 bytes).
/// Half of that made the weight-4 count 13% slower (more false positives).
pub(super) const FILTER_BITS_PER_SLOT: usize = 32;

impl Table {
    pub(crate) fn with_capacity(n: usize) -> Self {
        let cap = (n.max(16) * 2).next_power_of_two();
        Table {
            keys: vec![EMPTY; cap],
            vals: vec![0; cap],
            len: 0,
            max: None,
            filter: None,
        }
    }
    /// [`Table::with_capacity`], with a [`Presence`] filter kept beside the
    /// slots (a quarter more memory).
    pub(crate) fn with_filter(n: usize) -> Self {
        let mut t = Table::with_capacity(n);
        t.filter = Some(Presence::with_bits(t.keys.len() * FILTER_BITS_PER_SLOT));
        t
    }
    #[inline]
    pub(super) fn slot(&self, k: u64) -> usize {
        (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & (self.keys.len() - 1)
    }
    /// The slot of `k`: where it is, or the empty slot where it goes
    /// (inserted with value `v`). `true` when it was there already.
    #[inline(always)]
    pub(super) fn entry(&mut self, k: u64, v: u64) -> (usize, bool) {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(k);
        loop {
            if self.keys[i] == EMPTY {
                self.keys[i] = k;
                self.vals[i] = v;
                self.len += 1;
                if let Some(f) = &mut self.filter {
                    f.set(k);
                }
                return (i, false);
            }
            if self.keys[i] == k {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
    }
    /// Inserts unless present (the first value is kept).
    #[inline(always)]
    pub(crate) fn insert(&mut self, k: u64, v: u64) {
        if k == EMPTY {
            self.max.get_or_insert(v);
            if let Some(f) = &mut self.filter {
                f.set(k);
            }
            return;
        }
        self.entry(k, v);
    }
    /// Adds 1 to the value of `k` (inserting it with 1).
    pub(super) fn increment(&mut self, k: u64) {
        if k == EMPTY {
            *self.max.get_or_insert(0) += 1;
            if let Some(f) = &mut self.filter {
                f.set(k);
            }
            return;
        }
        if let (i, true) = self.entry(k, 1) {
            self.vals[i] += 1;
        }
    }
    #[inline(always)]
    pub(crate) fn get(&self, k: u64) -> Option<u64> {
        if let Some(f) = &self.filter
            && !f.may_hold(k)
        {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(k);
        loop {
            let key = self.keys[i];
            if key == k {
                // `k == EMPTY` (kept aside in `max`) ends here too, at the
                // first empty slot: tested only on this path, not per probe
                return if k == EMPTY {
                    self.max
                } else {
                    Some(self.vals[i])
                };
            }
            if key == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
    #[cold]
    #[inline(never)]
    pub(super) fn grow(&mut self) {
        let old_k = std::mem::take(&mut self.keys);
        let old_v = std::mem::take(&mut self.vals);
        let cap = old_k.len() * 2;
        self.keys = vec![EMPTY; cap];
        self.vals = vec![0; cap];
        self.len = 0;
        if let Some(f) = &mut self.filter {
            *f = Presence::with_bits(cap * FILTER_BITS_PER_SLOT);
            if self.max.is_some() {
                f.set(EMPTY);
            }
        }
        for (k, v) in old_k.into_iter().zip(old_v) {
            // (`max` is kept as it is)
            if k != EMPTY {
                self.insert(k, v);
            }
        }
    }
}

/// A bit array summarising a set of syndromes, one bit a key set
/// ([`FILTER_BITS_PER_SLOT`] bits a table slot: 64 or more a key), sparse
/// enough that a syndrome not in the set almost always finds its bit clear.
/// No false negatives: a clear bit proves absence, a set bit says "look in
/// the [`Table`]". The weight-4 searches (span counts, shapes), `min_span`
/// and the joint sampler probe far more syndromes than are present; the
/// table alone (load up to 1/2) ends a miss at its first slot only about two
/// times in three, an unpredictable branch per probe, where this filter's
/// bit is clear about 98 times in 100.
pub(super) struct Presence {
    pub(super) bits: Vec<u64>,
    pub(super) shift: u32,
}

impl Presence {
    /// An empty filter of `bits` bits (a power of two, at least 64).
    pub(super) fn with_bits(bits: usize) -> Self {
        debug_assert!(bits.is_power_of_two() && bits >= 64);
        Presence {
            bits: vec![0; bits / 64],
            shift: 64 - bits.trailing_zeros(),
        }
    }
    #[inline(always)]
    pub(super) fn bit(&self, k: u64) -> usize {
        // Fibonacci hashing on the top bits (the table uses bits 20 and up
        // of another product, so a key's slot and its bit are unrelated)
        (k.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> self.shift) as usize
    }
    #[inline(always)]
    pub(super) fn set(&mut self, k: u64) {
        let h = self.bit(k);
        self.bits[h >> 6] |= 1 << (h & 63);
    }
    /// `false` only if `k` is not in the set.
    #[inline(always)]
    pub(super) fn may_hold(&self, k: u64) -> bool {
        let h = self.bit(k);
        self.bits[h >> 6] >> (h & 63) & 1 == 1
    }
}
