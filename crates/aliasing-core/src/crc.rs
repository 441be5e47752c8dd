//! Real CRC computation with the full Rocksoft/RevEng parameter set
//! (`init`, `refin`, `refout`, `xorout`) for any width 1..=64.
//!
//! ```
//! use aliasing_core::{catalogue, crc::CrcAlgorithm};
//! let crc = catalogue::resolve("crc32").unwrap();
//! assert_eq!(crc.checksum(b"123456789"), 0xCBF43926);
//! // The same CRC from the `crc` crate's constant, or the catalogue's:
//! let same = CrcAlgorithm::from(&::crc::CRC_32_ISO_HDLC);
//! assert_eq!(same, crc);
//! assert_eq!(catalogue::CRC_32_ISO_HDLC.algorithm(), crc);
//! ```

use crate::poly::{Generator, reflect};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The `crc` crate's CRC parameters, re-exported: [`CrcAlgorithm`] converts
/// from `&Algorithm<W>` (`W` = `u8` to `u64`; a catalogue constant of that
/// crate, such as `CRC_32_ISO_HDLC`), so its major version is this crate's.
#[doc(no_inline)]
pub use ::crc::Algorithm;

/// A CRC algorithm: a generator plus the register conventions of the RevEng
/// model. Immutable: built by [`CrcAlgorithm::builder`], a catalogue entry
/// ([`crate::catalogue::Entry::algorithm`], [`crate::catalogue::resolve`]) or
/// a `crc` crate constant, and read through its accessors, so its lookup
/// table always matches its parameters.
///
/// Serialized as its parameters (the table is derived); deserializing
/// rebuilds the table.
///
/// ```
/// use aliasing_core::{catalogue, crc::CrcAlgorithm};
/// let crc = catalogue::resolve("crc32").unwrap();
/// assert_eq!(crc.name(), "CRC-32/ISO-HDLC");
/// assert_eq!((crc.width(), crc.refin(), crc.xorout()), (32, true, 0xFFFF_FFFF));
/// // Debug shows the parameters, not the 256-entry table.
/// assert!(format!("{crc:?}").len() < 200);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct CrcAlgorithm {
    name: String,
    generator: Generator,
    init: u64,
    refin: bool,
    refout: bool,
    xorout: u64,
    check: Option<u64>,
    table: Box<[u64; 256]>,
}

impl fmt::Debug for CrcAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = |v: u64| format!("{v:#x}");
        f.debug_struct("CrcAlgorithm")
            .field("name", &self.name)
            .field("width", &self.width())
            .field("poly", &format_args!("{}", hex(self.generator.normal())))
            .field("init", &format_args!("{}", hex(self.init)))
            .field("refin", &self.refin)
            .field("refout", &self.refout)
            .field("xorout", &format_args!("{}", hex(self.xorout)))
            .field("check", &self.check.map(hex))
            .finish()
    }
}

impl CrcAlgorithm {
    /// The one constructor: every field, the table derived from them.
    fn from_parts(p: CrcBuilder, name: String) -> Self {
        let table = Box::new(make_table(&p.generator, p.refin));
        CrcAlgorithm {
            name,
            generator: p.generator,
            init: p.init,
            refin: p.refin,
            refout: p.refout,
            xorout: p.xorout,
            check: p.check,
            table,
        }
    }

    /// Catalogue name (e.g. `CRC-32/ISO-HDLC`), or a description of a custom polynomial.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The generator polynomial.
    pub fn generator(&self) -> Generator {
        self.generator
    }

    /// Register contents before the first message bit.
    pub fn init(&self) -> u64 {
        self.init
    }

    /// Bytes are read least significant bit first.
    pub fn refin(&self) -> bool {
        self.refin
    }

    /// The register is reflected before `xorout`.
    pub fn refout(&self) -> bool {
        self.refout
    }

    /// Value XORed into the final register.
    pub fn xorout(&self) -> u64 {
        self.xorout
    }

    /// The catalogue's check value (CRC of ASCII `123456789`), when known.
    pub fn check(&self) -> Option<u64> {
        self.check
    }

    /// A plain CRC for a bare generator: init 0, no reflection, xorout 0.
    /// Which one does not matter for escape probabilities on a BSC.
    pub fn plain(generator: Generator) -> Self {
        Self::builder(generator).build()
    }

    /// A builder for a custom CRC: `init`, `refin`, `refout`, `xorout`
    /// default to 0 / false, the name to `custom <full form>`.
    ///
    /// ```
    /// use aliasing_core::{crc::CrcAlgorithm, poly::Generator};
    /// // CRC-16/KERMIT built by hand.
    /// let c = CrcAlgorithm::builder(Generator::normal_const(16, 0x1021))
    ///     .name("my CRC-16")
    ///     .reflected(true)
    ///     .build();
    /// assert_eq!(c.checksum(b"123456789"), 0x2189);
    /// ```
    pub fn builder(generator: Generator) -> CrcBuilder {
        CrcBuilder {
            name: None,
            generator,
            init: 0,
            refin: false,
            refout: false,
            xorout: 0,
            check: None,
        }
    }

    /// The width in bits.
    pub fn width(&self) -> u32 {
        self.generator.width()
    }

    /// The CRC of `data`, with every parameter applied (as in the catalogue).
    pub fn checksum(&self, data: &[u8]) -> u64 {
        let w = self.width();
        let mask = self.generator.mask();
        let mut reg;
        if self.refin {
            reg = reflect(self.init & mask, w);
            for &b in data {
                reg = (reg >> 8) ^ self.table[((reg ^ b as u64) & 0xFF) as usize];
            }
            // reg is held reflected
            if !self.refout {
                reg = reflect(reg, w);
            }
        } else if w >= 8 {
            reg = self.init & mask;
            for &b in data {
                let idx = ((reg >> (w - 8)) ^ b as u64) & 0xFF;
                reg = ((reg << 8) & mask) ^ self.table[idx as usize];
            }
            if self.refout {
                reg = reflect(reg, w);
            }
        } else {
            // widths below 8, not reflected: bitwise
            reg = self.init & mask;
            let top = 1u64 << (w - 1);
            for &b in data {
                for i in (0..8).rev() {
                    let bit = ((b >> i) & 1) as u64;
                    let fb = ((reg & top) != 0) as u64 ^ bit;
                    reg = (reg << 1) & mask;
                    if fb == 1 {
                        reg ^= self.generator.normal();
                    }
                }
            }
            if self.refout {
                reg = reflect(reg, w);
            }
        }
        (reg ^ self.xorout) & mask
    }
}

/// Builds a custom [`CrcAlgorithm`]; see [`CrcAlgorithm::builder`].
#[derive(Debug, Clone)]
#[must_use]
pub struct CrcBuilder {
    name: Option<String>,
    generator: Generator,
    init: u64,
    refin: bool,
    refout: bool,
    xorout: u64,
    check: Option<u64>,
}

impl CrcBuilder {
    /// The name reported in outputs.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
    /// Register contents before the first message bit (masked to the width).
    pub fn init(mut self, init: u64) -> Self {
        self.init = init & self.generator.mask();
        self
    }
    /// Bytes read least significant bit first.
    pub fn refin(mut self, refin: bool) -> Self {
        self.refin = refin;
        self
    }
    /// Register reflected before `xorout`.
    pub fn refout(mut self, refout: bool) -> Self {
        self.refout = refout;
        self
    }
    /// Both `refin` and `refout`.
    pub fn reflected(self, reflected: bool) -> Self {
        self.refin(reflected).refout(reflected)
    }
    /// Value XORed into the final register (masked to the width).
    pub fn xorout(mut self, xorout: u64) -> Self {
        self.xorout = xorout & self.generator.mask();
        self
    }
    /// The expected CRC of ASCII `123456789`, if known.
    pub fn check(mut self, check: u64) -> Self {
        self.check = Some(check);
        self
    }
    /// The CRC.
    pub fn build(mut self) -> CrcAlgorithm {
        let name = self
            .name
            .take()
            .unwrap_or_else(|| format!("custom {}", self.generator.full_string()));
        CrcAlgorithm::from_parts(self, name)
    }
}

/// The parameters of a [`CrcAlgorithm`] as JSON: `name`, `generator` (its
/// full form, as [`Generator`] serializes), `width`, then `init`, `xorout`
/// and `check` as hexadecimal strings (`"0xFFFFFFFF"`: every 64-bit value
/// exact in any JSON reader) and `refin`, `refout`. Reading one rebuilds the
/// table, and refuses a width that disagrees with the generator, an `init`
/// or `xorout` wider than the CRC, and a `check` that is not the CRC of
/// `123456789`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Parameters {
    name: String,
    generator: Generator,
    width: u32,
    #[serde(with = "hex")]
    init: u64,
    refin: bool,
    refout: bool,
    #[serde(with = "hex")]
    xorout: u64,
    #[serde(with = "hex_option", default)]
    check: Option<u64>,
}

/// ```
/// use aliasing_core::catalogue;
/// let crc = catalogue::resolve("crc32c").unwrap();
/// let j = serde_json::to_string(&crc).unwrap();
/// assert_eq!(
///     j,
///     r#"{"name":"CRC-32/ISCSI","generator":"0x11EDC6F41","width":32,"init":"0xFFFFFFFF","refin":true,"refout":true,"xorout":"0xFFFFFFFF","check":"0xE3069283"}"#
/// );
/// assert_eq!(serde_json::from_str::<aliasing_core::crc::CrcAlgorithm>(&j).unwrap(), crc);
/// ```
impl Serialize for CrcAlgorithm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        Parameters {
            name: self.name.clone(),
            generator: self.generator,
            width: self.width(),
            init: self.init,
            refin: self.refin,
            refout: self.refout,
            xorout: self.xorout,
            check: self.check,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for CrcAlgorithm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::Error as _;
        let p = Parameters::deserialize(d)?;
        let g = p.generator;
        if p.width != g.width() {
            return Err(D::Error::custom(format!(
                "CRC `{}`: width {} disagrees with the generator {}, of width {}",
                p.name,
                p.width,
                g.full_string(),
                g.width()
            )));
        }
        for (what, v) in [("init", p.init), ("xorout", p.xorout)] {
            if v & !g.mask() != 0 {
                return Err(D::Error::custom(format!(
                    "CRC `{}`: {what} {v:#X} is wider than {} bits",
                    p.name, p.width
                )));
            }
        }
        let mut b = CrcAlgorithm::builder(g)
            .name(p.name)
            .init(p.init)
            .refin(p.refin)
            .refout(p.refout)
            .xorout(p.xorout);
        if let Some(c) = p.check {
            b = b.check(c);
        }
        let crc = b.build();
        if let Some(c) = crc.check {
            let got = crc.checksum(b"123456789");
            if got != c {
                return Err(D::Error::custom(format!(
                    "CRC `{}`: check {c:#X} is not the CRC of \"123456789\" under these parameters ({got:#X})",
                    crc.name
                )));
            }
        }
        Ok(crc)
    }
}

/// A `u64` as a hexadecimal string `"0x..."` (read also from a JSON number).
mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:#X}").replacen("0X", "0x", 1))
    }

    /// A JSON number or string, before parsing.
    #[derive(Deserialize)]
    #[serde(untagged)]
    pub enum HexWire {
        N(u64),
        S(String),
    }

    pub fn parse<E: serde::de::Error>(w: HexWire) -> Result<u64, E> {
        match w {
            HexWire::N(v) => Ok(v),
            HexWire::S(s) => {
                let t = s.trim();
                let digits = t
                    .strip_prefix("0x")
                    .or_else(|| t.strip_prefix("0X"))
                    .ok_or_else(|| E::custom(format!("`{s}` is not a hexadecimal 0x... value")))?;
                u64::from_str_radix(digits, 16)
                    .map_err(|e| E::custom(format!("`{s}` is not a 64-bit hexadecimal value: {e}")))
            }
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        parse(HexWire::deserialize(d)?)
    }
}

/// An optional `u64` as [`hex`] (`null` or absent: none).
mod hex_option {
    use super::hex::{self, HexWire};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => hex::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        Option::<HexWire>::deserialize(d)?
            .map(hex::parse)
            .transpose()
    }
}

fn make_table(g: &Generator, refin: bool) -> [u64; 256] {
    let w = g.width();
    let mask = g.mask();
    let mut t = [0u64; 256];
    if refin {
        let poly = reflect(g.normal(), w);
        for (i, e) in t.iter_mut().enumerate() {
            let mut r = i as u64;
            for _ in 0..8 {
                r = if r & 1 == 1 { (r >> 1) ^ poly } else { r >> 1 };
            }
            *e = r;
        }
    } else if w >= 8 {
        let top = 1u64 << (w - 1);
        for (i, e) in t.iter_mut().enumerate() {
            let mut r = (i as u64) << (w - 8);
            for _ in 0..8 {
                r = if r & top != 0 {
                    ((r << 1) & mask) ^ g.normal()
                } else {
                    (r << 1) & mask
                };
            }
            *e = r;
        }
    }
    t
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::catalogue;

    pub fn debug_prints_the_parameters_and_not_the_table() {
        let crc = catalogue::resolve("crc32").unwrap();
        let d = format!("{crc:?}");
        assert_eq!(
            d,
            "CrcAlgorithm { name: \"CRC-32/ISO-HDLC\", width: 32, poly: 0x4c11db7, \
             init: 0xffffffff, refin: true, refout: true, xorout: 0xffffffff, \
             check: Some(\"0xcbf43926\") }"
        );
        // the table's second entry (0x77073096 for this CRC) is not printed
        assert!(!d.contains("1996959894") && !d.contains("77073096"), "{d}");
    }

    pub fn a_catalogue_entry_and_the_same_parameters_built_by_hand_are_equal() {
        for e in catalogue::ENTRIES {
            let by_hand = CrcAlgorithm::builder(e.generator())
                .name(e.name)
                .init(e.init)
                .refin(e.refin)
                .refout(e.refout)
                .xorout(e.xorout)
                .check(e.check)
                .build();
            assert_eq!(by_hand, e.algorithm(), "{}", e.name);
            assert_eq!(by_hand.checksum(b"123456789"), e.check, "{}", e.name);
            assert_eq!(
                (
                    by_hand.init(),
                    by_hand.refin(),
                    by_hand.refout(),
                    by_hand.xorout()
                ),
                (e.init, e.refin, e.refout, e.xorout)
            );
        }
    }

    pub fn the_builder_masks_init_and_xorout_to_the_width() {
        let c = CrcAlgorithm::builder(Generator::normal_const(8, 0x07))
            .init(0x1FF)
            .xorout(0xF55)
            .build();
        assert_eq!((c.init(), c.xorout(), c.check()), (0xFF, 0x55, None));
        assert_eq!(c.name(), "custom 0x107");
    }

    pub fn every_catalogue_crc_reads_back_from_its_json_with_the_same_table() {
        for e in catalogue::ENTRIES {
            let c = e.algorithm();
            let j = serde_json::to_string(&c).unwrap();
            let back: CrcAlgorithm = serde_json::from_str(&j).unwrap();
            assert_eq!(back, c, "{j}");
            assert_eq!(back.checksum(b"123456789"), e.check, "{j}");
        }
        // a custom CRC without a check value, and numbers in place of strings
        let c = CrcAlgorithm::builder(Generator::normal_const(64, 0x1B)).build();
        let j = serde_json::to_string(&c).unwrap();
        assert!(j.contains(r#""check":null"#), "{j}");
        assert_eq!(serde_json::from_str::<CrcAlgorithm>(&j).unwrap(), c);
        let n = r#"{"name":"n","generator":"0x107","width":8,"init":255,"refin":false,"refout":false,"xorout":0}"#;
        let c = serde_json::from_str::<CrcAlgorithm>(n).unwrap();
        assert_eq!((c.init(), c.check()), (0xFF, None));
    }

    pub fn json_parameters_that_disagree_are_refused_with_the_reason() {
        let good = serde_json::to_value(catalogue::resolve("crc16-arc").unwrap()).unwrap();
        let with = |k: &str, v: serde_json::Value| {
            let mut j = good.clone();
            j[k] = v;
            serde_json::from_value::<CrcAlgorithm>(j).map_err(|e| e.to_string())
        };
        assert!(with("name", "x".into()).is_ok());
        let e = with("width", 17.into()).unwrap_err();
        assert!(
            e.contains("width 17 disagrees with the generator 0x18005"),
            "{e}"
        );
        let e = with("init", "0x10000".into()).unwrap_err();
        assert!(e.contains("init 0x10000 is wider than 16 bits"), "{e}");
        let e = with("xorout", "0x1FFFF".into()).unwrap_err();
        assert!(e.contains("xorout 0x1FFFF is wider than 16 bits"), "{e}");
        let e = with("check", "0xBB3E".into()).unwrap_err();
        assert!(e.contains("check 0xBB3E is not the CRC"), "{e}");
        assert!(
            with("refin", false.into())
                .unwrap_err()
                .contains("is not the CRC")
        );
        let e = with("init", "ffff".into()).unwrap_err();
        assert!(e.contains("not a hexadecimal 0x... value"), "{e}");
        let e = with("init", "0xZZ".into()).unwrap_err();
        assert!(e.contains("not a 64-bit hexadecimal value"), "{e}");
        assert!(with("generator", "0x4".into()).is_err());
        let mut extra = good.clone();
        extra["table"] = serde_json::json!([0]);
        assert!(serde_json::from_value::<CrcAlgorithm>(extra).is_err());
    }
}
