//! Oracle AWR reports: the typed records every AWR/Statspack parser produces.
//!
//! The records keep the report's own labels verbatim (AWR statistic names such as
//! `physical read total IO requests`, Load Profile labels such as `Read IO requests`) and its
//! units, converted only where the report prints mixed units:
//! - durations → milliseconds (12c+ prints `152.25us`, `3.23ms`, `52.86 s`; 11g prints integer ms);
//! - IOStat `Data` columns → bytes (AWR prints MiB-based values with `M/G/T` suffixes in multiples
//!   of 1024; a bare number in a `Data` or `MB` column is MiB);
//! - counts with `K/M/G` suffixes → plain numbers (multiples of 1000).
//!
//! A value the report does not print is `None`, never 0.

mod histogram;
pub mod html;
pub mod statspack;
pub mod text;

use chrono::NaiveDateTime;
use serde::Serialize;

/// Which AWR report this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportKind {
    /// `awrrpt.sql`: one instance ("WORKLOAD REPOSITORY report for").
    Instance,
    /// `awrgrpt.sql`: a RAC database, cluster-wide ("WORKLOAD REPOSITORY REPORT (RAC)").
    RacGlobal,
    /// A PDB-level report ("WORKLOAD REPOSITORY PDB report").
    Pdb,
}

/// Database identity and configuration (the header tables).
#[derive(Debug, Clone, Default, Serialize)]
pub struct DbInfo {
    /// `DB Name`.
    pub db_name: String,
    /// `DB Id`.
    pub db_id: u64,
    /// `Unique Name` (12.2+).
    pub unique_name: Option<String>,
    /// `Role` (12.2+), e.g. `PRIMARY`.
    pub role: Option<String>,
    /// `Edition` (12.2+), e.g. `EE`.
    pub edition: Option<String>,
    /// `Release`, e.g. `11.2.0.4.0`.
    pub release: String,
    /// `RAC` column: `YES` → true.
    pub rac: Option<bool>,
    /// `CDB` column (12.1+).
    pub cdb: Option<bool>,
    /// For PDB reports: the container (PDB) id and name from "pdb instance information".
    pub containers: Vec<(u64, String)>,
    /// The database's allocated size where the source prints it (AWR reports do not): AWR
    /// Miner / DBCSI `SIZE-ON-DISK` `SIZE_GB` of its last snapshot (`sum(tablespace_size ×
    /// block_size)/1024/1024/1024`, so GiB), with that snapshot id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_on_disk: Option<SizeOnDisk>,
}

/// A database size read from its source (see [`DbInfo::size_on_disk`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SizeOnDisk {
    /// Size, GiB (2^30 bytes).
    pub gib: f64,
    /// The snapshot it was measured at.
    pub snap_id: u64,
}

/// One database instance covered by the report.
#[derive(Debug, Clone, Default, Serialize)]
pub struct InstanceInfo {
    /// `Instance` name.
    pub name: String,
    /// `Inst num` / `I#`.
    pub number: u32,
    /// `Startup Time`.
    pub startup: Option<NaiveDateTime>,
    /// `Host Name`.
    pub host: Option<String>,
    /// `Platform`.
    pub platform: Option<String>,
    /// `CPUs`.
    pub cpus: Option<u32>,
    /// `Cores`.
    pub cores: Option<u32>,
    /// `Sockets`.
    pub sockets: Option<u32>,
    /// `Memory (GB)` as printed (AWR's GB here is 2^30 bytes).
    pub memory_gb: Option<f64>,
}

/// The snapshot interval the report covers.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Snapshots {
    /// `Begin Snap` id.
    pub begin_id: u64,
    /// `End Snap` id.
    pub end_id: u64,
    /// Begin snapshot time.
    pub begin_time: Option<NaiveDateTime>,
    /// End snapshot time.
    pub end_time: Option<NaiveDateTime>,
    /// `Elapsed:` in minutes.
    pub elapsed_min: Option<f64>,
    /// Decimals `Elapsed:` is printed with (`60.25 (mins)` → 2): its precision, ± half a unit
    /// of the last digit, bounds rates recomputed as Total / elapsed.
    pub elapsed_decimals: Option<u32>,
    /// `DB Time:` in minutes.
    pub db_time_min: Option<f64>,
}

/// A Load Profile row (`Redo size (bytes):`, `Read IO requests:` …), label without the colon.
#[derive(Debug, Clone, Serialize)]
pub struct LoadProfileRow {
    /// Row label as printed, trailing `:` removed.
    pub name: String,
    /// `Per Second`.
    pub per_second: Option<f64>,
    /// `Per Transaction`.
    pub per_transaction: Option<f64>,
    /// `Per Exec`.
    pub per_exec: Option<f64>,
    /// `Per Call`.
    pub per_call: Option<f64>,
}

/// An IO Profile row (11.2.0.4+; `IO Profile (Global)` in RAC reports), per-second values.
#[derive(Debug, Clone, Serialize)]
pub struct IoProfileRow {
    /// Row label, e.g. `Total Requests`, `Total (MB)` (colon removed).
    pub name: String,
    /// `Read+Write Per Second`.
    pub read_write: Option<f64>,
    /// `Read per Second`.
    pub read: Option<f64>,
    /// `Write Per Second`.
    pub write: Option<f64>,
    /// The `Read+Write` cell as printed (its decimals are the report's precision: 1 in instance
    /// reports, 2 in RAC global reports).
    pub read_write_printed: String,
}

/// One Instance Activity Stats row (also `System Statistics (Global)` in RAC reports).
#[derive(Debug, Clone, Serialize)]
pub struct ActivityStat {
    /// The statistic name verbatim (`physical read total IO requests`).
    pub name: String,
    /// `Total` over the interval.
    pub total: Option<f64>,
    /// `per Second`.
    pub per_second: Option<f64>,
    /// `per Trans`.
    pub per_trans: Option<f64>,
    /// The table it came from (`Key Instance Activity Stats`, `Other Instance Activity Stats`, …).
    pub table: String,
}

/// One row of `IOStat by Function summary` or `IOStat by Filetype summary`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct IoStatRow {
    /// `I#` in RAC reports (`*` = all instances); `None` in instance reports.
    pub instance: Option<String>,
    /// `Function Name` / `Filetype Name`.
    pub name: String,
    /// Read requests per second (`Reqs per sec` under `Reads:`, or `Reads/s`).
    pub read_reqs_per_s: Option<f64>,
    /// Write requests per second.
    pub write_reqs_per_s: Option<f64>,
    /// Read data per second, bytes/s (printed in MiB/s).
    pub read_bytes_per_s: Option<f64>,
    /// Write data per second, bytes/s.
    pub write_bytes_per_s: Option<f64>,
    /// `Waits: Count`.
    pub waits: Option<f64>,
    /// `Avg Tm(ms)` / `Avg Time`, ms.
    pub avg_wait_ms: Option<f64>,
    /// Filetype: `Small Read` service time, ms.
    pub small_read_ms: Option<f64>,
    /// Filetype: `Large Read` service time, ms.
    pub large_read_ms: Option<f64>,
}

/// Which wait-event table a row came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitScope {
    /// `Foreground Wait Events` (or `(Global)`).
    Foreground,
    /// `Background Wait Events` (or `(Global)`).
    Background,
}

/// One wait-event row.
#[derive(Debug, Clone, Serialize)]
pub struct WaitEvent {
    /// Foreground or background.
    pub scope: WaitScope,
    /// Event name verbatim (`db file sequential read`).
    pub event: String,
    /// `Wait Class` where printed.
    pub wait_class: Option<String>,
    /// `Waits`.
    pub waits: Option<f64>,
    /// `Total Wait Time (s)`, seconds.
    pub total_wait_s: Option<f64>,
    /// Decimals `Total Wait Time (s)` is printed with (Statspack and 11g: 0, whole seconds):
    /// the precision of an average recomputed as Total Wait Time / Waits.
    pub total_wait_decimals: Option<u32>,
    /// Average wait as printed, normalised to ms.
    pub avg_wait_ms: Option<f64>,
    /// The average wait cell as printed (`152.25us`, `2`).
    pub avg_wait_printed: String,
}

/// One event of the Wait Event Histogram tables, all of them merged (11g `Wait Event Histogram`
/// and its `Detail` tables; 12.2+ `Wait Event Histogram` and its `(up to 64 us)`, `(up to 32 ms)`,
/// `(up to 2 sec)`, `(up to 2 min)`, `(up to 1 hr)` tables; 19c RAC `Wait Event Histogram
/// (Global)`; the text and Statspack versions of them).
///
/// Edges are in milliseconds, as the reports' legends define their units: `us` = 0.001 ms,
/// `ms` = 1 ms, `s` = 1024 ms (`<=1s` "is truly <1024ms"), `m` = 65,536 ms, `h` = 4,194,304 ms
/// (Oracle's buckets are powers of two). Shares are percent, 0 to 100, as rounded by the report
/// to 0.1: a blank cell is exactly 0, `.0` is below 0.05.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WaitHistogram {
    /// Event name verbatim (`db file sequential read`); in text reports a name cut to its column
    /// is restored when exactly one Oracle event name starts with it.
    pub event: String,
    /// `Total Waits` (`Waits` in Statspack and RAC global reports), from the first table that
    /// prints it, `K/M/G` suffixes expanded (multiples of 1000). The `Waits 1ms to 32ms`-like
    /// columns of the detail tables count only part of the waits and are not used.
    pub total_waits: Option<f64>,
    /// Cumulative share of waits below each edge: `(edge_ms, cum_pct)`, edges ascending and
    /// de-duplicated across tables (each table's columns summed left to right give its points;
    /// where two tables give one edge, the value with the smaller rounding error is kept; the
    /// shares never fall from one edge to the next). The open-ended `>=X` bucket has no point:
    /// the waits not counted below the last edge are in it.
    pub cdf: Vec<(f64, f64)>,
}

impl WaitHistogram {
    /// `(lower_ms, upper_ms)` of the bucket holding the `q`-th percentile (`q` in 0..=100): the
    /// first edge whose cumulative share is `>= q` and the edge before it (0 when it is the first
    /// edge). `upper` is [`f64::INFINITY`] when only the open-ended `>=X` bucket reaches `q`
    /// (`lower` is then the last edge). `None` when the CDF is empty.
    ///
    /// Conservative by design: the comparison is exact (`cum >= q`), with no allowance for the
    /// report's rounding to 0.1 %; an edge printed at 94.96 % does not reach `q` = 95, so the
    /// range moves up a bucket rather than down.
    pub fn percentile_range(&self, q: f64) -> Option<(f64, f64)> {
        if self.cdf.is_empty() {
            return None;
        }
        let mut lower = 0.0;
        for &(edge, cum) in &self.cdf {
            if cum >= q {
                return Some((lower, edge));
            }
            lower = edge;
        }
        Some((lower, f64::INFINITY))
    }
}

/// A parsed AWR report.
#[derive(Debug, Clone, Serialize)]
pub struct AwrReport {
    /// Which report.
    pub kind: ReportKind,
    /// The report's main heading (`WORKLOAD REPOSITORY report for`).
    pub heading: String,
    /// The HTML `<title>` (`AWR Report for DB: XYDB, Inst: xydb, Snaps: 36006-36007`).
    pub title: String,
    /// Database.
    pub db: DbInfo,
    /// Instances: one for an instance report, all included instances for a RAC global report.
    pub instances: Vec<InstanceInfo>,
    /// Snapshot interval.
    pub snapshots: Snapshots,
    /// Load Profile rows.
    pub load_profile: Vec<LoadProfileRow>,
    /// IO Profile rows (empty before 11.2.0.4).
    pub io_profile: Vec<IoProfileRow>,
    /// Instance Efficiency Percentages: `(label without ':', percent)`, e.g. `("Buffer Hit %", 96.5)`;
    /// labels have their internal runs of spaces collapsed (`Buffer  Hit   %:` → `Buffer Hit %`).
    pub efficiency: Vec<(String, Option<f64>)>,
    /// Every Instance Activity Stats row with Total/per Second/per Trans (all split tables).
    pub activity: Vec<ActivityStat>,
    /// IOStat by Function summary.
    pub iostat_function: Vec<IoStatRow>,
    /// IOStat by Filetype summary.
    pub iostat_filetype: Vec<IoStatRow>,
    /// Foreground and background wait events.
    pub wait_events: Vec<WaitEvent>,
    /// Wait Event Histogram tables merged per event (see [`WaitHistogram`]); empty when the
    /// report prints none (PDB reports, some RAC global reports, 10g Statspack).
    pub wait_histograms: Vec<WaitHistogram>,
    /// Things the parser noticed but tolerated, each naming its section.
    pub warnings: Vec<String>,
    /// Encoding the file was decoded from.
    pub encoding: String,
    /// `awr_html`, `awr_text` or `statspack` (set by [`crate::parse_bytes`]).
    pub source_format: String,
    /// Decimals the report prints for Instance Activity Stats `per Second` values (the most seen):
    /// 2 in HTML reports, 1 in most text and Statspack reports. Figures derived from those rates
    /// are shown to this precision.
    pub rate_decimals: u32,
    /// Host CPU over the interval: one entry for an instance or Statspack report (its host), one
    /// per instance for a RAC global report (`OS Statistics By Instance`); empty when the report
    /// prints neither `Host CPU` nor `Operating System Statistics`.
    pub host_cpu: Vec<HostCpu>,
}

/// The host CPU of one instance's host over the report's interval, as printed.
///
/// Two sources, both kept: the `Host CPU` table (`%User %System %WIO %Idle`, percent, one
/// decimal; Statspack `User System Idle WIO`) and the `Operating System Statistics` (`OS
/// Statistics` in Statspack) times `BUSY_TIME`, `IDLE_TIME`, `IOWAIT_TIME`, which V$OSSTAT counts
/// in hundredths of a second, here in seconds. RAC global reports print both per instance in
/// `OS Statistics By Instance` (`% Busy % Usr % Sys % WIO % Idl`, `Time (s)` `Busy` `Idle`).
/// The engine computes busy % = BUSY_TIME / (BUSY_TIME + IDLE_TIME), which carries more digits
/// than 100 − `%Idle`. A value not printed is `None`, never 0.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HostCpu {
    /// `I#` in a RAC global report; `None` in an instance report (the report's instance).
    pub instance: Option<u32>,
    /// `%User` (`% Usr`), percent.
    pub user_pct: Option<f64>,
    /// `%System` (`% Sys`), percent.
    pub system_pct: Option<f64>,
    /// `%WIO` (`% WIO`, Statspack `WIO`), percent: time idle while IO was outstanding.
    pub wio_pct: Option<f64>,
    /// `%Idle` (`% Idl`, Statspack `Idle`), percent.
    pub idle_pct: Option<f64>,
    /// `% Busy` where printed (RAC global), percent.
    pub busy_pct: Option<f64>,
    /// `BUSY_TIME` (RAC global `Time (s)` `Busy`), seconds.
    pub busy_time_s: Option<f64>,
    /// `IDLE_TIME` (RAC global `Time (s)` `Idle`), seconds.
    pub idle_time_s: Option<f64>,
    /// `IOWAIT_TIME`, seconds (not printed per instance in RAC global reports).
    pub iowait_time_s: Option<f64>,
}

impl HostCpu {
    /// Whether anything was read.
    pub fn is_empty(&self) -> bool {
        *self
            == HostCpu {
                instance: self.instance,
                ..HostCpu::default()
            }
    }
}

/// Meaning of one IOStat column (`IOStat by Function` / `by Filetype`), shared by the HTML and
/// text parsers so that both read the same columns the same way.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum IoCol {
    Instance,
    Name,
    ReadReqs,
    WriteReqs,
    ReadMiBs,
    WriteMiBs,
    Waits,
    AvgMs,
    SmallRead,
    LargeRead,
    Other,
}

/// The `Reads:` / `Writes:` group a column falls in, given the previous one: a header starting
/// `Reads:` or `Writes:` opens a group, `Waits:` closes it. Returns `"r"`, `"w"` or `""`.
/// Reads a database report in the locale it prints its numbers in, then checks that it was read
/// right: what every AWR and Statspack parser's `parse` is.
///
/// - The locale is told from the report itself ([`crate::num::detect_locale`]): a report printed
///   with `NLS_NUMERIC_CHARACTERS = ',.'` (de_DE and kin: `1.140,38`, `29.542`, `60,09 (mins)`)
///   is read as the C locale prints it ([`crate::num::to_c_locale`], widths kept), with a warning
///   saying so.
/// - The IO Profile `Total Requests` per second must equal Instance Activity `physical read total
///   IO requests` + `physical write total IO requests` per second to the printed precision
///   ([`check_io_profile`]): when they disagree the numbers are misread, and the report is an
///   error, not a footnote.
///
/// # Errors
/// `parse`'s, and the [`ParseError::Section`] of [`check_io_profile`].
pub(crate) fn parse_in_its_locale(
    text: &str,
    parse: impl FnOnce(&str) -> Result<AwrReport, crate::ParseError>,
) -> Result<AwrReport, crate::ParseError> {
    let report = match crate::num::detect_locale(text) {
        crate::num::Locale::C => parse(text)?,
        crate::num::Locale::DecimalComma => {
            let mut r = parse(&crate::num::to_c_locale(text))?;
            r.warnings.insert(
                0,
                "numbers printed with a decimal comma (NLS_NUMERIC_CHARACTERS ',.', e.g. \
                 `1.140,38`): read as 1,140.38"
                    .to_string(),
            );
            r
        }
    };
    check_io_profile(&report)?;
    Ok(report)
}

/// The IO Profile `Total Requests` `Read+Write` per second against Instance Activity `physical
/// read total IO requests` + `physical write total IO requests` per second (both printed: IO
/// Profile with `d` decimals, the activity rates with `rate_decimals`). They are one figure
/// (AWR computes the IO Profile from those statistics), so they agree within the rounding of the
/// three printed values: ½·10^−d + 2 × ½·10^−rate_decimals (1,435.8 against 1,140.38 + 295.42 =
/// 1,435.80: within 0.05 + 0.01). Reports without an IO Profile (before 11.2.0.4, Statspack) or
/// without either statistic pass.
///
/// # Errors
/// [`ParseError::Section`] (section `IO Profile`) naming both figures.
pub(crate) fn check_io_profile(r: &AwrReport) -> Result<(), crate::ParseError> {
    let Some(io) = r.io_profile.iter().find(|p| p.name == "Total Requests") else {
        return Ok(());
    };
    let per_s = |n: &str| r.activity(n).and_then(|s| s.per_second);
    let (Some(total), Some(rd), Some(wr)) = (
        io.read_write,
        per_s("physical read total IO requests"),
        per_s("physical write total IO requests"),
    ) else {
        return Ok(());
    };
    let d = crate::num::decimals(&io.read_write_printed) as i32;
    // A relative 10^-12 absorbs the binary noise of the sum.
    let tol = 0.5 * 10f64.powi(-d) + 10f64.powi(-(r.rate_decimals as i32)) + 1e-12 * total.abs();
    if (total - (rd + wr)).abs() <= tol {
        return Ok(());
    }
    Err(crate::ParseError::section(
        "IO Profile",
        None,
        format!(
            "'Total Requests' per Second equal to Instance Activity 'physical read total IO \
             requests' + 'physical write total IO requests' per Second ({rd} + {wr} = {})",
            rd + wr
        ),
        format!(
            "{} (printed '{}'): the report's numbers are misread (a locale or a layout this \
             parser does not know), so none of them is used",
            total,
            io.read_write_printed.trim()
        ),
    ))
}

/// The range of an Instance Efficiency percentage: `Buffer Hit %` (what the sizing reads) is a
/// share of gets, 0 to 100; the others may be negative (`Execute to Parse %`) or pass 100
/// (`Latch Hit %: 100.11` in a real 12.1 report), and are kept as printed.
pub(crate) fn efficiency_range(label: &str) -> crate::num::Range {
    if label == "Buffer Hit %" {
        crate::num::Range::Percent
    } else {
        crate::num::Range::Signed { percent: false }
    }
}

pub(crate) fn iostat_group(header: &str, current: &'static str) -> &'static str {
    if header.starts_with("reads:") {
        "r"
    } else if header.starts_with("writes:") {
        "w"
    } else if header.starts_with("waits:") {
        ""
    } else {
        current
    }
}

/// Resolves a normalised (lower-case, single-spaced) IOStat header. `group` is the column's
/// `Reads:`/`Writes:` group (`"r"`, `"w"`, `""`); `group_label` the normalised text of a group
/// heading above it in text reports (`---- Read ----`, `Waits`), `""` in HTML.
pub(crate) fn iostat_column(header: &str, group: &str, group_label: &str) -> IoCol {
    match header {
        "i#" => IoCol::Instance,
        "function name" | "filetype name" | "function/file name" | "function" => IoCol::Name,
        "reqs per sec" | "requests /sec" if group == "r" => IoCol::ReadReqs,
        "reqs per sec" | "requests /sec" if group == "w" => IoCol::WriteReqs,
        "data per sec" | "data vol/sec" if group == "r" => IoCol::ReadMiBs,
        "data per sec" | "data vol/sec" if group == "w" => IoCol::WriteMiBs,
        "reads/s" => IoCol::ReadReqs,
        "writes/s" => IoCol::WriteReqs,
        "read mb/s" => IoCol::ReadMiBs,
        "write mb/s" => IoCol::WriteMiBs,
        "waits: count" => IoCol::Waits,
        "count" if group_label.starts_with("wait") => IoCol::Waits,
        "avg tm(ms)" | "avg time" => IoCol::AvgMs,
        "small read" => IoCol::SmallRead,
        "large read" => IoCol::LargeRead,
        _ => IoCol::Other,
    }
}

impl AwrReport {
    /// The format the report was read from ([`AwrReport::source_format`]): AWR HTML when it
    /// is not set (a report built by hand).
    pub fn format(&self) -> crate::Format {
        [
            crate::Format::AwrText,
            crate::Format::Statspack,
            crate::Format::AwrMiner,
            crate::Format::DmaArchive,
        ]
        .into_iter()
        .find(|f| f.id() == self.source_format)
        .unwrap_or(crate::Format::AwrHtml)
    }

    /// A Statspack report (`spreport.sql`): it has no IO Profile, and its figures come from
    /// Statspack's own sections.
    pub fn is_statspack(&self) -> bool {
        self.format() == crate::Format::Statspack
    }

    /// The Instance Activity Stats row for `name` (exact, case-sensitive AWR name).
    pub fn activity(&self, name: &str) -> Option<&ActivityStat> {
        self.activity.iter().find(|s| s.name == name)
    }

    /// The merged Wait Event Histogram of `event` (exact, case-sensitive name).
    pub fn wait_histogram(&self, event: &str) -> Option<&WaitHistogram> {
        self.wait_histograms.iter().find(|h| h.event == event)
    }

    /// The efficiency value for a label such as `Buffer Hit %`.
    pub fn efficiency(&self, label: &str) -> Option<f64> {
        self.efficiency
            .iter()
            .find(|(l, _)| l == label)
            .and_then(|(_, v)| *v)
    }
}
