//! The sampled weight terms against the enumeration.

use super::*;

pub fn sampled_term_agrees_with_the_enumeration() {
    // ethernet-tcp headers and payload over 200 bytes under CRC-16/ARC:
    // weight-4 codewords are plentiful, enumerated and sampled
    let f = Frame::new("ethernet-tcp+CRC-16/ARC", 200, Payload::Random).unwrap();
    let m = JointModel::new(&f).unwrap();
    let exact = m.exact_term(4).unwrap();
    assert!(exact.pass_sum > 100.0, "{}", exact.pass_sum);
    let s = m.sampled_term(4, exact.codewords, 20_000, 3).unwrap();
    assert!(s.pass_sum_ci > 0.0);
    assert!(
        (s.pass_sum - exact.pass_sum).abs() <= s.pass_sum_ci,
        "{} +- {} vs {}",
        s.pass_sum,
        s.pass_sum_ci,
        exact.pass_sum
    );
    // the same seed gives the same estimate
    let again = m.sampled_term(4, exact.codewords, 20_000, 3).unwrap();
    eprintln!(
        "{} +- {} vs {} ({} codewords)",
        s.pass_sum, s.pass_sum_ci, exact.pass_sum, exact.codewords
    );
    assert_eq!(s, again);
}
