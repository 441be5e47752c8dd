//! The tests of `aliasing_sim::spec` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_sim::channel::Channel;
use aliasing_sim::run::{Frames, Seed};
use aliasing_sim::spec::*;

#[test]
fn payload_syntax() {
    assert_eq!(PayloadSpec::parse(" random ").unwrap(), PayloadSpec::Random);
    assert_eq!(
        PayloadSpec::parse("pattern:0x00ff").unwrap(),
        PayloadSpec::Fixed(vec![0, 255])
    );
    for bad in [
        "pattern:",
        "pattern:abc",
        "pattern:zz",
        "nope",
        "file:/nonexistent/x",
    ] {
        let e = PayloadSpec::parse(bad).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
    }
    // bytes past the frame are dropped; the text form round-trips
    let p = Params::new(
        "crc8",
        4,
        Channel::Bsc { ber: 0.1 },
        PayloadSpec::Fixed(vec![1, 2, 3, 4, 5, 6]),
        Frames(10),
        Seed(1),
    );
    assert_eq!(p.payload, PayloadSpec::Fixed(vec![1, 2, 3, 4]));
    let t = serde_json::to_string(&p).unwrap();
    assert!(t.contains("\"bytes:01020304\""), "{t}");
    assert_eq!(serde_json::from_str::<Params>(&t).unwrap(), p);
    let mut q = p.clone();
    q.seed = 2;
    assert_eq!(
        p.difference(&q, "in the checkpoint", "given").unwrap(),
        "seed: 1 in the checkpoint, 2 given"
    );
    assert_eq!(p.difference(&p, "a", "b"), None);
}
