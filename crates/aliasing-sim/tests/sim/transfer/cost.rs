//! The tests of `aliasing_sim::transfer::cost` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_sim::transfer::KeptFrame;
use aliasing_sim::transfer::cost::*;
use aliasing_sim::transfer::{Tallies, TransferParams};

/// The cost model reads only a kept frame's length (this distribution,
/// of a 2-bit check at 3 bits, is never read).
fn no_dual() -> aliasing_core::weights::DualWeights {
    aliasing_core::weights::DualWeights::new(3, 2, vec![1, 0, 3, 0]).unwrap()
}

fn params(stack: &str, mtus: Vec<u64>, bers: Vec<f64>) -> TransferParams {
    TransferParams::new(stack, 10_u128.pow(13), mtus, bers, vec![1])
}

#[test]
fn kept_lengths_and_ber_zero_cost_nothing() {
    let p = params("ethernet-tcp", vec![1500, 9000], vec![1e-6]);
    let all = estimate_seconds(&p, &Tallies::new(&p), 1);
    // two 32-bit dual passes at least
    assert!(all > 2.0 * UNIT_SECONDS.dual_state * 2f64.powi(32), "{all}");
    // one length kept: only the other one's work
    let mut kept = Tallies::new(&p);
    let one = params("ethernet-tcp", vec![9000], vec![1e-6]);
    kept.frames.push(KeptFrame {
        bytes: 1518,
        tally: Default::default(),
        dual: no_dual(),
    });
    let rest = estimate_seconds(&p, &kept, 1);
    assert_eq!(rest, estimate_seconds(&one, &Tallies::new(&one), 1));
    assert!(rest < all);
    // both kept, or BER 0 only: nothing
    kept.frames.push(KeptFrame {
        bytes: 9018,
        tally: Default::default(),
        dual: no_dual(),
    });
    assert_eq!(estimate_seconds(&p, &kept, 1), 0.0);
    let zero = params("ethernet-tcp", vec![1500, 9000], vec![0.0]);
    assert_eq!(estimate_seconds(&zero, &Tallies::new(&zero), 1), 0.0);
    // threads divide it
    assert_eq!(estimate_seconds(&p, &Tallies::new(&p), 4), all / 4.0);
}

#[test]
fn the_model_grows_with_the_work() {
    let t = |stack: &str, mtu: u64, w: u32, samples: u64| {
        let mut p = params(stack, vec![mtu], vec![1e-6]);
        p.max_weight = w;
        p.samples = samples;
        estimate_seconds(&p, &Tallies::new(&p), 1)
    };
    // longer frames, higher weights, draws: more
    assert!(t("ethernet-tcp", 1500, 4, 0) < t("ethernet-tcp", 9000, 4, 0));
    assert!(t("ethernet-tcp", 1500, 4, 0) < t("ethernet-tcp", 1500, 5, 0));
    assert!(t("ethernet-tcp", 1500, 5, 0) < t("ethernet-tcp", 1500, 5, 50_000));
    // weight 5 is not enumerated at 9000 (the pair limit): no change
    assert_eq!(t("ethernet-tcp", 9000, 4, 0), t("ethernet-tcp", 9000, 5, 0));
    // weight 4 at 9018 bytes: CRC-32 is primitive, its search is the
    // Zech scan (plus about 7e6 placements), cheaper than the probes
    // that CRC-32C (the factor x + 1) needs
    let pairs = |bytes: f64| (8.0 * bytes) * (8.0 * bytes) / 2.0;
    let crc32 = t("ethernet-tcp", 9000, 4, 0) - t("ethernet-tcp", 9000, 3, 0);
    assert!(crc32 > UNIT_SECONDS.zech4 * pairs(9018.0), "{crc32}");
    assert!(crc32 < UNIT_SECONDS.probe4 * pairs(9018.0), "{crc32}");
    let c = "ipv4-tcp+CRC-32C";
    let crc32c = t(c, 9000, 4, 0) - t(c, 9000, 3, 0);
    assert!(crc32c > UNIT_SECONDS.probe4 * pairs(9004.0), "{crc32c}");
    // a 16-bit CRC: the dual pass is nothing, the codewords many; the
    // weight-4 placements of a 1502-byte frame are about 1e9: a minute
    // or more (the request that once took minutes in a test)
    let arc = t("ipv4-tcp+CRC-16/ARC", 1500, 4, 0);
    assert!(arc > 60.0, "{arc}");
    assert!(t("ipv4-tcp+CRC-16/ARC", 68, 4, 0) < 0.1);
    // CRC-16/ARC is (x+1) times a primitive: no odd-weight codewords,
    // so weight 5 adds only its search
    let (a4, a5) = (
        t("ipv4-tcp+CRC-16/ARC", 200, 4, 0),
        t("ipv4-tcp+CRC-16/ARC", 200, 5, 0),
    );
    let n = 8.0 * 202.0;
    let search5 = UNIT_SECONDS.pair5 * n * n / 2.0;
    assert!(
        ((a5 - a4) - search5).abs() <= 1e-9 * a5,
        "{a4} {a5} {search5}"
    );
}

#[test]
fn a_payload_file_costs_a_pass_per_mtu_and_model() {
    let mut p = params("ethernet-tcp", vec![1500, 9000], vec![0.0]);
    p.payload_file = Some("data.bin".into());
    p.size = 1_000_000_000;
    p.corruption = vec!["word:1e-6".parse().unwrap(), "bits:1e-7".parse().unwrap()];
    let s = estimate_seconds(&p, &Tallies::new(&p), 1);
    let want = 2.0 * 1e9 * (UNIT_SECONDS.file_byte_word + UNIT_SECONDS.file_byte_bits);
    assert!((s - want).abs() <= 1e-12 * want, "{s} vs {want}");
    // over uniform data (no file) nothing is read
    p.payload_file = None;
    assert_eq!(estimate_seconds(&p, &Tallies::new(&p), 1), 0.0);
}

/// The three requests of the calibration table (module notes), with
/// the CPU seconds measured for each: the model within a factor of 2.
#[test]
fn the_calibration_requests_are_within_a_factor_of_2() {
    const MEASURED: [f64; 3] = [29.3, 19.9, 3.3];
    let tb = 10_u128.pow(12);
    let first = TransferParams::new(
        "ethernet-tcp",
        10 * tb,
        vec![1500, 9000],
        vec![1e-6, 1e-8, 1e-10, 1e-12],
        vec![1],
    );
    let second = TransferParams::new("ethernet-tcp", tb, vec![68, 9216], vec![1e-6], vec![1, 255]);
    let mut third = TransferParams::new(
        "ethernet-tcp",
        1_000_000_000,
        vec![1500, 9000],
        vec![1e-10],
        vec![1],
    );
    third.payload_file = Some("data.bin".into());
    third.corruption = vec!["word:1e-6".parse().unwrap(), "bits:1e-7".parse().unwrap()];
    let mut kept = Tallies::new(&third);
    for bytes in [1518, 9018] {
        kept.frames.push(KeptFrame {
            bytes,
            tally: Default::default(),
            dual: no_dual(),
        });
    }
    for (name, p, kept, measured) in [
        ("first", &first, Tallies::new(&first), MEASURED[0]),
        ("second", &second, Tallies::new(&second), MEASURED[1]),
        ("third", &third, kept, MEASURED[2]),
    ] {
        let model = estimate_seconds(p, &kept, 1);
        println!("{name}: model {model:.1} s, measured {measured} s");
        assert!(
            model > measured / 2.0 && model < measured * 2.0,
            "{name}: {model} vs {measured}"
        );
    }
}
