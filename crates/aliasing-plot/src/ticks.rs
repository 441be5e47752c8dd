//! Tick labels and axis ranges for logarithmic axes.

/// Formats a value for a tick label: small integers plainly (`64`, `1500`),
/// everything else in short scientific notation (`1e-5`, `2.5e-10`).
///
/// ```
/// use aliasing_plot::ticks::tick_label;
/// assert_eq!(tick_label(1e-5), "1e-5");
/// assert_eq!(tick_label(9.999999999e-37), "1e-36");
/// assert_eq!(tick_label(2.5e-10), "2.5e-10");
/// assert_eq!(tick_label(12144.0), "12144");
/// assert_eq!(tick_label(1e6), "1e6");
/// ```
pub fn tick_label(v: f64) -> String {
    if !v.is_finite() || v == 0.0 {
        return format!("{v}");
    }
    let a = v.abs();
    if (1.0..1e6).contains(&a) && (a - a.round()).abs() <= 1e-9 * a {
        return format!("{}", v.round() as i64);
    }
    // Three significant digits at most, trailing zeros dropped.
    let s = format!("{v:.2e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mant = mant.trim_end_matches('0').trim_end_matches('.');
    format!("{mant}e{exp}")
}

/// A log-axis range covering `[min, max]` (both > 0) with some padding:
/// whole decades for spans of several decades, a small margin otherwise.
pub fn log_range(min: f64, max: f64, whole_decades: bool) -> (f64, f64) {
    debug_assert!(min > 0.0 && max >= min);
    if min == max {
        return (min / 2.0, max * 2.0);
    }
    if whole_decades {
        let lo = 10f64.powf(min.log10().floor());
        let hi = 10f64.powf(max.log10().ceil());
        let lo = if lo >= min { lo / 10.0 } else { lo };
        let hi = if hi <= max { hi * 10.0 } else { hi };
        // A hair wider than whole decades, so that rounding in the axis'
        // tick placement never drops the end labels.
        (lo * (1.0 - 1e-9), hi * (1.0 + 1e-9))
    } else {
        let pad = (max / min).powf(0.04).max(1.05);
        (min / pad, max * pad)
    }
}

/// `2^-r` written for a legend, e.g. `2^-32 = 2.3e-10`.
pub fn asymptote_label(r: u32) -> String {
    format!("2^-{r} = {}", tick_label(2f64.powi(-(r as i32))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(tick_label(1.0), "1");
        assert_eq!(tick_label(0.5), "5e-1");
        assert_eq!(tick_label(3e-40), "3e-40");
        assert_eq!(tick_label(1.0000000001e4), "10000");
        assert_eq!(tick_label(2.0 * 0.99999999999e-7), "2e-7");
        assert_eq!(asymptote_label(16), "2^-16 = 1.53e-5");
        assert_eq!(tick_label(1.23456e-7), "1.23e-7");
    }

    #[test]
    fn ranges() {
        let (lo, hi) = log_range(3e-12, 4e-3, true);
        assert!((lo / 1e-12 - 1.0).abs() < 1e-8 && lo < 1e-12);
        assert!((hi / 1e-2 - 1.0).abs() < 1e-8 && hi > 1e-2);
        let (lo, hi) = log_range(1e-5, 1e-3, true);
        assert!((lo / 1e-6 - 1.0).abs() < 1e-8 && (hi / 1e-2 - 1.0).abs() < 1e-8);
        let (lo, hi) = log_range(64.0, 12144.0, false);
        assert!(lo < 64.0 && lo > 50.0 && hi > 12144.0 && hi < 16000.0);
        assert_eq!(log_range(5.0, 5.0, true), (2.5, 10.0));
        let (lo, hi) = log_range(2e-5, 4e-5, false);
        assert!(lo < 2e-5 && hi > 4e-5);
    }
}
