//! `sar` **text** output, disk activity only (`sar -d`, `sar -b`), into a [`DeviceLog`] of format
//! `sar_text`.
//!
//! Registered as [`SarText`] (after nmon, before Linux iostat); [`parse`] / [`parse_bytes`] read
//! a text directly. `sadf` (`-d` CSV, `-j` JSON) and `iostat` are other modules' business.
//!
//! # Accepted tools, versions and layouts
//! Every column is found by its header **name**, never by its position.
//! - **Linux sysstat `sar -d`**, any version, with or without `-p` (`dev8-0` or `sda`), the
//!   `DEV` column first, or the device name **last** (`-h`, `--pretty`, `--dev=…`, `-p` from
//!   12.4.0 on). Headers: `tps rd_sec/s wr_sec/s avgrq-sz avgqu-sz await svctm %util` (≤ 11.5.6),
//!   `tps rkB/s wkB/s areq-sz aqu-sz await svctm %util` (11.5.7 – 12.1.1), `tps rkB/s wkB/s dkB/s
//!   areq-sz aqu-sz await %util` (≥ 12.1.2) — see `../shared/reference/iostat-sar-formats.md` §2.2.
//! - **Linux sysstat `sar -b`**: `tps rtps wtps [dtps] bread/s bwrtn/s [bdscd/s]` (§2.3). sysstat sums
//!   these over the whole disks of the host (partitions and virtual devices are left out), so each
//!   row becomes one [`DeviceSample`] named [`SAR_B_DEVICE`] (`"sar -b"`) with
//!   [`DeviceSample::group`] set: it double-counts the `sar -d` devices of the same interval and
//!   must never be added to them.
//! - `sar -A` and any multi-activity file: the disk (`DEV` … `tps`) and `-b` (`tps rtps wtps`) tables
//!   (and the `-u` `CPU … %idle` table, whose `all` rows become each report's [`DeviceReport::cpu`])
//!   are found among the other activity tables (CPU, memory, network, …), which are ignored
//!   silently, whether printed per activity (`sar -f`) or interleaved per interval (a live run).
//! - **AIX `sar -d`**: `device %busy avque r+w/s Kbs/s avwait avserv` (older AIX: `blks/s`);
//!   **Solaris `sar -d`**: `device %busy avque r+w/s blks/s avwait avserv` (`sd0,a` slices);
//!   **HP-UX `sar -d`**: `device %busy avque r+w/s blks/s avwait avserv` (`-R` adds `r/s w/s`).
//!   The time is printed only on the first device row of each interval (and `Average` only on the
//!   first row of the summary): the rows below it belong to the same interval.
//!   Solaris, AIX and HP-UX `sar -b` are buffer-cache statistics, not disk IO: ignored.
//! - Banners: `Linux 5.8.0-53-generic (host) \t12/02/2021 \t_x86_64_\t(2 CPU)` (7.x without
//!   `_arch_` and `(N CPU)`), `SunOS host 5.11 11.3 i86pc    06/14/2017`,
//!   `AIX host 1 7 00F93CFF4C00    01/02/24` (kernel read as `version.release`, `7.1`; the AIX
//!   `System configuration: lcpu=8 …` line after the first banner gives the CPU count), `HP-UX host B.11.31 U ia64
//!   01/02/24`. Several concatenated files (one banner each) are read one after the other.
//!
//! # Column aliases and units
//! Linux columns go through [`crate::disk::sysstat_normalise`] (units from the sysstat `sar(1)`
//! man page and the reference §1.4/§2.2/§2.3: a kB is 1024 bytes; `rd_sec/s`, `wr_sec/s`,
//! `avgrq-sz`, `bread/s`, `bwrtn/s`, `bdscd/s` count 512-byte sectors/blocks), plus sysstat 5.x
//! `sect/s` (512-byte sectors read + written → `total_bytes_per_s`).
//!
//! | [`Normalised`] field | Linux `sar -d` | Linux `sar -b` | AIX / Solaris / HP-UX `sar -d` |
//! |---|---|---|---|
//! | `total_iops` | `tps` | `tps` | `r+w/s` |
//! | `read_iops` / `write_iops` / `discard_iops` | — | `rtps` / `wtps` / `dtps` | HP-UX `-R`: `r/s` / `w/s` |
//! | `read_bytes_per_s` | `rd_sec/s` (×512), `rkB/s` (×1024) | `bread/s` (×512) | — |
//! | `write_bytes_per_s` | `wr_sec/s` (×512), `wkB/s` (×1024) | `bwrtn/s` (×512) | — |
//! | `discard_bytes_per_s` | `dkB/s` (×1024) | `bdscd/s` (×512) | — |
//! | `total_bytes_per_s` | 5.x `sect/s` (×512) | — | `blks/s` (512-byte blocks, ×512), AIX `Kbs/s` (×1024) |
//! | `avg_request_bytes` | `avgrq-sz` (sectors, ×512), `areq-sz` (kB, ×1024) | — | — |
//! | `queue_depth` | `avgqu-sz`, `aqu-sz` | — | `avque` |
//! | `await_ms` | `await` | — | `avwait + avserv` |
//! | `service_ms` | `svctm` (shown only) | — | `avserv` |
//! | `util_pct` | `%util` | — | `%busy` |
//!
//! Other-UNIX units and meanings, from the vendors' man pages: Solaris `sar(1)` (Oracle Solaris
//! System Administration Guide, "How to Check Disk Activity": `blks/s` = 512-byte blocks per
//! second, `avwait` = average time in ms that requests wait idly in the queue, `avserv` = average
//! time in ms for a request to be completed by the device, `avque` = average number of requests
//! outstanding); AIX `sar` command reference and "Assessing disk performance with the sar
//! command" (`r+w/s` = the `tps` of `iostat`, `blks/s` in 512-byte units, `Kbs/s` in kilobytes,
//! `avwait`/`avserv` in ms); HP-UX `sar(1M)` (`blks/s` in 512-byte units, `avwait` = time waited
//! idly on queue, `avserv` = time to service each request, both ms; `-R` splits `r/s`, `w/s`).
//! A request waits in the queue, then is serviced, so **`await_ms = avwait + avserv`** (the Linux
//! `await`: queue + service) and `service_ms = avserv`. Solaris measures `avwait` only while the
//! queue is occupied, so the sum may slightly overstate the average latency of a lightly loaded
//! disk. `r+w/s` has no read/write split: `read_iops`/`write_iops` stay `None` (unless `-R`).
//! The average request size is not printed there and is not derived.
//!
//! A column that was not printed is `None`, never 0; every printed column is kept verbatim in
//! [`DeviceSample::values`] (the `DEV`/`device` column is the sample's name). A disk-table header
//! name this module does not know is kept in `values` and listed once in [`DeviceLog::warnings`].
//!
//! Solaris `sar -d` also lists host-bus-adapter I/O kstats (`mpt_sas3`, `iscsi0`, `scsi_vhc`,
//! USB `xhci0,bu`) and MPxIO path kstats (`sd5.t3.mpt_sas3`, cut to 8 characters: `sd5.t3.m`):
//! they count the IO of the disks behind them again (in `solaris-11.3-sar-A.txt` at 08:20:00, the
//! HBA `mpt_sas2`, the path `sd4.t2.m` and the disk `sd4` all show 6 r+w/s and 212 blks/s), so
//! they are flagged [`DeviceSample::group`] like the `sar -b` totals.
//!
//! # Reports
//! One [`DeviceReport`] per interval: the `-b` total and the `-d` devices printed with the same
//! time (in the same run segment) are merged into one report. `timestamp` is the time as printed
//! (`09:23:50 PM`, `13:20:19`, `17時45分02秒`); the date is the banner's
//! ([`SystemHeader::date`]) and [`crate::disk::resolve_times`] joins them and handles midnight.
//! Reports are ordered by time (a day is added when the clock goes back by more than 5 minutes).
//! `LINUX RESTART` (and Solaris `unix restarts`) lines start a new segment: the next summary and
//! intervals are not merged with the earlier ones. A row printed with the same time as its header
//! (`sar … 0`: averages since boot) is marked `since_boot`.
//!
//! Summary rows (`Average:` and its translations: `Moyenne :`, `Durchschn.:`, `Media:`, `Média:`,
//! `Promedio:`, `Gemiddeld:`, `Среднее:`, `平均值:`, `平均時間：`, …; and the bare `Average` of
//! AIX/Solaris/HP-UX) go to one report per segment with `summary: true` and no timestamp. They are
//! found generically: where a time is expected, one to three tokens ending with `:` (or `：`),
//! followed by the table's columns.
//!
//! `sar -x` (12.7+) prints, after the intervals, one `Summary:` block per device with `Minimum:`,
//! `Maximum:` and `Average:` rows: the `Average:` row is a summary; the minimum and maximum rows
//! are left out, each counted in [`DeviceLog::skipped`] (a translated label is recognised by its
//! place: the last row of its device in the block is the average).
//!
//! # Tolerated quirks
//! - 12-hour `%X` times (`09:23:50 PM`: two tokens), 24-hour times, `12.30.45`, and CJK/Korean
//!   times (`17時45分02秒`, `17시 45분 02초`);
//! - ANSI colour escapes (`S_COLORS=always`), CRLF, blank lines, `COM …` comment rows;
//! - `--human`/`-h` values (`1.6k`, `40.5M`, `85.4%`: 1024-based, converted back into the column's
//!   unit), `--dec=0|1|2`;
//! - decimal commas (`0,06`, LC_NUMERIC) when every value of the table that has a separator uses a
//!   comma; a table mixing `,` and `.` is an error naming the line (sar prints no thousands
//!   separators, so a comma is never read as one);
//! - a disk-table row whose field count differs from its header's, or with a value that is not a
//!   number, is left out and counted in [`DeviceLog::skipped`] with its line and what was expected;
//! - text that is not sar output outside the tables (shell prompts, collector footers) is ignored
//!   and reported once in the warnings.
//!
//! A file with `sar` tables but none about disks (`sar -u`, `sar -q`, a version banner) is an error
//! saying it holds no disk statistics.
//!
//! # Example
//! From `sysstat-tests/tests/expected.sar-dev` (sysstat 12.7, `sar --dev=sda -dp`, name last):
//! ```text
//! Linux 1.2.3-TEST (SYSSTAT.TEST)     04/18/19        _x86_64_        (9 CPU)
//!
//! 13:20:09          tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util DEV
//! 13:20:39      1604.70  41499.97  10663.48      0.00     32.51     18.56     12.00     85.36 sda
//! ```
//! gives a report with `timestamp: "13:20:39"` whose `sda` sample has `values[0] = ("tps",
//! Some(1604.70))` and `normalised = { total_iops: 1604.70, read_bytes_per_s: 41499.97 × 1024,
//! write_bytes_per_s: 10663.48 × 1024, discard_bytes_per_s: 0, avg_request_bytes: 32.51 × 1024,
//! queue_depth: 18.56, await_ms: 12.00, util_pct: 85.36, read_iops: None, … }`.
//!
//! ```
//! let text = "Linux 5.14.0 (db01) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
//!             10:00:00  tps  rtps  wtps  bread/s  bwrtn/s\n\
//!             10:00:10  30.00  10.00  20.00  160.00  320.00\n\n\
//!             10:00:00  DEV  tps  rkB/s  wkB/s  areq-sz  aqu-sz  await  %util\n\
//!             10:00:10  sda  30.00  80.00  160.00  8.00  0.05  1.50  2.00\n\
//!             Average:  sda  30.00  80.00  160.00  8.00  0.05  1.50  2.00\n";
//! let log = sizer_parsers::sar::parse(text).unwrap();
//! assert_eq!(log.reports.len(), 2);
//! let r = &log.reports[0];
//! assert_eq!(r.timestamp.as_deref(), Some("10:00:10"));
//! let b = &r.devices[0];
//! assert_eq!((b.device.as_str(), b.group), ("sar -b", true));
//! assert_eq!(b.normalised.read_bytes_per_s, Some(160.0 * 512.0));
//! assert_eq!(r.devices[1].normalised.write_bytes_per_s, Some(160.0 * 1024.0));
//! assert!(log.reports[1].summary);
//! ```
//!
//! # Streaming
//! [`SarText`] streams ([`crate::parser::FormatParser::streams`]): `parse_stream` reads the lines
//! one at a time (`lines::with_stream_lines`) through the same reader as [`parse`] and
//! [`crate::parser::FormatParser::parse`] (which take `lines::text_lines`), so the three
//! give the same records. The text is never held: each disk-table row is converted as soon as it
//! is read, and the reader keeps only parsed state — the reports of the current run (samples
//! merged by segment and time), the open table's header and columns, the run-segment and clock
//! counters, the lines left out and the warnings. (Only the rows of a `sar -x` summary block
//! from its first row with a translated label on wait, converted, for the end of the block: the
//! last such row of a device is its average.)
//!
//! sar prints each activity for every interval in turn (`sar -A -f`: all the `-d` intervals,
//! then all the `-b` intervals, which belong to the same reports), and a live run interleaves
//! them: a later table of the same run may add to any of its intervals, so no report of a run is
//! complete before the run ends. The reports of a run are handed to the sink, in order, when the
//! next banner starts another run (concatenated files), and those of the last run at the end of
//! the file — for the usual file of one banner, all of them at the end.
//! [`crate::parser::ParseSettings::keep_values`] `= false` leaves [`DeviceSample::values`] empty
//! (only `normalised` is kept), which makes the held reports smaller.
//!
//! # Module layout
//! Flow: [`parse`] reads lines in order. A banner (`tokens`) starts a run and hands the reports
//! of the run before it over; a header row opens a table (`table`: which kind, disk, `-b` totals
//! or a Unix sar, and its columns); each row's time prefix and label (`tokens`) say whether it is
//! an interval, a restart or a summary, and `table` splits it. `reports` converts each row at
//! once (`columns`: units and aliases per platform) and merges it into the report of its run
//! segment and time stamp; when the next header (or the end) closes the table, it checks the
//! table's decimal separator and settles the rows that waited.

mod columns;
mod reports;
mod table;
mod tokens;

pub use crate::disk::{
    CpuUtil, DeviceLog, DeviceReport, DeviceSample, Normalised, SkippedLine, SystemHeader,
};
use crate::error::ParseError;
use crate::lines::{clip, strip_ansi, CLIP_SYSSTAT};
use reports::{finish_table, take_row, Builder, Segments};
use table::{is_restart, new_table, read_row, stamp_of, table_kind, Stamp, Table};
use tokens::{banner_line, colon_label, numeric, time_prefix};

/// Format id of the logs this module produces ([`DeviceLog::format`]).
pub const FORMAT_ID: &str = "sar_text";

/// Device name given to the `sar -b` rows (host totals over the whole disks, [`DeviceSample::group`]
/// set: never add them to the `sar -d` devices).
pub const SAR_B_DEVICE: &str = "sar -b";

/// Section name used in errors.
const SECTION: &str = "sar disk activity";

/// Decodes bytes (rejecting empty and binary input, see [`crate::input::decode`]) and parses them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<DeviceLog, ParseError> {
    let d = crate::input::decode(bytes)?;
    parse(&d.text)
}

/// True when the text starts like `sar` text output: a `Linux (host)`/`SunOS`/`AIX`/`HP-UX`
/// banner followed by a time-stamped activity header (`09:00:01  CPU  %user …`, `08:51:10  LINUX
/// RESTART`), or, without a banner, a time-stamped disk header (`DEV … tps`, `device … r+w/s`).
/// Looks at the first 64 KiB only. iostat, sadf, nmon and AWR files never have a line that starts
/// with a bare time of day followed by column names.
pub fn looks_like(text: &str) -> bool {
    let mut end = text.len().min(64 * 1024);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut banner = false;
    for line in text[..end].lines() {
        let line = strip_ansi(line);
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.is_empty() {
            continue;
        }
        if banner_line(&toks).is_some() {
            banner = true;
            continue;
        }
        if let Some((n, _)) = time_prefix(&toks) {
            let rest = &toks[n..];
            if !rest.is_empty()
                && rest.iter().all(|t| !numeric(t))
                && (banner || table_kind(rest).is_some())
            {
                return true;
            }
        }
    }
    false
}

/// Everything the line loop accumulates: parsed state only (the reports of the current banner's
/// run, the open table's header and counters), never the text.
struct State {
    log: DeviceLog,
    segments: Segments,
    builder: Builder,
    table: Option<Table>,
    disk_tables: usize,
    other_tables: Vec<String>,
    sar_seen: bool,
    unrelated: usize,
    first_unrelated: Option<(usize, String)>,
    extremes: usize,
    /// Keep every printed column in [`DeviceSample::values`].
    keep_values: bool,
    /// `sar -u` rows of all CPUs in this run: (time as printed, or None for `Average:`), in
    /// order; joined to the run's reports of the same time when they are handed over.
    cpu_rows: Vec<(Option<String>, CpuUtil)>,
}

/// The warning for a SunOS 5.10+ `sar -u` table, whose `%wio` is printed but not measured.
const WIO_UNMEASURED: &str = "host CPU %wio is printed but not used: SunOS 5.10 (Solaris 10) and later always print it as 0 (OpenSolaris perf-discuss, quoted at https://prefetch.net/blog/2005/06/12/mpstats-wi-wait-on-io-statistic), so the IO wait is unknown; busy = 100 − %idle";

/// True for a `SunOS` banner of release 5.10 (Solaris 10) or later, whose `%wio` is always 0.
fn sunos_10_or_later(h: Option<&SystemHeader>) -> bool {
    h.is_some_and(|h| {
        h.sysname.eq_ignore_ascii_case("SunOS")
            && h.kernel
                .split_once('.')
                .and_then(|(maj, min)| Some((maj.parse::<u32>().ok()?, min.parse::<u32>().ok()?)))
                .is_some_and(|v| v >= (5, 10))
    })
}

/// Gives each report the `sar -u` row of its time (the first not yet used: a log of several
/// days prints each time once a day, in order), the summary report the `Average:` row.
fn attach_cpu(reports: &mut [DeviceReport], rows: &mut Vec<(Option<String>, CpuUtil)>) {
    for r in reports.iter_mut() {
        let key = if r.summary { None } else { r.timestamp.clone() };
        if let Some(i) = rows.iter().position(|(t, _)| *t == key) {
            r.cpu = Some(rows.remove(i).1);
        }
    }
    rows.clear();
}

/// Parses sar text.
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text has neither a sar banner nor a time-stamped sar
/// table; [`ParseError::Section`] when it holds no disk statistics (only other activities, or disk
/// tables without a readable row), or when a disk table mixes decimal commas and points.
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    let mut kept: Vec<DeviceReport> = Vec::new();
    let (mut log, _) = read_lines(crate::lines::text_lines(text), true, &mut |done, _| {
        kept.append(done);
        Ok(true)
    })?;
    log.reports = kept;
    Ok(log)
}

/// Reads sar text over `lines` (the whole text's or a stream's) into `sink`, the first report
/// since boot or not as `settings` says, with every printed column kept when
/// [`crate::parser::ParseSettings::keep_values`] is set.
///
/// # Errors
/// As [`parse`] (an error after a banner comes after the reports of the runs before it: the sink
/// drops them), or the sink's.
fn stream_into<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
    settings: &crate::parser::ParseSettings,
    sink: &mut dyn crate::sink::Sink,
) -> Result<(), ParseError> {
    let mut out = crate::sink::DeviceStream::new(sink, crate::Format::SarText, settings);
    let (log, stopped) = read_lines(lines, settings.keep_values, &mut |done, header| {
        for r in done.drain(..) {
            if !out.report(r, header)? {
                return Ok(false);
            }
        }
        Ok(true)
    })?;
    if stopped {
        return Ok(());
    }
    out.finish(log.warnings, log.skipped)
}

/// The finished reports, with the log's banner so far: `Ok(false)` stops the read.
type Flush<'a> =
    dyn FnMut(&mut Vec<DeviceReport>, Option<&SystemHeader>) -> Result<bool, ParseError> + 'a;

/// The sar reader over any lines. `flush` receives the finished reports in order (and empties
/// the vector): those of a run when the next banner starts another (a later table of the same
/// run may add to any of its intervals, so none is complete before), and the last run's at the
/// end. Returns the log (header, warnings and skipped lines; its `reports` empty) and whether
/// `flush` stopped the read.
fn read_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
    keep_values: bool,
    flush: &mut Flush<'_>,
) -> Result<(DeviceLog, bool), ParseError> {
    let mut st = State {
        log: DeviceLog::new(FORMAT_ID),
        segments: Segments::default(),
        builder: Builder::default(),
        cpu_rows: Vec::new(),
        table: None,
        disk_tables: 0,
        other_tables: Vec::new(),
        sar_seen: false,
        unrelated: 0,
        first_unrelated: None,
        extremes: 0,
        keep_values,
    };
    let mut banner_seen = false;
    let mut handed = 0usize;
    for (i, raw) in lines.enumerate() {
        let raw = raw?;
        let no = i + 1;
        let line = strip_ansi(raw.as_ref().trim_end_matches('\r'));
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.is_empty() {
            continue;
        }
        if let Some(h) = banner_line(&toks) {
            banner_seen = true;
            finish_table(&mut st)?;
            st.segments.banner();
            if st.log.header.is_none() {
                st.log.header = Some(h);
            }
            // The runs before this banner are complete.
            let mut done = std::mem::take(&mut st.builder).finish();
            attach_cpu(&mut done, &mut st.cpu_rows);
            if !done.is_empty() {
                handed += done.len();
                if !flush(&mut done, st.log.header.as_ref())? {
                    return Ok((st.log, true));
                }
            }
            continue;
        }
        // AIX: `System configuration: lcpu=8 ent=0.40 mode=Uncapped`, for the first run's
        // banner only (the header is handed over when the second banner starts another run).
        if toks.len() >= 2 && toks[0] == "System" && toks[1] == "configuration:" {
            if let Some(h) = st.log.header.as_mut().filter(|_| st.segments.epoch == 1) {
                if h.cpus.is_none() {
                    h.cpus = toks
                        .iter()
                        .find_map(|t| t.strip_prefix("lcpu=").and_then(|n| n.parse().ok()));
                }
            }
            continue;
        }
        let strict = time_prefix(&toks)
            .map(|(n, _)| n)
            .or_else(|| colon_label(&toks));
        if let Some(n) = strict {
            let rest = &toks[n..];
            if is_restart(rest) {
                st.segments.restarts += 1;
                st.sar_seen = true;
                continue;
            }
            if rest.first() == Some(&"COM") && time_prefix(&toks).is_some() {
                continue;
            }
            if !rest.is_empty() && rest.iter().all(|t| !numeric(t)) {
                finish_table(&mut st)?;
                let stamp = stamp_of(&toks);
                st.sar_seen |= matches!(stamp, Stamp::Time { .. });
                st.table = Some(new_table(&mut st, rest, stamp, no, &line));
                continue;
            }
        }
        match st.table.as_mut() {
            None => {
                st.unrelated += 1;
                st.first_unrelated
                    .get_or_insert_with(|| (no, clip(line.trim(), CLIP_SYSSTAT)));
            }
            Some(t) if t.kind.is_none() => {
                if t.cpu {
                    let wio_measured = !sunos_10_or_later(st.log.header.as_ref());
                    if let Some(row) = table::cpu_row(t, &toks, wio_measured) {
                        if !wio_measured && t.columns.iter().any(|c| c == "%wio") {
                            st.log.warn(WIO_UNMEASURED.to_string());
                        }
                        st.cpu_rows.push(row);
                    }
                }
            }
            Some(t) => {
                let kind = t.kind.expect("a disk table");
                let seg = st.segments.of(kind);
                match read_row(t, &toks, no, seg) {
                    Ok(row) => take_row(&mut st, row),
                    Err(reason) => st.log.skipped.push(SkippedLine { line: no, reason }),
                }
            }
        }
    }
    finish_table(&mut st)?;

    if !st.sar_seen {
        let found = if banner_seen {
            "found a banner but no time-stamped sar table, so no disk statistics"
        } else {
            "found neither"
        };
        return Err(ParseError::UnknownFormat {
            reason: format!(
                "expected sar text output (a 'Linux … (host) date', 'SunOS', 'AIX' or 'HP-UX' \
                 banner and time-stamped activity tables such as '10:00:01 DEV tps …'): {found}"
            ),
        });
    }
    if let Some((line, text)) = &st.first_unrelated {
        st.log.warn(format!(
            "{} line(s) that are not sar output were ignored (first: line {line}: '{text}')",
            st.unrelated
        ));
    }
    if st.extremes > 0 {
        st.log.warn(format!(
            "sar -x extended report: {} minimum/maximum row(s) left out (counted in skipped)",
            st.extremes
        ));
    }
    let expected =
        "a sar disk table: Linux 'sar -d' (DEV … tps …), 'sar -b' (tps rtps wtps …), or \
                    AIX/Solaris/HP-UX 'sar -d' (device %busy avque r+w/s …)";
    if st.disk_tables == 0 {
        let seen = if st.other_tables.is_empty() {
            "no activity table".to_string()
        } else {
            format!("only other activities ({})", st.other_tables.join("; "))
        };
        return Err(ParseError::section(
            SECTION,
            None,
            expected,
            format!("no disk statistics in this sar file: {seen}"),
        ));
    }
    let mut reports = st.builder.finish();
    attach_cpu(&mut reports, &mut st.cpu_rows);
    if handed == 0 && reports.is_empty() {
        let why = match st.log.skipped.first() {
            Some(s) => format!(
                "{} row(s) left out (first: line {}: {})",
                st.log.skipped.len(),
                s.line,
                s.reason
            ),
            None => "the disk tables have no rows".to_string(),
        };
        return Err(ParseError::section(
            SECTION,
            None,
            expected,
            format!("no disk statistics could be read: {why}"),
        ));
    }
    let stopped = !flush(&mut reports, st.log.header.as_ref())?;
    Ok((st.log, stopped))
}

/// The sar text format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct SarText;

impl crate::parser::FormatParser for SarText {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::SarText,
            id: "sar_text",
            name: "sar log",
            kind: crate::sink::RecordKind::Devices,
            description:
                "`sar -d` / `-b` / `-A` text: Linux sysstat (any locale), AIX, Solaris, HP-UX",
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
        stream_into(crate::lines::text_lines(text), settings, sink)
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
        crate::lines::with_stream_lines(src, |lines| stream_into(lines, settings, sink))
    }
}

#[cfg(test)]
mod tests {
    use super::columns::unix_aggregate;
    use super::tokens::bare_label;
    use super::*;
    use crate::disk::sysstat_cell as cell;

    fn tp(s: &str) -> Option<(usize, u32)> {
        let toks: Vec<&str> = s.split_whitespace().collect();
        time_prefix(&toks)
    }

    #[test]
    fn times() {
        assert_eq!(tp("13:20:19 sda 1.0"), Some((1, 13 * 3600 + 20 * 60 + 19)));
        assert_eq!(
            tp("09:23:50 PM dev8-0"),
            Some((2, 21 * 3600 + 23 * 60 + 50))
        );
        assert_eq!(tp("12:00:01 AM x"), Some((2, 1)));
        assert_eq!(tp("12:00:01 PM x"), Some((2, 12 * 3600 + 1)));
        assert_eq!(tp("17時45分02秒 DEV"), Some((1, 17 * 3600 + 45 * 60 + 2)));
        assert_eq!(tp("17시 45분 02초 DEV"), Some((3, 17 * 3600 + 45 * 60 + 2)));
        assert_eq!(tp("12.30.45 DEV"), Some((1, 12 * 3600 + 30 * 60 + 45)));
        assert_eq!(tp("1.5 2.5"), None);
        assert_eq!(tp("Average: sda"), None);
        assert_eq!(tp("sd4,a 1 0.0"), None);
    }

    #[test]
    fn labels() {
        let cl = |s: &str| colon_label(&s.split_whitespace().collect::<Vec<_>>());
        assert_eq!(cl("Average: sda 1.0"), Some(1));
        assert_eq!(cl("Moyenne : sda 1,0"), Some(2));
        assert_eq!(cl("Trung bình: sda 1.0"), Some(2));
        assert_eq!(cl("平均時間： sda 1.0"), Some(1));
        assert_eq!(cl("Durchschn.: 1,0"), Some(1));
        assert_eq!(cl("sda 1.0 2.0"), None);
        assert_eq!(cl("13:20:19 sda"), None);
        assert!(bare_label("Average"));
        assert!(!bare_label("iscsi0"));
    }

    #[test]
    fn banners() {
        let b = |s: &str| banner_line(&s.split_whitespace().collect::<Vec<_>>());
        let h = b("SunOS ala52s01 5.11 11.3 sun4v    05/26/2017").unwrap();
        assert_eq!(
            (h.kernel.as_str(), h.host.as_str(), h.arch.as_deref()),
            ("5.11", "ala52s01", Some("sun4v"))
        );
        assert_eq!(h.date.as_deref(), Some("05/26/2017"));
        let h = b("AIX aixdb01 1 7 00F93CFF4C00    01/02/24").unwrap();
        assert_eq!(h.kernel, "7.1");
        let h = b("HP-UX hpdb01 B.11.31 U ia64    03/21/18").unwrap();
        assert_eq!(
            (h.kernel.as_str(), h.arch.as_deref()),
            ("B.11.31", Some("ia64"))
        );
        let h = b("Linux 3.10.0-327.el7.x86_64 (h.example.com) \t03/28/16 \t_x86_64_\t(48 CPU)")
            .unwrap();
        assert_eq!((h.cpus, h.date.as_deref()), (Some(48), Some("03/28/16")));
        assert!(b("AIX is a UNIX").is_none());
        assert!(b("Linux is nice").is_none());
    }

    #[test]
    fn aggregates() {
        for n in [
            "mpt_sas3", "iscsi0", "scsi_vhc", "xhci0,bu", "sd5.t3.m", "sd10.t6.",
        ] {
            assert!(unix_aggregate(n), "{n}");
        }
        for n in [
            "sd5", "sd5,a", "nfs1", "hdisk0", "disk3", "c0t6d0", "cd0", "dad1",
        ] {
            assert!(!unix_aggregate(n), "{n}");
        }
    }

    #[test]
    fn cells() {
        assert_eq!(cell("1.6k", "rkB/s", false), Ok(Some(1.6)));
        assert_eq!(cell("40.5M", "rkB/s", false), Ok(Some(40.5 * 1024.0)));
        assert_eq!(cell("85.4%", "%util", false), Ok(Some(85.4)));
        assert_eq!(cell("0,06", "tps", true), Ok(Some(0.06)));
        assert!(cell("x1", "tps", false).is_err());
    }
}
