//! Expected silently corrupted frames in a large transfer.
//!
//! `cargo run --release --example transfer_10tb -- [TERABYTES] [BER] [MTU] [HOPS]`
//! (defaults: 10 TB, BER 1e-10, MTU 1500, 1 hop). One library call,
//! `aliasing_sim::transfer::report` (the one behind `alias transfer`): each
//! frame is an Ethernet frame of MTU + 18 bytes (header and FCS,
//! CRC-32/ISO-HDLC) carrying an IPv4 packet with its header checksum and
//! MTU - 40 bytes of TCP payload under the TCP checksum. The escape per
//! frame is the exact joint one (a frame with errors that passes the FCS and
//! both checksums, `alias stack`'s value at one hop); dropped frames are
//! resent, and every hop checks and regenerates the FCS. Beside it, what the
//! study's independence product (the FCS's P(alias | error) times the TCP
//! checksum's) would have said.

use aliasing_sim::transfer::{TransferParams, report};

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tb: u64 = args.first().map_or(Ok(10), |s| s.parse())?;
    let ber: f64 = args.get(1).map_or(Ok(1e-10), |s| s.parse())?;
    let mtu: u64 = args.get(2).map_or(Ok(1500), |s| s.parse())?;
    let hops: u32 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let size = u128::from(tb) * 1_000_000_000_000;
    let params = TransferParams::new("ethernet-tcp", size, vec![mtu], vec![ber], vec![hops]);
    // refuses a bad MTU, BER, size or hop count before any work
    let doc = report(&params, &aliasing_core::ctx::Ctx::default())?;
    let pt = &doc.points[0];
    let j = &pt.joint_per_frame;
    println!(
        "{tb} TB over MTU {mtu} (frames of {} bytes), BER {ber:e}, {hops} hop(s): {} frames",
        pt.frame_bytes, pt.frames
    );
    if let Some(sent) = pt.frames_sent {
        println!("  frames sent, resent ones included: {sent:.4e}");
    }
    match (j.estimate, pt.escapes.estimate) {
        (Some(q), Some(e)) => {
            println!(
                "  silently corrupted (joint):     {e:.4e}  [{:.4e}, {:.4e}]  ({q:.4e} per frame sent)",
                pt.escapes.low, pt.escapes.high
            );
            if let Some(p1) = pt.p_at_least_one.estimate {
                println!("  P(at least one in the transfer) = {p1:.4e}");
            }
            if let Some(b) = pt.bytes_per_escape {
                println!("  bytes moved per escape:         {b:.4e}");
            }
        }
        _ => println!(
            "  silently corrupted (joint): within [{:.4e}, {:.4e}] (bracket only)",
            pt.escapes.low, pt.escapes.high
        ),
    }
    if let Some(x) = pt.independence_escapes {
        println!("  what the study's independence product says: {x:.4e}");
    }
    println!("  method: {}", j.method);
    Ok(())
}
