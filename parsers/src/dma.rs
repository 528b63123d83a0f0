//! Google Database Migration Assessment (DMA, `collect-data.sh`) archives: a zip of
//! `opdb__<extract>__<tag>.csv` files, read in memory (never unpacked to disk).
//!
//! # Flow
//! zip bytes → [`looks_like`] (zip magic and an `opdb__…` member) → the members
//! `opdb__awrhistsysmetricsumm__…` and `opdb__awrsnapdetails__…` (`Extract`: the first
//! non-blank line is the heading, columns read by name; `|` (3.x, 4.x), `,` (v1) or the
//! `PKEY||','||DBID…` heading of 2.0.x, the hour column headed `HO`, `HH` or `HOUR`) → one
//! [`AwrReport`] per instance × hour of day (24 per instance), handed to
//! [`Sink::interval_report`] hour by hour. The engine then treats them as it treats AWR instance
//! reports: the hour is the interval, RAC instances are summed per hour, and the series
//! statistics (max, p95) are over the 24 hours of the profile.
//!
//! # What DMA keeps, and what each record carries
//! DMA aggregates `DBA_HIST_SYSMETRIC_SUMMARY` by instance × hour of day over the whole window
//! (`TO_CHAR(begin_time,'hh24')`, default 30 days): there is no calendar series. Per snapshot it
//! first computes `AVERAGE + 2 × STANDARD_DEVIATION` of the metric's 60-second samples, then
//! every column (`AVG_VALUE`, `PERC95`, `MAX_VALUE`, …) is a statistic of that inflated value
//! over the hour's snapshots, rounded to an integer. A record carries `AVG_VALUE`, the mean of
//! that value over the hour's snapshots: it is the closest DMA keeps to a snapshot average, and
//! it already overstates the average by two standard deviations; `PERC95` would stack a second
//! upper statistic on top (the series p95 is then taken over the 24 hours).
//!
//! | record field | `METRIC_NAME` (`AVG_VALUE`) | unit |
//! |---|---|---|
//! | `physical read total IO requests` per Second | `Physical Read Total IO Requests Per Sec` | requests/s |
//! | `physical write total IO requests` per Second | `Physical Write Total IO Requests Per Sec` | requests/s |
//! | `physical read total bytes` per Second | `Physical Read Total Bytes Per Sec` | bytes/s |
//! | `physical write total bytes` per Second | `Physical Write Total Bytes Per Sec` | bytes/s |
//! | `redo writes` per Second | `Redo Writes Per Sec` | writes/s |
//! | `redo size` per Second | `Redo Generated Per Sec` | bytes/s |
//! | host CPU busy % | `Host CPU Utilization (%)` | percent (may exceed 100: avg + 2σ) |
//! | interval | hour `h` of the window's first day (`awrsnapdetails` `MIN_BEGIN_INTERVAL_TIME`), 60 minutes; snapshot ids `h` → `h + 1` (no AWR snapshot id: the hour of day) | — |
//!
//! Each `Total` is the per-second value × 3600 (one hour), so that IO sizes (bytes ÷ requests)
//! come out as the ratio of the two rates. A metric absent for an instance-hour is unknown,
//! never 0.

use std::collections::BTreeMap;
use std::io::Read;

use chrono::{Duration, NaiveDate, NaiveDateTime};

use crate::awr::{ActivityStat, AwrReport, DbInfo, HostCpu, InstanceInfo, ReportKind, Snapshots};
use crate::error::ParseError;
use crate::sink::Sink;

/// The extract of the metrics.
const METRICS: &str = "awrhistsysmetricsumm";
/// The extract of the snapshot times.
const SNAPS: &str = "awrsnapdetails";
/// The table name records carry (`ActivityStat::table`).
const TABLE: &str = "awrhistsysmetricsumm AVG_VALUE";
/// Largest decompressed size of one member read (a guard against decompression bombs).
const MEMBER_LIMIT: u64 = 1 << 30;

/// The metrics read: `METRIC_NAME` → the record's statistic name.
const MAP: [(&str, &str); 6] = [
    (
        "Physical Read Total IO Requests Per Sec",
        "physical read total IO requests",
    ),
    (
        "Physical Write Total IO Requests Per Sec",
        "physical write total IO requests",
    ),
    (
        "Physical Read Total Bytes Per Sec",
        "physical read total bytes",
    ),
    (
        "Physical Write Total Bytes Per Sec",
        "physical write total bytes",
    ),
    ("Redo Writes Per Sec", "redo writes"),
    ("Redo Generated Per Sec", "redo size"),
];
/// The host CPU metric.
const CPU: &str = "Host CPU Utilization (%)";

/// Whether a zip member is a DMA extract file (`opdb__…`, outside `__MACOSX/`).
fn is_extract(name: &str) -> bool {
    !name.starts_with("__MACOSX/") && base(name).starts_with("opdb__")
}

/// The member's file name, without its folders.
fn base(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// The archive's member names (names that are no valid text are left out).
fn names<R: Read + std::io::Seek>(z: &zip::ZipArchive<R>) -> Vec<String> {
    z.file_names()
        .filter_map(|n| n.ok().map(|n| n.into_owned()))
        .collect()
}

/// Detection from the raw bytes: the zip magic, and a member named `opdb__…`.
pub fn looks_like(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"PK\x03\x04") {
        return false;
    }
    match zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
        Ok(z) => names(&z).iter().any(|n| is_extract(n)),
        Err(_) => false,
    }
}

/// One extract's table: its heading names and its rows, cells trimmed.
struct Extract {
    /// The member's file name.
    name: String,
    /// Heading names, upper case.
    names: Vec<String>,
    /// `(line, cells)`, line numbers 1-based in the member.
    rows: Vec<(usize, Vec<String>)>,
}

impl Extract {
    /// Reads `text` (a member, decoded): the first non-blank line is the heading.
    fn of(name: &str, text: &str) -> Result<Extract, ParseError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((_, head)) = lines.next() else {
            return Err(ParseError::section(
                name,
                None,
                "a heading line and rows",
                "an empty extract",
            ));
        };
        // 2.0.x prints the select expression as its heading: `PKEY||','||DBID||…`.
        let (names, delim): (Vec<String>, char) = if head.contains("||") {
            let names = head
                .split("||")
                .map(str::trim)
                .filter(|t| !t.starts_with('\''))
                .map(str::to_string)
                .collect();
            (names, ',')
        } else {
            let d = if head.contains('|') { '|' } else { ',' };
            (head.split(d).map(|t| t.trim().to_string()).collect(), d)
        };
        let names = names.into_iter().map(|n| n.to_ascii_uppercase()).collect();
        let rows = lines
            .map(|(i, l)| {
                (
                    i + 1,
                    l.split(delim).map(|c| c.trim().to_string()).collect(),
                )
            })
            .collect();
        Ok(Extract {
            name: name.to_string(),
            names,
            rows,
        })
    }

    /// The column headed by one of `names`.
    fn need(&self, names: &[&str]) -> Result<usize, ParseError> {
        self.names
            .iter()
            .position(|n| names.contains(&n.as_str()))
            .ok_or_else(|| {
                ParseError::section(
                    &self.name,
                    Some(1),
                    format!("a column {}", names.join(" or ")),
                    format!("the columns {}", self.names.join(", ")),
                )
            })
    }

    /// The cell of `row` at column `c`, or an error naming the line.
    fn cell<'r>(&self, line: usize, row: &'r [String], c: usize) -> Result<&'r str, ParseError> {
        row.get(c).map(String::as_str).ok_or_else(|| {
            ParseError::section(
                &self.name,
                Some(line),
                format!("a cell in column {}", self.names[c]),
                format!("{} cells", row.len()),
            )
        })
    }

    /// A number cell: `Ok(None)` when blank; an error naming the line when not a number.
    fn number(&self, line: usize, row: &[String], c: usize) -> Result<Option<f64>, ParseError> {
        let raw = self.cell(line, row, c)?;
        if raw.is_empty() {
            return Ok(None);
        }
        let v = crate::num::point_or_comma(raw)
            .ok()
            .flatten()
            .filter(|v| v.is_finite());
        v.map(Some).ok_or_else(|| {
            ParseError::section(
                &self.name,
                Some(line),
                format!("a number in column {}", self.names[c]),
                format!("'{raw}'"),
            )
        })
    }
}

/// The hour column's names: 3.x `HO` (`A2` heading), osstat `HH`, 4.x `HOUR`.
const HOUR: [&str; 3] = ["HOUR", "HO", "HH"];

/// Reads the member of `extract` from the archive, decoded.
fn member(
    z: &mut zip::ZipArchive<std::io::Cursor<&[u8]>>,
    extract: &str,
    present: &[String],
) -> Result<Extract, ParseError> {
    let prefix = format!("opdb__{extract}__");
    let Some(name) = names(z)
        .into_iter()
        .find(|n| is_extract(n) && base(n).starts_with(&prefix) && n.ends_with(".csv"))
    else {
        return Err(ParseError::section(
            "zip archive",
            None,
            format!("a DMA extract {prefix}….csv (DMA collected with the AWR/Diagnostics Pack)"),
            format!("only {}", present.join(", ")),
        ));
    };
    let bad = |e: String| ParseError::section(base(&name), None, "a readable zip member", e);
    let mut bytes = Vec::new();
    z.by_name(&name)
        .map_err(|e| bad(e.to_string()))?
        .take(MEMBER_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MEMBER_LIMIT {
        return Err(bad(format!(
            "more than {} GiB decompressed",
            MEMBER_LIMIT >> 30
        )));
    }
    let text = match crate::input::decode(&bytes) {
        Ok(d) => d.text.into_owned(),
        Err(e) => return Err(bad(e.to_string())),
    };
    Extract::of(base(&name), &text)
}

/// DMA's timestamps in the session's default NLS: `04-OCT-22 12.00.03.984 AM`; 4.x sets
/// `YYYY-MM-DD HH24:MI:SS`.
fn time(raw: &str) -> Option<NaiveDateTime> {
    let title = |s: &str| {
        // chrono reads month abbreviations as `Oct`.
        let mut out = String::with_capacity(s.len());
        let mut prev_alpha = false;
        for ch in s.chars() {
            out.push(if prev_alpha {
                ch.to_ascii_lowercase()
            } else {
                ch
            });
            prev_alpha = ch.is_ascii_alphabetic();
        }
        out
    };
    let t = title(raw.trim());
    ["%d-%b-%y %I.%M.%S%.f %p", "%Y-%m-%d %H:%M:%S", "%d-%b-%y"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(&t, f).ok())
        .or_else(|| {
            NaiveDate::parse_from_str(&t, "%d-%b-%y")
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })
}

/// One instance-hour of `awrsnapdetails`.
#[derive(Default, Clone, Copy)]
struct Snaps {
    /// `CNT`, snapshots in the bucket.
    count: Option<f64>,
    /// `AVG_SNAPS_DIFF_SECS`, seconds.
    avg_secs: Option<f64>,
}

/// Parses a DMA archive into one report per instance × hour of day, handed to `sink` hour by
/// hour (instances in number order within an hour).
///
/// # Errors
/// - [`ParseError::Section`] (section `zip archive`) when the bytes are not a readable zip or
///   lack the `opdb__awrhistsysmetricsumm__` or `opdb__awrsnapdetails__` extract (a DMA run
///   without the Diagnostics Pack writes neither);
/// - section the member's name when its heading lacks a column read (`DBID`,
///   `INSTANCE_NUMBER`, `HO`/`HH`/`HOUR`, `METRIC_NAME`, `AVG_VALUE`; `MIN_BEGIN_INTERVAL_TIME`),
///   a cell is not a number or time (or an `AVG_VALUE` is negative), an hour is not 0–23, or none of the IO metrics is present;
/// - the sink's.
pub fn parse_archive(bytes: &[u8], sink: &mut dyn Sink) -> Result<(), ParseError> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| {
        ParseError::section("zip archive", None, "a readable zip archive", e.to_string())
    })?;
    let present: Vec<String> = names(&z)
        .iter()
        .filter(|n| is_extract(n))
        .map(|n| base(n).to_string())
        .collect();
    let short: Vec<String> = present
        .iter()
        .map(|n| n.split("__").nth(1).unwrap_or(n).to_string())
        .collect();
    let m = member(&mut z, METRICS, &short)?;
    let s = member(&mut z, SNAPS, &short)?;
    let version = present
        .first()
        .and_then(|n| n.split("__").last())
        .and_then(|tag| tag.split('_').nth(1))
        .unwrap_or("unknown")
        .to_string();

    // awrsnapdetails: the window and the snapshots of each instance-hour.
    let (s_inst, s_hour, s_begin, s_end) = (
        s.need(&["INSTANCE_NUMBER"])?,
        s.need(&HOUR)?,
        s.need(&["MIN_BEGIN_INTERVAL_TIME"])?,
        s.need(&["MAX_BEGIN_INTERVAL_TIME"])?,
    );
    let (s_cnt, s_avg) = (s.need(&["CNT"]).ok(), s.need(&["AVG_SNAPS_DIFF_SECS"]).ok());
    let hour_of = |e: &Extract, line: usize, row: &[String], c: usize| -> Result<u32, ParseError> {
        let raw = e.cell(line, row, c)?;
        raw.parse::<u32>().ok().filter(|h| *h < 24).ok_or_else(|| {
            ParseError::section(
                &e.name,
                Some(line),
                format!("an hour of day 00–23 in column {}", e.names[c]),
                format!("'{raw}'"),
            )
        })
    };
    let inst_of = |e: &Extract, line: usize, row: &[String], c: usize| -> Result<u32, ParseError> {
        let raw = e.cell(line, row, c)?;
        raw.parse::<u32>().map_err(|_| {
            ParseError::section(
                &e.name,
                Some(line),
                format!("an instance number in column {}", e.names[c]),
                format!("'{raw}'"),
            )
        })
    };
    let mut snaps: BTreeMap<(u32, u32), Snaps> = BTreeMap::new();
    let (mut first, mut last): (Option<NaiveDateTime>, Option<NaiveDateTime>) = (None, None);
    for (line, row) in &s.rows {
        let inst = inst_of(&s, *line, row, s_inst)?;
        let hour = hour_of(&s, *line, row, s_hour)?;
        for (c, keep_min) in [(s_begin, true), (s_end, false)] {
            let raw = s.cell(*line, row, c)?;
            let t = time(raw).ok_or_else(|| {
                ParseError::section(
                    &s.name,
                    Some(*line),
                    format!("a time `DD-MON-RR HH.MI.SS.FF AM` in column {}", s.names[c]),
                    format!("'{raw}'"),
                )
            })?;
            let slot = if keep_min { &mut first } else { &mut last };
            *slot = Some(match *slot {
                Some(x) if keep_min => x.min(t),
                Some(x) => x.max(t),
                None => t,
            });
        }
        let entry = snaps.entry((inst, hour)).or_default();
        if let Some(c) = s_cnt {
            entry.count = s.number(*line, row, c)?;
        }
        if let Some(c) = s_avg {
            entry.avg_secs = s.number(*line, row, c)?;
        }
    }
    let Some(first) = first else {
        return Err(ParseError::section(
            &s.name,
            None,
            "one row per instance and hour of day",
            "no row",
        ));
    };

    // awrhistsysmetricsumm: AVG_VALUE of the metrics read, per instance-hour.
    let (m_db, m_inst, m_hour, m_name, m_avg) = (
        m.need(&["DBID"])?,
        m.need(&["INSTANCE_NUMBER"])?,
        m.need(&HOUR)?,
        m.need(&["METRIC_NAME"])?,
        m.need(&["AVG_VALUE"])?,
    );
    let mut db_id = 0u64;
    let mut values: BTreeMap<(u32, u32), BTreeMap<&'static str, f64>> = BTreeMap::new();
    let mut cpu: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    let mut io_rows = 0usize;
    for (line, row) in &m.rows {
        let name = m.cell(*line, row, m_name)?;
        let stat = MAP.iter().find(|(n, _)| *n == name).map(|(_, s)| *s);
        if stat.is_none() && name != CPU {
            continue;
        }
        let key = (
            inst_of(&m, *line, row, m_inst)?,
            hour_of(&m, *line, row, m_hour)?,
        );
        if db_id == 0 {
            db_id = m.number(*line, row, m_db)?.map_or(0, |v| v as u64);
        }
        let Some(v) = m.number(*line, row, m_avg)? else {
            continue;
        };
        if v < 0.0 {
            return Err(ParseError::section(
                &m.name,
                Some(*line),
                "a rate of 0 or more in column AVG_VALUE",
                format!("'{}'", m.cell(*line, row, m_avg)?),
            ));
        }
        match stat {
            Some(stat) => {
                io_rows += 1;
                values.entry(key).or_default().insert(stat, v);
            }
            None => {
                cpu.insert(key, v);
            }
        }
    }
    if io_rows == 0 {
        return Err(ParseError::section(
            &m.name,
            None,
            format!("rows of METRIC_NAME {}", MAP[0].0),
            "none of the IO metrics",
        ));
    }

    // The database, from dbsummary when present (its absence is not an error).
    let summary = member(&mut z, "dbsummary", &short).ok();
    let pick = |col: &str| -> Option<String> {
        let e = summary.as_ref()?;
        let c = e.need(&[col]).ok()?;
        e.rows
            .first()
            .and_then(|(_, r)| r.get(c))
            .filter(|v| !v.is_empty())
            .cloned()
    };
    let tag_db = present
        .first()
        .and_then(|n| n.split("__").last())
        .and_then(|tag| tag.split('_').nth(3))
        .unwrap_or("unknown")
        .to_string();
    let db_name = pick("DB_NAME").unwrap_or(tag_db);
    let n_inst = values
        .keys()
        .map(|k| k.0)
        .collect::<std::collections::BTreeSet<_>>();
    let instances_names = member(&mut z, "dbinstances", &short).ok();
    let inst_name = |n: u32| -> (String, Option<String>) {
        let found = instances_names.as_ref().and_then(|e| {
            let (i, name, host) = (
                e.need(&["INST_ID"]).ok()?,
                e.need(&["INSTANCE_NAME"]).ok()?,
                e.need(&["HOST_NAME"]).ok(),
            );
            e.rows
                .iter()
                .find(|(_, r)| r.get(i).map(String::as_str) == Some(n.to_string().as_str()))
                .map(|(_, r)| {
                    (
                        r.get(name).cloned().unwrap_or_default(),
                        host.and_then(|h| r.get(h).cloned()),
                    )
                })
        });
        match found {
            Some((name, host)) if !name.is_empty() => (name, host),
            _ => (format!("inst {n}"), None),
        }
    };
    let db = DbInfo {
        db_name: db_name.clone(),
        db_id,
        release: pick("DB_VERSION").unwrap_or_default(),
        rac: Some(n_inst.len() > 1),
        role: pick("DG_DATABASE_ROLE"),
        ..DbInfo::default()
    };
    let snap_total: f64 = snaps.values().filter_map(|s| s.count).sum();
    let days = last.map(|l| (l - first).num_hours() as f64 / 24.0);
    let mut notes = vec![
        format!(
            "DMA {version} archive: an hour-of-day profile (24 hours per instance, each the mean over the window of that hour's snapshots), not a snapshot series — a coarser basis: a burst on one day is averaged with the same hour of every other day{}",
            match days {
                Some(d) => format!(" ({d:.1} days, {snap_total:.0} snapshots from {first} to {})", last.unwrap_or(first)),
                None => String::new(),
            }
        ),
        "DMA's awrhistsysmetricsumm values are statistics of AVERAGE + 2 × STANDARD_DEVIATION per snapshot, rounded to integers: the AVG_VALUE read (the per-hour mean of that value) overstates the average load; no Buffer Hit %, wait events, IO Profile or multi-block split (those figures are unknown)".to_string(),
    ];
    if db_id == 0 {
        notes.push(format!("{} has no DBID: DB Id unknown (0)", m.name));
    }
    let day = first.date();
    let mut first_record = true;
    for hour in 0..24u32 {
        for &inst in &n_inst {
            let Some(vals) = values.get(&(inst, hour)) else {
                continue;
            };
            let begin = day.and_hms_opt(hour, 0, 0).expect("hour < 24");
            let end = begin + Duration::hours(1);
            let activity = vals
                .iter()
                .map(|(name, v)| ActivityStat {
                    name: name.to_string(),
                    total: Some(v * 3600.0),
                    per_second: Some(*v),
                    per_trans: None,
                    table: TABLE.to_string(),
                })
                .collect();
            let (name, host) = inst_name(inst);
            let sn = snaps.get(&(inst, hour)).copied().unwrap_or_default();
            let host_cpu = cpu
                .get(&(inst, hour))
                .map(|v| HostCpu {
                    busy_pct: Some(*v),
                    ..HostCpu::default()
                })
                .into_iter()
                .collect();
            let report = AwrReport {
                kind: ReportKind::Instance,
                heading: "DMA archive".to_string(),
                title: format!(
                    "DMA {version} for DB: {db_name}, Inst: {inst}, hour of day {hour:02} ({} snapshots{})",
                    sn.count.map_or("unknown".into(), |c| format!("{c:.0}")),
                    sn.avg_secs
                        .map_or(String::new(), |s| format!(" of {s:.0} s on average"))
                ),
                db: db.clone(),
                instances: vec![InstanceInfo {
                    name,
                    number: inst,
                    host,
                    platform: pick("PLATFORM_NAME"),
                    ..InstanceInfo::default()
                }],
                snapshots: Snapshots {
                    begin_id: u64::from(hour),
                    end_id: u64::from(hour) + 1,
                    begin_time: Some(begin),
                    end_time: Some(end),
                    elapsed_min: Some(60.0),
                    elapsed_decimals: None,
                    db_time_min: None,
                },
                load_profile: Vec::new(),
                io_profile: Vec::new(),
                efficiency: Vec::new(),
                activity,
                iostat_function: Vec::new(),
                iostat_filetype: Vec::new(),
                wait_events: Vec::new(),
                wait_histograms: Vec::new(),
                warnings: if first_record {
                    std::mem::take(&mut notes)
                } else {
                    Vec::new()
                },
                encoding: String::new(),
                source_format: "dma_archive".to_string(),
                rate_decimals: 0,
                host_cpu,
            };
            first_record = false;
            sink.interval_report(report)?;
        }
    }
    Ok(())
}

/// The DMA archive format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct DmaArchive;

impl crate::parser::FormatParser for DmaArchive {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::DmaArchive,
            id: "dma_archive",
            name: "Google DMA archive",
            kind: crate::sink::RecordKind::Intervals,
            description: "Google Database Migration Assessment (`collect-data.sh`, 3.0.8 checked) zip of `opdb__<extract>__<tag>.csv`: awrhistsysmetricsumm per instance × hour of day",
        }
    }

    /// A DMA archive is a zip: its text never matches ([`crate::parser::FormatParser::detect_bytes`] does).
    fn detect(&self, _text: &str) -> bool {
        false
    }

    fn detect_bytes(&self, bytes: &[u8]) -> bool {
        looks_like(bytes)
    }

    fn parse(
        &self,
        _text: &str,
        _settings: &crate::parser::ParseSettings,
        _sink: &mut dyn Sink,
    ) -> Result<(), ParseError> {
        Err(ParseError::section(
            "zip archive",
            None,
            "the zip archive's bytes",
            "decoded text",
        ))
    }

    fn parse_bytes(
        &self,
        bytes: &[u8],
        _settings: &crate::parser::ParseSettings,
        sink: &mut dyn Sink,
    ) -> Result<(), ParseError> {
        parse_archive(bytes, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_heading_and_delimiter_styles_read_the_same_columns() {
        // 3.x: `|`, heading `HO`; v1: `,` with SQL*Plus padding; 2.0.x: the select expression
        // as heading, values separated by ` , `; 4.x: `HOUR`.
        for text in [
            "\nPKEY|DBID|INSTANCE_NUMBER|HO|METRIC_NAME|AVG_VALUE\nk|7|1|05|Redo Writes Per Sec|4\n",
            "\nPKEY , DBID,INSTANCE_NUMBER,HH ,METRIC_NAME,AVG_VALUE\nk  ,7 ,1,05,Redo Writes Per Sec , 4\n",
            "PKEY||' , '||DBID||' , '||INSTANCE_NUMBER||' , '||HOUR||' , '||METRIC_NAME||' , '||AVG_VALUE\nk , 7 , 1 , 05 , Redo Writes Per Sec , 4\n",
        ] {
            let e = Extract::of("x.csv", text).unwrap();
            let (h, n, v) = (
                e.need(&HOUR).unwrap(),
                e.need(&["METRIC_NAME"]).unwrap(),
                e.need(&["AVG_VALUE"]).unwrap(),
            );
            let (line, row) = &e.rows[0];
            assert_eq!(row[h], "05", "{text}");
            assert_eq!(row[n], "Redo Writes Per Sec", "{text}");
            assert_eq!(e.number(*line, row, v).unwrap(), Some(4.0), "{text}");
        }
    }

    #[test]
    fn a_cell_that_is_no_number_is_an_error_naming_member_and_line() {
        let e = Extract::of("m.csv", "\nHO|AVG_VALUE\n05|NaN\n05|inf\n").unwrap();
        for (line, row) in &e.rows {
            let err = e.number(*line, row, 1).unwrap_err().to_string();
            assert!(err.contains("m.csv") && err.contains("AVG_VALUE"), "{err}");
        }
        assert_eq!(e.rows[0].0, 3);
    }

    #[test]
    fn nls_timestamps_are_read() {
        assert_eq!(
            time("04-OCT-22 12.00.03.984 AM").unwrap().to_string(),
            "2022-10-04 00:00:03.984"
        );
        assert_eq!(
            time("2022-10-04 13:00:03").unwrap().to_string(),
            "2022-10-04 13:00:03"
        );
        assert!(time("yesterday").is_none());
    }

    #[test]
    fn a_zip_without_opdb_members_is_not_dma() {
        assert!(!looks_like(b"PK\x03\x04not really"));
        assert!(!looks_like(b"PKEY|DBID"));
    }
}
