//! Worked examples for protocol designers (the `examples/` programs) and the
//! library tour (`docs/library-tour.md`), doc-tested here.

#[doc = include_str!("../../docs/library-tour.md")]
#[doc(hidden)]
pub mod library_tour {}

#[cfg(test)]
mod tests {
    /// The README points to the tested tour (it no longer carries a copy
    /// that could drift from it).
    #[test]
    fn readme_links_the_tested_tour() {
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains("(docs/library-tour.md)"),
            "README.md does not link docs/library-tour.md"
        );
    }
}
