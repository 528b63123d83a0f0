//! OS disk logs (iostat, sar, sadf, nmon, OSWatcher, AIX/Solaris iostat) → per-device and
//! per-host series → host totals → the same rules engine as the databases.
//!
//! # Data flow
//! A parser yields [`DeviceReport`]s; [`Ingest`] keeps, per report, only its time stamp and the
//! host totals of that report, and per device a few `f32` columns (for percentiles) plus exact
//! running sums and maxima. Memory is bounded by the samples kept (about 4 bytes per device,
//! report and figure kept: total IOPS, MB/s, `r_await`, `w_await`, `await`, queue depth), never by
//! the size of the file. [`hosts`] then groups sources by host name, resolves the time stamps
//! (with the user's date order, see [`DeviceSettings::date_order`]), builds the host series as a
//! polars DataFrame, computes average / p50 / p95 / p99 / max with the time of the peak, and
//! sizes the host from its totals.
//!
//! # Which devices make the host total
//! A partition's IO is also counted on its disk, a device-mapper or md device's on the disks
//! below it, and a `-g` group's on its members: adding them would count the same IO twice. By
//! default ([`DeviceSelection::Disks`]) the host total is the sum of whole disks
//! ([`DeviceRole::Disk`], see [`sizer_parsers::disk::classify`]); `--devices all` adds every
//! non-group, non-virtual device, `--devices sda,sdb` names them. Excluded devices are still listed
//! with their own figures.
//!
//! # Figures
//! Per interval, host totals: `r/s`, `w/s` and total IOPS (sysstat `tps`: reads + writes +
//! discards) summed; MB/s = bytes/s ÷ 10^6 summed; `r_await`/`w_await`/`await` weighted by each
//! device's requests (Σ rᵢ·r_awaitᵢ ÷ Σ rᵢ); queue depth (`aqu-sz`) summed. `%util` and `svctm`
//! are shown per device and never used for sizing (both are meaningless for devices that serve
//! requests in parallel: NVMe, RAID, SAN LUNs; sysstat's man page says so of `svctm`).

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use polars::prelude::*;
use serde::Serialize;
use sizer_parsers::disk::{
    self, classify, DateOrder, DeviceReport, DeviceRole, Normalised, Skip, Stamp, SystemHeader,
};

use sizer_parsers::ParseError;

use crate::analyze::{SeriesStats, Settings, SizeOn, Warning};
use crate::rules::{self, Demand, Options, Recommendation, RuleSet};

/// Which devices make up the host total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DeviceSelection {
    /// Whole disks and LUNs only (default): partitions, device-mapper, md, groups and loop/ram
    /// devices are left out because their IO is already counted on their disks.
    #[default]
    Disks,
    /// Every device except groups and loop/ram/optical devices (may double count: the user's
    /// choice).
    All,
    /// Exactly these device names.
    Names(Vec<String>),
}

impl DeviceSelection {
    /// Parses `disks`, `all` or a comma-separated list of names.
    ///
    /// # Errors
    /// An empty list.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s.trim() {
            "disks" => Ok(DeviceSelection::Disks),
            "all" => Ok(DeviceSelection::All),
            other => {
                let names: Vec<String> = other
                    .split(',')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty())
                    .collect();
                if names.is_empty() {
                    Err("expected 'disks', 'all' or a comma-separated list of device names".into())
                } else {
                    Ok(DeviceSelection::Names(names))
                }
            }
        }
    }

    /// Words for the report.
    pub fn describe(&self) -> String {
        match self {
            DeviceSelection::Disks => {
                "whole disks only (default; partitions, device-mapper/LVM, md and groups are counted on their disks)".into()
            }
            DeviceSelection::All => {
                "every device except groups and loop/ram devices (--devices all: partitions and device-mapper devices may double count)".into()
            }
            DeviceSelection::Names(n) => format!("the devices named with --devices: {}", n.join(", ")),
        }
    }

    fn includes(&self, name: &str, role: DeviceRole) -> bool {
        match self {
            DeviceSelection::Disks => role == DeviceRole::Disk,
            DeviceSelection::All => !matches!(role, DeviceRole::Group | DeviceRole::Virtual),
            DeviceSelection::Names(n) => n.iter().any(|x| x == name),
        }
    }
}

/// Settings for OS disk logs.
#[derive(Debug, Clone, Default)]
pub struct DeviceSettings {
    /// Devices that make the host total.
    pub selection: DeviceSelection,
    /// How to read `01/02/24`; `None` = decide from the log (day first if a first field is > 12,
    /// month first if a second one is; month first and a warning when every date fits both).
    pub date_order: Option<DateOrder>,
    /// The iostat logs were taken with `-y`: their first report is an interval, not averages
    /// since boot.
    pub iostat_y: bool,
}

/// Figures of a device or host, in the order shown.
pub const FIGURES: [(&str, &str); 13] = [
    ("total_iops", "IOPS"),
    ("read_iops", "IOPS"),
    ("write_iops", "IOPS"),
    ("total_mb_s", "MB/s"),
    ("read_mb_s", "MB/s"),
    ("write_mb_s", "MB/s"),
    ("avg_io_kib", "KiB"),
    ("r_await_ms", "ms"),
    ("w_await_ms", "ms"),
    ("await_ms", "ms"),
    ("queue_depth", "requests"),
    ("util_pct", "%"),
    ("svctm_ms", "ms"),
];
const NF: usize = FIGURES.len();
// Indexes into FIGURES.
const TOTAL_IOPS: usize = 0;
/// Average read size up to which a host's r_await is graded as a small random read on the IO
/// report card (the Delphix random-read test uses small blocks; tier-catalog §4.4), KiB.
pub(crate) const SMALL_READ_KIB: f64 = 32.0;
const READ_IOPS: usize = 1;
const WRITE_IOPS: usize = 2;
const TOTAL_MB: usize = 3;
const READ_MB: usize = 4;
const WRITE_MB: usize = 5;
const AVG_IO_KIB: usize = 6;
const R_AWAIT: usize = 7;
const W_AWAIT: usize = 8;
const AWAIT: usize = 9;
const QUEUE: usize = 10;
/// Host figures: everything but `%util` and `svctm`.
const HOST_FIGURES: usize = 11;
/// Figures summed over devices for the host total.
const SUMMED: [usize; 7] = [
    TOTAL_IOPS, READ_IOPS, WRITE_IOPS, TOTAL_MB, READ_MB, WRITE_MB, QUEUE,
];
/// (requests, latency) pairs weighted by requests for the host total.
const WEIGHTED: [(usize, usize); 3] = [
    (READ_IOPS, R_AWAIT),
    (WRITE_IOPS, W_AWAIT),
    (TOTAL_IOPS, AWAIT),
];
/// Figures kept per device sample (indexes into [`FIGURES`]) for percentiles.
const KEPT: [usize; 6] = [TOTAL_IOPS, TOTAL_MB, R_AWAIT, W_AWAIT, AWAIT, QUEUE];

fn figures_of(n: &Normalised) -> [Option<f64>; NF] {
    let total_bytes = match (n.read_bytes_per_s, n.write_bytes_per_s) {
        (Some(r), Some(w)) => Some(r + w + n.discard_bytes_per_s.unwrap_or(0.0)),
        _ => n.total_bytes_per_s,
    };
    let avg_io_kib =
        n.avg_request_bytes
            .map(|b| b / 1024.0)
            .or(match (total_bytes, n.total_iops) {
                (Some(b), Some(i)) if i > 0.0 => Some(b / i / 1024.0),
                _ => None,
            });
    [
        n.total_iops,
        n.read_iops,
        n.write_iops,
        total_bytes.map(|b| b / 1e6),
        n.read_bytes_per_s.map(|b| b / 1e6),
        n.write_bytes_per_s.map(|b| b / 1e6),
        avg_io_kib,
        n.read_await_ms,
        n.write_await_ms,
        n.await_ms,
        n.queue_depth,
        n.util_pct,
        n.service_ms,
    ]
}

/// A column of `f32` grown in fixed chunks: no doubling of capacity (a `Vec` that grows by
/// doubling can hold twice its length), so memory is 4 bytes per value plus one chunk.
#[derive(Debug, Clone, Default)]
struct Col {
    chunks: Vec<Vec<f32>>,
}

impl Col {
    const CHUNK: usize = 4096;

    fn push(&mut self, v: f32) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < Self::CHUNK => c.push(v),
            _ => {
                let mut c = Vec::with_capacity(Self::CHUNK);
                c.push(v);
                self.chunks.push(c);
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = f32> + '_ {
        self.chunks.iter().flat_map(|c| c.iter().copied())
    }
}

/// One device's samples from one source.
#[derive(Debug, Clone)]
struct DevSeries {
    name: String,
    role: DeviceRole,
    included: bool,
    /// Samples (interval reports) pushed.
    samples: usize,
    /// Kept figures ([`KEPT`]); `None` until a value appears; NaN = unknown.
    kept: [Option<Col>; KEPT.len()],
    sum: [f64; NF],
    /// Weights of `sum` (1 per sample, or the requests behind a ratio).
    wsum: [f64; NF],
    n: [u32; NF],
    max: [Option<(f64, u32)>; NF],
    /// Samples of since-boot reports (used only when a log has no interval report).
    boot: Vec<(u32, [Option<f64>; NF])>,
}

impl DevSeries {
    fn new(name: &str, role: DeviceRole, included: bool) -> Self {
        DevSeries {
            name: name.to_string(),
            role,
            included,
            samples: 0,
            kept: Default::default(),
            sum: [0.0; NF],
            wsum: [0.0; NF],
            n: [0; NF],
            max: [None; NF],
            boot: Vec::new(),
        }
    }

    /// A series of the since-boot samples only.
    fn boot_series(&self) -> DevSeries {
        let mut d = DevSeries::new(&self.name, self.role, self.included);
        for (r, f) in &self.boot {
            d.push(*r, f);
        }
        d
    }

    fn push(&mut self, report: u32, f: &[Option<f64>; NF]) {
        let k = self.samples;
        self.samples += 1;
        for (slot, &fi) in KEPT.iter().enumerate() {
            match (f[fi], &mut self.kept[slot]) {
                (Some(v), Some(col)) => col.push(v as f32),
                (Some(v), none @ None) => {
                    let mut col = Col::default();
                    for _ in 0..k {
                        col.push(f32::NAN);
                    }
                    col.push(v as f32);
                    *none = Some(col);
                }
                (None, Some(col)) => col.push(f32::NAN),
                (None, None) => {}
            }
        }
        for (i, v) in f.iter().enumerate() {
            if let Some(v) = *v {
                // Ratios (latency, IO size) are weighted by the requests behind them, so an idle
                // sample's 0.00 ms does not pull the average down.
                let w = match i {
                    R_AWAIT => f[READ_IOPS],
                    W_AWAIT => f[WRITE_IOPS],
                    AWAIT | AVG_IO_KIB => f[TOTAL_IOPS],
                    _ => Some(1.0),
                }
                .unwrap_or(1.0);
                self.sum[i] += v * w;
                self.wsum[i] += w;
                self.n[i] += 1;
                if self.max[i].is_none_or(|(m, _)| v > m) {
                    self.max[i] = Some((v, report));
                }
            }
        }
    }
}

/// Host totals of one report.
#[derive(Debug, Clone, Copy, Default)]
struct HostRow {
    v: HostFigures,
    devices: u32,
}

/// Per report: what the time resolution and the series need.
#[derive(Debug, Clone)]
struct Meta {
    timestamp: Option<String>,
    time: Option<NaiveDateTime>,
    utc: bool,
    interval_s: Option<f64>,
    since_boot: bool,
    summary: bool,
    line: usize,
}

/// One OS disk log reduced to its host series and device samples.
#[derive(Debug, Clone)]
pub struct HostSource {
    /// Path as given.
    pub file: String,
    /// Format id (`iostat_text`, `sar_text`, …).
    pub format: String,
    /// The banner.
    pub header: Option<SystemHeader>,
    metas: Vec<Meta>,
    rows: Vec<HostRow>,
    /// Totals over device-mapper and md devices, kept when the default selection finds no whole
    /// disk (empty otherwise).
    alt_rows: Vec<HostRow>,
    /// Some read/write splits came from `sar -b`.
    split_from_sar_b: bool,
    /// `sar -b` totals per report (empty without `sar -b`).
    b_rows: Vec<HostRow>,
    /// Intervals whose devices' tps did not match `sar -b` (its split was not used there).
    sar_b_mismatch: usize,
    devices: Vec<DevSeries>,
    /// Parser warnings.
    pub warnings: Vec<String>,
    /// Lines the parser left out.
    pub skipped: Vec<Skip>,
}

/// Builds a [`HostSource`] one report at a time (a streaming parser calls [`Ingest::push`] as
/// each report completes).
pub struct Ingest<'a> {
    src: HostSource,
    index: HashMap<(String, bool), usize>,
    selection: &'a DeviceSelection,
    /// `sar -b` samples (a host-wide read/write split) by report.
    sar_b: HashMap<usize, [Option<f64>; NF]>,
    /// A device-mapper or md device was seen (see [`HostSource`]'s `alt_rows`).
    has_alt: bool,
    /// A selected device has been seen: the fallback totals are not kept.
    seen_disk: bool,
}

impl<'a> Ingest<'a> {
    /// Starts a source.
    pub fn new(file: &str, format: &str, selection: &'a DeviceSelection) -> Self {
        Ingest {
            src: HostSource {
                file: file.to_string(),
                format: format.to_string(),
                header: None,
                metas: Vec::new(),
                rows: Vec::new(),
                alt_rows: Vec::new(),
                split_from_sar_b: false,
                b_rows: Vec::new(),
                sar_b_mismatch: 0,
                devices: Vec::new(),
                warnings: Vec::new(),
                skipped: Vec::new(),
            },
            index: HashMap::new(),
            selection,
            sar_b: HashMap::new(),
            has_alt: false,
            seen_disk: false,
        }
    }

    /// Sets the banner.
    pub fn header(&mut self, h: Option<SystemHeader>) {
        self.src.header = h;
    }

    /// Adds one report.
    pub fn push(&mut self, r: &DeviceReport) {
        let ri = self.src.metas.len() as u32;
        self.src.metas.push(Meta {
            timestamp: r.timestamp.clone(),
            time: r.time,
            utc: r.utc,
            interval_s: r.interval_s,
            since_boot: r.since_boot,
            summary: r.summary,
            line: r.line,
        });
        let mut sar_b = None;
        let mut main: Vec<[Option<f64>; NF]> = Vec::new();
        let mut alt: Vec<[Option<f64>; NF]> = Vec::new();
        for d in &r.devices {
            if d.group && d.device == "sar -b" {
                sar_b = Some(figures_of(&d.normalised));
                continue;
            }
            let role = classify(&d.device, d.group);
            let key = (d.device.clone(), d.group);
            let idx = match self.index.get(&key) {
                Some(&i) => i,
                None => {
                    let inc = self.selection.includes(&d.device, role) && !d.group;
                    self.src.devices.push(DevSeries::new(&d.device, role, inc));
                    self.index.insert(key, self.src.devices.len() - 1);
                    self.src.devices.len() - 1
                }
            };
            let f = figures_of(&d.normalised);
            if r.since_boot {
                self.src.devices[idx].boot.push((ri, f));
            } else if !r.summary {
                self.src.devices[idx].push(ri, &f);
            }
            if self.src.devices[idx].included {
                main.push(f);
            } else if self.selection == &DeviceSelection::Disks
                && matches!(role, DeviceRole::Mapper | DeviceRole::SoftwareRaid)
            {
                alt.push(f);
            }
        }
        let row = host_row(&main);
        if !alt.is_empty() && !self.has_alt && !self.seen_disk {
            self.has_alt = true;
            self.src.alt_rows = vec![HostRow::default(); self.src.rows.len()];
        }
        if self.has_alt {
            self.src.alt_rows.push(host_row(&alt));
        }
        if let Some(b) = sar_b {
            self.sar_b.insert(self.src.rows.len(), b);
        }
        // Once a whole disk is seen, the device-mapper fallback is not needed.
        if row.devices > 0 && self.has_alt {
            self.has_alt = false;
            self.src.alt_rows = Vec::new();
        }
        if row.devices > 0 {
            self.seen_disk = true;
        }
        self.src.rows.push(row);
    }

    /// Finishes the source.
    pub fn finish(mut self, warnings: Vec<String>, skipped: Vec<Skip>) -> HostSource {
        // Host read/write split from `sar -b` where the disk rows have none (`sar -d` prints tps
        // only).
        // Only where `sar -b` describes the same devices: its tps must match the devices' total
        // (within 5 % + 0.05); a partial `--devices` selection or stacked devices do not.
        let mut used_b = false;
        let mut mismatched = 0usize;
        let n = self.src.rows.len();
        for (k, row) in self
            .src
            .rows
            .iter_mut()
            .chain(self.src.alt_rows.iter_mut())
            .enumerate()
        {
            let Some(b) = self.sar_b.get(&(k % n.max(1))) else {
                continue;
            };
            if row.v[READ_IOPS].is_none() && row.v[WRITE_IOPS].is_none() && row.devices > 0 {
                match (row.v[TOTAL_IOPS], b[TOTAL_IOPS]) {
                    (Some(t), Some(bt)) if (t - bt).abs() <= 0.05 + 0.05 * bt => {
                        row.v[READ_IOPS] = b[READ_IOPS];
                        row.v[WRITE_IOPS] = b[WRITE_IOPS];
                        used_b |= b[READ_IOPS].is_some();
                    }
                    _ => mismatched += 1,
                }
            }
        }
        if !self.sar_b.is_empty() {
            self.src.b_rows = (0..n)
                .map(|k| match self.sar_b.get(&k) {
                    Some(f) => HostRow {
                        v: std::array::from_fn(|i| f[i]),
                        devices: 1,
                    },
                    None => HostRow::default(),
                })
                .collect();
        }
        self.src.warnings = warnings;
        self.src.split_from_sar_b = used_b;
        self.src.sar_b_mismatch = mismatched;
        self.src.skipped = skipped;
        self.src
    }
}

/// Host totals of one report from its selected devices' figures: requests, MB/s and queue
/// depth summed (unknown when any device lacks the figure), latencies weighted by requests.
fn host_row(devs: &[[Option<f64>; NF]]) -> HostRow {
    let mut row = HostRow {
        devices: devs.len() as u32,
        ..HostRow::default()
    };
    if devs.is_empty() {
        return row;
    }
    for i in SUMMED {
        row.v[i] = devs.iter().map(|f| f[i]).sum::<Option<f64>>();
    }
    for (iops, l) in WEIGHTED {
        let (mut s, mut n, mut ok) = (0.0, 0.0, true);
        for f in devs {
            match (f[iops], f[l]) {
                (Some(k), Some(ms)) => {
                    s += k * ms;
                    n += k;
                }
                // A device that served requests without a latency: the weighted figure is unknown.
                (Some(k), None) if k > 0.0 => ok = false,
                (None, _) => ok = false,
                _ => {}
            }
        }
        row.v[l] = (ok && n > 0.0).then(|| s / n);
    }
    row.v[AVG_IO_KIB] = match (row.v[TOTAL_MB], row.v[TOTAL_IOPS]) {
        (Some(mb), Some(i)) if i > 0.0 => Some(mb * 1e6 / i / 1024.0),
        _ => None,
    };
    row
}

/// Reduces a parsed log.
pub fn ingest_log(file: &str, log: &disk::DeviceLog, settings: &DeviceSettings) -> HostSource {
    let mut ing = Ingest::new(file, log.format, &settings.selection);
    ing.header(log.header.clone());
    for (k, r) in log.reports.iter().enumerate() {
        if settings.iostat_y && k == 0 && r.since_boot {
            let mut r = r.clone();
            r.since_boot = false;
            ing.push(&r);
        } else {
            ing.push(r);
        }
    }
    ing.finish(log.warnings.clone(), log.skipped.clone())
}

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
    pub skipped: Vec<Skip>,
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
    /// `disk`, `partition`, `mapper`, `software_raid`, `group`, `virtual`.
    pub role: &'static str,
    /// Counted in the host total.
    pub included: bool,
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

/// One interval of a host series: end time, length in seconds (known or the median), and the
/// host figures in [`FIGURES`] order (null = unknown).
pub type SeriesRow = (Option<NaiveDateTime>, f64, HostFigures);

/// Host figures of one interval, in [`FIGURES`] order up to `queue_depth` (`%util` and `svctm`
/// are per device only); `None` = unknown.
pub type HostFigures = [Option<f64>; HOST_FIGURES];

/// The analysis of one host over all its OS logs, with the recommendation.
#[derive(Debug, Clone, Serialize)]
pub struct HostAnalysis {
    /// Host name as the logs print it (or the file name when they print none).
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
    /// AWR figures of databases on this host over the same windows.
    pub awr: Vec<AwrSideBySide>,
    /// Caveats.
    pub warnings: Vec<Warning>,
    /// The host series, one [`SeriesRow`] per interval.
    #[serde(skip)]
    pub series: Vec<SeriesRow>,
}

fn iso(t: Option<NaiveDateTime>) -> Option<String> {
    t.map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string())
}

fn host_key(s: &HostSource) -> String {
    s.header
        .as_ref()
        .map(|h| h.host.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| format!("(no host name) {}", s.file))
}

/// Seconds as `10 s`, `25 min`, `3.5 h` or `12.0 days`.
fn fmt_s(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 172_800.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

/// Groups sources by host and analyses each.
///
/// # Errors
/// A polars error computing quantiles.
pub fn hosts(
    sources: Vec<HostSource>,
    rules: &RuleSet,
    settings: &Settings,
    dev: &DeviceSettings,
) -> PolarsResult<Vec<HostAnalysis>> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<HostSource>> = HashMap::new();
    for s in sources {
        let k = host_key(&s);
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(s);
    }
    let mut out = Vec::new();
    for k in order {
        let srcs = groups.remove(&k).unwrap_or_default();
        out.push(host(&k, srcs, rules, settings, dev)?);
    }
    Ok(out)
}

/// One interval of a host series: (end time, length in seconds when known, figures, source
/// index, report index in that source).
type Entry = (
    Option<NaiveDateTime>,
    Option<f64>,
    HostFigures,
    usize,
    usize,
);

fn host(
    name: &str,
    srcs: Vec<HostSource>,
    rules: &RuleSet,
    settings: &Settings,
    dev: &DeviceSettings,
) -> PolarsResult<HostAnalysis> {
    let mut warnings: Vec<Warning> = Vec::new();
    let mut infos = Vec::new();
    // (time, interval_s, figures, source, report) per counted interval.
    let mut series: Vec<Entry> = Vec::new();
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

    // Host statistics with polars.
    let mut statistics = BTreeMap::new();
    for (fi, (fname, unit)) in FIGURES.iter().enumerate() {
        if fi >= HOST_FIGURES {
            continue; // %util and svctm: per device only.
        }
        let vals: Vec<Option<f64>> = series.iter().map(|x| x.2[fi]).collect();
        let ca = Float64Chunked::from_iter_options("v".into(), vals.iter().copied());
        let q = |p: f64| ca.quantile(p, QuantileMethod::Linear).ok().flatten();
        // Averages of ratios are weighted by the requests behind them (latency by r/s, w/s,
        // IOPS; IO size by IOPS) as well as by time: the average over the whole window, not the
        // mean of per-interval ratios.
        let by_requests = match fi {
            R_AWAIT => Some(READ_IOPS),
            W_AWAIT => Some(WRITE_IOPS),
            AWAIT | AVG_IO_KIB => Some(TOTAL_IOPS),
            _ => None,
        };
        let (mut ws, mut vs) = (0.0, 0.0);
        for (k, (v, w)) in vals.iter().zip(&weights).enumerate() {
            if let Some(v) = v {
                let w = match by_requests {
                    Some(ri) => w * series[k].2[ri].unwrap_or(0.0),
                    None => *w,
                };
                ws += w;
                vs += v * w;
            }
        }
        let peak = vals
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i, v)))
            .fold(None, |b: Option<(usize, f64)>, (i, v)| match b {
                Some((_, bv)) if bv >= v => b,
                _ => Some((i, v)),
            });
        let peak_end = peak.and_then(|(i, _)| series[i].0);
        let peak_begin = peak.and_then(|(i, _)| {
            let len = lens[i].or(med)?;
            series[i]
                .0
                .map(|t| t - chrono::Duration::milliseconds((len * 1000.0) as i64))
        });
        statistics.insert(
            fname.to_string(),
            SeriesStats {
                unit,
                n: ca.len() - ca.null_count(),
                avg: (ws > 0.0).then(|| vs / ws),
                p50: q(0.50),
                p95: q(0.95),
                p99: q(0.99),
                max: ca.max(),
                peak_begin: iso(peak_begin),
                peak_end: iso(peak_end),
            },
        );
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
                    let ca = Float32Chunked::from_vec("v".into(), vals);
                    let q = |p: f64| {
                        ca.quantile(p, QuantileMethod::Linear)
                            .ok()
                            .flatten()
                            .map(|v| (v as f64 * 1e4).round() / 1e4)
                    };
                    (q(0.95), q(0.99))
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
        devices.push(DeviceStats {
            device: name.clone(),
            role: first.role.id(),
            included: parts.iter().any(|(_, d)| d.included)
                || use_alt && matches!(first.role, DeviceRole::Mapper | DeviceRole::SoftwareRaid),
            samples,
            figures,
        });
    }
    if !devices.iter().any(|d| d.included) && !devices.is_empty() {
        warnings.push(Warning {
            id: "no_devices_selected".into(),
            message: format!(
                "no device matches the selection ({}): the host has no total; devices seen: {}",
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
    let stat = |f: &str| statistics.get(f).and_then(|s: &SeriesStats| s.get(size_on));
    let mut demand = Demand {
        capacity_gib: settings.capacity_gib,
        ..Demand::default()
    };
    let mut recommendation = None;
    if let Some(target) = stat("total_iops") {
        let character = series
            .iter()
            .enumerate()
            .filter_map(|(i, x)| x.2[TOTAL_IOPS].map(|v| (i, (v - target).abs())))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i);
        let cf = character
            .map(|i| series[i].2)
            .unwrap_or([None; HOST_FIGURES]);
        let (read_mb, write_mb) = match (stat("total_mb_s"), stat("read_mb_s"), stat("write_mb_s"))
        {
            (Some(t), Some(r), Some(w)) if r + w > 0.0 => (t * r / (r + w), t * w / (r + w)),
            (Some(t), None, None) => (t, 0.0),
            (_, r, w) => (r.unwrap_or(0.0), w.unwrap_or(0.0)),
        };
        // The read/write split of the interval whose total is closest to the sizing figure, scaled
        // to that figure: independent percentiles of r/s and w/s do not add up to the total's.
        let (ri, wi) = match (cf[READ_IOPS], cf[WRITE_IOPS], cf[TOTAL_IOPS]) {
            (Some(r), Some(w), Some(t)) if t > 0.0 => (target * r / t, target * w / t),
            (Some(r), Some(w), _) if r + w > 0.0 => (target * r / (r + w), target * w / (r + w)),
            _ => {
                warnings.push(Warning {
                    id: "split_unknown".into(),
                    message: "the logs give no read/write request split (a total only): the rules treat every IO as a write, the worst case for RAID".into(),
                });
                (0.0, 0.0)
            }
        };
        // Throughput: the sizing statistic of MB/s, split like that interval's bytes.
        let (read_mb, write_mb) = match (stat("total_mb_s"), cf[READ_MB], cf[WRITE_MB]) {
            (Some(t), Some(r), Some(w)) if r + w > 0.0 => (t * r / (r + w), t * w / (r + w)),
            _ => (read_mb, write_mb),
        };
        let kib = |b: Option<f64>, n: Option<f64>| match (b, n) {
            (Some(b), Some(n)) if n > 0.0 => Some(b * 1e6 / n / 1024.0),
            _ => None,
        };
        let r6 = |v: f64| (v * 1e6).round() / 1e6;
        let avg_read_kib = kib(cf[READ_MB], cf[READ_IOPS]);
        let r_await = statistics.get("r_await_ms").and_then(|s| s.avg);
        // None when the read size is unknown: the latency is then not graded.
        let small_reads = avg_read_kib.map(|k| k <= SMALL_READ_KIB);
        demand = Demand {
            required_iops: r6(target),
            read_iops: r6(ri),
            write_iops: r6(wi),
            read_mb_s: r6(read_mb),
            write_mb_s: r6(write_mb),
            avg_read_kib: kib(cf[READ_MB], cf[READ_IOPS]).map(r6),
            avg_write_kib: kib(cf[WRITE_MB], cf[WRITE_IOPS]).map(r6),
            small_read_share: None,
            direct_read_share: None,
            cache_hit_pct: None,
            // Small reads' r_await is the OS view of a single-block read; large reads are
            // graded as sequential reads.
            single_block_read_ms: (small_reads == Some(true))
                .then_some(r_await)
                .flatten()
                .map(r6),
            large_read_ms: (small_reads == Some(false))
                .then_some(r_await)
                .flatten()
                .map(r6),
            log_write_ms: None,
            avg_log_write_kib: None,
            single_block_read_p95: None,
            large_read_p95: None,
            log_write_p95: None,
            capacity_gib: settings.capacity_gib,
            window_minutes: character.and_then(|i| lens[i].or(med)).map(|s| s / 60.0),
            peak_minutes: crate::analyze::sustained_minutes(
                series
                    .iter()
                    .zip(&lens)
                    .map(|(x, l)| (x.2[TOTAL_IOPS], l.or(med).map(|s| s / 60.0))),
                target,
            ),
            mean_iops: statistics.get("total_iops").and_then(|s| s.avg).map(r6),
            latency_basis: r_await.map(|_| {
                format!(
                    "iostat r_await, request-weighted average over the log (average read {} KiB)",
                    avg_read_kib.map_or("unknown".to_string(), |k| format!("{k:.1}"))
                )
            }),
        };
        let opts = Options {
            headroom_pct: settings.headroom_pct,
            platforms: settings.platforms.clone(),
            figure_decimals: Some(2),
            formula: Some("host total r/s + w/s + d/s (sysstat tps)".into()),
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
    } else {
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
    // The same caveat from several logs of the host once.
    let mut seen_w: Vec<(String, String)> = Vec::new();
    warnings.retain(|w| {
        let k = (w.id.clone(), w.message.clone());
        if seen_w.contains(&k) {
            false
        } else {
            seen_w.push(k);
            true
        }
    });
    let begin = series.iter().zip(&lens).find_map(|(x, l)| {
        x.0.map(|t| t - chrono::Duration::milliseconds((l.or(med).unwrap_or(0.0) * 1000.0) as i64))
    });
    let end = series.iter().rev().find_map(|x| x.0);
    let intervals = series.len();
    // Moved, not copied: a day of 1-second intervals is 86,400 rows.
    let out_series = series
        .into_iter()
        .zip(weights)
        .map(|(x, w)| (x.0, w, x.2))
        .collect();
    Ok(HostAnalysis {
        host: name.to_string(),
        os,
        sources: infos,
        begin: iso(begin),
        end: iso(end),
        intervals,
        interval_s: med,
        selection: dev.selection.describe(),
        statistics,
        devices,
        size_on,
        demand,
        recommendation,
        awr: Vec::new(),
        warnings,
        series: out_series,
    })
}

/// The host series of every host as a polars DataFrame: one row per interval with `host`,
/// `time` (ISO 8601), `interval_s` and one f64 column per host figure (null = unknown).
///
/// # Errors
/// A polars error if a column cannot be built.
pub fn series_frame(hosts: &[HostAnalysis]) -> PolarsResult<DataFrame> {
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

/// Short host name: up to the first dot, lower case.
fn short(h: &str) -> String {
    h.split('.').next().unwrap_or(h).trim().to_ascii_lowercase()
}

/// Fills [`HostAnalysis::awr`]: each AWR instance report (and each instance of a RAC global
/// report, from its `IOStat by File Type` share) whose `Host Name` is this host, and whose
/// interval overlaps the host's series, gets the instance's own figures beside the host's
/// time-weighted totals over the OS intervals that end inside it.
pub fn side_by_side(
    hosts: &mut [HostAnalysis],
    analyses: &[crate::analyze::Analysis],
    dbs: &[crate::analyze::DatabaseAnalysis],
) {
    let parse = |s: &Option<String>| {
        s.as_deref()
            .and_then(|s| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").ok())
    };
    // (database, instance, instance's host, begin, end, AWR IOPS, AWR MB/s): one per instance
    // report, and one per instance of a RAC global report (its `IOStat by File Type` share).
    type Row = (
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        Option<f64>,
        Option<f64>,
    );
    let mut rows: Vec<Row> = Vec::new();
    for a in analyses {
        if a.source.report_kind == "rac_global" {
            continue;
        }
        let Some(inst) = a.instances.first() else {
            continue;
        };
        let Some(host) = inst.host.clone() else {
            continue;
        };
        let key = dbs
            .iter()
            .find(|d| d.sources.contains(&a.source.file))
            .map(|d| d.key.clone())
            .unwrap_or_else(|| a.database.db_name.clone());
        rows.push((
            key,
            inst.name.clone(),
            host,
            a.interval.begin_time.clone(),
            a.interval.end_time.clone(),
            a.workload.measured_iops.exact,
            a.workload.total_mb_s.exact,
        ));
    }
    for d in dbs {
        for iv in d.intervals.iter().filter(|i| i.scope == "cluster") {
            for share in &iv.per_instance {
                let Some(host) = d
                    .instance_info
                    .iter()
                    .find(|i| i.name == share.instance)
                    .and_then(|i| i.host.clone())
                else {
                    continue;
                };
                let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
                    (Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
                rows.push((
                    d.key.clone(),
                    share.instance.clone(),
                    host,
                    iv.interval.begin_time.clone(),
                    iv.interval.end_time.clone(),
                    sum(share.read_reqs_per_s, share.write_reqs_per_s),
                    sum(share.read_mb_s, share.write_mb_s),
                ));
            }
        }
    }
    for h in hosts.iter_mut() {
        let hs = short(&h.host);
        for (db, inst, host, begin, end, awr_iops, awr_mb_s) in &rows {
            if short(host) != hs {
                continue;
            }
            let (Some(b), Some(e)) = (parse(begin), parse(end)) else {
                continue;
            };
            let inside: Vec<&SeriesRow> = h
                .series
                .iter()
                .filter(|(t, _, _)| t.is_some_and(|t| t > b && t <= e))
                .collect();
            if inside.is_empty() {
                continue;
            }
            let wavg = |i: usize| {
                let (mut ws, mut vs) = (0.0, 0.0);
                for (_, w, v) in &inside {
                    if let Some(x) = v[i] {
                        ws += w;
                        vs += x * w;
                    }
                }
                (ws > 0.0).then(|| vs / ws)
            };
            let covered: f64 = inside.iter().map(|x| x.1).sum();
            h.awr.push(AwrSideBySide {
                database: db.clone(),
                instance: inst.clone(),
                begin: begin.clone(),
                end: end.clone(),
                awr_iops: *awr_iops,
                awr_mb_s: *awr_mb_s,
                os_iops: wavg(TOTAL_IOPS),
                os_mb_s: wavg(TOTAL_MB),
                covered_s: covered,
                awr_s: (e - b).num_seconds() as f64,
            });
        }
    }
}

/// Reads a Linux `iostat` text log as a stream (gzip decompressed on the fly): one report at a
/// time goes into the [`Ingest`], so memory is bounded by the samples kept, not by the file.
///
/// A report with a value that is not a number is left out and counted; a line that does not fit
/// its header stops the reader: the reports before it are kept and the stop is said (a log copied
/// while iostat was still writing it ends in a cut line), unless there are none.
///
/// # Errors
/// [`ParseError::Io`] naming the path; the reader's error when no report could be read before it;
/// [`ParseError::Section`] when the log has no device line at all.
pub fn ingest_iostat_stream(
    file: &str,
    path: &std::path::Path,
    settings: &DeviceSettings,
) -> Result<HostSource, ParseError> {
    use sizer_parsers::iostat;
    let src = sizer_parsers::input::open_stream(path)?;
    let opts = iostat::Options {
        first_is_since_boot: !settings.iostat_y,
        keep_values: false,
    };
    let mut reader = iostat::Reader::new(src, opts);
    let mut ing = Ingest::new(file, "iostat_text", &settings.selection);
    let mut samples = 0usize;
    let mut reports = 0usize;
    let mut left_out: Vec<Skip> = Vec::new();
    // An error followed by more reports was one report's bad value (left out, counted); the
    // last error, with nothing after it, stopped the reader.
    let mut last_err: Option<ParseError> = None;
    while let Some(item) = reader.next() {
        match item {
            Ok(r) => {
                if let Some(e) = last_err.take() {
                    left_out.push(Skip {
                        line: location_line(&e),
                        reason: format!("report left out: {e}"),
                    });
                }
                if ing.src.header.is_none() {
                    ing.header(reader.header().cloned());
                }
                samples += r.devices.len();
                reports += 1;
                ing.push(&r);
            }
            Err(ParseError::Io { source, .. }) => {
                return Err(ParseError::Io {
                    path: path.to_path_buf(),
                    source,
                })
            }
            Err(e) => {
                if let Some(prev) = last_err.replace(e) {
                    left_out.push(Skip {
                        line: location_line(&prev),
                        reason: format!("report left out: {prev}"),
                    });
                }
            }
        }
    }
    let stopped = match last_err {
        Some(e) if reports == 0 => return Err(e),
        Some(e) => Some(e.to_string()),
        None => None,
    };
    if samples == 0 && stopped.is_none() {
        return Err(ParseError::section(
            "device statistics",
            None,
            "device statistics in this Linux iostat log",
            format!("{reports} report(s), none with a device line (only CPU figures, or an empty device list: the devices named on the command line were not found)"),
        ));
    }
    let mut warnings = reader.warnings().to_vec();
    if let Some(e) = stopped {
        warnings.push(format!(
            "reading stopped at a line that does not fit its header ({e}); the {reports} report(s) before it are used"
        ));
    }
    let mut skipped = reader.skipped().to_vec();
    skipped.extend(left_out);
    Ok(ing.finish(warnings, skipped))
}

fn location_line(e: &ParseError) -> usize {
    match e {
        ParseError::Section { at, .. } | ParseError::Truncated { at, .. } => at.line.unwrap_or(0),
        _ => 0,
    }
}
