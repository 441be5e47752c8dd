//! Length lists for `--bits` and `--bytes`: comma lists of values and ranges.
//!
//! - `1500` a single value
//! - `START:STOP:STEP` every STEP from START up to and including STOP
//! - `log:START:STOP:N` N points spaced evenly in log scale, rounded, deduplicated

use anyhow::{Result, bail};

/// Parses a length list; every value must be a positive integer.
pub fn parse_lengths(spec: &str) -> Result<Vec<u64>> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim) {
        if item.is_empty() {
            bail!("invalid length: empty item in `{spec}`");
        }
        if let Some(rest) = item.strip_prefix("log:") {
            let p: Vec<&str> = rest.split(':').collect();
            if p.len() != 3 {
                bail!("invalid length: `{item}` (log form is log:START:STOP:N)");
            }
            let (a, b, n) = (num(p[0], item)?, num(p[1], item)?, num(p[2], item)?);
            if a > b || n < 2 {
                bail!("invalid length: `{item}` needs START <= STOP and N >= 2");
            }
            let (la, lb) = ((a as f64).ln(), (b as f64).ln());
            for i in 0..n {
                let v = (la + (lb - la) * i as f64 / (n - 1) as f64).exp().round() as u64;
                out.push(v.clamp(a, b));
            }
        } else if item.contains(':') {
            let p: Vec<&str> = item.split(':').collect();
            if p.len() != 3 {
                bail!("invalid length: `{item}` (range form is START:STOP:STEP)");
            }
            let (a, b, s) = (num(p[0], item)?, num(p[1], item)?, num(p[2], item)?);
            if a > b {
                bail!("invalid length: `{item}` has START > STOP");
            }
            if (b - a) / s > 10_000_000 {
                bail!("invalid length: `{item}` has over 10 million points");
            }
            let mut v = a;
            while v <= b {
                out.push(v);
                v += s;
            }
        } else {
            out.push(num(item, item)?);
        }
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        bail!("invalid length: empty length list");
    }
    Ok(out)
}

fn num(s: &str, item: &str) -> Result<u64> {
    let t = s.trim().replace('_', "");
    let v: u64 = match t.parse() {
        Ok(v) => v,
        Err(_) => {
            if t.starts_with('-') {
                bail!("invalid length: `{item}` is negative");
            }
            bail!("invalid length: `{item}` is not a whole number");
        }
    };
    if v == 0 {
        bail!("invalid length: `{item}` is zero");
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(parse_lengths("64,128").unwrap(), vec![64, 128]);
        assert_eq!(parse_lengths("10:30:10").unwrap(), vec![10, 20, 30]);
        let l = parse_lengths("log:10:1000:3").unwrap();
        assert_eq!(l, vec![10, 100, 1000]);
        for bad in ["", "a", "-5", "0", "5:1:1", "1:5:0", "log:1:2", "1,,2"] {
            assert!(parse_lengths(bad).is_err(), "{bad}");
        }
    }
}
