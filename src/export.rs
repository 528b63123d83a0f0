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
        let model = run.model().map_err(|source| ExportError::Encode {
            path: path.to_path_buf(),
            source,
        })?;
        write_frame(&model.df, path)?;
        written.push(path.to_path_buf());
    }
    if !run.hosts.is_empty() {
        let hosts_path = if run.databases.is_empty() {
            path.to_path_buf()
        } else {
            hosts_path(path)
        };
        write_frame(&run.host_series, &hosts_path)?;
        written.push(hosts_path);
    }
    Ok(written)
}

/// The text a CSV cell holds: a text value that begins with `=`, `+`, `-`, `@`, a tab or a
/// carriage return is prefixed with `'`, so a spreadsheet opening the export shows it as text
/// instead of running it as a formula (OWASP's "CSV injection" advice). File, host, database
/// and statistic names come from the user's files. Only text columns are touched: numbers,
/// negative ones included, are numbers, written as they are.
pub fn neutralise_cell(s: &str) -> std::borrow::Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        std::borrow::Cow::Owned(format!("'{s}"))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// `df` with every text cell neutralised ([`neutralise_cell`]).
fn neutralise_formulas(df: &DataFrame) -> PolarsResult<DataFrame> {
    let mut out = df.clone();
    for col in df.columns() {
        if col.dtype() != &DataType::String {
            continue;
        }
        let ca = col.str()?;
        if !ca
            .iter()
            .flatten()
            .any(|v| matches!(neutralise_cell(v), std::borrow::Cow::Owned(_)))
        {
            continue;
        }
        let safe: StringChunked = ca
            .iter()
            .map(|v| v.map(|v| neutralise_cell(v).into_owned()))
            .collect();
        out.with_column(safe.with_name(col.name().clone()).into_column())?;
    }
    Ok(out)
}

/// The name of the host series beside `path` when the run has AWR reports too:
/// `<stem>.hosts.<ext>` (`fleet.csv` → `fleet.hosts.csv`). The CLI checks it against the inputs
/// before the run, as it checks `path`.
pub fn hosts_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".into());
    let ext = path
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "csv".into());
    path.with_file_name(format!("{stem}.hosts.{ext}"))
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
        "csv" => neutralise_formulas(&df).and_then(|mut df| {
            CsvWriter::new(&mut bytes)
                .include_header(true)
                .finish(&mut df)
        }),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cells_that_start_like_formulas_are_neutralised_and_numbers_are_not() {
        assert_eq!(neutralise_cell("=1+1"), "'=1+1");
        assert_eq!(neutralise_cell("+cmd"), "'+cmd");
        assert_eq!(neutralise_cell("-2"), "'-2");
        assert_eq!(neutralise_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(neutralise_cell("\tx"), "'\tx");
        assert_eq!(neutralise_cell("db01"), "db01");
        let df = df!(
            "source" => ["=HYPERLINK(\"x\")", "a.html"],
            "value" => [-1.5f64, 2.0],
        )
        .unwrap();
        let safe = neutralise_formulas(&df).unwrap();
        let src: Vec<Option<&str>> = safe
            .column("source")
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .collect();
        assert_eq!(src, [Some("'=HYPERLINK(\"x\")"), Some("a.html")]);
        // A negative number stays a number.
        let v: Vec<Option<f64>> = safe
            .column("value")
            .unwrap()
            .f64()
            .unwrap()
            .iter()
            .collect();
        assert_eq!(v, [Some(-1.5), Some(2.0)]);
    }
}
