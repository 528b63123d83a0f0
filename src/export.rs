//! `--export FILE.parquet|FILE.csv`: the columnar model of every interval, for engines that take
//! over where a fleet outgrows one machine (DuckDB, Spark, polars). See `docs/export.md`.
//!
//! The file holds the model's rows (columns in [`crate::model::COLUMNS`]): one row per source,
//! instance, interval and statistic, with the AWR statistic names verbatim. It is written to a
//! temporary file beside the target and renamed into place, so a failure leaves no partial file.
//! Host series of OS disk logs are written too (see [`fn@write`]).

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::output::OutputError;

/// Why an export was not written. Messages name the `--export` path.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The path ends in neither `.parquet` nor `.csv`.
    #[error("--export {}: unknown extension '{ext}', expected .parquet or .csv", path.display())]
    UnknownExtension {
        /// The path given.
        path: PathBuf,
        /// Its extension, lower case.
        ext: String,
    },
    /// polars could not encode the frame.
    #[error("--export {}: {source}", path.display())]
    Encode {
        /// The path given.
        path: PathBuf,
        /// The cause.
        #[source]
        source: PolarsError,
    },
    /// The file could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
}

use crate::pipeline::Run;

/// Writes the model of `run` to `path` (`.parquet`: uncompressed-safe default codec of polars;
/// `.csv`: comma-separated with a header row, timestamps in ISO 8601). OS disk logs' host series
/// ([`crate::subject::host::series_frame`]: one row per host and interval) go to `path` when the run has
/// no AWR database, else beside it as `<stem>.hosts.<ext>`. Returns the paths written.
///
/// # Errors
/// [`ExportError`] naming the path and the cause.
pub fn write(run: &Run, path: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let mut written = Vec::new();
    if run.hosts.is_empty() || !run.databases.is_empty() {
        write_frame(&run.model.df, path)?;
        written.push(path.to_path_buf());
    }
    if !run.hosts.is_empty() {
        let hosts_path = if run.databases.is_empty() {
            path.to_path_buf()
        } else {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("export");
            let ext = path.extension().and_then(|s| s.to_str()).unwrap_or("csv");
            path.with_file_name(format!("{stem}.hosts.{ext}"))
        };
        write_frame(&run.host_series, &hosts_path)?;
        written.push(hosts_path);
    }
    Ok(written)
}

/// Writes one frame atomically as Parquet or CSV, by the path's extension.
fn write_frame(df: &DataFrame, path: &Path) -> Result<(), ExportError> {
    let ext = path
        .extension()
        .and_then(|x| x.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let mut df = df.clone();
    let mut bytes: Vec<u8> = Vec::new();
    let result = match ext.as_str() {
        "parquet" => ParquetWriter::new(&mut bytes).finish(&mut df).map(|_| ()),
        "csv" => CsvWriter::new(&mut bytes)
            .include_header(true)
            .finish(&mut df),
        other => {
            return Err(ExportError::UnknownExtension {
                path: path.to_path_buf(),
                ext: other.to_string(),
            })
        }
    };
    result.map_err(|source| ExportError::Encode {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(crate::output::write_atomic(path, &bytes)?)
}
