//! VMware ESXi `esxtop -b` batch-mode CSV (the "PDH-CSV 4.0" layout), storage columns only, into
//! an [`EntityLog`] of format `esxtop_csv`.
//!
//! # Tool and layout
//! `esxtop -b [-a] [-d SECONDS] -n ITERATIONS > host.csv` on ESXi 5.x – 8.x (the layout has not
//! changed; see `../shared/reference/vsan-formats.md` §7, verified on a real ESXi 6.x file):
//! - one header line, then one line per sample; every cell is a double-quoted string
//!   (`"04/26/2018 14:06:32","18.87",…`), cells separated by `,`, LF line ends;
//! - the first header cell is `"(PDH-CSV 4.0) (UTC)(0)"`: the zone of the time stamps and its
//!   bias in minutes. esxtop always writes `(UTC)(0)`, and then [`Series::utc`] is `true`;
//! - every other header cell is `"\\<host>\<Object>(<instance>)\<Counter>"` (or
//!   `"\\<host>\<Object>\<Counter>"` for an object without instances, e.g. `Memory`). The
//!   instance may itself hold parentheses and colons: `Virtual Disk(SQL01 (104c…):scsi0:1)`;
//! - the first cell of each row is the sample time `MM/DD/YYYY HH:MM:SS` (UTC), the end of the
//!   sample interval;
//! - thousands of columns: about 7,600 by default and 17,000+ with `-a` (all counters) on a small
//!   host, almost all of them CPU, memory, network, interrupt and power counters.
//!
//! # What is kept
//! Each header cell is split into (host, object, instance, counter) **once**; a column is kept
//! when its object is one of [`STORAGE_OBJECTS`] — `Physical Disk Adapter` (per HBA, `vmhba0`),
//! `Physical Disk` (per path/device, `vmhba0:vmhba0:C0:T2:L0`), `Physical Disk SCSI Device`
//! (per device, `naa.…`, `mpx.…`, `t10.…`) and `Virtual Disk` (per VM, `styx`, and per virtual
//! disk, `styx:scsi0:0`). Every kept column becomes one [`Series`]: `entity_type` = the object,
//! `entity` = the instance, `host` = the host, `metric` = the counter, all verbatim.
//!
//! The host CPU is kept too: the three [`CPU_COUNTERS`] of `Physical Cpu(_Total)`, the mean
//! over the host's logical CPUs (see *Host CPU* below). The per-CPU columns (`Physical
//! Cpu(0)`, …) are not kept.
//!
//! Columns of every other object (`Memory`, `Physical Cpu` other than `_Total`, `Group Cpu`,
//! `Network Port`, `Physical Disk Path`, `Physical Disk Per-Device-Per-World`, `Physical Disk
//! NFS Volume`, `VSAN`, …) are skipped without reading their values and counted in one warning
//! (`"7180 columns of other objects ignored (Memory, Physical Cpu, …)"`).
//!
//! # Host CPU
//! esxtop prints three host-wide utilisations; batch mode names them differently from
//! interactive esxtop's CPU panel (Scott Drummonds, VMware, "Processor Utilization
//! Calculations", vpivot.com/2010/04/09/processor-utilization-calculations/, whose table gives
//! both names):
//!
//! | batch counter (verbatim) | interactive | meaning (one core, hyperthreading on) | kept as |
//! |---|---|---|---|
//! | `% Util Time` | `PCPU UTIL(%)` | share of time each logical CPU (hardware thread) was not idle: one thread running fully 50 %, both 100 % | `HostCpuBusyPct` |
//! | `% Core Util Time` | `CORE UTIL(%)` | share of time each physical core had at least one busy thread: one thread 100 %, both 100 % | `measure: None`, `%` |
//! | `% Processor Time` | `PCPU USED(%)` | each thread's use of its core, scaled by the turbo frequency: one thread 108 %, both 50 % each | `measure: None`, `%` |
//!
//! The busy figure is `% Util Time`: it is time-based, as an OS's busy = 100 − idle over its
//! logical CPUs (AWR `BUSY_TIME` / (`BUSY_TIME` + `IDLE_TIME`), `sar -u`), and reaches 100 %
//! only when every hardware thread is busy. `% Processor Time` is frequency-scaled (turbo
//! inflates it, and Broadcom KB 431027 says the matching vCenter counter `cpu.usage` overstates
//! what is left, where the time-based `cpu.utilization` "accounts for Hyperthreading
//! correctly"); `% Core Util Time` counts a core full when one of its two threads runs.
//! Without hyperthreading `% Util Time` and `% Core Util Time` are the same. The other two are
//! kept, raw and named verbatim, so the JSON and `--export` carry them.
//!
//! # Counters and units
//! esxtop prints rates per second, latencies in milliseconds and throughput in MBytes per second
//! with 1 MByte = 2^20 bytes (`../shared/reference/vsan-formats.md` §0 and §7, verified on a real
//! file; the unit rules of [`crate::entity`]). The esxtop field is the name in interactive
//! esxtop's disk views (`d`, `u`, `v`). The factor turns the printed value into
//! [`Measure::unit`].
//!
//! | counter (verbatim) | esxtop field | [`Measure`] | factor |
//! |---|---|---|---|
//! | `Commands/sec` | `CMDS/s` | `TotalIops` | 1 |
//! | `Reads/sec` | `READS/s` | `ReadIops` | 1 |
//! | `Writes/sec` | `WRITES/s` | `WriteIops` | 1 |
//! | `MBytes Read/sec` | `MBREAD/s` | `ReadBytesPerS` | 1,048,576 |
//! | `MBytes Written/sec` | `MBWRTN/s` | `WriteBytesPerS` | 1,048,576 |
//! | `Average Driver MilliSec/Command` | `DAVG/cmd` | `DeviceLatencyMs` | 1 |
//! | `Average Kernel MilliSec/Command` | `KAVG/cmd` | `KernelLatencyMs` | 1 |
//! | `Average Guest MilliSec/Command` | `GAVG/cmd` | `GuestLatencyMs` | 1 |
//! | `Average Queue MilliSec/Command` | `QAVG/cmd` | `QueueLatencyMs` | 1 |
//! | `Average MilliSec/Read` (`Virtual Disk`) | `LAT/rd` | `ReadLatencyMs` | 1 |
//! | `Average MilliSec/Write` (`Virtual Disk`) | `LAT/wr` | `WriteLatencyMs` | 1 |
//! | `Average Guest MilliSec/Read` (`-a`) | `GAVG/rd` | `ReadLatencyMs` | 1 |
//! | `Average Guest MilliSec/Write` (`-a`) | `GAVG/wr` | `WriteLatencyMs` | 1 |
//!
//! Known counters kept with `measure: None` (raw values, unit in [`Series::raw_unit`]): the `-a`
//! `Average Driver|Kernel|Queue MilliSec/Read|Write` (ms), `Device Q Depth`, `World Q Depth`,
//! `Active Commands`, `Queued Commands` (commands), `% Used` (%), `Load` (ratio), `Failed
//! Commands|Reads|Writes|Reserves/sec`, `Aborts/sec`, `Resets/sec` (per s), `Failed Bytes
//! Read|Written/sec` (bytes/s) and `Failed MBytes Read|Written/sec` (MBytes/s). See
//! [`COUNTERS`]. A counter of a storage object that is not in that table is kept too, with
//! `measure: None` and `raw_unit` `""`, and listed once in [`EntityLog::warnings`].
//!
//! A cell that is empty gives `None`; a cell that is not a number (or is `NaN`/`inf`) gives `None`
//! and is counted in one warning naming the first such cell. Never 0.
//!
//! # Rows and quirks tolerated
//! - The **first data row is dropped** (and counted in [`EntityLog::skipped`]): esxtop prints it
//!   before it has a delta, so its rates are all 0 (`vsan-formats.md` §7). Run `esxtop -b` with
//!   `-n 2` or more; a file with no row after the first is an error.
//! - A trailing empty header cell `""`, or a trailing junk cell such as `"   -"` (seen with `-a`),
//!   is not a column: rows may have that cell or not. A row may also end with extra empty cells.
//!   A header cell in the middle that is not a counter path is ignored with a warning.
//! - A row with **fewer cells than the header** (up to its last real column) is an error naming
//!   the line: it is a cut line, and reading it by position would shift values.
//! - CRLF line ends, a UTF-8 BOM, blank lines; `""` inside a quoted cell (CSV escape).
//! - The same header line repeated (two runs appended to one file): counted as skipped, and the
//!   first row after it is dropped like the first row of the file. A second header with other
//!   columns is an error (split the file).
//! - gzip'd files: [`crate::input::decode`] decompresses them before [`parse`] (see
//!   [`parse_bytes`]).
//!
//! # Streaming
//! The format streams ([`parse_reader`], the registry's `parse_stream`): one parser body reads
//! the lines of the whole text ([`parse`]) or of a reader, one at a time, and each line cell by
//! cell, with a column plan built once from the header (column → series, or skip). It keeps the
//! header line (the column names, and to tell a repeated header), the plan, one time per kept
//! row and the kept series' values; never the other lines. It never splits a line into a list of
//! its cells, and cells of skipped columns are only stepped over (no allocation, no number
//! parsing). The series are complete only at the end of the file: the one [`EntityLog`] is
//! handed over then.
//!
//! # Example
//! From the corpus file `DERIVED_esxtopd_disk-columns-only.csv` (a real ESXi file cut to its
//! disk columns), header cell 8 (1-based) and line 3 (line 2 is the dropped all-zero sample):
//! ```text
//! "(PDH-CSV 4.0) (UTC)(0)",…,"\\localhost.home\Physical Disk Adapter(vmhba0)\Average Driver MilliSec/Command",…
//! "04/26/2018 14:06:32",…,"1.14",…
//! ```
//! gives the series `{ entity_type: "Physical Disk Adapter", entity: "vmhba0", host:
//! "localhost.home", metric: "Average Driver MilliSec/Command", measure: DeviceLatencyMs,
//! raw_unit: "ms", values: [1.14, 1.24], times: [2018-04-26 14:06:32, 14:06:37], utc: true }`.
//!
//! ```
//! let csv = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\esx1\\Physical Cpu(0)\\% Processor Time\",\
//!            \"\\\\esx1\\Physical Disk SCSI Device(naa.1)\\MBytes Read/sec\"\n\
//!            \"01/02/2024 10:00:00\",\"0.00\",\"0.00\"\n\
//!            \"01/02/2024 10:00:05\",\"12.50\",\"2.00\"\n";
//! let log = sizer_parsers::esxtop::parse(csv).unwrap();
//! assert_eq!(log.series.len(), 1); // the per-CPU column is skipped (only `_Total` is kept)
//! let s = &log.series[0];
//! assert_eq!((s.entity.as_str(), s.metric.as_str()), ("naa.1", "MBytes Read/sec"));
//! assert_eq!(s.values, vec![Some(2.0 * 1048576.0)]); // the first row is dropped
//! assert!(log.warnings[0].starts_with("1 column of other objects ignored"));
//! ```

use std::borrow::Cow;

use chrono::NaiveDateTime;

use crate::disk::MIB;
pub use crate::entity::{EntityLog, Measure, Series, SkippedLine};
use crate::error::ParseError;

/// Format id of this parser.
pub const FORMAT: &str = "esxtop_csv";

/// The esxtop objects whose columns are kept; every other object is skipped.
pub const STORAGE_OBJECTS: [&str; 4] = [
    "Physical Disk Adapter",
    "Physical Disk",
    "Physical Disk SCSI Device",
    "Virtual Disk",
];

/// The host CPU object, and the instance kept: the mean over the host's logical CPUs.
pub const CPU_OBJECT: (&str, &str) = ("Physical Cpu", "_Total");

/// The `Physical Cpu(_Total)` counters kept (see the module docs, *Host CPU*): (counter,
/// measure, unit as printed). Only `% Util Time` is the busy figure.
pub const CPU_COUNTERS: [(&str, Option<Measure>, &str); 3] = [
    ("% Util Time", Some(Measure::HostCpuBusyPct), "%"),
    ("% Core Util Time", None, "%"),
    ("% Processor Time", None, "%"),
];

/// The storage counters this module knows: (counter, measure, factor from the printed value to
/// [`Measure::unit`], unit as printed). `measure: None` rows are kept raw (factor 1). Source:
/// `../shared/reference/vsan-formats.md` §0 and §7 (counter names as a real esxtop file prints
/// them).
pub const COUNTERS: &[(&str, Option<Measure>, f64, &str)] = &[
    ("Commands/sec", Some(Measure::TotalIops), 1.0, "commands/s"),
    ("Reads/sec", Some(Measure::ReadIops), 1.0, "reads/s"),
    ("Writes/sec", Some(Measure::WriteIops), 1.0, "writes/s"),
    (
        "MBytes Read/sec",
        Some(Measure::ReadBytesPerS),
        MIB,
        "MBytes/s",
    ),
    (
        "MBytes Written/sec",
        Some(Measure::WriteBytesPerS),
        MIB,
        "MBytes/s",
    ),
    (
        "Average Driver MilliSec/Command",
        Some(Measure::DeviceLatencyMs),
        1.0,
        "ms",
    ),
    (
        "Average Kernel MilliSec/Command",
        Some(Measure::KernelLatencyMs),
        1.0,
        "ms",
    ),
    (
        "Average Guest MilliSec/Command",
        Some(Measure::GuestLatencyMs),
        1.0,
        "ms",
    ),
    (
        "Average Queue MilliSec/Command",
        Some(Measure::QueueLatencyMs),
        1.0,
        "ms",
    ),
    (
        "Average MilliSec/Read",
        Some(Measure::ReadLatencyMs),
        1.0,
        "ms",
    ),
    (
        "Average MilliSec/Write",
        Some(Measure::WriteLatencyMs),
        1.0,
        "ms",
    ),
    (
        "Average Guest MilliSec/Read",
        Some(Measure::ReadLatencyMs),
        1.0,
        "ms",
    ),
    (
        "Average Guest MilliSec/Write",
        Some(Measure::WriteLatencyMs),
        1.0,
        "ms",
    ),
    ("Average Driver MilliSec/Read", None, 1.0, "ms"),
    ("Average Driver MilliSec/Write", None, 1.0, "ms"),
    ("Average Kernel MilliSec/Read", None, 1.0, "ms"),
    ("Average Kernel MilliSec/Write", None, 1.0, "ms"),
    ("Average Queue MilliSec/Read", None, 1.0, "ms"),
    ("Average Queue MilliSec/Write", None, 1.0, "ms"),
    ("Device Q Depth", None, 1.0, "commands"),
    ("World Q Depth", None, 1.0, "commands"),
    ("Active Commands", None, 1.0, "commands"),
    ("Queued Commands", None, 1.0, "commands"),
    ("% Used", None, 1.0, "%"),
    ("Load", None, 1.0, "ratio"),
    ("Failed Commands/sec", None, 1.0, "commands/s"),
    ("Failed Reads/sec", None, 1.0, "reads/s"),
    ("Failed Writes/sec", None, 1.0, "writes/s"),
    ("Failed Bytes Read/sec", None, 1.0, "bytes/s"),
    ("Failed Bytes Written/sec", None, 1.0, "bytes/s"),
    ("Failed MBytes Read/sec", None, 1.0, "MBytes/s"),
    ("Failed MBytes Written/sec", None, 1.0, "MBytes/s"),
    ("Failed Reserves/sec", None, 1.0, "reserves/s"),
    ("Aborts/sec", None, 1.0, "aborts/s"),
    ("Resets/sec", None, 1.0, "resets/s"),
];

/// Objects only esxtop writes: one of them in the header tells esxtop from Windows perfmon CSV
/// (which shares the `PDH-CSV 4.0` first cell but names `PhysicalDisk`, `Processor`, …).
const ESXTOP_OBJECTS: [&str; 9] = [
    "\\Physical Cpu(",
    "\\Physical Cpu Load\\",
    "\\Group Cpu(",
    "\\Memory\\Memory Overcommit",
    "\\Physical Disk Adapter(",
    "\\Physical Disk SCSI Device(",
    "\\Physical Disk(",
    "\\Virtual Disk(",
    "\\VSAN\\Enabled?",
];

const HEAD_LIMIT: usize = 64 * 1024;

/// Cheap check on the first 64 KiB: the `"(PDH-CSV 4.0)` first cell and at least one header
/// cell naming an object only esxtop writes (`Physical Cpu(`, `Group Cpu(`, `Physical Disk
/// Adapter(`, `Virtual Disk(`, …), so Windows perfmon CSV is not claimed.
pub fn looks_like(text: &str) -> bool {
    let mut end = text.len().min(HEAD_LIMIT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let head = head.strip_prefix('\u{feff}').unwrap_or(head);
    if !head.starts_with("\"(PDH-CSV 4.0)") {
        return false;
    }
    let first_line = head.split('\n').next().unwrap_or("");
    ESXTOP_OBJECTS.iter().any(|o| first_line.contains(o))
}

/// Decodes bytes with [`crate::input::decode`] (gzip, UTF-8/UTF-16 BOM, windows-1252) and parses
/// them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<EntityLog, ParseError> {
    let decoded = crate::input::decode(bytes)?;
    parse(&decoded.text)
}

/// One header cell split into its parts (borrowed from the header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Column<'a> {
    host: &'a str,
    object: &'a str,
    instance: Option<&'a str>,
    counter: &'a str,
}

/// Splits `\\host\Object(instance)\Counter` or `\\host\Object\Counter`. The instance runs from
/// the first `(` of the object part to the last `)\`, so it may hold `(`, `)` and `\`.
fn split_column(cell: &str) -> Option<Column<'_>> {
    let rest = cell.strip_prefix("\\\\")?;
    let (host, rest) = rest.split_once('\\')?;
    let backslash = rest.find('\\')?;
    let (object, instance, counter) = match rest.find('(') {
        Some(open) if open < backslash => {
            let close = rest.rfind(")\\")?;
            if close < open {
                return None;
            }
            (
                &rest[..open],
                Some(&rest[open + 1..close]),
                &rest[close + 2..],
            )
        }
        _ => (&rest[..backslash], None, &rest[backslash + 1..]),
    };
    if host.is_empty() || object.is_empty() || counter.is_empty() || counter.contains('\\') {
        return None;
    }
    Some(Column {
        host,
        object,
        instance,
        counter,
    })
}

/// The cells of one CSV line, as slices of the line (without the quotes; a `""` escape is left
/// as is). Never allocates.
struct Cells<'a> {
    s: &'a str,
    pos: usize,
    done: bool,
}

impl<'a> Cells<'a> {
    fn new(s: &'a str) -> Self {
        Cells {
            s,
            pos: 0,
            done: false,
        }
    }
}

impl<'a> Iterator for Cells<'a> {
    type Item = Result<&'a str, &'static str>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let b = self.s.as_bytes();
        let start = self.pos;
        if b.get(start) == Some(&b'"') {
            let mut i = start + 1;
            loop {
                let Some(k) = memchr::memchr(b'"', &b[i..]) else {
                    self.done = true;
                    return Some(Err("a quoted cell without its closing quote"));
                };
                let q = i + k;
                if b.get(q + 1) == Some(&b'"') {
                    i = q + 2;
                    continue;
                }
                let cell = &self.s[start + 1..q];
                match b.get(q + 1) {
                    None => self.done = true,
                    Some(b',') => self.pos = q + 2,
                    Some(_) => {
                        self.done = true;
                        return Some(Err("text after a closing quote"));
                    }
                }
                return Some(Ok(cell));
            }
        }
        match memchr::memchr(b',', &b[start..]) {
            Some(k) => {
                self.pos = start + k + 1;
                Some(Ok(&self.s[start..start + k]))
            }
            None => {
                self.done = true;
                Some(Ok(&self.s[start..]))
            }
        }
    }
}

/// Lines with their 1-based numbers.
fn numbered<L>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
) -> impl Iterator<Item = Result<(usize, L), ParseError>> {
    lines.enumerate().map(|(i, l)| l.map(|l| (i + 1, l)))
}

/// A line without the CR of a CRLF line end.
fn trim_cr(l: &str) -> &str {
    l.strip_suffix('\r').unwrap_or(l)
}

/// A cell that is not data: empty, or a junk filler such as `   -`.
fn is_filler(cell: &str) -> bool {
    let t = cell.trim();
    t.is_empty() || t == "-"
}

fn parse_time(cell: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(cell.trim(), "%m/%d/%Y %H:%M:%S").ok()
}

/// `(PDH-CSV 4.0) (UTC)(0)` → (`UTC`, `0`).
fn zone_of(first_cell: &str) -> (Option<&str>, Option<i64>) {
    let rest = first_cell
        .strip_prefix("(PDH-CSV 4.0)")
        .unwrap_or("")
        .trim();
    let zone = rest
        .strip_prefix('(')
        .and_then(|r| r.find(')').map(|e| &r[..e]));
    let bias = rest
        .rfind('(')
        .and_then(|s| rest[s + 1..].strip_suffix(')'))
        .and_then(|b| b.trim().parse().ok());
    (zone, bias)
}

/// Where a column's values go.
#[derive(Clone, Copy)]
enum Slot {
    /// Not read (another object, or a filler cell).
    SkippedLine,
    /// Into `series[i]`, times the factor.
    Keep(usize, f64),
}

/// Parses an `esxtop -b` batch CSV (already decoded to text).
///
/// # Errors
/// - [`ParseError::UnknownFormat`] when the first cell is not `"(PDH-CSV 4.0) …"`;
/// - [`ParseError::Section`] (section `esxtop batch CSV`) naming the line when the header holds
///   no storage column (the file holds no disk statistics), when a row has fewer cells than the
///   header or more non-empty cells, when a time cell is not `MM/DD/YYYY HH:MM:SS`, when a
///   quoted cell is not closed, when a second, different header appears, or when there is no
///   sample after esxtop's first one.
pub fn parse(text: &str) -> Result<EntityLog, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    parse_lines(crate::lines::text_lines(text))
}

/// Reads an `esxtop -b` batch CSV from `src` line by line (see
/// `lines::with_stream_lines` for the decoding): the same [`EntityLog`] as [`parse`] of
/// the decoded whole text, holding only the header line, the column plan and the series.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else as [`parse`].
pub fn parse_reader(src: &mut dyn std::io::BufRead) -> Result<EntityLog, ParseError> {
    crate::lines::with_stream_lines(src, |lines| parse_lines(lines))
}

/// The one parser body of [`parse`] and [`parse_reader`], over the lines of `split('\n')`.
fn parse_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
) -> Result<EntityLog, ParseError> {
    const SECTION: &str = "esxtop batch CSV";
    let mut lines = numbered(lines);
    let Some(first) = lines.next() else {
        return Err(ParseError::Empty);
    };
    let (_, header_owned) = first?;
    let header_line = trim_cr(header_owned.as_ref());
    if !header_line.starts_with("\"(PDH-CSV") {
        return Err(ParseError::UnknownFormat {
            reason: "expected an esxtop batch CSV (`esxtop -b`), whose first cell is \
                     \"(PDH-CSV 4.0) (UTC)(0)\""
                .into(),
        });
    }

    // The header, split once. Cells are borrowed unless they hold a `""` escape.
    let mut header: Vec<Cow<'_, str>> = Vec::new();
    for cell in Cells::new(header_line) {
        let cell =
            cell.map_err(|e| ParseError::section(SECTION, Some(1), "a header of quoted cells", e))?;
        header.push(if cell.contains("\"\"") {
            Cow::Owned(cell.replace("\"\"", "\""))
        } else {
            Cow::Borrowed(cell)
        });
    }
    let columns: Vec<Option<Column<'_>>> = header
        .iter()
        .enumerate()
        .map(|(i, c)| if i == 0 { None } else { split_column(c) })
        .collect();
    // Cells past the last counter path are fillers (a trailing `""` or `"   -"`).
    let required = columns
        .iter()
        .rposition(Option::is_some)
        .map_or(1, |i| i + 1);

    let mut log = EntityLog::new(FORMAT);
    let (zone, bias) = zone_of(&header[0]);
    let utc = zone == Some("UTC") && bias.unwrap_or(0) == 0;
    if !utc {
        log.warn(format!(
            "the time stamps are in zone '{}' (bias {} minutes), not UTC: kept as printed",
            zone.unwrap_or("?"),
            bias.map_or("?".to_string(), |b| b.to_string())
        ));
    }

    // A kept column: its series, and where its values go.
    let keep = |log: &mut EntityLog, c: &Column<'_>, measure, factor, raw_unit: &str| {
        if log.origin.is_none() {
            log.origin = Some(c.host.to_string());
        }
        log.series.push(Series {
            entity_type: c.object.to_string(),
            entity: c.instance.unwrap_or("").to_string(),
            host: Some(c.host.to_string()),
            metric: c.counter.to_string(),
            measure,
            raw_unit: raw_unit.to_string(),
            values: Vec::new(),
            times: Vec::new(),
            utc,
            interval_s: None,
        });
        Slot::Keep(log.series.len() - 1, factor)
    };
    let cpu = |c: &Column<'_>| {
        CPU_COUNTERS
            .iter()
            .find(|(n, ..)| *n == c.counter)
            .map(|&(_, m, u)| (m, u))
    };
    let mut plan = Vec::with_capacity(header.len());
    let mut ignored = 0usize;
    let mut ignored_objects: Vec<&str> = Vec::new();
    let mut unknown_counters: Vec<&str> = Vec::new();
    for (i, col) in columns.iter().enumerate() {
        let slot = match col {
            None => {
                if i > 0 && i < required {
                    log.warn(format!(
                        "header cell {} ('{}') is not a \\\\host\\Object\\Counter path: column ignored",
                        i + 1,
                        header[i]
                    ));
                }
                Slot::SkippedLine
            }
            Some(c)
                if (c.object, c.instance) == (CPU_OBJECT.0, Some(CPU_OBJECT.1))
                    && cpu(c).is_some() =>
            {
                let (m, u) = cpu(c).unwrap_or((None, "%"));
                keep(&mut log, c, m, 1.0, u)
            }
            Some(c) if !STORAGE_OBJECTS.contains(&c.object) => {
                ignored += 1;
                if !ignored_objects.contains(&c.object) {
                    ignored_objects.push(c.object);
                }
                Slot::SkippedLine
            }
            Some(c) => {
                let known = COUNTERS.iter().find(|(n, ..)| *n == c.counter);
                let (measure, factor, raw_unit) = match known {
                    Some(&(_, m, f, u)) => (m, f, u),
                    None => {
                        if !unknown_counters.contains(&c.counter) {
                            unknown_counters.push(c.counter);
                        }
                        (None, 1.0, "")
                    }
                };
                keep(&mut log, c, measure, factor, raw_unit)
            }
        };
        plan.push(slot);
    }
    if !log
        .series
        .iter()
        .any(|s| STORAGE_OBJECTS.contains(&s.entity_type.as_str()))
    {
        let objects = if ignored_objects.is_empty() {
            "no counter columns".to_string()
        } else {
            format!("only {}", list(&ignored_objects))
        };
        return Err(ParseError::section(
            SECTION,
            Some(1),
            format!(
                "columns of the storage objects {} (the file holds no disk statistics)",
                STORAGE_OBJECTS.join(", ")
            ),
            objects,
        ));
    }
    if ignored > 0 {
        log.warn(format!(
            "{ignored} {} of other objects ignored ({})",
            if ignored == 1 { "column" } else { "columns" },
            list(&ignored_objects)
        ));
    }
    if !unknown_counters.is_empty() {
        log.warn(format!(
            "counters of storage objects not known to sizer, kept without a measure: {}",
            unknown_counters.join(", ")
        ));
    }

    let mut times: Vec<Option<NaiveDateTime>> = Vec::new();
    let mut drop_next = true; // esxtop's first sample has no delta
    let mut rows = 0usize;
    let mut bad_values = 0usize;
    let mut first_bad: Option<(usize, usize)> = None;
    for item in lines {
        let (line_no, owned) = item?;
        let line = trim_cr(owned.as_ref());
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with("\"(PDH-CSV") {
            if line == header_line {
                log.skipped.push(SkippedLine {
                    line: line_no,
                    reason: "repeated header (another esxtop run appended): its first sample \
                             is dropped too"
                        .into(),
                });
                drop_next = true;
                continue;
            }
            return Err(ParseError::section(
                SECTION,
                Some(line_no),
                "one esxtop run per file",
                "a second header with other columns: split the file at this line",
            ));
        }
        rows += 1;
        let mut n = 0usize;
        let mut time = None;
        for cell in Cells::new(line) {
            let cell = cell.map_err(|e| {
                ParseError::section(
                    SECTION,
                    Some(line_no),
                    "quoted cells",
                    format!("{e} in cell {}", n + 1),
                )
            })?;
            if n == 0 {
                time = Some(parse_time(cell).ok_or_else(|| {
                    ParseError::section(
                        SECTION,
                        Some(line_no),
                        "a sample time MM/DD/YYYY HH:MM:SS in the first cell",
                        format!("'{cell}'"),
                    )
                })?);
            } else if n >= plan.len() {
                if !is_filler(cell) {
                    return Err(ParseError::section(
                        SECTION,
                        Some(line_no),
                        format!("{} cells as in the header", header.len()),
                        format!(
                            "a value '{cell}' in cell {} past the header's last column",
                            n + 1
                        ),
                    ));
                }
            } else if !drop_next {
                if let Slot::Keep(s, factor) = plan[n] {
                    let t = cell.trim();
                    let v = if t.is_empty() {
                        None
                    } else {
                        match t.parse::<f64>() {
                            // NaN and inf pass as read: the `checked` sink makes them unknown, with a warning naming the cell.
                            Ok(v) => Some(v * factor),
                            _ => {
                                bad_values += 1;
                                first_bad.get_or_insert((line_no, n));
                                None
                            }
                        }
                    };
                    log.series[s].values.push(v);
                }
            }
            n += 1;
        }
        if n < required {
            return Err(ParseError::section(
                SECTION,
                Some(line_no),
                format!("{required} cells as in the header"),
                format!("{n} cells (a cut line)"),
            ));
        }
        if drop_next {
            log.skipped.push(SkippedLine {
                line: line_no,
                reason: "first sample of the run: esxtop prints it before it has a delta \
                         (rates all 0)"
                    .into(),
            });
            drop_next = false;
            continue;
        }
        // Columns past the row's end (fillers only, as checked above) give no value.
        for slot in &plan[n.min(plan.len())..] {
            if let Slot::Keep(s, _) = *slot {
                log.series[s].values.push(None);
            }
        }
        times.push(time);
    }
    if times.is_empty() {
        return Err(ParseError::section(
            SECTION,
            Some(1),
            "at least two samples (esxtop's first sample has no delta and is dropped; run \
             `esxtop -b` with -n 2 or more)",
            format!("{rows} sample row(s)"),
        ));
    }
    if let Some((line, col)) = first_bad {
        log.warn(format!(
            "{bad_values} values that are not numbers read as unknown (first: line {line}, \
             column '{}')",
            header[col]
        ));
    }
    for s in &mut log.series {
        s.times = times.clone();
    }
    Ok(log)
}

/// `A, B, C` (at most 12 names, then `…`).
fn list(names: &[&str]) -> String {
    let mut s = names
        .iter()
        .take(12)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 12 {
        s.push_str(", …");
    }
    s
}

/// The `esxtop -b` batch CSV format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct EsxtopCsv;

impl crate::parser::FormatParser for EsxtopCsv {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::EsxtopCsv,
            id: "esxtop_csv",
            name: "esxtop batch CSV",
            kind: crate::sink::RecordKind::Entities,
            description:
                "ESXi `esxtop -b` batch CSV (PDH-CSV 4.0): physical disk, adapter and VM counters, host CPU (`Physical Cpu(_Total)`)",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like(text)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(parse(text)?)
    }

    fn streams(&self) -> bool {
        true
    }

    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(parse_reader(src)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_cells_split_into_parts() {
        let c = split_column("\\\\h.example.com\\Virtual Disk(SQL01 (104c):scsi0:1)\\Reads/sec")
            .unwrap();
        assert_eq!(c.host, "h.example.com");
        assert_eq!(c.object, "Virtual Disk");
        assert_eq!(c.instance, Some("SQL01 (104c):scsi0:1"));
        assert_eq!(c.counter, "Reads/sec");
        let c = split_column("\\\\local\\Memory\\Memory Overcommit (1 Minute Avg)").unwrap();
        assert_eq!(
            (c.object, c.instance, c.counter),
            ("Memory", None, "Memory Overcommit (1 Minute Avg)")
        );
        let c = split_column("\\\\local\\VSAN\\Enabled?").unwrap();
        assert_eq!((c.object, c.counter), ("VSAN", "Enabled?"));
        assert_eq!(split_column("   -"), None);
        assert_eq!(split_column(""), None);
        assert_eq!(split_column("\\\\host\\NoCounter"), None);
    }

    #[test]
    fn cells_are_sliced_without_quotes() {
        let cells: Vec<_> = Cells::new("\"a\",\"b,c\",\"\",x,\"d\"\"e\"")
            .map(Result::unwrap)
            .collect();
        assert_eq!(cells, ["a", "b,c", "", "x", "d\"\"e"]);
        let cells: Vec<_> = Cells::new("\"a\",").map(Result::unwrap).collect();
        assert_eq!(cells, ["a", ""]);
        assert!(Cells::new("\"a\",\"b").any(|c| c.is_err()));
        assert!(Cells::new("\"a\"x,\"b\"").any(|c| c.is_err()));
    }

    #[test]
    fn zone_and_bias() {
        assert_eq!(zone_of("(PDH-CSV 4.0) (UTC)(0)"), (Some("UTC"), Some(0)));
        assert_eq!(
            zone_of("(PDH-CSV 4.0) (Eastern Daylight Time)(240)"),
            (Some("Eastern Daylight Time"), Some(240))
        );
    }
}
