//! The sysstat JSON reader shared by the `iostat -o JSON` and `sadf -j` parsers.
//!
//! Flow: [`read_stream`] reads the document from a reader with serde_json's streaming
//! deserializer (decoded on the fly by [`DecodeReader`]), walks the
//! `{"sysstat": {"hosts": […]}}` frame with visitors and hands each `statistics` element, an
//! order-keeping [`JsonValue`] (serde_json's `Value` sorts keys without its `preserve_order`
//! feature), to the format's [`Handler`] with the 1-based line where it starts, as soon as it has
//! been read; [`header`] reads a host's banner. So both formats stream: the state kept is the
//! banner of the host being read and one element. A document cut mid-write keeps the elements
//! before the cut, and the cut is reported as a skipped line. The whole-text parsers read their
//! text through the same reader.
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::disk::{CpuUtil, DeviceLog, DeviceReport, SystemHeader};
use crate::error::ParseError;

mod decode;
mod stream;
pub(crate) use decode::DecodeReader;
pub(crate) use stream::{read_stream, Handler};

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

/// The host CPU of one `statistics` element, found by key name, never by position: `iostat -o
/// JSON`'s `"avg-cpu": {"user", "nice", "system", "iowait", "steal", "idle"}` object, or the
/// element of `sadf -j`'s `"cpu-load"` / `"cpu-load-all"` array whose `"cpu"` is `"all"`
/// (`{"cpu": "all", "usr", "nice", "sys", "iowait", "steal", "irq", "soft", "guest", "gnice",
/// "idle"}`, sysstat `json_stats.c` `json_print_cpu_stats`). The keys are kept verbatim (the
/// `"cpu"` label left out); busy % = 100 − `idle` − `iowait` and iowait % = `iowait`
/// ([`CpuUtil::from_named`]). A value that is not a number is unknown (`None`), never 0.
/// `None` when the element holds neither.
pub(crate) fn cpu_of(obj: &[(String, JsonValue)]) -> Option<CpuUtil> {
    let flat = |o: &[(String, JsonValue)]| {
        let values = o
            .iter()
            .filter(|(k, _)| k != "cpu")
            .map(|(k, v)| (k.clone(), number(v).ok().flatten()))
            .collect();
        CpuUtil::from_named(values, "idle", "iowait")
    };
    if let Some(o) = get(obj, "avg-cpu").and_then(JsonValue::as_obj) {
        return Some(flat(o));
    }
    let all = ["cpu-load", "cpu-load-all"]
        .iter()
        .filter_map(|k| get(obj, k).and_then(JsonValue::as_arr))
        .flatten()
        .filter_map(JsonValue::as_obj)
        .find(|o| matches!(get(o, "cpu"), Some(JsonValue::Str(c)) if c.trim() == "all" || c.trim() == "-1"))?;
    Some(flat(all))
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

/// True when a number printed with a decimal comma follows a key (`"tps": 0,56`): sysstat
/// before 11.5.2 printed JSON numbers in the locale. (The streaming reader runs the same search
/// over the bytes it reads.)
#[cfg(test)]
fn decimal_commas(text: &str) -> bool {
    let mut state = 0;
    text.bytes().any(|b| {
        state = stream::comma_step(state, b);
        state == 5
    })
}

/// Where a format's reports go as they are read: the sink ([`crate::sink::DeviceStream`], when
/// streaming) or a vector (the whole-text parsers, which return a [`DeviceLog`]).
pub(crate) trait Reports {
    /// Hands one report on, with the log's banner so far; `Ok(false)` stops the read.
    ///
    /// # Errors
    /// The sink's.
    fn report(
        &mut self,
        report: DeviceReport,
        header: Option<&SystemHeader>,
    ) -> Result<bool, ParseError>;
}

impl Reports for crate::sink::DeviceStream<'_> {
    fn report(
        &mut self,
        report: DeviceReport,
        header: Option<&SystemHeader>,
    ) -> Result<bool, ParseError> {
        crate::sink::DeviceStream::report(self, report, header)
    }
}

impl Reports for Vec<DeviceReport> {
    fn report(
        &mut self,
        report: DeviceReport,
        _: Option<&SystemHeader>,
    ) -> Result<bool, ParseError> {
        self.push(report);
        Ok(true)
    }
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

    /// Records each element it is given, and each host.
    #[derive(Default)]
    struct Record {
        hosts: Vec<String>,
        lines: Vec<usize>,
    }

    impl Handler for Record {
        fn host(&mut self, header: SystemHeader) -> Result<(), ParseError> {
            self.hosts.push(header.host);
            Ok(())
        }
        fn element(&mut self, _: JsonValue, line: usize, _: usize) -> Result<bool, ParseError> {
            self.lines.push(line);
            Ok(true)
        }
        fn not_array(&self, found: &'static str) -> ParseError {
            ParseError::section("test", None, "an array", found)
        }
    }

    #[test]
    fn scans_statistics_lines_and_ends() {
        let t = "{\"sysstat\": {\"hosts\": [{\"x\": \"s{[\\\"\", \"statistics\": [\n{\"a\": [1]},\n{\"b\": {}}\n]}]}}";
        let mut r = Record::default();
        let out = read_stream(&mut t.as_bytes(), "test", &mut r).unwrap();
        assert_eq!(r.lines, vec![2, 3]);
        assert!(out.truncated.is_none());
        // Cut after the second element: both are kept, the cut is reported.
        let cut = &t[..t.find("\n]").unwrap()];
        let mut r = Record::default();
        let out = read_stream(&mut cut.as_bytes(), "test", &mut r).unwrap();
        assert_eq!(r.lines, vec![2, 3]);
        let skip = out.truncated.unwrap();
        assert!(
            skip.reason.contains("kept the 2 complete"),
            "{}",
            skip.reason
        );
        assert_eq!(r.hosts, vec![String::new()]);
    }

    #[test]
    fn commas() {
        assert!(decimal_commas("{\"tps\": 0,56}"));
        assert!(!decimal_commas("{\"tps\": 0.56, \"x\": 1}"));
    }
}
