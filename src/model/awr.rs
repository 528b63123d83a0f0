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

use std::collections::HashMap;

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

/// A wait histogram read back from the model: `(edge_ms, cumulative %)` ascending, and the
/// event's waits.
pub type Histogram = (Vec<(f64, f64)>, Option<f64>);

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

    /// The rows of `instance` (`*` for cluster-wide), as a lookup table: on one source's model
    /// (from [`Model::build`]) that is one instance of one report.
    ///
    /// # Errors
    /// A polars error if the model lacks a column of [`COLUMNS`].
    pub fn instance_view(&self, instance: &str) -> PolarsResult<View> {
        View::of(&self.df, instance)
    }

    /// The rows of one source and instance (`*` for cluster-wide), as a lookup table.
    ///
    /// # Errors
    /// A polars error if the model lacks a column of [`COLUMNS`].
    pub fn view(&self, source: &str, instance: &str) -> PolarsResult<View> {
        let src = self.df.column("source")?.str()?;
        let mask = src.equal(source);
        View::of(&self.df.filter(&mask)?, instance)
    }
}

impl View {
    /// The rows of `df` (typically one source's frame) for `instance`, as a lookup table.
    ///
    /// # Errors
    /// A polars error if `df` lacks a column of [`COLUMNS`].
    pub fn of(df: &DataFrame, instance: &str) -> PolarsResult<View> {
        let inst = df.column("instance")?.str()?;
        let df = df.filter(&inst.equal(instance))?;
        let sect = df.column("section")?.str()?;
        let stat = df.column("statistic")?.str()?;
        let cols = ["total", "per_second", "per_trans", "value", "lo", "hi"];
        let vals: Vec<&Float64Chunked> = cols
            .iter()
            .map(|c| df.column(c).and_then(|c| c.f64()))
            .collect::<PolarsResult<_>>()?;
        let printed = df.column("printed")?.str()?;
        let mut map: Table = HashMap::new();
        for i in 0..df.height() {
            let (Some(s), Some(n)) = (sect.get(i), stat.get(i)) else {
                continue;
            };
            map.entry(s.to_string())
                .or_default()
                .entry(n.to_string())
                .or_insert(Cells {
                    total: vals[0].get(i),
                    per_second: vals[1].get(i),
                    per_trans: vals[2].get(i),
                    value: vals[3].get(i),
                    printed: printed.get(i).map(str::to_string),
                    lo: vals[4].get(i),
                    hi: vals[5].get(i),
                });
        }
        Ok(View { map })
    }
}

/// The numeric cells of one model row.
#[derive(Debug, Clone, Default)]
pub struct Cells {
    /// `total` column.
    pub total: Option<f64>,
    /// `per_second` column.
    pub per_second: Option<f64>,
    /// `per_trans` column.
    pub per_trans: Option<f64>,
    /// `value` column.
    pub value: Option<f64>,
    /// `printed` column.
    pub printed: Option<String>,
    /// `lo` column: lower bound of `value` when recomputed from a total.
    pub lo: Option<f64>,
    /// `hi` column: upper bound of `value`.
    pub hi: Option<f64>,
}

impl Cells {
    /// The rate to use: Total / elapsed where recomputed (`value`, unit `/s`, Instance Activity
    /// rows), else `per Second` as printed.
    pub fn rate(&self) -> Option<f64> {
        self.value.or(self.per_second)
    }
}

/// The model's rows of one source/instance keyed by (section, statistic).
#[derive(Debug, Default)]
pub struct View {
    map: Table,
}

/// Section → statistic → cells: a lookup by `&str` allocates nothing.
type Table = HashMap<String, HashMap<String, Cells>>;

impl View {
    /// The row for `statistic` in `section`, if the source has it.
    pub fn get(&self, section: &str, statistic: &str) -> Option<&Cells> {
        self.map.get(section)?.get(statistic)
    }

    /// Whether the source has any row in `section`.
    pub fn has_section(&self, section: &str) -> bool {
        self.map.get(section).is_some_and(|m| !m.is_empty())
    }

    /// The Wait Event Histogram of `event` as `(edge_ms, cumulative %)` ascending, and the
    /// event's waits; `None` when the source has none.
    pub fn histogram(&self, event: &str) -> Option<Histogram> {
        let prefix = format!("{event} [<");
        let mut cdf: Vec<(f64, f64)> = Vec::new();
        let mut waits = None;
        for (stat, v) in self.map.get(section::WAIT_HISTOGRAM).into_iter().flatten() {
            let Some(edge) = stat
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(" ms]"))
                .and_then(|e| e.parse::<f64>().ok())
            else {
                continue;
            };
            if let Some(cum) = v.value {
                cdf.push((edge, cum));
                waits = waits.or(v.total);
            }
        }
        if cdf.is_empty() {
            return None;
        }
        cdf.sort_by(|a, b| a.0.total_cmp(&b.0));
        Some((cdf, waits))
    }
}

fn add(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x + y),
        _ => None,
    }
}

impl View {
    /// The sum of the views of several instances over the same interval (a RAC database needs the
    /// sum of its instances at the same time).
    ///
    /// - Instance Activity Stats, IO Profile and IOStat rows: `total`, `per_second` and `per_trans`
    ///   are added; a statistic missing from any instance is unknown in the sum (never a partial
    ///   sum).
    /// - Instance Activity rates recomputed as Total / elapsed (`value`, `lo`, `hi`) are added
    ///   when every instance has one; otherwise they are dropped and the printed rates used.
    /// - Wait events: `total` (waits) are added and `value` (average wait, ms) is the
    ///   waits-weighted mean Σ(waitsᵢ × avgᵢ) / Σ waitsᵢ, `lo` and `hi` likewise (an instance
    ///   without bounds counts with its value); the printed text is dropped.
    /// - Instance Efficiency percentages are not additive and are left out (recompute hit ratios
    ///   from the summed statistics).
    pub fn sum(views: &[&View]) -> View {
        let Some((first, rest)) = views.split_first() else {
            return View::default();
        };
        let mut map: Table = HashMap::new();
        for (sec, stats) in &first.map {
            if sec == section::EFFICIENCY {
                continue;
            }
            for (name, v0) in stats {
                let mut acc = v0.clone();
                // Wait averages and histogram shares are both weighted by the waits.
                let waits = sec == section::FG_WAITS
                    || sec == section::BG_WAITS
                    || sec == section::WAIT_HISTOGRAM;
                let weigh = |c: &Cells, f: fn(&Cells) -> Option<f64>| match (c.total, f(c)) {
                    (Some(w), Some(a)) => Some(w * a),
                    _ => None,
                };
                let lo_or_value: fn(&Cells) -> Option<f64> = |c| c.lo.or(c.value);
                let hi_or_value: fn(&Cells) -> Option<f64> = |c| c.hi.or(c.value);
                let mut weighted = if waits { weigh(v0, |c| c.value) } else { None };
                let mut weighted_lo = if waits { weigh(v0, lo_or_value) } else { None };
                let mut weighted_hi = if waits { weigh(v0, hi_or_value) } else { None };
                let mut bounded = v0.lo.is_some();
                let mut complete = true;
                for other in rest {
                    let Some(o) = other.get(sec, name) else {
                        complete = false;
                        break;
                    };
                    acc.total = add(acc.total, o.total);
                    acc.per_second = add(acc.per_second, o.per_second);
                    acc.per_trans = add(acc.per_trans, o.per_trans);
                    bounded |= o.lo.is_some();
                    if waits {
                        weighted = add(weighted, weigh(o, |c| c.value));
                        weighted_lo = add(weighted_lo, weigh(o, lo_or_value));
                        weighted_hi = add(weighted_hi, weigh(o, hi_or_value));
                    } else {
                        // Recomputed rates (Total / elapsed) add up only when every instance
                        // has one; otherwise the printed rates are used.
                        acc.value = add(acc.value, o.value);
                        acc.lo = add(acc.lo, o.lo);
                        acc.hi = add(acc.hi, o.hi);
                        if o.printed.is_none() {
                            acc.printed = None;
                        }
                    }
                }
                if !complete {
                    continue;
                }
                if waits {
                    let per_wait = |s: Option<f64>| match (s, acc.total) {
                        (Some(s), Some(w)) if w > 0.0 => Some(s / w),
                        _ => None,
                    };
                    acc.value = per_wait(weighted);
                    (acc.lo, acc.hi) = if bounded {
                        (per_wait(weighted_lo), per_wait(weighted_hi))
                    } else {
                        (None, None)
                    };
                    acc.printed = None;
                } else if sec != section::ACTIVITY || acc.lo.is_none() {
                    acc.value = None;
                    acc.lo = None;
                    acc.hi = None;
                }
                map.entry(sec.clone())
                    .or_default()
                    .insert(name.clone(), acc);
            }
        }
        View { map }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (section, statistic, total, per_second, value)
    type Row<'a> = (&'static str, &'a str, Option<f64>, Option<f64>, Option<f64>);

    fn view(rows: &[Row]) -> View {
        let mut map: Table = HashMap::new();
        for (sec, stat, total, per_second, value) in rows {
            map.entry(sec.to_string()).or_default().insert(
                stat.to_string(),
                Cells {
                    total: *total,
                    per_second: *per_second,
                    value: *value,
                    ..Default::default()
                },
            );
        }
        View { map }
    }

    #[test]
    fn instances_are_summed_and_waits_weighted() {
        let a = view(&[
            (
                section::ACTIVITY,
                "redo writes",
                Some(3600.0),
                Some(1.0),
                None,
            ),
            (
                section::FG_WAITS,
                "log file sync",
                Some(100.0),
                None,
                Some(2.0),
            ),
            (section::EFFICIENCY, "Buffer Hit %", None, None, Some(99.0)),
            (section::ACTIVITY, "only on a", Some(1.0), Some(1.0), None),
        ]);
        let b = view(&[
            (
                section::ACTIVITY,
                "redo writes",
                Some(7200.0),
                Some(2.0),
                None,
            ),
            (
                section::FG_WAITS,
                "log file sync",
                Some(300.0),
                None,
                Some(4.0),
            ),
            (section::EFFICIENCY, "Buffer Hit %", None, None, Some(97.0)),
        ]);
        let s = View::sum(&[&a, &b]);
        let redo = s.get(section::ACTIVITY, "redo writes").unwrap();
        assert_eq!((redo.total, redo.per_second), (Some(10800.0), Some(3.0)));
        // (100 × 2 + 300 × 4) / 400 = 3.5 ms
        let lfs = s.get(section::FG_WAITS, "log file sync").unwrap();
        assert_eq!((lfs.total, lfs.value), (Some(400.0), Some(3.5)));
        assert!(s.get(section::EFFICIENCY, "Buffer Hit %").is_none());
        assert!(s.get(section::ACTIVITY, "only on a").is_none());
    }
}
