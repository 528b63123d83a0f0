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
//! | host CPU | `Host CPU`, `Operating System Statistics`, RAC `OS Statistics By Instance` (see `cpu`) | first row; `BUSY_TIME`, `IDLE_TIME`, `IOWAIT_TIME` |
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
//! head (`header`: database, instances, snapshots), then each section from its heading:
//! `statistics` reads Load Profile, IO Profile, Instance Efficiency and Instance Activity Stats,
//! `io_waits` reads IOStat, the wait events and the wait histograms, with the names of `names`
//! to restore names cut to their column width. This file holds the detection, the cleaned
//! document (`Doc`: lines and sections) and the warning context (`Ctx`) every reader shares;
//! Statspack reuses the readers.

mod cpu;
mod io_waits;
mod layout;
mod names;
mod statistics;

use std::collections::HashMap;

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till, take_till1, take_until};
use nom::character::complete::{char, digit1, space0, space1};
use nom::Parser;

use super::*;
use crate::error::{Location, ParseError};
use crate::num::{self, Scale};

mod header;
pub(crate) use cpu::host_cpu;
use header::*;
pub(crate) use header::{begin_snap_line, get, header_from_records, snapshots};
pub(crate) use io_waits::{iostat, wait_events, wait_histograms};
pub(crate) use layout::{clean_lines, is_underline, norm, Ln, Section, Table};
pub(crate) use statistics::{activity, efficiency, io_profile, load_profile};

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
    super::parse_in_its_locale(text, parse_c_locale)
}

/// [`parse`] of a report that prints its numbers in the C locale.
fn parse_c_locale(text: &str) -> Result<AwrReport, ParseError> {
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
        host_cpu: host_cpu(&d, &mut cx, kind),
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
    pub(crate) fn keep(
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
            description: "Oracle AWR report in text (`awrrpt.sql` report type `text`, or an `AWR_REPORT_TEXT` spool), instance or RAC global",
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
    use super::statistics::efficiency_pairs;
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
