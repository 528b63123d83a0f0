//! `sadf -j` (JSON): the document streamed by the sysstat JSON reader, one `statistics` element
//! at a time.
//!
//! Flow: each `statistics` element becomes one report as soon as it has been read: `timestamp`
//! gives its time and interval, `disk` its devices and `io` the host total (the typed `sar -b`
//! row). The format streams: the state kept between elements is the first host's banner, the
//! warnings, the host names and the other activities seen (for the messages).

use super::*;

// ---------------------------------------------------------------------------------------------
// sadf -j
// ---------------------------------------------------------------------------------------------

/// JSON disk keys → sar column names (see the module table).
pub(super) const DISK_KEYS: &[(&str, &str)] = &[
    ("tps", "tps"),
    ("rd_sec", "rd_sec/s"),
    ("wr_sec", "wr_sec/s"),
    ("dc_sec", "dsec/s"),
    ("rkB", "rkB/s"),
    ("wkB", "wkB/s"),
    ("dkB", "dkB/s"),
    ("avgrq-sz", "avgrq-sz"),
    ("areq-sz", "areq-sz"),
    ("avgqu-sz", "avgqu-sz"),
    ("aqu-sz", "aqu-sz"),
    ("await", "await"),
    ("svctm", "svctm"),
    ("util-percent", "%util"),
];

/// JSON `io` keys (top level and inside `io-reads`/`io-writes`/`io-discard`) → sar -b columns.
pub(super) const IO_KEYS: &[(&str, &str)] = &[
    ("tps", "tps"),
    ("rtps", "rtps"),
    ("bread", "bread/s"),
    ("wtps", "wtps"),
    ("bwrtn", "bwrtn/s"),
    ("dtps", "dtps"),
    ("bdscd", "bdscd/s"),
];

/// sar options of the `sadf -j` activity keys, for the no-disk message.
pub(super) const JSON_ACTIVITIES: &[(&str, &str)] = &[
    ("cpu-load", "-u"),
    ("cpu-load-all", "-u ALL"),
    ("process-and-context-switch", "-w"),
    ("interrupts", "-I"),
    ("swap-pages", "-W"),
    ("paging", "-B"),
    ("memory", "-r/-S"),
    ("hugepages", "-H"),
    ("kernel", "-v"),
    ("queue", "-q"),
    ("serial", "-y"),
    ("network", "-n"),
    ("power-management", "-m"),
    ("filesystems", "-F"),
    ("psi", "-q PSI"),
];

pub(super) fn map_key(table: &[(&str, &'static str)], k: &str) -> Option<&'static str> {
    table.iter().find(|(j, _)| *j == k).map(|(_, c)| *c)
}

pub(super) fn json_value(
    k: &str,
    v: &JsonValue,
    what: &str,
    line: usize,
) -> Result<Option<f64>, ParseError> {
    json::number(v).map_err(|found| {
        ParseError::section(
            JSON_SECTION,
            Some(line),
            format!("a number for '{k}' of {what}"),
            found,
        )
    })
}

pub(super) fn disk_sample(
    d: &JsonValue,
    line: usize,
    log: &mut DeviceLog,
) -> Result<DeviceSample, ParseError> {
    let Some(obj) = d.as_obj() else {
        return Err(ParseError::section(
            JSON_SECTION,
            Some(line),
            "a device object in 'disk'",
            d.kind(),
        ));
    };
    let name = match json::get(obj, "disk-device") {
        Some(JsonValue::Str(s)) => s.trim().to_string(),
        _ => {
            return Err(ParseError::section(
                JSON_SECTION,
                Some(line),
                "a 'disk-device' name in each 'disk' object",
                "none",
            ))
        }
    };
    let mut values = Vec::with_capacity(obj.len());
    for (k, v) in obj {
        if k == "disk-device" {
            continue;
        }
        let c = map_key(DISK_KEYS, k).map_or_else(
            || {
                json::warn_unknown(log, line, k);
                k.clone()
            },
            str::to_string,
        );
        values.push((c, json_value(k, v, &format!("disk '{name}'"), line)?));
    }
    let normalised = sysstat_normalise(&values);
    Ok(DeviceSample {
        device: name,
        group: false,
        host_total: false,
        values,
        normalised,
    })
}

pub(super) fn io_sample(
    io: &JsonValue,
    line: usize,
    log: &mut DeviceLog,
) -> Result<DeviceSample, ParseError> {
    let Some(obj) = io.as_obj() else {
        return Err(ParseError::section(
            JSON_SECTION,
            Some(line),
            "an 'io' object",
            io.kind(),
        ));
    };
    let mut values = Vec::new();
    let mut push = |k: &str, v: &JsonValue, log: &mut DeviceLog| -> Result<(), ParseError> {
        let c = map_key(IO_KEYS, k).map_or_else(
            || {
                json::warn_unknown(log, line, k);
                k.to_string()
            },
            str::to_string,
        );
        values.push((c, json_value(k, v, "'io'", line)?));
        Ok(())
    };
    for (k, v) in obj {
        match v {
            JsonValue::Obj(inner) => {
                for (k2, v2) in inner {
                    push(k2, v2, log)?;
                }
            }
            _ => push(k, v, log)?,
        }
    }
    let normalised = sysstat_normalise(&values);
    Ok(DeviceSample {
        device: SAR_B.to_string(),
        group: true,
        host_total: true,
        values,
        normalised,
    })
}

/// Reads `"timestamp": {"date", "time", "utc" | "tz", "interval"}` into `r`.
pub(super) fn json_stamp(ts: &JsonValue, r: &mut DeviceReport) {
    let Some(o) = ts.as_obj() else {
        if let JsonValue::Str(s) = ts {
            r.timestamp = Some(s.trim().to_string());
        }
        return;
    };
    let s = |k: &str| match json::get(o, k) {
        Some(JsonValue::Str(s)) => Some(s.trim().to_string()),
        _ => None,
    };
    let (date, time, tz) = (s("date"), s("time"), s("tz"));
    let mut printed: Vec<String> = [date.clone(), time.clone()].into_iter().flatten().collect();
    if let Some(z) = &tz {
        if !z.is_empty() {
            printed.push(z.clone());
        }
    }
    if !printed.is_empty() {
        r.timestamp = Some(printed.join(" "));
    }
    if let (Some(d), Some(t)) = (&date, &time) {
        r.time = NaiveDateTime::parse_from_str(&format!("{d} {t}"), "%Y-%m-%d %H:%M:%S").ok();
    }
    r.utc = match (json::get(o, "utc"), tz.as_deref()) {
        (Some(JsonValue::Num(n)), _) => *n == 1.0,
        (Some(JsonValue::Bool(b)), _) => *b,
        (_, Some(z)) => matches!(z, "UTC" | "GMT" | "Z"),
        _ => false,
    };
    if let Some(JsonValue::Num(i)) = json::get(o, "interval") {
        r.interval_s = Some(*i);
    }
}

/// Parses `sadf -j` output.
///
/// # Errors
/// [`ParseError::Section`] for malformed JSON (serde_json's line and column), a document that is
/// not `{"sysstat": {"hosts": […]}}`, a disk object without `disk-device`, a value that is not a
/// number, or a document whose records hold neither `disk` nor `io` (the message lists the
/// activities it holds).
pub fn parse_json(text: &str) -> Result<DeviceLog, ParseError> {
    let mut reports = Vec::new();
    let mut log = read_json(&mut text.as_bytes(), &mut reports)?
        .unwrap_or_else(|| DeviceLog::new(JSON_FORMAT));
    log.reports = reports;
    Ok(log)
}

/// Reads `sadf -j` output from `src`, handing each report to `out` as soon as its `statistics`
/// element has been read. Returns the log without its reports (banner, warnings, skipped), or
/// `None` when `out` stopped the read.
///
/// # Errors
/// As [`parse_json`], and [`ParseError::Io`] (empty path) when reading fails.
pub(super) fn read_json(
    src: &mut dyn std::io::BufRead,
    out: &mut dyn json::Reports,
) -> Result<Option<DeviceLog>, ParseError> {
    let mut h = SadfHandler {
        log: DeviceLog::new(JSON_FORMAT),
        held: Vec::new(),
        names: Vec::new(),
        out,
        reports: 0,
    };
    let outcome = json::read_stream(src, JSON_SECTION, &mut h)?;
    if outcome.stopped {
        return Ok(None);
    }
    let SadfHandler {
        mut log,
        held,
        names,
        reports,
        ..
    } = h;
    if let Some(s) = outcome.truncated {
        log.warnings.insert(0, s.reason.clone());
        log.skipped.insert(0, s);
    }
    if reports == 0 {
        let mut found = String::from("no disk statistics: ");
        if held.is_empty() {
            found.push_str("no 'statistics' record");
        } else {
            found.push_str(&format!("the records hold {}", held.join(", ")));
        }
        if let Some(h) = names.first() {
            found.push_str(&format!(" (host {h})"));
        }
        return Err(ParseError::section(
            JSON_SECTION,
            None,
            "'disk' (sar -d) or 'io' (sar -b) statistics: export with `sadf -j <file> -- -d -b`",
            found,
        ));
    }
    if names.len() > 1 {
        log.warn(format!(
            "several hosts in one file ({}): their reports are listed one after the other",
            names.join(", ")
        ));
    }
    Ok(Some(log))
}

/// The `sadf -j` reading of a sysstat JSON document: what has been seen so far.
struct SadfHandler<'o> {
    /// Banner (the first host's), warnings and skipped lines.
    log: DeviceLog,
    /// The other activities the records hold, for the no-disk message.
    held: Vec<String>,
    /// The host names, in order.
    names: Vec<String>,
    out: &'o mut dyn json::Reports,
    /// Reports handed to `out`.
    reports: usize,
}

impl json::Handler for SadfHandler<'_> {
    fn host(&mut self, h: SystemHeader) -> Result<(), ParseError> {
        if !self.names.contains(&h.host) {
            self.names.push(h.host.clone());
        }
        if self.log.header.is_none() {
            self.log.header = Some(h);
        }
        Ok(())
    }

    fn not_array(&self, found: &'static str) -> ParseError {
        ParseError::section(JSON_SECTION, None, "'statistics' to be an array", found)
    }

    fn element(&mut self, entry: JsonValue, line: usize, _: usize) -> Result<bool, ParseError> {
        let Some(obj) = entry.as_obj() else {
            return Err(ParseError::section(
                JSON_SECTION,
                Some(line),
                "each 'statistics' element to be an object",
                entry.kind(),
            ));
        };
        let log = &mut self.log;
        for (k, v) in obj {
            if k == "timestamp" || k == "disk" || k == "io" {
                continue;
            }
            let opt = map_key(JSON_ACTIVITIES, k).map_or(String::new(), |o| format!("sar {o}"));
            let subs: Vec<&str> = v
                .as_obj()
                .map(|o| {
                    o.iter()
                        .filter(|(_, x)| matches!(x, JsonValue::Obj(_) | JsonValue::Arr(_)))
                        .map(|(s, _)| s.as_str())
                        .collect()
                })
                .unwrap_or_default();
            let label = match (subs.is_empty(), opt.is_empty()) {
                (true, true) => format!("'{k}'"),
                (true, false) => format!("'{k}' ({opt})"),
                (false, true) => format!("'{k}' ({})", subs.join(", ")),
                (false, false) => format!("'{k}' ({}; {opt})", subs.join(", ")),
            };
            if !self.held.contains(&label) {
                self.held.push(label);
            }
        }
        if json::get(obj, "disk").is_none() && json::get(obj, "io").is_none() {
            return Ok(true);
        }
        let mut r = DeviceReport::new(line);
        if let Some(ts) = json::get(obj, "timestamp") {
            json_stamp(ts, &mut r);
        }
        for (k, v) in obj {
            match k.as_str() {
                "io" => r.devices.push(io_sample(v, line, log)?),
                "disk" => {
                    let Some(a) = v.as_arr() else {
                        return Err(ParseError::section(
                            JSON_SECTION,
                            Some(line),
                            "'disk' to be an array",
                            v.kind(),
                        ));
                    };
                    for d in a {
                        r.devices.push(disk_sample(d, line, log)?);
                    }
                }
                _ => {}
            }
        }
        r.cpu = json::cpu_of(obj);
        self.reports += 1;
        self.out.report(r, self.log.header.as_ref())
    }
}
