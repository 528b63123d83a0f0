//! Solaris / illumos `iostat -x` (`-xn`, `-xzn`, `-T d|u`).
//!
//! Flow: a `-T` time-stamp line (a `date(1)` line or epoch seconds) or an `extended device
//! statistics` header starts a report; each following row is one device, its columns mapped by
//! the header names.

use super::*;

// ---------------------------------------------------------------------------------------------
// Solaris
// ---------------------------------------------------------------------------------------------

pub(super) const SOL_KNOWN: &[&str] = &[
    "r/s", "w/s", "kr/s", "kw/s", "Mr/s", "Mw/s", "wait", "actv", "wsvc_t", "asvc_t", "svc_t",
    "%w", "%b", "s/w", "h/w", "trn", "tot",
];
/// `-t` / `-c` columns: system values printed on the first row only.
pub(super) const SOL_SYSTEM: &[&str] = &["tin", "tout", "us", "sy", "wt", "id"];

/// A Solaris device header.
pub(super) struct SolTable {
    /// Device columns before the `device` column (all of them with `-n`).
    pub(super) before: Vec<String>,
    /// Device columns after the `device` column (all of them without `-n`).
    pub(super) after: Vec<String>,
    /// tty/CPU columns (first row only).
    pub(super) system: usize,
    /// Their names in printed order, when they all come after the device columns (the only
    /// layout Solaris prints: `-xtc`, device first); empty otherwise (then they are left out).
    pub(super) system_names: Vec<String>,
    pub(super) line: usize,
    pub(super) text: String,
}

pub(super) fn sol_header(t: &str) -> Option<SolTable> {
    let toks: Vec<&str> = t.split_whitespace().collect();
    let di = toks.iter().position(|x| *x == "device")?;
    let has = |c: &str| toks.contains(&c);
    if !((has("r/s") && has("w/s")) || (has("Mr/s") && has("Mw/s"))) {
        return None;
    }
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut system = 0;
    let mut system_names = Vec::new();
    let mut trailing = true;
    for (k, tok) in toks.iter().enumerate() {
        if k == di {
            continue;
        }
        if SOL_SYSTEM.contains(tok) {
            system += 1;
            system_names.push(tok.to_string());
            continue;
        }
        trailing &= system == 0;
        if k < di {
            before.push(tok.to_string());
        } else {
            after.push(tok.to_string());
        }
    }
    if !trailing || di + 1 + after.len() + system != toks.len() {
        system_names.clear();
    }
    Some(SolTable {
        before,
        after,
        system,
        system_names,
        line: 0,
        text: t.to_string(),
    })
}

/// A `-c`/`-tc` CPU header printed on its own line (`us sy wt id`, `tin tout us sy wt id`:
/// `iostat -xnc` prints it before the device table, whose device is last): its column names.
pub(super) fn sol_cpu_header(t: &str) -> Option<Vec<String>> {
    let toks: Vec<&str> = t.split_whitespace().collect();
    (toks.contains(&"id") && toks.contains(&"us") && toks.iter().all(|x| SOL_SYSTEM.contains(x)))
        .then(|| toks.iter().map(|x| x.to_string()).collect())
}

/// The warning for a log whose CPU columns print `wt`, which is not measured.
const WT_UNMEASURED: &str = "host CPU wt is printed but not used: Solaris 10 and later always print it as 0 (OpenSolaris perf-discuss, quoted at https://prefetch.net/blog/2005/06/12/mpstats-wi-wait-on-io-statistic) and iostat prints no release, so the IO wait is unknown; busy = 100 − id − wt";

/// The host CPU from Solaris tty/CPU columns (`names` and `cells` in printed order), by name:
/// `us` (user), `sy` (system), `wt` (wait for I/O), `id` (idle), percent of time (`iostat(1M)`);
/// `tin`/`tout` (tty characters) are not CPU and are left out. Busy % = 100 − `id` − `wt`
/// (= `us` + `sy`). Solaris 10 and later always print `wt` as 0 (see the module docs), and an
/// iostat log does not say its release, so the IO wait is unknown
/// ([`CpuUtil::with_unmeasured_iowait`]); `wt` is kept as printed. A cell that is not a number
/// is unknown, never 0.
pub(super) fn sol_cpu<'a>(
    names: impl Iterator<Item = &'a String>,
    cells: impl Iterator<Item = &'a str>,
) -> CpuUtil {
    let values = names
        .zip(cells)
        .filter(|(c, _)| matches!(c.as_str(), "us" | "sy" | "wt" | "id"))
        .map(|(c, v)| (c.clone(), number(v, Scale::Decimal).ok().flatten()))
        .collect();
    CpuUtil::with_unmeasured_iowait(values, "id", "wt")
}

/// True when the text holds Solaris/illumos `iostat -x` output: a header naming `r/s`, `w/s`,
/// `actv` and a `device` column, in the first 64 KiB (FreeBSD's `iostat -x` has no `actv`; Linux
/// names `Device` and `rkB/s`). Files of collectors that embed it (OSWatcher) are left to their
/// own parser.
pub fn looks_like_solaris(text: &str) -> bool {
    let h = head(text);
    if wrapped(h) {
        return false;
    }
    h.lines().any(|l| {
        let toks: Vec<&str> = l.split_whitespace().collect();
        toks.contains(&"actv") && sol_header(l).is_some()
    })
}

/// Parses Solaris `iostat -x` output with the default [`UnixIostatOptions`].
///
/// # Errors
/// As [`parse_solaris_with`].
pub fn parse_solaris(text: &str) -> Result<DeviceLog, ParseError> {
    parse_solaris_with(text, UnixIostatOptions::default())
}

/// A `-T u` epoch line (`1380065283`).
pub(super) fn epoch_line(t: &str) -> Option<NaiveDateTime> {
    if (9..=11).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()) {
        return DateTime::from_timestamp(t.parse().ok()?, 0).map(|d| d.naive_utc());
    }
    None
}

/// Parses Solaris/illumos `iostat -x` output.
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text holds no `iostat -x` device header or no device
/// line.
pub fn parse_solaris_with(text: &str, opts: UnixIostatOptions) -> Result<DeviceLog, ParseError> {
    let mut kept: Vec<DeviceReport> = Vec::new();
    let lines = crate::lines::text_lines(text);
    let (mut log, _) = solaris_lines(lines, opts, &mut |done| {
        kept.append(done);
        Ok(true)
    })?;
    log.reports = kept;
    Ok(log)
}

/// Reads Solaris `iostat -x` from `src` line by line into `sink` (see
/// [`crate::lines::with_stream_lines`] for the decoding), handing each report over as soon as the next one starts.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else as [`parse_solaris_with`], or the
/// sink's.
pub(crate) fn solaris_stream_into(
    src: &mut dyn std::io::BufRead,
    settings: &crate::parser::ParseSettings,
    sink: &mut dyn crate::sink::Sink,
) -> Result<(), ParseError> {
    let opts = UnixIostatOptions::default();
    let mut out = crate::sink::DeviceStream::new(sink, crate::Format::SolarisIostat, settings);
    let (log, _) = crate::lines::with_stream_lines(src, |lines| {
        solaris_lines(lines, opts, &mut |done| {
            for r in done.drain(..) {
                if !out.report(r, None)? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    })?;
    out.finish(log.warnings, log.skipped)
}

/// The Solaris reader over any lines: `flush` receives the finished reports (and empties the
/// vector) before each line and at the end; `Ok(false)` from it stops the read. Returns the log
/// (warnings and skipped lines; its `reports` empty) and whether `flush` stopped it.
fn solaris_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
    opts: UnixIostatOptions,
    flush: &mut dyn FnMut(&mut Vec<DeviceReport>) -> Result<bool, ParseError>,
) -> Result<(DeviceLog, bool), ParseError> {
    let mut log = DeviceLog::new(SOLARIS_FORMAT);
    let mut reports: Vec<DeviceReport> = Vec::new();
    let mut handed = 0usize;
    let mut cur: Option<DeviceReport> = None;
    let mut table: Option<SolTable> = None;
    let mut since_boot_next = opts.first_is_since_boot;
    let mut saw_header = false;
    // A CPU header on its own line waits for its value line; the CPU read under it waits for
    // the report whose devices follow.
    let mut cpu_header: Option<Vec<String>> = None;
    let mut pending_cpu: Option<CpuUtil> = None;
    let mut cpu_warned = false;
    // One warning per unknown column, through a set (a wide header is not quadratic).
    let mut once = crate::disk::WarnOnce::default();

    let mut new_report = |cur: &mut Option<DeviceReport>,
                          log: &mut DeviceLog,
                          reports: &mut Vec<DeviceReport>,
                          no: usize| {
        if let Some(r) = cur.take() {
            finish(log, r, reports);
        }
        let mut r = DeviceReport::new(no);
        r.since_boot = since_boot_next;
        since_boot_next = false;
        *cur = Some(r);
    };

    for (i, raw) in lines.enumerate() {
        if !reports.is_empty() {
            handed += reports.len();
            if !flush(&mut reports)? {
                return Ok((log, true));
            }
        }
        let raw = raw?;
        let no = i + 1;
        let t = raw.as_ref().trim_end_matches('\r').trim();
        if t.is_empty() {
            continue;
        }
        if let Some(cols) = cpu_header.take() {
            let toks: Vec<&str> = t.split_whitespace().collect();
            if values_line(t) && toks.len() == cols.len() {
                pending_cpu = Some(sol_cpu(cols.iter(), toks.into_iter()));
                continue;
            }
            if !cpu_warned {
                // Once per log: a layout that does not match repeats every interval.
                cpu_warned = true;
                log.warn(format!(
                    "line {no}: no value line under the CPU header ({}): the host CPU is unknown \
                     there (and wherever this recurs)",
                    cols.join(" ")
                ));
            }
        }
        if let Some(cols) = sol_cpu_header(t) {
            cpu_header = Some(cols);
            continue;
        }
        if t.split_whitespace().all(|x| x == "tty" || x == "cpu") {
            continue; // the title over a CPU header (`     cpu`, `   tty        cpu`)
        }
        if t.contains("extended device statistics") {
            // Keep a report opened by a `-T` line just before the title.
            let keep = cur
                .as_ref()
                .is_some_and(|r| r.devices.is_empty() && r.timestamp.is_some())
                && table.is_none();
            if !keep {
                new_report(&mut cur, &mut log, &mut reports, no);
            }
            table = None;
            continue;
        }
        let stamp = epoch_line(t)
            .map(|d| (d, true))
            .or_else(|| crate::dates::date_text_time(t).map(|d| (d, false)));
        if let Some((time, utc)) = stamp {
            new_report(&mut cur, &mut log, &mut reports, no);
            table = None;
            let r = cur.as_mut().expect("opened");
            r.timestamp = Some(t.to_string());
            r.time = Some(time);
            r.utc = utc;
            continue;
        }
        if let Some(mut h) = sol_header(t) {
            saw_header = true;
            h.line = no;
            let fresh = cur.as_ref().is_some_and(|r| r.devices.is_empty()) && table.is_none();
            if !fresh {
                new_report(&mut cur, &mut log, &mut reports, no);
            }
            for c in h.before.iter().chain(&h.after) {
                if !SOL_KNOWN.contains(&c.as_str()) {
                    once.warn(
                        &mut log,
                        format!("line {no}: unknown column '{c}' kept as printed"),
                    );
                }
            }
            if h.system > 0 && h.system_names.is_empty() {
                log.warn(format!(
                    "line {no}: tty/CPU columns (-t/-c) left out: they are system values printed \
                     on the first row only, and here not after the device columns"
                ));
            }
            table = Some(h);
            continue;
        }
        if t.starts_with("<<") && t.ends_with(">>") {
            log.warn(format!("line {no}: state-change message ignored: '{t}'"));
            continue;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        let Some(tb) = &table else {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "not Solaris iostat -x output (no device header before it): '{}'",
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        };
        let (nb, na) = (tb.before.len(), tb.after.len());
        let numeric = toks.len() > 1
            && toks
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != nb)
                .all(|(_, x)| values_line(x));
        if !numeric {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!("not Solaris iostat -x output: '{}'", clip(t, CLIP_UNIX)),
            });
            continue;
        }
        if toks.len() != nb + 1 + na && toks.len() != nb + 1 + na + tb.system {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "{} values and a device name under the header of line {} ('{}'), found {} \
                     fields: '{}'",
                    nb + na,
                    tb.line,
                    clip(&tb.text, CLIP_UNIX),
                    toks.len(),
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        let device = toks[nb];
        let row_cpu = (toks.len() == nb + 1 + na + tb.system && !tb.system_names.is_empty())
            .then(|| sol_cpu(tb.system_names.iter(), toks[nb + 1 + na..].iter().copied()));
        let cells = toks[..nb].iter().chain(&toks[nb + 1..nb + 1 + na]);
        let names = tb.before.iter().chain(&tb.after);
        let mut values = Vec::with_capacity(nb + na);
        let mut bad = None;
        for (c, tok) in names.zip(cells) {
            match number(tok, Scale::Decimal) {
                Ok(v) => values.push((c.clone(), v)),
                Err(why) => {
                    bad = Some(format!("column '{c}': {why}"));
                    break;
                }
            }
        }
        if let Some(why) = bad {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "a number in every column of the header of line {} ({why}): '{}'",
                    tb.line,
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        let group = device.len() > 1
            && device.starts_with('c')
            && device[1..].bytes().all(|b| b.is_ascii_digit());
        if cur.is_none() {
            new_report(&mut cur, &mut log, &mut reports, no);
        }
        let r = cur.as_mut().expect("opened");
        if let Some(c) = row_cpu.or_else(|| pending_cpu.take()) {
            if c.values.iter().any(|(n, _)| n == "wt") {
                log.warn(WT_UNMEASURED.to_string());
            }
            r.cpu.get_or_insert(c);
        }
        r.devices.push(DeviceSample {
            device: device.to_string(),
            group,
            host_total: false,
            normalised: sol_normalise(&values),
            values,
        });
    }
    if let Some(r) = cur.take() {
        finish(&mut log, r, &mut reports);
    }
    if handed == 0 && reports.is_empty() {
        return Err(ParseError::UnknownFormat {
            reason: if saw_header {
                "expected Solaris iostat -x device lines under the 'r/s w/s kr/s kw/s … device' \
                 header, but the file holds no disk statistics"
                    .into()
            } else {
                "expected Solaris iostat -x output (an 'r/s w/s kr/s kw/s wait actv … device' \
                 header): the file holds no disk statistics"
                    .into()
            },
        });
    }
    let stopped = !reports.is_empty() && !flush(&mut reports)?;
    Ok((log, stopped))
}

/// Normalises Solaris `iostat -x` columns (see the module table).
pub fn sol_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let v = |n: &str| lookup(values, n);
    let r = v("r/s");
    let w = v("w/s");
    let rb = v("kr/s")
        .map(|x| x * 1024.0)
        .or(v("Mr/s").map(|x| x * 1_048_576.0));
    let wb = v("kw/s")
        .map(|x| x * 1024.0)
        .or(v("Mw/s").map(|x| x * 1_048_576.0));
    let total = r.zip(w).map(|(a, b)| a + b);
    let await_ms = match (v("wsvc_t"), v("asvc_t")) {
        (Some(a), Some(b)) => Some(a + b),
        _ => v("svc_t"),
    };
    Normalised {
        read_iops: r,
        write_iops: w,
        total_iops: total,
        read_bytes_per_s: rb,
        write_bytes_per_s: wb,
        await_ms,
        queue_depth: v("wait").zip(v("actv")).map(|(a, b)| a + b),
        avg_request_bytes: ratio(rb.zip(wb).map(|(a, b)| a + b), total),
        util_pct: v("%b"),
        service_ms: v("asvc_t"),
        ..Default::default()
    }
}
