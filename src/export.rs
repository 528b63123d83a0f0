//! `--export FILE.parquet|FILE.csv`: the columnar model of every interval, for engines that take
//! over where a fleet outgrows one machine (DuckDB, Spark, polars). See `docs/export.md`.
//!
//! The file holds the model's rows (columns in [`crate::model::COLUMNS`]): one row per source,
//! instance, interval and statistic, with the AWR statistic names verbatim. It is written to a
//! temporary file beside the target and renamed into place, so a failure leaves no partial file.

use std::path::Path;

use polars::prelude::*;

use crate::analyze::Run;

/// Writes the model of `run` to `path` (`.parquet`: uncompressed-safe default codec of polars;
/// `.csv`: comma-separated with a header row, timestamps in ISO 8601).
///
/// # Errors
/// A one-line message naming the path and the cause.
pub fn write(run: &Run, path: &Path) -> Result<(), String> {
    let ext = path
        .extension()
        .and_then(|x| x.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let mut df = run.model.df.clone();
    let mut bytes: Vec<u8> = Vec::new();
    let result = match ext.as_str() {
        "parquet" => ParquetWriter::new(&mut bytes).finish(&mut df).map(|_| ()),
        "csv" => CsvWriter::new(&mut bytes)
            .include_header(true)
            .finish(&mut df),
        other => {
            return Err(format!(
                "--export {}: unknown extension '{other}', expected .parquet or .csv",
                path.display()
            ))
        }
    };
    result.map_err(|e| format!("--export {}: {e}", path.display()))?;
    crate::output::write_atomic(path, &bytes)
}
