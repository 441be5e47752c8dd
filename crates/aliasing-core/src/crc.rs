//! Real CRC computation with the full Rocksoft/RevEng parameter set
//! (`init`, `refin`, `refout`, `xorout`) for any width 1..=64.
//!
//! ```
//! use aliasing_core::catalogue;
//! let crc = catalogue::resolve("crc32").unwrap();
//! assert_eq!(crc.checksum(b"123456789"), 0xCBF43926);
//! ```

use crate::check::Check;
use crate::poly::{Generator, reflect};

/// A CRC algorithm: a generator plus the register conventions of the RevEng model.
#[derive(Debug, Clone, PartialEq, Eq)]
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
