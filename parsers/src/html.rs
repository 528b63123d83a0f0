//! HTML tables as labelled cells: the raw layer under the AWR HTML parser.
//!
//! The document is tokenized by [`html5gum`] (a WHATWG tokenizer), so upper-case tags, unquoted
//! attributes, entities (`&nbsp;`, `&amp;`), CRLF and text before `<html>` or after `</html>` (SQL*Plus
//! spool output) are all handled by the tokenizer, not by this module. This module only groups the
//! tokens into [`Table`]s, remembering for each table its `summary` attribute and the nearest
//! heading (`<h1>`…`<h3>`) before it, because AWR sections are found by those texts, never by their
//! position in the file.

use html5gum::{DefaultEmitter, Token, Tokenizer};

/// One cell: its text with white space collapsed, and whether it was a `<th>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Text content; runs of white space (including no-break spaces) collapsed to one space, trimmed.
    pub text: String,
    /// `true` for `<th>`.
    pub header: bool,
    /// The `colspan` attribute (1 when absent).
    pub colspan: usize,
}

/// One `<table>` of the document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// The `summary` attribute, white space collapsed.
    pub summary: String,
    /// The text of the last `<h1>`, `<h2>` or `<h3>` before the table (AWR's section title).
    pub heading: String,
    /// Rows in document order; each row is its cells in order.
    pub rows: Vec<Vec<Cell>>,
    /// 1-based line of the `<table>` tag.
    pub line: usize,
    /// Whether `</table>` was seen.
    pub closed: bool,
}

impl Table {
    /// Number of leading header rows: rows with at least one `<th>` whose other cells are empty
    /// `<td>`s (AWR's RAC reports pad group-header rows with `<td>&#160;</td>`).
    pub fn header_rows(&self) -> usize {
        self.rows
            .iter()
            .take_while(|r| {
                r.iter().any(|c| c.header) && r.iter().all(|c| c.header || c.text.is_empty())
            })
            .count()
    }

    /// Column names: the last header row, expanded by `colspan` so that index `i` names column `i`.
    pub fn columns(&self) -> Vec<String> {
        let n = self.header_rows();
        if n == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for c in &self.rows[n - 1] {
            for _ in 0..c.colspan.max(1) {
                out.push(c.text.clone());
            }
        }
        out
    }

    /// Data rows (all rows after the header rows), as cell texts.
    pub fn data(&self) -> impl Iterator<Item = Vec<&str>> {
        self.rows[self.header_rows()..]
            .iter()
            .map(|r| r.iter().map(|c| c.text.as_str()).collect())
    }

    /// The section's name for messages: heading, else summary.
    pub fn name(&self) -> &str {
        if self.heading.is_empty() {
            &self.summary
        } else {
            &self.heading
        }
    }
}

/// A parsed HTML document reduced to what the AWR parser needs.
#[derive(Debug, Default)]
pub struct Document {
    /// The `<title>` text.
    pub title: String,
    /// Every `<h1>`..`<h3>` text in order, with its 1-based line.
    pub headings: Vec<(String, usize)>,
    /// Every table in order (nested tables follow their parent).
    pub tables: Vec<Table>,
    /// Whether `</html>` was seen.
    pub saw_html_end: bool,
    /// Whether any `<html>`, `<table>` or `<body>` tag was seen at all.
    pub saw_html: bool,
}

fn push_text(dst: &mut String, src: &str) {
    for ch in src.chars() {
        let ch = if ch == '\u{a0}' { ' ' } else { ch };
        if ch.is_whitespace() {
            if !dst.is_empty() && !dst.ends_with(' ') {
                dst.push(' ');
            }
        } else {
            dst.push(ch);
        }
    }
}

fn finish(s: &mut String) {
    while s.ends_with(' ') {
        s.pop();
    }
}

/// Counts lines incrementally so a byte offset maps to its 1-based line in O(total length).
struct LineCounter<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl LineCounter<'_> {
    fn line_at(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.bytes.len());
        if offset > self.pos {
            self.line += memchr_count(&self.bytes[self.pos..offset]);
            self.pos = offset;
        }
        self.line
    }
}

fn memchr_count(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c == b'\n').count()
}

/// Tokenizes `text` and collects its tables.
pub fn parse(text: &str) -> Document {
    let mut emitter = DefaultEmitter::<usize>::new_with_span();
    emitter.naively_switch_states(true);
    let tok = Tokenizer::new_with_emitter(text, emitter);
    let mut lines = LineCounter {
        bytes: text.as_bytes(),
        pos: 0,
        line: 1,
    };
    let mut doc = Document::default();
    // Indices into doc.tables of the open tables, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut in_cell = false;
    let mut in_heading: Option<String> = None;
    let mut in_title: Option<String> = None;
    let mut heading = String::new();
    for token in tok {
        let Ok(token) = token;
        match token {
            Token::StartTag(t) => {
                let name = t.name.as_slice();
                match name {
                    b"table" => {
                        doc.saw_html = true;
                        // HTML5: a <table> start tag directly inside a table (not in a cell)
                        // closes that table first. Oracle's own Exadata sections rely on this.
                        if !in_cell {
                            if let Some(i) = open.pop() {
                                close_cell(&mut doc.tables[i]);
                                doc.tables[i].closed = true;
                            }
                        }
                        let summary = t
                            .attributes
                            .get(b"summary".as_slice())
                            .map(|v| {
                                let mut s = String::new();
                                push_text(&mut s, &String::from_utf8_lossy(v));
                                finish(&mut s);
                                s
                            })
                            .unwrap_or_default();
                        doc.tables.push(Table {
                            summary,
                            heading: heading.clone(),
                            rows: Vec::new(),
                            line: lines.line_at(t.span.start),
                            closed: false,
                        });
                        open.push(doc.tables.len() - 1);
                        in_cell = false;
                    }
                    b"tr" => {
                        if let Some(&i) = open.last() {
                            doc.tables[i].rows.push(Vec::new());
                            in_cell = false;
                        }
                    }
                    b"td" | b"th" => {
                        if let Some(&i) = open.last() {
                            let colspan = t
                                .attributes
                                .get(b"colspan".as_slice())
                                .and_then(|v| std::str::from_utf8(v).ok()?.trim().parse().ok())
                                .unwrap_or(1);
                            let tbl = &mut doc.tables[i];
                            if tbl.rows.is_empty() {
                                tbl.rows.push(Vec::new());
                            }
                            let row = tbl.rows.last_mut().expect("row pushed above");
                            if let Some(prev) = row.last_mut() {
                                finish(&mut prev.text);
                            }
                            row.push(Cell {
                                text: String::new(),
                                header: name == b"th",
                                colspan,
                            });
                            in_cell = true;
                        }
                    }
                    b"br" | b"p" | b"div" if in_cell => {
                        push_cell_text(&mut doc, &open, " ");
                    }
                    b"h1" | b"h2" | b"h3" => in_heading = Some(String::new()),
                    b"title" => in_title = Some(String::new()),
                    b"html" | b"body" => doc.saw_html = true,
                    _ => {}
                }
            }
            Token::EndTag(t) => match t.name.as_slice() {
                b"table" => {
                    if let Some(i) = open.pop() {
                        close_cell(&mut doc.tables[i]);
                        doc.tables[i].closed = true;
                    }
                    in_cell = false;
                }
                b"td" | b"th" => {
                    if let Some(&i) = open.last() {
                        close_cell(&mut doc.tables[i]);
                    }
                    in_cell = false;
                }
                b"tr" => in_cell = false,
                b"h1" | b"h2" | b"h3" => {
                    if let Some(mut h) = in_heading.take() {
                        finish(&mut h);
                        if !h.is_empty() {
                            doc.headings.push((h.clone(), lines.line_at(t.span.start)));
                            heading = h;
                        }
                    }
                }
                b"title" => {
                    if let Some(mut h) = in_title.take() {
                        finish(&mut h);
                        doc.title = h;
                    }
                }
                b"html" => doc.saw_html_end = true,
                _ => {}
            },
            Token::String(s) => {
                let s = String::from_utf8_lossy(&s.value);
                if let Some(h) = in_heading.as_mut() {
                    push_text(h, &s);
                }
                if let Some(h) = in_title.as_mut() {
                    push_text(h, &s);
                }
                if in_cell {
                    push_cell_text(&mut doc, &open, &s);
                }
            }
            _ => {}
        }
    }
    for &i in &open {
        close_cell(&mut doc.tables[i]);
    }
    doc
}

fn push_cell_text(doc: &mut Document, open: &[usize], s: &str) {
    if let Some(&i) = open.last() {
        if let Some(cell) = doc.tables[i].rows.last_mut().and_then(|r| r.last_mut()) {
            push_text(&mut cell.text, s);
        }
    }
}

fn close_cell(t: &mut Table) {
    if let Some(c) = t.rows.last_mut().and_then(|r| r.last_mut()) {
        finish(&mut c.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_resaved_markup() {
        let html = "junk before\r\n<HTML><H3 class=awr>Load Profile</H3>\r\n<TABLE border=0 summary=\"This table displays load profile\">\r\n<TR><TH class=awrbg>&nbsp;</TH><TH>Per Second</TH></TR>\r\n<TR><TD class=awrc>DB Time(s):</TD><TD align=right>1,2&nbsp;34.5 </TD></TR></TABLE></HTML>\r\nSQL> exit";
        let d = parse(html);
        assert!(d.saw_html_end);
        assert_eq!(d.tables.len(), 1);
        let t = &d.tables[0];
        assert_eq!(t.heading, "Load Profile");
        assert_eq!(t.summary, "This table displays load profile");
        assert_eq!(t.line, 3);
        assert_eq!(t.columns(), vec!["", "Per Second"]);
        let rows: Vec<_> = t.data().collect();
        assert_eq!(rows, vec![vec!["DB Time(s):", "1,2 34.5"]]);
    }

    #[test]
    fn table_start_inside_table_closes_it() {
        let d = parse(
            "<table summary=a><tr><td>1</td></tr><table summary=b><tr><td>2</td></tr></table>",
        );
        assert_eq!(d.tables.len(), 2);
        assert!(d.tables.iter().all(|t| t.closed));
        assert_eq!(d.tables[1].data().next().unwrap(), vec!["2"]);
    }

    #[test]
    fn colspan_expands_columns_and_unclosed_table_is_marked() {
        let d =
            parse("<table summary=x><tr><th colspan=2>a</th><th>b</th></tr><tr><td>1<td>2<td>3");
        let t = &d.tables[0];
        assert!(!t.closed);
        assert_eq!(t.columns(), vec!["a", "a", "b"]);
        assert_eq!(t.data().next().unwrap(), vec!["1", "2", "3"]);
    }
}

#[cfg(test)]
mod props {
    use proptest::prelude::*;

    const MINI: &str = "<html><h3>Load Profile</h3><table summary=\"This table displays load profile\"><tr><th></th><th>Per Second</th></tr><tr><td>DB Time(s):</td><td>1.9</td></tr></table></html>";

    proptest! {
        #[test]
        fn any_prefix_of_a_document_parses_without_panic(n in 0usize..MINI.len()) {
            let d = super::parse(&MINI[..n]);
            // A document cut before </html> never reports the end tag.
            prop_assert!(!d.saw_html_end);
            let _ = crate::awr::html::parse(&MINI[..n]);
        }

        #[test]
        fn arbitrary_markup_never_panics(s in "[<>/a-z=\" ]{0,64}") {
            let _ = super::parse(&s);
        }
    }
}
