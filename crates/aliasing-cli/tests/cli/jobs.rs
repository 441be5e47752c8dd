//! A library user building the same job gets the same numbers as the
//! command prints: each command's JSON output equals, byte for byte, the
//! document of its job run through the library (`aliasing_core::job`,
//! `aliasing_core::search`, `aliasing_sim::weights`).

use crate::util::alias_code_out_err;
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::document::{self, Document};

/// `alias ARGS --format json`'s standard output.
fn cli_json(args: &[&str]) -> String {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let (code, out, err) = alias_code_out_err(&a);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn lib_json<D: Document>(doc: &D) -> String {
    document::to_json_sorted(doc).unwrap()
}

#[test]
fn curve_hd_weights_and_compare_match_the_library() {
    use aliasing_core::job::{CompareJob, CurveJob, HdJob};
    let ctx = Ctx::default();
    let job = CurveJob::builder("crc16".parse().unwrap())
        .bits(vec![128, 12144])
        .bers(vec![1e-4, 1e-9])
        .build()
        .unwrap();
    let cli = cli_json(&[
        "curve",
        "--crc",
        "crc16",
        "--bits",
        "128,12144",
        "--ber",
        "1e-4,1e-9",
    ]);
    assert_eq!(lib_json(&job.run(&ctx).unwrap()), cli);

    let job = CurveJob::builder("internet".parse().unwrap())
        .bits(vec![8 * 64])
        .bers(vec![1e-5])
        .build()
        .unwrap();
    let cli = cli_json(&[
        "curve", "--check", "internet", "--bytes", "64", "--ber", "1e-5",
    ]);
    assert_eq!(lib_json(&job.run(&ctx).unwrap()), cli);

    let crc = aliasing_core::catalogue::resolve("crc16").unwrap();
    let job = HdJob::new(crc).max_hd(5).unwrap();
    let cli = cli_json(&["hd", "--crc", "crc16", "--max-hd", "5"]);
    assert_eq!(lib_json(&job.run(&ctx).unwrap()), cli);

    use aliasing_core::weights::WeightMethod;
    let job =
        aliasing_sim::weights::WeightsJob::new("crc8", 100, 6, WeightMethod::Auto, true).unwrap();
    let cli = cli_json(&[
        "weights",
        "--crc",
        "crc8",
        "--bits",
        "100",
        "--max-weight",
        "6",
        "--dual",
    ]);
    assert_eq!(lib_json(&job.run(&ctx).unwrap()), cli);

    let checks = ["crc16", "internet", "fletcher16"]
        .map(|c| c.parse().unwrap())
        .to_vec();
    let job = CompareJob::new(checks, Some(vec![64, 1500]), vec![1e-6], None).unwrap();
    let cli = cli_json(&[
        "compare",
        "--checks",
        "crc16,internet,fletcher16",
        "--bytes",
        "64,1500",
        "--ber",
        "1e-6",
    ]);
    assert_eq!(lib_json(&job.run(&ctx).unwrap()), cli);
}

#[test]
fn search_matches_the_library() {
    use aliasing_core::job::SearchJob;
    use aliasing_core::search::{Objective, Query};
    let q = Query::new(8, vec![40, 64], vec![1e-5], 0, 4, Objective::Hd).unwrap();
    let doc = SearchJob::all(q, None)
        .unwrap()
        .run(&Ctx::default())
        .unwrap();
    let mut lib: serde_json::Value =
        serde_json::from_str(&lib_json(&doc.document.unwrap())).unwrap();
    let cli = cli_json(&[
        "search", "--width", "8", "--bits", "40,64", "--ber", "1e-5", "--top", "4",
    ]);
    let mut cli: serde_json::Value = serde_json::from_str(&cli).unwrap();
    // the stages' timings differ from run to run; everything else is equal
    for v in [&mut lib, &mut cli] {
        v.as_object_mut().unwrap().remove("stages");
    }
    assert_eq!(lib, cli);
}
