//! The fleet generator's engine, shared by `examples/fleet_gen/main.rs` and the test that checks
//! its output groups as intended (`tests/it/fleet_gen.rs`, which includes this file by path).
//!
//! Flow: each template, an AWR HTML instance report (`awrrpt` layout: the "database instance
//! information", "host information" and "snapshot information" tables above "Report Summary"),
//! is split once into its header, which is rewritten per report, and its body, kept verbatim
//! (and, for gzip output, compressed once). A database takes the templates in turn
//! (database `d` uses template `d mod T`); a template whose `RAC` cell is `YES` gives a RAC
//! database of `rac_instances` instances, all from that template. Reports are written round by
//! round: in round `r` every database gets snapshot interval `first_snap + r` →
//! `first_snap + r + 1`, from `start + r` hours to `start + r + 1` hours (`Elapsed` 60.00 min),
//! one report per instance (so the instances of a RAC database share snapshot ids and times),
//! until at least the asked number of reports is written (a database's round is never split, so
//! the count may exceed it by `rac_instances - 1`).
//!
//! In the header, the `<title>` is replaced and cells are found by their table's column names (`DB Name`, `DB Id`,
//! `Unique Name`, `Instance`, `Inst num`, `RAC`, `Host Name`, `Snap Id`, `Snap Time`) and the row
//! label (`Begin Snap:`, `End Snap:`, `Elapsed:`), never by position. A gzip'd report is two
//! gzip members (the header's, then the shared body's), which `gunzip` and sizer read as one
//! stream.
use std::io::Write;
use std::path::Path;

use chrono::{Duration, NaiveDateTime};
use flate2::write::GzEncoder;
use flate2::Compression;

/// One template report, split for rewriting.
pub struct Template {
    /// Everything up to the end of the "snapshot information" table (ASCII/UTF-8 HTML).
    head: String,
    /// The rest of the report, verbatim bytes.
    body: Vec<u8>,
    /// `body` as one gzip member.
    body_gz: Vec<u8>,
    /// The template's `RAC` cell is `YES`.
    pub rac: bool,
}

/// What to generate.
pub struct Plan {
    /// Number of databases (M).
    pub databases: usize,
    /// Number of reports to write at least (N).
    pub reports: usize,
    /// Instances of each RAC database.
    pub rac_instances: u32,
    /// Write `.html.gz` (two gzip members) instead of `.html`.
    pub gzip: bool,
    /// Begin time of the first interval of every database.
    pub start: NaiveDateTime,
    /// Begin snapshot id of the first interval of every database.
    pub first_snap: u64,
}

/// What was written.
#[derive(Debug, PartialEq, Eq)]
pub struct Summary {
    /// Reports written.
    pub reports: usize,
    /// Bytes written.
    pub bytes: u64,
    /// Per database (index `d`): (DB Id, DB Name, instances, intervals written).
    pub databases: Vec<(u64, String, u32, usize)>,
}

/// DB Id of database `d`: 2,100,000,000 + d (10 digits like Oracle's, distinct from the corpus
/// and fixture DB Ids, which are all other numbers).
pub fn db_id(d: usize) -> u64 {
    2_100_000_000 + d as u64
}

/// DB Name of database `d`: `FL` and six digits (Oracle's limit is 8 characters).
pub fn db_name(d: usize) -> String {
    format!("FL{d:06}")
}

impl Template {
    /// Reads and splits a template.
    ///
    /// # Errors
    /// A message naming the file when it cannot be read, its header is not UTF-8, or it lacks
    /// the "snapshot information" table or the `RAC` column.
    pub fn load(path: &Path) -> Result<Template, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let marker = b"summary=\"This table displays snapshot information\"";
        let at = find(&bytes, marker, 0).ok_or_else(|| {
            format!(
                "{}: no 'snapshot information' table (expected an awrrpt HTML instance report)",
                path.display()
            )
        })?;
        let end = find(&bytes, b"</table>", at)
            .map(|i| i + b"</table>".len())
            .ok_or_else(|| format!("{}: the snapshot table does not end", path.display()))?;
        let head = std::str::from_utf8(&bytes[..end])
            .map_err(|e| format!("{}: header is not UTF-8: {e}", path.display()))?
            .to_string();
        let mut rac = None;
        rewrite_rows(&head, |_label, col, old| {
            if col == "rac" {
                rac = Some(old.trim().eq_ignore_ascii_case("yes"));
            }
            None
        });
        let rac =
            rac.ok_or_else(|| format!("{}: no 'RAC' column in the header", path.display()))?;
        let body = bytes[end..].to_vec();
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&body).map_err(|e| e.to_string())?;
        let body_gz = gz.finish().map_err(|e| e.to_string())?;
        Ok(Template {
            head,
            body,
            body_gz,
            rac,
        })
    }

    /// The header of database `d`, instance `inst` (1-based), interval `r` of `plan`.
    fn header(&self, plan: &Plan, d: usize, inst: u32, r: usize) -> String {
        let name = db_name(d);
        let instance = if self.rac {
            format!("{}_{inst}", name.to_lowercase())
        } else {
            name.to_lowercase()
        };
        let begin = plan.start + Duration::hours(r as i64);
        let end = begin + Duration::hours(1);
        let snap = plan.first_snap + r as u64;
        let time = |t: NaiveDateTime| t.format("%d-%b-%y %H:%M:%S").to_string();
        let head = rewrite_rows(&self.head, |label, col, _old| {
            let v = match (label, col) {
                ("begin snap:", "snap id") => snap.to_string(),
                ("begin snap:", "snap time") => time(begin),
                ("end snap:", "snap id") => (snap + 1).to_string(),
                ("end snap:", "snap time") => time(end),
                ("elapsed:", "snap time") => "60.00 (mins)".to_string(),
                (_, "db name") => name.clone(),
                (_, "db id") => db_id(d).to_string(),
                (_, "unique name") => name.to_lowercase(),
                (_, "instance") => instance.clone(),
                (_, "inst num") => inst.to_string(),
                (_, "host name") => format!("fleet-{d:06}-{inst}.example.com"),
                _ => return None,
            };
            Some(v)
        });
        // The title names the report in sizer's source lines: the template's would be wrong.
        let title = format!(
            "<title>AWR Report for DB: {name}, Inst: {instance}, Snaps: {snap}-{}</title>",
            snap + 1
        );
        match (head.find("<title>"), head.find("</title>")) {
            (Some(a), Some(b)) if a < b => {
                format!("{}{title}{}", &head[..a], &head[b + "</title>".len()..])
            }
            _ => head,
        }
    }
}

/// Writes the reports of `plan` under `out` (one folder per database), from `templates`.
///
/// # Errors
/// An I/O error of `out`, or no template.
pub fn generate(templates: &[Template], plan: &Plan, out: &Path) -> std::io::Result<Summary> {
    if templates.is_empty() || plan.databases == 0 {
        return Err(std::io::Error::other("no template or no database"));
    }
    let inst_of = |d: usize| {
        if templates[d % templates.len()].rac {
            plan.rac_instances.max(1)
        } else {
            1
        }
    };
    let mut s = Summary {
        reports: 0,
        bytes: 0,
        databases: (0..plan.databases)
            .map(|d| (db_id(d), db_name(d), inst_of(d), 0))
            .collect(),
    };
    for d in 0..plan.databases {
        std::fs::create_dir_all(out.join(db_name(d)))?;
    }
    let mut r = 0;
    while s.reports < plan.reports {
        for d in 0..plan.databases {
            if s.reports >= plan.reports {
                break;
            }
            let t = &templates[d % templates.len()];
            for inst in 1..=inst_of(d) {
                let head = t.header(plan, d, inst, r);
                let snap = plan.first_snap + r as u64;
                let file = format!("{}_{inst}_{snap}_{}.html", db_name(d), snap + 1);
                let mut bytes = Vec::with_capacity(head.len() + t.body_gz.len() + 64);
                if plan.gzip {
                    let mut gz = GzEncoder::new(&mut bytes, Compression::fast());
                    gz.write_all(head.as_bytes())?;
                    gz.finish()?;
                    bytes.extend_from_slice(&t.body_gz);
                } else {
                    bytes.extend_from_slice(head.as_bytes());
                    bytes.extend_from_slice(&t.body);
                }
                let path = out.join(db_name(d)).join(if plan.gzip {
                    format!("{file}.gz")
                } else {
                    file
                });
                std::fs::write(path, &bytes)?;
                s.reports += 1;
                s.bytes += bytes.len() as u64;
            }
            s.databases[d].3 += 1;
        }
        r += 1;
    }
    Ok(s)
}

/// The first index of `needle` in `hay` at or after `from`.
fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// `html` with each `<td>` cell's content replaced by `f(row label, column name, content)` when
/// that returns `Some`. Column names come from the table's last `<th>` row and the row label is
/// the row's first cell, both trimmed and lower-cased.
fn rewrite_rows(html: &str, mut f: impl FnMut(&str, &str, &str) -> Option<String>) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    let mut cols: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("<tr") {
        out.push_str(&rest[..i]);
        let Some(j) = rest[i..].find("</tr>").map(|j| i + j + "</tr>".len()) else {
            break;
        };
        let row = &rest[i..j];
        if row.contains("<th") {
            cols = cells(row, "th")
                .into_iter()
                .map(|(a, b)| text(&row[a..b]))
                .collect();
            out.push_str(row);
        } else {
            let cs = cells(row, "td");
            let label = cs
                .first()
                .map(|&(a, b)| text(&row[a..b]))
                .unwrap_or_default();
            let mut at = 0;
            for (k, &(a, b)) in cs.iter().enumerate() {
                let col = cols.get(k).map(String::as_str).unwrap_or("");
                if let Some(v) = f(&label, col, &row[a..b]) {
                    out.push_str(&row[at..a]);
                    out.push_str(&v);
                    at = b;
                }
            }
            out.push_str(&row[at..]);
        }
        rest = &rest[j..];
    }
    out.push_str(rest);
    out
}

/// Content ranges of the `<tag …>…</tag>` cells of `row`.
fn cells(row: &str, tag: &str) -> Vec<(usize, usize)> {
    let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
    let mut v = Vec::new();
    let mut at = 0;
    while let Some(i) = row[at..].find(&open).map(|i| at + i) {
        let Some(a) = row[i..].find('>').map(|k| i + k + 1) else {
            break;
        };
        let Some(b) = row[a..].find(&close).map(|k| a + k) else {
            break;
        };
        v.push((a, b));
        at = b + close.len();
    }
    v
}

/// A cell's text: tags dropped, trimmed, lower-cased.
fn text(cell: &str) -> String {
    let mut s = String::new();
    let mut in_tag = false;
    for c in cell.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => s.push(c),
            _ => {}
        }
    }
    s.trim().to_lowercase()
}
