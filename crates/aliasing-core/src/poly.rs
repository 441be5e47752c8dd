//! CRC generator polynomials and their notations.
//!
//! A generator `g(x)` of degree `r` (the *width*, 1..=64) with constant term 1
//! is stored in *normal* form: the `r` low coefficients, the `x^r` term implicit.
//! Four notations are read and written:
//!
//! | notation | CRC-32 example | meaning |
//! |---|---|---|
//! | full | `0x104C11DB7` | every coefficient, `x^r` included |
//! | normal | `32:0x04C11DB7` | `x^r` omitted, width given |
//! | Koopman | `k:0x82608EDB` | `x^r` at the top bit, `+1` implicit |
//! | reversed | `r:0xEDB88320` | normal form bit-reversed (`r32:0x...` also accepted) |
//!
//! ```
//! use aliasing_core::poly::Generator;
//! let g: Generator = "0x104C11DB7".parse().unwrap();
//! assert_eq!(g.width(), 32);
//! assert_eq!(g.koopman_string(), "0x82608EDB");
//! assert_eq!(g, "k:0x82608EDB".parse().unwrap());
//! assert_eq!(g, "r:0xEDB88320".parse().unwrap());
//! assert_eq!(g, "32:0x04C11DB7".parse().unwrap());
//! ```

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// A CRC generator polynomial of width 1..=64 with constant term 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Generator {
    width: u32,
    normal: u64,
}

/// The notations a [`Generator`] can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// Every coefficient including `x^r`: `0x104C11DB7`.
    Full,
    /// `x^r` omitted, with the width: `32:0x04C11DB7`.
    Normal,
    /// `x^r` at the top bit, `+1` omitted: `k:0x82608EDB`.
    Koopman,
    /// Normal form bit-reversed: `r:0xEDB88320`.
    Reversed,
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

fn hex_digits(width: u32) -> usize {
    width.div_ceil(4) as usize
}

impl Generator {
    /// A generator from its width and normal form (the `x^r` term omitted).
    ///
    /// Fails if the width is outside 1..=64, the value has bits above the
    /// width, or the constant term is 0.
    pub fn new(width: u32, normal: u64) -> Result<Self> {
        let spec = format!("{width}:0x{normal:X}");
        if width == 0 || width > 64 {
            return Err(Error::BadPolynomial {
                spec,
                reason: format!("width {width} is outside 1..=64"),
            });
        }
        if normal & !mask(width) != 0 {
            return Err(Error::BadPolynomial {
                spec,
                reason: format!("value has bits above the width {width}"),
            });
        }
        if normal & 1 == 0 {
            return Err(Error::BadPolynomial {
                spec,
                reason: "constant term is 0 (a CRC generator must have +1)".into(),
            });
        }
        Ok(Generator { width, normal })
    }

    /// A generator from its full form as a `u128` (the `x^r` bit included).
    pub fn from_full(full: u128) -> Result<Self> {
        if full < 2 {
            return Err(Error::BadPolynomial {
                spec: format!("0x{full:X}"),
                reason: "degree must be at least 1".into(),
            });
        }
        let width = 127 - full.leading_zeros();
        if width > 64 {
            return Err(Error::BadPolynomial {
                spec: format!("0x{full:X}"),
                reason: format!("degree {width} is over 64"),
            });
        }
        Self::new(width, (full & mask(width) as u128) as u64)
    }

    /// A generator from Koopman notation with its width stated: `x^r` at the
    /// top bit (bit `width - 1`), the `+1` implicit.
    ///
    /// Fails unless the top bit of `k` is exactly bit `width - 1`: Koopman's
    /// `0x0BAD` is a 12-bit generator, and asking for 16 bits is an error,
    /// not a silent guess.
    ///
    /// ```
    /// use aliasing_core::poly::Generator;
    /// let g = Generator::from_koopman(16, 0xBAAD).unwrap();
    /// assert_eq!(g.full_string(), "0x1755B");
    /// assert!(Generator::from_koopman(16, 0x0BAD).is_err());
    /// ```
    pub fn from_koopman(width: u32, k: u64) -> Result<Self> {
        let g = Self::guess_koopman(k)?;
        if g.width != width {
            return Err(Error::BadPolynomial {
                spec: format!("{width}:k:0x{k:X}"),
                reason: format!("Koopman value has degree {}, not {width}", g.width),
            });
        }
        Ok(g)
    }

    /// A generator from Koopman notation, the width read from the top set
    /// bit (which is the `x^r` term by definition of the notation). This is
    /// what the `k:0x...` string notation means; in code prefer
    /// [`Generator::from_koopman`] or [`Generator::koopman_const`], which
    /// state the width.
    pub fn guess_koopman(k: u64) -> Result<Self> {
        if k == 0 {
            return Err(Error::BadPolynomial {
                spec: "k:0x0".into(),
                reason: "zero".into(),
            });
        }
        let width = 64 - k.leading_zeros();
        Self::new(width, ((k << 1) | 1) & mask(width))
    }

    /// A generator from its width and normal form, for constants.
    ///
    /// # Panics
    /// If [`Generator::new`] would refuse it (at compile time in a `const`).
    ///
    /// ```
    /// use aliasing_core::poly::Generator;
    /// const CRC32: Generator = Generator::normal_const(32, 0x04C11DB7);
    /// assert_eq!(CRC32.koopman(), 0x82608EDB);
    /// ```
    pub const fn normal_const(width: u32, normal: u64) -> Generator {
        assert!(width >= 1 && width <= 64, "width outside 1..=64");
        let m = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        assert!(normal & !m == 0, "value has bits above the width");
        assert!(normal & 1 == 1, "constant term is 0");
        Generator { width, normal }
    }

    /// A generator from Koopman notation with its width stated, for constants.
    ///
    /// # Panics
    /// Unless the top bit of `k` is bit `width - 1` (at compile time in a `const`).
    ///
    /// ```
    /// use aliasing_core::poly::Generator;
    /// const G: Generator = Generator::koopman_const(16, 0xBAAD);
    /// assert_eq!(G, Generator::from_koopman(16, 0xBAAD).unwrap());
    /// ```
    pub const fn koopman_const(width: u32, k: u64) -> Generator {
        assert!(width >= 1 && width <= 64, "width outside 1..=64");
        assert!(
            64 - k.leading_zeros() == width,
            "Koopman value's top bit is not x^width"
        );
        let m = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        Generator {
            width,
            normal: ((k << 1) | 1) & m,
        }
    }

    /// A generator from reversed notation with the given width.
    pub fn from_reversed(width: u32, rev: u64) -> Result<Self> {
        if width == 0 || width > 64 {
            return Err(Error::BadPolynomial {
                spec: format!("r{width}:0x{rev:X}"),
                reason: format!("width {width} is outside 1..=64"),
            });
        }
        if rev & !mask(width) != 0 {
            return Err(Error::BadPolynomial {
                spec: format!("r{width}:0x{rev:X}"),
                reason: format!("value has bits above the width {width}"),
            });
        }
        Self::new(width, reflect(rev, width))
    }

    /// The degree `r`.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The normal form: the `r` low coefficients, `x^r` omitted.
    pub fn normal(&self) -> u64 {
        self.normal
    }

    /// The full form, `x^r` included.
    pub fn full(&self) -> u128 {
        (1u128 << self.width) | self.normal as u128
    }

    /// Koopman form: `x^r` at the top bit, `+1` dropped.
    pub fn koopman(&self) -> u64 {
        ((self.full() >> 1) & u64::MAX as u128) as u64
    }

    /// Reversed form: the normal form bit-reversed within the width.
    pub fn reversed(&self) -> u64 {
        reflect(self.normal, self.width)
    }

    /// The reciprocal polynomial `x^r g(1/x)`, which has the same weight distribution.
    pub fn reciprocal(&self) -> Generator {
        let full = self.full();
        let mut rec: u128 = 0;
        for i in 0..=self.width {
            if (full >> i) & 1 == 1 {
                rec |= 1u128 << (self.width - i);
            }
        }
        Generator::from_full(rec).expect("reciprocal of a valid generator is valid")
    }

    /// `true` when `x + 1` divides `g` (an even number of terms), so every
    /// odd-weight error is detected.
    pub fn divisible_by_x_plus_1(&self) -> bool {
        self.full().count_ones().is_multiple_of(2)
    }

    /// Number of nonzero coefficients (including `x^r` and `1`).
    pub fn term_count(&self) -> u32 {
        self.full().count_ones()
    }

    /// Mask of the `r` low bits.
    pub fn mask(&self) -> u64 {
        mask(self.width)
    }

    /// Full form as hex, e.g. `0x104C11DB7`.
    pub fn full_string(&self) -> String {
        format!("0x{:X}", self.full())
    }

    /// Normal form with its width, e.g. `32:0x04C11DB7`.
    pub fn normal_string(&self) -> String {
        format!(
            "{}:0x{:0w$X}",
            self.width,
            self.normal,
            w = hex_digits(self.width)
        )
    }

    /// Koopman form, e.g. `0x82608EDB` (parse it back with a `k:` prefix).
    pub fn koopman_string(&self) -> String {
        format!("0x{:0w$X}", self.koopman(), w = hex_digits(self.width))
    }

    /// Reversed form, e.g. `0xEDB88320` (parse it back with an `r:` prefix).
    pub fn reversed_string(&self) -> String {
        format!("0x{:0w$X}", self.reversed(), w = hex_digits(self.width))
    }

    /// The generator written in `notation`, in a form [`FromStr`] reads back.
    pub fn to_notation(&self, notation: Notation) -> String {
        match notation {
            Notation::Full => self.full_string(),
            Notation::Normal => self.normal_string(),
            Notation::Koopman => format!("k:{}", self.koopman_string()),
            Notation::Reversed => format!("r{}:{}", self.width, self.reversed_string()),
        }
    }

    /// Polynomial as a sum of powers, e.g. `x^16 + x^12 + x^5 + 1`.
    pub fn algebraic(&self) -> String {
        let full = self.full();
        let mut terms = Vec::new();
        for i in (0..=self.width).rev() {
            if (full >> i) & 1 == 1 {
                terms.push(match i {
                    0 => "1".to_string(),
                    1 => "x".to_string(),
                    _ => format!("x^{i}"),
                });
            }
        }
        terms.join(" + ")
    }
}

/// Reverses the low `width` bits of `v`.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn reflect(v: u64, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    v.reverse_bits() >> (64 - width)
}

fn parse_hex(spec: &str, s: &str) -> Result<u128> {
    let t = s.trim();
    let digits = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .ok_or_else(|| Error::BadPolynomial {
            spec: spec.into(),
            reason: "expected a hex number starting with 0x".into(),
        })?;
    let digits: String = digits.chars().filter(|c| *c != '_').collect();
    if digits.is_empty() {
        return Err(Error::BadPolynomial {
            spec: spec.into(),
            reason: "no hex digits after 0x".into(),
        });
    }
    if let Some(c) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(Error::BadPolynomial {
            spec: spec.into(),
            reason: format!("`{c}` is not a hex digit"),
        });
    }
    u128::from_str_radix(&digits, 16).map_err(|_| Error::BadPolynomial {
        spec: spec.into(),
        reason: "value too large (at most 65 bits)".into(),
    })
}

fn parse_width(spec: &str, s: &str) -> Result<u32> {
    let w: u32 = s.trim().parse().map_err(|_| Error::BadPolynomial {
        spec: spec.into(),
        reason: format!("`{s}` is not a width"),
    })?;
    if w == 0 || w > 64 {
        return Err(Error::BadPolynomial {
            spec: spec.into(),
            reason: format!("width {w} is outside 1..=64"),
        });
    }
    Ok(w)
}

fn fits_u64(spec: &str, v: u128) -> Result<u64> {
    u64::try_from(v).map_err(|_| Error::BadPolynomial {
        spec: spec.into(),
        reason: "value over 64 bits".into(),
    })
}

impl FromStr for Generator {
    type Err = Error;

    /// Reads any notation: `0x104C11DB7` (full), `32:0x04C11DB7` (normal),
    /// `k:0x82608EDB` (Koopman), `r:0xEDB88320`, `r32:0xEDB88320` or
    /// `32:r:0xEDB88320` (reversed). Reversed without a width takes the width
    /// from the top set bit (the `+1` term), which is exact for valid generators.
    fn from_str(spec: &str) -> Result<Self> {
        let s = spec.trim();
        let lower = s.to_ascii_lowercase();
        // width prefix `NN:` in front of anything
        if let Some((head, rest)) = lower.split_once(':') {
            if head.chars().all(|c| c.is_ascii_digit()) && !head.is_empty() {
                let w = parse_width(spec, head)?;
                if let Some(r) = rest.strip_prefix("r:") {
                    let v = fits_u64(spec, parse_hex(spec, r)?)?;
                    return Generator::from_reversed(w, v).map_err(|e| rewrap(spec, e));
                }
                if let Some(k) = rest.strip_prefix("k:") {
                    let g = Generator::guess_koopman(fits_u64(spec, parse_hex(spec, k)?)?)
                        .map_err(|e| rewrap(spec, e))?;
                    return check_width(spec, g, w);
                }
                let v = parse_hex(spec, rest)?;
                if v >> w == 1 {
                    // full form given together with its width
                    let g = Generator::from_full(v).map_err(|e| rewrap(spec, e))?;
                    return check_width(spec, g, w);
                }
                return Generator::new(w, fits_u64(spec, v)?).map_err(|e| rewrap(spec, e));
            }
            if head == "k" {
                let v = fits_u64(spec, parse_hex(spec, rest)?)?;
                return Generator::guess_koopman(v).map_err(|e| rewrap(spec, e));
            }
            if let Some(wtxt) = head.strip_prefix('r') {
                let v = fits_u64(spec, parse_hex(spec, rest)?)?;
                let w = if wtxt.is_empty() {
                    if v == 0 {
                        return Err(Error::BadPolynomial {
                            spec: spec.into(),
                            reason: "zero".into(),
                        });
                    }
                    64 - v.leading_zeros()
                } else {
                    parse_width(spec, wtxt)?
                };
                return Generator::from_reversed(w, v).map_err(|e| rewrap(spec, e));
            }
            return Err(Error::BadPolynomial {
                spec: spec.into(),
                reason: format!("unknown prefix `{head}:` (use NN:, k:, r: or rNN:)"),
            });
        }
        let v = parse_hex(spec, s)?;
        Generator::from_full(v).map_err(|e| rewrap(spec, e))
    }
}

fn check_width(spec: &str, g: Generator, w: u32) -> Result<Generator> {
    if g.width() != w {
        return Err(Error::BadPolynomial {
            spec: spec.into(),
            reason: format!("value has degree {}, not {w}", g.width()),
        });
    }
    Ok(g)
}

fn rewrap(spec: &str, e: Error) -> Error {
    match e {
        Error::BadPolynomial { reason, .. } => Error::BadPolynomial {
            spec: spec.into(),
            reason,
        },
        other => other,
    }
}

/// A generator serializes as its full form (`"0x104C11DB7"`), which names it
/// without a width (the top bit is `x^r`), and deserializes from any notation
/// [`Generator::from_str`] reads.
impl serde::Serialize for Generator {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.full_string())
    }
}

impl<'de> serde::Deserialize<'de> for Generator {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Generator {
    /// Full form and Koopman form, e.g. `0x104C11DB7 (Koopman 0x82608EDB)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (Koopman {})",
            self.full_string(),
            self.koopman_string()
        )
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn serde_round_trip() {
        let g = Generator::from_koopman(16, 0xBAAD).unwrap();
        let j = serde_json::to_string(&g).unwrap();
        assert_eq!(j, "\"0x1755B\"");
        assert_eq!(serde_json::from_str::<Generator>(&j).unwrap(), g);
        assert_eq!(
            serde_json::from_str::<Generator>("\"16:k:0xBAAD\"").unwrap(),
            g
        );
        assert!(serde_json::from_str::<Generator>("\"k:0x0\"").is_err());
    }

    pub fn crc32_notations_agree() {
        let g = Generator::new(32, 0x04C11DB7).unwrap();
        for s in [
            "0x104C11DB7",
            "32:0x04C11DB7",
            "32:0x104C11DB7",
            "k:0x82608EDB",
            "32:k:0x82608EDB",
            "r:0xEDB88320",
            "r32:0xEDB88320",
            "32:r:0xEDB88320",
            "0X104c11db7",
        ] {
            assert_eq!(s.parse::<Generator>().unwrap(), g, "{s}");
        }
        assert_eq!(g.full_string(), "0x104C11DB7");
        assert_eq!(g.koopman_string(), "0x82608EDB");
        assert_eq!(g.reversed_string(), "0xEDB88320");
        assert_eq!(g.normal_string(), "32:0x04C11DB7");
    }

    pub fn every_notation_round_trips() {
        let mut x: u64 = 0x9E3779B97F4A7C15;
        for width in 1..=64u32 {
            for _ in 0..20 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let g = Generator::new(width, (x & mask(width)) | 1).unwrap();
                for n in [
                    Notation::Full,
                    Notation::Normal,
                    Notation::Koopman,
                    Notation::Reversed,
                ] {
                    let s = g.to_notation(n);
                    assert_eq!(s.parse::<Generator>().unwrap(), g, "{s}");
                }
                assert_eq!(g.reciprocal().reciprocal(), g);
            }
        }
    }

    pub fn width_64_full_form() {
        let g: Generator = "0x142F0E1EBA9EA3693".parse().unwrap();
        assert_eq!(g.width(), 64);
        assert_eq!(g.normal(), 0x42F0E1EBA9EA3693);
    }

    pub fn bad_input_is_rejected() {
        for s in [
            "",
            "0x",
            "0xZZ",
            "104C11DB7",
            "0x1",
            "0x104C11DB6",
            "0:0x1",
            "65:0x1",
            "q:0x3",
            "k:0x0",
            "16:0x3FFFF",
            "0x3FFFFFFFFFFFFFFFFF",
        ] {
            assert!(s.parse::<Generator>().is_err(), "{s} should fail");
        }
    }

    pub fn x_plus_1() {
        // CRC-16/IBM 0x18005 = (x+1)(x^15+x+1)
        assert!(
            "0x18005"
                .parse::<Generator>()
                .unwrap()
                .divisible_by_x_plus_1()
        );
        assert!(
            !"0x104C11DB7"
                .parse::<Generator>()
                .unwrap()
                .divisible_by_x_plus_1()
        );
    }
}
