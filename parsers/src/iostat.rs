//! Linux sysstat `iostat` **text** output (basic and `-x`), into typed records.
//!
//! Groundwork for issue 5: this module is not yet wired into [`crate::detect`] or
//! [`crate::parse_bytes`]; call [`parse`] / [`parse_bytes`] directly. `sar`, `sadf`, `-o JSON`, nmon,
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

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case};
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::Parser;

use crate::error::ParseError;
use crate::num::{number, Scale};

#[cfg(test)]
use crate::disk::MIB;
use crate::disk::{sysstat_known as known_column, sysstat_normalise};
pub use crate::disk::{DeviceLog, DeviceReport, DeviceSample, Normalised, SystemHeader};

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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            first_is_since_boot: true,
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

/// A device header: column names and where the device name is.
#[derive(Debug, Clone)]
struct Table {
    columns: Vec<String>,
    device_last: bool,
    line: usize,
    text: String,
}

struct RawRow<'a> {
    line: usize,
    device: String,
    group: bool,
    tokens: Vec<&'a str>,
    table: usize,
}

struct RawReport<'a> {
    timestamp: Option<String>,
    since_boot: bool,
    line: usize,
    tables: Vec<usize>,
    rows: Vec<RawRow<'a>>,
}

impl RawReport<'_> {
    fn is_empty(&self) -> bool {
        self.timestamp.is_none() && self.tables.is_empty() && self.rows.is_empty()
    }
}

/// Parses iostat text.
///
/// # Errors
/// As [`parse`].
pub fn parse_with(text: &str, opts: Options) -> Result<IostatLog, ParseError> {
    let mut header: Option<SystemHeader> = None;
    let mut warnings: Vec<String> = Vec::new();
    let mut tables: Vec<Table> = Vec::new();
    let mut raw: Vec<RawReport> = Vec::new();
    let mut cur: Option<RawReport> = None;
    let mut active: Option<usize> = None; // index in `tables`
    let mut new_run = true;
    let mut skip_cpu_values = false;
    let mut pending_name: Option<(String, bool, usize)> = None;
    let mut seen_anything = false;

    let lines: Vec<String> = text
        .split('\n')
        .map(|l| strip_ansi(l.trim_end_matches('\r')).into_owned())
        .collect();
    let start = |line: usize, ts: Option<String>, new_run: &mut bool| {
        let since = *new_run && opts.first_is_since_boot;
        *new_run = false;
        RawReport {
            timestamp: ts,
            since_boot: since,
            line,
            tables: Vec::new(),
            rows: Vec::new(),
        }
    };

    for (i, line) in lines.iter().enumerate() {
        let no = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if skip_cpu_values {
            skip_cpu_values = false;
            if trimmed.split_whitespace().all(|t| {
                t.trim_end_matches('%')
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
            }) {
                continue;
            }
        }
        if let Some(h) = banner_line(line) {
            seen_anything = true;
            if let Some(r) = cur.take() {
                if !r.is_empty() {
                    raw.push(r);
                }
            }
            active = None;
            new_run = true;
            if header.is_none() {
                header = Some(h);
            }
            continue;
        }
        if let Some(ts) = timestamp_line(trimmed) {
            seen_anything = true;
            if let Some(r) = cur.take() {
                if !r.is_empty() {
                    raw.push(r);
                }
            }
            active = None;
            cur = Some(start(no, Some(ts), &mut new_run));
            continue;
        }
        if trimmed.starts_with("avg-cpu:") {
            seen_anything = true;
            skip_cpu_values = true;
            let keep = matches!(&cur, Some(r) if r.tables.is_empty() && r.rows.is_empty());
            if !keep {
                if let Some(r) = cur.take() {
                    if !r.is_empty() {
                        raw.push(r);
                    }
                }
                cur = Some(start(no, None, &mut new_run));
            }
            active = None;
            continue;
        }
        if let Some((columns, device_last)) = header_line(line) {
            seen_anything = true;
            let t = Table {
                columns,
                device_last,
                line: no,
                text: trimmed.to_string(),
            };
            // A header whose columns overlap the current report's tables starts a new report;
            // disjoint ones are the `--pretty -x` split of one report.
            let overlaps = cur.as_ref().is_some_and(|r| {
                r.tables
                    .iter()
                    .any(|&k| tables[k].columns.iter().any(|c| t.columns.contains(c)))
            });
            if cur.is_none() || overlaps {
                if let Some(r) = cur.take() {
                    if !r.is_empty() {
                        raw.push(r);
                    }
                }
                cur = Some(start(no, None, &mut new_run));
            }
            for c in &t.columns {
                if !known_column(c) {
                    let w = format!("line {no}: unknown column '{c}' kept as printed");
                    if !warnings
                        .iter()
                        .any(|x| x.ends_with(&format!("'{c}' kept as printed")))
                    {
                        warnings.push(w);
                    }
                }
            }
            tables.push(t);
            let k = tables.len() - 1;
            if let Some(r) = cur.as_mut() {
                r.tables.push(k);
            }
            active = Some(k);
            pending_name = None;
            continue;
        }
        let Some(k) = active else {
            warnings.push(format!(
                "line {no}: ignored (not iostat output): '{}'",
                clip(trimmed)
            ));
            continue;
        };
        let t = &tables[k];
        let group = !t.device_last && line.starts_with(' ') && !line.starts_with("  ");
        let toks: Vec<&str> = trimmed.split_whitespace().collect();
        let n = t.columns.len();
        // 10.0.1–11.7.3 `-h`: the name alone, values on the next line.
        if !t.device_last && toks.len() == 1 && n > 0 {
            pending_name = Some((toks[0].to_string(), group, no));
            continue;
        }
        let (device, group, values) = match pending_name.take() {
            Some((name, g, _)) if !t.device_last && toks.len() == n => (name, g, toks),
            _ if toks.len() != n + 1 => {
                return Err(ParseError::section(
                    SECTION,
                    Some(no),
                    format!(
                        "a device name and {n} values under the header of line {} ('{}')",
                        t.line,
                        clip(&t.text)
                    ),
                    format!("{} fields: '{}'", toks.len(), clip(trimmed)),
                ));
            }
            _ if t.device_last => (toks[n].to_string(), false, toks[..n].to_vec()),
            _ => (toks[0].to_string(), group, toks[1..].to_vec()),
        };
        let r = cur.as_mut().expect("a header always opens a report");
        r.rows.push(RawRow {
            line: no,
            device,
            group,
            tokens: values,
            table: k,
        });
    }
    if let Some(r) = cur.take() {
        if !r.is_empty() {
            raw.push(r);
        }
    }
    if !seen_anything || (header.is_none() && tables.is_empty()) {
        return Err(ParseError::UnknownFormat {
            reason: "expected Linux sysstat iostat output (a 'Linux … (host) date' banner and a \
                     'Device' header)"
                .into(),
        });
    }

    let mut reports = Vec::with_capacity(raw.len());
    for r in raw {
        reports.push(finish_report(r, &tables)?);
    }
    let mut log = DeviceLog::new("iostat_text");
    log.header = header;
    log.reports = reports;
    log.warnings = warnings;
    Ok(log)
}

fn finish_report(r: RawReport<'_>, tables: &[Table]) -> Result<IostatReport, ParseError> {
    // Decimal comma only when every separated value of the report uses one.
    let mut commas = false;
    let mut points = false;
    for row in &r.rows {
        for t in &row.tokens {
            commas |= t.contains(',');
            points |= t.contains('.');
        }
    }
    if commas && points {
        let row = r
            .rows
            .iter()
            .find(|x| x.tokens.iter().any(|t| t.contains(',')))
            .expect("a comma");
        return Err(ParseError::section(
            SECTION,
            Some(row.line),
            "one decimal separator in the whole report ('.' or, for a non-C locale, ',')",
            "both ',' and '.' in values".to_string(),
        ));
    }
    let mut devices: Vec<DeviceSample> = Vec::new();
    for row in &r.rows {
        let t = &tables[row.table];
        let mut values = Vec::with_capacity(t.columns.len());
        for (c, tok) in t.columns.iter().zip(&row.tokens) {
            let v = cell(tok, c, commas).map_err(|why| {
                ParseError::section(
                    SECTION,
                    Some(row.line),
                    format!("a number in column '{c}' of the header of line {}", t.line),
                    why,
                )
            })?;
            values.push((c.clone(), v));
        }
        // `--pretty -x`: the same device in another table of this report gets merged.
        let merge = devices.iter_mut().find(|d| {
            d.device == row.device
                && d.group == row.group
                && !d.values.iter().any(|(n, _)| t.columns.contains(n))
        });
        match merge {
            Some(d) => d.values.extend(values),
            None => devices.push(DeviceSample {
                device: row.device.clone(),
                group: row.group,
                values,
                normalised: Normalised::default(),
            }),
        }
    }
    for d in &mut devices {
        d.normalised = sysstat_normalise(&d.values);
    }
    let mut report = DeviceReport::new(r.line);
    report.timestamp = r.timestamp;
    report.since_boot = r.since_boot;
    report.devices = devices;
    Ok(report)
}

/// One value cell. `--human` suffixes (`k`, `M`, `G`, `T`, `P`: 1024-based bytes, as sysstat's
/// `cprintf_u64`/`cprintf_f` print them) are converted back into the column's unit.
fn cell(tok: &str, column: &str, comma: bool) -> Result<Option<f64>, String> {
    let owned;
    let mut s = tok;
    if comma {
        owned = tok.replace(',', ".");
        s = &owned;
    }
    let s = s.strip_suffix('%').unwrap_or(s);
    let suffixed = s.chars().last().is_some_and(|c| c.is_ascii_alphabetic());
    if !suffixed {
        return number(s, Scale::Decimal);
    }
    match crate::disk::sysstat_unit_bytes(column) {
        Some(ub) => {
            let bytes = match s.strip_suffix('B') {
                Some(b) => number(b, Scale::Binary)?,
                None => number(s, Scale::Binary)?,
            };
            Ok(bytes.map(|b| b / ub))
        }
        None => number(s, Scale::Decimal),
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(120).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Removes ANSI SGR escapes (`ESC [ … m`).
fn strip_ansi(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut it = line.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\u{1b}' && it.peek() == Some(&'[') {
            it.next();
            for c in it.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `Linux <release> (<host>) <date…> [_<arch>_] [(<N> CPU)]`.
fn banner_line(line: &str) -> Option<SystemHeader> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.len() < 3 || toks[0] != "Linux" {
        return None;
    }
    let host = toks[2].strip_prefix('(')?.strip_suffix(')')?;
    let mut arch = None;
    let mut cpus = None;
    let mut date = Vec::new();
    let mut k = 3;
    while k < toks.len() {
        let t = toks[k];
        if t.len() > 2 && t.starts_with('_') && t.ends_with('_') {
            arch = Some(t.trim_matches('_').to_string());
        } else if let Some(n) = t.strip_prefix('(') {
            if toks.get(k + 1).is_some_and(|c| c.starts_with("CPU")) {
                cpus = n.parse().ok();
                k += 1;
            }
        } else if arch.is_none() && cpus.is_none() {
            date.push(t);
        }
        k += 1;
    }
    Some(SystemHeader {
        sysname: toks[0].to_string(),
        kernel: toks[1].to_string(),
        host: host.to_string(),
        date: (!date.is_empty()).then(|| date.join(" ")),
        arch,
        cpus,
    })
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
}
