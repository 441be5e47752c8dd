//! Expected undetected (silently corrupted) frames in a large transfer.
//!
//! `cargo run --release --example transfer_10tb -- [TERABYTES] [BER] [MTU]`
//! (defaults: 10 TB, BER 1e-10, MTU 1500). Each frame is an Ethernet frame
//! of MTU + 18 bytes (header and FCS) guarded by CRC-32/ISO-HDLC, carrying
//! MTU - 40 bytes of TCP payload guarded by the TCP checksum. Prints the
//! expected number of frames that pass the FCS with errors, and of those that
//! also pass the TCP checksum if the two were independent (the study's
//! assumption; `alias simulate --stack ethernet-tcp --rare` measures the joint
//! escape).

use aliasing_core::curve::{self, Method};
use aliasing_core::{catalogue, internet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tb: f64 = args.first().map_or(Ok(10.0), |s| s.parse())?;
    let ber: f64 = args.get(1).map_or(Ok(1e-10), |s| s.parse())?;
    let mtu: u64 = args.get(2).map_or(Ok(1500), |s| s.parse())?;
    let frame = mtu + 18;
    let payload = (mtu - 40) as f64;
    let frames = tb * 1e12 / payload;
    let crc = catalogue::resolve("crc32")?;
    let pt = curve::exact(&crc, &[8 * frame], &[ber], Method::Auto)?.points[0];
    let tcp = internet::curve(&[mtu - 20], &[ber])?[0];
    println!("{tb} TB over MTU {mtu} (frames of {frame} bytes), BER {ber:e}: {frames:.4e} frames");
    println!(
        "  frames with a bit error:            {:.4e}",
        frames * pt.p_error
    );
    println!(
        "  pass the FCS with errors (exact):   {:.4e}  (P_ud {:.4e} per frame)",
        frames * pt.p_undetected,
        pt.p_undetected
    );
    println!(
        "  ... and the TCP checksum too, if independent: {:.4e}  (TCP P(alias|error) {:.4e})",
        frames * pt.p_undetected * tcp.p_alias_given_error,
        tcp.p_alias_given_error
    );
    let expected = frames * pt.p_undetected;
    println!(
        "  P(at least one silent FCS escape in the transfer) = {:.4e}",
        -f64::exp_m1(-expected)
    );
    Ok(())
}
