//! HTML tables as labelled cells: the raw layer under the AWR HTML parser.
//!
//! [`parse`] reduces a document to its [`Table`]s, remembering for each table its `summary`
//! attribute and the nearest heading (`<h1>`…`<h3>`) before it, because AWR sections are found by
//! those texts, never by their position in the file.
//!
//! # The scanner
//! A purpose-built, single-pass byte scanner, not a general HTML tokenizer. It jumps from `<` to
//! `<` with [`memchr`](mod@memchr), classifies the tag name case-insensitively (`TABLE`, `Td`),
//! reads only the `summary` attribute of `<table>` and `colspan` of `<td>`/`<th>`, and
//! materialises text only inside `<td>`/`<th>`, `<h1>`–`<h3>` and `<title>`; all other text is
//! skipped (only searched for the next `<`) and never allocated. A cell's text is collected in
//! one reused buffer and copied into the cell once. Line numbers are counted incrementally, so
//! the bytes are counted once in total.
//!
//! Why not a WHATWG tokenizer: batch runs size hundreds of reports, and a general tokenizer
//! (html5gum, used here before) builds every tag, attribute map and text token of a 2 MB report
//! (~30,000 cells) only to throw most of them away. With it, table extraction ran at 55–70 MB/s
//! per core and the whole AWR parse at 45–55 reports/s, against a target of 90 reports/s (about
//! 200 MB/s for this layer); this scanner runs at several hundred MB/s (measure with
//! `cargo run --release -p sizer-parsers --example parse_speed -- FILE...`).
//! html5gum remains the reference: `parsers/tests/html_equivalence.rs` keeps the previous
//! html5gum-based implementation and asserts that both give the same [`Document`] for every
//! report of the corpus, every fixture, and generated tag soup, prefixes and mutations.
//!
//! # Markup it follows (as the WHATWG tokenizer does)
//! - Tag names and attribute names in any case; attribute values double-quoted, single-quoted
//!   (both may contain `>`) or unquoted; the first of duplicate attributes wins; `<td/>` is a
//!   start tag like `<td>` (HTML ignores the `/`); `<` not followed by a letter, `!`, `/` or `?`
//!   is text; a tag cut by the end of the file is dropped.
//! - CR and CRLF (browser re-saves) are white space like LF; lines are counted by LF.
//! - Comments `<!-- … -->` (also `--!>`, and the abrupt `<!-->` / `<!--->`), `<!DOCTYPE …>`,
//!   `<?xml … ?>`, `<![CDATA[`, `</ …>` and other bogus comments, which end at the first `>`.
//! - The elements whose content is not markup: `<title>` and `<textarea>` (text with character
//!   references), `<script>` (including its `<!--` escape rules), `<style>`, `<xmp>`,
//!   `<iframe>`, `<noembed>`, `<noframe>`, `<noscript>` (raw text) and `<plaintext>` (the rest of
//!   the file) — the same list html5gum's naive state switching uses. Their content ends at the
//!   matching end tag only; it counts as text where text is collected (a `<title>` or `<style>`
//!   inside a cell adds its text to the cell, as it did with html5gum).
//! - Character references: numeric (`&#160;`, `&#xA0;`, `&#39;`, with or without `;`, with the
//!   WHATWG replacements for 0, surrogates, out-of-range values and the C1 range) and named. The
//!   named ones decoded are `&amp; &lt; &gt; &quot; &apos; &nbsp;`, every legacy name that HTML
//!   also accepts without `;` (`&nbsp`, `&copy`, `&eacute`, … 106 names), the 40 longer names that
//!   begin with a legacy one (`&notin;`, `&ltimes;`, … so that longest-match works as in WHATWG)
//!   and common typographic ones (`&hellip; &ndash; &mdash; &lsquo; &rsquo; &euro; &trade;` …).
//!   Without `;` a legacy name is decoded in text but kept in an attribute value when a letter,
//!   digit or `=` follows. An unknown name is kept literally.
//! - Text is white-space collapsed per cell/heading/title: runs of white space, including the
//!   no-break space U+00A0 that `&nbsp;` gives, become one space; leading and trailing space is
//!   dropped. `<br>`, `<p>` and `<div>` inside a cell add a space.
//!
//! # Structure
//! A `<tr>` starts a row, a `<td>`/`<th>` starts a cell (closing the previous one; a cell before
//! any `<tr>` starts a row), `</td>`, `</th>` and `</tr>` leave the cell. A `<table>` start tag
//! while the innermost open table is not inside a cell closes that table first (HTML5 behaviour
//! that Oracle's own Exadata sections rely on); inside a cell it opens a nested table, which
//! follows its parent in [`Document::tables`]. Text before `<html>` and after `</html>`
//! (SQL*Plus spool output) is read like any other text.
//!
//! # Deliberate difference from html5gum
//! html5gum decodes all 2,231 WHATWG named references; this scanner keeps a named reference that
//! ends in `;` and is not in its table (say `&alpha;`) as it is written. AWR reports only use
//! `&amp; &lt; &gt; &quot; &apos; &nbsp;` and numeric references, and a report that contained
//! another name would still be read (only the text of that cell would differ).
//!
//! # Module layout
//! Flow: [`parse`] runs one byte scanner over the text (tags, comments, scripts), a builder
//! groups its tags and text into [`Table`]s, and `entities` decodes character references in
//! text and attribute values.

use std::borrow::Cow;

use memchr::{memchr, memchr2, memmem};

mod entities;
use entities::*;

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
fn count_newlines(b: &[u8]) -> usize {
    let mut chunks = b.chunks_exact(64);
    let mut n = 0;
    for c in &mut chunks {
        n += usize::from(c.iter().map(|&x| u8::from(x == b'\n')).sum::<u8>());
    }
    n + chunks.remainder().iter().filter(|&&x| x == b'\n').count()
}

/// The tags the scanner tells apart; everything else is [`Tag::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Table,
    Tr,
    Td,
    Th,
    /// `<br>`, `<p>`, `<div>`: a space inside a cell.
    Break,
    /// `<h1>`, `<h2>`, `<h3>`.
    Heading,
    Title,
    Html,
    Body,
    /// `<textarea>`: text with character references up to `</textarea>`, like `<title>`.
    Textarea,
    Script,
    /// `<style>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframe>`, `<noscript>`: raw text.
    RawText,
    /// `<plaintext>`: the rest of the file is text.
    Plaintext,
    Other,
}

fn classify(name: &[u8]) -> Tag {
    let mut buf = [0u8; 9];
    let Some(low) = buf.get_mut(..name.len()) else {
        return Tag::Other;
    };
    for (d, s) in low.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    match &*low {
        b"table" => Tag::Table,
        b"tr" => Tag::Tr,
        b"td" => Tag::Td,
        b"th" => Tag::Th,
        b"br" | b"p" | b"div" => Tag::Break,
        b"h1" | b"h2" | b"h3" => Tag::Heading,
        b"title" => Tag::Title,
        b"html" => Tag::Html,
        b"body" => Tag::Body,
        b"textarea" => Tag::Textarea,
        b"script" => Tag::Script,
        // html5gum's `naive_next_state` list ("noframe", not "noframes").
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframe" | b"noscript" => Tag::RawText,
        b"plaintext" => Tag::Plaintext,
        _ => Tag::Other,
    }
}

/// White space inside tags (CR too: the WHATWG input stream turns it into LF).
#[inline]
fn is_tag_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Ends a tag or attribute name.
#[inline]
fn ends_name(c: u8) -> bool {
    is_tag_space(c) || c == b'/' || c == b'>'
}

/// Which attributes of a start tag to keep.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    None,
    Summary,
    Colspan,
}

/// Reads the rest of a tag from `i` (just after its name) to its `>`, keeping the raw value of
/// the first attribute named like `want`. Returns the offset after `>` and that value, or `None`
/// when the file ends inside the tag (the tag is then dropped, as WHATWG does).
fn tag_rest(b: &[u8], mut i: usize, want: Want) -> Option<(usize, Option<(usize, usize)>)> {
    let n = b.len();
    // Fast path: no attributes (`<tr>`, `</td>`).
    if b.get(i) == Some(&b'>') {
        return Some((i + 1, None));
    }
    let wanted: &[u8] = match want {
        Want::None => b"",
        Want::Summary => b"summary",
        Want::Colspan => b"colspan",
    };
    let mut found: Option<(usize, usize)> = None;
    // Whether the last attribute read is the wanted one and may still get a value.
    let mut current = false;
    // After an attribute name (may be followed by `=`), as opposed to before one.
    let mut after_name = false;
    loop {
        while i < n && is_tag_space(b[i]) {
            i += 1;
        }
        let c = *b.get(i)?;
        match c {
            b'>' => return Some((i + 1, found)),
            b'/' => {
                // Self-closing start tag state: `/>` ends the tag, anything else is reconsumed
                // before an attribute name.
                i += 1;
                if *b.get(i)? == b'>' {
                    return Some((i + 1, found));
                }
                after_name = false;
                current = false;
            }
            b'=' if after_name => {
                i += 1;
                while i < n && is_tag_space(b[i]) {
                    i += 1;
                }
                let (start, end) = match *b.get(i)? {
                    q @ (b'"' | b'\'') => {
                        let end = i + 1 + memchr(q, &b[i + 1..])?;
                        let v = (i + 1, end);
                        i = end + 1;
                        v
                    }
                    b'>' => (i, i),
                    _ => {
                        let start = i;
                        while i < n && !is_tag_space(b[i]) && b[i] != b'>' {
                            i += 1;
                        }
                        if i == n {
                            return None;
                        }
                        (start, i)
                    }
                };
                if current {
                    found = Some((start, end));
                }
                after_name = false;
                current = false;
            }
            _ => {
                // An attribute name; a leading `=` belongs to it.
                let start = i;
                i += 1;
                while i < n && !ends_name(b[i]) && b[i] != b'=' {
                    i += 1;
                }
                // The first attribute of a name wins, with or without a value.
                current = want != Want::None
                    && found.is_none()
                    && b[start..i].eq_ignore_ascii_case(wanted);
                if current {
                    found = Some((i, i));
                }
                after_name = true;
            }
        }
    }
}

/// Where the end tag `</name` (any case, followed by space, `/` or `>`) of a raw-text element
/// starts at or after `from`, and where its name ends.
fn find_end_tag(b: &[u8], mut from: usize, name: &[u8]) -> Option<(usize, usize)> {
    while let Some(k) = memchr(b'<', &b[from..]) {
        let lt = from + k;
        let end = lt + 2 + name.len();
        if b.get(lt + 1) == Some(&b'/')
            && b.get(lt + 2..end)
                .is_some_and(|s| s.eq_ignore_ascii_case(name))
            && b.get(end).is_some_and(|&c| ends_name(c))
        {
            return Some((lt, end));
        }
        from = lt + 1;
    }
    None
}

/// Where `</script` ends the content of a `<script>` that starts at `from`, following the WHATWG
/// script data states (`<!--` escapes, and `<script>` inside them, during which `</script>` does
/// not end the element). Returns the offset of `<` and the end of the name.
fn find_script_end(b: &[u8], from: usize) -> Option<(usize, usize)> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Data,
        Escaped,
        EscapedDash,
        EscapedDashDash,
        Double,
        DoubleDash,
        DoubleDashDash,
    }
    let n = b.len();
    let alpha_run = |i: usize| {
        let mut j = i;
        while j < n && b[j].is_ascii_alphabetic() {
            j += 1;
        }
        j
    };
    let mut s = S::Data;
    let mut i = from;
    while i < n {
        let c = b[i];
        match s {
            S::Data => {
                let k = memchr(b'<', &b[i..])?;
                let lt = i + k;
                match b.get(lt + 1) {
                    Some(b'/') => {
                        let end = alpha_run(lt + 2);
                        if b[lt + 2..end].eq_ignore_ascii_case(b"script")
                            && b.get(end).is_some_and(|&c| ends_name(c))
                        {
                            return Some((lt, end));
                        }
                        i = lt + 2;
                    }
                    Some(b'!') => {
                        if b.get(lt + 2..lt + 4) == Some(b"--") {
                            // The second `-` leads to the escaped dash dash state.
                            s = S::EscapedDashDash;
                            i = lt + 4;
                        } else {
                            i = lt + 2;
                        }
                    }
                    _ => i = lt + 1,
                }
                continue;
            }
            S::Escaped | S::EscapedDash | S::EscapedDashDash => {
                match c {
                    b'-' => {
                        s = match s {
                            S::Escaped => S::EscapedDash,
                            _ => S::EscapedDashDash,
                        }
                    }
                    b'<' => {
                        match b.get(i + 1) {
                            Some(b'/') => {
                                let end = alpha_run(i + 2);
                                if b[i + 2..end].eq_ignore_ascii_case(b"script")
                                    && b.get(end).is_some_and(|&c| ends_name(c))
                                {
                                    return Some((i, end));
                                }
                                s = S::Escaped;
                                i = end.max(i + 2);
                                continue;
                            }
                            Some(c) if c.is_ascii_alphabetic() => {
                                let end = alpha_run(i + 1);
                                s = if b[i + 1..end].eq_ignore_ascii_case(b"script")
                                    && b.get(end).is_some_and(|&c| ends_name(c))
                                {
                                    S::Double
                                } else {
                                    S::Escaped
                                };
                                // The delimiter after the name is consumed by the switch.
                                i = if s == S::Double { end + 1 } else { end };
                                continue;
                            }
                            _ => s = S::Escaped,
                        }
                    }
                    b'>' if s == S::EscapedDashDash => s = S::Data,
                    _ => s = S::Escaped,
                }
            }
            S::Double | S::DoubleDash | S::DoubleDashDash => match c {
                b'-' => {
                    s = match s {
                        S::Double => S::DoubleDash,
                        _ => S::DoubleDashDash,
                    }
                }
                b'<' => {
                    if b.get(i + 1) == Some(&b'/') {
                        let end = alpha_run(i + 2);
                        if b[i + 2..end].eq_ignore_ascii_case(b"script")
                            && b.get(end).is_some_and(|&c| ends_name(c))
                        {
                            s = S::Escaped;
                            i = end + 1;
                        } else {
                            s = S::Double;
                            i = end;
                        }
                        continue;
                    }
                    s = S::Double;
                }
                b'>' if s == S::DoubleDashDash => s = S::Data,
                _ => s = S::Double,
            },
        }
        i += 1;
    }
    None
}

/// Groups the scanner's tags and text into the [`Document`].
struct Builder<'a> {
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

impl Builder<'_> {
    /// Whether text is being collected at all (else it is skipped unread).
    #[inline]
    fn collecting(&self) -> bool {
        self.in_cell || self.in_heading.is_some() || self.in_title.is_some()
    }

    fn text(&mut self, s: &str) {
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
    fn start_tag(&mut self, tag: Tag, attr: Option<&str>, offset: usize) {
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
    fn end_tag(&mut self, tag: Tag, offset: usize) {
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
                    self.doc.title = h;
                }
            }
            Tag::Html => self.doc.saw_html_end = true,
            _ => {}
        }
    }

    fn finish(mut self) -> Document {
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

/// The single pass over the document.
struct Scanner<'a> {
    src: &'a str,
    out: Builder<'a>,
    /// Reused buffer for text with character references.
    scratch: String,
}

impl<'a> Scanner<'a> {
    /// Text in the data state (or RCDATA with `nul`): character references decoded.
    fn text(&mut self, from: usize, to: usize, nul: bool) {
        if from >= to || !self.out.collecting() {
            return;
        }
        let s = &self.src[from..to];
        let b = s.as_bytes();
        let special = if nul {
            memchr2(b'&', 0, b).is_some()
        } else {
            memchr(b'&', b).is_some()
        };
        if special {
            let mut buf = std::mem::take(&mut self.scratch);
            buf.clear();
            decode_into(s, false, nul, &mut buf);
            self.out.text(&buf);
            self.scratch = buf;
        } else {
            self.out.text(s);
        }
    }

    /// Raw text (script, style, …): only NUL is replaced.
    fn raw_text(&mut self, from: usize, to: usize) {
        if from >= to || !self.out.collecting() {
            return;
        }
        let s = &self.src[from..to];
        if s.contains('\0') {
            self.out.text(&s.replace('\0', "\u{FFFD}"));
        } else {
            self.out.text(s);
        }
    }

    fn run(&mut self) {
        let src: &'a str = self.src;
        let b = src.as_bytes();
        let n = b.len();
        let mut pos = 0;
        while pos < n {
            let Some(k) = memchr(b'<', &b[pos..]) else {
                self.text(pos, n, false);
                return;
            };
            let lt = pos + k;
            self.text(pos, lt, false);
            let Some(&c) = b.get(lt + 1) else {
                self.out.text("<");
                return;
            };
            if c.is_ascii_alphabetic() {
                let mut i = lt + 2;
                while i < n && !ends_name(b[i]) {
                    i += 1;
                }
                let name = &b[lt + 1..i];
                let tag = classify(name);
                let want = match tag {
                    Tag::Table => Want::Summary,
                    Tag::Td | Tag::Th => Want::Colspan,
                    _ => Want::None,
                };
                let Some((end, attr)) = tag_rest(b, i, want) else {
                    return;
                };
                self.out.start_tag(tag, attr.map(|(s, e)| &src[s..e]), lt);
                pos = match tag {
                    Tag::Title | Tag::Textarea => self.until_end_tag(end, name, tag, true),
                    Tag::RawText => self.until_end_tag(end, name, tag, false),
                    Tag::Script => match find_script_end(b, end) {
                        Some((lt2, name_end)) => {
                            self.raw_text(end, lt2);
                            self.end_tag_at(lt2, name_end, tag)
                        }
                        None => {
                            self.raw_text(end, n);
                            n
                        }
                    },
                    Tag::Plaintext => {
                        self.raw_text(end, n);
                        n
                    }
                    _ => end,
                };
            } else if c == b'/' {
                match b.get(lt + 2) {
                    None => {
                        self.out.text("</");
                        return;
                    }
                    Some(b'>') => pos = lt + 3,
                    Some(x) if x.is_ascii_alphabetic() => {
                        let mut i = lt + 3;
                        while i < n && !ends_name(b[i]) {
                            i += 1;
                        }
                        let tag = classify(&b[lt + 2..i]);
                        pos = self.end_tag_at(lt, i, tag);
                    }
                    Some(_) => pos = bogus_comment_end(b, lt + 2),
                }
            } else if c == b'!' {
                pos = if b.get(lt + 2..lt + 4) == Some(b"--") {
                    comment_end(b, lt)
                } else {
                    // <!DOCTYPE …>, <![CDATA[ (a bogus comment in HTML), <!anything>.
                    bogus_comment_end(b, lt + 2)
                };
            } else if c == b'?' {
                pos = bogus_comment_end(b, lt + 2);
            } else {
                // `<` not starting a tag is text; the next character is read normally.
                self.out.text("<");
                pos = lt + 1;
            }
        }
    }

    /// The content of `<title>`/`<textarea>` (`rcdata`) or a raw-text element, then its end tag.
    fn until_end_tag(&mut self, from: usize, name: &[u8], tag: Tag, rcdata: bool) -> usize {
        let b = self.src.as_bytes();
        match find_end_tag(b, from, name) {
            Some((lt, name_end)) => {
                if rcdata {
                    self.text(from, lt, true);
                } else {
                    self.raw_text(from, lt);
                }
                self.end_tag_at(lt, name_end, tag)
            }
            None => {
                if rcdata {
                    self.text(from, b.len(), true);
                } else {
                    self.raw_text(from, b.len());
                }
                b.len()
            }
        }
    }

    /// An end tag whose `<` is at `lt` and whose name ends at `name_end`: reads to its `>` and
    /// returns the offset after it (the end of the file when the tag is cut).
    fn end_tag_at(&mut self, lt: usize, name_end: usize, tag: Tag) -> usize {
        let b = self.src.as_bytes();
        match tag_rest(b, name_end, Want::None) {
            Some((end, _)) => {
                self.out.end_tag(tag, lt);
                end
            }
            None => b.len(),
        }
    }
}

/// The offset after the `>` that ends a bogus comment (or doctype) whose content starts at `from`.
fn bogus_comment_end(b: &[u8], from: usize) -> usize {
    match b.get(from..).and_then(|r| memchr(b'>', r)) {
        Some(k) => from + k + 1,
        None => b.len(),
    }
}

/// The offset after the end of the comment `<!--` at `lt`: the first `-->` (which may share the
/// dashes of `<!--`, as in `<!-->` and `<!--->`) or `--!>`.
fn comment_end(b: &[u8], lt: usize) -> usize {
    let arrow = memmem::find(&b[lt + 2..], b"-->").map(|k| lt + 2 + k + 3);
    // `--!>` can only end the comment before the first `-->`: search no further than that.
    let limit = arrow.unwrap_or(b.len());
    let bang = b
        .get(lt + 4..limit)
        .and_then(|r| memmem::find(r, b"--!>"))
        .map(|k| lt + 4 + k + 4);
    match (arrow, bang) {
        (_, Some(e)) => e,
        (Some(e), None) => e,
        (None, None) => b.len(),
    }
}

/// Parses `text` and collects its tables.
pub fn parse(text: &str) -> Document {
    let mut s = Scanner {
        src: text,
        out: Builder {
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
        },
        scratch: String::new(),
    };
    s.run();
    s.out.finish()
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

    /// The cell texts of table `t`, row by row.
    fn cells(d: &Document, t: usize) -> Vec<Vec<&str>> {
        d.tables[t]
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn tag_names_in_any_case() {
        let d = parse("<TaBlE SUMMARY=s><Tr><tH>h</TH><Td>1</tD></tR></TABLE >");
        assert_eq!(d.tables[0].summary, "s");
        assert!(d.tables[0].closed);
        assert_eq!(cells(&d, 0), vec![vec!["h", "1"]]);
        assert!(d.tables[0].rows[0][0].header && !d.tables[0].rows[0][1].header);
    }

    #[test]
    fn attributes_in_every_quoting() {
        let d = parse(concat!(
            "<table summary=\"double  quoted > still\">",
            "<table summary='single &amp; quoted'>",
            "<table border=0 summary=unquoted width=600>",
            "<table summary = spaced >",
            "<table summary=first summary=second>",
            "<table summary>",
            "<table class=\"a>b\" summary=after-quote>",
            "<table\r\nSUMMARY='crlf'\r\n>",
        ));
        let s: Vec<_> = d.tables.iter().map(|t| t.summary.as_str()).collect();
        assert_eq!(
            s,
            vec![
                "double quoted > still",
                "single & quoted",
                "unquoted",
                "spaced",
                "first",
                "",
                "after-quote",
                "crlf"
            ]
        );
    }

    #[test]
    fn colspan_in_every_quoting_and_invalid_is_one() {
        let d = parse(concat!(
            "<table><tr><td colspan=2>a<td colspan='3'>b<td COLSPAN=\"4\">c",
            "<td colspan = 5 >d<td colspan=x>e<td colspan=>f<td class='colspan=7'>g",
            "<td colspan=\" 6 \">h<td colspan=2 colspan=9>i",
        ));
        let spans: Vec<_> = d.tables[0].rows[0].iter().map(|c| c.colspan).collect();
        assert_eq!(spans, vec![2, 3, 4, 5, 1, 1, 1, 6, 2]);
    }

    #[test]
    fn text_is_collected_only_in_cells_headings_and_title() {
        let d = parse(concat!(
            "<html><head><title> AWR  Report </title></head><body>ignored text",
            "<h2>Main\n Report</h2><table><tr>row text<td> a\t b </td> between <th>c</th></tr>",
            "</table>after</body></html>",
        ));
        assert_eq!(d.title, "AWR Report");
        assert_eq!(d.headings, vec![("Main Report".to_string(), 2)]);
        assert_eq!(cells(&d, 0), vec![vec!["a b", "c"]]);
        assert_eq!(d.tables[0].heading, "Main Report");
    }

    #[test]
    fn br_p_div_in_a_cell_add_a_space() {
        let d = parse("<table><tr><td>a<br>b<BR/>c<p>d</p><div>e</div></td></tr></table>");
        assert_eq!(cells(&d, 0), vec![vec!["a b c d e"]]);
        // Not in a heading: only cells get the space.
        let d = parse("<h3>a<br>b</h3>");
        assert_eq!(d.headings[0].0, "ab");
    }

    #[test]
    fn comments_are_skipped() {
        let d = parse(concat!(
            "<!-- <table summary=no> -->",
            "<table summary=yes><tr><td>a<!-- </td><td> -->b</td>",
            "<!--><td>abrupt</td><!---><td>abrupt2</td>",
            "<!-- bang --!><td>bang</td><!-- a -- b --><td>dashes</td></tr></table>",
        ));
        assert_eq!(d.tables.len(), 1);
        assert_eq!(d.tables[0].summary, "yes");
        assert_eq!(
            cells(&d, 0),
            vec![vec!["ab", "abrupt", "abrupt2", "bang", "dashes"]]
        );
        // An unclosed comment hides the rest of the file.
        assert!(parse("<!-- <table>").tables.is_empty());
    }

    #[test]
    fn script_and_style_are_raw_text() {
        let d = parse(concat!(
            "<script type=\"text/javascript\">document.write('<table summary=no>');",
            "if (a<b && c>d) {}</script>",
            "<style>td > b { color: red } /* <table> */</STYLE >",
            "<script><!-- <script> </script> <table summary=no> --></script>",
            "<table summary=yes></table>",
        ));
        assert_eq!(d.tables.len(), 1);
        assert_eq!(d.tables[0].summary, "yes");
    }

    #[test]
    fn doctype_xml_declaration_and_cdata() {
        let d = parse(concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x.dtd\">\n",
            "<!doctype html><table summary=t><tr><td>1<![CDATA[ x ]]>2</td></tr></table>",
        ));
        assert_eq!(d.tables[0].line, 3);
        assert_eq!(cells(&d, 0), vec![vec!["12"]]);
        // In HTML, CDATA is a bogus comment that ends at the first `>`.
        let d = parse("<table><tr><td><![CDATA[ a > b ]]></td></tr></table>");
        assert_eq!(cells(&d, 0), vec![vec!["b ]]>"]]);
    }

    #[test]
    fn self_closing_td_is_an_empty_cell() {
        let d =
            parse("<table><tr><td/><td>x</td><th/><td colspan='2'/><td colspan=2/></tr></table>");
        assert_eq!(cells(&d, 0), vec![vec!["", "x", "", "", ""]]);
        assert!(d.tables[0].rows[0][2].header);
        assert_eq!(d.tables[0].rows[0][3].colspan, 2);
        // Unquoted, the `/` is part of the value ("2/"), as in WHATWG: not a number.
        assert_eq!(d.tables[0].rows[0][4].colspan, 1);
        // HTML ignores the `/`: text after `<td/>` belongs to that cell.
        let d = parse("<table><tr><td/>y<td>z</tr></table>");
        assert_eq!(cells(&d, 0), vec![vec!["y", "z"]]);
    }

    #[test]
    fn character_references() {
        let d = parse(concat!(
            "<table><tr><td>a&nbsp;b&#160;c&#xA0;d&#xa0-e&#xa0e</td>",
            "<td>&amp; &lt; &gt; &quot; &apos; &#39; &AMP; &LT</td>",
            "<td>&zzz; &amp &ampx &nbspy &#; &#x; & ;</td>",
            "<td>&#0;&#128;&#x110000;&#xD800;&#8364;&#x20ac;</td>",
            "<td>&hellip;&ndash;&copy;&notin;&notit;</td>",
            "<td>&nbsp;&#160;</td></tr></table>",
        ));
        assert_eq!(
            cells(&d, 0),
            vec![vec![
                "a b c d -e\u{a0e}",
                "& < > \" ' ' & <",
                "&zzz; & &x y &#; &#x; & ;",
                "\u{fffd}€\u{fffd}\u{fffd}€€",
                "…–©∉¬it;",
                "",
            ]]
        );
        // In an attribute, a legacy name without `;` followed by a letter or `=` stays.
        let d = parse("<table summary='&copy=1 &copyx &copy; &copy'>");
        assert_eq!(d.tables[0].summary, "&copy=1 &copyx © ©");
    }

    #[test]
    fn text_before_html_and_after_html_end() {
        let d = parse(concat!(
            "SQL> @awrrpt\n<td>x</td>\n",
            "<html><table><tr><td>1</td></tr></table></html>\nSQL> <td>y</td> exit",
        ));
        assert!(d.saw_html && d.saw_html_end);
        assert_eq!(d.tables.len(), 1);
        assert_eq!(d.tables[0].line, 3);
        assert!(!parse("SQL> select 1 from dual;").saw_html);
        assert!(parse("<BODY>").saw_html);
    }

    #[test]
    fn nested_tables_follow_their_parent() {
        let d = parse(concat!(
            "<table summary=outer><tr><td>a<table summary=inner><tr><td>b</td></tr></table>",
            "</td><td>c</td></tr></table><table summary=next></table>",
        ));
        let s: Vec<_> = d.tables.iter().map(|t| t.summary.as_str()).collect();
        assert_eq!(s, vec!["outer", "inner", "next"]);
        assert_eq!(cells(&d, 0), vec![vec!["a", "c"]]);
        assert_eq!(cells(&d, 1), vec![vec!["b"]]);
        assert!(d.tables.iter().all(|t| t.closed));
    }

    #[test]
    fn lines_are_counted_by_lf_including_crlf() {
        let d = parse("<h3>A</h3>\r\n<table>\r\n\r\n<table>\n<h1>\nB\n</h1><table>\r");
        let lines: Vec<_> = d.tables.iter().map(|t| t.line).collect();
        assert_eq!(lines, vec![2, 4, 7]);
        assert_eq!(d.headings, vec![("A".into(), 1), ("B".into(), 7)]);
        assert_eq!(d.tables[2].heading, "B");
    }

    #[test]
    fn lt_that_starts_no_tag_is_text() {
        let d = parse("<table><tr><td>a < b <3 <= c</td><td>x<</td><td></ y>z</td></tr></table>");
        assert_eq!(cells(&d, 0), vec![vec!["a < b <3 <= c", "x<", "z"]]);
    }

    #[test]
    fn title_is_text_up_to_its_end_tag() {
        let d = parse("<title>AWR <b>Report</b> &amp; <table></TITLE ><table summary=t>");
        assert_eq!(d.title, "AWR <b>Report</b> & <table>");
        assert_eq!(d.tables.len(), 1);
    }

    #[test]
    fn a_tag_cut_by_the_end_of_the_file_is_dropped() {
        let d = parse("<table><tr><td>x</td><td colspan='2");
        assert_eq!(cells(&d, 0), vec![vec!["x"]]);
        assert!(!d.tables[0].closed);
        assert!(parse("<table summary=\"a").tables.is_empty());
    }

    #[test]
    fn a_cell_before_any_row_starts_one() {
        let d = parse("<table><td>a</td><tr><td>b</td></table>");
        assert_eq!(cells(&d, 0), vec![vec!["a"], vec!["b"]]);
    }

    #[test]
    fn unicode_white_space_is_collapsed() {
        let d = parse("<table><tr><td>\u{3000}a\u{2009}\u{a0} b\u{85}</td><td>é</td></tr>");
        assert_eq!(cells(&d, 0), vec![vec!["a b", "é"]]);
    }

    #[test]
    fn entity_table_is_sorted_and_legacy_names_are_short() {
        // `entity` searches by bisection, and `decode_into` tries legacy prefixes of at most 6.
        assert!(ENTITIES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(ENTITIES.iter().all(|e| e.0.len() >= 2));
        assert_eq!(ENTITIES.iter().filter(|e| e.2).count(), 106);
        assert!(ENTITIES.iter().filter(|e| e.2).all(|e| e.0.len() <= 6));
        for name in ["amp", "lt", "gt", "quot", "apos", "nbsp"] {
            assert!(entity(name.as_bytes()).is_some(), "{name}");
        }
    }

    #[test]
    fn count_newlines_matches_naive() {
        let s: Vec<u8> = (0..1000u32)
            .map(|i| if i % 7 == 0 { b'\n' } else { b'x' })
            .collect();
        for n in [0, 1, 63, 64, 65, 128, 999, 1000] {
            let naive = s[..n].iter().filter(|&&c| c == b'\n').count();
            assert_eq!(count_newlines(&s[..n]), naive, "{n}");
        }
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
