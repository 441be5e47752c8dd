//! One module per subcommand. Each parses its arguments, calls the library and prints.

pub mod compare;
pub mod curve;
pub mod hd;
pub mod merge;
pub mod plot;
pub mod search;
pub mod simulate;
pub mod stack;
pub mod transfer;
pub mod weights;
