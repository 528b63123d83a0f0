//! Statspack reports (`spreport.sql`), releases 10g to 19c.
//!
//! Statspack is the AWR of databases without the Diagnostics Pack: the same statistics
//! (`V$SYSSTAT`, `V$SYSTEM_EVENT`, `V$IOSTAT_FUNCTION`), printed as a text report in pages of
//! about 60 lines, each page of a long section starting again with its title and column
//! header. This parser gives the same records ([`AwrReport`], kind [`ReportKind::Instance`]) as
//! the AWR parsers, using the fixed-width machinery of [`super::text`].
//!
//! | section | title / labels (verbatim) | rows read |
//! |---|---|---|
//! | report | `STATSPACK report for` | — |
//! | database, instance | `Database    DB Id    Instance     Inst Num  Startup Time   Release     RAC` (the `Database` column is left blank; the name comes from the page titles, `DB/Inst: IGT/igt`) | first row |
//! | host | 11g+ `Host Name  Platform  CPUs Cores Sockets  Memory (G)`; 10g `Host  Name:  …  Num CPUs:  …  Phys Memory (MB):  …` | first row / the line |
//! | snapshots | `Begin Snap:`, `End Snap:` (id, date, time), `Elapsed:  1,439.98 (mins) Av Act Sess: …`, `DB time:  10.30 (mins)  DB CPU: …` | — |
//! | Load Profile | `Load Profile` (`Per Second`, `Per Transaction`, `Per Exec`, `Per Call`; labels `Redo size:`, `Physical reads:` …) | every `label:` row |
//! | Instance Efficiency | `Instance Efficiency Indicators` (10g: `Instance Efficiency Percentages (Target 100%)`), row `Buffer  Hit   %:` with Oracle's irregular blanks → `Buffer Hit %` | every `label %: value` pair |
//! | Instance Activity Stats | `Instance Activity Stats  DB/Inst: …` on every page (`Statistic`, `Total`, `per Second`, `per Trans`); the pages with other columns (`Begin Value End Value`, `per Hour`) are not statistics rates and are left out | every row |
//! | IOStat | `IO Stat by Function - summary` (group header `---- Read ---- ---- Write ---- -- Wait --`, columns `Data Volume`, `Requests /sec`, `Data Vol/sec`, `Count`, `Avg Tm(ms)`) | every row |
//! | waits | `Foreground Wait Events`, `Background Wait Events` (`Avg wait (ms)`, bare ms); 10g `Wait Events` (foreground and background together: read as foreground, with a warning); only when none of these is printed, `Top 5 Timed Events` | every row |
//! | wait histograms | `Wait Event Histogram` on every page (`Event`, `Waits` under a `Total` group, `<1ms <2ms <4ms <8ms <16ms <32ms <=1s >1s`) | every row |
//!
//! Tolerated quirks: CRLF line ends, page titles and column headers repeated inside a section,
//! a page title right after the last row of the previous page (no blank line), names cut to the
//! column width (`physical read total multi block r` → `physical read total multi block
//! requests`, `Buffer Cache Re` → `Buffer Cache Reads`), `######` for a value too wide for its
//! column (unknown, with a warning), `K/M/G` suffixes. A report without its `End of Report` line
//! is [`ParseError::Truncated`], naming the last section title before the cut.
//!
//! Statspack prints `per Second` and `per Trans` with 1 decimal, so sub-0.05 rates read as 0.0.
//! [`AwrReport::title`] is composed: `Statspack report for DB: IGT, Inst: igt, Snaps: 6693-6723`.
//!
//! Example (excerpt of a real 11.2.0.4 Statspack report → record):
//! `physical read total IO requests              641,372            7.4         13.0` on an
//! `Instance Activity Stats  DB/Inst: IGT/igt  Snaps: 6693-6723` page → `ActivityStat { name:
//! "physical read total IO requests", total: Some(641372.0), per_second: Some(7.4), per_trans:
//! Some(13.0), table: "Instance Activity Stats" }`.

use nom::bytes::complete::{take_till1, take_until};
use nom::character::complete::space0;
use nom::Parser;

use super::text::{self, clean_lines, Ctx, Doc};
use super::*;
use crate::error::ParseError;
use crate::num::{self, Scale};

fn is_heading(t: &str) -> bool {
    t.to_ascii_uppercase().starts_with("STATSPACK REPORT FOR")
}

/// Does this text look like a Statspack report? A `STATSPACK report for` line among the first
/// 400 lines, with no HTML markup above it.
pub fn looks_like(text: &str) -> bool {
    text::heading_before_markup(text, is_heading)
}

/// The value after `key` on a line (`Num CPUs:    2  …` → `2`).
fn after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let r: nom::IResult<&str, (&str, &str, &str)> =
        (take_until(key), nom::bytes::complete::tag(key), space0).parse(s);
    let (rest, _) = r.ok()?;
    let v: nom::IResult<&str, &str> = take_till1(|c| c == ' ').parse(rest);
    v.ok().map(|(_, v)| v)
}

/// `DB/Inst: IGT/igt` of the first page title → (database, instance).
fn db_inst(d: &Doc) -> Option<(String, String)> {
    d.lines[d.heading..]
        .iter()
        .find_map(|l| after(&l.s, "DB/Inst:"))
        .and_then(|v| v.split_once('/'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
}

/// Parses a Statspack report from decoded text.
///
/// # Errors
/// - [`ParseError::UnknownFormat`] when there is no `STATSPACK report for` line;
/// - [`ParseError::Truncated`] when the `End of Report` line is missing (names the last section);
/// - [`ParseError::Section`] when the database header, the snapshot lines or the Instance Activity
///   Stats are missing.
pub fn parse(text: &str) -> Result<AwrReport, ParseError> {
    super::parse_in_its_locale(text, parse_c_locale)
}

/// [`parse`] of a report that prints its numbers in the C locale.
fn parse_c_locale(text: &str) -> Result<AwrReport, ParseError> {
    let lines = clean_lines(text);
    let Some(h) = lines.iter().position(|l| is_heading(l.s.trim())) else {
        return Err(ParseError::UnknownFormat {
            reason: "no 'STATSPACK report for' line: expected an Oracle Statspack report".into(),
        });
    };
    let d = Doc::new(lines, h);
    d.complete()?;
    let (mut db, mut inst, rec) =
        text::header_from_records(&d, "Database, DB Id, Instance, Inst Num …")?;
    if let Some((name, i)) = db_inst(&d) {
        if db.db_name.is_empty() {
            db.db_name = text::get(&rec, &["database"]).unwrap_or(name);
        }
        if inst.name.is_empty() {
            inst.name = i;
        }
    }
    // 10g: `Host  Name:   myhost     Num CPUs:    2        Phys Memory (MB):    3,548`.
    if inst.host.is_none() {
        let end = text::begin_snap_line(&d).unwrap_or(d.lines.len());
        if let Some(l) = d.lines[d.heading..end]
            .iter()
            .find(|l| l.s.starts_with("Host") && l.s.contains("Name:"))
        {
            inst.host = after(&l.s, "Name:").map(str::to_string);
            inst.cpus = after(&l.s, "Num CPUs:")
                .and_then(|v| num::number(v, Scale::Decimal).ok().flatten())
                .map(|v| v as u32);
            inst.memory_gb = after(&l.s, "Phys Memory (MB):")
                .and_then(|v| num::number(v, Scale::Decimal).ok().flatten())
                .map(|mb| mb / 1024.0);
        }
    }
    let snapshots = text::snapshots(&d)?;
    let mut cx = Ctx::default();
    let activity = text::activity(&d, &mut cx);
    if activity.is_empty() {
        return Err(text::no_activity());
    }
    Ok(AwrReport {
        kind: ReportKind::Instance,
        heading: d.lines[h].s.trim().to_string(),
        title: format!(
            "Statspack report for DB: {}, Inst: {}, Snaps: {}-{}",
            db.db_name, inst.name, snapshots.begin_id, snapshots.end_id
        ),
        db,
        instances: vec![inst],
        snapshots,
        load_profile: text::load_profile(&d, &mut cx),
        io_profile: text::io_profile(&d, &mut cx),
        efficiency: text::efficiency(&d, &mut cx),
        activity,
        iostat_function: text::iostat(&d, &mut cx, false),
        iostat_filetype: text::iostat(&d, &mut cx, true),
        wait_events: text::wait_events(&d, &mut cx),
        wait_histograms: text::wait_histograms(&d, &mut cx),
        host_cpu: text::host_cpu(&d, &mut cx, ReportKind::Instance),
        warnings: cx.warnings,
        encoding: String::new(),
        source_format: String::new(),
        rate_decimals: cx.rate_decimals,
    })
}

/// The Statspack report format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Statspack;

impl crate::parser::FormatParser for Statspack {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::Statspack,
            id: "statspack",
            name: "Statspack report",
            kind: crate::sink::RecordKind::Intervals,
            description: "Oracle Statspack report (`spreport.sql`)",
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
    fn values_after_labels() {
        let l = "Host  Name:   myhost         Num CPUs:    2        Phys Memory (MB):    3,548";
        assert_eq!(after(l, "Name:"), Some("myhost"));
        assert_eq!(after(l, "Num CPUs:"), Some("2"));
        assert_eq!(after(l, "Phys Memory (MB):"), Some("3,548"));
        assert_eq!(after(l, "Sockets:"), None);
    }
}
