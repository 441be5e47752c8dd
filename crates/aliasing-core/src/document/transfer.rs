//! The `transfer` document: the expected number of frames that reach the
//! application corrupted (every check passed) in a transfer of a given size,
//! per (MTU, BER, hops), from the exact joint escape of the stack.

use super::{Document, JointEstimate};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A value with its bracket: `estimate` inside `[low, high]`, or `null`
/// where only the bracket is known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Bracketed {
    /// The estimate; `null` where the bracket alone is reported.
    pub estimate: Option<f64>,
    /// Lower end (certified, or of the 95% interval where the joint escape
    /// has a sampled weight).
    pub low: f64,
    /// Upper end, as `low`.
    pub high: f64,
}

impl Bracketed {
    /// A value with its bracket.
    pub fn new(estimate: Option<f64>, low: f64, high: f64) -> Self {
        Bracketed {
            estimate,
            low,
            high,
        }
    }
}

/// One (MTU, BER, hops) point of a [`Transfer`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TransferPoint {
    /// The IP packet length in bytes (IPv4 header, TCP header, payload).
    pub mtu: u64,
    /// The frame on the wire in bytes, CRC field included (MTU + 18 on
    /// Ethernet: 14-byte header, 4-byte FCS).
    pub frame_bytes: u64,
    /// TCP payload bytes per frame (MTU - 40).
    pub payload_bytes: u64,
    /// Segments of the transfer: `ceil(size / payload_bytes)`.
    pub frames: u64,
    /// Expected frames sent, resent ones included: `frames / (1 - d)` with
    /// `d` the probability that an attempt is dropped, `1 - d = c^H +
    /// joint` (`c^H` the probability of no flip on any link; `null` where
    /// it is beyond the floating-point range). Computed with the joint
    /// escape's estimate, or its lower end where only the bracket is known.
    pub frames_sent: Option<f64>,
    /// Bit error rate of every link.
    pub ber: f64,
    /// Links crossed, each checking and regenerating the CRC.
    pub hops: u32,
    /// P(at least one bit flips on some link) for one attempt.
    pub p_error: f64,
    /// The probability that one attempt (one frame sent) reaches the
    /// application corrupted, every check passed; at one hop exactly the
    /// joint escape of `alias stack` for `frame_bytes` and `ber`.
    pub joint_per_frame: JointEstimate,
    /// Expected corrupted frames delivered in the transfer:
    /// `frames_sent x joint_per_frame`.
    pub escapes: Bracketed,
    /// P(at least one corrupted frame is delivered):
    /// `1 - (1 - q)^frames` with `q = joint_per_frame / (1 - d)` per segment.
    pub p_at_least_one: Bracketed,
    /// Bytes of the transfer per expected escape (`size / escapes`; `null`
    /// where no escape is expected or there is no estimate).
    pub bytes_per_escape: Option<f64>,
    /// What the study's independence product says: `frames x hops x
    /// p_error(one link) x independence_product` (`null` where the product
    /// is unknown).
    pub independence_escapes: Option<f64>,
    /// Corruption inside hosts and routers (`--corruption`), one entry per
    /// model given; absent where none was given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corruption: Vec<CorruptionPoint>,
    /// Expected corrupted segments delivered from both causes: `escapes`
    /// (the links) plus every corruption entry's `escapes`, each end of the
    /// bracket and the estimate adding the same corruption sum; absent
    /// where no corruption was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_escapes: Option<Bracketed>,
}

/// One entry of a transfer point's `"corruption"` list: a segment corrupted
/// once inside a host or router, between link checks, where only the
/// end-to-end checks can see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorruptionPoint {
    /// The model, as `bits:P`, `word`, `burst:B`, `splice:C`.
    pub model: String,
    /// Probability that a segment is corrupted once.
    pub rate: f64,
    /// `P(every end-to-end check passes | the segment was corrupted)`.
    pub p_miss: f64,
    /// Expected undetected corruptions: `frames x rate x p_miss`.
    pub escapes: f64,
    /// How `p_miss` was computed.
    pub method: String,
}

/// `alias transfer` (kind `transfer`): `{"stack", "size_bytes", "model",
/// "points": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Transfer {
    /// The stack's name as given, e.g. `"ethernet-tcp"`.
    pub stack: String,
    /// Bytes transferred (TCP payload), from 1 to 2^64: a JSON integer up
    /// to 2^64 - 1, the decimal string `"18446744073709551616"` for 2^64.
    #[serde(with = "size_serde")]
    pub size_bytes: u128,
    /// The file whose size was used, if the size came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload_file: Option<String>,
    /// The channel and hops model, in words.
    pub model: String,
    /// The end-to-end CRC over each segment's data on top of TCP
    /// (`--digest`), by its catalogue name: every corruption entry's
    /// `p_miss` is that of the TCP checksum and this CRC together. Absent
    /// without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// One point per (MTU, BER, hops), MTU-major, then BER, then hops.
    pub points: Vec<TransferPoint>,
}

impl Transfer {
    /// A transfer document.
    pub fn new(
        stack: impl Into<String>,
        size_bytes: u128,
        payload_file: Option<String>,
        model: impl Into<String>,
        points: Vec<TransferPoint>,
    ) -> Self {
        Transfer {
            stack: stack.into(),
            size_bytes,
            payload_file,
            model: model.into(),
            digest: None,
            points,
        }
    }

    /// The document with its end-to-end CRC's name (`None`: without one).
    pub fn with_digest(mut self, digest: Option<String>) -> Self {
        self.digest = digest;
        self
    }
}

impl Document for Transfer {
    const KIND: &'static str = "transfer";
}

impl TransferPoint {
    /// A point from its fields (see each field's documentation).
    #[allow(clippy::too_many_arguments)] // one per field of the document
    pub fn new(
        mtu: u64,
        frame_bytes: u64,
        payload_bytes: u64,
        frames: u64,
        frames_sent: Option<f64>,
        ber: f64,
        hops: u32,
        p_error: f64,
        joint_per_frame: JointEstimate,
        escapes: Bracketed,
        p_at_least_one: Bracketed,
        bytes_per_escape: Option<f64>,
        independence_escapes: Option<f64>,
    ) -> Self {
        TransferPoint {
            mtu,
            frame_bytes,
            payload_bytes,
            frames,
            frames_sent,
            ber,
            hops,
            p_error,
            joint_per_frame,
            escapes,
            p_at_least_one,
            bytes_per_escape,
            independence_escapes,
            corruption: Vec::new(),
            total_escapes: None,
        }
    }

    /// The point with its corruption entries and the total (link escapes
    /// plus the entries' escapes); no entries: the point unchanged.
    pub fn with_corruption(mut self, corruption: Vec<CorruptionPoint>) -> Self {
        if corruption.is_empty() {
            return self;
        }
        let c: f64 = corruption.iter().map(|e| e.escapes).sum();
        let e = &self.escapes;
        self.total_escapes = Some(Bracketed::new(
            e.estimate.map(|x| x + c),
            e.low + c,
            e.high + c,
        ));
        self.corruption = corruption;
        self
    }
}

/// A size up to 2^64: a JSON integer when it fits 64 bits, else its decimal
/// string.
mod size_serde {
    use super::*;

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(*v) {
            Ok(x) => s.serialize_u64(x),
            Err(_) => s.serialize_str(&v.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            N(u64),
            S(String),
        }
        match Wire::deserialize(d)? {
            Wire::N(v) => Ok(v as u128),
            Wire::S(s) => s
                .parse::<u128>()
                .map_err(|e| serde::de::Error::custom(format!("size `{s}`: {e}"))),
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// 2^64 bytes is written as a string, smaller sizes as integers; both
    /// read back.
    pub fn sizes_round_trip() {
        for size in [1u128, 10_000_000_000_000, u64::MAX as u128, 1 << 64] {
            let d = Transfer::new("ethernet-tcp", size, None, "m", vec![]);
            let text = super::super::to_json_sorted(&d).unwrap();
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["kind"], "transfer");
            assert_eq!(v["size_bytes"].is_u64(), size <= u64::MAX as u128, "{text}");
            let back: Transfer = super::super::from_value(v).unwrap();
            assert_eq!(back, d);
        }
    }
}
