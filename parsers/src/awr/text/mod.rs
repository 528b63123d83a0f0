//! AWR text reports (`awrrpt.sql` / `awrgrpt.sql` with report type `text`, and
//! `DBMS_WORKLOAD_REPOSITORY.AWR_REPORT_TEXT` spooled from SQL*Plus), releases 10.2 to 23ai.
//!
//! The text report prints the same figures as the HTML report in fixed-width columns; this parser
//! produces the same records ([`AwrReport`]) as [`super::html::parse`], so everything downstream
//! works unchanged. Sections are found by their title, never by position; columns by the header
//! words above each `----` run of the table's underline (see `text/layout.rs`), never by fixed
//! offsets.
//!
//! | section | title (verbatim) | rows read |
//! |---|---|---|
//! | report | `WORKLOAD REPOSITORY report for` (`… REPORT (RAC)`, `… PDB report …`) | — |
//! | database, instance | header tables: `DB Name  DB Id  Instance  Inst num  Startup Time  Release  RAC` (10.2–12.1; 10.2 ends with `Host`, no `Startup Time`; 12.1 adds `CDB`), 12.2+ `DB Name  DB Id  Unique Name  DB Role  Edition  Release  RAC  CDB` and a separate `Instance  Inst Num  Startup Time` table; PDB reports `Container DB Id  Container Name  Open Time` | first row of each |
//! | host | `Host Name  Platform  CPUs  Cores  Sockets  Memory(GB)` | first row |
//! | snapshots | `Begin Snap:`, `End Snap:` (id, date, time), `Elapsed:`, `DB Time:` (`60.25 (mins)`) | — |
//! | Load Profile | `Load Profile` (columns `Per Second`, `Per Transaction`, `Per Exec`, `Per Call`) | every `label:` row |
//! | IO Profile (11.2.0.4+) | `IO Profile` (`Read+Write/Second`, `Read/Second`, `Write/Second`) | every row |
//! | Instance Efficiency | `Instance Efficiency Percentages (Target 100%)` (`Buffer  Hit   %:` → `Buffer Hit %`) | every `label %: value` pair |
//! | Instance Activity Stats | 11.2.0.3 and older `Instance Activity Stats`; 11.2.0.4 `Key Instance Activity Stats` + `Other Instance Activity Stats`; 12.1+ `Key Instance Activity Stats` + `Instance Activity Stats` (every page); columns `Statistic`, `Total`, `per Second`, `per Trans` | every row; a statistic printed in two tables is kept once, from the first |
//! | IOStat | `IOStat by Function summary`, `IOStat by Filetype summary` (`Reads: Data`, `Reqs per sec`, `Data per sec`, `Writes: …`, `Waits: Count`, `Avg Tm(ms)` / `Avg Time`, `Small Read`, `Large Read`) | every row |
//! | waits | `Foreground Wait Events`, `Background Wait Events` (`Event`, `Waits`, `Total Wait Time (s)`, `Avg wait (ms)` (11g, bare ms) / `Avg wait` (12c+, `109.72us`, `3.90ms`, `60.00 s`)); 10.2/11.1 `Wait Events` (read as foreground, with a warning) and, only when none of these is printed, `Top 5 Timed Foreground Events` / `Top 5 Timed Events` / `Top 10 Foreground Events by Total Wait Time` (with a warning) | every row |
//! | wait histograms | every section titled `Wait Event Histogram…` (`Wait Event Histogram`, 11g `… Detail (64 msec to 2 sec)` …, 12.2+ `… (up to 64 us)`, `(up to 32 ms)` …), columns `Event`, `Total Waits` / `Waits`, `<1ms <2ms … <=1s >1s` or `<8us … <128u <256u <512u >=512` (headers cut to the column width; see `awr::histogram`) | every row, merged per event |
//!
//! RAC global reports (`WORKLOAD REPOSITORY REPORT (RAC)`) are read from `Database Summary`
//! (`Id`, `Name`, `RAC`, `Begin`, `End`, `DB time`, `Elapsed time`), `Database Instances Included
//! In Report` (`I#`, `Instance`, `Host`, `Startup`, `Begin Snap Time`, `End Snap Time`,
//! `Release`, `Platform`), `OS Statistics By Instance` (`I#`, `#CPUs`, `#Cores`, `#Sckts`, `MB`),
//! `System Statistics (Global)` (cluster-wide `Total`, `per Second`, `per Trans`), `IO Profile
//! (Global)`, `IOStat by Function` / `IOStat by File Type` (with `I#`; `*` = all instances) and
//! `Foreground Wait Events (Global)` / `Background Wait Events (Global)`.
//!
//! Tolerated quirks (each has a test): page breaks (form feeds on their own line or before a
//! title) with the section title and column header repeated on every page; a column header
//! repeated without its title; the `OUTPUT` heading and its underline that SQL*Plus repeats on
//! every page of an `AWR_REPORT_TEXT` spool, and blank lines between rows; SQL*Plus prompts before
//! the report and `N rows selected.` after it; CRLF line ends; numbers in E-notation
//! (`1.298993073E+11`), with thousands separators or `K/M/G` suffixes; a value wider than its
//! column; a statistic name wrapped onto the next line (the continuation is appended); names cut
//! to the column width (`physical read total multi block` → `physical read total multi block
//! requests`, `control file parallel writ` → `control file parallel write`, `Buffer Cache Re` →
//! `Buffer Cache Reads`: restored from Oracle's names when exactly one name fits, else kept as
//! printed). A cell that cannot be read (`######`) becomes unknown and adds a warning naming the
//! section and the line; it never becomes 0.
//!
//! The report is complete when it has its `End of Report` line; a file without it is
//! [`ParseError::Truncated`], naming the last section title before the cut.
//!
//! The text report prints some figures with fewer decimals than the HTML report (Instance
//! Activity Stats `per Second`/`per Trans` and IOStat `Reqs per sec` with 1 decimal instead of 2),
//! so figures computed from them carry that precision. It has no `<title>`: [`AwrReport::title`]
//! is composed as the HTML report's is (`AWR Report for DB: BPSC, Inst: bpsc, Snaps: 2668-2669`).
//!
//! Example (excerpt of a real 12.2 text report → record):
//! `physical read total IO requests             395,292          109.4           5.3` in
//! `Instance Activity Stats` → `ActivityStat { name: "physical read total IO requests", total:
//! Some(395292.0), per_second: Some(109.4), per_trans: Some(5.3), table: "Instance Activity
//! Stats" }`.
//!
//! # Module layout
//! Flow: [`parse`] cleans the lines (`layout`: page breaks, underlines, wrapped rows), reads the
//! head (`header`: database, instances, snapshots), then each section (Load Profile, IO Profile,
//! efficiency, activity, IOStat, wait events, histograms) from its heading, with the names of
//! `names` for the statistics that changed label across releases.

mod layout;
mod names;

use std::collections::HashMap;

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till, take_till1, take_until};
use nom::character::complete::{char, digit1, space0, space1};
use nom::Parser;

use super::*;
use crate::error::{Location, ParseError};
use crate::num::{self, Scale};

mod header;
use header::*;
pub(crate) use header::{begin_snap_line, get, header_from_records, snapshots};
pub(crate) use layout::{clean_lines, is_underline, norm, Ln, Section, Table};

/// Does this text look like an AWR text report? A `WORKLOAD REPOSITORY report for` (or `… REPORT
/// (RAC)`, `… PDB report`) heading line among the first 400 lines, with no HTML markup above it
/// (an HTML report has `<html>` before its heading; a text report may quote HTML in its SQL text,
/// but only below it).
pub fn looks_like(text: &str) -> bool {
    heading_before_markup(text, is_heading)
}

/// The first of the first 400 lines that is a heading (`is_heading`) comes before any line with
/// HTML markup (`<html`, `<table`, `<!doctype`).
pub(crate) fn heading_before_markup(text: &str, is_heading: fn(&str) -> bool) -> bool {
    for l in text.lines().take(400) {
        let t = l.trim();
        if is_heading(t) {
            return true;
        }
        let low = t.to_ascii_lowercase();
        if low.contains("<html") || low.contains("<table") || low.contains("<!doctype") {
            return false;
        }
    }
    false
}

fn is_heading(t: &str) -> bool {
    let u = t.to_ascii_uppercase();
    u == "WORKLOAD REPOSITORY REPORT FOR"
        || u == "WORKLOAD REPOSITORY REPORT (RAC)"
        || u.starts_with("WORKLOAD REPOSITORY PDB REPORT")
}

/// Parses an AWR text report from decoded text.
///
/// # Errors
/// - [`ParseError::UnknownFormat`] when there is no `WORKLOAD REPOSITORY` heading;
/// - [`ParseError::Truncated`] when the `End of Report` line is missing (names the last section);
/// - [`ParseError::Section`] when the database header, the snapshot lines or every Instance
///   Activity Stats table is missing.
pub fn parse(text: &str) -> Result<AwrReport, ParseError> {
    let lines = clean_lines(text);
    let Some(h) = lines.iter().position(|l| is_heading(l.s.trim())) else {
        return Err(ParseError::UnknownFormat {
            reason: "no 'WORKLOAD REPOSITORY report for' heading line: expected an Oracle AWR text report".into(),
        });
    };
    let d = Doc::new(lines, h);
    d.complete()?;
    let heading = d.lines[h].s.trim().to_string();
    let up = heading.to_ascii_uppercase();
    let kind = if up.contains("(RAC)") {
        ReportKind::RacGlobal
    } else if up.contains("PDB REPORT") {
        ReportKind::Pdb
    } else {
        ReportKind::Instance
    };
    let mut cx = Ctx::default();
    let (db, instances, snapshots) = match kind {
        ReportKind::RacGlobal => header_global(&d, &mut cx)?,
        _ => header_instance(&d)?,
    };
    let activity = activity(&d, &mut cx);
    if activity.is_empty() {
        return Err(no_activity());
    }
    let title = match kind {
        ReportKind::RacGlobal => format!(
            "AWR RAC Report for DB: {}, Snaps: {}-{}",
            db.db_name, snapshots.begin_id, snapshots.end_id
        ),
        _ => format!(
            "AWR Report for DB: {}, Inst: {}, Snaps: {}-{}",
            db.db_name,
            instances.first().map(|i| i.name.as_str()).unwrap_or(""),
            snapshots.begin_id,
            snapshots.end_id
        ),
    };
    Ok(AwrReport {
        kind,
        heading,
        title,
        db,
        instances,
        snapshots,
        load_profile: load_profile(&d, &mut cx),
        io_profile: io_profile(&d, &mut cx),
        efficiency: efficiency(&d, &mut cx),
        activity,
        iostat_function: iostat(&d, &mut cx, false),
        iostat_filetype: iostat(&d, &mut cx, true),
        wait_events: wait_events(&d, &mut cx),
        wait_histograms: wait_histograms(&d, &mut cx),
        warnings: cx.warnings,
        encoding: String::new(),
        source_format: String::new(),
        rate_decimals: cx.rate_decimals,
    })
}

/// The error for a report without any Instance Activity Stats table (same as the HTML parser's).
pub(crate) fn no_activity() -> ParseError {
    ParseError::section(
        "Instance Activity Stats",
        None,
        "a table of statistics with columns Statistic, Total, per Second, per Trans (Instance Activity Stats or System Statistics (Global))",
        "no such table",
    )
}

/// A cleaned report: its lines from the heading on, and its sections.
pub(crate) struct Doc {
    pub lines: Vec<Ln>,
    pub heading: usize,
    pub secs: Vec<Section>,
}

impl Doc {
    pub fn new(lines: Vec<Ln>, heading: usize) -> Doc {
        let secs = layout::sections(&lines, heading + 1);
        Doc {
            lines,
            heading,
            secs,
        }
    }

    /// Sections whose normalised title satisfies `pred`, in report order.
    pub fn find<'a>(
        &'a self,
        pred: impl Fn(&str) -> bool + 'a,
    ) -> impl Iterator<Item = &'a Section> + 'a {
        self.secs.iter().filter(move |s| pred(&norm(&s.title)))
    }

    /// Checks for the `End of Report` line.
    pub fn complete(&self) -> Result<(), ParseError> {
        let done = self.lines[self.heading..]
            .iter()
            .any(|l| l.s.trim_start().starts_with("End of Report"));
        if done {
            return Ok(());
        }
        let last = self.secs.last();
        Err(ParseError::Truncated {
            what: format!(
                "no 'End of Report' line: the file stops at line {} inside {}",
                // The last line with text: a final newline does not start another line.
                self.lines
                    .iter()
                    .rev()
                    .find(|l| !l.s.trim().is_empty())
                    .map_or(0, |l| l.no),
                if last.is_some() {
                    "its last section"
                } else {
                    "the report header"
                }
            ),
            at: Location {
                line: last.map(|s| self.lines[s.at].no),
                section: last.map(|s| s.title.clone()),
            },
        })
    }

    /// First row of every table between line indices `from` and `to`, merged (first wins).
    pub fn records(&self, from: usize, to: usize) -> HashMap<String, String> {
        let mut rec = HashMap::new();
        for i in from..to.min(self.lines.len()) {
            if is_underline(&self.lines[i].s) {
                let t = Table::at(&self.lines, i, from);
                for (k, v) in t.first_record(&self.lines, to) {
                    rec.entry(k).or_insert(v);
                }
            }
        }
        rec
    }
}

/// Warnings collected while reading.
#[derive(Default)]
pub(crate) struct Ctx {
    pub warnings: Vec<String>,
    /// Most decimals seen in an activity `per Second` cell.
    pub rate_decimals: u32,
}

impl Ctx {
    fn keep(
        &mut self,
        sec: &str,
        line: usize,
        what: &str,
        v: Result<Option<f64>, String>,
    ) -> Option<f64> {
        v.unwrap_or_else(|e| {
            self.warnings.push(format!(
                "section '{sec}' (line {line}), {what}: {e} — treated as unknown"
            ));
            None
        })
    }
    pub fn num(&mut self, sec: &str, line: usize, what: &str, s: &str) -> Option<f64> {
        self.keep(sec, line, what, num::number(s, Scale::Decimal))
    }
    pub fn dur(&mut self, sec: &str, line: usize, what: &str, s: &str) -> Option<f64> {
        self.keep(sec, line, what, num::duration_ms(s, 1.0))
    }
    /// An IOStat `Data per sec` / `MB/s` cell in bytes/s: a bare number is MiB, a suffixed one
    /// (`.801M`, `1.2G`) is scaled by its suffix in multiples of 1024.
    pub fn mib(&mut self, sec: &str, line: usize, what: &str, s: &str) -> Option<f64> {
        let suffixed = s.trim_end().ends_with(|c: char| c.is_ascii_alphabetic());
        self.keep(sec, line, what, num::number(s, Scale::Binary))
            .map(|x| if suffixed { x } else { x * 1_048_576.0 })
    }
}

/// `Load Profile`: every `label:` row (label without the colon).
pub(crate) fn load_profile(d: &Doc, cx: &mut Ctx) -> Vec<LoadProfileRow> {
    let Some(sec) = d.find(|t| t == "load profile").next() else {
        return Vec::new();
    };
    let Some(t) = Table::all_in(&d.lines, sec).into_iter().next() else {
        return Vec::new();
    };
    let ps = t.col(&["per second"]);
    let pt = t.col(&["per transaction"]);
    let pe = t.col(&["per exec"]);
    let pc = t.col(&["per call"]);
    let Some(first) = [ps, pt, pe, pc].into_iter().flatten().min() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in t.rows(&d.lines, sec.end) {
        let ln = &d.lines[r];
        let lab = t.label(&ln.s, first);
        if !lab.ends_with(':') {
            break;
        }
        let name = label(&lab);
        let cells = t.cells(&ln.s);
        let mut v = |i: Option<usize>| i.and_then(|i| cx.num(&sec.title, ln.no, &name, &cells[i]));
        out.push(LoadProfileRow {
            per_second: v(ps),
            per_transaction: v(pt),
            per_exec: v(pe),
            per_call: v(pc),
            name,
        });
    }
    out
}

/// A row label: blanks collapsed, trailing `:` removed.
pub(crate) fn label(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    s.trim_end_matches(':').trim().to_string()
}

/// `IO Profile` / `IO Profile (Global)`.
pub(crate) fn io_profile(d: &Doc, cx: &mut Ctx) -> Vec<IoProfileRow> {
    let Some(sec) = d
        .find(|t| t == "io profile" || t == "io profile (global)")
        .next()
    else {
        return Vec::new();
    };
    let Some(t) = Table::all_in(&d.lines, sec).into_iter().next() else {
        return Vec::new();
    };
    let rw = t.col(&["read+write/second", "read+write per second", "read+write/s"]);
    let rd = t.col(&["read/second", "read per second", "reads/s"]);
    let wr = t.col(&["write/second", "write per second", "writes/s"]);
    let Some(first) = [rw, rd, wr].into_iter().flatten().min() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in t.rows(&d.lines, sec.end) {
        let ln = &d.lines[r];
        let name = label(&t.label(&ln.s, first));
        if name.is_empty() {
            break;
        }
        let cells = t.cells(&ln.s);
        let cell = |i: Option<usize>| i.map(|i| cells[i].clone()).unwrap_or_default();
        out.push(IoProfileRow {
            read_write: cx.num(&sec.title, ln.no, &name, &cell(rw)),
            read_write_printed: cell(rw),
            read: cx.num(&sec.title, ln.no, &name, &cell(rd)),
            write: cx.num(&sec.title, ln.no, &name, &cell(wr)),
            name,
        });
    }
    out
}

/// `Buffer Nowait %:  100.00       Redo NoWait %:  100.00` → label/value pairs; `None` when the
/// line is not such a line (every label must contain `%`).
fn efficiency_pairs(s: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.trim().is_empty() {
        let r: nom::IResult<&str, (&str, char, &str, &str, &str)> = (
            take_till1(|c| c == ':'),
            char(':'),
            space0,
            take_till(|c| c == ' '),
            space0,
        )
            .parse(rest);
        let (rem, (lab, _, _, val, _)) = r.ok()?;
        let lab = label(lab);
        if !lab.contains('%') {
            return None;
        }
        out.push((lab, val.to_string()));
        rest = rem;
    }
    (!out.is_empty()).then_some(out)
}

/// `Instance Efficiency Percentages (Target 100%)` / Statspack `Instance Efficiency
/// Indicators`: labels with their runs of blanks collapsed (`Buffer  Hit   %:` → `Buffer Hit %`).
pub(crate) fn efficiency(d: &Doc, cx: &mut Ctx) -> Vec<(String, Option<f64>)> {
    let Some(sec) = d.find(|t| t.starts_with("instance efficiency")).next() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for l in &d.lines[sec.at + 1..sec.end] {
        let t = l.s.trim();
        if t.is_empty() || t.starts_with('~') {
            continue;
        }
        let Some(pairs) = efficiency_pairs(&l.s) else {
            break;
        };
        for (name, v) in pairs {
            let v = cx.num(&sec.title, l.no, &name, &v);
            out.push((name, v));
        }
    }
    out
}

fn is_activity_title(t: &str) -> bool {
    t.contains("instance activity stats")
        || t.starts_with("system statistics (global)")
        || t == "global activity statistics"
}

/// Every Instance Activity Stats row (all split tables and pages; `System Statistics (Global)`
/// in RAC reports). Names cut to the column width are restored from [`names::STATISTICS`];
/// a statistic already read from another table (the Key table) is kept once.
pub(crate) fn activity(d: &Doc, cx: &mut Ctx) -> Vec<ActivityStat> {
    let mut out: Vec<ActivityStat> = Vec::new();
    // Statistic → the table it was first read from.
    let mut seen: HashMap<String, String> = HashMap::new();
    for sec in d.find(is_activity_title) {
        for t in Table::all_in(&d.lines, sec) {
            let (Some(nc), Some(tot), Some(ps), Some(pt)) = (
                t.col(&["statistic"]),
                t.col(&["total"]),
                t.col(&["per second"]),
                t.col(&["per trans"]),
            ) else {
                continue;
            };
            // (row, line index, name fills its column, continued on a later line)
            let mut rows: Vec<(ActivityStat, usize, bool, bool)> = Vec::new();
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let c = t.cells(&ln.s);
                let name = c[nc].clone();
                if name.is_empty() {
                    continue;
                }
                if c[tot].is_empty() && c[ps].is_empty() && c[pt].is_empty() {
                    // A long name wrapped onto the next line: append it to the row above.
                    if let Some(last) = rows.last_mut().filter(|l| l.1 + 1 == r) {
                        last.0.name = join_wrapped(&last.0.name, last.2, &ln.s, &t, nc);
                        last.1 = r;
                        last.2 = t.fills(&ln.s, nc);
                        last.3 = true;
                    }
                    continue;
                }
                let s = ActivityStat {
                    total: cx.num(&sec.title, ln.no, &name, &c[tot]),
                    per_second: {
                        cx.rate_decimals = cx.rate_decimals.max(crate::num::decimals(&c[ps]));
                        cx.num(&sec.title, ln.no, &name, &c[ps])
                    },
                    per_trans: cx.num(&sec.title, ln.no, &name, &c[pt]),
                    table: sec.title.clone(),
                    name,
                };
                rows.push((s, r, t.fills(&ln.s, nc), false));
            }
            let width = t.width(nc);
            for (mut s, _, _, continued) in rows {
                if !continued {
                    if let Some(full) = names::restore(&s.name, width, names::STATISTICS) {
                        s.name = full.to_string();
                    }
                }
                match seen.get(&s.name) {
                    Some(table) if *table != s.table => continue,
                    Some(_) => {}
                    None => {
                        seen.insert(s.name.clone(), s.table.clone());
                    }
                }
                out.push(s);
            }
        }
    }
    out
}

/// Joins a statistic name wrapped by SQL*Plus: a known Oracle name wins (`physical write total
/// multi block` + `requests`); otherwise the parts are joined by a blank unless the first part
/// fills its column and the continuation starts at the column's first position (a word cut in
/// two by `WRAPPED`).
fn join_wrapped(first: &str, filled: bool, line: &str, t: &Table, col: usize) -> String {
    let cont = t.cells(line)[col].clone();
    let spaced = format!("{first} {cont}");
    let glued = format!("{first}{cont}");
    for c in [&spaced, &glued] {
        if names::STATISTICS.contains(&c.as_str()) {
            return c.clone();
        }
    }
    let starts_blank = line.chars().nth(t.cols[col].start).is_none_or(|c| c == ' ');
    if filled && !starts_blank {
        glued
    } else {
        spaced
    }
}

fn iostat_columns(t: &Table) -> Vec<IoCol> {
    let mut running = "";
    t.cols
        .iter()
        .map(|c| {
            let h = norm(&c.name);
            running = iostat_group(&h, running);
            // A group heading above the column (`---- Read ----`) wins over the running group.
            let g = norm(&c.group);
            let group = if g.starts_with("read") {
                "r"
            } else if g.starts_with("write") {
                "w"
            } else if g.is_empty() {
                running
            } else {
                ""
            };
            iostat_column(&h, group, &g)
        })
        .collect()
}

/// `IOStat by Function summary` / `IOStat by Filetype summary` (RAC: `IOStat by Function` /
/// `IOStat by File Type`; Statspack: `IO Stat by Function - summary`).
pub(crate) fn iostat(d: &Doc, cx: &mut Ctx, filetype: bool) -> Vec<IoStatRow> {
    let titles: &[&str] = if filetype {
        &["iostat by filetype summary", "iostat by file type"]
    } else {
        &[
            "iostat by function summary",
            "iostat by function",
            "io stat by function - summary",
        ]
    };
    let mut out = Vec::new();
    for sec in d.find(|t| titles.contains(&t)) {
        for t in Table::all_in(&d.lines, sec) {
            let cols = iostat_columns(&t);
            let Some(nc) = cols.iter().position(|c| *c == IoCol::Name) else {
                continue;
            };
            let width = t.width(nc);
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let mut row = IoStatRow::default();
                let name = cells[nc].clone();
                if name.is_empty() {
                    continue;
                }
                row.name = names::restore(&name, width, names::IOSTAT)
                    .map(str::to_string)
                    .unwrap_or(name);
                let sec_t = sec.title.as_str();
                for (i, c) in cols.iter().enumerate() {
                    let v = cells[i].as_str();
                    let what = format!("{} / column {}", row.name, i + 1);
                    match c {
                        IoCol::Instance => row.instance = Some(v.to_string()),
                        IoCol::Name | IoCol::Other => {}
                        IoCol::ReadReqs => row.read_reqs_per_s = cx.num(sec_t, ln.no, &what, v),
                        IoCol::WriteReqs => row.write_reqs_per_s = cx.num(sec_t, ln.no, &what, v),
                        IoCol::ReadMiBs => row.read_bytes_per_s = cx.mib(sec_t, ln.no, &what, v),
                        IoCol::WriteMiBs => row.write_bytes_per_s = cx.mib(sec_t, ln.no, &what, v),
                        IoCol::Waits => row.waits = cx.num(sec_t, ln.no, &what, v),
                        IoCol::AvgMs => row.avg_wait_ms = cx.dur(sec_t, ln.no, &what, v),
                        IoCol::SmallRead => row.small_read_ms = cx.dur(sec_t, ln.no, &what, v),
                        IoCol::LargeRead => row.large_read_ms = cx.dur(sec_t, ln.no, &what, v),
                    }
                }
                out.push(row);
            }
        }
    }
    out
}

/// The rows of the wait-event tables in the sections matching `pred`.
fn wait_table(
    d: &Doc,
    cx: &mut Ctx,
    scope: WaitScope,
    pred: impl Fn(&str) -> bool,
    top: bool,
) -> Vec<WaitEvent> {
    let mut out = Vec::new();
    for sec in d.find(pred) {
        for t in Table::all_in(&d.lines, sec) {
            let ev = if top { Some(0) } else { t.col(&["event"]) };
            let Some(ev) = ev else { continue };
            let class = t.col(&["wait class", "class"]);
            let waits = t.col(&["waits"]);
            let total = t.col(&[
                "total wait time (s)",
                "total wait time (sec)",
                "total(s)",
                "time (s)",
                "time(s)",
                "wait time (s)",
            ]);
            let avg = t.cols.iter().position(|c| {
                let n = norm(&c.name);
                n.starts_with("avg wait") || n.starts_with("wait avg") || n == "avg wait (ms)"
            });
            let avg = avg.or_else(|| {
                // Statspack / 11g Top 5: `Avg wait (ms)` over three header lines may end as
                // `Avg wait (ms)` or `wait (ms)`.
                t.cols.iter().position(|c| norm(&c.name).contains("(ms)"))
            });
            let width = t.width(ev);
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let cell = |i: Option<usize>| i.map(|i| cells[i].clone()).unwrap_or_default();
                let mut event = cells[ev].clone();
                if event.is_empty() {
                    continue;
                }
                if top && (event == "DB CPU" || event == "CPU time") {
                    continue;
                }
                if let Some(full) = names::restore(&event, width, names::EVENTS) {
                    event = full.to_string();
                }
                let printed = cell(avg);
                out.push(WaitEvent {
                    scope,
                    wait_class: Some(cell(class)).filter(|s| !s.is_empty()),
                    waits: cx.num(&sec.title, ln.no, &event, &cell(waits)),
                    total_wait_s: cx.num(&sec.title, ln.no, &event, &cell(total)),
                    avg_wait_ms: cx.dur(&sec.title, ln.no, &event, &printed),
                    avg_wait_printed: printed,
                    event,
                });
            }
        }
    }
    out
}

/// `Foreground Wait Events` and `Background Wait Events` (RAC: `… (Global)`); older reports:
/// `Wait Events`, then the Top 5 / Top 10 table, as foreground events (with a warning).
pub(crate) fn wait_events(d: &Doc, cx: &mut Ctx) -> Vec<WaitEvent> {
    let mut fg = wait_table(
        d,
        cx,
        WaitScope::Foreground,
        |t| t.starts_with("foreground wait events"),
        false,
    );
    if fg.is_empty() {
        fg = wait_table(d, cx, WaitScope::Foreground, |t| t == "wait events", false);
        if !fg.is_empty() {
            cx.warnings.push(
                "section 'Wait Events': no 'Foreground Wait Events' table (release before 11.2); its events, which include background waits, are read as foreground events".into(),
            );
        }
    }
    if fg.is_empty() {
        let is_top = |t: &str| {
            t.starts_with("top 5 timed")
                || t.starts_with("top 10 foreground events")
                || t.starts_with("top 10 timed")
        };
        fg = wait_table(d, cx, WaitScope::Foreground, is_top, true);
        if !fg.is_empty() {
            cx.warnings.push(
                "no 'Foreground Wait Events' table: the average waits of the Top 5 / Top 10 events table are used instead".into(),
            );
        }
    }
    let bg = wait_table(
        d,
        cx,
        WaitScope::Background,
        |t| t.starts_with("background wait events"),
        false,
    );
    fg.into_iter().chain(bg).collect()
}

/// Every `Wait Event Histogram…` section (all pages), merged per event (see
/// [`WaitHistogram`]). Headers cut to the column width get their unit back from the edges around
/// them; a table or row that cannot be read is left out with a warning naming the section.
pub(crate) fn wait_histograms(d: &Doc, cx: &mut Ctx) -> Vec<WaitHistogram> {
    let mut merge = super::histogram::Merge::default();
    for sec in d.find(|t| t.starts_with("wait event histogram")) {
        for t in Table::all_in(&d.lines, sec) {
            let Some(ev) = t.col(&["event"]) else {
                continue;
            };
            let headers: Vec<(&str, bool)> = t
                .cols
                .iter()
                .enumerate()
                .map(|(i, c)| (c.name.as_str(), c.name.chars().count() >= t.width(i)))
                .collect();
            let line = d.lines[t.at].no;
            let buckets = match super::histogram::buckets(&headers) {
                Ok(b) if b.iter().any(Option::is_some) => b,
                Ok(_) => continue,
                Err(e) => {
                    cx.warnings.push(format!(
                        "section '{}' (line {line}): {e} — table left out",
                        sec.title
                    ));
                    continue;
                }
            };
            let total = t.col(&["total waits", "waits"]);
            let width = t.width(ev);
            // The pages of one section are one table: a second row of one name on another page
            // is a second event cut to the same name (`Streams AQ: qmn coordinato`).
            let table = format!("'{}'", sec.title);
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let mut event = cells[ev].clone();
                if event.is_empty() {
                    continue;
                }
                if let Some(full) = names::restore(&event, width, names::EVENTS) {
                    event = full.to_string();
                }
                let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
                let added = super::histogram::row_points(&buckets, &refs).and_then(|points| {
                    let waits = total.and_then(|i| cx.num(&sec.title, ln.no, &event, &cells[i]));
                    merge.add(&table, &event, waits, points)
                });
                if let Err(e) = added {
                    cx.warnings.push(format!(
                        "section '{}' (line {}), event '{event}': {e} — row left out",
                        sec.title, ln.no
                    ));
                }
            }
        }
    }
    merge.finish(&mut cx.warnings)
}

/// The AWR text report format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct AwrText;

impl crate::parser::FormatParser for AwrText {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::AwrText,
            id: "awr_text",
            name: "AWR text report",
            kind: crate::sink::RecordKind::Intervals,
            description: "Oracle AWR report in text (`awrrpt.sql` report type `text`, or an `AWR_REPORT_TEXT` spool), 10g to 23ai, instance or RAC global",
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
        let _ = settings;
        let mut report = parse(text)?;
        report.source_format = self.info().id.to_string();
        sink.interval_report(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_and_minute_lines() {
        let (b, id, t) =
            snap_line("Begin Snap:      2668 04-Feb-23 19:00:39       104       3.7").unwrap();
        assert!(b);
        assert_eq!(id, 2668);
        assert_eq!(t.unwrap().to_string(), "2023-02-04 19:00:39");
        let (b, id, _) = snap_line("  End Snap:       6723 01-Feb-16 00:00:02      153").unwrap();
        assert_eq!((b, id), (false, 6723));
        assert_eq!(
            minutes_line("   Elapsed:               60.25 (mins)"),
            Some((true, 60.25))
        );
        assert_eq!(
            minutes_line("   DB time:      10.30 (mins)      DB CPU:      19.78 (mins)"),
            Some((false, 10.30))
        );
        assert_eq!(
            minutes_line("   Elapsed:   1,439.98 (mins) Av Act Sess:       0.0"),
            Some((true, 1439.98))
        );
        assert!(snap_line("Begin Snap: x").is_none());
    }

    #[test]
    fn efficiency_lines() {
        assert_eq!(
            efficiency_pairs("            Buffer  Hit   %:   98.68  Optimal W/A Exec %:  100.00"),
            Some(vec![
                ("Buffer Hit %".into(), "98.68".into()),
                ("Optimal W/A Exec %".into(), "100.00".into())
            ])
        );
        assert_eq!(
            efficiency_pairs("          Flash Cache Hit %:    0.00"),
            Some(vec![("Flash Cache Hit %".into(), "0.00".into())])
        );
        assert_eq!(
            efficiency_pairs("             Memory Usage %:   85.12   84.96"),
            None
        );
        assert_eq!(
            efficiency_pairs(" Shared Pool Statistics        Begin    End"),
            None
        );
    }
}
