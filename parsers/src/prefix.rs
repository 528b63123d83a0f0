//! Captures whose every line starts with a host name: the output of `pdsh`, `clush`, `dsh -M`
//! (`object3: Linux 3.13.0 (object3) …`) or `parallel --tag` (`object3<TAB>Linux …`), often with
//! several hosts' lines interleaved in one file; and Ansible ad-hoc output, where a header line
//! (`object3 | CHANGED | rc=0 >>`) names the host of the block of lines under it.
//!
//! # Flow
//! This is a pre-pass in front of the registry, asked only when no format recognises a text as
//! it is ([`crate::parse_path_into_limited`], [`crate::parse_bytes_into`]):
//! 1. [`detect`] looks at the head of the input: a [`PrefixKind`] is found when nearly every
//!    non-blank line (at least 19 in 20) carries the same kind of prefix, a host-like name
//!    ([`host_name`]) followed by `: ` (or `:` at the end of the line) or by a TAB, and
//!    the names are few (each at least twice on average, so a `key: value` file is no capture);
//!    or, for [`PrefixKind::Ansible`], when the first non-blank line is an Ansible result header
//!    ([`ansible_header`]);
//! 2. [`survey`] reads the whole input once and lists the hosts in order of first appearance,
//!    counting the lines without a prefix (pdsh's own `pdsh@admin: …` messages, a line cut at the
//!    end);
//! 3. for each host, the input is read once more through [`HostLines`], a [`BufRead`] that yields
//!    only that host's lines with the prefix removed: its head is detected by the registry like
//!    any input, and the format's own streaming parser reads it into the sink, after
//!    [`crate::Sink::host_begin`] named the host. [`crate::Sink::prefixed_end`] ends the file
//!    with what concerns the file rather than one host.
//!
//! Nothing of the file is held: each pass streams it (gunzipped on the fly), and memory is the
//! hosts' names plus one line. A file of N hosts is read N + 1 times.
//!
//! The format inside is whatever the registry detects in a host's lines: Linux `iostat` and
//! `sar` text in practice (with or without their banners), and any other OS disk log format. A
//! host whose lines are no OS disk log (a `command not found`) is left out, and said; if no host's
//! lines are one, the file is not a recognised report.
//!
//! Line numbers in the parsers' messages count the host's own lines.

use std::collections::HashMap;
use std::io::{BufRead, Read};

use crate::error::ParseError;
use crate::parser::ParseSettings;
use crate::sink::{RecordKind, Sink};
use crate::Format;

/// How each line names its host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PrefixKind {
    /// `host: line` (`pdsh`, `clush`, `dsh -M`); an empty remote line is `host: ` or `host:`.
    Colon,
    /// `host<TAB>line` (`parallel --tag`).
    Tab,
    /// Ansible ad-hoc output (`ansible HOSTS -m shell -a 'iostat -xt 10 3'`): a header
    /// `host | CHANGED | rc=0 >>` (`SUCCESS` before Ansible 2.8, `FAILED`, or `host | STATUS => {`
    /// before a JSON result) names the host of every line up to the next header. Ansible prints
    /// each host's output as one block when the host is done, so blocks are not interleaved, but
    /// a host may have several.
    Ansible,
}

/// The host an Ansible ad-hoc result header names: `NAME | STATUS | rc=N >>` or
/// `NAME | STATUS => {` / `NAME | STATUS! => {`, where STATUS is upper-case letters (`CHANGED`,
/// `SUCCESS`, `FAILED`, `UNREACHABLE`). The formats are those of Ansible's `minimal` and
/// `oneline`-less default ad-hoc callback (`ansible/plugins/callback/minimal.py`).
pub fn ansible_header(line: &[u8]) -> Option<&[u8]> {
    let line = trim_eol(line);
    let i = memchr::memmem::find(line, b" | ")?;
    let (name, rest) = (&line[..i], &line[i + 3..]);
    if !host_name(name) {
        return None;
    }
    let status_end = rest
        .iter()
        .position(|b| !b.is_ascii_uppercase())
        .unwrap_or(rest.len());
    if status_end == 0 {
        return None;
    }
    let tail = rest[status_end..]
        .strip_prefix(b"!")
        .unwrap_or(&rest[status_end..]);
    let ok = if let Some(rc) = tail.strip_prefix(b" | rc=") {
        let digits = rc
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'-')
            .count();
        digits > 0 && rc[digits..].trim_ascii() == b">>"
    } else {
        tail.trim_ascii_end() == b" => {" || tail.trim_ascii_end() == b" =>"
    };
    ok.then_some(name)
}

/// Splits a capture's lines into (host, line) pairs, carrying the current host of an Ansible
/// block from line to line.
struct Splitter {
    kind: PrefixKind,
    current: Option<Vec<u8>>,
}

/// What one line of a capture is.
enum Piece<'a> {
    /// A line of `host`, its prefix removed.
    Line(&'a [u8], &'a [u8]),
    /// An Ansible header (it starts `host`'s block and is no line of the host's output).
    Header,
    /// A line without a host.
    Orphan,
}

impl Splitter {
    fn new(kind: PrefixKind) -> Self {
        Splitter {
            kind,
            current: None,
        }
    }

    fn piece<'a>(&'a mut self, l: &'a [u8]) -> Piece<'a> {
        match self.kind {
            PrefixKind::Ansible => {
                if let Some(name) = ansible_header(l) {
                    self.current = Some(name.to_vec());
                    return Piece::Header;
                }
                match &self.current {
                    Some(h) => Piece::Line(h, l),
                    None => Piece::Orphan,
                }
            }
            kind => match split(kind, l) {
                Some((h, rest)) => Piece::Line(h, rest),
                None => Piece::Orphan,
            },
        }
    }
}

/// Longest host name taken as a prefix (a DNS name is at most 253 characters).
const MAX_NAME: usize = 253;

/// Most hosts one capture may hold; a file with more distinct prefixes is no capture.
pub const MAX_HOSTS: usize = 10_000;

/// Whether `name` looks like a host name: an ASCII letter or digit, then letters, digits, `.`,
/// `_` or `-` (a DNS name, a short name, an IPv4 address).
pub fn host_name(name: &[u8]) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name[0].is_ascii_alphanumeric()
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
}

/// A line's host and the rest of the line (the line without its end of line), when it carries
/// a prefix of `kind`.
pub fn split(kind: PrefixKind, line: &[u8]) -> Option<(&[u8], &[u8])> {
    let sep = match kind {
        PrefixKind::Colon => b':',
        PrefixKind::Tab => b'\t',
        PrefixKind::Ansible => return None,
    };
    let i = memchr::memchr(sep, &line[..line.len().min(MAX_NAME + 1)])?;
    let (name, rest) = (&line[..i], &line[i + 1..]);
    if !host_name(name) {
        return None;
    }
    match kind {
        PrefixKind::Tab => Some((name, rest)),
        PrefixKind::Colon => match rest.first() {
            Some(b' ') => Some((name, &rest[1..])),
            None | Some(b'\r') => Some((name, rest)),
            _ => None,
        },
        PrefixKind::Ansible => None,
    }
}

/// The kind of host prefix every line of `head` (the decoded start of an input) carries, if any.
/// The last line is not counted against it (a head may end mid-line).
pub fn detect(head: &str) -> Option<PrefixKind> {
    let mut lines: Vec<&str> = head.lines().filter(|l| !l.trim().is_empty()).collect();
    if !head.ends_with('\n') {
        lines.pop();
    }
    if lines
        .first()
        .is_some_and(|l| ansible_header(l.as_bytes()).is_some())
    {
        return Some(PrefixKind::Ansible);
    }
    if lines.len() < 3 {
        return None;
    }
    [PrefixKind::Colon, PrefixKind::Tab]
        .into_iter()
        .find(|&kind| {
            let mut names: HashMap<&[u8], usize> = HashMap::new();
            let mut prefixed = 0usize;
            for l in &lines {
                if let Some((name, _)) = split(kind, l.as_bytes()) {
                    prefixed += 1;
                    *names.entry(name).or_default() += 1;
                }
            }
            prefixed * 20 >= lines.len() * 19 && names.len() * 2 <= prefixed
        })
}

pub use crate::sink::HostLog;

/// What [`survey`] found in a whole input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Survey {
    /// The hosts, in order of first appearance.
    pub hosts: Vec<String>,
    /// Lines of each host, in the order of `hosts`.
    pub lines: Vec<usize>,
    /// Non-blank lines without a prefix.
    pub unprefixed: usize,
    /// The first of them: its 1-based line in the file and its text (clipped).
    pub first_unprefixed: Option<(usize, String)>,
}

/// Reads a whole input once and lists its hosts (see the module docs).
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; [`ParseError::UnknownFormat`] past
/// [`MAX_HOSTS`] hosts.
pub fn survey(src: &mut dyn BufRead, kind: PrefixKind) -> Result<Survey, ParseError> {
    let mut out = Survey::default();
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut line = Vec::new();
    let mut no = 0usize;
    let mut splitter = Splitter::new(kind);
    loop {
        line.clear();
        if read_line(src, &mut line)? == 0 {
            break;
        }
        no += 1;
        let l = trim_eol(&line);
        match splitter.piece(l) {
            Piece::Header => {}
            Piece::Line(name, _) => {
                let k = match index.get(name) {
                    Some(&k) => k,
                    None => {
                        if out.hosts.len() == MAX_HOSTS {
                            return Err(ParseError::UnknownFormat {
                                reason: format!("more than {MAX_HOSTS} distinct line prefixes: not a capture of a few hosts' logs"),
                            });
                        }
                        index.insert(name.to_vec(), out.hosts.len());
                        out.hosts.push(String::from_utf8_lossy(name).into_owned());
                        out.lines.push(0);
                        out.hosts.len() - 1
                    }
                };
                out.lines[k] += 1;
            }
            Piece::Orphan if l.iter().all(u8::is_ascii_whitespace) => {}
            Piece::Orphan => {
                out.unprefixed += 1;
                if out.first_unprefixed.is_none() {
                    let text = String::from_utf8_lossy(l);
                    out.first_unprefixed = Some((no, crate::lines::clip(&text, 80)));
                }
            }
        }
    }
    Ok(out)
}

/// One line, with its `\n`, appended to `buf`; 0 at the end of the input.
fn read_line(src: &mut dyn BufRead, buf: &mut Vec<u8>) -> Result<usize, ParseError> {
    loop {
        match src.read_until(b'\n', buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(ParseError::Io {
                    path: Default::default(),
                    source,
                })
            }
            Ok(n) => return Ok(n),
        }
    }
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let l = line.strip_suffix(b"\n").unwrap_or(line);
    l.strip_suffix(b"\r").unwrap_or(l)
}

/// One host's lines of a prefixed capture, the prefix removed (each line ends with `\n`): a
/// [`BufRead`] over the whole capture that skips every other line.
pub struct HostLines<R: BufRead> {
    inner: R,
    splitter: Splitter,
    host: Vec<u8>,
    line: Vec<u8>,
    out: Vec<u8>,
    pos: usize,
}

impl<R: BufRead> HostLines<R> {
    /// The lines of `host` in `inner`.
    pub fn new(inner: R, kind: PrefixKind, host: &str) -> Self {
        HostLines {
            inner,
            splitter: Splitter::new(kind),
            host: host.as_bytes().to_vec(),
            line: Vec::new(),
            out: Vec::new(),
            pos: 0,
        }
    }
}

impl<R: BufRead> Read for HostLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for HostLines<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.pos == self.out.len() {
            self.out.clear();
            self.pos = 0;
            // Up to 64 KiB of this host's lines at a time.
            while self.out.len() < 64 * 1024 {
                self.line.clear();
                if self.inner.read_until(b'\n', &mut self.line)? == 0 {
                    break;
                }
                let l = trim_eol(&self.line);
                if let Piece::Line(name, rest) = self.splitter.piece(l) {
                    if name == self.host.as_slice() {
                        self.out.extend_from_slice(rest);
                        self.out.push(b'\n');
                    }
                }
            }
            if self.out.is_empty() {
                break;
            }
        }
        Ok(&self.out[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.out.len());
    }
}

/// `e`, saying it is about the lines of `host`.
fn in_host(e: ParseError, host: &str) -> ParseError {
    match e {
        ParseError::UnknownFormat { reason } => ParseError::UnknownFormat {
            reason: format!("the lines of host '{host}': {reason}"),
        },
        ParseError::Section {
            mut at,
            expected,
            found,
        } => {
            at.section = Some(match at.section {
                Some(s) => format!("{s}, lines of host '{host}'"),
                None => format!("lines of host '{host}'"),
            });
            ParseError::Section {
                at,
                expected,
                found,
            }
        }
        ParseError::Truncated { what, at } => ParseError::Truncated {
            what: format!("{what} (lines of host '{host}')"),
            at,
        },
        e => e,
    }
}

/// Opens the input once more, from its start (gunzipped, decoded to UTF-8 where needed).
pub(crate) type Open<'a> = dyn FnMut() -> Result<Box<dyn BufRead + 'a>, ParseError> + 'a;

/// Reads a prefixed capture into `sink`, host by host (see the module docs); returns the format
/// of the first host read.
///
/// # Errors
/// As the formats' parsers (naming the host); [`ParseError::UnknownFormat`] when no host's
/// lines are an OS disk log.
pub(crate) fn parse_prefixed(
    kind: PrefixKind,
    open: &mut Open<'_>,
    settings: &ParseSettings,
    sink: &mut dyn Sink,
) -> Result<Format, ParseError> {
    let survey = survey(&mut *open()?, kind)?;
    let mut notes = Vec::new();
    if let Some((line, text)) = &survey.first_unprefixed {
        notes.push(format!(
            "{} line(s) without a host prefix left out (first: line {line}, '{text}')",
            survey.unprefixed
        ));
    }
    let mut format = None;
    let mut first_err = None;
    for host in &survey.hosts {
        let mut lines = HostLines::new(open()?, kind, host);
        let mut head = Vec::new();
        (&mut lines)
            .take(64 * 1024)
            .read_to_end(&mut head)
            .map_err(|source| ParseError::Io {
                path: Default::default(),
                source,
            })?;
        let detected = crate::registry::detect(&String::from_utf8_lossy(&head));
        let parser = match detected {
            Ok(p) if p.info().kind == RecordKind::Devices => p,
            other => {
                let why = match other {
                    Ok(p) => format!("a {}, not an OS disk log", p.info().name),
                    Err(e) => e.to_string(),
                };
                notes.push(format!("the lines of host '{host}' were left out: {why}"));
                first_err.get_or_insert_with(|| ParseError::UnknownFormat {
                    reason: format!(
                        "every line carries a host prefix (pdsh, clush or parallel --tag output) or sits under an Ansible header, and no host's lines are an OS disk log (the lines of host '{host}': {why})"
                    ),
                });
                continue;
            }
        };
        sink.host_begin(host)?;
        let mut src = std::io::Cursor::new(head).chain(lines);
        let mut checked = crate::checked::Checked::new(sink);
        parser
            .parse_stream(&mut src, settings, &mut checked)
            .map_err(|e| in_host(e, host))?;
        format.get_or_insert(parser.info().format);
    }
    match format {
        Some(f) => {
            sink.prefixed_end(notes)?;
            Ok(f)
        }
        None => Err(first_err.unwrap_or_else(|| ParseError::UnknownFormat {
            reason: "every line carries a host prefix, but the lines hold nothing".into(),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert_eq!(
            split(PrefixKind::Colon, b"object3: Linux 3.13.0 (object3)"),
            Some((&b"object3"[..], &b"Linux 3.13.0 (object3)"[..]))
        );
        assert_eq!(
            split(PrefixKind::Colon, b"object3:"),
            Some((&b"object3"[..], &b""[..]))
        );
        // sar's time, pdsh's own messages, an IPv6 address.
        for l in [
            &b"00:10:01 dev8-0 1.00"[..],
            b"pdsh@admin: object4: ssh exited with exit code 255",
            b"fe80::1 x",
        ] {
            assert_eq!(
                split(PrefixKind::Colon, l),
                None,
                "{}",
                String::from_utf8_lossy(l)
            );
        }
        assert_eq!(
            split(PrefixKind::Tab, b"10.0.0.3\tDevice  r/s"),
            Some((&b"10.0.0.3"[..], &b"Device  r/s"[..]))
        );
        let cap = "a: x\nb: y\na: z\nb: w\n";
        assert_eq!(detect(cap), Some(PrefixKind::Colon));
        // A `key: value` file has as many names as lines.
        assert_eq!(detect("name: x\nsize: 2\nkind: y\nmode: z\n"), None);
        let mut lines = HostLines::new(cap.as_bytes(), PrefixKind::Colon, "b");
        let mut s = String::new();
        lines.read_to_string(&mut s).unwrap();
        assert_eq!(s, "y\nw\n");
    }
}
