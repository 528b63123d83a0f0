//! The `Export-Csv` layout: the header line (after an optional `#TYPE` line) with its separator
//! (`,`, `;` or TAB, told from the header) and column names, then one [`Row`] per data line, cells
//! split with quotes (`""` inside a quoted cell is one `"`).

use super::{value_cell, Row, Rows, SECTION};
use crate::error::ParseError;

/// The CSV header: (0-based line index, separator, column names).
pub(super) struct CsvHeader {
    index: usize,
    sep: char,
    names: Vec<String>,
}

pub(super) fn csv_header(text: &str) -> Option<CsvHeader> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (mut i, mut l) = lines.next()?;
    let l0 = l.trim_start_matches('\u{feff}').trim();
    if l0.starts_with('#') {
        (i, l) = lines.next()?;
    }
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
    (has("Entity") && has("Name") && has("Time") && has("Value")).then_some(CsvHeader {
        index: i,
        sep,
        names,
    })
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

pub(super) fn csv_rows(text: &str, h: CsvHeader) -> Result<Rows, ParseError> {
    let col = |n: &str| h.names.iter().position(|x| x.eq_ignore_ascii_case(n));
    let (ce, cn, ct, cv) = (
        col("Entity").unwrap_or(0),
        col("Name").unwrap_or(0),
        col("Time").unwrap_or(0),
        col("Value").unwrap_or(0),
    );
    let cu = col("Unit");
    let mut out = Rows {
        rows: Vec::new(),
        skipped: Vec::new(),
        warnings: Vec::new(),
        has_unit: cu.is_some(),
    };
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
        out.warnings.push(format!(
            "columns ignored (not Get-VsanStat properties): {}",
            extra.join(", ")
        ));
    }
    let expected = h.names.join(&h.sep.to_string());
    for (i, l) in text.lines().enumerate().skip(h.index + 1) {
        let lineno = i + 1;
        if l.trim().is_empty() {
            continue;
        }
        let cells = split_cells(l, h.sep).map_err(|_| {
            ParseError::section(
                SECTION,
                Some(lineno),
                "a closing `\"` on the same line",
                "an unterminated quoted cell".to_string(),
            )
        })?;
        if cells.len() != h.names.len() {
            return Err(ParseError::section(
                SECTION,
                Some(lineno),
                format!("{} cells ({expected})", h.names.len()),
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
        out.rows.push(Row {
            line: lineno,
            entity: cells[ce].trim().to_string(),
            name: cells[cn].trim().to_string(),
            time: cells[ct].trim().to_string(),
            unit: cu.map(|c| cells[c].trim().to_string()),
            value,
        });
    }
    Ok(out)
}
