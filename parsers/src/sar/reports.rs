//! From table rows to reports: each row's role (interval, summary, `sar -x` extreme), its
//! values converted, and the samples merged into one [`DeviceReport`] per run segment and time.
//!
//! Flow: [`take_row`] gives each row its role, converts its values (`columns`) and hands its
//! sample to the [`Builder`]; [`finish_table`] checks the table's decimal separator and settles
//! the rows whose role waited for the end of the table. The [`Builder`] keys each sample by
//! (banner epoch, restart segment, day, time) — a day is added when a table's clock goes back
//! past midnight — and [`Builder::finish`] orders the reports by time. [`Segments`] numbers the
//! run segments that banners and restart lines start.

use std::collections::{HashMap, HashSet};

use super::columns::{linux_normalise, unix_aggregate, unix_normalise};
use super::table::{Held, Kind, Role, Row, Stamp};
use super::{State, SECTION};
use crate::disk::sysstat_cell as cell;
use crate::disk::{DeviceReport, DeviceSample, SkippedLine};
use crate::error::ParseError;

/// Run segments: a banner starts a new epoch; a restart line starts a new segment for each kind
/// of table the next time that kind has a row (so both sysstat layouts work: restarts printed once
/// between whole activity groups, or inside each activity's block).
#[derive(Default)]
pub(super) struct Segments {
    pub(super) epoch: usize,
    pub(super) restarts: usize,
    /// kind tag → (segment, restarts seen at its last row)
    pub(super) kinds: HashMap<u8, (usize, usize)>,
}

impl Segments {
    pub(super) fn banner(&mut self) {
        self.epoch += 1;
        self.restarts = 0;
        self.kinds.clear();
    }

    pub(super) fn of(&mut self, kind: Kind) -> (usize, usize) {
        let restarts = self.restarts;
        let e = self.kinds.entry(kind.tag()).or_insert((0, restarts));
        if restarts > e.1 {
            e.0 += 1;
        }
        e.1 = restarts;
        (self.epoch, e.0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Key {
    Interval {
        epoch: usize,
        seg: usize,
        day: u32,
        text: String,
    },
    Summary {
        epoch: usize,
        seg: usize,
    },
}

/// Merges samples into reports by (segment, time).
#[derive(Default)]
pub(super) struct Builder {
    pub(super) reports: Vec<DeviceReport>,
    /// (epoch, segment, summary, day, time of day, creation order) per report.
    pub(super) order: Vec<(usize, usize, bool, u32, u32, usize)>,
    pub(super) index: HashMap<Key, usize>,
    /// (epoch, segment, kind) → (day, last time of day)
    pub(super) clock: HashMap<(usize, usize, u8), (u32, u32)>,
}

impl Builder {
    pub(super) fn insert(
        &mut self,
        line: usize,
        stamp: &Stamp,
        (epoch, seg): (usize, usize),
        kind: Kind,
        since_boot: bool,
        sample: DeviceSample,
    ) {
        let (key, day, tod, ts) = match stamp {
            Stamp::Time { text, tod } => {
                let c = self
                    .clock
                    .entry((epoch, seg, kind.tag()))
                    .or_insert((0, *tod));
                // The clock went back: past midnight.
                if tod + 300 < c.1 {
                    c.0 += 1;
                }
                c.1 = *tod;
                let day = c.0;
                (
                    Key::Interval {
                        epoch,
                        seg,
                        day,
                        text: text.clone(),
                    },
                    day,
                    *tod,
                    Some(text.clone()),
                )
            }
            _ => (Key::Summary { epoch, seg }, 0, 0, None),
        };
        let summary = matches!(key, Key::Summary { .. });
        let existing = self.index.get(&key).copied().filter(|&i| {
            !self.reports[i]
                .devices
                .iter()
                .any(|d| d.device == sample.device && d.group == sample.group)
        });
        let i = match existing {
            Some(i) => i,
            None => {
                let mut r = DeviceReport::new(line);
                r.timestamp = ts;
                r.summary = summary;
                r.since_boot = since_boot;
                let i = self.reports.len();
                self.reports.push(r);
                self.order.push((epoch, seg, summary, day, tod, i));
                self.index.insert(key, i);
                i
            }
        };
        self.reports[i].devices.push(sample);
    }

    pub(super) fn finish(self) -> Vec<DeviceReport> {
        let mut order = self.order;
        order.sort();
        let mut slots: Vec<Option<DeviceReport>> = self.reports.into_iter().map(Some).collect();
        order.iter().filter_map(|o| slots[o.5].take()).collect()
    }
}

/// Converts one row of the current disk table as soon as it is read: its role (interval,
/// summary, `sar -x` extreme), its values, and its sample into the [`Builder`]; a row whose role
/// depends on the rows after it, and every row after that one, waits in the table until
/// [`finish_table`].
pub(super) fn take_row(st: &mut State, row: Row<'_>) {
    let t = st.table.as_mut().expect("a disk table");
    let kind = t.kind.expect("a disk table");
    // A row with a comma is read with a decimal comma: the table is (its end checks that no
    // row has a point), and a value without a comma reads the same either way.
    let comma = row.values.iter().any(|v| v.contains(','));
    if comma && t.comma_line.is_none() {
        t.comma_line = Some(row.line);
    }
    t.point |= row.values.iter().any(|v| v.contains('.'));
    let header_label = match &t.stamp {
        Stamp::Label(l) => Some(l.as_str()),
        _ => None,
    };
    let role = match &row.stamp {
        Stamp::Label(l) if is_extreme(l) => Role::Extreme,
        Stamp::Label(l) if header_label.is_none() || header_label == Some(l) || is_average(l) => {
            Role::Summary
        }
        Stamp::Label(_) => Role::Positional,
        _ => Role::Interval,
    };
    let since_boot = match (&row.stamp, &t.stamp) {
        (Stamp::Time { text: a, .. }, Stamp::Time { text: b, .. }) => a == b,
        _ => false,
    };
    let values = (role != Role::Extreme).then(|| {
        let mut values = Vec::with_capacity(t.columns.len());
        for (c, tok) in t.columns.iter().zip(row.values) {
            match cell(tok, c, comma) {
                Ok(v) => values.push((c.clone(), v)),
                Err(why) => {
                    return Err(format!(
                        "expected a number in column '{c}' of the header of line {} ('{}'), \
                         found {why}",
                        t.line, t.text
                    ))
                }
            }
        }
        Ok(values)
    });
    let held = Held {
        line: row.line,
        stamp: row.stamp,
        seg: row.seg,
        device: row.device,
        role,
        since_boot,
        values,
    };
    if role == Role::Positional || !t.held.is_empty() {
        t.held.push(held);
        return;
    }
    place(
        held,
        kind,
        st.keep_values,
        &mut st.builder,
        &mut t.late_skipped,
        &mut st.extremes,
    );
}

/// A row whose role is settled: left out (counted in `skipped`) or its sample into `builder`.
fn place(
    row: Held,
    kind: Kind,
    keep_values: bool,
    builder: &mut Builder,
    skipped: &mut Vec<SkippedLine>,
    extremes: &mut usize,
) {
    let values = match (row.role, row.values) {
        (Role::Extreme, _) | (_, None) => {
            let label = match &row.stamp {
                Stamp::Label(l) => l.as_str(),
                _ => "",
            };
            *extremes += 1;
            skipped.push(SkippedLine {
                line: row.line,
                reason: format!(
                    "sar -x '{label}' row of {}: a minimum or maximum over the run, not an \
                     interval (left out)",
                    row.device
                ),
            });
            return;
        }
        (_, Some(Err(reason))) => {
            skipped.push(SkippedLine {
                line: row.line,
                reason,
            });
            return;
        }
        (_, Some(Ok(values))) => values,
    };
    let (normalised, group) = match kind {
        Kind::Unix => (unix_normalise(&values), unix_aggregate(&row.device)),
        Kind::B => (linux_normalise(&values), true),
        Kind::Dev { .. } => (linux_normalise(&values), false),
    };
    let sample = DeviceSample {
        device: row.device,
        group,
        host_total: matches!(kind, Kind::B),
        values: if keep_values { values } else { Vec::new() },
        normalised,
    };
    builder.insert(row.line, &row.stamp, row.seg, kind, row.since_boot, sample);
}

/// Ends the current table: refuses one that mixes decimal commas and points, settles the rows
/// it held (the last `sar -x` row with a translated label of each device is its average, the
/// ones before it are extremes) and lists the rows it left out.
pub(super) fn finish_table(st: &mut State) -> Result<(), ParseError> {
    let Some(mut t) = st.table.take() else {
        return Ok(());
    };
    let Some(kind) = t.kind else {
        return Ok(());
    };
    // Decimal comma only when every separated value of the table uses one.
    if let (Some(line), true) = (t.comma_line, t.point) {
        return Err(ParseError::section(
            SECTION,
            Some(line),
            format!(
                "one decimal separator in the whole table of line {} ('.' or, for a non-C \
                 locale, ',')",
                t.line
            ),
            "both ',' and '.' in values",
        ));
    }
    let mut held = std::mem::take(&mut t.held);
    let mut later: HashSet<String> = HashSet::new();
    for h in held.iter_mut().rev() {
        if h.role == Role::Positional {
            h.role = if later.contains(&h.device) {
                Role::Extreme
            } else {
                later.insert(h.device.clone());
                Role::Summary
            };
        }
    }
    for h in held {
        place(
            h,
            kind,
            st.keep_values,
            &mut st.builder,
            &mut t.late_skipped,
            &mut st.extremes,
        );
    }
    st.log.skipped.append(&mut t.late_skipped);
    Ok(())
}

pub(super) fn is_extreme(label: &str) -> bool {
    matches!(
        label.trim_end_matches([':', '：']).trim(),
        "Minimum" | "Maximum" | "Last"
    )
}

pub(super) fn is_average(label: &str) -> bool {
    label.trim_end_matches([':', '：']).trim() == "Average"
}
