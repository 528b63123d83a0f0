//! The series of every subject as polars frames, for `--export` and for engines that take over
//! (DuckDB, Spark, polars). The subjects hand their rows over as plain values
//! ([`DatabaseSeriesRow`], [`HostSeriesRow`]); only this module knows the frame's columns.

use chrono::NaiveDateTime;
use polars::prelude::*;

/// One interval of a database's series, as handed to [`database_series`].
#[derive(Debug, Clone, Copy)]
pub struct DatabaseSeriesRow<'a, const N: usize> {
    /// Database key (`DB_NAME (DB Id N)`).
    pub database: &'a str,
    /// Interval begin (ISO 8601, database local time).
    pub begin_time: Option<&'a str>,
    /// Interval end.
    pub end_time: Option<&'a str>,
    /// Interval length, minutes.
    pub elapsed_min: Option<f64>,
    /// `instance`, `cluster`, `rac_sum`, `pdb`.
    pub scope: &'a str,
    /// Left out of the statistics.
    pub excluded: bool,
    /// The figures, in the order of the names given to [`database_series`] (null = unknown).
    pub figures: [Option<f64>; N],
}

/// The interval series of every database: one row per interval with `database`, `begin_time`,
/// `end_time` (timestamps, ms, no zone: the database's local time), `elapsed_min`, `scope`, `excluded` and one f64 column per name of `figures`
/// (null = unknown).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn database_series<'a, const N: usize>(
    figures: [&str; N],
    rows: impl Iterator<Item = DatabaseSeriesRow<'a, N>>,
) -> PolarsResult<DataFrame> {
    let mut db = Vec::new();
    let mut begin = Vec::new();
    let mut end = Vec::new();
    let mut elapsed = Vec::new();
    let mut scope = Vec::new();
    let mut excluded = Vec::new();
    let mut fields: Vec<Vec<Option<f64>>> = vec![Vec::new(); N];
    for r in rows {
        db.push(r.database);
        begin.push(r.begin_time);
        end.push(r.end_time);
        elapsed.push(r.elapsed_min);
        scope.push(r.scope);
        excluded.push(r.excluded);
        for (col, v) in fields.iter_mut().zip(r.figures) {
            col.push(v);
        }
    }
    let n = db.len();
    let mut cols = vec![
        Column::new("database".into(), db),
        timestamps("begin_time", begin.iter().map(|t| t.and_then(parse_iso)))?,
        timestamps("end_time", end.iter().map(|t| t.and_then(parse_iso)))?,
        Column::new("elapsed_min".into(), elapsed),
        Column::new("scope".into(), scope),
        Column::new("excluded".into(), excluded),
    ];
    for (name, v) in figures.iter().zip(fields) {
        cols.push(Column::new((*name).into(), v));
    }
    DataFrame::new(n, cols)
}

/// One interval of a host's series, as handed to [`host_series`]: host, end time, length in
/// seconds, and the figures in the order of the names given.
pub type HostSeriesRow<'a> = (&'a str, Option<NaiveDateTime>, f64, &'a [Option<f64>]);

/// The host series of every host: one row per interval with `host`, `time` (a timestamp, ms, no
/// zone: the host's local time unless its logs are UTC), `interval_s` and one f64 column per name of `figures`
/// (null = unknown).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn host_series<'a>(
    figures: &[&str],
    rows: impl Iterator<Item = HostSeriesRow<'a>>,
) -> PolarsResult<DataFrame> {
    let mut host = Vec::new();
    let mut time = Vec::new();
    let mut len = Vec::new();
    let mut cols: Vec<Vec<Option<f64>>> = vec![Vec::new(); figures.len()];
    for (h, t, w, v) in rows {
        host.push(h);
        time.push(t);
        len.push(w);
        for (c, x) in cols.iter_mut().zip(v) {
            c.push(*x);
        }
    }
    let n = host.len();
    let mut columns = vec![
        Column::new("host".into(), host),
        timestamps("time", time.into_iter())?,
        Column::new("interval_s".into(), len),
    ];
    for (name, c) in figures.iter().zip(cols) {
        columns.push(Column::new((*name).into(), c));
    }
    DataFrame::new(n, columns)
}

/// `YYYY-MM-DDTHH:MM:SS` (as the subjects print times) to a time.
fn parse_iso(t: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(t, "%Y-%m-%dT%H:%M:%S").ok()
}

/// A timestamp column (Parquet `TIMESTAMP(MILLIS)`, no zone) of `name`.
pub fn timestamps(
    name: &str,
    v: impl Iterator<Item = Option<NaiveDateTime>>,
) -> PolarsResult<Column> {
    let ms: Vec<Option<i64>> = v
        .map(|t| t.map(|t| t.and_utc().timestamp_millis()))
        .collect();
    Column::new(name.into(), ms).cast(&DataType::Datetime(TimeUnit::Milliseconds, None))
}
