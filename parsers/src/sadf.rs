//! Linux sysstat `sadf -d` (semicolon CSV, format id `sadf_csv`) and `sadf -j` (JSON, format id
//! `sadf_json`): the block-device (`sar -d`) and I/O-total (`sar -b`) activities, into typed
//! records.
//!
//! Not yet wired into [`crate::detect`]: call [`looks_like`] / [`parse`] (which dispatches on the
//! content), or [`looks_like_csv`] / [`parse_csv`] and [`looks_like_json`] / [`parse_json`].
//! Every other activity (CPU, memory, network, …) is ignored silently. A file with neither
//! activity is an error that names the activities it does hold.
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

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime};
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, space1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::number::complete::double;
use nom::sequence::preceded;
use nom::Parser;

use crate::disk::{sysstat_known, sysstat_normalise};
pub use crate::disk::{DeviceLog, DeviceReport, DeviceSample, Normalised, Skip, SystemHeader};
use crate::error::ParseError;
use crate::lines::{clip, CLIP_SYSSTAT};
use crate::sysstat_json::{self as json, JsonValue};

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

// ---------------------------------------------------------------------------------------------
// sadf -d
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Disk,
    Io,
    Other,
}

/// One activity's columns in a header (one group per header, several with `-h`).
#[derive(Debug, Clone)]
struct Group {
    kind: Kind,
    label: String,
    columns: Vec<String>,
    /// Ends with `[...]`: repeated once per item (`-h`).
    repeat: bool,
    /// A column with `*` (`INTR;CPU*`): one value per CPU, count unknown.
    wildcard: bool,
    /// Item keys are numbers (`CPU` -1, 0…; `INTR` sum, 0…; sensors 1…).
    numeric_key: bool,
}

#[derive(Debug, Clone)]
struct Header {
    line: usize,
    text: String,
    groups: Vec<Group>,
    /// Holds a disk or `sar -b` group.
    relevant: bool,
}

impl Header {
    fn width(&self) -> usize {
        self.groups.iter().map(|g| g.columns.len()).sum()
    }
}

/// (first column, second column or "", label): the first columns of each sar activity, as
/// `sadf -d` prints them (sysstat `activity.c` header lines).
const ACTIVITIES: &[(&str, &str, &str)] = &[
    ("CPU", "%usr", "CPU utilisation (-u ALL)"),
    ("CPU", "%user", "CPU utilisation (-u)"),
    ("CPU", "MHz", "CPU frequency (-m CPU)"),
    ("CPU", "wghMHz", "weighted CPU frequency (-m FREQ)"),
    ("CPU", "total/s", "software interrupts (-n SOFT)"),
    ("CPU", "", "per-CPU statistics"),
    ("proc/s", "", "task creation and context switches (-w)"),
    ("INTR", "", "interrupts (-I)"),
    ("pswpin/s", "", "swapping (-W)"),
    ("pgpgin/s", "", "paging (-B)"),
    ("tps", "rtps", "I/O totals (-b)"),
    ("frmpg/s", "", "memory pages (-R)"),
    ("kbmemfree", "", "memory (-r)"),
    ("kbswpfree", "", "swap space (-S)"),
    ("kbhugfree", "", "huge pages (-H)"),
    ("dentunusd", "", "kernel tables (-v)"),
    ("runq-sz", "", "queue length and load (-q)"),
    ("TTY", "", "serial lines (-y)"),
    ("DEV", "", "block devices (-d)"),
    ("IFACE", "rxpck/s", "network interfaces (-n DEV)"),
    ("IFACE", "rxerr/s", "network errors (-n EDEV)"),
    ("IFACE", "", "network interfaces (-n)"),
    ("call/s", "", "NFS client (-n NFS)"),
    ("scall/s", "", "NFS server (-n NFSD)"),
    ("totsck", "", "sockets (-n SOCK)"),
    ("irec/s", "", "IP (-n IP)"),
    ("ihdrerr/s", "", "IP errors (-n EIP)"),
    ("imsg/s", "", "ICMP (-n ICMP)"),
    ("ierr/s", "", "ICMP errors (-n EICMP)"),
    ("active/s", "", "TCP (-n TCP)"),
    ("atmptf/s", "", "TCP errors (-n ETCP)"),
    ("idgm/s", "", "UDP (-n UDP)"),
    ("tcp6sck", "", "IPv6 sockets (-n SOCK6)"),
    ("irec6/s", "", "IPv6 (-n IP6)"),
    ("ihdrer6/s", "", "IPv6 errors (-n EIP6)"),
    ("imsg6/s", "", "ICMPv6 (-n ICMP6)"),
    ("ierr6/s", "", "ICMPv6 errors (-n EICMP6)"),
    ("idgm6/s", "", "UDPv6 (-n UDP6)"),
    ("FCHOST", "", "Fibre Channel HBAs (-n FC)"),
    ("BAT", "", "batteries (-m BAT)"),
    ("manufact", "", "USB devices (-m USB)"),
    ("FILESYSTEM", "", "filesystems (-F)"),
    ("FAN", "", "fans (-m FAN)"),
    ("TEMP", "", "temperature sensors (-m TEMP)"),
    ("IN", "", "voltage inputs (-m IN)"),
    ("%scpu-10", "", "CPU pressure (-q CPU)"),
    ("%sio-10", "", "I/O pressure (-q IO)"),
    ("%smem-10", "", "memory pressure (-q MEM)"),
];

/// Item keys that are numbers (CPU -1/0/1…, `INTR` sum/0/1…, serial line, sensor number).
const NUMBER_KEYS: &[&str] = &["CPU", "INTR", "TTY", "BAT", "FAN", "TEMP", "IN"];

/// The activity starting at `cols[i]`, if any.
fn activity_at(cols: &[String], i: usize) -> Option<&'static str> {
    let next = cols.get(i + 1).map(String::as_str).unwrap_or("");
    ACTIVITIES
        .iter()
        .find(|(a, b, _)| *a == cols[i] && (b.is_empty() || *b == next))
        .map(|(_, _, l)| *l)
}

fn parse_header(line: usize, text: &str, cols: &str) -> Header {
    let mut names = Vec::new();
    let mut marks = Vec::new();
    for c in cols.split(';') {
        let c = c.trim();
        if c.is_empty() {
            continue;
        }
        match c.strip_suffix("[...]") {
            Some(n) => {
                names.push(n.to_string());
                marks.push(true);
            }
            None => {
                names.push(c.to_string());
                marks.push(false);
            }
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut open = false; // the last group may take more columns
    for i in 0..names.len() {
        let start = activity_at(&names, i);
        if start.is_some() || !open {
            let label = start.map_or_else(|| format!("'{}'", names[i]), str::to_string);
            let first = names[i].as_str();
            let kind = match first {
                "DEV" if names.get(i + 1).is_some_and(|c| c == "tps") => Kind::Disk,
                "tps" if start.is_some() => Kind::Io,
                _ => Kind::Other,
            };
            groups.push(Group {
                kind,
                label,
                columns: Vec::new(),
                repeat: false,
                wildcard: false,
                numeric_key: NUMBER_KEYS.contains(&first),
            });
        }
        let g = groups.last_mut().expect("a group was just opened");
        g.columns.push(names[i].clone());
        g.wildcard |= names[i].contains('*');
        if marks[i] {
            g.repeat = true;
            open = false;
        } else {
            open = true;
        }
    }
    let relevant = groups.iter().any(|g| g.kind != Kind::Other);
    Header {
        line,
        text: text.to_string(),
        groups,
        relevant,
    }
}

fn int_key(s: &str) -> bool {
    let s = s.trim();
    let d = s.strip_prefix('-').unwrap_or(s);
    (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) || s == "all" || s == "sum"
}

fn decimal(s: &str) -> bool {
    let s = s.trim();
    (s.contains('.') || s.contains(',')) && cell(s).is_ok()
}

/// Splits the fields after the time stamp into the items of each group: `(start, len)` per item.
fn split_items(h: &Header, vals: &[&str]) -> Result<Vec<Vec<(usize, usize)>>, String> {
    let names = || {
        let s: Vec<&str> = h
            .groups
            .iter()
            .flat_map(|g| g.columns.iter().map(String::as_str))
            .collect();
        s.join(";")
    };
    if !h.groups.iter().any(|g| g.repeat) {
        if vals.len() != h.width() {
            return Err(format!(
                "{} fields after the time stamp where the header of line {} names {} ({})",
                vals.len(),
                h.line,
                h.width(),
                names()
            ));
        }
        let mut pos = 0;
        return Ok(h
            .groups
            .iter()
            .map(|g| {
                let r = vec![(pos, g.columns.len())];
                pos += g.columns.len();
                r
            })
            .collect());
    }
    let mut out = Vec::with_capacity(h.groups.len());
    let mut pos = 0usize;
    for (gi, g) in h.groups.iter().enumerate() {
        let w = g.columns.len();
        if !g.repeat {
            if pos + w > vals.len() {
                return Err(format!(
                    "{} fields after the time stamp: too few for the header of line {} ({})",
                    vals.len(),
                    h.line,
                    names()
                ));
            }
            out.push(vec![(pos, w)]);
            pos += w;
            continue;
        }
        let later = &h.groups[gi + 1..];
        let fixed_after: usize = later
            .iter()
            .filter(|x| !x.repeat)
            .map(|x| x.columns.len())
            .sum();
        let mut items = Vec::new();
        if !later.iter().any(|x| x.repeat) && !g.wildcard {
            let rem = vals.len().checked_sub(pos + fixed_after).ok_or_else(|| {
                format!(
                    "{} fields after the time stamp: too few for the header of line {}",
                    vals.len(),
                    h.line
                )
            })?;
            if rem % w != 0 {
                return Err(format!(
                    "{rem} fields for the repeated {} columns ({}): not a multiple of {w} (header of \
                     line {})",
                    g.label,
                    g.columns.join(";"),
                    h.line
                ));
            }
            for k in 0..rem / w {
                items.push((pos + k * w, w));
            }
            pos += rem;
        } else if g.numeric_key {
            while pos < vals.len() && int_key(vals[pos]) {
                let len = if g.wildcard {
                    1 + vals[pos + 1..].iter().take_while(|v| decimal(v)).count()
                } else {
                    let ok = pos + w <= vals.len()
                        && g.columns[1..]
                            .iter()
                            .zip(&vals[pos + 1..pos + w])
                            .all(|(c, v)| !(c.starts_with('%') || c.ends_with("/s")) || decimal(v));
                    if !ok {
                        break;
                    }
                    w
                };
                if len < 2 {
                    break;
                }
                items.push((pos, len));
                pos += len;
            }
        } else {
            return Err(format!(
                "the repeated {} items (header of line {}) cannot be told from the repeated \
                 items after them: run sadf -d without -h",
                g.label, h.line
            ));
        }
        out.push(items);
    }
    if pos != vals.len() {
        return Err(format!(
            "{} fields after the time stamp, {} of them read by the header of line {} ({})",
            vals.len(),
            pos,
            h.line,
            names()
        ));
    }
    Ok(out)
}

/// A `sadf -d` time stamp.
#[derive(Debug, Clone, PartialEq)]
struct Stamp {
    printed: String,
    time: Option<NaiveDateTime>,
    utc: bool,
}

type R<'a, O> = nom::IResult<&'a str, O>;

/// `2019-04-18 13:20:19`.
fn date_time(s: &str) -> R<'_, &str> {
    recognize((
        digit1,
        char('-'),
        digit1,
        char('-'),
        digit1,
        space1,
        digit1,
        char(':'),
        digit1,
        char(':'),
        digit1,
    ))
    .parse(s)
}

/// A zone name or offset (`UTC`, `EST`, `CET`, `+0100`).
fn zone(s: &str) -> R<'_, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || "+-:_/".contains(c)).parse(s)
}

fn stamp(field: &str) -> Option<Stamp> {
    let s = field.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        let secs: i64 = s.parse().ok()?;
        let t = DateTime::from_timestamp(secs, 0)?.naive_utc();
        return Some(Stamp {
            printed: s.to_string(),
            time: Some(t),
            utc: true,
        });
    }
    let (_, (dt, tz)) = all_consuming((date_time, opt(preceded(space1, zone))))
        .parse(s)
        .ok()?;
    let dt = dt.split_whitespace().collect::<Vec<_>>().join(" ");
    let time = NaiveDateTime::parse_from_str(&dt, "%Y-%m-%d %H:%M:%S").ok()?;
    Some(Stamp {
        printed: s.to_string(),
        time: Some(time),
        utc: matches!(tz, Some("UTC" | "GMT" | "Z")),
    })
}

/// A value cell: a number (decimal point or, for a non-C `LC_NUMERIC`, a decimal comma), `None`
/// when blank or `nan`.
fn cell(tok: &str) -> Result<Option<f64>, String> {
    let t = tok.trim();
    if t.is_empty() || t.trim_start_matches(['-', '+']).eq_ignore_ascii_case("nan") {
        return Ok(None);
    }
    let owned;
    let mut s = t;
    if t.contains(',') {
        if t.contains('.') || t.matches(',').count() > 1 {
            return Err(format!("'{t}' is not a number"));
        }
        owned = t.replace(',', ".");
        s = &owned;
    }
    let r: R<'_, f64> = all_consuming(double).parse(s);
    match r {
        Ok((_, v)) if v.is_finite() => Ok(Some(v)),
        Ok(_) => Ok(None),
        Err(_) => Err(format!("'{t}' is not a number")),
    }
}

fn warn_unknown_column(log: &mut DeviceLog, line: usize, c: &str) {
    let tail = format!("unknown column '{c}' kept as printed");
    if !log.warnings.iter().any(|w| w.ends_with(&tail)) {
        log.warn(format!("line {line}: {tail}"));
    }
}

/// Parses `sadf -d` output (one header per activity, or `-h`).
///
/// # Errors
/// [`ParseError::UnknownFormat`] when there is no `# hostname;interval;timestamp` header;
/// [`ParseError::Section`] for a disk or `sar -b` line whose field count differs from its
/// header's, a value that is not a number, a `-h` line that cannot be split, or a file with no
/// disk or `sar -b` section (the message lists the activities the file holds).
pub fn parse_csv(text: &str) -> Result<DeviceLog, ParseError> {
    let mut log = DeviceLog::new(CSV_FORMAT);
    let mut cur: Option<Header> = None;
    let mut any_header = false;
    let mut relevant_header: Option<usize> = None;
    let mut labels: Vec<String> = Vec::new();
    let mut hosts: Vec<String> = Vec::new();
    let mut span: Option<(String, String)> = None;
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    // (report, device) → line, to count duplicates.
    let mut seen: HashMap<(usize, String), usize> = HashMap::new();

    for (i, raw) in text.split('\n').enumerate() {
        let no = i + 1;
        let line = raw.trim_end_matches('\r').trim_start_matches('\u{feff}');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('#') {
            if let Some(cols) = rest
                .trim_start()
                .strip_prefix("hostname;interval;timestamp")
            {
                let h = parse_header(no, trimmed, cols);
                for g in &h.groups {
                    if !labels.contains(&g.label) {
                        labels.push(g.label.clone());
                    }
                }
                if h.relevant && relevant_header.is_none() {
                    relevant_header = Some(no);
                }
                any_header = true;
                cur = Some(h);
            }
            continue;
        }
        let fields: Vec<&str> = line.split(';').collect();
        let prefix = (fields.len() >= 4)
            .then(|| fields[1].trim().parse::<i64>().ok())
            .flatten()
            .zip(stamp(fields.get(2).copied().unwrap_or("")));
        let Some((interval, st)) = prefix else {
            log.skipped.push(Skip {
                line: no,
                reason: format!(
                    "not sadf -d output (expected 'hostname;interval;timestamp;…'): '{}'",
                    clip(trimmed, CLIP_SYSSTAT)
                ),
            });
            continue;
        };
        let first = fields[3].trim_start();
        if interval < 0 || first.starts_with("LINUX-RESTART") || first.starts_with("COM ") {
            continue; // restart or -C comment record
        }
        let host = fields[0].trim().to_string();
        if !hosts.contains(&host) {
            hosts.push(host.clone());
        }
        match &mut span {
            None => span = Some((st.printed.clone(), st.printed.clone())),
            Some((_, last)) => last.clone_from(&st.printed),
        }
        let Some(h) = &cur else {
            log.skipped.push(Skip {
                line: no,
                reason: "a data line before any '# hostname;interval;timestamp;…' header".into(),
            });
            continue;
        };
        if !h.relevant {
            continue;
        }
        let vals = &fields[3..];
        let items = split_items(h, vals).map_err(|found| {
            ParseError::section(
                CSV_SECTION,
                Some(no),
                format!(
                    "the fields named by the header of line {} ('{}')",
                    h.line,
                    clip(&h.text, CLIP_SYSSTAT)
                ),
                found,
            )
        })?;
        let key = (host.clone(), st.printed.clone());
        let r = *index.entry(key).or_insert_with(|| {
            let mut rep = DeviceReport::new(no);
            rep.timestamp = Some(st.printed.clone());
            rep.time = st.time;
            rep.utc = st.utc;
            rep.interval_s = Some(interval as f64);
            log.reports.push(rep);
            log.reports.len() - 1
        });
        for (g, items) in h.groups.iter().zip(items) {
            let (cols, named) = match g.kind {
                Kind::Other => continue,
                Kind::Disk => (&g.columns[1..], true),
                Kind::Io => (&g.columns[..], false),
            };
            for (s, n) in items {
                let (device, cells) = if named {
                    (vals[s].trim().to_string(), &vals[s + 1..s + n])
                } else {
                    (SAR_B.to_string(), &vals[s..s + n])
                };
                let mut values = Vec::with_capacity(cols.len());
                for (c, v) in cols.iter().zip(cells) {
                    if !sysstat_known(c) {
                        warn_unknown_column(&mut log, h.line, c);
                    }
                    let v = cell(v).map_err(|found| {
                        ParseError::section(
                            CSV_SECTION,
                            Some(no),
                            format!("a number in column '{c}' of the header of line {}", h.line),
                            found,
                        )
                    })?;
                    values.push((c.clone(), v));
                }
                if let Some(prev) = seen.get(&(r, device.clone())) {
                    log.skipped.push(Skip {
                        line: no,
                        reason: format!("'{device}' at {} already read on line {prev}", st.printed),
                    });
                    continue;
                }
                seen.insert((r, device.clone()), no);
                let normalised = sysstat_normalise(&values);
                log.reports[r].devices.push(DeviceSample {
                    device,
                    group: !named,
                    host_total: !named,
                    values,
                    normalised,
                });
            }
        }
    }

    if !any_header {
        return Err(ParseError::UnknownFormat {
            reason: "expected sadf -d output (a '# hostname;interval;timestamp;…' header line)"
                .into(),
        });
    }
    let samples: usize = log.reports.iter().map(|r| r.devices.len()).sum();
    if samples == 0 {
        let held: Vec<&str> = labels
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("block devices") && !l.starts_with("I/O totals"))
            .collect();
        let mut found = String::from("no disk statistics");
        if let Some(l) = relevant_header {
            found.push_str(&format!(": the disk section of line {l} has no data line"));
        }
        if !held.is_empty() {
            found.push_str(&format!(": the file holds {}", held.join(", ")));
        }
        match (&span, hosts.first()) {
            (Some((a, b)), Some(h)) if a != b => {
                found.push_str(&format!(" (host {h}, {a} to {b})"))
            }
            (Some((a, _)), Some(h)) => found.push_str(&format!(" (host {h}, {a})")),
            _ => found.push_str(" (no data lines)"),
        }
        return Err(ParseError::section(
            CSV_SECTION,
            None,
            "a disk section ('DEV;tps;…', sar -d) or an I/O section ('tps;rtps;wtps;…', sar -b): \
             export with `sadf -d <file> -- -d -b`",
            found,
        ));
    }
    if hosts.len() > 1 {
        log.warn(format!(
            "several hosts in one file ({}): each keeps its own reports",
            hosts.join(", ")
        ));
    }
    log.header = hosts.first().map(|h| SystemHeader {
        // sadf, like sar, exists only in Linux sysstat.
        sysname: "Linux".into(),
        host: h.clone(),
        ..Default::default()
    });
    Ok(log)
}

// ---------------------------------------------------------------------------------------------
// sadf -j
// ---------------------------------------------------------------------------------------------

/// JSON disk keys → sar column names (see the module table).
const DISK_KEYS: &[(&str, &str)] = &[
    ("tps", "tps"),
    ("rd_sec", "rd_sec/s"),
    ("wr_sec", "wr_sec/s"),
    ("dc_sec", "dsec/s"),
    ("rkB", "rkB/s"),
    ("wkB", "wkB/s"),
    ("dkB", "dkB/s"),
    ("avgrq-sz", "avgrq-sz"),
    ("areq-sz", "areq-sz"),
    ("avgqu-sz", "avgqu-sz"),
    ("aqu-sz", "aqu-sz"),
    ("await", "await"),
    ("svctm", "svctm"),
    ("util-percent", "%util"),
];

/// JSON `io` keys (top level and inside `io-reads`/`io-writes`/`io-discard`) → sar -b columns.
const IO_KEYS: &[(&str, &str)] = &[
    ("tps", "tps"),
    ("rtps", "rtps"),
    ("bread", "bread/s"),
    ("wtps", "wtps"),
    ("bwrtn", "bwrtn/s"),
    ("dtps", "dtps"),
    ("bdscd", "bdscd/s"),
];

/// sar options of the `sadf -j` activity keys, for the no-disk message.
const JSON_ACTIVITIES: &[(&str, &str)] = &[
    ("cpu-load", "-u"),
    ("cpu-load-all", "-u ALL"),
    ("process-and-context-switch", "-w"),
    ("interrupts", "-I"),
    ("swap-pages", "-W"),
    ("paging", "-B"),
    ("memory", "-r/-S"),
    ("hugepages", "-H"),
    ("kernel", "-v"),
    ("queue", "-q"),
    ("serial", "-y"),
    ("network", "-n"),
    ("power-management", "-m"),
    ("filesystems", "-F"),
    ("psi", "-q PSI"),
];

fn map_key(table: &[(&str, &'static str)], k: &str) -> Option<&'static str> {
    table.iter().find(|(j, _)| *j == k).map(|(_, c)| *c)
}

fn json_value(k: &str, v: &JsonValue, what: &str, line: usize) -> Result<Option<f64>, ParseError> {
    json::number(v).map_err(|found| {
        ParseError::section(
            JSON_SECTION,
            Some(line),
            format!("a number for '{k}' of {what}"),
            found,
        )
    })
}

fn disk_sample(
    d: &JsonValue,
    line: usize,
    log: &mut DeviceLog,
) -> Result<DeviceSample, ParseError> {
    let Some(obj) = d.as_obj() else {
        return Err(ParseError::section(
            JSON_SECTION,
            Some(line),
            "a device object in 'disk'",
            d.kind(),
        ));
    };
    let name = match json::get(obj, "disk-device") {
        Some(JsonValue::Str(s)) => s.trim().to_string(),
        _ => {
            return Err(ParseError::section(
                JSON_SECTION,
                Some(line),
                "a 'disk-device' name in each 'disk' object",
                "none",
            ))
        }
    };
    let mut values = Vec::with_capacity(obj.len());
    for (k, v) in obj {
        if k == "disk-device" {
            continue;
        }
        let c = map_key(DISK_KEYS, k).map_or_else(
            || {
                json::warn_unknown(log, line, k);
                k.clone()
            },
            str::to_string,
        );
        values.push((c, json_value(k, v, &format!("disk '{name}'"), line)?));
    }
    let normalised = sysstat_normalise(&values);
    Ok(DeviceSample {
        device: name,
        group: false,
        host_total: false,
        values,
        normalised,
    })
}

fn io_sample(io: &JsonValue, line: usize, log: &mut DeviceLog) -> Result<DeviceSample, ParseError> {
    let Some(obj) = io.as_obj() else {
        return Err(ParseError::section(
            JSON_SECTION,
            Some(line),
            "an 'io' object",
            io.kind(),
        ));
    };
    let mut values = Vec::new();
    let mut push = |k: &str, v: &JsonValue, log: &mut DeviceLog| -> Result<(), ParseError> {
        let c = map_key(IO_KEYS, k).map_or_else(
            || {
                json::warn_unknown(log, line, k);
                k.to_string()
            },
            str::to_string,
        );
        values.push((c, json_value(k, v, "'io'", line)?));
        Ok(())
    };
    for (k, v) in obj {
        match v {
            JsonValue::Obj(inner) => {
                for (k2, v2) in inner {
                    push(k2, v2, log)?;
                }
            }
            _ => push(k, v, log)?,
        }
    }
    let normalised = sysstat_normalise(&values);
    Ok(DeviceSample {
        device: SAR_B.to_string(),
        group: true,
        host_total: true,
        values,
        normalised,
    })
}

/// Reads `"timestamp": {"date", "time", "utc" | "tz", "interval"}` into `r`.
fn json_stamp(ts: &JsonValue, r: &mut DeviceReport) {
    let Some(o) = ts.as_obj() else {
        if let JsonValue::Str(s) = ts {
            r.timestamp = Some(s.trim().to_string());
        }
        return;
    };
    let s = |k: &str| match json::get(o, k) {
        Some(JsonValue::Str(s)) => Some(s.trim().to_string()),
        _ => None,
    };
    let (date, time, tz) = (s("date"), s("time"), s("tz"));
    let mut printed: Vec<String> = [date.clone(), time.clone()].into_iter().flatten().collect();
    if let Some(z) = &tz {
        if !z.is_empty() {
            printed.push(z.clone());
        }
    }
    if !printed.is_empty() {
        r.timestamp = Some(printed.join(" "));
    }
    if let (Some(d), Some(t)) = (&date, &time) {
        r.time = NaiveDateTime::parse_from_str(&format!("{d} {t}"), "%Y-%m-%d %H:%M:%S").ok();
    }
    r.utc = match (json::get(o, "utc"), tz.as_deref()) {
        (Some(JsonValue::Num(n)), _) => *n == 1.0,
        (Some(JsonValue::Bool(b)), _) => *b,
        (_, Some(z)) => matches!(z, "UTC" | "GMT" | "Z"),
        _ => false,
    };
    if let Some(JsonValue::Num(i)) = json::get(o, "interval") {
        r.interval_s = Some(*i);
    }
}

/// Parses `sadf -j` output.
///
/// # Errors
/// [`ParseError::Section`] for malformed JSON (serde_json's line and column), a document that is
/// not `{"sysstat": {"hosts": […]}}`, a disk object without `disk-device`, a value that is not a
/// number, or a document whose records hold neither `disk` nor `io` (the message lists the
/// activities it holds).
pub fn parse_json(text: &str) -> Result<DeviceLog, ParseError> {
    let doc = json::read(text, JSON_SECTION)?;
    let hosts = json::hosts(&doc.root, JSON_SECTION)?;
    let mut log = DeviceLog::new(JSON_FORMAT);
    if let Some(s) = doc.truncated.clone() {
        log.warn(s.reason.clone());
        log.skipped.push(s);
    }
    let mut record = 0usize;
    let mut held: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for host in hosts {
        let h = json::header(host);
        if !names.contains(&h.host) {
            names.push(h.host.clone());
        }
        if log.header.is_none() {
            log.header = Some(h);
        }
        let stats = match json::get(host, "statistics") {
            Some(JsonValue::Arr(a)) => a.as_slice(),
            Some(other) => {
                return Err(ParseError::section(
                    JSON_SECTION,
                    None,
                    "'statistics' to be an array",
                    other.kind(),
                ))
            }
            None => &[],
        };
        for entry in stats {
            let line = doc.line(record);
            record += 1;
            let Some(obj) = entry.as_obj() else {
                return Err(ParseError::section(
                    JSON_SECTION,
                    Some(line),
                    "each 'statistics' element to be an object",
                    entry.kind(),
                ));
            };
            for (k, v) in obj {
                if k == "timestamp" || k == "disk" || k == "io" {
                    continue;
                }
                let opt = map_key(JSON_ACTIVITIES, k).map_or(String::new(), |o| format!("sar {o}"));
                let subs: Vec<&str> = v
                    .as_obj()
                    .map(|o| {
                        o.iter()
                            .filter(|(_, x)| matches!(x, JsonValue::Obj(_) | JsonValue::Arr(_)))
                            .map(|(s, _)| s.as_str())
                            .collect()
                    })
                    .unwrap_or_default();
                let label = match (subs.is_empty(), opt.is_empty()) {
                    (true, true) => format!("'{k}'"),
                    (true, false) => format!("'{k}' ({opt})"),
                    (false, true) => format!("'{k}' ({})", subs.join(", ")),
                    (false, false) => format!("'{k}' ({}; {opt})", subs.join(", ")),
                };
                if !held.contains(&label) {
                    held.push(label);
                }
            }
            if json::get(obj, "disk").is_none() && json::get(obj, "io").is_none() {
                continue;
            }
            let mut r = DeviceReport::new(line);
            if let Some(ts) = json::get(obj, "timestamp") {
                json_stamp(ts, &mut r);
            }
            for (k, v) in obj {
                match k.as_str() {
                    "io" => r.devices.push(io_sample(v, line, &mut log)?),
                    "disk" => {
                        let Some(a) = v.as_arr() else {
                            return Err(ParseError::section(
                                JSON_SECTION,
                                Some(line),
                                "'disk' to be an array",
                                v.kind(),
                            ));
                        };
                        for d in a {
                            r.devices.push(disk_sample(d, line, &mut log)?);
                        }
                    }
                    _ => {}
                }
            }
            log.reports.push(r);
        }
    }
    if log.reports.is_empty() {
        let mut found = String::from("no disk statistics: ");
        if held.is_empty() {
            found.push_str("no 'statistics' record");
        } else {
            found.push_str(&format!("the records hold {}", held.join(", ")));
        }
        if let Some(h) = names.first() {
            found.push_str(&format!(" (host {h})"));
        }
        return Err(ParseError::section(
            JSON_SECTION,
            None,
            "'disk' (sar -d) or 'io' (sar -b) statistics: export with `sadf -j <file> -- -d -b`",
            found,
        ));
    }
    if names.len() > 1 {
        log.warn(format!(
            "several hosts in one file ({}): their reports are listed one after the other",
            names.join(", ")
        ));
    }
    Ok(log)
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
        crate::parser::devices_into(parse_csv(text), self.info(), settings, sink)
    }
}

#[cfg(test)]
mod tests {
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
        assert_eq!(cell("-nan"), Ok(None));
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
        assert!(!h.relevant);
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
