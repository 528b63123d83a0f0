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
//! [`Measure`]: crate::entity::Measure
//! [`Measure::unit`]: crate::entity::Measure::unit
//!
//! # Module layout
//! Flow: [`parse_with`] (a whole text) and [`parse_reader`] (a reader) run one parser body over
//! the lines, one at a time. It tells the layout from the first lines: a CSV header (`csv`:
//! separator, quoted cells, columns by name) or else the console table view (`console`: header
//! and dash lines, cells cut at the dash columns). Either gives each row as printed to `series`,
//! which puts its value into the series of its (`Entity`, `Name`) (mapping names and units to
//! measures on a series' first row) and reads the times at the end of the file.
//! This file holds the options, the PowerCLI name table and the row type both layouts share.
//!
//! # Streaming
//! The format streams (the registry's `parse_stream` calls [`parse_reader`]). It keeps the
//! series' values, each distinct `Time` text once, and per row its series, `Time` and line
//! (three integers): the date order is decided by the whole file (see above), so the times are
//! read, and the one [`EntityLog`] handed over, at the end. It never keeps the lines, but for the
//! previous line of a table view (a header is told by the dash line under it) and, in the odd
//! table view where a header follows a table without a blank line, the rows of the later table
//! until the earlier one ends.

mod console;
mod csv;
mod series;

use super::head;
use crate::disk::DateOrder;
use crate::entity::EntityLog;
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
    csv::csv_header(h).is_some() || console::table_headers(h).next().is_some()
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
    parse_lines(crate::lines::text_lines(text), opts)
}

/// Reads from `src` line by line (see `lines::with_stream_lines` for the decoding),
/// with default [`Options`]: the same [`EntityLog`] as [`parse`] of the decoded whole text.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else as [`parse`].
pub fn parse_reader(src: &mut dyn std::io::BufRead) -> Result<EntityLog, ParseError> {
    crate::lines::with_stream_lines(src, |lines| parse_lines(lines, Options::default()))
}

/// A line without the CR of a CRLF line end.
fn trim_cr(l: &str) -> &str {
    l.strip_suffix('\r').unwrap_or(l)
}

/// The layout, once told from the first lines.
enum Layout {
    Csv(csv::CsvRows),
    Console(console::Tables),
}

/// The one parser body of [`parse_with`] and [`parse_reader`], over the lines of `split('\n')`.
/// The layout is told from the first line that is not blank (or the next one after a `#TYPE`
/// line): a CSV header, or else the table view, which is then given the lines read so far.
fn parse_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
    opts: Options,
) -> Result<EntityLog, ParseError> {
    let mut b = series::Builder::new(opts);
    let mut layout: Option<Layout> = None;
    // Lines read before the layout is known: blank ones and a `#TYPE` line.
    let mut before: Vec<(usize, L)> = Vec::new();
    let mut type_line = false;
    for (i, line) in lines.enumerate() {
        let line = line?;
        let l = trim_cr(line.as_ref());
        match &mut layout {
            Some(Layout::Csv(rows)) => rows.line(i + 1, l, &mut b)?,
            Some(Layout::Console(tables)) => tables.line(i + 1, l, &mut b),
            None if l.trim().is_empty() => before.push((i, line)),
            None if !type_line && csv::is_type_line(l) => {
                type_line = true;
                before.push((i, line));
            }
            None => match csv::header_of(l) {
                Some(h) => layout = Some(Layout::Csv(csv::CsvRows::new(h, &mut b))),
                None => {
                    let mut tables = console::Tables::default();
                    for (j, p) in before.drain(..) {
                        tables.line(j + 1, trim_cr(p.as_ref()), &mut b);
                    }
                    tables.line(i + 1, l, &mut b);
                    layout = Some(Layout::Console(tables));
                }
            },
        }
        if layout.is_some() && !before.is_empty() {
            before.clear();
        }
    }
    match layout {
        Some(Layout::Csv(_)) => {}
        Some(Layout::Console(tables)) => tables.finish(&mut b),
        None => {
            let mut tables = console::Tables::default();
            for (j, p) in before.drain(..) {
                tables.line(j + 1, trim_cr(p.as_ref()), &mut b);
            }
            tables.finish(&mut b);
        }
    }
    b.finish()
}

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

/// A `Value` cell: `None` when empty; `1.5` or `1,5` (a single comma is a decimal comma), as
/// [`crate::num::point_or_comma`] reads it.
fn value_cell(s: &str) -> Result<Option<f64>, ()> {
    crate::num::point_or_comma(s).map_err(|_| ())
}

/// A name cut by the table view (`...` in PowerShell 5.1, `…` in 7.x).
fn truncated(s: &str) -> bool {
    s.ends_with("...") || s.ends_with('…')
}

#[cfg(test)]
mod tests {
    use super::csv::split_cells;
    use super::series::unit_factor;
    use super::*;
    use crate::entity::Measure;

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
