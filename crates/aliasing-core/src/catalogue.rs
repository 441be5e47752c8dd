//! CRC names: the CRC RevEng catalogue (through the `crc` crate's constants),
//! everyday aliases, and this project's default primitive polynomial per width.
//!
//! [`resolve`] turns anything a user types after `--crc` into a [`CrcAlgorithm`]:
//! a catalogue name (`CRC-32/ISCSI`, case-insensitive), one of the
//! catalogue's aliases ([`REVENG_ALIASES`]: `CRC-16/CCITT` is CRC-16/KERMIT),
//! an everyday alias (`crc32`, `ethernet`, `crc32c`, `iscsi`, ...), a bare width (`16`: the
//! default maximal-length polynomial of that width from
//! `data/primitive-polynomials.txt`), or a polynomial in any notation of
//! [`crate::poly`].
//!
//! ```
//! use aliasing_core::catalogue::resolve;
//! assert_eq!(resolve("ethernet").unwrap().name(), "CRC-32/ISO-HDLC");
//! assert_eq!(resolve("crc-32/iscsi").unwrap().generator().koopman_string(), "0x8F6E37A0");
//! assert_eq!(resolve("16").unwrap().width(), 16);
//! assert!(resolve("crc33").is_err());
//! ```

use crate::crc::CrcAlgorithm;
use crate::error::{Error, Result};
use crate::poly::Generator;

/// A catalogue entry in plain integers.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Entry {
    /// RevEng name, e.g. `CRC-32/ISO-HDLC`.
    pub name: &'static str,
    /// Width in bits.
    pub width: u32,
    /// Generator in normal form.
    pub poly: u64,
    /// Initial register.
    pub init: u64,
    /// Input reflected.
    pub refin: bool,
    /// Output reflected.
    pub refout: bool,
    /// Final XOR.
    pub xorout: u64,
    /// CRC of ASCII `123456789`.
    pub check: u64,
}

impl Entry {
    /// The entry as a [`CrcAlgorithm`] (generator plus register conventions).
    ///
    /// ```
    /// use aliasing_core::catalogue::CRC_32_ISCSI;
    /// let c = CRC_32_ISCSI.algorithm();
    /// assert_eq!(c.checksum(b"123456789"), 0xE3069283);
    /// assert_eq!(c.generator().koopman_string(), "0x8F6E37A0");
    /// ```
    pub fn algorithm(&self) -> CrcAlgorithm {
        CrcAlgorithm::builder(self.generator())
            .name(self.name)
            .init(self.init)
            .refin(self.refin)
            .refout(self.refout)
            .xorout(self.xorout)
            .check(self.check)
            .build()
    }

    /// The entry's generator polynomial.
    pub const fn generator(&self) -> Generator {
        Generator::normal_const(self.width, self.poly)
    }
}

macro_rules! entries {
    ($($c:ident => $name:literal),* $(,)?) => {
        $(
            #[doc = concat!("`", $name, "` from the CRC RevEng catalogue (through `crc::", stringify!($c), "`).")]
            pub const $c: Entry = Entry {
                name: $name,
                width: crc::$c.width as u32,
                poly: crc::$c.poly as u64,
                init: crc::$c.init as u64,
                refin: crc::$c.refin,
                refout: crc::$c.refout,
                xorout: crc::$c.xorout as u64,
                check: crc::$c.check as u64,
            };
        )*
        /// Every entry of the RevEng catalogue with width up to 64, from the `crc` crate.
        pub static ENTRIES: &[Entry] = &[$($c),*];
    };
}

entries![
    CRC_3_GSM => "CRC-3/GSM", CRC_3_ROHC => "CRC-3/ROHC",
    CRC_4_G_704 => "CRC-4/G-704", CRC_4_INTERLAKEN => "CRC-4/INTERLAKEN",
    CRC_5_EPC_C1G2 => "CRC-5/EPC-C1G2", CRC_5_G_704 => "CRC-5/G-704", CRC_5_USB => "CRC-5/USB",
    CRC_6_CDMA2000_A => "CRC-6/CDMA2000-A", CRC_6_CDMA2000_B => "CRC-6/CDMA2000-B",
    CRC_6_DARC => "CRC-6/DARC", CRC_6_G_704 => "CRC-6/G-704", CRC_6_GSM => "CRC-6/GSM",
    CRC_7_MMC => "CRC-7/MMC", CRC_7_ROHC => "CRC-7/ROHC", CRC_7_UMTS => "CRC-7/UMTS",
    CRC_8_AUTOSAR => "CRC-8/AUTOSAR", CRC_8_BLUETOOTH => "CRC-8/BLUETOOTH",
    CRC_8_CDMA2000 => "CRC-8/CDMA2000", CRC_8_DARC => "CRC-8/DARC", CRC_8_DVB_S2 => "CRC-8/DVB-S2",
    CRC_8_GSM_A => "CRC-8/GSM-A", CRC_8_GSM_B => "CRC-8/GSM-B", CRC_8_HITAG => "CRC-8/HITAG",
    CRC_8_I_432_1 => "CRC-8/I-432-1", CRC_8_I_CODE => "CRC-8/I-CODE", CRC_8_LTE => "CRC-8/LTE",
    CRC_8_MAXIM_DOW => "CRC-8/MAXIM-DOW", CRC_8_MIFARE_MAD => "CRC-8/MIFARE-MAD",
    CRC_8_NRSC_5 => "CRC-8/NRSC-5", CRC_8_OPENSAFETY => "CRC-8/OPENSAFETY", CRC_8_ROHC => "CRC-8/ROHC",
    CRC_8_SAE_J1850 => "CRC-8/SAE-J1850", CRC_8_SMBUS => "CRC-8/SMBUS", CRC_8_TECH_3250 => "CRC-8/TECH-3250",
    CRC_8_WCDMA => "CRC-8/WCDMA",
    CRC_10_ATM => "CRC-10/ATM", CRC_10_CDMA2000 => "CRC-10/CDMA2000", CRC_10_GSM => "CRC-10/GSM",
    CRC_11_FLEXRAY => "CRC-11/FLEXRAY", CRC_11_UMTS => "CRC-11/UMTS",
    CRC_12_CDMA2000 => "CRC-12/CDMA2000", CRC_12_DECT => "CRC-12/DECT", CRC_12_GSM => "CRC-12/GSM",
    CRC_12_UMTS => "CRC-12/UMTS", CRC_13_BBC => "CRC-13/BBC", CRC_14_DARC => "CRC-14/DARC",
    CRC_14_GSM => "CRC-14/GSM", CRC_15_CAN => "CRC-15/CAN", CRC_15_MPT1327 => "CRC-15/MPT1327",
    CRC_16_ARC => "CRC-16/ARC", CRC_16_CDMA2000 => "CRC-16/CDMA2000", CRC_16_CMS => "CRC-16/CMS",
    CRC_16_DDS_110 => "CRC-16/DDS-110", CRC_16_DECT_R => "CRC-16/DECT-R", CRC_16_DECT_X => "CRC-16/DECT-X",
    CRC_16_DNP => "CRC-16/DNP", CRC_16_EN_13757 => "CRC-16/EN-13757", CRC_16_GENIBUS => "CRC-16/GENIBUS",
    CRC_16_GSM => "CRC-16/GSM", CRC_16_IBM_3740 => "CRC-16/IBM-3740", CRC_16_IBM_SDLC => "CRC-16/IBM-SDLC",
    CRC_16_ISO_IEC_14443_3_A => "CRC-16/ISO-IEC-14443-3-A", CRC_16_KERMIT => "CRC-16/KERMIT",
    CRC_16_LJ1200 => "CRC-16/LJ1200", CRC_16_M17 => "CRC-16/M17", CRC_16_MAXIM_DOW => "CRC-16/MAXIM-DOW",
    CRC_16_MCRF4XX => "CRC-16/MCRF4XX", CRC_16_MODBUS => "CRC-16/MODBUS", CRC_16_NRSC_5 => "CRC-16/NRSC-5",
    CRC_16_OPENSAFETY_A => "CRC-16/OPENSAFETY-A", CRC_16_OPENSAFETY_B => "CRC-16/OPENSAFETY-B",
    CRC_16_PROFIBUS => "CRC-16/PROFIBUS", CRC_16_RIELLO => "CRC-16/RIELLO",
    CRC_16_SPI_FUJITSU => "CRC-16/SPI-FUJITSU", CRC_16_T10_DIF => "CRC-16/T10-DIF",
    CRC_16_TELEDISK => "CRC-16/TELEDISK", CRC_16_TMS37157 => "CRC-16/TMS37157", CRC_16_UMTS => "CRC-16/UMTS",
    CRC_16_USB => "CRC-16/USB", CRC_16_XMODEM => "CRC-16/XMODEM",
    CRC_17_CAN_FD => "CRC-17/CAN-FD", CRC_21_CAN_FD => "CRC-21/CAN-FD",
    CRC_24_BLE => "CRC-24/BLE", CRC_24_FLEXRAY_A => "CRC-24/FLEXRAY-A", CRC_24_FLEXRAY_B => "CRC-24/FLEXRAY-B",
    CRC_24_INTERLAKEN => "CRC-24/INTERLAKEN", CRC_24_LTE_A => "CRC-24/LTE-A", CRC_24_LTE_B => "CRC-24/LTE-B",
    CRC_24_OPENPGP => "CRC-24/OPENPGP", CRC_24_OS_9 => "CRC-24/OS-9",
    CRC_30_CDMA => "CRC-30/CDMA", CRC_31_PHILIPS => "CRC-31/PHILIPS",
    CRC_32_AIXM => "CRC-32/AIXM", CRC_32_AUTOSAR => "CRC-32/AUTOSAR", CRC_32_BASE91_D => "CRC-32/BASE91-D",
    CRC_32_BZIP2 => "CRC-32/BZIP2", CRC_32_CD_ROM_EDC => "CRC-32/CD-ROM-EDC", CRC_32_CKSUM => "CRC-32/CKSUM",
    CRC_32_ISCSI => "CRC-32/ISCSI", CRC_32_ISO_HDLC => "CRC-32/ISO-HDLC", CRC_32_JAMCRC => "CRC-32/JAMCRC",
    CRC_32_MEF => "CRC-32/MEF", CRC_32_MPEG_2 => "CRC-32/MPEG-2", CRC_32_XFER => "CRC-32/XFER",
    CRC_40_GSM => "CRC-40/GSM",
    CRC_64_ECMA_182 => "CRC-64/ECMA-182", CRC_64_GO_ISO => "CRC-64/GO-ISO", CRC_64_MS => "CRC-64/MS",
    CRC_64_NVME => "CRC-64/NVME", CRC_64_REDIS => "CRC-64/REDIS", CRC_64_WE => "CRC-64/WE", CRC_64_XZ => "CRC-64/XZ",
];

/// The aliases the CRC RevEng catalogue lists for its entries
/// (<https://reveng.sourceforge.io/crc-catalogue/all.htm>, "Alias:" of each
/// record), with the entry they name and the check value (CRC of ASCII
/// `123456789`) printed on that record. [`resolve`] takes them before the
/// everyday names of `ALIASES`, so `CRC-16/CCITT` is CRC-16/KERMIT
/// (0x2189), as RevEng has it, and `CRC-64` is CRC-64/ECMA-182.
pub static REVENG_ALIASES: &[(&str, &str, u64)] = &[
    ("CRC-4/ITU", "CRC-4/G-704", 0x7),
    ("CRC-5/EPC", "CRC-5/EPC-C1G2", 0x00),
    ("CRC-5/ITU", "CRC-5/G-704", 0x07),
    ("CRC-6/ITU", "CRC-6/G-704", 0x06),
    ("CRC-7", "CRC-7/MMC", 0x75),
    ("CRC-8/ITU", "CRC-8/I-432-1", 0xa1),
    ("CRC-8/MAXIM", "CRC-8/MAXIM-DOW", 0xa1),
    ("DOW-CRC", "CRC-8/MAXIM-DOW", 0xa1),
    ("CRC-8", "CRC-8/SMBUS", 0xf4),
    ("CRC-8/AES", "CRC-8/TECH-3250", 0x97),
    ("CRC-8/EBU", "CRC-8/TECH-3250", 0x97),
    ("CRC-10", "CRC-10/ATM", 0x199),
    ("CRC-10/I-610", "CRC-10/ATM", 0x199),
    ("CRC-11", "CRC-11/FLEXRAY", 0x5a3),
    ("X-CRC-12", "CRC-12/DECT", 0xf5b),
    ("CRC-12/3GPP", "CRC-12/UMTS", 0xdaf),
    ("CRC-15", "CRC-15/CAN", 0x059e),
    ("ARC", "CRC-16/ARC", 0xbb3d),
    ("CRC-16", "CRC-16/ARC", 0xbb3d),
    ("CRC-16/LHA", "CRC-16/ARC", 0xbb3d),
    ("CRC-IBM", "CRC-16/ARC", 0xbb3d),
    ("R-CRC-16", "CRC-16/DECT-R", 0x007e),
    ("X-CRC-16", "CRC-16/DECT-X", 0x007f),
    ("CRC-16/DARC", "CRC-16/GENIBUS", 0xd64e),
    ("CRC-16/EPC", "CRC-16/GENIBUS", 0xd64e),
    ("CRC-16/EPC-C1G2", "CRC-16/GENIBUS", 0xd64e),
    ("CRC-16/I-CODE", "CRC-16/GENIBUS", 0xd64e),
    ("CRC-16/AUTOSAR", "CRC-16/IBM-3740", 0x29b1),
    ("CRC-16/CCITT-FALSE", "CRC-16/IBM-3740", 0x29b1),
    ("CRC-16/ISO-HDLC", "CRC-16/IBM-SDLC", 0x906e),
    ("CRC-16/ISO-IEC-14443-3-B", "CRC-16/IBM-SDLC", 0x906e),
    ("CRC-16/X-25", "CRC-16/IBM-SDLC", 0x906e),
    ("CRC-B", "CRC-16/IBM-SDLC", 0x906e),
    ("X-25", "CRC-16/IBM-SDLC", 0x906e),
    ("CRC-A", "CRC-16/ISO-IEC-14443-3-A", 0xbf05),
    ("CRC-16/BLUETOOTH", "CRC-16/KERMIT", 0x2189),
    ("CRC-16/CCITT", "CRC-16/KERMIT", 0x2189),
    ("CRC-16/CCITT-TRUE", "CRC-16/KERMIT", 0x2189),
    ("CRC-16/V-41-LSB", "CRC-16/KERMIT", 0x2189),
    ("CRC-CCITT", "CRC-16/KERMIT", 0x2189),
    ("KERMIT", "CRC-16/KERMIT", 0x2189),
    ("CRC-16/MAXIM", "CRC-16/MAXIM-DOW", 0x44c2),
    ("MODBUS", "CRC-16/MODBUS", 0x4b37),
    ("CRC-16/IEC-61158-2", "CRC-16/PROFIBUS", 0xa819),
    ("CRC-16/AUG-CCITT", "CRC-16/SPI-FUJITSU", 0xe5cc),
    ("CRC-16/BUYPASS", "CRC-16/UMTS", 0xfee8),
    ("CRC-16/VERIFONE", "CRC-16/UMTS", 0xfee8),
    ("CRC-16/ACORN", "CRC-16/XMODEM", 0x31c3),
    ("CRC-16/LTE", "CRC-16/XMODEM", 0x31c3),
    ("CRC-16/V-41-MSB", "CRC-16/XMODEM", 0x31c3),
    ("XMODEM", "CRC-16/XMODEM", 0x31c3),
    ("ZMODEM", "CRC-16/XMODEM", 0x31c3),
    ("CRC-24", "CRC-24/OPENPGP", 0x21cf02),
    ("CRC-32Q", "CRC-32/AIXM", 0x3010bf7f),
    ("CRC-32D", "CRC-32/BASE91-D", 0x87315576),
    ("CRC-32/AAL5", "CRC-32/BZIP2", 0xfc891918),
    ("CRC-32/DECT-B", "CRC-32/BZIP2", 0xfc891918),
    ("B-CRC-32", "CRC-32/BZIP2", 0xfc891918),
    ("CKSUM", "CRC-32/CKSUM", 0x765e7680),
    ("CRC-32/POSIX", "CRC-32/CKSUM", 0x765e7680),
    ("CRC-32/BASE91-C", "CRC-32/ISCSI", 0xe3069283),
    ("CRC-32/CASTAGNOLI", "CRC-32/ISCSI", 0xe3069283),
    ("CRC-32/INTERLAKEN", "CRC-32/ISCSI", 0xe3069283),
    ("CRC-32C", "CRC-32/ISCSI", 0xe3069283),
    ("CRC-32/NVME", "CRC-32/ISCSI", 0xe3069283),
    ("CRC-32", "CRC-32/ISO-HDLC", 0xcbf43926),
    ("CRC-32/ADCCP", "CRC-32/ISO-HDLC", 0xcbf43926),
    ("CRC-32/V-42", "CRC-32/ISO-HDLC", 0xcbf43926),
    ("CRC-32/XZ", "CRC-32/ISO-HDLC", 0xcbf43926),
    ("PKZIP", "CRC-32/ISO-HDLC", 0xcbf43926),
    ("JAMCRC", "CRC-32/JAMCRC", 0x340bc6d9),
    ("XFER", "CRC-32/XFER", 0xbd0be338),
    ("CRC-64", "CRC-64/ECMA-182", 0x6c40df5f0b497347),
    ("CRC-64/GO-ECMA", "CRC-64/XZ", 0x995dc9bbdf1939fa),
];

/// Everyday names and what they stand for (after the catalogue's own names
/// and [`REVENG_ALIASES`]; where one spells the same as a RevEng alias it
/// names the same entry, which the tests check). A target starting with `CRC-` is a
/// catalogue name; one starting with `k:` is a bare generator in Koopman form.
pub(crate) static ALIASES: &[(&str, &str)] = &[
    ("crc32", "CRC-32/ISO-HDLC"),
    ("ethernet", "CRC-32/ISO-HDLC"),
    ("crc-32", "CRC-32/ISO-HDLC"),
    ("ieee", "CRC-32/ISO-HDLC"),
    ("zip", "CRC-32/ISO-HDLC"),
    ("crc32c", "CRC-32/ISCSI"),
    ("crc-32c", "CRC-32/ISCSI"),
    ("iscsi", "CRC-32/ISCSI"),
    ("castagnoli", "CRC-32/ISCSI"),
    ("sctp", "CRC-32/ISCSI"),
    ("crc32q", "CRC-32/AIXM"),
    ("crc32d", "CRC-32/BASE91-D"),
    ("bzip2", "CRC-32/BZIP2"),
    ("posix", "CRC-32/CKSUM"),
    ("cksum", "CRC-32/CKSUM"),
    ("mpeg2", "CRC-32/MPEG-2"),
    ("crc32k", "k:0xBA0DC66B"),
    ("koopman32", "k:0xBA0DC66B"),
    ("crc16", "CRC-16/ARC"),
    ("crc16-ibm", "CRC-16/ARC"),
    ("crc16-arc", "CRC-16/ARC"),
    ("crc16-ccitt", "CRC-16/KERMIT"),
    ("ccitt", "CRC-16/KERMIT"),
    ("crc16-ccitt-false", "CRC-16/IBM-3740"),
    ("kermit", "CRC-16/KERMIT"),
    ("x25", "CRC-16/IBM-SDLC"),
    ("hdlc16", "CRC-16/IBM-SDLC"),
    ("xmodem", "CRC-16/XMODEM"),
    ("modbus", "CRC-16/MODBUS"),
    ("usb16", "CRC-16/USB"),
    ("t10-dif", "CRC-16/T10-DIF"),
    ("crc8", "CRC-8/SMBUS"),
    ("crc8-smbus", "CRC-8/SMBUS"),
    ("crc8-autosar", "CRC-8/AUTOSAR"),
    ("crc8-maxim", "CRC-8/MAXIM-DOW"),
    ("dallas", "CRC-8/MAXIM-DOW"),
    ("crc15-can", "CRC-15/CAN"),
    ("can", "CRC-15/CAN"),
    ("crc24", "CRC-24/OPENPGP"),
    ("openpgp", "CRC-24/OPENPGP"),
    ("crc64", "CRC-64/ECMA-182"),
    ("crc64-xz", "CRC-64/XZ"),
    ("crc64-ecma", "CRC-64/ECMA-182"),
    ("crc64-iso", "CRC-64/GO-ISO"),
    ("crc64-nvme", "CRC-64/NVME"),
];

/// Named generators outside the RevEng catalogue (no register parameters).
pub(crate) static EXTRA_GENERATORS: &[(&str, &str)] = &[("CRC-32K", "k:0xBA0DC66B")];

/// The default maximal-length polynomials: `data/primitive-polynomials.txt`.
pub(crate) static PRIMITIVE_TABLE: &str = include_str!("../data/primitive-polynomials.txt");

/// The project's default primitive polynomial of `width` (3..=64).
///
/// ```
/// let g = aliasing_core::catalogue::default_primitive(16).unwrap();
/// assert!(aliasing_core::gf2::is_primitive(&g));
/// ```
pub fn default_primitive(width: u32) -> Result<Generator> {
    for line in PRIMITIVE_TABLE.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let w: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        if w == width {
            let spec = parts.next().unwrap_or("");
            return spec.parse::<Generator>();
        }
    }
    Err(Error::BadPolynomial {
        spec: width.to_string(),
        reason: format!(
            "no default primitive polynomial for width {width} (widths 3..=64 have one; \
             give a polynomial such as {width}:0x...)"
        ),
    })
}

/// A name for comparison: ASCII letters lowercased, ASCII punctuation and
/// spaces dropped. Other characters are kept, so `crc32ü` is not `crc32`.
fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_ascii() || c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
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
                let named = ENTRIES.iter().find(|e| {
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

fn entry_to_algorithm(e: &Entry) -> CrcAlgorithm {
    e.algorithm()
}

/// Looks up a catalogue entry by RevEng name or by one of the aliases the
/// catalogue lists ([`REVENG_ALIASES`]), case- and punctuation-insensitive.
///
/// ```
/// use aliasing_core::catalogue::entry;
/// assert_eq!(entry("CRC-16/CCITT").unwrap().name, "CRC-16/KERMIT");
/// assert_eq!(entry("crc-16/kermit").unwrap().check, 0x2189);
/// ```
pub fn entry(name: &str) -> Option<&'static Entry> {
    let n = normalize(name);
    ENTRIES.iter().find(|e| normalize(e.name) == n).or_else(|| {
        let (_, target, _) = REVENG_ALIASES.iter().find(|(a, _, _)| normalize(a) == n)?;
        ENTRIES.iter().find(|e| e.name == *target)
    })
}

/// Every name [`resolve`] accepts (catalogue names, RevEng aliases, extras
/// and everyday aliases).
pub fn all_names() -> Vec<&'static str> {
    let mut v: Vec<&str> = ENTRIES.iter().map(|e| e.name).collect();
    v.extend(REVENG_ALIASES.iter().map(|(n, _, _)| *n));
    v.extend(EXTRA_GENERATORS.iter().map(|(n, _)| *n));
    v.extend(ALIASES.iter().map(|(n, _)| *n));
    v
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Close matches for a misspelt name, best first.
pub(crate) fn suggestions(name: &str) -> Vec<String> {
    let n = normalize(name);
    let mut scored: Vec<(usize, &str)> = all_names()
        .into_iter()
        .map(|c| {
            let cn = normalize(c);
            let mut d = levenshtein(&n, &cn);
            if !n.is_empty() && (cn.contains(&n) || n.contains(&cn)) {
                d = d.min(1);
            }
            (d, c)
        })
        .filter(|(d, _)| *d <= 3.max(n.len() / 3))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored
        .into_iter()
        .take(5)
        .map(|(_, c)| c.to_string())
        .collect()
}

/// Resolves a CRC specification: catalogue name, alias, bare width or polynomial.
pub fn resolve(spec: &str) -> Result<CrcAlgorithm> {
    let s = spec.trim();
    if s.is_empty() {
        return Err(Error::BadPolynomial {
            spec: spec.into(),
            reason: "empty".into(),
        });
    }
    if s.chars().all(|c| c.is_ascii_digit()) {
        let w: u32 = s.parse().map_err(|_| Error::BadPolynomial {
            spec: spec.into(),
            reason: "width too large".into(),
        })?;
        if w == 0 || w > 64 {
            return Err(Error::BadPolynomial {
                spec: spec.into(),
                reason: format!("width {w} is outside 1..=64"),
            });
        }
        let g = default_primitive(w)?;
        return Ok(CrcAlgorithm::builder(g)
            .name(format!("primitive-{w}"))
            .build());
    }
    let lower = s.to_ascii_lowercase();
    if lower.starts_with("0x") || lower.contains(':') {
        return Ok(CrcAlgorithm::plain(s.parse()?));
    }
    if let Some(e) = entry(s) {
        return Ok(entry_to_algorithm(e));
    }
    let n = normalize(s);
    for (name, spec) in EXTRA_GENERATORS {
        if normalize(name) == n {
            let g: Generator = spec.parse()?;
            return Ok(CrcAlgorithm::builder(g).name(*name).build());
        }
    }
    for (alias, target) in ALIASES {
        if normalize(alias) == n {
            return resolve_target(target);
        }
    }
    Err(Error::UnknownName {
        name: s.into(),
        suggestions: suggestions(s),
    })
}

fn resolve_target(target: &str) -> Result<CrcAlgorithm> {
    if let Some(e) = entry(target) {
        return Ok(entry_to_algorithm(e));
    }
    for (name, spec) in EXTRA_GENERATORS {
        if *spec == target {
            let g: Generator = spec.parse()?;
            return Ok(CrcAlgorithm::builder(g).name(*name).build());
        }
    }
    Ok(CrcAlgorithm::plain(target.parse()?))
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::gf2;

    pub fn every_catalogue_check_value() {
        assert!(ENTRIES.len() >= 100);
        for e in ENTRIES {
            let a = entry_to_algorithm(e);
            assert_eq!(a.checksum(b"123456789"), e.check, "{}", e.name);
        }
    }

    pub fn crc_crate_constants_convert_to_their_entries() {
        assert_eq!(
            CrcAlgorithm::from(&crc::CRC_16_KERMIT),
            resolve("kermit").unwrap()
        );
        assert_eq!(CrcAlgorithm::from(&crc::CRC_8_SMBUS).name(), "CRC-8/SMBUS");
        assert_eq!(CrcAlgorithm::from(&crc::CRC_64_XZ), CRC_64_XZ.algorithm());
        // Parameters outside the catalogue: a custom CRC with the same bits
        // as the `crc` crate computes.
        const ODD: crc::Algorithm<u16> = crc::Algorithm {
            width: 16,
            poly: 0xBAAD,
            init: 0x1234,
            refin: true,
            refout: false,
            xorout: 0x00FF,
            check: 0,
            residue: 0,
        };
        let ours = CrcAlgorithm::from(&ODD);
        assert!(ours.name().starts_with("custom"), "{}", ours.name());
        let theirs = crc::Crc::<u16>::new(&ODD);
        for data in [&b"123456789"[..], b"", b"\x00\xff alias"] {
            assert_eq!(ours.checksum(data), u64::from(theirs.checksum(data)));
        }
    }

    pub fn crc32fast_agrees_on_random_buffers() {
        let a = resolve("crc32").unwrap();
        let mut x = 12345u64;
        for len in [0usize, 1, 7, 64, 1518] {
            let buf: Vec<u8> = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (x >> 56) as u8
                })
                .collect();
            let mut h = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
            let _ = &mut h;
            assert_eq!(a.checksum(&buf), h.checksum(&buf) as u64);
        }
    }

    pub fn aliases_resolve() {
        for (alias, _) in ALIASES {
            assert!(resolve(alias).is_ok(), "{alias}");
            assert!(resolve(&alias.to_uppercase()).is_ok(), "{alias}");
        }
        assert_eq!(
            resolve("CRC-32/iso-hdlc").unwrap().name(),
            "CRC-32/ISO-HDLC"
        );
        // CRC-32K (Koopman 2002): 0x741B8CD7 normal, 0xBA0DC66B in Koopman notation.
        let k = resolve("crc32k").unwrap();
        assert_eq!(k.name(), "CRC-32K");
        assert_eq!(k.generator().normal(), 0x741B_8CD7);
    }

    /// Every alias of the RevEng catalogue names its entry, whose CRC of
    /// `123456789` is the check value printed on the catalogue's record.
    pub fn reveng_aliases_name_their_entries() {
        assert!(REVENG_ALIASES.len() >= 70);
        for &(alias, name, check) in REVENG_ALIASES {
            let e = entry(name).unwrap_or_else(|| panic!("{alias}: no entry {name}"));
            assert_eq!(e.check, check, "{alias} -> {name}");
            let a = resolve(alias).unwrap();
            assert_eq!(a.name(), name, "{alias}");
            assert_eq!(a.checksum(b"123456789"), check, "{alias}");
            // no alias is also a catalogue name
            assert!(
                ENTRIES
                    .iter()
                    .all(|e| normalize(e.name) != normalize(alias)),
                "{alias}"
            );
            assert_eq!(entry(alias).unwrap().name, name, "{alias}");
        }
        let kermit = resolve("CRC-16/CCITT").unwrap();
        assert_eq!(kermit.name(), "CRC-16/KERMIT");
        assert_eq!(kermit.checksum(b"123456789"), 0x2189);
        assert_eq!(
            resolve("crc-16/ccitt-false").unwrap().name(),
            "CRC-16/IBM-3740"
        );
        assert_eq!(resolve("CRC-64").unwrap().name(), "CRC-64/ECMA-182");
    }

    /// An everyday name that spells the same as a RevEng name or alias
    /// (punctuation and case aside) names the same entry; the names are
    /// unambiguous.
    pub fn everyday_aliases_agree_with_reveng() {
        let reveng: Vec<(String, &str)> = ENTRIES
            .iter()
            .map(|e| (normalize(e.name), e.name))
            .chain(REVENG_ALIASES.iter().map(|(a, n, _)| (normalize(a), *n)))
            .collect();
        for (i, (a, _)) in reveng.iter().enumerate() {
            assert!(reveng[..i].iter().all(|(b, _)| b != a), "{a} twice");
        }
        for (alias, _) in ALIASES {
            let got = resolve(alias).unwrap();
            if let Some((_, name)) = reveng.iter().find(|(n, _)| *n == normalize(alias)) {
                assert_eq!(got.name(), *name, "{alias}");
            }
            if let Some(e) = entry(got.name()) {
                assert_eq!(got.checksum(b"123456789"), e.check, "{alias}");
            }
        }
        assert_eq!(resolve("crc16-ccitt").unwrap().name(), "CRC-16/KERMIT");
        assert_eq!(resolve("ccitt").unwrap().name(), "CRC-16/KERMIT");
        assert_eq!(resolve("crc64").unwrap().name(), "CRC-64/ECMA-182");
    }

    pub fn unknown_names_suggest() {
        match resolve("crc-32/isohdl") {
            Err(Error::UnknownName { suggestions, .. }) => {
                assert!(
                    suggestions.iter().any(|s| s == "CRC-32/ISO-HDLC"),
                    "{suggestions:?}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert!(resolve("0").is_err());
        assert!(resolve("65").is_err());
        assert!(resolve("2").is_err());
    }

    /// Rule of the table: for each width, the primitive polynomial with the
    /// fewest terms, and among those the smallest normal form.
    pub fn primitive_table_is_proved_and_follows_its_rule() {
        for w in 3..=64u32 {
            let g = default_primitive(w).unwrap();
            assert_eq!(g.width(), w);
            assert!(gf2::is_primitive(&g), "width {w}");
            // no primitive trinomial with fewer terms or a smaller value
            if g.term_count() > 3 {
                for k in 1..w {
                    let t = Generator::new(w, (1u64 << k) | 1).unwrap();
                    assert!(
                        !gf2::is_primitive(&t),
                        "width {w}: trinomial x^{k} is primitive"
                    );
                }
            } else {
                for k in 1..w {
                    let t = Generator::new(w, (1u64 << k) | 1).unwrap();
                    if t.normal() < g.normal() {
                        assert!(!gf2::is_primitive(&t), "width {w}: smaller trinomial");
                    }
                }
            }
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod data_files {
    /// The crate ships its own copies of the workspace's `data/` tables (a
    /// published crate cannot read outside its directory); they must agree.
    pub fn crate_copies_equal_the_workspace_data() {
        let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let workspace = crate_dir.join("../../data");
        if !workspace.is_dir() {
            return; // built from a published package: no workspace copy
        }
        for name in [
            "primitive-polynomials.txt",
            "koopman-hd-profiles.txt",
            "published-32bit.txt",
            "hdlen-gold.txt",
        ] {
            let ours = std::fs::read(crate_dir.join("data").join(name)).unwrap();
            let theirs = std::fs::read(workspace.join(name)).unwrap();
            assert!(
                ours == theirs,
                "crates/aliasing-core/data/{name} differs from data/{name}"
            );
        }
    }
}
