//! Expected silently corrupted frames in a large transfer.
//!
//! `cargo run --release --example transfer_10tb -- [TERABYTES] [BER] [MTU]`
//! (defaults: 10 TB, BER 1e-10, MTU 1500). Each frame is an Ethernet frame
//! of MTU + 18 bytes (header and FCS, CRC-32/ISO-HDLC) carrying an IPv4
//! packet with its header checksum and MTU - 40 bytes of TCP payload under
//! the TCP checksum. The escape per frame is the exact joint one (a frame
//! with errors that passes the FCS and both checksums), from the library
//! call behind `alias stack` (`aliasing_sim::joint::report`); beside it,
//! what the study's independence product (the FCS's P(alias | error) times
//! the TCP checksum's) would have said.

use aliasing_sim::joint::{StackParams, report};

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tb: f64 = args.first().map_or(Ok(10.0), |s| s.parse())?;
    let ber: f64 = args.get(1).map_or(Ok(1e-10), |s| s.parse())?;
    let mtu: u64 = args.get(2).map_or(Ok(1500), |s| s.parse())?;
    if !(68..=9216).contains(&mtu) {
        return Err(format!("MTU {mtu} is outside 68..=9216").into());
    }
    let frame = mtu + 18;
    let payload = mtu - 40;
    let frames = (tb * 1e12 / payload as f64).ceil();
    let params = StackParams {
        stack: "ethernet-tcp".into(),
        bytes: vec![frame],
        bers: vec![ber],
        max_weight: 5,
        samples: 50_000,
        seed: 1,
    };
    let r = report(&params, &aliasing_core::progress::Silent)?;
    let pt = &r.points[0];
    let j = &pt.joint;
    println!("{tb} TB over MTU {mtu} (frames of {frame} bytes), BER {ber:e}: {frames:.4e} frames");
    println!(
        "  frames with a bit error:        {:.4e}",
        frames * pt.p_error
    );
    match j.estimate {
        Some(q) => {
            println!(
                "  silently corrupted (joint):     {:.4e}  [{:.4e}, {:.4e}]  ({q:.4e} per frame)",
                frames * q,
                frames * j.low,
                frames * j.high
            );
            // 1 - (1 - q)^frames without cancellation
            println!(
                "  P(at least one in the transfer) = {:.4e}",
                -f64::exp_m1(frames * f64::ln_1p(-q))
            );
        }
        None => println!(
            "  silently corrupted (joint): within [{:.4e}, {:.4e}] (bracket only: {})",
            frames * j.low,
            frames * j.high,
            j.method
        ),
    }
    if let Some(x) = pt.independence_product {
        println!(
            "  what the study's independence product says: {:.4e}  (joint / product = {})",
            frames * pt.p_error * x,
            pt.ratio.map_or("-".into(), |r| format!("{r:.3e}"))
        );
    }
    println!("  method: {}", j.method);
    Ok(())
}
