//! The only polars code of the engine.

mod awr;
pub mod frames;
pub mod series;

pub use awr::*;
pub use polars::error::{PolarsError, PolarsResult};
pub use polars::frame::DataFrame;
