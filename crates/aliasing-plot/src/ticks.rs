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

/// Tick positions on a log axis over `[lo, hi]` (0 < lo < hi): powers of
/// ten, every `step`-th decade so that at most `max_bold` are labelled; with
/// `light`, the grid lines between them as well (the other decades, or
/// 2..9 times each decade when there are few). Ranges of less than two
/// decades get 1, 2, 5 (or every digit) times a power of ten, so that an
/// axis always carries labels.
///
/// Plotters' own log axis drops every tick below `f64::EPSILON`, which would
/// leave the 1e-40 .. 1e-16 part of a probability axis unlabelled.
///
/// ```
/// use aliasing_plot::ticks::log_ticks;
/// let t = log_ticks(1e-40, 1e-20, 30, false);
/// assert_eq!(t.len(), 21);
/// assert!((t[0] / 1e-40 - 1.0).abs() < 1e-12);
/// ```
pub fn log_ticks(lo: f64, hi: f64, max_bold: usize, light: bool) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let inside = |v: f64| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9);
    let d0 = (lo.log10() - 1e-9).ceil() as i32;
    let d1 = (hi.log10() + 1e-9).floor() as i32;
    let decades = d1 - d0 + 1;
    let max_bold = max_bold.max(2) as i32;
    let mut bold = Vec::new();
    let mut thin = Vec::new();
    if decades >= 2 {
        let step = ((decades + max_bold - 1) / max_bold).max(1);
        for d in d0..=d1 {
            let v = 10f64.powi(d);
            if d.rem_euclid(step) == 0 {
                bold.push(v);
            } else {
                thin.push(v);
            }
        }
        if step == 1 && decades <= 8 {
            for d in d0 - 1..=d1 {
                for m in 2..=9 {
                    let v = f64::from(m) * 10f64.powi(d);
                    if inside(v) {
                        thin.push(v);
                    }
                }
            }
        }
    } else {
        for mults in [&[1, 2, 5][..], &[1, 2, 3, 4, 5, 6, 7, 8, 9][..]] {
            bold.clear();
            thin.clear();
            for d in d0 - 1..=d1 {
                for m in 1..=9 {
                    let v = f64::from(m) * 10f64.powi(d);
                    if inside(v) {
                        if mults.contains(&m) {
                            bold.push(v);
                        } else {
                            thin.push(v);
                        }
                    }
                }
            }
            if bold.len() >= 3 {
                break;
            }
        }
        if bold.len() < 2 {
            // Less than a decade between round numbers: evenly spaced ticks.
            thin.clear();
            let span = hi - lo;
            let unit = 10f64.powf((span / 5.0).log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .into_iter()
                .map(|m| m * unit)
                .find(|s| span / s <= 7.0)
                .unwrap_or(10.0 * unit);
            let k0 = (lo / step - 1e-9).ceil() as i64;
            let k1 = (hi / step + 1e-9).floor() as i64;
            bold = (k0..=k1)
                .map(|k| k as f64 * step)
                .filter(|v| *v > 0.0)
                .collect();
        }
    }
    if light {
        bold.extend(thin);
        bold.sort_by(f64::total_cmp);
    }
    bold
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
    fn ticks() {
        let labels = |t: Vec<f64>| t.into_iter().map(tick_label).collect::<Vec<_>>();
        assert_eq!(
            labels(log_ticks(50.0, 15000.0, 12, false)),
            ["100", "1000", "10000"]
        );
        let all = log_ticks(50.0, 15000.0, 12, true);
        assert_eq!(
            all.len(),
            3 + 5 + 8 + 8,
            "bold, 50..90, 200..900, 2000..9000"
        );
        // 41 decades, at most 12 labels: every 4th decade.
        let t = labels(log_ticks(1e-41, 1.0, 12, false));
        assert_eq!(t.len(), 11);
        assert_eq!(t[0], "1e-40");
        assert_eq!(t[10], "1");
        assert_eq!(log_ticks(1e-41, 1.0, 12, true).len(), 42);
        // Less than two decades: 1-2-5.
        assert_eq!(
            labels(log_ticks(900.0, 6000.0, 12, false)),
            ["1000", "2000", "5000"]
        );
        // Within one decade: evenly spaced round numbers.
        assert_eq!(
            labels(log_ticks(1100.0, 1600.0, 12, false)),
            ["1100", "1200", "1300", "1400", "1500", "1600"]
        );
        assert_eq!(
            labels(log_ticks(1.2e-7, 1.7e-7, 12, false)),
            ["1.2e-7", "1.3e-7", "1.4e-7", "1.5e-7", "1.6e-7", "1.7e-7"]
        );
        assert!(log_ticks(0.0, 1.0, 10, true).is_empty());
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
