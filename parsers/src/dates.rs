//! The date and time tokenizer shared by every parser that reads printed time stamps.
//!
//! Two kinds of input: a sysstat-style stamp split into a date token and a time token
//! ([`split_stamp`], then [`date_token`] and [`time_token`]; the date order of an ambiguous slash
//! date is decided later, over the whole log, by `disk::resolve_times`), and a
//! `date(1)`-style line in any locale's word order ([`date_text_time`], used by OSWatcher markers
//! and Solaris `iostat -T d` stamps). Month names are read by their English three-letter prefix
//! ([`month_name`]); two-digit years follow POSIX `%y` ([`year4`]).

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

/// English month abbreviations, lower case, January first.
const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The month (1–12) of a name starting with an English abbreviation (`Jan`, `january`, `DEC`).
pub(crate) fn month_name(s: &str) -> Option<u32> {
    let l = s.to_ascii_lowercase();
    MONTHS
        .iter()
        .position(|m| l.starts_with(m))
        .map(|i| i as u32 + 1)
}

/// A 4-digit year from a year printed with `digits` digits (POSIX `%y` for two).
pub(crate) fn year4(y: i32, digits: usize) -> i32 {
    if digits <= 2 {
        // POSIX %y: 69–99 → 19xx, 00–68 → 20xx.
        if y >= 69 {
            1900 + y
        } else {
            2000 + y
        }
    } else {
        y
    }
}

/// A date token: `(a, b, c, separator)` with the raw numbers, or a resolved date when the form
/// is unambiguous (ISO `YYYY-MM-DD`, `DD-MON-YYYY`, `DD.MM.YYYY`).
pub(crate) enum DateToken {
    /// A date whose form says its order.
    Fixed(NaiveDate),
    /// `a/b/c` with `c` the year as printed and its digit count: day and month either way round.
    Slash(u32, u32, (i32, usize)),
    /// `YYYY/MM/DD`.
    YearFirst(i32, u32, u32),
}

/// Reads a date token: `21-JAN-2015`, `2024-01-02`, `02.01.2024`, `2024/01/02`, `01/02/24`.
pub(crate) fn date_token(t: &str) -> Option<DateToken> {
    let t = t.trim_end_matches(',');
    if let Some((a, rest)) = t.split_once('-') {
        let (b, c) = rest.split_once('-')?;
        if let Some(m) = month_name(b) {
            // 21-JAN-2015 (nmon), 21-Jan-15.
            let d: u32 = a.parse().ok()?;
            let y: i32 = c.parse().ok()?;
            return NaiveDate::from_ymd_opt(year4(y, c.len()), m, d).map(DateToken::Fixed);
        }
        if a.len() == 4 {
            let c = c.get(..2.min(c.len()))?;
            return NaiveDate::from_ymd_opt(a.parse().ok()?, b.parse().ok()?, c.parse().ok()?)
                .map(DateToken::Fixed);
        }
        return None;
    }
    if let Some((a, rest)) = t.split_once('.') {
        let (b, c) = rest.split_once('.')?;
        let c = c.trim_end_matches('.');
        return NaiveDate::from_ymd_opt(
            year4(c.parse().ok()?, c.len()),
            b.parse().ok()?,
            a.parse().ok()?,
        )
        .map(DateToken::Fixed);
    }
    if let Some((a, rest)) = t.split_once('/') {
        let (b, c) = rest.split_once('/')?;
        if a.len() == 4 {
            return Some(DateToken::YearFirst(
                a.parse().ok()?,
                b.parse().ok()?,
                c.parse().ok()?,
            ));
        }
        return Some(DateToken::Slash(
            a.parse().ok()?,
            b.parse().ok()?,
            (c.parse().ok()?, c.len()),
        ));
    }
    None
}

/// Reads `HH:MM[:SS[.frac]]` (a zone suffix `+hhmm`/`Z` ignored), with a following `AM`/`PM`.
pub(crate) fn time_token(toks: &[&str]) -> Option<NaiveTime> {
    let t = toks.first()?;
    let t = t.split(['+', 'Z']).next()?;
    let mut parts = t.split(':');
    let h: u32 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let s = parts.next().unwrap_or("0");
    let (s, frac) = s.split_once('.').unwrap_or((s, "0"));
    let s: u32 = s.parse().ok()?;
    let _ = frac;
    let h = match toks.get(1).map(|x| x.to_ascii_uppercase()) {
        Some(ref p) if p == "PM" && h < 12 => h + 12,
        Some(ref p) if p == "AM" && h == 12 => 0,
        _ => h,
    };
    NaiveTime::from_hms_opt(h, m, s)
}

/// Splits a printed time stamp into its date part and its time part.
pub(crate) fn split_stamp(s: &str) -> (Option<&str>, Vec<&str>) {
    let s = s.trim();
    let s = s.strip_prefix("Time:").unwrap_or(s).trim();
    // ISO 8601 `2024-01-02T10:00:00+0100`.
    if let Some((d, t)) = s.split_once('T') {
        if d.len() == 10 && d.as_bytes()[4] == b'-' {
            return (Some(d), vec![t]);
        }
    }
    let toks: Vec<&str> = s.split_whitespace().collect();
    match toks.first() {
        Some(f) if f.contains(':') => (None, toks),
        Some(f) => (Some(f), toks[1..].to_vec()),
        None => (None, Vec::new()),
    }
}

fn digits_then(tok: &str, suffix: &str) -> Option<u32> {
    tok.strip_suffix(suffix)?.parse().ok()
}

/// Reads a `date(1)`-style text: `Mon Nov 30 08:00:00 UTC 2026`, `Mon 30 Nov 2026 08:00:00 AM
/// UTC`, `2019年 04月 04日 星期四 10:00:00 CST`, `2026-11-30 08:00:00`, `11/30/2026 08:00:00`
/// (month first, as ExaWatcher writes it). Needs a time, a day, a month and a 4-digit year; the
/// zone is ignored (wall-clock time).
pub(crate) fn date_text_time(s: &str) -> Option<NaiveDateTime> {
    let toks: Vec<&str> = s
        .split_whitespace()
        .map(|t| t.trim_end_matches(','))
        .collect();
    if toks.len() < 2 || toks.len() > 12 {
        return None;
    }
    let ti = toks.iter().position(|t| {
        let p: Vec<&str> = t.split(':').collect();
        p.len() == 3
            && p.iter()
                .all(|x| !x.is_empty() && x.len() <= 2 && x.bytes().all(|b| b.is_ascii_digit()))
    })?;
    let p: Vec<u32> = toks[ti]
        .split(':')
        .map(|x| x.parse().unwrap_or(99))
        .collect();
    let mut hour = p[0];
    match toks.get(ti + 1).map(|x| x.to_ascii_uppercase()) {
        Some(ref a) if a == "PM" && hour < 12 => hour += 12,
        Some(ref a) if a == "AM" && hour == 12 => hour = 0,
        _ => {}
    }
    let time = NaiveTime::from_hms_opt(hour, p[1], p[2])?;
    // ISO or slash dates.
    for t in &toks {
        if t.len() == 10 && t.as_bytes()[4] == b'-' && t.as_bytes()[7] == b'-' {
            let d = NaiveDate::parse_from_str(t, "%Y-%m-%d").ok()?;
            return Some(d.and_time(time));
        }
        if t.len() == 10 && t.as_bytes()[2] == b'/' && t.as_bytes()[5] == b'/' {
            let d = NaiveDate::parse_from_str(t, "%m/%d/%Y").ok()?;
            return Some(d.and_time(time));
        }
    }
    let mut year = None;
    let mut month = None;
    let mut day = None;
    for (k, t) in toks.iter().enumerate() {
        if k == ti {
            continue;
        }
        if let Some(y) = digits_then(t, "年") {
            year = Some(y as i32);
        } else if let Some(m) = digits_then(t, "月") {
            month = Some(m);
        } else if let Some(d) = digits_then(t, "日") {
            day = Some(d);
        } else if t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) {
            year = year.or(t.parse().ok());
        } else if let Some(d) = t
            .trim_end_matches('.')
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=31).contains(d) && t.len() <= 3)
        {
            day = day.or(Some(d));
        } else if k > 0
            && month.is_none()
            && t.len() >= 3
            && !t.ends_with('.')
            && t.chars().all(|c| c.is_ascii_alphabetic())
        {
            month = month_name(t);
        }
    }
    NaiveDate::from_ymd_opt(year?, month?, day?).map(|d| d.and_time(time))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn month_names_by_prefix_in_any_case() {
        assert_eq!(month_name("Jan"), Some(1));
        assert_eq!(month_name("DECEMBER"), Some(12));
        assert_eq!(month_name("sept"), Some(9));
        assert_eq!(month_name("dic"), None);
    }

    #[test]
    fn two_digit_years_follow_posix() {
        assert_eq!(year4(69, 2), 1969);
        assert_eq!(year4(68, 2), 2068);
        assert_eq!(year4(24, 2), 2024);
        assert_eq!(year4(1999, 4), 1999);
    }

    #[test]
    fn date_tokens_of_every_form() {
        assert!(
            matches!(date_token("21-JAN-2015"), Some(DateToken::Fixed(d)) if d == date(2015, 1, 21))
        );
        assert!(
            matches!(date_token("21-Jan-15"), Some(DateToken::Fixed(d)) if d == date(2015, 1, 21))
        );
        assert!(
            matches!(date_token("2024-01-02"), Some(DateToken::Fixed(d)) if d == date(2024, 1, 2))
        );
        assert!(
            matches!(date_token("02.01.2024"), Some(DateToken::Fixed(d)) if d == date(2024, 1, 2))
        );
        assert!(matches!(
            date_token("2024/01/02"),
            Some(DateToken::YearFirst(2024, 1, 2))
        ));
        assert!(matches!(
            date_token("01/02/24,"),
            Some(DateToken::Slash(1, 2, (24, 2)))
        ));
        assert!(date_token("12:00:00").is_none());
    }

    #[test]
    fn times_with_am_pm_and_zones() {
        let t = |h, m, s| NaiveTime::from_hms_opt(h, m, s);
        assert_eq!(time_token(&["10:00:05"]), t(10, 0, 5));
        assert_eq!(time_token(&["12:30:00", "AM"]), t(0, 30, 0));
        assert_eq!(time_token(&["01:30:00", "PM"]), t(13, 30, 0));
        assert_eq!(time_token(&["10:00:00+0100"]), t(10, 0, 0));
        assert_eq!(time_token(&["10:00"]), t(10, 0, 0));
    }

    #[test]
    fn stamps_split_into_date_and_time() {
        assert_eq!(
            split_stamp("2024-01-02T10:00:00+0100"),
            (Some("2024-01-02"), vec!["10:00:00+0100"])
        );
        assert_eq!(
            split_stamp("Time: 01/02/24 10:00:00 AM"),
            (Some("01/02/24"), vec!["10:00:00", "AM"])
        );
        assert_eq!(split_stamp("10:00:00 PM"), (None, vec!["10:00:00", "PM"]));
    }

    #[test]
    fn date_lines_in_several_locales() {
        let dt = |y, mo, d, h, mi, s| Some(date(y, mo, d).and_hms_opt(h, mi, s).unwrap());
        assert_eq!(
            date_text_time("Mon Nov 30 08:00:00 UTC 2026"),
            dt(2026, 11, 30, 8, 0, 0)
        );
        assert_eq!(
            date_text_time("Mon 30 Nov 2026 08:00:00 PM UTC"),
            dt(2026, 11, 30, 20, 0, 0)
        );
        assert_eq!(
            date_text_time("2019年 04月 04日 星期四 10:00:00 CST"),
            dt(2019, 4, 4, 10, 0, 0)
        );
        assert_eq!(
            date_text_time("11/30/2026 08:00:00"),
            dt(2026, 11, 30, 8, 0, 0)
        );
        assert_eq!(date_text_time("sda 1.00 2.00"), None);
    }
}
