//! The exact Internet-checksum values (field computed from the data) against
//! the simulator's real frames at BERs across [0, 1], for the `internet`,
//! `tcp` and `ethernet-tcp` stacks: every 99.9% Clopper-Pearson interval
//! (fixed seeds) contains the exact value, and at BER 1 the count is exact.

use aliasing_sim::channel::Channel;
use aliasing_sim::exact::internet_exact;
use aliasing_sim::interval::clopper_pearson;
use aliasing_sim::run::{Plan, RunOptions, simulate};
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::{Frames, Seed};

/// 5,000 frames a case in the test command, but 3,000 at BERs 0.3, 0.5
/// and 0.7 (the exact value is about 2^-16: the count is 0 or 1 either
/// way) and 1,000 at BER 1 (every frame takes the one pattern: the count is
/// all or none); 30,000 under `ALIAS_TESTS=full` (about one escape in
/// 30,000 frames at every BER but 1, where every frame's verdict is exact).
/// The simulator's cost is per flipped bit: most of it at BERs 0.99 and 1.
#[test]
fn internet_checks_at_every_ber_against_monte_carlo() {
    let frames = crate::tier::pick(5_000, 30_000);
    check_every_ber(
        frames,
        crate::tier::pick(3_000, frames),
        crate::tier::pick(1_000, frames),
    );
}

/// The same with ten times the frames (about 2 minutes on 2 cores).
#[test]
#[ignore]
fn internet_checks_at_every_ber_against_monte_carlo_long() {
    check_every_ber(100_000, 300_000, 100_000);
}

fn check_every_ber(edge_frames: u64, mid_frames: u64, one_frames: u64) {
    for stack in ["internet", "tcp", "ethernet-tcp"] {
        for (i, ber) in [0.01, 0.3, 0.5, 0.7, 0.99, 1.0].into_iter().enumerate() {
            let frames = if (0.2..0.8).contains(&ber) {
                mid_frames
            } else if ber == 1.0 {
                one_frames
            } else {
                edge_frames
            };
            let frame = Frame::new(stack, 200, Payload::Random).unwrap();
            let plan = Plan::new(
                frame,
                Channel::Bsc { ber },
                Frames(frames),
                Seed(7 + i as u64),
            );
            let c = simulate(&plan, &RunOptions::default(), None).unwrap();
            for (k, check) in plan.frame.checks.iter().enumerate() {
                if !check.is_internet() {
                    continue;
                }
                let exact = internet_exact(&plan, &check.ranges, check.field, check.constant, ber)
                    .unwrap_or_else(|| panic!("{stack} {} at {ber}: no exact value", check.name));
                let hits = c.escapes[k];
                eprintln!(
                    "{stack} {} at {ber}: exact {exact:e}, {hits}/{frames}",
                    check.name
                );
                if ber == 1.0 {
                    assert!(exact == 0.0 || exact == 1.0);
                    assert_eq!(hits as f64, exact * frames as f64, "{stack} {}", check.name);
                    continue;
                }
                let (lo, hi) = clopper_pearson(hits, frames, 0.999);
                assert!(
                    lo <= exact && exact <= hi,
                    "{stack} {} at {ber}: exact {exact:e}, {hits}/{frames} [{lo:e}, {hi:e}]",
                    check.name
                );
            }
        }
    }
}
