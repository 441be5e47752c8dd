//! End-to-end tests of `alias hd` and `alias weights`.

use crate::util::alias_code_out_err as alias;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = alias(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("valid JSON")
}

#[test]
fn hd_profile_of_crc32_is_koopmans() {
    // Published: Koopman, hdlen.cpp 1.1.0 and CRC Zoo (data/koopman-hd-profiles.txt)
    let v = json(&["hd", "--crc", "crc32", "--format", "json"]);
    let want = [
        4294967263u64,
        91607,
        2974,
        268,
        171,
        91,
        57,
        34,
        21,
        12,
        10,
        10,
        10,
    ];
    let got: Vec<u64> = v["profile"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(got, want);
    assert_eq!(v["crc"]["name"], "CRC-32/ISO-HDLC");
    assert_eq!(v["crc"]["width"], 32);
    assert_eq!(v["crc"]["full"], "0x104C11DB7");
    assert_eq!(v["crc"]["koopman"], "0x82608EDB");
    let ex = v["examples"].as_array().unwrap();
    assert_eq!(ex.len(), want.len());
    assert_eq!(ex[2]["hd"], 5);
    assert_eq!(ex[2]["pattern_bits"], 3007);
    assert_eq!(ex[2]["positions"], serde_json::json!([0, 2215, 2866, 3006]));
}

#[test]
fn hd_table_and_max_hd() {
    let (code, out, _) = alias(&["hd", "--crc", "CRC-32/ISO-HDLC", "--max-hd", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("{4294967263,91607,2974}"), "{out}");
    let (code, out, _) = alias(&[
        "hd",
        "--crc",
        "k:0x82608EDB",
        "--max-hd",
        "5",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("hd,max_data_bits,"), "{out}");
    assert_eq!(out.lines().count(), 4);
}

#[test]
fn weights_by_both_methods_agree_and_hit_the_hd5_boundary() {
    for method in ["dual", "syndromes"] {
        for (bits, a4) in [(2974 + 32, 0u64), (2975 + 32, 1)] {
            let v = json(&[
                "weights",
                "--crc",
                "crc16",
                "--bits",
                "100",
                "--max-weight",
                "4",
                "--format",
                "json",
                "--method",
                method,
            ]);
            assert_eq!(v["weights"][0]["count"], 1);
            if method == "syndromes" {
                // the 32-bit boundary by meet-in-the-middle is cheap
                let b = bits.to_string();
                let v = json(&[
                    "weights",
                    "--crc",
                    "crc32",
                    "--bits",
                    &b,
                    "--max-weight",
                    "4",
                    "--format",
                    "json",
                    "--method",
                    method,
                ]);
                assert_eq!(v["weights"][4]["count"], a4);
                assert_eq!(v["bits"], bits);
            }
        }
    }
    // the two methods agree on a 16-bit CRC
    let a = json(&[
        "weights",
        "--crc",
        "0x11021",
        "--bits",
        "3000",
        "--max-weight",
        "4",
        "--format",
        "json",
        "--method",
        "dual",
    ]);
    let b = json(&[
        "weights",
        "--crc",
        "0x11021",
        "--bits",
        "3000",
        "--max-weight",
        "4",
        "--format",
        "json",
        "--method",
        "syndromes",
    ]);
    assert_eq!(a["weights"], b["weights"]);
}

#[test]
fn weights_json_counts_and_dual() {
    let v = json(&[
        "weights",
        "--crc",
        "0x11021",
        "--bits",
        "4000",
        "--max-weight",
        "8",
        "--dual",
        "--format",
        "json",
    ]);
    let w = v["weights"].as_array().unwrap();
    assert_eq!(w.len(), 9);
    // A_8 exceeds 2^53: written as an exact decimal string
    assert!(w[8]["count"].is_string(), "{}", w[8]);
    let d: u64 = v["dual"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["count"].as_u64().unwrap())
        .sum();
    assert_eq!(d, 1 << 16);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        &["hd", "--crc", "nonsense-crc"][..],
        &["hd", "--crc", "crc32", "--max-hd", "2"],
        &["weights", "--crc", "crc32", "--bits", "0"],
        &[
            "weights",
            "--crc",
            "crc32",
            "--bits",
            "100",
            "--max-weight",
            "7",
            "--method",
            "syndromes",
        ],
        &["weights", "--crc", "64", "--bits", "100", "--dual"],
        &["weights", "--crc", "crc32", "--bits", "5000000000"],
        &[
            "weights",
            "--crc",
            "48",
            "--bits",
            "100000000",
            "--max-weight",
            "3",
        ],
    ] {
        let (code, out, err) = alias(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

/// The burst rows of `alias hd --format json` against bursts counted here by
/// polynomial division (every pattern with both end bits set, at several
/// starts): none of length <= r escapes, 2^-(r-1) of length r + 1, 2^-r
/// longer.
#[test]
fn hd_burst_guarantees_match_enumeration() {
    for (spec, full) in [("CRC-8/SMBUS", 0x107u64), ("CRC-12/DECT", 0x180F)] {
        let v = json(&["hd", "--crc", spec, "--format", "json"]);
        let r = 63 - full.leading_zeros();
        let rows = v["bursts"].as_array().unwrap();
        assert_eq!(rows.len(), 3);
        let rem = |mut a: u64| {
            while a != 0 && 63 - a.leading_zeros() >= r {
                a ^= full << (63 - a.leading_zeros() - r);
            }
            a
        };
        // Share undetected of bursts of length b at start s.
        let share = |b: u32, s: u32| {
            let mid = b.saturating_sub(2);
            let bad = (0..1u64 << mid)
                .filter(|&m| {
                    let body = if b == 1 { 1 } else { 1 | 1 << (b - 1) | m << 1 };
                    rem(body << s) == 0
                })
                .count();
            bad as f64 / (1u64 << mid) as f64
        };
        for s in [0, 3, 11] {
            for b in 1..=r {
                assert_eq!(share(b, s), 0.0, "{spec} b={b}");
            }
            assert_eq!(
                share(r + 1, s),
                rows[1]["undetected_fraction"].as_f64().unwrap()
            );
            for b in r + 2..=r + 5 {
                assert_eq!(
                    share(b, s),
                    rows[2]["undetected_fraction"].as_f64().unwrap()
                );
            }
        }
        assert_eq!(rows[0]["undetected_fraction"], 0.0);
        assert_eq!(rows[0]["max_length"], r);
        assert_eq!(rows[0]["enumerated_to"], r);
        assert_eq!(rows[1]["min_length"], r + 1);
        assert_eq!(
            rows[1]["undetected_fraction"].as_f64().unwrap(),
            2f64.powi(1 - r as i32)
        );
        assert_eq!(rows[2]["min_length"], r + 2);
        assert!(rows[2]["max_length"].is_null());
        assert_eq!(
            rows[2]["undetected_fraction"].as_f64().unwrap(),
            2f64.powi(-(r as i32))
        );
    }
    let (code, out, _) = alias(&["hd", "--crc", "crc32"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("1-32") && out.contains("2^-31") && out.contains("2^-32"),
        "{out}"
    );
}

#[test]
fn hd_of_a_period_limited_generator_is_koopmans() {
    // Issue 13: `alias hd --crc k:0xa2572962` used to give up after 15 s;
    // Koopman publishes HD=3 and HD=4 limits of 73,678,013 data bits
    // (data/koopman-period-limited.txt). The weight-3 question is answered
    // by discrete logarithms (aliasing_core::trinomial).
    let v = json(&[
        "hd",
        "--crc",
        "k:0xa2572962",
        "--max-hd",
        "5",
        "--format",
        "json",
    ]);
    let p = v["profile"].as_array().unwrap();
    assert_eq!(p[0], 73678013u64);
    assert_eq!(p[1], 73678013u64);
    // the HD-5 limit: a weight-4 codeword one data bit further, checked here
    // against the generator by polynomial division of the pattern
    let ex = &v["examples"][2];
    let n = ex["pattern_bits"].as_u64().unwrap();
    let pos: Vec<u64> = ex["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(pos.len(), 4);
    assert_eq!(*pos.last().unwrap() + 1, n);
    let g: u128 = 0x144AE52C5;
    let mut rem = 0u128; // the pattern mod g, highest position first
    for i in (0..n).rev() {
        rem = (rem << 1) | pos.contains(&i) as u128;
        if rem >> 32 & 1 == 1 {
            rem ^= g;
        }
    }
    assert_eq!(rem, 0);
}

/// hdlen's gold profiles over 32 bits (data/hdlen-gold.txt: 40bits.gold and
/// 64bits.gold) come out whole with no options; the library test
/// `every_hdlen_gold_profile` runs all 363.
#[test]
fn hd_over_32_bits_is_complete_by_default() {
    let gold = include_str!("../../../../data/hdlen-gold.txt");
    let mut wide = 0;
    for line in gold.lines().filter(|l| !l.starts_with('#')) {
        let (k, want) = line.split_once(' ').unwrap();
        if k.len() <= 2 + 8 {
            continue; // 32 bits and less
        }
        wide += 1;
        let (code, out, err) = alias(&["hd", "--crc", &format!("k:{k}")]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains(&format!("# HD profile, data bits: {want}\n")),
            "{k}: {out}"
        );
        assert!(!out.contains("incomplete"), "{out}");
        let v = json(&["hd", "--crc", &format!("k:{k}"), "--format", "json"]);
        assert!(v.get("stopped").is_none(), "{v}");
    }
    assert_eq!(wide, 2);
}

/// Where the budget runs out, the header and the JSON say which HDs were
/// settled and how far the next was searched; a larger budget reaches
/// further, and what was reported clear stays clear.
#[test]
fn hd_budget_stop_is_reported() {
    let (code, out, err) = alias(&["hd", "--crc", "crc64-xz", "--budget", "1e6"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("# incomplete: HD 3 to 4 settled; the search for HD 5 stopped"),
        "{out}"
    );
    assert!(
        out.contains("# HD profile, data bits: {8589606850,8589606850}, then HD >= 6 up to "),
        "{out}"
    );
    let small = json(&[
        "hd", "--crc", "crc64-xz", "--budget", "1e6", "--format", "json",
    ]);
    let big = json(&[
        "hd", "--crc", "crc64-xz", "--budget", "4e6", "--format", "json",
    ]);
    for v in [&small, &big] {
        assert_eq!(
            v["profile"],
            serde_json::json!([8589606850u64, 8589606850u64])
        );
        assert_eq!(v["stopped"]["searched_hd"], 5);
        assert_eq!(v["stopped"]["hd_at_least"], 6);
    }
    let (a, b) = (
        small["stopped"]["clear_to_bits"].as_u64().unwrap(),
        big["stopped"]["clear_to_bits"].as_u64().unwrap(),
    );
    // weight-4 probes grow as L^2/2: four times the budget, twice the span
    assert!(a > 1000 && b > a * 19 / 10 && b < a * 21 / 10, "{a} {b}");
    // CRC-32 with too small a budget for HD 5 (ends at 2974 data bits)
    let v = json(&[
        "hd", "--crc", "crc32", "--budget", "1e5", "--format", "json",
    ]);
    assert_eq!(v["profile"], serde_json::json!([4294967263u64, 91607]));
    let clear = v["stopped"]["clear_to_bits"].as_u64().unwrap();
    assert!(clear > 32 + 100 && clear <= 2974 + 32, "{clear}");
    for bad in ["-1", "nan", "inf"] {
        let (code, _, err) = alias(&["hd", "--crc", "crc32", "--budget", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// x^e mod g over GF(2), for a generator of width 64 given without its
/// x^64 term (`low`): an oracle independent of the library's period code.
fn x_pow_mod64(low: u64, mut e: u128) -> u64 {
    let mulmod = |a: u64, b: u64| {
        let (mut acc, mut a) = (0u64, a);
        for i in 0..64 {
            if b >> i & 1 == 1 {
                acc ^= a;
            }
            let carry = a >> 63 == 1;
            a <<= 1;
            if carry {
                a ^= low;
            }
        }
        acc
    };
    let (mut result, mut base) = (1u64, 2u64);
    while e > 0 {
        if e & 1 == 1 {
            result = mulmod(result, base);
        }
        base = mulmod(base, base);
        e >>= 1;
    }
    result
}

#[test]
fn hd3_of_a_primitive_64_bit_generator_reaches_2_pow_64() {
    // primitive-64 is 0x1000000000000001B: x^64 + x^4 + x^3 + x + 1, of
    // period 2^64 - 1 (checked here from the factors of 2^64 - 1), so
    // 1 + x^(2^64 - 1) is the first weight-2 codeword: HD 3 holds up to
    // 2^64 - 1 bits, that is 2^64 - 1 - 64 data bits; the pattern is 2^64
    // bits long, one past the largest u64
    let e = u64::MAX as u128;
    assert_eq!(x_pow_mod64(0x1B, e), 1);
    for q in [3u128, 5, 17, 257, 641, 65537, 6700417] {
        assert_ne!(x_pow_mod64(0x1B, e / q), 1, "factor {q}");
    }
    let v = json(&["hd", "--crc", "64", "--max-hd", "3", "--format", "json"]);
    assert_eq!(v["crc"]["full"], "0x1000000000000001B");
    assert_eq!(v["profile"], serde_json::json!([u64::MAX - 64]));
    let ex = &v["examples"][0];
    assert_eq!(ex["max_data_bits"], serde_json::json!(u64::MAX - 64));
    assert_eq!(ex["pattern_weight"], 2);
    assert_eq!(ex["positions"], serde_json::json!([0, u64::MAX]));
    // 2^64, written exactly
    let text = alias(&["hd", "--crc", "64", "--max-hd", "3", "--format", "json"]).1;
    assert!(
        text.contains("\"pattern_bits\": \"18446744073709551616\""),
        "{text}"
    );
    let table = alias(&["hd", "--crc", "64", "--max-hd", "3"]).1;
    assert!(
        table.contains(
            "18446744073709551551  18446744073709551616               2  0 18446744073709551615"
        ),
        "{table}"
    );
}
