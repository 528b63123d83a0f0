//! AIX `iostat` (plain and `-D`).
//!
//! Flow: a `System configuration:` banner starts a run; a plain table header or a `-D` device
//! line opens a device, whose `xfer:`/`read:`/`write:`/`queue:` stanzas follow; `-T` times end
//! each line; every table or device block of one interval becomes one report.

use super::*;

// ---------------------------------------------------------------------------------------------
// AIX
// ---------------------------------------------------------------------------------------------

pub(super) const AIX_STANZAS: [&str; 4] = ["xfer:", "read:", "write:", "queue:"];

pub(super) const AIX_PLAIN_KNOWN: &[&str] =
    &["% tm_act", "Kbps", "tps", "Kb_read", "Kb_wrtn", "time"];
pub(super) const AIX_D_KNOWN: &[&str] = &[
    "xfer:%tm_act",
    "xfer:bps",
    "xfer:tps",
    "xfer:bread",
    "xfer:bwrtn",
    "read:rps",
    "read:avgserv",
    "read:minserv",
    "read:maxserv",
    "read:timeouts",
    "read:fails",
    "write:wps",
    "write:avgserv",
    "write:minserv",
    "write:maxserv",
    "write:timeouts",
    "write:fails",
    "queue:avgtime",
    "queue:mintime",
    "queue:maxtime",
    "queue:avgwqsz",
    "queue:avgsqsz",
    "queue:sqfull",
];

/// True when the text holds AIX `iostat` device output: a `Disks:` header with `tm_act`, or a
/// `<disk> xfer: %tm_act …` stanza, in the first 64 KiB. Files of collectors that embed it
/// (OSWatcher, nmon) are left to their own parsers.
pub fn looks_like_aix(text: &str) -> bool {
    let h = head(text);
    if wrapped(h) {
        return false;
    }
    h.lines().any(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        (t.first() == Some(&"Disks:") && t.iter().any(|x| x.ends_with("tm_act")))
            || (t.len() >= 3 && t[1] == "xfer:" && t[2] == "%tm_act")
    })
}

/// Parses AIX `iostat` output with the default [`UnixIostatOptions`].
///
/// # Errors
/// As [`parse_aix_with`].
pub fn parse_aix(text: &str) -> Result<DeviceLog, ParseError> {
    parse_aix_with(text, UnixIostatOptions::default())
}

/// An active plain (`Disks:`) header.
pub(super) struct PlainTable {
    pub(super) columns: Vec<String>,
    pub(super) group: bool,
    pub(super) line: usize,
    pub(super) text: String,
}

/// A `-D` stanza header waiting for its value line.
pub(super) struct Stanza {
    pub(super) device: usize,
    pub(super) name: &'static str,
    pub(super) columns: Vec<String>,
    pub(super) line: usize,
}

/// Splits an AIX header into column names, joining a lone `%` to the next token (`% tm_act`).
pub(super) fn aix_columns(toks: &[&str]) -> Vec<String> {
    let mut cols = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "%" && i + 1 < toks.len() {
            cols.push(format!("% {}", toks[i + 1]));
            i += 2;
        } else {
            cols.push(toks[i].to_string());
            i += 1;
        }
    }
    cols
}

/// Value of an AIX cell. `time` says the column is a duration (ms; `S` seconds, `H` hours);
/// otherwise `K/M/G/T` are powers of 1000. `Ok(None)` with `unit_note` set for a time with a
/// suffix that is not documented.
pub(super) fn aix_cell(tok: &str, time: bool) -> Result<(Option<f64>, bool), String> {
    if time {
        if let Some(n) = tok.strip_suffix('S') {
            return number(n, Scale::Decimal).map(|v| (v.map(|v| v * 1000.0), false));
        }
        if let Some(n) = tok.strip_suffix('H') {
            return number(n, Scale::Decimal).map(|v| (v.map(|v| v * 3_600_000.0), false));
        }
        if tok.ends_with(|c: char| c.is_ascii_alphabetic()) {
            let bare = tok.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            return match number(bare, Scale::Decimal) {
                Ok(_) => Ok((None, true)),
                Err(e) => Err(e),
            };
        }
    }
    number(tok, Scale::Decimal).map(|v| (v, false))
}

pub(super) fn aix_time_column(stanza: &str, col: &str) -> bool {
    (stanza == "read:" || stanza == "write:") && col.ends_with("serv")
        || stanza == "queue:" && col.ends_with("time")
}

/// Parses AIX `iostat` output (plain or `-D`).
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text holds no AIX device statistics (no `Disks:` table,
/// no `xfer:` stanza: for example only `tty:`/CPU lines); [`ParseError::Section`] for the `-l`
/// long layout (not read) and for a value that is not a number.
pub fn parse_aix_with(text: &str, opts: UnixIostatOptions) -> Result<DeviceLog, ParseError> {
    let mut kept: Vec<DeviceReport> = Vec::new();
    let lines = crate::lines::text_lines(text);
    let (mut log, _) = aix_lines(lines, opts, &mut |done, _| {
        kept.append(done);
        Ok(true)
    })?;
    log.reports = kept;
    Ok(log)
}

/// Reads AIX `iostat` from `src` line by line into `sink` (see
/// [`crate::lines::with_stream_lines`] for the decoding), handing each report over as soon as the line after it is read.
///
/// [`crate::sink::Sink::device_begin`] must carry the first `System configuration:` banner, as
/// the collected parse's [`DeviceLog::header`] does; so reports are held back until that banner
/// has been read, and a log without one is handed over at its end.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else as [`parse_aix_with`] (an error in
/// the middle of the log comes after the reports before it: the sink drops them), or the sink's.
pub(crate) fn aix_stream_into(
    src: &mut dyn std::io::BufRead,
    settings: &crate::parser::ParseSettings,
    sink: &mut dyn crate::sink::Sink,
) -> Result<(), ParseError> {
    let opts = UnixIostatOptions::default();
    let mut out = crate::sink::DeviceStream::new(sink, crate::Format::AixIostat, settings);
    let (log, _) = crate::lines::with_stream_lines(src, |lines| {
        aix_lines(lines, opts, &mut |done, header| {
            for r in done.drain(..) {
                if !out.report(r, header)? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    })?;
    out.finish(log.warnings, log.skipped)
}

/// The finished reports, with the log's banner so far: `Ok(false)` stops the read.
type Flush<'a> =
    dyn FnMut(&mut Vec<DeviceReport>, Option<&SystemHeader>) -> Result<bool, ParseError> + 'a;

/// The AIX reader over any lines: `flush` receives the finished reports (and empties the vector)
/// before a line once the banner is known, and at the end. Returns the log (header, warnings and
/// skipped lines; its `reports` empty) and whether `flush` stopped it.
fn aix_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
    opts: UnixIostatOptions,
    flush: &mut Flush<'_>,
) -> Result<(DeviceLog, bool), ParseError> {
    let mut log = DeviceLog::new(AIX_FORMAT);
    let mut reports: Vec<DeviceReport> = Vec::new();
    let mut handed = 0usize;
    let mut cur: Option<DeviceReport> = None;
    let mut since_boot_next = opts.first_is_since_boot;
    let mut plain: Option<PlainTable> = None;
    let mut stanza: Option<Stanza> = None;
    let mut block_dev: Option<usize> = None;
    let mut skip_cpu_values = false;
    let mut saw_cpu = false;
    // The last `tty:` header: (line, tty column count, CPU column names), and the CPU values
    // read under it, waiting for the report they precede.
    let mut cpu_header: Option<(usize, usize, Vec<String>)> = None;
    let mut pending_cpu: Option<CpuUtil> = None;
    let mut cpu_warned = false;
    let mut in_system = false;
    // Unknown columns and odd time units can come once per column: warned through a set.
    let mut once = crate::disk::WarnOnce::default();
    // The devices of the current report, so a repeated one (the next report) is found by a
    // look-up, not a scan of the report (quadratic in its disks).
    let mut in_report: std::collections::HashSet<(String, bool)> = Default::default();

    // A report is complete when it is closed: its samples are normalised then.
    macro_rules! close {
        () => {
            if let Some(r) = cur.take() {
                finish(&mut log, normalised(r), &mut reports);
            }
        };
    }
    macro_rules! open {
        ($no:expr) => {{
            if cur.is_none() {
                in_report.clear();
                let mut r = DeviceReport::new($no);
                r.since_boot = since_boot_next;
                r.cpu = pending_cpu.take();
                since_boot_next = false;
                cur = Some(r);
            }
            cur.as_mut().expect("just opened")
        }};
    }

    for (i, raw) in lines.enumerate() {
        if !reports.is_empty() && log.header.is_some() {
            handed += reports.len();
            if !flush(&mut reports, log.header.as_ref())? {
                return Ok((log, true));
            }
        }
        let raw = raw?;
        let no = i + 1;
        let t = raw.as_ref().trim_end_matches('\r').trim();
        if t.is_empty() {
            in_system = false;
            continue;
        }
        if let Some(st) = stanza.take() {
            if values_line(t) {
                let toks: Vec<&str> = t.split_whitespace().collect();
                if toks.len() != st.columns.len() {
                    log.skipped.push(SkippedLine {
                        line: no,
                        reason: format!(
                            "{} values under the '{}' stanza header of line {} ({} columns): '{}'",
                            toks.len(),
                            st.name,
                            st.line,
                            st.columns.len(),
                            clip(t, CLIP_UNIX)
                        ),
                    });
                    continue;
                }
                let Some(r) = cur.as_mut().filter(|r| st.device < r.devices.len()) else {
                    continue;
                };
                for (c, tok) in st.columns.iter().zip(&toks) {
                    if c == "time" {
                        if r.timestamp.is_none() {
                            r.timestamp = Some(tok.to_string());
                        }
                        continue;
                    }
                    let name = format!("{}{}", st.name, c);
                    let (v, odd) = aix_cell(tok, aix_time_column(st.name, c)).map_err(|why| {
                        ParseError::section(
                            AIX_SECTION,
                            Some(no),
                            format!(
                                "a number in column '{c}' of the '{}' stanza of line {}",
                                st.name, st.line
                            ),
                            why,
                        )
                    })?;
                    if odd {
                        once.warn(
                            &mut log,
                            format!(
                                "line {no}: '{tok}' in '{name}' has a time unit AIX does not \
                             document (ms, S, H): left unknown"
                            ),
                        );
                    }
                    if !AIX_D_KNOWN.contains(&name.as_str()) {
                        once.warn(
                            &mut log,
                            format!("line {}: unknown column '{name}' kept as printed", st.line),
                        );
                    }
                    r.devices[st.device].values.push((name, v));
                }
                continue;
            }
            log.skipped.push(SkippedLine {
                line: st.line,
                reason: format!(
                    "the '{}' stanza header of '{}' has no value line after it (the -D block \
                     is cut)",
                    st.name,
                    cur.as_ref()
                        .map(|r| r.devices[st.device].device.clone())
                        .unwrap_or_default()
                ),
            });
        }
        if skip_cpu_values {
            skip_cpu_values = false;
            if values_line(t) {
                if let Some((line, tty, cols)) = &cpu_header {
                    pending_cpu = aix_cpu(t, *tty, cols);
                    if pending_cpu.is_none() && !cpu_warned {
                        // Once per log: a layout that does not match repeats every interval.
                        cpu_warned = true;
                        log.warn(format!(
                            "line {no}: the values do not match the tty/CPU header of line \
                             {line} ({tty} tty and {} CPU columns): the host CPU of this report \
                             (and of any later such line) is unknown",
                            cols.len()
                        ));
                    }
                }
                continue;
            }
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        if t.starts_with("System configuration:") {
            close!();
            block_dev = None;
            plain = None;
            since_boot_next = true;
            if log.header.is_none() {
                let cpus = toks
                    .iter()
                    .find_map(|x| x.strip_prefix("lcpu="))
                    .and_then(|n| n.parse().ok());
                log.header = Some(SystemHeader {
                    sysname: "AIX".into(),
                    cpus,
                    ..Default::default()
                });
            }
            continue;
        }
        if toks[0] == "tty:" {
            close!();
            block_dev = None;
            plain = None;
            saw_cpu = true;
            skip_cpu_values = true;
            pending_cpu = None;
            cpu_header = Some(aix_cpu_header(no, &toks));
            continue;
        }
        if toks[0] == "System:" {
            // `-s` system throughput: a name line, an unlabelled header and one value line.
            in_system = true;
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "'-s' system throughput line left out (a host total, not a disk): '{}'",
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        if in_system {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "'-s' system throughput line left out: '{}'",
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        if is_dash_line(t) {
            continue;
        }
        // `-D` stanza header: `<disk> xfer: …` or `read: …`.
        let (dev_name, label_at) = if AIX_STANZAS.contains(&toks[0]) {
            (None, 0)
        } else if toks.len() > 1 && AIX_STANZAS.contains(&toks[1]) {
            (Some(toks[0]), 1)
        } else {
            (None, usize::MAX)
        };
        if label_at != usize::MAX {
            plain = None;
            let name = AIX_STANZAS
                .iter()
                .find(|s| **s == toks[label_at])
                .copied()
                .expect("matched above");
            if let Some(d) = dev_name {
                // A `-D` block's disk is repeated whatever its group flag.
                let repeated = cur.is_some()
                    && (in_report.contains(&(d.to_string(), false))
                        || in_report.contains(&(d.to_string(), true)));
                if repeated {
                    close!();
                }
                let r = open!(no);
                in_report.insert((d.to_string(), false));
                r.devices.push(DeviceSample {
                    device: d.to_string(),
                    group: false,
                    host_total: false,
                    values: Vec::new(),
                    normalised: Normalised::default(),
                });
                block_dev = Some(r.devices.len() - 1);
            }
            let Some(device) = block_dev else {
                log.skipped.push(SkippedLine {
                    line: no,
                    reason: format!(
                        "a '{name}' stanza outside a disk block (no '<disk> xfer:' line before \
                         it; the -D output is cut): '{}'",
                        clip(t, CLIP_UNIX)
                    ),
                });
                // Its value line, if any, is skipped as data before a header.
                continue;
            };
            stanza = Some(Stanza {
                device,
                name,
                columns: toks[label_at + 1..].iter().map(|s| s.to_string()).collect(),
                line: no,
            });
            continue;
        }
        // Plain header: `Disks: % tm_act Kbps tps Kb_read Kb_wrtn [time]`, `Adapter: …`.
        if toks[0].ends_with(':') && toks.len() > 1 && !values_line(&toks[1..].join(" ")) {
            let cols = aix_columns(&toks[1..]);
            if cols.iter().any(|c| c == "xfers") {
                return Err(ParseError::section(
                    AIX_SECTION,
                    Some(no),
                    "the plain 'Disks:' table or the '-D' stanza layout",
                    "the '-l' long layout ('Disks: xfers read write queue'), which is not read: \
                     rerun iostat without -l (e.g. 'iostat -D 60 60')",
                ));
            }
            if cols.iter().any(|c| c == "tps" || c == "Kbps") {
                block_dev = None;
                for c in &cols {
                    if !AIX_PLAIN_KNOWN.contains(&c.as_str()) {
                        once.warn(
                            &mut log,
                            format!("line {no}: unknown column '{c}' kept as printed"),
                        );
                    }
                }
                plain = Some(PlainTable {
                    columns: cols,
                    group: toks[0].to_ascii_lowercase().contains("adapter"),
                    line: no,
                    text: t.to_string(),
                });
                continue;
            }
        }
        if let Some(p) = &plain {
            let n = p.columns.len();
            if toks.len() == n + 1 && values_line(&toks[1..].join(" ")) {
                let device = toks[0];
                let repeated = cur.is_some() && in_report.contains(&(device.to_string(), p.group));
                if repeated {
                    close!();
                }
                let (group, header_line) = (p.group, p.line);
                let columns = p.columns.clone();
                let r = open!(no);
                in_report.insert((device.to_string(), group));
                let mut values = Vec::with_capacity(n);
                for (c, tok) in columns.iter().zip(&toks[1..]) {
                    if c == "time" {
                        if r.timestamp.is_none() {
                            r.timestamp = Some(tok.to_string());
                        }
                        continue;
                    }
                    let (v, _) = aix_cell(tok, false).map_err(|why| {
                        ParseError::section(
                            AIX_SECTION,
                            Some(no),
                            format!("a number in column '{c}' of the header of line {header_line}"),
                            why,
                        )
                    })?;
                    values.push((c.clone(), v));
                }
                r.devices.push(DeviceSample {
                    device: device.to_string(),
                    group,
                    host_total: false,
                    values,
                    normalised: Normalised::default(),
                });
                continue;
            }
            if toks.len() > 1 && values_line(&toks[1..].join(" ")) {
                log.skipped.push(SkippedLine {
                    line: no,
                    reason: format!(
                        "a disk name and {n} values under the header of line {} ('{}'), found \
                         {} fields: '{}'",
                        p.line,
                        clip(&p.text, CLIP_UNIX),
                        toks.len(),
                        clip(t, CLIP_UNIX)
                    ),
                });
                continue;
            }
        }
        log.skipped.push(SkippedLine {
            line: no,
            reason: if values_line(t) {
                format!(
                    "values before any AIX iostat header: '{}'",
                    clip(t, CLIP_UNIX)
                )
            } else {
                format!("not AIX iostat output: '{}'", clip(t, CLIP_UNIX))
            },
        });
    }
    if let Some(st) = stanza.take() {
        log.skipped.push(SkippedLine {
            line: st.line,
            reason: format!(
                "the '{}' stanza header has no value line after it (the input ends: the -D \
                 block is cut)",
                st.name
            ),
        });
    }
    if let Some(r) = cur.take() {
        finish(&mut log, normalised(r), &mut reports);
    }
    if handed == 0 && reports.is_empty() {
        let what = if saw_cpu {
            "it holds only tty/CPU statistics"
        } else {
            "it holds no disk statistics"
        };
        return Err(ParseError::UnknownFormat {
            reason: format!(
                "expected AIX iostat disk statistics (a 'Disks:' table or '<disk> xfer:' \
                 stanzas from 'iostat -D'), but {what}"
            ),
        });
    }
    let stopped = !reports.is_empty() && !flush(&mut reports, log.header.as_ref())?;
    Ok((log, stopped))
}

/// The `tty:` header `tty: tin tout avg-cpu: % user % sys % idle % iowait [physc % entc]`:
/// `(line, count of tty columns, CPU column names)` (`% user` joined like `% tm_act`).
fn aix_cpu_header(line: usize, toks: &[&str]) -> (usize, usize, Vec<String>) {
    let rest = &toks[1..];
    match rest.iter().position(|t| *t == "avg-cpu:") {
        Some(k) => (line, k, aix_columns(&rest[k + 1..])),
        None => (line, rest.len(), Vec::new()),
    }
}

/// The host CPU of a tty/CPU value line, found by header name: the values after the `tty`
/// columns, named by the CPU columns (a `-T` `time` column is left out). Busy % = 100 − `% idle`
/// − `% iowait` (= `% user` + `% sys`), iowait % = `% iowait` ([`CpuUtil::from_named`]);
/// `physc` (physical processors consumed) and `% entc` (percent of the entitled capacity
/// consumed), printed on shared-processor LPARs, are kept in [`CpuUtil::values`]. A cell that
/// is not a number is unknown, never 0. `None` when the line has another count of values than
/// the header, or the header names no CPU column.
fn aix_cpu(t: &str, tty: usize, cols: &[String]) -> Option<CpuUtil> {
    let toks: Vec<&str> = t.split_whitespace().collect();
    if cols.is_empty() || toks.len() != tty + cols.len() {
        return None;
    }
    let values = cols
        .iter()
        .zip(&toks[tty..])
        .filter(|(c, _)| *c != "time")
        .map(|(c, v)| (c.clone(), aix_cell(v, false).ok().and_then(|(v, _)| v)))
        .collect();
    Some(CpuUtil::from_named(values, "% idle", "% iowait"))
}

/// A closed report with every sample's [`Normalised`] view filled from its values.
fn normalised(mut r: DeviceReport) -> DeviceReport {
    for d in &mut r.devices {
        d.normalised = aix_normalise(&d.values);
    }
    r
}

/// Normalises AIX columns (plain or `-D`, see the module table).
pub fn aix_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let v = |n: &str| lookup(values, n);
    if values.iter().any(|(n, _)| n.starts_with("xfer:")) || v("read:rps").is_some() {
        let (rps, wps, tps) = (v("read:rps"), v("write:wps"), v("xfer:tps"));
        let avgtime = v("queue:avgtime");
        let rserv = v("read:avgserv");
        let wserv = v("write:avgserv");
        let r_await = rserv.zip(avgtime).map(|(a, b)| a + b);
        let w_await = wserv.zip(avgtime).map(|(a, b)| a + b);
        Normalised {
            read_iops: rps,
            write_iops: wps,
            total_iops: tps,
            read_bytes_per_s: v("xfer:bread"),
            write_bytes_per_s: v("xfer:bwrtn"),
            read_await_ms: r_await,
            write_await_ms: w_await,
            await_ms: weighted(r_await, rps, w_await, wps),
            queue_depth: v("queue:avgwqsz")
                .zip(v("queue:avgsqsz"))
                .map(|(a, b)| a + b),
            avg_request_bytes: ratio(v("xfer:bps"), tps),
            read_request_bytes: ratio(v("xfer:bread"), rps),
            write_request_bytes: ratio(v("xfer:bwrtn"), wps),
            util_pct: v("xfer:%tm_act"),
            service_ms: weighted(rserv, rps, wserv, wps),
            ..Default::default()
        }
    } else {
        let kbps = v("Kbps").map(|k| k * 1024.0);
        Normalised {
            total_iops: v("tps"),
            total_bytes_per_s: kbps,
            avg_request_bytes: ratio(kbps, v("tps")),
            util_pct: v("% tm_act"),
            ..Default::default()
        }
    }
}
