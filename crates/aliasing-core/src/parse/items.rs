//! Hex bytes and hop lists: the other values a request is given as text.

use crate::error::{Error, Result};

/// Parses hex digits into bytes, ignoring whitespace and an optional `0x`:
/// a non-empty, even number of digits (a caller names its option).
///
/// ```
/// use aliasing_core::parse::hex;
/// assert_eq!(hex("0x01 ff").unwrap(), vec![1, 255]);
/// assert!(hex("abc").is_err());
/// ```
pub fn hex(s: &str) -> Result<Vec<u8>> {
    let digits: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let digits: &[char] = match digits.as_slice() {
        ['0', 'x' | 'X', rest @ ..] => rest,
        d => d,
    };
    if digits.is_empty() || !digits.len().is_multiple_of(2) {
        return Err(Error::Invalid(
            "needs a non-empty, even number of hex digits".into(),
        ));
    }
    digits
        .chunks(2)
        .map(|c| {
            let t: String = c.iter().collect();
            u8::from_str_radix(&t, 16).map_err(|_| Error::Invalid(format!("`{t}` is not hex")))
        })
        .collect()
}

/// Parses a comma list of hop counts (links crossed), each a count
/// ([`super::count`]), sorted and without repeats; the message begins
/// `hops:` (a caller may add its option's dashes). Which counts a request
/// takes is its own rule.
///
/// ```
/// use aliasing_core::parse::hops;
/// assert_eq!(hops("4, 1,1").unwrap(), vec![1, 4]);
/// assert!(hops("1,x").unwrap_err().to_string().starts_with("hops: "));
/// ```
pub fn hops(s: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for item in s.split(',').map(str::trim) {
        out.push(super::count::<u32>(item).map_err(|e| Error::Invalid(format!("hops: {e}")))?);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn hop_lists() {
        assert_eq!(hops("1").unwrap(), vec![1]);
        assert_eq!(hops("3,1,2,3").unwrap(), vec![1, 2, 3]);
        for bad in ["", "1,,2", "-1", "1.5", "9999999999"] {
            assert!(hops(bad).is_err(), "{bad}");
        }
        assert_eq!(
            hex("").unwrap_err().to_string(),
            hex("0x").unwrap_err().to_string()
        );
        assert!(
            hex("zz")
                .unwrap_err()
                .to_string()
                .contains("`zz` is not hex")
        );
    }
}
