//! PowerCLI `Get-VsanStat` output (format id `powercli_csv`): `Export-Csv` files, and the
//! cmdlet's default table view captured as text.
//!
//! # Layouts
//! - **`Get-VsanStat … | Export-Csv`**: columns `Entity`, `Name`, `Time`, `Unit`, `Value` (the
//!   `VsanStatSample` properties, PowerCLI reference; `vsan-formats.md` §4), found by header
//!   **name** (any order and case; other columns are ignored and warned; `Unit` may be absent):
//!   ```text
//!   #TYPE VMware.VimAutomation.Storage.Types.V1.Vsan.Performance.VsanStatSample
//!   "Entity","Name","Time","Unit","Value"
//!   "VSAN-Cluster","VMConsumption.ReadIops","4/21/2017 2:50:00 PM","","120"
//!   ```
//!   The `#TYPE …` line (Windows PowerShell 5.1 without `-NoTypeInformation`) is optional. The
//!   separator is `,`, or `;`/TAB (`-UseCulture`, `-Delimiter`), told from the header line.
//!   Cells may be quoted (`""` inside a quoted cell is one `"`).
//! - **The default table view** (`Get-VsanStat …` printed to the console, `Out-File`,
//!   `Start-Transcript`), as in the corpus `lamw_mapping-vsan-perf-stats-to-powercli-api_README.md`:
//!   ```text
//!   Entity                    Name                      Time                      Value
//!   ------                    ----                      ----                      -----
//!   VSAN-Cluster              VMConsumption.ReadIops    4/21/2017 2:50:00 PM      1
//!   ```
//!   Each header line followed by its `----` line starts a table; cells are cut at the dash
//!   columns (the `Value` column may be right-aligned: it is the last word of the row). A table
//!   ends at the first line without an entity, name and time (a blank line, a prompt, a code
//!   fence); text outside tables is ignored. The view has no `Unit` column, and long names are
//!   cut with `...` (PowerShell 5.1) or `…` (7.x): such a name is matched to the one PowerCLI
//!   name of the mapping below that starts with it, if there is exactly one, and warned.
//!
//! # Records
//! One [`Series`] per (`Entity`, `Name`), in order of first appearance: [`Series::entity`] = the
//! `Entity` cell (the object's name: cluster, host, VM, `Disk group (…)`, `vmnic0`),
//! [`Series::entity_type`] = the view, the part of `Name` before its first `.` (`VMConsumption`,
//! `Backend`, `Performance`, `HostNetwork`, `HostIscsi`, `VirtualDisk`, `Capacity`, …),
//! [`Series::metric`] = `Name` verbatim.
//!
//! `Name` is mapped to the vSAN API label with [`POWERCLI_NAMES`] (built from the lamw table in
//! the corpus: PowerCLI name ↔ vSAN Mgmt API metric), and the label to a [`Measure`] with
//! [`crate::entity::VSAN_LABELS`]. A name not in the table, or one the table makes ambiguous, is
//! kept with `measure: None` and warned.
//!
//! # Units (`Unit` column → factor to [`Measure::unit`])
//! | `Unit` | factor | for measures in |
//! |---|---|---|
//! | `Microseconds` (PowerCLI's latency unit, `vsan-formats.md` §0 \[V\]) | ÷ 1000 | ms |
//! | `Milliseconds`, `Seconds`, `Nanoseconds` | × 1, × 1000, ÷ 10⁶ | ms |
//! | `%`, `Percent`, `Percentage` (\[V\] `%`) | × 1 | % |
//! | `Bytes/s`, `B/s`, `BytesPerSecond`, `Bytes per second` | × 1 | B/s |
//! | `Bytes`, `B` | × 1 | B |
//! | `Iops`, `IOPS`, `Number`, `Count`, `IO/s` | × 1 | IOPS, count |
//! | empty, or no `Unit` column (table view) | the API unit of the label ([`crate::entity::VSAN_LABELS`]: µs → ÷ 1000, B/s, IOPS, …) | any |
//!
//! Any other unit (`KBps`: 1000 or 1024?), or one that does not fit the measure, keeps the series
//! with `measure: None` and a warning. [`Series::raw_unit`] is the `Unit` cell as printed (or the
//! API unit when there is none).
//!
//! # Times and numbers
//! `Time` is a .NET `DateTime` printed in the session's culture, local time (`utc: false`):
//! `4/21/2017 2:50:00 PM` (en-US), `21.04.2017 14:50:00` (de-DE), `21/04/2017 14:50:00`
//! (en-GB, fr-FR), `2017/04/21 14:50:00` (ja-JP), ISO `2017-04-21T14:50:00`. Dates are read by
//! [`crate::disk::resolve_stamps`] over the whole file: a day above 12 tells the order;
//! otherwise [`Options::date_order`] does; otherwise the order whose times run forward in the
//! smallest steps is taken (warned), and month first when both read alike (warned as
//! ambiguous). A time that cannot be read is `None`, warned with its line.
//! `Value` is a .NET `Decimal` printed in the culture: `1.5` or `1,5` (PowerShell prints no
//! thousands separators, so a single comma is a decimal comma); empty → `None`.
//!
//! Text arrives decoded ([`crate::input::decode`]: UTF-8, UTF-16 with BOM — PowerShell's
//! `-Encoding Unicode` and 5.1's `Out-File` default —, windows-1252/ASCII).
//!
//! # Errors
//! A CSV row with fewer or more cells than the header, an unterminated quote, or a `Value` that
//! is not a number: an error naming the line. No data row at all: an error saying the file holds
//! no vSAN statistics. A table-view row whose value is not a number is counted in
//! [`EntityLog::skipped`].
//!
//! ```
//! let csv = "#TYPE VMware.VimAutomation.Storage.Types.V1.Vsan.Performance.VsanStatSample\n\
//!   \"Entity\";\"Name\";\"Time\";\"Unit\";\"Value\"\n\
//!   \"VSAN-Cluster\";\"Backend.AverageWriteLatency\";\"13.03.2024 10:05:00\";\"Microseconds\";\"1875,5\"\n";
//! let log = sizer_parsers::vsan::powercli::parse(csv).unwrap();
//! let s = &log.series[0];
//! assert_eq!((s.entity_type.as_str(), s.entity.as_str()), ("Backend", "VSAN-Cluster"));
//! assert_eq!(s.values, vec![Some(1.8755)]);
//! assert_eq!(s.times[0].unwrap().to_string(), "2024-03-13 10:05:00");
//! ```
//!
//! [`Series`]: crate::entity::Series
//! [`Series::entity`]: crate::entity::Series::entity
//! [`Series::entity_type`]: crate::entity::Series::entity_type
//! [`Series::metric`]: crate::entity::Series::metric
//! [`Series::raw_unit`]: crate::entity::Series::raw_unit

use std::collections::HashMap;

use chrono::NaiveDateTime;

use super::{head, Notes};
use crate::disk::{resolve_stamps, DateOrder, Stamp};
use crate::entity::{vsan_label, EntityLog, Measure, Series, SkippedLine};
use crate::error::ParseError;

/// Section name used in errors.
const SECTION: &str = "PowerCLI Get-VsanStat export";

/// Parse options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// How to read slash dates that fit both orders (`04/05/2017`): the session culture's
    /// order. `None`: decided from the file (see the module doc).
    pub date_order: Option<DateOrder>,
}

/// PowerCLI metric names (`View.Metric`) and the vSAN API label each one reads, from the lamw
/// table (corpus `lamw_mapping-vsan-perf-stats-to-powercli-api_README.md`). An empty label marks
/// a name the table makes ambiguous, which is kept unnormalised:
/// - `Performance.ReadCacheWriteIops` is listed both for disk-group *Frontend Read IOPS*
///   (`iopsRead`) and *Read Cache Write IOPS* (`iopsRcWrite`);
/// - `Performance.WriteBufferReadIops` for *Frontend Write IOPS* (`iopsWrite`) although its
///   name says write-buffer reads (`iopsWbRead`);
/// - `Performance.ReadCacheReadIops`, `Performance.WriteBufferWriteIops`,
///   `Performance.ReadCacheReadLatency` both for disk-group cache metrics and for capacity-disk
///   vSAN-layer metrics;
/// - `VirtualDisk.NormalizedIopsRead/Write`, `VirtualDisk.NormalizedIopsDelayedRead/Write` for
///   vscsi `iopsRead`/`iopsWrite`/`throughputRead`/`throughputWrite`, which their names
///   contradict.
///
/// lamw's typo `VMConsumption.WriteIop` is read as `VMConsumption.WriteIops` (the host view's
/// spelling); `Performance.WriteBufferEriteLatency` is kept as lamw prints it.
pub const POWERCLI_NAMES: &[(&str, &str)] = &[
    // Cluster / host: vSAN Virtual Machine Consumption (cluster-domclient, host-domclient).
    ("VMConsumption.ReadIops", "iopsRead"),
    ("VMConsumption.WriteIops", "iopsWrite"),
    ("VMConsumption.ReadThroughput", "throughputRead"),
    ("VMConsumption.WriteThroughput", "throughputWrite"),
    ("VMConsumption.AverageReadLatency", "latencyAvgRead"),
    ("VMConsumption.AverageWriteLatency", "latencyAvgWrite"),
    ("VMConsumption.Congestion", "congestion"),
    ("VMConsumption.OutstandingIO", "oio"),
    ("VMConsumption.ClientCacheHitsIops", "clientCacheHits"),
    ("VMConsumption.ClientCacheHitRate", "clientCacheHitRate"),
    // Cluster / host: vSAN Backend (cluster-domcompmgr, host-domcompmgr).
    ("Backend.ReadIops", "iopsRead"),
    ("Backend.ResyncReadIops", "iopsResyncRead"),
    ("Backend.WriteIops", "iopsWrite"),
    ("Backend.RecoveryWriteIops", "iopsRecWrite"),
    ("Backend.ReadThroughput", "throughputRead"),
    ("Backend.ResyncReadThroughput", "tputResyncRead"),
    ("Backend.WriteThroughput", "throughputWrite"),
    ("Backend.RecoveryWriteThroughput", "throughputRecWrite"),
    ("Backend.AverageReadLatency", "latencyAvgRead"),
    ("Backend.ResyncReadLatency", "latAvgResyncRead"),
    ("Backend.AverageWriteLatency", "latencyAvgWrite"),
    ("Backend.RecoveryWriteAverageLatency", "latencyAvgRecWrite"),
    ("Backend.Congestion", "congestion"),
    ("Backend.OutstandingIO", "oio"),
    // VM (virtual-machine), iSCSI target / LUN (vsan-iscsi-target, vsan-iscsi-lun).
    ("Performance.ReadIops", "iopsRead"),
    ("Performance.WriteIops", "iopsWrite"),
    ("Performance.TotalIops", "iopsTotal"),
    ("Performance.ReadBandwidth", "bandwidthRead"),
    ("Performance.WriteBandwidth", "bandwidthWrite"),
    ("Performance.TotalBandwidth", "bandwidthTotal"),
    ("Performance.ReadLatency", "latencyRead"),
    ("Performance.WriteLatency", "latencyWrite"),
    ("Performance.TotalLatency", "latencyTotal"),
    ("Performance.IscsiOutstandingIO", "queueDepth"),
    // Host iSCSI (vsan-iscsi-host).
    ("HostIscsi.ReadIops", "iopsRead"),
    ("HostIscsi.WriteIops", "iopsWrite"),
    ("HostIscsi.TotalIops", "iopsTotal"),
    ("HostIscsi.ReadBandwidth", "bandwidthRead"),
    ("HostIscsi.WriteBandwidth", "bandwidthWrite"),
    ("HostIscsi.TotalBandwidth", "bandwidthTotal"),
    ("HostIscsi.ReadLatency", "latencyRead"),
    ("HostIscsi.WriteLatency", "latencyWrite"),
    ("HostIscsi.TotalLatency", "latencyTotal"),
    ("HostIscsi.IscsiOutstandingIO", "queueDepth"),
    // Host: vSAN Diskgroup (disk-group).
    ("Performance.ReadCacheWriteIops", ""),
    ("Performance.WriteBufferReadIops", ""),
    ("Performance.ReadCacheReadIops", ""),
    ("Performance.WriteBufferWriteIops", ""),
    ("Performance.ReadThroughput", "throughputRead"),
    ("Performance.WriteThroughput", "throughputWrite"),
    ("Performance.AverageReadLatency", "latencyAvgRead"),
    ("Performance.AverageWriteLatency", "latencyAvgWrite"),
    ("Performance.ReadCacheReadLatency", ""),
    ("Performance.WriteBufferWriteLatency", "latencyWbWrite"),
    ("Performance.ReadCacheWriteLatency", "latencyRcWrite"),
    ("Performance.WriteBufferReadLatency", "latencyWbRead"),
    ("Performance.ReadCacheHitRate", "rcHitRate"),
    ("Performance.CacheInvalidations", "warEvictions"),
    ("Performance.Evictions", "quotaEvictions"),
    ("Performance.WriteBufferFreePercentage", "wbFreePct"),
    ("Performance.Capacity", "capacity"),
    ("Performance.UsedCapacity", "capacityUsed"),
    ("Performance.CapacityReserved", "capacityReserved"),
    ("Performance.ReadCacheSize", "rcSize"),
    ("Performance.WriteBufferSize", "wbSize"),
    ("Performance.DrainedSsdBytes", "ssdBytesDrained"),
    ("Performance.ZeroBytesDrained", "zeroBytesDrained"),
    ("Performance.MemoryCongestion", "memCongestion"),
    ("Performance.SlabCongestion", "slabCongestion"),
    ("Performance.SsdCongestion", "ssdCongestion"),
    ("Performance.IopsCongestion", "iopsCongestion"),
    ("Performance.LogCongestion", "logCongestion"),
    ("Performance.CompCongestion", "compCongestion"),
    ("Performance.WriteOutStandingIO", "oioWrite"),
    ("Performance.RecoveryWriteOutstandingIO", "oioRecWrite"),
    ("Performance.OutstandingIOWriteSize", "oioWriteSize"),
    (
        "Performance.OutstandingRecoveryWriteIOSize",
        "oioRecWriteSize",
    ),
    ("Performance.DelayedIOPercentage", "iopsDelayPctSched"),
    ("Performance.DelayedIOAverageLatency", "latencyDelaySched"),
    ("Performance.QueueLatency", "latencySchedQueueNS"),
    ("Performance.RecoveryQueueLatency", "latencySchedQueueRec"),
    ("Performance.VMQueueLatency", "latencySchedQueueVM"),
    ("Performance.MetaQueueLatency", "latencySchedQueueMeta"),
    ("Performance.DelayedIops", "iopsSched"),
    ("Performance.NamespaceQueueIops", "iopsSchedQueueNS"),
    ("Performance.RecoveryQueueIops", "iopsSchedQueueRec"),
    ("Performance.VMQueueIops", "iopsSchedQueueVM"),
    ("Performance.MetaQueueIops", "iopsSchedQueueMeta"),
    ("Performance.QueueThroughput", "throughputSched"),
    (
        "Performance.RecoveryQueueThroughput",
        "throughputSchedQueueRec",
    ),
    ("Performance.VMQueueThroughput", "throughputSchedQueueVM"),
    (
        "Performance.MetaQueueThroughput",
        "throughputSchedQueueMeta",
    ),
    ("Performance.PolicyChangeReadIops", "iopsResyncReadPolicy"),
    ("Performance.EvacuationReadIops", "iopsResyncReadDecom"),
    ("Performance.RebalanceReadIops", "iopsResyncReadRebalance"),
    ("Performance.RepairReadIops", "iopsResyncReadFixComp"),
    ("Performance.PolicyChangeWriteIops", "iopsResyncWritePolicy"),
    ("Performance.EvacuationWriteIops", "iopsResyncWriteDecom"),
    ("Performance.RebalanceWriteIops", "iopsResyncWriteRebalance"),
    ("Performance.RepairWriteIops", "iopsResyncWriteFixComp"),
    (
        "Performance.PolicyChangeReadThroughput",
        "tputResyncReadPolicy",
    ),
    (
        "Performance.EvacuationReadThroughput",
        "tputResyncReadDecom",
    ),
    (
        "Performance.RebalanceReadThroughput",
        "tputResyncReadRebalance",
    ),
    ("Performance.RepairReadThroughput", "tputResyncReadFixComp"),
    (
        "Performance.PolicyChangeWriteThroughput",
        "tputResyncWritePolicy",
    ),
    (
        "Performance.EvacuationWriteThroughput",
        "tputResyncWriteDecom",
    ),
    (
        "Performance.RebalanceWriteThroughput",
        "tputResyncWriteRebalance",
    ),
    (
        "Performance.RepairWriteThroughput",
        "tputResyncWriteFixComp",
    ),
    ("Performance.PolicyChangeReadLatency", "latResyncReadPolicy"),
    ("Performance.EvacuationReadLatency", "latResyncReadDecom"),
    ("Performance.RebalanceReadLatency", "latResyncReadRebalance"),
    ("Performance.RepairReadLatency", "latResyncReadFixComp"),
    (
        "Performance.PolicyChangeWriteLatency",
        "latResyncWritePolicy",
    ),
    ("Performance.EvacuationWriteLatency", "latResyncWriteDecom"),
    (
        "Performance.RebalanceWriteLatency",
        "latResyncWriteRebalance",
    ),
    ("Performance.RepairWriteLatency", "latResyncWriteFixComp"),
    // Host: vSAN Disk (cache-disk, capacity-disk).
    ("Performance.DeviceReadIops", "iopsDevRead"),
    ("Performance.DeviceWriteIops", "iopsDevWrite"),
    ("Performance.DeviceThroughputRead", "throughputDevRead"),
    (
        "Performance.PhysicalLayerWriteThroughput",
        "throughputDevWrite",
    ),
    ("Performance.PhysicalLayerReadLatency", "latencyDevRead"),
    ("Performance.PhysicalLayerWriteLatency", "latencyDevWrite"),
    ("Performance.GuestAverageLatency", "latencyDevGAvg"),
    ("Performance.DeviceAverageLatency", "latencyDevDAvg"),
    ("Performance.WriteBufferEriteLatency", "latencyWrite"),
    // Host: physical / VMkernel adapters (vsan-pnic-net, vsan-vnic-net), and their aggregation
    // (vsan-host-net).
    ("Performance.NetworkInboundThroughput", "rxThroughput"),
    ("Performance.NetworkOutboundThroughput", "txThroughput"),
    ("Performance.NetworkInboundPacketsPerSecond", "rxPackets"),
    ("Performance.NetworkOutboundPacketsPerSecond", "txPackets"),
    (
        "Performance.NetworkInboundPacketsLossRate",
        "rxPacketsLossRate",
    ),
    (
        "Performance.NetworkOutboundPacketsLossRate",
        "txPacketsLossRate",
    ),
    ("HostNetwork.NetworkInboundThroughput", "rxThroughput"),
    ("HostNetwork.NetworkOutboundThroughput", "txThroughput"),
    ("HostNetwork.NetworkInboundPacketsPerSecond", "rxPackets"),
    ("HostNetwork.NetworkOutboundPacketsPerSecond", "txPackets"),
    (
        "HostNetwork.NetworkInboundPacketsLossRate",
        "rxPacketsLossRate",
    ),
    (
        "HostNetwork.NetworkOutboundPacketsLossRate",
        "txPacketsLossRate",
    ),
    // VM: vSAN Virtual Disk (virtual-disk, vscsi).
    ("VirtualDisk.IopsLimit", "iopsLimit"),
    ("VirtualDisk.NormalizedIops", "NIOPS"),
    ("VirtualDisk.DelayedNormalizedIops", "NIOPSDelayed"),
    ("VirtualDisk.NormalizedIopsRead", ""),
    ("VirtualDisk.NormalizedIopsWrite", ""),
    ("VirtualDisk.NormalizedIopsDelayedRead", ""),
    ("VirtualDisk.NormalizedIopsDelayedWrite", ""),
];

/// The API label of a PowerCLI name: `Some("")` when ambiguous, `None` when not in the table.
pub fn api_label(name: &str) -> Option<&'static str> {
    POWERCLI_NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, l)| *l)
}

/// A `Get-VsanStat` CSV header (after an optional `#TYPE` line) or a table-view header with its
/// dash line, in the first 64 KiB.
pub fn looks_like(text: &str) -> bool {
    let h = head(text);
    csv_header(h).is_some() || table_headers(h).next().is_some()
}

/// Parses with default [`Options`].
///
/// # Errors
/// See the module doc.
pub fn parse(text: &str) -> Result<EntityLog, ParseError> {
    parse_with(text, Options::default())
}

/// Parses with the given [`Options`].
///
/// # Errors
/// See the module doc.
pub fn parse_with(text: &str, opts: Options) -> Result<EntityLog, ParseError> {
    let rows = match csv_header(text) {
        Some(h) => csv_rows(text, h)?,
        None => table_rows(text)?,
    };
    build(rows, opts)
}

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

/// One sample as printed.
#[derive(Debug)]
struct Row {
    line: usize,
    entity: String,
    name: String,
    time: String,
    unit: Option<String>,
    value: Option<f64>,
}

struct Rows {
    rows: Vec<Row>,
    skipped: Vec<SkippedLine>,
    warnings: Vec<String>,
    /// The layout has a `Unit` column.
    has_unit: bool,
}

/// The CSV header: (0-based line index, separator, column names).
struct CsvHeader {
    index: usize,
    sep: char,
    names: Vec<String>,
}

fn csv_header(text: &str) -> Option<CsvHeader> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (mut i, mut l) = lines.next()?;
    let l0 = l.trim_start_matches('\u{feff}').trim();
    if l0.starts_with('#') {
        (i, l) = lines.next()?;
    }
    let l = l.trim_start_matches('\u{feff}');
    let sep = [',', ';', '\t']
        .into_iter()
        .max_by_key(|&c| count_outside_quotes(l, c))?;
    if count_outside_quotes(l, sep) < 3 {
        return None;
    }
    let names: Vec<String> = split_cells(l, sep)
        .ok()?
        .into_iter()
        .map(|s| s.trim().to_string())
        .collect();
    let has = |n: &str| names.iter().any(|x| x.eq_ignore_ascii_case(n));
    (has("Entity") && has("Name") && has("Time") && has("Value")).then_some(CsvHeader {
        index: i,
        sep,
        names,
    })
}

fn count_outside_quotes(l: &str, sep: char) -> usize {
    let mut q = false;
    l.chars()
        .filter(|&c| {
            if c == '"' {
                q = !q;
            }
            !q && c == sep
        })
        .count()
}

/// Splits one CSV line; `Err` on an unterminated quote.
fn split_cells(l: &str, sep: char) -> Result<Vec<String>, ()> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = l.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    cur.push('"');
                } else {
                    quoted = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == sep {
            out.push(std::mem::take(&mut cur));
            at_start = true;
            continue;
        } else if c == '"' && at_start && cur.trim().is_empty() {
            cur.clear();
            quoted = true;
        } else {
            cur.push(c);
        }
        at_start = false;
    }
    if quoted {
        return Err(());
    }
    out.push(cur);
    Ok(out)
}

/// A `Value` cell: `None` when empty; `1.5` or `1,5` (a single comma is a decimal comma).
fn value_cell(s: &str) -> Result<Option<f64>, ()> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    let owned;
    let s = if s.contains(',') {
        if s.contains('.') || s.matches(',').count() > 1 {
            return Err(());
        }
        owned = s.replace(',', ".");
        owned.as_str()
    } else {
        s
    };
    s.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(Some)
        .ok_or(())
}

fn csv_rows(text: &str, h: CsvHeader) -> Result<Rows, ParseError> {
    let col = |n: &str| h.names.iter().position(|x| x.eq_ignore_ascii_case(n));
    let (ce, cn, ct, cv) = (
        col("Entity").unwrap_or(0),
        col("Name").unwrap_or(0),
        col("Time").unwrap_or(0),
        col("Value").unwrap_or(0),
    );
    let cu = col("Unit");
    let mut out = Rows {
        rows: Vec::new(),
        skipped: Vec::new(),
        warnings: Vec::new(),
        has_unit: cu.is_some(),
    };
    let extra: Vec<&str> = h
        .names
        .iter()
        .filter(|n| {
            !["Entity", "Name", "Time", "Unit", "Value"]
                .iter()
                .any(|k| k.eq_ignore_ascii_case(n))
        })
        .map(String::as_str)
        .collect();
    if !extra.is_empty() {
        out.warnings.push(format!(
            "columns ignored (not Get-VsanStat properties): {}",
            extra.join(", ")
        ));
    }
    let expected = h.names.join(&h.sep.to_string());
    for (i, l) in text.lines().enumerate().skip(h.index + 1) {
        let lineno = i + 1;
        if l.trim().is_empty() {
            continue;
        }
        let cells = split_cells(l, h.sep).map_err(|_| {
            ParseError::section(
                SECTION,
                Some(lineno),
                "a closing `\"` on the same line",
                "an unterminated quoted cell".to_string(),
            )
        })?;
        if cells.len() != h.names.len() {
            return Err(ParseError::section(
                SECTION,
                Some(lineno),
                format!("{} cells ({expected})", h.names.len()),
                format!("{} cells: `{}`", cells.len(), l.trim()),
            ));
        }
        let value = value_cell(&cells[cv]).map_err(|_| {
            ParseError::section(
                SECTION,
                Some(lineno),
                "a number in the Value column",
                format!("`{}`", cells[cv].trim()),
            )
        })?;
        out.rows.push(Row {
            line: lineno,
            entity: cells[ce].trim().to_string(),
            name: cells[cn].trim().to_string(),
            time: cells[ct].trim().to_string(),
            unit: cu.map(|c| cells[c].trim().to_string()),
            value,
        });
    }
    Ok(out)
}

/// Table-view headers: (0-based line index of the header, columns as (name, start byte)).
fn table_headers(text: &str) -> impl Iterator<Item = (usize, Vec<(String, usize)>)> + '_ {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len().saturating_sub(1)).filter_map(move |i| {
        let (h, d) = (lines[i], lines[i + 1]);
        let dt = d.trim();
        if dt.is_empty() || !dt.chars().all(|c| c == '-' || c == ' ') {
            return None;
        }
        // Dash runs.
        let mut runs = Vec::new();
        let mut start = None;
        for (j, c) in d.char_indices() {
            match (c == '-', start) {
                (true, None) => start = Some(j),
                (false, Some(s)) => {
                    runs.push((s, j));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            runs.push((s, d.len()));
        }
        let cols: Vec<(String, usize)> = runs
            .iter()
            .map(|&(s, e)| (h.get(s..e.min(h.len())).unwrap_or("").trim().to_string(), s))
            .collect();
        let has = |n: &str| cols.iter().any(|(x, _)| x.eq_ignore_ascii_case(n));
        (has("Entity") && has("Name") && has("Time") && has("Value")).then_some((i, cols))
    })
}

fn truncated(s: &str) -> bool {
    s.ends_with("...") || s.ends_with('…')
}

fn table_rows(text: &str) -> Result<Rows, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Rows {
        rows: Vec::new(),
        skipped: Vec::new(),
        warnings: Vec::new(),
        has_unit: false,
    };
    let mut cut = false;
    for (hi, cols) in table_headers(text) {
        let pos = |n: &str| cols.iter().position(|(x, _)| x.eq_ignore_ascii_case(n));
        let (ce, cn, ct, cv) = (
            pos("Entity").unwrap_or(0),
            pos("Name").unwrap_or(0),
            pos("Time").unwrap_or(0),
            pos("Value").unwrap_or(0),
        );
        let cu = pos("Unit");
        out.has_unit |= cu.is_some();
        let last = cols.len() - 1;
        for (li, l) in lines.iter().enumerate().skip(hi + 2) {
            // Cells cut at the dash columns; the last column (right-aligned numbers may start
            // left of its dashes) is the last word of the line.
            let lt = l.trim_end();
            // Column positions count characters (the dash line is ASCII; a row may not be).
            let (body, tail) = match lt.rfind(char::is_whitespace) {
                Some(k)
                    if lt[..k].chars().count() + 1 >= cols[last].1.saturating_sub(4)
                        && last == cv =>
                {
                    (&lt[..k], lt[k..].trim())
                }
                _ => (lt, ""),
            };
            let at = |c: usize| body.char_indices().nth(c).map_or(body.len(), |(b, _)| b);
            let cell = |c: usize| -> &str {
                if c == last && last == cv {
                    return tail;
                }
                let s = at(cols[c].1);
                let e = cols.get(c + 1).map_or(body.len(), |x| at(x.1));
                if s >= e {
                    return "";
                }
                body[s..e].trim()
            };
            let (entity, name, time) = (cell(ce), cell(cn), cell(ct));
            if entity.is_empty() || name.is_empty() || time.is_empty() || l.starts_with("```") {
                break;
            }
            cut |= truncated(entity) || truncated(name);
            match value_cell(cell(cv)) {
                Ok(value) => out.rows.push(Row {
                    line: li + 1,
                    entity: entity.to_string(),
                    name: name.to_string(),
                    time: time.to_string(),
                    unit: cu.map(|c| cell(c).to_string()),
                    value,
                }),
                Err(()) => out.skipped.push(SkippedLine {
                    line: li + 1,
                    reason: format!("Value `{}` is not a number", cell(cv)),
                }),
            }
        }
    }
    if cut {
        out.warnings.push(
            "names cut short by the console's table view (`...`): entities are kept as printed \
             and metric names matched by prefix; export with Export-Csv for full names"
                .to_string(),
        );
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Series
// ---------------------------------------------------------------------------------------------

/// Factor from a printed `Unit` to the measure's unit, or `None` when the unit is not understood
/// or does not fit the measure.
fn unit_factor(measure: Measure, unit: &str) -> Option<f64> {
    let u: String = unit
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let target = measure.unit();
    let f = match u.as_str() {
        "microseconds" | "microsecond" | "us" | "µs" => ("ms", 0.001),
        "milliseconds" | "millisecond" | "ms" => ("ms", 1.0),
        "seconds" | "second" | "s" => ("ms", 1000.0),
        "nanoseconds" | "nanosecond" | "ns" => ("ms", 1e-6),
        "%" | "percent" | "percentage" => ("%", 1.0),
        "bytes/s" | "b/s" | "bytespersecond" | "bytes/sec" | "bytes/second" => ("B/s", 1.0),
        "bytes" | "byte" | "b" => ("B", 1.0),
        "iops" | "io/s" | "number" | "count" => {
            return (target == "IOPS" || target == "count").then_some(1.0)
        }
        _ => return None,
    };
    (f.0 == target).then_some(f.1)
}

fn build(rows: Rows, opts: Options) -> Result<EntityLog, ParseError> {
    let mut log = EntityLog::new("powercli_csv");
    for w in rows.warnings {
        log.warn(w);
    }
    log.skipped = rows.skipped;
    if rows.rows.is_empty() {
        return Err(super::no_data(
            SECTION,
            "Get-VsanStat rows (Entity, Name, Time, Value)",
        ));
    }
    // Times: the whole file decides the date order.
    let stamps: Vec<Stamp> = rows
        .rows
        .iter()
        .map(|r| Stamp {
            timestamp: (!r.time.is_empty()).then_some(r.time.as_str()),
            time: None,
            summary: false,
            line: r.line,
        })
        .collect();
    let t = resolve_stamps(None, &stamps, opts.date_order);
    if t.ambiguous {
        log.warn(
            "every date reads both month-first and day-first: read month first (en-US); set \
             the session culture's date order if it was day-first",
        );
    } else if t.inferred {
        log.warn(format!(
            "dates fit both orders: read {} because the times then run forward in the \
             smallest steps",
            match t.order {
                Some(DateOrder::Dmy) => "day first",
                _ => "month first",
            }
        ));
    }
    if let Some((line, text)) = t.unreadable.first() {
        log.warn(format!(
            "{} time(s) cannot be read (first: line {line}, `{text}`): kept as missing times",
            t.unreadable.len()
        ));
    }
    let times: Vec<Option<NaiveDateTime>> = t.times;

    let mut notes = Notes::default();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    // Per series: the factor, decided on its first row.
    let mut factors: Vec<f64> = Vec::new();
    for (r, time) in rows.rows.iter().zip(times) {
        let key = (r.entity.clone(), r.name.clone());
        let i = match index.get(&key) {
            Some(&i) => i,
            None => {
                let (measure, factor, raw_unit) = resolve_measure(r, rows.has_unit, &mut log);
                if measure.is_none() {
                    notes.kept(view(&r.name), &r.name);
                }
                index.insert(key, log.series.len());
                factors.push(factor);
                log.series.push(Series {
                    entity_type: view(&r.name).to_string(),
                    entity: r.entity.clone(),
                    host: None,
                    metric: r.name.clone(),
                    measure,
                    raw_unit,
                    values: Vec::new(),
                    times: Vec::new(),
                    utc: false,
                    interval_s: None,
                });
                log.series.len() - 1
            }
        };
        let s = &mut log.series[i];
        s.values.push(r.value.map(|v| v * factors[i]));
        s.times.push(time);
    }
    notes.finish(&mut log);
    Ok(log)
}

/// The view of a PowerCLI name: the part before its first `.`.
fn view(name: &str) -> &str {
    name.split_once('.').map_or(name, |(v, _)| v)
}

/// (measure, factor, raw unit) of a series, from its first row.
fn resolve_measure(r: &Row, has_unit: bool, log: &mut EntityLog) -> (Option<Measure>, f64, String) {
    let label = if truncated(&r.name) {
        let p = r.name.trim_end_matches('…').trim_end_matches("...");
        let hits: Vec<&(&str, &str)> = POWERCLI_NAMES
            .iter()
            .filter(|(n, _)| n.len() >= p.len() && n[..p.len()].eq_ignore_ascii_case(p))
            .collect();
        match hits.as_slice() {
            [(_, l)] => Some(*l),
            [] => None,
            _ => {
                log.warn(format!(
                    "`{}` matches {} PowerCLI names: kept unnormalised",
                    r.name,
                    hits.len()
                ));
                Some("")
            }
        }
    } else {
        api_label(&r.name)
    };
    let api = label.filter(|l| !l.is_empty()).and_then(vsan_label);
    let printed = r.unit.as_deref().map(str::trim).unwrap_or("");
    let Some((m, api_factor, api_unit)) = api else {
        return (None, 1.0, printed.to_string());
    };
    if !has_unit || printed.is_empty() {
        return (Some(m), api_factor, api_unit.to_string());
    }
    match unit_factor(m, printed) {
        Some(f) => (Some(m), f, printed.to_string()),
        None => {
            log.warn(format!(
                "`{}`: unit `{printed}` is not understood for {} (in {}): kept unnormalised",
                r.name,
                m.unit(),
                label.unwrap_or("")
            ));
            (None, 1.0, printed.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells() {
        assert_eq!(
            split_cells(r#""a","b ""c""",,"d,e""#, ',').unwrap(),
            vec!["a", "b \"c\"", "", "d,e"]
        );
        assert!(split_cells(r#""a,b"#, ',').is_err());
        assert_eq!(split_cells("a;b", ';').unwrap(), vec!["a", "b"]);
    }

    #[test]
    fn values() {
        assert_eq!(value_cell("1,5"), Ok(Some(1.5)));
        assert_eq!(value_cell("1.5"), Ok(Some(1.5)));
        assert_eq!(value_cell(""), Ok(None));
        assert!(value_cell("1.234,5").is_err());
        assert!(value_cell("abc").is_err());
    }

    #[test]
    fn units() {
        assert_eq!(
            unit_factor(Measure::ReadLatencyMs, "Microseconds"),
            Some(0.001)
        );
        assert_eq!(unit_factor(Measure::ReadCacheHitPct, "%"), Some(1.0));
        assert_eq!(unit_factor(Measure::ReadIops, "%"), None);
        assert_eq!(unit_factor(Measure::ReadBytesPerS, "KBps"), None);
        assert_eq!(unit_factor(Measure::ReadIops, "Number"), Some(1.0));
    }

    #[test]
    fn names_are_unique() {
        for (i, (a, _)) in POWERCLI_NAMES.iter().enumerate() {
            for (b, _) in &POWERCLI_NAMES[i + 1..] {
                assert!(!a.eq_ignore_ascii_case(b), "{a} twice");
            }
        }
    }
}
