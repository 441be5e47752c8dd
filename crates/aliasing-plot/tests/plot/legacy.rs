//! JSON saved by the `alias` of before the typed documents (no `kind`, no
//! `schema`; a curve's check under `"crc"`), kept in `tests/fixtures/`:
//! every one reads into its type of `aliasing_core::document` (or of
//! `aliasing-sim` for simulation reports) and re-serializes to the same
//! JSON plus the tag; the plottable ones still plot, to the same figure as
//! their tagged form.

use aliasing_core::__private::document::Tagged;
use aliasing_core::document::{self, Document as Kind};
use aliasing_plot::{Document, Options, figure_of};
use serde_json::Value;
use std::path::Path;

fn legacy(name: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("legacy-{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

/// Reads the legacy file `name` as `D`, and checks that the typed document
/// serializes back to exactly the legacy JSON plus `kind` and `schema`
/// (with the curve's `"crc"` renamed `"check"`). Returns the tagged JSON.
fn reads_as<D: Kind>(name: &str) -> Value {
    let old = legacy(name);
    assert_eq!(document::kind_of(&old).unwrap(), None, "{name} is untagged");
    let doc: D =
        document::from_value(old.clone()).unwrap_or_else(|e| panic!("legacy-{name}.json: {e}"));
    let tagged = serde_json::to_value(Tagged::new(&doc)).unwrap();
    assert_eq!(tagged["kind"], D::KIND, "{name}");
    assert_eq!(tagged["schema"], document::SCHEMA, "{name}");
    let mut back = tagged.clone();
    let o = back.as_object_mut().unwrap();
    o.remove("kind");
    o.remove("schema");
    if let Some(c) = o.remove("check") {
        o.insert("crc".into(), c);
    }
    assert_eq!(
        back, old,
        "{name}: every field and digit survives the typed round trip"
    );
    tagged
}

/// The legacy and the tagged form plot to the same figure.
fn same_figure(name: &str, tagged: &Value) {
    let old = figure_of(
        &Document::from_value(&legacy(name)).unwrap(),
        &Options::default(),
    )
    .unwrap();
    let new = figure_of(&Document::from_value(tagged).unwrap(), &Options::default()).unwrap();
    assert_eq!(old, new, "{name}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plot.svg");
    aliasing_plot::render(&Document::from_value(&legacy(name)).unwrap(), &path).unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().contains("</svg>"));
}

#[test]
fn legacy_curves_read_and_plot() {
    for name in ["curve-crc", "curve-internet", "curve-burst"] {
        let tagged = reads_as::<document::Curve>(name);
        same_figure(name, &tagged);
    }
}

#[test]
fn legacy_comparisons_read_and_plot() {
    for name in ["compare", "compare-payload"] {
        let tagged = reads_as::<document::Compare>(name);
        same_figure(name, &tagged);
    }
}

#[test]
fn legacy_simulate_reads_into_the_report_and_plots() {
    let tagged = reads_as::<aliasing_sim::report::Report>("simulate");
    same_figure("simulate", &tagged);
    reads_as::<aliasing_sim::rare::RareReport>("simulate-rare");
}

#[test]
fn legacy_documents_without_a_plot_read_into_their_types() {
    reads_as::<document::BracketDoc>("curve-bracket");
    reads_as::<document::Hd>("hd");
    reads_as::<document::Weights>("weights");
    reads_as::<document::Weights>("weights-dual");
    reads_as::<document::Stack>("stack");
    reads_as::<document::Search>("search");
}

#[test]
fn tagged_documents_are_read_by_their_kind() {
    // a stack document is read by its tag (its keys alone would have been
    // guessed as a comparison), and so is a search; a bracket has no plot
    let tagged = reads_as::<document::Stack>("stack");
    assert!(matches!(
        Document::from_value(&tagged),
        Ok(Document::Stack(_))
    ));
    let tagged = reads_as::<document::Search>("search");
    assert!(matches!(
        Document::from_value(&tagged),
        Ok(Document::Search(_))
    ));
    let tagged = reads_as::<document::BracketDoc>("curve-bracket");
    let e = Document::from_value(&tagged).unwrap_err().to_string();
    assert!(e.contains("`bracket` document has no plot"), "{e}");
    // a curve document from a newer schema is refused, not misread
    let mut v = reads_as::<document::Curve>("curve-crc");
    v["schema"] = (document::SCHEMA + 1).into();
    let e = Document::from_value(&v).unwrap_err().to_string();
    assert!(e.contains("newer"), "{e}");
    // the tag wins over the keys: a compare tag on a curve's fields fails
    let mut v = reads_as::<document::Curve>("curve-crc");
    v["kind"] = "compare".into();
    assert!(Document::from_value(&v).is_err());
}

#[test]
fn every_legacy_fixture_plots_or_is_refused_by_name() {
    // every file in tests/fixtures: the plottable kinds still plot; the
    // others are refused as documents without a plot, never misread
    let plottable = [
        "curve-crc",
        "curve-internet",
        "curve-burst",
        "compare",
        "compare-payload",
        "simulate",
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let name = file
            .strip_prefix("legacy-")
            .and_then(|n| n.strip_suffix(".json"))
            .unwrap_or_else(|| panic!("{file} is not legacy-NAME.json"));
        let doc = Document::from_value(&legacy(name));
        if plottable.contains(&name) {
            seen += 1;
            figure_of(&doc.unwrap(), &Options::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
        } else {
            let e = doc.unwrap_err();
            assert!(
                matches!(e, aliasing_plot::PlotError::UnknownDocument(_)),
                "{file}: {e}"
            );
        }
    }
    assert_eq!(seen, plottable.len(), "every plottable fixture is on disk");
}
