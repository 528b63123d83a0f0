//! `--from-export`: the run rebuilt from exports (`docs/scale.md`), so that shards read on many
//! machines (`--shard K/N`, [`crate::shard`]) merge into the answer of one run over all inputs.
//!
//! Flow: each export file (Parquet; a directory gives every `*.parquet` in it that is not a
//! reports, results or host series table) and its reports table (`<stem>.reports.parquet`,
//! [`super::reports_path`]) are read; every report's statistic rows (the model, columns
//! [`crate::model::COLUMNS`]) and its header (identity, instances, snapshot precision, parser
//! warnings) become the reduced report the parser would have given, and go through the same
//! figures ([`crate::subject::awr`]'s `finish`). The files of every export are then put in the
//! order one run reads them ([`crate::shard::InputKey::cmp_run_order`]), duplicates are dropped
//! as a run drops them, and the run is assembled as any run is (`pipeline::assemble`). Nothing is
//! approximated: every value a run computes from is in the export, bit for bit (Parquet doubles).
//!
//! Refused, with the file named: CSV exports (text numbers), an export without its reports
//! table, a host series, and exports whose run read OS disk logs or virtualisation exports (their
//! device rows are not exported: run those inputs in one run, or on the machine that holds them).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::reports::{self, Entry, Status};
use crate::error::RunError;
use crate::model::{section, SourceMeta, StatRow};
use crate::pipeline::{
    assemble, Duplicate, Failure, Gathered, ModelSink, Reports, Run, Seen, Skipped,
};
use crate::rules::RuleSet;
use crate::settings::Settings;
use crate::shard::InputKey;
use crate::subject::awr::{finish, formula_of, ReducedReport, StatisticValue, STATISTICS_SHOWN};

/// Why exports could not be merged. Messages name the file.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A path given is neither a Parquet file nor a directory holding some.
    #[error("--from-export {}: {why}", path.display())]
    NotAnExport {
        /// The path.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The export has no reports table beside it.
    #[error("--from-export {}: no reports table {} beside it (an export written before sizer wrote one cannot be merged: export again)", path.display(), expected.display())]
    NoReportsTable {
        /// The export.
        path: PathBuf,
        /// The table looked for.
        expected: PathBuf,
    },
    /// The export's run read inputs a merge cannot rebuild.
    #[error("--from-export {}: its run read {kind} input(s) whose rows are not exported ({}); --from-export rebuilds AWR and Statspack reports only: analyse these in one run", path.display(), files.join(", "))]
    NotRebuilt {
        /// The export.
        path: PathBuf,
        /// `OS disk log` or `virtualisation export`.
        kind: &'static str,
        /// The inputs, as the export names them.
        files: Vec<String>,
    },
    /// polars could not read the file, or it is not a sizer export.
    #[error("--from-export {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: PolarsError,
    },
    /// The run could not be assembled.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// The export files among `paths`: files as given, directories' `*.parquet` files (sorted) that
/// are not a derived table (`.reports.`, `.results.`, `.hosts.`).
///
/// # Errors
/// [`MergeError::NotAnExport`] for a CSV file, a path that is not there, or a directory without
/// exports.
pub fn export_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, MergeError> {
    let derived = |p: &Path| {
        let n = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        [".reports.", ".results.", ".hosts."]
            .iter()
            .any(|d| n.contains(d))
    };
    let parquet = |p: &Path| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
    };
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| MergeError::NotAnExport {
                    path: p.clone(),
                    why: e.to_string(),
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && parquet(f) && !derived(f))
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(MergeError::NotAnExport {
                    path: p.clone(),
                    why: "no *.parquet export in this directory".into(),
                });
            }
            out.extend(found);
        } else if !p.is_file() {
            return Err(MergeError::NotAnExport {
                path: p.clone(),
                why: "no such file".into(),
            });
        } else if !parquet(p) {
            return Err(MergeError::NotAnExport {
                path: p.clone(),
                why: "expected a Parquet export (.parquet): CSV numbers are text, so a CSV export cannot rebuild the run exactly".into(),
            });
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn read_parquet(path: &Path) -> Result<DataFrame, MergeError> {
    let read = |path: &Path| -> PolarsResult<DataFrame> {
        let f = std::fs::File::open(path).map_err(|e| PolarsError::IO {
            error: std::sync::Arc::new(e),
            msg: None,
        })?;
        ParquetReader::new(f).finish()
    };
    read(path).map_err(|source| MergeError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The model's section names, as `&'static str` ([`StatRow::section`]).
const SECTIONS: [&str; 10] = [
    section::ACTIVITY,
    section::LOAD_PROFILE,
    section::IO_PROFILE,
    section::EFFICIENCY,
    section::IOSTAT_FUNCTION,
    section::IOSTAT_FILETYPE,
    section::FG_WAITS,
    section::BG_WAITS,
    section::WAIT_HISTOGRAM,
    section::HOST_CPU,
];

/// The units a model row carries ([`StatRow::unit`]).
const UNITS: [&str; 5] = ["", "/s", "%", "ms", "s"];

fn stat_rows(df: &DataFrame) -> PolarsResult<HashMap<String, Vec<StatRow>>> {
    let bad = |what: String| PolarsError::ComputeError(what.into());
    let s = |c: &str| -> PolarsResult<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
    let f = |c: &str| -> PolarsResult<Float64Chunked> { Ok(df.column(c)?.f64()?.clone()) };
    let (source, instance, sec, statistic, unit, printed) = (
        s("source")?,
        s("instance")?,
        s("section")?,
        s("statistic")?,
        s("unit")?,
        s("printed")?,
    );
    let number = df.column("instance_number")?.i32()?.clone();
    let (total, per_second, per_trans, value, lo, hi) = (
        f("total")?,
        f("per_second")?,
        f("per_trans")?,
        f("value")?,
        f("lo")?,
        f("hi")?,
    );
    let mut out: HashMap<String, Vec<StatRow>> = HashMap::new();
    let it = source
        .iter()
        .zip(instance.iter())
        .zip(number.iter())
        .zip(sec.iter())
        .zip(statistic.iter())
        .zip(unit.iter())
        .zip(printed.iter())
        .zip(total.iter().zip(per_second.iter()).zip(per_trans.iter()))
        .zip(value.iter().zip(lo.iter()).zip(hi.iter()));
    for (r, ((((((((src, inst), no), sc), st), un), pr), ((t, ps), pt)), ((v, l), h))) in
        it.enumerate()
    {
        let sc = sc.unwrap_or_default();
        let section = SECTIONS
            .iter()
            .find(|x| **x == sc)
            .ok_or_else(|| bad(format!("row {r}: section '{sc}' is not a model section")))?;
        let un = un.unwrap_or_default();
        let unit = UNITS
            .iter()
            .find(|x| **x == un)
            .ok_or_else(|| bad(format!("row {r}: unit '{un}' is not a model unit")))?;
        out.entry(src.unwrap_or_default().to_string())
            .or_default()
            .push(StatRow {
                instance: inst.unwrap_or_default().to_string(),
                instance_number: no,
                section,
                statistic: st.unwrap_or_default().to_string(),
                total: t,
                per_second: ps,
                per_trans: pt,
                value: v,
                unit,
                printed: pr.map(str::to_string),
                lo: l,
                hi: h,
            });
    }
    Ok(out)
}

/// The reduced report of an exported report: its rows, and the header of its reports table row.
fn reduced(
    source: String,
    info: crate::subject::awr::ReportInfo,
    rows: Vec<StatRow>,
) -> ReducedReport {
    let mut info = info;
    // As `reduce` takes them from the parsed report: the first Instance Activity Stats row of
    // each name (every activity row carries the report's own instance).
    for n in STATISTICS_SHOWN {
        if let Some(r) = rows
            .iter()
            .find(|r| r.section == section::ACTIVITY && r.statistic == n)
        {
            info.statistics.insert(
                n.to_string(),
                StatisticValue {
                    total: r.total,
                    per_second: r.per_second,
                    per_trans: r.per_trans,
                },
            );
        }
    }
    let meta = SourceMeta {
        source: source.clone(),
        format: info.format.id(),
        report_kind: match info.kind {
            sizer_parsers::awr::ReportKind::Instance => "instance",
            sizer_parsers::awr::ReportKind::RacGlobal => "rac_global",
            sizer_parsers::awr::ReportKind::Pdb => "pdb",
        },
        db_id: info.db.db_id,
        db_name: info.db.db_name.clone(),
        begin_snap: info.snapshots.begin_id,
        end_snap: info.snapshots.end_id,
        begin_time: info.snapshots.begin_time,
        end_time: info.snapshots.end_time,
        elapsed_s: info.snapshots.elapsed_min.map(|m| m * 60.0),
    };
    ReducedReport {
        file: source,
        meta,
        rows,
        info,
    }
}

/// The run of the exports at `paths` (see the module docs), with each file's key (for a new
/// export of the merged run, `ModelExport::set_keys`). With `sink`, every report's rows go to it
/// again, in run order.
///
/// # Errors
/// A [`MergeError`] naming the file.
pub fn run(
    paths: &[PathBuf],
    rules: &RuleSet,
    settings: &Settings,
    mut sink: Option<&mut dyn ModelSink>,
) -> Result<(Run, HashMap<String, InputKey>), MergeError> {
    let export = sink.is_some();
    let (formula, formula_info) = formula_of(rules);
    let files = export_files(paths)?;
    // Every file of every export, with its place in the run order and what became of it.
    enum Got {
        Report(Box<crate::subject::awr::ReportFrame>),
        Other(Status),
    }
    let mut got: Vec<(InputKey, String, Got)> = Vec::new();
    for path in &files {
        let df = read_parquet(path)?;
        if df.column("statistic").is_err() {
            let why = if df.column("host").is_ok() {
                "this is a host series (OS disk logs): --from-export rebuilds AWR and Statspack reports only"
            } else {
                "not a sizer export (no `statistic` column)"
            };
            return Err(MergeError::NotAnExport {
                path: path.clone(),
                why: why.into(),
            });
        }
        let table = super::reports_path(path);
        if !table.is_file() {
            return Err(MergeError::NoReportsTable {
                path: path.clone(),
                expected: table,
            });
        }
        let read_err = |p: &Path| {
            let p = p.to_path_buf();
            move |source| MergeError::Read { path: p, source }
        };
        let entries: Vec<Entry> =
            reports::read(&read_parquet(&table)?).map_err(read_err(&table))?;
        for (kind, label) in [
            ("os_log", "OS disk log"),
            ("virtual", "virtualisation export"),
        ] {
            let files: Vec<String> = entries
                .iter()
                .filter(|e| matches!(e.status, Status::NotRebuilt(k) if k == kind))
                .map(|e| e.source.clone())
                .collect();
            if !files.is_empty() {
                return Err(MergeError::NotRebuilt {
                    path: path.clone(),
                    kind: label,
                    files,
                });
            }
        }
        let mut by_source = stat_rows(&df).map_err(read_err(path))?;
        drop(df);
        for e in entries {
            let g = match e.status {
                Status::Report(info) => {
                    let rows = by_source.remove(&e.source).unwrap_or_default();
                    let raw = reduced(e.source.clone(), *info, rows);
                    let frame = finish(raw, &formula, export).map_err(read_err(path))?;
                    Got::Report(Box::new(frame))
                }
                other => Got::Other(other),
            };
            got.push((e.key, e.source, g));
        }
    }
    // One run's order: root by root, each root's files in path order (stable: a file twice
    // keeps the order of the exports given).
    got.sort_by(|a, b| a.0.cmp_run_order(&b.0));
    let mut seen = Seen::default();
    let spill = got.len() > settings.spill_threshold();
    let mut g = Gathered {
        reports: Reports::new(got.len(), spill).map_err(RunError::Spill)?,
        failures: Vec::new(),
        skipped: Vec::new(),
        duplicates: Vec::new(),
        host_sources: Vec::new(),
        virt_sources: Vec::new(),
    };
    let mut keys = HashMap::new();
    for (key, source, what) in got {
        // A file in two exports (a share run twice) was read once by one run.
        if keys.contains_key(&source) {
            continue;
        }
        keys.insert(source.clone(), key);
        match what {
            Got::Report(mut x) => {
                if let Some(d) = seen.check(&x.file, &x.info) {
                    g.duplicates.push(d);
                    continue;
                }
                if let (Some(sink), Some(part)) = (sink.as_deref_mut(), x.part.take()) {
                    sink.report(part);
                }
                g.reports.push(*x).map_err(RunError::Spill)?;
            }
            Got::Other(Status::Duplicate {
                duplicate_of,
                differs,
            }) => g.duplicates.push(Duplicate {
                file: source,
                duplicate_of,
                differs,
            }),
            Got::Other(Status::Skipped(reason)) => g.skipped.push(Skipped {
                file: source,
                reason,
                cause: None,
            }),
            Got::Other(Status::Failed(error)) => g.failures.push(Failure {
                file: source,
                error,
                cause: None,
            }),
            Got::Other(_) => {}
        }
    }
    let run = assemble(g, (&formula, &formula_info), rules, settings)?;
    Ok((run, keys))
}
