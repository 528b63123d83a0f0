//! The columnar model: every parsed statistic as one row of a polars [`DataFrame`].
//!
//! Parsers produce typed records; this module is the only place that knows polars. One row per
//! (source, instance, interval, section, statistic). Columns ([`COLUMNS`]):
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `source` | str | input file path as given |
//! | `format` | str | `awr_html` |
//! | `report_kind` | str | `instance`, `rac_global`, `pdb` |
//! | `db_id`, `db_name` | u64, str | AWR `DB Id`, `DB Name` |
//! | `instance` | str | instance name; `*` for cluster-wide rows of a RAC global report |
//! | `instance_number` | i32 (null = cluster-wide) | `Inst num` / `I#` |
//! | `begin_snap`, `end_snap` | u64 | AWR snapshot ids (shared by all instances of a database: the key that matches RAC instances' intervals) |
//! | `begin_time`, `end_time` | datetime (ms, no time zone: the database's local time) | snapshot times |
//! | `elapsed_s` | f64 | interval length, seconds |
//! | `section` | str | canonical section name (see below) |
//! | `statistic` | str | the statistic or row label, verbatim |
//! | `total`, `per_second`, `per_trans` | f64 (null = not printed) | as printed |
//! | `value`, `unit` | f64, str | a single value with its unit (%, ms, /s); see below for wait events and text reports' rates |
//! | `printed` | str (null unless kept) | the cell as printed where its text matters: converted wait times (`152.25us`), IO Profile `Read+Write` (its decimals) |
//! | `lo`, `hi` | f64 (null = as printed) | where `value` was recomputed from a total because the printed cell is coarser: the bounds the true value lies in, given the printed precision of the total and of its divisor |
//!
//! Values finer than printed ([`super::precision`]):
//! - wait events: `value` is the average wait as printed, or Total Wait Time (s) × 1000 / Waits
//!   where that is finer (a whole-ms `2` or `0` printed beside a total of seconds over many
//!   waits); a total printed as `0`, or an average printed as `0` (a total not finer), gives
//!   only a bound: `value` = `hi`, `lo` = 0;
//! - Instance Activity Stats of reports that print `per Second` with fewer than 2 decimals (text
//!   AWR, Statspack): `value` (unit `/s`) is Total / (Elapsed × 60) where the printed Elapsed
//!   minutes bound it closer than the printed rate; `per_second` stays as printed.
//!
//! Sections: `Instance Activity Stats` (every split table; for RAC global reports the cluster-wide
//! `System Statistics (Global)`), `Load Profile`, `IO Profile` (statistic `<row> [Read+Write|Read|Write]`,
//! per_second), `Instance Efficiency Percentages` (value %), `IOStat by Function` /
//! `IOStat by Filetype` (statistic `<name> [Reads/s|Writes/s|Read bytes/s|Write bytes/s|Avg wait ms]`),
//! `Foreground Wait Events` / `Background Wait Events` (total = waits, value = average wait, ms).

use chrono::NaiveDateTime;
use polars::prelude::*;
use sizer_parsers::awr::{AwrReport, HostCpu, ReportKind, WaitScope};

use super::precision::{activity_rate, wait_average};

/// The model's column names, in order.
pub const COLUMNS: [&str; 22] = [
    "source",
    "format",
    "report_kind",
    "db_id",
    "db_name",
    "instance",
    "instance_number",
    "begin_snap",
    "end_snap",
    "begin_time",
    "end_time",
    "elapsed_s",
    "section",
    "statistic",
    "total",
    "per_second",
    "per_trans",
    "value",
    "unit",
    "printed",
    "lo",
    "hi",
];

/// Section names used in the model.
pub mod section {
    /// Instance Activity Stats (all split tables) or RAC `System Statistics (Global)`.
    pub const ACTIVITY: &str = "Instance Activity Stats";
    /// Load Profile.
    pub const LOAD_PROFILE: &str = "Load Profile";
    /// IO Profile.
    pub const IO_PROFILE: &str = "IO Profile";
    /// Instance Efficiency Percentages.
    pub const EFFICIENCY: &str = "Instance Efficiency Percentages";
    /// IOStat by Function summary.
    pub const IOSTAT_FUNCTION: &str = "IOStat by Function";
    /// IOStat by Filetype summary.
    pub const IOSTAT_FILETYPE: &str = "IOStat by Filetype";
    /// Foreground Wait Events.
    pub const FG_WAITS: &str = "Foreground Wait Events";
    /// Background Wait Events.
    pub const BG_WAITS: &str = "Background Wait Events";
    /// Wait Event Histogram (all its tables merged): one row per event and bucket edge,
    /// statistic `EVENT [<EDGE ms]`, `value` = cumulative % of waits below the edge, `total` =
    /// the event's waits. Only the events the IO report card grades are kept.
    pub const WAIT_HISTOGRAM: &str = "Wait Event Histogram";
    /// Host CPU (read by the cpu module): `BUSY_TIME`, `IDLE_TIME`, `IOWAIT_TIME` (total, seconds) and
    /// the `Host CPU` percentages (value, %).
    pub const HOST_CPU: &str = "Host CPU";
}

/// Events whose Wait Event Histogram goes into the model (the IO report card's evidence).
pub const HISTOGRAM_EVENTS: [&str; 5] = [
    "db file sequential read",
    "cell single block physical read",
    "db file scattered read",
    "cell multiblock physical read",
    "log file parallel write",
];

/// The model statistic of one histogram edge: `EVENT [<EDGE ms]`.
pub fn histogram_statistic(event: &str, edge_ms: f64) -> String {
    format!("{event} [<{edge_ms} ms]")
}

/// One statistic of one source, before it becomes a model row.
#[derive(Debug, Clone, Default)]
pub struct StatRow {
    /// Instance name (`*` = cluster-wide).
    pub instance: String,
    /// Instance number (None = cluster-wide).
    pub instance_number: Option<i32>,
    /// Canonical section (see [`section`]).
    pub section: &'static str,
    /// Statistic name, verbatim.
    pub statistic: String,
    /// `Total`.
    pub total: Option<f64>,
    /// `per Second`.
    pub per_second: Option<f64>,
    /// `per Trans`.
    pub per_trans: Option<f64>,
    /// A single value (%, ms).
    pub value: Option<f64>,
    /// Unit of `value`.
    pub unit: &'static str,
    /// The cell as printed when `value` was converted from it.
    pub printed: Option<String>,
    /// Bounds of `value` when it was recomputed from a total (see the module docs).
    pub lo: Option<f64>,
    /// Upper bound of `value`.
    pub hi: Option<f64>,
}

/// Identity and interval of one parsed source.
#[derive(Debug, Clone, Default)]
pub struct SourceMeta {
    /// Input path as given.
    pub source: String,
    /// Input format id.
    pub format: &'static str,
    /// Report kind.
    pub report_kind: &'static str,
    /// DB Id.
    pub db_id: u64,
    /// DB Name.
    pub db_name: String,
    /// Begin snapshot id.
    pub begin_snap: u64,
    /// End snapshot id.
    pub end_snap: u64,
    /// Snapshot begin time.
    pub begin_time: Option<NaiveDateTime>,
    /// Snapshot end time.
    pub end_time: Option<NaiveDateTime>,
    /// Interval, seconds.
    pub elapsed_s: Option<f64>,
}

/// Flattens an AWR report into metadata and statistic rows.
pub fn awr_rows(source: &str, r: &AwrReport) -> (SourceMeta, Vec<StatRow>) {
    let kind = match r.kind {
        ReportKind::Instance => "instance",
        ReportKind::RacGlobal => "rac_global",
        ReportKind::Pdb => "pdb",
    };
    let (inst, inst_no) = match (r.kind, r.instances.first()) {
        (ReportKind::RacGlobal, _) | (_, None) => ("*".to_string(), None),
        (_, Some(i)) => (i.name.clone(), Some(i.number as i32)),
    };
    let meta = SourceMeta {
        source: source.to_string(),
        format: r.format().id(),
        report_kind: kind,
        db_id: r.db.db_id,
        db_name: r.db.db_name.clone(),
        begin_snap: r.snapshots.begin_id,
        end_snap: r.snapshots.end_id,
        begin_time: r.snapshots.begin_time,
        end_time: r.snapshots.end_time,
        elapsed_s: r.snapshots.elapsed_min.map(|m| m * 60.0),
    };
    let base = StatRow {
        instance: inst.clone(),
        instance_number: inst_no,
        ..Default::default()
    };
    let mut rows = Vec::new();
    let mut push = |section: &'static str, statistic: String, f: &dyn Fn(&mut StatRow)| {
        let mut row = StatRow {
            section,
            statistic,
            ..base.clone()
        };
        f(&mut row);
        rows.push(row);
    };
    let elapsed = r.snapshots.elapsed_min.zip(r.snapshots.elapsed_decimals);
    for s in &r.activity {
        push(section::ACTIVITY, s.name.clone(), &|row| {
            row.total = s.total;
            row.per_second = s.per_second;
            row.per_trans = s.per_trans;
            if let Some((v, lo, hi)) =
                activity_rate(s.total, s.per_second, elapsed, r.rate_decimals)
            {
                row.value = Some(v);
                row.unit = "/s";
                row.lo = Some(lo);
                row.hi = Some(hi);
            }
        });
    }
    for s in &r.load_profile {
        push(section::LOAD_PROFILE, s.name.clone(), &|row| {
            row.per_second = s.per_second;
            row.per_trans = s.per_transaction;
        });
    }
    for s in &r.io_profile {
        for (col, v, printed) in [
            ("Read+Write", s.read_write, Some(&s.read_write_printed)),
            ("Read", s.read, None),
            ("Write", s.write, None),
        ] {
            push(section::IO_PROFILE, format!("{} [{col}]", s.name), &|row| {
                row.per_second = v;
                row.printed = printed.filter(|p| !p.is_empty()).cloned();
            });
        }
    }
    for (l, v) in &r.efficiency {
        push(section::EFFICIENCY, l.clone(), &|row| {
            row.value = *v;
            row.unit = "%";
        });
    }
    for (sec, table) in [
        (section::IOSTAT_FUNCTION, &r.iostat_function),
        (section::IOSTAT_FILETYPE, &r.iostat_filetype),
    ] {
        for s in table {
            let (i, n) = match s.instance.as_deref() {
                None => (inst.clone(), inst_no),
                Some("*") => ("*".to_string(), None),
                Some(x) => {
                    let n = x.trim().parse::<i32>().ok();
                    let name = n
                        .and_then(|n| r.instances.iter().find(|i| i.number as i32 == n))
                        .map(|i| i.name.clone())
                        .unwrap_or_else(|| x.to_string());
                    (name, n)
                }
            };
            for (col, v, unit) in [
                ("Reads/s", s.read_reqs_per_s, ""),
                ("Writes/s", s.write_reqs_per_s, ""),
                ("Read bytes/s", s.read_bytes_per_s, ""),
                ("Write bytes/s", s.write_bytes_per_s, ""),
                ("Avg wait", s.avg_wait_ms, "ms"),
            ] {
                rows.push(StatRow {
                    instance: i.clone(),
                    instance_number: n,
                    section: sec,
                    statistic: format!("{} [{col}]", s.name),
                    per_second: if unit.is_empty() { v } else { None },
                    value: if unit.is_empty() { None } else { v },
                    unit,
                    ..Default::default()
                });
            }
        }
    }
    for h in &r.wait_histograms {
        if !HISTOGRAM_EVENTS.contains(&h.event.as_str()) {
            continue;
        }
        for &(edge, cum) in &h.cdf {
            rows.push(StatRow {
                section: section::WAIT_HISTOGRAM,
                statistic: histogram_statistic(&h.event, edge),
                total: h.total_waits,
                value: Some(cum),
                unit: "%",
                ..base.clone()
            });
        }
    }
    for w in &r.wait_events {
        let sec = match w.scope {
            WaitScope::Foreground => section::FG_WAITS,
            WaitScope::Background => section::BG_WAITS,
        };
        // The printed average, or Total Wait Time / Waits where finer (11g prints `2` for
        // 1.82 ms, Statspack `0` for 0.22 ms).
        let (value, bounds) = wait_average(w);
        rows.push(StatRow {
            section: sec,
            statistic: w.event.clone(),
            total: w.waits,
            value,
            unit: "ms",
            printed: Some(w.avg_wait_printed.clone()).filter(|p| !p.is_empty()),
            lo: bounds.map(|b| b.0),
            hi: bounds.map(|b| b.1),
            ..base.clone()
        });
    }
    cpu_rows(r, &base, &mut rows);
    (meta, rows)
}

/// Model statistics of the `Host CPU` section: times (seconds, `total`).
pub const BUSY_TIME: &str = "BUSY_TIME";
/// `IDLE_TIME`, seconds.
pub const IDLE_TIME: &str = "IDLE_TIME";
/// `IOWAIT_TIME`, seconds.
pub const IOWAIT_TIME: &str = "IOWAIT_TIME";
/// Percentages (`value`, %), as the `Host CPU` table names them.
const PCTS: [&str; 5] = ["%User", "%System", "%WIO", "%Idle", "% Busy"];

fn pcts(h: &HostCpu) -> [Option<f64>; 5] {
    [h.user_pct, h.system_pct, h.wio_pct, h.idle_pct, h.busy_pct]
}

fn rows_of(h: &HostCpu, base: &StatRow, out: &mut Vec<StatRow>) {
    for (stat, v) in [
        (BUSY_TIME, h.busy_time_s),
        (IDLE_TIME, h.idle_time_s),
        (IOWAIT_TIME, h.iowait_time_s),
    ] {
        if v.is_some() {
            out.push(StatRow {
                section: section::HOST_CPU,
                statistic: stat.to_string(),
                total: v,
                unit: "s",
                ..base.clone()
            });
        }
    }
    for (stat, v) in PCTS.into_iter().zip(pcts(h)) {
        if v.is_some() {
            out.push(StatRow {
                section: section::HOST_CPU,
                statistic: stat.to_string(),
                value: v,
                unit: "%",
                ..base.clone()
            });
        }
    }
}

/// The `Host CPU` rows of a report (the cpu module reads its figures from them). `base` carries the report's instance (`*` for a RAC
/// global report). A RAC global report also gets one row set per instance (`I#` → name) and,
/// under `*`, the instances' times added (only when every instance prints them).
pub(crate) fn cpu_rows(r: &AwrReport, base: &StatRow, out: &mut Vec<StatRow>) {
    if r.kind != ReportKind::RacGlobal {
        if let Some(h) = r.host_cpu.first() {
            rows_of(h, base, out);
        }
        return;
    }
    let mut sum = HostCpu::default();
    let add = |a: Option<f64>, b: Option<f64>, first: bool| match (a, b) {
        (_, None) => None,
        (None, Some(y)) if first => Some(y),
        (None, Some(_)) => None,
        (Some(x), Some(y)) => Some(x + y),
    };
    for (k, h) in r.host_cpu.iter().enumerate() {
        let n = h.instance.map(|n| n as i32);
        let name = r
            .instances
            .iter()
            .find(|i| Some(i.number as i32) == n)
            .map(|i| i.name.clone())
            .unwrap_or_else(|| format!("{}", h.instance.unwrap_or(0)));
        let inst = StatRow {
            instance: name,
            instance_number: n,
            ..base.clone()
        };
        rows_of(h, &inst, out);
        let first = k == 0;
        sum.busy_time_s = add(sum.busy_time_s, h.busy_time_s, first);
        sum.idle_time_s = add(sum.idle_time_s, h.idle_time_s, first);
        // RAC global reports print `% WIO` per instance but no IOWAIT_TIME: its seconds are
        // % WIO × (Busy + Idle) / 100, so that the cluster's iowait weighs each host by its time.
        let iowait_s = h
            .iowait_time_s
            .or(match (h.wio_pct, h.busy_time_s, h.idle_time_s) {
                (Some(w), Some(b), Some(i)) => Some(w / 100.0 * (b + i)),
                _ => None,
            });
        sum.iowait_time_s = add(sum.iowait_time_s, iowait_s, first);
    }
    rows_of(&sum, base, out);
}

/// The model: a polars DataFrame with [`COLUMNS`].
#[derive(Debug, Clone)]
pub struct Model {
    /// The rows.
    pub df: DataFrame,
}

fn to_ms(t: Option<NaiveDateTime>) -> Option<i64> {
    t.map(|t| t.and_utc().timestamp_millis())
}

impl Model {
    /// Builds the model from sources and their rows.
    ///
    /// # Errors
    /// A polars error if a column cannot be built (not expected for well-formed rows).
    pub fn build(sources: &[(SourceMeta, Vec<StatRow>)]) -> PolarsResult<Model> {
        let parts = sources
            .iter()
            .map(|(m, rows)| Model::of_source(m, rows))
            .collect::<PolarsResult<Vec<_>>>()?;
        match parts.len() {
            0 => Model::of_source(&SourceMeta::default(), &[]),
            1 => Ok(parts.into_iter().next().expect("one part")),
            _ => Model::from_parts(&parts),
        }
    }

    /// One source's frame. The columns that hold one value per source (`source` … `elapsed_s`
    /// but `instance` and `instance_number`) are polars scalar columns: one value and a length,
    /// not a value per row (a report of 1,500 rows would otherwise repeat its path 1,500 times).
    /// They are materialized only where an operation needs it ([`Model::from_parts`], export).
    fn of_source(m: &SourceMeta, rows: &[StatRow]) -> PolarsResult<Model> {
        let n = rows.len();
        let dt = DataType::Datetime(TimeUnit::Milliseconds, None);
        let text = |name: &str, v: &str| {
            Column::new_scalar(
                name.into(),
                Scalar::new(DataType::String, AnyValue::StringOwned(v.into())),
                n,
            )
        };
        let int = |name: &str, v: u64| {
            Column::new_scalar(
                name.into(),
                Scalar::new(DataType::UInt64, AnyValue::UInt64(v)),
                n,
            )
        };
        let time = |name: &str, v: Option<NaiveDateTime>| {
            let value = match to_ms(v) {
                Some(ms) => AnyValue::Datetime(ms, TimeUnit::Milliseconds, None),
                None => AnyValue::Null,
            };
            Column::new_scalar(name.into(), Scalar::new(dt.clone(), value), n)
        };
        let elapsed = Column::new_scalar(
            "elapsed_s".into(),
            Scalar::new(
                DataType::Float64,
                m.elapsed_s.map_or(AnyValue::Null, AnyValue::Float64),
            ),
            n,
        );
        let col = |name: &str, f: &dyn Fn(&StatRow) -> Option<f64>| {
            Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
        };
        let cols = vec![
            text("source", &m.source),
            text("format", m.format),
            text("report_kind", m.report_kind),
            int("db_id", m.db_id),
            text("db_name", &m.db_name),
            Column::new(
                "instance".into(),
                rows.iter().map(|r| r.instance.as_str()).collect::<Vec<_>>(),
            ),
            Column::new(
                "instance_number".into(),
                rows.iter().map(|r| r.instance_number).collect::<Vec<_>>(),
            ),
            int("begin_snap", m.begin_snap),
            int("end_snap", m.end_snap),
            time("begin_time", m.begin_time),
            time("end_time", m.end_time),
            elapsed,
            Column::new(
                "section".into(),
                rows.iter().map(|r| r.section).collect::<Vec<_>>(),
            ),
            Column::new(
                "statistic".into(),
                rows.iter()
                    .map(|r| r.statistic.as_str())
                    .collect::<Vec<_>>(),
            ),
            col("total", &|r| r.total),
            col("per_second", &|r| r.per_second),
            col("per_trans", &|r| r.per_trans),
            col("value", &|r| r.value),
            Column::new(
                "unit".into(),
                rows.iter().map(|r| r.unit).collect::<Vec<_>>(),
            ),
            Column::new(
                "printed".into(),
                rows.iter()
                    .map(|r| r.printed.as_deref())
                    .collect::<Vec<_>>(),
            ),
            col("lo", &|r| r.lo),
            col("hi", &|r| r.hi),
        ];
        Ok(Model {
            df: DataFrame::new(n, cols)?,
        })
    }

    /// Stacks per-source frames (each from [`Model::build`]) into one model. The columns' chunks
    /// are shared, not copied.
    ///
    /// # Errors
    /// A polars error if the frames' schemas differ.
    pub fn from_parts(parts: &[Model]) -> PolarsResult<Model> {
        let mut it = parts.iter();
        let Some(first) = it.next() else {
            return Model::build(&[]);
        };
        let mut df = first.df.clone();
        for p in it {
            df.vstack_mut(&p.df)?;
        }
        Ok(Model { df })
    }
}
