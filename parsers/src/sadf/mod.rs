//! Linux sysstat `sadf -d` (semicolon CSV, format id `sadf_csv`) and `sadf -j` (JSON, format id
//! `sadf_json`): the block-device (`sar -d`) and I/O-total (`sar -b`) activities, into typed
//! records, with the host CPU (`sar -u`) of each time stamp.
//!
//! Registered as [`SadfJson`] (before `iostat -o JSON`) and [`SadfCsv`]; to read a text
//! directly, call [`looks_like`] / [`parse`] (which dispatches on the content), or
//! [`looks_like_csv`] / [`parse_csv`] and [`looks_like_json`] / [`parse_json`].
//! Every other activity (memory, network, per-CPU rows, …) is ignored silently. A file with
//! neither disk activity is an error that names the activities it does hold (CPU alone is not
//! enough to size storage).
//!
//! # Host CPU (`sar -u`)
//! The row of all CPUs becomes [`DeviceReport::cpu`] of the report of the same host and time
//! stamp, its columns found by name ([`CpuUtil::from_columns`]: busy % = 100 − `%idle` −
//! `%iowait`, iowait % = `%iowait`; `%steal`, `%irq`, … count as busy):
//! - `sadf -d`: a `CPU;%user;%nice;%system;%iowait;%steal;%idle` (`-u`) or
//!   `CPU;%usr;%nice;%sys;%iowait;%steal;%irq;%soft;%guest;%gnice;%idle` (`-u ALL`) section, row
//!   `CPU` = `-1` (sadf's "all"; sysstat-tests `expected.sadf-d` line 2); with `-h`, the `-1`
//!   item of the repeated `CPU` group. The section comes before the disk sections, so the CPU
//!   rows are held by time stamp and joined at the end; a time stamp with CPU but no disk row
//!   makes no report;
//! - `sadf -j`: the element of `"cpu-load"` (`-u`) or `"cpu-load-all"` (`-u ALL`) whose `"cpu"`
//!   is `"all"`, keys verbatim (`usr`, `nice`, `sys`, `iowait`, `steal`, …, `idle`).
//!
//! A CPU cell that is not a number is unknown (a warning names the line), never 0; so is the
//! busy figure that needs it.
//!
//! # `sadf -d` (sysstat 9.x – 12.7)
//! One `# hostname;interval;timestamp;<columns>` header per activity, then one line per item
//! (`../shared/reference/iostat-sar-formats.md` §3.1; sysstat-tests `expected.sadf-d`):
//! ```text
//! # hostname;interval;timestamp;tps;rtps;wtps;dtps;bread/s;bwrtn/s;bdscd/s
//! SYSSTAT.TEST;31;2019-04-18 13:20:19 UTC;20.85;12.83;4.81;3.21;57.43;38.50;32.08
//! # hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util
//! SYSSTAT.TEST;31;2019-04-18 13:20:19 UTC;sdq;9.62;7.86;0.00;16.04;2.48;0.01;13.00;0.96
//! ```
//! Columns are read by header **name**, so every version's disk header is accepted:
//! `DEV;tps;rd_sec/s;wr_sec/s;avgrq-sz;avgqu-sz;await;svctm;%util` (≤ 11.5.6),
//! `DEV;tps;rkB/s;wkB/s;areq-sz;aqu-sz;await;svctm;%util` (11.5.7 – 12.1.1),
//! `DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util` (≥ 12.1.2), and the `sar -b` header
//! `tps;rtps;wtps;bread/s;bwrtn/s` (≤ 12.1.1) or `tps;rtps;wtps;dtps;bread/s;bwrtn/s;bdscd/s`.
//! A disk section is one whose header has a `DEV` column followed by `tps`.
//!
//! The lines of all sections are joined by host and time stamp: each distinct time stamp is one
//! [`DeviceReport`] (in order of first appearance, [`DeviceReport::line`] = its first line),
//! holding one [`DeviceSample`] per `DEV` row (name as printed: `dev8-0`, `sda`, `cciss/c0d0`)
//! and the `sar -b` row as a sample named **`sar -b`** with [`DeviceSample::group`] set: it is the
//! sum over the host's whole disks (sysstat `rd_stats.c` skips partitions and virtual devices), so
//! adding it to the device samples would count every IO twice.
//!
//! **Time stamps** ([`DeviceReport::timestamp`] keeps the field as printed, `interval` →
//! [`DeviceReport::interval_s`]):
//! - `2019-04-18 13:20:19 UTC` (the default): [`DeviceReport::time`] is that time, `utc: true`;
//! - `2019-04-18 09:20:19 EST` (`-T`, `-t`, sysstat ≥ 12.7.1 prints the zone name): local wall
//!   clock time of that zone, `utc: false` (`GMT` also gives `utc: true`);
//! - `2020-10-01 21:30:01` (no zone: `-t`/`-T` before 12.7.1, which print local time and append
//!   ` UTC` only to UTC stamps — sysstat `sadf_misc.c` `print_dbppc_timestamp`): local time,
//!   `utc: false`;
//! - `1601587801` (`-U`, seconds since the epoch): UTC, `utc: true`.
//!
//! `sadf -dh` (all activities of one time stamp on one line; an activity with several items
//! ends its columns with `[...]` and repeats them per item, see sysstat-tests `expected.sadf-dh`)
//! is read when its disk items can be located: the repeat count of each `[...]` group is taken
//! from the field count when it is the last repeating group, or by scanning items whose key is a
//! number (`CPU`, `INTR`, `TTY`, sensors: `-1`, `0`, `sum`, …) with `%`/`/s` values printed with
//! decimals. A line where two name-keyed groups repeat (e.g. `DEV[...]` then `IFACE[...]`) cannot
//! be split and is an error asking for `sadf -d` without `-h`.
//!
//! Tolerated: shell prompts and other text before, between or after the output (e.g. a pasted
//! `sar -u` run: see the corpus `linux-sar-AMPM-and-sadf-dT-10.1.5-centos7-EXCERPT.txt`) are
//! counted in [`DeviceLog::skipped`]; `-C` comment lines (`…;-1;…;COM text`) and
//! `LINUX-RESTART` lines are recognised and ignored; other `#` lines are comments; data lines of
//! other activities are ignored whatever their field count; CRLF; a decimal comma
//! (`LC_NUMERIC`, e.g. `13,89`: sadf -d never prints thousands separators and separates fields
//! with `;`). A disk or `sar -b` line with more or fewer fields than its header is an error naming
//! the line and the header; so is a value that is not a number. An empty cell is `None`.
//!
//! # `sadf -j` (sysstat 10.x – 12.7)
//! ```text
//! {"sysstat": {"hosts": [{"nodename", "sysname", "release", "machine", "number-of-cpus",
//!   "file-date", "file-utc-time", "timezone", "statistics": [{
//!     "timestamp": {"date": "2019-04-18", "time": "13:20:19", "utc": 1 | "tz": "UTC", "interval": 31},
//!     "io": {"tps": …, "io-reads": {"rtps": …, "bread": …}, "io-writes": {"wtps": …, "bwrtn": …},
//!            "io-discard": {"dtps": …, "bdscd": …}},
//!     "disk": [{"disk-device": "sda", "tps": …, "rd_sec": …, "rkB": …, …}]}, …],
//!   "restarts": […], "comments": […]}]}}
//! ```
//! Each `statistics` element with `disk` or `io` is one report (`line` = the line where the
//! element starts). `timestamp` becomes `"<date> <time>"` plus `" <tz>"` when `tz` is printed;
//! `utc` is `"utc": 1` (≤ 12.6.x) or `"tz": "UTC"`/`"GMT"` (≥ 12.7.1). The banner fields fill
//! [`SystemHeader`] (`release` → `kernel`, `machine` → `arch`, `file-date` → `date`).
//! `restarts`, `comments` and every other activity are ignored.
//!
//! JSON keys are renamed to the sar column names (read in sysstat `json_stats.c`
//! `json_print_disk_stats` / `json_print_io_stats`, 10.x and 12.7; checked against the same
//! records in `expected.sadf-j` and `expected.sadf-d`):
//!
//! | JSON key | sar column | unit |
//! |---|---|---|
//! | `disk-device` | `DEV` (the device name) | |
//! | `tps` | `tps` | transfers/s |
//! | `rd_sec`, `wr_sec` | `rd_sec/s`, `wr_sec/s` | 512-byte sectors/s |
//! | `dc_sec` | `dsec/s` | 512-byte sectors/s |
//! | `rkB`, `wkB`, `dkB` | `rkB/s`, `wkB/s`, `dkB/s` | kB/s (1024 bytes) |
//! | `avgrq-sz` | `avgrq-sz` | sectors |
//! | `areq-sz` | `areq-sz` | kB |
//! | `avgqu-sz`, `aqu-sz` | `avgqu-sz`, `aqu-sz` | requests |
//! | `await`, `svctm` | `await`, `svctm` | ms |
//! | `util-percent` | `%util` | % |
//! | `io`.`tps` | `tps` | transfers/s |
//! | `io-reads`.`rtps`, `io-writes`.`wtps`, `io-discard`.`dtps` | `rtps`, `wtps`, `dtps` | requests/s |
//! | `io-reads`.`bread`, `io-writes`.`bwrtn`, `io-discard`.`bdscd` | `bread/s`, `bwrtn/s`, `bdscd/s` | 512-byte blocks/s |
//!
//! sysstat ≥ 11.5.7 prints both the sector and the kB keys (`rd_sec` and `rkB`, `avgrq-sz` and
//! `areq-sz`): both are kept in [`DeviceSample::values`]. An unknown key is kept verbatim and
//! listed once in [`DeviceLog::warnings`]. A `null` value is `None`. Malformed JSON is an error
//! with serde_json's line and column; an unclosed document keeps its complete records (counted in
//! [`DeviceLog::skipped`]).
//!
//! # Units
//! Both forms normalise through [`crate::disk::sysstat_normalise`] (sysstat `sar(1)`; reference
//! §2.2 – 2.3): `rd_sec/s`, `wr_sec/s`, `dsec/s`, `bread/s`, `bwrtn/s`, `bdscd/s`, `avgrq-sz` × 512;
//! `rkB/s`, `wkB/s`, `dkB/s`, `areq-sz` × 1024; `tps` → `total_iops`; `rtps`/`wtps`/`dtps` →
//! read/write/discard IOPS (`sar -b` only: `sar -d` has no per-direction IOPS); `await` (ms),
//! `avgqu-sz`/`aqu-sz`, `%util`, `svctm` (shown only).
//!
//! # Example
//! ```
//! let text = "# hostname;interval;timestamp;DEV;tps;rd_sec/s;wr_sec/s;avgrq-sz;avgqu-sz;await;svctm;%util\n\
//!             db01;600;2024-03-12 10:10:01 UTC;dev8-0;12.00;2048.00;0.00;170.67;0.05;4.00;1.00;1.20\n";
//! let log = sizer_parsers::sadf::parse(text).unwrap();
//! assert_eq!(log.format, "sadf_csv");
//! let r = &log.reports[0];
//! assert!(r.utc);
//! assert_eq!(r.interval_s, Some(600.0));
//! assert_eq!(r.devices[0].normalised.read_bytes_per_s, Some(1_048_576.0));
//! ```
//!
//! # Streaming (`sadf -d`)
//! [`SadfCsv`] streams ([`crate::parser::FormatParser::streams`]): `parse_stream` reads the lines
//! one at a time (`lines::with_stream_lines`) through the same reader as [`parse_csv`]
//! and [`crate::parser::FormatParser::parse`] (which take `lines::text_lines`), so they
//! give the same records. The text is never held: each line is converted as it is read, and the
//! reader keeps only parsed state — the reports by host and time stamp (with the samples read so
//! far), the `sar -u` rows of all CPUs by host and time stamp (one per time stamp, joined to the
//! reports at the end), the current header's activity groups, which devices each report already has (to count
//! a repeated one), the activity labels and hosts seen, the lines left out and the warnings.
//! `sadf -d` prints each activity for every time stamp in turn (all the `-d` rows, then all the
//! `-b` rows, which join the same reports), so a later section may add to any report: the
//! reports are complete only at the end of the file, and are handed to the sink then
//! (`sink::DeviceStream`). [`crate::parser::ParseSettings::keep_values`] `= false`
//! leaves [`DeviceSample::values`] empty (only `normalised` is kept), which makes them smaller.
//!
//! # Module layout
//! Flow: detection ([`looks_like_csv`], [`looks_like_json`]) → `csv` (`sadf -d`: header lines
//! name the activity groups of the rows after them; rows stream into reports by time stamp) or
//! `json_doc` (`sadf -j`: the document streamed by the shared sysstat JSON reader, one report
//! per `statistics` element, handed over as soon as the element has been read). Both give the
//! `sar -b` totals as a device row with [`DeviceSample::host_total`] set.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime};
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, space1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::preceded;
use nom::Parser;

use crate::disk::{sysstat_known, sysstat_normalise};
pub use crate::disk::{
    CpuUtil, DeviceLog, DeviceReport, DeviceSample, Normalised, SkippedLine, SystemHeader,
};
use crate::error::ParseError;
use crate::lines::{clip, CLIP_SYSSTAT};
use crate::sysstat_json::{self as json, JsonValue};

mod csv;
mod json_doc;
pub use csv::parse_csv;
pub use json_doc::parse_json;

/// Format id of `sadf -d` output.
const CSV_FORMAT: &str = "sadf_csv";
/// Format id of `sadf -j` output.
const JSON_FORMAT: &str = "sadf_json";
/// Section names used in errors.
const CSV_SECTION: &str = "sadf -d";
const JSON_SECTION: &str = "sadf -j";
/// The device name given to the `sar -b` totals.
pub const SAR_B: &str = "sar -b";

/// True for `sadf -d` or `sadf -j` output (see [`looks_like_csv`], [`looks_like_json`]).
pub fn looks_like(text: &str) -> bool {
    looks_like_json(text) || looks_like_csv(text)
}

/// True when a line of the first 64 KiB starts with `# hostname;interval;timestamp` (the header
/// `sadf -d` prints before each activity).
pub fn looks_like_csv(text: &str) -> bool {
    json::head(text)
        .lines()
        .any(|l| l.trim_start().starts_with("# hostname;interval;timestamp"))
}

/// True for a `{"sysstat": …}` JSON document from `sadf -j`: it has a `"file-date"` key or a
/// `"timestamp": {` object (iostat prints a string).
pub fn looks_like_json(text: &str) -> bool {
    json::is_sadf_document(text)
}

/// Decodes bytes (rejecting empty and binary input, see [`crate::input::decode`]) and parses them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<DeviceLog, ParseError> {
    let d = crate::input::decode(bytes)?;
    parse(&d.text)
}

/// Parses `sadf -j` output when [`looks_like_json`], else `sadf -d` output.
///
/// # Errors
/// As [`parse_json`] or [`parse_csv`].
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    if looks_like_json(text) {
        parse_json(text)
    } else {
        parse_csv(text)
    }
}

/// The `sadf -j` format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct SadfJson;

impl crate::parser::FormatParser for SadfJson {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::SadfJson,
            id: "sadf_json",
            name: "sadf -j (JSON) file",
            kind: crate::sink::RecordKind::Devices,
            description: "sysstat `sadf -j` (JSON) with `-d` and/or `-b`",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like_json(text)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        crate::parser::devices_into(parse_json(text), self.info(), settings, sink)
    }

    fn streams(&self) -> bool {
        true
    }

    /// Streams the document: each report goes to the sink as soon as its `statistics` element
    /// has been read (see `json_doc`).
    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let mut out = crate::sink::DeviceStream::new(sink, crate::Format::SadfJson, settings);
        match json_doc::read_json(src, &mut out)? {
            Some(log) => out.finish(log.warnings, log.skipped),
            None => Ok(()),
        }
    }
}

/// The `sadf -d` format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct SadfCsv;

impl crate::parser::FormatParser for SadfCsv {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::SadfCsv,
            id: "sadf_csv",
            name: "sadf -d (CSV) file",
            kind: crate::sink::RecordKind::Devices,
            description: "sysstat `sadf -d` (semicolon CSV) with `-d` and/or `-b`",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like_csv(text)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        csv::csv_into(crate::lines::text_lines(text), settings, sink)
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
        crate::lines::with_stream_lines(src, |lines| csv::csv_into(lines, settings, sink))
    }
}

#[cfg(test)]
mod tests {
    use super::csv::*;
    use super::*;

    fn dt(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    #[test]
    fn stamps() {
        let s = stamp("2019-04-18 13:20:19 UTC").unwrap();
        assert_eq!((s.time, s.utc), (Some(dt("2019-04-18 13:20:19")), true));
        let s = stamp("2019-04-18 09:20:19 EST").unwrap();
        assert_eq!((s.time, s.utc), (Some(dt("2019-04-18 09:20:19")), false));
        assert_eq!(s.printed, "2019-04-18 09:20:19 EST");
        let s = stamp("2020-10-01 21:30:01").unwrap();
        assert_eq!((s.time, s.utc), (Some(dt("2020-10-01 21:30:01")), false));
        let s = stamp("1601587801").unwrap();
        assert_eq!((s.time, s.utc), (Some(dt("2020-10-01 21:30:01")), true));
        assert!(stamp("09:23:50 PM").is_none());
        assert!(stamp("2019-13-18 09:20:19").is_none());
    }

    #[test]
    fn cells() {
        assert_eq!(cell("0.36"), Ok(Some(0.36)));
        assert_eq!(cell("13,89"), Ok(Some(13.89)));
        assert_eq!(cell(""), Ok(None));
        // Read as NaN, made unknown with a warning on its way out (the `checked` sink).
        assert!(cell("-nan").unwrap().unwrap().is_nan());
        assert!(cell("1,234.5").is_err());
        assert!(cell("12K").is_err());
        assert!(cell("sda").is_err());
    }

    #[test]
    fn horizontal_header_groups() {
        let h = parse_header(
            1,
            "",
            "CPU;%usr;%nice;%sys;%iowait;%steal;%irq;%soft;%guest;%gnice;%idle[...];INTR;CPU*[...]",
        );
        assert_eq!(h.groups.len(), 2);
        assert!(h.groups[0].repeat && h.groups[0].numeric_key);
        assert!(h.groups[1].wildcard);
        // The `sar -u ALL` group is the host CPU (read since issue 13); `INTR` is not read.
        assert_eq!(h.groups[0].kind, Kind::Cpu);
        assert_eq!(h.groups[1].kind, Kind::Other);
        assert!(h.relevant);
        let h = parse_header(
            1,
            "",
            "tps;rtps;wtps;bread/s;bwrtn/s;DEV;tps;rkB/s;wkB/s;areq-sz;aqu-sz;await;%util;IFACE;rxpck/s;call/s",
        );
        let kinds: Vec<Kind> = h.groups.iter().map(|g| g.kind).collect();
        assert_eq!(kinds, vec![Kind::Io, Kind::Disk, Kind::Other, Kind::Other]);
        assert_eq!(h.groups[1].columns.len(), 8);
    }

    #[test]
    fn split_horizontal_items() {
        let h = parse_header(
            1,
            "",
            "CPU;%user;%idle[...];tps;rtps;wtps;bread/s;bwrtn/s;DEV;tps;%util[...]",
        );
        let vals: Vec<&str> =
            "-1;1.00;99.00;0;2.00;98.00;3.00;1.00;2.00;8.00;16.00;sda;3.00;1.00;dm-0;2.00;0.50"
                .split(';')
                .collect();
        let it = split_items(&h, &vals).unwrap();
        assert_eq!(it[0], vec![(0, 3), (3, 3)]);
        assert_eq!(it[1], vec![(6, 5)]);
        assert_eq!(it[2], vec![(11, 3), (14, 3)]);
        let bad: Vec<&str> = vals[..vals.len() - 1].to_vec();
        assert!(split_items(&h, &bad).is_err());
    }
}
