//! Groups the scanner's start tags, end tags and text into a [`Document`]: tables and their
//! rows and cells, headings, the title, and the 1-based line of each `<table>` and heading.
//!
//! Flow: the scanner calls [`Builder::start_tag`], [`Builder::end_tag`] and [`Builder::text`]
//! in document order; text is white-space collapsed as it arrives ([`push_text`]) and moved into
//! its cell before any structural change; [`Builder::finish`] closes what is still open.

use super::entities::attr_value;
use super::tags::Tag;
use super::{Cell, Document, Table};

/// Appends `src` to `dst` with white space (and U+00A0) collapsed to single spaces, never starting
/// `dst` with a space. Streaming: pushing `a` then `b` gives the same as pushing `a + b`.
fn push_text(dst: &mut String, src: &str) {
    let b = src.as_bytes();
    let mut run = 0; // start of the pending run of non-space characters
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let (space, len) = if c < 0x80 {
            (
                matches!(c, b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b' '),
                1,
            )
        } else {
            let ch = src[i..].chars().next().unwrap_or(' ');
            (ch == '\u{a0}' || ch.is_whitespace(), ch.len_utf8())
        };
        if space {
            dst.push_str(&src[run..i]);
            if !dst.is_empty() && !dst.ends_with(' ') {
                dst.push(' ');
            }
            run = i + len;
        }
        i += len;
    }
    dst.push_str(&src[run..]);
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
            self.line += count_newlines(&self.bytes[self.pos..offset]);
            self.pos = offset;
        }
        self.line
    }
}

/// Counts LF bytes; 64-byte chunks summed in a byte so that the compiler vectorises the loop.
pub(super) fn count_newlines(b: &[u8]) -> usize {
    let mut chunks = b.chunks_exact(64);
    let mut n = 0;
    for c in &mut chunks {
        n += usize::from(c.iter().map(|&x| u8::from(x == b'\n')).sum::<u8>());
    }
    n + chunks.remainder().iter().filter(|&&x| x == b'\n').count()
}

/// Groups the scanner's tags and text into the [`Document`].
pub(super) struct Builder<'a> {
    doc: Document,
    /// Indices into doc.tables of the open tables, innermost last.
    open: Vec<usize>,
    in_cell: bool,
    in_heading: Option<String>,
    in_title: Option<String>,
    heading: String,
    lines: LineCounter<'a>,
    /// The text of the current cell (the last cell of the innermost open table, while
    /// `in_cell`), moved into the cell before any structural change: one exact-size allocation
    /// per cell instead of a growing string.
    cell: String,
}

impl<'a> Builder<'a> {
    /// A builder for the document of `text` (the bytes its line numbers count).
    pub(super) fn new(text: &'a str) -> Self {
        Builder {
            doc: Document::default(),
            open: Vec::new(),
            in_cell: false,
            in_heading: None,
            in_title: None,
            heading: String::new(),
            lines: LineCounter {
                bytes: text.as_bytes(),
                pos: 0,
                line: 1,
            },
            cell: String::new(),
        }
    }

    /// Whether text is being collected at all (else it is skipped unread).
    #[inline]
    pub(super) fn collecting(&self) -> bool {
        self.in_cell || self.in_heading.is_some() || self.in_title.is_some()
    }

    pub(super) fn text(&mut self, s: &str) {
        if let Some(h) = self.in_heading.as_mut() {
            push_text(h, s);
        }
        if let Some(h) = self.in_title.as_mut() {
            push_text(h, s);
        }
        if self.in_cell {
            self.cell_text(s);
        }
    }

    fn cell_text(&mut self, s: &str) {
        push_text(&mut self.cell, s);
    }

    /// Moves the pending text into its cell; called before every change of the table structure,
    /// so the cell is the same one the text would have gone to directly.
    fn flush_cell(&mut self) {
        if self.cell.is_empty() {
            return;
        }
        if let Some(&i) = self.open.last() {
            if let Some(cell) = self.doc.tables[i]
                .rows
                .last_mut()
                .and_then(|r| r.last_mut())
            {
                cell.text.push_str(&self.cell);
            }
        }
        self.cell.clear();
    }

    fn close_innermost(&mut self) {
        if let Some(i) = self.open.pop() {
            close_cell(&mut self.doc.tables[i]);
            self.doc.tables[i].closed = true;
        }
    }

    /// A start tag at byte `offset`, with the raw value of its wanted attribute.
    pub(super) fn start_tag(&mut self, tag: Tag, attr: Option<&str>, offset: usize) {
        if matches!(tag, Tag::Table | Tag::Tr | Tag::Td | Tag::Th) {
            self.flush_cell();
        }
        match tag {
            Tag::Table => {
                self.doc.saw_html = true;
                // HTML5: a <table> start tag directly inside a table (not in a cell) closes that
                // table first. Oracle's own Exadata sections rely on this.
                if !self.in_cell {
                    self.close_innermost();
                }
                let summary = attr
                    .map(|v| {
                        let mut s = String::new();
                        push_text(&mut s, &attr_value(v));
                        finish(&mut s);
                        s
                    })
                    .unwrap_or_default();
                self.doc.tables.push(Table {
                    summary,
                    heading: self.heading.clone(),
                    rows: Vec::new(),
                    line: self.lines.line_at(offset),
                    closed: false,
                });
                self.open.push(self.doc.tables.len() - 1);
                self.in_cell = false;
            }
            Tag::Tr => {
                if let Some(&i) = self.open.last() {
                    // Rows of a table are usually as wide as the previous one.
                    let rows = &mut self.doc.tables[i].rows;
                    let width = rows.last().map_or(0, Vec::len);
                    rows.push(Vec::with_capacity(width));
                    self.in_cell = false;
                }
            }
            Tag::Td | Tag::Th => {
                if let Some(&i) = self.open.last() {
                    let colspan = attr
                        .and_then(|v| attr_value(v).trim().parse().ok())
                        .unwrap_or(1);
                    let tbl = &mut self.doc.tables[i];
                    if tbl.rows.is_empty() {
                        tbl.rows.push(Vec::new());
                    }
                    let row = tbl.rows.last_mut().expect("row pushed above");
                    if let Some(prev) = row.last_mut() {
                        finish(&mut prev.text);
                    }
                    row.push(Cell {
                        text: String::new(),
                        header: tag == Tag::Th,
                        colspan,
                    });
                    self.in_cell = true;
                }
            }
            Tag::Break if self.in_cell => self.cell_text(" "),
            Tag::Heading => self.in_heading = Some(String::new()),
            Tag::Title => self.in_title = Some(String::new()),
            Tag::Html | Tag::Body => self.doc.saw_html = true,
            _ => {}
        }
    }

    /// An end tag at byte `offset`.
    pub(super) fn end_tag(&mut self, tag: Tag, offset: usize) {
        if matches!(tag, Tag::Table | Tag::Tr | Tag::Td | Tag::Th) {
            self.flush_cell();
        }
        match tag {
            Tag::Table => {
                self.close_innermost();
                self.in_cell = false;
            }
            Tag::Td | Tag::Th => {
                if let Some(&i) = self.open.last() {
                    close_cell(&mut self.doc.tables[i]);
                }
                self.in_cell = false;
            }
            Tag::Tr => self.in_cell = false,
            Tag::Heading => {
                if let Some(mut h) = self.in_heading.take() {
                    finish(&mut h);
                    if !h.is_empty() {
                        self.doc
                            .headings
                            .push((h.clone(), self.lines.line_at(offset)));
                        self.heading = h;
                    }
                }
            }
            Tag::Title => {
                if let Some(mut h) = self.in_title.take() {
                    finish(&mut h);
                    // The report's own title is the first: an Exadata section carries a
                    // second (`Exadata Configuration and Statistics`).
                    if self.doc.title.is_empty() {
                        self.doc.title = h;
                    }
                }
            }
            Tag::Html => self.doc.saw_html_end = true,
            _ => {}
        }
    }

    pub(super) fn finish(mut self) -> Document {
        self.flush_cell();
        for &i in &self.open {
            close_cell(&mut self.doc.tables[i]);
        }
        self.doc
    }
}

fn close_cell(t: &mut Table) {
    if let Some(c) = t.rows.last_mut().and_then(|r| r.last_mut()) {
        finish(&mut c.text);
    }
}
