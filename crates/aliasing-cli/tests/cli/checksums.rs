//! The checksums' exact values against the dense simulator on the same
//! frame, at the edges of the BER range, and the Internet checksum's given
//! data (`--payload`, `--payload-hex`) against `simulate --payload`.

use crate::util::alias;

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let o = alias(&a);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON document")
}

/// One-line refusal with exit code 2.
fn refused(args: &[&str]) -> String {
    let o = alias(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    err
}

/// Wilson score interval at 99.9% (z = 3.2905) for `k` of `n`.
fn interval999(k: f64, n: f64) -> (f64, f64) {
    let z = 3.2905f64;
    let ph = k / n;
    let d = 1.0 + z * z / n;
    let c = (ph + z * z / (2.0 * n)) / d;
    let h = z * (ph * (1.0 - ph) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}

/// The exact value `curve` prints, and the simulator's count and exact
/// column for the same frame.
fn curve_and_simulation(check: &str, bytes: &str, ber: &str, frames: &str) -> (f64, f64, f64, f64) {
    let c = json(&["curve", "--check", check, "--bytes", bytes, "--ber", ber]);
    let exact = c["points"][0]["p_undetected"].as_f64().unwrap();
    let s = json(&[
        "simulate", "--stack", check, "--bytes", bytes, "--ber", ber, "--frames", frames, "--seed",
        "11", "--engine", "dense",
    ]);
    let chk = &s["checks"][0];
    (
        exact,
        chk["escapes"].as_f64().unwrap(),
        s["frames"].as_f64().unwrap(),
        chk["exact"].as_f64().unwrap_or(f64::NAN),
    )
}

#[test]
fn fletcher16_curve_agrees_with_dense_simulation_at_every_ber_it_prints() {
    // 64 bytes: near BER 1 (the complement symmetry) and at 1/2 and 1
    // (at 0.99, 5e4 frames in the test command: about 290 escapes)
    let frames99 = if crate::util::full_tier() {
        "2e5"
    } else {
        "5e4"
    };
    for (ber, frames) in [
        ("0.99", frames99),
        ("0.999", "2e4"),
        ("1", "2e4"),
        ("0.5", "1e5"),
    ] {
        let (exact, k, n, sim_exact) = curve_and_simulation("fletcher16", "64", ber, frames);
        // one frame, one meaning: the simulator prints the same exact value
        assert_eq!(exact, sim_exact, "{ber}");
        let (lo, hi) = interval999(k, n);
        assert!(
            lo <= exact && exact <= hi,
            "{ber}: {exact} not in [{lo}, {hi}]"
        );
    }
    // a longer frame in mid range, where P >= 1e-4 is out of reach: the
    // value is 2^-16 within 1%
    let c = json(&[
        "curve",
        "--check",
        "fletcher16",
        "--bytes",
        "1500",
        "--ber",
        "0.3,0.7",
    ]);
    for pt in c["points"].as_array().unwrap() {
        let v = pt["p_undetected"].as_f64().unwrap();
        assert!((v * 65536.0 - 1.0).abs() < 0.01, "{pt}");
    }
    // the points: values at each (the whole-frame sum at 0.9; the
    // loop above compares 0.99 and 1 with the simulator, the sweep the mid
    // range)
    let c = json(&[
        "curve",
        "--check",
        "fletcher16",
        "--bytes",
        "64",
        "--ber",
        "0.9,0.99,1",
    ]);
    let pts = c["points"].as_array().unwrap();
    assert_eq!(pts.len(), 3, "{c}");
    let v = pts[0]["p_undetected"].as_f64().unwrap();
    assert!((v * 65536.0 - 1.0).abs() < 0.01, "{v}");
    // short frames at low BER are refused in one line, naming the bound
    let e = refused(&[
        "curve",
        "--check",
        "fletcher16",
        "--bytes",
        "8",
        "--ber",
        "1e-6",
    ]);
    assert!(
        e.contains("not certified exact") && e.contains("simulate"),
        "{e}"
    );
    // Fletcher-32 and Adler-32 print no exact value at all
    for c in ["fletcher32", "adler32"] {
        let e = refused(&["curve", "--check", c, "--bytes", "64", "--ber", "0.99"]);
        assert!(e.contains("simulate"), "{e}");
    }
}

/// The exact column of `simulate --stack internet --payload pattern:HEX`
/// for the frame of `bytes` bytes.
fn simulated_exact(hex: &str, bytes: &str, ber: &str) -> f64 {
    let pattern = format!("pattern:{}", hex.replace(' ', ""));
    let s = json(&[
        "simulate",
        "--stack",
        "internet",
        "--payload",
        &pattern,
        "--bytes",
        bytes,
        "--ber",
        ber,
        "--frames",
        "100",
        "--seed",
        "1",
    ]);
    s["checks"][0]["exact"].as_f64().unwrap()
}

#[test]
fn internet_given_data_is_the_simulators_frame() {
    // data of an even number of bytes (an IPv4 header's first words, a text,
    // all zeros, all ones): the field is computed from them
    let bers = [
        "0", "1e-300", "1e-12", "1e-6", "1e-3", "0.1", "0.5", "0.9", "0.99", "1",
    ];
    for hex in [
        "4500 0073 0000 4000",
        "48656c6c6f2c20776f726c6421",
        "00000000",
        "ffffffffffff",
    ] {
        let n = hex.replace(' ', "").len() / 2;
        if n % 2 == 1 {
            // an odd number of data bytes leaves the field off a word boundary
            let e = refused(&[
                "curve",
                "--check",
                "internet",
                "--payload-hex",
                hex,
                "--ber",
                "1",
            ]);
            assert!(e.contains("even number of data bytes"), "{e}");
            continue;
        }
        let c = json(&[
            "curve",
            "--check",
            "internet",
            "--payload-hex",
            hex,
            "--ber",
            &bers.join(","),
        ]);
        let pts = c["points"].as_array().unwrap();
        assert_eq!(pts.len(), bers.len());
        for (pt, ber) in pts.iter().zip(bers) {
            let v = pt["p_undetected"].as_f64().unwrap();
            assert_eq!(pt["bits"].as_u64().unwrap(), 8 * (n as u64 + 2), "{hex}");
            let sim = simulated_exact(hex, &(n + 2).to_string(), ber);
            assert_eq!(v, sim, "{hex} at {ber}");
        }
        // every bit flipped: every word complemented, the sum still 0xFFFF
        assert_eq!(
            pts.last().unwrap()["p_undetected"].as_f64().unwrap(),
            1.0,
            "{hex}"
        );
        assert!(
            c["method"].as_str().unwrap().contains("field computed"),
            "{c}"
        );
    }
    // lengths: the data repeated or cut, as the simulator fills its frames
    let c = json(&[
        "curve",
        "--check",
        "internet",
        "--payload-hex",
        "0102",
        "--bytes",
        "8,12",
        "--ber",
        "1e-2",
    ]);
    for (pt, b) in c["points"].as_array().unwrap().iter().zip(["8", "12"]) {
        assert_eq!(
            pt["p_undetected"].as_f64().unwrap(),
            simulated_exact("0102", b, "1e-2")
        );
    }
    // compare says the same
    let v = json(&[
        "compare",
        "--checks",
        "internet",
        "--payload-hex",
        "4500 0073 0000 4000",
        "--ber",
        "1",
    ]);
    assert_eq!(v["data"], "payload");
    assert_eq!(v["points"][0]["p_undetected"].as_f64().unwrap(), 1.0);
    assert_eq!(v["points"][0]["bytes"].as_u64().unwrap(), 10);
}

#[test]
fn a_captured_frame_is_verified() {
    // 4500 0073 0000 4000 carries no valid field: refused in one line
    for cmd in ["curve", "compare"] {
        let mut a = vec![cmd, "--frame-hex", "4500 0073 0000 4000", "--ber", "1e-3"];
        if cmd == "curve" {
            a.extend(["--check", "internet"]);
        } else {
            a.extend(["--checks", "internet"]);
        }
        let e = refused(&a);
        assert!(e.contains("does not verify") && e.contains("0x8573"), "{e}");
    }
    // the frame a sender builds from that data verifies, and means the same
    // as the data
    let data = "4500007300004000";
    let frame = "45000073000040007a8c";
    let by_frame = json(&[
        "curve",
        "--check",
        "internet",
        "--frame-hex",
        frame,
        "--ber",
        "1e-3,0.99,1",
    ]);
    let by_data = json(&[
        "curve",
        "--check",
        "internet",
        "--payload-hex",
        data,
        "--ber",
        "1e-3,0.99,1",
    ]);
    assert_eq!(by_frame["points"], by_data["points"]);
    assert!(by_frame["method"].as_str().unwrap().contains("verified"));
    // a captured frame has one length
    let e = refused(&[
        "curve",
        "--check",
        "internet",
        "--frame-hex",
        frame,
        "--bytes",
        "8",
        "--ber",
        "1e-3",
    ]);
    assert!(e.contains("one length"), "{e}");
    // a CRC's frame is verified too: "123456789" and CRC-16/ARC 0xBB3D,
    // stored little-endian (reflected out)
    let ok = json(&[
        "curve",
        "--crc",
        "CRC-16/ARC",
        "--frame-hex",
        "3132333435363738393dbb",
        "--ber",
        "1e-3",
    ]);
    assert_eq!(ok["points"][0]["bits"].as_u64().unwrap(), 88);
    let e = refused(&[
        "curve",
        "--crc",
        "CRC-16/ARC",
        "--frame-hex",
        "313233343536373839bb3d",
        "--ber",
        "1e-3",
    ]);
    assert!(e.contains("does not verify"), "{e}");
    // the options exclude each other; bad hex names the frame option
    let e = refused(&[
        "curve",
        "--check",
        "internet",
        "--frame-hex",
        "abc",
        "--ber",
        "1e-3",
    ]);
    assert!(e.contains("--frame-hex"), "{e}");
    let o = alias(&[
        "curve",
        "--check",
        "internet",
        "--frame-hex",
        frame,
        "--payload-hex",
        data,
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_crc_of_12_bits_names_its_frame_in_curve_and_simulate() {
    // curve --bytes 64: a 512-bit codeword, 500 data bits; simulate --bytes
    // 64: 496 data bits, the CRC in 2 bytes with 4 pad bits. Both say so,
    // and the two agree once they describe the same frame.
    let ber = 1e-3f64;
    let c = json(&[
        "curve",
        "--crc",
        "CRC-12/DECT",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
    ]);
    assert!(c["method"].as_str().unwrap().contains("4 pad bits"), "{c}");
    assert_eq!(c["points"][0]["data_bits"], 500);
    let t = alias(&[
        "curve",
        "--crc",
        "CRC-12/DECT",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
    ]);
    let table = String::from_utf8_lossy(&t.stdout);
    assert!(table.lines().any(|l| l.starts_with("frame: ")), "{table}");
    let s = alias(&[
        "simulate",
        "--stack",
        "CRC-12/DECT",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--frames",
        "100",
        "--seed",
        "1",
    ]);
    let head = String::from_utf8_lossy(&s.stdout);
    assert!(
        head.contains("stored in 2 bytes, 4 pad bits") && head.contains("--bits 508"),
        "{head}"
    );
    let sim = json(&[
        "simulate",
        "--stack",
        "CRC-12/DECT",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--frames",
        "100",
        "--seed",
        "1",
    ])["checks"][0]["exact"]
        .as_f64()
        .unwrap();
    let cw = json(&[
        "curve",
        "--crc",
        "CRC-12/DECT",
        "--bits",
        "508",
        "--ber",
        "1e-3",
    ])["points"][0]["p_undetected"]
        .as_f64()
        .unwrap();
    let same = (1.0 - ber).powi(4) * cw;
    assert!((same / sim - 1.0).abs() < 1e-12, "{same} vs {sim}");
    // the 64-byte codeword of curve is another frame, and differs
    let other = c["points"][0]["p_undetected"].as_f64().unwrap();
    assert!((other / sim - 1.0).abs() > 1e-3);
    // byte-aligned widths: one frame, no note
    let c16 = json(&[
        "curve",
        "--crc",
        "CRC-16/ARC",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
    ]);
    assert!(!c16["method"].as_str().unwrap().contains("frame"));
}
