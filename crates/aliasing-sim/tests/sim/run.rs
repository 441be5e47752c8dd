//! The tests of `aliasing_sim::run` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_sim::channel::Channel;
use aliasing_sim::channel::GilbertElliott;
use aliasing_sim::run::*;
use aliasing_sim::stack::Frame;
use aliasing_sim::stack::Payload;

/// The pair histogram and the per-check tallies count the same frames.
#[test]
fn pair_and_per_check_tallies_agree() {
    let burst = Channel::Burst(GilbertElliott::new(1e-4, 0.3, 1e-3, 0.2).unwrap());
    for (stack, bytes, channel) in [
        ("ethernet-tcp", 80, Channel::Bsc { ber: 0.01 }),
        ("ethernet-tcp", 81, burst),
        ("ethernet-tcp", 1518, Channel::Exactly { k: 2 }),
        ("tcp", 41, Channel::Exactly { k: 2 }),
        ("ethernet", 20, Channel::Bsc { ber: 0.2 }),
        ("fletcher16", 10, Channel::Exactly { k: 2 }),
    ] {
        let frame = Frame::new(stack, bytes, Payload::Random).unwrap();
        let n = frame.checks.len();
        let mut plan = Plan::new(frame, channel, Frames(10_000), Seed(7));
        plan.chunk_frames = 4096;
        for engine in [Engine::Sparse, Engine::Dense] {
            let p = Prepared::new(&plan, engine);
            for c in 0..plan.chunks() {
                let visit = &mut |_: u64, _: &[u32], _: u64| {};
                let a = p.run_chunk(c, Pairs::new(n), visit);
                let b = p.run_chunk(c, PerCheck::new(n), visit);
                assert_eq!(a, b, "{stack} {bytes} {engine:?} chunk {c}");
                assert!(a.frames_with_error > 0 && a.errored_in_coverage.iter().any(|&e| e > 0));
            }
        }
    }
}
