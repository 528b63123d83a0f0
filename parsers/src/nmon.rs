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

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

use crate::disk::{DeviceLog, DeviceReport, DeviceSample, Normalised, SkippedLine, SystemHeader};
use crate::error::ParseError;
use crate::lines::{clip, head, CLIP_UNIX};
use crate::num::{number, Scale};

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

/// A section header: its family and device names.
struct Section {
    base: String,
    devices: Vec<String>,
    line: usize,
}

#[derive(Default)]
struct Snapshot {
    /// (device name, group) → index in `devices`.
    index: HashMap<(String, bool), usize>,
    devices: Vec<DeviceSample>,
    /// Sections already read in this snapshot (as printed, with the continuation number).
    seen: Vec<String>,
    first_line: usize,
}

/// Parses an nmon file.
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text has no `AAA` header or no disk section.
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    let mut log = DeviceLog::new(FORMAT);
    let mut header = SystemHeader::default();
    let mut saw_aaa = false;
    let mut interval: Option<f64> = None;
    let mut sections: HashMap<String, Section> = HashMap::new();
    let mut zzzz: BTreeMap<u32, (String, Option<NaiveDateTime>, usize)> = BTreeMap::new();
    let mut snaps: BTreeMap<u32, Snapshot> = BTreeMap::new();
    // Device order: first appearance in a header, per (name, group).
    let mut order: HashMap<(String, bool), usize> = HashMap::new();

    for (i, raw) in text.split('\n').enumerate() {
        let no = i + 1;
        let line = raw.trim_end_matches('\r').trim_start_matches('\u{feff}');
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let kind = f[0];
        match kind {
            "AAA" => {
                saw_aaa = true;
                let val = |k: usize| f.get(k).map(|s| s.trim()).unwrap_or("");
                match val(1) {
                    "host" => header.host = val(2).to_string(),
                    "date" => header.date = Some(val(2).to_string()),
                    "interval" => interval = val(2).parse().ok(),
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
                continue;
            }
            "ZZZZ" => {
                let (Some(t), Some(tm), Some(d)) = (f.get(1), f.get(2), f.get(3)) else {
                    log.skipped.push(SkippedLine {
                        line: no,
                        reason: format!(
                            "a 'ZZZZ,Tnnnn,HH:MM:SS,DD-MON-YYYY' record: '{}'",
                            clip(line, CLIP_UNIX)
                        ),
                    });
                    continue;
                };
                let Some(n) = t.strip_prefix('T').and_then(|n| n.parse::<u32>().ok()) else {
                    log.skipped.push(SkippedLine {
                        line: no,
                        reason: format!("a snapshot number 'Tnnnn' in '{}'", clip(line, CLIP_UNIX)),
                    });
                    continue;
                };
                let time = zzzz_time(tm, d);
                if time.is_none() {
                    log.warn(format!(
                        "line {no}: snapshot time '{},{}' not read (expected HH:MM:SS,DD-MON-YYYY)",
                        tm.trim(),
                        d.trim()
                    ));
                }
                zzzz.entry(n)
                    .or_insert((format!("{},{}", tm.trim(), d.trim()), time, no));
                continue;
            }
            "ERROR" => {
                log.warn(format!(
                    "line {no}: nmon error record: '{}'",
                    clip(line, CLIP_UNIX)
                ));
                continue;
            }
            _ => {}
        }
        if kind.starts_with("BBB") {
            continue;
        }
        let Some(base) = disk_base(kind) else {
            continue;
        };
        let second = f.get(1).copied().unwrap_or("");
        if !is_snapshot(second) {
            // A section header: `DISKREAD,Disk Read KB/s host,sda,sdb`.
            let devices: Vec<String> = f[2.min(f.len())..]
                .iter()
                .map(|s| s.trim().to_string())
                .collect();
            // nmon ends some records with a comma: drop trailing empty names.
            let mut devices = devices;
            while devices.last().is_some_and(|s| s.is_empty()) {
                devices.pop();
            }
            if devices.is_empty() {
                log.warn(format!(
                    "line {no}: section header '{kind}' names no device"
                ));
            }
            if !KNOWN.contains(&base) {
                log.warn(format!(
                    "line {no}: unknown disk section '{base}' kept as printed"
                ));
            }
            let group = base.starts_with("DG");
            for d in &devices {
                let k = (d.clone(), group);
                let n = order.len();
                order.entry(k).or_insert(n);
            }
            sections.insert(
                kind.to_string(),
                Section {
                    base: base.to_string(),
                    devices,
                    line: no,
                },
            );
            continue;
        }
        // A data record: `DISKREAD,T0001,132.1,0.0,…`.
        let Some(sec) = sections.get(kind) else {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "a '{kind}' data record before its section header (no device names): '{}'",
                    clip(line, CLIP_UNIX)
                ),
            });
            continue;
        };
        let mut cells: Vec<&str> = f[2..].to_vec();
        while cells.len() > sec.devices.len() && cells.last().is_some_and(|s| s.trim().is_empty()) {
            cells.pop();
        }
        if cells.len() != sec.devices.len() {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "{} values for the {} devices of the '{kind}' header of line {} (a cut \
                     line?): '{}'",
                    cells.len(),
                    sec.devices.len(),
                    sec.line,
                    clip(line, CLIP_UNIX)
                ),
            });
            continue;
        }
        let mut values = Vec::with_capacity(cells.len());
        let mut bad = None;
        for (d, c) in sec.devices.iter().zip(&cells) {
            match number(c, Scale::Decimal) {
                Ok(v) => values.push(v),
                Err(why) => {
                    bad = Some(format!("device '{d}': {why}"));
                    break;
                }
            }
        }
        if let Some(why) = bad {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!("a number for every device of '{kind}' ({why})"),
            });
            continue;
        }
        let snap_no: u32 = second[1..].parse().unwrap_or(0);
        let snap = snaps.entry(snap_no).or_insert_with(|| Snapshot {
            first_line: no,
            ..Default::default()
        });
        if snap.seen.iter().any(|s| s == kind) {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "a second '{kind}' record for snapshot {second} (duplicated snapshot): the \
                     first one is kept"
                ),
            });
            continue;
        }
        snap.seen.push(kind.to_string());
        let group = sec.base.starts_with("DG");
        for (d, v) in sec.devices.iter().zip(values) {
            let key = (d.clone(), group);
            let k = match snap.index.get(&key) {
                Some(&k) => k,
                None => {
                    snap.devices.push(DeviceSample {
                        device: d.clone(),
                        group,
                        host_total: false,
                        values: Vec::new(),
                        normalised: Normalised::default(),
                    });
                    snap.index.insert(key, snap.devices.len() - 1);
                    snap.devices.len() - 1
                }
            };
            snap.devices[k].values.push((sec.base.clone(), v));
        }
    }

    if !saw_aaa {
        return Err(ParseError::UnknownFormat {
            reason: "expected an nmon file (AAA header records, then ZZZZ and section records)"
                .into(),
        });
    }
    if sections.is_empty() {
        return Err(ParseError::UnknownFormat {
            reason: "an nmon file without disk sections (no DISKREAD/DISKWRITE/DISKXFER…): it \
                     holds no disk statistics; capture with disk data (nmon -f without -d 0)"
                .into(),
        });
    }
    for (n, (_, _, line)) in &zzzz {
        if !snaps.contains_key(n) {
            log.warn(format!(
                "line {line}: snapshot T{n:04} has no disk data (the file may end after its \
                 ZZZZ record)"
            ));
        }
    }
    for (n, mut snap) in snaps {
        let mut r = DeviceReport::new(snap.first_line);
        match zzzz.get(&n) {
            Some((printed, time, line)) => {
                r.timestamp = Some(printed.clone());
                r.time = *time;
                r.line = *line;
            }
            None => log.warn(format!(
                "line {}: snapshot T{n:04} has no ZZZZ time record",
                snap.first_line
            )),
        }
        r.interval_s = interval;
        snap.devices.sort_by_key(|d| {
            order
                .get(&(d.device.clone(), d.group))
                .copied()
                .unwrap_or(usize::MAX)
        });
        for d in &mut snap.devices {
            d.normalised = normalise(&d.values);
        }
        r.devices = snap.devices;
        log.reports.push(r);
    }
    if log.reports.is_empty() {
        return Err(ParseError::UnknownFormat {
            reason: "an nmon file with disk section headers but no disk data record (no \
                     'DISKREAD,T0001,…'): it holds no disk statistics"
                .into(),
        });
    }
    log.header = Some(header);
    Ok(log)
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
        crate::parser::devices_into(parse(text), self.info(), settings, sink)
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
