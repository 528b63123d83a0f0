//! One AWR or Statspack report: parsed report → [`ReducedReport`] (in the reader thread: its model
//! rows and a summary) → `ReportFrame` (its [`crate::metrics::IntervalFigures`], the few rows
//! read again later, [`KeptRows`], and, for `--export` only, its frame of the model) →
//! [`Analysis`] (what the report says, with its caveats), before any sizing. Also the identity
//! that finds duplicate reports.

use crate::subject::iso;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use sizer_parsers::awr::{AwrReport, DbInfo, InstanceInfo, ReportKind, Snapshots};
use sizer_parsers::Format;

use crate::metrics::{self, kept, Formula, IntervalFigures};
use crate::model::{self, KeptRows, Model, PolarsResult, SourceMeta, StatRow, View};
use crate::rules::RuleSet;
use crate::warning::Warning;

/// What was read: file, format and report identity.
#[derive(Debug, Clone, Serialize)]
pub struct SourceInfo {
    /// Path as given or found.
    pub file: String,
    /// The format read (`awr_html`, `awr_text` or `statspack` in the JSON).
    pub format: Format,
    /// `instance`, `rac_global`, `pdb`.
    pub report_kind: ReportKind,
    /// The report's `<title>` (`AWR Report for DB: …, Snaps: …`).
    pub title: String,
    /// The report's main heading (`WORKLOAD REPOSITORY report for`).
    pub heading: String,
    /// `UTF-8`, `UTF-16LE`, `UTF-16BE` or `windows-1252`.
    pub encoding: String,
}

/// The snapshot interval.
#[derive(Debug, Clone, Serialize)]
pub struct Interval {
    /// Begin snapshot id.
    pub begin_snap: u64,
    /// End snapshot id.
    pub end_snap: u64,
    /// Begin time (database local time, ISO 8601 without zone).
    pub begin_time: Option<String>,
    /// End time.
    pub end_time: Option<String>,
    /// `Elapsed:` minutes.
    pub elapsed_min: Option<f64>,
    /// `DB Time:` minutes.
    pub db_time_min: Option<f64>,
}

/// One Instance Activity Stats row as printed.
#[derive(Debug, Clone, Serialize)]
pub struct StatisticValue {
    /// `Total` over the interval.
    pub total: Option<f64>,
    /// `per Second`.
    pub per_second: Option<f64>,
    /// `per Trans`.
    pub per_trans: Option<f64>,
}

/// The statistics listed in [`Analysis::statistics`].
pub const STATISTICS_SHOWN: [&str; 16] = [
    "physical read total IO requests",
    "physical write total IO requests",
    "redo writes",
    "physical read total bytes",
    "physical write total bytes",
    "physical read total multi block requests",
    "physical write total multi block requests",
    "physical read IO requests",
    "physical write IO requests",
    "physical reads",
    "physical reads direct",
    "physical reads cache",
    "db block gets from cache",
    "consistent gets from cache",
    "session logical reads",
    "redo size",
];

/// The analysis of one report (one source): what it says, before any sizing.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// What was read.
    pub source: SourceInfo,
    /// Database identity as the report prints it.
    pub database: Arc<DbInfo>,
    /// Instances covered.
    pub instances: Arc<[InstanceInfo]>,
    /// Interval.
    pub interval: Interval,
    /// The report's figures (shared with its database's interval row when the report alone
    /// gives that interval: one copy per report, however many places read it).
    pub workload: Arc<IntervalFigures>,
    /// The AWR statistics behind the figures, verbatim names, as printed (Instance Activity Stats;
    /// RAC global: `System Statistics (Global)`).
    pub statistics: BTreeMap<String, StatisticValue>,
    /// Caveats about this report.
    pub warnings: Vec<Warning>,
}

/// The required-IOPS formula as reported.
#[derive(Debug, Clone, Serialize)]
pub struct FormulaInfo {
    /// Terms (`read_total`, `write_total`, `redo_writes`, …).
    pub terms: Vec<String>,
    /// Formula text.
    pub text: String,
    /// Why this formula.
    pub why: String,
    /// Source.
    pub source: String,
}

/// What is kept of a report once its statistics are in the model rows.
#[derive(Debug, Clone)]
pub(crate) struct ReportInfo {
    pub(crate) kind: ReportKind,
    /// The format read.
    pub(crate) format: Format,
    /// A Statspack report ([`sizer_parsers::awr::AwrReport::is_statspack`]).
    pub(crate) statspack: bool,
    /// Decimals of the report's `per Second` rates.
    pub(crate) rate_decimals: u32,
    pub(crate) title: String,
    pub(crate) heading: String,
    /// Shared with the report's [`Analysis`].
    pub(crate) db: Arc<DbInfo>,
    /// Shared with the report's [`Analysis`].
    pub(crate) instances: Arc<[InstanceInfo]>,
    pub(crate) snapshots: Snapshots,
    pub(crate) encoding: String,
    pub(crate) warnings: Vec<String>,
    pub(crate) statistics: BTreeMap<String, StatisticValue>,
}

pub(crate) struct ReportFrame {
    pub(crate) file: String,
    /// The few rows read again once every report is known ([`crate::metrics::kept`]).
    pub(crate) kept: KeptRows,
    /// This report's frame of the model (every row), built only for `--export`.
    pub(crate) part: Option<Model>,
    pub(crate) workload: IntervalFigures,
    pub(crate) info: ReportInfo,
}

/// A parsed report reduced to its model rows and a summary (no polars: runs in the parser
/// threads).
pub struct ReducedReport {
    pub(crate) file: String,
    pub(crate) meta: SourceMeta,
    pub(crate) rows: Vec<StatRow>,
    pub(crate) info: ReportInfo,
}

/// Computes a report's workload from its rows, keeps the rows the engine reads again
/// ([`crate::metrics::kept`]) and, for `--export` (`export`), turns every row into its frame
/// of the model; the other rows are dropped. Runs outside the parser threads: polars has its
/// own thread pool, and calling it from many jobs of another rayon pool at once nests the
/// pools' waits on one stack.
///
/// # Errors
/// A polars error when the frame cannot be built (only with `export`).
pub(crate) fn finish(
    raw: ReducedReport,
    formula: &Formula,
    export: bool,
) -> PolarsResult<ReportFrame> {
    let global = raw.info.kind == ReportKind::RacGlobal;
    let inst = view_instance(&raw.info).to_string();
    let workload = figures(&View::of_rows(&raw.rows, &inst), &raw.info, formula);
    // A RAC global report is never summed: it keeps only its instances' shares. Any other
    // report may be summed with the other instances of its interval.
    let kept = KeptRows::of(&raw.rows, |i, sec, stat| {
        if global {
            kept::is_instance_share(i, sec, stat)
        } else {
            i == inst && kept::is_read_by_workload(sec, stat)
        }
    });
    let part = if export {
        Some(Model::build(&[(raw.meta, raw.rows)])?)
    } else {
        None
    };
    Ok(ReportFrame {
        file: raw.file,
        kept,
        part,
        workload,
        info: raw.info,
    })
}

/// The instance whose rows a report's figures read: `*` (cluster-wide) for a RAC global
/// report, else its instance.
fn view_instance(info: &ReportInfo) -> &str {
    match info.kind {
        ReportKind::RacGlobal => "*",
        _ => info.instances.first().map_or("*", |i| i.name.as_str()),
    }
}

/// A report's figures from `view` (its rows, or its kept rows: [`figures_of_kept`]).
fn figures(view: &View, info: &ReportInfo, formula: &Formula) -> IntervalFigures {
    let source = metrics::FigureSource::Report {
        kind: info.kind,
        statspack: info.statspack,
    };
    let mut workload = metrics::workload(
        view,
        source,
        formula,
        info.rate_decimals,
        info.snapshots
            .elapsed_min
            .zip(info.snapshots.elapsed_decimals),
    );
    metrics::exadata::set_db_time(workload.exadata.as_deref_mut(), info.snapshots.db_time_min);
    workload
}

/// The figures of a report that is not a RAC global report, again, from its kept rows: the
/// same figures [`finish`] computed from all its rows, since the kept rows are every row the
/// figures read ([`crate::metrics::kept::is_read_by_workload`], checked by its test on every
/// fixture report). A spilled run (`held.rs`) holds no figures per report and computes
/// them here for the intervals that one report gives. `None` for a RAC global report (it
/// keeps only its instances' shares).
pub(crate) fn figures_of_kept(
    info: &ReportInfo,
    kept: &KeptRows,
    formula: &Formula,
) -> Option<IntervalFigures> {
    if info.kind == ReportKind::RacGlobal {
        return None;
    }
    let view = kept.view(view_instance(info)).unwrap_or_default();
    Some(figures(&view, info, formula))
}

/// Identity of a report: database, PDB, kind, instance number, begin and end snapshot ids.
pub(crate) type DuplicateKey = (u64, String, u8, u32, u64, u64);

/// The figures two copies of a report must agree on.
pub(crate) fn fingerprint(i: &ReportInfo) -> Vec<Option<f64>> {
    [
        "physical read total IO requests",
        "physical write total IO requests",
        "physical read total bytes",
        "physical write total bytes",
        "redo writes",
    ]
    .iter()
    .map(|n| i.statistics.get(*n).and_then(|v| v.total))
    .collect()
}

/// Reports of the same database (and PDB), kind, instance and snapshots are the same report.
pub(crate) fn duplicate_key(i: &ReportInfo) -> DuplicateKey {
    let container = match i.kind {
        ReportKind::Pdb => {
            i.db.containers
                .first()
                .map(|c| c.1.clone())
                .unwrap_or_default()
        }
        _ => String::new(),
    };
    let inst = match i.kind {
        ReportKind::RacGlobal => 0,
        _ => i.instances.first().map_or(0, |i| i.number),
    };
    (
        i.db.db_id,
        container,
        i.kind as u8,
        inst,
        i.snapshots.begin_id,
        i.snapshots.end_id,
    )
}

/// Reduces a parsed report to its model rows and a summary; the report itself is dropped by the
/// caller right after.
pub(crate) fn reduce(file: String, r: AwrReport) -> ReducedReport {
    let (meta, rows): (SourceMeta, Vec<StatRow>) = model::awr_rows(&file, &r);
    let statistics = STATISTICS_SHOWN
        .iter()
        .filter_map(|n| {
            r.activity(n).map(|s| {
                (
                    n.to_string(),
                    StatisticValue {
                        total: s.total,
                        per_second: s.per_second,
                        per_trans: s.per_trans,
                    },
                )
            })
        })
        .collect();
    let info = ReportInfo {
        kind: r.kind,
        format: r.format(),
        statspack: r.is_statspack(),
        rate_decimals: r.rate_decimals,
        title: r.title,
        heading: r.heading,
        db: Arc::new(r.db),
        instances: r.instances.into(),
        snapshots: r.snapshots,
        encoding: r.encoding,
        warnings: r.warnings,
        statistics,
    };
    ReducedReport {
        file,
        meta,
        rows,
        info,
    }
}

pub(crate) fn formula_of(rules: &RuleSet) -> (Formula, FormulaInfo) {
    let f = rules.required_iops_formula();
    let formula = Formula {
        terms: f.terms.clone(),
        text: f.text.clone(),
        fallback: f.fallback.as_ref().map(|fb| {
            Box::new(Formula {
                terms: fb.terms.clone(),
                text: fb.text.clone(),
                fallback: None,
                exadata: None,
            })
        }),
        exadata: rules.sizing().exadata.clone(),
    };
    let info = FormulaInfo {
        terms: f.terms.clone(),
        text: f.text.clone(),
        why: f.why.clone(),
        source: f.source.clone(),
    };
    (formula, info)
}

pub(crate) fn interval_of(s: &Snapshots) -> Interval {
    Interval {
        begin_snap: s.begin_id,
        end_snap: s.end_id,
        begin_time: iso(s.begin_time),
        end_time: iso(s.end_time),
        elapsed_min: s.elapsed_min,
        db_time_min: s.db_time_min,
    }
}

/// The [`Analysis`] of one report from its summary and figures. The report's `statistics` move
/// into it (`r` keeps none: nothing reads them from the summary afterwards).
pub(crate) fn report_analysis(file: &str, r: &mut ReportInfo, w: IntervalFigures) -> Analysis {
    let mut warnings: Vec<Warning> = r
        .warnings
        .iter()
        // Named by file, as the OS logs' and exports' are: a database may have many reports.
        .map(|m| Warning {
            id: "parser".into(),
            message: format!("{file}: {m}"),
        })
        .collect();
    if r.kind != ReportKind::RacGlobal && r.db.rac == Some(true) {
        warnings.push(Warning {
            id: "rac_instance".into(),
            message: format!(
                "instance {} of a RAC database: this report covers one instance only; the database needs the sum of all instances over the same interval (pass every instance's report, or a RAC global report from awrgrpt.sql)",
                r.instances.first().map(|i| i.name.as_str()).unwrap_or("?")
            ),
        });
    }
    if r.kind == ReportKind::Pdb {
        warnings.push(Warning {
            id: "pdb_report".into(),
            message: "PDB-level report: it has no 'redo writes', no IOStat by Function and no Buffer Hit %; the storage serves the whole CDB, so size from CDB-level reports".into(),
        });
    }
    // Exadata: no warning; the figures say it (IntervalFigures::exadata: single-block reads
    // from the cell waits, Smart Scan on its own line, the off-Exadata estimate).
    if let (Some(io), Some(m)) = (w.io_profile_total_iops.value, w.measured_iops.value) {
        // Measured IOPS recomputed as Total / elapsed (text reports) is known to its bounds.
        let bounds = w
            .measured_iops
            .derived()
            .map_or(0.0, |d| (d.hi - d.lo) / 2.0);
        let tol = 0.5 * 10f64.powi(-(w.io_profile_total_iops.decimals as i32)) + 0.01 + bounds;
        if (io - m).abs() > tol {
            warnings.push(Warning {
                id: "io_profile_mismatch".into(),
                message: format!(
                    "IO Profile 'Total Requests' {io}/s differs from read + write total IO requests {m:.2}/s beyond rounding"
                ),
            });
        }
    }
    if let (Some(start), Some(begin)) = (
        r.instances.iter().filter_map(|i| i.startup).max(),
        r.snapshots.begin_time,
    ) {
        if start > begin {
            warnings.push(Warning {
                id: "restart".into(),
                message: format!(
                    "an instance started at {start} inside the interval (begin {begin}): the statistics restart with it, so this interval is left out of peaks"
                ),
            });
        }
    }
    Analysis {
        source: SourceInfo {
            file: file.to_string(),
            format: r.format,
            report_kind: r.kind,
            title: r.title.clone(),
            heading: r.heading.clone(),
            encoding: r.encoding.clone(),
        },
        database: Arc::clone(&r.db),
        instances: Arc::clone(&r.instances),
        interval: interval_of(&r.snapshots),
        workload: Arc::new(w),
        statistics: std::mem::take(&mut r.statistics),
        warnings,
    }
}
