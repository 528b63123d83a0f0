//! The SQL*Plus grammar AWR Miner and DBCSI share: sections between markers, and fixed-width
//! tables cut by the dashes line under each heading.
//!
//! # Flow
//! [`sections`] splits the text at `~~BEGIN-<NAME>~~` / `~~END-<NAME>~~` lines (DBCSI prints
//! some markers with a single trailing `~`; a section whose END marker is missing ends at the
//! next BEGIN, as DBCSI 4.0.11.aws.21 writes OS-INFORMATION). [`Table::of`] then finds the
//! dashes line of a section (`---------- ----`), takes each run of dashes as one column's span,
//! names it by the heading text above the run, and cuts every data row at those spans: never at
//! white space, since the `end` column holds a space (`13/04/23 08:59`). The last column runs to
//! the end of its line (SQL*Plus `trimspool on` may cut it shorter, or a value may spill past
//! its dashes).

use crate::error::{Location, ParseError};

/// One section of a collector file.
#[derive(Debug)]
pub(crate) struct Section<'a> {
    /// The name between `~~BEGIN-` and the trailing `~`s (`MAIN-METRICS`).
    pub(crate) name: String,
    /// The section's lines, each with its 1-based line number, markers excluded.
    pub(crate) lines: Vec<(usize, &'a str)>,
}

/// `~~BEGIN-NAME~~` (or `~` once) → `NAME`.
fn marker<'a>(line: &'a str, kind: &str) -> Option<&'a str> {
    let rest = line.trim().strip_prefix("~~")?.strip_prefix(kind)?;
    let name = rest.trim_end_matches('~');
    (!name.is_empty() && rest.len() > name.len()).then_some(name)
}

/// Every section of `text`, in file order.
///
/// # Errors
/// [`ParseError::Truncated`] when the last section begun has no END marker (the file stops
/// inside it), naming the section and its BEGIN line.
pub(crate) fn sections(text: &str) -> Result<Vec<Section<'_>>, ParseError> {
    let mut out: Vec<Section<'_>> = Vec::new();
    let mut open: Option<(usize, Section<'_>)> = None;
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        if let Some(name) = marker(line, "BEGIN-") {
            if let Some((_, s)) = open.take() {
                out.push(s);
            }
            open = Some((
                n,
                Section {
                    name: name.to_string(),
                    lines: Vec::new(),
                },
            ));
        } else if let Some(name) = marker(line, "END-") {
            if let Some((_, s)) = open.take_if(|(_, s)| s.name == name) {
                out.push(s);
            }
        } else if let Some((_, s)) = &mut open {
            s.lines.push((n, line));
        }
    }
    if let Some((begin, s)) = open {
        return Err(ParseError::Truncated {
            what: format!(
                "section {} begun at line {begin} has no ~~END-{}~~ line: the file stops inside it",
                s.name, s.name
            ),
            at: Location {
                line: s.lines.last().map(|l| l.0).or(Some(begin)),
                section: Some(s.name),
            },
        });
    }
    Ok(out)
}

/// A fixed-width table: column names and spans from its heading and dashes line, and its rows.
#[derive(Debug)]
pub(crate) struct Table<'a> {
    /// Section name, for messages.
    pub(crate) section: String,
    /// Heading text of each column, trimmed, as printed (`read_iops`).
    pub(crate) names: Vec<String>,
    /// Character span `[start, end)` of each column.
    spans: Vec<(usize, usize)>,
    /// Data rows with their 1-based line numbers.
    pub(crate) rows: Vec<(usize, &'a str)>,
}

/// A line of dashes and blanks only, with at least one dash.
fn is_dashes(l: &str) -> bool {
    let t = l.trim();
    !t.is_empty() && t.bytes().all(|b| b == b'-' || b == b' ')
}

/// `N rows selected.` and similar SQL*Plus feedback inside a section.
fn is_feedback(l: &str) -> bool {
    let t = l.trim().to_ascii_lowercase();
    t.ends_with("rows selected.") || t.ends_with("row selected.") || t == "no rows selected"
}

impl<'a> Table<'a> {
    /// The table of `s`: the first dashes line, the heading above it, every non-blank line
    /// below (repeated headings and dashes lines of a new page left out).
    ///
    /// # Errors
    /// [`ParseError::Section`] naming the section when it has no dashes line under a heading.
    pub(crate) fn of(s: &Section<'a>) -> Result<Table<'a>, ParseError> {
        let Some(d) = s.lines.iter().position(|(_, l)| is_dashes(l)) else {
            return Err(ParseError::section(
                s.name.clone(),
                s.lines.first().map(|l| l.0),
                "a heading line and under it a line of dashes (`---------- ----`) giving the column widths",
                format!(
                    "no dashes line in the section's {} lines: its columns cannot be cut",
                    s.lines.len()
                ),
            ));
        };
        let Some(&(hline, heading)) = s.lines[..d]
            .iter()
            .rev()
            .find(|(_, l)| !l.trim().is_empty())
        else {
            return Err(ParseError::section(
                s.name.clone(),
                Some(s.lines[d].0),
                "a heading line above the dashes line",
                "nothing above it",
            ));
        };
        let _ = hline;
        let dashes: Vec<char> = s.lines[d].1.chars().collect();
        let mut spans = Vec::new();
        let mut k = 0;
        while k < dashes.len() {
            if dashes[k] == '-' {
                let start = k;
                while k < dashes.len() && dashes[k] == '-' {
                    k += 1;
                }
                spans.push((start, k));
            } else {
                k += 1;
            }
        }
        let head: Vec<char> = heading.chars().collect();
        let names: Vec<String> = spans
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| {
                let b = if i + 1 == spans.len() {
                    head.len().max(b)
                } else {
                    b
                };
                cut(&head, a, b).trim().to_string()
            })
            .collect();
        let heading_trim = heading.trim_end();
        let rows = s.lines[d + 1..]
            .iter()
            .filter(|(_, l)| {
                !l.trim().is_empty()
                    && !is_dashes(l)
                    && l.trim_end() != heading_trim
                    && !is_feedback(l)
            })
            .copied()
            .collect();
        Ok(Table {
            section: s.name.clone(),
            names,
            spans,
            rows,
        })
    }

    /// The index of column `name` (exact, as printed), if the table has it.
    pub(crate) fn col(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The index of column `name`.
    ///
    /// # Errors
    /// [`ParseError::Section`] naming the section, the column and the columns found.
    pub(crate) fn need(&self, name: &str) -> Result<usize, ParseError> {
        self.col(name).ok_or_else(|| {
            ParseError::section(
                self.section.clone(),
                None,
                format!("a column '{name}'"),
                format!("the columns {}", self.names.join(", ")),
            )
        })
    }

    /// The cells of one row line, one per column, trimmed (a blank cell is `""`).
    pub(crate) fn cells(&self, line: &str) -> Vec<String> {
        let chars: Vec<char> = line.chars().collect();
        self.spans
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| {
                let b = if i + 1 == self.spans.len() {
                    chars.len().max(b)
                } else {
                    b
                };
                cut(&chars, a, b).trim().to_string()
            })
            .collect()
    }
}

/// `chars[a..b]` clipped to the line.
fn cut(chars: &[char], a: usize, b: usize) -> String {
    let a = a.min(chars.len());
    let b = b.min(chars.len());
    chars[a..b].iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_with_one_or_two_tildes() {
        assert_eq!(marker("~~BEGIN-FEATURES~", "BEGIN-"), Some("FEATURES"));
        assert_eq!(
            marker("~~BEGIN-MAIN-METRICS~~", "BEGIN-"),
            Some("MAIN-METRICS")
        );
        assert_eq!(
            marker("~~END-MAIN-METRICS~~  ", "END-"),
            Some("MAIN-METRICS")
        );
        assert_eq!(marker("~~BEGIN-", "BEGIN-"), None);
        assert_eq!(marker("BEGIN-X~~", "BEGIN-"), None);
    }

    #[test]
    fn columns_are_cut_at_the_dashes_not_at_blanks() {
        let text = "~~BEGIN-MAIN-METRICS~~\n\n      snap      dur_m end                  inst  read_iops\n---------- ---------- -------------- ---------- ----------\n         1         35 13/04/23 08:59          1       ,9\n         2         60 13/04/23 09:59          2\n~~END-MAIN-METRICS~~\n";
        let s = sections(text).unwrap();
        let t = Table::of(&s[0]).unwrap();
        assert_eq!(t.names, ["snap", "dur_m", "end", "inst", "read_iops"]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(
            t.cells(t.rows[0].1),
            ["1", "35", "13/04/23 08:59", "1", ",9"]
        );
        // A row cut short by trimspool: the missing cells are blank.
        assert_eq!(t.cells(t.rows[1].1), ["2", "60", "13/04/23 09:59", "2", ""]);
    }

    #[test]
    fn an_open_section_ends_at_the_next_begin_but_not_at_the_end_of_the_file() {
        let s = sections("~~BEGIN-OS-INFORMATION~~\nDB_NAME X\n~~BEGIN-MEMORY~~\n~~END-MEMORY~~\n")
            .unwrap();
        assert_eq!(s.len(), 2);
        let e = sections("~~BEGIN-MAIN-METRICS~~\n  snap\n----\n 1\n").unwrap_err();
        assert!(e.to_string().contains("MAIN-METRICS"), "{e}");
    }
}
