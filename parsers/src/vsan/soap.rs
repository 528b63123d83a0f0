//! vSAN performance query results as SOAP XML, and the support-bundle perf-stats dump (format id
//! `vsan_soap`).
//!
//! # Layouts
//! - **Support-bundle dump** (`perf_stats_with_dump`, `selective_with_dump`; `vsan-formats.md`
//!   §3): the line `--------------SOAP stats dump--------------`, then one
//!   `pyVmomi.SoapAdapter.Serialize(VsanPerfEntityMetricCSV[])` document per query page, each on
//!   one line, separated by `--------------Stats Segment Separator--------------` lines:
//!   ```text
//!   --------------SOAP stats dump--------------
//!   <obj xmlns:xsi="…" xsi:type="ArrayOfVsanPerfEntityMetricCSV"><VsanPerfEntityMetricCSV><entityRefId>cluster-domclient:52f1…</entityRefId><sampleInfo>2024-03-12 10:05:00,…</sampleInfo><value><metricId><label>iopsRead</label>…<metricsCollectInterval>300</metricsCollectInterval></metricId><values>120,…</values></value>…</VsanPerfEntityMetricCSV>…</obj>
//!   --------------Stats Segment Separator--------------
//!   <obj …>…</obj>
//!   ```
//!   (markers and one-document-per-line layout as read by Broadcom's own dump parser and
//!   HCIBench's `_convert_perf_stats_to_json`, which takes `obj` → `VsanPerfEntityMetricCSV`).
//! - **A SOAP response body** of `VsanPerfQueryPerf`: `soapenv:Envelope` → `Body` →
//!   `VsanPerfQueryPerfResponse` → `returnval` elements (`xsi:type="VsanPerfEntityMetricCSV"`),
//!   as in the corpus `otel_vcenterreceiver_mock_cluster-vsan.xml` (the OpenTelemetry vcenter
//!   receiver's test mock). A `Fault` element is an error quoting its `faultstring`.
//! - **The dump script's text form** (`perf_stats` without `_with_dump`):
//!   `--------------Perf Service Entity Stats--------------` then pyVmomi's `str()` of each
//!   object, one property per line (`entityRefId = 'cluster-domclient:…',`, `sampleInfo = '…',`,
//!   `label = 'iopsRead',`, `metricsCollectInterval = 300,`, `values = '1,2'`; `<unset>` for an
//!   unset property). Read line by line on those keys, as Broadcom's `ParseText` does [I: no
//!   public sample was found; layout inferred from that parser and pyVmomi's `str()` form].
//!
//! The XML is read by element **local names** (namespace prefixes dropped), with a small element
//! scanner: start/end/empty tags, attributes (ignored, quoted `>` allowed), `<?…?>`, comments,
//! `<!DOCTYPE …>`, CDATA, and the entities `&lt; &gt; &amp; &quot; &apos; &#N; &#xN;`. Every
//! element with an `entityRefId` child is one `VsanPerfEntityMetricCSV`, whatever its own name
//! (`returnval`, `VsanPerfEntityMetricCSV`); its `sampleInfo` child gives the times and each
//! `value` child one series (`metricId/label`, `metricId/metricsCollectInterval`, `values`).
//! Text outside elements (the dump's markers, shell prompts) is ignored. Conversion, units,
//! missing cells (`None`, empty) and the errors for a count mismatch or a bad number are those of
//! [`crate::vsan`] (shared with [`crate::vsan::json`]), with the entity's line.
//!
//! # Streaming
//! The input is read from a reader, decoded on the fly, never held whole: the first 64 KiB
//! choose the layout (as detection does); the text form is then read line by line, keeping the
//! entity being read; the XML scanner works on a buffer refilled from the reader, holding only
//! the construct it has not finished (a tag, a text, a comment) and the open elements, each with
//! the children an entity or a fault is read from. Each entity becomes series as soon as its
//! element closes; any other element is dropped when it closes. (An entity nested in another
//! one, which no export writes, is so converted before its parent rather than after.)
//!
//! A document cut short (a bundle truncated mid-line) keeps its complete entities: the entity
//! being written when the text stops is counted in [`EntityLog::skipped`] and warned. A closing
//! tag that does not match the open element is an error naming the line.
//!
//! ```
//! let dump = "--------------SOAP stats dump--------------\n\
//!   <obj><VsanPerfEntityMetricCSV><entityRefId>cache-disk:52c9</entityRefId>\
//!   <sampleInfo>2024-03-12 10:05:00,2024-03-12 10:10:00</sampleInfo><value><metricId>\
//!   <label>latencyDevDAvg</label></metricId><values>380,None</values></value>\
//!   </VsanPerfEntityMetricCSV></obj>\n";
//! let log = sizer_parsers::vsan::soap::parse(dump).unwrap();
//! assert_eq!(log.series[0].values, vec![Some(0.38), None]);
//! ```

use std::borrow::Cow;
use std::io::{BufRead, Read};

use memchr::memmem;

use super::{head, no_data, push_metric_csv, MetricCsv, Notes, SeriesCsv};
use crate::entity::{EntityLog, SkippedLine};
use crate::error::ParseError;

/// Section name used in errors.
const SECTION: &str = "vSAN performance query result (SOAP)";

/// The dump's first line.
pub const DUMP_HEADER: &str = "--------------SOAP stats dump--------------";
/// The line between two query pages of the dump.
pub const DUMP_SEPARATOR: &str = "--------------Stats Segment Separator--------------";
/// The first line of the dump script's text (non-SOAP) form.
pub const TEXT_HEADER: &str = "--------------Perf Service Entity Stats--------------";

/// The dump markers, the pyVmomi text form, or an XML document (first non-blank character `<`)
/// naming `VsanPerfEntityMetricCSV` or holding an `entityRefId` element, in the first 64 KiB.
pub fn looks_like(text: &str) -> bool {
    let h = head(text);
    if h.contains(DUMP_HEADER) || h.contains(TEXT_HEADER) || is_text_form(h) {
        return true;
    }
    let t = h.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('<')
        && (t.contains("VsanPerfEntityMetricCSV")
            || t.contains("<entityRefId")
            || t.contains(":entityRefId"))
}

fn is_text_form(h: &str) -> bool {
    h.contains(TEXT_HEADER) || h.contains("(vim.cluster.VsanPerfEntityMetricCSV)")
}

/// Parses a dump, a SOAP body or the text form.
///
/// # Errors
/// See the module doc.
pub fn parse(text: &str) -> Result<EntityLog, ParseError> {
    read(&mut text.as_bytes())
}

/// Reads a dump, a SOAP body or the text form from `src` (already decompressed; decoded on the
/// fly as [`crate::input::decode`] does), converting each entity as soon as its element (or, in
/// the text form, its last line) has been read.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else see the module doc.
pub(crate) fn read(src: &mut dyn BufRead) -> Result<EntityLog, ParseError> {
    let mut rd = crate::sysstat_json::DecodeReader::new(src);
    // The first 64 KiB choose the layout, as detection does.
    let mut first = Vec::with_capacity(crate::lines::HEAD_BYTES);
    (&mut rd)
        .take(crate::lines::HEAD_BYTES as u64)
        .read_to_end(&mut first)
        .map_err(io_error)?;
    let valid = match std::str::from_utf8(&first) {
        Ok(_) => first.len(),
        Err(e) => e.valid_up_to(),
    };
    let h = std::str::from_utf8(&first[..valid]).unwrap_or("");
    let text_form = is_text_form(h) && !h.contains(DUMP_HEADER);
    let mut log = EntityLog::new("vsan_soap");
    let mut notes = Notes::default();
    if text_form {
        let mut lines = std::io::BufReader::new(std::io::Cursor::new(first).chain(rd));
        parse_text_form(&mut lines, &mut log, &mut notes)?;
    } else {
        let mut win = Window {
            src: &mut rd,
            buf: first,
            pos: 0,
            eof: false,
        };
        let mut sink =
            |m: Result<MetricCsv, SkippedLine>, log: &mut EntityLog| -> Result<(), ParseError> {
                match m {
                    Ok(m) => push_metric_csv(log, &mut notes, &m),
                    Err(skip) => {
                        log.warn(format!("line {}: {}", skip.line, skip.reason));
                        log.skipped.push(skip);
                        Ok(())
                    }
                }
            };
        scan(&mut win, &mut log, &mut sink)?;
    }
    notes.finish(&mut log);
    if log.series.is_empty() {
        return Err(no_data(
            SECTION,
            "VsanPerfEntityMetricCSV elements (`entityRefId`, `sampleInfo`, `value`)",
        ));
    }
    Ok(log)
}

fn io_error(source: std::io::Error) -> ParseError {
    ParseError::Io {
        path: Default::default(),
        source,
    }
}

// ---------------------------------------------------------------------------------------------
// Element scanner
// ---------------------------------------------------------------------------------------------

/// An element being read: its name, its text (for the elements whose text is read, see
/// [`TEXT`]), the line of its start tag and the children it keeps (see [`KEPT`]).
#[derive(Debug)]
struct Node {
    name: String,
    text: String,
    children: Vec<Node>,
    line: usize,
}

/// The elements a `VsanPerfEntityMetricCSV` (or a `Fault`) is read from: kept as children of
/// their parent once closed; every other element is dropped when it closes (an entity after
/// its conversion).
const KEPT: &[&str] = &[
    "entityRefId",
    "sampleInfo",
    "value",
    "metricId",
    "label",
    "metricsCollectInterval",
    "values",
    "faultstring",
];

/// The elements whose text is read.
const TEXT: &[&str] = &[
    "entityRefId",
    "sampleInfo",
    "label",
    "metricsCollectInterval",
    "values",
    "faultstring",
];

/// The unread part of the input: `buf[pos..]`, refilled from `src` when a construct does not end
/// in it (the consumed part is dropped then).
struct Window<'r> {
    src: &'r mut dyn BufRead,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
}

impl Window<'_> {
    /// Reads more input: false at its end.
    fn more(&mut self) -> Result<bool, ParseError> {
        if self.eof {
            return Ok(false);
        }
        self.buf.drain(..self.pos);
        self.pos = 0;
        let chunk = self.src.fill_buf().map_err(io_error)?;
        if chunk.is_empty() {
            self.eof = true;
            return Ok(false);
        }
        self.buf.extend_from_slice(chunk);
        let n = chunk.len();
        self.src.consume(n);
        Ok(true)
    }
}

/// A slice of the decoded input as text (it is UTF-8, cut at ASCII bytes).
fn text_of(b: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(b)
}

type Sink<'a> =
    dyn FnMut(Result<MetricCsv, SkippedLine>, &mut EntityLog) -> Result<(), ParseError> + 'a;

/// The local part of a qualified name (`soapenv:Body` → `Body`).
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// Replaces the XML entities of a text.
fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let Some(j) = after.find(';').filter(|&j| j <= 10) else {
            out.push('&');
            rest = after;
            continue;
        };
        let ent = &after[..j];
        let ch = match ent {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => {
                let n = if let Some(h) = ent.strip_prefix("#x").or(ent.strip_prefix("#X")) {
                    u32::from_str_radix(h, 16).ok()
                } else if let Some(d) = ent.strip_prefix('#') {
                    d.parse().ok()
                } else {
                    None
                };
                n.and_then(char::from_u32)
            }
        };
        match ch {
            Some(c) => {
                out.push(c);
                rest = &after[j + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Index of the `>` ending a start tag that begins at `from` (after `<`), skipping quoted
/// attribute values.
fn tag_end(b: &[u8], from: usize) -> Option<usize> {
    let mut q: Option<u8> = None;
    for (i, &c) in b.iter().enumerate().skip(from) {
        match q {
            Some(x) if c == x => q = None,
            Some(_) => {}
            None if c == b'"' || c == b'\'' => q = Some(c),
            None if c == b'>' => return Some(i),
            None => {}
        }
    }
    None
}

/// Scans the XML, handing each entity (or the skip of a truncated one) to `sink` as soon as its
/// element closes. Only the open elements are held (with the children an entity is read from),
/// and only the unfinished construct of the input (a tag, a text, a comment).
fn scan(win: &mut Window<'_>, log: &mut EntityLog, sink: &mut Sink) -> Result<(), ParseError> {
    let mut stack: Vec<Node> = Vec::new();
    let mut line = 1;
    // Where the warnings of the open top-level element begin: a cut is warned before them.
    let mut mark = log.warnings.len();
    let mut truncated = false;
    loop {
        let b = &win.buf[..];
        let pos = win.pos;
        let count = |from: usize, to: usize| memchr::memchr_iter(b'\n', &b[from..to]).count();
        let Some(off) = memchr::memchr(b'<', &b[pos..]) else {
            if stack.is_empty() {
                // Text outside elements is ignored: drop it.
                line += count(pos, b.len());
                win.pos = b.len();
            }
            if win.more()? {
                continue;
            }
            break;
        };
        let lt = pos + off;
        if let Some(top) = stack.last_mut() {
            if TEXT.contains(&top.name.as_str()) {
                top.text.push_str(&unescape(&text_of(&b[pos..lt])));
            }
        }
        line += count(pos, lt);
        win.pos = lt;
        let rest = &b[lt..];
        let find = |pat: &[u8]| memmem::find(rest, pat).map(|i| lt + i);
        // The end of the construct at `lt`, or None when the input stops inside it.
        let end = if rest.starts_with(b"<?") {
            find(b"?>").map(|e| (e, e + 2))
        } else if rest.starts_with(b"<!--") {
            find(b"-->").map(|e| (e, e + 3))
        } else if rest.starts_with(b"<![CDATA[") {
            find(b"]]>").map(|e| (e, e + 3))
        } else if rest.starts_with(b"<!") {
            tag_end(b, lt + 2).map(|e| (e, e + 1))
        } else if rest.starts_with(b"</") {
            memchr::memchr(b'>', rest).map(|i| (lt + i, lt + i + 1))
        } else {
            tag_end(b, lt + 1).map(|e| (e, e + 1))
        };
        let Some((e, next)) = end else {
            if win.more()? {
                continue;
            }
            truncated = true;
            break;
        };
        if rest.starts_with(b"<![CDATA[") {
            if let Some(top) = stack.last_mut() {
                if TEXT.contains(&top.name.as_str()) {
                    top.text.push_str(&text_of(&b[lt + 9..e]));
                }
            }
        } else if rest.starts_with(b"</") {
            let name_text = text_of(&b[lt + 2..e]);
            let name = local(name_text.trim());
            let Some(top) = stack.pop() else {
                return Err(ParseError::section(
                    SECTION,
                    Some(line),
                    "an XML element to close",
                    format!("`</{name}>` with no open element"),
                ));
            };
            if top.name != name {
                return Err(ParseError::section(
                    SECTION,
                    Some(line),
                    format!(
                        "`</{}>` closing the element opened on line {}",
                        top.name, top.line
                    ),
                    format!("`</{name}>`"),
                ));
            }
            close(top, &mut stack, log, sink)?;
            if stack.is_empty() {
                mark = log.warnings.len();
            }
        } else if !rest.starts_with(b"<!") && !rest.starts_with(b"<?") {
            let inner_text = text_of(&b[lt + 1..e]);
            let inner: &str = &inner_text;
            let empty = inner.ends_with('/');
            let inner = inner.strip_suffix('/').unwrap_or(inner);
            let name_end = inner
                .find(|c: char| c.is_whitespace())
                .unwrap_or(inner.len());
            let node = Node {
                name: local(&inner[..name_end]).to_string(),
                text: String::new(),
                children: Vec::new(),
                line,
            };
            if empty {
                close(node, &mut stack, log, sink)?;
                if stack.is_empty() {
                    mark = log.warnings.len();
                }
            } else {
                stack.push(node);
            }
        }
        line += count(lt, e);
        win.pos = next;
    }
    if !stack.is_empty() || truncated {
        log.warnings.insert(
            mark.min(log.warnings.len()),
            format!(
                "the XML stops at line {line} before its elements are closed (truncated file): \
                 the entities written completely are kept"
            ),
        );
        // The open elements, outermost first: a fault is an error, an entity is left out. The
        // next open element is a child too (the last one).
        for (i, n) in stack.iter().enumerate() {
            let open = stack.get(i + 1);
            fault(n, open)?;
            let r = child(n, "entityRefId").or(open.filter(|c| c.name == "entityRefId"));
            if let Some(r) = r {
                sink(
                    Err(SkippedLine {
                        line: n.line,
                        reason: format!(
                            "entity `{}` cut short by the end of the text: left out",
                            r.text.trim()
                        ),
                    }),
                    log,
                )?;
            }
        }
    }
    Ok(())
}

fn child<'a>(n: &'a Node, name: &str) -> Option<&'a Node> {
    n.children.iter().find(|c| c.name == name)
}

/// The error for a `Fault` element, quoting its `faultstring` (among its closed children, or
/// `open`, the child still open when the text stops).
fn fault(n: &Node, open: Option<&Node>) -> Result<(), ParseError> {
    if n.name != "Fault" {
        return Ok(());
    }
    let msg = child(n, "faultstring")
        .or(open.filter(|c| c.name == "faultstring"))
        .map(|c| c.text.trim().to_string())
        .unwrap_or_default();
    Err(ParseError::section(
        SECTION,
        Some(n.line),
        "a VsanPerfQueryPerf response",
        format!("a SOAP fault: {msg}"),
    ))
}

/// An element has closed: a fault is an error, an entity is converted; the element is kept as
/// a child of its parent when an entity is read from it ([`KEPT`]).
fn close(
    n: Node,
    stack: &mut [Node],
    log: &mut EntityLog,
    sink: &mut Sink,
) -> Result<(), ParseError> {
    fault(&n, None)?;
    if let Some(r) = child(&n, "entityRefId") {
        let mut m = MetricCsv {
            ref_id: r.text.trim().to_string(),
            sample_info: child(&n, "sampleInfo").map(|s| s.text.clone()),
            line: Some(n.line),
            ..MetricCsv::default()
        };
        for v in n.children.iter().filter(|c| c.name == "value") {
            let id = child(v, "metricId");
            let label = id
                .and_then(|id| child(id, "label"))
                .map(|l| l.text.trim().to_string())
                .unwrap_or_default();
            if label.is_empty() {
                return Err(ParseError::section(
                    SECTION,
                    Some(v.line),
                    format!("`metricId/label` in every `value` of `{}`", m.ref_id),
                    "a series without a label".to_string(),
                ));
            }
            m.series.push(SeriesCsv {
                label,
                interval: id
                    .and_then(|id| child(id, "metricsCollectInterval"))
                    .and_then(|i| i.text.trim().parse().ok()),
                values: child(v, "values").map(|x| x.text.clone()),
            });
        }
        sink(Ok(m), log)?;
    }
    if let Some(parent) = stack.last_mut() {
        if KEPT.contains(&n.name.as_str()) {
            parent.children.push(n);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// pyVmomi text form
// ---------------------------------------------------------------------------------------------

/// The value of a `key = 'text',` line (`None` for `<unset>`).
fn py_value(rest: &str) -> Option<String> {
    let r = rest.trim().trim_end_matches(',').trim();
    if r == "<unset>" {
        return None;
    }
    if let (Some(a), Some(z)) = (r.find('\''), r.rfind('\'')) {
        if z > a {
            return Some(r[a + 1..z].to_string());
        }
    }
    if let (Some(a), Some(z)) = (r.find('"'), r.rfind('"')) {
        if z > a {
            return Some(r[a + 1..z].to_string());
        }
    }
    Some(r.to_string())
}

/// The text form, line by line: the state kept is the entity being read.
fn parse_text_form(
    src: &mut dyn BufRead,
    log: &mut EntityLog,
    notes: &mut Notes,
) -> Result<(), ParseError> {
    let mut cur: Option<MetricCsv> = None;
    let mut pending: Option<SeriesCsv> = None;
    let flush_series = |cur: &mut Option<MetricCsv>, pending: &mut Option<SeriesCsv>| {
        if let (Some(c), Some(p)) = (cur.as_mut(), pending.take()) {
            c.series.push(p);
        }
    };
    let mut buf = Vec::new();
    for i in 0.. {
        buf.clear();
        if src.read_until(b'\n', &mut buf).map_err(io_error)? == 0 {
            break;
        }
        let raw = text_of(&buf);
        let l = raw.trim();
        let Some((key, rest)) = l.split_once(" = ") else {
            continue;
        };
        match key {
            "entityRefId" => {
                flush_series(&mut cur, &mut pending);
                if let Some(m) = cur.take() {
                    push_metric_csv(log, notes, &m)?;
                }
                cur = Some(MetricCsv {
                    ref_id: py_value(rest).unwrap_or_default(),
                    line: Some(i + 1),
                    ..MetricCsv::default()
                });
            }
            "sampleInfo" => {
                if let Some(c) = cur.as_mut() {
                    c.sample_info = py_value(rest);
                }
            }
            "label" if cur.is_some() => {
                flush_series(&mut cur, &mut pending);
                pending = Some(SeriesCsv {
                    label: py_value(rest).unwrap_or_default(),
                    ..SeriesCsv::default()
                });
            }
            "metricsCollectInterval" => {
                if let Some(p) = pending.as_mut() {
                    p.interval = py_value(rest).and_then(|v| v.trim().parse().ok());
                }
            }
            "values" => {
                if let Some(p) = pending.as_mut() {
                    p.values = py_value(rest);
                }
                flush_series(&mut cur, &mut pending);
            }
            _ => {}
        }
    }
    flush_series(&mut cur, &mut pending);
    if let Some(m) = cur.take() {
        push_metric_csv(log, notes, &m)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities() {
        assert_eq!(unescape("a&lt;b&amp;c&#65;&#x42;&bogus;"), "a<b&cAB&bogus;");
        assert_eq!(unescape("plain"), "plain");
    }

    #[test]
    fn quoted_gt_in_attribute() {
        let x = "<a k=\"x>y\"><entityRefId>t:1</entityRefId><sampleInfo>2020-01-01 00:00:00</sampleInfo>\
                 <value><metricId><label>iopsRead</label></metricId><values>5</values></value></a>";
        let log = parse(x).unwrap();
        assert_eq!(log.series[0].values, vec![Some(5.0)]);
    }

    #[test]
    fn mismatched_close_names_the_line() {
        let x = "<obj>\n<VsanPerfEntityMetricCSV>\n<entityRefId>a:b</sampleInfo>";
        let e = parse(x).unwrap_err().to_string();
        assert!(e.contains("line 3"), "{e}");
        assert!(e.contains("</entityRefId>"), "{e}");
    }
}
