//! `sadf -d` (semicolon CSV): header lines, activity groups, rows into reports.
//!
//! Flow: each `# hostname;interval;timestamp;…` header line names the activities of the rows after
//! it (split into groups of columns by activity); each row is split into its groups, its time
//! stamp read, and its devices (`-d`) and host totals (`-b`, the typed `sar -b` row) added to the
//! report of that time stamp. The lines come one at a time (the whole text's, or a stream's) and
//! only the parsed reports are kept; they go to the sink at the end.

use super::*;

// ---------------------------------------------------------------------------------------------
// sadf -d
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Disk,
    Io,
    /// `sar -u` (`CPU;%user;…;%idle`) or `sar -u ALL` (`CPU;%usr;…;%idle`): its `-1` (all
    /// CPUs) row is the host CPU of the report of that time stamp.
    Cpu,
    Other,
}

/// One activity's columns in a header (one group per header, several with `-h`).
#[derive(Debug, Clone)]
pub(super) struct Group {
    pub(super) kind: Kind,
    pub(super) label: String,
    pub(super) columns: Vec<String>,
    /// Ends with `[...]`: repeated once per item (`-h`).
    pub(super) repeat: bool,
    /// A column with `*` (`INTR;CPU*`): one value per CPU, count unknown.
    pub(super) wildcard: bool,
    /// Item keys are numbers (`CPU` -1, 0…; `INTR` sum, 0…; sensors 1…).
    pub(super) numeric_key: bool,
}

#[derive(Debug, Clone)]
pub(super) struct Header {
    pub(super) line: usize,
    pub(super) text: String,
    pub(super) groups: Vec<Group>,
    /// Holds a disk, `sar -b` or `sar -u` group.
    pub(super) relevant: bool,
}

impl Header {
    pub(super) fn width(&self) -> usize {
        self.groups.iter().map(|g| g.columns.len()).sum()
    }
}

/// (first column, second column or "", label): the first columns of each sar activity, as
/// `sadf -d` prints them (sysstat `activity.c` header lines).
pub(super) const ACTIVITIES: &[(&str, &str, &str)] = &[
    ("CPU", "%usr", "CPU utilisation (-u ALL)"),
    ("CPU", "%user", "CPU utilisation (-u)"),
    ("CPU", "MHz", "CPU frequency (-m CPU)"),
    ("CPU", "wghMHz", "weighted CPU frequency (-m FREQ)"),
    ("CPU", "total/s", "software interrupts (-n SOFT)"),
    ("CPU", "", "per-CPU statistics"),
    ("proc/s", "", "task creation and context switches (-w)"),
    ("INTR", "", "interrupts (-I)"),
    ("pswpin/s", "", "swapping (-W)"),
    ("pgpgin/s", "", "paging (-B)"),
    ("tps", "rtps", "I/O totals (-b)"),
    ("frmpg/s", "", "memory pages (-R)"),
    ("kbmemfree", "", "memory (-r)"),
    ("kbswpfree", "", "swap space (-S)"),
    ("kbhugfree", "", "huge pages (-H)"),
    ("dentunusd", "", "kernel tables (-v)"),
    ("runq-sz", "", "queue length and load (-q)"),
    ("TTY", "", "serial lines (-y)"),
    ("DEV", "", "block devices (-d)"),
    ("IFACE", "rxpck/s", "network interfaces (-n DEV)"),
    ("IFACE", "rxerr/s", "network errors (-n EDEV)"),
    ("IFACE", "", "network interfaces (-n)"),
    ("call/s", "", "NFS client (-n NFS)"),
    ("scall/s", "", "NFS server (-n NFSD)"),
    ("totsck", "", "sockets (-n SOCK)"),
    ("irec/s", "", "IP (-n IP)"),
    ("ihdrerr/s", "", "IP errors (-n EIP)"),
    ("imsg/s", "", "ICMP (-n ICMP)"),
    ("ierr/s", "", "ICMP errors (-n EICMP)"),
    ("active/s", "", "TCP (-n TCP)"),
    ("atmptf/s", "", "TCP errors (-n ETCP)"),
    ("idgm/s", "", "UDP (-n UDP)"),
    ("tcp6sck", "", "IPv6 sockets (-n SOCK6)"),
    ("irec6/s", "", "IPv6 (-n IP6)"),
    ("ihdrer6/s", "", "IPv6 errors (-n EIP6)"),
    ("imsg6/s", "", "ICMPv6 (-n ICMP6)"),
    ("ierr6/s", "", "ICMPv6 errors (-n EICMP6)"),
    ("idgm6/s", "", "UDPv6 (-n UDP6)"),
    ("FCHOST", "", "Fibre Channel HBAs (-n FC)"),
    ("BAT", "", "batteries (-m BAT)"),
    ("manufact", "", "USB devices (-m USB)"),
    ("FILESYSTEM", "", "filesystems (-F)"),
    ("FAN", "", "fans (-m FAN)"),
    ("TEMP", "", "temperature sensors (-m TEMP)"),
    ("IN", "", "voltage inputs (-m IN)"),
    ("%scpu-10", "", "CPU pressure (-q CPU)"),
    ("%sio-10", "", "I/O pressure (-q IO)"),
    ("%smem-10", "", "memory pressure (-q MEM)"),
];

/// Item keys that are numbers (CPU -1/0/1…, `INTR` sum/0/1…, serial line, sensor number).
pub(super) const NUMBER_KEYS: &[&str] = &["CPU", "INTR", "TTY", "BAT", "FAN", "TEMP", "IN"];

/// The activity starting at `cols[i]`, if any.
pub(super) fn activity_at(cols: &[String], i: usize) -> Option<&'static str> {
    let next = cols.get(i + 1).map(String::as_str).unwrap_or("");
    ACTIVITIES
        .iter()
        .find(|(a, b, _)| *a == cols[i] && (b.is_empty() || *b == next))
        .map(|(_, _, l)| *l)
}

pub(super) fn parse_header(line: usize, text: &str, cols: &str) -> Header {
    let mut names = Vec::new();
    let mut marks = Vec::new();
    for c in cols.split(';') {
        let c = c.trim();
        if c.is_empty() {
            continue;
        }
        match c.strip_suffix("[...]") {
            Some(n) => {
                names.push(n.to_string());
                marks.push(true);
            }
            None => {
                names.push(c.to_string());
                marks.push(false);
            }
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut open = false; // the last group may take more columns
    for i in 0..names.len() {
        let start = activity_at(&names, i);
        if start.is_some() || !open {
            let label = start.map_or_else(|| format!("'{}'", names[i]), str::to_string);
            let first = names[i].as_str();
            let kind = match first {
                "DEV" if names.get(i + 1).is_some_and(|c| c == "tps") => Kind::Disk,
                "tps" if start.is_some() => Kind::Io,
                "CPU" if start.is_some_and(|l| l.starts_with("CPU utilisation")) => Kind::Cpu,
                _ => Kind::Other,
            };
            groups.push(Group {
                kind,
                label,
                columns: Vec::new(),
                repeat: false,
                wildcard: false,
                numeric_key: NUMBER_KEYS.contains(&first),
            });
        }
        let g = groups.last_mut().expect("a group was just opened");
        g.columns.push(names[i].clone());
        g.wildcard |= names[i].contains('*');
        if marks[i] {
            g.repeat = true;
            open = false;
        } else {
            open = true;
        }
    }
    let relevant = groups.iter().any(|g| g.kind != Kind::Other);
    Header {
        line,
        text: text.to_string(),
        groups,
        relevant,
    }
}

pub(super) fn int_key(s: &str) -> bool {
    let s = s.trim();
    let d = s.strip_prefix('-').unwrap_or(s);
    (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) || s == "all" || s == "sum"
}

pub(super) fn decimal(s: &str) -> bool {
    let s = s.trim();
    (s.contains('.') || s.contains(',')) && cell(s).is_ok()
}

/// Splits the fields after the time stamp into the items of each group: `(start, len)` per item.
pub(super) fn split_items(h: &Header, vals: &[&str]) -> Result<Vec<Vec<(usize, usize)>>, String> {
    let names = || {
        let s: Vec<&str> = h
            .groups
            .iter()
            .flat_map(|g| g.columns.iter().map(String::as_str))
            .collect();
        s.join(";")
    };
    if !h.groups.iter().any(|g| g.repeat) {
        if vals.len() != h.width() {
            return Err(format!(
                "{} fields after the time stamp where the header of line {} names {} ({})",
                vals.len(),
                h.line,
                h.width(),
                names()
            ));
        }
        let mut pos = 0;
        return Ok(h
            .groups
            .iter()
            .map(|g| {
                let r = vec![(pos, g.columns.len())];
                pos += g.columns.len();
                r
            })
            .collect());
    }
    let mut out = Vec::with_capacity(h.groups.len());
    let mut pos = 0usize;
    for (gi, g) in h.groups.iter().enumerate() {
        let w = g.columns.len();
        if !g.repeat {
            if pos + w > vals.len() {
                return Err(format!(
                    "{} fields after the time stamp: too few for the header of line {} ({})",
                    vals.len(),
                    h.line,
                    names()
                ));
            }
            out.push(vec![(pos, w)]);
            pos += w;
            continue;
        }
        let later = &h.groups[gi + 1..];
        let fixed_after: usize = later
            .iter()
            .filter(|x| !x.repeat)
            .map(|x| x.columns.len())
            .sum();
        let mut items = Vec::new();
        if !later.iter().any(|x| x.repeat) && !g.wildcard {
            let rem = vals.len().checked_sub(pos + fixed_after).ok_or_else(|| {
                format!(
                    "{} fields after the time stamp: too few for the header of line {}",
                    vals.len(),
                    h.line
                )
            })?;
            if rem % w != 0 {
                return Err(format!(
                    "{rem} fields for the repeated {} columns ({}): not a multiple of {w} (header of \
                     line {})",
                    g.label,
                    g.columns.join(";"),
                    h.line
                ));
            }
            for k in 0..rem / w {
                items.push((pos + k * w, w));
            }
            pos += rem;
        } else if g.numeric_key {
            while pos < vals.len() && int_key(vals[pos]) {
                let len = if g.wildcard {
                    1 + vals[pos + 1..].iter().take_while(|v| decimal(v)).count()
                } else {
                    let ok = pos + w <= vals.len()
                        && g.columns[1..]
                            .iter()
                            .zip(&vals[pos + 1..pos + w])
                            .all(|(c, v)| !(c.starts_with('%') || c.ends_with("/s")) || decimal(v));
                    if !ok {
                        break;
                    }
                    w
                };
                if len < 2 {
                    break;
                }
                items.push((pos, len));
                pos += len;
            }
        } else {
            return Err(format!(
                "the repeated {} items (header of line {}) cannot be told from the repeated \
                 items after them: run sadf -d without -h",
                g.label, h.line
            ));
        }
        out.push(items);
    }
    if pos != vals.len() {
        return Err(format!(
            "{} fields after the time stamp, {} of them read by the header of line {} ({})",
            vals.len(),
            pos,
            h.line,
            names()
        ));
    }
    Ok(out)
}

/// A `sadf -d` time stamp.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Stamp {
    pub(super) printed: String,
    pub(super) time: Option<NaiveDateTime>,
    pub(super) utc: bool,
}

pub(super) type R<'a, O> = nom::IResult<&'a str, O>;

/// `2019-04-18 13:20:19`.
pub(super) fn date_time(s: &str) -> R<'_, &str> {
    recognize((
        digit1,
        char('-'),
        digit1,
        char('-'),
        digit1,
        space1,
        digit1,
        char(':'),
        digit1,
        char(':'),
        digit1,
    ))
    .parse(s)
}

/// A zone name or offset (`UTC`, `EST`, `CET`, `+0100`).
pub(super) fn zone(s: &str) -> R<'_, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || "+-:_/".contains(c)).parse(s)
}

pub(super) fn stamp(field: &str) -> Option<Stamp> {
    let s = field.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        let secs: i64 = s.parse().ok()?;
        let t = DateTime::from_timestamp(secs, 0)?.naive_utc();
        return Some(Stamp {
            printed: s.to_string(),
            time: Some(t),
            utc: true,
        });
    }
    let (_, (dt, tz)) = all_consuming((date_time, opt(preceded(space1, zone))))
        .parse(s)
        .ok()?;
    let dt = dt.split_whitespace().collect::<Vec<_>>().join(" ");
    let time = NaiveDateTime::parse_from_str(&dt, "%Y-%m-%d %H:%M:%S").ok()?;
    Some(Stamp {
        printed: s.to_string(),
        time: Some(time),
        utc: matches!(tz, Some("UTC" | "GMT" | "Z")),
    })
}

/// A value cell: a number (decimal point or, for a non-C `LC_NUMERIC`, a decimal comma), `None`
/// when blank ([`crate::num::point_or_comma`]).
pub(super) fn cell(tok: &str) -> Result<Option<f64>, String> {
    crate::num::point_or_comma(tok)
}

/// A `sar -u` cell: a number, else unknown, with a warning naming the first such line of the
/// column (once per column: a bad column does not repeat its warning on every time stamp).
fn cpu_cell(log: &mut DeviceLog, line: usize, c: &str, v: &str) -> Option<f64> {
    match cell(v) {
        Ok(v) => v,
        Err(found) => {
            let what = format!("CPU column '{c}' holds ");
            if !log.warnings.iter().any(|w| w.contains(&what)) {
                log.warn(format!(
                    "line {line}: {what}{found}, not a number: left unknown (and any later \
                     such cell of it)"
                ));
            }
            None
        }
    }
}

pub(super) fn warn_unknown_column(log: &mut DeviceLog, line: usize, c: &str) {
    let tail = format!("unknown column '{c}' kept as printed");
    if !log.warnings.iter().any(|w| w.ends_with(&tail)) {
        log.warn(format!("line {line}: {tail}"));
    }
}

/// Parses `sadf -d` output (one header per activity, or `-h`).
///
/// # Errors
/// [`ParseError::UnknownFormat`] when there is no `# hostname;interval;timestamp` header;
/// [`ParseError::Section`] for a disk or `sar -b` line whose field count differs from its
/// header's, a value that is not a number, a `-h` line that cannot be split, or a file with no
/// disk or `sar -b` section (the message lists the activities the file holds).
pub fn parse_csv(text: &str) -> Result<DeviceLog, ParseError> {
    read_csv(crate::lines::text_lines(text), true)
}

/// Reads `sadf -d` output over `lines` (the whole text's or a stream's) into `sink`: the reports
/// go over at the end, when they are complete (see the module docs), the first since boot or
/// not as `settings` says, with every printed column kept when
/// [`crate::parser::ParseSettings::keep_values`] is set.
///
/// # Errors
/// As [`parse_csv`], or the sink's.
pub(super) fn csv_into<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
    settings: &crate::parser::ParseSettings,
    sink: &mut dyn crate::sink::Sink,
) -> Result<(), ParseError> {
    let DeviceLog {
        header,
        reports,
        warnings,
        skipped,
        ..
    } = read_csv(lines, settings.keep_values)?;
    let mut out = crate::sink::DeviceStream::new(sink, crate::Format::SadfCsv, settings);
    for r in reports {
        if !out.report(r, header.as_ref())? {
            return Ok(());
        }
    }
    out.finish(warnings, skipped)
}

/// The `sadf -d` reader over any lines: parsed state only (the reports by host and time stamp,
/// the current header's groups, the devices read per report), never the text.
fn read_csv<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
    keep_values: bool,
) -> Result<DeviceLog, ParseError> {
    let mut log = DeviceLog::new(CSV_FORMAT);
    let mut cur: Option<Header> = None;
    let mut any_header = false;
    let mut relevant_header: Option<usize> = None;
    let mut labels: Vec<String> = Vec::new();
    let mut hosts: Vec<String> = Vec::new();
    let mut span: Option<(String, String)> = None;
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    // (report, device) → line, to count duplicates.
    let mut seen: HashMap<(usize, String), usize> = HashMap::new();
    // (host, time stamp) → the `sar -u` row of all CPUs, joined to the report of that time
    // stamp at the end (the CPU section comes before the disk sections).
    let mut cpu: HashMap<(String, String), CpuUtil> = HashMap::new();

    for (i, raw) in lines.enumerate() {
        let raw = raw?;
        let no = i + 1;
        let line = raw
            .as_ref()
            .trim_end_matches('\r')
            .trim_start_matches('\u{feff}');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('#') {
            if let Some(cols) = rest
                .trim_start()
                .strip_prefix("hostname;interval;timestamp")
            {
                let h = parse_header(no, trimmed, cols);
                for g in &h.groups {
                    if !labels.contains(&g.label) {
                        labels.push(g.label.clone());
                    }
                }
                let disk = h
                    .groups
                    .iter()
                    .any(|g| matches!(g.kind, Kind::Disk | Kind::Io));
                if disk && relevant_header.is_none() {
                    relevant_header = Some(no);
                }
                any_header = true;
                cur = Some(h);
            }
            continue;
        }
        let fields: Vec<&str> = line.split(';').collect();
        let prefix = (fields.len() >= 4)
            .then(|| fields[1].trim().parse::<i64>().ok())
            .flatten()
            .zip(stamp(fields.get(2).copied().unwrap_or("")));
        let Some((interval, st)) = prefix else {
            log.skipped.push(SkippedLine {
                line: no,
                reason: format!(
                    "not sadf -d output (expected 'hostname;interval;timestamp;…'): '{}'",
                    clip(trimmed, CLIP_SYSSTAT)
                ),
            });
            continue;
        };
        let first = fields[3].trim_start();
        if interval < 0 || first.starts_with("LINUX-RESTART") || first.starts_with("COM ") {
            continue; // restart or -C comment record
        }
        let host = fields[0].trim().to_string();
        if !hosts.contains(&host) {
            hosts.push(host.clone());
        }
        match &mut span {
            None => span = Some((st.printed.clone(), st.printed.clone())),
            Some((_, last)) => last.clone_from(&st.printed),
        }
        let Some(h) = &cur else {
            log.skipped.push(SkippedLine {
                line: no,
                reason: "a data line before any '# hostname;interval;timestamp;…' header".into(),
            });
            continue;
        };
        if !h.relevant {
            continue;
        }
        let vals = &fields[3..];
        let only_cpu = h
            .groups
            .iter()
            .all(|g| matches!(g.kind, Kind::Cpu | Kind::Other));
        let items = match split_items(h, vals) {
            Err(_) if only_cpu => {
                let tail = format!(
                    "the CPU items of the header of line {} cannot be told apart: the host CPU is \
                     unknown there",
                    h.line
                );
                if !log.warnings.iter().any(|w| w.ends_with(&tail)) {
                    log.warn(format!("line {no}: {tail}"));
                }
                continue;
            }
            other => other,
        };
        let items = items.map_err(|found| {
            ParseError::section(
                CSV_SECTION,
                Some(no),
                format!(
                    "the fields named by the header of line {} ('{}')",
                    h.line,
                    clip(&h.text, CLIP_SYSSTAT)
                ),
                found,
            )
        })?;
        let key = (host.clone(), st.printed.clone());
        for (g, its) in h.groups.iter().zip(&items) {
            if g.kind != Kind::Cpu {
                continue;
            }
            if let Some(&(s, n)) = its
                .iter()
                .find(|(s, _)| matches!(vals[*s].trim(), "-1" | "all"))
            {
                let values = g.columns[1..]
                    .iter()
                    .zip(&vals[s + 1..s + n])
                    .map(|(c, v)| (c.clone(), cpu_cell(&mut log, no, c, v)))
                    .collect();
                cpu.entry(key.clone())
                    .or_insert_with(|| CpuUtil::from_columns(values));
            }
        }
        if only_cpu {
            continue;
        }
        let r = *index.entry(key).or_insert_with(|| {
            let mut rep = DeviceReport::new(no);
            rep.timestamp = Some(st.printed.clone());
            rep.time = st.time;
            rep.utc = st.utc;
            rep.interval_s = Some(interval as f64);
            log.reports.push(rep);
            log.reports.len() - 1
        });
        for (g, items) in h.groups.iter().zip(items) {
            let (cols, named) = match g.kind {
                Kind::Other | Kind::Cpu => continue,
                Kind::Disk => (&g.columns[1..], true),
                Kind::Io => (&g.columns[..], false),
            };
            for (s, n) in items {
                let (device, cells) = if named {
                    (vals[s].trim().to_string(), &vals[s + 1..s + n])
                } else {
                    (SAR_B.to_string(), &vals[s..s + n])
                };
                let mut values = Vec::with_capacity(cols.len());
                for (c, v) in cols.iter().zip(cells) {
                    if !sysstat_known(c) {
                        warn_unknown_column(&mut log, h.line, c);
                    }
                    let v = cell(v).map_err(|found| {
                        ParseError::section(
                            CSV_SECTION,
                            Some(no),
                            format!("a number in column '{c}' of the header of line {}", h.line),
                            found,
                        )
                    })?;
                    values.push((c.clone(), v));
                }
                if let Some(prev) = seen.get(&(r, device.clone())) {
                    log.skipped.push(SkippedLine {
                        line: no,
                        reason: format!("'{device}' at {} already read on line {prev}", st.printed),
                    });
                    continue;
                }
                seen.insert((r, device.clone()), no);
                let normalised = sysstat_normalise(&values);
                log.reports[r].devices.push(DeviceSample {
                    device,
                    group: !named,
                    host_total: !named,
                    values: if keep_values { values } else { Vec::new() },
                    normalised,
                });
            }
        }
    }

    for ((host, stamp), c) in cpu {
        if let Some(&r) = index.get(&(host, stamp)) {
            log.reports[r].cpu = Some(c);
        }
    }
    if !any_header {
        return Err(ParseError::UnknownFormat {
            reason: "expected sadf -d output (a '# hostname;interval;timestamp;…' header line)"
                .into(),
        });
    }
    let samples: usize = log.reports.iter().map(|r| r.devices.len()).sum();
    if samples == 0 {
        let held: Vec<&str> = labels
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("block devices") && !l.starts_with("I/O totals"))
            .collect();
        let mut found = String::from("no disk statistics");
        if let Some(l) = relevant_header {
            found.push_str(&format!(": the disk section of line {l} has no data line"));
        }
        if !held.is_empty() {
            found.push_str(&format!(": the file holds {}", held.join(", ")));
        }
        match (&span, hosts.first()) {
            (Some((a, b)), Some(h)) if a != b => {
                found.push_str(&format!(" (host {h}, {a} to {b})"))
            }
            (Some((a, _)), Some(h)) => found.push_str(&format!(" (host {h}, {a})")),
            _ => found.push_str(" (no data lines)"),
        }
        return Err(ParseError::section(
            CSV_SECTION,
            None,
            "a disk section ('DEV;tps;…', sar -d) or an I/O section ('tps;rtps;wtps;…', sar -b): \
             export with `sadf -d <file> -- -d -b`",
            found,
        ));
    }
    if hosts.len() > 1 {
        log.warn(format!(
            "several hosts in one file ({}): each keeps its own reports",
            hosts.join(", ")
        ));
    }
    log.header = hosts.first().map(|h| SystemHeader {
        // sadf, like sar, exists only in Linux sysstat.
        sysname: "Linux".into(),
        host: h.clone(),
        ..Default::default()
    });
    Ok(log)
}
