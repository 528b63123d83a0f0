//! Linux sysstat `iostat` **text** output (basic and `-x`), into typed records.
//!
//! [`crate::detect`] recognises it ([`looks_like`]); [`parse`] / [`parse_bytes`] read a whole text,
//! and [`Reader`] streams a log of any size one report at a time. `sar`, `sadf`, `-o JSON`, nmon,
//! AIX and Solaris `iostat` are not read here.
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
//! - `avg-cpu:` blocks (skipped), blank lines, CRLF, ANSI colour escapes (`S_COLORS=always`);
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
//! [`Options::first_is_since_boot`] `= false` when the log was taken with `-y`.
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
//! normalised by [`sysstat_normalise`] sample by sample). With [`Options::keep_values`] `= false`
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
pub use crate::disk::{DeviceLog, DeviceReport, DeviceSample, Normalised, Skip, SystemHeader};

/// An `iostat` log: a [`DeviceLog`] of format `iostat_text`.
pub type IostatLog = DeviceLog;
/// One `iostat` interval report.
pub type IostatReport = DeviceReport;

/// Parse options.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Mark the first report of each run as since boot. `true` by default; set `false` for logs
    /// taken with `iostat -y` (which the text does not show).
    pub first_is_since_boot: bool,
    /// Keep every printed column in [`DeviceSample::values`]. `true` by default. With `false`,
    /// `values` stays empty and only [`DeviceSample::normalised`] is filled, without an allocation
    /// per column (for big logs). Every cell is still checked: a value that is not a number is the
    /// same error either way, and `normalised` is the same either way.
    pub keep_values: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
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

/// Parses iostat text with the default [`Options`].
///
/// # Errors
/// [`ParseError::UnknownFormat`] when there is neither a banner nor a device header;
/// [`ParseError::Section`] for a data line whose value count differs from its header's, a value
/// that is not a number, or a report mixing decimal commas and points.
pub fn parse(text: &str) -> Result<IostatLog, ParseError> {
    parse_with(text, Options::default())
}

/// True when the text starts like iostat output: a `Linux … (host)` banner followed by a device
/// header or `avg-cpu:` line within the first 50 lines.
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
    false
}

/// Parses iostat text: the whole log in memory, a thin wrapper collecting a [`Reader`].
///
/// When several things are wrong, the error returned is the one a whole-text parse meets first:
/// a malformed line or a text that is not iostat output, else the first report (in file order)
/// with a bad value.
///
/// # Errors
/// As [`parse`].
pub fn parse_with(text: &str, opts: Options) -> Result<IostatLog, ParseError> {
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

// ---------------------------------------------------------------------------------------------
// Streaming reader
// ---------------------------------------------------------------------------------------------

/// Layouts remembered by one reader (header text → columns and plan): a log repeats its header
/// before every report, so this is almost always a hit on the last entry.
const LAYOUT_CACHE: usize = 32;

/// A device header: column names, where the device name is, and how its columns normalise.
#[derive(Debug)]
struct Layout {
    /// The header line as printed (trimmed): the cache key and the text quoted in errors.
    key: String,
    columns: Vec<String>,
    device_last: bool,
    /// `None` when the plan could not be checked against [`sysstat_normalise`]: then every sample
    /// goes through it.
    plan: Option<Plan>,
    /// Columns a sample needs converted when values are not kept.
    used: Vec<bool>,
}

/// A header of the current report: its layout and the line it was printed on.
#[derive(Debug)]
struct TableRef {
    layout: Arc<Layout>,
    line: usize,
}

/// A data line of the current report, its text in [`Reader::arena`].
#[derive(Debug, Clone, Copy)]
struct Row {
    line: usize,
    /// The device name (a span of the arena).
    dev: (usize, usize),
    group: bool,
    /// Index in [`Reader::tables`].
    table: usize,
    /// Index in [`State::toks`] of the first value.
    vals: usize,
}

/// The report being read (its tables and rows are in the reader's reused buffers).
#[derive(Debug)]
struct Current {
    timestamp: Option<String>,
    since_boot: bool,
    line: usize,
}

/// A streaming iostat reader: yields each report as soon as it is complete.
///
/// It reads one line at a time into a reused buffer (never the whole input), decodes it as UTF-8
/// (lossily when invalid: iostat prints ASCII) and keeps only the report being read, so memory
/// stays bounded by the largest report, whatever the size of the log. A UTF-8 byte-order mark at
/// the start is dropped.
///
/// Items are `Ok(report)` or `Err(e)`:
/// - a report with a bad value (not a number, or decimal commas mixed with points) gives `Err` for
///   that report and reading goes on with the next one;
/// - a malformed line (fewer or more values than its header), a read error
///   ([`ParseError::Io`], with an empty path: the caller knows it) or a text that is not iostat
///   output at all ([`ParseError::UnknownFormat`], at the end) gives `Err` and ends the iteration.
///
/// [`parse_with`] collects a reader and returns the same records.
///
/// ```
/// use sizer_parsers::iostat::{Options, Reader};
/// let text = "Linux 5.8.0 (h) \t12/02/2021 \t_x86_64_\t(2 CPU)\n\n\
///             Device  r/s  rkB/s  %util\nsda  2.00  8.00  0.40\n\n\
///             Device  r/s  rkB/s  %util\nsda  4.00  16.00  0.80\n";
/// let opts = Options { keep_values: false, ..Options::default() };
/// let mut reader = Reader::new(text.as_bytes(), opts);
/// let first = reader.next().unwrap().unwrap();
/// assert!(first.since_boot);
/// assert_eq!(first.devices[0].normalised.read_bytes_per_s, Some(8192.0));
/// assert!(first.devices[0].values.is_empty());
/// assert_eq!(reader.header().unwrap().host, "h");
/// let second = reader.next().unwrap().unwrap();
/// assert_eq!(second.devices[0].normalised.read_iops, Some(4.0));
/// assert!(reader.next().is_none());
/// ```
pub struct Reader<R: BufRead> {
    src: R,
    st: State,
}

/// Everything a [`Reader`] knows but its source.
struct State {
    opts: Options,
    strip_bom: bool,
    /// A line split across two reads of the source.
    partial: Vec<u8>,
    line_no: usize,
    header: Option<SystemHeader>,
    warnings: Vec<String>,
    skipped: Vec<Skip>,
    cache: Vec<Arc<Layout>>,
    seen_anything: bool,
    seen_table: bool,
    new_run: bool,
    skip_cpu_values: bool,
    /// 10.0.1–11.7.3 `-h`: a device name printed alone, its values on the next line.
    pending_name: Option<(String, bool)>,
    /// Index in `tables` of the header data lines belong to.
    active: Option<usize>,
    cur: Option<Current>,
    // The current report, in buffers reused from one report to the next.
    tables: Vec<TableRef>,
    /// Text of the report's data lines (trimmed), one after the other.
    arena: String,
    /// The tokens of the report's data lines.
    toks: Vec<Tok>,
    rows: Vec<Row>,
    commas: bool,
    points: bool,
    comma_line: Option<usize>,
    /// One sample's values, by column.
    vals: Vec<Option<f64>>,
    ready: Option<Result<DeviceReport, ParseError>>,
    done: bool,
    fatal: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `src` (wrap a file in a [`std::io::BufReader`]).
    pub fn new(src: R, opts: Options) -> Self {
        Self::with_bom(src, opts, true)
    }

    fn with_bom(src: R, opts: Options, strip_bom: bool) -> Self {
        Reader {
            src,
            st: State {
                opts,
                strip_bom,
                partial: Vec::new(),
                line_no: 0,
                header: None,
                warnings: Vec::new(),
                skipped: Vec::new(),
                cache: Vec::new(),
                seen_anything: false,
                seen_table: false,
                new_run: true,
                skip_cpu_values: false,
                pending_name: None,
                active: None,
                cur: None,
                tables: Vec::new(),
                arena: String::new(),
                toks: Vec::new(),
                rows: Vec::new(),
                commas: false,
                points: false,
                comma_line: None,
                vals: Vec::new(),
                ready: None,
                done: false,
                fatal: false,
            },
        }
    }

    /// The first banner read so far (`Linux … (host) date _arch_ (N CPU)`).
    pub fn header(&self) -> Option<&SystemHeader> {
        self.st.header.as_ref()
    }

    /// Warnings so far: unknown header names (each once) and ignored lines.
    pub fn warnings(&self) -> &[String] {
        &self.st.warnings
    }

    /// Lines left out so far. This parser rejects a malformed line with an error rather than
    /// skipping it, so this is empty; it is here so that every disk-log reader has the same
    /// interface.
    pub fn skipped(&self) -> &[Skip] {
        &self.st.skipped
    }

    /// Number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.st.line_no
    }

    /// Reads lines until a report is complete, the input ends, or a fatal error. Lines are read in
    /// place in the source's buffer; only a line split across two reads is copied.
    fn advance(&mut self) -> Option<Result<DeviceReport, ParseError>> {
        let st = &mut self.st;
        loop {
            if let Some(r) = st.ready.take() {
                return Some(r);
            }
            if st.done {
                return None;
            }
            let out = match self.src.fill_buf() {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(source) => Some(ParseError::Io {
                    path: PathBuf::new(),
                    source,
                }),
                Ok([]) if st.partial.is_empty() => st.at_eof(),
                Ok([]) => {
                    // The last line, without an end of line: read it, then come back for the end.
                    let last = std::mem::take(&mut st.partial);
                    st.bytes(&last)
                }
                Ok(avail) => match memchr(b'\n', avail) {
                    Some(i) => {
                        let out = if st.partial.is_empty() {
                            st.bytes(&avail[..i])
                        } else {
                            let mut line = std::mem::take(&mut st.partial);
                            line.extend_from_slice(&avail[..i]);
                            let out = st.bytes(&line);
                            line.clear();
                            st.partial = line;
                            out
                        };
                        self.src.consume(i + 1);
                        out
                    }
                    None => {
                        st.partial.extend_from_slice(avail);
                        let n = avail.len();
                        self.src.consume(n);
                        None
                    }
                },
            };
            if let Some(e) = out {
                st.done = true;
                st.fatal = true;
                st.ready = None;
                return Some(Err(e));
            }
        }
    }
}

impl State {
    /// One line's bytes (without the `\n`). `Some` for a fatal error.
    fn bytes(&mut self, mut bytes: &[u8]) -> Option<ParseError> {
        self.line_no += 1;
        while let Some(b) = bytes.strip_suffix(b"\r") {
            bytes = b;
        }
        let mut text = match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(bytes),
        };
        if self.line_no == 1 && self.strip_bom {
            if let Some(s) = text.strip_prefix('\u{feff}') {
                text = Cow::Owned(s.to_string());
            }
        }
        let line = if memchr(0x1b, text.as_bytes()).is_some() {
            Cow::Owned(strip_ansi(&text).into_owned())
        } else {
            text
        };
        self.process(&line, self.line_no).err()
    }

    /// End of input: the last report, or the error for a text that held no iostat output.
    fn at_eof(&mut self) -> Option<ParseError> {
        self.done = true;
        if !self.seen_anything || (self.header.is_none() && !self.seen_table) {
            return Some(ParseError::UnknownFormat {
                reason:
                    "expected Linux sysstat iostat output (a 'Linux … (host) date' banner and a \
                         'Device' header)"
                        .into(),
            });
        }
        self.close_report();
        None
    }

    fn start_report(&mut self, line: usize, timestamp: Option<String>) {
        let since_boot = self.new_run && self.opts.first_is_since_boot;
        self.new_run = false;
        self.cur = Some(Current {
            timestamp,
            since_boot,
            line,
        });
    }

    /// Ends the current report: finishes it (unless it is empty) into `ready`.
    fn close_report(&mut self) {
        if let Some(c) = self.cur.take() {
            if c.timestamp.is_some() || !self.tables.is_empty() || !self.rows.is_empty() {
                debug_assert!(self.ready.is_none());
                self.ready = Some(self.finish(c));
            }
        }
        self.tables.clear();
        self.arena.clear();
        self.toks.clear();
        self.rows.clear();
        self.commas = false;
        self.points = false;
        self.comma_line = None;
    }

    /// One line (without its end of line, ANSI escapes removed). `Err` only for a fatal error.
    fn process(&mut self, line: &str, no: usize) -> Result<(), ParseError> {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if self.skip_cpu_values {
            self.skip_cpu_values = false;
            if trimmed.split_whitespace().all(|t| {
                t.trim_end_matches('%')
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
            }) {
                return Ok(());
            }
        }
        // Each test below is guarded by a cheap look at the first or last characters, which every
        // line it accepts has, so that data lines pass through quickly.
        if trimmed.starts_with("Linux") {
            if let Some(h) = banner_line(line) {
                self.seen_anything = true;
                self.close_report();
                self.active = None;
                self.new_run = true;
                if self.header.is_none() {
                    self.header = Some(h);
                }
                return Ok(());
            }
        }
        let first = trimmed.as_bytes()[0];
        if first == b'T' || first.is_ascii_digit() {
            if let Some(ts) = timestamp_line(trimmed) {
                self.seen_anything = true;
                self.close_report();
                self.active = None;
                self.start_report(no, Some(ts));
                return Ok(());
            }
        }
        if trimmed.starts_with("avg-cpu:") {
            self.seen_anything = true;
            self.skip_cpu_values = true;
            let keep = self.cur.is_some() && self.tables.is_empty() && self.rows.is_empty();
            if !keep {
                self.close_report();
                self.start_report(no, None);
            }
            self.active = None;
            return Ok(());
        }
        if (trimmed.starts_with("Device")
            || trimmed.ends_with("Device")
            || trimmed.ends_with("Device:"))
            && self.header_row(line, trimmed, no)
        {
            return Ok(());
        }
        self.data(line, trimmed, no)
    }

    /// A device header line: returns false when the line is not one.
    fn header_row(&mut self, line: &str, trimmed: &str, no: usize) -> bool {
        let layout = match self.cache.iter().rev().find(|l| l.key == trimmed) {
            Some(l) => l.clone(),
            None => {
                let Some((columns, device_last)) = header_line(line) else {
                    return false;
                };
                for c in &columns {
                    if !known_column(c) {
                        let w = format!("line {no}: unknown column '{c}' kept as printed");
                        let tail = format!("'{c}' kept as printed");
                        if !self.warnings.iter().any(|x| x.ends_with(&tail)) {
                            self.warnings.push(w);
                        }
                    }
                }
                let l = Arc::new(Layout::new(trimmed, columns, device_last));
                if self.cache.len() == LAYOUT_CACHE {
                    self.cache.remove(0);
                }
                self.cache.push(l.clone());
                l
            }
        };
        self.seen_anything = true;
        self.seen_table = true;
        // A header whose columns overlap the current report's tables starts a new report;
        // disjoint ones are the `--pretty -x` split of one report.
        let overlaps = self.cur.is_some()
            && self.tables.iter().any(|t| {
                Arc::ptr_eq(&t.layout, &layout)
                    || t.layout.columns.iter().any(|c| layout.columns.contains(c))
            });
        if self.cur.is_none() || overlaps {
            self.close_report();
            self.start_report(no, None);
        }
        self.tables.push(TableRef { layout, line: no });
        self.active = Some(self.tables.len() - 1);
        self.pending_name = None;
        true
    }

    /// A line under a header (or not iostat output).
    fn data(&mut self, line: &str, trimmed: &str, no: usize) -> Result<(), ParseError> {
        let Some(k) = self.active else {
            self.warnings.push(format!(
                "line {no}: ignored (not iostat output): '{}'",
                clip(trimmed, CLIP_SYSSTAT)
            ));
            return Ok(());
        };
        let (n, device_last) = {
            let l = &self.tables[k].layout;
            (l.columns.len(), l.device_last)
        };
        let group = !device_last && line.starts_with(' ') && !line.starts_with("  ");
        let a0 = self.arena.len();
        self.arena.push_str(trimmed);
        let t0 = self.toks.len();
        tokenize(&self.arena[a0..], a0, &mut self.toks);
        let ntok = self.toks.len() - t0;
        // 10.0.1–11.7.3 `-h`: the name alone, values on the next line.
        if !device_last && ntok == 1 && n > 0 {
            self.pending_name = Some((trimmed.to_string(), group));
            self.arena.truncate(a0);
            self.toks.truncate(t0);
            return Ok(());
        }
        let (dev, group, vals) = match self.pending_name.take() {
            Some((name, g)) if !device_last && ntok == n => {
                let s = self.arena.len();
                self.arena.push_str(&name);
                ((s, self.arena.len()), g, t0)
            }
            _ if ntok != n + 1 => {
                let t = &self.tables[k];
                return Err(ParseError::section(
                    SECTION,
                    Some(no),
                    format!(
                        "a device name and {n} values under the header of line {} ('{}')",
                        t.line,
                        clip(&t.layout.key, CLIP_SYSSTAT)
                    ),
                    format!("{ntok} fields: '{}'", clip(trimmed, CLIP_SYSSTAT)),
                ));
            }
            _ if device_last => (self.toks[t0 + n].span(), false, t0),
            _ => (self.toks[t0].span(), group, t0 + 1),
        };
        // Decimal separators of the values (the device name may hold either).
        let region = &self.arena.as_bytes()[self.toks[vals].start..self.toks[vals + n - 1].end];
        if memchr(b',', region).is_some() {
            if !self.commas {
                self.comma_line = Some(no);
            }
            self.commas = true;
        }
        if !self.points && memchr(b'.', region).is_some() {
            self.points = true;
        }
        self.rows.push(Row {
            line: no,
            dev,
            group,
            table: k,
            vals,
        });
        Ok(())
    }

    /// Converts the current report's rows into a [`DeviceReport`].
    fn finish(&mut self, c: Current) -> Result<DeviceReport, ParseError> {
        // Decimal comma only when every separated value of the report uses one.
        if self.commas && self.points {
            return Err(ParseError::section(
                SECTION,
                self.comma_line,
                "one decimal separator in the whole report ('.' or, for a non-C locale, ',')",
                "both ',' and '.' in values".to_string(),
            ));
        }
        let devices = if self.tables.len() <= 1 {
            self.samples()?
        } else {
            self.merged_samples()?
        };
        let mut report = DeviceReport::new(c.line);
        report.timestamp = c.timestamp;
        report.since_boot = c.since_boot;
        report.devices = devices;
        Ok(report)
    }

    /// One table in the report (the usual case): one sample per row, normalised through the
    /// table's precomputed plan.
    fn samples(&mut self) -> Result<Vec<DeviceSample>, ParseError> {
        let keep = self.opts.keep_values;
        let commas = self.commas;
        let (arena, toks, vals) = (&self.arena, &self.toks, &mut self.vals);
        let mut devices = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let t = &self.tables[row.table];
            let lay = &*t.layout;
            let n = lay.columns.len();
            vals.clear();
            vals.resize(n, None);
            let mut values = if keep {
                Vec::with_capacity(n)
            } else {
                Vec::new()
            };
            let cells = toks[row.vals..row.vals + n]
                .iter()
                .zip(&lay.columns)
                .zip(&lay.used);
            for (((tok, column), &used), slot) in cells.zip(vals.iter_mut()) {
                let v = if !commas && tok.num != NOT_PLAIN {
                    (keep || used).then(|| Decimal::unpack(tok.num).value())
                } else {
                    let text = &arena[tok.start..tok.end];
                    match plain_decimal(text.as_bytes(), commas) {
                        Some(d) => Some(d.value()),
                        None => cell(text, column, commas)
                            .map_err(|why| cell_error(row.line, column, t.line, why))?,
                    }
                };
                *slot = v;
                if keep {
                    values.push((column.clone(), v));
                }
            }
            let normalised = match &lay.plan {
                Some(p) => p.eval(vals),
                None => sysstat_normalise(
                    &lay.columns
                        .iter()
                        .cloned()
                        .zip(vals.iter().copied())
                        .collect::<Vec<_>>(),
                ),
            };
            devices.push(DeviceSample {
                device: arena[row.dev.0..row.dev.1].to_string(),
                group: row.group,
                host_total: false,
                values,
                normalised,
            });
        }
        Ok(devices)
    }

    /// Several tables in the report (`--pretty -x`): the same device in another table of the
    /// report gets merged into one sample.
    fn merged_samples(&mut self) -> Result<Vec<DeviceSample>, ParseError> {
        let commas = self.commas;
        let mut devices: Vec<DeviceSample> = Vec::new();
        for row in &self.rows {
            let t = &self.tables[row.table];
            let columns = &t.layout.columns;
            let mut values = Vec::with_capacity(columns.len());
            for (j, c) in columns.iter().enumerate() {
                let k = row.vals + j;
                let tok = &self.arena[self.toks[k].start..self.toks[k].end];
                let v = match plain_decimal(tok.as_bytes(), commas) {
                    Some(d) => Some(d.value()),
                    None => {
                        cell(tok, c, commas).map_err(|why| cell_error(row.line, c, t.line, why))?
                    }
                };
                values.push((c.clone(), v));
            }
            let device = &self.arena[row.dev.0..row.dev.1];
            let merge = devices.iter_mut().find(|d| {
                d.device == device
                    && d.group == row.group
                    && !d.values.iter().any(|(n, _)| columns.contains(n))
            });
            match merge {
                Some(d) => d.values.extend(values),
                None => devices.push(DeviceSample {
                    device: device.to_string(),
                    group: row.group,
                    host_total: false,
                    values,
                    normalised: Normalised::default(),
                }),
            }
        }
        for d in &mut devices {
            d.normalised = sysstat_normalise(&d.values);
            if !self.opts.keep_values {
                d.values = Vec::new();
            }
        }
        Ok(devices)
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<DeviceReport, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.advance()
    }
}

fn cell_error(line: usize, column: &str, header_line: usize, why: String) -> ParseError {
    ParseError::section(
        SECTION,
        Some(line),
        format!("a number in column '{column}' of the header of line {header_line}"),
        why,
    )
}

/// `char::is_whitespace` for an ASCII byte (`\t \n \x0B \x0C \r` and space).
#[inline]
fn is_ws(b: u8) -> bool {
    b == b' ' || b.wrapping_sub(b'\t') < 5
}

/// The first index from `i` on that is not white space: runs of spaces (sysstat's column
/// padding) are skipped eight bytes at a time.
#[inline]
fn skip_white(s: &[u8], mut i: usize) -> usize {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    while let Some(chunk) = s.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes")) ^ SPACES;
        if w != 0 {
            // Little-endian: the lowest non-zero byte is the first byte that is not a space.
            i += (w.trailing_zeros() / 8) as usize;
            break;
        }
        i += 8;
    }
    while i < s.len() && is_ws(s[i]) {
        i += 1;
    }
    i
}

const ONES: u64 = 0x0101_0101_0101_0101;

/// Eight bytes from `at`, first byte lowest.
#[inline]
fn load8(s: &[u8], at: usize) -> Option<u64> {
    s.get(at..at + 8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
}

/// Flags (high bit) the bytes of `x` that are at most 0x20 (white space and controls); the lowest
/// flagged byte is exact (later ones may be false positives).
#[inline]
fn low_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES * 0x21) & !x & (ONES * 0x80)
}

/// All eight bytes are ASCII digits.
#[inline]
fn eight_digits(x: u64) -> bool {
    const HIGH: u64 = ONES * 0xF0;
    (x & HIGH) | ((x.wrapping_add(ONES * 6) & HIGH) >> 4) == ONES * 0x33
}

/// The number written by eight ASCII digits, first byte lowest (as in `fast_float`).
#[inline]
fn parse_eight(x: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    let v = x.wrapping_sub(ONES * 0x30);
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    ((v & MASK)
        .wrapping_mul(MUL1)
        .wrapping_add(((v >> 16) & MASK).wrapping_mul(MUL2)))
        >> 32
}

/// The token at `start` when it is sysstat's usual `-?[0-9]{1,8}\.[0-9][0-9]` followed by white
/// space, read without a loop per digit: its end and [`Decimal::pack`]. `None` sends the token
/// to the general scan (which reads these tokens the same way).
#[inline]
fn two_decimals(s: &[u8], start: usize) -> Option<(usize, u64)> {
    let m = low_bytes(load8(s, start)?);
    let len = if m != 0 {
        (m.trailing_zeros() / 8) as usize
    } else {
        let m = low_bytes(load8(s, start + 8)?);
        if m == 0 {
            return None;
        }
        8 + (m.trailing_zeros() / 8) as usize
    };
    let end = start + len;
    let negative = s[start] == b'-';
    let int_start = start + usize::from(negative);
    if !is_ws(s[end]) || end < int_start + 4 || s[end - 3] != b'.' {
        return None;
    }
    let int_len = end - 3 - int_start;
    let (f1, f2) = (s[end - 2].wrapping_sub(b'0'), s[end - 1].wrapping_sub(b'0'));
    if int_len > 8 || f1 >= 10 || f2 >= 10 {
        return None;
    }
    // The integer digits are the last `int_len` bytes of the eight before the point; the bytes
    // before them become '0'.
    let w = load8(s, (end - 3).checked_sub(8)?)?;
    let w = if int_len == 8 {
        w
    } else {
        let low = (1u64 << (64 - 8 * int_len)) - 1;
        (w & !low) | ((ONES * u64::from(b'0')) & low)
    };
    if !eight_digits(w) {
        return None;
    }
    let mantissa = parse_eight(w) * 100 + u64::from(f1) * 10 + u64::from(f2);
    Some((
        end,
        Decimal {
            mantissa,
            frac_digits: 2,
            negative,
        }
        .pack(),
    ))
}

/// A token of the current report: its span in the arena and its value read as a plain decimal
/// with a `.` separator ([`Decimal::pack`]), or [`NOT_PLAIN`].
#[derive(Debug, Clone, Copy)]
struct Tok {
    start: usize,
    end: usize,
    num: u64,
}

impl Tok {
    fn span(self) -> (usize, usize) {
        (self.start, self.end)
    }
}

/// [`Tok::num`] of a token that is not a plain decimal.
const NOT_PLAIN: u64 = u64::MAX;

/// Pushes the tokens of `s` (spans offset by `base`), split as `str::split_whitespace` splits
/// them, each with its value as [`plain_decimal`] reads it with a `.` separator.
fn tokenize(s: &str, base: usize, toks: &mut Vec<Tok>) {
    let t0 = toks.len();
    if !scan_ascii(s.as_bytes(), base, toks) {
        // Non-ASCII text: Unicode white space splits tokens too.
        toks.truncate(t0);
        let p0 = s.as_ptr() as usize;
        for t in s.split_whitespace() {
            let start = base + (t.as_ptr() as usize - p0);
            toks.push(Tok {
                start,
                end: start + t.len(),
                num: plain_decimal(t.as_bytes(), false).map_or(NOT_PLAIN, Decimal::pack),
            });
        }
    }
}

/// [`tokenize`] in one pass over ASCII text; `false` (with partial output) at a non-ASCII byte.
#[inline]
fn scan_ascii(s: &[u8], base: usize, toks: &mut Vec<Tok>) -> bool {
    let n = s.len();
    let mut i = 0;
    loop {
        i = skip_white(s, i);
        if i == n {
            break;
        }
        let start = i;
        if let Some((end, num)) = two_decimals(s, start) {
            toks.push(Tok {
                start: base + start,
                end: base + end,
                num,
            });
            i = end;
            continue;
        }
        let negative = s[i] == b'-';
        if negative {
            i += 1;
        }
        let mut mantissa: u64 = 0;
        let int_start = i;
        while i < n {
            let d = s[i].wrapping_sub(b'0');
            if d >= 10 {
                break;
            }
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
        let int_digits = i - int_start;
        let mut frac_digits = 0;
        let mut plain = int_digits > 0;
        if i < n && s[i] == b'.' {
            i += 1;
            let frac_start = i;
            while i < n {
                let d = s[i].wrapping_sub(b'0');
                if d >= 10 {
                    break;
                }
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
                i += 1;
            }
            frac_digits = i - frac_start;
            plain &= frac_digits > 0;
        }
        if i < n && s[i] == b'%' {
            i += 1;
        }
        if i < n && !is_ws(s[i]) {
            plain = false;
            while i < n && !is_ws(s[i]) {
                if s[i] >= 0x80 {
                    return false;
                }
                i += 1;
            }
        }
        plain &= int_digits + frac_digits <= 15;
        toks.push(Tok {
            start: base + start,
            end: base + i,
            num: if plain {
                Decimal {
                    mantissa,
                    frac_digits,
                    negative,
                }
                .pack()
            } else {
                NOT_PLAIN
            },
        });
    }
    true
}

/// A plain decimal as sysstat prints it: `-?[0-9]+([.,][0-9]+)?%?`, at most 15 digits.
#[derive(Debug, Clone, Copy)]
struct Decimal {
    mantissa: u64,
    frac_digits: usize,
    negative: bool,
}

const POW10: [f64; 16] = [
    1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

impl Decimal {
    /// Frac digits in bits 56–63, the sign in bit 55, the mantissa (below 10^15 < 2^50) below.
    #[inline]
    fn pack(self) -> u64 {
        (self.frac_digits as u64) << 56 | u64::from(self.negative) << 55 | self.mantissa
    }

    #[inline]
    fn unpack(p: u64) -> Decimal {
        Decimal {
            mantissa: p & ((1 << 55) - 1),
            frac_digits: (p >> 56) as usize,
            negative: p & (1 << 55) != 0,
        }
    }

    /// The value, exactly as `str::parse::<f64>` reads the printed text: the mantissa (below
    /// 2^53) and the power of ten (at most 10^15) are both exact in an `f64`, so one division is
    /// correctly rounded (Clinger's fast path).
    #[inline]
    fn value(self) -> f64 {
        let v = self.mantissa as f64 / POW10[self.frac_digits];
        if self.negative {
            -v
        } else {
            v
        }
    }
}

/// Reads a plain decimal whose separator is `,` (decimal-comma report) or `.`; `None` for anything
/// else (suffixes, exponents, blanks, more than 15 digits, …), which [`cell`] then reads.
#[inline]
fn plain_decimal(tok: &[u8], comma: bool) -> Option<Decimal> {
    let sep = if comma { b',' } else { b'.' };
    let mut s = tok;
    if let Some(x) = s.strip_suffix(b"%") {
        s = x;
    }
    let negative = s.first() == Some(&b'-');
    if negative {
        s = &s[1..];
    }
    let mut mantissa: u64 = 0;
    let mut digits = 0usize;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        mantissa = mantissa
            .wrapping_mul(10)
            .wrapping_add(u64::from(s[i] - b'0'));
        i += 1;
    }
    digits += i;
    if i == 0 {
        return None;
    }
    let mut frac_digits = 0;
    if i < s.len() {
        if s[i] != sep {
            return None;
        }
        i += 1;
        let start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            mantissa = mantissa
                .wrapping_mul(10)
                .wrapping_add(u64::from(s[i] - b'0'));
            i += 1;
        }
        frac_digits = i - start;
        if frac_digits == 0 || i != s.len() {
            return None;
        }
        digits += frac_digits;
    }
    if digits > 15 {
        return None;
    }
    Some(Decimal {
        mantissa,
        frac_digits,
        negative,
    })
}

// ---------------------------------------------------------------------------------------------
// Normalisation plan
// ---------------------------------------------------------------------------------------------

/// Number of [`Normalised`] fields.
const FIELDS: usize = 17;
const F_READ_IOPS: usize = 0;
const F_WRITE_IOPS: usize = 1;
const F_DISCARD_IOPS: usize = 2;
const F_TOTAL_IOPS: usize = 3;
const F_AVG_REQUEST: usize = 12;
const F_READ_REQUEST: usize = 13;
const F_WRITE_REQUEST: usize = 14;

fn fields(n: &Normalised) -> [Option<f64>; FIELDS] {
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
    } = *n;
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

fn from_fields(f: [Option<f64>; FIELDS]) -> Normalised {
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

/// Whether [`sysstat_normalise`] counts flushes (`f/s`) in the total IOPS it derives from `r/s +
/// w/s (+ d/s)`; asked once.
fn flush_in_total() -> bool {
    static FLUSH: OnceLock<bool> = OnceLock::new();
    *FLUSH.get_or_init(|| {
        let probe =
            [("r/s", 1.0), ("w/s", 2.0), ("f/s", 4.0)].map(|(c, v)| (c.to_string(), Some(v)));
        sysstat_normalise(&probe).total_iops == Some(7.0)
    })
}

/// Which column (and factor) feeds each [`Normalised`] field for one header, found by asking
/// [`sysstat_normalise`] itself (one column at a time), then checked against it on probe rows.
#[derive(Debug, Clone)]
struct Plan {
    /// Per field: the column and the factor of a field read from one column.
    src: [Option<(usize, f64)>; FIELDS],
    /// `Some(column of f/s, if printed)` when the derived total IOPS counts flushes.
    flush: Option<Option<usize>>,
}

impl Plan {
    /// The plan for a header, or `None` when it does not give exactly what
    /// [`sysstat_normalise`] gives on the probe rows.
    fn build(columns: &[String]) -> Option<Plan> {
        let n = columns.len();
        let mut probe: Vec<(String, Option<f64>)> =
            columns.iter().map(|c| (c.clone(), None)).collect();
        let mut plan = Plan {
            src: [None; FIELDS],
            flush: flush_in_total().then(|| columns.iter().position(|c| c == "f/s")),
        };
        for i in 0..n {
            probe[i].1 = Some(1.0);
            let out = fields(&sysstat_normalise(&probe));
            probe[i].1 = None;
            for (f, v) in out.iter().enumerate() {
                if let Some(factor) = v {
                    if plan.src[f].is_some() {
                        return None;
                    }
                    plan.src[f] = Some((i, *factor));
                }
            }
        }
        // Probe rows: all printed, none printed, every k-th (or all but every k-th) missing,
        // all zero, and each column missing alone.
        let mut vals = vec![None; n];
        let value = |j: usize| Some(0.75 + j as f64 * 1.375);
        let mut patterns: Vec<Box<dyn Fn(usize) -> Option<f64>>> =
            vec![Box::new(value), Box::new(|_| None), Box::new(|_| Some(0.0))];
        for k in 2..=4 {
            patterns.push(Box::new(move |j| (j % k != 0).then(|| value(j)).flatten()));
            patterns.push(Box::new(move |j| (j % k == 0).then(|| value(j)).flatten()));
        }
        for miss in 0..n {
            patterns.push(Box::new(move |j| (j != miss).then(|| value(j)).flatten()));
        }
        for p in &patterns {
            for j in 0..n {
                vals[j] = p(j);
                probe[j].1 = vals[j];
            }
            if plan.eval(&vals) != sysstat_normalise(&probe) {
                return None;
            }
        }
        Some(plan)
    }

    /// Columns the plan reads.
    fn used(&self, n: usize) -> Vec<bool> {
        let mut used = vec![false; n];
        for (i, _) in self.src.iter().flatten() {
            used[*i] = true;
        }
        if let Some(Some(i)) = self.flush {
            used[i] = true;
        }
        used
    }

    /// The normalised values of one sample, `vals` by column: what [`sysstat_normalise`] gives
    /// on the same columns.
    #[inline]
    fn eval(&self, vals: &[Option<f64>]) -> Normalised {
        let mut out = [None; FIELDS];
        for (o, s) in out.iter_mut().zip(&self.src) {
            if let Some((i, f)) = *s {
                *o = vals[i].map(|x| if f == 1.0 { x } else { x * f });
            }
        }
        let (r, w, d) = (out[F_READ_IOPS], out[F_WRITE_IOPS], out[F_DISCARD_IOPS]);
        if out[F_TOTAL_IOPS].is_none() {
            if let (Some(r), Some(w)) = (r, w) {
                out[F_TOTAL_IOPS] = Some(match self.flush {
                    Some(f) => r + w + d.unwrap_or(0.0) + f.and_then(|i| vals[i]).unwrap_or(0.0),
                    None => r + w + d.unwrap_or(0.0),
                });
            }
        }
        if out[F_AVG_REQUEST].is_none() {
            if let (Some(r), Some(w), Some(rb), Some(wb)) =
                (r, w, out[F_READ_REQUEST], out[F_WRITE_REQUEST])
            {
                if r + w > 0.0 {
                    out[F_AVG_REQUEST] = Some((r * rb + w * wb) / (r + w));
                }
            }
        }
        from_fields(out)
    }
}

impl Layout {
    fn new(key: &str, columns: Vec<String>, device_last: bool) -> Layout {
        let plan = Plan::build(&columns);
        let used = match &plan {
            Some(p) => p.used(columns.len()),
            None => vec![true; columns.len()],
        };
        Layout {
            key: key.to_string(),
            columns,
            device_last,
            plan,
            used,
        }
    }
}

/// One value cell (see [`crate::disk::sysstat_cell`]).
fn cell(tok: &str, column: &str, comma: bool) -> Result<Option<f64>, String> {
    crate::disk::sysstat_cell(tok, column, comma)
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
            description: "Linux sysstat `iostat` text (basic or `-x`, 7.x to 12.7, `-t`, `-g`, `-p`, `--pretty`)",
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
/// leniently: a report with a value that is not a number is left out and counted in the skipped
/// lines (`report left out: …`); a line that does not fit its header stops the reader, and the
/// reports before it are kept with a warning saying so (a log copied while iostat was still
/// writing it ends in a cut line).
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
    let opts = Options {
        first_is_since_boot: settings.first_report_since_boot,
        keep_values: settings.keep_values,
    };
    let mut reader = Reader::new(src, opts);
    let mut samples = 0usize;
    let mut reports = 0usize;
    let mut left_out: Vec<Skip> = Vec::new();
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
    let stopped = match last_err {
        Some(e) if reports == 0 => return Err(e),
        Some(e) => Some(e.to_string()),
        None => None,
    };
    if samples == 0 && stopped.is_none() {
        return Err(ParseError::section(
            "device statistics",
            None,
            "device statistics in this Linux iostat log",
            format!("{reports} report(s), none with a device line (only CPU figures, or an empty device list: the devices named on the command line were not found)"),
        ));
    }
    let mut warnings = reader.warnings().to_vec();
    if let Some(e) = stopped {
        warnings.push(format!(
            "reading stopped at a line that does not fit its header ({e}); the {reports} report(s) before it are used"
        ));
    }
    let mut skipped = reader.skipped().to_vec();
    skipped.extend(left_out);
    sink.device_end(crate::sink::DeviceLogEnd { warnings, skipped })
}

/// The skipped-line entry of a report left out for `e`.
fn left_out_report(e: &ParseError) -> Skip {
    let line = match e {
        ParseError::Section { at, .. } | ParseError::Truncated { at, .. } => at.line.unwrap_or(0),
        _ => 0,
    };
    Skip {
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
