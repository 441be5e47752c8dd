//! Worked examples for protocol designers (the `examples/` programs) and the
//! README's library tour, doc-tested here.

pub mod study;

#[doc = include_str!("../../docs/library-tour.md")]
#[doc(hidden)]
pub mod library_tour {}

#[cfg(test)]
mod tests {
    /// The README carries the tour verbatim: it cannot drift from the tested copy.
    #[test]
    fn readme_mirrors_the_tested_tour() {
        let tour = include_str!("../../docs/library-tour.md");
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains(tour.trim()),
            "README.md's \"Library tour\" differs from docs/library-tour.md"
        );
    }
}
