//! Number and cell formatting shared by the renderers: `fmt_num` and the table helpers.
//!
//! Every renderer words numbers through these, so a figure reads the same in every section.

use comfy_table::presets::ASCII_MARKDOWN;
use comfy_table::{Cell, CellAlignment, Table};

use crate::metrics::Figure;

/// Formats `v` with `d` decimals and `,` thousands separators (`1,353.87`).
pub fn fmt_num(v: f64, d: usize) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let s = format!("{:.*}", d, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let mut grouped = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        "-"
    } else {
        ""
    };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

pub(crate) fn figure_text(m: &Figure) -> String {
    match m.value {
        Some(v) => fmt_num(v, m.decimals as usize),
        None => "unknown".to_string(),
    }
}

pub(crate) fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(ASCII_MARKDOWN);
    t.set_header(header.iter().map(Cell::new));
    t
}

pub(crate) fn right(t: &mut Table, cols: &[usize]) {
    for &c in cols {
        if let Some(col) = t.column_mut(c) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
}

/// Escapes `|` so free text cannot break a Markdown table row.
pub(crate) fn cell_text(s: &str) -> String {
    s.replace('|', "\\|")
}

pub(crate) fn opt_num(v: Option<f64>, d: usize) -> String {
    v.map(|v| fmt_num(v, d)).unwrap_or_else(|| "unknown".into())
}

/// A demand's throughput as the sizing sentences quote it: `12.34 MB/s`, `0.49 MB/s read (write
/// unknown)`, or `throughput unknown` (never 0.00 MB/s for an unknown figure).
pub(crate) fn throughput_text(d: &crate::rules::Demand) -> String {
    match (d.total_mb_s(), d.read_mb_s, d.write_mb_s) {
        (Some(t), _, _) => format!("{} MB/s", fmt_num(t, 2)),
        (None, Some(r), None) => format!("{} MB/s read (write unknown)", fmt_num(r, 2)),
        (None, None, Some(w)) => format!("{} MB/s written (read unknown)", fmt_num(w, 2)),
        _ => "throughput unknown".to_string(),
    }
}

pub(crate) fn when(t: &Option<String>) -> String {
    t.as_deref().unwrap_or("?").replace('T', " ")
}

pub(crate) fn when_or_dash(t: &Option<String>) -> String {
    t.as_deref()
        .map(|t| t.replace('T', " "))
        .unwrap_or_else(|| "–".into())
}

/// Shortest exact form with thousands separators: 16000 → "16,000", 0.0455 → "0.0455".
pub fn fmt_trim(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let s = format!("{}", x.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s.as_str(), None),
    };
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    let n = int.len();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (n - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fmt_num;

    #[test]
    fn numbers_are_grouped_and_rounded() {
        assert_eq!(fmt_num(1353.8749, 2), "1,353.87");
        assert_eq!(fmt_num(1234567.0, 0), "1,234,567");
        assert_eq!(fmt_num(0.5, 1), "0.5");
        assert_eq!(fmt_num(-1234.5, 1), "-1,234.5");
        assert_eq!(fmt_num(999.996, 2), "1,000.00");
        assert_eq!(fmt_num(-0.001, 2), "0.00");
    }
}
