//! Round trips of every document type, the envelope's tag checks, and
//! legacy (untagged) documents.

use super::*;
use crate::bsc::CurvePoint;
use crate::search::Standing;
use serde_json::json;

/// Serialize (tagged, both key orders) -> deserialize -> equal.
fn round_trip<D: Document + PartialEq + std::fmt::Debug>(doc: &D) {
    let v = serde_json::to_value(Tagged::new(doc)).unwrap();
    assert_eq!(v["kind"], D::KIND);
    assert_eq!(v["schema"], SCHEMA);
    assert_eq!(&from_value::<D>(v).unwrap(), doc);
    for text in [to_json(doc).unwrap(), to_json_sorted(doc).unwrap()] {
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(&from_value::<D>(v).unwrap(), doc, "{text}");
    }
}

fn point(bits: u64, ber: f64, pud: f64) -> CurvePoint {
    CurvePoint::new(ber, bits, 16, pud)
}

fn crc16() -> CheckInfo {
    CheckInfo::from(&crate::catalogue::resolve("crc16").unwrap())
}

pub fn curve_round_trips_with_and_without_channel() {
    let pts = vec![
        point(40, 1e-3, 5.029784313938283e-14),
        point(100, 1e-40, 1e-300),
    ];
    round_trip(&Curve::new(crc16(), "markov", pts.clone(), None));
    let ge = crate::channel::GilbertElliott {
        p_good: 1e-5,
        p_bad: 0.1,
        good_to_bad: 1e-3,
        bad_to_good: 0.2,
    };
    let c = Curve::new(
        CheckInfo::named("Internet", 16),
        "x",
        pts,
        Some((&ge).into()),
    );
    round_trip(&c);
    // the checksum's generator forms are written as null
    let v = serde_json::to_value(Tagged::new(&c)).unwrap();
    assert!(v["check"]["full"].is_null() && v.get("crc").is_none());
}

pub fn bracket_round_trips_counts_beyond_u64() {
    let b = crate::bracket::Bracket {
        bits: 512,
        ber: 1e-6,
        lower: 1e-30,
        upper: 2e-30,
        counts: vec![1, 0, u128::MAX],
    };
    let doc = BracketDoc::new(crc16(), vec![BracketPoint::new(&b, ">=4".into())]);
    round_trip(&doc);
    let v = serde_json::to_value(Tagged::new(&doc)).unwrap();
    assert_eq!(v["points"][0]["low_weights"][2], u128::MAX.to_string());
}

pub fn compare_round_trips() {
    let mut c = CompareCheck::new("Internet", 16);
    c.exact = Some(false);
    c.note = Some("no exact method".into());
    let pts = vec![
        ComparePoint::new("Internet", &point(512, 1e-5, 1e-15), Some(64)),
        ComparePoint::new("Internet", &point(600, 1e-5, 1e-15), None),
    ];
    round_trip(&Compare::new(Some("random".into()), vec![c], pts.clone()));
    round_trip(&Compare::new(None, vec![], pts));
}

pub fn hd_round_trips_from_a_real_profile() {
    let crc = crate::catalogue::resolve("crc8").unwrap();
    let prof = crate::lowweight::hd_profile(&crc.generator(), None).unwrap();
    let bursts = crate::burst::profile(&crc.generator(), 1 << 10).unwrap();
    let doc = Hd::new((&crc).into(), &prof, bursts);
    assert!(!doc.examples.is_empty());
    assert_eq!(
        doc.examples[0].pattern_bits,
        u128::from(doc.profile[0]) + 1 + 8
    );
    round_trip(&doc);
}

pub fn weights_round_trip_big_counts() {
    let big = Count(dashu_int::UBig::from(3u8).pow(100));
    let ws = vec![
        WeightCount {
            w: 0,
            count: 1u64.into(),
        },
        WeightCount {
            w: 1,
            count: (1u64 << 53).into(),
        },
        WeightCount {
            w: 2,
            count: ((1u64 << 53) + 1).into(),
        },
        WeightCount { w: 3, count: big },
    ];
    let doc = Weights::new(crc16(), 100, ws, vec![DualWeightCount { w: 0, count: 1 }]);
    assert_eq!(doc.data_bits, 84);
    round_trip(&doc);
    let v = serde_json::to_value(Tagged::new(&doc)).unwrap();
    // a number up to 2^53, a string above
    assert!(v["weights"][1]["count"].is_u64());
    assert!(v["weights"][2]["count"].is_string());
}

pub fn stack_round_trips_missing_checks() {
    let checks = vec![
        StackCheck::exact("FCS", 512, 1e-20, 1e-18),
        StackCheck::missing("TCP", "too wide".into()),
    ];
    let term = StackTerm {
        weight: 4,
        codewords: Count::from(u128::MAX),
        pass_sum: 12.5,
        contribution: 1e-40,
        exact: true,
    };
    let j = JointEstimate::new(Some(1e-30), 9e-31, 2e-30, "exact".into());
    let p = StackPoint::new(
        64,
        512,
        1e-6,
        5e-4,
        j.clone(),
        None,
        None,
        checks,
        vec![term],
    );
    assert_eq!(p.ratio, None);
    let q = StackPoint::new(
        64,
        512,
        1e-4,
        5e-2,
        j,
        Some(1e-20),
        Some(1e-25),
        vec![],
        vec![],
    );
    assert_eq!(q.ratio, Some(1e-30 / 5e-2 / 1e-20));
    // the bracket alone: no estimate, no ratio
    let b = JointEstimate::new(None, 9e-31, 2e-30, "bracket only".into());
    let r = StackPoint::new(64, 512, 1e-4, 5e-2, b, Some(1e-20), None, vec![], vec![]);
    assert_eq!((r.ratio, r.joint_given_error()), (None, None));
    round_trip(&Stack::new("ethernet-tcp", vec![p, q, r]));
}

pub fn search_round_trips() {
    let query = crate::search::Query {
        width: 8,
        lengths: vec![64, 128],
        bers: vec![1e-4],
        min_hd: 0,
        top: 3,
        objective: crate::search::Objective::Hd,
    };
    let r = crate::search::Ranked {
        generator: crate::poly::Generator::from_koopman(8, 0x83).unwrap(),
        hd: vec![4, 3],
        min_hd: 3,
        p_undetected: vec![vec![1e-12], vec![3e-12]],
    };
    let stage = crate::search::StageStats {
        generators: 128,
        seconds: 0.5,
    };
    let mut doc = Search::new(
        &query,
        "all 128 generators".into(),
        crate::shard::Shard::WHOLE,
        128,
        [(3, 100), (4, 28)].into_iter().collect(),
        SearchStages {
            distance: (&stage).into(),
            p_undetected: (&stage).into(),
        },
    );
    doc.results.push(SearchResult::new(&query, 1, &r, None));
    doc.catalogue.push(SearchCatalogueEntry::new(
        &query,
        "CRC-8".into(),
        &r,
        Some(Standing { best: 1, worst: 2 }),
    ));
    doc.notes.push("a note".into());
    assert_eq!(doc.results[0].points.len(), 2);
    assert_eq!(doc.results[0].points[1].p_undetected, 3e-12);
    assert_eq!(doc.stages.distance.per_second, 256.0);
    round_trip(&doc);
}

pub fn the_envelope_refuses_other_kinds_and_newer_schemas() {
    let doc = Stack::new("ethernet-tcp", vec![]);
    let v = serde_json::to_value(Tagged::new(&doc)).unwrap();
    assert!(matches!(
        from_value::<Curve>(v.clone()),
        Err(DocumentError::WrongKind {
            expected: "curve",
            ..
        })
    ));
    let mut newer = v.clone();
    newer["schema"] = json!(SCHEMA + 1);
    assert!(matches!(
        from_value::<Stack>(newer),
        Err(DocumentError::NewerSchema { .. })
    ));
    let mut bad = v;
    bad["kind"] = json!(3);
    assert!(matches!(
        kind_of(&bad),
        Err(DocumentError::BadTag("kind", _))
    ));
    assert!(matches!(
        from_value::<Stack>(json!({"stack": 1})),
        Err(DocumentError::Malformed { kind: "stack", .. })
    ));
}

pub fn a_legacy_curve_with_its_check_under_crc_still_reads() {
    let v = json!({
        "crc": {"name": "CRC-8", "width": 8, "full": "0x107", "koopman": "0x83"},
        "method": "markov",
        "points": [{"ber": 1e-3, "bits": 16, "data_bits": 8, "p_error": 0.016,
                    "p_undetected": 1e-5, "p_alias_given_error": 6.25e-4}]
    });
    assert_eq!(kind_of(&v).unwrap(), None);
    assert_eq!(schema_of(&v).unwrap(), 1);
    let c: Curve = from_value(v).unwrap();
    assert_eq!(c.check.koopman.as_deref(), Some("0x83"));
    assert_eq!(c.points[0].bits, 16);
}

pub fn a_joint_point_serializes_every_field_and_its_method_tag() {
    use crate::joint::{JointMethod, JointPoint};
    let pt = JointPoint {
        ber: 1e-7,
        low: 1e-300,
        high: 3.5e-300,
        estimate: None,
        interval: (1e-300, 3.5e-300),
        exact: true,
        method: JointMethod::BracketOnly,
    };
    let v = serde_json::to_value(&pt).unwrap();
    assert_eq!(
        v,
        json!({"ber": 1e-7, "low": 1e-300, "high": 3.5e-300, "estimate": null,
               "interval": [1e-300, 3.5e-300], "exact": true, "method": "bracket_only"})
    );
    // the tiny values come back bit for bit
    assert_eq!(v["low"].as_f64(), Some(1e-300));
    let tags: Vec<Value> = [
        JointMethod::NoError,
        JointMethod::Enumerated,
        JointMethod::Sampled,
        JointMethod::CrcAlone,
        JointMethod::Uniform,
        JointMethod::BracketOnly,
    ]
    .iter()
    .map(|m| serde_json::to_value(m).unwrap())
    .collect();
    assert_eq!(
        tags,
        [
            "no_error",
            "enumerated",
            "sampled",
            "crc_alone",
            "uniform",
            "bracket_only"
        ]
    );
}

pub fn a_weight_distribution_lists_its_counts_as_the_weights_document_does() {
    use crate::{catalogue, weights};
    let crc = catalogue::resolve("crc8").unwrap();
    // 8-bit CRC at 200 bits, every weight to 40 by the dual method: A_40 is
    // over 2^53, so some counts are decimal strings
    let d = weights::distribution(
        &crc.generator(),
        200,
        40,
        weights::WeightMethod::Dual,
        true,
        &crate::ctx::Ctx::default(),
    )
    .unwrap();
    let v = serde_json::to_value(&d).unwrap();
    let doc = Weights::new(
        CheckInfo::from(&crc),
        200,
        d.counts
            .iter()
            .enumerate()
            .map(|(w, c)| WeightCount {
                w,
                count: Count(c.clone()),
            })
            .collect(),
        Vec::new(),
    );
    let dv = serde_json::to_value(&doc).unwrap();
    assert_eq!(v["weights"], dv["weights"]);
    assert_eq!(v["bits"], 200);
    let big = &v["weights"][40]["count"];
    assert!(big.is_string(), "{big}");
    assert_eq!(big.as_str().unwrap(), d.counts[40].to_string());
    assert_eq!(v["weights"][0]["count"], 1);
    // the dual weights as DualWeights serializes them, summing to 2^8
    let dual: crate::dual::DualWeights = serde_json::from_value(v["dual"].clone()).unwrap();
    assert_eq!(dual.total(), 256);
    assert_eq!(Some(dual), d.dual);
}
