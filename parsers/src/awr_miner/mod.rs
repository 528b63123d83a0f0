//! AWR Miner (`awr_miner.sql`, Oracle, 2.9 to 5.0.x) and its AWS fork DBCSI
//! (`aws_awr_miner.sql`, 4.0.11.aws.NN) capture files: every snapshot of every instance of one
//! database, read from `DBA_HIST_SYSMETRIC_SUMMARY` into one `.out` file.
//!
//! # Flow
//! text → `table::sections` (`~~BEGIN-X~~` … `~~END-X~~`) → `OS-INFORMATION` (key/value
//! lines: `DB_NAME`, `DBID`, `VERSION`, `INSTANCES`, `AWR_MINER_VER`, …) and `MAIN-METRICS`
//! (`table::Table`: columns cut by the dashes line and read by their heading names, since the
//! column sets of 2.9 to 5.x differ, 31 to 69 columns) → one [`AwrReport`] per `MAIN-METRICS`
//! row, that is per snapshot × instance, handed to [`Sink::interval_report`] in file order. The
//! engine then treats them as it treats AWR instance reports: one interval per snapshot, RAC
//! instances summed per snapshot, the same series statistics and sizing.
//!
//! # What each record carries
//! | record field | `MAIN-METRICS` column | unit conversion |
//! |---|---|---|
//! | `physical read total IO requests` per Second | `read_iops` ('Physical Read Total IO Requests Per Sec', average over the snapshot) | — |
//! | `physical write total IO requests` per Second | `write_iops` | — |
//! | `physical read total bytes` per Second | `read_mb_s` (the script's `/1024/1024`) | × 2^20 → bytes/s |
//! | `physical write total bytes` per Second | `write_mb_s` | × 2^20 |
//! | `redo size` per Second | `redo_mb_s` ('Redo Generated Per Sec' /1024/1024) | × 2^20 |
//! | `redo writes` per Second | `IOSTAT-BY-FUNCTION` LGWR `SM_W_REQS + LG_W_REQS` ÷ (`dur_m` × 60), single-instance files only | counts per snapshot → per second |
//! | [`READ_IOPS_MAX`], [`WRITE_IOPS_MAX`] per Second | `read_iops_max`, `write_iops_max` (the busiest 60-second sample inside the snapshot) | — |
//! | snapshot ids | `snap` = the end snapshot; the begin id is taken as `snap − 1` | — |
//! | end time, minutes | `end` (`YY/MM/DD HH24:MI`), `dur_m` | begin = end − `dur_m` |
//! | instance | `inst` (named `inst N`: the file prints no instance names) | — |
//!
//! Each `Total` is the per-second average × `dur_m` × 60 (the metric is an average over the
//! snapshot, so its total over the snapshot is exact up to the one decimal printed); a MiB/s
//! printed `0` beside requests has no total (it is below the printed precision: an IO size
//! derived from it would read 0 KiB). Nothing
//! else of an AWR report is in the file: no Buffer Hit %, no wait events, no IO Profile, no
//! multi-block split; those figures are unknown. `IOSTAT-BY-FUNCTION` sums the instances (the
//! script groups by snapshot and function), so in a RAC file its LGWR requests cannot be given
//! to one instance: redo writes are then unknown, said in a warning. Numbers are read with a
//! decimal point or comma (`,9`, `7,6`: clients with a European `NLS_NUMERIC_CHARACTERS`), `.9`
//! without its leading zero and `1.29E+10`; a blank cell is unknown, never 0. DBCSI wraps every
//! metric in `nvl(…,0)`, so an absent metric prints as 0 there: its reports say so.

mod table;
pub mod zipped;

use chrono::{Duration, NaiveDateTime};

use crate::awr::{ActivityStat, AwrReport, DbInfo, InstanceInfo, ReportKind, Snapshots};
use crate::error::ParseError;
use crate::num::{self, Range};
use crate::sink::Sink;
use table::{sections, Section, Table};

/// The record row of `read_iops_max`: the busiest value of 'Physical Read Total IO Requests Per
/// Sec' inside the snapshot (`DBA_HIST_SYSMETRIC_SUMMARY.MAXVAL`, the metric's 60-second
/// samples), requests/s, as a `per Second` of [`AwrReport::activity`].
pub const READ_IOPS_MAX: &str = "Physical Read Total IO Requests Per Sec (MAXVAL)";
/// The record row of `write_iops_max` ('Physical Write Total IO Requests Per Sec' MAXVAL).
pub const WRITE_IOPS_MAX: &str = "Physical Write Total IO Requests Per Sec (MAXVAL)";

/// The section holding the series.
const MAIN: &str = "MAIN-METRICS";
/// The table of `MAIN-METRICS` the records are built from.
const TABLE: &str = "MAIN-METRICS";

/// Detection: a collector section marker and the collector's own keys near the top.
pub fn looks_like(text: &str) -> bool {
    let head = crate::lines::head(text);
    head.lines().take(400).any(|l| {
        let t = l.trim_start();
        t.starts_with("~~BEGIN-OS-INFORMATION~") || t.starts_with("~~BEGIN-MAIN-METRICS~")
    })
}

/// The key/value lines of `OS-INFORMATION` (`rpad(name, 60) || ' ' || value`).
#[derive(Debug, Default)]
struct OsInfo {
    pairs: Vec<(String, String)>,
}

impl OsInfo {
    fn of(s: &Section<'_>) -> OsInfo {
        let mut pairs = Vec::new();
        for (_, l) in &s.lines {
            let t = l.trim();
            if t.is_empty() || t.starts_with("STAT_NAME") || t.starts_with("---") {
                continue;
            }
            let (k, v) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
            pairs.push((k.to_string(), v.trim().to_string()));
        }
        OsInfo { pairs }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    fn number(&self, key: &str) -> Option<f64> {
        self.get(key)
            .and_then(|v| num::point_or_comma(v).ok().flatten())
            .filter(|v| v.is_finite() && *v >= 0.0)
    }
}

/// One `MAIN-METRICS` cell as a value: `Ok(None)` when blank.
fn cell(
    t: &Table<'_>,
    cells: &[String],
    col: Option<usize>,
    line: usize,
) -> Result<Option<f64>, ParseError> {
    let Some(c) = col else { return Ok(None) };
    let raw = cells[c].as_str();
    let bad = |why: String| {
        ParseError::section(
            t.section.clone(),
            Some(line),
            format!("a number in column '{}'", t.names[c]),
            why,
        )
    };
    match num::point_or_comma(raw).map_err(bad)? {
        None => Ok(None),
        Some(v) => num::value(v, raw, Range::NonNegative)
            .map(Some)
            .map_err(bad),
    }
}

/// The metric cells refused as values (`NaN`, `-1`, `1e308`): each column's first, and how many.
#[derive(Default)]
struct Refused(std::cell::RefCell<Vec<(String, usize, String, usize)>>);

impl Refused {
    /// The warnings: `column 'read_iops', line 12: 'NaN' is not a finite number — treated as
    /// unknown (and 3 more cells of it)`.
    fn warnings(self) -> Vec<String> {
        self.0
            .into_inner()
            .into_iter()
            .map(|(col, line, why, more)| {
                let more = if more > 0 {
                    format!(" (and {more} more cells of it, the first is shown)")
                } else {
                    String::new()
                };
                format!(
                    "MAIN-METRICS column '{col}', line {line}: {why} — treated as unknown{more}"
                )
            })
            .collect()
    }
}

/// A metric cell of `MAIN-METRICS`: as [`cell`], but a number that is not a value (`NaN`,
/// `inf`, negative, out of range) is unknown, recorded in `refused`, rather than an error.
fn metric(
    t: &Table<'_>,
    cells: &[String],
    col: Option<usize>,
    line: usize,
    refused: &Refused,
) -> Result<Option<f64>, ParseError> {
    let Some(c) = col else { return Ok(None) };
    let raw = cells[c].as_str();
    let Some(v) = num::point_or_comma(raw).map_err(|why| {
        ParseError::section(
            t.section.clone(),
            Some(line),
            format!("a number in column '{}'", t.names[c]),
            why,
        )
    })?
    else {
        return Ok(None);
    };
    match num::value(v, raw, Range::NonNegative) {
        Ok(v) => Ok(Some(v)),
        Err(why) => {
            let mut r = refused.0.borrow_mut();
            match r.iter_mut().find(|e| e.0 == t.names[c]) {
                Some(e) => e.3 += 1,
                None => r.push((t.names[c].clone(), line, why, 0)),
            }
            Ok(None)
        }
    }
}

/// The columns read from `MAIN-METRICS`, by heading name.
struct Cols {
    snap: usize,
    dur: usize,
    end: usize,
    inst: usize,
    read_iops: usize,
    write_iops: usize,
    read_mb: Option<usize>,
    write_mb: Option<usize>,
    redo_mb: Option<usize>,
    read_max: Option<usize>,
    write_max: Option<usize>,
}

impl Cols {
    fn of(t: &Table<'_>) -> Result<Cols, ParseError> {
        Ok(Cols {
            snap: t.need("snap")?,
            dur: t.need("dur_m")?,
            end: t.need("end")?,
            inst: t.need("inst")?,
            read_iops: t.need("read_iops")?,
            write_iops: t.need("write_iops")?,
            read_mb: t.col("read_mb_s"),
            write_mb: t.col("write_mb_s"),
            redo_mb: t.col("redo_mb_s"),
            read_max: t.col("read_iops_max"),
            write_max: t.col("write_iops_max"),
        })
    }
}

/// `IOSTAT-BY-FUNCTION` LGWR write requests per snapshot (`SM_W_REQS + LG_W_REQS`, counts over
/// the snapshot, all instances), by snapshot id; empty when the section is absent or says
/// `table not in this version`.
fn lgwr_writes(secs: &[Section<'_>]) -> Result<Vec<(u64, f64)>, ParseError> {
    let Some(s) = secs.iter().find(|s| s.name == "IOSTAT-BY-FUNCTION") else {
        return Ok(Vec::new());
    };
    if !s
        .lines
        .iter()
        .any(|(_, l)| l.trim_start().starts_with("---"))
    {
        return Ok(Vec::new());
    }
    let t = Table::of(s)?;
    let (id, f, sm, lg) = (
        t.need("SNAP_ID")?,
        t.need("FUNCTION_NAME")?,
        t.need("SM_W_REQS")?,
        t.need("LG_W_REQS")?,
    );
    let mut out = Vec::new();
    for &(line, l) in &t.rows {
        let c = t.cells(l);
        if c[f] != "LGWR" {
            continue;
        }
        let snap = cell(&t, &c, Some(id), line)?;
        let (a, b) = (cell(&t, &c, Some(sm), line)?, cell(&t, &c, Some(lg), line)?);
        if let (Some(snap), Some(a), Some(b)) = (snap, a, b) {
            out.push((snap as u64, a + b));
        }
    }
    Ok(out)
}

/// `SIZE-ON-DISK` (`SNAP_ID SIZE_GB`, the last snapshot of each day): the last row's size, or
/// `None` when the section is absent or has no row.
fn size_on_disk(secs: &[Section<'_>]) -> Result<Option<crate::awr::SizeOnDisk>, ParseError> {
    let Some(s) = secs.iter().find(|s| s.name == "SIZE-ON-DISK") else {
        return Ok(None);
    };
    let t = Table::of(s)?;
    let (id, gb) = (t.need("SNAP_ID")?, t.need("SIZE_GB")?);
    let mut last = None;
    for &(line, l) in &t.rows {
        let c = t.cells(l);
        if let (Some(snap), Some(gib)) =
            (cell(&t, &c, Some(id), line)?, cell(&t, &c, Some(gb), line)?)
        {
            last = Some(crate::awr::SizeOnDisk {
                gib,
                snap_id: snap as u64,
            });
        }
    }
    Ok(last.filter(|s| s.gib > 0.0))
}

/// Parses a capture file into one report per snapshot × instance, handed to `sink` in file order.
///
/// # Errors
/// - [`ParseError::Truncated`] when the file stops inside a section (no END marker);
/// - [`ParseError::Section`] (section `MAIN-METRICS`) when it is missing, has no dashes line,
///   lacks a column it needs (`snap`, `dur_m`, `end`, `inst`, `read_iops`, `write_iops`), has no
///   row, or a cell of those columns is not a number or date; section `OS-INFORMATION` when it
///   has no `DB_NAME`;
/// - the sink's.
pub fn parse(text: &str, sink: &mut dyn Sink) -> Result<(), ParseError> {
    let secs = sections(text)?;
    let os = secs
        .iter()
        .find(|s| s.name == "OS-INFORMATION")
        .map(OsInfo::of)
        .unwrap_or_default();
    let Some(db_name) = os.get("DB_NAME").map(str::to_string) else {
        return Err(ParseError::section(
            "OS-INFORMATION",
            None,
            "a DB_NAME line (the database the capture is of)",
            "none",
        ));
    };
    let Some(main) = secs.iter().find(|s| s.name == MAIN) else {
        let names: Vec<&str> = secs.iter().map(|s| s.name.as_str()).collect();
        return Err(ParseError::section(
            MAIN,
            None,
            "a ~~BEGIN-MAIN-METRICS~~ section (one row per snapshot and instance)",
            format!("only the sections {}", names.join(", ")),
        ));
    };
    let t = Table::of(main)?;
    let cols = Cols::of(&t)?;
    if t.rows.is_empty() {
        return Err(ParseError::section(
            TABLE,
            main.lines.first().map(|l| l.0),
            "one row per snapshot and instance under the dashes line",
            "no row",
        ));
    }
    let version = os.get("AWR_MINER_VER").unwrap_or("unknown").to_string();
    let dbcsi = version.contains(".aws.");
    let tool = if dbcsi { "DBCSI" } else { "AWR Miner" };
    let instances = os.number("INSTANCES").map(|n| n as u32);
    let single = instances == Some(1);
    let db_id = os.number("DBID").map_or(0, |v| v as u64);
    let db = DbInfo {
        db_name: db_name.clone(),
        db_id,
        release: os.get("VERSION").unwrap_or("").to_string(),
        rac: instances.map(|n| n > 1),
        unique_name: os.get("DB_UNIQUE_NAME").map(str::to_string),
        role: os.get("DATABASE_ROLE").map(str::to_string),
        size_on_disk: size_on_disk(&secs)?,
        ..DbInfo::default()
    };
    let lgwr = lgwr_writes(&secs)?;
    let mut notes = vec![format!(
        "{tool} {version} capture: per-snapshot averages of DBA_HIST_SYSMETRIC_SUMMARY; no Buffer Hit %, wait events, IO Profile or multi-block split (those figures are unknown)"
    )];
    if db_id == 0 {
        notes.push(format!(
            "OS-INFORMATION has no DBID ({tool} {version} does not print it): DB Id unknown (0) unless the file name gives it"
        ));
    }
    if dbcsi {
        notes.push(
            "DBCSI wraps every metric in nvl(…, 0): an absent metric prints as 0, not blank".into(),
        );
    }
    if lgwr.is_empty() {
        notes.push("no IOSTAT-BY-FUNCTION section with LGWR requests: redo writes unknown".into());
    } else if !single {
        notes.push("IOSTAT-BY-FUNCTION sums the instances: its LGWR write requests cannot be given to one instance, so redo writes are unknown".into());
    }
    let refused = Refused::default();
    let mut reports = Vec::with_capacity(t.rows.len());
    for &(line, l) in &t.rows {
        let c = t.cells(l);
        let need = |col: usize, what: &str| -> Result<f64, ParseError> {
            cell(&t, &c, Some(col), line)?.ok_or_else(|| {
                ParseError::section(
                    TABLE,
                    Some(line),
                    format!("a value in column '{what}'"),
                    "a blank cell",
                )
            })
        };
        let snap = need(cols.snap, "snap")? as u64;
        let inst = need(cols.inst, "inst")? as u32;
        let dur_m = need(cols.dur, "dur_m")?;
        let end = NaiveDateTime::parse_from_str(&c[cols.end], "%y/%m/%d %H:%M").map_err(|_| {
            ParseError::section(
                TABLE,
                Some(line),
                "a time `YY/MM/DD HH24:MI` in column 'end'",
                format!("'{}'", c[cols.end]),
            )
        })?;
        let secs_f = dur_m * 60.0;
        let begin = end - Duration::milliseconds((secs_f * 1000.0).round() as i64);
        let mut activity = Vec::new();
        // `total: false`: a per-second value without a total over the snapshot.
        let mut stat = |name: &str, per_s: Option<f64>, total: bool| {
            if let Some(v) = per_s {
                activity.push(ActivityStat {
                    name: name.to_string(),
                    total: total.then_some(v * secs_f),
                    per_second: Some(v),
                    per_trans: None,
                    table: TABLE.to_string(),
                });
            }
        };
        let mib = |x: Option<f64>| x.map(|v| v * 1024.0 * 1024.0);
        let r_iops = metric(&t, &c, Some(cols.read_iops), line, &refused)?;
        let w_iops = metric(&t, &c, Some(cols.write_iops), line, &refused)?;
        let r_mb = metric(&t, &c, cols.read_mb, line, &refused)?;
        let w_mb = metric(&t, &c, cols.write_mb, line, &refused)?;
        // MiB/s printed `0` beside requests is below the printed 0.05 MiB/s, not no bytes: its
        // rate stays (≈ 0), its total is left out so that no IO size of 0 KiB is derived.
        let sized = |mb: Option<f64>, iops: Option<f64>| {
            !(mb == Some(0.0) && iops.is_some_and(|i| i > 0.0))
        };
        stat("physical read total IO requests", r_iops, true);
        stat("physical write total IO requests", w_iops, true);
        stat("physical read total bytes", mib(r_mb), sized(r_mb, r_iops));
        stat("physical write total bytes", mib(w_mb), sized(w_mb, w_iops));
        stat(
            "redo size",
            mib(metric(&t, &c, cols.redo_mb, line, &refused)?),
            true,
        );
        // A peak has no total over the snapshot.
        stat(
            READ_IOPS_MAX,
            metric(&t, &c, cols.read_max, line, &refused)?,
            false,
        );
        stat(
            WRITE_IOPS_MAX,
            metric(&t, &c, cols.write_max, line, &refused)?,
            false,
        );
        if single && secs_f > 0.0 {
            if let Some(&(_, n)) = lgwr.iter().find(|(s, _)| *s == snap) {
                stat("redo writes", Some(n / secs_f), true);
            }
        }
        let instance = InstanceInfo {
            name: format!("inst {inst}"),
            number: inst,
            platform: os.get("PLATFORM_NAME").map(str::to_string),
            host: os.get("HOSTS").filter(|_| single).map(str::to_string),
            cpus: os.number("NUM_CPUS").filter(|_| single).map(|v| v as u32),
            cores: os
                .number("NUM_CPU_CORES")
                .filter(|_| single)
                .map(|v| v as u32),
            sockets: os
                .number("NUM_CPU_SOCKETS")
                .filter(|_| single)
                .map(|v| v as u32),
            memory_gb: os.number("PHYSICAL_MEMORY_GB").filter(|_| single),
            ..InstanceInfo::default()
        };
        let report = AwrReport {
            kind: ReportKind::Instance,
            heading: format!("{tool} capture"),
            title: format!("{tool} {version} for DB: {db_name}, Inst: {inst}, Snap: {snap}"),
            db: db.clone(),
            instances: vec![instance],
            snapshots: Snapshots {
                begin_id: snap.saturating_sub(1),
                end_id: snap,
                begin_time: Some(begin),
                end_time: Some(end),
                elapsed_min: Some(dur_m),
                // The totals are derived from the rates: no rate is recomputed from them.
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
            warnings: Vec::new(),
            encoding: String::new(),
            source_format: AwrMiner.info_id().to_string(),
            rate_decimals: 1,
            host_cpu: Vec::new(),
        };
        reports.push(report);
    }
    // The file's notes once, on its first record.
    notes.extend(refused.warnings());
    if let Some(r) = reports.first_mut() {
        r.warnings = notes;
    }
    for r in reports {
        sink.interval_report(r)?;
    }
    Ok(())
}

/// The AWR Miner / DBCSI capture format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct AwrMiner;

impl AwrMiner {
    fn info_id(self) -> &'static str {
        use crate::parser::FormatParser;
        self.info().id
    }
}

impl crate::parser::FormatParser for AwrMiner {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::AwrMiner,
            id: "awr_miner",
            name: "AWR Miner capture",
            kind: crate::sink::RecordKind::Intervals,
            description: "Oracle AWR Miner (`awr_miner.sql` 2.9 – 5.0.x) or AWS DBCSI (`aws_awr_miner.sql`) capture `.out` (or a zip of them): MAIN-METRICS per snapshot and instance",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like(text)
    }

    fn detect_bytes(&self, bytes: &[u8]) -> bool {
        zipped::looks_like(bytes)
    }

    fn parse_bytes(
        &self,
        bytes: &[u8],
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn Sink,
    ) -> Result<(), ParseError> {
        if zipped::looks_like(bytes) {
            return zipped::parse_zip(bytes, sink);
        }
        let decoded = crate::input::decode(bytes)?;
        self.parse(&decoded.text, settings, sink)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn Sink,
    ) -> Result<(), ParseError> {
        let _ = settings;
        parse(text, sink)
    }
}
