//! A library user gets the same numbers from the same sim job as `alias`
//! prints: each command's job built in this process (`StackJob`,
//! `SimulateJob`, `TransferJob`), run in a default context, its document
//! written as the command writes it, and compared with the command's
//! `--format json` output, byte for byte.

use crate::util::{alias, stdout};
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::document;
use aliasing_sim::channel::Channel;
use aliasing_sim::joint::{StackJob, StackParams};
use aliasing_sim::session::Given;
use aliasing_sim::simulate::{SimulateDoc, SimulateJob, SimulateRequest};
use aliasing_sim::transfer::{TransferJob, TransferParams};

/// The command's JSON output (it succeeded), without the final newline.
fn printed(args: &[&str]) -> String {
    let o = alias(args);
    assert!(o.status.success(), "{args:?}: {}", crate::util::stderr(&o));
    stdout(&o).trim_end().to_string()
}

#[test]
fn the_stack_job_gives_what_alias_stack_prints() {
    let params = StackParams {
        stack: "ipv4-tcp+CRC-16/ARC".into(),
        bytes: vec![60, 120],
        bers: vec![0.0, 1e-4, 1e-2],
        max_weight: 4,
        samples: 2000,
        seed: 3,
    };
    let doc = StackJob::new(params).unwrap().run(&Ctx::default()).unwrap();
    let cli = printed(&[
        "stack",
        "--stack",
        "ipv4-tcp+CRC-16/ARC",
        "--bytes",
        "60,120",
        "--ber",
        "0,1e-4,1e-2",
        "--max-weight",
        "4",
        "--samples",
        "2000",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(document::to_json_sorted(&doc).unwrap().trim_end(), cli);
}

#[test]
fn the_simulate_job_gives_what_alias_simulate_prints() {
    // a 16-bit stack; ethernet-tcp (its CRC-32's exact value and rare-event
    // tables, about 4 s of CPU a run) under ALIAS_TESTS=full
    let stack = if crate::util::full_tier() {
        "ethernet-tcp"
    } else {
        "ipv4-tcp+CRC-16/ARC"
    };
    let given = Given {
        stack: Some(stack.into()),
        bytes: Some(100),
        channel: Some(Channel::Bsc { ber: 1e-3 }),
        frames: Some(40_000),
        seed: Some(9),
        ..Given::default()
    };
    let job = SimulateJob::new(SimulateRequest {
        given: given.clone(),
        ..SimulateRequest::default()
    })
    .unwrap();
    let SimulateDoc::Run(report) = job.run(&Ctx::default()).unwrap() else {
        panic!("a Monte Carlo run");
    };
    let cli = printed(&[
        "simulate", "--stack", stack, "--bytes", "100", "--ber", "1e-3", "--frames", "4e4",
        "--seed", "9", "--format", "json",
    ]);
    assert_eq!(document::to_json(&report).unwrap().trim_end(), cli);
    // the rare-event sampler, routed by the same request with `rare`
    let job = SimulateJob::new(SimulateRequest {
        given: Given {
            frames: None,
            ..given
        },
        rare: true,
        samples: Some(3000),
        no_exact: true,
        ..SimulateRequest::default()
    })
    .unwrap();
    let SimulateDoc::Rare(rare) = job.run(&Ctx::default()).unwrap() else {
        panic!("a rare-event run");
    };
    let cli = printed(&[
        "simulate",
        "--rare",
        "--stack",
        stack,
        "--bytes",
        "100",
        "--ber",
        "1e-3",
        "--samples",
        "3e3",
        "--seed",
        "9",
        "--no-exact",
        "--format",
        "json",
    ]);
    assert_eq!(document::to_json_sorted(&rare).unwrap().trim_end(), cli);
}

#[test]
fn the_transfer_job_gives_what_alias_transfer_prints() {
    let mut params = TransferParams::new(
        "ipv4-tcp+CRC-16/ARC",
        100_000,
        vec![68, 200],
        vec![1e-5, 1e-3],
        vec![1, 3],
    );
    params.samples = 0;
    let doc = TransferJob::new(params, None)
        .unwrap()
        .run(&Ctx::default())
        .unwrap();
    let cli = printed(&[
        "transfer",
        "--stack",
        "ipv4-tcp+CRC-16/ARC",
        "--size",
        "100000",
        "--mtu",
        "68,200",
        "--ber",
        "1e-5,1e-3",
        "--hops",
        "1,3",
        "--samples",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(document::to_json_sorted(&doc).unwrap().trim_end(), cli);
}
