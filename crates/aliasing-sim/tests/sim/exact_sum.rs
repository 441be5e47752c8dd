//! The tests of `aliasing_sim::exact_sum` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_sim::exact_sum::*;

#[test]
fn sums_are_exact_and_order_free() {
    // values whose f64 sum loses digits: 1 + many tiny ones
    let mut xs = vec![1.0];
    xs.extend(std::iter::repeat_n(1e-17, 1000));
    let mut a = ExactSum::default();
    xs.iter().for_each(|&x| a.add(x));
    // exact: 1 + 1e-14 (up to the representation of 1e-17)
    let want = 1.0 + 1000.0 * 1e-17;
    assert!((a.to_f64() - want).abs() <= f64::EPSILON * want);
    // the naive f64 sum does not see them
    assert_eq!(xs.iter().sum::<f64>(), 1.0);
    let mut b = ExactSum::default();
    xs.iter().rev().for_each(|&x| b.add(x));
    assert_eq!(a, b);
    // split and merged
    let (mut c, mut d) = (ExactSum::default(), ExactSum::default());
    xs[..300].iter().for_each(|&x| c.add(x));
    xs[300..].iter().for_each(|&x| d.add(x));
    c.merge(&d);
    assert_eq!(a, c);
}

#[test]
fn extremes_and_carries() {
    let mut a = ExactSum::default();
    a.add(f64::MAX);
    a.add(f64::MAX);
    assert_eq!(a.to_f64(), f64::INFINITY);
    let mut t = ExactSum::default();
    t.add(5e-324);
    assert_eq!(t.to_f64(), 5e-324);
    t.add_square(1e-300); // 1e-600: below f64, kept exactly
    assert_eq!(t.to_f64(), 5e-324);
    // carries across many words: 2^64 - 1 units plus one unit
    let mut c = ExactSum::default();
    for _ in 0..4 {
        c.add_at(u64::MAX as u128, 0);
    }
    c.add_at(4, 0);
    assert_eq!(c.words, vec![0, 4]);
    // squares exactly
    let mut s = ExactSum::default();
    s.add_square(3.0);
    s.add_square(0.5);
    assert_eq!(s.to_f64(), 9.25);
}

#[test]
fn variance_matches_a_direct_two_pass_form() {
    let xs: Vec<f64> = (1..=1000).map(|i| 1e-20 * (i as f64).sqrt()).collect();
    let (mut s1, mut s2) = (ExactSum::default(), ExactSum::default());
    for &x in &xs {
        s1.add(x);
        s2.add_square(x);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let v2 = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let v = variance(xs.len() as u64, &s1, &s2);
    assert!((v - v2).abs() <= 1e-12 * v2, "{v} vs {v2}");
    // equal values: exactly zero, never negative
    let (mut s1, mut s2) = (ExactSum::default(), ExactSum::default());
    for _ in 0..7 {
        s1.add(0.1);
        s2.add_square(0.1);
    }
    assert_eq!(variance(7, &s1, &s2), 0.0);
    assert!((s1.to_f64() / 7.0 - 0.1).abs() < 1e-17);
}

#[test]
fn serialized_form_round_trips_and_refuses_junk() {
    let mut a = ExactSum::default();
    a.add(0.3);
    a.add_square(1e-200);
    let s = serde_json::to_string(&a).unwrap();
    assert_eq!(serde_json::from_str::<ExactSum>(&s).unwrap(), a);
    let zero = serde_json::to_string(&ExactSum::default()).unwrap();
    assert_eq!(zero, "\"0\"");
    assert_eq!(
        serde_json::from_str::<ExactSum>(&zero).unwrap(),
        ExactSum::default()
    );
    for bad in ["\"\"", "\"-1\"", "\"0x1\"", "\"01\"", "\"AB\"", "1"] {
        assert!(serde_json::from_str::<ExactSum>(bad).is_err(), "{bad}");
    }
}
