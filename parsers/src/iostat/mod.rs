//! Linux sysstat `iostat` **text** output (basic and `-x`), into typed records.
//!
//! [`crate::detect`] recognises it ([`looks_like`]); [`parse`] / [`parse_bytes`] read a whole text,
//! and [`Reader`] streams a log of any size one report at a time. `sar`, `sadf`, `-o JSON`, nmon,
//! AIX and Solaris `iostat` are not read here.
//!
//! # Module layout
//! Flow: bytes or a [`std::io::BufRead`] → `reader` (the streaming state machine: banners, headers,
//! rows, one report at a time) → `values` (a data line split and its numbers read in one pass)
//! → `plan` (each header's columns mapped once to [`Normalised`] fields). This file holds
//! detection, the whole-text wrappers ([`parse`], [`parse_with`]), the sink entry
//! ([`stream_into`], lenient) and the banner and header line readers.
//!
//! # Accepted versions and layouts
//! Every column is found by its header **name**, never by its position, so any sysstat version
//! from 7.x to 12.7 whose header names are listed below is read:
//! - basic report: `tps Blk_read/s Blk_wrtn/s Blk_read Blk_wrtn` (≤ 9.1.0 default, or
//!   `POSIXLY_CORRECT`), `tps kB_read/s …` / `MB_read/s …` (`-k`/`-m`, default kB since 9.1.1),
//!   12.1.2+ with discard (`kB_dscd/s kB_dscd`), and `-s` short (`kB_w+d/s kB_w+d`);
//! - `-x` up to 9.1.1: `rrqm/s wrqm/s r/s w/s rsec/s wsec/s avgrq-sz avgqu-sz await svctm %util`
//!   (or `rkB/s wkB/s` / `rMB/s wMB/s`); `-G` (12.x, as in sysstat's own tests) prints `GB_…`;
//! - `-x` 9.1.2 – 11.5.6: the same with `r_await w_await` between `await` and `svctm`;
//! - `-x` 11.5.7 – 12.1.1: `r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm r_await w_await aqu-sz
//!   rareq-sz wareq-sz svctm %util`;
//! - `-x` 12.1.2+: per direction `r/s rkB/s rrqm/s %rrqm r_await rareq-sz`, `w/s …`, discard `d/s
//!   dkB/s drqm/s %drqm d_await dareq-sz`, then `aqu-sz %util`; 12.3.1+ adds flush `f/s f_await`;
//! - `-x -s` short: `tps kB/s rqm/s await aqu-sz areq-sz %util` (either order of the last ones);
//! - `Device:` (≤ 11.5.6) or `Device` (≥ 11.5.7) as the **first** header word; or `Device` as the
//!   **last** header word (`-h` ≥ 11.7.4, `--pretty`, `--compact`), where the name ends each line. With
//!   `--pretty -x` the report is split in up to four tables (r, w, d, f): their columns are merged into
//!   one [`DeviceSample`] per device;
//! - the 10.0.1 – 11.7.3 `-h` form (device name alone on its line, values on the next line).
//!
//! # Column aliases and units
//! Units are from the sysstat `iostat(1)` man page and `../shared/reference/iostat-sar-formats.md`
//! §1.4 (read in sysstat's `iostat.c`): a "kB" is 1024 bytes, a sector or block is 512 bytes.
//!
//! | [`Normalised`] field | header names (unit → factor) |
//! |---|---|
//! | `read_iops` | `r/s` (requests/s) |
//! | `write_iops` | `w/s` (requests/s) |
//! | `discard_iops` | `d/s` (requests/s) |
//! | `total_iops` | `tps` (transfers/s); else `r/s + w/s (+ d/s + f/s when printed)` |
//! | `read_bytes_per_s` | `rsec/s`, `Blk_read/s` (512-byte sectors, ×512); `rkB/s`, `kB_read/s` (×1024); `rMB/s`, `MB_read/s` (×1048576); `rGB/s`, `GB_read/s` (`-G`, ×1073741824) |
//! | `write_bytes_per_s` | `wsec/s`, `Blk_wrtn/s` (×512); `wkB/s`, `kB_wrtn/s` (×1024); `wMB/s`, `MB_wrtn/s` (×1048576); `wGB/s`, `GB_wrtn/s` (×1073741824) |
//! | `discard_bytes_per_s` | `dsec/s`, `Blk_dscd/s` (×512); `dkB/s`, `kB_dscd/s` (×1024); `dMB/s`, `MB_dscd/s` (×1048576); `dGB/s`, `GB_dscd/s` (×1073741824) |
//! | `total_bytes_per_s` | `-x -s`: `sec/s` (×512), `kB/s` (×1024), `MB/s` (×1048576), `GB/s` (×1073741824) (read + write + discard) |
//! | `read_await_ms` / `write_await_ms` | `r_await` / `w_await` (ms, 9.1.2+) |
//! | `await_ms` | `await` (ms; ≤ 11.5.6 `-x`, and `-x -s`); **not** derived when absent |
//! | `queue_depth` | `avgqu-sz` (≤ 11.5.6), `aqu-sz` (≥ 11.5.7) (requests) |
//! | `avg_request_bytes` | `avgrq-sz` (sectors, ×512), `areq-sz` (kB, ×1024); else derived from `rareq-sz`/`wareq-sz` weighted by `r/s`/`w/s` when their sum is > 0 |
//! | `read_request_bytes` / `write_request_bytes` | `rareq-sz` / `wareq-sz` (kB, ×1024, 11.5.7+) |
//! | `util_pct` | `%util` (shown only: meaningless for NVMe/RAID/SAN) |
//!
//! A column that was not printed gives `None`, never 0. `svctm`, merges (`rrqm/s`, `%rrqm`, …),
//! `d_await`, `f/s`, `f_await`, interval totals (`kB_read`, `Blk_wrtn`, …) and `-s` merged columns
//! (`kB_w+d/s`, `rqm/s`) stay in [`DeviceSample::values`] only. A header name this module does not
//! know is kept in `values` too and listed once in [`IostatLog::warnings`].
//!
//! # Tolerated quirks
//! - the banner's space + TAB separators; 7.x banners without `_arch_` and `(N CPU)`;
//! - `avg-cpu:` blocks (read by column name into `DeviceReport::cpu`), blank lines, CRLF, ANSI colour escapes (`S_COLORS=always`);
//! - `-t` timestamp lines kept **as printed**: ISO `2024-01-02T10:00:00+0100`, `MM/DD/YY HH:MM:SS`,
//!   `DD/MM/YY …`, `YYYY-MM-DD HH:MM:SS`, `DD.MM.YYYY …`, 12-hour `… HH:MM:SS AM|PM`, and 7.x
//!   `Time: 03:49:57 PM` (time only). Date order is **not** resolved here (01/02/24 is ambiguous);
//! - device names as printed (`-p` partitions, `-N` `vg-lv`, `-j` names with `:`), `-z` (the
//!   device set may change between reports), `-g` group rows (name printed with a leading space:
//!   trimmed, and [`DeviceSample::group`] set);
//! - `--dec=0|1|2`; `--human`/`-h` values (`222.1k`, `1.5G`: 1024-based, converted back to the column's
//!   unit; a trailing `%` is dropped);
//! - a decimal comma (`0,06`, LC_NUMERIC) is accepted only when **every** value of the report that
//!   has a separator uses a comma; a report mixing `,` and `.` is an error (iostat never prints
//!   thousands separators, so a comma is never read as one);
//! - several runs concatenated: each banner starts a new run.
//!
//! `since_boot` is set on the first report of each run (after a banner, or the first of the file).
//! Whether `-y` was used cannot be seen in the text: call [`parse_with`] with
//! [`ReaderOptions::first_is_since_boot`] `= false` when the log was taken with `-y`.
//!
//! # Streaming and speed
//! [`Reader`] reads line by line from any [`std::io::BufRead`] (in place in the source's buffer),
//! keeps only the report being read and yields it as soon as the next one starts, so memory does
//! not grow with the log; [`parse_with`] is a thin wrapper collecting it. The decimal separator is
//! still decided per report (the report's lines are kept until it ends). A data line is split and
//! its numbers read in one pass: a plain decimal (`-?[0-9]+(.[0-9]+)?%?`, ≤ 15 digits) is read
//! exactly as `str::parse::<f64>` reads it (one division by an exact power of ten); anything else
//! goes through the general cell reader. Each header's columns are mapped once to the
//! [`Normalised`] fields they feed, by asking [`sysstat_normalise`] itself column by column, and
//! the mapping is checked against it on probe rows (a header whose mapping does not match is
//! normalised by [`sysstat_normalise`] sample by sample). With [`ReaderOptions::keep_values`] `= false`
//! nothing is allocated per column. Measured rates are in `docs/performance.md` (`benches/iostat.sh`).
//!
//! # Example
//! From `linux-iostat-10.1.5-centos7-x-kBps.txt` (corpus), sysstat 10.1.5 `iostat -x`:
//! ```text
//! Linux 3.10.0-1062.1.2.el7.x86_64 (localhost.localdomain)  11/30/2021  _x86_64_ (1 CPU)
//!
//! Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util
//! sda               0.00     0.02    0.13    0.11     5.27     1.10    52.53     0.00    0.88    0.53    1.29   0.52   0.01
//! ```
//! gives `header = { kernel: "3.10.0-1062.1.2.el7.x86_64", host: "localhost.localdomain", date:
//! "11/30/2021", arch: "x86_64", cpus: 1 }` and one report (`since_boot: true`) whose `sda` sample
//! has `values[2] = ("r/s", Some(0.13))` and `normalised = { read_iops: 0.13, write_iops: 0.11,
//! read_bytes_per_s: 5.27 × 1024 = 5396.48, write_bytes_per_s: 1126.4, await_ms: 0.88,
//! read_await_ms: 0.53, write_await_ms: 1.29, queue_depth: 0.00, avg_request_bytes: 52.53 × 512,
//! util_pct: 0.01, total_iops: 0.24, … }`.
//!
//! ```
//! let text = "Linux 5.8.0 (h) \t12/02/2021 \t_x86_64_\t(2 CPU)\n\n\
//!             Device  r/s  rkB/s  r_await  aqu-sz  %util\nsda  2.00  8.00  0.50  0.01  0.40\n";
//! let log = sizer_parsers::iostat::parse(text).unwrap();
//! let sda = &log.reports[0].devices[0];
//! assert_eq!(sda.normalised.read_bytes_per_s, Some(8192.0));
//! assert_eq!(sda.normalised.write_iops, None);
//! ```

use std::borrow::Cow;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use memchr::memchr;
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case};
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::Parser;

use crate::error::ParseError;

#[cfg(test)]
use crate::disk::MIB;
use crate::disk::{sysstat_known as known_column, sysstat_normalise};
pub use crate::disk::{
    DeviceLog, DeviceReport, DeviceSample, Normalised, SkippedLine, SystemHeader,
};

mod detect;
mod plan;
mod reader;
mod values;
use plan::*;
pub use reader::Reader;
use reader::*;
use values::*;

/// An `iostat` log: a [`DeviceLog`] of format `iostat_text`.
pub type IostatLog = DeviceLog;
/// One `iostat` interval report.
pub type IostatReport = DeviceReport;

/// How a [`Reader`] (and [`parse_with`]) reads: what the text cannot say (`-y`) and whether to
/// keep every printed column.
#[derive(Debug, Clone, Copy)]
pub struct ReaderOptions {
    /// Mark the first report of each run as since boot. `true` by default; set `false` for logs
    /// taken with `iostat -y` (which the text does not show).
    pub first_is_since_boot: bool,
    /// Keep every printed column in [`DeviceSample::values`]. `true` by default. With `false`,
    /// `values` stays empty and only [`DeviceSample::normalised`] is filled, without an allocation
    /// per column (for big logs). Every cell is still checked: a value that is not a number is the
    /// same error either way, and `normalised` is the same either way.
    pub keep_values: bool,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            first_is_since_boot: true,
            keep_values: true,
        }
    }
}

/// Section name used in errors.
const SECTION: &str = "iostat device report";

/// Decodes bytes (rejecting empty and binary input, see [`crate::input::decode`]) and parses them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<IostatLog, ParseError> {
    let d = crate::input::decode(bytes)?;
    parse(&d.text)
}

/// Parses iostat text with the default [`ReaderOptions`].
///
/// # Errors
/// [`ParseError::UnknownFormat`] when there is neither a banner nor a device header;
/// [`ParseError::Section`] for a data line whose value count differs from its header's, a value
/// that is not a number, or a report mixing decimal commas and points.
pub fn parse(text: &str) -> Result<IostatLog, ParseError> {
    parse_with(text, ReaderOptions::default())
}

/// True when the text starts like iostat output: a `Linux … (host)` banner followed by a device
/// header or `avg-cpu:` line within the first 50 lines; or, without a banner, first lines that
/// are all iostat's and show a report (a log cut from a terminal: see `detect.rs`).
pub fn looks_like(text: &str) -> bool {
    let mut banner = false;
    for line in text.lines().take(50) {
        let line = strip_ansi(line);
        if banner_line(&line).is_some() {
            banner = true;
        } else if banner
            && (line.trim_start().starts_with("avg-cpu:") || header_line(&line).is_some())
        {
            return true;
        }
    }
    !banner && detect::bannerless(text)
}

/// Parses iostat text: the whole log in memory, a thin wrapper collecting a [`Reader`].
///
/// When several things are wrong, the error returned is the one a whole-text parse meets first:
/// a malformed line or a text that is not iostat output, else the first report (in file order)
/// with a bad value.
///
/// # Errors
/// As [`parse`].
pub fn parse_with(text: &str, opts: ReaderOptions) -> Result<IostatLog, ParseError> {
    let mut reader = Reader::with_bom(text.as_bytes(), opts, false);
    let mut reports = Vec::new();
    let mut first_err: Option<ParseError> = None;
    while let Some(item) = reader.next() {
        match item {
            Ok(r) if first_err.is_none() => reports.push(r),
            Ok(_) => {}
            Err(e) if reader.st.fatal => return Err(e),
            Err(e) => {
                if first_err.is_none() {
                    first_err = Some(e);
                    reports = Vec::new();
                }
            }
        }
    }
    if let Some(e) = first_err {
        return Err(e);
    }
    let mut log = DeviceLog::new("iostat_text");
    log.header = reader.st.header;
    log.reports = reports;
    log.warnings = reader.st.warnings;
    log.skipped = reader.st.skipped;
    Ok(log)
}

use crate::lines::{clip, strip_ansi, CLIP_SYSSTAT};

/// `Linux <release> (<host>) <date…> [_<arch>_] [(<N> CPU)]`.
fn banner_line(line: &str) -> Option<SystemHeader> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    crate::disk::linux_banner(&toks)
}

/// A device header: `Device[:] col…` or `col… Device`. Returns the column names and whether the
/// device name is last.
fn header_line(line: &str) -> Option<(Vec<String>, bool)> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.len() < 2 {
        return None;
    }
    let is_dev = |t: &str| t == "Device" || t == "Device:";
    let looks_col = |t: &str| !t.starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    if is_dev(toks[0]) && toks[1..].iter().all(|t| looks_col(t)) {
        return Some((toks[1..].iter().map(|s| s.to_string()).collect(), false));
    }
    let last = toks[toks.len() - 1];
    if is_dev(last) && toks[..toks.len() - 1].iter().all(|t| looks_col(t)) {
        return Some((
            toks[..toks.len() - 1]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            true,
        ));
    }
    None
}

type R<'a, O> = nom::IResult<&'a str, O>;

/// `10:00:00` (1–2 digit hour).
fn hms(s: &str) -> R<'_, &str> {
    recognize((digit1, char(':'), digit1, char(':'), digit1)).parse(s)
}

/// A numeric date: three digit groups joined by `/`, `-` or `.` (`01/02/24`, `2024-01-02`, `02.01.2024`).
fn num_date(s: &str) -> R<'_, &str> {
    recognize((digit1, one_of("/-."), digit1, one_of("/-."), digit1)).parse(s)
}

/// `2024-01-02T10:00:00+0100` (offset optional).
fn iso(s: &str) -> R<'_, &str> {
    recognize((
        num_date,
        char('T'),
        hms,
        opt(alt((
            tag("Z"),
            recognize((one_of("+-"), digit1, opt((char(':'), digit1)))),
        ))),
    ))
    .parse(s)
}

fn ampm(s: &str) -> R<'_, &str> {
    alt((tag_no_case("AM"), tag_no_case("PM"))).parse(s)
}

/// A `-t` timestamp line, returned as printed (trimmed).
fn timestamp_line(trimmed: &str) -> Option<String> {
    let ok = all_consuming(alt((
        recognize((tag("Time:"), space0, hms, opt((space1, ampm)))),
        iso,
        recognize((num_date, space1, hms, opt((space1, ampm)))),
    )))
    .parse(trimmed)
    .is_ok();
    ok.then(|| trimmed.to_string())
}

/// The Linux `iostat` text format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct IostatText;

impl crate::parser::FormatParser for IostatText {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::IostatText,
            id: "iostat_text",
            name: "Linux iostat log",
            kind: crate::sink::RecordKind::Devices,
            description: "Linux sysstat `iostat` text (basic or `-x`, 7.x to 12.7, `-t`, `-g`, `-p`, `--pretty`; with or without its banner line)",
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
        crate::parser::devices_into(parse(text), self.info(), settings, sink)
    }

    fn streams(&self) -> bool {
        true
    }

    fn parse_stream(
        &self,
        src: &mut dyn BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        stream_into(src, settings, sink)
    }
}

/// Reads a Linux `iostat` text log from `src` into `sink` one report at a time (see [`Reader`]),
/// leniently: a report with a value that is not a number, or with a line that does not fit its
/// header (a line cut or garbled mid-file, or the last line of a log copied while iostat was
/// still writing it), is left out and counted in the skipped lines (`report left out: …`, with
/// the line and what was expected), and the rest of the log is read. The report is left out
/// whole, not the line alone: its host total would be one device short.
///
/// [`crate::sink::Sink::device_begin`] comes with the first report, carrying the banner read by
/// then.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; the reader's error when no report could
/// be read before it; [`ParseError::Section`] when the log has no device line at all; the sink's.
pub fn stream_into(
    src: &mut dyn BufRead,
    settings: &crate::parser::ParseSettings,
    sink: &mut dyn crate::sink::Sink,
) -> Result<(), ParseError> {
    let opts = ReaderOptions {
        first_is_since_boot: settings.first_report_since_boot,
        keep_values: settings.keep_values,
    };
    let mut reader = Reader::new(src, opts);
    let mut samples = 0usize;
    let mut reports = 0usize;
    let mut left_out: Vec<SkippedLine> = Vec::new();
    // An error followed by more reports was one report's bad value (left out, counted); the
    // last error, with nothing after it, stopped the reader.
    let mut last_err: Option<ParseError> = None;
    while let Some(item) = reader.next() {
        match item {
            Ok(r) => {
                if let Some(e) = last_err.take() {
                    left_out.push(left_out_report(&e));
                }
                if reports == 0 {
                    let start = crate::sink::DeviceLogStart {
                        format: crate::Format::IostatText,
                        header: reader.header(),
                    };
                    if !sink.device_begin(start)? {
                        return Ok(());
                    }
                }
                samples += r.devices.len();
                reports += 1;
                if !sink.device_report(r)? {
                    return Ok(());
                }
            }
            Err(e @ ParseError::Io { .. }) => return Err(e),
            Err(e) => {
                if let Some(prev) = last_err.replace(e) {
                    left_out.push(left_out_report(&prev));
                }
            }
        }
    }
    // A last report in error (a log cut while iostat wrote it) is left out like any other.
    match last_err {
        Some(e) if reports == 0 => return Err(e),
        Some(e) => left_out.push(left_out_report(&e)),
        None => {}
    }
    if samples == 0 {
        return Err(ParseError::section(
            "device statistics",
            None,
            "device statistics in this Linux iostat log",
            format!("{reports} report(s), none with a device line (only CPU figures, or an empty device list: the devices named on the command line were not found)"),
        ));
    }
    let warnings = reader.warnings().to_vec();
    let mut skipped = reader.skipped().to_vec();
    skipped.extend(left_out);
    sink.device_end(crate::sink::DeviceLogEnd { warnings, skipped })
}

/// The skipped-line entry of a report left out for `e`.
fn left_out_report(e: &ParseError) -> SkippedLine {
    let line = match e {
        ParseError::Section { at, .. } | ParseError::Truncated { at, .. } => at.line.unwrap_or(0),
        _ => 0,
    };
    SkippedLine {
        line,
        reason: format!("report left out: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        for t in [
            "2024-01-02T10:00:00+0100",
            "2020-06-01T12:53:20",
            "06/01/20 12:53:20",
            "06/14/2018 06:08:37 PM",
            "Time: 03:49:57 PM",
            "Time: 11:01:52",
            "2013-07-06 21:34:39",
            "06.07.2013 21:34:39",
        ] {
            assert_eq!(timestamp_line(t).as_deref(), Some(t), "{t}");
        }
        assert!(timestamp_line("sda 1.00 2.00").is_none());
        assert!(timestamp_line("06/01/20").is_none());
    }

    #[test]
    fn banners() {
        let h = banner_line("Linux 5.8.0-53-generic (ubuntu) \t12/02/2021 \t_x86_64_\t(2 CPU)")
            .unwrap();
        assert_eq!(h.kernel, "5.8.0-53-generic");
        assert_eq!(h.host, "ubuntu");
        assert_eq!(h.date.as_deref(), Some("12/02/2021"));
        assert_eq!(h.arch.as_deref(), Some("x86_64"));
        assert_eq!(h.cpus, Some(2));
        let old = banner_line("Linux 2.6.18-371.9.1.el5 (host)    10/07/2014").unwrap();
        assert_eq!((old.arch, old.cpus), (None, None));
        assert_eq!(old.date.as_deref(), Some("10/07/2014"));
    }

    #[test]
    fn human_cells() {
        assert_eq!(cell("222.1k", "kB_read/s", false), Ok(Some(222.1)));
        assert_eq!(cell("1.5G", "kB_read", false), Ok(Some(1.5 * MIB)));
        assert_eq!(cell("0,06", "r/s", true), Ok(Some(0.06)));
        assert_eq!(cell("4.5%", "%util", false), Ok(Some(4.5)));
        assert!(cell("abc", "r/s", false).is_err());
    }

    #[test]
    fn ansi() {
        assert_eq!(strip_ansi("\u{1b}[1;32msda\u{1b}[0m 1.0"), "sda 1.0");
    }

    #[test]
    fn plain_decimals_read_as_str_parse_does() {
        for (t, comma) in [
            ("0.00", false),
            ("12.50", false),
            ("-0.00", false),
            ("99.09%", false),
            ("123456789012.345", false),
            ("7", false),
            ("0,06", true),
            ("386123.65", false),
        ] {
            let d = plain_decimal(t.as_bytes(), comma).unwrap();
            let want: f64 = t.replace(',', ".").trim_end_matches('%').parse().unwrap();
            assert_eq!(d.value().to_bits(), want.to_bits(), "{t}");
            assert_eq!(Decimal::unpack(d.pack()).value().to_bits(), want.to_bits());
            let mut toks = Vec::new();
            tokenize(t, 0, &mut toks);
            if !comma {
                assert_eq!(
                    Decimal::unpack(toks[0].num).value().to_bits(),
                    want.to_bits()
                );
            }
        }
        for t in [
            "",
            "-",
            "%",
            ".5",
            "5.",
            "1e3",
            "1.5k",
            "1,5",
            "1.2.3",
            "--1",
            "5%%",
            "nan",
            "1234567890123456",
        ] {
            assert!(plain_decimal(t.as_bytes(), false).is_none(), "{t}");
            let mut toks = Vec::new();
            tokenize(t, 0, &mut toks);
            assert!(toks.iter().all(|k| k.num == NOT_PLAIN), "{t}");
        }
        // Tokens split as `split_whitespace` splits them, Unicode white space included.
        for s in [
            "sda  1.00\t2.00\u{b}3",
            "sd\u{a0}a 1.00",
            " \u{3000}x  y ",
            "é 1",
        ] {
            let mut toks = Vec::new();
            tokenize(s, 0, &mut toks);
            let got: Vec<&str> = toks.iter().map(|t| &s[t.start..t.end]).collect();
            assert_eq!(got, s.split_whitespace().collect::<Vec<_>>(), "{s:?}");
        }
    }

    /// What [`tokenize`] must give: `split_whitespace` tokens, each read by [`plain_decimal`].
    fn reference(s: &str) -> Vec<(usize, usize, u64)> {
        let p0 = s.as_ptr() as usize;
        s.split_whitespace()
            .map(|t| {
                let a = t.as_ptr() as usize - p0;
                let num = plain_decimal(t.as_bytes(), false).map_or(NOT_PLAIN, Decimal::pack);
                (a, a + t.len(), num)
            })
            .collect()
    }

    proptest::proptest! {
        /// The one-pass scan (with its eight-bytes-at-a-time paths) splits and reads every line
        /// as `split_whitespace` and `plain_decimal` do.
        #[test]
        fn tokenize_equals_split_whitespace_and_plain_decimal(
            parts in proptest::collection::vec(
                (
                    "[ \t\u{b}]{0,9}|[ \u{a0}\u{3000}\u{1}]{1,3}",
                    proptest::prop_oneof![
                        "-?[0-9]{1,10}\\.[0-9]{2}",
                        "-?[0-9]{0,17}\\.?[0-9]{0,4}%?",
                        "[-0-9.,%a-z\u{e9}\u{1}]{1,10}",
                    ],
                ),
                0..16,
            ),
            tail in "[ \t]{0,3}",
        ) {
            let mut line: String = parts.iter().map(|(sep, tok)| format!("{sep}{tok}")).collect();
            line.push_str(&tail);
            let mut toks = Vec::new();
            tokenize(&line, 0, &mut toks);
            let got: Vec<(usize, usize, u64)> = toks.iter().map(|t| (t.start, t.end, t.num)).collect();
            proptest::prop_assert_eq!(got, reference(&line), "{:?}", line);
        }
    }

    #[test]
    fn two_decimals_reads_sysstat_values() {
        let s = b"sda              6.90    222.14 -0.39 12345678.25 123456789.25 5.38  0.46";
        let mut toks = Vec::new();
        assert!(scan_ascii(s, 0, &mut toks));
        let line = std::str::from_utf8(s).unwrap();
        let got: Vec<(usize, usize, u64)> = toks.iter().map(|t| (t.start, t.end, t.num)).collect();
        assert_eq!(got, reference(line));
        assert_eq!(two_decimals(s, 17), Some((21, toks[1].num)));
        assert_eq!(Decimal::unpack(toks[4].num).value(), 12345678.25);
        assert_eq!(
            two_decimals(s, 50),
            None,
            "nine integer digits: the general scan"
        );
        assert_eq!(Decimal::unpack(toks[5].num).value(), 123456789.25);
        assert_eq!(
            Decimal::unpack(toks[3].num).value().to_bits(),
            (-0.39f64).to_bits()
        );
    }

    /// Every sysstat column name, an unknown one and a duplicate-prone few.
    const NAMES: &[&str] = &[
        "r/s",
        "rtps",
        "w/s",
        "wtps",
        "d/s",
        "dtps",
        "f/s",
        "tps",
        "rsec/s",
        "rd_sec/s",
        "Blk_read/s",
        "bread/s",
        "rkB/s",
        "kB_read/s",
        "rMB/s",
        "MB_read/s",
        "rGB/s",
        "GB_read/s",
        "wsec/s",
        "wr_sec/s",
        "Blk_wrtn/s",
        "bwrtn/s",
        "wkB/s",
        "kB_wrtn/s",
        "wMB/s",
        "MB_wrtn/s",
        "wGB/s",
        "GB_wrtn/s",
        "dsec/s",
        "Blk_dscd/s",
        "bdscd/s",
        "dkB/s",
        "kB_dscd/s",
        "dMB/s",
        "MB_dscd/s",
        "dGB/s",
        "GB_dscd/s",
        "sec/s",
        "kB/s",
        "MB/s",
        "GB/s",
        "avgrq-sz",
        "areq-sz",
        "avgqu-sz",
        "aqu-sz",
        "rareq-sz",
        "wareq-sz",
        "dareq-sz",
        "r_await",
        "w_await",
        "d_await",
        "f_await",
        "await",
        "%util",
        "svctm",
        "rrqm/s",
        "%wrqm",
        "kB_read",
        "zz_future",
    ];

    fn bits(n: &Normalised) -> [Option<u64>; FIELDS] {
        fields(n).map(|x| x.map(f64::to_bits))
    }

    fn cols(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn every_sysstat_layout_gets_a_checked_plan() {
        for h in [
            "r/s rkB/s rrqm/s %rrqm r_await rareq-sz w/s wkB/s wrqm/s %wrqm w_await wareq-sz d/s \
             dkB/s drqm/s %drqm d_await dareq-sz f/s f_await aqu-sz %util",
            "r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm r_await w_await aqu-sz rareq-sz \
             wareq-sz svctm %util",
            "rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz avgqu-sz await r_await w_await svctm %util",
            "rrqm/s wrqm/s r/s w/s rsec/s wsec/s avgrq-sz avgqu-sz await svctm %util",
            "tps kB_read/s kB_wrtn/s kB_dscd/s kB_read kB_wrtn kB_dscd",
            "tps Blk_read/s Blk_wrtn/s Blk_read Blk_wrtn",
            "tps kB/s rqm/s await areq-sz aqu-sz %util",
            "r/s rkB/s rrqm/s %rrqm r_await rareq-sz",
            "f/s f_await aqu-sz %util",
        ] {
            let c = cols(h);
            let plan = Plan::build(&c).unwrap_or_else(|| panic!("no plan for {h}"));
            let used = plan.used(c.len());
            assert!(used.iter().any(|u| *u), "{h}");
        }
    }

    proptest::proptest! {
        /// On any columns (aliases, duplicates, unknown names, any order) and any values, the
        /// plan gives exactly (bit for bit) what `sysstat_normalise` gives, or there is no plan
        /// and the reader calls `sysstat_normalise` itself.
        #[test]
        fn plan_equals_sysstat_normalise(
            picks in proptest::collection::vec(0..NAMES.len(), 1..24),
            raw in proptest::collection::vec(proptest::option::of(-2.0f64..5000.0), 24),
            zero in 0usize..24,
        ) {
            let columns: Vec<String> = picks.iter().map(|&i| NAMES[i].to_string()).collect();
            let mut vals: Vec<Option<f64>> = raw[..columns.len()].to_vec();
            if zero < vals.len() {
                vals[zero] = Some(if zero % 2 == 0 { 0.0 } else { -0.0 });
            }
            let values: Vec<(String, Option<f64>)> =
                columns.iter().cloned().zip(vals.iter().copied()).collect();
            let plan = Plan::build(&columns);
            proptest::prop_assert!(plan.is_some(), "no plan for {:?}", columns);
            let plan = plan.unwrap();
            proptest::prop_assert_eq!(bits(&plan.eval(&vals)), bits(&sysstat_normalise(&values)));
        }
    }
}
