//! [`Shard`]: shard `index` of `count` (1-based) of a computation whose work
//! is a list of items fixed by its parameters, for every command that
//! splits its work (`alias search`, `simulate`, `stack`, `weights`; MPI
//! ranks).
//!
//! One type, one validation rule ([`Shard::new`]: `1 <= index <= count`),
//! and two ways to deal the items, each kept by the files written with it:
//! - [`Shard::range`]: a contiguous block, `[(i-1) M / N, i M / N)` of `M`
//!   candidates (the generator search, [`crate::search`]; its MPI ranks
//!   split a block into consecutive blocks);
//! - [`Shard::strided_len`] and [`Shard::strided_item`]: every `N`-th item
//!   from `i - 1` (the simulator's and the dual pass's shard and checkpoint
//!   files, `aliasing_sim::shard`, whose checkpoints are a prefix of this
//!   list).
//!
//! A shard serializes as a map `{"index": i, "count": n}` (search shard
//! files); the simulator's shard and checkpoint files and the `search`
//! result document store it as a pair `[i, n]`, through the serde adapter
//! `as_pair` at their field. Both forms are those files' forms from before
//! the two were one type, byte for byte.
//!
//! [`Team`] is a group of processes (MPI ranks) sharing one computation,
//! carried by a run's [`crate::ctx::Ctx`].
//!
//! ```
//! use aliasing_core::shard::Shard;
//! let s = Shard::new(2, 3).unwrap();
//! assert_eq!(s.to_string(), "2/3");
//! assert_eq!(s.range(10), 3..6);
//! assert_eq!(s.strided_len(10), 3); // items 1, 4, 7
//! assert_eq!(s.strided_item(2), 7);
//! assert!(Shard::new(4, 3).is_err());
//! ```

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Shard `index` of `count`, 1-based. Build one with [`Shard::new`] (or
/// [`Shard::WHOLE`]); one read from a file is checked with
/// [`Shard::checked`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Shard {
    /// 1-based index.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// The whole computation: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, checking `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Result<Shard> {
        Shard { index, count }.checked()
    }

    /// This shard if `1 <= index <= count` (the one rule; for a shard read
    /// from a file or built from its fields), else why not.
    pub fn checked(self) -> Result<Shard> {
        let Shard { index, count } = self;
        if count == 0 || index == 0 || index > count {
            return Err(Error::Invalid(format!(
                "shard {index}/{count}: expected I/N with 1 <= I <= N"
            )));
        }
        Ok(self)
    }

    /// The contiguous block of this shard in a list of `len` items:
    /// `[(i-1) len / n, i len / n)`.
    pub fn range(self, len: u64) -> std::ops::Range<u64> {
        let at = |i: u64| ((i as u128 * len as u128) / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }

    /// Number of the `items` items this shard takes when dealt every
    /// `count`-th from `index - 1`.
    pub fn strided_len(self, items: u64) -> u64 {
        if items < self.index {
            0
        } else {
            (items - self.index) / self.count + 1
        }
    }

    /// The `j`-th item of this shard when dealt every `count`-th from
    /// `index - 1`.
    pub fn strided_item(self, j: u64) -> u64 {
        (self.index - 1) + j * self.count
    }
}

/// `index/count`, as `--shard` reads it.
impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Reads `I/N`, the form [`Display`](std::fmt::Display) writes (spaces
/// around either number allowed), checked as [`Shard::new`] checks.
///
/// ```
/// use aliasing_core::shard::Shard;
/// assert_eq!("2/3".parse::<Shard>().unwrap(), Shard::new(2, 3).unwrap());
/// assert!("0/3".parse::<Shard>().is_err());
/// assert!("2-3".parse::<Shard>().is_err());
/// ```
impl std::str::FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Shard> {
        let bad = || Error::Invalid(format!("shard `{s}`: expected I/N with 1 <= I <= N"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (i, n) = (i.trim().parse(), n.trim().parse());
        match (i, n) {
            (Ok(i), Ok(n)) => Shard::new(i, n).map_err(|_| bad()),
            _ => Err(bad()),
        }
    }
}

/// Serde adapter, `#[serde(with = "aliasing_core::shard::as_pair")]`: a
/// [`Shard`] as the pair `[index, count]`. Reading does not check the
/// shard: the reader does, with [`Shard::checked`], and words its own error.
#[doc(hidden)] // internal: reached through `crate::__private`
pub mod as_pair {
    use super::Shard;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes `[index, count]`.
    pub fn serialize<S: Serializer>(shard: &Shard, s: S) -> Result<S::Ok, S::Error> {
        (shard.index, shard.count).serialize(s)
    }

    /// Reads `[index, count]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let (index, count) = <(u64, u64)>::deserialize(d)?;
        Ok(Shard { index, count })
    }
}

/// 64-bit FNV-1a hash (integrity and identity of files, not security).
#[doc(hidden)] // internal: the shard-file checksum, shared by the search and the simulator
pub fn fnv1a64(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A group of processes sharing one computation (MPI ranks); member 0 reduces.
///
/// Every member runs the same computation with the same arguments (the
/// simulator's `aliasing_sim::shard::drive`, the generator search); the items of each
/// batch are dealt to the members, and member 0 receives the others' tallies,
/// adds them and alone reports progress and writes checkpoints. Only
/// member 0's return value is the total; the others return their last part.
pub trait Team {
    /// This member's index, `0..size`.
    fn rank(&self) -> usize;
    /// Number of members.
    fn size(&self) -> usize;
    /// Member 0's `value`, on every member.
    fn broadcast(&self, value: u64) -> u64;
    /// At member 0: every member's bytes in member order (its own first);
    /// elsewhere: sends `bytes` to member 0 and returns nothing.
    fn gather(&self, bytes: Vec<u8>) -> Vec<Vec<u8>>;
    /// Ends every member's process with `code` (a member that failed; MPI's
    /// `MPI_Abort`). The default does nothing.
    fn abort(&self, code: i32) {
        let _ = code;
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn both_deals_cover_every_item_once() {
        for len in [0u64, 1, 7, 10, 37] {
            for n in 1..=5 {
                let mut block = Vec::new();
                let mut strided = Vec::new();
                for i in 1..=n {
                    let s = Shard::new(i, n).unwrap();
                    block.extend(s.range(len));
                    strided.extend((0..s.strided_len(len)).map(|j| s.strided_item(j)));
                }
                strided.sort_unstable();
                let all: Vec<u64> = (0..len).collect();
                assert_eq!(block, all, "{len} {n}");
                assert_eq!(strided, all, "{len} {n}");
            }
        }
    }

    pub fn validation_and_serialized_form() {
        for (i, n) in [(0, 3), (4, 3), (1, 0), (0, 0)] {
            let e = Shard::new(i, n).unwrap_err().to_string();
            assert!(e.contains(&format!("shard {i}/{n}")), "{e}");
        }
        let s = Shard::new(2, 3).unwrap();
        assert_eq!(Shard::WHOLE, Shard::new(1, 1).unwrap());
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(text, r#"{"index":2,"count":3}"#);
        assert_eq!(serde_json::from_str::<Shard>(&text).unwrap(), s);
        #[derive(Serialize, Deserialize)]
        struct Pair {
            #[serde(with = "as_pair")]
            shard: Shard,
        }
        let text = serde_json::to_string(&Pair { shard: s }).unwrap();
        assert_eq!(text, r#"{"shard":[2,3]}"#);
        assert_eq!(serde_json::from_str::<Pair>(&text).unwrap().shard, s);
    }
}
