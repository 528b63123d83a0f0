//! The streaming reader: one line at a time into a reused buffer, the report being read kept in
//! reused tables and rows, a report handed out as soon as the next one starts.
//!
//! Flow: [`Reader::next`] reads lines until a report is complete; a banner starts a run, a device
//! header selects (or caches, up to `LAYOUT_CACHE`) a layout, a data line is split by the value
//! reader (`values`) and kept as a row; the report is then built from its rows, normalised through
//! its layout's plan (`plan`) or by `sysstat_normalise`, and returned.

use super::*;
use crate::disk::CpuUtil;
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------------
// Streaming reader
// ---------------------------------------------------------------------------------------------

/// Layouts remembered by one reader (header text → columns and plan): a log repeats its header
/// before every report, so this is almost always a hit on the last entry.
pub(super) const LAYOUT_CACHE: usize = 32;

/// A device header: column names, where the device name is, and how its columns normalise.
#[derive(Debug)]
pub(super) struct Layout {
    /// The header line as printed (trimmed): the cache key and the text quoted in errors.
    pub(super) key: String,
    pub(super) columns: Vec<String>,
    pub(super) device_last: bool,
    /// `None` when the plan could not be checked against [`sysstat_normalise`]: then every sample
    /// goes through it.
    pub(super) plan: Option<Plan>,
    /// Columns a sample needs converted when values are not kept.
    pub(super) used: Vec<bool>,
    /// The column names, for [`Layout::overlaps`] (one hash look-up per column, not a scan).
    pub(super) names: std::collections::HashSet<String>,
}

impl Layout {
    /// Whether the two headers share a column name (linear in the narrower one).
    pub(super) fn overlaps(&self, other: &Layout) -> bool {
        let (small, big) = if self.columns.len() <= other.columns.len() {
            (self, other)
        } else {
            (other, self)
        };
        small.columns.iter().any(|c| big.names.contains(c))
    }
}

/// A header of the current report: its layout and the line it was printed on.
#[derive(Debug)]
pub(super) struct TableRef {
    pub(super) layout: Arc<Layout>,
    pub(super) line: usize,
}

/// A data line of the current report, its text in the reader state's `arena`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub(super) line: usize,
    /// The device name (a span of the arena).
    pub(super) dev: (usize, usize),
    pub(super) group: bool,
    /// Index in the reader state's `tables`.
    pub(super) table: usize,
    /// Index in [`State::toks`] of the first value.
    pub(super) vals: usize,
}

/// The report being read (its tables and rows are in the reader's reused buffers).
#[derive(Debug)]
pub(super) struct Current {
    pub(super) timestamp: Option<String>,
    /// The report's `avg-cpu` values, once read.
    pub(super) cpu: Option<CpuUtil>,
    pub(super) since_boot: bool,
    pub(super) line: usize,
}

/// A streaming iostat reader: yields each report as soon as it is complete.
///
/// It reads one line at a time into a reused buffer (never the whole input), decodes it as UTF-8
/// (lossily when invalid: iostat prints ASCII) and keeps only the report being read, so memory
/// stays bounded by the largest report, whatever the size of the log. A UTF-8 byte-order mark at
/// the start is dropped.
///
/// Items are `Ok(report)` or `Err(e)`:
/// - a report with a bad value (not a number, or decimal commas mixed with points) gives `Err` for
///   that report and reading goes on with the next one;
/// - a malformed line (fewer or more values than its header), a read error
///   ([`ParseError::Io`], with an empty path: the caller knows it) or a text that is not iostat
///   output at all ([`ParseError::UnknownFormat`], at the end) gives `Err` and ends the iteration.
///
/// [`parse_with`] collects a reader and returns the same records.
///
/// ```
/// use sizer_parsers::iostat::{ReaderOptions, Reader};
/// let text = "Linux 5.8.0 (h) \t12/02/2021 \t_x86_64_\t(2 CPU)\n\n\
///             Device  r/s  rkB/s  %util\nsda  2.00  8.00  0.40\n\n\
///             Device  r/s  rkB/s  %util\nsda  4.00  16.00  0.80\n";
/// let opts = ReaderOptions { keep_values: false, ..ReaderOptions::default() };
/// let mut reader = Reader::new(text.as_bytes(), opts);
/// let first = reader.next().unwrap().unwrap();
/// assert!(first.since_boot);
/// assert_eq!(first.devices[0].normalised.read_bytes_per_s, Some(8192.0));
/// assert!(first.devices[0].values.is_empty());
/// assert_eq!(reader.header().unwrap().host, "h");
/// let second = reader.next().unwrap().unwrap();
/// assert_eq!(second.devices[0].normalised.read_iops, Some(4.0));
/// assert!(reader.next().is_none());
/// ```
pub struct Reader<R: BufRead> {
    pub(super) src: R,
    pub(super) st: State,
}

/// Everything a [`Reader`] knows but its source.
pub(super) struct State {
    pub(super) opts: ReaderOptions,
    pub(super) strip_bom: bool,
    /// A line split across two reads of the source.
    pub(super) partial: Vec<u8>,
    pub(super) line_no: usize,
    pub(super) header: Option<SystemHeader>,
    pub(super) warnings: Vec<String>,
    /// The unknown header names already warned about (each is warned about once; a set, so a
    /// header of 100,000 unknown names is not quadratic).
    pub(super) warned_columns: std::collections::HashSet<String>,
    pub(super) skipped: Vec<SkippedLine>,
    pub(super) cache: Vec<Arc<Layout>>,
    pub(super) seen_anything: bool,
    pub(super) seen_table: bool,
    pub(super) new_run: bool,
    pub(super) skip_cpu_values: bool,
    /// The column names of the last `avg-cpu:` header (`%user`, …, `%idle`).
    pub(super) cpu_cols: Vec<String>,
    /// 10.0.1–11.7.3 `-h`: a device name printed alone, its values on the next line.
    pub(super) pending_name: Option<(String, bool)>,
    /// Index in `tables` of the header data lines belong to.
    pub(super) active: Option<usize>,
    pub(super) cur: Option<Current>,
    // The current report, in buffers reused from one report to the next.
    pub(super) tables: Vec<TableRef>,
    /// Text of the report's data lines (trimmed), one after the other.
    pub(super) arena: String,
    /// The tokens of the report's data lines.
    pub(super) toks: Vec<Tok>,
    pub(super) rows: Vec<Row>,
    pub(super) commas: bool,
    pub(super) points: bool,
    pub(super) comma_line: Option<usize>,
    /// One sample's values, by column.
    pub(super) vals: Vec<Option<f64>>,
    pub(super) ready: Option<Result<DeviceReport, ParseError>>,
    /// The first line of the current report that did not fit its header: the report is then
    /// this error (left out by a lenient reader), and the lines after it are read on.
    pub(super) bad_line: Option<ParseError>,
    pub(super) done: bool,
    pub(super) fatal: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `src` (wrap a file in a [`std::io::BufReader`]).
    pub fn new(src: R, opts: ReaderOptions) -> Self {
        Self::with_bom(src, opts, true)
    }

    pub(super) fn with_bom(src: R, opts: ReaderOptions, strip_bom: bool) -> Self {
        Reader {
            src,
            st: State {
                opts,
                strip_bom,
                partial: Vec::new(),
                line_no: 0,
                header: None,
                warnings: Vec::new(),
                warned_columns: std::collections::HashSet::new(),
                skipped: Vec::new(),
                cache: Vec::new(),
                seen_anything: false,
                seen_table: false,
                new_run: true,
                skip_cpu_values: false,
                cpu_cols: Vec::new(),
                pending_name: None,
                active: None,
                cur: None,
                tables: Vec::new(),
                arena: String::new(),
                toks: Vec::new(),
                rows: Vec::new(),
                commas: false,
                points: false,
                comma_line: None,
                vals: Vec::new(),
                ready: None,
                bad_line: None,
                done: false,
                fatal: false,
            },
        }
    }

    /// The first banner read so far (`Linux … (host) date _arch_ (N CPU)`).
    pub fn header(&self) -> Option<&SystemHeader> {
        self.st.header.as_ref()
    }

    /// Warnings so far: unknown header names (each once) and ignored lines.
    pub fn warnings(&self) -> &[String] {
        &self.st.warnings
    }

    /// Lines left out so far. This parser rejects a malformed line with an error rather than
    /// skipping it, so this is empty; it is here so that every disk-log reader has the same
    /// interface.
    pub fn skipped(&self) -> &[SkippedLine] {
        &self.st.skipped
    }

    /// Number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.st.line_no
    }

    /// Reads lines until a report is complete, the input ends, or a fatal error. Lines are read in
    /// place in the source's buffer; only a line split across two reads is copied.
    pub(super) fn advance(&mut self) -> Option<Result<DeviceReport, ParseError>> {
        let st = &mut self.st;
        loop {
            if let Some(r) = st.ready.take() {
                return Some(r);
            }
            if st.done {
                return None;
            }
            let out = match self.src.fill_buf() {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(source) => Some(ParseError::Io {
                    path: PathBuf::new(),
                    source,
                }),
                Ok([]) if st.partial.is_empty() => st.at_eof(),
                Ok([]) => {
                    // The last line, without an end of line: read it, then come back for the end.
                    let last = std::mem::take(&mut st.partial);
                    st.bytes(&last)
                }
                Ok(avail) => match memchr(b'\n', avail) {
                    Some(i) => {
                        let out = if st.partial.is_empty() {
                            st.bytes(&avail[..i])
                        } else {
                            let mut line = std::mem::take(&mut st.partial);
                            line.extend_from_slice(&avail[..i]);
                            let out = st.bytes(&line);
                            line.clear();
                            st.partial = line;
                            out
                        };
                        self.src.consume(i + 1);
                        out
                    }
                    None => {
                        st.partial.extend_from_slice(avail);
                        let n = avail.len();
                        self.src.consume(n);
                        None
                    }
                },
            };
            if let Some(e) = out {
                st.done = true;
                st.fatal = true;
                st.ready = None;
                return Some(Err(e));
            }
        }
    }
}

impl State {
    /// One line's bytes (without the `\n`). `Some` for a fatal error.
    pub(super) fn bytes(&mut self, mut bytes: &[u8]) -> Option<ParseError> {
        self.line_no += 1;
        while let Some(b) = bytes.strip_suffix(b"\r") {
            bytes = b;
        }
        let mut text = match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(bytes),
        };
        if self.line_no == 1 && self.strip_bom {
            if let Some(s) = text.strip_prefix('\u{feff}') {
                text = Cow::Owned(s.to_string());
            }
        }
        let line = if memchr(0x1b, text.as_bytes()).is_some() {
            Cow::Owned(strip_ansi(&text).into_owned())
        } else {
            text
        };
        self.process(&line, self.line_no).err()
    }

    /// End of input: the last report, or the error for a text that held no iostat output.
    pub(super) fn at_eof(&mut self) -> Option<ParseError> {
        self.done = true;
        if !self.seen_anything || (self.header.is_none() && !self.seen_table) {
            return Some(ParseError::UnknownFormat {
                reason:
                    "expected Linux sysstat iostat output (a 'Linux … (host) date' banner and a \
                         'Device' header)"
                        .into(),
            });
        }
        self.close_report();
        None
    }

    pub(super) fn start_report(&mut self, line: usize, timestamp: Option<String>) {
        let since_boot = self.new_run && self.opts.first_is_since_boot;
        self.new_run = false;
        self.cur = Some(Current {
            timestamp,
            cpu: None,
            since_boot,
            line,
        });
    }

    /// Ends the current report: finishes it (unless it is empty) into `ready`.
    pub(super) fn close_report(&mut self) {
        let bad = self.bad_line.take();
        if let Some(c) = self.cur.take() {
            if let Some(e) = bad {
                // A line of the report did not fit its header: the report is that error (its
                // devices would add up one short), the reader goes on with the next report.
                self.ready = Some(Err(e));
            } else if c.timestamp.is_some() || !self.tables.is_empty() || !self.rows.is_empty() {
                debug_assert!(self.ready.is_none());
                self.ready = Some(self.finish(c));
            }
        }
        self.tables.clear();
        self.arena.clear();
        self.toks.clear();
        self.rows.clear();
        self.commas = false;
        self.points = false;
        self.comma_line = None;
    }

    /// One line (without its end of line, ANSI escapes removed). `Err` only for a fatal error.
    pub(super) fn process(&mut self, line: &str, no: usize) -> Result<(), ParseError> {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if self.skip_cpu_values {
            self.skip_cpu_values = false;
            if trimmed.split_whitespace().all(|t| {
                t.trim_end_matches('%')
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
            }) {
                self.cpu_values(trimmed);
                return Ok(());
            }
        }
        // Each test below is guarded by a cheap look at the first or last characters, which every
        // line it accepts has, so that data lines pass through quickly.
        if trimmed.starts_with("Linux") {
            if let Some(h) = banner_line(line) {
                self.seen_anything = true;
                self.close_report();
                self.active = None;
                self.new_run = true;
                if self.header.is_none() {
                    self.header = Some(h);
                }
                return Ok(());
            }
        }
        let first = trimmed.as_bytes()[0];
        if first == b'T' || first.is_ascii_digit() {
            if let Some(ts) = timestamp_line(trimmed) {
                self.seen_anything = true;
                self.close_report();
                self.active = None;
                self.start_report(no, Some(ts));
                return Ok(());
            }
        }
        if let Some(cols) = trimmed.strip_prefix("avg-cpu:") {
            self.seen_anything = true;
            self.skip_cpu_values = true;
            self.cpu_cols = cols.split_whitespace().map(str::to_string).collect();
            let keep = self.cur.is_some() && self.tables.is_empty() && self.rows.is_empty();
            if !keep {
                self.close_report();
                self.start_report(no, None);
            }
            self.active = None;
            return Ok(());
        }
        if (trimmed.starts_with("Device")
            || trimmed.ends_with("Device")
            || trimmed.ends_with("Device:"))
            && self.header_row(line, trimmed, no)
        {
            return Ok(());
        }
        self.data(line, trimmed, no)
    }

    /// A device header line: returns false when the line is not one.
    pub(super) fn header_row(&mut self, line: &str, trimmed: &str, no: usize) -> bool {
        let layout = match self.cache.iter().rev().find(|l| l.key == trimmed) {
            Some(l) => l.clone(),
            None => {
                let Some((columns, device_last)) = header_line(line) else {
                    return false;
                };
                for c in &columns {
                    if !known_column(c) && !self.warned_columns.contains(c) {
                        self.warned_columns.insert(c.clone());
                        self.warnings
                            .push(format!("line {no}: unknown column '{c}' kept as printed"));
                    }
                }
                let l = Arc::new(Layout::new(trimmed, columns, device_last));
                if self.cache.len() == LAYOUT_CACHE {
                    self.cache.remove(0);
                }
                self.cache.push(l.clone());
                l
            }
        };
        self.seen_anything = true;
        self.seen_table = true;
        // A header whose columns overlap the current report's tables starts a new report;
        // disjoint ones are the `--pretty -x` split of one report.
        let overlaps = self.cur.is_some()
            && self
                .tables
                .iter()
                .any(|t| Arc::ptr_eq(&t.layout, &layout) || t.layout.overlaps(&layout));
        if self.cur.is_none() || overlaps {
            self.close_report();
            self.start_report(no, None);
        }
        self.tables.push(TableRef { layout, line: no });
        self.active = Some(self.tables.len() - 1);
        self.pending_name = None;
        true
    }

    /// A line under a header (or not iostat output).
    pub(super) fn data(&mut self, line: &str, trimmed: &str, no: usize) -> Result<(), ParseError> {
        let Some(k) = self.active else {
            self.warnings.push(format!(
                "line {no}: ignored (not iostat output): '{}'",
                clip(trimmed, CLIP_SYSSTAT)
            ));
            return Ok(());
        };
        let (n, device_last) = {
            let l = &self.tables[k].layout;
            (l.columns.len(), l.device_last)
        };
        let group = !device_last && line.starts_with(' ') && !line.starts_with("  ");
        let a0 = self.arena.len();
        self.arena.push_str(trimmed);
        let t0 = self.toks.len();
        tokenize(&self.arena[a0..], a0, &mut self.toks);
        let ntok = self.toks.len() - t0;
        // 10.0.1–11.7.3 `-h`: the name alone, values on the next line.
        if !device_last && ntok == 1 && n > 0 {
            self.pending_name = Some((trimmed.to_string(), group));
            self.arena.truncate(a0);
            self.toks.truncate(t0);
            return Ok(());
        }
        let (dev, group, vals) = match self.pending_name.take() {
            Some((name, g)) if !device_last && ntok == n => {
                let s = self.arena.len();
                self.arena.push_str(&name);
                ((s, self.arena.len()), g, t0)
            }
            _ if ntok != n + 1 => {
                let t = &self.tables[k];
                let e = ParseError::section(
                    SECTION,
                    Some(no),
                    format!(
                        "a device name and {n} values under the header of line {} ('{}')",
                        t.line,
                        clip(&t.layout.key, CLIP_SYSSTAT)
                    ),
                    format!("{ntok} fields: '{}'", clip(trimmed, CLIP_SYSSTAT)),
                );
                self.arena.truncate(a0);
                self.toks.truncate(t0);
                self.bad_line.get_or_insert(e);
                return Ok(());
            }
            _ if device_last => (self.toks[t0 + n].span(), false, t0),
            _ => (self.toks[t0].span(), group, t0 + 1),
        };
        // Decimal separators of the values (the device name may hold either).
        let region = &self.arena.as_bytes()[self.toks[vals].start..self.toks[vals + n - 1].end];
        if memchr(b',', region).is_some() {
            if !self.commas {
                self.comma_line = Some(no);
            }
            self.commas = true;
        }
        if !self.points && memchr(b'.', region).is_some() {
            self.points = true;
        }
        self.rows.push(Row {
            line: no,
            dev,
            group,
            table: k,
            vals,
        });
        Ok(())
    }

    /// Converts the current report's rows into a [`DeviceReport`].
    /// The values line under `avg-cpu:`, by the header's column names; a decimal comma (`1,00`,
    /// non-C locales: percentages never have thousands) reads as a point.
    pub(super) fn cpu_values(&mut self, line: &str) {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.len() != self.cpu_cols.len() {
            return;
        }
        let values = self
            .cpu_cols
            .iter()
            .zip(toks)
            .map(|(c, t)| (c.clone(), t.replace(',', ".").parse::<f64>().ok()))
            .collect();
        if let Some(cur) = self.cur.as_mut() {
            cur.cpu = Some(CpuUtil::from_columns(values));
        }
    }

    pub(super) fn finish(&mut self, c: Current) -> Result<DeviceReport, ParseError> {
        // Decimal comma only when every separated value of the report uses one.
        if self.commas && self.points {
            return Err(ParseError::section(
                SECTION,
                self.comma_line,
                "one decimal separator in the whole report ('.' or, for a non-C locale, ',')",
                "both ',' and '.' in values".to_string(),
            ));
        }
        let devices = if self.tables.len() <= 1 {
            self.samples()?
        } else {
            self.merged_samples()?
        };
        let mut report = DeviceReport::new(c.line);
        report.timestamp = c.timestamp;
        report.since_boot = c.since_boot;
        report.devices = devices;
        report.cpu = c.cpu;
        Ok(report)
    }

    /// One table in the report (the usual case): one sample per row, normalised through the
    /// table's precomputed plan.
    pub(super) fn samples(&mut self) -> Result<Vec<DeviceSample>, ParseError> {
        let keep = self.opts.keep_values;
        let commas = self.commas;
        let (arena, toks, vals) = (&self.arena, &self.toks, &mut self.vals);
        let mut devices = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let t = &self.tables[row.table];
            let lay = &*t.layout;
            let n = lay.columns.len();
            vals.clear();
            vals.resize(n, None);
            let mut values = if keep {
                Vec::with_capacity(n)
            } else {
                Vec::new()
            };
            let cells = toks[row.vals..row.vals + n]
                .iter()
                .zip(&lay.columns)
                .zip(&lay.used);
            for (((tok, column), &used), slot) in cells.zip(vals.iter_mut()) {
                let v = if !commas && tok.num != NOT_PLAIN {
                    (keep || used).then(|| Decimal::unpack(tok.num).value())
                } else {
                    let text = &arena[tok.start..tok.end];
                    match plain_decimal(text.as_bytes(), commas) {
                        Some(d) => Some(d.value()),
                        None => cell(text, column, commas)
                            .map_err(|why| cell_error(row.line, column, t.line, why))?,
                    }
                };
                *slot = v;
                if keep {
                    values.push((column.clone(), v));
                }
            }
            let normalised = match &lay.plan {
                Some(p) => p.eval(vals),
                None => sysstat_normalise(
                    &lay.columns
                        .iter()
                        .cloned()
                        .zip(vals.iter().copied())
                        .collect::<Vec<_>>(),
                ),
            };
            devices.push(DeviceSample {
                device: arena[row.dev.0..row.dev.1].to_string(),
                group: row.group,
                host_total: false,
                values,
                normalised,
            });
        }
        Ok(devices)
    }

    /// Several tables in the report (`--pretty -x`): the same device in another table of the
    /// report gets merged into one sample.
    pub(super) fn merged_samples(&mut self) -> Result<Vec<DeviceSample>, ParseError> {
        let commas = self.commas;
        let mut devices: Vec<DeviceSample> = Vec::new();
        // Per sample, the tables merged into it; per device name and group, its samples (a
        // device is merged into its first sample that has none of the table's columns).
        let mut merged: Vec<Vec<usize>> = Vec::new();
        let mut by_device: HashMap<(String, bool), Vec<usize>> = HashMap::new();
        let overlap =
            |a: usize, b: usize| a == b || self.tables[a].layout.overlaps(&self.tables[b].layout);
        for row in &self.rows {
            let t = &self.tables[row.table];
            let columns = &t.layout.columns;
            let mut values = Vec::with_capacity(columns.len());
            for (j, c) in columns.iter().enumerate() {
                let k = row.vals + j;
                let tok = &self.arena[self.toks[k].start..self.toks[k].end];
                let v = match plain_decimal(tok.as_bytes(), commas) {
                    Some(d) => Some(d.value()),
                    None => {
                        cell(tok, c, commas).map_err(|why| cell_error(row.line, c, t.line, why))?
                    }
                };
                values.push((c.clone(), v));
            }
            let device = &self.arena[row.dev.0..row.dev.1];
            let same = by_device
                .entry((device.to_string(), row.group))
                .or_default();
            let merge = same
                .iter()
                .copied()
                .find(|&i| !merged[i].iter().any(|&t| overlap(t, row.table)));
            match merge {
                Some(i) => {
                    devices[i].values.extend(values);
                    merged[i].push(row.table);
                }
                None => {
                    same.push(devices.len());
                    merged.push(vec![row.table]);
                    devices.push(DeviceSample {
                        device: device.to_string(),
                        group: row.group,
                        host_total: false,
                        values,
                        normalised: Normalised::default(),
                    });
                }
            }
        }
        for d in &mut devices {
            d.normalised = sysstat_normalise(&d.values);
            if !self.opts.keep_values {
                d.values = Vec::new();
            }
        }
        Ok(devices)
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<DeviceReport, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.advance()
    }
}
