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
//! skipped (only searched for the next `<`) and never allocated. A table keeps the text of all
//! its cells in one string and its cells in one list (a cell is a range of that string), so a
//! report's ~30,000 cells cost a few allocations per table, not one or two per cell. Line numbers
//! are counted incrementally, so the bytes are counted once in total. [`parse_skipping`] leaves
//! out the rows of tables the caller never reads.
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
//!
//! # Module layout
//! Flow: [`parse`] hands the text to the `scanner`, one pass from `<` to `<` that reads each tag
//! with the lexing helpers of `tags` (tag names, attributes, comment and raw-text ends) and
//! decodes character references with `entities`; it reports start tags, end tags and text to the
//! `builder`, which groups them into the [`Document`]'s [`Table`]s (rows, cells, headings, line
//! numbers). This file holds the public types and their lookups ([`Table::columns`],
//! [`Table::data`], …).

mod builder;
mod entities;
mod scanner;
mod tags;
#[cfg(test)]
mod tests;

/// One cell as a table stores it: where its text lies in the table's text, whether it was a
/// `<th>`, and its `colspan`. Read it through [`Table::rows`], which gives [`CellRef`]s.
///
/// A table keeps the text of all its cells in one string and its cells in one list, so a
/// report's ~30,000 cells cost a few allocations per table instead of two or three per cell
/// (one `String` per cell and one `Vec` per row cost about a fifth of a fleet run in `malloc`
/// and `free`: `docs/performance.md`, "Fleet CPU").
#[derive(Debug, Clone, PartialEq)]
struct Cell {
    /// Byte range of the text in [`Table::text`].
    start: usize,
    end: usize,
    header: bool,
    colspan: usize,
}

/// One cell of a row: its text with white space collapsed, and whether it was a `<th>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellRef<'a> {
    /// Text content; runs of white space (including no-break spaces) collapsed to one space, trimmed.
    pub text: &'a str,
    /// `true` for `<th>`.
    pub header: bool,
    /// The `colspan` attribute (1 when absent).
    pub colspan: usize,
}

/// One row of a table: its cells in order ([`Row::cells`]).
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    text: &'a str,
    cells: &'a [Cell],
}

impl<'a> Row<'a> {
    /// Number of cells (`<td>` and `<th>`, a `colspan` counting once).
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the row has no cell (`<tr></tr>`).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Cell `i`, if the row has it.
    pub fn get(&self, i: usize) -> Option<CellRef<'a>> {
        let row = *self;
        self.cells.get(i).map(|c| row.cell(c))
    }

    /// The cells in order.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = CellRef<'a>> + Clone + 'a {
        let row = *self;
        self.cells.iter().map(move |c| row.cell(c))
    }

    /// The cell texts in order.
    pub fn texts(&self) -> Vec<&'a str> {
        self.cells().map(|c| c.text).collect()
    }

    fn cell(self, c: &Cell) -> CellRef<'a> {
        CellRef {
            text: &self.text[c.start..c.end],
            header: c.header,
            colspan: c.colspan,
        }
    }
}

/// One `<table>` of the document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// The `summary` attribute, white space collapsed.
    pub summary: String,
    /// The text of the last `<h1>`, `<h2>` or `<h3>` before the table (AWR's section title).
    pub heading: String,
    /// 1-based line of the `<table>` tag.
    pub line: usize,
    /// Whether `</table>` was seen.
    pub closed: bool,
    /// Whether the caller skipped this table's rows ([`parse_skipping`]): it has none.
    skipped: bool,
    /// The text of every cell, one after the other, in document order.
    text: String,
    /// Every cell in document order.
    cells: Vec<Cell>,
    /// Index in `cells` of each row's first cell; row `r` ends where row `r + 1` starts.
    row_starts: Vec<usize>,
}

impl Table {
    /// An empty table with these texts (no rows).
    fn new(summary: String, heading: String, line: usize) -> Table {
        Table {
            summary,
            heading,
            line,
            ..Table::default()
        }
    }

    /// Whether its rows were skipped ([`parse_skipping`]): then it has none, whatever the markup
    /// held.
    pub fn skipped(&self) -> bool {
        self.skipped
    }

    /// Number of rows, header rows included.
    pub fn row_count(&self) -> usize {
        self.row_starts.len()
    }

    /// Row `r`, if the table has it.
    pub fn row(&self, r: usize) -> Option<Row<'_>> {
        (r < self.row_count()).then(|| self.row_at(r))
    }

    /// Rows in document order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = Row<'_>> + '_ {
        (0..self.row_count()).map(|r| self.row_at(r))
    }

    /// Row `r`, which the table has (`r < row_count()`).
    fn row_at(&self, r: usize) -> Row<'_> {
        let start = self.row_starts[r];
        let end = self
            .row_starts
            .get(r + 1)
            .copied()
            .unwrap_or(self.cells.len());
        Row {
            text: &self.text,
            cells: &self.cells[start..end],
        }
    }

    /// Starts a new, empty row.
    fn push_row(&mut self) {
        self.row_starts.push(self.cells.len());
    }

    /// Appends an empty cell to the last row (starting a row first when there is none).
    fn push_cell(&mut self, header: bool, colspan: usize) {
        if self.row_starts.is_empty() {
            self.push_row();
        }
        let at = self.text.len();
        self.cells.push(Cell {
            start: at,
            end: at,
            header,
            colspan,
        });
    }

    /// Whether the last row has a cell (the one cell text goes to).
    fn has_open_cell(&self) -> bool {
        self.row_starts
            .last()
            .is_some_and(|&s| s < self.cells.len())
    }

    /// Drops trailing spaces from the last cell of the last row, if that row has a cell.
    fn trim_last_cell(&mut self) {
        if !self.has_open_cell() {
            return;
        }
        if let Some(c) = self.cells.last_mut() {
            let bytes = self.text.as_bytes();
            let mut end = c.end;
            while end > c.start && bytes[end - 1] == b' ' {
                end -= 1;
            }
            if end != c.end {
                c.end = end;
                self.text.truncate(end);
            }
        }
    }

    /// Number of leading header rows: rows with at least one `<th>` whose other cells are empty
    /// `<td>`s (AWR's RAC reports pad group-header rows with `<td>&#160;</td>`).
    pub fn header_rows(&self) -> usize {
        self.rows()
            .take_while(|row| {
                row.cells().any(|c| c.header) && row.cells().all(|c| c.header || c.text.is_empty())
            })
            .count()
    }

    /// Column names: the last header row, expanded by `colspan` so that index `i` names column `i`.
    pub fn columns(&self) -> Vec<String> {
        let n = self.header_rows();
        let Some(row) = n.checked_sub(1).and_then(|r| self.row(r)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for c in row.cells() {
            for _ in 0..c.colspan.max(1) {
                out.push(c.text.to_string());
            }
        }
        out
    }

    /// Data rows (all rows after the header rows), as cell texts.
    pub fn data(&self) -> impl Iterator<Item = Vec<&str>> {
        self.rows().skip(self.header_rows()).map(|row| row.texts())
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
    /// The first `<title>` text (a later one, such as an Exadata section's, is ignored).
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

/// Parses `text` and collects its tables.
pub fn parse(text: &str) -> Document {
    parse_skipping(text, &|_| false)
}

/// [`parse`], except that a table whose `summary` (white space collapsed) `skip` holds for, and
/// any table nested in one of its cells, keeps its summary, heading, line and `closed` but no
/// rows ([`Table::skipped`]): the scanner still reads its markup, for the document's structure,
/// but collects none of its text. Everything else is as [`parse`] gives it.
///
/// A caller that reads only some sections skips the large ones it never reads (an AWR report's
/// SQL text and latch tables are about 40 % of its bytes).
pub fn parse_skipping(text: &str, skip: &dyn Fn(&str) -> bool) -> Document {
    scanner::Scanner::new(text, skip).run()
}
