//! The model: the only polars code of the engine.
//!
//! - [`awr`](self) (re-exported here): every statistic of every AWR/Statspack report as one row of
//!   a DataFrame ([`Model`], columns [`COLUMNS`]), and [`View`], the lookup table the figures of
//!   one report or one summed RAC interval are read from (by the metrics module).
//! - [`series`]: one statistics function (average, p50, p95, p99, max and the peak's sample) for
//!   the series of databases, hosts and clusters alike.
//! - [`frames`]: the series of databases and hosts as DataFrames, for `--export`.
//! - [`precision`]: the values finer than printed (average waits from Total Wait Time / Waits,
//!   text reports' rates from Total / elapsed) and their bounds, which the model rows carry.
//!
//! The rest of the engine sees [`Model`], [`View`], [`DataFrame`] (as an opaque value) and
//! [`PolarsError`], never polars' API.

mod awr;
pub mod frames;
mod kept;
pub mod precision;
pub mod series;
mod view;

pub use awr::*;
pub use kept::KeptRows;
pub use polars::error::{PolarsError, PolarsResult};
pub use polars::frame::DataFrame;
pub use precision::{decimals_in_ms, half_unit, printed_ms, HTML_RATE_DECIMALS};
#[cfg(test)]
pub(crate) use view::lookups;
pub use view::{Cells, Histogram, View};
