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
    /// The spill file of a large run (`spill.rs`, in `TMPDIR`) could not be made, written
    /// or read back (the temporary directory unwritable or full).
    #[error(
        "the temporary file that holds the reports of a large run (in TMPDIR, or /tmp) failed: {0}"
    )]
    Spill(std::io::Error),
}
