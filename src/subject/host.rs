//! One host over all its OS disk logs (iostat, sar, sadf, nmon, OSWatcher, AIX/Solaris iostat):
//! host sources ([`crate::ingest`]) → one host series → statistics → the same sizing path as the
//! databases.
//!
//! [`hosts`] groups sources by host name; for each host, the time stamps are resolved (with the
//! user's date order, see [`crate::settings::DeviceSettings::date_order`]), since-boot and summary
//! reports are left out (used, and said, when a log has nothing else), intervals of the same time
//! from two files count once, gaps longer than 3 × the usual interval count as one interval, and
//! the figures of [`FIGURES`] get average / p50 / p95 / p99 / max with the time of the peak
//! ([`crate::model::series`]). Devices are merged by name over the host's sources. The host is
//! sized from its total IOPS ([`crate::sizing`]).

use crate::model::series::median;
use crate::subject::iso;
use crate::warning::fmt_s;
use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use serde::Serialize;
use sizer_parsers::disk::{self, DateOrder, DeviceRole, SkippedLine, Stamp};

use crate::figures::*;
use crate::ingest::{DevSeries, HostRow, HostSource};
use crate::model::frames::host_series;
use crate::model::series::{p95_p99_f32, series_stats, SeriesStats};
use crate::model::{DataFrame, PolarsResult};
use crate::rules::{Demand, Recommendation, RuleSet};
use crate::settings::{DeviceSelection, DeviceSettings, Settings, SizeOn};
use crate::sizing::{self, sustained_minutes, trim6, DemandAt, RuleWarnings, SMALL_READ_KIB};
use crate::subject::host_name::{host_key, naming_warning};
use crate::warning::Warning;

// ---------------------------------------------------------------------------------------------
// Analysis
// ---------------------------------------------------------------------------------------------

/// What was read of one OS log.
#[derive(Debug, Clone, Serialize)]
pub struct HostSourceInfo {
    /// Path.
    pub file: String,
    /// Format id.
    pub format: String,
    /// Reports read (intervals, since-boot and summaries).
    pub reports: usize,
    /// Reports used as intervals.
    pub intervals: usize,
    /// Since-boot reports left out (the first report of each iostat run without `-y`).
    pub since_boot_left_out: usize,
    /// `Average:`/`Summary:` reports not used (the intervals are).
    pub summaries_left_out: usize,
    /// Intervals whose time was already given by another file of the same host (left out).
    pub duplicate_times: usize,
    /// Lines the parser left out, with why (first 20).
    pub skipped: Vec<SkippedLine>,
    /// Number of lines left out.
    pub skipped_count: usize,
    /// Date order used for numeric dates (`mdy`, `dmy`, `ymd`), when the log has any.
    pub date_order: Option<DateOrder>,
    /// Times are UTC (sadf).
    pub utc: bool,
}

/// A figure of one device over its samples.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceFigure {
    /// Unit.
    pub unit: &'static str,
    /// Samples with a value.
    pub n: usize,
    /// Mean of the samples.
    pub avg: Option<f64>,
    /// 95th percentile (linear), for the figures kept per sample.
    pub p95: Option<f64>,
    /// 99th percentile (linear).
    pub p99: Option<f64>,
    /// Largest value.
    pub max: Option<f64>,
    /// Time of the report with the largest value.
    pub peak_time: Option<String>,
}

/// One device of a host.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceStats {
    /// Name as printed.
    pub device: String,
    /// `disk`, `partition`, `mapper`, `software_raid`, `group`, `virtual`, `stacked`, `path`,
    /// `unknown` ([`sizer_parsers::disk::DeviceRole`]).
    pub role: &'static str,
    /// Counted in the host total.
    pub included: bool,
    /// A partition counted in the host total in place of its disk, which the log does not list
    /// (in `stood_in` of its intervals): the disk's name.
    pub stands_in_for: Option<String>,
    /// Intervals (reports) in which it stood in for its disk (0 unless `stands_in_for`).
    pub stood_in: usize,
    /// Samples (intervals).
    pub samples: usize,
    /// Figures keyed by name ([`FIGURES`]).
    pub figures: BTreeMap<String, DeviceFigure>,
}

/// AWR and OS figures of the same host and window, side by side.
#[derive(Debug, Clone, Serialize)]
pub struct AwrSideBySide {
    /// Database key (`DB_NAME (DB Id N)`).
    pub database: String,
    /// Instance on this host.
    pub instance: String,
    /// AWR interval begin.
    pub begin: Option<String>,
    /// AWR interval end.
    pub end: Option<String>,
    /// AWR `physical read total IO requests` + `physical write total IO requests` per second.
    pub awr_iops: Option<f64>,
    /// AWR read + write total bytes per second, MB/s (10^6).
    pub awr_mb_s: Option<f64>,
    /// Host total IOPS, time-weighted over the OS intervals inside the AWR interval.
    pub os_iops: Option<f64>,
    /// Host total MB/s over the same intervals.
    pub os_mb_s: Option<f64>,
    /// Seconds of the AWR interval covered by OS intervals.
    pub covered_s: f64,
    /// AWR interval length, seconds.
    pub awr_s: f64,
}

/// An AWR report of this host that is not set beside the OS figures: its interval and the OS
/// logs' window do not overlap (a log of another day or year), or either has no times.
#[derive(Debug, Clone, Serialize)]
pub struct AwrNotAligned {
    /// Database key (`DB_NAME (DB Id N)`).
    pub database: String,
    /// Instance on this host.
    pub instance: String,
    /// AWR interval begin (the database host's local time, ISO 8601), when printed.
    pub begin: Option<String>,
    /// AWR interval end.
    pub end: Option<String>,
    /// First OS interval of the host (its local time unless `os_times_utc`).
    pub os_begin: Option<String>,
    /// Last OS interval of the host.
    pub os_end: Option<String>,
    /// Some OS log of the host prints UTC (sadf), so the two clocks may differ by the zone.
    pub os_times_utc: bool,
    /// The AWR interval or the OS series has no times at all (nothing to align).
    pub no_times: bool,
}

/// One interval of a host series: end time, length in seconds (known or the median), and the
/// host figures in [`FIGURES`] order (null = unknown).
pub type SeriesRow = (Option<NaiveDateTime>, f64, HostFigures);

/// The analysis of one host over all its OS logs, with the recommendation.
#[derive(Debug, Clone, Serialize)]
pub struct HostAnalysis {
    /// Host name: a capture's per-line host prefix, else as the logs print it, else `--host`,
    /// else `(no host name) <file>` ([`crate::subject::host_name`]).
    pub host: String,
    /// `Linux 5.8.0-53-generic`, `AIX 7.2`, `SunOS 5.11`, when printed.
    pub os: Option<String>,
    /// Logs read.
    pub sources: Vec<HostSourceInfo>,
    /// First interval's time (ISO 8601, the host's local time unless `utc`).
    pub begin: Option<String>,
    /// Last interval's time.
    pub end: Option<String>,
    /// Intervals in the host series.
    pub intervals: usize,
    /// Median interval length, seconds.
    pub interval_s: Option<f64>,
    /// Shortest and longest interval lengths as counted (a gap counts as the median), seconds;
    /// `None` when no length is known.
    pub interval_s_min: Option<f64>,
    /// See [`HostAnalysis::interval_s_min`].
    pub interval_s_max: Option<f64>,
    /// Which devices make the host total.
    pub selection: String,
    /// Statistics of the host totals, keyed by figure ([`FIGURES`]).
    pub statistics: BTreeMap<String, SeriesStats>,
    /// Every device seen, included or not.
    pub devices: Vec<DeviceStats>,
    /// The statistic sized on.
    pub size_on: SizeOn,
    /// The figures the rules sized from (before headroom).
    pub demand: Demand,
    /// The recommendation; `None` when the host total IOPS is unknown.
    pub recommendation: Option<Recommendation>,
    /// The capacity sized for and where it came from ([`crate::capacity`]).
    pub capacity: crate::capacity::CapacityInfo,
    /// AWR figures of databases on this host over the same windows.
    pub awr: Vec<AwrSideBySide>,
    /// AWR reports of this host whose interval the OS logs do not cover at all (different days
    /// or years): named, never set side by side.
    pub awr_not_aligned: Vec<AwrNotAligned>,
    /// Caveats.
    pub warnings: Vec<Warning>,
    /// The host series, one [`SeriesRow`] per interval.
    #[serde(skip)]
    pub series: Vec<SeriesRow>,
}

/// Groups sources by host and analyses each.
pub fn hosts(
    sources: Vec<HostSource>,
    rules: &RuleSet,
    settings: &Settings,
    dev: &DeviceSettings,
) -> Vec<HostAnalysis> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<HostSource>> = HashMap::new();
    for s in sources {
        let k = host_key(&s, dev);
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(s);
    }
    let mut out = Vec::new();
    for k in order {
        let srcs = groups.remove(&k).unwrap_or_default();
        out.push(host(&k, srcs, rules, settings, dev));
    }
    out
}

/// One interval of a host series: (end time, length in seconds when known, figures, source
/// index, report index in that source).
pub(crate) type Entry = (
    Option<NaiveDateTime>,
    Option<f64>,
    HostFigures,
    usize,
    usize,
);

pub(crate) fn host(
    name: &str,
    srcs: Vec<HostSource>,
    rules: &RuleSet,
    settings: &Settings,
    dev: &DeviceSettings,
) -> HostAnalysis {
    // The host's own capacity (`--capacity-file` row by host name, or `--capacity`).
    let capacity = crate::capacity::resolve(
        settings.capacity_given(),
        crate::capacity::Subject::Host { name },
    );
    let own = Settings {
        capacity_gib: capacity.used.as_ref().map(|c| c.gib),
        ..settings.clone()
    };
    let settings = &own;
    let mut warnings: Vec<Warning> = Vec::new();
    if capacity.missing_from_file {
        warnings.push(crate::subject::database::capacity_missing_warning(settings));
    }
    let mut infos = Vec::new();
    // (time, interval_s, figures, source, report) per counted interval.
    let mut series: Vec<Entry> = Vec::new();
    // A since-boot report printed a host CPU (AIX and Solaris iostat print it there too).
    let mut boot_cpu = false;
    let mut times_of: Vec<Vec<Option<NaiveDateTime>>> = Vec::new();
    let os = srcs.iter().find_map(|s| {
        s.header
            .as_ref()
            .filter(|h| !h.sysname.is_empty())
            .map(|h| {
                if h.kernel.is_empty() {
                    h.sysname.clone()
                } else {
                    format!("{} {}", h.sysname, h.kernel)
                }
            })
    });
    // No whole disk in any log of the host (`sar -d` of a VM that lists only its device-mapper
    // devices): the default selection falls back to device-mapper and md devices.
    let no_disks = dev.selection == DeviceSelection::Disks
        && !srcs.iter().any(|s| s.rows.iter().any(|r| r.devices > 0));
    // `sar -b` is the kernel's own total over whole disks: the better fallback.
    let use_b = no_disks && srcs.iter().any(|s| !s.b_rows.is_empty());
    let use_alt = no_disks
        && !use_b
        && srcs
            .iter()
            .any(|s| s.alt_rows.iter().any(|r| r.devices > 0));
    if use_b {
        warnings.push(Warning {
            id: "no_whole_disks".into(),
            message: "the logs list no device sizer can tell is a whole disk (`devM-N` names of device-mapper or virtio majors): the host total is `sar -b` (tps, rtps, wtps, bread/s, bwrtn/s over every disk); pass --devices to add chosen devices instead".into(),
        });
    } else if use_alt {
        warnings.push(Warning {
            id: "no_whole_disks".into(),
            message: "the logs list no whole disk, only device-mapper/md devices: the host total adds those instead (it double counts if they are stacked, e.g. LVM on multipath; choose with --devices)".into(),
        });
    }
    let mismatched: usize = srcs.iter().map(|s| s.sar_b_mismatch).sum();
    if mismatched > 0 && !use_b {
        warnings.push(Warning {
            id: "sar_b_mismatch".into(),
            message: format!(
                "in {mismatched} interval(s) the selected devices' tps differ from `sar -b` (another device set, or stacked devices): the read/write split was not taken from `sar -b` there"
            ),
        });
    }
    if srcs.iter().any(|s| s.split_from_sar_b) {
        warnings.push(Warning {
            id: "split_from_sar_b".into(),
            message: "read/write IOPS split from `sar -b` (rtps/wtps over every disk of the host): `sar -d` prints tps only".into(),
        });
    }
    for (si, s) in srcs.iter().enumerate() {
        let rows = if use_b {
            &s.b_rows
        } else if use_alt {
            &s.alt_rows
        } else {
            &s.rows
        };
        let stamps: Vec<Stamp> = s
            .metas
            .iter()
            .map(|m| Stamp {
                timestamp: m.timestamp.as_deref(),
                time: m.time,
                summary: m.summary,
                line: m.line,
            })
            .collect();
        let t = disk::resolve_stamps(
            s.header.as_ref().and_then(|h| h.date.as_deref()),
            &stamps,
            dev.date_order,
        );
        // A --date-order the data contradicts (a field above 12, or times that run evenly only
        // the other way) is said.
        if let Some(given) = dev.date_order {
            let own = disk::resolve_stamps(
                s.header.as_ref().and_then(|h| h.date.as_deref()),
                &stamps,
                None,
            );
            if own.order.is_some() && own.order != Some(given) && !own.ambiguous {
                let name = |o: Option<DateOrder>| match o {
                    Some(DateOrder::Mdy) => "mdy",
                    Some(DateOrder::Dmy) => "dmy",
                    Some(DateOrder::Ymd) => "ymd",
                    None => "?",
                };
                warnings.push(Warning {
                    id: "date_order_contradicted".into(),
                    message: format!(
                        "{}: --date-order {} was applied, but the log's own dates read {} (a field above 12, or times evenly spaced only that way); check the option",
                        s.file,
                        name(Some(given)),
                        name(own.order)
                    ),
                });
            }
        }
        let timed = s
            .metas
            .iter()
            .any(|m| m.timestamp.is_some() && m.time.is_none());
        if t.ambiguous && timed {
            warnings.push(Warning {
                id: "ambiguous_date".into(),
                message: format!(
                    "{}: every date in the log reads both ways (e.g. 01/02/24): read as month first (MM/DD, sysstat's C-locale %x); pass --date-order dmy if this host prints day first",
                    s.file
                ),
            });
        }
        if t.inferred {
            warnings.push(Warning {
                id: "date_order_inferred".into(),
                message: format!(
                    "{}: every date reads both ways; read {} because the other order makes the reports' times jump or go backwards (--date-order overrides)",
                    s.file,
                    if t.order == Some(DateOrder::Dmy) { "day first (DD/MM)" } else { "month first (MM/DD)" }
                ),
            });
        }
        if let Some((line, text)) = t.unreadable.first() {
            warnings.push(Warning {
                id: "unreadable_time".into(),
                message: format!(
                    "{}: {} time stamp(s) could not be read (first: line {line}, '{text}'); those intervals have no time",
                    s.file,
                    t.unreadable.len()
                ),
            });
        }
        let mut since_boot = 0;
        let mut summaries = 0;
        let mut intervals = 0;
        for (ri, m) in s.metas.iter().enumerate() {
            if m.since_boot {
                since_boot += 1;
                boot_cpu |= rows.get(ri).is_some_and(|r| r.v[CPU_BUSY].is_some());
                continue;
            }
            if m.summary {
                summaries += 1;
                continue;
            }
            if rows.get(ri).is_none_or(|r| r.devices == 0) {
                continue;
            }
            intervals += 1;
            // Interval length: stated by the source, else the time since the report before
            // (a since-boot report's time is where the first interval starts).
            let len = m.interval_s.or_else(|| {
                let prev = (0..ri).rev().find(|&p| !s.metas[p].summary)?;
                let d = (t.times[ri]? - t.times[prev]?).num_milliseconds() as f64 / 1000.0;
                (d > 0.0).then_some(d)
            });
            series.push((t.times[ri], len, rows[ri].v, si, ri));
        }
        infos.push(HostSourceInfo {
            file: s.file.clone(),
            format: s.format.clone(),
            reports: s.metas.len(),
            intervals,
            since_boot_left_out: since_boot,
            summaries_left_out: summaries,
            duplicate_times: 0,
            skipped: s.skipped.iter().take(20).cloned().collect(),
            skipped_count: s.skipped.len(),
            date_order: t.order,
            utc: s.metas.iter().any(|m| m.utc),
        });
        warnings.extend(naming_warning(s, dev));
        for w in &s.warnings {
            warnings.push(Warning {
                id: "parser".into(),
                message: format!("{}: {w}", s.file),
            });
        }
        if !s.skipped.is_empty() {
            warnings.push(Warning {
                id: "skipped_lines".into(),
                message: format!(
                    "{}: {} line(s) left out (first: line {}: {})",
                    s.file,
                    s.skipped.len(),
                    s.skipped[0].line,
                    s.skipped[0].reason
                ),
            });
        }
        times_of.push(t.times);
    }
    // A log of since-boot reports only (`iostat -x` run once): its averages since boot are all
    // there is. Used, and said.
    let rows_of = |s: &'_ HostSource| -> Vec<HostRow> {
        if use_b {
            s.b_rows.clone()
        } else if use_alt {
            s.alt_rows.clone()
        } else {
            s.rows.clone()
        }
    };
    let boot_only = series.is_empty()
        && srcs.iter().any(|s| {
            s.metas.iter().any(|m| m.since_boot) && rows_of(s).iter().any(|r| r.devices > 0)
        });
    if boot_only {
        for (si, s) in srcs.iter().enumerate() {
            let rows = rows_of(s);
            for (ri, m) in s.metas.iter().enumerate() {
                if m.since_boot && rows.get(ri).is_some_and(|r| r.devices > 0) {
                    series.push((times_of[si][ri], m.interval_s, rows[ri].v, si, ri));
                    infos[si].intervals += 1;
                    infos[si].since_boot_left_out -= 1;
                }
            }
        }
        warnings.push(Warning {
            id: "since_boot_only".into(),
            message: "the log holds only averages since boot (iostat's first report): figures are averages over the whole uptime and hide every peak; run `iostat -xt <interval> <count>` over the busy period and size from that".into(),
        });
    }
    if boot_cpu && !series.iter().any(|x| x.2[CPU_BUSY].is_some()) {
        warnings.push(Warning {
            id: "cpu_since_boot_only".into(),
            message: "the logs print the host CPU only in their since-boot reports (averages over the uptime), which are left out: the host CPU is unknown and the CPU rules are not evaluated".into(),
        });
    }
    // Time order; equal times from two files of the same host are one interval.
    if series.iter().all(|x| x.0.is_some()) {
        series.sort_by_key(|a| a.0);
        let mut kept: Vec<Entry> = Vec::with_capacity(series.len());
        for x in series {
            if let Some(last) = kept.last() {
                if last.0 == x.0 && last.3 != x.3 {
                    infos[x.3].duplicate_times += 1;
                    infos[x.3].intervals -= 1;
                    continue;
                }
            }
            kept.push(x);
        }
        series = kept;
    } else if srcs.len() > 1 {
        warnings.push(Warning {
            id: "no_times".into(),
            message: "some logs of this host print no time stamps: their intervals are kept in file order and cannot be checked for overlap".into(),
        });
    }
    // Interval lengths: as above, else the median of the others. A step far longer than the
    // median is a gap (a restart, a pause, logs days apart): the sample covers one usual
    // interval, not the gap.
    let raw: Vec<Option<f64>> = series.iter().map(|x| x.1).collect();
    let med = median(raw.iter().flatten().copied().collect());
    let mut gaps: Vec<(Option<NaiveDateTime>, f64)> = Vec::new();
    let lens: Vec<Option<f64>> = raw
        .iter()
        .zip(&series)
        .map(|(l, x)| match (l, med) {
            (Some(l), Some(m)) if *l > 3.0 * m => {
                gaps.push((x.0, *l));
                Some(m)
            }
            _ => *l,
        })
        .collect();
    if !gaps.is_empty() {
        let (at, longest) = gaps
            .iter()
            .copied()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((None, 0.0));
        warnings.push(Warning {
            id: "gaps".into(),
            message: format!(
                "{} gap(s) in the series longer than 3 × the usual {} interval (longest {}, before {}): each counts as one usual interval, and nothing is known of the time in between",
                gaps.len(),
                fmt_s(med.unwrap_or(0.0)),
                fmt_s(longest),
                iso(at).unwrap_or_else(|| "?".into()).replace('T', " ")
            ),
        });
    }
    let weights: Vec<f64> = lens.iter().map(|l| l.or(med).unwrap_or(1.0)).collect();

    // Host statistics (one series function for every subject).
    let mut statistics = BTreeMap::new();
    for (fi, (fname, unit)) in FIGURES.iter().enumerate().take(HOST_FIGURES) {
        // %util and svctm (after HOST_FIGURES) are per device only.
        let vals: Vec<Option<f64>> = series.iter().map(|x| x.2[fi]).collect();
        // Averages of ratios are weighted by the requests behind them (latency by r/s, w/s,
        // IOPS; IO size by IOPS) as well as by time: the average over the whole window, not the
        // mean of per-interval ratios.
        let by_requests = match fi {
            R_AWAIT => Some(READ_IOPS),
            W_AWAIT => Some(WRITE_IOPS),
            AWAIT | AVG_IO_KIB => Some(TOTAL_IOPS),
            _ => None,
        };
        let weight = |k: usize| match by_requests {
            Some(ri) => weights[k] * series[k].2[ri].unwrap_or(0.0),
            None => weights[k],
        };
        let (mut stats, peak) = series_stats(&vals, weight, unit);
        if let Some(i) = peak {
            stats.peak_end = iso(series[i].0);
            stats.peak_begin = iso(lens[i]
                .or(med)
                .and_then(|len| series[i].0.and_then(|t| seconds_before(t, len))));
        }
        statistics.insert(fname.to_string(), stats);
    }

    // Devices: merged by name over the host's sources.
    // Keyed by name and role: nmon's `-g auto` disk groups carry their disk's name.
    let mut dev_order: Vec<(String, &'static str)> = Vec::new();
    let boot_devs: Vec<Vec<DevSeries>> = if boot_only {
        srcs.iter()
            .map(|s| s.devices.iter().map(DevSeries::boot_series).collect())
            .collect()
    } else {
        Vec::new()
    };
    let mut dev_groups: HashMap<(String, &'static str), Vec<(usize, &DevSeries)>> = HashMap::new();
    for (si, s) in srcs.iter().enumerate() {
        let list = if boot_only {
            &boot_devs[si]
        } else {
            &s.devices
        };
        for d in list {
            let key = (d.name.clone(), d.role.id());
            if !dev_groups.contains_key(&key) {
                dev_order.push(key.clone());
            }
            dev_groups.entry(key).or_default().push((si, d));
        }
    }
    let mut devices = Vec::new();
    for key in dev_order {
        let parts = &dev_groups[&key];
        let name = &key.0;
        let first = parts[0].1;
        let samples: usize = parts.iter().map(|(_, d)| d.samples).sum();
        let mut figures = BTreeMap::new();
        for (fi, (fname, unit)) in FIGURES.iter().enumerate() {
            let n: u32 = parts.iter().map(|(_, d)| d.n[fi]).sum();
            if n == 0 {
                continue;
            }
            let sum: f64 = parts.iter().map(|(_, d)| d.sum[fi]).sum();
            let wsum: f64 = parts.iter().map(|(_, d)| d.wsum[fi]).sum();
            let max = parts
                .iter()
                .filter_map(|(si, d)| d.max[fi].map(|(v, r)| (v, *si, r)))
                .fold(None, |b: Option<(f64, usize, u32)>, x| match b {
                    Some(bb) if bb.0 >= x.0 => b,
                    _ => Some(x),
                });
            let (p95, p99) = match KEPT.iter().position(|&k| k == fi) {
                Some(slot) => {
                    let vals: Vec<f32> = parts
                        .iter()
                        .filter_map(|(_, d)| d.kept[slot].as_ref())
                        .flat_map(|c| c.iter())
                        .filter(|v| !v.is_nan())
                        .collect();
                    p95_p99_f32(vals)
                }
                None => (None, None),
            };
            figures.insert(
                fname.to_string(),
                DeviceFigure {
                    unit,
                    n: n as usize,
                    avg: (wsum > 0.0).then(|| sum / wsum),
                    p95,
                    p99,
                    max: max.map(|m| m.0),
                    peak_time: max.and_then(|(_, si, r)| iso(times_of[si][r as usize])),
                },
            );
        }
        let stood_in: u32 = parts.iter().map(|(_, d)| d.stood_in).sum();
        devices.push(DeviceStats {
            device: name.clone(),
            role: first.role.id(),
            included: parts.iter().any(|(_, d)| d.included || d.stood_in_any)
                || use_alt && matches!(first.role, DeviceRole::Mapper | DeviceRole::SoftwareRaid),
            stands_in_for: parts
                .iter()
                .any(|(_, d)| d.stood_in_any)
                .then(|| first.parent.as_ref().map(|(p, _)| p.clone()))
                .flatten(),
            stood_in: stood_in as usize,
            samples,
            figures,
        });
    }
    let stand_ins: Vec<String> = devices
        .iter()
        .filter_map(|d| {
            d.stands_in_for
                .as_ref()
                .map(|p| format!("{} (for {p}, in {} interval(s))", d.device, d.stood_in))
        })
        .collect();
    if !stand_ins.is_empty() {
        warnings.push(Warning {
            id: "partition_stands_in".into(),
            message: format!(
                "the logs list partitions without their whole disk: each stands in for its disk in the host total, which then misses any IO of the disk's other partitions not listed: {}",
                list_some(&stand_ins)
            ),
        });
    }
    if dev.selection == DeviceSelection::Disks {
        let unknown: Vec<String> = devices
            .iter()
            .filter(|d| d.role == "unknown")
            .map(|d| d.device.clone())
            .collect();
        if !unknown.is_empty() {
            warnings.push(Warning {
                id: "unknown_devices".into(),
                message: format!(
                    "{} device(s) of a kind sizer does not recognise are listed with their figures but not added to the host total (one may be a disk, or a device over one: adding it could count IO twice); name the whole disks with --devices to count them: {}",
                    unknown.len(),
                    list_some(&unknown)
                ),
            });
        }
    }
    // (With `sar -b` as the total, no device is meant to be in it: `no_whole_disks` says so.)
    if !use_b && !devices.iter().any(|d| d.included) && !devices.is_empty() {
        warnings.push(Warning {
            id: "no_devices_selected".into(),
            message: format!(
                "no device matches the selection ({}): the host has no total (name the devices to count with --devices NAME,…); devices seen: {}",
                dev.selection.describe(),
                devices
                    .iter()
                    .map(|d| format!("{} ({})", d.device, d.role))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }

    // Sizing from the host totals.
    let size_on = settings.size_on;
    let stat = |f: &str| sizing::at(&statistics, f, settings);
    let sized = sizing::size(
        rules,
        settings,
        &statistics,
        "total_iops",
        RuleWarnings::AsWarnings,
        &mut warnings,
        |target, warnings| {
            let character = sizing::closest(Some(target), series.iter().map(|x| x.2[TOTAL_IOPS]));
            let cf = character
                .map(|i| series[i].2)
                .unwrap_or([None; HOST_FIGURES]);
            let (read_mb, write_mb) =
                match (stat("total_mb_s"), stat("read_mb_s"), stat("write_mb_s")) {
                    (Some(t), None, None) => (Some(t), Some(0.0)),
                    (t, r, w) => t
                        .and_then(|t| sizing::proportional(t, r, w))
                        .map(|(r, w)| (Some(r), Some(w)))
                        .unwrap_or((r, w)),
                };
            // The read/write split of the interval whose total is closest to the sizing figure,
            // scaled to that figure: independent percentiles of r/s and w/s do not add up to the
            // total's.
            let (ri, wi) = match (cf[READ_IOPS], cf[WRITE_IOPS], cf[TOTAL_IOPS]) {
                (Some(r), Some(w), Some(t)) if t > 0.0 => {
                    (Some(target * r / t), Some(target * w / t))
                }
                (r, w, _) => match sizing::proportional(target, r, w) {
                    Some((r, w)) => (Some(r), Some(w)),
                    None => {
                        warnings.push(Warning {
                            id: "split_unknown".into(),
                            message: "the logs give no read/write request split (a total only): the rules treat every IO as a write, the worst case for RAID".into(),
                        });
                        (None, None)
                    }
                },
            };
            // Throughput: the sizing statistic of MB/s, split like that interval's bytes.
            let (read_mb, write_mb) = stat("total_mb_s")
                .and_then(|t| sizing::proportional(t, cf[READ_MB], cf[WRITE_MB]))
                .map(|(r, w)| (Some(r), Some(w)))
                .unwrap_or((read_mb, write_mb));
            let kib = |b: Option<f64>, n: Option<f64>| match (b, n) {
                (Some(b), Some(n)) if n > 0.0 => Some(b * 1e6 / n / 1024.0),
                _ => None,
            };
            let avg_read_kib = kib(cf[READ_MB], cf[READ_IOPS]);
            let r_await = statistics.get("r_await_ms").and_then(|s| s.avg);
            // None when the read size is unknown: the latency is then not graded.
            let small_reads = avg_read_kib.map(|k| k <= SMALL_READ_KIB);
            let demand = Demand {
                required_iops: Some(trim6(target)),
                read_iops: ri.map(trim6),
                write_iops: wi.map(trim6),
                read_mb_s: read_mb.map(trim6),
                write_mb_s: write_mb.map(trim6),
                avg_read_kib: avg_read_kib.map(trim6),
                avg_write_kib: kib(cf[WRITE_MB], cf[WRITE_IOPS]).map(trim6),
                // Small reads' r_await is the OS view of a single-block read; large reads are
                // graded as sequential reads.
                single_block_read_ms: (small_reads == Some(true))
                    .then_some(r_await)
                    .flatten()
                    .map(trim6),
                large_read_ms: (small_reads == Some(false))
                    .then_some(r_await)
                    .flatten()
                    .map(trim6),
                capacity_gib: settings.capacity_gib,
                host_cpu_busy_pct: cf[CPU_BUSY].map(trim6),
                host_cpu_iowait_pct: cf[CPU_IOWAIT].map(trim6),
                window_minutes: character.and_then(|i| lens[i].or(med)).map(|s| s / 60.0),
                peak_minutes: sustained_minutes(
                    series
                        .iter()
                        .zip(&lens)
                        .map(|(x, l)| (x.2[TOTAL_IOPS], l.or(med).map(|s| s / 60.0))),
                    target,
                ),
                mean_iops: statistics.get("total_iops").and_then(|s| s.avg).map(trim6),
                latency_basis: r_await.map(|_| {
                    format!(
                        "iostat r_await, request-weighted average over the log (average read {} KiB)",
                        avg_read_kib.map_or("unknown".to_string(), |k| format!("{k:.1}"))
                    )
                }),
                ..Demand::default()
            };
            Some(DemandAt {
                demand,
                figure_decimals: 2,
                formula: Some("host total r/s + w/s + d/s (sysstat tps)".into()),
            })
        },
    );
    if sized.recommendation.is_none() {
        warnings.push(Warning {
            id: "cannot_size".into(),
            message: if series.is_empty() {
                "cannot size: no interval report (only since-boot or summary reports, or no selected device)".into()
            } else {
                "cannot size: the host total IOPS is unknown (a selected device has no IOPS figure)".into()
            },
        });
    }
    if let Some(max) = statistics.get("total_iops").and_then(|s| s.max) {
        if max < 1.0 && !series.is_empty() {
            warnings.push(Warning {
                id: "idle".into(),
                message: format!(
                    "the busiest interval does {max:.2} IOPS: the log shows an idle host, not a workload to size from"
                ),
            });
        }
    }
    // The same caveat from several logs of the host once (a set: a log with 100,000 unknown
    // columns has as many warnings, and a scan per warning was quadratic; issue 14).
    let mut seen_w: std::collections::HashSet<(String, String)> = Default::default();
    warnings.retain(|w| seen_w.insert((w.id.clone(), w.message.clone())));
    let begin = series.iter().zip(&lens).find_map(|(x, l)| {
        x.0.and_then(|t| seconds_before(t, l.or(med).unwrap_or(0.0)))
    });
    let end = series.iter().rev().find_map(|x| x.0);
    // Intervals whose own lengths are printed (sadf, sar) can leave time between them that no
    // gap above detects (a restart, a collection stopped and started): the window then spans
    // more than the intervals cover.
    if gaps.is_empty() && series.iter().all(|x| x.0.is_some()) && lens.iter().all(Option::is_some) {
        if let (Some(b), Some(e)) = (begin, end) {
            let window = (e - b).num_milliseconds() as f64 / 1000.0;
            let covered: f64 = lens.iter().flatten().sum();
            if window - covered > (3.0 * med.unwrap_or(0.0)).max(0.1 * window) {
                warnings.push(Warning {
                    id: "window_not_covered".into(),
                    message: format!(
                        "the {} interval(s) cover {} s of the {} s window{}: the rest (a restart, a pause between collections) is not in the log, and nothing is known of it",
                        series.len(),
                        crate::warning::fmt_grouped(covered, 0),
                        crate::warning::fmt_grouped(window, 0),
                        if window >= 120.0 {
                            format!(" ({})", fmt_s(window))
                        } else {
                            String::new()
                        }
                    ),
                });
            }
        }
    }
    let intervals = series.len();
    // Moved, not copied: a day of 1-second intervals is 86,400 rows.
    let out_series = series
        .into_iter()
        .zip(weights)
        .map(|(x, w)| (x.0, w, x.2))
        .collect();
    HostAnalysis {
        host: name.to_string(),
        os,
        sources: infos,
        begin: iso(begin),
        end: iso(end),
        intervals,
        interval_s: med,
        interval_s_min: lens.iter().flatten().copied().reduce(f64::min),
        interval_s_max: lens.iter().flatten().copied().reduce(f64::max),
        selection: if use_b {
            "`sar -b` (the kernel's total over every whole disk: no device listed is one)"
                .to_string()
        } else if use_alt {
            "device-mapper and md devices (no whole disk is listed)".to_string()
        } else {
            dev.selection.describe()
        },
        statistics,
        devices,
        size_on,
        demand: sized.demand,
        recommendation: sized.recommendation,
        capacity,
        awr: Vec::new(),
        awr_not_aligned: Vec::new(),
        warnings,
        series: out_series,
    }
}

/// `t` less `secs` seconds (an interval's length, to its start), or `None` when that is outside
/// chrono's range: a log whose interval reads `1e308` s made the subtraction panic (found by the
/// mutation suite, `tests/fuzz`).
/// Up to 8 names, then `… and N more`.
fn list_some(items: &[String]) -> String {
    let mut s = items.iter().take(8).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > 8 {
        s.push_str(&format!(" … and {} more", items.len() - 8));
    }
    s
}

fn seconds_before(t: NaiveDateTime, secs: f64) -> Option<NaiveDateTime> {
    // `as` saturates (NaN is 0); the checked calls refuse what chrono cannot hold.
    chrono::TimeDelta::try_milliseconds((secs * 1000.0) as i64)
        .and_then(|d| t.checked_sub_signed(d))
}

/// The host series of every host as a frame (see [`crate::model::frames::host_series`]): one row
/// per interval with `host`, `time`, `interval_s` and the host figures ([`FIGURES`] up to
/// `queue_depth`).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn series_frame(hosts: &[HostAnalysis]) -> PolarsResult<DataFrame> {
    let names: [&str; HOST_FIGURES] = std::array::from_fn(|i| FIGURES[i].0);
    let rows = hosts.iter().flat_map(|h| {
        h.series
            .iter()
            .map(move |(t, w, v)| (h.host.as_str(), *t, *w, &v[..]))
    });
    host_series(&names, rows)
}
