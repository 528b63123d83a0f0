//! The engine's errors. A problem with one input is not an error of the run: it becomes a
//! failure or skipped entry of the run (the ingest module's `ReadError` says which) and the
//! other inputs still run. What is left is a run that cannot assemble its results at all.

use crate::model::PolarsError;

/// Why a run produced no results.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The columnar model or a series frame could not be built (polars; not expected for rows
    /// the engine built itself). The message is polars' own.
    #[error(transparent)]
    Model(#[from] PolarsError),
}
