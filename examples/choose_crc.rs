//! Choose a CRC for a frame size and a target escape rate.
//!
//! `cargo run --release --example choose_crc -- [BYTES] [BER] [TARGET]`
//! (defaults: 1518-byte frames, BER 1e-6, target 1e-15 undetected frames
//! per frame). For every candidate the exact P(undetected) per frame
//! (Markov chain or dual code, whichever is cheaper) and the Hamming
//! distance at that length; candidates meeting the target are marked.

use aliasing_core::ctx::Ctx;
use aliasing_core::curve::{self, Method, Request};
use aliasing_core::units::{Ber, Bits};
use aliasing_core::{catalogue, lowweight};

const CANDIDATES: &[&str] = &[
    "CRC-8/SMBUS",
    "CRC-16/IBM-3740",
    "CRC-16/ARC",
    "CRC-24/OPENPGP",
    "CRC-32/ISO-HDLC",
    "CRC-32/ISCSI",
    "crc32k",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bytes: u64 = args.first().map_or(Ok(1518), |s| s.parse())?;
    let ber: f64 = args.get(1).map_or(Ok(1e-6), |s| s.parse())?;
    let target: f64 = args.get(2).map_or(Ok(1e-15), |s| s.parse())?;
    let bits = 8 * bytes;
    let ctx = Ctx::from_env()?;
    println!(
        "frame {bytes} bytes ({bits} bits incl. check), BER {ber:e}, target P_ud <= {target:e}"
    );
    println!(
        "{:<18} {:>5} {:>14} {:>16} {:>7}  meets",
        "CRC", "HD", "P_ud/frame", "P(alias|error)", "method"
    );
    for name in CANDIDATES {
        let crc = catalogue::resolve(name)?;
        let req = Request::for_crc(&crc, &[Bits(bits)], &[Ber::new(ber)?])?;
        let res = curve::exact(&req, Method::Auto, &ctx)?;
        let pt = res.points[0];
        // Hamming distance at this data length from the HD profile.
        let data_bits = bits - crc.width() as u64;
        let profile = lowweight::hd_profile(&crc.generator(), Some(8))?;
        let hd = profile
            .entries
            .iter()
            .filter(|e| e.max_data_bits >= data_bits)
            .map(|e| e.hd)
            .max()
            .map_or("2".to_string(), |h| h.to_string());
        println!(
            "{:<18} {:>5} {:>14.4e} {:>16.4e} {:>7}  {}",
            res.name,
            hd,
            pt.p_undetected,
            pt.p_alias_given_error,
            res.method.name(),
            if pt.p_undetected <= target {
                "yes"
            } else {
                "no"
            }
        );
    }
    Ok(())
}
