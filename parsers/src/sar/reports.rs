//! From finished tables to reports: each row's role (interval, summary, `sar -x` extreme), its
//! values converted, and the samples merged into one [`DeviceReport`] per run segment and time.
//!
//! Flow: [`finish_table`] checks the table's decimal separator, gives each row its role,
//! converts the values (`columns`) and hands each sample to the [`Builder`], which keys it by
//! (banner epoch, restart segment, day, time) — a day is added when a table's clock goes back
//! past midnight — and [`Builder::finish`] orders the reports by time. [`Segments`] numbers the
//! run segments that banners and restart lines start.

use std::collections::HashMap;

use super::columns::{linux_normalise, unix_aggregate, unix_normalise};
use super::table::{Kind, Row, Stamp};
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
    pub(super) fn insert(&mut self, row: &Row, kind: Kind, since_boot: bool, sample: DeviceSample) {
        let (epoch, seg) = row.seg;
        let (key, day, tod, ts) = match &row.stamp {
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
                let mut r = DeviceReport::new(row.line);
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Interval,
    Summary,
    /// `sar -x` minimum/maximum/last: left out.
    Extreme,
    /// A `sar -x` row with an unknown (translated) label: the last of its device is the average.
    Positional,
}

pub(super) fn finish_table(st: &mut State) -> Result<(), ParseError> {
    let Some(t) = st.table.take() else {
        return Ok(());
    };
    let Some(kind) = t.kind else {
        return Ok(());
    };
    // Decimal comma only when every separated value of the table uses one.
    let comma_line = t
        .rows
        .iter()
        .find(|r| r.values.iter().any(|v| v.contains(',')))
        .map(|r| r.line);
    let point = t
        .rows
        .iter()
        .any(|r| r.values.iter().any(|v| v.contains('.')));
    if let (Some(line), true) = (comma_line, point) {
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
    let comma = comma_line.is_some();
    let header_label = match &t.stamp {
        Stamp::Label(l) => Some(l.as_str()),
        _ => None,
    };
    let mut roles: Vec<Role> = t
        .rows
        .iter()
        .map(|r| match &r.stamp {
            Stamp::Label(l) if is_extreme(l) => Role::Extreme,
            Stamp::Label(l)
                if header_label.is_none() || header_label == Some(l) || is_average(l) =>
            {
                Role::Summary
            }
            Stamp::Label(_) => Role::Positional,
            _ => Role::Interval,
        })
        .collect();
    for i in 0..roles.len() {
        if roles[i] == Role::Positional {
            let later = (i + 1..roles.len())
                .any(|j| roles[j] == Role::Positional && t.rows[j].device == t.rows[i].device);
            roles[i] = if later { Role::Extreme } else { Role::Summary };
        }
    }
    for (row, role) in t.rows.iter().zip(roles) {
        if role == Role::Extreme {
            let label = match &row.stamp {
                Stamp::Label(l) => l.as_str(),
                _ => "",
            };
            st.extremes += 1;
            st.log.skipped.push(SkippedLine {
                line: row.line,
                reason: format!(
                    "sar -x '{label}' row of {}: a minimum or maximum over the run, not an \
                     interval (left out)",
                    row.device
                ),
            });
            continue;
        }
        let mut values = Vec::with_capacity(t.columns.len());
        let mut bad = None;
        for (c, tok) in t.columns.iter().zip(&row.values) {
            match cell(tok, c, comma) {
                Ok(v) => values.push((c.clone(), v)),
                Err(why) => {
                    bad = Some(format!(
                        "expected a number in column '{c}' of the header of line {} ('{}'), \
                         found {why}",
                        t.line, t.text
                    ));
                    break;
                }
            }
        }
        if let Some(reason) = bad {
            st.log.skipped.push(SkippedLine {
                line: row.line,
                reason,
            });
            continue;
        }
        let (normalised, group) = match kind {
            Kind::Unix => (unix_normalise(&values), unix_aggregate(&row.device)),
            Kind::B => (linux_normalise(&values), true),
            Kind::Dev { .. } => (linux_normalise(&values), false),
        };
        let since_boot = match (&row.stamp, &t.stamp) {
            (Stamp::Time { text: a, .. }, Stamp::Time { text: b, .. }) => a == b,
            _ => false,
        };
        let sample = DeviceSample {
            device: row.device.clone(),
            group,
            host_total: matches!(kind, Kind::B),
            values,
            normalised,
        };
        st.builder.insert(row, kind, since_boot, sample);
    }
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
