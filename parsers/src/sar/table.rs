//! A sar table as read: its header (which disk table it is, [`table_kind`], and its columns) and
//! what its rows left for its end (the decimal separators seen, the rows whose role is not known
//! yet, the lines left out), never the text of its rows.
//!
//! Flow: the line loop calls [`new_table`] on each header row and [`read_row`] on each row
//! under a disk table, which splits it into time stamp, device and value tokens; a row without a
//! time (AIX/Solaris/HP-UX continuation) takes the table's current one. The `reports` module
//! converts each row at once and settles the table when it ends.

use super::columns::UNIX_KNOWN;
use super::tokens::{bare_label, colon_label, numeric, time_prefix};
use super::{State, SAR_B_DEVICE};
use crate::disk::{sysstat_known, CpuUtil, SkippedLine};
use crate::lines::{clip, CLIP_SYSSTAT};

/// Which disk table a header is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Linux `sar -d`; the device name first or last.
    Dev { device_last: bool },
    /// Linux `sar -b`.
    B,
    /// AIX/Solaris/HP-UX `sar -d` (device first, time on the first row of an interval only).
    Unix,
}

impl Kind {
    pub(super) fn tag(self) -> u8 {
        match self {
            Kind::Dev { .. } => 0,
            Kind::B => 1,
            Kind::Unix => 2,
        }
    }
}

/// What stands where sar prints the time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Stamp {
    /// A time of day as printed, with its seconds since midnight.
    Time { text: String, tod: u32 },
    /// `Average:`, `Summary:`, `Minimum:`, a translation, or the bare `Average`.
    Label(String),
    /// Nothing (AIX/Solaris/HP-UX continuation rows).
    Cont,
}

/// A disk-table row, split (its value tokens borrowed from the line) but not yet converted.
pub(super) struct Row<'a> {
    pub(super) line: usize,
    pub(super) stamp: Stamp,
    /// (banner epoch, segment)
    pub(super) seg: (usize, usize),
    pub(super) device: String,
    pub(super) values: &'a [&'a str],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Interval,
    Summary,
    /// `sar -x` minimum/maximum/last: left out.
    Extreme,
    /// A `sar -x` row with an unknown (translated) label: the last of its device is the average.
    Positional,
}

/// A row's values by column, or why one is not a number.
pub(super) type Converted = Result<Vec<(String, Option<f64>)>, String>;

/// A converted row, waiting for the end of its table (see [`Table::held`]).
pub(super) struct Held {
    pub(super) line: usize,
    pub(super) stamp: Stamp,
    pub(super) seg: (usize, usize),
    pub(super) device: String,
    pub(super) role: Role,
    pub(super) since_boot: bool,
    /// The values by column, or why one is not a number; `None` for a row left out unconverted
    /// (a `sar -x` minimum or maximum).
    pub(super) values: Option<Converted>,
}

/// A table: a header and what its rows leave until the next header.
pub(super) struct Table {
    pub(super) kind: Option<Kind>,
    /// A `sar -u` table (`CPU %user … %idle`, or the UNIX `%usr %sys %wio %idle`): its `all`
    /// rows (UNIX: every row) become the reports' CPU.
    pub(super) cpu: bool,
    /// The CPU table has a `CPU` column (Linux `all`, AIX `sar -P ALL` `-`): rows carry a CPU
    /// label before their values.
    pub(super) cpu_label: bool,
    pub(super) columns: Vec<String>,
    pub(super) line: usize,
    pub(super) text: String,
    pub(super) stamp: Stamp,
    /// The last time or label (for continuation rows).
    pub(super) current: Option<Stamp>,
    /// The first row with a value holding a decimal comma.
    pub(super) comma_line: Option<usize>,
    /// A row has a value holding a decimal point.
    pub(super) point: bool,
    /// Converted rows whose role is known only at the end of the table: every row from the first
    /// `sar -x` row with a translated label on (the last such row of a device is its average).
    pub(super) held: Vec<Held>,
    /// Rows left out once converted (a bad value, a `sar -x` minimum or maximum), listed at the
    /// end of the table after the rows [`read_row`] refused while it was read.
    pub(super) late_skipped: Vec<SkippedLine>,
}

pub(super) fn new_table(
    st: &mut State,
    rest: &[&str],
    stamp: Stamp,
    no: usize,
    line: &str,
) -> Table {
    let kind = table_kind(rest);
    let cpu_label = rest.iter().any(|t| t.eq_ignore_ascii_case("CPU"));
    let unix_cpu = !cpu_label && rest.contains(&"%usr") && rest.contains(&"%wio");
    let cpu = kind.is_none() && rest.contains(&"%idle") && (cpu_label || unix_cpu);
    let columns: Vec<String> = match kind {
        None if cpu => rest
            .iter()
            .filter(|t| !t.eq_ignore_ascii_case("CPU"))
            .map(|t| t.to_string())
            .collect(),
        Some(Kind::Dev { .. }) => rest
            .iter()
            .filter(|t| **t != "DEV")
            .map(|t| t.to_string())
            .collect(),
        Some(Kind::Unix) => rest[1..].iter().map(|t| t.to_string()).collect(),
        _ => rest.iter().map(|t| t.to_string()).collect(),
    };
    match kind {
        Some(k) => {
            st.disk_tables += 1;
            for c in &columns {
                let known = match k {
                    Kind::Unix => UNIX_KNOWN.contains(&c.as_str()),
                    _ => sysstat_known(c) || c == "sect/s",
                };
                if !known {
                    st.log.warn(format!(
                        "unknown column '{c}' (header of line {no}) kept as printed"
                    ));
                }
            }
        }
        None if matches!(stamp, Stamp::Time { .. }) => {
            let what = rest.iter().take(3).copied().collect::<Vec<_>>().join(" ");
            if st.other_tables.len() < 8 && !st.other_tables.contains(&what) {
                st.other_tables.push(what);
            }
        }
        None => {}
    }
    Table {
        kind,
        cpu,
        cpu_label,
        columns,
        line: no,
        text: clip(line.trim(), CLIP_SYSSTAT),
        stamp,
        current: None,
        comma_line: None,
        point: false,
        held: Vec::new(),
        late_skipped: Vec::new(),
    }
}

/// Which disk table a header (the tokens after the time) is, if any.
pub(super) fn table_kind(cols: &[&str]) -> Option<Kind> {
    let has = |n: &str| cols.contains(&n);
    if has("DEV") && has("tps") {
        return Some(Kind::Dev {
            device_last: cols.last() == Some(&"DEV") && cols.first() != Some(&"DEV"),
        });
    }
    if has("tps") && (has("rtps") || has("wtps")) {
        return Some(Kind::B);
    }
    if cols
        .first()
        .is_some_and(|c| c.eq_ignore_ascii_case("device"))
        && has("r+w/s")
    {
        return Some(Kind::Unix);
    }
    None
}

/// `LINUX RESTART` (sysstat), `unix restarts` (Solaris, AIX).
pub(super) fn is_restart(rest: &[&str]) -> bool {
    match rest {
        [a, b, ..] => {
            (a.eq_ignore_ascii_case("linux") && b.eq_ignore_ascii_case("restart"))
                || (a.eq_ignore_ascii_case("unix") && b.eq_ignore_ascii_case("restarts"))
        }
        _ => false,
    }
}

/// The stamp of a header line (a time or a label).
pub(super) fn stamp_of(toks: &[&str]) -> Stamp {
    if let Some((n, tod)) = time_prefix(toks) {
        return Stamp::Time {
            text: toks[..n].join(" "),
            tod,
        };
    }
    match colon_label(toks) {
        Some(n) => Stamp::Label(toks[..n].join(" ")),
        None => Stamp::Cont,
    }
}

/// A `sar -u` row of all CPUs (`10:00:01  all  5.00  0.00  2.00  1.00  0.00  92.00`, or the
/// `Average:` row; UNIX: `08:20:00  0  0  0  99` and `Average  0  2  0  98`, AIX `sar -P ALL`
/// labels the system-wide row `-`): `(time as printed, or None for a summary, the CPU)`. Rows of
/// single CPUs (`sar -P`), and rows whose values do not match the header, give `None`.
/// Percentages read a decimal comma as a point (they have no thousands). The IO wait is
/// `%iowait` (Linux) or `%wio` (UNIX), left unknown when `wio_measured` is false (SunOS 5.10 and
/// later print `%wio` as 0 always: see [`crate::disk::CpuUtil`]).
pub(super) fn cpu_row(
    t: &Table,
    toks: &[&str],
    wio_measured: bool,
) -> Option<(Option<String>, CpuUtil)> {
    let (time, rest) = if let Some((k, _)) = time_prefix(toks) {
        (Some(toks[..k].join(" ")), &toks[k..])
    } else if let Some(k) = colon_label(toks) {
        (None, &toks[k..])
    } else if !t.cpu_label && toks.first().is_some_and(|x| bare_label(x)) {
        (None, &toks[1..])
    } else {
        return None;
    };
    let vals = if t.cpu_label {
        let (label, vals) = rest.split_first()?;
        if !(label.eq_ignore_ascii_case("all") || *label == "-") {
            return None;
        }
        vals
    } else {
        rest
    };
    if vals.len() != t.columns.len() {
        return None;
    }
    let values = t
        .columns
        .iter()
        .zip(vals)
        .map(|(c, v)| (c.clone(), v.replace(',', ".").parse::<f64>().ok()))
        .collect();
    Some((
        time,
        if t.columns.iter().any(|c| c == "%wio") {
            if wio_measured {
                CpuUtil::from_named(values, "%idle", "%wio")
            } else {
                CpuUtil::with_unmeasured_iowait(values, "%idle", "%wio")
            }
        } else {
            CpuUtil::from_columns(values)
        },
    ))
}

/// Splits a disk-table row, or says why it is left out.
pub(super) fn read_row<'a>(
    t: &mut Table,
    toks: &'a [&'a str],
    no: usize,
    seg: (usize, usize),
) -> Result<Row<'a>, String> {
    let kind = t.kind.expect("a disk table");
    let n = t.columns.len();
    let with_device = !matches!(kind, Kind::B);
    let expected = n + usize::from(with_device);
    let what = if with_device {
        format!("a device name and {n} values")
    } else {
        format!("{n} values")
    };
    let header = || format!("the header of line {} ('{}')", t.line, t.text);
    let (stamp, rest) = if let Some((k, tod)) = time_prefix(toks) {
        (
            Stamp::Time {
                text: toks[..k].join(" "),
                tod,
            },
            &toks[k..],
        )
    } else if let Some(k) = colon_label(toks) {
        (Stamp::Label(toks[..k].join(" ")), &toks[k..])
    } else if kind == Kind::Unix
        && toks.len() == expected + 1
        && bare_label(toks[0])
        && !numeric(toks[1])
    {
        (Stamp::Label(toks[0].to_string()), &toks[1..])
    } else {
        (Stamp::Cont, toks)
    };
    let stamp = match stamp {
        Stamp::Cont if kind == Kind::Unix => match &t.current {
            Some(s) => s.clone(),
            None => {
                return Err(format!(
                    "expected a time or 'Average' before the first device row under {}, found '{}'",
                    header(),
                    clip(&toks.join(" "), CLIP_SYSSTAT)
                ))
            }
        },
        Stamp::Cont => {
            return Err(format!(
                "expected a time (or an 'Average:' label) then {what} under {}, found '{}'",
                header(),
                clip(&toks.join(" "), CLIP_SYSSTAT)
            ))
        }
        s => {
            t.current = Some(s.clone());
            s
        }
    };
    if rest.len() != expected {
        return Err(format!(
            "expected {what} under {}, found {} field(s): '{}'",
            header(),
            rest.len(),
            clip(&toks.join(" "), CLIP_SYSSTAT)
        ));
    }
    let (device, values) = match kind {
        Kind::Dev { device_last: true } => (rest[n].to_string(), &rest[..n]),
        Kind::Dev { device_last: false } | Kind::Unix => (rest[0].to_string(), &rest[1..]),
        Kind::B => (SAR_B_DEVICE.to_string(), rest),
    };
    Ok(Row {
        line: no,
        stamp,
        seg,
        device,
        values,
    })
}
