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

/// Escapes `|` so free text cannot break a Markdown table row, and control characters
/// ([`escape_controls`]: a line feed would break the row too).
pub(crate) fn cell_text(s: &str) -> String {
    escape_controls(s).replace('|', "\\|")
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

/// `s` with its control characters (Unicode `Cc`: U+0000–U+001F, U+007F–U+009F, as
/// [`char::is_control`]) escaped as `\n`, `\r`, `\t` or `\u{1b}`: file, host and database
/// names come from the user's files and must not move the terminal's cursor, rewrite what was
/// printed or break a Markdown line. Other text is unchanged (borrowed when nothing needs
/// escaping).
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    escape_with(s, true)
}

/// As [`escape_controls`], keeping line feeds when `newlines` is false.
fn escape_with(s: &str, newlines: bool) -> std::borrow::Cow<'_, str> {
    let needs = |c: char| c.is_control() && (newlines || c != '\n');
    if !s.chars().any(needs) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !needs(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A writer that escapes every control character but the line feed ([`escape_controls`]) in
/// what passes through: the Markdown renderer writes through it, so no name printed anywhere in
/// a report reaches the terminal raw. Bytes that are not UTF-8 (never written by the renderers)
/// pass with their C0 controls and DEL escaped.
pub(crate) struct EscapeControls<'a>(pub(crate) &'a mut dyn std::io::Write);

impl std::io::Write for EscapeControls<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(s) => self.0.write_all(escape_with(s, false).as_bytes())?,
            Err(_) => {
                let mut out = Vec::with_capacity(buf.len());
                for &b in buf {
                    if (b < 0x20 && b != b'\n') || b == 0x7F {
                        out.extend_from_slice(format!("\\u{{{b:x}}}").as_bytes());
                    } else {
                        out.push(b);
                    }
                }
                self.0.write_all(&out)?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::{escape_controls, fmt_num, EscapeControls};

    #[test]
    fn numbers_are_grouped_and_rounded() {
        assert_eq!(fmt_num(1353.8749, 2), "1,353.87");
        assert_eq!(fmt_num(1234567.0, 0), "1,234,567");
        assert_eq!(fmt_num(0.5, 1), "0.5");
        assert_eq!(fmt_num(-1234.5, 1), "-1,234.5");
        assert_eq!(fmt_num(999.996, 2), "1,000.00");
        assert_eq!(fmt_num(-0.001, 2), "0.00");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("db01.example.com"), "db01.example.com");
        assert_eq!(
            escape_controls("a\u{1b}[2J\u{7}\r\n\tb\u{9b}c\u{7f}µ"),
            "a\\u{1b}[2J\\u{7}\\r\\n\\tb\\u{9b}c\\u{7f}µ"
        );
        let mut out = Vec::new();
        {
            use std::io::Write;
            let mut w = EscapeControls(&mut out);
            write!(w, "# x\u{1b}]0;t\u{7}\nline 2\n").unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "# x\\u{1b}]0;t\\u{7}\nline 2\n"
        );
    }
}
