//! Each entry at the edges of its stated domain: a request just inside is
//! accepted and computes (a probability in [0, 1], checked against an
//! independent value where one is cheap), a request just outside is refused
//! with the typed reason that names the number outside.

use super::*;
use crate::catalogue;
use crate::compare::{self, Given};
use crate::joint::{JointOptions, JointStack};

fn bers(v: &[f64]) -> Vec<Ber> {
    Ber::list(v).unwrap()
}

fn crc(name: &str) -> Generator {
    catalogue::resolve(name).unwrap().generator()
}

fn codeword<'a>(
    check: Check,
    lengths: &'a [Bits],
    bers: &'a [Ber],
    given: Option<Given<'a>>,
) -> Ask<'a> {
    Ask::Codeword {
        check,
        lengths,
        channel: Channel::Bsc(bers),
        given,
    }
}

fn refusal(e: Result<Cost>) -> Refusal {
    match e {
        Err(Error::Refused(r)) => r,
        other => panic!("not a typed refusal: {other:?}"),
    }
}

const GE: GilbertElliott = GilbertElliott {
    p_good: 1e-4,
    p_bad: 0.1,
    good_to_bad: 1e-3,
    bad_to_good: 0.1,
};

/// Check 0 of `frame` on a binary symmetric channel at `bers`.
fn placed<'a>(frame: &'a Frame, bers: &'a [Ber]) -> Ask<'a> {
    Ask::Placed {
        frame,
        index: 0,
        channel: Channel::Bsc(bers),
        weights: None,
    }
}

fn big() -> MemoryBudget {
    MemoryBudget::bytes(1e12).unwrap()
}

pub fn markov_from_width_plus_one_bits_at_every_ber() {
    let g = crc("CRC-16/ARC");
    let edge = bers(&[0.0, 1.0]);
    let ask = codeword(Check::Crc(g), &[Bits(17)], &edge, None);
    assert!(Entry::Markov.assess(&ask).is_ok());
    // n = r + 1 at BER 1: every bit flips, the all-ones word of 17 bits is
    // a codeword exactly when g divides it; at BER 0 nothing escapes
    let pts = crate::markov::p_undetected(&g, &[17], &[0.0, 0.5, 1.0], &crate::ctx::Ctx::default())
        .unwrap();
    assert_eq!(pts[0][0], 0.0);
    // BER 1/2: every non-zero error pattern equally likely, 1 of 2^17 is
    // the one non-zero codeword of length 17
    assert_eq!(pts[1][0], 2f64.powi(-17));
    assert!((0.0..=1.0).contains(&pts[2][0]));
    let short = codeword(Check::Crc(g), &[Bits(16)], &edge, None);
    assert!(matches!(
        refusal(Entry::Markov.assess(&short)),
        Refusal::Length {
            entry: Entry::Markov,
            bits: 16,
            min: 17,
            ..
        }
    ));
    let burst = Ask::Codeword {
        check: Check::Crc(g),
        lengths: &[Bits(17)],
        channel: Channel::Burst(&GE),
        given: None,
    };
    assert!(matches!(
        refusal(Entry::Markov.assess(&burst)),
        Refusal::Channel {
            entry: Entry::Markov,
            ..
        }
    ));
    let inet = codeword(Check::Internet, &[Bits(64)], &edge, None);
    assert!(matches!(
        refusal(Entry::Markov.assess(&inet)),
        Refusal::NotItsCheck { .. }
    ));
}

pub fn dual_up_to_width_32_and_ber_one_half() {
    let at = bers(&[0.0, DUAL_MAX_BER]);
    let above = bers(&[f64::from_bits(DUAL_MAX_BER.to_bits() + 1)]);
    let g32 = crc("crc32");
    assert!(
        Entry::Dual
            .assess(&codeword(Check::Crc(g32), &[Bits(33)], &at, None))
            .is_ok()
    );
    let g33 = Generator::new(33, 0x1_0000_0007).unwrap();
    assert!(matches!(
        refusal(Entry::Dual.assess(&codeword(Check::Crc(g33), &[Bits(40)], &at, None))),
        Refusal::Width {
            width: 33,
            max: 32,
            ..
        }
    ));
    let g = crc("CRC-16/ARC");
    let r = refusal(Entry::Dual.assess(&codeword(Check::Crc(g), &[Bits(40)], &above, None)));
    assert!(
        matches!(r, Refusal::Ber { entry: Entry::Dual, max: 0.5, ber, .. } if ber == above[0].get()),
        "{r}"
    );
    assert!(matches!(
        refusal(Entry::Dual.assess(&codeword(Check::Crc(g), &[Bits(16)], &at, None))),
        Refusal::Length {
            bits: 16,
            min: 17,
            ..
        }
    ));
    // inside: the dual code agrees with the chain at BER 0 and 1/2
    let d = crate::dual::curve(&g, &[17, 40], &[0.0, 0.5], &crate::ctx::Ctx::default()).unwrap();
    let m = crate::markov::p_undetected(&g, &[17, 40], &[0.0, 0.5], &crate::ctx::Ctx::default())
        .unwrap();
    for (l, &n) in [17u64, 40].iter().enumerate() {
        for (b, &p) in [0.0, 0.5].iter().enumerate() {
            let dv = d[l * 2 + b].p_undetected;
            let mv = m[b][l];
            assert!(
                dv == mv || (dv - mv).abs() <= 1e-12 * mv,
                "{n} {p}: {dv} {mv}"
            );
        }
    }
}

pub fn bracket_takes_widths_33_to_64() {
    let all = bers(&[0.0, 1.0]);
    let g33 = Generator::new(33, 0x1_0000_0007).unwrap();
    let g64 = crc("crc64-xz");
    let g32 = crc("crc32");
    for g in [g33, g64] {
        assert!(
            Entry::Bracket
                .assess(&codeword(
                    Check::Crc(g),
                    &[Bits(g.width() as u64 + 1)],
                    &all,
                    None
                ))
                .is_ok()
        );
    }
    assert!(matches!(
        refusal(Entry::Bracket.assess(&codeword(Check::Crc(g32), &[Bits(40)], &all, None))),
        Refusal::Width {
            width: 32,
            min: 33,
            max: 64,
            ..
        }
    ));
    assert!(matches!(
        refusal(Entry::Bracket.assess(&codeword(Check::Crc(g33), &[Bits(33)], &all, None))),
        Refusal::Length {
            bits: 33,
            min: 34,
            ..
        }
    ));
    // inside computes: certified bounds at BER 0 and 1 of a 33-bit CRC
    let b = crate::bracket::brackets(
        &g33,
        &[40],
        &[0.0, 1.0],
        Some(2),
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    assert_eq!((b[0].lower, b[0].upper), (0.0, 0.0));
    assert!(b[1].lower <= b[1].upper && (0.0..=1.0).contains(&b[1].upper));
    // auto: no value method fits a 64-bit CRC; the bracket answers
    let ask = codeword(Check::Crc(g64), &[Bits(12144)], &all, None);
    assert!(choose(&ask, big()).is_err());
    assert_eq!(choose_or_bracket(&ask, big()).unwrap(), Entry::Bracket);
}

pub fn gilbert_chain_up_to_width_24_on_a_burst_channel() {
    fn burst(g: Generator, lengths: &[Bits]) -> Ask<'_> {
        Ask::Codeword {
            check: Check::Crc(g),
            lengths,
            channel: Channel::Burst(&GE),
            given: None,
        }
    }
    let g24 = crc("CRC-24/OPENPGP");
    let g32 = crc("crc32");
    assert!(Entry::GilbertChain.assess(&burst(g24, &[Bits(25)])).is_ok());
    assert!(matches!(
        refusal(Entry::GilbertChain.assess(&burst(g32, &[Bits(40)]))),
        Refusal::Width {
            width: 32,
            max: 24,
            ..
        }
    ));
    assert!(matches!(
        refusal(Entry::GilbertChain.assess(&burst(g24, &[Bits(24)]))),
        Refusal::Length {
            bits: 24,
            min: 25,
            ..
        }
    ));
    let b = bers(&[0.1]);
    assert!(matches!(
        refusal(Entry::GilbertChain.assess(&codeword(Check::Crc(g24), &[Bits(40)], &b, None))),
        Refusal::Channel { .. }
    ));
    // a channel outside [0, 1] is refused by its own validation
    let bad = GilbertElliott { p_bad: 1.5, ..GE };
    let ask = Ask::Codeword {
        check: Check::Crc(g24),
        lengths: &[Bits(40)],
        channel: Channel::Burst(&bad),
        given: None,
    };
    assert!(matches!(
        Entry::GilbertChain.assess(&ask),
        Err(Error::Invalid(_))
    ));
    // auto on a burst channel takes the chain, which computes; a BSC-only
    // method never answers for a burst channel
    let g8 = crc("crc8");
    assert_eq!(
        choose(&burst(g8, &[Bits(64)]), big()).unwrap(),
        Entry::GilbertChain
    );
    let pts =
        crate::markov::gilbert::curve(&g8, &[9, 64], &GE, &crate::ctx::Ctx::new(big())).unwrap();
    assert!(pts.iter().all(|p| (0.0..=1.0).contains(&p.p_undetected)));
    assert!(matches!(
        choose(&burst(g32, &[Bits(64)]), big()),
        Err(Error::Refused(Refusal::Width {
            entry: Entry::GilbertChain,
            ..
        }))
    ));
}

pub fn internet_random_and_given_data_at_their_length_edges() {
    let edge = bers(&[0.0, 1.0]);
    let ask = |lengths: &'static [Bits], given: Option<Given<'static>>| {
        codeword(Check::Internet, lengths, &edge, given)
    };
    // random data: whole bytes from 3 (data and the field)
    let e = Entry::InternetRandom;
    assert!(e.assess(&ask(&[Bits(24)], None)).is_ok());
    assert!(matches!(
        refusal(e.assess(&ask(&[Bits(16)], None))),
        Refusal::Length {
            bits: 16,
            min: 24,
            ..
        }
    ));
    assert!(matches!(
        refusal(e.assess(&ask(&[Bits(28)], None))),
        Refusal::Length {
            bits: 28,
            step: 8,
            ..
        }
    ));
    const DATA: [u8; 4] = [1, 2, 3, 4];
    let data: &'static [u8] = &DATA;
    assert!(matches!(
        refusal(e.assess(&ask(&[Bits(48)], Some(Given::Data(data))))),
        Refusal::Data { given: true, .. }
    ));
    // given data: an even number of bytes, at least 4
    let e = Entry::InternetGiven;
    assert!(e.assess(&ask(&[Bits(32)], Some(Given::Data(data)))).is_ok());
    assert!(e.assess(&ask(&[Bits(48)], Some(Given::Data(data)))).is_ok());
    for bad in [24, 40] {
        let lengths: &'static [Bits] = if bad == 24 { &[Bits(24)] } else { &[Bits(40)] };
        assert!(matches!(
            refusal(e.assess(&ask(lengths, Some(Given::Data(data))))),
            Refusal::Length {
                min: 32,
                step: 16,
                ..
            }
        ));
    }
    assert!(matches!(
        refusal(e.assess(&ask(&[Bits(32)], None))),
        Refusal::Data { given: false, .. }
    ));
    // a captured frame: its own length only
    let frame: &'static [u8] = compare::internet_frame(data, 6).unwrap().leak();
    assert!(
        e.assess(&ask(&[Bits(48)], Some(Given::Frame(frame))))
            .is_ok()
    );
    assert!(matches!(
        refusal(e.assess(&ask(&[Bits(64)], Some(Given::Frame(frame))))),
        Refusal::Length {
            bits: 64,
            min: 48,
            max: 48,
            ..
        }
    ));
    // inside computes: BER 0 gives 0; BER 1 complements every word, field
    // included, and the ones'-complement check passes
    let inet = CheckSpec::Internet;
    let r = compare::curve(&inet, &[3], &[0.0, 1.0], None, &crate::ctx::Ctx::default()).unwrap();
    assert_eq!(r[0].p_undetected, 0.0);
    assert!((0.0..=1.0).contains(&r[1].p_undetected));
    let g = compare::curve(
        &inet,
        &[4, 6],
        &[0.0, 1.0],
        Some(Given::Data(data)),
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    assert_eq!(
        g.iter().map(|p| p.p_undetected).collect::<Vec<_>>(),
        [0.0, 0.0, 1.0, 1.0]
    );
}

pub fn fletcher16_from_3_bytes_random_data_only() {
    let edge = bers(&[0.0, 1.0]);
    let e = Entry::Fletcher16;
    let at = |n: u64| [Bits(n)];
    let ok = at(24);
    assert!(
        e.assess(&codeword(Check::Fletcher16, &ok, &edge, None))
            .is_ok()
    );
    let top = at(8 * fletcher::MAX_LEN);
    assert!(
        e.assess(&codeword(Check::Fletcher16, &top, &edge, None))
            .is_ok()
    );
    let short = at(16);
    assert!(matches!(
        refusal(e.assess(&codeword(Check::Fletcher16, &short, &edge, None))),
        Refusal::Length {
            bits: 16,
            min: 24,
            ..
        }
    ));
    let long = at(8 * (fletcher::MAX_LEN + 1));
    assert!(matches!(
        refusal(e.assess(&codeword(Check::Fletcher16, &long, &edge, None))),
        Refusal::Length { max, .. } if max == 8 * fletcher::MAX_LEN
    ));
    let data = [7u8; 4];
    assert!(matches!(
        refusal(e.assess(&codeword(
            Check::Fletcher16,
            &ok,
            &edge,
            Some(Given::Data(&data))
        ))),
        Refusal::Data { given: true, .. }
    ));
    // inside computes, against brute force over the 2^24 patterns' weights
    // at BER 0 (nothing escapes) and by the closed form at BER 1
    let v = compare::curve(
        &CheckSpec::Fletcher16,
        &[3],
        &[0.0, 1.0],
        None,
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    assert_eq!(v[0].p_undetected, 0.0);
    assert!((0.0..=1.0).contains(&v[1].p_undetected));
    // Fletcher-32 and Adler-32: no entry; the refusal names the modulus
    for (c, m) in [(Check::Fletcher32, 65535), (Check::Adler32, 65521)] {
        let ask = codeword(c, &ok, &edge, None);
        assert!(matches!(
            choose(&ask, big()),
            Err(Error::Refused(Refusal::TwoSums { modulus, .. })) if modulus == m
        ));
    }
}

pub fn placed_crc_up_to_24_bits_and_its_work_limit() {
    let edge = bers(&[0.0, 1.0]);
    let frame = |s: &str, n: usize| Frame::new(s, n, Payload::Random).unwrap();
    let ask = |f| placed(f, &edge);
    // 24 bits: inside up to n 2^24 <= 4e9 (238 bits), outside above
    let f29 = frame("CRC-24/OPENPGP", 29);
    let f30 = frame("CRC-24/OPENPGP", 30);
    assert!(Entry::PlacedCrc.assess(&ask(&f29)).is_ok());
    let r = refusal(Entry::PlacedCrc.assess(&ask(&f30)));
    assert!(
        matches!(
            r,
            Refusal::Work {
                bits: 240,
                width: 24,
                max: PLACED_MAX_WORK,
                ..
            }
        ),
        "{r}"
    );
    let f32 = frame("crc32", 64);
    assert!(matches!(
        refusal(Entry::PlacedCrc.assess(&ask(&f32))),
        Refusal::Width {
            width: 32,
            max: 24,
            ..
        }
    ));
    // the 32-bit CRC is a plain codeword: the dual code takes it up to BER
    // 1/2, the chain (if the memory allows) above
    let low = bers(&[0.0, 0.5]);
    assert_eq!(choose(&placed(&f32, &low), big()).unwrap(), Entry::Dual);
    assert_eq!(choose(&ask(&f32), big()).unwrap(), Entry::Markov);
    // a 12-bit CRC stored in 2 bytes: the chain (pad bits), not the codeword
    // methods
    let f12 = frame("CRC-12/DECT", 8);
    assert_eq!(choose(&ask(&f12), big()).unwrap(), Entry::PlacedCrc);
    assert!(matches!(
        refusal(Entry::Dual.assess(&placed(&f12, &low))),
        Refusal::Placement {
            why: Placement::NotPlainCodeword {
                field_bits: 16,
                width: 12
            },
            ..
        }
    ));
    // the stack's column: the dual weights at hand are used first, and
    // agree with the chain; weights of another length are refused
    let f16 = frame("CRC-16/ARC", 8);
    let w = crate::dual::dual_weights(
        &f16.checks[0].crc().unwrap().generator(),
        &[64],
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    let bsc = bers(&[0.25]);
    let with_weights = Ask::Placed {
        frame: &f16,
        index: 0,
        channel: Channel::Bsc(&bsc),
        weights: Some(&w[0]),
    };
    assert_eq!(choose(&with_weights, big()).unwrap(), Entry::Dual);
    let (bits, v) = placed_p_undetected(&f16, 0, Some(&w[0]), 0.25, big()).unwrap();
    let m = crate::markov::p_undetected(
        &f16.checks[0].crc().unwrap().generator(),
        &[64],
        &[0.25],
        &crate::ctx::Ctx::default(),
    )
    .unwrap()[0][0];
    assert_eq!(bits, 64);
    assert!((v - m).abs() <= 1e-12 * m, "{v} {m}");
    let w40 = crate::dual::dual_weights(
        &f16.checks[0].crc().unwrap().generator(),
        &[40],
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    let other = Ask::Placed {
        frame: &f16,
        index: 0,
        channel: Channel::Bsc(&bsc),
        weights: Some(&w40[0]),
    };
    assert!(matches!(
        refusal(Entry::Dual.assess(&other)),
        Refusal::Placement {
            why: Placement::WeightsLength { have: 40, need: 64 },
            ..
        }
    ));
    // a placed CRC on a burst channel: the Gilbert-Elliott walk
    let burst = Ask::Placed {
        frame: &f16,
        index: 0,
        channel: Channel::Burst(&GE),
        weights: None,
    };
    assert_eq!(choose(&burst, big()).unwrap(), Entry::GilbertChain);
    let b32 = Ask::Placed {
        frame: &f32,
        index: 0,
        channel: Channel::Burst(&GE),
        weights: None,
    };
    assert!(matches!(
        choose(&b32, big()),
        Err(Error::Refused(Refusal::Width {
            entry: Entry::GilbertChain,
            width: 32,
            ..
        }))
    ));
}

pub fn placed_internet_and_its_layout_refusals() {
    let edge = bers(&[0.0, 1.0]);
    let frame = Frame::new("internet", 64, Payload::Random).unwrap();
    let ask = |f| placed(f, &edge);
    assert!(Entry::PlacedInternet.assess(&ask(&frame)).is_ok());
    // inside computes: BER 0 gives 0, and the random-data method agrees
    // with the whole-frame value at a mid BER
    assert_eq!(
        placed_p_undetected(&frame, 0, None, 0.0, big()).unwrap().1,
        0.0
    );
    let (bits, v) = placed_p_undetected(&frame, 0, None, 1e-3, big()).unwrap();
    let whole = crate::internet::p_undetected(64, 1e-3).unwrap();
    assert_eq!(bits, 512);
    assert!((v - whole).abs() <= 1e-9 * whole, "{v} {whole}");
    // outside: words across ranges, a varying byte under a fixed payload,
    // the field outside the ranges
    let mut across = frame.clone();
    across.checks[0].ranges = vec![(0, 3), (3, 64)];
    let mut fixed = frame.clone();
    fixed.payload = Payload::Fixed(vec![1]);
    let mut outside = frame.clone();
    let fld = outside.checks[0].field;
    outside.checks[0].ranges = vec![(0, fld)];
    for (f, why) in [
        (&across, Placement::WordsAcrossRanges),
        (&fixed, Placement::VariesWithFixedPayload),
        (&outside, Placement::FieldOutsideRanges),
    ] {
        let r = refusal(Entry::PlacedInternet.assess(&ask(f)));
        assert!(
            matches!(&r, Refusal::Placement { why: w, .. } if *w == why),
            "{r}"
        );
    }
    // and a Fletcher-16 frame alone over random data
    let f16 = Frame::new("fletcher16", 3, Payload::Random).unwrap();
    assert_eq!(choose(&ask(&f16), big()).unwrap(), Entry::Fletcher16);
    let f32 = Frame::new("fletcher32", 8, Payload::Random).unwrap();
    assert!(matches!(
        choose(&ask(&f32), big()),
        Err(Error::Refused(Refusal::TwoSums { modulus: 65535, .. }))
    ));
}

pub fn joint_terms_take_crcs_the_dual_code_takes() {
    let inside = Frame::new("internet+CRC-8/SAE-J1850", 21, Payload::Random).unwrap();
    let ask = Ask::Stack { frame: &inside };
    assert!(Entry::JointTerms.assess(&ask).is_ok());
    let opts = JointOptions {
        max_weight: 2,
        samples: 0,
        seed: 1,
    };
    let st = JointStack::new(&inside, &opts, &crate::ctx::Ctx::default()).unwrap();
    for p in [0.0, 0.5] {
        let jp = st.at(p).unwrap();
        assert!(
            jp.low <= jp.high && (0.0..=1.0).contains(&jp.high),
            "{p} {jp:?}"
        );
    }
    let wide = Frame::new("internet+CRC-40/GSM", 33, Payload::Random).unwrap();
    assert!(matches!(
        refusal(Entry::JointTerms.assess(&Ask::Stack { frame: &wide })),
        Refusal::Width {
            width: 40,
            max: 32,
            ..
        }
    ));
    let alone = Frame::new("fletcher16", 8, Payload::Random).unwrap();
    assert!(matches!(
        Entry::JointTerms.assess(&Ask::Stack { frame: &alone }),
        Err(Error::Limit(crate::Limit::JointStack {
            rule: crate::StackRule::OneCrcAndChecksums,
            ..
        }))
    ));
    assert!(matches!(
        refusal(Entry::Markov.assess(&Ask::Stack { frame: &inside })),
        Refusal::NotItsCheck { .. }
    ));
}

/// `auto` picks what it picked before the registry on the requests of the
/// golden outputs and the guide.
pub fn auto_picks_as_before() {
    let b = |v: &[f64]| bers(v);
    let study = b(&[1e-4, 1e-5, 1e-6, 1e-7, 1e-8]);
    let curve_default: Vec<Bits> = [
        512u64, 724, 1024, 1448, 2048, 2896, 4096, 5793, 8192, 11585, 12144, 16384,
    ]
    .map(Bits)
    .to_vec();
    let budget = crate::ctx::Ctx::default().budget();
    let pick = |g: Generator, l: &[Bits], p: &[Ber]| {
        choose(&codeword(Check::Crc(g), l, p, None), budget).unwrap()
    };
    // `alias curve --crc crc32 --bytes 1518 --ber 1e-5`: the dual code
    assert_eq!(pick(crc("crc32"), &[Bits(12144)], &b(&[1e-5])), Entry::Dual);
    // every length of a 16-bit CRC: the chain; a few: the dual code
    let all: Vec<Bits> = (17..=12144).map(Bits).collect();
    assert_eq!(pick(crc("16"), &all, &study), Entry::Markov);
    assert_eq!(
        pick(crc("16"), &[Bits(512), Bits(12144)], &study),
        Entry::Dual
    );
    // the curve defaults of an 8-bit CRC and of CRC-16/ARC
    assert_eq!(pick(crc("crc8"), &curve_default, &study), Entry::Markov);
    assert_eq!(pick(crc("CRC-16/ARC"), &curve_default, &study), Entry::Dual);
    // above BER 1/2: the chain
    assert_eq!(pick(crc("16"), &[Bits(12144)], &b(&[0.7])), Entry::Markov);
    // checksums: their own entries
    let l = [Bits(512)];
    let p = b(&[1e-5]);
    let data = [1u8, 2];
    for (c, given, want) in [
        (Check::Internet, None, Entry::InternetRandom),
        (
            Check::Internet,
            Some(Given::Data(&data[..])),
            Entry::InternetGiven,
        ),
        (Check::Fletcher16, None, Entry::Fletcher16),
    ] {
        assert_eq!(choose(&codeword(c, &l, &p, given), budget).unwrap(), want);
    }
    // the simulator's exact column: a small CRC by its syndrome chain, the
    // Ethernet FCS (CRC-32 over the whole frame) by the dual code
    let f = Frame::new("crc16", 64, Payload::Random).unwrap();
    let eth = Frame::new("ethernet", 1518, Payload::Random).unwrap();
    for (frame, want) in [(&f, Entry::PlacedCrc), (&eth, Entry::Dual)] {
        let ask = Ask::Placed {
            frame,
            index: 0,
            channel: Channel::Bsc(&p),
            weights: None,
        };
        assert_eq!(choose(&ask, budget).unwrap(), want, "{}", frame.stack);
    }
}

pub fn refusals_are_one_line_and_name_no_option() {
    let g = crc("CRC-16/ARC");
    let above = bers(&[0.7]);
    let lengths = [Bits(40)];
    let asks = [
        codeword(Check::Crc(g), &lengths, &above, None),
        codeword(Check::Fletcher32, &lengths, &above, None),
        codeword(Check::Fletcher16, &lengths, &above, Some(Given::Data(&[1]))),
    ];
    for ask in &asks {
        for &e in Entry::ALL {
            if let Err(err) = e.assess(ask) {
                let s = err.to_string();
                assert!(!s.contains('\n') && !s.contains("--"), "{e}: {s}");
            }
        }
        if let Err(err) = choose(ask, big()) {
            let s = err.to_string();
            assert!(!s.contains('\n') && !s.contains("--"), "{s}");
        }
    }
    assert_eq!(
        refusal(Entry::Dual.assess(&asks[0])).to_string(),
        "the dual-code method handles bit error rates up to 0.5, not 0.7"
    );
}

pub fn the_domain_table_lists_every_entry() {
    let t = domain_table();
    assert_eq!(t.lines().count(), Entry::ALL.len() + 1 + 2);
    for e in Entry::ALL {
        assert!(t.contains(e.domain().method), "{e}");
    }
    assert!(t.contains(&format!("widths 1 to {}", dual::MAX_WIDTH)));
    assert!(t.contains(&format!("widths 1 to {}", markov::gilbert::MAX_WIDTH)));
}

/// The guide quotes [`domain_table`] between its markers (the simulator's
/// sweep test checks the same page); `ALIAS_GOLDEN_UPDATE=1` writes it.
pub fn the_guide_quotes_the_domain_table() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/guide/exact-methods.md"
    );
    let page = std::fs::read_to_string(path).unwrap();
    let (begin, end) = ("<!-- domains:begin -->\n", "<!-- domains:end -->");
    let start = page.find(begin).expect("the begin marker") + begin.len();
    let stop = page[start..].find(end).expect("the end marker") + start;
    let want = domain_table();
    if std::env::var("ALIAS_GOLDEN_UPDATE").is_ok_and(|v| v == "1") {
        std::fs::write(path, format!("{}{want}{}", &page[..start], &page[stop..])).unwrap();
        return;
    }
    assert_eq!(&page[start..stop], want, "rerun with ALIAS_GOLDEN_UPDATE=1");
}
