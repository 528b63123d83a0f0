//! The analysis pipeline: paths → parsers (in parallel) → model → metrics → series → rules.
//!
//! 1. [`discover`] expands directories recursively; every file is tried and its format detected
//!    from its content. A file named on the command line that cannot be read is a [`Failure`];
//!    a file found inside a directory that is not a report is [`Skipped`] with the reason.
//! 2. Files are parsed in parallel (rayon). A report is reduced to its model rows and a small
//!    summary as soon as it is parsed, so memory grows with the model's rows, not with the
//!    reports.
//! 3. Reports of the same database, instance and snapshot interval are counted once
//!    ([`Duplicate`]).
//! 4. Per database ([`DatabaseAnalysis`]): one interval per snapshot range. Instance reports of a
//!    RAC database are summed per matching interval ([`crate::model::View::sum`]); a RAC global
//!    report already gives the cluster figure and wins over a sum of the same interval. Intervals
//!    where an instance was restarted are flagged and left out of the statistics.
//! 5. The interval series lands in a polars DataFrame ([`series_frame`]); average, p50, p95, p99
//!    and max of each figure come from it, and the sizing uses the statistic the user chose
//!    (default p95) plus headroom.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use polars::prelude::*;
use rayon::prelude::*;
use serde::Serialize;
use sizer_parsers::awr::{AwrReport, DbInfo, InstanceInfo, ReportKind, Snapshots};
use sizer_parsers::{ParseError, Parsed};

use crate::metrics::{self, Formula, Workload};
use crate::model::{self, Model, SourceMeta, StatRow, View};
use crate::rules::{self, Demand, Options, Recommendation, RuleSet};

/// Which statistic of a database's interval series the sizing uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeOn {
    /// Time-weighted average over all intervals.
    Avg,
    /// Median of the intervals.
    P50,
    /// 95th percentile of the intervals (default).
    #[default]
    P95,
    /// 99th percentile of the intervals.
    P99,
    /// Busiest interval.
    Max,
}

impl SizeOn {
    /// Short name (`p95`).
    pub fn name(self) -> &'static str {
        match self {
            SizeOn::Avg => "avg",
            SizeOn::P50 => "p50",
            SizeOn::P95 => "p95",
            SizeOn::P99 => "p99",
            SizeOn::Max => "max",
        }
    }
}

/// User settings that shape the run.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Headroom over the sizing figure, %; `None` = the rules' default.
    pub headroom_pct: Option<f64>,
    /// Data capacity to provision, GiB; `None` = unknown (size for performance only).
    pub capacity_gib: Option<f64>,
    /// Host type whose storage caps apply (`--instance`, an `[[instance]]` id of the catalogue).
    pub instance: Option<String>,
    /// Platforms to recommend for (`onprem`, `aws`); empty = all.
    pub platforms: Vec<String>,
    /// The statistic of the interval series to size on.
    pub size_on: SizeOn,
    /// Show a progress bar on stderr (only drawn when stderr is a terminal).
    pub progress: bool,
    /// OS disk logs: device selection, date order, `iostat -y`.
    pub devices: crate::hosts::DeviceSettings,
    /// Run the optional SAP HANA-style checks on vSAN/ESXi exports (`rules/vsan.toml` `[hana]`).
    pub hana_checks: bool,
}

/// What was read: file, format and report identity.
#[derive(Debug, Clone, Serialize)]
pub struct SourceInfo {
    /// Path as given or found.
    pub file: String,
    /// `awr_html`, `awr_text` or `statspack`.
    pub format: String,
    /// `instance`, `rac_global`, `pdb`.
    pub report_kind: &'static str,
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

/// A tolerated problem or caveat, with a stable id.
#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    /// Stable id: `rac_instance`, `rac_partial`, `pdb_report`, `exadata`, `io_profile_mismatch`,
    /// `parser`, `required_unknown`, `restart`, `long_window`, or the id of a fired rule with
    /// effect `warn` (`long-window-hides-peaks`, `slow-single-block-reads`, `slow-log-writes`).
    pub id: String,
    /// The message.
    pub message: String,
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
    pub database: DbInfo,
    /// Instances covered.
    pub instances: Vec<InstanceInfo>,
    /// Interval.
    pub interval: Interval,
    /// Workload figures.
    pub workload: Workload,
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

/// A file named on the command line that could not be analysed.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Path as given.
    pub file: String,
    /// The error, one line.
    pub error: String,
}

/// A file found in a directory that is not a readable report.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    /// Path as found.
    pub file: String,
    /// Why it was skipped, one line.
    pub reason: String,
}

/// A report of an interval already covered by another report.
#[derive(Debug, Clone, Serialize)]
pub struct Duplicate {
    /// The file counted once more.
    pub file: String,
    /// The file that was kept.
    pub duplicate_of: String,
    /// The two disagree on `physical read/write total IO requests`, `… total bytes` or
    /// `redo writes`: not a copy, a conflict (an edited file or a cloned database that kept its
    /// DB Id); the first one read is kept.
    pub differs: bool,
}

/// One interval of a database's series.
#[derive(Debug, Clone, Serialize)]
pub struct IntervalRow {
    /// Snapshot interval.
    pub interval: Interval,
    /// `instance` (one instance), `cluster` (RAC global report), `rac_sum` (instance reports
    /// summed), `pdb`.
    pub scope: &'static str,
    /// Instances whose figures make up the interval.
    pub instances: Vec<String>,
    /// Files the interval came from.
    pub sources: Vec<String>,
    /// Figures of the interval.
    pub workload: Workload,
    /// RAC global reports: each instance's share, from `IOStat by File Type` (its `Total` row per
    /// `I#`); empty otherwise.
    pub per_instance: Vec<InstanceShare>,
    /// Why the interval is flagged (`restart: …`, `partial: …`).
    pub flags: Vec<String>,
    /// Left out of the statistics (an instance restarted inside it).
    pub excluded: bool,
}

/// One instance's IO in a RAC global report (`IOStat by File Type`, row `Total` of its `I#`).
///
/// AWR's IOStat counts can differ slightly from Instance Activity Stats (awr-notes §3.4); they are
/// shown for the split between instances, while sizing uses the cluster-wide statistics.
#[derive(Debug, Clone, Serialize)]
pub struct InstanceShare {
    /// Instance name.
    pub instance: String,
    /// `Reads/s`.
    pub read_reqs_per_s: Option<f64>,
    /// `Writes/s`.
    pub write_reqs_per_s: Option<f64>,
    /// `Read MB/s` converted to MB/s (10^6): the report prints MiB/s.
    pub read_mb_s: Option<f64>,
    /// `Write MB/s` converted to MB/s (10^6).
    pub write_mb_s: Option<f64>,
}

/// Average, percentiles and max of one figure over a database's intervals.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesStats {
    /// Unit of the figure.
    pub unit: &'static str,
    /// Intervals with a known value (excluded intervals are not counted).
    pub n: usize,
    /// Time-weighted average (weights: interval length).
    pub avg: Option<f64>,
    /// Median (linear interpolation between closest ranks).
    pub p50: Option<f64>,
    /// 95th percentile (linear interpolation).
    pub p95: Option<f64>,
    /// 99th percentile (linear interpolation).
    pub p99: Option<f64>,
    /// Largest value.
    pub max: Option<f64>,
    /// Begin time of the interval with the largest value.
    pub peak_begin: Option<String>,
    /// End time of that interval.
    pub peak_end: Option<String>,
}

impl SeriesStats {
    /// The value of statistic `s`.
    pub fn get(&self, s: SizeOn) -> Option<f64> {
        match s {
            SizeOn::Avg => self.avg,
            SizeOn::P50 => self.p50,
            SizeOn::P95 => self.p95,
            SizeOn::P99 => self.p99,
            SizeOn::Max => self.max,
        }
    }
}

/// The analysis of one database over all its intervals, with the recommendation.
#[derive(Debug, Clone, Serialize)]
pub struct DatabaseAnalysis {
    /// `DB_NAME (DB Id N)`, plus the PDB for PDB-level reports.
    pub key: String,
    /// Database identity (from its first report).
    pub database: DbInfo,
    /// Instances seen in its reports.
    pub instances: Vec<String>,
    /// Those instances as their reports describe them (host, platform, CPUs, memory).
    pub instance_info: Vec<InstanceInfo>,
    /// Files that contributed (duplicates excluded).
    pub sources: Vec<String>,
    /// Report kind of each source (`instance`, `rac_global`, `pdb`), its title, and its format
    /// (`awr_html`, `awr_text`, `statspack`), in `sources` order.
    pub source_kinds: Vec<(String, String, String)>,
    /// The interval series, in time order.
    pub intervals: Vec<IntervalRow>,
    /// Statistics of each figure over the intervals, keyed by the [`Workload`] field name.
    pub statistics: BTreeMap<String, SeriesStats>,
    /// The statistic the sizing uses.
    pub size_on: SizeOn,
    /// Index in `intervals` of the interval the IO character (sizes, hit ratio, latency) is taken
    /// from: the one whose sizing IOPS is closest to the chosen statistic.
    pub character_interval: usize,
    /// The required-IOPS formula used and why (from the rules).
    pub required_iops_formula: FormulaInfo,
    /// The figures the rules sized from (before headroom).
    pub demand: Demand,
    /// `required_iops`, or `measured_iops` when required IOPS is unknown.
    pub sizing_basis: String,
    /// The recommendation; `None` when no interval has a known IOPS figure (see `warnings`).
    pub recommendation: Option<Recommendation>,
    /// Caveats.
    pub warnings: Vec<Warning>,
}

/// All results of one run.
#[derive(Debug)]
pub struct Run {
    /// One per readable, non-duplicate report, in input order.
    pub analyses: Vec<Analysis>,
    /// One per database, in order of first appearance.
    pub databases: Vec<DatabaseAnalysis>,
    /// Files named on the command line that could not be analysed.
    pub failures: Vec<Failure>,
    /// Files found in directories that were not readable reports.
    pub skipped: Vec<Skipped>,
    /// Reports of an interval already covered.
    pub duplicates: Vec<Duplicate>,
    /// The columnar model of every readable report.
    pub model: Model,
    /// The interval series of every database (see [`series_frame`]).
    pub series: DataFrame,
    /// One per host of the OS disk logs (iostat, sar, sadf, nmon, OSWatcher, …).
    pub hosts: Vec<crate::hosts::HostAnalysis>,
    /// The host series (see [`crate::hosts::series_frame`]).
    pub host_series: DataFrame,
    /// One per cluster, host or test run of the virtualisation exports (vSAN, esxtop, HCIBench).
    pub virtual_: Vec<crate::virt::VirtAnalysis>,
}

/// A file to read and whether the user named it.
#[derive(Debug, Clone)]
pub struct Input {
    /// The path.
    pub path: PathBuf,
    /// Named on the command line (an error is a failure) or found in a directory (skipped).
    pub explicit: bool,
}

/// Expands directories recursively (files sorted by path within each directory).
///
/// A path that does not exist, or a directory entry that cannot be read, is a [`Failure`].
pub fn discover(paths: &[PathBuf]) -> (Vec<Input>, Vec<Failure>) {
    let mut inputs: Vec<Input> = Vec::new();
    let mut failures = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |path: PathBuf, explicit: bool, inputs: &mut Vec<Input>| {
        // The same file given twice (or reached twice through links) is read once.
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(key) {
            inputs.push(Input { path, explicit });
        }
    };
    for p in paths {
        if p.is_dir() {
            // Symbolic links are followed (walkdir reports a link loop as an error).
            for entry in walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name()
            {
                match entry {
                    Ok(e) if e.file_type().is_file() => add(e.into_path(), false, &mut inputs),
                    Ok(_) => {}
                    Err(e) => failures.push(Failure {
                        file: e
                            .path()
                            .map(|p| p.display().to_string())
                            .unwrap_or_else(|| p.display().to_string()),
                        error: format!("cannot read the directory: {e}"),
                    }),
                }
            }
        } else {
            add(p.clone(), true, &mut inputs);
        }
    }
    (inputs, failures)
}

/// What is kept of a report once its statistics are in the model rows.
#[derive(Debug, Clone)]
struct ReportInfo {
    kind: ReportKind,
    /// `awr_html`, `awr_text`, `statspack`.
    format: String,
    /// Decimals of the report's `per Second` rates.
    rate_decimals: u32,
    title: String,
    heading: String,
    db: DbInfo,
    instances: Vec<InstanceInfo>,
    snapshots: Snapshots,
    encoding: String,
    warnings: Vec<String>,
    exadata: bool,
    statistics: BTreeMap<String, StatisticValue>,
}

struct Extract {
    file: String,
    /// This report's rows of the model.
    part: DataFrame,
    workload: Workload,
    info: ReportInfo,
}

/// A parsed report reduced to its model rows and a summary (no polars: runs in the parser
/// threads).
struct Raw {
    file: String,
    meta: SourceMeta,
    rows: Vec<StatRow>,
    info: ReportInfo,
}

/// What a parser thread hands back: an AWR/Statspack report reduced to its rows, or an OS disk
/// log reduced to its host series.
enum Read {
    Awr(Box<Raw>),
    Host(Box<crate::hosts::HostSource>),
    Virt(Box<crate::virt::VirtSource>),
}

/// Turns a report's rows into its frame of the model and computes its workload. Runs outside the
/// parser threads: polars has its own thread pool, and calling it from many jobs of another rayon
/// pool at once nests the pools' waits on one stack.
fn finish(raw: Raw, formula: &Formula) -> PolarsResult<Extract> {
    let part = Model::build(&[(raw.meta, raw.rows)])?.df;
    let inst = match raw.info.kind {
        ReportKind::RacGlobal => "*".to_string(),
        _ => raw
            .info
            .instances
            .first()
            .map(|i| i.name.clone())
            .unwrap_or_else(|| "*".into()),
    };
    let kind = if raw.info.format == "statspack" {
        "statspack"
    } else {
        kind_name(raw.info.kind)
    };
    let workload = metrics::workload(
        &View::of(&part, &inst)?,
        kind,
        formula,
        raw.info.rate_decimals,
    );
    Ok(Extract {
        file: raw.file,
        part,
        workload,
        info: raw.info,
    })
}

/// Identity of a report: database, PDB, kind, instance number, begin and end snapshot ids.
type DuplicateKey = (u64, String, u8, u32, u64, u64);

/// Why a file gave no report: (is a broken report rather than not a report, the message).
type ReadError = (bool, String);

/// The figures two copies of a report must agree on.
fn fingerprint(i: &ReportInfo) -> Vec<Option<f64>> {
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
fn duplicate_key(i: &ReportInfo) -> DuplicateKey {
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
fn reduce(file: String, r: AwrReport) -> Raw {
    let (meta, rows): (SourceMeta, Vec<StatRow>) = model::awr_rows(&file, &r);
    // 'cell physical IO interconnect bytes' is counted on every platform; these are Exadata-only.
    let exadata = r.activity.iter().any(|s| {
        (s.name == "cell flash cache read hits"
            || s.name == "cell physical IO bytes eligible for predicate offload")
            && s.total.unwrap_or(0.0) > 0.0
    }) || r.wait_events.iter().any(|e| {
        e.event.starts_with("cell single block physical read") && e.waits.unwrap_or(0.0) > 0.0
    });
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
        format: r.source_format.clone(),
        rate_decimals: r.rate_decimals,
        title: r.title,
        heading: r.heading,
        db: r.db,
        instances: r.instances,
        snapshots: r.snapshots,
        encoding: r.encoding,
        warnings: r.warnings,
        exadata,
        statistics,
    };
    Raw {
        file,
        meta,
        rows,
        info,
    }
}

fn formula_of(rules: &RuleSet) -> (Formula, FormulaInfo) {
    let f = rules.required_iops_formula();
    let formula = Formula {
        terms: f.terms.clone(),
        text: f.text.clone(),
        fallback: f.fallback.as_ref().map(|fb| {
            Box::new(Formula {
                terms: fb.terms.clone(),
                text: fb.text.clone(),
                fallback: None,
            })
        }),
    };
    let info = FormulaInfo {
        terms: f.terms.clone(),
        text: f.text.clone(),
        why: f.why.clone(),
        source: f.source.clone(),
    };
    (formula, info)
}

fn iso(t: Option<NaiveDateTime>) -> Option<String> {
    t.map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string())
}

fn interval_of(s: &Snapshots) -> Interval {
    Interval {
        begin_snap: s.begin_id,
        end_snap: s.end_id,
        begin_time: iso(s.begin_time),
        end_time: iso(s.end_time),
        elapsed_min: s.elapsed_min,
        db_time_min: s.db_time_min,
    }
}

fn kind_name(k: ReportKind) -> &'static str {
    match k {
        ReportKind::Instance => "instance",
        ReportKind::RacGlobal => "rac_global",
        ReportKind::Pdb => "pdb",
    }
}

/// Reads, parses and sizes every input.
///
/// # Errors
/// Only a polars error building the model or the series; per-file problems become [`Failure`]s
/// or [`Skipped`] entries.
pub fn run(paths: &[&Path], rules: &RuleSet, settings: &Settings) -> anyhow::Result<Run> {
    let inputs: Vec<Input> = paths
        .iter()
        .map(|p| Input {
            path: p.to_path_buf(),
            explicit: true,
        })
        .collect();
    run_inputs(inputs, Vec::new(), rules, settings)
}

/// As [`run`], on inputs already discovered (see [`discover`]).
///
/// # Errors
/// As [`run`].
pub fn run_inputs(
    inputs: Vec<Input>,
    mut failures: Vec<Failure>,
    rules: &RuleSet,
    settings: &Settings,
) -> anyhow::Result<Run> {
    let bar = if settings.progress {
        let pb = indicatif::ProgressBar::new(inputs.len() as u64);
        pb.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {pos}/{len} files [{elapsed_precise}] {wide_bar} {per_sec}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb
    } else {
        indicatif::ProgressBar::hidden()
    };
    let (formula, formula_info) = formula_of(rules);
    // Parse in parallel; each worker keeps only the model rows and a small summary.
    // Parse in parallel, a bounded batch at a time, so that only one batch of reports' rows is
    // alive before it becomes compact DataFrames.
    let batch_len = rayon::current_num_threads().max(1) * 8;
    let mut skipped = Vec::new();
    let mut duplicates = Vec::new();
    let mut extracts: Vec<Extract> = Vec::new();
    let mut seen: HashMap<DuplicateKey, (String, Vec<Option<f64>>)> = HashMap::new();
    let mut host_sources: Vec<crate::hosts::HostSource> = Vec::new();
    let mut virt_sources: Vec<crate::virt::VirtSource> = Vec::new();
    let mut pending = inputs.into_iter();
    loop {
        let batch: Vec<Input> = pending.by_ref().take(batch_len).collect();
        if batch.is_empty() {
            break;
        }
        let raws: Vec<(Input, Result<Read, ReadError>)> = batch
            .into_par_iter()
            .map(|inp| {
                let file = inp.path.display().to_string();
                // Linux iostat text is read as a stream (any size, gzip'd or not): its reports go
                // into the host model one at a time.
                let streamed = match sizer_parsers::input::peek_text(&inp.path, 64 * 1024) {
                    Ok(head) => matches!(
                        sizer_parsers::detect(&head),
                        Ok(sizer_parsers::Format::IostatText)
                    ),
                    Err(_) => false,
                };
                if streamed {
                    let r = match crate::hosts::ingest_iostat_stream(
                        &file,
                        &inp.path,
                        &settings.devices,
                    ) {
                        Ok(h) => Ok(Read::Host(Box::new(h))),
                        Err(e @ (ParseError::Truncated { .. } | ParseError::Section { .. })) => {
                            Err((true, e.to_string()))
                        }
                        Err(e) => Err((false, e.to_string())),
                    };
                    bar.inc(1);
                    return (inp, r);
                }
                let r =
                    match sizer_parsers::parse_file(&inp.path) {
                        Ok(Parsed::Awr(report)) => Ok(Read::Awr(Box::new(reduce(file, *report)))),
                        Ok(Parsed::Entities(log)) => {
                            Ok(Read::Virt(Box::new(crate::virt::VirtSource {
                                file: file.clone(),
                                log: *log,
                            })))
                        }
                        Ok(Parsed::Devices(log)) => Ok(Read::Host(Box::new(
                            crate::hosts::ingest_log(&file, &log, &settings.devices),
                        ))),
                        // A report that is truncated or lacks a section it needs is a broken report
                        // (a failure wherever it was found); anything else is not a report.
                        Err(e @ (ParseError::Truncated { .. } | ParseError::Section { .. })) => {
                            Err((true, e.to_string()))
                        }
                        Err(e) => Err((false, e.to_string())),
                    };
                bar.inc(1);
                (inp, r)
            })
            .collect();
        // Duplicates are dropped here, before their rows become part of the model.
        for (inp, r) in raws {
            let r = r.and_then(|read| {
                let raw = match read {
                    Read::Awr(raw) => *raw,
                    Read::Host(h) => {
                        host_sources.push(*h);
                        return Ok(None);
                    }
                    Read::Virt(v) => {
                        virt_sources.push(*v);
                        return Ok(None);
                    }
                };
                let key = duplicate_key(&raw.info);
                let figures = fingerprint(&raw.info);
                if let Some((first, first_figures)) = seen.get(&key) {
                    duplicates.push(Duplicate {
                        file: raw.file,
                        duplicate_of: first.clone(),
                        differs: *first_figures != figures,
                    });
                    return Ok(None);
                }
                seen.insert(key, (raw.file.clone(), figures));
                finish(raw, &formula)
                    .map(Some)
                    .map_err(|e| (true, format!("building the model: {e}")))
            });
            match r {
                Ok(Some(x)) => extracts.push(x),
                Ok(None) => {}
                Err((broken, e)) if inp.explicit || broken => failures.push(Failure {
                    file: inp.path.display().to_string(),
                    error: e,
                }),
                Err((_, e)) => skipped.push(Skipped {
                    file: inp.path.display().to_string(),
                    reason: e,
                }),
            }
        }
    }
    bar.finish_and_clear();

    let mut parts: Vec<DataFrame> = Vec::with_capacity(extracts.len());
    let mut infos: Vec<(String, ReportInfo)> = Vec::with_capacity(extracts.len());
    let mut analyses = Vec::with_capacity(extracts.len());
    for x in extracts {
        analyses.push(report_analysis(&x.file, &x.info, x.workload));
        parts.push(x.part);
        infos.push((x.file, x.info));
    }
    let model = Model::from_parts(&parts)?;

    let databases = databases(
        &infos,
        &parts,
        &analyses,
        &formula,
        &formula_info,
        rules,
        settings,
    )?;
    let series = series_frame(&databases)?;
    let mut hosts = crate::hosts::hosts(host_sources, rules, settings, &settings.devices)?;
    crate::hosts::side_by_side(&mut hosts, &analyses, &databases);
    let host_series = crate::hosts::series_frame(&hosts)?;
    let virtual_ = crate::virt::analyse(virt_sources, rules, settings)?;
    Ok(Run {
        analyses,
        databases,
        failures,
        skipped,
        duplicates,
        model,
        series,
        hosts,
        host_series,
        virtual_,
    })
}

fn report_analysis(file: &str, r: &ReportInfo, w: Workload) -> Analysis {
    let mut warnings: Vec<Warning> = r
        .warnings
        .iter()
        .map(|m| Warning {
            id: "parser".into(),
            message: m.clone(),
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
    if r.exadata {
        warnings.push(Warning {
            id: "exadata".into(),
            message: "Exadata: 'physical read total IO requests' include Smart Scan and flash-cache-optimized requests, so a non-Exadata array would see a different IO profile (Oracle's OMAT applies a 6x IO factor when moving off Exadata)".into(),
        });
    }
    if let (Some(io), Some(m)) = (w.io_profile_total_iops.value, w.measured_iops.value) {
        let tol = 0.5 * 10f64.powi(-(w.io_profile_total_iops.decimals as i32)) + 0.01;
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
            format: r.format.clone(),
            report_kind: kind_name(r.kind),
            title: r.title.clone(),
            heading: r.heading.clone(),
            encoding: r.encoding.clone(),
        },
        database: r.db.clone(),
        instances: r.instances.clone(),
        interval: interval_of(&r.snapshots),
        workload: w,
        statistics: r.statistics.clone(),
        warnings,
    }
}

/// The figures of [`Workload`] that get series statistics: (field name, accessor).
type Field = (&'static str, fn(&Workload) -> &metrics::Metric);

/// Figures with series statistics.
pub const SERIES_FIELDS: [Field; 12] = [
    ("required_iops", |w| &w.required_iops),
    ("measured_iops", |w| &w.measured_iops),
    ("read_iops", |w| &w.read_iops),
    ("write_iops", |w| &w.write_iops),
    ("redo_writes_per_s", |w| &w.redo_writes_per_s),
    ("read_mb_s", |w| &w.read_mb_s),
    ("write_mb_s", |w| &w.write_mb_s),
    ("total_mb_s", |w| &w.total_mb_s),
    ("cache_hit_pct", |w| &w.cache_hit_pct),
    ("db_file_sequential_read_ms", |w| {
        &w.db_file_sequential_read_ms
    }),
    ("log_file_parallel_write_ms", |w| {
        &w.log_file_parallel_write_ms
    }),
    ("log_file_sync_ms", |w| &w.log_file_sync_ms),
];

/// The interval series of every database as a polars DataFrame: one row per interval with
/// `database`, `begin_time`, `end_time`, `elapsed_min`, `scope`, `excluded` and one f64 column
/// per [`SERIES_FIELDS`] figure (null = unknown).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn series_frame(dbs: &[DatabaseAnalysis]) -> PolarsResult<DataFrame> {
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

/// Minutes of the longest run of consecutive intervals whose value is at least `target` (each
/// `(value, minutes)` in time order; a missing value breaks a run): how long a load at the sizing
/// figure lasted. `None` when no interval reaches it or lengths are unknown.
pub(crate) fn sustained_minutes(
    values: impl Iterator<Item = (Option<f64>, Option<f64>)>,
    target: f64,
) -> Option<f64> {
    let (mut best, mut run) = (0.0_f64, 0.0_f64);
    for (v, len) in values {
        match (v, len) {
            (Some(v), Some(l)) if v >= target * (1.0 - 1e-9) => {
                run += l;
                best = best.max(run);
            }
            _ => run = 0.0,
        }
    }
    (best > 0.0).then_some(best)
}

/// Statistics of one figure over intervals, computed with polars.
fn stats_of(
    values: &[Option<f64>],
    weights: &[f64],
    ivs: &[&IntervalRow],
    unit: &'static str,
) -> SeriesStats {
    let ca = Float64Chunked::from_iter_options("v".into(), values.iter().copied());
    let q = |p: f64| ca.quantile(p, QuantileMethod::Linear).ok().flatten();
    let (mut wsum, mut vsum) = (0.0, 0.0);
    for (v, w) in values.iter().zip(weights) {
        if let Some(v) = v {
            wsum += w;
            vsum += v * w;
        }
    }
    let peak = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i, v)))
        .fold(None, |best: Option<(usize, f64)>, (i, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((i, v)),
        });
    SeriesStats {
        unit,
        n: ca.len() - ca.null_count(),
        avg: (wsum > 0.0).then(|| vsum / wsum),
        p50: q(0.50),
        p95: q(0.95),
        p99: q(0.99),
        max: ca.max(),
        peak_begin: peak.and_then(|(i, _)| ivs[i].interval.begin_time.clone()),
        peak_end: peak.and_then(|(i, _)| ivs[i].interval.end_time.clone()),
    }
}

type DbKey = (u64, String, String);

fn databases(
    infos: &[(String, ReportInfo)],
    parts: &[DataFrame],
    analyses: &[Analysis],
    formula: &Formula,
    formula_info: &FormulaInfo,
    rules: &RuleSet,
    settings: &Settings,
) -> anyhow::Result<Vec<DatabaseAnalysis>> {
    // Group sources by database, in order of first appearance.
    let mut order: Vec<DbKey> = Vec::new();
    let mut groups: HashMap<DbKey, Vec<usize>> = HashMap::new();
    for (i, (_, info)) in infos.iter().enumerate() {
        let pdb = match info.kind {
            ReportKind::Pdb => info
                .db
                .containers
                .first()
                .map(|c| c.1.clone())
                .unwrap_or_else(|| "PDB".into()),
            _ => String::new(),
        };
        let key = (info.db.db_id, info.db.db_name.clone(), pdb);
        groups
            .entry(key.clone())
            .or_insert_with(|| {
                order.push(key.clone());
                Vec::new()
            })
            .push(i);
    }
    let mut out = Vec::new();
    for key in order {
        let members = &groups[&key];
        out.push(database(
            &key,
            members,
            infos,
            parts,
            analyses,
            formula,
            formula_info,
            rules,
            settings,
        )?);
    }
    long_window_warnings(&mut out);
    Ok(out)
}

/// Intervals longer than this average away the peaks the storage must serve.
pub const LONG_WINDOW_MIN: f64 = 60.0;

/// Warns about databases sized from intervals longer than [`LONG_WINDOW_MIN`] (+10 %), with the
/// factor a user might apply: the database's own p95 ÷ time-weighted average of required (or
/// measured) IOPS over its hourly intervals in this run (at least 3). Other databases' ratios are
/// quoted only as a labelled reference; no factor is invented.
fn long_window_warnings(dbs: &mut [DatabaseAnalysis]) {
    // p95 ÷ average of each database that has an hourly series in this run.
    let factor_of = |d: &DatabaseAnalysis| -> Option<f64> {
        let hourly = d
            .intervals
            .iter()
            .filter(|i| {
                !i.excluded
                    && i.interval
                        .elapsed_min
                        .is_some_and(|m| m <= LONG_WINDOW_MIN * 1.1)
            })
            .count();
        if hourly < 3 {
            return None;
        }
        let s = d.statistics.get(&d.sizing_basis)?;
        let (p95, avg) = (s.p95?, s.avg?);
        (avg > 0.0).then(|| p95 / avg)
    };
    let others: Vec<f64> = dbs.iter().filter_map(factor_of).collect();
    for d in dbs.iter_mut() {
        let longest = d
            .intervals
            .iter()
            .filter_map(|i| i.interval.elapsed_min)
            .fold(0.0, f64::max);
        // An hourly report runs a little over 60 min; warn from 10 % over an hour.
        if longest <= LONG_WINDOW_MIN * 1.1 {
            continue;
        }
        let hint = match (factor_of(d), others.is_empty()) {
            (Some(f), _) => format!(
                "this database's own hourly intervals in this run peak at {f:.2}× their average (p95 ÷ time-weighted average): a factor to apply to its long-window figures, or size from the hourly reports"
            ),
            (None, false) => {
                let lo = others.iter().cloned().fold(f64::INFINITY, f64::min);
                let hi = others.iter().cloned().fold(0.0, f64::max);
                format!(
                    "it has no hourly series here; for reference only, the hourly series of other databases in this run peak at {lo:.2}×–{hi:.2}× their average, which is not this database's ratio: size from hourly (or shorter) reports of its busiest period"
                )
            }
            (None, true) => "this run has no hourly series to derive a peak factor from: size from hourly (or shorter) reports of the busiest period, as OMAT and AWR Miner do".to_string(),
        };
        d.warnings.push(Warning {
            id: "long_window".into(),
            message: format!(
                "interval of {} min ({:.1} h): its figures are averages over the whole window and hide peaks; {hint}",
                crate::report::fmt_num(longest, 2),
                longest / 60.0
            ),
        });
    }
}

#[allow(clippy::too_many_arguments)]
fn database(
    key: &DbKey,
    members: &[usize],
    infos: &[(String, ReportInfo)],
    parts: &[DataFrame],
    analyses: &[Analysis],
    formula: &Formula,
    formula_info: &FormulaInfo,
    rules: &RuleSet,
    settings: &Settings,
) -> PolarsResult<DatabaseAnalysis> {
    let first = &infos[members[0]].1;
    let name = if key.2.is_empty() {
        format!("{} (DB Id {})", key.1, key.0)
    } else {
        format!("{} PDB {} (DB Id {})", key.1, key.2, key.0)
    };
    let mut warnings: Vec<Warning> = Vec::new();
    // Every instance seen for this database, by number.
    let mut known: BTreeMap<u32, String> = BTreeMap::new();
    let mut instance_info: BTreeMap<u32, InstanceInfo> = BTreeMap::new();
    for &m in members {
        for i in &infos[m].1.instances {
            known.entry(i.number).or_insert_with(|| i.name.clone());
            instance_info.entry(i.number).or_insert_with(|| i.clone());
        }
    }
    // Interval key: snapshot ids (shared by all instances of a database).
    let mut by_interval: BTreeMap<(u64, u64), (Vec<usize>, Vec<usize>)> = BTreeMap::new();
    for &m in members {
        let s = &infos[m].1.snapshots;
        let e = by_interval.entry((s.begin_id, s.end_id)).or_default();
        if infos[m].1.kind == ReportKind::RacGlobal {
            e.0.push(m);
        } else {
            e.1.push(m);
        }
    }
    let rac = first.db.rac == Some(true) || known.len() > 1;
    let mut intervals: Vec<IntervalRow> = Vec::new();
    for ((_, _), (globals, insts)) in &by_interval {
        let mut flags = Vec::new();
        let (scope, used, view): (&'static str, Vec<usize>, Option<View>) = if let Some(&g) =
            globals.first()
        {
            if !insts.is_empty() {
                flags.push(format!(
                    "{} instance report(s) of the same interval not added: the RAC global report already gives the cluster figure",
                    insts.len()
                ));
            }
            ("cluster", vec![g], None)
        } else if insts.len() == 1 {
            let scope = if first.kind == ReportKind::Pdb {
                "pdb"
            } else if rac {
                "rac_sum"
            } else {
                "instance"
            };
            (scope, insts.clone(), None)
        } else {
            // Views are rebuilt from the model's rows only for the intervals that need a sum.
            let owned: Vec<View> = insts
                .iter()
                .map(|&m| {
                    let inst = infos[m]
                        .1
                        .instances
                        .first()
                        .map_or("*", |i| i.name.as_str());
                    View::of(&parts[m], inst)
                })
                .collect::<PolarsResult<_>>()?;
            let vs: Vec<&View> = owned.iter().collect();
            ("rac_sum", insts.clone(), Some(View::sum(&vs)))
        };
        let workload = match &view {
            Some(v) => metrics::workload(
                v,
                "rac_sum",
                formula,
                used.iter()
                    .map(|&m| infos[m].1.rate_decimals)
                    .min()
                    .unwrap_or(2),
            ),
            None => analyses[used[0]].workload.clone(),
        };
        let mut per_instance = Vec::new();
        if scope == "cluster" {
            let m = used[0];
            for i in &infos[m].1.instances {
                let v = View::of(&parts[m], &i.name)?;
                let get = |col: &str| {
                    v.get(
                        crate::model::section::IOSTAT_FILETYPE,
                        &format!("Total [{col}]"),
                    )
                    .and_then(|x| x.per_second)
                };
                let share = InstanceShare {
                    instance: i.name.clone(),
                    read_reqs_per_s: get("Reads/s"),
                    write_reqs_per_s: get("Writes/s"),
                    read_mb_s: get("Read bytes/s").map(|b| b / 1e6),
                    write_mb_s: get("Write bytes/s").map(|b| b / 1e6),
                };
                if share.read_reqs_per_s.is_some() || share.write_reqs_per_s.is_some() {
                    per_instance.push(share);
                }
            }
        }
        let mut names: Vec<String> = Vec::new();
        for &m in &used {
            for i in &infos[m].1.instances {
                names.push(i.name.clone());
            }
        }
        if scope == "rac_sum" {
            let present: Vec<u32> = used
                .iter()
                .filter_map(|&m| infos[m].1.instances.first().map(|i| i.number))
                .collect();
            let missing: Vec<&String> = known
                .iter()
                .filter(|(n, _)| !present.contains(n))
                .map(|(_, name)| name)
                .collect();
            if !missing.is_empty() {
                flags.push(format!(
                    "partial: no report of instance {} for this interval (the sum covers {} of {} instances)",
                    missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
                    present.len(),
                    known.len()
                ));
            } else if known.len() == 1 {
                flags.push(
                    "partial: only one instance of this RAC database was given; the other instances' reports are needed for the database figure"
                        .to_string(),
                );
            }
        }
        let restarted = used
            .iter()
            .any(|&m| analyses[m].warnings.iter().any(|w| w.id == "restart"));
        if restarted {
            flags.push("restart: an instance started inside the interval".to_string());
        }
        let s = &infos[used[0]].1.snapshots;
        let mut interval = interval_of(s);
        if used.len() > 1 {
            // Instances of one interval share snapshot ids; their elapsed times can differ by seconds.
            interval.db_time_min = used
                .iter()
                .map(|&m| infos[m].1.snapshots.db_time_min)
                .sum::<Option<f64>>();
        }
        intervals.push(IntervalRow {
            interval,
            scope,
            instances: names,
            sources: used.iter().map(|&m| infos[m].0.clone()).collect(),
            workload,
            per_instance,
            flags,
            excluded: restarted,
        });
    }
    intervals.sort_by(|a, b| {
        a.interval
            .begin_time
            .cmp(&b.interval.begin_time)
            .then(a.interval.begin_snap.cmp(&b.interval.begin_snap))
    });

    // Overlapping intervals (a 2-hour report beside the two hourly ones it spans) would count the
    // same load twice: the longer one is left out.
    let spans: Vec<(u64, u64)> = intervals
        .iter()
        .map(|i| (i.interval.begin_snap, i.interval.end_snap))
        .collect();
    for (k, iv) in intervals.iter_mut().enumerate() {
        let (b, e) = spans[k];
        let inside: Vec<String> = spans
            .iter()
            .enumerate()
            .filter(|&(j, &(b2, e2))| {
                j != k && b2 < e && b < e2 && (e2 - b2 < e - b || (e2 - b2 == e - b && j < k))
            })
            .map(|(_, &(b2, e2))| format!("{b2}–{e2}"))
            .collect();
        if !inside.is_empty() {
            iv.excluded = true;
            iv.flags.push(format!(
                "overlap: snapshots {b}–{e} overlap the shorter interval(s) {}; left out so that no load counts twice",
                inside.join(", ")
            ));
        }
    }
    // Partial RAC intervals (an instance's report missing) understate the database: left out
    // when complete intervals exist.
    let partial = |i: &IntervalRow| i.flags.iter().any(|f| f.starts_with("partial"));
    if intervals.iter().any(|i| !i.excluded && !partial(i)) {
        for iv in intervals.iter_mut().filter(|i| !i.excluded && partial(i)) {
            iv.excluded = true;
            iv.flags
                .push("left out of statistics: complete intervals exist".to_string());
        }
    }
    // Every interval flagged: use them all rather than size nothing, and say so.
    let all_flagged = !intervals.is_empty() && intervals.iter().all(|i| i.excluded);
    if all_flagged {
        warnings.push(Warning {
            id: "all_flagged".into(),
            message: "every interval is flagged (see Intervals): the statistics use them anyway, so treat the sizing as approximate".into(),
        });
    }

    // Series statistics over the intervals that count.
    let counted: Vec<&IntervalRow> = intervals
        .iter()
        .filter(|i| !i.excluded || all_flagged)
        .collect();
    let weights: Vec<f64> = counted
        .iter()
        .map(|i| i.interval.elapsed_min.unwrap_or(0.0))
        .collect();
    let mut statistics = BTreeMap::new();
    for (fname, get) in SERIES_FIELDS {
        // Statistics on the unrounded figures; they are rounded only when shown.
        let vals: Vec<Option<f64>> = counted.iter().map(|i| get(&i.workload).exact).collect();
        let unit = counted.first().map(|i| get(&i.workload).unit).unwrap_or("");
        statistics.insert(fname.to_string(), stats_of(&vals, &weights, &counted, unit));
    }

    // Sizing basis: required IOPS if every counted interval has it, else measured.
    let basis = if counted
        .iter()
        .all(|i| i.workload.required_iops.value.is_some())
    {
        "required_iops"
    } else {
        "measured_iops"
    };
    let size_on = settings.size_on;
    let stat = |f: &str| statistics.get(f).and_then(|s: &SeriesStats| s.get(size_on));
    let target = stat(basis);
    // The interval whose sizing IOPS is closest to the statistic gives the IO character.
    let character = counted
        .iter()
        .enumerate()
        .filter_map(|(i, iv)| {
            let v = if basis == "required_iops" {
                iv.workload.required_iops.value
            } else {
                iv.workload.measured_iops.value
            }?;
            Some((i, (v - target.unwrap_or(v)).abs()))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i);
    let character_row: Option<&IntervalRow> = character.map(|i| counted[i]);
    let character_interval = character_row
        .and_then(|c| intervals.iter().position(|i| std::ptr::eq(i, c)))
        .unwrap_or(0);
    let cw = character_row.map(|c| &c.workload);

    if basis == "measured_iops" {
        let why = intervals
            .iter()
            .find_map(|i| i.workload.required_iops.unknown_reason.clone())
            .unwrap_or_else(|| "a term is missing".into());
        warnings.push(Warning {
            id: "required_unknown".into(),
            message: format!("required IOPS is unknown ({why}); sizing from measured IOPS instead"),
        });
    }
    // Per-report warnings, once per id and message.
    for &m in members {
        for w in &analyses[m].warnings {
            if w.id == "restart"
                || w.id == "rac_instance"
                    && intervals
                        .iter()
                        .any(|i| i.scope == "rac_sum" && i.instances.len() > 1)
            {
                continue;
            }
            if !warnings
                .iter()
                .any(|x| x.id == w.id && x.message == w.message)
            {
                warnings.push(w.clone());
            }
        }
    }
    for iv in &intervals {
        for f in &iv.flags {
            let id = if f.starts_with("partial") {
                "rac_partial"
            } else if f.starts_with("restart") {
                "restart"
            } else if f.starts_with("overlap") {
                "overlap"
            } else if f.starts_with("left out") {
                continue;
            } else {
                "interval"
            };
            warnings.push(Warning {
                id: id.into(),
                message: format!(
                    "{} → {}: {f}",
                    iv.interval
                        .begin_time
                        .as_deref()
                        .unwrap_or("?")
                        .replace('T', " "),
                    iv.interval
                        .end_time
                        .as_deref()
                        .unwrap_or("?")
                        .replace('T', " ")
                ),
            });
        }
    }

    let mut recommendation = None;
    let mut demand = Demand {
        capacity_gib: settings.capacity_gib,
        ..Demand::default()
    };
    // Throughput: the statistic of total MB/s (the figure printed), split between reads and
    // writes in the proportion of their own statistics.
    let (read_mb_s, write_mb_s) = match (stat("total_mb_s"), stat("read_mb_s"), stat("write_mb_s"))
    {
        (Some(t), Some(r), Some(w)) if r + w > 0.0 => (t * r / (r + w), t * w / (r + w)),
        (_, r, w) => (r.unwrap_or(0.0), w.unwrap_or(0.0)),
    };
    match (target, cw) {
        (Some(t), Some(cw)) => {
            // Unrounded figures, trimmed of float noise (1e-6) so the JSON reads 3150.22, not
            // 3150.2200000000003.
            let r6 = |v: f64| (v * 1e6).round() / 1e6;
            let o6 = |v: Option<f64>| v.map(r6);
            let p95 = |r: &Option<crate::metrics::P95Range>| {
                r.as_ref()
                    .map(|r| (r.lo_ms, r.hi_ms.unwrap_or(f64::INFINITY)))
            };
            demand = Demand {
                required_iops: r6(t),
                read_iops: r6(stat("read_iops").unwrap_or(0.0)),
                write_iops: r6(stat("write_iops").unwrap_or(0.0)),
                read_mb_s: r6(read_mb_s),
                write_mb_s: r6(write_mb_s),
                avg_read_kib: o6(cw.avg_read_kib.exact),
                avg_write_kib: o6(cw.avg_write_kib.exact),
                small_read_share: match (cw.small_read_iops.exact, cw.read_iops.exact) {
                    (Some(s), Some(t)) if t > 0.0 => Some(s / t),
                    _ => None,
                },
                direct_read_share: o6(cw.direct_read_pct.exact.map(|p| p / 100.0)),
                cache_hit_pct: o6(cw.cache_hit_pct.exact.or(cw.buffer_hit_pct_printed.exact)),
                single_block_read_ms: o6(cw.db_file_sequential_read_ms.exact),
                log_write_ms: o6(cw.log_file_parallel_write_ms.exact),
                capacity_gib: settings.capacity_gib,
                window_minutes: character_row.and_then(|c| c.interval.elapsed_min),
                peak_minutes: sustained_minutes(
                    counted.iter().map(|i| {
                        (
                            if basis == "required_iops" {
                                i.workload.required_iops.exact
                            } else {
                                i.workload.measured_iops.exact
                            },
                            i.interval.elapsed_min,
                        )
                    }),
                    t,
                )
                .or(character_row.and_then(|c| c.interval.elapsed_min)),
                mean_iops: statistics.get(basis).and_then(|s| s.avg).map(r6),
                large_read_ms: o6(cw.db_file_scattered_read_ms.exact),
                latency_basis: None,
                avg_log_write_kib: o6(cw.avg_redo_write_kib.exact),
                single_block_read_p95: p95(&cw.single_block_read_p95),
                large_read_p95: p95(&cw.multiblock_read_p95),
                log_write_p95: p95(&cw.log_write_p95),
            };
            let opts = Options {
                headroom_pct: settings.headroom_pct,
                platforms: settings.platforms.clone(),
                figure_decimals: Some(cw.required_iops.decimals),
                formula: None,
                instance: settings.instance.clone(),
            };
            let rec = rules::recommend(rules, &demand, &opts);
            for f in rec
                .fired_rules
                .iter()
                .filter(|f| f.effect == rules::Effect::Warn)
            {
                warnings.push(Warning {
                    id: f.id.clone(),
                    message: f.message.to_string(),
                });
            }
            recommendation = Some(rec);
        }
        _ => warnings.push(Warning {
            id: "cannot_size".into(),
            message: format!(
                "cannot size: no interval has a known {} ({})",
                basis.replace('_', " "),
                intervals
                    .iter()
                    .find_map(|i| i.workload.measured_iops.unknown_reason.clone())
                    .unwrap_or_else(|| "every interval was left out".into())
            ),
        }),
    }
    let mut instances: Vec<String> = known.into_values().collect();
    instances.dedup();
    Ok(DatabaseAnalysis {
        key: name,
        database: first.db.clone(),
        instances,
        instance_info: instance_info.into_values().collect(),
        sources: members.iter().map(|&m| infos[m].0.clone()).collect(),
        source_kinds: members
            .iter()
            .map(|&m| {
                (
                    kind_name(infos[m].1.kind).to_string(),
                    infos[m].1.title.clone(),
                    infos[m].1.format.clone(),
                )
            })
            .collect(),
        intervals,
        statistics,
        size_on,
        character_interval,
        required_iops_formula: formula_info.clone(),
        demand,
        sizing_basis: basis.to_string(),
        recommendation,
        warnings,
    })
}
