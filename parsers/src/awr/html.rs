//! AWR HTML reports (`awrrpt.sql`, `awrgrpt.sql`, PDB reports), 10.2 to 19c.
//!
//! Sections are found by their table `summary` text or the heading before them, never by position.
//! 11.1 and 10.2 print no `summary` attributes: where no table has the summary a section is looked
//! up by, `legacy` finds it by its heading or its column names (its docs list each section):
//!
//! | section | instance report (`summary` / heading) | RAC global report |
//! |---|---|---|
//! | database | "database instance information" (one table up to 12.1, two from 12.2) | "Database Summary" |
//! | instances | same, plus "host information" | "Database Instances Included In Report", "OS Statistics By Instance" |
//! | snapshots | "snapshot information" (`Begin Snap:`, `End Snap:`, `Elapsed:`, `DB Time:`) | "Database Summary" (`Begin`, `End`, `DB time`, `Elapsed time` in minutes) |
//! | Load Profile | "load profile" | — |
//! | IO Profile (11.2.0.4+) | "IO profile" | "IO Profile (Global)" |
//! | Instance Efficiency | "instance efficiency percentages" | — (only Global Cache Efficiency) |
//! | Instance Activity Stats | 11.2.0.3 `Instance Activity Stats`; 11.2.0.4 `Key …` + `Other Instance Activity Stats`; 12.1+ `Key …` + `Instance Activity Stats` | `System Statistics (Global)` (cluster `per Second`) |
//! | IOStat | `IOStat by Function summary`, `IOStat by Filetype summary` | `IOStat by Function`, `IOStat by File Type` (`I#` column) |
//! | waits | `Foreground Wait Events`, `Background Wait Events`; 10.2 `Wait Events` (read as foreground, with a warning); with none of them and no summaries, the Top 5 table | `… (Global)` |
//! | host CPU | "system load statistics" (`Host CPU`), "operating systems statistics" (see `cpu`) | `OS Statistics By Instance` |
//! | wait histograms | every table under a heading starting `Wait Event Histogram` (11g `… Detail (64 msec to 2 sec)`, 12.2+ `… (up to 32 ms)` …) with an `Event` column and `<X` bucket columns (see `awr::histogram`) | `Wait Event Histogram (Global)` |
//!
//! Tolerated quirks (each has a test): upper-case tags, unquoted attributes and CRLF (browser
//! re-saves), SQL*Plus text before `<html>` and after `</html>` (spool files), windows-1252 bytes,
//! `&nbsp;` and blank cells (unknown), thousands separators, `K/M/G/T` suffixes, 12c duration
//! strings. A cell that cannot be read becomes unknown and adds a warning naming the section and
//! the row; it never becomes 0.
//!
//! Example (excerpt of a real 11.2.0.4 report → record):
//! `<tr><td>physical read total IO requests</td><td>4,111,567</td><td>1,140.38</td><td>44.80</td></tr>`
//! in `Other Instance Activity Stats` → `ActivityStat { name: "physical read total IO requests",
//! total: Some(4111567.0), per_second: Some(1140.38), per_trans: Some(44.8), .. }`.

mod cpu;
mod legacy;
mod skip;
mod text;

use std::collections::HashMap;

use super::*;
use super::{efficiency_range, iostat_column, iostat_group, IoCol};
use crate::error::{Location, ParseError};
use crate::html::{self, Document, Table};
use crate::num::{self, Scale};
use text::{label, norm};

/// Does this text look like an AWR HTML report? Cheap check on the first 256 KiB: markup (a
/// line that starts with `<html`, `<!doctype`, `<head`, `<title` or `<table`, after spaces or a
/// BOM: SQL\*Plus spool text may come first) and a `WORKLOAD REPOSITORY` heading or an `AWR`
/// title. A tag quoted inside prose (a Markdown note about AWR's `<TABLE>` tags) is not markup.
pub fn looks_like(text: &str) -> bool {
    let mut end = text.len().min(256 * 1024);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    // Compared without case, not on a lower-cased copy: detection runs on every input, twice
    // for a report read whole (`docs/performance.md`, "Fleet CPU").
    let head = &text[..end];
    markup(head)
        && (text::contains_ignore_case(head.as_bytes(), b"workload repository")
            || text::contains_ignore_case(head.as_bytes(), b"<title>awr "))
}

/// True when `head` has a line that starts with `<html`, `<!doctype`, `<head`, `<title` or
/// `<table`, in any case (after spaces or a BOM): HTML markup, not a tag quoted in prose.
pub(crate) fn markup(head: &str) -> bool {
    head.lines().any(|l| {
        let l = l
            .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .as_bytes();
        ["<html", "<!doctype", "<head", "<title", "<table"]
            .iter()
            .any(|t| l.len() >= t.len() && l[..t.len()].eq_ignore_ascii_case(t.as_bytes()))
    })
}

/// Column index by normalised header name; the first column of that name wins.
struct Cols(HashMap<String, usize>);

impl Cols {
    fn of(t: &Table) -> Cols {
        let mut m = HashMap::new();
        for (i, c) in t.columns().iter().enumerate() {
            m.entry(norm(c)).or_insert(i);
        }
        Cols(m)
    }
    fn get(&self, names: &[&str]) -> Option<usize> {
        names.iter().find_map(|n| self.0.get(*n).copied())
    }
}

fn cell<'a>(row: &[&'a str], i: Option<usize>) -> &'a str {
    i.and_then(|i| row.get(i).copied()).unwrap_or("")
}

struct Ctx {
    warnings: Vec<String>,
    /// Most decimals seen in an activity `per Second` cell.
    rate_decimals: u32,
}

impl Ctx {
    /// Keeps a cell's value, or records why it could not be read and gives `None` (unknown).
    fn keep(&mut self, t: &Table, what: &str, v: Result<Option<f64>, String>) -> Option<f64> {
        v.unwrap_or_else(|e| {
            self.warnings.push(format!(
                "section '{}' (line {}), {}: {} — treated as unknown",
                t.name(),
                t.line,
                what,
                e
            ));
            None
        })
    }
    fn num(&mut self, t: &Table, what: &str, s: &str, scale: Scale) -> Option<f64> {
        self.keep(t, what, num::number(s, scale))
    }
    fn dur(&mut self, t: &Table, what: &str, s: &str, bare_ms: f64) -> Option<f64> {
        self.keep(t, what, num::duration_ms(s, bare_ms))
    }
    /// An IOStat `Data per sec` / `MB/s` cell in bytes/s: a bare number is MiB, a suffixed one
    /// (`9.339M`, `.003M`) is scaled by its suffix in multiples of 1024.
    fn mib(&mut self, t: &Table, what: &str, s: &str) -> Option<f64> {
        let suffixed = s.trim_end().ends_with(|c: char| c.is_ascii_alphabetic());
        self.num(t, what, s, Scale::Binary)
            .map(|x| if suffixed { x } else { x * 1_048_576.0 })
    }
}

/// The parsed document with each table's summary and heading normalised once ([`norm`]): a
/// report has hundreds of tables and is searched for about 30 of them, and normalising every
/// table's text on every search cost 5 % of a batch (`docs/performance.md`).
struct Doc {
    doc: Document,
    /// `(norm(summary), norm(heading))` of `doc.tables[i]`.
    keys: Vec<(String, String)>,
}

impl Doc {
    fn new(doc: Document) -> Doc {
        let keys = doc
            .tables
            .iter()
            .map(|t| (norm(&t.summary), norm(&t.heading)))
            .collect();
        Doc { doc, keys }
    }
}

impl std::ops::Deref for Doc {
    type Target = Document;
    fn deref(&self) -> &Document {
        &self.doc
    }
}

/// The first table whose normalised summary and heading satisfy `pred(summary, heading)`.
fn find(doc: &Doc, pred: impl Fn(&str, &str) -> bool) -> Option<&Table> {
    doc.tables
        .iter()
        .zip(&doc.keys)
        .find(|(_, (s, h))| pred(s, h))
        .map(|(t, _)| t)
}

/// Every table whose normalised summary and heading satisfy `pred(summary, heading)`, in order.
fn find_all<'a>(
    doc: &'a Doc,
    pred: impl Fn(&str, &str) -> bool + 'a,
) -> impl Iterator<Item = &'a Table> + 'a {
    doc.tables
        .iter()
        .zip(&doc.keys)
        .filter(move |(_, (s, h))| pred(s, h))
        .map(|(t, _)| t)
}

/// Header row → value map of the first data row of a table (normalised column names).
fn first_record(t: &Table) -> HashMap<String, String> {
    let cols = t.columns();
    let mut m = HashMap::new();
    if let Some(row) = t.data().next() {
        for (i, c) in cols.iter().enumerate() {
            if let Some(v) = row.get(i) {
                m.entry(norm(c)).or_insert_with(|| v.to_string());
            }
        }
    }
    m
}

fn yes_no(s: Option<&String>) -> Option<bool> {
    match s.map(|s| s.trim().to_ascii_uppercase()).as_deref() {
        Some("YES") => Some(true),
        Some("NO") => Some(false),
        _ => None,
    }
}

fn opt_str(s: Option<&String>) -> Option<String> {
    s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

fn opt_u32(s: Option<&String>) -> Option<u32> {
    s.and_then(|s| num::number(s, Scale::Decimal).ok().flatten())
        .map(|v| v as u32)
}

/// Parses an AWR HTML report from decoded text.
///
/// # Errors
/// - [`ParseError::UnknownFormat`] when no `WORKLOAD REPOSITORY` heading or AWR table is found;
/// - [`ParseError::Truncated`] when `</html>` or the end of a table is missing (names the last section);
/// - [`ParseError::Section`] when the database header, the snapshot table or every Instance
///   Activity Stats table is missing.
pub fn parse(text: &str) -> Result<AwrReport, ParseError> {
    super::parse_in_its_locale(text, parse_c_locale)
}

/// [`parse`] of a report that prints its numbers in the C locale.
fn parse_c_locale(text: &str) -> Result<AwrReport, ParseError> {
    parse_doc(html::parse_skipping(text, &skip::never_read))
}

/// [`parse_c_locale`] of a document parsed with every table's rows, skipped or not
/// (`skip`'s tests compare the two).
#[cfg(test)]
fn parse_c_locale_every_table(text: &str) -> Result<AwrReport, ParseError> {
    parse_doc(html::parse(text))
}

/// The report in a parsed document.
fn parse_doc(doc: Document) -> Result<AwrReport, ParseError> {
    let doc = Doc::new(doc);
    let title_heading = doc
        .headings
        .iter()
        .find(|(h, _)| h.to_ascii_uppercase().contains("WORKLOAD REPOSITORY"))
        .map(|(h, _)| h.clone());
    let Some(title) = title_heading else {
        if doc.title.to_ascii_uppercase().starts_with("AWR") && !doc.saw_html_end {
            return Err(ParseError::Truncated {
                what: format!(
                    "the file stops before the report header (title '{}', no 'WORKLOAD REPOSITORY' heading, no </html>)",
                    doc.title
                ),
                at: Location {
                    line: doc.tables.last().map(|t| t.line),
                    section: None,
                },
            });
        }
        return Err(ParseError::UnknownFormat {
            reason: if doc.saw_html {
                format!(
                    "HTML without a 'WORKLOAD REPOSITORY' heading (title '{}', {} tables): expected an Oracle AWR report",
                    doc.title,
                    doc.tables.len()
                )
            } else {
                "no HTML markup and no 'WORKLOAD REPOSITORY' heading: expected an Oracle AWR report"
                    .into()
            },
        });
    };
    if let Some(t) = doc.tables.iter().rev().find(|t| !t.closed) {
        return Err(ParseError::Truncated {
            what: "the file ends inside a table (no </table>)".into(),
            at: Location {
                line: Some(t.line),
                section: Some(t.name().to_string()),
            },
        });
    }
    if !doc.saw_html_end {
        let last = doc.tables.last();
        return Err(ParseError::Truncated {
            what: "no closing </html>: the report stops after its last complete section".into(),
            at: Location {
                line: last.map(|t| t.line),
                section: last.map(|t| t.name().to_string()),
            },
        });
    }
    let up = title.to_ascii_uppercase();
    let kind = if up.contains("(RAC)") {
        ReportKind::RacGlobal
    } else if up.contains("PDB REPORT") {
        ReportKind::Pdb
    } else {
        ReportKind::Instance
    };
    let mut cx = Ctx {
        warnings: Vec::new(),
        rate_decimals: 0,
    };
    let (db, instances, snapshots) = match kind {
        ReportKind::RacGlobal => header_global(&doc, &mut cx)?,
        _ => header_instance(&doc, &mut cx)?,
    };
    let activity = activity(&doc, &mut cx);
    if activity.is_empty() {
        return Err(ParseError::section(
            "Instance Activity Stats",
            None,
            "a table of statistics with columns Statistic, Total, per Second, per Trans (Instance Activity Stats or System Statistics (Global))",
            "no such table",
        ));
    }
    Ok(AwrReport {
        kind,
        heading: title,
        title: doc.title.clone(),
        db,
        instances,
        snapshots,
        load_profile: load_profile(&doc, &mut cx),
        io_profile: io_profile(&doc, &mut cx),
        efficiency: efficiency(&doc, &mut cx),
        activity,
        iostat_function: iostat(&doc, &mut cx, false),
        iostat_filetype: iostat(&doc, &mut cx, true),
        wait_events: wait_events(&doc, &mut cx),
        wait_histograms: wait_histograms(&doc, &mut cx),
        host_cpu: cpu::host_cpu(&doc, &mut cx, kind),
        warnings: cx.warnings,
        encoding: String::new(),
        source_format: String::new(),
        rate_decimals: cx.rate_decimals,
    })
}

type Header = (DbInfo, Vec<InstanceInfo>, Snapshots);

fn missing(section: &str, expected: &str) -> ParseError {
    ParseError::section(section, None, expected, "no such table")
}

fn header_instance(doc: &Doc, cx: &mut Ctx) -> Result<Header, ParseError> {
    let mut rec: HashMap<String, String> = HashMap::new();
    let mut found = false;
    for t in find_all(doc, |s, _| s.contains("database instance information")) {
        found = true;
        for (k, v) in first_record(t) {
            rec.entry(k).or_insert(v);
        }
    }
    if !found {
        // 11.1 and 10.2 print no summaries: the header table is known by its columns.
        let t = legacy::header(doc).ok_or_else(|| {
            missing(
                "report header",
                "a table with summary 'This table displays database instance information', or (10.2, 11.1) with columns DB Name, DB Id, Instance …",
            )
        })?;
        rec = first_record(t);
    }
    let db_id = rec
        .get("db id")
        .and_then(|s| s.trim().parse::<u64>().ok())
        .ok_or_else(|| {
            ParseError::section(
                "database instance information",
                None,
                "a numeric DB Id",
                rec.get("db id")
                    .map(|s| format!("'{s}'"))
                    .unwrap_or_else(|| "no DB Id column".into()),
            )
        })?;
    let mut db = DbInfo {
        db_name: rec.get("db name").cloned().unwrap_or_default(),
        db_id,
        unique_name: opt_str(rec.get("unique name")),
        role: opt_str(rec.get("role")),
        edition: opt_str(rec.get("edition")),
        release: rec.get("release").cloned().unwrap_or_default(),
        rac: yes_no(rec.get("rac")),
        cdb: yes_no(rec.get("cdb")),
        containers: Vec::new(),
        size_on_disk: None,
    };
    if let Some(t) = find(doc, |s, _| s.contains("pdb instance information")) {
        let cols = Cols::of(t);
        let (id, name) = (
            cols.get(&["container db id"]),
            cols.get(&["container name"]),
        );
        for row in t.data() {
            if let Ok(v) = cell(&row, id).trim().parse::<u64>() {
                let n = cell(&row, name).to_string();
                if !db.containers.iter().any(|(i, _)| *i == v) {
                    db.containers.push((v, n));
                }
            }
        }
    }
    let host_table = find(doc, |s, _| s.contains("host information")).or_else(|| legacy::host(doc));
    let host = host_table.map(first_record).unwrap_or_default();
    // 10.2 prints no host table: the header's last column, `Host`, names it.
    let host_name = match host_table {
        Some(_) => host.get("host name"),
        None => rec.get("host"),
    };
    let mut inst = InstanceInfo {
        name: rec.get("instance").cloned().unwrap_or_default(),
        number: opt_u32(rec.get("inst num")).unwrap_or(1),
        startup: rec.get("startup time").and_then(|s| num::awr_datetime(s)),
        host: opt_str(host_name),
        platform: opt_str(host.get("platform")),
        cpus: opt_u32(host.get("cpus")),
        cores: opt_u32(host.get("cores")),
        sockets: opt_u32(host.get("sockets")),
        memory_gb: host
            .get("memory (gb)")
            .and_then(|s| num::number(s, Scale::Decimal).ok().flatten()),
    };
    if host_table.is_none() {
        (inst.cpus, inst.cores, inst.sockets, inst.memory_gb) = legacy::os_host(doc);
    }
    let t = find(doc, |s, _| s.contains("snapshot information"))
        .or_else(|| legacy::snapshots(doc))
        .ok_or_else(|| {
            missing(
                "snapshot information",
                "a table with summary 'This table displays snapshot information', or (10.2, 11.1) with columns Snap Id, Snap Time and a 'Begin Snap:' row",
            )
        })?;
    let cols = Cols::of(t);
    let (id_c, time_c) = (cols.get(&["snap id"]), cols.get(&["snap time"]));
    let mut snaps = Snapshots::default();
    for row in t.data() {
        let lab = norm(cell(&row, Some(0)));
        let id = cell(&row, id_c).trim().replace(',', "").parse::<u64>().ok();
        let time = cell(&row, time_c);
        match lab.trim_end_matches(':') {
            "begin snap" => {
                snaps.begin_id = id.unwrap_or(0);
                snaps.begin_time = num::awr_datetime(time);
            }
            "end snap" => {
                snaps.end_id = id.unwrap_or(0);
                snaps.end_time = num::awr_datetime(time);
            }
            "elapsed" => {
                snaps.elapsed_min = num::minutes(time);
                snaps.elapsed_decimals = Some(num::decimals(time));
            }
            "db time" => snaps.db_time_min = num::minutes(time),
            _ => {}
        }
    }
    if snaps.begin_id == 0 || snaps.end_id == 0 {
        return Err(ParseError::section(
            t.name(),
            Some(t.line),
            "rows 'Begin Snap:' and 'End Snap:' with numeric Snap Ids",
            "no such rows",
        ));
    }
    let _ = cx;
    Ok((db, vec![inst], snaps))
}

fn header_global(doc: &Doc, cx: &mut Ctx) -> Result<Header, ParseError> {
    let t = find(doc, |s, h| {
        s.starts_with("database summary") || h == "database summary"
    })
    .ok_or_else(|| {
        missing(
            "Database Summary",
            "the RAC report's 'Database Summary' table (Id, Name, RAC, Begin, End, Elapsed time)",
        )
    })?;
    let rec = first_record(t);
    let db_id = rec
        .get("id")
        .and_then(|s| s.trim().parse::<u64>().ok())
        .ok_or_else(|| {
            ParseError::section(t.name(), Some(t.line), "a numeric database Id", "none")
        })?;
    let mut instances = Vec::new();
    let mut release = String::new();
    let mut begin_time = None;
    let mut end_time = None;
    if let Some(ti) = find(doc, |s, _| {
        s.starts_with("database instances included in report")
    }) {
        let c = Cols::of(ti);
        for row in ti.data() {
            let Ok(number) = cell(&row, c.get(&["i#"])).trim().parse::<u32>() else {
                continue;
            };
            if release.is_empty() {
                release = cell(&row, c.get(&["release"])).to_string();
                begin_time = num::awr_datetime(cell(&row, c.get(&["begin snap time"])));
                end_time = num::awr_datetime(cell(&row, c.get(&["end snap time"])));
            }
            instances.push(InstanceInfo {
                name: cell(&row, c.get(&["instance"])).to_string(),
                number,
                startup: num::awr_datetime(cell(&row, c.get(&["startup"]))),
                host: Some(cell(&row, c.get(&["host"])).to_string()).filter(|s| !s.is_empty()),
                platform: Some(cell(&row, c.get(&["platform"])).to_string())
                    .filter(|s| !s.is_empty()),
                ..Default::default()
            });
        }
    }
    if let Some(to) = find(doc, |s, _| s.starts_with("os statistics by instance")) {
        let c = Cols::of(to);
        for row in to.data() {
            let Ok(number) = cell(&row, c.get(&["i#"])).trim().parse::<u32>() else {
                continue;
            };
            if let Some(inst) = instances.iter_mut().find(|i| i.number == number) {
                let n =
                    |cx: &mut Ctx, k: &str| cx.num(to, k, cell(&row, c.get(&[k])), Scale::Decimal);
                inst.cpus = n(cx, "#cpus").map(|v| v as u32);
                inst.cores = n(cx, "#cores").map(|v| v as u32);
                inst.sockets = n(cx, "#sckts").map(|v| v as u32);
                inst.memory_gb = n(cx, "mb").map(|mb| mb / 1024.0);
            }
        }
    }
    let db = DbInfo {
        db_name: rec.get("name").cloned().unwrap_or_default(),
        db_id,
        unique_name: opt_str(rec.get("unique name")),
        role: opt_str(rec.get("role")),
        edition: opt_str(rec.get("edition")),
        release,
        rac: yes_no(rec.get("rac")),
        cdb: yes_no(rec.get("cdb")),
        containers: Vec::new(),
        size_on_disk: None,
    };
    let id = |k: &str| {
        rec.get(k)
            .and_then(|s| s.trim().replace(',', "").parse::<u64>().ok())
            .unwrap_or(0)
    };
    let snaps = Snapshots {
        begin_id: id("begin"),
        end_id: id("end"),
        begin_time,
        end_time,
        elapsed_min: rec.get("elapsed time").and_then(|s| num::minutes(s)),
        elapsed_decimals: rec.get("elapsed time").map(|s| num::decimals(s)),
        db_time_min: rec.get("db time").and_then(|s| num::minutes(s)),
    };
    if snaps.begin_id == 0 || snaps.end_id == 0 {
        return Err(ParseError::section(
            t.name(),
            Some(t.line),
            "numeric Begin and End snapshot ids",
            "none",
        ));
    }
    Ok((db, instances, snaps))
}

fn load_profile(doc: &Doc, cx: &mut Ctx) -> Vec<LoadProfileRow> {
    let Some(t) =
        find(doc, |s, _| s.contains("load profile")).or_else(|| legacy::load_profile(doc))
    else {
        return Vec::new();
    };
    let c = Cols::of(t);
    let (ps, pt, pe, pc) = (
        c.get(&["per second"]),
        c.get(&["per transaction"]),
        c.get(&["per exec"]),
        c.get(&["per call"]),
    );
    t.data()
        .filter(|r| !r.is_empty() && !r[0].is_empty())
        .map(|r| {
            let name = label(r[0]);
            LoadProfileRow {
                per_second: cx.num(t, &name, cell(&r, ps), Scale::Decimal),
                per_transaction: cx.num(t, &name, cell(&r, pt), Scale::Decimal),
                per_exec: cx.num(t, &name, cell(&r, pe), Scale::Decimal),
                per_call: cx.num(t, &name, cell(&r, pc), Scale::Decimal),
                name,
            }
        })
        .collect()
}

fn io_profile(doc: &Doc, cx: &mut Ctx) -> Vec<IoProfileRow> {
    let Some(t) = find(doc, |s, h| {
        s.contains("io profile") || h.starts_with("io profile")
    }) else {
        return Vec::new();
    };
    let c = Cols::of(t);
    let rw = c.get(&["read+write per second", "read+write/s"]);
    let rd = c.get(&["read per second", "reads/s"]);
    let wr = c.get(&["write per second", "writes/s"]);
    t.data()
        .filter(|r| !r.is_empty() && !r[0].is_empty())
        .map(|r| {
            let name = label(r[0]);
            IoProfileRow {
                read_write: cx.num(t, &name, cell(&r, rw), Scale::Decimal),
                read_write_printed: cell(&r, rw).to_string(),
                read: cx.num(t, &name, cell(&r, rd), Scale::Decimal),
                write: cx.num(t, &name, cell(&r, wr), Scale::Decimal),
                name,
            }
        })
        .collect()
}

fn efficiency(doc: &Doc, cx: &mut Ctx) -> Vec<(String, Option<f64>)> {
    let Some(t) = find(doc, |s, _| s.contains("instance efficiency percentages"))
        .or_else(|| legacy::efficiency(doc))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in t.data() {
        for pair in row.chunks(2) {
            if let [l, v] = pair {
                let name = label(l);
                if !name.is_empty() {
                    let pct = efficiency_range(&name);
                    let v = cx.keep(t, &name, num::number_in(v, Scale::Decimal, pct));
                    out.push((name, v));
                }
            }
        }
    }
    out
}

fn activity(doc: &Doc, cx: &mut Ctx) -> Vec<ActivityStat> {
    let mut out: Vec<ActivityStat> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for t in find_all(doc, |s, h| {
        s.contains("activity statistics")
            || h.contains("instance activity stats")
            || h.starts_with("system statistics (global)")
            || s.starts_with("system statistics (global)")
    }) {
        let c = Cols::of(t);
        let (Some(name_c), Some(tot), Some(ps), Some(pt)) = (
            c.get(&["statistic"]),
            c.get(&["total"]),
            c.get(&["per second"]),
            c.get(&["per trans"]),
        ) else {
            continue;
        };
        let width = t.columns().len();
        for row in t.data() {
            let name = cell(&row, Some(name_c)).to_string();
            if name.is_empty() || !seen.insert(name.clone()) {
                continue;
            }
            if row.len() < width {
                // A row missing a cell would read its `per Trans` as `per Second` (cells are
                // taken by position): an error for the row, whose values are unknown.
                cx.warnings.push(format!(
                    "section '{}' (line {}), {name}: the row has {} cells, expected {width} \
                     (Statistic, Total, per Second, per Trans) — row left out, its values unknown",
                    t.name(),
                    t.line,
                    row.len()
                ));
                continue;
            }
            out.push(ActivityStat {
                total: cx.num(t, &name, cell(&row, Some(tot)), Scale::Decimal),
                per_second: {
                    let c = cell(&row, Some(ps));
                    cx.rate_decimals = cx.rate_decimals.max(num::decimals(c));
                    cx.num(t, &name, c, Scale::Decimal)
                },
                per_trans: cx.num(t, &name, cell(&row, Some(pt)), Scale::Decimal),
                table: t.name().to_string(),
                name,
            });
        }
    }
    out
}

fn iostat_columns(t: &Table) -> Vec<IoCol> {
    let mut group = "";
    t.columns()
        .iter()
        .map(|h| {
            let h = norm(h);
            group = iostat_group(&h, group);
            iostat_column(&h, group, "")
        })
        .collect()
}

fn iostat(doc: &Doc, cx: &mut Ctx, filetype: bool) -> Vec<IoStatRow> {
    let t = find(doc, |s, h| {
        if filetype {
            h == "iostat by filetype summary"
                || h == "iostat by file type"
                || s.contains("io statistics for different file types")
        } else {
            h == "iostat by function summary"
                || h == "iostat by function"
                || s.contains("io statistics for different functions")
        }
    });
    let Some(t) = t else { return Vec::new() };
    let cols = iostat_columns(t);
    let mut out = Vec::new();
    for row in t.data() {
        let mut r = IoStatRow::default();
        for (i, c) in cols.iter().enumerate() {
            let v = row.get(i).copied().unwrap_or("");
            let what = format!("{} / column {}", row.get(1).unwrap_or(&""), i + 1);
            match c {
                IoCol::Instance => r.instance = Some(v.to_string()),
                IoCol::Name => r.name = v.to_string(),
                IoCol::ReadReqs => r.read_reqs_per_s = cx.num(t, &what, v, Scale::Decimal),
                IoCol::WriteReqs => r.write_reqs_per_s = cx.num(t, &what, v, Scale::Decimal),
                IoCol::ReadMiBs => r.read_bytes_per_s = cx.mib(t, &what, v),
                IoCol::WriteMiBs => r.write_bytes_per_s = cx.mib(t, &what, v),
                IoCol::Waits => r.waits = cx.num(t, &what, v, Scale::Decimal),
                IoCol::AvgMs => r.avg_wait_ms = cx.dur(t, &what, v, 1.0),
                IoCol::SmallRead => r.small_read_ms = cx.dur(t, &what, v, 1.0),
                IoCol::LargeRead => r.large_read_ms = cx.dur(t, &what, v, 1.0),
                IoCol::Other => {}
            }
        }
        if !r.name.is_empty() {
            out.push(r);
        }
    }
    out
}

/// `Foreground Wait Events` and `Background Wait Events`; 10.2 prints `Wait Events`
/// (foreground and background together: read as foreground, with a warning), and, only when no
/// wait-event table is printed at all, the Report Summary's Top 5 table of a report without
/// summaries (10.2, 11.1) gives the foreground averages (with a warning), as in the text reports.
fn wait_events(doc: &Doc, cx: &mut Ctx) -> Vec<WaitEvent> {
    let (mut fg, mut bg) = (Vec::new(), Vec::new());
    let key = |k: &'static str| move |s: &str, h: &str| h.starts_with(k) || s.contains(k);
    if let Some(t) = find(doc, key("foreground wait events")) {
        wait_table(t, WaitScope::Foreground, cx, &mut fg);
    }
    if let Some(t) = find(doc, key("background wait events")) {
        wait_table(t, WaitScope::Background, cx, &mut bg);
    }
    let no_summaries = || doc.keys.iter().all(|(s, _)| s.is_empty());
    if fg.is_empty() {
        if let Some(t) = find(doc, |s, h| s.is_empty() && h == "wait events") {
            wait_table(t, WaitScope::Foreground, cx, &mut fg);
            if !fg.is_empty() {
                cx.warnings.push(format!(
                    "section 'Wait Events' (line {}): no 'Foreground Wait Events' table (release before 11.1); its events, which include background waits, are read as foreground events",
                    t.line
                ));
            }
        } else if let Some(t) = legacy::top_events(doc).filter(|_| no_summaries()) {
            wait_table(t, WaitScope::Foreground, cx, &mut fg);
            // The CPU row (`DB CPU`, 10.2 `CPU time`) is time, not a wait event.
            fg.retain(|e| e.event != "DB CPU" && e.event != "CPU time");
            if !fg.is_empty() {
                cx.warnings.push(format!(
                    "section 'Top 5 Timed Events' (line {}): no 'Foreground Wait Events' or 'Wait Events' table: the average waits of the Top 5 events are used instead",
                    t.line
                ));
            }
        }
    }
    fg.extend(bg);
    fg
}

/// The rows of one wait-event table (`Event`, `Waits`, total time, `Avg wait`), as `scope`.
fn wait_table(t: &Table, scope: WaitScope, cx: &mut Ctx, out: &mut Vec<WaitEvent>) {
    let c = Cols::of(t);
    let ev = c.get(&["event"]);
    let class = c.get(&["wait class", "class"]);
    let waits = c.get(&["waits"]);
    let total = c.get(&[
        "total wait time (s)",
        "total wait time (sec)",
        "total(s)",
        "time (s)",
        "time(s)",
    ]);
    let avg_c = t
        .columns()
        .iter()
        .position(|h| norm(h).starts_with("avg wait") || norm(h).starts_with("wait avg"));
    let bare_ms = 1.0;
    for row in t.data() {
        let event = cell(&row, ev).to_string();
        if event.is_empty() {
            continue;
        }
        let printed = cell(&row, avg_c).to_string();
        out.push(WaitEvent {
            scope,
            wait_class: Some(cell(&row, class).to_string()).filter(|s| !s.is_empty()),
            waits: cx.num(t, &event, cell(&row, waits), Scale::Decimal),
            total_wait_s: cx.num(t, &event, cell(&row, total), Scale::Decimal),
            total_wait_decimals: Some(num::decimals(cell(&row, total))),
            avg_wait_ms: cx.dur(t, &event, &printed, bare_ms),
            avg_wait_printed: printed,
            event,
        });
    }
}

/// Every `Wait Event Histogram…` table, merged per event (see [`WaitHistogram`]). A table whose
/// bucket headers cannot be read, or a row whose cells cannot, is left out with a warning.
fn wait_histograms(doc: &Doc, cx: &mut Ctx) -> Vec<WaitHistogram> {
    let mut merge = super::histogram::Merge::default();
    for t in find_all(doc, |_, h| h.starts_with("wait event histogram")) {
        let cols = t.columns();
        let c = Cols::of(t);
        let Some(ev) = c.get(&["event"]) else {
            continue;
        };
        let headers: Vec<(&str, bool)> = cols.iter().map(|h| (h.as_str(), false)).collect();
        let buckets = match super::histogram::buckets(&headers) {
            Ok(b) if b.iter().any(Option::is_some) => b,
            Ok(_) => continue,
            Err(e) => {
                cx.warnings.push(format!(
                    "section '{}' (line {}): {e} — table left out",
                    t.name(),
                    t.line
                ));
                continue;
            }
        };
        let total = c.get(&["total waits", "waits"]);
        let table = format!("'{}' (line {})", t.name(), t.line);
        for row in t.data() {
            let event = cell(&row, Some(ev));
            if event.is_empty() {
                continue;
            }
            let cells: Vec<&str> = (0..cols.len()).map(|i| cell(&row, Some(i))).collect();
            let added = super::histogram::row_points(&buckets, &cells).and_then(|points| {
                let waits = cx.num(t, event, cell(&row, total), Scale::Decimal);
                merge.add(&table, event, waits, points)
            });
            if let Err(e) = added {
                cx.warnings.push(format!(
                    "section {table}, event '{event}': {e} — row left out"
                ));
            }
        }
    }
    merge.finish(&mut cx.warnings)
}

/// The AWR HTML report format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct AwrHtml;

impl crate::parser::FormatParser for AwrHtml {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::AwrHtml,
            id: "awr_html",
            name: "AWR HTML report",
            kind: crate::sink::RecordKind::Intervals,
            description:
                "Oracle AWR report in HTML (`awrrpt.sql`, `awrgrpt.sql`), instance or RAC global",
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
