//! Frames and stacks of checks: a re-export of [`aliasing_core::layout`],
//! where the layouts live so that the simulator and the exact joint
//! computation read the same frame.
//!
//! ```
//! use aliasing_sim::stack::{Frame, Payload};
//! let f = Frame::new("ethernet-tcp", 1518, Payload::Random).unwrap();
//! assert_eq!(f.checks.len(), 3);
//! ```

pub use aliasing_core::layout::*;
