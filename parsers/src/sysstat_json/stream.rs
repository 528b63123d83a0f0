//! The streaming read of a sysstat JSON document: serde_json's reader-based deserializer walks
//! the `{"sysstat": {"hosts": [{…, "statistics": […]}]}}` frame with visitors, and hands each
//! `statistics` element (a small [`JsonValue`]) to a [`Handler`] as soon as it has been read,
//! with the 1-based line where it starts. Nothing else of the document is kept: the banner keys
//! of the host being read, the count of complete elements, and a few bytes of decoding state.
//!
//! A document cut short (an interrupted run) ends the read like a complete one, with the cut
//! reported as a [`SkippedLine`]: the elements before it have been handed over already, which
//! is what the whole-text reader did by closing the document after its last complete element.
//! A host is handed over ([`Handler::host`]) just before its first element, or at the end of the
//! document when it has none, so a host after the cut is left out as before.

use std::cell::Cell;
use std::io::{BufRead, Read};
use std::rc::Rc;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::decode::DecodeReader;
use super::{header, JsonValue};
use crate::disk::{SkippedLine, SystemHeader};
use crate::error::ParseError;

/// What a format does with the parts of a sysstat JSON document.
pub(crate) trait Handler {
    /// A host's banner (the banner keys printed before its `statistics`), before its elements.
    ///
    /// # Errors
    /// The format's; the read stops with it.
    fn host(&mut self, header: SystemHeader) -> Result<(), ParseError>;

    /// One element of a host's `statistics` array: its value, the line where it starts and its
    /// 0-based index in the array. `Ok(false)` stops the read.
    ///
    /// # Errors
    /// The format's; the read stops with it.
    fn element(&mut self, entry: JsonValue, line: usize, index: usize) -> Result<bool, ParseError>;

    /// The error for a `statistics` value that is not an array (`found`: its JSON type).
    fn not_array(&self, found: &'static str) -> ParseError;
}

/// How a read ended.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// The document stops before its end: where, and how many records were kept.
    pub(crate) truncated: Option<SkippedLine>,
    /// The handler stopped the read.
    pub(crate) stopped: bool,
}

/// What the bytes handed to serde_json have shown: the line of the last byte, that byte, and
/// whether a number was printed with a decimal comma (see [`comma_step`]).
struct Tracker {
    line: Cell<usize>,
    after_newline: Cell<bool>,
    last: Cell<u8>,
    comma: Cell<u8>,
    commas: Cell<bool>,
}

impl Tracker {
    fn new() -> Self {
        Tracker {
            line: Cell::new(1),
            after_newline: Cell::new(false),
            last: Cell::new(0),
            comma: Cell::new(0),
            commas: Cell::new(false),
        }
    }

    fn byte(&self, b: u8) {
        if self.after_newline.get() {
            self.line.set(self.line.get() + 1);
        }
        self.after_newline.set(b == b'\n');
        self.last.set(b);
        let s = comma_step(self.comma.get(), b);
        if s == COMMA_FOUND {
            self.commas.set(true);
        }
        self.comma.set(s % COMMA_FOUND);
    }
}

/// The state [`comma_step`] reaches on `: <digits>,<digit>`.
const COMMA_FOUND: u8 = 5;

/// One step of the search for a number printed with a decimal comma after a key (`"tps": 0,56`:
/// sysstat before 11.5.2 printed JSON numbers in the locale): states 0 (nothing), 1 (`:`),
/// 2 (`: `), 3 (`: ` and digits), 4 (and `,`), [`COMMA_FOUND`] (and a digit).
pub(super) fn comma_step(state: u8, b: u8) -> u8 {
    match (state, b) {
        (_, b':') => 1,
        (1, b' ') => 2,
        (2 | 3, b'0'..=b'9') => 3,
        (3, b',') => 4,
        (4, b'0'..=b'9') => COMMA_FOUND,
        _ => 0,
    }
}

/// The decoded input as serde_json reads it (one byte at a time), told to the tracker.
struct Tracked<'a> {
    inner: DecodeReader<&'a mut dyn BufRead>,
    t: Rc<Tracker>,
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            self.t.byte(b);
        }
        Ok(n)
    }
}

/// The state of one read, shared by the visitors.
struct Ctx<'h> {
    handler: &'h mut dyn Handler,
    tracker: Rc<Tracker>,
    /// The handler's error, returned instead of the serde_json error that carried it out.
    failed: Option<ParseError>,
    stopped: bool,
    /// Complete `statistics` objects read.
    complete: usize,
    /// The `hosts` array was found.
    frame: bool,
    /// Hosts read without an element, to hand over before the next element or at the end.
    pending_hosts: Vec<SystemHeader>,
    /// The banner of the host being read, until its first element.
    current: Option<SystemHeader>,
    /// The format, for errors.
    what: &'static str,
}

impl Ctx<'_> {
    fn fail<E: serde::de::Error>(&mut self, e: ParseError) -> E {
        self.failed = Some(e);
        E::custom("stopped by the sysstat JSON reader")
    }

    fn deliver<E: serde::de::Error>(
        &mut self,
        v: JsonValue,
        line: usize,
        index: usize,
    ) -> Result<(), E> {
        let hosts: Vec<SystemHeader> = self
            .pending_hosts
            .drain(..)
            .chain(self.current.take())
            .collect();
        for h in hosts {
            if let Err(e) = self.handler.host(h) {
                return Err(self.fail(e));
            }
        }
        match self.handler.element(v, line, index) {
            Ok(true) => Ok(()),
            Ok(false) => {
                self.stopped = true;
                Err(E::custom("stopped by the sink"))
            }
            Err(e) => Err(self.fail(e)),
        }
    }
}

/// The visitor methods for the JSON types a frame visitor does not want: the value is
/// `Err(its type)`.
macro_rules! other_types {
    () => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Err("a boolean"))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Err("a number"))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Err("a number"))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Err("a number"))
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Err("a string"))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Err("null"))
        }
    };
}

/// Skips an array the visitor does not want.
fn skip_seq<'de, A: SeqAccess<'de>>(mut s: A) -> Result<Result<(), &'static str>, A::Error> {
    while s.next_element::<IgnoredAny>()?.is_some() {}
    Ok(Err("an array"))
}

/// Skips an object the visitor does not want.
fn skip_map<'de, A: MapAccess<'de>>(mut m: A) -> Result<Result<(), &'static str>, A::Error> {
    while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(Err("an object"))
}

/// An object whose first `key` is read by `inner`, every other key skipped.
struct Keyed<'c, 'h, S> {
    ctx: &'c mut Ctx<'h>,
    key: &'static str,
    inner: S,
}

/// What reads the value of a [`Keyed`] key.
#[derive(Clone, Copy)]
enum Inner {
    /// `"sysstat": {…}`: an object with `hosts`.
    Sysstat,
    /// `"hosts": […]`.
    Hosts,
}

impl<'de> DeserializeSeed<'de> for Keyed<'_, '_, Inner> {
    type Value = Result<(), &'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Keyed<'_, '_, Inner> {
    type Value = Result<(), &'static str>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sysstat JSON document")
    }
    other_types!();
    fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Self::Value, A::Error> {
        skip_seq(s)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut seen = false;
        while let Some(k) = m.next_key::<String>()? {
            if k == self.key && !seen {
                seen = true;
                // A value of another type leaves the frame unfound: the error comes at the end,
                // after any syntax error.
                let _wrong_type = match self.inner {
                    Inner::Sysstat => m.next_value_seed(Keyed {
                        ctx: &mut *self.ctx,
                        key: "hosts",
                        inner: Inner::Hosts,
                    })?,
                    Inner::Hosts => m.next_value_seed(Hosts(&mut *self.ctx))?,
                };
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Ok(()))
    }
}

/// The `hosts` array.
struct Hosts<'c, 'h>(&'c mut Ctx<'h>);

impl<'de> DeserializeSeed<'de> for Hosts<'_, '_> {
    type Value = Result<(), &'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Hosts<'_, '_> {
    type Value = Result<(), &'static str>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of hosts")
    }
    other_types!();
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        skip_map(m)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
        self.0.frame = true;
        while let Some(r) = s.next_element_seed(Host(&mut *self.0))? {
            if r.is_err() {
                let e = frame_error(self.0.what, "a host that is not an object");
                return Err(self.0.fail(e));
            }
        }
        Ok(Ok(()))
    }
}

/// The banner keys of a host object ([`header`] reads them).
const BANNER: &[&str] = &[
    "sysname",
    "release",
    "nodename",
    "date",
    "file-date",
    "machine",
    "number-of-cpus",
];

/// One host object.
struct Host<'c, 'h>(&'c mut Ctx<'h>);

impl<'de> DeserializeSeed<'de> for Host<'_, '_> {
    type Value = Result<(), &'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Host<'_, '_> {
    type Value = Result<(), &'static str>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a host object")
    }
    other_types!();
    fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Self::Value, A::Error> {
        skip_seq(s)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let ctx = self.0;
        let mut banner: Vec<(String, JsonValue)> = Vec::new();
        let mut stats = false;
        while let Some(k) = m.next_key::<String>()? {
            if k == "statistics" && !stats {
                stats = true;
                ctx.current = Some(header(&banner));
                if let Err(found) = m.next_value_seed(Statistics(&mut *ctx))? {
                    let e = ctx.handler.not_array(found);
                    return Err(ctx.fail(e));
                }
            } else if !stats && BANNER.contains(&k.as_str()) && !banner.iter().any(|(b, _)| *b == k)
            {
                let v = m.next_value::<JsonValue>()?;
                banner.push((k, v));
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        if !stats {
            ctx.current = Some(header(&banner));
        }
        ctx.pending_hosts.extend(ctx.current.take());
        Ok(Ok(()))
    }
}

/// A host's `statistics` array.
struct Statistics<'c, 'h>(&'c mut Ctx<'h>);

impl<'de> DeserializeSeed<'de> for Statistics<'_, '_> {
    type Value = Result<(), &'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Statistics<'_, '_> {
    type Value = Result<(), &'static str>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a statistics array")
    }
    other_types!();
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        skip_map(m)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
        let mut index = 0;
        while s
            .next_element_seed(Element {
                ctx: &mut *self.0,
                index,
            })?
            .is_some()
        {
            index += 1;
        }
        Ok(Ok(()))
    }
}

/// One `statistics` element: read whole (it is small), then handed over.
struct Element<'c, 'h> {
    ctx: &'c mut Ctx<'h>,
    index: usize,
}

impl<'de> DeserializeSeed<'de> for Element<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        // serde_json has read the element's first byte (`{`) when it calls the seed, and its
        // reader pulls one byte at a time (`io::Bytes`), so the tracker's line is that byte's
        // (the tests check the element lines against the files).
        let line = self.ctx.tracker.line.get();
        let v = JsonValue::deserialize(d)?;
        if matches!(v, JsonValue::Obj(_)) {
            self.ctx.complete += 1;
        }
        self.ctx.deliver(v, line, self.index)
    }
}

/// The error for a document that is not `{"sysstat": {"hosts": [ … ]}}`.
fn frame_error(what: &str, found: &str) -> ParseError {
    ParseError::section(
        what,
        None,
        "a {\"sysstat\": {\"hosts\": [ … ]}} document",
        found,
    )
}

/// Reads the rest of the input (after a syntax error): true when it is only white space.
fn rest_is_blank(rd: &mut impl Read) -> Result<bool, ParseError> {
    let mut buf = [0u8; 8192];
    let mut carry: Vec<u8> = Vec::new();
    let mut blank = true;
    loop {
        let n = rd.read(&mut buf).map_err(io_error)?;
        if n == 0 {
            return Ok(blank && carry.is_empty());
        }
        if !blank {
            continue;
        }
        carry.extend_from_slice(&buf[..n]);
        let valid = match std::str::from_utf8(&carry) {
            Ok(_) => carry.len(),
            Err(e) => e.valid_up_to(),
        };
        let s = std::str::from_utf8(&carry[..valid]).unwrap_or("x");
        blank = s.chars().all(char::is_whitespace);
        carry.drain(..valid);
        if carry.len() > 3 {
            blank = false;
        }
    }
}

fn io_error(source: std::io::Error) -> ParseError {
    ParseError::Io {
        path: Default::default(),
        source,
    }
}

/// Reads a sysstat JSON document from `src` (already decompressed; decoded as
/// [`crate::input::decode`] does, see [`DecodeReader`]), handing each host and `statistics`
/// element to `handler` as it is read. `what` names the format in errors.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; [`ParseError::Section`] for malformed JSON
/// (serde_json's line and column, with a hint when numbers have decimal commas), a document cut
/// before its first complete `statistics` element, or one that is not
/// `{"sysstat": {"hosts": [ … ]}}`; or the handler's error.
pub(crate) fn read_stream(
    src: &mut dyn BufRead,
    what: &'static str,
    handler: &mut dyn Handler,
) -> Result<Outcome, ParseError> {
    let tracker = Rc::new(Tracker::new());
    let mut rd = Tracked {
        inner: DecodeReader::new(src),
        t: Rc::clone(&tracker),
    };
    let mut ctx = Ctx {
        handler,
        tracker: Rc::clone(&tracker),
        failed: None,
        stopped: false,
        complete: 0,
        frame: false,
        pending_hosts: Vec::new(),
        current: None,
        what,
    };
    let result = {
        let mut de = serde_json::Deserializer::from_reader(&mut rd);
        let root = Keyed {
            ctx: &mut ctx,
            key: "sysstat",
            inner: Inner::Sysstat,
        };
        root.deserialize(&mut de).and_then(|_| de.end())
    };
    let e = match result {
        Ok(()) => {
            if !ctx.frame {
                return Err(frame_error(
                    what,
                    "no 'sysstat' object with a 'hosts' array",
                ));
            }
            for h in std::mem::take(&mut ctx.pending_hosts) {
                ctx.handler.host(h)?;
            }
            return Ok(Outcome::default());
        }
        Err(e) => e,
    };
    if let Some(f) = ctx.failed.take() {
        return Err(f);
    }
    if ctx.stopped {
        return Ok(Outcome {
            truncated: None,
            stopped: true,
        });
    }
    if e.is_io() {
        return Err(io_error(e.into()));
    }
    // As the whole-text reader: the document was cut when serde_json met its end, or when
    // nothing but white space follows the error (a string cut at a line end).
    let last_blank = tracker.last.get().is_ascii_whitespace() || tracker.last.get() == 0x0B;
    let rest_blank = rest_is_blank(&mut rd)?;
    if e.is_eof() || (last_blank && rest_blank) {
        if ctx.complete > 0 {
            let kept = ctx.complete;
            return Ok(Outcome {
                truncated: Some(SkippedLine {
                    line: e.line(),
                    reason: format!(
                        "the JSON stops before its end (line {}, column {}): kept the {kept} \
                         complete 'statistics' records before the cut (an interrupted {what} run?)",
                        e.line(),
                        e.column()
                    ),
                }),
                stopped: false,
            });
        }
        return Err(ParseError::section(
            what,
            Some(e.line()),
            "a complete JSON document",
            format!("the JSON stops before its end, with no complete 'statistics' record ({e})"),
        ));
    }
    let hint = if tracker.commas.get() {
        " (numbers with decimal commas: sysstat before 11.5.2 printed JSON in the locale; \
         re-run with LC_ALL=C)"
    } else {
        ""
    };
    Err(ParseError::section(
        what,
        Some(e.line()),
        "valid JSON",
        format!("{e}{hint}"),
    ))
}
