//! The option behind a library error: the libraries' messages name no
//! option of the command line, so the command names the one the user can
//! change (`--max-weight: the largest weight enumerated must be 2 to 5`).

use aliasing_core::{Error, Limit, Param};

/// The option that sets what `e` refuses, if the error names a parameter
/// or limit that one option controls.
fn option_of(e: &Error) -> Option<&'static str> {
    Some(match e.root() {
        Error::Param { param, .. } => match param {
            Param::Lengths => "--bits/--bytes",
            Param::Method => "--method",
            Param::Shard => "--shard",
            Param::Checks => "--checks",
            Param::MaxHd => "--max-hd",
            Param::MaxBits => "--max-bits",
            Param::ProbeBudget => "--budget",
            Param::MaxWeight => "--max-weight",
            Param::Errors => "--errors",
            Param::Checkpoint => "--checkpoint",
            Param::Candidates => "--sample, --candidates or --shard",
            _ => return None,
        },
        Error::Limit(l) => match l {
            Limit::SearchWidth { .. } => "--width",
            Limit::SearchBer { .. } => "--ber",
            Limit::DualWeightsWidth { .. } => "--dual",
            Limit::SyndromesWeight { .. } => "--max-weight",
            Limit::HdSearch { .. } => "--max-hd",
            Limit::BurstCurveWidth { .. } => "--burst",
            Limit::RareChannel | Limit::RareBer { .. } | Limit::RareCrc => "--rare",
            Limit::BurstRareChannel
            | Limit::BurstRareStack { .. }
            | Limit::NoChecksumBesideCrc { .. }
            | Limit::TwoChecksums { .. } => "--rare --burst",
            _ => return None,
        },
        _ => return None,
    })
}

/// `e`, with the option behind it named first where one is (see
/// [`option_of`]).
pub(crate) fn flagged(e: anyhow::Error) -> anyhow::Error {
    let option = e
        .chain()
        .find_map(|c| c.downcast_ref::<Error>())
        .and_then(option_of);
    match option {
        Some(o) => e.context(o),
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_comes_first() {
        let e = Error::Param {
            param: Param::MaxWeight,
            reason: "the largest weight enumerated must be 2 to 5, not 7".into(),
        };
        let shown = format!("{:#}", flagged(e.clone().into()));
        assert_eq!(
            shown,
            "--max-weight: the largest weight enumerated must be 2 to 5, not 7"
        );
        let within = flagged(e.within("CRC-32").into());
        assert!(format!("{within:#}").starts_with("--max-weight: CRC-32: "));
        // the library's HD search names no option; the command adds it
        let stop = Error::Limit(Limit::HdSearch {
            weight: 7,
            reason: "probes".into(),
            bits: 300,
        });
        let shown = format!("{:#}", flagged(stop.into()));
        assert!(
            shown.starts_with("--max-hd: searching for weight-7"),
            "{shown}"
        );
        assert!(!shown[1..].contains("--"), "{shown}");
        let plain = flagged(Error::Invalid("x".into()).into());
        assert_eq!(format!("{plain:#}"), "x");
    }
}
