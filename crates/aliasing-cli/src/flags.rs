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
