//! The tests of `aliasing_sim::channel` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_core::channel::GilbertElliott;
use aliasing_sim::channel::*;
use aliasing_sim::stream::chunk_rng;

fn count(channel: Channel, n: u64, frames: usize) -> (usize, usize) {
    let mut s = ErrorStream::new(&channel, n, chunk_rng(9, 0, 0));
    let mut v = Vec::new();
    let (mut errs, mut errored) = (0, 0);
    for _ in 0..frames {
        s.next_frame(&mut v);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        assert!(v.iter().all(|&t| (t as u64) < n));
        errs += v.len();
        errored += !v.is_empty() as usize;
    }
    (errs, errored)
}

#[test]
fn bsc_error_count_matches_ber() {
    // 1e5 frames of 1000 bits at 1e-3: mean 1e5 errors, sd 316
    let (e, f) = count(Channel::Bsc { ber: 1e-3 }, 1000, 100_000);
    assert!((e as f64 - 1e5).abs() < 3000.0, "{e}");
    // P(frame errored) = 1 - 0.999^1000 = 0.63230
    let pe = aliasing_core::bsc::p_error(1000, 1e-3);
    assert!((f as f64 / 1e5 - pe).abs() < 0.01, "{f}");
    assert_eq!(count(Channel::Bsc { ber: 0.0 }, 1000, 100), (0, 0));
    assert_eq!(count(Channel::Bsc { ber: 1.0 }, 10, 100), (1000, 100));
}

#[test]
fn burst_mean_ber_and_clustering() {
    let g = GilbertElliott::new(1e-6, 0.5, 1e-5, 0.05).unwrap();
    let frames = 100_000;
    let (e, f) = count(Channel::Burst(g), 1000, frames);
    let mean = g.mean_ber() * 1000.0 * frames as f64;
    assert!((e as f64 / mean - 1.0).abs() < 0.15, "{e} vs {mean}");
    // bursts cluster: far fewer errored frames than a BSC of the same mean BER
    let (_, fb) = count(Channel::Bsc { ber: g.mean_ber() }, 1000, frames);
    assert!(f * 2 < fb, "{f} {fb}");
}

#[test]
fn exactly_k_is_uniform_and_distinct() {
    let mut s = ErrorStream::new(&Channel::Exactly { k: 3 }, 8, chunk_rng(1, 2, 0));
    let mut v = Vec::new();
    let mut hits = [0u32; 8];
    for _ in 0..80_000 {
        s.next_frame(&mut v);
        assert_eq!(v.len(), 3);
        for &t in &v {
            hits[t as usize] += 1;
        }
    }
    // each position: mean 30000, sd ~ 140
    for h in hits {
        assert!((h as i64 - 30_000).abs() < 1500, "{hits:?}");
    }
    assert!(Channel::Exactly { k: 9 }.validate(8).is_err());
    assert!(Channel::Bsc { ber: 2.0 }.validate(8).is_err());
}
