//! One block of an archive: the iostat output between two markers, read by its platform's
//! parser, its reports timed from the marker, its lines counted in the whole archive.

use chrono::{Duration, NaiveDateTime, NaiveTime};

use super::{Reader, OSW_COUNT};
use crate::dates::date_text_time;
use crate::disk::SkippedLine;
use crate::error::{Location, ParseError};
use crate::lines::{clip, CLIP_UNIX};
use crate::unix_iostat;

/// The marker's date and the interval it states (`Sample interval: 5 secconds`).
pub(super) fn marker_time(text: &str) -> (Option<NaiveDateTime>, Option<f64>) {
    let (date, rest) = match text.find("Sample interval") {
        Some(k) => (&text[..k], &text[k..]),
        None => (text, ""),
    };
    // ExaWatcher: `11/30/2026 08:00:00> Count:3`.
    let date = date.split('>').next().unwrap_or(date);
    let interval = rest
        .split_whitespace()
        .find_map(|t| t.parse::<f64>().ok())
        .filter(|v| *v > 0.0);
    (date_text_time(date), interval)
}

/// A time of day printed by iostat in a report's own time stamp (`Time: 11:01:57`,
/// `11/30/2026 08:00:01 AM`, AIX `08:00:01`).
pub(super) fn stamp_time_of_day(stamp: &str) -> Option<NaiveTime> {
    let toks: Vec<&str> = stamp.split_whitespace().collect();
    let k = toks.iter().position(|t| t.matches(':').count() == 2)?;
    let t = toks[k].split(['+', 'Z']).next()?;
    let t = t.rsplit('T').next()?;
    let mut p = t
        .split(':')
        .map(|x| x.split('.').next().unwrap_or(x).parse::<u32>());
    let (h, m, s) = (p.next()?.ok()?, p.next()?.ok()?, p.next()?.ok()?);
    let h = match toks.get(k + 1).map(|x| x.to_ascii_uppercase()) {
        Some(ref a) if a == "PM" && h < 12 => h + 12,
        Some(ref a) if a == "AM" && h == 12 => 0,
        _ => h,
    };
    NaiveTime::from_hms_opt(h, m, s)
}

fn shift_error(e: ParseError, offset: usize) -> ParseError {
    match e {
        ParseError::Section {
            at,
            expected,
            found,
        } => ParseError::Section {
            at: Location {
                line: at.line.map(|l| l + offset),
                section: at.section,
            },
            expected,
            found,
        },
        ParseError::Truncated { what, at } => ParseError::Truncated {
            what,
            at: Location {
                line: at.line.map(|l| l + offset),
                section: at.section,
            },
        },
        other => other,
    }
}

/// `line 12: …` → `line 12+offset: …`.
fn shift_warning(w: &str, offset: usize) -> String {
    if let Some(rest) = w.strip_prefix("line ") {
        if let Some((n, tail)) = rest.split_once(':') {
            if let Ok(n) = n.parse::<usize>() {
                return format!("line {}:{tail}", n + offset);
            }
        }
    }
    w.to_string()
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Platform {
    Linux,
    Aix,
    Solaris,
}

fn block_platform(block: &str, file_platform: &str) -> Option<Platform> {
    let mut aix = false;
    let mut sol = false;
    for l in block.lines() {
        let t: Vec<&str> = l.split_whitespace().collect();
        let Some(first) = t.first() else { continue };
        if *first == "Device:"
            || *first == "Device"
            || *first == "avg-cpu:"
            || (*first == "Linux" && t.get(2).is_some_and(|h| h.starts_with('(')))
            || t.last() == Some(&"Device")
        {
            return Some(Platform::Linux);
        }
        aix |= t.get(1) == Some(&"xfer:")
            || *first == "Disks:"
            || l.trim_start().starts_with("System configuration:");
        sol |= l.contains("extended device statistics")
            || (t.contains(&"actv") && t.contains(&"device"));
    }
    if aix {
        return Some(Platform::Aix);
    }
    if sol {
        return Some(Platform::Solaris);
    }
    match file_platform {
        "Linux" => Some(Platform::Linux),
        "AIX" => Some(Platform::Aix),
        "SunOS" | "Solaris" => Some(Platform::Solaris),
        _ => None,
    }
}

/// The block being read: the lines after one marker, up to the next.
pub(super) struct Block {
    /// 0-based archive line of the marker.
    pub(super) marker: usize,
    /// The marker's text after `zzz ***`.
    pub(super) text: String,
    /// The block's text with the marker line blank, so that block line `k` is archive line
    /// `marker + k` (file-header lines blank too).
    pub(super) lines: String,
}

impl Reader {
    /// Reads one finished block into the held reports, warnings and skipped lines.
    pub(super) fn read_block(&mut self, b: Block) {
        let marker_no = b.marker + 1;
        let mtext = b.text.as_str();
        let block = b.lines.as_str();
        let (t0, stated) = marker_time(mtext);
        if t0.is_none() {
            self.log.warn(format!(
                "line {marker_no}: marker date '{}' not read (expected e.g. 'Mon Nov 30 \
                 08:00:00 UTC 2026'): its reports have no time",
                clip(mtext, CLIP_UNIX)
            ));
        }
        if block.trim().is_empty() {
            self.log.skipped.push(SkippedLine {
                line: marker_no,
                reason: "a marker with no iostat output after it".into(),
            });
            return;
        }
        self.blocks_seen += 1;
        let offset = b.marker; // block line 1 is the (blanked) marker line
        let Some(kind) = block_platform(block, &self.platform) else {
            self.log.skipped.push(SkippedLine {
                line: marker_no,
                reason: "a block that is neither Linux, AIX nor Solaris iostat output \
                         (HP-UX/OSF1 'iostat 1 3' is not read)"
                    .into(),
            });
            return;
        };
        let has_banner = block.lines().any(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.first() == Some(&"Linux") && t.get(2).is_some_and(|h| h.starts_with('(')))
                || l.trim_start().starts_with("System configuration:")
        });
        let parsed = match kind {
            Platform::Linux => crate::iostat::parse_with(
                block,
                crate::iostat::ReaderOptions {
                    first_is_since_boot: has_banner,
                    ..crate::iostat::ReaderOptions::default()
                },
            ),
            Platform::Aix => unix_iostat::parse_aix_with(
                block,
                unix_iostat::UnixIostatOptions {
                    first_is_since_boot: false,
                },
            ),
            Platform::Solaris => unix_iostat::parse_solaris_with(
                block,
                unix_iostat::UnixIostatOptions {
                    first_is_since_boot: false,
                },
            )
            .map(|mut l| {
                if l.reports.len() >= 2 {
                    l.reports[0].since_boot = true;
                }
                l
            }),
        };
        let sub = match parsed {
            Ok(s) => s,
            Err(e) => {
                let e = shift_error(e, offset);
                let line = match &e {
                    ParseError::Section { at, .. } | ParseError::Truncated { at, .. } => {
                        at.line.unwrap_or(marker_no)
                    }
                    _ => marker_no,
                };
                self.first_failure.get_or_insert_with(|| e.to_string());
                self.log.skipped.push(SkippedLine {
                    line,
                    reason: format!("the block of the marker of line {marker_no} is left out: {e}"),
                });
                return;
            }
        };
        let found = &mut self.found;
        if let Some(h) = &sub.header {
            if found.kernel.is_empty() {
                found.kernel = h.kernel.clone();
            }
            if found.host.is_empty() {
                found.host = h.host.clone();
            }
            if found.sysname.is_empty() {
                found.sysname = h.sysname.clone();
            }
            found.arch = found.arch.take().or(h.arch.clone());
            found.cpus = found.cpus.or(h.cpus);
        }
        if found.sysname.is_empty() {
            found.sysname = match kind {
                Platform::Linux => "Linux",
                Platform::Aix => "AIX",
                Platform::Solaris => "SunOS",
            }
            .into();
        }
        for w in &sub.warnings {
            self.log.warn(shift_warning(w, offset));
        }
        for s in sub.skipped {
            self.log.skipped.push(SkippedLine {
                line: s.line + offset,
                reason: s.reason,
            });
        }
        let n = sub.reports.len();
        let whole = sub.reports.first().is_some_and(|r| r.since_boot) || n >= OSW_COUNT;
        let step = stated.unwrap_or(1.0);
        let mut out_of_range = 0usize;
        for (k, mut r) in sub.reports.into_iter().enumerate() {
            r.line += offset;
            r.interval_s = stated;
            if r.time.is_none() {
                if let Some(t0) = t0 {
                    let own = r.timestamp.as_deref().and_then(stamp_time_of_day);
                    r.time = match own {
                        Some(tod) => Some(next_time_of_day(t0, tod)),
                        None => {
                            let i = if whole {
                                k
                            } else {
                                OSW_COUNT.saturating_sub(n) + k
                            };
                            let at = after_seconds(t0, i as f64 * step);
                            out_of_range += usize::from(at.is_none());
                            at
                        }
                    };
                }
            }
            if r.timestamp.is_none() {
                r.timestamp = Some(mtext.to_string());
            }
            self.held.push(r);
        }
        if out_of_range > 0 {
            self.log.warn(format!(
                "line {marker_no}: {out_of_range} report(s) of the marker '{}' would be timed out \
                 of the date range (the marker's time plus the stated sample interval): their \
                 time is unknown",
                clip(mtext, CLIP_UNIX)
            ));
        }
    }
}

/// The first `tod` at or after a minute before `t0` (a report's own time of day after its
/// marker, past midnight the next day); `t0`'s own day when the next one is out of chrono's
/// range.
fn next_time_of_day(t0: NaiveDateTime, tod: NaiveTime) -> NaiveDateTime {
    let at = t0.date().and_time(tod);
    match t0.checked_sub_signed(Duration::minutes(1)) {
        Some(before) if at < before => at.checked_add_signed(Duration::days(1)).unwrap_or(at),
        _ => at,
    }
}

/// `t0` plus `secs` seconds (a count of sample intervals stated in the file), to the
/// millisecond; `None` when `secs` is not finite or the sum is out of chrono's range (a
/// `Sample interval: 1e308` would make `t0 + Duration` panic).
fn after_seconds(t0: NaiveDateTime, secs: f64) -> Option<NaiveDateTime> {
    let ms = (secs * 1000.0).round();
    // i64::MAX as f64 rounds up to 2^63, so `<` keeps the cast exact and in range.
    if !ms.is_finite() || ms.abs() >= i64::MAX as f64 {
        return None;
    }
    t0.checked_add_signed(Duration::try_milliseconds(ms as i64)?)
}
