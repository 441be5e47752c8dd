//! Channel models shared by the exact solvers and the simulator: the
//! Gilbert-Elliott burst channel.
//!
//! A two-state Markov chain runs over the bits in transmission order. Bit
//! `i` is sent in state `c_i` (good or bad) and flips with that state's BER;
//! then the state moves (good to bad with `good_to_bad`, bad to good with
//! `bad_to_good`). The first bit's state is drawn from the stationary
//! distribution, `pi_B = good_to_bad / (good_to_bad + bad_to_good)`.
//! `alias simulate --burst` draws errors this way (`aliasing-sim`'s
//! `channel` module) and [`crate::markov::gilbert`] computes the same
//! channel's escapes exactly.
//!
//! ```
//! use aliasing_core::channel::GilbertElliott;
//! let ge: GilbertElliott = "1e-6,0.5,1e-4,0.1".parse().unwrap();
//! assert!((ge.bad_fraction() - 1e-4 / 0.1001).abs() < 1e-18);
//! assert!("0.1,0.5,0,0".parse::<GilbertElliott>().is_err());
//! ```

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// Parameters of a Gilbert-Elliott channel: a two-state Markov chain over the
/// bits in transmission order, each state with its own bit error rate.
/// Built by [`GilbertElliott::new`] or parsed (`"p_good,p_bad,g2b,b2g"`),
/// both validated; one read from a file is checked with
/// [`GilbertElliott::validate`] where it is used.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct GilbertElliott {
    /// Bit error rate in the good state.
    pub p_good: f64,
    /// Bit error rate in the bad (burst) state.
    pub p_bad: f64,
    /// Probability per bit of moving from good to bad.
    pub good_to_bad: f64,
    /// Probability per bit of moving from bad to good.
    pub bad_to_good: f64,
}

impl GilbertElliott {
    /// The chain with bit error rates `p_good` and `p_bad` in its two
    /// states and the per-bit transition probabilities `good_to_bad` and
    /// `bad_to_good`; refused as [`GilbertElliott::validate`] refuses.
    ///
    /// ```
    /// use aliasing_core::channel::GilbertElliott;
    /// let ge = GilbertElliott::new(1e-6, 0.5, 1e-5, 0.05).unwrap();
    /// assert_eq!(ge, "1e-6,0.5,1e-5,0.05".parse().unwrap());
    /// assert!(GilbertElliott::new(1e-6, 1.5, 1e-5, 0.05).is_err());
    /// assert!(GilbertElliott::new(1e-6, 0.5, 0.0, 0.0).is_err()); // no stationary law
    /// ```
    pub fn new(p_good: f64, p_bad: f64, good_to_bad: f64, bad_to_good: f64) -> Result<Self> {
        let ge = GilbertElliott {
            p_good,
            p_bad,
            good_to_bad,
            bad_to_good,
        };
        ge.validate()?;
        Ok(ge)
    }

    /// Long-run fraction of bits in the bad state.
    pub fn bad_fraction(&self) -> f64 {
        self.good_to_bad / (self.good_to_bad + self.bad_to_good)
    }

    /// Long-run bit error rate.
    pub fn mean_ber(&self) -> f64 {
        let b = self.bad_fraction();
        b * self.p_bad + (1.0 - b) * self.p_good
    }

    /// The stationary distribution `[pi_G, pi_B]` (each computed directly,
    /// not as `1 -` the other).
    pub fn stationary(&self) -> [f64; 2] {
        let s = self.good_to_bad + self.bad_to_good;
        [self.bad_to_good / s, self.good_to_bad / s]
    }

    /// Checks that the four parameters are probabilities and that the chain
    /// has a stationary distribution (the two transition probabilities are
    /// not both 0); one-line [`Error::Invalid`] otherwise.
    pub fn validate(&self) -> Result<()> {
        let prob = |name: &str, p: f64| {
            if p.is_finite() && (0.0..=1.0).contains(&p) {
                Ok(())
            } else {
                Err(Error::Invalid(format!(
                    "{name} must be a probability in [0, 1], got {p}"
                )))
            }
        };
        prob("good-state BER", self.p_good)?;
        prob("bad-state BER", self.p_bad)?;
        prob("good-to-bad probability", self.good_to_bad)?;
        prob("bad-to-good probability", self.bad_to_good)?;
        if self.good_to_bad + self.bad_to_good == 0.0 {
            return Err(Error::Invalid(
                "burst transition probabilities cannot both be 0".into(),
            ));
        }
        Ok(())
    }
}

impl fmt::Display for GilbertElliott {
    /// `PG,PB,G2B,B2G`, as `--burst` takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:e},{:e},{:e},{:e}",
            self.p_good, self.p_bad, self.good_to_bad, self.bad_to_good
        )
    }
}

impl FromStr for GilbertElliott {
    type Err = Error;

    /// Parses `PG,PB,G2B,B2G` (good BER, bad BER, P(good->bad),
    /// P(bad->good)) and validates it.
    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            Error::Invalid(format!(
                "Gilbert-Elliott channel `{s}`: expected four numbers PG,PB,G2B,B2G"
            ))
        };
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| bad())?;
        let [p_good, p_bad, good_to_bad, bad_to_good] = v[..] else {
            return Err(bad());
        };
        let ge = GilbertElliott {
            p_good,
            p_bad,
            good_to_bad,
            bad_to_good,
        };
        ge.validate()
            .map_err(|e| Error::Invalid(format!("Gilbert-Elliott channel `{s}`: {e}")))?;
        Ok(ge)
    }
}
