//! Linux sysstat `iostat -o JSON` output (sysstat ≥ 11.5.1), into typed records.
//!
//! Format id `iostat_json`, registered as [`IostatJson`] (after `sadf -j`, whose documents are
//! `{"sysstat": …}` too); [`looks_like`] and [`parse`] read a text directly.
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
//! Each `statistics` element with a `disk` array becomes one [`DeviceReport`]; its `avg-cpu`
//! object (`user`, `nice`, `system`, `iowait`, `steal`, `idle`, keys verbatim) becomes
//! [`DeviceReport::cpu`] (busy % = 100 − `idle` − `iowait`). The banner fields fill [`SystemHeader`] (`release` → `kernel`, `machine` → `arch`,
//! `date` as printed: a `%x` locale date, not ISO). The optional `timestamp` string is kept as
//! printed in [`DeviceReport::timestamp`] (`time` stays `None`: `%x %X` is locale-dependent;
//! [`crate::disk::resolve_times`] reads it).
//!
//! The first `statistics` element of each host (each run) is the average since boot
//! (`since_boot`), as in text iostat; call [`parse_with`] with
//! [`ReaderOptions::first_is_since_boot`] `= false` for a run taken with `-y`.
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
//! # Streaming
//! The document is read from a reader by the shared sysstat JSON reader
//! (`sysstat_json`): each report goes to the sink as soon as its `statistics` element
//! has been read; the state kept between elements is the first host's banner and the warnings.
//! The banner is the host's keys printed before `statistics` (as sysstat prints them).
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
pub use crate::iostat::ReaderOptions;

use crate::sysstat_json::{self as json, JsonValue};

/// Format id.
const FORMAT: &str = "iostat_json";
/// Section name used in errors.
const SECTION: &str = "iostat -o JSON";

/// True when the text is a sysstat JSON document (`{"sysstat": …`) that is not `sadf -j` output
/// (no `"file-date"` key, no `"timestamp": {…}` object).
pub fn looks_like(text: &str) -> bool {
    json::is_sysstat(text) && !json::is_sadf_document(text)
}

/// Decodes bytes (rejecting empty and binary input, see [`crate::input::decode`]) and parses them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<DeviceLog, ParseError> {
    let d = crate::input::decode(bytes)?;
    parse(&d.text)
}

/// Parses `iostat -o JSON` output with the default [`ReaderOptions`].
///
/// # Errors
/// [`ParseError::Section`] for malformed JSON (with serde_json's line and column), a document that
/// is not `{"sysstat": {"hosts": […]}}`, a disk entry without `disk_device` or with a value that is
/// not a number, or a document with no `disk` array at all (no disk statistics).
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    parse_with(text, ReaderOptions::default())
}

/// Parses `iostat -o JSON` output.
///
/// # Errors
/// As [`parse`].
pub fn parse_with(text: &str, opts: ReaderOptions) -> Result<DeviceLog, ParseError> {
    let mut reports = Vec::new();
    let mut log =
        read(&mut text.as_bytes(), opts, &mut reports)?.unwrap_or_else(|| DeviceLog::new(FORMAT));
    log.reports = reports;
    Ok(log)
}

/// Reads `iostat -o JSON` output from `src`, handing each report to `out` as soon as its
/// `statistics` element has been read. Returns the log without its reports (banner, warnings,
/// skipped), or `None` when `out` stopped the read.
///
/// # Errors
/// As [`parse`], and [`ParseError::Io`] (empty path) when reading fails.
fn read(
    src: &mut dyn std::io::BufRead,
    opts: ReaderOptions,
    out: &mut dyn json::Reports,
) -> Result<Option<DeviceLog>, ParseError> {
    let mut h = IostatHandler {
        log: DeviceLog::new(FORMAT),
        opts,
        cpu_only: false,
        out,
        reports: 0,
    };
    let outcome = json::read_stream(src, SECTION, &mut h)?;
    if outcome.stopped {
        return Ok(None);
    }
    let IostatHandler {
        mut log,
        cpu_only,
        reports,
        ..
    } = h;
    if let Some(s) = outcome.truncated {
        log.warnings.insert(0, s.reason.clone());
        log.skipped.insert(0, s);
    }
    if reports == 0 {
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
    Ok(Some(log))
}

/// The `iostat -o JSON` reading of a sysstat JSON document: what has been seen so far.
struct IostatHandler<'o> {
    /// Banner (the first host's), warnings and skipped lines.
    log: DeviceLog,
    opts: ReaderOptions,
    /// An element held `avg-cpu` without `disk`.
    cpu_only: bool,
    out: &'o mut dyn json::Reports,
    /// Reports handed to `out`.
    reports: usize,
}

impl json::Handler for IostatHandler<'_> {
    fn host(&mut self, h: SystemHeader) -> Result<(), ParseError> {
        let log = &mut self.log;
        if log.header.is_none() {
            log.header = Some(h);
        } else if log.header.as_ref().map(|x| &x.host) != Some(&h.host) {
            log.warn(format!(
                "several hosts in one file ({} and {}): their reports are listed one after the other",
                log.header.as_ref().map(|x| x.host.as_str()).unwrap_or(""),
                h.host
            ));
        }
        Ok(())
    }

    fn not_array(&self, _: &'static str) -> ParseError {
        ParseError::section(
            SECTION,
            None,
            "'statistics' to be an array",
            "another JSON type",
        )
    }

    fn element(&mut self, entry: JsonValue, line: usize, i: usize) -> Result<bool, ParseError> {
        let Some(obj) = entry.as_obj() else {
            return Err(ParseError::section(
                SECTION,
                Some(line),
                "each 'statistics' element to be an object",
                "another JSON type",
            ));
        };
        let Some(disks) = json::get(obj, "disk") else {
            self.cpu_only |= json::get(obj, "avg-cpu").is_some();
            return Ok(true);
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
        r.since_boot = i == 0 && self.opts.first_is_since_boot;
        r.timestamp = match json::get(obj, "timestamp") {
            Some(JsonValue::Str(s)) => Some(s.trim().to_string()),
            _ => None,
        };
        for d in disks {
            r.devices.push(device(d, line, &mut self.log)?);
        }
        r.cpu = json::cpu_of(obj);
        self.reports += 1;
        self.out.report(r, self.log.header.as_ref())
    }
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

fn device(d: &JsonValue, line: usize, log: &mut DeviceLog) -> Result<DeviceSample, ParseError> {
    let Some(obj) = d.as_obj() else {
        return Err(ParseError::section(
            SECTION,
            Some(line),
            "a device object in 'disk'",
            "another JSON type",
        ));
    };
    let name = match json::get(obj, "disk_device") {
        Some(JsonValue::Str(s)) => s.as_str(),
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
        host_total: false,
        values,
        normalised,
    })
}

/// The `iostat -o JSON` format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct IostatJson;

impl crate::parser::FormatParser for IostatJson {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::IostatJson,
            id: "iostat_json",
            name: "iostat JSON log",
            kind: crate::sink::RecordKind::Devices,
            description: "sysstat `iostat -o JSON` (11.5.1+)",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like(text)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        crate::parser::devices_into(parse(text), self.info(), settings, sink)
    }

    fn streams(&self) -> bool {
        true
    }

    /// Streams the document: each report goes to the sink as soon as its `statistics` element
    /// has been read.
    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let mut out = crate::sink::DeviceStream::new(sink, crate::Format::IostatJson, settings);
        match read(src, ReaderOptions::default(), &mut out)? {
            Some(log) => out.finish(log.warnings, log.skipped),
            None => Ok(()),
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
