//! Groups the scanner's start tags, end tags and text into a [`Document`]: tables and their
//! rows and cells, headings, the title, and the 1-based line of each `<table>` and heading.
//!
//! Flow: the scanner calls [`Builder::start_tag`], [`Builder::end_tag`] and [`Builder::text`]
//! in document order; text is white-space collapsed as it arrives ([`push_text`]) and moved into
//! its cell before any structural change; [`Builder::finish`] closes what is still open.

use super::entities::attr_value;
use super::tags::Tag;
use super::{Document, Table};

/// Appends `src` to `dst` with white space (and U+00A0) collapsed to single spaces, never starting
/// `dst` with a space. Streaming: pushing `a` then `b` gives the same as pushing `a + b`.
fn push_text(dst: &mut String, src: &str) {
    push_text_after(dst, 0, src);
}

/// [`push_text`] onto the part of `dst` after byte `base`, as if that part were the whole
/// string: a space is added only after text that follows `base`.
fn push_text_after(dst: &mut String, base: usize, src: &str) {
    let b = src.as_bytes();
    let mut run = 0; // start of the pending run of non-space characters
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let (space, len) = match CLASS[usize::from(c)] {
            PLAIN => {
                i += 1;
                continue;
            }
            SPACE => (true, 1),
            _ => {
                let ch = src[i..].chars().next().unwrap_or(' ');
                (ch == '\u{a0}' || ch.is_whitespace(), ch.len_utf8())
            }
        };
        if space {
            dst.push_str(&src[run..i]);
            if dst.len() > base && !dst.ends_with(' ') {
                dst.push(' ');
            }
            run = i + len;
        }
        i += len;
    }
    dst.push_str(&src[run..]);
}

/// Byte classes for [`push_text_after`]: an ASCII character that is not white space, ASCII white
/// space (`\t \n \x0B \x0C \r` and space), or the first byte of a non-ASCII character.
const PLAIN: u8 = 0;
const SPACE: u8 = 1;
const CLASS: [u8; 256] = {
    let mut t = [2u8; 256];
    let mut c = 0;
    while c < 0x80 {
        t[c] = match c as u8 {
            b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b' ' => SPACE,
            _ => PLAIN,
        };
        c += 1;
    }
    t
};

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

/// Counts LF bytes with `memchr` (vectorised, chosen at run time): AWR HTML has long lines
/// (about 150 bytes each), and a byte-wise count of a whole report was 5 % of a fleet run.
pub(super) fn count_newlines(b: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', b).count()
}

/// Groups the scanner's tags and text into the [`Document`].
pub(super) struct Builder<'a> {
    doc: Document,
    /// Indices into doc.tables of the open tables, innermost last.
    open: Vec<usize>,
    in_cell: bool,
    /// In a cell of a table that is read (not [`Table::skipped`]): its text is collected.
    in_read_cell: bool,
    /// Whether a table with this summary is skipped (its rows not read).
    skip: &'a dyn Fn(&str) -> bool,
    in_heading: Option<String>,
    in_title: Option<String>,
    heading: String,
    lines: LineCounter<'a>,
    /// Where the text given since the last change of the table structure starts in the
    /// innermost open table's text, while there is such text: white space is collapsed within
    /// that stretch only (as the scanner's earlier per-cell buffer did), so text that resumes
    /// after a nested table starts without a space.
    pending: Option<usize>,
}

impl<'a> Builder<'a> {
    /// A builder for the document of `text` (the bytes its line numbers count), skipping the
    /// rows of every table whose summary `skip` holds for.
    pub(super) fn new(text: &'a str, skip: &'a dyn Fn(&str) -> bool) -> Self {
        Builder {
            doc: Document::default(),
            open: Vec::new(),
            in_cell: false,
            in_read_cell: false,
            skip,
            in_heading: None,
            in_title: None,
            heading: String::new(),
            lines: LineCounter {
                bytes: text.as_bytes(),
                pos: 0,
                line: 1,
            },
            pending: None,
        }
    }

    /// Whether text is being collected at all (else it is skipped unread).
    #[inline]
    pub(super) fn collecting(&self) -> bool {
        self.in_read_cell || self.in_heading.is_some() || self.in_title.is_some()
    }

    pub(super) fn text(&mut self, s: &str) {
        if let Some(h) = self.in_heading.as_mut() {
            push_text(h, s);
        }
        if let Some(h) = self.in_title.as_mut() {
            push_text(h, s);
        }
        if self.in_read_cell {
            self.cell_text(s);
        }
    }

    /// Text of the current cell: written straight into its table's text. `in_cell` means the
    /// innermost open table's last row ends with the cell being read.
    fn cell_text(&mut self, s: &str) {
        let Some(&i) = self.open.last() else {
            return;
        };
        let t = &mut self.doc.tables[i];
        if !t.has_open_cell() {
            return;
        }
        let base = *self.pending.get_or_insert(t.text.len());
        push_text_after(&mut t.text, base, s);
        if let Some(c) = t.cells.last_mut() {
            c.end = t.text.len();
        }
    }

    /// Ends the stretch of text being collapsed; called before every change of the table
    /// structure.
    fn flush_cell(&mut self) {
        self.pending = None;
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
                let line = self.lines.line_at(offset);
                // A table nested in a cell of a skipped table is skipped with it.
                let skipped = (self.in_cell
                    && self
                        .open
                        .last()
                        .is_some_and(|&i| self.doc.tables[i].skipped))
                    || (self.skip)(&summary);
                let mut table = Table::new(summary, self.heading.clone(), line);
                table.skipped = skipped;
                self.doc.tables.push(table);
                self.open.push(self.doc.tables.len() - 1);
                self.in_cell = false;
                self.in_read_cell = false;
            }
            Tag::Tr => {
                if let Some(&i) = self.open.last() {
                    let tbl = &mut self.doc.tables[i];
                    if !tbl.skipped {
                        tbl.push_row();
                    }
                    self.in_cell = false;
                    self.in_read_cell = false;
                }
            }
            Tag::Td | Tag::Th => {
                if let Some(&i) = self.open.last() {
                    let tbl = &mut self.doc.tables[i];
                    if !tbl.skipped {
                        let colspan = attr
                            .and_then(|v| attr_value(v).trim().parse().ok())
                            .unwrap_or(1);
                        // The previous cell of this row, if any, is complete.
                        tbl.trim_last_cell();
                        tbl.push_cell(tag == Tag::Th, colspan);
                    }
                    self.in_cell = true;
                    self.in_read_cell = !tbl.skipped;
                }
            }
            Tag::Break if self.in_read_cell => self.cell_text(" "),
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
                self.in_read_cell = false;
            }
            Tag::Td | Tag::Th => {
                if let Some(&i) = self.open.last() {
                    close_cell(&mut self.doc.tables[i]);
                }
                self.in_cell = false;
                self.in_read_cell = false;
            }
            Tag::Tr => {
                self.in_cell = false;
                self.in_read_cell = false;
            }
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
    t.trim_last_cell();
}
