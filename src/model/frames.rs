//! Frames.

use polars::prelude::*;

use crate::figures::{FIGURES, HOST_FIGURES};
use crate::subject::database::{DatabaseAnalysis, SERIES_FIELDS};
use crate::subject::host::{iso, HostAnalysis};

/// The interval series of every database as a polars DataFrame: one row per interval with
/// `database`, `begin_time`, `end_time`, `elapsed_min`, `scope`, `excluded` and one f64 column
/// per [`SERIES_FIELDS`] figure (null = unknown).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn database_series(dbs: &[DatabaseAnalysis]) -> PolarsResult<DataFrame> {
    let mut db = Vec::new();
    let mut begin = Vec::new();
    let mut end = Vec::new();
    let mut elapsed = Vec::new();
    let mut scope = Vec::new();
    let mut excluded = Vec::new();
    let mut fields: Vec<Vec<Option<f64>>> = vec![Vec::new(); SERIES_FIELDS.len()];
    for d in dbs {
        for iv in &d.intervals {
            db.push(d.key.as_str());
            begin.push(iv.interval.begin_time.clone());
            end.push(iv.interval.end_time.clone());
            elapsed.push(iv.interval.elapsed_min);
            scope.push(iv.scope);
            excluded.push(iv.excluded);
            for (i, (_, get)) in SERIES_FIELDS.iter().enumerate() {
                fields[i].push(get(&iv.workload).value);
            }
        }
    }
    let n = db.len();
    let mut cols = vec![
        Column::new("database".into(), db),
        Column::new("begin_time".into(), begin),
        Column::new("end_time".into(), end),
        Column::new("elapsed_min".into(), elapsed),
        Column::new("scope".into(), scope),
        Column::new("excluded".into(), excluded),
    ];
    for ((name, _), v) in SERIES_FIELDS.iter().zip(fields) {
        cols.push(Column::new((*name).into(), v));
    }
    DataFrame::new(n, cols)
}

/// The host series of every host as a polars DataFrame: one row per interval with `host`,
/// `time` (ISO 8601), `interval_s` and one f64 column per host figure (null = unknown).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn host_series(hosts: &[HostAnalysis]) -> PolarsResult<DataFrame> {
    let mut host = Vec::new();
    let mut time = Vec::new();
    let mut len = Vec::new();
    let mut cols: Vec<Vec<Option<f64>>> = vec![Vec::new(); HOST_FIGURES];
    for h in hosts {
        for (t, w, v) in &h.series {
            host.push(h.host.as_str());
            time.push(iso(*t));
            len.push(*w);
            for (i, c) in cols.iter_mut().enumerate() {
                c.push(v[i]);
            }
        }
    }
    let n = host.len();
    let mut columns = vec![
        Column::new("host".into(), host),
        Column::new("time".into(), time),
        Column::new("interval_s".into(), len),
    ];
    for (i, c) in cols.into_iter().enumerate() {
        columns.push(Column::new(FIGURES[i].0.into(), c));
    }
    DataFrame::new(n, columns)
}
