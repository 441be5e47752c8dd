//! The tests of `aliasing_sim::shard` (its unit tests, moved here so
//! that the library compiles once in the test build).

#[test]
fn a_pilot_times_a_strided_sixteenth_at_most() {
    let items: Vec<u64> = (0..1000).collect();
    let ran = std::sync::Mutex::new(Vec::new());
    let secs = pilot_seconds(&items, 64, 1, |i| ran.lock().unwrap().push(i)).unwrap();
    let mut ran = ran.into_inner().unwrap();
    ran.sort();
    assert_eq!(ran.len(), 62); // 1000 / 16 = 62 < 64
    assert_eq!(ran[1] - ran[0], 1000 / 62);
    assert!(secs >= 0.0);
    assert!(pilot_seconds(&items[..15], 64, 1, |_| ()).unwrap().is_nan());
}

use aliasing_core::Error;
use aliasing_core::shard::Shard;
use aliasing_sim::shard::*;

type F = ShardFile<String, u64>;

fn shard(i: u64, n: u64) -> Shard {
    Shard::new(i, n).unwrap()
}

fn file((i, n): (u64, u64), seed: u64) -> F {
    ShardFile::finished("toy", format!("seed {seed}"), shard(i, n), 10, i * 10)
}

#[test]
fn round_trip_and_corruption() {
    let f = file((1, 2), 1);
    let t = f.to_text().unwrap();
    assert_eq!(F::from_text(&t, "toy", "x").unwrap(), f);
    let edited = t.replace("\"counts\": 10", "\"counts\": 11");
    assert_ne!(edited, t);
    let e = F::from_text(&edited, "toy", "x").unwrap_err().to_string();
    assert!(e.contains("checksum"), "{e}");
    assert!(F::from_text(&t[..t.len() / 2], "toy", "x").is_err());
    let e = F::from_text(&t, "other", "x").unwrap_err().to_string();
    assert!(e.contains("format toy"), "{e}");
}

#[test]
fn merge_refuses_mismatches() {
    let a = ("a".to_string(), file((1, 2), 1));
    let b = ("b".to_string(), file((2, 2), 1));
    let (_, c) = merge(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(c, 30);
    let one_line = |e: Error| {
        let s = e.to_string();
        assert!(!s.contains('\n'));
        s
    };
    let e = one_line(merge(&[a.clone(), ("c".into(), file((2, 2), 2))]).unwrap_err());
    assert!(e.contains("another seed"), "{e}");
    let e = one_line(merge(&[a.clone(), a.clone()]).unwrap_err());
    assert!(e.contains("twice"), "{e}");
    let e = one_line(merge(std::slice::from_ref(&a)).unwrap_err());
    assert!(e.contains("missing"), "{e}");
    let e = one_line(merge(&[a.clone(), ("d".into(), file((2, 3), 1))]).unwrap_err());
    assert!(e.contains("not one of 2"), "{e}");
    let mut unfinished = b.clone();
    unfinished.1.complete = false;
    assert!(merge(&[a, unfinished]).is_err());
}

proptest::proptest! {
    /// A file with any one byte changed is refused, never accepted or a panic.
    #[test]
    fn any_changed_byte_is_refused(at in 0usize..10_000, delta in 1u8..=255) {
        let t = file((2, 3), 7).to_text().unwrap();
        let mut b = t.clone().into_bytes();
        let i = at % b.len();
        b[i] = b[i].wrapping_add(delta);
        if let Ok(s) = String::from_utf8(b) {
            let e = F::from_text(&s, "toy", "x");
            proptest::prop_assert!(e.is_err(), "byte {} accepted", i);
            proptest::prop_assert!(!e.unwrap_err().to_string().contains('\n'));
        }
    }
}

#[test]
fn every_split_gives_the_same_total() {
    let work = |i: u64| i * i + 1;
    let whole = drive(
        37,
        Shard::WHOLE,
        Checkpoint::start(0),
        &Drive::default(),
        work,
    )
    .unwrap();
    for n in 1..6 {
        let mut t = 0;
        for i in 1..=n {
            t += drive(
                37,
                shard(i, n),
                Checkpoint::start(0),
                &Drive::default(),
                work,
            )
            .unwrap();
        }
        assert_eq!(t, whole);
    }
    // resuming from a prefix
    let p = Checkpoint {
        chunks_done: 5,
        counts: (0..5).map(|j| work(shard(2, 3).strided_item(j))).sum(),
    };
    let resumed = drive(37, shard(2, 3), p, &Drive::default(), work).unwrap();
    assert_eq!(
        resumed,
        drive(
            37,
            shard(2, 3),
            Checkpoint::start(0),
            &Drive::default(),
            work
        )
        .unwrap()
    );
}
