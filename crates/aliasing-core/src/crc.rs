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

use crate::check::Check;
use crate::poly::{Generator, reflect};

/// A CRC algorithm: a generator plus the register conventions of the RevEng model.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CrcAlgorithm {
    /// Catalogue name (e.g. `CRC-32/ISO-HDLC`), or a description of a custom polynomial.
    pub name: String,
    /// The generator polynomial.
    pub generator: Generator,
    /// Register contents before the first message bit.
    pub init: u64,
    /// Bytes are read least significant bit first.
    pub refin: bool,
    /// The register is reflected before `xorout`.
    pub refout: bool,
    /// Value XORed into the final register.
    pub xorout: u64,
    /// The catalogue's check value (CRC of ASCII `123456789`), when known.
    pub check: Option<u64>,
    table: Box<[u64; 256]>,
}

impl CrcAlgorithm {
    /// A CRC with full parameters.
    pub fn new(
        name: impl Into<String>,
        generator: Generator,
        init: u64,
        refin: bool,
        refout: bool,
        xorout: u64,
        check: Option<u64>,
    ) -> Self {
        let table = Box::new(make_table(&generator, refin));
        CrcAlgorithm {
            name: name.into(),
            generator,
            init,
            refin,
            refout,
            xorout,
            check,
            table,
        }
    }

    /// A plain CRC for a bare generator: init 0, no reflection, xorout 0.
    /// Which one does not matter for escape probabilities on a BSC.
    pub fn plain(generator: Generator) -> Self {
        let name = format!("custom {}", generator.full_string());
        Self::new(name, generator, 0, false, false, 0, None)
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
    pub fn build(self) -> CrcAlgorithm {
        let name = self
            .name
            .unwrap_or_else(|| format!("custom {}", self.generator.full_string()));
        CrcAlgorithm::new(
            name,
            self.generator,
            self.init,
            self.refin,
            self.refout,
            self.xorout,
            self.check,
        )
    }
}

macro_rules! from_crc_algorithm {
    ($($t:ty),*) => {$(
        impl From<&::crc::Algorithm<$t>> for CrcAlgorithm {
            /// The same CRC as the `crc` crate's constant, named after its
            /// catalogue entry when the parameters match one.
            fn from(a: &::crc::Algorithm<$t>) -> Self {
                let width = u32::from(a.width);
                let (poly, init, xorout, check) =
                    (a.poly as u64, a.init as u64, a.xorout as u64, a.check as u64);
                let named = crate::catalogue::ENTRIES.iter().find(|e| {
                    (e.width, e.poly, e.init, e.refin, e.refout, e.xorout, e.check)
                        == (width, poly, init, a.refin, a.refout, xorout, check)
                });
                if let Some(e) = named {
                    return e.algorithm();
                }
                CrcAlgorithm::builder(Generator::normal_const(width, poly))
                    .init(init)
                    .refin(a.refin)
                    .refout(a.refout)
                    .xorout(xorout)
                    .check(check)
                    .build()
            }
        }
    )*};
}
from_crc_algorithm!(u8, u16, u32, u64);

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

impl Check for CrcAlgorithm {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn check_bits(&self) -> u32 {
        self.width()
    }
    fn compute(&self, data: &[u8]) -> u64 {
        self.checksum(data)
    }
}
