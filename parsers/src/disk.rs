//! Block-device activity from operating-system tools, as one set of records for every format.
//!
//! Every OS parser (`iostat` text and `-o JSON`, `sar -d`/`-b` text, `sadf -d`/`-j`, AIX and
//! Solaris `iostat`, AIX/Solaris/HP-UX `sar -d`, nmon, OSWatcher) produces a [`DeviceLog`]: the
//! system banner, then one [`DeviceReport`] per interval (or summary), each with one
//! [`DeviceSample`] per device. Every sample keeps its columns **verbatim** (header name and
//! value as printed, in the tool's unit) and a [`Normalised`] view in IOPS, bytes/s, ms and
//! requests. A value that was not printed is `None`, never 0.
//!
//! This module also holds what the formats share: the sysstat column alias table
//! ([`sysstat_normalise`]), device classification ([`classify`]: which names double-count their
//! disks) and time-stamp reading with an explicit date order ([`resolve_times`]).

use chrono::{Duration, NaiveDate, NaiveDateTime};

use crate::dates::{date_token, split_stamp, time_token, year4, DateToken};
pub use crate::error::SkippedLine;
use crate::num::{number, Scale};
use serde::Serialize;

pub(crate) const MIB: f64 = 1_048_576.0;
pub(crate) const GIB: f64 = 1_073_741_824.0;

/// The system banner: `Linux 5.8.0-53-generic (ubuntu) \t12/02/2021 \t_x86_64_\t(2 CPU)`, the
/// `SunOS host 5.11 11.3 i86pc    06/14/2017` line of Solaris `sar`, nmon's `AAA` lines, ….
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SystemHeader {
    /// Operating system name (`Linux`, `AIX`, `SunOS`, `HP-UX`).
    pub sysname: String,
    /// Kernel or OS release (`5.8.0-53-generic`, `5.11`, `7.2`).
    pub kernel: String,
    /// Host name, without parentheses.
    pub host: String,
    /// The date as printed (`%x` in the collecting locale: `12/02/2021`, `27/07/10`, `2020-06-01`).
    pub date: Option<String>,
    /// Machine (`x86_64`), when printed.
    pub arch: Option<String>,
    /// Number of CPUs, when printed.
    pub cpus: Option<u32>,
}

/// One device (or group) line of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceSample {
    /// Device name as printed (`sda`, `sda1`, `dm-0`, `vg0-lv_root`, `dev8-0`, `hdisk0`, `sd0,a`,
    /// `c0t0d0`).
    pub device: String,
    /// A group total (iostat `-g`, printed with a leading space; nmon `DG` disk groups): it
    /// double-counts its member devices.
    pub group: bool,
    /// The host-wide total of every disk, not a device: the `sar -b` row (`tps rtps wtps bread/s
    /// bwrtn/s`, from `sar -b` text, `sadf -d` `-b` columns or the `sadf -j` `io` object), named
    /// `sar -b` and with `group` set. Never added to the devices' total; the engine takes its
    /// read/write split from it where the disk rows print tps only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub host_total: bool,
    /// Every column, header name verbatim, in printed order; `None` for a blank or missing cell.
    pub values: Vec<(String, Option<f64>)>,
    /// Units normalised through the format's alias table.
    pub normalised: Normalised,
}

impl DeviceSample {
    /// The value of a column by its header name as printed.
    pub fn value(&self, column: &str) -> Option<f64> {
        self.values
            .iter()
            .find(|(n, _)| n == column)
            .and_then(|(_, v)| *v)
    }
}

/// Values in IOPS, bytes/s, ms and requests. `None` when the source did not print them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Normalised {
    /// Read requests per second.
    pub read_iops: Option<f64>,
    /// Write requests per second.
    pub write_iops: Option<f64>,
    /// Discard requests per second.
    pub discard_iops: Option<f64>,
    /// Transfers (IO requests) per second: reads, writes and discards (not flushes).
    pub total_iops: Option<f64>,
    /// Bytes read per second.
    pub read_bytes_per_s: Option<f64>,
    /// Bytes written per second.
    pub write_bytes_per_s: Option<f64>,
    /// Bytes discarded per second.
    pub discard_bytes_per_s: Option<f64>,
    /// All bytes per second, only where the source prints no split (iostat `-x -s` `kB/s`).
    pub total_bytes_per_s: Option<f64>,
    /// Read latency (queue + service), ms.
    pub read_await_ms: Option<f64>,
    /// Write latency (queue + service), ms.
    pub write_await_ms: Option<f64>,
    /// Latency of all requests, ms, only when printed.
    pub await_ms: Option<f64>,
    /// Average number of requests queued or in service.
    pub queue_depth: Option<f64>,
    /// Average request size, bytes.
    pub avg_request_bytes: Option<f64>,
    /// Average read request size, bytes.
    pub read_request_bytes: Option<f64>,
    /// Average write request size, bytes.
    pub write_request_bytes: Option<f64>,
    /// Percent of time the device was busy (shown only: meaningless for NVMe, RAID and SAN LUNs).
    pub util_pct: Option<f64>,
    /// Service time, ms (`svctm`, AIX `avgserv`, Solaris `asvc_t`): shown only, never used for
    /// sizing (sysstat's own man page calls `svctm` untrustworthy).
    pub service_ms: Option<f64>,
}

/// One interval report (or summary) of a log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceReport {
    /// The report's time as printed (trimmed). For formats that print a time of day only (sar,
    /// AIX `iostat -T`), the parser leaves the time as printed here and [`resolve_times`] joins it
    /// to the banner date.
    pub timestamp: Option<String>,
    /// The time when the format states it without ambiguity (ISO 8601, `sadf` UTC, nmon `ZZZZ`,
    /// epoch seconds): local wall-clock time of the host, or UTC where `utc` says so.
    pub time: Option<NaiveDateTime>,
    /// `time` is UTC (sadf `-d`/`-j` without `-t`/`-T`).
    pub utc: bool,
    /// Interval length in seconds when the source states it (`sadf` `interval`), else `None`.
    pub interval_s: Option<f64>,
    /// Averages since boot (the first report of an `iostat` run taken without `-y`): not an
    /// interval rate.
    pub since_boot: bool,
    /// A summary over the whole log (sar `Average:`/`Summary:` rows in any translation), not an
    /// interval.
    pub summary: bool,
    /// 1-based line of the report's first line (or record number for JSON).
    pub line: usize,
    /// Devices in printed order.
    pub devices: Vec<DeviceSample>,
}

impl DeviceReport {
    /// An empty interval report starting at `line`.
    pub fn new(line: usize) -> Self {
        DeviceReport {
            timestamp: None,
            time: None,
            utc: false,
            interval_s: None,
            since_boot: false,
            summary: false,
            line,
            devices: Vec::new(),
        }
    }
}

/// Former name of [`SkippedLine`], kept for callers written before it moved to
/// [`crate::error`].
pub type Skip = SkippedLine;

/// A whole log of block-device activity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceLog {
    /// Format id (see [`crate::Format::id`]): `iostat_text`, `sar_text`, `nmon`, ….
    pub format: &'static str,
    /// The first banner of the file.
    pub header: Option<SystemHeader>,
    /// Every report, in file order.
    pub reports: Vec<DeviceReport>,
    /// Unknown header names, ignored sections and similar, each once.
    pub warnings: Vec<String>,
    /// Lines or records left out (truncated or short lines), each counted.
    pub skipped: Vec<SkippedLine>,
}

impl DeviceLog {
    /// An empty log of format `format`.
    pub fn new(format: &'static str) -> Self {
        DeviceLog {
            format,
            header: None,
            reports: Vec::new(),
            warnings: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// Adds a warning unless the same text is already there.
    pub fn warn(&mut self, w: impl Into<String>) {
        let w = w.into();
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }
}

/// Refuses a log without a single device sample.
///
/// # Errors
/// [`crate::ParseError::Section`] saying the log holds no device statistics (only CPU figures,
/// or an empty device list because the devices named on the command line were not found).
pub fn require_devices(log: &DeviceLog, name: &str) -> Result<(), crate::ParseError> {
    if log.reports.iter().any(|r| !r.devices.is_empty()) {
        return Ok(());
    }
    Err(crate::ParseError::section(
        "device statistics",
        log.reports.first().map(|r| r.line),
        format!("device statistics in this {name}"),
        if log.reports.is_empty() {
            "no report at all".to_string()
        } else {
            format!(
                "{} report(s), none with a device line (only CPU figures, or an empty device list: the devices named on the command line were not found)",
                log.reports.len()
            )
        },
    ))
}

// ---------------------------------------------------------------------------------------------
// sysstat column names
// ---------------------------------------------------------------------------------------------

const READ_BYTES: &[(&str, f64)] = &[
    ("rsec/s", 512.0),
    ("rd_sec/s", 512.0),
    ("Blk_read/s", 512.0),
    ("bread/s", 512.0),
    ("rkB/s", 1024.0),
    ("kB_read/s", 1024.0),
    ("rMB/s", MIB),
    ("MB_read/s", MIB),
    ("rGB/s", GIB),
    ("GB_read/s", GIB),
];
const WRITE_BYTES: &[(&str, f64)] = &[
    ("wsec/s", 512.0),
    ("wr_sec/s", 512.0),
    ("Blk_wrtn/s", 512.0),
    ("bwrtn/s", 512.0),
    ("wkB/s", 1024.0),
    ("kB_wrtn/s", 1024.0),
    ("wMB/s", MIB),
    ("MB_wrtn/s", MIB),
    ("wGB/s", GIB),
    ("GB_wrtn/s", GIB),
];
const DISCARD_BYTES: &[(&str, f64)] = &[
    ("dsec/s", 512.0),
    ("Blk_dscd/s", 512.0),
    ("bdscd/s", 512.0),
    ("dkB/s", 1024.0),
    ("kB_dscd/s", 1024.0),
    ("dMB/s", MIB),
    ("MB_dscd/s", MIB),
    ("dGB/s", GIB),
    ("GB_dscd/s", GIB),
];
const TOTAL_BYTES: &[(&str, f64)] = &[
    ("sec/s", 512.0),
    ("kB/s", 1024.0),
    ("MB/s", MIB),
    ("GB/s", GIB),
];
const REQ_BYTES: &[(&str, f64)] = &[("avgrq-sz", 512.0), ("areq-sz", 1024.0)];
const QUEUE: &[(&str, f64)] = &[("avgqu-sz", 1.0), ("aqu-sz", 1.0)];
const READ_IOPS: &[&str] = &["r/s", "rtps"];
const WRITE_IOPS: &[&str] = &["w/s", "wtps"];
const DISCARD_IOPS: &[&str] = &["d/s", "dtps"];

/// Other names sysstat prints (kept in `values`, no warning).
const OTHER_KNOWN: &[&str] = &[
    "f/s",
    "tps",
    "r_await",
    "w_await",
    "d_await",
    "f_await",
    "await",
    "rareq-sz",
    "wareq-sz",
    "dareq-sz",
    "%util",
    "svctm",
    "rrqm/s",
    "wrqm/s",
    "drqm/s",
    "%rrqm",
    "%wrqm",
    "%drqm",
    "rqm/s",
    "kB_read",
    "kB_wrtn",
    "kB_dscd",
    "MB_read",
    "MB_wrtn",
    "MB_dscd",
    "Blk_read",
    "Blk_wrtn",
    "Blk_dscd",
    "kB_w+d/s",
    "kB_w+d",
    "MB_w+d/s",
    "MB_w+d",
    "Blk_w+d/s",
    "Blk_w+d",
    "GB_read",
    "GB_wrtn",
    "GB_dscd",
    "GB_w+d/s",
    "GB_w+d",
];

/// True for a column name sysstat (`iostat`, `sar -d`, `sar -b`, `sadf`) prints.
pub fn sysstat_known(column: &str) -> bool {
    OTHER_KNOWN.contains(&column)
        || READ_IOPS.contains(&column)
        || WRITE_IOPS.contains(&column)
        || DISCARD_IOPS.contains(&column)
        || [
            READ_BYTES,
            WRITE_BYTES,
            DISCARD_BYTES,
            TOTAL_BYTES,
            REQ_BYTES,
            QUEUE,
        ]
        .iter()
        .any(|t| t.iter().any(|(n, _)| *n == column))
}

/// Bytes in one unit of a sysstat column (for `--human` values): `kB` 1024, `MB` 2^20, `GB`
/// 2^30, sectors/blocks 512 (`rsec/s`, `rd_sec/s`, `Blk_…`, `bread/s`, `avgrq-sz`), `areq-sz`
/// 1024; `None` for a column that is not a size.
pub fn sysstat_unit_bytes(column: &str) -> Option<f64> {
    if column.contains("kB") {
        Some(1024.0)
    } else if column.contains("MB") {
        Some(MIB)
    } else if column.contains("GB") {
        Some(GIB)
    } else if column.contains("sec")
        || column.contains("Blk")
        || column == "avgrq-sz"
        || column.starts_with("bread")
        || column.starts_with("bwrtn")
        || column.starts_with("bdscd")
    {
        Some(512.0)
    } else if column.ends_with("areq-sz") {
        Some(1024.0)
    } else {
        None
    }
}

fn lookup(values: &[(String, Option<f64>)], name: &str) -> Option<Option<f64>> {
    values.iter().find(|(c, _)| c == name).map(|(_, v)| *v)
}

fn scaled(values: &[(String, Option<f64>)], table: &[(&str, f64)]) -> Option<f64> {
    table
        .iter()
        .find_map(|(n, f)| lookup(values, n).map(|v| v.map(|v| v * f)))
        .flatten()
}

fn first(values: &[(String, Option<f64>)], names: &[&str]) -> Option<f64> {
    names.iter().find_map(|n| lookup(values, n)).flatten()
}

/// Normalises sysstat columns (`iostat`, `sar -d`, `sar -b`, `sadf`) through the alias table.
///
/// Units are from the sysstat `iostat(1)`/`sar(1)` man pages and
/// `../shared/reference/iostat-sar-formats.md` §1.4 (read in sysstat's `iostat.c`): a "kB" is
/// 1024 bytes, a sector or block is 512 bytes.
///
/// | field | header names (unit → factor) |
/// |---|---|
/// | `read_iops` / `write_iops` / `discard_iops` | `r/s`, `rtps` / `w/s`, `wtps` / `d/s`, `dtps` |
/// | `total_iops` | `tps`; else `r/s + w/s (+ d/s when printed)`: flushes (`f/s`) carry no data and sysstat's `tps` leaves them out |
/// | `read_bytes_per_s` | `rsec/s`, `rd_sec/s`, `Blk_read/s`, `bread/s` (×512); `rkB/s`, `kB_read/s` (×1024); `rMB/s`, `MB_read/s` (×2^20); `rGB/s`, `GB_read/s` (×2^30) |
/// | `write_bytes_per_s` | `wsec/s`, `wr_sec/s`, `Blk_wrtn/s`, `bwrtn/s` (×512); `wkB/s`, `kB_wrtn/s` (×1024); `wMB/s`, `MB_wrtn/s`; `wGB/s`, `GB_wrtn/s` |
/// | `discard_bytes_per_s` | `dsec/s`, `Blk_dscd/s`, `bdscd/s` (×512); `dkB/s`, `kB_dscd/s` (×1024); `dMB/s`, `MB_dscd/s`; `dGB/s`, `GB_dscd/s` |
/// | `total_bytes_per_s` | `-x -s`: `sec/s` (×512), `kB/s` (×1024), `MB/s`, `GB/s` |
/// | `read_await_ms` / `write_await_ms` / `await_ms` | `r_await` / `w_await` / `await` (ms) |
/// | `queue_depth` | `avgqu-sz`, `aqu-sz` |
/// | `avg_request_bytes` | `avgrq-sz` (×512), `areq-sz` (×1024); else `rareq-sz`/`wareq-sz` weighted by `r/s`/`w/s` when their sum is > 0 |
/// | `read_request_bytes` / `write_request_bytes` | `rareq-sz` / `wareq-sz` (×1024) |
/// | `util_pct` / `service_ms` | `%util` / `svctm` (shown only) |
pub fn sysstat_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let r = first(values, READ_IOPS);
    let w = first(values, WRITE_IOPS);
    let dd = first(values, DISCARD_IOPS);
    // sysstat's own `tps` counts reads, writes and discards, not flushes (iostat.c: `rd_ios +
    // wr_ios + dc_ios`); a flush carries no data.
    let total_iops = lookup(values, "tps").flatten().or(match (r, w) {
        (Some(r), Some(w)) => Some(r + w + dd.unwrap_or(0.0)),
        _ => None,
    });
    let read_request_bytes = lookup(values, "rareq-sz").flatten().map(|v| v * 1024.0);
    let write_request_bytes = lookup(values, "wareq-sz").flatten().map(|v| v * 1024.0);
    let avg_request_bytes =
        scaled(values, REQ_BYTES).or(match (r, w, read_request_bytes, write_request_bytes) {
            (Some(r), Some(w), Some(rb), Some(wb)) if r + w > 0.0 => {
                Some((r * rb + w * wb) / (r + w))
            }
            _ => None,
        });
    Normalised {
        read_iops: r,
        write_iops: w,
        discard_iops: dd,
        total_iops,
        read_bytes_per_s: scaled(values, READ_BYTES),
        write_bytes_per_s: scaled(values, WRITE_BYTES),
        discard_bytes_per_s: scaled(values, DISCARD_BYTES),
        total_bytes_per_s: scaled(values, TOTAL_BYTES),
        read_await_ms: lookup(values, "r_await").flatten(),
        write_await_ms: lookup(values, "w_await").flatten(),
        await_ms: lookup(values, "await").flatten(),
        queue_depth: scaled(values, QUEUE),
        avg_request_bytes,
        read_request_bytes,
        write_request_bytes,
        util_pct: lookup(values, "%util").flatten(),
        service_ms: lookup(values, "svctm").flatten(),
    }
}

// ---------------------------------------------------------------------------------------------
// Text helpers shared by the sysstat text parsers (iostat, sar)
// ---------------------------------------------------------------------------------------------

/// One value cell. `--human` suffixes (`k`, `M`, `G`, `T`, `P`: 1024-based bytes, as sysstat's
/// `cprintf_u64`/`cprintf_f` print them) are converted back into the column's unit.
pub(crate) fn sysstat_cell(tok: &str, column: &str, comma: bool) -> Result<Option<f64>, String> {
    let owned;
    let mut s = tok;
    if comma {
        owned = tok.replace(',', ".");
        s = &owned;
    }
    let s = s.strip_suffix('%').unwrap_or(s);
    let suffixed = s.chars().last().is_some_and(|c| c.is_ascii_alphabetic());
    if !suffixed {
        return number(s, Scale::Decimal);
    }
    match sysstat_unit_bytes(column) {
        Some(ub) => {
            let bytes = match s.strip_suffix('B') {
                Some(b) => number(b, Scale::Binary)?,
                None => number(s, Scale::Binary)?,
            };
            Ok(bytes.map(|b| b / ub))
        }
        None => number(s, Scale::Decimal),
    }
}

/// `Linux <release> (<host>) <date…> [_<arch>_] [(<N> CPU)]`.
pub(crate) fn linux_banner(toks: &[&str]) -> Option<SystemHeader> {
    if toks.len() < 3 || toks[0] != "Linux" {
        return None;
    }
    let host = toks[2].strip_prefix('(')?.strip_suffix(')')?;
    let mut arch = None;
    let mut cpus = None;
    let mut date = Vec::new();
    let mut k = 3;
    while k < toks.len() {
        let t = toks[k];
        if t.len() > 2 && t.starts_with('_') && t.ends_with('_') {
            arch = Some(t.trim_matches('_').to_string());
        } else if let Some(n) = t.strip_prefix('(') {
            if toks.get(k + 1).is_some_and(|c| c.starts_with("CPU")) {
                cpus = n.parse().ok();
                k += 1;
            }
        } else if arch.is_none() && cpus.is_none() {
            date.push(t);
        }
        k += 1;
    }
    Some(SystemHeader {
        sysname: toks[0].to_string(),
        kernel: toks[1].to_string(),
        host: host.to_string(),
        date: (!date.is_empty()).then(|| date.join(" ")),
        arch,
        cpus,
    })
}

// ---------------------------------------------------------------------------------------------
// Device roles
// ---------------------------------------------------------------------------------------------

/// What a device name stands for, for host totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceRole {
    /// A whole disk or LUN (`sda`, `nvme0n1`, `vda`, `xvdf`, `hdisk3`, `sd0`, `c0t0d0`, `dev8-0`).
    Disk,
    /// A partition or slice of a disk (`sda1`, `nvme0n1p2`, `mmcblk0p1`, `dev8-1`, `sd0,a`,
    /// `c0t0d0s0`): its IO is also counted on its disk.
    Partition,
    /// A device-mapper device (`dm-0`, LVM `vg-lv` from `-N`, multipath `mpatha`, `dev253-0`):
    /// its IO is also counted on the disks below it.
    Mapper,
    /// Software RAID (`md0`): its IO is also counted on its member disks (with the RAID's
    /// write amplification).
    SoftwareRaid,
    /// A group total (iostat `-g`, nmon disk groups): double-counts its members.
    Group,
    /// Loop, RAM, optical and floppy devices (`loop0`, `ram0`, `sr0`, `fd0`, `zram0`): not storage
    /// the database uses.
    Virtual,
}

impl DeviceRole {
    /// Stable id (`disk`, `partition`, `mapper`, `software_raid`, `group`, `virtual`).
    pub fn id(self) -> &'static str {
        match self {
            DeviceRole::Disk => "disk",
            DeviceRole::Partition => "partition",
            DeviceRole::Mapper => "mapper",
            DeviceRole::SoftwareRaid => "software_raid",
            DeviceRole::Group => "group",
            DeviceRole::Virtual => "virtual",
        }
    }
}

fn ends_digit(s: &str) -> bool {
    s.chars().last().is_some_and(|c| c.is_ascii_digit())
}

/// Classifies a device name as printed by a Linux, AIX, Solaris or HP-UX tool.
///
/// Linux names follow the kernel's `Documentation/admin-guide/devices.txt` conventions:
/// `sd*`/`vd*`/`xvd*`/`hd*` disks end in a letter and their partitions in a number;
/// `nvme*n*`, `mmcblk*`, `loop*` and `md*` partitions carry a `p<N>` suffix; `dm-N` and names with
/// a `-` from `iostat -N` (`vg0-lv_root`) are device-mapper. sar without `-p` prints `devM-N`
/// (major-minor): major 8, 65–71, 128–135 are SCSI disks with 16 minors per disk (minor % 16 ≠
/// 0 is a partition), 252/253/254 are the usual dynamic device-mapper majors, 9 is md, 7 is loop,
/// 259 is blkext (NVMe namespaces and partitions alike: read as a disk), 202 is Xen `xvd` (16
/// minors per disk). Solaris `sd0,a` and
/// `c0t0d0s0` are slices. `group` short-circuits to [`DeviceRole::Group`].
pub fn classify(name: &str, group: bool) -> DeviceRole {
    if group {
        return DeviceRole::Group;
    }
    let n = name.trim().trim_start_matches("/dev/");
    if let Some(mm) = n.strip_prefix("dev") {
        if let Some((maj, min)) = mm.split_once('-') {
            if let (Ok(maj), Ok(min)) = (maj.parse::<u32>(), min.parse::<u32>()) {
                return match maj {
                    8 | 65..=71 | 128..=135 | 202 => {
                        if min % 16 == 0 {
                            DeviceRole::Disk
                        } else {
                            DeviceRole::Partition
                        }
                    }
                    3 | 22 => {
                        if min % 64 == 0 {
                            DeviceRole::Disk
                        } else {
                            DeviceRole::Partition
                        }
                    }
                    252..=254 => DeviceRole::Mapper,
                    9 => DeviceRole::SoftwareRaid,
                    1 | 2 | 7 | 11 => DeviceRole::Virtual,
                    // blkext: NVMe namespaces and their partitions alike; a namespace
                    // (nvme0n1 = 259:0) is the common case, so a disk (use `sar -p` names or
                    // --devices when partitions are listed too).
                    259 => DeviceRole::Disk,
                    _ => DeviceRole::Disk,
                };
            }
        }
    }
    // Solaris/illumos pseudo devices: RAM disks and loopback files.
    if n.starts_with("ramdisk") || n.starts_with("lofi") {
        return DeviceRole::Virtual;
    }
    // Solaris Volume Manager metadevices (`d0`, `d15`): volumes over disks.
    if let Some(rest) = n.strip_prefix('d') {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return DeviceRole::Mapper;
        }
    }
    for v in ["loop", "ram", "zram", "sr", "fd", "scd", "nbd", "cd"] {
        if let Some(rest) = n.strip_prefix(v) {
            if rest.is_empty() || rest.chars().all(|c| c.is_ascii_digit()) {
                return DeviceRole::Virtual;
            }
        }
    }
    if n.starts_with("dm-") || n.starts_with("mpath") || n.starts_with("VxVM") {
        return DeviceRole::Mapper;
    }
    if let Some(rest) = n.strip_prefix("md") {
        if rest.contains('p') && ends_digit(rest) {
            return DeviceRole::Partition;
        }
        if rest.chars().all(|c| c.is_ascii_digit()) && !rest.is_empty() {
            return DeviceRole::SoftwareRaid;
        }
    }
    // NVMe, MMC: `nvme0n1` disk, `nvme0n1p1` partition; `mmcblk0` / `mmcblk0p1`.
    if n.starts_with("nvme") || n.starts_with("mmcblk") || n.starts_with("rbd") {
        let part = n.rsplit_once('p').is_some_and(|(head, tail)| {
            ends_digit(head) && !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit())
        });
        return if part {
            DeviceRole::Partition
        } else {
            DeviceRole::Disk
        };
    }
    // AIX: `hdisk3`, `hdiskpower0` (PowerPath), `vpath0` (SDD) are disks (LUNs).
    if n.starts_with("hdisk") || n.starts_with("vpath") {
        return DeviceRole::Disk;
    }
    // Linux SCSI/virtio/Xen/IDE: letters then an optional partition number.
    for p in ["sd", "vd", "xvd", "hd"] {
        if let Some(rest) = n.strip_prefix(p) {
            let letters: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase())
                .collect();
            let digits = &rest[letters.len()..];
            if !letters.is_empty()
                && !digits.is_empty()
                && digits.chars().all(|c| c.is_ascii_digit())
            {
                return DeviceRole::Partition;
            }
            if !letters.is_empty() && digits.is_empty() {
                return DeviceRole::Disk;
            }
            // Solaris `sd0` (instance number) is a disk, `sd0,a` a slice.
            if letters.is_empty() && !digits.is_empty() {
                return if digits.contains(',') {
                    DeviceRole::Partition
                } else {
                    DeviceRole::Disk
                };
            }
        }
    }
    if n.contains(',') {
        return DeviceRole::Partition;
    }
    // Solaris cXtYdZsN / cXdZsN slice, cXtYdZpN partition.
    if n.starts_with('c') && n.contains('d') {
        let after_d = n.rsplit_once('d').map(|(_, t)| t).unwrap_or("");
        if after_d.contains('s') || after_d.contains('p') {
            return DeviceRole::Partition;
        }
        return DeviceRole::Disk;
    }
    // `iostat -N`: `vg-lv` (LVM) names contain a dash; Linux disks never do.
    if n.contains('-') && !n.starts_with("hdisk") {
        return DeviceRole::Mapper;
    }
    // Solaris NFS mounts (`nfs1`) carry network IO, not disk IO; `sol:vold(pid1533)` is the
    // volume-management daemon's pseudo device.
    if let Some(rest) = n.strip_prefix("nfs") {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return DeviceRole::Virtual;
        }
    }
    if n.contains(':') {
        return DeviceRole::Virtual;
    }
    // illumos `iostat -x` prints each ZFS pool (`zones`, `rpool`) as a row of its own: a name
    // with no digit that no rule above recognised is taken for such an aggregate of the disks
    // listed with it, like an `iostat -g` group (every disk name of the formats read carries a
    // number, except Linux `sda`-style names, recognised above).
    if !n.is_empty() && !n.chars().any(|c| c.is_ascii_digit()) {
        return DeviceRole::Group;
    }
    DeviceRole::Disk
}

// ---------------------------------------------------------------------------------------------
// Time stamps
// ---------------------------------------------------------------------------------------------

/// How to read a numeric date whose day and month could be either way round (`01/02/24`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DateOrder {
    /// Month first (`MM/DD/YY`, the C and en_US `%x`).
    Mdy,
    /// Day first (`DD/MM/YY`, en_GB, de, fr, …).
    Dmy,
    /// Year first (`YY/MM/DD`, ja/zh).
    Ymd,
}

/// Times of a log's reports, with how the date order was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Times {
    /// One per report (same order as [`DeviceLog::reports`]); `None` where no time was printed
    /// or it could not be read.
    pub times: Vec<Option<NaiveDateTime>>,
    /// The date order used for slash dates, when the log has any.
    pub order: Option<DateOrder>,
    /// Every slash date of the log could be read both ways and no order was given: the
    /// order used is sysstat's C-locale default (month first); `--date-order` settles it.
    pub ambiguous: bool,
    /// Every date reads both ways, and the order was chosen because the other one makes the
    /// reports' times go backwards or jump further (see [`resolve_stamps`]).
    pub inferred: bool,
    /// Time stamps that could not be read, with the line and the text.
    pub unreadable: Vec<(usize, String)>,
}

/// Reads every report's time: the parser's own `time` when set, else the printed `timestamp`
/// (date and time, or a time of day joined to the banner date, adding a day each time the clock
/// goes backwards, as sar does at midnight).
///
/// Slash dates are read with `order` when given; otherwise the whole log decides: a first field
/// above 12 means day first, a second field above 12 month first; when every date fits both
/// ways, the order whose times run forward in the smallest steps is taken (`inferred`); when
/// both run alike, the log is `ambiguous` and read month first (sysstat's C-locale `%x`).
pub fn resolve_times(log: &DeviceLog, order: Option<DateOrder>) -> Times {
    let stamps: Vec<Stamp> = log
        .reports
        .iter()
        .map(|r| Stamp {
            timestamp: r.timestamp.as_deref(),
            time: r.time,
            summary: r.summary,
            line: r.line,
        })
        .collect();
    resolve_stamps(
        log.header.as_ref().and_then(|h| h.date.as_deref()),
        &stamps,
        order,
    )
}

/// What [`resolve_stamps`] needs of one report (so that a streaming reader can keep only this).
#[derive(Debug, Clone, Copy)]
pub struct Stamp<'a> {
    /// [`DeviceReport::timestamp`].
    pub timestamp: Option<&'a str>,
    /// [`DeviceReport::time`].
    pub time: Option<NaiveDateTime>,
    /// [`DeviceReport::summary`].
    pub summary: bool,
    /// [`DeviceReport::line`].
    pub line: usize,
}

/// As [`resolve_times`], on the banner date and the reports' stamps.
pub fn resolve_stamps(
    banner_date: Option<&str>,
    stamps: &[Stamp],
    order: Option<DateOrder>,
) -> Times {
    let banner = banner_date.map(str::to_string);
    // Collect the slash dates to decide the order.
    let mut slash: Vec<(u32, u32)> = Vec::new();
    let mut consider = |d: &str| {
        if let Some(DateToken::Slash(a, b, _)) = date_token(d) {
            slash.push((a, b));
        }
    };
    // The banner's date matters only to time-of-day stamps (sar, `Time:`); an ISO or dated
    // stamp carries its own.
    let needs_banner = stamps
        .iter()
        .any(|r| r.time.is_none() && r.timestamp.is_some_and(|ts| split_stamp(ts).0.is_none()));
    if let (Some(b), true) = (&banner, needs_banner) {
        if let Some(first) = b.split_whitespace().next() {
            consider(first);
        }
    }
    for r in stamps {
        if r.time.is_none() {
            if let Some(ts) = r.timestamp {
                if let (Some(d), _) = split_stamp(ts) {
                    consider(d);
                }
            }
        }
    }
    let chosen = if slash.is_empty() {
        order
    } else if let Some(o) = order {
        Some(o)
    } else if slash.iter().any(|(a, _)| *a > 12) {
        Some(DateOrder::Dmy)
    } else if slash.iter().any(|(_, b)| *b > 12) {
        Some(DateOrder::Mdy)
    } else if slash.iter().all(|(a, b)| a == b) {
        // 12/12/24 reads the same both ways.
        Some(DateOrder::Mdy)
    } else {
        // Every date reads both ways: let the sequence decide. Reports follow each other at a
        // steady interval, so the reading whose times never go backwards and whose largest step
        // is smaller wins (03/04/2019 11:59:58 PM then 03/05/2019 12:00:08 AM is 10 s month
        // first, a month day first). Equal steps leave it ambiguous.
        let mdy = times_with(banner.as_deref(), stamps, Some(DateOrder::Mdy));
        let dmy = times_with(banner.as_deref(), stamps, Some(DateOrder::Dmy));
        let (a, b) = (sequence_cost(&mdy), sequence_cost(&dmy));
        let mut t = if b < a { dmy } else { mdy };
        t.order = Some(if b < a {
            DateOrder::Dmy
        } else {
            DateOrder::Mdy
        });
        t.ambiguous = a == b;
        t.inferred = a != b;
        return t;
    };
    times_with(banner.as_deref(), stamps, chosen)
}

/// (backward steps, largest forward step in seconds) of a time sequence: lower is more
/// plausible.
fn sequence_cost(t: &Times) -> (usize, i64) {
    let v: Vec<NaiveDateTime> = t.times.iter().flatten().copied().collect();
    let mut back = 0;
    let mut max = 0;
    for w in v.windows(2) {
        let d = (w[1] - w[0]).num_seconds();
        if d < 0 {
            back += 1;
        } else {
            max = max.max(d);
        }
    }
    (back, max)
}

/// Reads the stamps with a known order (`None` = no slash dates).
fn times_with(banner: Option<&str>, stamps: &[Stamp], chosen: Option<DateOrder>) -> Times {
    let banner = banner.map(str::to_string);
    let ambiguous = false;
    let read_date = |d: &str| -> Option<NaiveDate> {
        match date_token(d)? {
            DateToken::Fixed(x) => Some(x),
            DateToken::YearFirst(y, m, d) => NaiveDate::from_ymd_opt(y, m, d),
            DateToken::Slash(a, b, (y, yl)) => {
                let y = year4(y, yl);
                match chosen.unwrap_or(DateOrder::Mdy) {
                    DateOrder::Mdy => NaiveDate::from_ymd_opt(y, a, b),
                    DateOrder::Dmy => NaiveDate::from_ymd_opt(y, b, a),
                    DateOrder::Ymd => NaiveDate::from_ymd_opt(year4(a as i32, 2), b, y as u32),
                }
            }
        }
    };
    let banner_date = banner
        .as_deref()
        .and_then(|b| b.split_whitespace().next())
        .and_then(read_date);
    let mut times = Vec::with_capacity(stamps.len());
    let mut unreadable = Vec::new();
    let mut day = banner_date;
    let mut last: Option<NaiveDateTime> = None;
    for r in stamps {
        if let Some(t) = r.time {
            times.push(Some(t));
            last = Some(t);
            continue;
        }
        let Some(ts) = r.timestamp else {
            times.push(None);
            continue;
        };
        let (d, t) = split_stamp(ts);
        let time = time_token(&t);
        let value = match (d, time) {
            (Some(d), Some(t)) => read_date(d).map(|d| {
                day = Some(d);
                d.and_time(t)
            }),
            (None, Some(t)) => day.map(|d0| {
                let mut at = d0.and_time(t);
                if let Some(l) = last {
                    // The clock went backwards: a new day (sar past midnight).
                    while at < l - Duration::minutes(5) && !r.summary {
                        at += Duration::days(1);
                    }
                }
                day = Some(at.date());
                at
            }),
            _ => None,
        };
        if value.is_none() {
            unreadable.push((r.line, ts.to_string()));
        }
        if let Some(v) = value {
            if !r.summary {
                last = Some(v);
            }
        }
        times.push(value);
    }
    Times {
        times,
        order: chosen,
        ambiguous,
        inferred: false,
        unreadable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles() {
        for (n, r) in [
            ("sda", DeviceRole::Disk),
            ("sda1", DeviceRole::Partition),
            ("sdaa12", DeviceRole::Partition),
            ("nvme0n1", DeviceRole::Disk),
            ("nvme0n1p2", DeviceRole::Partition),
            ("mmcblk0p1", DeviceRole::Partition),
            ("dm-0", DeviceRole::Mapper),
            ("vg0-lv_root", DeviceRole::Mapper),
            ("md0", DeviceRole::SoftwareRaid),
            ("md0p1", DeviceRole::Partition),
            ("dev8-0", DeviceRole::Disk),
            ("dev8-1", DeviceRole::Partition),
            ("dev8-16", DeviceRole::Disk),
            ("dev253-0", DeviceRole::Mapper),
            ("loop0", DeviceRole::Virtual),
            ("sr0", DeviceRole::Virtual),
            ("hdisk0", DeviceRole::Disk),
            ("sd0", DeviceRole::Disk),
            ("sd0,a", DeviceRole::Partition),
            ("c0t0d0", DeviceRole::Disk),
            ("c0t0d0s0", DeviceRole::Partition),
            ("xvdf", DeviceRole::Disk),
            ("cciss/c0d0", DeviceRole::Disk),
            ("ramdisk1", DeviceRole::Virtual),
            ("lofi1", DeviceRole::Virtual),
            ("d15", DeviceRole::Mapper),
            ("nfs49", DeviceRole::Virtual),
            ("sol:vold(pid1533)", DeviceRole::Virtual),
            ("zones", DeviceRole::Group),
            ("rpool", DeviceRole::Group),
        ] {
            assert_eq!(classify(n, false), r, "{n}");
        }
        assert_eq!(classify("sda", true), DeviceRole::Group);
    }

    fn log(date: Option<&str>, stamps: &[&str]) -> DeviceLog {
        let mut l = DeviceLog::new("test");
        l.header = Some(SystemHeader {
            date: date.map(str::to_string),
            ..Default::default()
        });
        for (i, s) in stamps.iter().enumerate() {
            let mut r = DeviceReport::new(i + 1);
            r.timestamp = Some(s.to_string());
            l.reports.push(r);
        }
        l
    }

    fn dt(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    #[test]
    fn date_orders() {
        let t = resolve_times(
            &log(None, &["01/02/24 10:00:00", "01/02/24 10:00:10"]),
            None,
        );
        assert!(t.ambiguous);
        assert_eq!(t.times[0], Some(dt("2024-01-02 10:00:00")));
        let t = resolve_times(&log(None, &["01/02/24 10:00:00"]), Some(DateOrder::Dmy));
        assert!(!t.ambiguous);
        assert_eq!(t.times[0], Some(dt("2024-02-01 10:00:00")));
        let t = resolve_times(
            &log(None, &["01/02/24 10:00:00", "27/07/10 11:00:00"]),
            None,
        );
        assert_eq!(t.order, Some(DateOrder::Dmy));
        assert!(!t.ambiguous);
        // Both readings fit each date, but only month first keeps the steps small.
        let t = resolve_times(
            &log(None, &["03/04/2019 11:59:58 PM", "03/05/2019 12:00:08 AM"]),
            None,
        );
        assert!(!t.ambiguous && t.inferred);
        assert_eq!(t.order, Some(DateOrder::Mdy));
        assert_eq!(t.times[1], Some(dt("2019-03-05 00:00:08")));
        let t = resolve_times(
            &log(None, &["04/03/2019 11:59:58 PM", "05/03/2019 12:00:08 AM"]),
            None,
        );
        assert_eq!(t.order, Some(DateOrder::Dmy));
        let t = resolve_times(&log(None, &["11/30/2021 02:15:01 PM"]), None);
        assert_eq!(t.times[0], Some(dt("2021-11-30 14:15:01")));
        let t = resolve_times(&log(None, &["2024-01-02T10:00:00+0100"]), None);
        assert_eq!(t.times[0], Some(dt("2024-01-02 10:00:00")));
        let t = resolve_times(&log(None, &["21-JAN-2015 00:00:02"]), None);
        assert_eq!(t.times[0], Some(dt("2015-01-21 00:00:02")));
    }

    #[test]
    fn time_only_rolls_over_midnight() {
        let t = resolve_times(
            &log(
                Some("06/14/2017"),
                &["23:50:00", "23:59:59", "00:09:59", "Time: 12:19:59 AM"],
            ),
            None,
        );
        assert_eq!(t.times[0], Some(dt("2017-06-14 23:50:00")));
        assert_eq!(t.times[2], Some(dt("2017-06-15 00:09:59")));
        assert_eq!(t.times[3], Some(dt("2017-06-15 00:19:59")));
    }
}
