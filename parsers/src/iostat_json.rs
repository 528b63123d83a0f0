//! Linux sysstat `iostat -o JSON` output (sysstat ≥ 11.5.1), into typed records.
//!
//! Format id `iostat_json`. Like the text parser ([`crate::iostat`]), not yet wired into
//! [`crate::detect`]: call [`looks_like`] and [`parse`] directly.
//!
//! # Layout
//! ```text
//! {"sysstat": {"hosts": [{"nodename": "SYSSTAT.TEST", "sysname": "Linux", "release": "1.2.3-TEST",
//!   "machine": "x86_64", "number-of-cpus": 9, "date": "06/01/20",
//!   "statistics": [{"timestamp": "06/01/20 12:53:20" (only with -t),
//!                   "avg-cpu": {"user": 1.49, …} (not with -d),
//!                   "disk": [{"disk_device": "sda", "r/s": 6.90, "rkB/s": 222.14, …}, …]}, …]}]}}
//! ```
//! (`../shared/reference/iostat-sar-formats.md` §1.6, read in sysstat's `iostat.c`
//! `write_json_*_stat`; sysstat-tests `expected.iostat-g-JSON`, `expected.iostat-x-p-ALL-JSON`.)
//! Each `statistics` element with a `disk` array becomes one [`DeviceReport`]; `avg-cpu` is
//! ignored. The banner fields fill [`SystemHeader`] (`release` → `kernel`, `machine` → `arch`,
//! `date` as printed: a `%x` locale date, not ISO). The optional `timestamp` string is kept as
//! printed in [`DeviceReport::timestamp`] (`time` stays `None`: `%x %X` is locale-dependent;
//! [`crate::disk::resolve_times`] reads it).
//!
//! The first `statistics` element of each host (each run) is the average since boot
//! (`since_boot`), as in text iostat; call [`parse_with`] with
//! [`Options::first_is_since_boot`] `= false` for a run taken with `-y`.
//!
//! # Key names
//! From 11.5.7 on the keys **are** iostat's column names (`tps`, `r/s`, `rkB/s`, `MB_read/s`,
//! `rrqm/s`, `r_await`, `rareq-sz`, `aqu-sz`, `kB/s`, …) and are kept as such; only these are
//! renamed to the column name iostat prints, so that [`crate::disk::sysstat_normalise`] reads
//! them:
//!
//! | JSON key | column | source |
//! |---|---|---|
//! | `util` | `%util` | `iostat.c` all versions |
//! | `rrqm`, `wrqm`, `drqm` when the object also has `rrqm/s` (≥ 11.5.7) | `%rrqm`, `%wrqm`, `%drqm` | `iostat.c` ≥ 11.5.7; e.g. `"rrqm/s": 0.39, … "rrqm": 5.38` in `expected.iostat-x-p-ALL-JSON` |
//! | `rrqm`, `wrqm` without `rrqm/s` (11.5.1 – 11.5.6 `-x`) | `rrqm/s`, `wrqm/s` (merges/s) | `iostat.c` 11.5.x `write_json_ext_stat` |
//! | `r`, `w` (11.5.1 – 11.5.6 `-x`) | `r/s`, `w/s` | idem |
//! | `rkB`, `wkB` (11.5.1 – 11.5.6 `-x`) | `rkB/s`, `wkB/s` | idem |
//! | `kB_read_per_sec`, `kB_wrtn_per_sec` (11.5.1 – 11.5.x basic) | `kB_read/s`, `kB_wrtn/s` | `iostat.c` 11.5.x `write_json_basic_stat` |
//!
//! The 11.5.x keys `avgrq-sz` (sectors), `avgqu-sz`, `await`, `r_await`, `w_await`, `svctm` are
//! already column names. Units then follow the column name through
//! [`crate::disk::sysstat_normalise`] (kB = 1024 bytes, MB = 2^20, sectors/blocks = 512; `-m` gives
//! `MB_read/s`, `rMB/s`, …). A key this module does not know is kept verbatim in
//! [`DeviceSample::values`] and listed once in [`DeviceLog::warnings`].
//!
//! # Tolerated quirks
//! - `-g` group rows: the name is printed with a leading space (`" disks"`): trimmed, and
//!   [`DeviceSample::group`] set;
//! - a value printed as `null` is `None`;
//! - a run interrupted before sysstat 12.1.4 leaves the JSON unclosed: the complete `statistics`
//!   records before the cut are kept, and the cut is counted in [`DeviceLog::skipped`];
//! - the keys of 11.5.1 – 11.5.6 `-x` and basic reports (table above). sysstat before 12.2.1
//!   labels `-m` values with kB keys in some reports; this cannot be seen in the file, so the
//!   key's unit is used (say so to the user when the run used `-m`).
//!
//! Malformed JSON is an error naming serde_json's line and column.
//!
//! # Example
//! ```
//! let text = r#"{"sysstat": {"hosts": [{"nodename": "h", "sysname": "Linux",
//!   "release": "5.8.0", "machine": "x86_64", "number-of-cpus": 2, "date": "12/02/2021",
//!   "statistics": [{"disk": [{"disk_device": "sda", "r/s": 2.00, "rkB/s": 8.00,
//!                             "aqu-sz": 0.01, "util": 0.40}]}]}]}}"#;
//! let log = sizer_parsers::iostat_json::parse(text).unwrap();
//! let sda = &log.reports[0].devices[0];
//! assert_eq!(sda.value("%util"), Some(0.40));
//! assert_eq!(sda.normalised.read_bytes_per_s, Some(8192.0));
//! assert!(log.reports[0].since_boot);
//! ```

use crate::disk::{sysstat_known, sysstat_normalise};
pub use crate::disk::{DeviceLog, DeviceReport, DeviceSample, Normalised, SystemHeader};
use crate::error::ParseError;
pub use crate::iostat::Options;

use json::J;

/// Format id.
const FORMAT: &str = "iostat_json";
/// Section name used in errors.
const SECTION: &str = "iostat -o JSON";

/// True when the text is a sysstat JSON document (`{"sysstat": …`) that is not `sadf -j` output
/// (no `"file-date"` key, no `"timestamp": {…}` object).
pub fn looks_like(text: &str) -> bool {
    json::is_sysstat(text) && !crate::sadf::looks_like_json(text)
}

/// Decodes bytes (rejecting empty and binary input, see [`crate::input::decode`]) and parses them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<DeviceLog, ParseError> {
    let d = crate::input::decode(bytes)?;
    parse(&d.text)
}

/// Parses `iostat -o JSON` output with the default [`Options`].
///
/// # Errors
/// [`ParseError::Section`] for malformed JSON (with serde_json's line and column), a document that
/// is not `{"sysstat": {"hosts": […]}}`, a disk entry without `disk_device` or with a value that is
/// not a number, or a document with no `disk` array at all (no disk statistics).
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    parse_with(text, Options::default())
}

/// Parses `iostat -o JSON` output.
///
/// # Errors
/// As [`parse`].
pub fn parse_with(text: &str, opts: Options) -> Result<DeviceLog, ParseError> {
    let doc = json::read(text, SECTION)?;
    let hosts = json::hosts(&doc.root, SECTION)?;
    let mut log = DeviceLog::new(FORMAT);
    if let Some(s) = doc.truncated.clone() {
        log.warn(s.reason.clone());
        log.skipped.push(s);
    }
    let mut record = 0usize;
    let mut cpu_only = false;
    for host in hosts {
        let h = json::header(host);
        if log.header.is_none() {
            log.header = Some(h);
        } else if log.header.as_ref().map(|x| &x.host) != Some(&h.host) {
            log.warn(format!(
                "several hosts in one file ({} and {}): their reports are listed one after the other",
                log.header.as_ref().map(|x| x.host.as_str()).unwrap_or(""),
                h.host
            ));
        }
        let stats = match json::get(host, "statistics") {
            Some(J::Arr(a)) => a.as_slice(),
            Some(_) => {
                return Err(ParseError::section(
                    SECTION,
                    None,
                    "'statistics' to be an array",
                    "another JSON type",
                ))
            }
            None => &[],
        };
        for (i, entry) in stats.iter().enumerate() {
            let line = doc.line(record);
            record += 1;
            let Some(obj) = entry.as_obj() else {
                return Err(ParseError::section(
                    SECTION,
                    Some(line),
                    "each 'statistics' element to be an object",
                    "another JSON type",
                ));
            };
            let Some(disks) = json::get(obj, "disk") else {
                cpu_only |= json::get(obj, "avg-cpu").is_some();
                continue;
            };
            let Some(disks) = disks.as_arr() else {
                return Err(ParseError::section(
                    SECTION,
                    Some(line),
                    "'disk' to be an array of device objects",
                    "another JSON type",
                ));
            };
            let mut r = DeviceReport::new(line);
            r.since_boot = i == 0 && opts.first_is_since_boot;
            r.timestamp = match json::get(obj, "timestamp") {
                Some(J::Str(s)) => Some(s.trim().to_string()),
                _ => None,
            };
            for d in disks {
                r.devices.push(device(d, line, &mut log)?);
            }
            log.reports.push(r);
        }
    }
    if log.reports.is_empty() {
        let found = if cpu_only {
            "no disk statistics: the file holds only CPU utilisation ('avg-cpu', iostat -c)"
        } else {
            "no disk statistics: no 'statistics' element has a 'disk' array"
        };
        return Err(ParseError::section(
            SECTION,
            None,
            "'disk' arrays of device statistics (run iostat -d -x -o JSON)",
            found,
        ));
    }
    Ok(log)
}

/// The column name iostat prints for a JSON key (see the module table).
fn column(key: &str, new_layout: bool) -> String {
    match key {
        "util" => "%util".into(),
        "rrqm" | "wrqm" | "drqm" if new_layout => format!("%{key}"),
        "rrqm" | "wrqm" | "drqm" => format!("{key}/s"),
        "r" | "w" => format!("{key}/s"),
        "rkB" | "wkB" => format!("{key}/s"),
        k => match k.strip_suffix("_per_sec") {
            Some(base) => format!("{base}/s"),
            None => k.to_string(),
        },
    }
}

fn device(d: &J, line: usize, log: &mut DeviceLog) -> Result<DeviceSample, ParseError> {
    let Some(obj) = d.as_obj() else {
        return Err(ParseError::section(
            SECTION,
            Some(line),
            "a device object in 'disk'",
            "another JSON type",
        ));
    };
    let name = match json::get(obj, "disk_device") {
        Some(J::Str(s)) => s.as_str(),
        _ => {
            return Err(ParseError::section(
                SECTION,
                Some(line),
                "a 'disk_device' name in each device object",
                "none",
            ))
        }
    };
    let new_layout = json::get(obj, "rrqm/s").is_some();
    let mut values = Vec::with_capacity(obj.len());
    for (k, v) in obj {
        if k == "disk_device" {
            continue;
        }
        let c = column(k, new_layout);
        if !sysstat_known(&c) {
            json::warn_unknown(log, line, k);
        }
        let v = json::number(v).map_err(|found| {
            ParseError::section(
                SECTION,
                Some(line),
                format!("a number for '{k}' of device '{}'", name.trim()),
                found,
            )
        })?;
        values.push((c, v));
    }
    let normalised = sysstat_normalise(&values);
    Ok(DeviceSample {
        device: name.trim().to_string(),
        group: name.starts_with(' '),
        values,
        normalised,
    })
}

/// JSON plumbing shared by `iostat -o JSON` and `sadf -j`: an order-keeping value type, record
/// line numbers, truncation recovery and the `{"sysstat": {"hosts": […]}}` frame.
pub(crate) mod json {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

    use crate::disk::{DeviceLog, Skip, SystemHeader};
    use crate::error::ParseError;

    /// A JSON value that keeps keys in printed order (serde_json's `Value` sorts them without
    /// its `preserve_order` feature).
    #[derive(Debug, Clone, PartialEq)]
    pub(crate) enum J {
        Null,
        Bool(bool),
        Num(f64),
        Str(String),
        Arr(Vec<J>),
        Obj(Vec<(String, J)>),
    }

    impl J {
        pub(crate) fn as_obj(&self) -> Option<&[(String, J)]> {
            match self {
                J::Obj(o) => Some(o),
                _ => None,
            }
        }
        pub(crate) fn as_arr(&self) -> Option<&[J]> {
            match self {
                J::Arr(a) => Some(a),
                _ => None,
            }
        }
        pub(crate) fn kind(&self) -> &'static str {
            match self {
                J::Null => "null",
                J::Bool(_) => "a boolean",
                J::Num(_) => "a number",
                J::Str(_) => "a string",
                J::Arr(_) => "an array",
                J::Obj(_) => "an object",
            }
        }
    }

    impl<'de> Deserialize<'de> for J {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(JVisitor)
        }
    }

    struct JVisitor;

    impl<'de> Visitor<'de> for JVisitor {
        type Value = J;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, v: bool) -> Result<J, E> {
            Ok(J::Bool(v))
        }
        fn visit_i64<E>(self, v: i64) -> Result<J, E> {
            Ok(J::Num(v as f64))
        }
        fn visit_u64<E>(self, v: u64) -> Result<J, E> {
            Ok(J::Num(v as f64))
        }
        fn visit_f64<E>(self, v: f64) -> Result<J, E> {
            Ok(J::Num(v))
        }
        fn visit_str<E>(self, v: &str) -> Result<J, E> {
            Ok(J::Str(v.to_string()))
        }
        fn visit_string<E>(self, v: String) -> Result<J, E> {
            Ok(J::Str(v))
        }
        fn visit_unit<E>(self) -> Result<J, E> {
            Ok(J::Null)
        }
        fn visit_none<E>(self) -> Result<J, E> {
            Ok(J::Null)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<J, D::Error> {
            J::deserialize(d)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<J, A::Error> {
            let mut v = Vec::new();
            while let Some(x) = s.next_element()? {
                v.push(x);
            }
            Ok(J::Arr(v))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<J, A::Error> {
            let mut v = Vec::new();
            while let Some((k, x)) = m.next_entry::<String, J>()? {
                v.push((k, x));
            }
            Ok(J::Obj(v))
        }
    }

    /// The first value of `key` in an object.
    pub(crate) fn get<'a>(obj: &'a [(String, J)], key: &str) -> Option<&'a J> {
        obj.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A value cell: a number, or `None` for `null`; anything else is `Err(what was found)`.
    pub(crate) fn number(v: &J) -> Result<Option<f64>, String> {
        match v {
            J::Num(n) if n.is_finite() => Ok(Some(*n)),
            J::Null => Ok(None),
            J::Str(s) => Err(format!("the string \"{s}\"")),
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
        let text = text.trim_start_matches('\u{feff}');
        let mut n = text.len().min(64 * 1024);
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        &text[..n]
    }

    /// A JSON object whose first key is `"sysstat"` (sadf -j or iostat -o JSON).
    pub(crate) fn is_sysstat(text: &str) -> bool {
        let h = head(text).trim_start();
        h.strip_prefix('{')
            .is_some_and(|r| r.trim_start().starts_with("\"sysstat\""))
    }

    /// A parsed document with the 1-based line of each `statistics` element, in order.
    pub(crate) struct Doc {
        pub(crate) root: J,
        lines: Vec<usize>,
        pub(crate) truncated: Option<Skip>,
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
        let e = match serde_json::from_str::<J>(text) {
            Ok(root) => {
                return Ok(Doc {
                    root,
                    lines: sc.starts,
                    truncated: None,
                })
            }
            Err(e) => e,
        };
        if e.classify() == serde_json::error::Category::Eof
            || blank_after(text, e.line(), e.column())
        {
            if let Some((end, closers)) = sc.ends.last() {
                let fixed = format!("{}{closers}", &text[..*end]);
                if let Ok(root) = serde_json::from_str::<J>(&fixed) {
                    let kept = sc.ends.len();
                    return Ok(Doc {
                        root,
                        lines: sc.starts,
                        truncated: Some(Skip {
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
                format!(
                    "the JSON stops before its end, with no complete 'statistics' record ({e})"
                ),
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
    pub(crate) fn hosts<'a>(root: &'a J, what: &str) -> Result<Vec<&'a [(String, J)]>, ParseError> {
        let expected = "a {\"sysstat\": {\"hosts\": [ … ]}} document";
        let hosts = root
            .as_obj()
            .and_then(|o| get(o, "sysstat"))
            .and_then(J::as_obj)
            .and_then(|o| get(o, "hosts"))
            .and_then(J::as_arr)
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
    pub(crate) fn header(host: &[(String, J)]) -> SystemHeader {
        let s = |k: &str| match get(host, k) {
            Some(J::Str(s)) => Some(s.clone()),
            _ => None,
        };
        SystemHeader {
            sysname: s("sysname").unwrap_or_default(),
            kernel: s("release").unwrap_or_default(),
            host: s("nodename").unwrap_or_default(),
            date: s("date").or_else(|| s("file-date")),
            arch: s("machine"),
            cpus: match get(host, "number-of-cpus") {
                Some(J::Num(n)) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as u32),
                _ => None,
            },
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn keeps_key_order() {
            let j: J = serde_json::from_str(r#"{"b": 1, "a": [null, "x", true]}"#).unwrap();
            let o = j.as_obj().unwrap();
            assert_eq!(o[0].0, "b");
            assert_eq!(
                o[1].1,
                J::Arr(vec![J::Null, J::Str("x".into()), J::Bool(true)])
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names() {
        assert_eq!(column("util", true), "%util");
        assert_eq!(column("rrqm", true), "%rrqm");
        assert_eq!(column("rrqm", false), "rrqm/s");
        assert_eq!(column("r", false), "r/s");
        assert_eq!(column("rkB", false), "rkB/s");
        assert_eq!(column("kB_read_per_sec", false), "kB_read/s");
        assert_eq!(column("rareq-sz", true), "rareq-sz");
    }
}
