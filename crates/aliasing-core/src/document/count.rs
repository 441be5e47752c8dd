//! Exact counts (codewords of a weight) in JSON: a number where a double
//! holds it exactly (up to 2^53), a decimal string above.

use dashu_int::UBig;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An exact non-negative count: written as a JSON number up to 2^53 and as a
/// decimal string above, so no reader loses digits; read from either.
///
/// ```
/// use aliasing_core::document::Count;
/// assert_eq!(serde_json::to_string(&Count::from(5u64)).unwrap(), "5");
/// let big = Count::from(1u128 << 60);
/// assert_eq!(serde_json::to_string(&big).unwrap(), "\"1152921504606846976\"");
/// assert_eq!(serde_json::from_str::<Count>("\"1152921504606846976\"").unwrap(), big);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Count(pub UBig);

impl From<u64> for Count {
    fn from(v: u64) -> Self {
        Count(UBig::from(v))
    }
}

impl From<u128> for Count {
    fn from(v: u128) -> Self {
        Count(UBig::from(v))
    }
}

impl From<UBig> for Count {
    fn from(v: UBig) -> Self {
        Count(v)
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(&self.0) {
            Ok(v) if v <= 1u64 << 53 => s.serialize_u64(v),
            _ => s.serialize_str(&self.0.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            N(u64),
            S(String),
        }
        match Wire::deserialize(d)? {
            Wire::N(v) => Ok(Count::from(v)),
            Wire::S(s) => s
                .parse::<UBig>()
                .map(Count)
                .map_err(|e| serde::de::Error::custom(format!("count `{s}`: {e}"))),
        }
    }
}

/// Serde helper: a list of `u128` counts written as decimal strings.
pub(crate) mod decimal_strings {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[u128], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|c| c.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u128>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| s.parse::<u128>().map_err(serde::de::Error::custom))
            .collect()
    }
}

/// A `u128` counter in a file, written exactly: a JSON number up to
/// `u64::MAX` (what every JSON reader, and `serde_json::Value`, holds
/// exactly; files written before this form keep their bytes), a string of
/// decimal digits above. Reading accepts either form; a string must be
/// canonical (digits, no sign, no leading zero) and a number a non-negative
/// integer. Use as `#[serde(with = "aliasing_core::document::wide")]`.
pub mod wide {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Writes `v`: a number up to `u64::MAX`, a decimal string above.
    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(*v) {
            Ok(small) => s.serialize_u64(small),
            Err(_) => s.serialize_str(&v.to_string()),
        }
    }

    /// Reads a count written by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        d.deserialize_any(Wide)
    }

    struct Wide;

    impl Visitor<'_> for Wide {
        type Value = u128;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a count: a non-negative integer, or its decimal digits as a string")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u128, E> {
            Ok(v.into())
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<u128, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u128, E> {
            u128::try_from(v).map_err(|_| E::custom(format!("count {v} is negative")))
        }
        fn visit_str<E: de::Error>(self, t: &str) -> Result<u128, E> {
            let canonical = !t.is_empty()
                && t.bytes().all(|b| b.is_ascii_digit())
                && (t == "0" || !t.starts_with('0'));
            if !canonical {
                return Err(E::custom(format!(
                    "count `{}` is not decimal digits",
                    t.chars().take(48).collect::<String>()
                )));
            }
            t.parse()
                .map_err(|_| E::custom(format!("count `{t}` exceeds 2^128 - 1")))
        }
    }
}
