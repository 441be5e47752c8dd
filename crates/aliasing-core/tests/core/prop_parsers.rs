//! Property tests of the library's parsers: generator specs in every
//! notation, CRC and check names, burst (Gilbert-Elliott) specs, curve
//! methods, memory budgets and stack descriptions (`INNER+CRC`). Arbitrary
//! text never panics and gets a typed, one-line error; every value written
//! by the library reads back equal.

use aliasing_core::Error;
use aliasing_core::catalogue;
use aliasing_core::channel::GilbertElliott;
use aliasing_core::check::CheckSpec;
use aliasing_core::curve::Method;
use aliasing_core::layout::{Frame, Payload, StackSpec};
use aliasing_core::poly::{Generator, Notation};
use aliasing_core::units::MemoryBudget;
use proptest::prelude::*;

/// Text that looks like the specs users type: hex, digits, prefixes,
/// separators, signs, exponents, stray unicode.
fn spec_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("0x".to_string()),
        Just("0X".to_string()),
        Just("k:".to_string()),
        Just("r:".to_string()),
        Just("r32:".to_string()),
        Just(":".to_string()),
        Just(",".to_string()),
        Just("_".to_string()),
        Just("-".to_string()),
        Just("e".to_string()),
        Just(".".to_string()),
        Just(" ".to_string()),
        Just("crc".to_string()),
        Just("CRC-32/".to_string()),
        Just("é".to_string()),
        "[0-9]{1,25}",
        "[0-9a-fA-F]{1,40}",
        "[a-z]{1,6}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|v| v.concat())
}

/// Text that looks like stack descriptions: inner layouts, `+`, CRC names
/// and specs, junk.
fn stack_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("+".to_string()),
        Just(" ".to_string()),
        prop::sample::select(vec![
            "random",
            "internet",
            "tcp",
            "ipv4-tcp",
            "ethernet-tcp",
            "ethernet",
            "fletcher16",
            "fletcher32",
            "adler32",
            "adler",
            "inet",
            "crc32",
            "crc32c",
            "CRC-16/ARC",
            "CRC-8/SMBUS",
            "CRC-16/XMODEM",
            "16:0x1021",
            "k:0x8810",
            "5",
            "crc16",
        ])
        .prop_map(String::from),
        spec_like(),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|v| v.concat())
}

/// A valid generator of any width 1..=64.
fn generator() -> impl Strategy<Value = Generator> {
    (1u32..=64, any::<u64>()).prop_map(|(w, v)| {
        let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
        Generator::new(w, (v & mask) | 1).expect("odd value within the width")
    })
}

/// A library error message is one line when the input is.
fn one_line(input: &str, e: &Error) -> Result<(), TestCaseError> {
    let m = e.to_string();
    prop_assert!(!m.is_empty());
    if !input.contains(['\n', '\r']) {
        prop_assert!(!m.contains('\n'), "two lines for {input:?}: {m}");
    }
    Ok(())
}

/// `default` cases, or `PROPTEST_CASES` where set (the fuzz profile:
/// `PROPTEST_CASES=10000 cargo test -p aliasing-core --test core prop_parsers::`).
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn generator_specs_never_panic(s in spec_like()) {
        if let Err(e) = s.parse::<Generator>() {
            one_line(&s, &e)?;
            prop_assert!(matches!(e, Error::BadPolynomial { .. }), "{e:?}");
        }
    }

    #[test]
    fn generator_any_text_never_panics(s in any::<String>()) {
        if let Err(e) = s.parse::<Generator>() {
            one_line(&s, &e)?;
        }
    }

    #[test]
    fn generator_round_trips_in_every_notation(g in generator()) {
        for n in [Notation::Full, Notation::Normal, Notation::Koopman, Notation::Reversed] {
            let text = g.to_notation(n);
            prop_assert_eq!(text.parse::<Generator>().unwrap(), g, "{:?} {}", n, text);
        }
        // the serde form (full) and the bare prefixes with their width
        let json = serde_json::to_string(&g).unwrap();
        prop_assert_eq!(serde_json::from_str::<Generator>(&json).unwrap(), g);
        let w = g.width();
        prop_assert_eq!(format!("{w}:k:{}", g.koopman_string()).parse::<Generator>().unwrap(), g);
        prop_assert_eq!(format!("{w}:r:{}", g.reversed_string()).parse::<Generator>().unwrap(), g);
        prop_assert_eq!(format!("{w}:{}", g.full_string()).parse::<Generator>().unwrap(), g);
        prop_assert_eq!(g.full_string().to_lowercase().parse::<Generator>().unwrap(), g);
        prop_assert_eq!(Generator::from_koopman(w, g.koopman()).unwrap(), g);
        prop_assert_eq!(Generator::from_reversed(w, g.reversed()).unwrap(), g);
        prop_assert_eq!(Generator::from_full(g.full()).unwrap(), g);
    }

    /// A generator with its width overstated is refused, not reinterpreted.
    #[test]
    fn koopman_with_wrong_width_is_refused(g in generator(), extra in 1u32..8) {
        let w = g.width() + extra;
        if w <= 64 {
            prop_assert!(Generator::from_koopman(w, g.koopman()).is_err());
            let e = format!("{w}:k:{}", g.koopman_string()).parse::<Generator>().unwrap_err();
            one_line("", &e)?;
        }
    }

    #[test]
    fn crc_names_never_panic(s in spec_like()) {
        match catalogue::resolve(&s) {
            Ok(alg) => prop_assert!((1..=64).contains(&alg.width())),
            Err(e) => {
                one_line(&s, &e)?;
                prop_assert!(
                    matches!(e, Error::BadPolynomial { .. } | Error::UnknownName { .. }),
                    "{e:?}"
                );
            }
        }
        if let Err(e) = s.parse::<CheckSpec>() {
            one_line(&s, &e)?;
        }
    }

    /// Every catalogue name resolves, in any case and with punctuation
    /// dropped, to the same algorithm; a misspelling is an unknown name.
    #[test]
    fn catalogue_names_resolve_in_any_spelling(i in any::<prop::sample::Index>(), upper in any::<bool>()) {
        let names = catalogue::all_names();
        let name = names[i.index(names.len())];
        let a = catalogue::resolve(name).unwrap();
        let respelt = if upper { name.to_uppercase() } else { name.to_lowercase() };
        let b = catalogue::resolve(&respelt).unwrap();
        prop_assert_eq!(&a.generator(), &b.generator());
        prop_assert_eq!(a.name().to_string(), b.name().to_string());
        // the check table resolves CRC names to the same CRC (names it
        // knows as checksums, `ip` and the like, excepted)
        if let Ok(CheckSpec::Crc(c)) = name.parse::<CheckSpec>() {
            prop_assert_eq!(c.generator(), a.generator());
        }
        // a stray letter, ASCII or not, makes an unknown name
        for typo in [format!("{name}qqq"), format!("{name}ü"), format!("😀{name}")] {
            prop_assert!(catalogue::resolve(&typo).is_err(), "{typo}");
        }
    }

    #[test]
    fn bare_widths(w in 0u64..200) {
        let r = catalogue::resolve(&w.to_string());
        if (3..=64).contains(&w) {
            prop_assert_eq!(r.unwrap().width() as u64, w);
        } else if let Err(e) = r {
            one_line("", &e)?;
        }
    }

    /// Any description at any length: a frame whose filled-in checks all
    /// pass, or a typed one-line error; never a panic.
    #[test]
    fn stack_descriptions_never_panic(s in stack_like(), bytes in 0usize..200) {
        match Frame::new(&s, bytes, Payload::Random) {
            Ok(f) => {
                prop_assert_eq!(f.template.len(), bytes);
                prop_assert_eq!(f.stack.as_str(), s.trim());
                let payload: Vec<u8> =
                    (0..f.random.1 - f.random.0).map(|i| (i * 37 + bytes) as u8).collect();
                prop_assert!(f.verify_all(&f.sent(&payload)), "{s} at {bytes}");
            }
            Err(e) => {
                one_line(&s, &e)?;
                prop_assert!(
                    matches!(
                        e,
                        Error::BadStack { .. }
                            | Error::BadLength(_)
                            | Error::BadPolynomial { .. }
                            | Error::UnknownName { .. }
                            | Error::Invalid(_)
                    ),
                    "{e:?}"
                );
                // a description that parses fails only on its length
                if s.parse::<StackSpec>().is_ok() {
                    prop_assert!(matches!(e, Error::BadLength(_)), "{s}: {e:?}");
                }
            }
        }
    }

    #[test]
    fn burst_specs_never_panic(s in spec_like()) {
        if let Err(e) = s.parse::<GilbertElliott>() {
            one_line(&s, &e)?;
            prop_assert!(matches!(e, Error::Invalid(_)), "{e:?}");
        }
    }

    #[test]
    fn burst_specs_round_trip(
        pg in 0.0f64..=1.0, pb in 0.0f64..=1.0, g2b in 0.0f64..=1.0, b2g in 0.0f64..=1.0,
    ) {
        let text = format!("{pg:e},{pb:e},{g2b:e},{b2g:e}");
        match text.parse::<GilbertElliott>() {
            Ok(ge) => {
                prop_assert_eq!(ge.to_string(), text.clone());
                prop_assert_eq!(ge.to_string().parse::<GilbertElliott>().unwrap(), ge);
            }
            Err(e) => {
                // only both transitions 0 is refused
                prop_assert!(g2b + b2g == 0.0, "{text}: {e}");
            }
        }
        for bad in [format!("{pg},{pb},{g2b}"), format!("{pg},{pb},{g2b},{b2g},1"),
                    format!("{},{pb},{g2b},{b2g}", pg + 1.5), format!("-{},{pb},{g2b},{b2g}", pg + 0.5)] {
            let e = bad.parse::<GilbertElliott>().unwrap_err();
            one_line(&bad, &e)?;
        }
    }

    #[test]
    fn methods(s in spec_like()) {
        match s.parse::<Method>() {
            Ok(m) => prop_assert_eq!(m.name(), s.trim().to_ascii_lowercase()),
            Err(e) => one_line(&s, &e)?,
        }
    }

    #[test]
    fn memory_budgets(s in spec_like(), v in 1u64..1_000_000, unit in 0usize..5) {
        if let Some(b) = MemoryBudget::parse(&s) {
            prop_assert!(b.get().is_finite() && b.get() > 0.0, "{s}: {}", b.get());
        }
        let suffix = ["", "K", "M", "G", "T"][unit];
        let b = MemoryBudget::parse(&format!("{v}{suffix}")).unwrap();
        prop_assert_eq!(b.get(), v as f64 * (1u64 << (10 * unit)) as f64);
    }
}

#[test]
fn named_methods_and_budgets_read_back() {
    for m in Method::ALL {
        assert_eq!(m.name().parse::<Method>().unwrap(), *m);
        assert_eq!(m.to_string().to_uppercase().parse::<Method>().unwrap(), *m);
    }
    // finite and positive, or refused: an overflowing product is not a budget
    assert!(MemoryBudget::parse("1e300T").is_none_or(|b| b.get().is_finite()));
}

/// The command line's value syntax (`aliasing_core::parse`): length lists
/// and ranges, exact counts, BER lists, hex bytes.
mod value_syntax {
    use aliasing_core::parse::{MAX_LENGTH, bers, hex, lengths, whole_number};

    proptest::proptest! {
        /// Any text: a sorted list of lengths in 1..=MAX_LENGTH, or one
        /// line `invalid length: ...`; never a panic.
        #[test]
        fn any_text(s in "[0-9a-z:,._ +-]{0,24}|\\PC{0,16}") {
            match lengths(&s) {
                Ok(v) => {
                    proptest::prop_assert!(!v.is_empty());
                    proptest::prop_assert!(v.windows(2).all(|w| w[0] < w[1]));
                    proptest::prop_assert!(v[0] >= 1 && *v.last().unwrap() <= MAX_LENGTH);
                }
                Err(e) => {
                    let m = e.to_string();
                    proptest::prop_assert!(m.starts_with("invalid length"), "{}", m);
                    proptest::prop_assert!(!m.contains('\n') || s.contains('\n'));
                }
            }
        }

        /// A list printed as digits, in exponent form or as a range reads
        /// back as the same values.
        #[test]
        fn round_trips(v in proptest::collection::vec(1u64..=MAX_LENGTH, 1..6), step in 1u64..1000) {
            let mut want = v.clone();
            want.sort_unstable();
            want.dedup();
            let digits: Vec<String> = v.iter().map(u64::to_string).collect();
            proptest::prop_assert_eq!(lengths(&digits.join(",")).unwrap(), want.clone());
            let exp: Vec<String> = v.iter().map(|x| format!("{:e}", *x as f64)).collect();
            proptest::prop_assert_eq!(lengths(&exp.join(", ")).unwrap(), want);
            let (a, b) = (v[0].min(MAX_LENGTH - 5000), v[0].min(MAX_LENGTH - 5000) + 3 * step);
            let range: Vec<u64> = (0..=3).map(|k| a + k * step).collect();
            proptest::prop_assert_eq!(lengths(&format!("{a}:{b}:{step}")).unwrap(), range);
            proptest::prop_assert_eq!(whole_number(&format!("{}", v[0])), Ok(v[0]));
        }

        /// Every u64 reads back exactly as digits and in exponent form
        /// with all its digits (`d.ddde+k`).
        #[test]
        fn every_u64_exact(v in proptest::prelude::any::<u64>()) {
            proptest::prop_assert_eq!(whole_number(&v.to_string()), Ok(v));
            let d = v.to_string();
            let exp = format!("{}.{}e{}", &d[..1], &d[1..], d.len() - 1);
            proptest::prop_assert_eq!(whole_number(&exp), Ok(v));
        }
    }

    proptest::proptest! {
        /// Any text: BERs in [0, 1], or one line; never a panic.
        #[test]
        fn ber_lists_never_panic(s in "[0-9e.,+-]{0,16}|\\PC{0,12}") {
            match bers(&s) {
                Ok(v) => proptest::prop_assert!(v.iter().all(|p| (0.0..=1.0).contains(p))),
                Err(e) => {
                    let m = e.to_string();
                    proptest::prop_assert!(!m.contains('\n') || s.contains('\n'), "{}", m);
                }
            }
        }

        /// BERs printed in exponent or plain form read back bit for bit,
        /// down to the smallest normal number.
        #[test]
        fn ber_lists_round_trip(v in proptest::collection::vec(0.0f64..=1.0, 1..5), tiny in -307i32..0) {
            let mut v = v;
            v.push(10f64.powi(tiny));
            let exp: Vec<String> = v.iter().map(|p| format!("{p:e}")).collect();
            proptest::prop_assert_eq!(bers(&exp.join(",")).unwrap(), v.clone());
            let plain: Vec<String> = v.iter().map(|p| format!("{p}")).collect();
            proptest::prop_assert_eq!(bers(&plain.join(" , ")).unwrap(), v);
        }

        /// Hex bytes printed read back; odd or non-hex text is refused in one line.
        #[test]
        fn hex_bytes(b in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..32), s in "\\PC{0,12}") {
            let text: String = b.iter().map(|x| format!("{x:02x} ")).collect();
            proptest::prop_assert_eq!(hex(&format!("0x{text}")).unwrap(), b);
            if let Err(e) = hex(&s) {
                proptest::prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }
}
