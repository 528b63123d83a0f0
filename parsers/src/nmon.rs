//! nmon capture files (`.nmon`, Linux `nmon -f` and AIX `topas_nmon`/`nmon -f`), into a
//! [`DeviceLog`] of format `nmon`.
//!
//! Sources: `../shared/reference/iostat-sar-formats.md` §5.2; Linux nmon's `lmon*.c` (the
//! `DISK…`/`DG…` section headers it writes, e.g. `"DISKREAD%s,Disk Read KB/s %s"`,
//! `"DGREADSERV,Disk Group read service time (SUM ms) %s"`); real files: the corpus
//! `iostat/nmon-linux-15h-fedora21-g-auto-DG.nmon.txt` (Linux nmon 15h, `-g auto`) and AIX
//! topas_nmon headers quoted in public parsers.
//!
//! # Layout
//! Comma-separated records, one per line, first field the record type:
//! - `AAA,<key>,<value…>`: the header. Read: `host`, `date` (`18-AUG-2015`), `time`, `interval`
//!   (seconds), `cpus`, `OS` (Linux: `AAA,OS,Linux,<kernel>,<build>,<arch>`) or `AIX` (AIX:
//!   `AAA,AIX,7.2.0.0`);
//! - `BBB…` configuration records: ignored;
//! - `ZZZZ,T0001,10:24:26,18-AUG-2015`: the time of snapshot `T0001` (`DD-MON-YYYY`, English
//!   month names: a full, unambiguous local date-time, so [`DeviceReport::time`] is set);
//! - a section header, `DISKREAD,Disk Read KB/s <runname>,sda,sda1,…`: the device names are the
//!   fields after the description, **by position in that header**;
//! - a data record, `DISKREAD,T0001,132.1,0.0,…`: one value per device of that section's header.
//!   Snapshots are indexed by `Tnnnn`, never by file order (sorted files put every `ZZZZ` at the
//!   end).
//!
//! More devices than `disks_per_line` (150 on Linux) continue in sections `DISKREAD1`,
//! `DISKREAD2`, …, each with its own header: their devices are merged into the same samples.
//! `DG…` sections (user disk groups, `nmon -g <file>` / `-g auto`) give samples with
//! [`DeviceSample::group`] set: a group double-counts its member disks (in the corpus file the
//! groups `sda` and `sdb` even carry the names of their only disk).
//!
//! One [`DeviceReport`] per snapshot that has disk data, in `Tnnnn` order, with `time` from its
//! `ZZZZ` record, `timestamp` = the `ZZZZ` time and date as printed (`10:24:26,18-AUG-2015`),
//! `interval_s` = `AAA,interval`. nmon's first snapshot already covers one interval: no report is
//! since boot.
//!
//! # Sections and units
//! Every section is kept in [`DeviceSample::values`] under its name **without** the continuation
//! number (`DISKREAD` for `DISKREAD` and `DISKREAD1`), in the unit nmon prints.
//!
//! | [`Normalised`] field | section (unit → factor) |
//! |---|---|
//! | `read_bytes_per_s` / `write_bytes_per_s` | `DISKREAD` / `DISKWRITE`, `DGREAD` / `DGWRITE` (KB/s, ×1024) |
//! | `total_iops` | `DISKXFER`, `DGXFER` (transfers/s, reads + writes) |
//! | `read_iops` / `write_iops` | AIX `DISKRIO` / `DISKWIO`; Linux `-d` `DISKREADS` / `DISKWRITES`; `DGREADS` / `DGWRITES` (per second) |
//! | `avg_request_bytes` | `DISKBSIZE`, `DGSIZE` (KB per transfer, ×1024) |
//! | `util_pct` | `DISKBUSY`, `DGBUSY` (%; shown only) |
//!
//! Kept in `values` only: AIX `DISKRXFER`, `DISKAVGRIO`/`DISKAVGWIO`, `DISKSERV`,
//! `DISKREADSERV`/`DISKWRITESERV`, `DISKWAIT` (their units are not documented by the sources
//! above), Linux `DGREADSERV`/`DGWRITESERV` (a **sum** of ms over the interval, not a per-request
//! time), `DGREADMERGE`/`DGWRITEMERGE`, `DGINFLIGHT` (an instantaneous count), `DGBACKLOG`. A
//! `DISK…`/`DG…` section not listed here is kept too and warned once. CPU, memory, network,
//! file-system and `TOP` sections are not disk statistics and are ignored.
//!
//! # Bad input
//! A data record with a different count of values than its header's devices (a line cut by a
//! truncated file), a value that is not a number, a data record before its header, or a second
//! record of one section in one snapshot is a counted [`SkippedLine`] naming the line. `ERROR,` records
//! are warned. A `ZZZZ` snapshot with no disk data (the file ends after it) gives no report and a
//! warning. A file with no disk section at all is an error saying so.
//!
//! # Streaming
//! The format streams ([`Nmon`]'s `parse_stream`): lines are read one at a time through
//! `lines::with_stream_lines` by the same body as [`parse`], and the text is never
//! held. A report can only be complete at the end of the file: reports are ordered by snapshot
//! number, not file order (a sorted file puts every `ZZZZ` record at the end), any later line
//! may still add a section to any snapshot, and each report's devices are ordered by their first
//! appearance over **every** section header. So the parser keeps the parsed disk data, compactly,
//! and hands the reports over one by one at the end:
//! - per snapshot, its data records in file order: each its section, and one 8-byte number per
//!   device of its header (the header's device list, as indices, is shared by its records);
//! - once per file: the device names (in first-appearance order) and section family names
//!   (interned), each section's last header, the `ZZZZ` times by snapshot number, the `AAA`
//!   header, warnings and skipped lines.
//!
//! The samples of a report (device names, `values` by section name, [`Normalised`]) are built
//! only when it is handed over.
//!
//! Non-disk records (CPU, memory, `TOP`, …), usually most of a file, leave nothing behind.
//!
//! # Example
//! ```
//! let text = "AAA,progname,nmon\nAAA,host,db01\nAAA,interval,30\n\
//!             DISKREAD,Disk Read KB/s db01,sda,sdb\nDISKXFER,Disk transfers per second db01,sda,sdb\n\
//!             ZZZZ,T0001,10:00:30,30-NOV-2026\nDISKREAD,T0001,64.0,0.0\nDISKXFER,T0001,8.0,0.0\n";
//! let log = sizer_parsers::nmon::parse(text).unwrap();
//! let r = &log.reports[0];
//! assert_eq!(r.time.unwrap().to_string(), "2026-11-30 10:00:30");
//! assert_eq!(r.devices[0].normalised.read_bytes_per_s, Some(65536.0));
//! assert_eq!(r.devices[1].value("DISKXFER"), Some(0.0));
//! ```

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

use crate::disk::{
    CpuUtil, DeviceLog, DeviceReport, DeviceSample, Normalised, SkippedLine, SystemHeader,
};
use crate::error::ParseError;
use crate::lines::{clip, head, text_lines, CLIP_UNIX};
// As printed: the `checked` sink makes NaN, inf, negative and huge values unknown, with a warning.
use crate::num::{as_printed as number, Scale};

/// Format id.
pub const FORMAT: &str = "nmon";

/// Disk sections this module knows (kept without a warning).
const KNOWN: &[&str] = &[
    "DISKBUSY",
    "DISKREAD",
    "DISKWRITE",
    "DISKXFER",
    "DISKBSIZE",
    "DISKRIO",
    "DISKWIO",
    "DISKREADS",
    "DISKWRITES",
    "DISKRXFER",
    "DISKAVGRIO",
    "DISKAVGWIO",
    "DISKSERV",
    "DISKREADSERV",
    "DISKWRITESERV",
    "DISKWAIT",
    "DGBUSY",
    "DGREAD",
    "DGWRITE",
    "DGSIZE",
    "DGXFER",
    "DGREADS",
    "DGWRITES",
    "DGREADMERGE",
    "DGWRITEMERGE",
    "DGREADSERV",
    "DGWRITESERV",
    "DGINFLIGHT",
    "DGBACKLOG",
    "DGIOTIME",
];

/// True when the text starts like an nmon file: an `AAA,` header record among its first lines
/// (`AAA,progname,…` is the first line nmon writes).
pub fn looks_like(text: &str) -> bool {
    head(text)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .any(|l| {
            let l = l.trim_start_matches('\u{feff}');
            l.starts_with("AAA,progname,")
                || l.starts_with("AAA,version,")
                || l.starts_with("AAA,host,")
                || l.starts_with("AAA,command,")
        })
}

/// The section family of a record type: `DISKREAD1` → `DISKREAD`, `DGXFER` → `DGXFER`; `None`
/// for sections that are not disk statistics.
fn disk_base(kind: &str) -> Option<&str> {
    if !(kind.starts_with("DISK") || kind.starts_with("DG")) {
        return None;
    }
    let base = kind.trim_end_matches(|c: char| c.is_ascii_digit());
    if base.len() < kind.len() && KNOWN.contains(&base) {
        Some(base)
    } else {
        Some(kind)
    }
}

fn is_snapshot(f: &str) -> bool {
    f.len() >= 2 && f.starts_with('T') && f[1..].bytes().all(|b| b.is_ascii_digit())
}

/// `10:24:26` (also `10:24.25` as in `AAA,time`) and `18-AUG-2015`.
fn zzzz_time(t: &str, d: &str) -> Option<NaiveDateTime> {
    let t = t.trim().replace('.', ":");
    let time = NaiveTime::parse_from_str(&t, "%H:%M:%S").ok()?;
    let mut p = d.trim().split('-');
    let day: u32 = p.next()?.parse().ok()?;
    let mon = p.next()?.to_ascii_lowercase();
    let year: i32 = p.next()?.parse().ok()?;
    let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let m = months.iter().position(|x| mon.starts_with(x))? as u32 + 1;
    NaiveDate::from_ymd_opt(year, m, day).map(|d| d.and_time(time))
}

/// A section header: its family and devices.
struct Section {
    /// Number of the section as printed (with its continuation number, `DISKREAD1`), given
    /// when its first header is read and kept when it is printed again: what the duplicate
    /// check compares.
    id: u32,
    /// Index of its family name in [`Reader::bases`].
    base: u16,
    /// The header's devices, as indices in [`Reader::devices`], by position: shared by every
    /// data record read under this header.
    devices: Rc<[u32]>,
    line: usize,
}

/// `Option<f64>` in 8 bytes: a blank cell is a NaN with a payload no parsed number carries
/// (a parsed `NaN` is the canonical one).
const BLANK_BITS: u64 = 0x7ff8_0000_0b1a_4c00;

fn pack(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::from_bits(BLANK_BITS))
}

fn unpack(v: f64) -> Option<f64> {
    (v.to_bits() != BLANK_BITS).then_some(v)
}

/// One data record of a snapshot: a value per device of its header (8 bytes each).
struct Record {
    /// [`Section::id`].
    section: u32,
    /// [`Section::base`].
    base: u16,
    /// [`Section::devices`] of the header the record was read under.
    devices: Rc<[u32]>,
    values: Box<[f64]>,
}

/// A sample's values as [`DeviceSample::values`] holds them.
type Values = Vec<(String, Option<f64>)>;

/// The disk data of one snapshot read so far, its records in file order.
struct Snapshot {
    records: Vec<Record>,
    first_line: usize,
}

impl Snapshot {
    /// The snapshot's samples: one per device in first-appearance order (over every section
    /// header), each with its values in record order.
    fn samples(self, devices: &[(String, bool)], bases: &[String]) -> Vec<DeviceSample> {
        // (device index, values by section name).
        let mut samples: Vec<(u32, Values)> = Vec::new();
        let mut at: HashMap<u32, usize> = HashMap::new();
        for rec in self.records {
            let base = &bases[rec.base as usize];
            for (&d, &v) in rec.devices.iter().zip(rec.values.iter()) {
                let k = *at.entry(d).or_insert_with(|| {
                    samples.push((d, Vec::new()));
                    samples.len() - 1
                });
                samples[k].1.push((base.clone(), unpack(v)));
            }
        }
        // Device indices are in first-appearance order.
        samples.sort_by_key(|(d, _)| *d);
        samples
            .into_iter()
            .map(|(d, values)| {
                let (name, group) = &devices[d as usize];
                DeviceSample {
                    device: name.clone(),
                    group: *group,
                    host_total: false,
                    normalised: normalise(&values),
                    values,
                }
            })
            .collect()
    }
}

/// The parsed state of an nmon file: everything the reports need, and nothing of the text.
/// See the module docs ("Streaming") for why reports are handed over at the end.
struct Reader {
    /// Header, warnings and skipped lines (its `reports` stay empty).
    log: DeviceLog,
    header: SystemHeader,
    saw_aaa: bool,
    interval: Option<f64>,
    /// Section headers by record type as printed (`DISKREAD1`), the last one of each.
    sections: HashMap<String, Section>,
    /// Section family names (`DISKREAD`), interned.
    bases: Vec<String>,
    /// (device name, group) in first-appearance order over every section header.
    devices: Vec<(String, bool)>,
    order: HashMap<(String, bool), u32>,
    /// `ZZZZ` records by snapshot number: (time and date as printed, time, line).
    zzzz: BTreeMap<u32, (String, Option<NaiveDateTime>, usize)>,
    snaps: BTreeMap<u32, Snapshot>,
    /// `CPU_ALL` header names (`User%`, `Sys%`, `Wait%`, `Idle%`, …) and values by snapshot.
    cpu_cols: Vec<String>,
    cpu_all: BTreeMap<u32, Values>,
}

impl Reader {
    fn new() -> Self {
        Reader {
            log: DeviceLog::new(FORMAT),
            header: SystemHeader::default(),
            saw_aaa: false,
            interval: None,
            sections: HashMap::new(),
            bases: Vec::new(),
            devices: Vec::new(),
            order: HashMap::new(),
            zzzz: BTreeMap::new(),
            cpu_cols: Vec::new(),
            cpu_all: BTreeMap::new(),
            snaps: BTreeMap::new(),
        }
    }

    fn skip(&mut self, line: usize, reason: String) {
        self.log.skipped.push(SkippedLine { line, reason });
    }

    fn base_id(&mut self, base: &str) -> u16 {
        match self.bases.iter().position(|b| b == base) {
            Some(k) => k as u16,
            None => {
                self.bases.push(base.to_string());
                (self.bases.len() - 1) as u16
            }
        }
    }

    /// Reads one line (`no` 1-based).
    fn line(&mut self, no: usize, raw: &str) {
        let line = raw.trim_end_matches('\r').trim_start_matches('\u{feff}');
        if line.trim().is_empty() {
            return;
        }
        let f: Vec<&str> = line.split(',').collect();
        let kind = f[0];
        match kind {
            "AAA" => return self.aaa(&f),
            "ZZZZ" => return self.zzzz(no, line, &f),
            "ERROR" => {
                self.log.warn(format!(
                    "line {no}: nmon error record: '{}'",
                    clip(line, CLIP_UNIX)
                ));
                return;
            }
            _ => {}
        }
        if kind.starts_with("BBB") {
            return;
        }
        if kind == "CPU_ALL" {
            return self.cpu_all(&f);
        }
        let Some(base) = disk_base(kind) else {
            return;
        };
        let second = f.get(1).copied().unwrap_or("");
        if is_snapshot(second) {
            self.data(no, line, &f);
        } else {
            self.section_header(no, kind, base, &f);
        }
    }

    fn aaa(&mut self, f: &[&str]) {
        self.saw_aaa = true;
        let val = |k: usize| f.get(k).map(|s| s.trim()).unwrap_or("");
        let header = &mut self.header;
        match val(1) {
            "host" => header.host = val(2).to_string(),
            "date" => header.date = Some(val(2).to_string()),
            "interval" => self.interval = val(2).parse().ok(),
            "cpus" => header.cpus = val(2).parse().ok(),
            "OS" => {
                header.sysname = val(2).to_string();
                header.kernel = val(3).to_string();
                if !val(5).is_empty() {
                    header.arch = Some(val(5).to_string());
                }
            }
            "AIX" => {
                header.sysname = "AIX".into();
                header.kernel = val(2).to_string();
            }
            _ => {}
        }
    }

    fn zzzz(&mut self, no: usize, line: &str, f: &[&str]) {
        let (Some(t), Some(tm), Some(d)) = (f.get(1), f.get(2), f.get(3)) else {
            self.skip(
                no,
                format!(
                    "a 'ZZZZ,Tnnnn,HH:MM:SS,DD-MON-YYYY' record: '{}'",
                    clip(line, CLIP_UNIX)
                ),
            );
            return;
        };
        let Some(n) = t.strip_prefix('T').and_then(|n| n.parse::<u32>().ok()) else {
            self.skip(
                no,
                format!("a snapshot number 'Tnnnn' in '{}'", clip(line, CLIP_UNIX)),
            );
            return;
        };
        let time = zzzz_time(tm, d);
        if time.is_none() {
            self.log.warn(format!(
                "line {no}: snapshot time '{},{}' not read (expected HH:MM:SS,DD-MON-YYYY)",
                tm.trim(),
                d.trim()
            ));
        }
        self.zzzz
            .entry(n)
            .or_insert((format!("{},{}", tm.trim(), d.trim()), time, no));
    }

    /// A section header: `DISKREAD,Disk Read KB/s host,sda,sdb`.
    fn section_header(&mut self, no: usize, kind: &str, base: &str, f: &[&str]) {
        let mut names: Vec<&str> = f[2.min(f.len())..].iter().map(|s| s.trim()).collect();
        // nmon ends some records with a comma: drop trailing empty names.
        while names.last().is_some_and(|s| s.is_empty()) {
            names.pop();
        }
        if names.is_empty() {
            self.log.warn(format!(
                "line {no}: section header '{kind}' names no device"
            ));
        }
        if !KNOWN.contains(&base) {
            self.log.warn(format!(
                "line {no}: unknown disk section '{base}' kept as printed"
            ));
        }
        let group = base.starts_with("DG");
        let devices: Rc<[u32]> = names
            .iter()
            .map(|d| {
                let key = (d.to_string(), group);
                match self.order.get(&key) {
                    Some(&k) => k,
                    None => {
                        let k = self.devices.len() as u32;
                        self.devices.push(key.clone());
                        self.order.insert(key, k);
                        k
                    }
                }
            })
            .collect();
        let base = self.base_id(base);
        let id = match self.sections.get(kind) {
            Some(s) => s.id,
            None => self.sections.len() as u32,
        };
        self.sections.insert(
            kind.to_string(),
            Section {
                id,
                base,
                devices,
                line: no,
            },
        );
    }

    /// `CPU_ALL,CPU Total host,User%,Sys%,Wait%,Idle%,Busy,CPUs` (the header) and
    /// `CPU_ALL,T0001,20.1,5.2,0.4,74.3,,16`: values by header name; a blank cell is unknown.
    fn cpu_all(&mut self, f: &[&str]) {
        let second = f.get(1).copied().unwrap_or("");
        let cells = f.get(2..).unwrap_or(&[]);
        if !is_snapshot(second) {
            self.cpu_cols = cells.iter().map(|c| c.trim().to_string()).collect();
            return;
        }
        let Ok(n) = second[1..].parse::<u32>() else {
            return;
        };
        let values: Values = self
            .cpu_cols
            .iter()
            .zip(cells)
            .map(|(c, v)| (c.clone(), number(v, Scale::Decimal).ok().flatten()))
            .collect();
        self.cpu_all.entry(n).or_insert(values);
    }

    /// A data record: `DISKREAD,T0001,132.1,0.0,…`.
    fn data(&mut self, no: usize, line: &str, f: &[&str]) {
        let (kind, second) = (f[0], f[1]);
        let Some(sec) = self.sections.get(kind) else {
            self.skip(
                no,
                format!(
                    "a '{kind}' data record before its section header (no device names): '{}'",
                    clip(line, CLIP_UNIX)
                ),
            );
            return;
        };
        let mut cells: &[&str] = &f[2..];
        while cells.len() > sec.devices.len() && cells.last().is_some_and(|s| s.trim().is_empty()) {
            cells = &cells[..cells.len() - 1];
        }
        if cells.len() != sec.devices.len() {
            let reason = format!(
                "{} values for the {} devices of the '{kind}' header of line {} (a cut \
                 line?): '{}'",
                cells.len(),
                sec.devices.len(),
                sec.line,
                clip(line, CLIP_UNIX)
            );
            self.skip(no, reason);
            return;
        }
        let mut values = Vec::with_capacity(cells.len());
        for (&d, c) in sec.devices.iter().zip(cells) {
            match number(c, Scale::Decimal) {
                Ok(v) => values.push(pack(v)),
                Err(why) => {
                    let why = format!("device '{}': {why}", self.devices[d as usize].0);
                    self.skip(no, format!("a number for every device of '{kind}' ({why})"));
                    return;
                }
            }
        }
        let snap_no: u32 = second[1..].parse().unwrap_or(0);
        let snap = self.snaps.entry(snap_no).or_insert_with(|| Snapshot {
            records: Vec::new(),
            first_line: no,
        });
        if snap.records.iter().any(|r| r.section == sec.id) {
            self.log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "a second '{kind}' record for snapshot {second} (duplicated snapshot): the \
                     first one is kept"
                ),
            });
            return;
        }
        snap.records.push(Record {
            section: sec.id,
            base: sec.base,
            devices: sec.devices.clone(),
            values: values.into_boxed_slice(),
        });
    }

    /// Ends the read: refuses a file without nmon header, disk section or disk data, then hands
    /// each snapshot's report to `report` in `Tnnnn` order (until it returns `Ok(false)`).
    /// Returns the header, warnings and skipped lines.
    fn finish(
        mut self,
        report: &mut dyn FnMut(DeviceReport, &SystemHeader) -> Result<bool, ParseError>,
    ) -> Result<DeviceLog, ParseError> {
        if !self.saw_aaa {
            return Err(ParseError::UnknownFormat {
                reason: "expected an nmon file (AAA header records, then ZZZZ and section \
                         records)"
                    .into(),
            });
        }
        if self.sections.is_empty() {
            return Err(ParseError::UnknownFormat {
                reason: "an nmon file without disk sections (no DISKREAD/DISKWRITE/DISKXFER…): \
                         it holds no disk statistics; capture with disk data (nmon -f without -d \
                         0)"
                .into(),
            });
        }
        if self.snaps.is_empty() {
            return Err(ParseError::UnknownFormat {
                reason: "an nmon file with disk section headers but no disk data record (no \
                         'DISKREAD,T0001,…'): it holds no disk statistics"
                    .into(),
            });
        }
        for (n, (_, _, line)) in &self.zzzz {
            if !self.snaps.contains_key(n) {
                self.log.warn(format!(
                    "line {line}: snapshot T{n:04} has no disk data (the file may end after its \
                     ZZZZ record)"
                ));
            }
        }
        let snaps = std::mem::take(&mut self.snaps);
        for (n, snap) in snaps {
            let mut r = DeviceReport::new(snap.first_line);
            match self.zzzz.get(&n) {
                Some((printed, time, line)) => {
                    r.timestamp = Some(printed.clone());
                    r.time = *time;
                    r.line = *line;
                }
                None => self.log.warn(format!(
                    "line {}: snapshot T{n:04} has no ZZZZ time record",
                    snap.first_line
                )),
            }
            r.interval_s = self.interval;
            r.devices = snap.samples(&self.devices, &self.bases);
            r.cpu = self
                .cpu_all
                .remove(&n)
                .map(|v| CpuUtil::from_named(v, "Idle%", "Wait%"));
            if !report(r, &self.header)? {
                break;
            }
        }
        self.log.header = Some(self.header);
        Ok(self.log)
    }
}

/// Reads every line into a [`Reader`]: the one parser body of [`parse`] and of the streaming
/// [`Nmon`] parse.
fn read_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
) -> Result<Reader, ParseError> {
    let mut reader = Reader::new();
    for (i, line) in lines.enumerate() {
        reader.line(i + 1, line?.as_ref());
    }
    Ok(reader)
}

/// Parses an nmon file.
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text has no `AAA` header or no disk section.
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    let mut reports = Vec::new();
    let mut log = read_lines(text_lines(text))?.finish(&mut |r, _| {
        reports.push(r);
        Ok(true)
    })?;
    log.reports = reports;
    Ok(log)
}

/// Hands a read nmon file to `sink` report by report.
fn into_sink(
    reader: Reader,
    settings: &crate::parser::ParseSettings,
    sink: &mut dyn crate::sink::Sink,
) -> Result<(), ParseError> {
    let mut out = crate::sink::DeviceStream::new(sink, crate::Format::Nmon, settings);
    let log = reader.finish(&mut |r, header| out.report(r, Some(header)))?;
    out.finish(log.warnings, log.skipped)
}

/// Normalises nmon disk sections (see the module table).
pub fn normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let v = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| values.iter().find(|(c, _)| c == n).map(|(_, x)| *x))
            .flatten()
    };
    Normalised {
        read_iops: v(&["DISKRIO", "DISKREADS", "DGREADS"]),
        write_iops: v(&["DISKWIO", "DISKWRITES", "DGWRITES"]),
        total_iops: v(&["DISKXFER", "DGXFER"]),
        read_bytes_per_s: v(&["DISKREAD", "DGREAD"]).map(|x| x * 1024.0),
        write_bytes_per_s: v(&["DISKWRITE", "DGWRITE"]).map(|x| x * 1024.0),
        avg_request_bytes: v(&["DISKBSIZE", "DGSIZE"]).map(|x| x * 1024.0),
        util_pct: v(&["DISKBUSY", "DGBUSY"]),
        ..Default::default()
    }
}

/// The nmon file format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Nmon;

impl crate::parser::FormatParser for Nmon {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::Nmon,
            id: "nmon",
            name: "nmon file",
            kind: crate::sink::RecordKind::Devices,
            description: "nmon `.nmon` file (Linux nmon, AIX topas_nmon): DISK* and DG* sections",
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
        into_sink(read_lines(text_lines(text))?, settings, sink)
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
        let reader = crate::lines::with_stream_lines(src, |lines| read_lines(lines))?;
        into_sink(reader, settings, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases() {
        assert_eq!(disk_base("DISKREAD1"), Some("DISKREAD"));
        assert_eq!(disk_base("DISKBUSY12"), Some("DISKBUSY"));
        assert_eq!(disk_base("DGXFER"), Some("DGXFER"));
        assert_eq!(disk_base("CPU001"), None);
        assert_eq!(disk_base("DISKFOO2"), Some("DISKFOO2"));
    }

    #[test]
    fn times() {
        assert_eq!(
            zzzz_time("10:24:26", "18-AUG-2015").unwrap().to_string(),
            "2015-08-18 10:24:26"
        );
        assert!(zzzz_time("25:00:00", "18-AUG-2015").is_none());
    }
}
