//! The tests of `aliasing_sim::exact` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_core::__private::markov::walk::escape_of_translations;
use aliasing_core::ctx::Ctx;
use aliasing_sim::__private::sparse::crc_bit_table;
use aliasing_sim::stack::{Frame, Payload};

/// The DP over the per-position table against the core's Markov chain
/// over register states (an independent method), 1e-12 relative.
#[test]
fn dynamic_program_matches_markov_chain() {
    for (stack, bytes) in [("crc16", 64usize), ("CRC-16/IBM-3740", 200), ("crc8", 1518)] {
        let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
        let c = &frame.checks[0];
        let alg = c.crc().unwrap();
        let table = crc_bit_table(&frame, c);
        for p in [1e-7, 1e-4, 1e-2, 0.3] {
            let dp = escape_of_translations(alg.width(), &table, p);
            let mk = aliasing_core::markov::p_undetected(
                &alg.generator(),
                &[8 * bytes as u64],
                &[p],
                &Ctx::default(),
            )
            .unwrap()[0][0];
            assert!((dp / mk - 1.0).abs() < 1e-12, "{stack} {p}: {dp} {mk}");
        }
    }
}

/// Brute force over all 2^n error patterns of a tiny frame, each frame
/// checked by computing its CRC as a receiver would (so the syndrome
/// table is tested too).
#[test]
fn exact_value_matches_brute_force_on_real_frames() {
    for (stack, bytes) in [("4:0x3", 2usize), ("crc8", 2), ("CRC-5/USB", 2)] {
        let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
        let c = &frame.checks[0];
        let table = crc_bit_table(&frame, c);
        let mut sent = vec![0xA5u8; bytes];
        frame.fill_field(0, &mut sent);
        let n = 8 * bytes;
        let undetected: Vec<u32> = (1u32..(1 << n))
            .filter(|&e| {
                let mut got = sent.clone();
                for i in (0..n as u32).filter(|i| e >> i & 1 == 1) {
                    let (byte, mask) = frame.bit_at(i);
                    got[byte] ^= mask;
                }
                frame.verify(0, &got)
            })
            .map(u32::count_ones)
            .collect();
        assert!(!undetected.is_empty());
        for p in [1e-3f64, 0.1, 0.5] {
            let brute: f64 = undetected
                .iter()
                .map(|&w| p.powi(w as i32) * (1.0 - p).powi(n as i32 - w as i32))
                .sum();
            let exact = escape_of_translations(8, &table, p);
            assert!(
                (exact / brute - 1.0).abs() < 1e-12,
                "{stack} {p}: {exact} {brute}"
            );
        }
    }
}
