//! The cmdlet's default table view captured as text: each header line followed by its `----` line
//! starts a table, cells are cut at the dash columns (the `Value` is the last word of the row),
//! and a table ends at the first line without an entity, name and time.
//!
//! [`Tables`] reads it one line at a time, keeping the previous line (to tell a header by the
//! dash line under it) and the open tables. A table runs until its first line without an entity,
//! name and time, so when a header follows a table without such a line the first table reads the
//! second one's lines too: the second table's rows are then held until the first has ended, to
//! come in the order of tables, as a read of the whole text gives them.

use super::series::Builder;
use super::{truncated, value_cell, Row};
use crate::entity::SkippedLine;

/// A table's columns: (name, start byte of its dashes).
type Columns = Vec<(String, usize)>;

/// The columns of a table whose header line is `h` and dash line `d`, when `d` is a dash line
/// and `h` names `Entity`, `Name`, `Time` and `Value`.
fn header_cols(h: &str, d: &str) -> Option<Columns> {
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
    let cols: Columns = runs
        .iter()
        .map(|&(s, e)| (h.get(s..e.min(h.len())).unwrap_or("").trim().to_string(), s))
        .collect();
    let has = |n: &str| cols.iter().any(|(x, _)| x.eq_ignore_ascii_case(n));
    (has("Entity") && has("Name") && has("Time") && has("Value")).then_some(cols)
}

/// Table-view headers: (0-based line index of the header, columns as (name, start byte)).
pub(super) fn table_headers(text: &str) -> impl Iterator<Item = (usize, Columns)> + '_ {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len().saturating_sub(1))
        .filter_map(move |i| header_cols(lines[i], lines[i + 1]).map(|cols| (i, cols)))
}

/// What one line is to a table.
enum Item {
    Row(Row),
    Skip(SkippedLine),
}

/// One open table.
struct Table {
    cols: Columns,
    /// Positions in `cols` of `Entity`, `Name`, `Time`, `Value` and `Unit`.
    at: (usize, usize, usize, usize, Option<usize>),
    /// Its first line without an entity, name and time has been read.
    done: bool,
    /// Rows read while an earlier table was still open.
    held: Vec<Item>,
}

impl Table {
    fn new(cols: Columns) -> Self {
        let pos = |n: &str| cols.iter().position(|(x, _)| x.eq_ignore_ascii_case(n));
        let at = (
            pos("Entity").unwrap_or(0),
            pos("Name").unwrap_or(0),
            pos("Time").unwrap_or(0),
            pos("Value").unwrap_or(0),
            pos("Unit"),
        );
        Table {
            cols,
            at,
            done: false,
            held: Vec::new(),
        }
    }

    /// Line `l` (1-based `lineno`) as a row of this table, or `None` where the table ends.
    /// `cut` is set when an entity or name is cut short.
    fn read(&self, lineno: usize, l: &str, cut: &mut bool) -> Option<Item> {
        let cols = &self.cols;
        let (ce, cn, ct, cv, cu) = self.at;
        let last = cols.len() - 1;
        // Cells cut at the dash columns; the last column (right-aligned numbers may start
        // left of its dashes) is the last word of the line.
        let lt = l.trim_end();
        // Column positions count characters (the dash line is ASCII; a row may not be).
        let (body, tail) = match lt.rfind(char::is_whitespace) {
            Some(k)
                if lt[..k].chars().count() + 1 >= cols[last].1.saturating_sub(4) && last == cv =>
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
            return None;
        }
        *cut |= truncated(entity) || truncated(name);
        Some(match value_cell(cell(cv)) {
            Ok(value) => Item::Row(Row {
                line: lineno,
                entity: entity.to_string(),
                name: name.to_string(),
                time: time.to_string(),
                unit: cu.map(|c| cell(c).to_string()),
                value,
            }),
            Err(()) => Item::Skip(SkippedLine {
                line: lineno,
                reason: format!("Value `{}` is not a number", cell(cv)),
            }),
        })
    }
}

fn deliver(item: Item, b: &mut Builder) {
    match item {
        Item::Row(r) => b.row(r),
        Item::Skip(s) => b.skip(s),
    }
}

/// The table view, read one line at a time.
#[derive(Default)]
pub(super) struct Tables {
    /// The line before the current one.
    prev: Option<String>,
    /// Open tables (and ended ones whose rows wait for an earlier table), in order of headers.
    open: Vec<Table>,
    cut: bool,
}

impl Tables {
    /// One line (1-based `lineno`, without its line end).
    pub(super) fn line(&mut self, lineno: usize, l: &str, b: &mut Builder) {
        for (k, t) in self.open.iter_mut().enumerate() {
            if t.done {
                continue;
            }
            match t.read(lineno, l, &mut self.cut) {
                None => t.done = true,
                Some(item) if k == 0 => deliver(item, b),
                Some(item) => t.held.push(item),
            }
        }
        self.pop_done(b);
        if let Some(cols) = self.prev.as_deref().and_then(|h| header_cols(h, l)) {
            self.open.push(Table::new(cols));
        }
        let prev = self.prev.get_or_insert_with(String::new);
        prev.clear();
        prev.push_str(l);
    }

    /// Drops the first tables while they have ended, handing over the rows the next one held.
    fn pop_done(&mut self, b: &mut Builder) {
        while self.open.first().is_some_and(|t| t.done) {
            self.open.remove(0);
            if let Some(next) = self.open.first_mut() {
                for item in next.held.drain(..) {
                    deliver(item, b);
                }
            }
        }
    }

    /// The end of the text: every table ends; the warning for names cut short.
    pub(super) fn finish(mut self, b: &mut Builder) {
        for t in &mut self.open {
            t.done = true;
        }
        self.pop_done(b);
        if self.cut {
            b.warn(
                "names cut short by the console's table view (`...`): entities are kept as \
                 printed and metric names matched by prefix; export with Export-Csv for full names"
                    .to_string(),
            );
        }
    }
}
