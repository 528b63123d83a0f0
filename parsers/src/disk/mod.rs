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
//!
//! # Module layout
//! Flow: a format parser splits its lines or document into device rows and hands each row's
//! columns to the shared helpers: `sysstat` reads a sysstat value cell (`sysstat_cell`: decimal
//! commas, `--human` suffixes), the Linux banner, and maps the sysstat column names onto
//! [`Normalised`] ([`sysstat_normalise`], the alias table with each column's unit); the parser
//! then builds the records defined here. After parsing, the engine asks `role` what each device
//! name stands for ([`classify`], so that host totals never double-count) and `times` for the
//! real time of each report ([`resolve_times`]: the banner date, the printed time and an explicit
//! or inferred day/month order).

mod role;
mod sysstat;
mod times;

pub use role::{classify, parent_disk, DeviceRole};
pub(crate) use sysstat::{linux_banner, sysstat_cell};
pub use sysstat::{sysstat_known, sysstat_normalise, sysstat_unit_bytes};
pub use times::{resolve_stamps, resolve_times, DateOrder, Stamp, Times};

use chrono::NaiveDateTime;
use serde::Serialize;

pub use crate::error::SkippedLine;

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

impl Normalised {
    /// Number of fields, in declaration order: the length of [`Normalised::to_fields`].
    pub(crate) const FIELDS: usize = 17;

    /// The fields in declaration order (`read_iops` … `service_ms`), for parsers that store
    /// them compactly.
    pub(crate) fn to_fields(&self) -> [Option<f64>; Normalised::FIELDS] {
        let Normalised {
            read_iops,
            write_iops,
            discard_iops,
            total_iops,
            read_bytes_per_s,
            write_bytes_per_s,
            discard_bytes_per_s,
            total_bytes_per_s,
            read_await_ms,
            write_await_ms,
            await_ms,
            queue_depth,
            avg_request_bytes,
            read_request_bytes,
            write_request_bytes,
            util_pct,
            service_ms,
        } = *self;
        [
            read_iops,
            write_iops,
            discard_iops,
            total_iops,
            read_bytes_per_s,
            write_bytes_per_s,
            discard_bytes_per_s,
            total_bytes_per_s,
            read_await_ms,
            write_await_ms,
            await_ms,
            queue_depth,
            avg_request_bytes,
            read_request_bytes,
            write_request_bytes,
            util_pct,
            service_ms,
        ]
    }

    /// The inverse of [`Normalised::to_fields`].
    pub(crate) fn from_fields(f: [Option<f64>; Normalised::FIELDS]) -> Normalised {
        let [read_iops, write_iops, discard_iops, total_iops, read_bytes_per_s, write_bytes_per_s, discard_bytes_per_s, total_bytes_per_s, read_await_ms, write_await_ms, await_ms, queue_depth, avg_request_bytes, read_request_bytes, write_request_bytes, util_pct, service_ms] =
            f;
        Normalised {
            read_iops,
            write_iops,
            discard_iops,
            total_iops,
            read_bytes_per_s,
            write_bytes_per_s,
            discard_bytes_per_s,
            total_bytes_per_s,
            read_await_ms,
            write_await_ms,
            await_ms,
            queue_depth,
            avg_request_bytes,
            read_request_bytes,
            write_request_bytes,
            util_pct,
            service_ms,
        }
    }
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
    /// The host's CPU utilisation over the same interval, where the log prints it (iostat
    /// `avg-cpu` and `-o JSON`, `sar -u`, `sadf -d`/`-j`, nmon `CPU_ALL`, OSWatcher, AIX `tty:`,
    /// Solaris `us sy wt id`); `None` otherwise (unknown, never 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuUtil>,
}

/// Host CPU utilisation of one report: the columns verbatim and two derived figures, found by
/// header name, never by position. The idle and IO-wait columns of each format:
///
/// | format | idle | iowait | other columns kept |
/// |---|---|---|---|
/// | iostat `avg-cpu`, `sar -u`, `sadf -d` | `%idle` | `%iowait` | `%user`/`%usr`, `%nice`, `%system`/`%sys`, `%steal`, … |
/// | iostat `-o JSON` `avg-cpu`, `sadf -j` `cpu-load` | `idle` | `iowait` | `user`/`usr`, `nice`, `system`/`sys`, `steal`, … |
/// | nmon `CPU_ALL` | `Idle%` | `Wait%` | `User%`, `Sys%`, … |
/// | AIX `iostat` `tty:` line | `% idle` | `% iowait` | `% user`, `% sys`, `physc`, `% entc` |
/// | Solaris `iostat -c` | `id` | `wt` (not used: always 0 on Solaris 10+) | `us`, `sy` |
/// | AIX, HP-UX `sar -u` | `%idle` | `%wio` | `%usr`, `%sys`, `physc`, `%entc` |
/// | Solaris `sar -u` | `%idle` | `%wio` (not used on SunOS 5.10 and later: always 0) | `%usr`, `%sys` |
///
/// - busy % = 100 − idle − iowait: every share that is neither idle nor IO wait (IO wait is idle
///   time with IO outstanding, as AWR's `IOWAIT_TIME` is part of `IDLE_TIME`; `%steal`, time a
///   virtual CPU waited for the hypervisor, counts as busy: the guest wanted the CPU). So where
///   only user and system are printed (AIX, Solaris) busy = user + system.
/// - iowait % = the IO-wait column.
///
/// Either is `None` when a column it needs is not printed or not a number: unknown, never 0.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpuUtil {
    /// Every column, header name verbatim, in printed order.
    pub values: Vec<(String, Option<f64>)>,
    /// Busy, percent.
    pub busy_pct: Option<f64>,
    /// IO wait, percent.
    pub iowait_pct: Option<f64>,
}

impl CpuUtil {
    /// From the columns as printed (names verbatim, values in percent), sysstat names
    /// (`%idle`, `%iowait`).
    pub fn from_columns(values: Vec<(String, Option<f64>)>) -> CpuUtil {
        CpuUtil::from_named(values, "%idle", "%iowait")
    }

    /// The same with the format's own names of the idle and IO-wait columns (nmon `CPU_ALL`:
    /// `Idle%`, `Wait%`).
    pub fn from_named(values: Vec<(String, Option<f64>)>, idle: &str, iowait: &str) -> CpuUtil {
        CpuUtil::read(values, idle, iowait, true)
    }

    /// The same where the IO-wait column is printed but not measured (Solaris 10 and later
    /// print `wt` / `%wio` as 0 always): busy % = 100 − idle − the printed column (its 0, so
    /// 100 − idle), IO wait unknown. The column is kept in [`CpuUtil::values`] as printed.
    pub fn with_unmeasured_iowait(
        values: Vec<(String, Option<f64>)>,
        idle: &str,
        iowait: &str,
    ) -> CpuUtil {
        CpuUtil::read(values, idle, iowait, false)
    }

    fn read(
        values: Vec<(String, Option<f64>)>,
        idle: &str,
        iowait: &str,
        iowait_measured: bool,
    ) -> CpuUtil {
        let get = |n: &str| values.iter().find(|(c, _)| c == n).and_then(|(_, v)| *v);
        let idle = get(idle);
        let iowait = get(iowait);
        let busy = match (idle, iowait) {
            (Some(i), Some(w)) => Some(100.0 - i - w),
            _ => None,
        };
        CpuUtil {
            busy_pct: busy,
            iowait_pct: iowait.filter(|_| iowait_measured),
            values,
        }
    }
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
            cpu: None,
        }
    }
}

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
    /// The texts of [`DeviceLog::warnings`] already seen by [`DeviceLog::warn`], so that each
    /// warning costs one look-up, not a scan of the list (quadratic on a log of many
    /// warnings: issue 14).
    #[serde(skip)]
    seen: WarnIndex,
}

/// The set behind [`DeviceLog::warn`] (and the entity logs' `warn`): the texts of `warnings[..indexed]`. Warnings pushed onto
/// the list directly are added at the next [`DeviceLog::warn`]; a list that got shorter is
/// indexed anew. Not part of a log's value: two logs with the same warnings are equal
/// whatever their index holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct WarnIndex {
    set: std::collections::HashSet<String>,
    indexed: usize,
}

impl PartialEq for WarnIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl WarnIndex {
    /// Pushes `w` onto `warnings` unless the same text is already there: one hash look-up.
    pub(crate) fn push_once(&mut self, warnings: &mut Vec<String>, w: String) {
        self.sync(warnings);
        if self.set.insert(w.clone()) {
            warnings.push(w);
            self.indexed += 1;
        }
    }

    /// Brings the set up to date with `warnings`.
    fn sync(&mut self, warnings: &[String]) {
        if warnings.len() < self.indexed {
            self.set.clear();
            self.indexed = 0;
        }
        for w in &warnings[self.indexed..] {
            self.set.insert(w.clone());
        }
        self.indexed = warnings.len();
    }
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
            seen: WarnIndex::default(),
        }
    }

    /// Adds a warning unless the same text is already there: one hash look-up (the list is
    /// indexed as it grows, warnings pushed onto it directly included).
    pub fn warn(&mut self, w: impl Into<String>) {
        self.seen.push_once(&mut self.warnings, w.into());
    }
}

/// Warnings of one kind that may come once per column or cell (unknown header names), each
/// kept once: a set, so a header of 100,000 names costs one look-up per name, where
/// [`DeviceLog::warn`] scans the warnings so far (quadratic on such a header; issue 14). Use it
/// for every warning of its kind, so the two never hold the same text.
#[derive(Debug, Default)]
pub(crate) struct WarnOnce(std::collections::HashSet<String>);

impl WarnOnce {
    /// Adds `w` to `log`'s warnings unless this set has seen it.
    pub(crate) fn warn(&mut self, log: &mut DeviceLog, w: String) {
        if !self.0.contains(&w) {
            self.0.insert(w.clone());
            log.warnings.push(w);
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
    Err(no_devices(
        log.reports.first().map(|r| r.line),
        log.reports.len(),
        name,
    ))
}

/// The error of a `name` log whose `reports` reports (the first at `first_line`) have no device
/// line: what [`require_devices`] returns, for a parser that streams its reports.
pub(crate) fn no_devices(
    first_line: Option<usize>,
    reports: usize,
    name: &str,
) -> crate::ParseError {
    crate::ParseError::section(
        "device statistics",
        first_line,
        format!("device statistics in this {name}"),
        if reports == 0 {
            "no report at all".to_string()
        } else {
            format!(
                "{reports} report(s), none with a device line (only CPU figures, or an empty device list: the devices named on the command line were not found)"
            )
        },
    )
}

#[cfg(test)]
mod tests {
    /// `DeviceLog::warn` keeps each text once, in order, whether it came through `warn` or was
    /// pushed directly, and costs one look-up per warning: 50,000 distinct warnings (an
    /// OSWatcher archive of that many unreadable markers gives one each) took a minute when each
    /// `warn` scanned the list (1.25·10^9 string comparisons), and take well under a second here
    /// (the bound is 10 s, for a loaded debug build).
    #[test]
    fn warn_is_linear_and_keeps_each_text_once() {
        let mut log = super::DeviceLog::new("test");
        let start = std::time::Instant::now();
        let n = 50_000;
        for i in 0..n {
            log.warn(format!("line {i}: marker date 'x' not read"));
        }
        // Repeats of the first, the middle and the last are dropped.
        for i in [0, n / 2, n - 1] {
            log.warn(format!("line {i}: marker date 'x' not read"));
        }
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
        assert_eq!(log.warnings.len(), n);
        assert_eq!(
            log.warnings[n - 1],
            format!("line {}: marker date 'x' not read", n - 1)
        );
        // A warning pushed directly is seen by the next `warn`, and a list cut short is
        // indexed anew.
        log.warnings.push("direct".into());
        log.warn("direct");
        assert_eq!(log.warnings.len(), n + 1);
        log.warnings.truncate(1);
        log.warn("direct");
        log.warn("line 0: marker date 'x' not read");
        assert_eq!(log.warnings, ["line 0: marker date 'x' not read", "direct"]);
    }

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

    #[test]
    fn stacked_paths_persistent_names_and_unknowns() {
        for (n, r) in [
            // Issue 16 item 5: stacked devices beside their backing disks.
            ("bcache0", DeviceRole::Stacked),
            ("bcache12", DeviceRole::Stacked),
            ("bcache0p1", DeviceRole::Partition),
            ("drbd1", DeviceRole::Stacked),
            ("zd0", DeviceRole::Stacked),
            ("zd16p1", DeviceRole::Partition),
            ("emcpowera", DeviceRole::Stacked),
            ("emcpowerbc2", DeviceRole::Partition),
            ("VxVM1000", DeviceRole::Mapper),
            ("zram0", DeviceRole::Virtual),
            ("nvme0c0n1", DeviceRole::Path),
            ("nvme1c12n3", DeviceRole::Path),
            // `sar -j ID` / `-j PATH` names (sysstat-tests expected.sar-jID).
            (
                "ata-Hitachi_HDS723020BLA642_MN1240F33J1XND",
                DeviceRole::Disk,
            ),
            (
                "ata-Hitachi_HDS723020BLA642_MN1240F33J1XND-part12",
                DeviceRole::Partition,
            ),
            ("wwn-0x5438850077615869953x", DeviceRole::Disk),
            ("pci-0000:00:1f.2-ata-1", DeviceRole::Disk),
            ("pci-0000:00:1f.2-ata-1-part3", DeviceRole::Partition),
            ("dm-name-rhel-root", DeviceRole::Mapper),
            ("md-uuid-1b2c3d4e:5f6a7b8c", DeviceRole::SoftwareRaid),
            ("lvm-pv-uuid-AbCd-1234", DeviceRole::Unknown),
            // `sar -j UUID`: a filesystem's id says nothing of the device under it.
            ("A6B4E393B4E36471", DeviceRole::Unknown),
            ("E27E37357E370239", DeviceRole::Unknown),
            ("12345678-abcd-98ef-8521-7539adfbaf90", DeviceRole::Unknown),
            // Other whole-disk drivers.
            ("disk3", DeviceRole::Disk),
            ("disk3_p2", DeviceRole::Partition),
            ("ssd12", DeviceRole::Disk),
            ("ssd12,a", DeviceRole::Partition),
            ("cmdk0", DeviceRole::Disk),
            ("blkdev1", DeviceRole::Disk),
            ("dasda", DeviceRole::Disk),
            ("dasda1", DeviceRole::Partition),
            ("pmem0", DeviceRole::Disk),
            // Nothing recognises it: unknown, never a disk by default.
            ("foo7", DeviceRole::Unknown),
        ] {
            assert_eq!(classify(n, false), r, "{n}");
        }
    }

    #[test]
    fn parent_disks_of_partitions() {
        for (p, d) in [
            ("sda1", Some("sda")),
            ("sdaa12", Some("sdaa")),
            ("xvdf2", Some("xvdf")),
            ("nvme0n1p2", Some("nvme0n1")),
            ("mmcblk0p1", Some("mmcblk0")),
            ("md0p1", Some("md0")),
            ("cciss/c0d0p2", Some("cciss/c0d0")),
            ("sd0,a", Some("sd0")),
            ("c0t0d0s0", Some("c0t0d0")),
            ("disk3_p2", Some("disk3")),
            ("dev8-1", Some("dev8-0")),
            ("dev8-33", Some("dev8-32")),
            ("emcpowerbc2", Some("emcpowerbc")),
            ("zd16p1", Some("zd16")),
            ("ata-X_Y-part3", Some("ata-X_Y")),
            ("sda", None),
            ("dm-0", None),
        ] {
            assert_eq!(parent_disk(p).as_deref(), d, "{p}");
        }
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
