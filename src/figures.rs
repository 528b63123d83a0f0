//! The figures of OS disk logs, per device and per host: names, units, their indexes, and how
//! one device's normalised statistics become them (`figures_of`).
//!
//! Per interval, host totals: `r/s`, `w/s` and total IOPS (sysstat `tps`: reads + writes +
//! discards) summed; MB/s = bytes/s ÷ 10^6 summed; `r_await`/`w_await`/`await` weighted by each
//! device's requests (Σ rᵢ·r_awaitᵢ ÷ Σ rᵢ); queue depth (`aqu-sz`) summed (`SUMMED`,
//! `WEIGHTED`). `%util` and `svctm` are shown per device and never used for sizing (both are
//! meaningless for devices that serve requests in parallel: NVMe, RAID, SAN LUNs; sysstat's man
//! page says so of `svctm`). The host CPU figures (busy and iowait %, from the log's CPU
//! columns) belong to the report, not to a device: devices leave them unknown.

use sizer_parsers::disk::Normalised;

/// Figures of a device or host, in the order shown.
pub const FIGURES: [(&str, &str); 15] = [
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
    ("host_cpu_busy_pct", "%"),
    ("host_cpu_iowait_pct", "%"),
    ("util_pct", "%"),
    ("svctm_ms", "ms"),
];

pub(crate) const NF: usize = FIGURES.len();

// Indexes into FIGURES.
pub(crate) const TOTAL_IOPS: usize = 0;

pub(crate) const READ_IOPS: usize = 1;

pub(crate) const WRITE_IOPS: usize = 2;

pub(crate) const TOTAL_MB: usize = 3;

pub(crate) const READ_MB: usize = 4;

pub(crate) const WRITE_MB: usize = 5;

pub(crate) const AVG_IO_KIB: usize = 6;

pub(crate) const R_AWAIT: usize = 7;

pub(crate) const W_AWAIT: usize = 8;

pub(crate) const AWAIT: usize = 9;

pub(crate) const QUEUE: usize = 10;

/// Host CPU busy, % (100 − idle − iowait of the report's CPU columns: iostat `avg-cpu`, `sar -u`,
/// `sadf`, nmon, OSWatcher, AIX, Solaris; `sizer_parsers::disk::CpuUtil`): per report, never per
/// device.
pub(crate) const CPU_BUSY: usize = 11;

/// Host CPU iowait, % (the IO-wait column: `%iowait`, `Wait%`, `% iowait`, `wt`).
pub(crate) const CPU_IOWAIT: usize = 12;

/// Host figures: everything but `%util` and `svctm`.
pub(crate) const HOST_FIGURES: usize = 13;

/// Figures summed over devices for the host total.
pub(crate) const SUMMED: [usize; 7] = [
    TOTAL_IOPS, READ_IOPS, WRITE_IOPS, TOTAL_MB, READ_MB, WRITE_MB, QUEUE,
];

/// (requests, latency) pairs weighted by requests for the host total.
pub(crate) const WEIGHTED: [(usize, usize); 3] = [
    (READ_IOPS, R_AWAIT),
    (WRITE_IOPS, W_AWAIT),
    (TOTAL_IOPS, AWAIT),
];

/// Figures kept per device sample (indexes into [`FIGURES`]) for percentiles.
pub(crate) const KEPT: [usize; 6] = [TOTAL_IOPS, TOTAL_MB, R_AWAIT, W_AWAIT, AWAIT, QUEUE];

/// Host figures of one interval, in [`FIGURES`] order up to the host CPU (`%util` and `svctm`
/// are per device only); `None` = unknown.
pub type HostFigures = [Option<f64>; HOST_FIGURES];

pub(crate) fn figures_of(n: &Normalised) -> [Option<f64>; NF] {
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
        None, // host CPU: set per report by the ingest, never per device
        None,
        n.util_pct,
        n.service_ms,
    ]
}
