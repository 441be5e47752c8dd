//! The [`Check`] trait: an error-detecting check computed over a byte range.
//!
//! CRCs and checksums both implement it, so stacks of checks and the
//! simulator treat them alike.
//!
//! ```
//! use aliasing_core::{catalogue, check::Check};
//! let crc = catalogue::resolve("crc32c").unwrap();
//! assert_eq!(crc.compute(b"123456789"), 0xE3069283);
//! assert!(crc.verify(b"123456789", 0xE3069283));
//! ```

/// A check over a byte range: a function of the bytes, compared at the receiver.
pub trait Check: Send + Sync {
    /// Name of the check, e.g. `CRC-32/ISO-HDLC` or `Internet`.
    fn name(&self) -> String;
    /// Number of check bits the check appends or stores.
    fn check_bits(&self) -> u32;
    /// The check value of `data`.
    fn compute(&self, data: &[u8]) -> u64;
    /// `true` if `data` carries check value `value`.
    fn verify(&self, data: &[u8], value: u64) -> bool {
        self.compute(data) == value
    }
}
