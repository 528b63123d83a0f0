//! The cmdlet's default table view captured as text: each header line followed by its `----` line
//! starts a table, cells are cut at the dash columns (the `Value` is the last word of the row),
//! and a table ends at the first line without an entity, name and time.

use super::{truncated, value_cell, Row, Rows};
use crate::entity::SkippedLine;
use crate::error::ParseError;

/// Table-view headers: (0-based line index of the header, columns as (name, start byte)).
pub(super) fn table_headers(
    text: &str,
) -> impl Iterator<Item = (usize, Vec<(String, usize)>)> + '_ {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len().saturating_sub(1)).filter_map(move |i| {
        let (h, d) = (lines[i], lines[i + 1]);
        let dt = d.trim();
        if dt.is_empty() || !dt.chars().all(|c| c == '-' || c == ' ') {
            return None;
        }
        // Dash runs.
        let mut runs = Vec::new();
        let mut start = None;
        for (j, c) in d.char_indices() {
            match (c == '-', start) {
                (true, None) => start = Some(j),
                (false, Some(s)) => {
                    runs.push((s, j));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            runs.push((s, d.len()));
        }
        let cols: Vec<(String, usize)> = runs
            .iter()
            .map(|&(s, e)| (h.get(s..e.min(h.len())).unwrap_or("").trim().to_string(), s))
            .collect();
        let has = |n: &str| cols.iter().any(|(x, _)| x.eq_ignore_ascii_case(n));
        (has("Entity") && has("Name") && has("Time") && has("Value")).then_some((i, cols))
    })
}

pub(super) fn table_rows(text: &str) -> Result<Rows, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Rows {
        rows: Vec::new(),
        skipped: Vec::new(),
        warnings: Vec::new(),
        has_unit: false,
    };
    let mut cut = false;
    for (hi, cols) in table_headers(text) {
        let pos = |n: &str| cols.iter().position(|(x, _)| x.eq_ignore_ascii_case(n));
        let (ce, cn, ct, cv) = (
            pos("Entity").unwrap_or(0),
            pos("Name").unwrap_or(0),
            pos("Time").unwrap_or(0),
            pos("Value").unwrap_or(0),
        );
        let cu = pos("Unit");
        out.has_unit |= cu.is_some();
        let last = cols.len() - 1;
        for (li, l) in lines.iter().enumerate().skip(hi + 2) {
            // Cells cut at the dash columns; the last column (right-aligned numbers may start
            // left of its dashes) is the last word of the line.
            let lt = l.trim_end();
            // Column positions count characters (the dash line is ASCII; a row may not be).
            let (body, tail) = match lt.rfind(char::is_whitespace) {
                Some(k)
                    if lt[..k].chars().count() + 1 >= cols[last].1.saturating_sub(4)
                        && last == cv =>
                {
                    (&lt[..k], lt[k..].trim())
                }
                _ => (lt, ""),
            };
            let at = |c: usize| body.char_indices().nth(c).map_or(body.len(), |(b, _)| b);
            let cell = |c: usize| -> &str {
                if c == last && last == cv {
                    return tail;
                }
                let s = at(cols[c].1);
                let e = cols.get(c + 1).map_or(body.len(), |x| at(x.1));
                if s >= e {
                    return "";
                }
                body[s..e].trim()
            };
            let (entity, name, time) = (cell(ce), cell(cn), cell(ct));
            if entity.is_empty() || name.is_empty() || time.is_empty() || l.starts_with("```") {
                break;
            }
            cut |= truncated(entity) || truncated(name);
            match value_cell(cell(cv)) {
                Ok(value) => out.rows.push(Row {
                    line: li + 1,
                    entity: entity.to_string(),
                    name: name.to_string(),
                    time: time.to_string(),
                    unit: cu.map(|c| cell(c).to_string()),
                    value,
                }),
                Err(()) => out.skipped.push(SkippedLine {
                    line: li + 1,
                    reason: format!("Value `{}` is not a number", cell(cv)),
                }),
            }
        }
    }
    if cut {
        out.warnings.push(
            "names cut short by the console's table view (`...`): entities are kept as printed \
             and metric names matched by prefix; export with Export-Csv for full names"
                .to_string(),
        );
    }
    Ok(out)
}
