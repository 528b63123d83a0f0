//! The `Export-Csv` layout: the header line (after an optional `#TYPE` line) with its separator
//! (`,`, `;` or TAB, told from the header) and column names, then one [`Row`] per data line, cells
//! split with quotes (`""` inside a quoted cell is one `"`), read one line at a time.

use super::series::Builder;
use super::{value_cell, Row, SECTION};
use crate::error::ParseError;

/// The CSV header: separator and column names.
pub(super) struct CsvHeader {
    sep: char,
    names: Vec<String>,
}

/// The CSV header in a text: the first line that is not blank, or the one after it when that
/// is a `#TYPE` (any `#`) line.
pub(super) fn csv_header(text: &str) -> Option<CsvHeader> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let mut l = lines.next()?;
    if is_type_line(l) {
        l = lines.next()?;
    }
    header_of(l)
}

/// A first line that is a comment (`#TYPE …`): the header is the next line that is not blank.
pub(super) fn is_type_line(l: &str) -> bool {
    l.trim_start_matches('\u{feff}').trim().starts_with('#')
}

/// A line read as a `Get-VsanStat` CSV header: a separator found at least three
/// times outside quotes, and the columns `Entity`, `Name`, `Time` and `Value`.
pub(super) fn header_of(l: &str) -> Option<CsvHeader> {
    let l = l.trim_start_matches('\u{feff}');
    let sep = [',', ';', '\t']
        .into_iter()
        .max_by_key(|&c| count_outside_quotes(l, c))?;
    if count_outside_quotes(l, sep) < 3 {
        return None;
    }
    let names: Vec<String> = split_cells(l, sep)
        .ok()?
        .into_iter()
        .map(|s| s.trim().to_string())
        .collect();
    let has = |n: &str| names.iter().any(|x| x.eq_ignore_ascii_case(n));
    (has("Entity") && has("Name") && has("Time") && has("Value"))
        .then_some(CsvHeader { sep, names })
}

fn count_outside_quotes(l: &str, sep: char) -> usize {
    let mut q = false;
    l.chars()
        .filter(|&c| {
            if c == '"' {
                q = !q;
            }
            !q && c == sep
        })
        .count()
}

/// Splits one CSV line; `Err` on an unterminated quote.
pub(super) fn split_cells(l: &str, sep: char) -> Result<Vec<String>, ()> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = l.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    cur.push('"');
                } else {
                    quoted = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == sep {
            out.push(std::mem::take(&mut cur));
            at_start = true;
            continue;
        } else if c == '"' && at_start && cur.trim().is_empty() {
            cur.clear();
            quoted = true;
        } else {
            cur.push(c);
        }
        at_start = false;
    }
    if quoted {
        return Err(());
    }
    out.push(cur);
    Ok(out)
}

/// The data rows after a [`CsvHeader`], one line at a time.
pub(super) struct CsvRows {
    sep: char,
    width: usize,
    /// The header as printed again in errors (`Entity,Name,Time,Unit,Value`).
    expected: String,
    /// Column indexes of `Entity`, `Name`, `Time`, `Value` and `Unit`.
    cols: (usize, usize, usize, usize, Option<usize>),
}

impl CsvRows {
    /// The reader of the rows under `h`; the columns it ignores are warned in `b`.
    pub(super) fn new(h: CsvHeader, b: &mut Builder) -> Self {
        let col = |n: &str| h.names.iter().position(|x| x.eq_ignore_ascii_case(n));
        let cols = (
            col("Entity").unwrap_or(0),
            col("Name").unwrap_or(0),
            col("Time").unwrap_or(0),
            col("Value").unwrap_or(0),
            col("Unit"),
        );
        let extra: Vec<&str> = h
            .names
            .iter()
            .filter(|n| {
                !["Entity", "Name", "Time", "Unit", "Value"]
                    .iter()
                    .any(|k| k.eq_ignore_ascii_case(n))
            })
            .map(String::as_str)
            .collect();
        if !extra.is_empty() {
            b.warn(format!(
                "columns ignored (not Get-VsanStat properties): {}",
                extra.join(", ")
            ));
        }
        CsvRows {
            sep: h.sep,
            width: h.names.len(),
            expected: h.names.join(&h.sep.to_string()),
            cols,
        }
    }

    /// One line after the header (1-based `lineno`, without its line end).
    ///
    /// # Errors
    /// An unterminated quote, a row with fewer or more cells than the header, or a `Value` that
    /// is not a number, naming the line.
    pub(super) fn line(&self, lineno: usize, l: &str, b: &mut Builder) -> Result<(), ParseError> {
        if l.trim().is_empty() {
            return Ok(());
        }
        let (ce, cn, ct, cv, cu) = self.cols;
        let cells = split_cells(l, self.sep).map_err(|_| {
            ParseError::section(
                SECTION,
                Some(lineno),
                "a closing `\"` on the same line",
                "an unterminated quoted cell".to_string(),
            )
        })?;
        if cells.len() != self.width {
            return Err(ParseError::section(
                SECTION,
                Some(lineno),
                format!("{} cells ({})", self.width, self.expected),
                format!("{} cells: `{}`", cells.len(), l.trim()),
            ));
        }
        let value = value_cell(&cells[cv]).map_err(|_| {
            ParseError::section(
                SECTION,
                Some(lineno),
                "a number in the Value column",
                format!("`{}`", cells[cv].trim()),
            )
        })?;
        b.row(Row {
            line: lineno,
            entity: cells[ce].trim().to_string(),
            name: cells[cn].trim().to_string(),
            time: cells[ct].trim().to_string(),
            unit: cu.map(|c| cells[c].trim().to_string()),
            value,
        });
        Ok(())
    }
}
