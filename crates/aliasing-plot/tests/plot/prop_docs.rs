//! Property tests of what `alias plot` reads: a saved JSON result with one
//! value replaced (by an extreme, zero, negative or subnormal number, null,
//! text, or another shape) is drawn or refused with a one-line error, never
//! a panic inside the reader or plotters.

use crate::common;

use aliasing_plot::{Document, Options, figure_of, svg_string};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Every number, string and null in `v`, as JSON pointers.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| leaves(x, format!("{at}/{i}"), out)),
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| leaves(x, format!("{at}/{k}"), out)),
        _ => out.push(at),
    }
}

fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0.0)),
        Just(json!(-1.0)),
        Just(json!(1e-320)),
        Just(json!(1e-300)),
        Just(json!(f64::MAX)),
        Just(json!(2.0)),
        Just(json!(u64::MAX)),
        Just(json!(-9_007_199_254_740_993_i64)),
        Just(Value::Null),
        Just(json!("")),
        Just(json!("0x")),
        Just(json!([])),
        Just(json!({})),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |x| x.is_finite())
            .prop_map(|x| json!(x)),
    ]
}

fn draw_or_refuse(doc: &Value) -> Result<(), TestCaseError> {
    let drawn = Document::from_value(doc)
        .and_then(|d| figure_of(&d, &Options::default()))
        .and_then(|f| svg_string(&f, (400, 300)));
    if let Err(e) = drawn {
        let m = e.to_string();
        prop_assert!(!m.is_empty() && !m.contains('\n'), "{}", m);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn one_value_replaced(f in 0usize..4, at in any::<prop::sample::Index>(), with in replacement()) {
        let name = ["curve.json", "compare.json", "simulate.json", "simulate-sweep.json"][f];
        let mut doc = common::fixture(name);
        let mut paths = Vec::new();
        leaves(&doc, String::new(), &mut paths);
        let p = &paths[at.index(paths.len())];
        *doc.pointer_mut(p).unwrap() = with;
        draw_or_refuse(&doc)?;
    }

    /// Whole arrays emptied or a key dropped: refused or drawn, never a panic.
    #[test]
    fn a_key_dropped(f in 0usize..4, at in any::<prop::sample::Index>()) {
        let name = ["curve.json", "compare.json", "simulate.json", "simulate-sweep.json"][f];
        let mut doc = common::fixture(name);
        let mut paths = Vec::new();
        leaves(&doc, String::new(), &mut paths);
        let p = &paths[at.index(paths.len())];
        let (parent, key) = p.rsplit_once('/').unwrap();
        match doc.pointer_mut(parent) {
            Some(Value::Object(o)) => { o.remove(key); }
            Some(Value::Array(a)) => a.clear(),
            _ => {}
        }
        draw_or_refuse(&doc)?;
    }
}

#[test]
fn the_fixtures_draw() {
    for name in [
        "curve.json",
        "compare.json",
        "simulate.json",
        "simulate-sweep.json",
    ] {
        let doc = Document::from_value(&common::fixture(name)).unwrap();
        svg_string(&figure_of(&doc, &Options::default()).unwrap(), (400, 300)).unwrap();
    }
}
