//! Per-entity metric series from virtualisation tools (vSAN performance service, PowerCLI
//! `Get-VsanStat`, telegraf, `esxtop -b`, HCIBench), as one set of records for every format.
//!
//! A parser yields an [`EntityLog`]: a list of [`Series`], each one metric of one entity
//! (`cluster-domclient:<uuid>` `iopsRead`, `Physical Disk(naa.…)` `Reads/sec`) over time. The
//! metric's label is kept **verbatim**, with its values as the source printed them
//! (`raw_unit`), and a [`Measure`] says what it means once normalised, in [`Measure::unit`]
//! (IOPS, bytes/s, ms, percent, count). A value the source did not give is `None`, never 0.
//!
//! Unit rules (see `../shared/reference/vsan-formats.md` §0): vSAN performance-service
//! latencies are **microseconds** even where the service's metadata says `time_ms` (PowerCLI
//! reports `Microseconds`, OTel `us`); throughput is bytes/s; esxtop prints ms and MBytes/s
//! (2^20 bytes); HCIBench prints ms and "MB/s" that is fio KiB/s ÷ 1024 (MiB/s).

use chrono::NaiveDateTime;
use serde::Serialize;

pub use crate::error::SkippedLine;

/// What a normalised series measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Read requests per second.
    ReadIops,
    /// Write requests per second.
    WriteIops,
    /// All requests per second (where the source gives no split).
    TotalIops,
    /// Bytes read per second.
    ReadBytesPerS,
    /// Bytes written per second.
    WriteBytesPerS,
    /// All bytes per second (no split).
    TotalBytesPerS,
    /// Average read latency, ms.
    ReadLatencyMs,
    /// Average write latency, ms.
    WriteLatencyMs,
    /// Average latency of all requests, ms.
    LatencyMs,
    /// 95th-percentile read latency, ms (HCIBench).
    ReadLatencyP95Ms,
    /// 95th-percentile write latency, ms (HCIBench).
    WriteLatencyP95Ms,
    /// esxtop DAVG: device (driver) latency per command, ms.
    DeviceLatencyMs,
    /// esxtop KAVG: VMkernel latency per command, ms.
    KernelLatencyMs,
    /// esxtop GAVG: guest-observed latency per command (DAVG + KAVG), ms.
    GuestLatencyMs,
    /// esxtop QAVG: time queued in the VMkernel per command, ms.
    QueueLatencyMs,
    /// vSAN congestion (a count per sample interval, as the service reports it).
    Congestion,
    /// Outstanding IO (requests in flight).
    OutstandingIo,
    /// Read-cache hit rate, percent 0–100 (vSAN hybrid disk groups `rcHitRate`, host client
    /// cache `clientCacheHitRate`).
    ReadCacheHitPct,
    /// Recovery (resync) write requests per second (vSAN back end).
    RecoveryWriteIops,
    /// Resync read requests per second (vSAN back end).
    ResyncReadIops,
    /// Capacity, bytes.
    CapacityBytes,
    /// Used capacity, bytes.
    UsedBytes,
    /// Host CPU busy, percent 0–100 of the host's logical CPUs (esxtop `Physical Cpu(_Total)`
    /// `% Util Time`, interactive esxtop's `PCPU UTIL(%)`; see the esxtop module docs).
    HostCpuBusyPct,
}

impl Measure {
    /// Unit of the normalised values: `IOPS`, `B/s`, `ms`, `%`, `count`, `B`.
    pub fn unit(self) -> &'static str {
        use Measure::*;
        match self {
            ReadIops | WriteIops | TotalIops | RecoveryWriteIops | ResyncReadIops => "IOPS",
            ReadBytesPerS | WriteBytesPerS | TotalBytesPerS => "B/s",
            ReadLatencyMs | WriteLatencyMs | LatencyMs | ReadLatencyP95Ms | WriteLatencyP95Ms
            | DeviceLatencyMs | KernelLatencyMs | GuestLatencyMs | QueueLatencyMs => "ms",
            ReadCacheHitPct | HostCpuBusyPct => "%",
            Congestion | OutstandingIo => "count",
            CapacityBytes | UsedBytes => "B",
        }
    }
}

/// One metric of one entity over time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// Entity type: vSAN `cluster-domclient`, `host-domclient`, `cluster-domcompmgr`,
    /// `host-domcompmgr`, `disk-group`, `cache-disk`, `capacity-disk`, `virtual-machine`,
    /// `vsan-vnic-net`, …; esxtop `Physical Disk Adapter`, `Physical Disk`, `Physical Disk SCSI
    /// Device`, `Virtual Disk`, `Physical Cpu`; PowerCLI the view (`VMConsumption`, `Backend`, `Performance`);
    /// HCIBench `hcibench`. As the source names it.
    pub entity_type: String,
    /// The entity: the part after `type:` of a vSAN `entityRefId`, the esxtop instance
    /// (`vmhba0:C0:T0:L0`, `naa.…`, a VM name, `_Total`), the PowerCLI `Entity`.
    pub entity: String,
    /// The host the entity belongs to, when the source says (esxtop `\\host\…`).
    pub host: Option<String>,
    /// The metric label verbatim (`iopsRead`, `latencyAvgWrite`, `Reads/sec`,
    /// `Average Driver MilliSec/Command`, `VMConsumption.ReadIops`, `R_LATENCY`).
    pub metric: String,
    /// What it measures once normalised; `None` for a metric sizer does not use (kept and listed,
    /// not dropped).
    pub measure: Option<Measure>,
    /// The unit the source printed the values in (`µs`, `B/s`, `MBytes/s`, `ms`, `%`, …).
    pub raw_unit: String,
    /// Normalised values, one per time (in [`Measure::unit`]); raw values when `measure` is
    /// `None`.
    pub values: Vec<Option<f64>>,
    /// Sample times (end of each sample interval), same length as `values`; `None` where the
    /// source gives none (HCIBench summaries).
    pub times: Vec<Option<NaiveDateTime>>,
    /// The times are UTC (vSAN `sampleInfo`, esxtop `(UTC)`), as opposed to local.
    pub utc: bool,
    /// Sample interval, seconds, when the source states it (`metricsCollectInterval`, 300).
    pub interval_s: Option<f64>,
}

/// A whole export.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityLog {
    /// Format id: `vsan_json`, `vsan_soap`, `powercli_csv`, `telegraf_vsan`, `esxtop_csv`,
    /// `hcibench`.
    pub format: &'static str,
    /// Where the data comes from when the source says (vCenter, cluster or host name; HCIBench
    /// datastore).
    pub origin: Option<String>,
    /// Every series, in source order.
    pub series: Vec<Series>,
    /// Unknown entity types and metrics (kept in `series` with `measure: None`), and similar,
    /// each once.
    pub warnings: Vec<String>,
    /// Rows left out, each counted.
    pub skipped: Vec<SkippedLine>,
    /// The texts of `warnings` already seen by [`EntityLog::warn`] (one look-up per warning,
    /// as for `DeviceLog`).
    #[serde(skip)]
    seen: crate::disk::WarnIndex,
}

impl EntityLog {
    /// An empty log.
    pub fn new(format: &'static str) -> Self {
        EntityLog {
            format,
            origin: None,
            series: Vec::new(),
            warnings: Vec::new(),
            skipped: Vec::new(),
            seen: Default::default(),
        }
    }

    /// The series are what a benchmark delivered under a synthetic load (HCIBench), not a
    /// workload's demand.
    pub fn is_synthetic_load(&self) -> bool {
        self.format == crate::Format::Hcibench.id()
    }

    /// The series come from the vSAN performance service (its JSON or SOAP result, PowerCLI
    /// `Get-VsanStat`, telegraf's `vsphere_vsan_*`), as opposed to esxtop or HCIBench.
    pub fn is_vsan_performance(&self) -> bool {
        [
            crate::Format::VsanJson,
            crate::Format::VsanSoap,
            crate::Format::PowercliCsv,
            crate::Format::TelegrafVsan,
        ]
        .iter()
        .any(|f| f.id() == self.format)
    }

    /// Adds a warning unless the same text is already there.
    pub fn warn(&mut self, w: impl Into<String>) {
        self.seen.push_once(&mut self.warnings, w.into());
    }

    /// The series of one entity type and measure.
    pub fn find<'a>(
        &'a self,
        entity_type: &'a str,
        measure: Measure,
    ) -> impl Iterator<Item = &'a Series> + 'a {
        self.series
            .iter()
            .filter(move |s| s.entity_type == entity_type && s.measure == Some(measure))
    }
}

/// The vSAN performance-service labels sizer normalises, by entity type family: (label,
/// measure, factor from the raw unit to the measure's unit, raw unit). Latencies are µs in the
/// service (÷ 1000 → ms); throughput is bytes/s; congestion and `oio` are counts; hit rates %.
///
/// Sources: the vSAN API reference (`VsanPerfEntityType` labels), telegraf's vSAN README, and
/// `../shared/reference/vsan-formats.md` §5.
pub const VSAN_LABELS: &[(&str, Measure, f64, &str)] = &[
    ("iopsRead", Measure::ReadIops, 1.0, "IOPS"),
    ("iopsWrite", Measure::WriteIops, 1.0, "IOPS"),
    ("throughputRead", Measure::ReadBytesPerS, 1.0, "B/s"),
    ("throughputWrite", Measure::WriteBytesPerS, 1.0, "B/s"),
    ("latencyAvgRead", Measure::ReadLatencyMs, 0.001, "µs"),
    ("latencyAvgWrite", Measure::WriteLatencyMs, 0.001, "µs"),
    ("latencyRead", Measure::ReadLatencyMs, 0.001, "µs"),
    ("latencyReadAvg", Measure::ReadLatencyMs, 0.001, "µs"),
    ("latencyWriteAvg", Measure::WriteLatencyMs, 0.001, "µs"),
    ("latencyWrite", Measure::WriteLatencyMs, 0.001, "µs"),
    ("latencyAvg", Measure::LatencyMs, 0.001, "µs"),
    ("iops", Measure::TotalIops, 1.0, "IOPS"),
    ("throughput", Measure::TotalBytesPerS, 1.0, "B/s"),
    ("congestion", Measure::Congestion, 1.0, "count"),
    ("oio", Measure::OutstandingIo, 1.0, "count"),
    ("rcHitRate", Measure::ReadCacheHitPct, 1.0, "%"),
    ("clientCacheHitRate", Measure::ReadCacheHitPct, 1.0, "%"),
    ("iopsRecWrite", Measure::RecoveryWriteIops, 1.0, "IOPS"),
    ("iopsResyncRead", Measure::ResyncReadIops, 1.0, "IOPS"),
    ("iopsDevRead", Measure::ReadIops, 1.0, "IOPS"),
    ("iopsDevWrite", Measure::WriteIops, 1.0, "IOPS"),
    ("throughputDevRead", Measure::ReadBytesPerS, 1.0, "B/s"),
    ("throughputDevWrite", Measure::WriteBytesPerS, 1.0, "B/s"),
    ("latencyDevRead", Measure::ReadLatencyMs, 0.001, "µs"),
    ("latencyDevWrite", Measure::WriteLatencyMs, 0.001, "µs"),
    ("latencyDevDAvg", Measure::DeviceLatencyMs, 0.001, "µs"),
    ("latencyDevGAvg", Measure::GuestLatencyMs, 0.001, "µs"),
    ("capacity", Measure::CapacityBytes, 1.0, "B"),
    ("capacityUsed", Measure::UsedBytes, 1.0, "B"),
];

/// Looks a vSAN label up in [`VSAN_LABELS`]: (measure, factor, raw unit).
pub fn vsan_label(label: &str) -> Option<(Measure, f64, &'static str)> {
    VSAN_LABELS
        .iter()
        .find(|(l, ..)| *l == label)
        .map(|&(_, m, f, u)| (m, f, u))
}

#[cfg(test)]
mod tests {
    use super::EntityLog;
    use crate::sink::RecordKind;

    /// Of the entity formats, HCIBench alone is a synthetic load, and the four vSAN performance
    /// service exports alone are vSAN data (esxtop and HCIBench are not).
    #[test]
    fn entity_log_kinds_by_format() {
        let entity: Vec<&str> = crate::registry::formats()
            .filter(|f| f.kind == RecordKind::Entities)
            .map(|f| f.id)
            .collect();
        let synthetic: Vec<&str> = entity
            .iter()
            .copied()
            .filter(|&id| EntityLog::new(id).is_synthetic_load())
            .collect();
        assert_eq!(synthetic, ["hcibench"]);
        let mut vsan: Vec<&str> = entity
            .iter()
            .copied()
            .filter(|&id| EntityLog::new(id).is_vsan_performance())
            .collect();
        vsan.sort_unstable();
        assert_eq!(
            vsan,
            ["powercli_csv", "telegraf_vsan", "vsan_json", "vsan_soap"]
        );
    }
}
