//! The fixed-width layout shared by Oracle's text reports (AWR text and Statspack).
//!
//! - [`clean_lines`]: the report's lines without line ends (`\r\n` or `\n`), form feeds, trailing
//!   blanks and the `OUTPUT` column heading (with its `----` underline) that SQL*Plus repeats on
//!   every page of a `DBMS_WORKLOAD_REPOSITORY.AWR_REPORT_TEXT` spool;
//! - [`sections`]: section titles, either page titles (`Instance Activity Stats  DB/Inst:
//!   BPSC/bpsc  Snaps: 2668-2669`, repeated on every page of a long section) or summary titles
//!   (a line followed by a `~~~~` line, such as `Load Profile` or `IO Profile`);
//! - [`Table`]: a table whose column spans come from its underline (`----- ------`, possibly
//!   starting with a `~~~~` label column): column names are the header words above each span,
//!   a header line with dashes and words (`---- Read ---- --- Wait ---`) groups the columns
//!   below it, and cells are cut at the spans (a value wider than its column, which Oracle
//!   right-aligns into the separator, is kept whole).
//!
//! Nothing here knows a section's meaning; `awr::text` and `awr::statspack` do.

use std::collections::HashMap;

use nom::bytes::complete::take_until;
use nom::Parser;

/// One line of a text report after clean-up.
#[derive(Debug, Clone)]
pub(crate) struct Ln {
    /// 1-based line number in the decoded text.
    pub no: usize,
    /// The text, without line end, form feeds and trailing blanks.
    pub s: String,
}

fn is_dash_only(s: &str) -> bool {
    let t = s.trim();
    t.len() >= 10 && t.bytes().all(|b| b == b'-')
}

/// Splits the text into cleaned lines (see the module doc).
pub(crate) fn clean_lines(text: &str) -> Vec<Ln> {
    let raw: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let s = raw[i].replace('\x0c', "");
        let s = s.trim_end();
        if s.trim() == "OUTPUT" && raw.get(i + 1).is_some_and(|n| is_dash_only(n)) {
            // SQL*Plus starts each page with a blank line (`newpage 1`), then the heading.
            if out.last().is_some_and(|l: &Ln| l.s.is_empty()) {
                out.pop();
            }
            i += 2;
            continue;
        }
        out.push(Ln {
            no: i + 1,
            s: s.to_string(),
        });
        i += 1;
    }
    out
}

/// Runs of non-blank characters: `(start, end, kind)` in character positions, `kind` being `-`
/// or `~` for a run of only that character, else `x`.
pub(crate) fn runs(s: &str) -> Vec<(usize, usize, char)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut kind = ' ';
    let mut n = 0;
    for (i, c) in s.chars().enumerate() {
        n = i + 1;
        if c == ' ' {
            if let Some(st) = start.take() {
                out.push((st, i, kind));
            }
            continue;
        }
        match start {
            None => {
                start = Some(i);
                kind = if c == '-' || c == '~' { c } else { 'x' };
            }
            Some(_) if kind != c => kind = 'x',
            Some(_) => {}
        }
    }
    if let Some(st) = start {
        out.push((st, n, kind));
    }
    out
}

/// A column underline: two or more runs of `-` (the first may be `~`, a label column).
pub(crate) fn is_underline(s: &str) -> bool {
    let r = runs(s);
    r.len() >= 2
        && r.iter().all(|&(_, _, k)| k == '-' || k == '~')
        && r.iter().any(|&(a, b, k)| k == '-' && b - a >= 2)
}

/// The rule that closes a section: one run of at least 10 dashes.
pub(crate) fn is_rule(s: &str) -> bool {
    let r = runs(s);
    r.len() == 1 && r[0].2 == '-' && r[0].1 - r[0].0 >= 10
}

/// The title of a page heading such as `Foreground Wait Events   DB/Inst: BPSC/bpsc  Snaps:
/// 2668-2669` (AWR and Statspack) or `System Statistics (Global)  DB: SIZRAC  Snaps: 4711-4712`.
pub(crate) fn page_title(s: &str) -> Option<String> {
    if s.starts_with(' ') || s.is_empty() {
        return None;
    }
    let found = |marker: &'static str| -> Option<(String, String)> {
        let r: nom::IResult<&str, &str> = take_until(marker).parse(s);
        r.ok()
            .map(|(rest, title)| (title.trim().to_string(), rest.to_string()))
    };
    let (title, rest) = found("DB/Inst:").or_else(|| found(" DB: "))?;
    (!title.is_empty() && rest.contains("Snap")).then_some(title)
}

/// A summary title: the line's text up to its first run of two blanks (`Load Profile      Per
/// Second …` → `Load Profile`).
fn summary_title(s: &str) -> String {
    let t = s.trim();
    t.split("  ").next().unwrap_or("").trim().to_string()
}

/// A section of the report: from its title line up to the next title.
#[derive(Debug, Clone)]
pub(crate) struct Section {
    /// The title, e.g. `Instance Activity Stats`, `Load Profile`.
    pub title: String,
    /// Index (in the cleaned lines) of the title line.
    pub at: usize,
    /// Index of the next section's title (or the number of lines).
    pub end: usize,
}

/// Every section title from line index `from` on.
pub(crate) fn sections(lines: &[Ln], from: usize) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for i in from..lines.len() {
        let s = &lines[i].s;
        let title = if let Some(t) = page_title(s) {
            t
        } else if !s.trim().is_empty()
            && !s.trim_start().starts_with('~')
            && !is_underline(s)
            && lines.get(i + 1).is_some_and(|n| n.s.starts_with('~'))
        {
            // `IO Profile` above `~~~~~~~~~~`, or `Load Profile     Per Second …` above
            // `~~~~~~  -------` (title and column header in one line).
            summary_title(s)
        } else {
            continue;
        };
        if let Some(last) = out.last_mut() {
            last.end = i;
        }
        out.push(Section {
            title,
            at: i,
            end: lines.len(),
        });
    }
    out
}

/// Normalised name for comparisons: lower case, single blanks.
pub(crate) fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// One column of a [`Table`].
#[derive(Debug, Clone)]
pub(crate) struct Col {
    /// First character position of its underline run.
    pub start: usize,
    /// One past the last position.
    pub end: usize,
    /// A `~~~~` run (the label column of `Load Profile`-like tables).
    pub tilde: bool,
    /// Header words above the run, joined by one blank (`Total Wait Time (s)`).
    pub name: String,
    /// The group word(s) of a `---- Read ----` header line above it, if any.
    pub group: String,
}

/// A fixed-width table: its columns and where its rows start.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    /// Index of the underline in the cleaned lines.
    pub at: usize,
    /// The columns, left to right.
    pub cols: Vec<Col>,
    /// The header lines (trimmed), to recognise a repeated header between rows.
    pub header: Vec<String>,
}

impl Table {
    /// Builds the table whose underline is at `at`; header lines are taken from above it, back
    /// to a blank line, a `->` note, a page title, a `~~~~` line or line index `top` (the
    /// section's title line, included), at most four lines.
    pub fn at(lines: &[Ln], at: usize, top: usize) -> Table {
        let mut cols: Vec<Col> = runs(&lines[at].s)
            .into_iter()
            .map(|(start, end, k)| Col {
                start,
                end,
                tilde: k == '~',
                name: String::new(),
                group: String::new(),
            })
            .collect();
        let mut hdr = Vec::new();
        let mut k = at;
        while k > top && hdr.len() < 4 {
            k -= 1;
            let s = &lines[k].s;
            let t = s.trim();
            if t.is_empty()
                || t.starts_with("->")
                || is_underline(s)
                || is_rule(s)
                || page_title(s).is_some()
                || t.chars().all(|c| c == '~')
            {
                break;
            }
            hdr.push(k);
        }
        hdr.reverse();
        for &h in &hdr {
            let text: String = lines[h]
                .s
                .chars()
                .map(|c| if c == '~' { ' ' } else { c })
                .collect();
            let r = runs(&text);
            let dashes = r.iter().any(|&(a, b, k)| k == '-' && b - a >= 3);
            let words = r.iter().any(|&(_, _, k)| k == 'x');
            if dashes && words {
                group_line(&r, &text, &mut cols);
                continue;
            }
            let chars: Vec<char> = text.chars().collect();
            for &(a, b, _) in &r {
                let best = cols
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i, b.min(c.end).saturating_sub(a.max(c.start))))
                    .filter(|&(_, o)| o > 0)
                    .max_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0)));
                if let Some((i, _)) = best {
                    let word: String = chars[a..b].iter().collect();
                    let name = &mut cols[i].name;
                    if !name.is_empty() {
                        name.push(' ');
                    }
                    name.push_str(&word);
                }
            }
        }
        Table {
            at,
            cols,
            header: hdr.iter().map(|&h| lines[h].s.trim().to_string()).collect(),
        }
    }

    /// Every table of a section, in order.
    pub fn all_in(lines: &[Ln], sec: &Section) -> Vec<Table> {
        (sec.at + 1..sec.end)
            .filter(|&i| is_underline(&lines[i].s))
            .map(|i| Table::at(lines, i, sec.at))
            .collect()
    }

    /// The first column whose normalised name is one of `names`.
    pub fn col(&self, names: &[&str]) -> Option<usize> {
        names.iter().find_map(|n| {
            self.cols
                .iter()
                .position(|c| norm(&c.name) == *n && !c.tilde)
        })
    }

    /// Width of column `i` (its underline run).
    pub fn width(&self, i: usize) -> usize {
        self.cols[i].end - self.cols[i].start
    }

    /// Indices of the row lines, up to `end`: blank lines are skipped (spools add some), a
    /// repeat of the header is skipped, and the rows stop at an underline, a section rule, a
    /// `->` note or `End of Report`.
    pub fn rows(&self, lines: &[Ln], end: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, l) in lines.iter().enumerate().take(end).skip(self.at + 1) {
            let t = l.s.trim();
            if t.is_empty() || self.header.iter().any(|h| h == t) {
                continue;
            }
            if is_underline(&l.s)
                || is_rule(&l.s)
                || t.starts_with("->")
                || t.starts_with("End of Report")
            {
                break;
            }
            out.push(i);
        }
        out
    }

    /// The cells of a row line, trimmed. A `~` first column takes everything left of the next
    /// column; the last column runs to the end of the line; a value that overflows its column to
    /// the left (into the separator) is kept whole in its own column.
    pub fn cells(&self, s: &str) -> Vec<String> {
        let ch: Vec<char> = s.chars().collect();
        let n = self.cols.len();
        let mut st: Vec<usize> = self.cols.iter().map(|c| c.start).collect();
        let mut en: Vec<usize> = self.cols.iter().map(|c| c.end).collect();
        if n == 0 {
            return Vec::new();
        }
        if self.cols[0].tilde {
            st[0] = 0;
            if n > 1 {
                en[0] = self.cols[1].start.saturating_sub(1);
            }
        }
        en[n - 1] = en[n - 1].max(ch.len());
        for i in 1..n {
            let s0 = st[i];
            if s0 > 0 && s0 < ch.len() && ch[s0] != ' ' && ch[s0 - 1] != ' ' {
                let mut j = s0;
                while j > st[i - 1] + 1 && ch[j - 1] != ' ' {
                    j -= 1;
                }
                st[i] = j;
                en[i - 1] = en[i - 1].min(j);
            }
        }
        (0..n)
            .map(|i| {
                let (a, b) = (st[i].min(ch.len()), en[i].min(ch.len()));
                if a >= b {
                    String::new()
                } else {
                    ch[a..b].iter().collect::<String>().trim().to_string()
                }
            })
            .collect()
    }

    /// The text left of column `i` (the row label of `Load Profile`-like tables), trimmed.
    pub fn label(&self, s: &str, i: usize) -> String {
        s.chars()
            .take(self.cols[i].start)
            .collect::<String>()
            .trim()
            .to_string()
    }

    /// Does the text of column `i` reach the column's last position (a name that may be cut)?
    pub fn fills(&self, s: &str, i: usize) -> bool {
        let c = &self.cols[i];
        s.chars()
            .nth(c.end.saturating_sub(1))
            .is_some_and(|x| x != ' ')
    }

    /// Normalised column name → cell of the first row (the first column of a name wins).
    pub fn first_record(&self, lines: &[Ln], end: usize) -> HashMap<String, String> {
        let mut m = HashMap::new();
        if let Some(&r) = self.rows(lines, end).first() {
            for (c, v) in self.cols.iter().zip(self.cells(&lines[r].s)) {
                if !c.name.is_empty() {
                    m.entry(norm(&c.name)).or_insert(v);
                }
            }
        }
        m
    }
}

/// Applies a group header line (`---------- Read --------- --- Wait ----`): each label (words
/// between dash runs) covers its own extent and the dash runs next to it; a column whose middle
/// falls inside gets the label as its group.
fn group_line(r: &[(usize, usize, char)], text: &str, cols: &mut [Col]) {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < r.len() {
        if r[i].2 == '-' {
            i += 1;
            continue;
        }
        let first = i;
        while i + 1 < r.len() && r[i + 1].2 != '-' {
            i += 1;
        }
        let last = i;
        let label: String = chars[r[first].0..r[last].1].iter().collect();
        let lo = if first > 0 && r[first - 1].2 == '-' {
            r[first - 1].0
        } else {
            r[first].0
        };
        let hi = if last + 1 < r.len() && r[last + 1].2 == '-' {
            r[last + 1].1
        } else {
            r[last].1
        };
        for c in cols.iter_mut() {
            let mid = (c.start + c.end) / 2;
            if mid >= lo && mid < hi {
                c.group = label.clone();
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<Ln> {
        clean_lines(s)
    }

    #[test]
    fn spool_output_headings_form_feeds_and_crlf_are_removed() {
        let l = lines("a\r\n\x0cb  \r\n\r\nOUTPUT\r\n------------------------\r\nc");
        let v: Vec<(usize, &str)> = l.iter().map(|l| (l.no, l.s.as_str())).collect();
        assert_eq!(v, vec![(1, "a"), (2, "b"), (6, "c")]);
    }

    #[test]
    fn underlines_rules_and_titles() {
        assert!(is_underline("------------ ----------- ---"));
        assert!(is_underline(
            "~~~~~~~~~~~~~~~            ---------------   ---"
        ));
        assert!(!is_underline("~~~~~~~~~~~~~~"));
        assert!(!is_underline("     ---------- Read --------- ---"));
        assert!(is_rule(
            "          -------------------------------------------------"
        ));
        assert_eq!(
            page_title("Key Instance Activity Stats   DB/Inst: BPSC/bpsc  Snaps: 2668-2669"),
            Some("Key Instance Activity Stats".into())
        );
        assert_eq!(page_title("  x DB/Inst: a Snaps: 1-2"), None);
        let l = lines(
            "Load Profile      Per Second\n~~~~~~~~~~~~  ----------  ---\nIO Profile\n~~~~~~~~~~\n",
        );
        let s = sections(&l, 0);
        let t: Vec<&str> = s.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(t, vec!["Load Profile", "IO Profile"]);
        assert_eq!((s[0].end, s[1].at), (2, 2));
    }

    #[test]
    fn columns_take_their_names_from_the_header_words_above_them() {
        let l = lines(concat!(
            "                                                Total\n",
            "                                       %Time     Wait              Waits   % DB\n",
            "Event                            Waits -outs Time (s)  Avg wait     /txn   time\n",
            "-------------------------- ----------- ----- -------- --------- -------- ------\n",
            "db file sequential read        360,121             40  109.72us      4.8    1.0\n",
            "dispatcher timer                    61   100    3,660   60.00 s      0.0\n",
        ));
        let t = Table::at(&l, 3, 0);
        let names: Vec<&str> = t.cols.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "Event",
                "Waits",
                "%Time -outs",
                "Total Wait Time (s)",
                "Avg wait",
                "Waits /txn",
                "% DB time"
            ]
        );
        assert_eq!(t.rows(&l, l.len()), vec![4, 5]);
        assert_eq!(t.cells(&l[4].s)[4], "109.72us");
        assert_eq!(t.cells(&l[5].s)[4], "60.00 s", "a value with a blank in it");
        // A value wider than its column, right-aligned into the separator and the column to its
        // left (blank here), stays whole.
        let wide = format!("{:<10}{:>28}", "latch free", "123,456,789,012");
        let c = t.cells(&wide);
        assert_eq!(
            (c[0].as_str(), c[1].as_str()),
            ("latch free", "123,456,789,012")
        );
    }

    #[test]
    fn group_lines_and_label_columns() {
        let l = lines(concat!(
            "               ---------- Read --------- --- Wait ----\n",
            "                 Data  Requests    Data          Avg\n",
            "Function        Volume     /sec  Vol/sec  Count Tm(ms)\n",
            "--------------- ------ -------- -------- ------ ------\n",
            "Buffer Cache Re  2330M      2.1       .0M   175K    0.0\n",
        ));
        let t = Table::at(&l, 3, 0);
        let g: Vec<(&str, &str)> = t
            .cols
            .iter()
            .map(|c| (c.group.as_str(), c.name.as_str()))
            .collect();
        assert_eq!(
            g,
            vec![
                ("", "Function"),
                ("Read", "Data Volume"),
                ("Read", "Requests /sec"),
                ("Read", "Data Vol/sec"),
                ("Wait", "Count"),
                ("Wait", "Avg Tm(ms)")
            ]
        );
        let l = lines(concat!(
            "Load Profile                    Per Second   Per Transaction\n",
            "~~~~~~~~~~~~~~~            ---------------   ---------------\n",
            "Physical write (blocks):              30.4               1.5\n",
        ));
        let t = Table::at(&l, 1, 0);
        assert_eq!(t.col(&["per second"]), Some(1));
        assert_eq!(t.label(&l[2].s, 1), "Physical write (blocks):");
        assert_eq!(t.cells(&l[2].s)[1], "30.4");
    }
}
