//! `--export FILE.parquet|FILE.csv`: the columnar model of every interval, for engines that take
//! over where a fleet outgrows one machine (DuckDB, Spark, polars). See `docs/export.md`.
//!
//! The file holds the model's rows (columns in [`crate::model::COLUMNS`]): one row per source,
//! instance, interval and statistic, with the AWR statistic names verbatim. The rows are streamed:
//! [`ModelExport`] receives each report's rows as the report is finished
//! ([`crate::pipeline::run_inputs_into`]) and encodes them at once (Parquet in row groups of
//! [`ROW_GROUP_ROWS`], CSV report by report), into a temporary file beside the target that is
//! renamed into place at the end, so a failure leaves no partial file and no run holds every
//! row. Host series of OS disk logs are written too (see [`ModelExport::finish`]), and beside
//! the model two tables: the reports table ([`reports_path`]: what each report says of itself
//! beyond its rows, so that [`merge`] rebuilds the run from exports, `--from-export`) and the
//! results table ([`results_path`]: sizer's answers, one row per database or host and target).
//! Every time column is a timestamp (Parquet `TIMESTAMP(MILLIS)`, no zone).

pub mod merge;
mod reports;
mod results;

pub use reports::REPORT_COLUMNS;
pub use results::{CAPACITY_NOT_GIVEN, NO_LIST_PRICE, RESULT_COLUMNS};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

use crate::model::Model;
use crate::output::AtomicFile;
use crate::pipeline::{ModelSink, Run};

/// Rows per Parquet row group: reports' frames are gathered until they hold this many rows
/// (about 60 reports), then written as one row group. DuckDB writes groups of 122,880 rows by
/// default; smaller groups keep what is held small.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// The encoder of the model file, writing into a handle of the temporary file.
enum Encoder {
    /// Boxed: the Parquet writer is about 700 bytes, the CSV one about 110.
    Parquet(Box<polars::io::parquet::write::BatchedWriter<Shared>>),
    Csv(polars::io::csv::write::BatchedWriter<Shared>),
}

/// The streaming `--export` of the model: each report's rows are encoded as the report is
/// finished ([`ModelSink`]), into a temporary file beside the target; [`ModelExport::finish`]
/// renames it into place (`output::AtomicFile`), so a failure or an interruption leaves no
/// partial file. Parquet rows are gathered into row groups of [`ROW_GROUP_ROWS`]; CSV rows are
/// written report by report. Nothing holds more than one row group.
pub struct ModelExport {
    path: PathBuf,
    file: Shared,
    encoder: Encoder,
    /// Frames not yet written (Parquet): fewer than [`ROW_GROUP_ROWS`] rows.
    pending: Vec<DataFrame>,
    pending_rows: usize,
    /// Rows written so far.
    rows: u64,
    /// The first failure; nothing more is written after it.
    error: Option<ExportError>,
    /// The paths given on the command line, which key each file ([`crate::shard::InputKey`]).
    roots: Vec<PathBuf>,
    /// The keys of a merged run's files (`--from-export`), which override `roots`.
    keys: Option<std::collections::HashMap<String, crate::shard::InputKey>>,
}

impl ModelExport {
    /// Starts the export to `path` (`.parquet` or `.csv`): creates its temporary file.
    ///
    /// # Errors
    /// [`ExportError::UnknownExtension`]; [`ExportError::Output`] when the temporary file
    /// cannot be created; [`ExportError::Encode`] when the encoder cannot start.
    pub fn create(path: &Path) -> Result<ModelExport, ExportError> {
        let ext = extension(path)?;
        let file = Shared(Arc::new(Mutex::new(AtomicFile::create(path)?)));
        let out = file.clone();
        let schema = Model::build(&[])
            .map_err(|source| encode(path, source))?
            .df
            .schema()
            .as_ref()
            .clone();
        let encoder = match ext {
            Ext::Parquet => Encoder::Parquet(Box::new(
                ParquetWriter::new(out)
                    .batched(&schema)
                    .map_err(|source| encode(path, source))?,
            )),
            Ext::Csv => Encoder::Csv(
                CsvWriter::new(out)
                    .include_header(true)
                    .batched(&schema)
                    .map_err(|source| encode(path, source))?,
            ),
        };
        Ok(ModelExport {
            path: path.to_path_buf(),
            file,
            encoder,
            pending: Vec::new(),
            pending_rows: 0,
            rows: 0,
            error: None,
            roots: Vec::new(),
            keys: None,
        })
    }

    /// The paths given on the command line (in order): the reports table keys each file by the
    /// root it was named as or found under ([`crate::shard::InputKey`]).
    pub fn set_roots(&mut self, roots: &[PathBuf]) {
        self.roots = roots.to_vec();
    }

    /// The keys of the files of a merged run (from their exports' reports tables), used instead
    /// of the roots.
    pub fn set_keys(&mut self, keys: std::collections::HashMap<String, crate::shard::InputKey>) {
        self.keys = Some(keys);
    }

    /// Rows handed to the export so far (written, or gathered for the next row group).
    pub fn rows(&self) -> u64 {
        self.rows + self.pending_rows as u64
    }

    /// Writes the frames gathered as one row group.
    fn flush_pending(&mut self) -> PolarsResult<()> {
        let Encoder::Parquet(w) = &mut self.encoder else {
            return Ok(());
        };
        let mut frames = std::mem::take(&mut self.pending).into_iter();
        let Some(mut df) = frames.next() else {
            return Ok(());
        };
        for f in frames {
            df.vstack_mut_owned(f)?;
        }
        let chunked = polars::frame::chunk_df_for_writing(&mut df, ROW_GROUP_ROWS)?;
        w.write_batch(&chunked)?;
        self.rows += self.pending_rows as u64;
        self.pending_rows = 0;
        Ok(())
    }

    fn write(&mut self, part: Model) -> PolarsResult<()> {
        let n = part.df.height();
        match &mut self.encoder {
            Encoder::Csv(w) => {
                let mut df = neutralise_formulas(&part.df)?;
                df.align_chunks();
                w.write_batch(&df)?;
                self.rows += n as u64;
            }
            Encoder::Parquet(_) => {
                self.pending.push(part.df);
                self.pending_rows += n;
                if self.pending_rows >= ROW_GROUP_ROWS {
                    self.flush_pending()?;
                }
            }
        }
        Ok(())
    }

    /// Ends the export of `run`: the model file is completed and renamed into place, unless the
    /// run has OS disk logs and no AWR database (then the host series takes the name, as
    /// before). OS disk logs' host series ([`crate::subject::host::series_frame`]: one row per
    /// host and interval) go to the export path when the run has no AWR database, else beside it
    /// as `<stem>.hosts.<ext>`. Returns the paths written.
    ///
    /// # Errors
    /// The first [`ExportError`] met while streaming, or in finishing, naming the path.
    pub fn finish(mut self, run: &Run) -> Result<Vec<PathBuf>, ExportError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let path = self.path.clone();
        let mut written = Vec::new();
        if run.hosts.is_empty() || !run.databases.is_empty() {
            self.flush_pending()
                .map_err(|source| encode(&path, source))?;
            let out = match self.encoder {
                Encoder::Parquet(w) => w.finish().map(|_| ()),
                Encoder::Csv(mut w) => w.finish(),
            };
            out.map_err(|source| encode(&path, source))?;
            // The encoder, and its handle on the file, are gone: the export holds the last one.
            let file = Arc::try_unwrap(self.file.0)
                .map_err(|_| {
                    encode(
                        &path,
                        PolarsError::ComputeError("the export file is still shared".into()),
                    )
                })?
                .into_inner()
                .unwrap_or_else(|e| e.into_inner());
            file.commit()?;
            written.push(path.clone());
        } else {
            drop(self.encoder);
            drop(self.file);
        }
        if !run.hosts.is_empty() {
            let hosts_path = if run.databases.is_empty() {
                path.clone()
            } else {
                hosts_path(&path)
            };
            write_frame(&run.host_series, &hosts_path)?;
            written.push(hosts_path);
        }
        let mut entries = reports::entries(run, &self.roots);
        if let Some(keys) = &self.keys {
            for e in &mut entries {
                if let Some(k) = keys.get(&e.source) {
                    e.key = k.clone();
                }
            }
        }
        let reports = reports_path(&path);
        let df = reports::frame(&entries).map_err(|source| encode(&reports, source))?;
        write_frame(&df, &reports)?;
        written.push(reports);
        let results = results_path(&path);
        let df = results::frame(run).map_err(|source| encode(&results, source))?;
        write_frame(&df, &results)?;
        written.push(results);
        Ok(written)
    }
}

impl ModelSink for ModelExport {
    fn report(&mut self, part: Model) {
        if self.error.is_some() {
            return;
        }
        if let Err(source) = self.write(part) {
            self.error = Some(encode(&self.path, source));
        }
    }
}

fn encode(path: &Path, source: PolarsError) -> ExportError {
    ExportError::Encode {
        path: path.to_path_buf(),
        source,
    }
}

/// The kinds of export file.
enum Ext {
    Parquet,
    Csv,
}

fn extension(path: &Path) -> Result<Ext, ExportError> {
    let ext = path
        .extension()
        .and_then(|x| x.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    match ext.as_str() {
        "parquet" => Ok(Ext::Parquet),
        "csv" => Ok(Ext::Csv),
        other => Err(ExportError::UnknownExtension {
            path: path.to_path_buf(),
            ext: other.to_string(),
        }),
    }
}

/// The temporary file, shared by the encoder (which writes into it) and the export (which
/// commits it once the encoder is done and dropped).
#[derive(Clone)]
struct Shared(Arc<Mutex<AtomicFile>>);

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, AtomicFile> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.lock().writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.lock().writer().write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.lock().writer().flush()
    }
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
    beside(path, "hosts")
}

/// The reports table beside `path`: `<stem>.reports.<ext>` (`fleet.parquet` →
/// `fleet.reports.parquet`; columns [`REPORT_COLUMNS`], `docs/export.md`).
pub fn reports_path(path: &Path) -> PathBuf {
    beside(path, "reports")
}

/// The results table beside `path`: `<stem>.results.<ext>` (columns [`RESULT_COLUMNS`]).
pub fn results_path(path: &Path) -> PathBuf {
    beside(path, "results")
}

fn beside(path: &Path, what: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".into());
    let ext = path
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "csv".into());
    path.with_file_name(format!("{stem}.{what}.{ext}"))
}

/// `df` with its list columns as text, items joined by `; ` (CSV has no lists).
fn lists_as_text(df: &DataFrame) -> PolarsResult<DataFrame> {
    let mut out = df.clone();
    for col in df.columns() {
        let DataType::List(_) = col.dtype() else {
            continue;
        };
        let ca = col.list()?;
        let joined: StringChunked = (0..ca.len())
            .map(|i| ca.get_as_series(i))
            .map(|v| {
                v.map(|s| {
                    let s = s.cast(&DataType::String).unwrap_or(s);
                    s.str()
                        .map(|c| c.iter().flatten().collect::<Vec<_>>().join("; "))
                        .unwrap_or_default()
                })
            })
            .collect();
        out.with_column(joined.with_name(col.name().clone()).into_column())?;
    }
    Ok(out)
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
        "csv" => lists_as_text(&df)
            .and_then(|df| neutralise_formulas(&df))
            .and_then(|mut df| {
                // ISO 8601 to the second, as these tables' times are printed (the host
                // series' CSV before its times were timestamps).
                CsvWriter::new(&mut bytes)
                    .include_header(true)
                    .with_datetime_format(Some("%Y-%m-%dT%H:%M:%S".into()))
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
