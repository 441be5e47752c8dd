//! The embedded font: DejaVu Sans (Bitstream Vera license, see `fonts/LICENSE`),
//! registered with plotters' `ab_glyph` text renderer on first use, so PNG
//! rendering needs no system fonts and no fontconfig at run time.

use std::sync::Once;

use plotters::style::FontStyle;

/// The font family name every plot uses; also written into SVG `font-family`.
pub const FAMILY: &str = "sans-serif";

/// DejaVu Sans, embedded in the binary.
static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

static REGISTER: Once = Once::new();

/// Registers the embedded font under [`FAMILY`] for every style; idempotent.
pub fn ensure_registered() {
    REGISTER.call_once(|| {
        for style in [
            FontStyle::Normal,
            FontStyle::Bold,
            FontStyle::Italic,
            FontStyle::Oblique,
        ] {
            // The bytes are a valid TrueType font checked by the tests; a failure
            // here would only mean text is missing, never a panic.
            let _ = plotters::style::register_font(FAMILY, style, DEJAVU_SANS);
        }
    });
}
