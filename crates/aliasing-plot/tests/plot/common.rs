//! Helpers shared by the plot tests: fixtures, the entries of a temporary
//! directory, and small readers of the SVG and PNG files plotters writes.
#![allow(dead_code)]

use std::path::Path;

/// A fixture from `tests/data/`.
pub fn fixture(name: &str) -> serde_json::Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

/// Names of every entry in `dir`, temporary files included, sorted.
pub fn entries(dir: &tempfile::TempDir) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The text content of every `<text>` element of an SVG document, unescaped.
pub fn svg_texts(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text") {
        rest = &rest[i..];
        let open_end = rest.find('>').unwrap();
        let close = rest.find("</text>").unwrap();
        out.push(
            rest[open_end + 1..close]
                .trim()
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&"),
        );
        rest = &rest[close..];
    }
    out
}

/// The point lists of every `<polyline>` with the given stroke colour (`#RRGGBB`).
pub fn polylines(svg: &str, stroke: &str) -> Vec<Vec<(f64, f64)>> {
    let needle = format!("stroke=\"{stroke}\"");
    svg.split("<polyline")
        .skip(1)
        .map(|s| &s[..s.find("/>").unwrap()])
        .filter(|s| s.contains(&needle))
        .map(|s| {
            let i = s.find("points=\"").unwrap() + 8;
            let j = i + s[i..].find('"').unwrap();
            s[i..j]
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

/// `#RRGGBB` of a plotters colour.
pub fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// A decoded PNG: 8-bit RGB pixels, row by row.
pub struct RgbImage {
    width: u32,
    height: u32,
    data: Vec<u8>,
}

impl RgbImage {
    /// `(width, height)`.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// `(x, y, [r, g, b])` of every pixel, row by row.
    pub fn enumerate_pixels(&self) -> impl Iterator<Item = (u32, u32, [u8; 3])> + '_ {
        let w = self.width;
        self.data
            .chunks_exact(3)
            .enumerate()
            .map(move |(i, p)| (i as u32 % w, i as u32 / w, [p[0], p[1], p[2]]))
    }
}

/// A PNG file decoded (it must be 8-bit RGB, as the plot crate writes).
pub fn png(path: &Path) -> RgbImage {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut data = vec![0u8; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut data).unwrap();
    assert_eq!(
        (frame.color_type, frame.bit_depth),
        (png::ColorType::Rgb, png::BitDepth::Eight),
        "{path:?}"
    );
    data.truncate(frame.buffer_size());
    RgbImage {
        width: frame.width,
        height: frame.height,
        data,
    }
}

/// Pixels of exactly this colour in rows `rows`.
pub fn count_colour(
    img: &RgbImage,
    c: plotters::style::RGBColor,
    rows: std::ops::Range<u32>,
) -> usize {
    img.enumerate_pixels()
        .filter(|(_, y, p)| rows.contains(y) && *p == [c.0, c.1, c.2])
        .count()
}

/// Pixels darker than light grey in rows `rows` (text, axes, lines).
pub fn count_dark(img: &RgbImage, rows: std::ops::Range<u32>) -> usize {
    img.enumerate_pixels()
        .filter(|(_, y, p)| {
            rows.contains(y) && p.iter().map(|&v| u32::from(v)).sum::<u32>() < 3 * 160
        })
        .count()
}
