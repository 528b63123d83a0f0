//! Time stamps of device reports: the printed time (and date, where the tool prints one) joined
//! with the banner's date, in an explicit or inferred day/month order, across midnight.
//!
//! Flow: [`resolve_times`] takes a [`DeviceLog`]'s report stamps ([`resolve_stamps`] takes them
//! from any source as [`Stamp`]s), tries each date order a numeric date allows when none is
//! given, keeps the one whose sequence is most regular, and returns one time per report
//! ([`Times`]).

use chrono::{Duration, NaiveDate, NaiveDateTime};
use serde::Serialize;

use super::DeviceLog;
use crate::dates::{date_token, split_stamp, time_token, year4, DateToken};

/// How to read a numeric date whose day and month could be either way round (`01/02/24`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DateOrder {
    /// Month first (`MM/DD/YY`, the C and en_US `%x`).
    Mdy,
    /// Day first (`DD/MM/YY`, en_GB, de, fr, …).
    Dmy,
    /// Year first (`YY/MM/DD`, ja/zh).
    Ymd,
}

/// Times of a log's reports, with how the date order was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Times {
    /// One per report (same order as [`DeviceLog::reports`]); `None` where no time was printed
    /// or it could not be read.
    pub times: Vec<Option<NaiveDateTime>>,
    /// The date order used for slash dates, when the log has any.
    pub order: Option<DateOrder>,
    /// Every slash date of the log could be read both ways and no order was given: the
    /// order used is sysstat's C-locale default (month first); `--date-order` settles it.
    pub ambiguous: bool,
    /// Every date reads both ways, and the order was chosen because the other one makes the
    /// reports' times go backwards or jump further (see [`resolve_stamps`]).
    pub inferred: bool,
    /// Time stamps that could not be read, with the line and the text.
    pub unreadable: Vec<(usize, String)>,
}

/// Reads every report's time: the parser's own `time` when set, else the printed `timestamp`
/// (date and time, or a time of day joined to the banner date, adding a day each time the clock
/// goes backwards, as sar does at midnight).
///
/// Slash dates are read with `order` when given; otherwise the whole log decides: a first field
/// above 12 means day first, a second field above 12 month first; when every date fits both
/// ways, the order whose times run forward in the smallest steps is taken (`inferred`); when
/// both run alike, the log is `ambiguous` and read month first (sysstat's C-locale `%x`).
pub fn resolve_times(log: &DeviceLog, order: Option<DateOrder>) -> Times {
    let stamps: Vec<Stamp> = log
        .reports
        .iter()
        .map(|r| Stamp {
            timestamp: r.timestamp.as_deref(),
            time: r.time,
            summary: r.summary,
            line: r.line,
        })
        .collect();
    resolve_stamps(
        log.header.as_ref().and_then(|h| h.date.as_deref()),
        &stamps,
        order,
    )
}

/// What [`resolve_stamps`] needs of one report (so that a streaming reader can keep only this).
#[derive(Debug, Clone, Copy)]
pub struct Stamp<'a> {
    /// [`DeviceReport::timestamp`](super::DeviceReport::timestamp).
    pub timestamp: Option<&'a str>,
    /// [`DeviceReport::time`](super::DeviceReport::time).
    pub time: Option<NaiveDateTime>,
    /// [`DeviceReport::summary`](super::DeviceReport::summary).
    pub summary: bool,
    /// [`DeviceReport::line`](super::DeviceReport::line).
    pub line: usize,
}

/// As [`resolve_times`], on the banner date and the reports' stamps.
pub fn resolve_stamps(
    banner_date: Option<&str>,
    stamps: &[Stamp],
    order: Option<DateOrder>,
) -> Times {
    let banner = banner_date.map(str::to_string);
    // Collect the slash dates to decide the order.
    let mut slash: Vec<(u32, u32)> = Vec::new();
    let mut consider = |d: &str| {
        if let Some(DateToken::Slash(a, b, _)) = date_token(d) {
            slash.push((a, b));
        }
    };
    // The banner's date matters only to time-of-day stamps (sar, `Time:`); an ISO or dated
    // stamp carries its own.
    let needs_banner = stamps
        .iter()
        .any(|r| r.time.is_none() && r.timestamp.is_some_and(|ts| split_stamp(ts).0.is_none()));
    if let (Some(b), true) = (&banner, needs_banner) {
        if let Some(first) = b.split_whitespace().next() {
            consider(first);
        }
    }
    for r in stamps {
        if r.time.is_none() {
            if let Some(ts) = r.timestamp {
                if let (Some(d), _) = split_stamp(ts) {
                    consider(d);
                }
            }
        }
    }
    let chosen = if slash.is_empty() {
        order
    } else if let Some(o) = order {
        Some(o)
    } else if slash.iter().any(|(a, _)| *a > 12) {
        Some(DateOrder::Dmy)
    } else if slash.iter().any(|(_, b)| *b > 12) {
        Some(DateOrder::Mdy)
    } else if slash.iter().all(|(a, b)| a == b) {
        // 12/12/24 reads the same both ways.
        Some(DateOrder::Mdy)
    } else {
        // Every date reads both ways: let the sequence decide. Reports follow each other at a
        // steady interval, so the reading whose times never go backwards and whose largest step
        // is smaller wins (03/04/2019 11:59:58 PM then 03/05/2019 12:00:08 AM is 10 s month
        // first, a month day first). Equal steps leave it ambiguous.
        let mdy = times_with(banner.as_deref(), stamps, Some(DateOrder::Mdy));
        let dmy = times_with(banner.as_deref(), stamps, Some(DateOrder::Dmy));
        let (a, b) = (sequence_cost(&mdy), sequence_cost(&dmy));
        let mut t = if b < a { dmy } else { mdy };
        t.order = Some(if b < a {
            DateOrder::Dmy
        } else {
            DateOrder::Mdy
        });
        t.ambiguous = a == b;
        t.inferred = a != b;
        return t;
    };
    times_with(banner.as_deref(), stamps, chosen)
}

/// (backward steps, largest forward step in seconds) of a time sequence: lower is more
/// plausible.
fn sequence_cost(t: &Times) -> (usize, i64) {
    let v: Vec<NaiveDateTime> = t.times.iter().flatten().copied().collect();
    let mut back = 0;
    let mut max = 0;
    for w in v.windows(2) {
        let d = (w[1] - w[0]).num_seconds();
        if d < 0 {
            back += 1;
        } else {
            max = max.max(d);
        }
    }
    (back, max)
}

/// Reads the stamps with a known order (`None` = no slash dates).
fn times_with(banner: Option<&str>, stamps: &[Stamp], chosen: Option<DateOrder>) -> Times {
    let banner = banner.map(str::to_string);
    let ambiguous = false;
    let read_date = |d: &str| -> Option<NaiveDate> {
        match date_token(d)? {
            DateToken::Fixed(x) => Some(x),
            DateToken::YearFirst(y, m, d) => NaiveDate::from_ymd_opt(y, m, d),
            DateToken::Slash(a, b, (y, yl)) => {
                let y = year4(y, yl);
                match chosen.unwrap_or(DateOrder::Mdy) {
                    DateOrder::Mdy => NaiveDate::from_ymd_opt(y, a, b),
                    DateOrder::Dmy => NaiveDate::from_ymd_opt(y, b, a),
                    DateOrder::Ymd => NaiveDate::from_ymd_opt(year4(a as i32, 2), b, y as u32),
                }
            }
        }
    };
    let banner_date = banner
        .as_deref()
        .and_then(|b| b.split_whitespace().next())
        .and_then(read_date);
    let mut times = Vec::with_capacity(stamps.len());
    let mut unreadable = Vec::new();
    let mut day = banner_date;
    let mut last: Option<NaiveDateTime> = None;
    for r in stamps {
        if let Some(t) = r.time {
            times.push(Some(t));
            last = Some(t);
            continue;
        }
        let Some(ts) = r.timestamp else {
            times.push(None);
            continue;
        };
        let (d, t) = split_stamp(ts);
        let time = time_token(&t);
        let value = match (d, time) {
            (Some(d), Some(t)) => read_date(d).map(|d| {
                day = Some(d);
                d.and_time(t)
            }),
            (None, Some(t)) => day.map(|d0| {
                let mut at = d0.and_time(t);
                if let Some(l) = last {
                    // The clock went backwards: a new day (sar past midnight).
                    // Checked: dates from the file may sit at the end of chrono's range.
                    let floor = l.checked_sub_signed(Duration::minutes(5)).unwrap_or(l);
                    while at < floor && !r.summary {
                        match at.checked_add_signed(Duration::days(1)) {
                            Some(next) => at = next,
                            None => break,
                        }
                    }
                }
                day = Some(at.date());
                at
            }),
            _ => None,
        };
        if value.is_none() {
            unreadable.push((r.line, ts.to_string()));
        }
        if let Some(v) = value {
            if !r.summary {
                last = Some(v);
            }
        }
        times.push(value);
    }
    Times {
        times,
        order: chosen,
        ambiguous,
        inferred: false,
        unreadable,
    }
}
