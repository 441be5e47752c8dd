//! Exact aliasing curve of a CRC by the dual-code method, with timings:
//! `cargo run --release --example dual_curve -- crc32 12144 1e-15,1e-12,1e-9,1e-6,1e-5,1e-3,0.1,0.5`
//!
//! Prints one line per (length, BER): P_undetected and P(alias | error),
//! then the time spent on the dual weights and on the evaluation.
use aliasing_core::{catalogue, dual, highprec};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let crc = catalogue::resolve(args.get(1).map(String::as_str).unwrap_or("crc32"))?;
    let lengths: Vec<u64> = args
        .get(2)
        .map(String::as_str)
        .unwrap_or("12144")
        .split(',')
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let bers: Vec<f64> = args
        .get(3)
        .map(String::as_str)
        .unwrap_or("1e-15,1e-12,1e-9,1e-6,1e-5,1e-3,0.1,0.5")
        .split(',')
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let g = crc.generator();
    let t0 = Instant::now();
    let duals = dual::dual_weights(&g, &lengths, &aliasing_core::ctx::Ctx::from_env()?)?;
    let t1 = Instant::now();
    println!(
        "# {} {}: cycle method {:?}",
        crc.name(),
        g.full_string(),
        // which walker the dual pass takes (internal, not a stable API)
        aliasing_core::__private::dual::cycle_method(&g)
    );
    println!("bits,ber,p_undetected,p_alias_given_error");
    for d in &duals {
        for &p in &bers {
            let pud = highprec::p_undetected(d, p)?;
            let pt = aliasing_core::bsc::CurvePoint::new(p, d.bits, g.width() as u64, pud);
            println!(
                "{},{:e},{:.15e},{:.15e}",
                d.bits, p, pud, pt.p_alias_given_error
            );
        }
    }
    let t2 = Instant::now();
    eprintln!(
        "dual weights: {:.2} s; evaluation of {} points: {:.3} s",
        (t1 - t0).as_secs_f64(),
        duals.len() * bers.len(),
        (t2 - t1).as_secs_f64()
    );
    Ok(())
}
