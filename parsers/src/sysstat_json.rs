//! The sysstat JSON reader shared by the `iostat -o JSON` and `sadf -j` parsers.
//!
//! Flow: [`read`] parses the whole document into an order-keeping [`JsonValue`] tree (serde_json's
//! `Value` sorts keys without its `preserve_order` feature), recording the 1-based line of every
//! `statistics` element and recovering from a document cut mid-write (the elements before the cut
//! are kept and the cut is reported as a skipped line); [`hosts`] then checks the
//! `{"sysstat": {"hosts": […]}}` frame and [`header`] reads one host's banner. A JSON document is
//! parsed whole (it is one value), so these two formats do not stream: their records go to the
//! sink after the document has been read.
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::disk::{DeviceLog, SkippedLine, SystemHeader};
use crate::error::ParseError;

/// A JSON value that keeps keys in printed order (serde_json's `Value` sorts them without
/// its `preserve_order` feature).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JsonValue {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<JsonValue>),
    Obj(Vec<(String, JsonValue)>),
}

impl JsonValue {
    pub(crate) fn as_obj(&self) -> Option<&[(String, JsonValue)]> {
        match self {
            JsonValue::Obj(o) => Some(o),
            _ => None,
        }
    }
    pub(crate) fn as_arr(&self) -> Option<&[JsonValue]> {
        match self {
            JsonValue::Arr(a) => Some(a),
            _ => None,
        }
    }
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            JsonValue::Null => "null",
            JsonValue::Bool(_) => "a boolean",
            JsonValue::Num(_) => "a number",
            JsonValue::Str(_) => "a string",
            JsonValue::Arr(_) => "an array",
            JsonValue::Obj(_) => "an object",
        }
    }
}

impl<'de> Deserialize<'de> for JsonValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonValueVisitor)
    }
}

struct JsonValueVisitor;

impl<'de> Visitor<'de> for JsonValueVisitor {
    type Value = JsonValue;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<JsonValue, E> {
        Ok(JsonValue::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<JsonValue, E> {
        Ok(JsonValue::Num(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<JsonValue, E> {
        Ok(JsonValue::Num(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<JsonValue, E> {
        Ok(JsonValue::Num(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<JsonValue, E> {
        Ok(JsonValue::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<JsonValue, E> {
        Ok(JsonValue::Str(v))
    }
    fn visit_unit<E>(self) -> Result<JsonValue, E> {
        Ok(JsonValue::Null)
    }
    fn visit_none<E>(self) -> Result<JsonValue, E> {
        Ok(JsonValue::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<JsonValue, D::Error> {
        JsonValue::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<JsonValue, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = s.next_element()? {
            v.push(x);
        }
        Ok(JsonValue::Arr(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<JsonValue, A::Error> {
        let mut v = Vec::new();
        while let Some((k, x)) = m.next_entry::<String, JsonValue>()? {
            v.push((k, x));
        }
        Ok(JsonValue::Obj(v))
    }
}

/// The first value of `key` in an object.
pub(crate) fn get<'a>(obj: &'a [(String, JsonValue)], key: &str) -> Option<&'a JsonValue> {
    obj.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// A value cell: a number, or `None` for `null`; anything else is `Err(what was found)`.
pub(crate) fn number(v: &JsonValue) -> Result<Option<f64>, String> {
    match v {
        JsonValue::Num(n) if n.is_finite() => Ok(Some(*n)),
        JsonValue::Null => Ok(None),
        JsonValue::Str(s) => Err(format!("the string \"{s}\"")),
        other => Err(other.kind().to_string()),
    }
}

pub(crate) fn warn_unknown(log: &mut DeviceLog, line: usize, key: &str) {
    let tail = format!("unknown key '{key}' kept as printed");
    if !log.warnings.iter().any(|w| w.ends_with(&tail)) {
        log.warn(format!("line {line}: {tail}"));
    }
}

/// The first 64 KiB of the text (on a character boundary), without a byte-order mark.
pub(crate) fn head(text: &str) -> &str {
    crate::lines::head(text.trim_start_matches('\u{feff}'))
}

/// A JSON object whose first key is `"sysstat"` (sadf -j or iostat -o JSON).
pub(crate) fn is_sysstat(text: &str) -> bool {
    let h = head(text).trim_start();
    h.strip_prefix('{')
        .is_some_and(|r| r.trim_start().starts_with("\"sysstat\""))
}

/// A sysstat JSON document written by `sadf -j` rather than `iostat -o JSON`: it has a
/// `"file-date"` key or a `"timestamp": {` object (iostat prints a string).
pub(crate) fn is_sadf_document(text: &str) -> bool {
    if !is_sysstat(text) {
        return false;
    }
    let h = head(text);
    h.contains("\"file-date\"")
        || h.match_indices("\"timestamp\"").any(|(i, m)| {
            h[i + m.len()..]
                .trim_start()
                .strip_prefix(':')
                .is_some_and(|r| r.trim_start().starts_with('{'))
        })
}

/// A parsed document with the 1-based line of each `statistics` element, in order.
pub(crate) struct Doc {
    pub(crate) root: JsonValue,
    lines: Vec<usize>,
    pub(crate) truncated: Option<SkippedLine>,
}

impl Doc {
    /// Line of the `k`-th (0-based, over all hosts) `statistics` element, else `k + 1`.
    pub(crate) fn line(&self, k: usize) -> usize {
        self.lines.get(k).copied().unwrap_or(k + 1)
    }
}

/// Where the `statistics` elements start (lines) and end (byte after `}`, with the closers
/// that would end the document there).
struct Scan {
    starts: Vec<usize>,
    ends: Vec<(usize, String)>,
}

/// A light tokenizer: strings (with escapes), brackets and lines only.
fn scan(text: &str) -> Scan {
    let b = text.as_bytes();
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    // (bracket, is a `statistics` array)
    let mut stack: Vec<(u8, bool)> = Vec::new();
    let mut line = 1usize;
    let mut i = 0usize;
    let mut last_str_is_stats = false;
    let mut key_is_stats = false;
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            b'"' => {
                let s = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    } else if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                last_str_is_stats = b.get(s..i) == Some(b"statistics".as_slice());
            }
            b':' => key_is_stats = last_str_is_stats,
            b',' => key_is_stats = false,
            b'[' => {
                let stats = key_is_stats && stack.last().is_some_and(|(c, _)| *c == b'{');
                stack.push((b'[', stats));
                key_is_stats = false;
            }
            b'{' => {
                if stack.last().is_some_and(|(c, s)| *c == b'[' && *s) {
                    starts.push(line);
                }
                stack.push((b'{', false));
                key_is_stats = false;
            }
            b'}' | b']' => {
                stack.pop();
                if b[i] == b'}' && stack.last().is_some_and(|(c, s)| *c == b'[' && *s) {
                    let closers: String = stack
                        .iter()
                        .rev()
                        .map(|(c, _)| if *c == b'{' { '}' } else { ']' })
                        .collect();
                    ends.push((i + 1, closers));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Scan { starts, ends }
}

/// True when a number printed with a decimal comma follows a key (`"tps": 0,56`): sysstat
/// before 11.5.2 printed JSON numbers in the locale.
fn decimal_commas(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(p) = memchr::memmem::find(&b[i..], b": ") {
        let mut j = i + p + 2;
        let s = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > s && j + 1 < b.len() && b[j] == b',' && b[j + 1].is_ascii_digit() {
            return true;
        }
        i = i + p + 2;
    }
    false
}

/// True when nothing but white space follows the error position (`line` 1-based, `column`
/// 1-based, 0 at a line start): the document was cut there (e.g. inside a string, where
/// serde_json reports the line end rather than the end of input).
fn blank_after(text: &str, line: usize, column: usize) -> bool {
    let mut start = 0usize;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(p) => start += p + 1,
            None => return false,
        }
    }
    let at = start + column.saturating_sub(1);
    text.get(at..).is_some_and(|r| r.trim().is_empty())
}

/// Parses a whole document; an unclosed document keeps its complete `statistics` records.
pub(crate) fn read(text: &str, what: &str) -> Result<Doc, ParseError> {
    let text = text.trim_start_matches('\u{feff}');
    let sc = scan(text);
    let e = match serde_json::from_str::<JsonValue>(text) {
        Ok(root) => {
            return Ok(Doc {
                root,
                lines: sc.starts,
                truncated: None,
            })
        }
        Err(e) => e,
    };
    if e.classify() == serde_json::error::Category::Eof || blank_after(text, e.line(), e.column()) {
        if let Some((end, closers)) = sc.ends.last() {
            let fixed = format!("{}{closers}", &text[..*end]);
            if let Ok(root) = serde_json::from_str::<JsonValue>(&fixed) {
                let kept = sc.ends.len();
                return Ok(Doc {
                    root,
                    lines: sc.starts,
                    truncated: Some(SkippedLine {
                        line: e.line(),
                        reason: format!(
                            "the JSON stops before its end (line {}, column {}): kept the {kept} \
                             complete 'statistics' records before the cut (an interrupted {what} run?)",
                            e.line(),
                            e.column()
                        ),
                    }),
                });
            }
        }
        return Err(ParseError::section(
            what,
            Some(e.line()),
            "a complete JSON document",
            format!("the JSON stops before its end, with no complete 'statistics' record ({e})"),
        ));
    }
    let hint = if decimal_commas(text) {
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

/// The host objects of `{"sysstat": {"hosts": […]}}`.
pub(crate) fn hosts<'a>(
    root: &'a JsonValue,
    what: &str,
) -> Result<Vec<&'a [(String, JsonValue)]>, ParseError> {
    let expected = "a {\"sysstat\": {\"hosts\": [ … ]}} document";
    let hosts = root
        .as_obj()
        .and_then(|o| get(o, "sysstat"))
        .and_then(JsonValue::as_obj)
        .and_then(|o| get(o, "hosts"))
        .and_then(JsonValue::as_arr)
        .ok_or_else(|| {
            ParseError::section(
                what,
                None,
                expected,
                "no 'sysstat' object with a 'hosts' array",
            )
        })?;
    hosts
        .iter()
        .map(|h| {
            h.as_obj().ok_or_else(|| {
                ParseError::section(what, None, expected, "a host that is not an object")
            })
        })
        .collect()
}

/// The banner fields of a host object.
pub(crate) fn header(host: &[(String, JsonValue)]) -> SystemHeader {
    let s = |k: &str| match get(host, k) {
        Some(JsonValue::Str(s)) => Some(s.clone()),
        _ => None,
    };
    SystemHeader {
        sysname: s("sysname").unwrap_or_default(),
        kernel: s("release").unwrap_or_default(),
        host: s("nodename").unwrap_or_default(),
        date: s("date").or_else(|| s("file-date")),
        arch: s("machine"),
        cpus: match get(host, "number-of-cpus") {
            Some(JsonValue::Num(n)) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as u32),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order() {
        let j: JsonValue = serde_json::from_str(r#"{"b": 1, "a": [null, "x", true]}"#).unwrap();
        let o = j.as_obj().unwrap();
        assert_eq!(o[0].0, "b");
        assert_eq!(
            o[1].1,
            JsonValue::Arr(vec![
                JsonValue::Null,
                JsonValue::Str("x".into()),
                JsonValue::Bool(true)
            ])
        );
    }

    #[test]
    fn scans_statistics_lines_and_ends() {
        let t = "{\"sysstat\": {\"hosts\": [{\"x\": \"s{[\\\"\", \"statistics\": [\n{\"a\": [1]},\n{\"b\": {}}\n]}]}}";
        let s = scan(t);
        assert_eq!(s.starts, vec![2, 3]);
        assert_eq!(s.ends.len(), 2);
        assert_eq!(s.ends[1].1, "]}]}}");
    }

    #[test]
    fn commas() {
        assert!(decimal_commas("{\"tps\": 0,56}"));
        assert!(!decimal_commas("{\"tps\": 0.56, \"x\": 1}"));
    }
}
