//! One database over all its intervals, from its reports' frames of the model to its sizing.
//!
//! 1. Reports are grouped by database (DB Id, name, and PDB for PDB-level reports).
//! 2. One interval per snapshot range. Instance reports of a RAC database are summed per matching
//!    interval ([`crate::model::View::sum`] of the rows each report kept,
//!    [`crate::metrics::kept`]); a RAC global report already gives the cluster figure
//!    and wins over a sum of the same interval. Intervals where an instance was restarted, partial
//!    RAC sums and intervals that overlap shorter ones are flagged and left out of the statistics.
//! 3. Statistics of each [`SERIES_FIELDS`] figure over the counted intervals
//!    ([`crate::model::series`], weighted by interval length).
//! 4. Sizing ([`crate::sizing`]): required IOPS (else measured IOPS) at the chosen statistic; the
//!    interval closest to it gives the IO character (sizes, hit ratio, latency, histogram).
//! 5. Intervals longer than [`LONG_WINDOW_MIN`] are warned about, with the peak factor of hourly
//!    series where the run has them.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::Serialize;
use sizer_parsers::awr::{DbInfo, InstanceInfo, ReportKind};
use sizer_parsers::Format;

use crate::error::RunError;
use crate::held::{KeptList, ReportHead};
use crate::metrics::{self, Formula, IntervalFigures};
use crate::model::frames::{database_series, DatabaseSeriesRow};
use crate::model::series::{series_stats, SeriesStats};
use crate::model::{DataFrame, PolarsResult, View};
use crate::rules::{Demand, Metric, Op, Recommendation, RuleSet};
use crate::settings::{Settings, SizeOn};
use crate::sizing::{self, sustained_minutes, trim6, DemandAt, RuleWarnings};
use crate::subject::awr::{interval_of, FormulaInfo, Interval, ReportInfo};
use crate::warning::{fmt_grouped, Warning};

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
    /// Figures of the interval: the report's own when one report gives the interval (shared
    /// with its [`crate::subject::awr::Analysis`] in a run held in memory; computed again from
    /// its kept rows in a spilled one), else those of the instances' sum.
    pub workload: Arc<IntervalFigures>,
    /// RAC global reports: each instance's share, from `IOStat by File Type` (its `Total` row per
    /// `I#`); empty otherwise.
    pub per_instance: Vec<InstanceShare>,
    /// Why the interval is flagged (`restart: …`, `partial: …`).
    pub flags: Vec<String>,
    /// Left out of the statistics (an instance restarted inside it).
    pub excluded: bool,
    /// The peak IOPS inside the interval, where the source gives one (AWR Miner / DBCSI
    /// `read_iops_max + write_iops_max`, summed over RAC instances): an upper bound of its
    /// busiest minute, since reads, writes and instances may peak in different minutes. Absent
    /// for AWR reports (they give interval averages only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_iops_in_interval: Option<f64>,
}

/// The statistics key of [`IntervalRow::peak_iops_in_interval`], present only for databases
/// whose source gives peaks inside the intervals.
pub const PEAK_IN_INTERVAL: &str = "peak_iops_in_interval";

/// `read_iops_max + write_iops_max` of the reports `used` (one interval), summed: `None` when
/// one of them lacks either (a report that is not a collector's record never has them).
///
/// # Errors
/// A read error of the spill file.
fn peak_of(
    used: &[usize],
    infos: &[(String, ReportInfo)],
    kept: &KeptList,
) -> Result<Option<f64>, RunError> {
    use sizer_parsers::awr_miner::{READ_IOPS_MAX, WRITE_IOPS_MAX};
    let mut acc = 0.0;
    for &m in used {
        let info = &infos[m].1;
        if !info.format.collector() {
            return Ok(None);
        }
        let inst = info.instances.first().map_or("*", |i| i.name.as_str());
        let k = kept.get(m).map_err(RunError::Spill)?;
        let get = |s: &str| {
            k.get(inst, crate::model::section::ACTIVITY, s)
                .and_then(|c| c.per_second)
        };
        match (get(READ_IOPS_MAX), get(WRITE_IOPS_MAX)) {
            (Some(r), Some(w)) => acc += r + w,
            _ => return Ok(None),
        }
    }
    Ok(Some(acc))
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
    /// Report kind of each source (`instance`, `rac_global`, `pdb` in the JSON), its title, and
    /// its format (`awr_html`, `awr_text`, `statspack`), in `sources` order.
    pub source_kinds: Vec<(ReportKind, String, Format)>,
    /// The interval series, in time order.
    pub intervals: Vec<IntervalRow>,
    /// Statistics of each figure over the intervals, keyed by the [`IntervalFigures`] field name.
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
    /// The capacity sized for and where it came from ([`crate::capacity`]).
    pub capacity: crate::capacity::CapacityInfo,
    /// Caveats.
    pub warnings: Vec<Warning>,
}

/// The figures of [`IntervalFigures`] that get series statistics: (field name, accessor).
pub(crate) type Field = (&'static str, fn(&IntervalFigures) -> &metrics::Figure);

/// Figures with series statistics.
pub const SERIES_FIELDS: [Field; 14] = [
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
    ("host_cpu_busy_pct", |w| &w.host_cpu_busy_pct),
    ("host_cpu_iowait_pct", |w| &w.host_cpu_iowait_pct),
];

/// Statistics of one figure over the counted intervals (weights: interval length, minutes); the
/// peak's times are its interval's.
fn stats_of(
    values: &[Option<f64>],
    weights: &[f64],
    ivs: &[&IntervalRow],
    unit: &'static str,
) -> SeriesStats {
    let (mut stats, peak) = series_stats(values, |i| weights[i], unit);
    if let Some(i) = peak {
        stats.peak_begin = ivs[i].interval.begin_time.clone();
        stats.peak_end = ivs[i].interval.end_time.clone();
    }
    stats
}

pub(crate) type DbKey = (u64, String, String);

pub(crate) fn databases(
    infos: &[(String, ReportInfo)],
    kept: &KeptList,
    heads: &[ReportHead],
    formula: &Formula,
    formula_info: &FormulaInfo,
    rules: &RuleSet,
    settings: &Settings,
) -> Result<Vec<DatabaseAnalysis>, RunError> {
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
            kept,
            heads,
            formula,
            formula_info,
            rules,
            settings,
        )?);
    }
    long_window_warnings(&mut out, long_window_threshold(rules));
    Ok(out)
}

/// Intervals longer than this average away the peaks the storage must serve.
pub const LONG_WINDOW_MIN: f64 = 60.0;

/// The rule that says a window is too long (`rules/sizing.toml`).
pub const LONG_WINDOW_RULE: &str = "long-window-hides-peaks";

/// The window, minutes, above which the `long_window` warning is given: the threshold of the
/// `window_minutes >` condition of [`LONG_WINDOW_RULE`], so the warning and the rule it quotes
/// agree; `None` (no warning) when the rules have no such condition.
/// The warning of a subject that `--capacity-file` has no row for (`capacity_not_in_file`).
pub(crate) fn capacity_missing_warning(settings: &Settings) -> Warning {
    Warning {
        id: "capacity_not_in_file".into(),
        message: format!(
            "not in --capacity-file {}: sized for performance only (its prices are those of a performance-only layout); add a row for it",
            settings
                .capacity_file
                .as_ref()
                .map(|f| f.path.display().to_string())
                .unwrap_or_default()
        ),
    }
}

pub(crate) fn long_window_threshold(rules: &RuleSet) -> Option<f64> {
    rules
        .rules()
        .iter()
        .filter(|r| r.id == LONG_WINDOW_RULE)
        .flat_map(|r| &r.when)
        .find(|c| c.metric == Metric::WindowMinutes && c.op == Op::Gt)
        .map(|c| c.value)
}

/// Warns about databases sized from intervals longer than `threshold_min` (the rule's), with the
/// factor a user might apply: the database's own p95 ÷ time-weighted average of required (or
/// measured) IOPS over its hourly intervals (at most [`LONG_WINDOW_MIN`] + 10 %) in this run (at
/// least 3). Other databases' ratios are quoted only as a labelled reference; no factor is
/// invented.
pub(crate) fn long_window_warnings(dbs: &mut [DatabaseAnalysis], threshold_min: Option<f64>) {
    let Some(threshold_min) = threshold_min else {
        return;
    };
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
        if longest <= threshold_min {
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
                "interval of {} min ({:.1} h, > {} min: `{LONG_WINDOW_RULE}`): its figures are averages over the whole window and hide peaks; {hint}",
                fmt_grouped(longest, 2),
                longest / 60.0,
                fmt_grouped(threshold_min, 0)
            ),
        });
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn database(
    key: &DbKey,
    members: &[usize],
    infos: &[(String, ReportInfo)],
    kept: &KeptList,
    heads: &[ReportHead],
    formula: &Formula,
    formula_info: &FormulaInfo,
    rules: &RuleSet,
    settings: &Settings,
) -> Result<DatabaseAnalysis, RunError> {
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
        for i in infos[m].1.instances.iter() {
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
    // The database's own capacity (`--capacity-file` row, grown to the horizon, or
    // `--capacity`): sizing below sees it as `settings.capacity_gib`.
    let hosts: Vec<String> = instance_info
        .values()
        .filter_map(|i| i.host.clone())
        .collect();
    let db_name = if key.2.is_empty() { &key.1 } else { &key.2 };
    let mut capacity = crate::capacity::resolve(
        settings.capacity_given(),
        crate::capacity::Subject::Database {
            name: db_name,
            db_id: Some(key.0),
            hosts: &hosts,
        },
    );
    // A source that measured the database's size (a collector's SIZE-ON-DISK) gives it when
    // neither `--capacity` nor a capacity-file row does: the latest snapshot's size, not grown.
    if capacity.used.is_none() {
        let measured = members
            .iter()
            .filter_map(|&m| infos[m].1.db.size_on_disk.map(|s| (s, &infos[m].0)))
            .max_by_key(|(s, _)| s.snap_id);
        if let Some((s, file)) = measured {
            capacity.used = Some(crate::capacity::CapacityUsed {
                gib: s.gib,
                base_gib: s.gib,
                growth_pct_per_year: None,
                horizon_years: None,
                source: format!("SIZE-ON-DISK of {file}, snapshot {}", s.snap_id),
                line: None,
            });
            capacity.missing_from_file = false;
        }
    }
    let own = Settings {
        capacity_gib: capacity.used.as_ref().map(|c| c.gib),
        ..settings.clone()
    };
    let settings = &own;
    if capacity.missing_from_file {
        warnings.push(capacity_missing_warning(settings));
    }
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
            // The instances' kept rows (crate::metrics::kept): what the figures read.
            let vs: Vec<View> = insts
                .iter()
                .map(|&m| {
                    let inst = infos[m]
                        .1
                        .instances
                        .first()
                        .map_or("*", |i| i.name.as_str());
                    Ok(kept.get(m)?.view(inst).unwrap_or_default())
                })
                .collect::<std::io::Result<_>>()
                .map_err(RunError::Spill)?;
            let vs: Vec<&View> = vs.iter().collect();
            ("rac_sum", insts.clone(), Some(View::sum(&vs)))
        };
        let workload = match &view {
            Some(v) => {
                let mut w = metrics::workload(
                    v,
                    metrics::FigureSource::RacSum,
                    formula,
                    used.iter()
                        .map(|&m| infos[m].1.rate_decimals)
                        .min()
                        .unwrap_or(2),
                    None,
                );
                // The instances' DB times add up, as their wait times do.
                let db_time: Option<f64> =
                    used.iter().map(|&m| infos[m].1.snapshots.db_time_min).sum();
                metrics::exadata::set_db_time(w.exadata.as_deref_mut(), db_time);
                Arc::new(w)
            }
            None => match &heads[used[0]].workload {
                Some(w) => w.clone(),
                // A spilled run holds no figures per report: its kept rows give them again.
                None => {
                    let m = used[0];
                    let k = kept.get(m).map_err(RunError::Spill)?;
                    let w = crate::subject::awr::figures_of_kept(&infos[m].1, &k, formula)
                        .ok_or_else(|| {
                            RunError::Spill(std::io::Error::other(
                                "a RAC global report's figures were not kept",
                            ))
                        })?;
                    Arc::new(w)
                }
            },
        };
        let mut per_instance = Vec::new();
        if scope == "cluster" {
            let m = used[0];
            let kept_m = kept.get(m).map_err(RunError::Spill)?;
            for i in infos[m].1.instances.iter() {
                // The shares are what a RAC global report keeps
                // (crate::metrics::kept::RAC_GLOBAL_INSTANCE_ROWS).
                let get = |col: &str| {
                    kept_m
                        .get(
                            &i.name,
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
            for i in infos[m].1.instances.iter() {
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
            // A collector file reads every instance's rows from DBA_HIST: an instance absent
            // from a snapshot had no metrics then (down), it is not a missing report.
            let collector = used.iter().all(|&m| infos[m].1.format.collector());
            if collector {
                if !missing.is_empty() {
                    flags.push(format!(
                        "instance {} not in the capture for this snapshot (no DBA_HIST metrics: not running); the sum covers {} of {} instances",
                        missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
                        present.len(),
                        known.len()
                    ));
                }
            } else if !missing.is_empty() {
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
            .any(|&m| heads[m].warnings.iter().any(|w| w.id == "restart"));
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
            peak_iops_in_interval: peak_of(&used, infos, kept)?,
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
    let peaks: Vec<Option<f64>> = counted.iter().map(|i| i.peak_iops_in_interval).collect();
    if peaks.iter().any(Option::is_some) {
        statistics.insert(
            PEAK_IN_INTERVAL.to_string(),
            stats_of(&peaks, &weights, &counted, "IOPS"),
        );
    }

    // Sizing basis: required IOPS if every counted interval has it, else measured; with
    // `--size-on max-in-interval`, the peaks inside the intervals where the source has them.
    let peak_basis = settings.size_on == SizeOn::MaxInInterval
        && statistics.get(PEAK_IN_INTERVAL).is_some_and(|s| s.n > 0);
    let basis = if peak_basis {
        PEAK_IN_INTERVAL
    } else if counted
        .iter()
        .all(|i| i.workload.required_iops.value.is_some())
    {
        "required_iops"
    } else {
        "measured_iops"
    };
    if settings.size_on == SizeOn::MaxInInterval && !peak_basis {
        warnings.push(Warning {
            id: "no_peak_in_interval".into(),
            message: "--size-on max-in-interval: the sources give no peak inside the intervals (AWR and Statspack reports print interval averages): sized on the busiest interval (max)".into(),
        });
    }
    let size_on = settings.size_on;
    let stat = |f: &str| sizing::at(&statistics, f, settings);
    let target = stat(basis);
    let basis_of: fn(&IntervalFigures) -> &metrics::Figure = if basis == "required_iops" {
        |w| &w.required_iops
    } else {
        |w| &w.measured_iops
    };
    // The interval whose sizing IOPS is closest to the statistic gives the IO character.
    let character = if peak_basis {
        sizing::closest(target, counted.iter().map(|iv| iv.peak_iops_in_interval))
    } else {
        sizing::closest(
            target,
            counted.iter().map(|iv| basis_of(&iv.workload).value),
        )
    };
    let character_row: Option<&IntervalRow> = character.map(|i| counted[i]);
    let character_interval = character_row
        .and_then(|c| intervals.iter().position(|i| std::ptr::eq(i, c)))
        .unwrap_or(0);

    if basis == "measured_iops" {
        let why = intervals
            .iter()
            .find_map(|i| {
                i.workload
                    .required_iops
                    .unknown_reason()
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "a term is missing".into());
        warnings.push(Warning {
            id: "required_unknown".into(),
            message: format!("required IOPS is unknown ({why}); sizing from measured IOPS instead"),
        });
    }
    // Per-report warnings, once per id and message.
    for &m in members {
        for w in &heads[m].warnings {
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

    // Throughput: the statistic of total MB/s (the figure printed), split between reads and
    // writes in the proportion of their own statistics; unknown stays unknown.
    let (read_mb_s, write_mb_s) = stat("total_mb_s")
        .and_then(|t| sizing::proportional(t, stat("read_mb_s"), stat("write_mb_s")))
        .map(|(r, w)| (Some(r), Some(w)))
        .unwrap_or((stat("read_mb_s"), stat("write_mb_s")));
    let sized = sizing::size(
        rules,
        settings,
        &statistics,
        basis,
        RuleWarnings::AsWarnings,
        &mut warnings,
        |t, _| {
            let c = character_row?;
            let cw = &c.workload;
            // Unrounded figures, trimmed of float noise.
            let o6 = |v: Option<f64>| v.map(trim6);
            let p95 = |r: &Option<crate::metrics::P95Range>| {
                r.as_ref()
                    .map(|r| (r.lo_ms, r.hi_ms.unwrap_or(f64::INFINITY)))
            };
            let demand = Demand {
                required_iops: Some(trim6(t)),
                read_iops: stat("read_iops").map(trim6),
                write_iops: stat("write_iops").map(trim6),
                read_mb_s: read_mb_s.map(trim6),
                write_mb_s: write_mb_s.map(trim6),
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
                window_minutes: c.interval.elapsed_min,
                peak_minutes: sustained_minutes(
                    counted
                        .iter()
                        .map(|i| (basis_of(&i.workload).exact, i.interval.elapsed_min)),
                    t,
                )
                .or(c.interval.elapsed_min),
                mean_iops: statistics.get(basis).and_then(|s| s.avg).map(trim6),
                large_read_ms: o6(cw.db_file_scattered_read_ms.exact),
                latency_basis: None,
                avg_log_write_kib: o6(cw.avg_redo_write_kib.exact),
                single_block_read_p95: p95(&cw.single_block_read_p95),
                large_read_p95: p95(&cw.multiblock_read_p95),
                log_write_p95: p95(&cw.log_write_p95),
                direct_path_read_ms: o6(cw.direct_path_read_ms.exact),
                smart_scan_ms: o6(cw.cell_smart_table_scan_ms.exact),
                latency_events: [
                    ("single_block_read_ms", &cw.db_file_sequential_read_ms),
                    ("large_read_ms", &cw.db_file_scattered_read_ms),
                    ("log_write_ms", &cw.log_file_parallel_write_ms),
                    ("direct_path_read_ms", &cw.direct_path_read_ms),
                    ("smart_scan_ms", &cw.cell_smart_table_scan_ms),
                ]
                .into_iter()
                .filter_map(|(m, f)| {
                    Some(crate::rules::LatencyEvent {
                        measured_by: m.to_string(),
                        event: f.event()?.to_string(),
                        waits: f.waits(),
                        bounds: crate::metrics::average_bounds(f),
                    })
                })
                .collect(),
                host_cpu_busy_pct: o6(cw.host_cpu_busy_pct.exact),
                host_cpu_iowait_pct: o6(cw.host_cpu_iowait_pct.exact),
            };
            Some(DemandAt {
                demand,
                figure_decimals: cw.required_iops.decimals,
                // The fallback formula, when the sized interval used it, is the one named.
                formula: cw.required_iops_fallback.clone(),
            })
        },
    );
    if sized.recommendation.is_none() {
        warnings.push(Warning {
            id: "cannot_size".into(),
            message: format!(
                "cannot size: no interval has a known {} ({})",
                basis.replace('_', " "),
                intervals
                    .iter()
                    .find_map(|i| i
                        .workload
                        .measured_iops
                        .unknown_reason()
                        .map(str::to_string))
                    .unwrap_or_else(|| "every interval was left out".into())
            ),
        });
    }
    let mut instances: Vec<String> = known.into_values().collect();
    instances.dedup();
    Ok(DatabaseAnalysis {
        key: name,
        database: (*first.db).clone(),
        instances,
        instance_info: instance_info.into_values().collect(),
        sources: members.iter().map(|&m| infos[m].0.clone()).collect(),
        source_kinds: members
            .iter()
            .map(|&m| (infos[m].1.kind, infos[m].1.title.clone(), infos[m].1.format))
            .collect(),
        intervals,
        statistics,
        size_on,
        character_interval,
        required_iops_formula: formula_info.clone(),
        demand: sized.demand,
        sizing_basis: basis.to_string(),
        recommendation: sized.recommendation,
        capacity,
        warnings,
    })
}

/// The interval series of every database as a frame (see
/// [`crate::model::frames::database_series`]): one row per interval, one column per
/// [`SERIES_FIELDS`] figure (its rounded value).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn series_frame(dbs: &[DatabaseAnalysis]) -> PolarsResult<DataFrame> {
    let rows = dbs.iter().flat_map(|d| {
        d.intervals.iter().map(move |iv| DatabaseSeriesRow {
            database: d.key.as_str(),
            begin_time: iv.interval.begin_time.as_deref(),
            end_time: iv.interval.end_time.as_deref(),
            elapsed_min: iv.interval.elapsed_min,
            scope: iv.scope,
            excluded: iv.excluded,
            figures: SERIES_FIELDS.map(|(_, get)| get(&iv.workload).value),
        })
    });
    database_series(SERIES_FIELDS.map(|(name, _)| name), rows)
}
