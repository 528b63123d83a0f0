//! Telling a Linux `iostat` log from its content when its banner line is missing.
//!
//! A log cut from a terminal, or one whose capture started after the first line, begins with a
//! `-t` time stamp (`01/25/2022 06:47:54 AM`), an `avg-cpu:` block or a `Device` header: the
//! `Linux <release> (<host>) <date> …` banner that [`super::looks_like`] looks for is not there.
//! Such a text is still iostat's when every one of its first non-blank lines (up to
//! [`LINES`]) is a line iostat prints, and it shows a report:
//! - each line is a `-t` time stamp, an `avg-cpu:` header, a line of numbers (the CPU values),
//!   a device header, or a device row: a name and exactly as many numbers as the header above it
//!   has columns (a name alone on its line, the 10.0.1 – 11.7.3 `-h` form, too);
//! - a device header, every column of which sysstat prints (`r/s`, `rkB/s`, `%util`, …:
//!   [`crate::disk::sysstat_known`]), with at least one device row under it;
//! - and an `avg-cpu:` header with `%idle` or a `-t` time stamp, so a table that only looks like
//!   iostat's (a `Device  r/s` table in some other tool's output) is not taken for a log.
//!
//! A text that fails any of these (prose before the first report, a `Device` table with columns
//! sysstat does not print, rows that do not fit) is not a recognised report.

use super::{header_line, strip_ansi, timestamp_line};
use crate::disk::sysstat_known;

/// How many non-blank lines are looked at.
pub(super) const LINES: usize = 50;

/// A value iostat prints: a decimal with `.` or `,`, optionally followed by `%` or a
/// `--human` suffix (`k`, `M`, `G`, `T`, `P`).
fn number(t: &str) -> bool {
    let t = t.strip_suffix('%').unwrap_or(t);
    let t = t.strip_suffix(['k', 'M', 'G', 'T', 'P']).unwrap_or(t);
    !t.is_empty()
        && t.starts_with(|c: char| c.is_ascii_digit() || c == '-')
        && t.replace(',', ".").parse::<f64>().is_ok_and(f64::is_finite)
}

/// True when `text` is a Linux iostat log without its banner (see the module docs).
pub(super) fn bannerless(text: &str) -> bool {
    // Columns of the current device header, and whether the name is the last field.
    let mut header: Option<(usize, bool)> = None;
    let (mut rows, mut cpu, mut stamp) = (0usize, false, false);
    let mut lines = text
        .lines()
        .map(strip_ansi)
        .filter(|l| !l.trim().is_empty());
    for line in lines.by_ref().take(LINES) {
        let trimmed = line.trim();
        if timestamp_line(trimmed).is_some() {
            stamp = true;
            header = None;
            continue;
        }
        if let Some(cols) = trimmed.strip_prefix("avg-cpu:") {
            cpu |= cols.split_whitespace().any(|c| c == "%idle");
            header = None;
            continue;
        }
        let toks: Vec<&str> = trimmed.split_whitespace().collect();
        if toks.iter().all(|t| number(t)) {
            // The values under `avg-cpu:`.
            continue;
        }
        if let Some((columns, last)) = header_line(&line) {
            if !columns.iter().all(|c| sysstat_known(c)) {
                return false;
            }
            header = Some((columns.len(), last));
            continue;
        }
        let fits = match header {
            // `-h` 10.0.1 – 11.7.3: the name alone, its values on the next line.
            Some((_, false)) if toks.len() == 1 => true,
            Some((n, false)) => toks.len() == n + 1 && toks[1..].iter().all(|t| number(t)),
            Some((n, true)) => toks.len() == n + 1 && toks[..n].iter().all(|t| number(t)),
            None => false,
        };
        if !fits {
            return false;
        }
        rows += 1;
    }
    rows > 0 && (cpu || stamp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_without_its_banner() {
        let log = "01/25/2022 06:47:54 AM\navg-cpu:  %user   %nice %system %iowait  %steal   %idle\n\
                   \x20          1.49    0.00    1.67    0.94    0.00   95.90\n\n\
                   Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util\n\
                   sda               0.00     0.02    0.13    0.11     5.27     1.10    52.53     0.00    0.88    0.53    1.29   0.52   0.01\n";
        assert!(bannerless(log));
        // Without a time stamp or an avg-cpu block: a table, not a log.
        let table = log.split_once("\n\n").unwrap().1;
        assert!(!bannerless(table));
        // Prose first, a column sysstat does not print, a row that does not fit.
        assert!(!bannerless(&format!("iostat output:\n{log}")));
        assert!(!bannerless(&log.replace("avgrq-sz", "Size")));
        assert!(!bannerless(&log.replace("0.52   0.01", "0.52")));
    }
}
