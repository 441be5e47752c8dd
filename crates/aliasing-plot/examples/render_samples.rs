//! Renders the test fixtures to SVG and PNG in the directory given as the first argument.
fn main() {
    let out = std::path::PathBuf::from(std::env::args().nth(1).expect("output directory"));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for name in ["curve", "compare", "simulate", "simulate-sweep"] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        for ext in ["svg", "png"] {
            aliasing_plot::render(&doc, &out.join(format!("{name}.{ext}"))).unwrap();
        }
    }
}
