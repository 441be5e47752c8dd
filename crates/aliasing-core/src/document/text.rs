//! The text forms of the result documents: an aligned table for people, CSV
//! and JSON, each exactly as `alias` prints it (`alias curve --format csv`,
//! ...), so a library user or a binding prints the same bytes.
//!
//! Every document has a `render(format)` method (in the modules below, or in
//! `aliasing-sim` for its reports); the helpers here (table, CSV, probability) are the one number and column
//! format they share.
//!
//! ```
//! use aliasing_core::document::text::{self, Format};
//! let rows = vec![vec!["ber".to_string(), "p".into()], vec!["1e-5".into(), text::prob(0.125)]];
//! assert_eq!(text::table(&rows), " ber            p\n1e-5  1.250000e-1\n");
//! assert_eq!(text::csv(&rows), "ber,p\n1e-5,1.250000e-1\n");
//! assert_eq!("csv".parse::<Format>().unwrap(), Format::Csv);
//! ```

mod compare;
mod curve;
mod hd;
mod search;
mod stack;
mod transfer;
mod weights;

/// The text form of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// Aligned, human-readable columns, with `#` comment lines saying what
    /// the numbers are.
    #[default]
    Table,
    /// Comma-separated values with a header line, numbers in full.
    Csv,
    /// One JSON document (tagged with its kind and schema).
    #[cfg_attr(feature = "clap", value(help = "One JSON document"))]
    Json,
}

impl std::str::FromStr for Format {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Format> {
        match s {
            "table" => Ok(Format::Table),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(crate::Error::Invalid(format!(
                "format `{s}`: one of table, csv, json"
            ))),
        }
    }
}

/// Renders rows as aligned (right-justified) columns; the first row is the
/// header.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:>w$}", w = widths[i]))
            .collect();
        s.push_str(line.join("  ").trim_end());
        s.push('\n');
    }
    s
}

/// Renders rows as CSV (fields with a comma, quote or newline quoted); the
/// first row is the header.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn csv(rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .map(|c| {
                if c.contains([',', '"', '\n']) {
                    format!("\"{}\"", c.replace('"', "\"\""))
                } else {
                    c.clone()
                }
            })
            .collect();
        s.push_str(&line.join(","));
        s.push('\n');
    }
    s
}

/// A probability for tables: seven significant digits in scientific
/// notation, `0` for zero.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn prob(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x:.6e}")
    }
}

/// The number format of a table (`full == false`: [`prob`]) or of CSV
/// (`full`: the shortest form that reads back bit for bit).
pub(crate) fn num(full: bool) -> impl Fn(f64) -> String {
    move |x| if full { format!("{x:e}") } else { prob(x) }
}

/// `x`, or `-` when there is none.
pub(crate) fn or_dash(x: Option<String>) -> String {
    x.unwrap_or_else(|| "-".into())
}

/// A duration for people: `about 45 s`, `about 12 min`, `about 3.4 h`,
/// `about 2.1 days`, `about 1.4e3 years`.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn duration(seconds: f64) -> String {
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    if seconds < 90.0 {
        format!("about {seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("about {:.0} min", seconds / 60.0)
    } else if seconds < 2.0 * DAY {
        format!("about {:.1} h", seconds / 3600.0)
    } else if seconds < YEAR {
        format!("about {:.1} days", seconds / DAY)
    } else if seconds < 1000.0 * YEAR {
        format!("about {:.1} years", seconds / YEAR)
    } else {
        format!("about {:.1e} years", seconds / YEAR)
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn durations_and_numbers() {
        assert_eq!(duration(45.0), "about 45 s");
        assert_eq!(duration(600.0), "about 10 min");
        assert_eq!(duration(7200.0), "about 2.0 h");
        assert_eq!(duration(3.156e7 * 2.0), "about 2.0 years");
        assert_eq!(duration(3.156e7 * 1e6), "about 1.0e6 years");
        assert_eq!(prob(0.0), "0");
        assert_eq!(prob(1e-300), "1.000000e-300");
        assert_eq!(num(true)(1.5e-7), "1.5e-7");
        assert_eq!(
            csv(&[vec!["a,b".into(), "q\"".into()]]),
            "\"a,b\",\"q\"\"\"\n"
        );
        assert!("xml".parse::<Format>().is_err());
    }
}
