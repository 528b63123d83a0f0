//! Oracle OSWatcher Black Box (oswbb) `oswiostat` archives
//! (`archive/oswiostat/<host>_iostat_YY.MM.DD.HH00.dat[.gz]`), into a [`DeviceLog`] of format
//! `oswatcher`.
//!
//! Sources: `../shared/reference/iostat-sar-formats.md` §5.1 and oswbb's own scripts
//! (`OSWatcher.sh`: `IOSTAT='iostat -xk 1 3'` on Linux, `'iostat -xn 1 3'` on SunOS,
//! `'iostat -D 1 3'` on AIX; `iosub.sh`: `echo "zzz ***"\`date\``, then
//! `tail -$((lines / 3))` of the iostat output).
//!
//! # Layout
//! ```text
//! Linux OSWbb v8.1.2 db01.example.com        ← file header ($PLATFORM OSWbb $version $host)
//! SNAP_INTERVAL 30
//! CPU_CORES 4
//! VCPUS 8
//! OSWBB_ARCHIVE_DEST /u01/oswbb/archive
//! zzz ***Mon Nov 30 08:00:00 UTC 2026        ← one marker per snapshot
//! avg-cpu:  %user …                          ← the iostat output of that snapshot
//! Device:  rrqm/s wrqm/s r/s w/s rkB/s …
//! sda      0.00   1.00   …
//! zzz ***Mon Nov 30 08:00:30 UTC 2026
//! …
//! ```
//! Each block between two markers is parsed by the platform's parser, chosen by the block's
//! content (else by the file header's platform): Linux blocks by [`crate::iostat::parse_with`]
//! (unchanged), AIX blocks by [`crate::unix_iostat::parse_aix_with`], Solaris blocks by
//! [`crate::unix_iostat::parse_solaris_with`]. Their reports, skips and warnings are merged, with
//! line numbers counted in the whole archive. A block that its parser rejects (cut in an odd
//! place) is left out as one counted [`SkippedLine`] whose reason quotes the parser's error; the other
//! blocks are kept.
//!
//! # Which reports are since boot
//! oswbb runs iostat with a count of 3 (`iostat -xk 1 3`). Two archive shapes exist:
//! - **the whole output** (older oswbb, or a file assembled by hand): each block holds the
//!   banner (Linux `Linux … (host)`, AIX `System configuration:`) and three reports; the first
//!   is since boot and gets `since_boot: true` (drop it for interval statistics). For Solaris,
//!   which prints no banner, a block of two or more reports is read this way;
//! - **the last third** (`iosub.sh` of oswbb 7.x/8.x, the usual case): `tail` keeps only the last
//!   report, a 1-second interval sample; no report of the block is since boot. If the device
//!   count changed during the run the cut can start inside a report: its leading lines are
//!   counted skips.
//!
//! # Time of each report
//! The marker's date (`date` output, taken just before iostat starts) is the block's start time
//! `T0`. It is read from `Mon Nov 30 08:00:00 UTC 2026`, the OSWg form `Mon Nov  3 08:00:00 UTC
//! 2026`, `Mon 30 Nov 2026 08:00:00 AM UTC`, `2019年 04月 04日 星期四 10:00:00 CST` (English month
//! names or numeric `年 月 日`; other languages give no time and a warning) and the ExaWatcher
//! form `zzz <11/30/2026 08:00:00> Count:3` (month first). The zone abbreviation is kept in
//! `timestamp` but not applied: `time` is the host's wall-clock time.
//!
//! Report `k` (0-based) of a run is printed about `k × interval` after `T0` (the first report,
//! since boot, comes at once). So each report's [`DeviceReport::time`](crate::disk::DeviceReport::time) is `T0 + i × interval`,
//! with `i` = `k` for a whole run and `3 − n + k` for the last `n` reports of a cut run (the usual
//! single report: `T0 + 2 s`). The interval is the one the marker states (Exadata cells:
//! `… Sample interval: 5 secconds`), else oswbb's 1 s. When iostat printed its own time of day
//! (`-t`, Exadata `Time: 11:01:57`, AIX `-T`), that time on `T0`'s date is used instead (a day
//! later if it is before `T0`). `timestamp` keeps the iostat time stamp as printed when there is
//! one, else the marker's text. `interval_s` is set only when the marker states the interval.
//!
//! Sampling: an oswiostat snapshot is a **1-second spot sample** taken every `SNAP_INTERVAL`
//! (default 30 s), not an average over the 30 s: the log's warnings say so.
//!
//! # Compressed archives
//! gzip (`.dat.gz`) is decompressed by [`crate::input::decode`] (see [`parse_bytes`]); bzip2
//! (`.bz2`) and compress (`.Z`) archives are refused with a message saying to decompress them.
//!
//! # Example
//! ```
//! let text = "Linux OSWbb v8.1.2 db01\nSNAP_INTERVAL 30\n\
//!             zzz ***Mon Nov 30 08:00:00 UTC 2026\n\
//!             Device:  r/s  w/s  rkB/s  wkB/s  await  %util\n\
//!             sda     10.00  5.00  80.00  40.00  0.50  1.20\n";
//! let log = sizer_parsers::oswatcher::parse(text).unwrap();
//! let r = &log.reports[0];
//! assert!(!r.since_boot); // the last third of `iostat -xk 1 3`: the 3rd report
//! assert_eq!(r.time.unwrap().to_string(), "2026-11-30 08:00:02");
//! assert_eq!(r.devices[0].normalised.read_bytes_per_s, Some(81920.0));
//! ```

use chrono::{Duration, NaiveDateTime, NaiveTime};

use crate::dates::date_text_time;
use crate::disk::{DeviceLog, SkippedLine, SystemHeader};
use crate::error::{Location, ParseError};
use crate::lines::{clip, head, CLIP_UNIX};
use crate::unix_iostat;

/// Format id.
pub const FORMAT: &str = "oswatcher";

/// The iostat count oswbb uses (`iostat … 1 3`).
const OSW_COUNT: usize = 3;

/// True when the text is an OSWatcher archive: a `zzz ***` (or ExaWatcher `zzz <`) marker or an
/// `OSWbb` header line among the first 64 KiB.
pub fn looks_like(text: &str) -> bool {
    head(text)
        .lines()
        .any(|l| marker(l).is_some() || osw_header(l).is_some())
}

/// Decompression hint for archives this crate cannot read itself.
fn compressed(bytes: &[u8]) -> Option<&'static str> {
    if bytes.len() >= 4 && bytes.starts_with(b"BZh") && (b'1'..=b'9').contains(&bytes[3]) {
        Some("bzip2 (.bz2): run `bunzip2 file.dat.bz2` and pass the .dat file")
    } else if bytes.starts_with(&[0x1f, 0x9d]) {
        Some("compress (.Z): run `uncompress file.dat.Z` (or `gzip -d`) and pass the .dat file")
    } else {
        None
    }
}

fn compressed_error(what: &str) -> ParseError {
    ParseError::UnknownFormat {
        reason: format!("a compressed OSWatcher archive in {what}; gzip (.gz) is read directly"),
    }
}

/// Decodes bytes ([`crate::input::decode`], which decompresses gzip) and parses them; bzip2 and
/// compress archives are refused with the command to decompress them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<DeviceLog, ParseError> {
    if let Some(what) = compressed(bytes) {
        return Err(compressed_error(what));
    }
    let d = crate::input::decode(bytes)?;
    parse(&d.text)
}

/// A marker line: the text after `zzz ***` (or inside ExaWatcher's `zzz <…>`).
fn marker(line: &str) -> Option<&str> {
    let l = line.trim_end_matches('\r');
    l.strip_prefix("zzz ***")
        .or_else(|| l.strip_prefix("zzz <"))
        .map(str::trim)
}

/// `Linux OSWbb v8.1.2 host` → (platform, host).
fn osw_header(line: &str) -> Option<(String, Option<String>)> {
    let t: Vec<&str> = line.split_whitespace().collect();
    let k = t.iter().position(|x| *x == "OSWbb")?;
    if k > 1 {
        return None;
    }
    let platform = if k == 1 {
        t[0].to_string()
    } else {
        String::new()
    };
    let host = (t.len() >= k + 3).then(|| t[t.len() - 1].to_string());
    Some((platform, host))
}

/// The marker's date and the interval it states (`Sample interval: 5 secconds`).
fn marker_time(text: &str) -> (Option<NaiveDateTime>, Option<f64>) {
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
fn stamp_time_of_day(stamp: &str) -> Option<NaiveTime> {
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

/// Parses an OSWatcher `oswiostat` archive (text; see [`parse_bytes`] for gzip).
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text is a bzip2/compress archive, holds no `zzz`
/// marker, or none of its blocks holds iostat device statistics (e.g. an `oswvmstat` archive).
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    if let Some(what) = compressed(text.as_bytes()) {
        return Err(compressed_error(what));
    }
    if text.starts_with('\u{1f}') && text[1..].starts_with('\u{9d}') {
        return Err(compressed_error(
            "compress (.Z): run `uncompress file.dat.Z` and pass the .dat file",
        ));
    }
    let mut log = DeviceLog::new(FORMAT);
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let mut platform = String::new();
    let mut osw_host: Option<String> = None;
    let mut vcpus: Option<u32> = None;
    let mut cores: Option<u32> = None;
    let mut snap_interval: Option<String> = None;
    // Blank out the file-header lines (they may repeat where hourly files were concatenated) so
    // block line numbers stay those of the archive.
    let mut clean: Vec<&str> = Vec::with_capacity(lines.len());
    let mut markers: Vec<usize> = Vec::new(); // 0-based line indices
    for (i, l) in lines.iter().enumerate() {
        if let Some((p, h)) = osw_header(l) {
            if platform.is_empty() {
                platform = p;
            }
            if osw_host.is_none() {
                osw_host = h;
            }
            clean.push("");
            continue;
        }
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() == 2
            && matches!(
                t[0],
                "SNAP_INTERVAL" | "CPU_CORES" | "VCPUS" | "OSWBB_ARCHIVE_DEST"
            )
        {
            match t[0] {
                "SNAP_INTERVAL" => snap_interval = Some(t[1].to_string()),
                "CPU_CORES" => cores = t[1].parse().ok(),
                "VCPUS" => vcpus = t[1].parse().ok(),
                _ => {}
            }
            clean.push("");
            continue;
        }
        if marker(l).is_some() {
            markers.push(i);
        }
        clean.push(l);
    }
    if markers.is_empty() {
        return Err(ParseError::UnknownFormat {
            reason: "expected an OSWatcher oswiostat archive ('zzz ***<date>' markers, each \
                     followed by iostat output): no marker found"
                .into(),
        });
    }
    // Lines before the first marker, other than the file header, are not iostat blocks.
    for (i, l) in clean[..markers[0]].iter().enumerate() {
        if !l.trim().is_empty() {
            log.skipped.push(SkippedLine {
                line: i + 1,
                reason: format!(
                    "text before the first 'zzz ***' marker: '{}'",
                    clip(l.trim(), CLIP_UNIX)
                ),
            });
        }
    }
    let mut header = SystemHeader {
        sysname: platform.clone(),
        host: osw_host.clone().unwrap_or_default(),
        cpus: vcpus.or(cores),
        ..Default::default()
    };
    let mut blocks_seen = 0usize;
    let mut failed: Vec<String> = Vec::new();
    for (b, &m) in markers.iter().enumerate() {
        let end = markers.get(b + 1).copied().unwrap_or(clean.len());
        let marker_no = m + 1;
        let mtext = marker(clean[m]).unwrap_or("");
        let (t0, stated) = marker_time(mtext);
        if t0.is_none() {
            log.warn(format!(
                "line {marker_no}: marker date '{}' not read (expected e.g. 'Mon Nov 30 \
                 08:00:00 UTC 2026'): its reports have no time",
                clip(mtext, CLIP_UNIX)
            ));
        }
        // Block text with the marker line blanked, so block line k is archive line m + k.
        let mut block_lines: Vec<&str> = Vec::with_capacity(end - m);
        block_lines.push("");
        block_lines.extend_from_slice(&clean[m + 1..end]);
        let block = block_lines.join("\n");
        if block.trim().is_empty() {
            log.skipped.push(SkippedLine {
                line: marker_no,
                reason: "a marker with no iostat output after it".into(),
            });
            continue;
        }
        blocks_seen += 1;
        let offset = m; // block line 1 is the (blanked) marker line
        let Some(kind) = block_platform(&block, &platform) else {
            log.skipped.push(SkippedLine {
                line: marker_no,
                reason: "a block that is neither Linux, AIX nor Solaris iostat output \
                         (HP-UX/OSF1 'iostat 1 3' is not read)"
                    .into(),
            });
            continue;
        };
        let has_banner = block.lines().any(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.first() == Some(&"Linux") && t.get(2).is_some_and(|h| h.starts_with('(')))
                || l.trim_start().starts_with("System configuration:")
        });
        let parsed = match kind {
            Platform::Linux => crate::iostat::parse_with(
                &block,
                crate::iostat::ReaderOptions {
                    first_is_since_boot: has_banner,
                    ..crate::iostat::ReaderOptions::default()
                },
            ),
            Platform::Aix => unix_iostat::parse_aix_with(
                &block,
                unix_iostat::UnixIostatOptions {
                    first_is_since_boot: false,
                },
            ),
            Platform::Solaris => unix_iostat::parse_solaris_with(
                &block,
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
                failed.push(e.to_string());
                log.skipped.push(SkippedLine {
                    line,
                    reason: format!("the block of the marker of line {marker_no} is left out: {e}"),
                });
                continue;
            }
        };
        if let Some(h) = &sub.header {
            if header.kernel.is_empty() {
                header.kernel = h.kernel.clone();
            }
            if header.host.is_empty() {
                header.host = h.host.clone();
            }
            if header.sysname.is_empty() {
                header.sysname = h.sysname.clone();
            }
            header.arch = header.arch.take().or(h.arch.clone());
            header.cpus = header.cpus.or(h.cpus);
        }
        if header.sysname.is_empty() {
            header.sysname = match kind {
                Platform::Linux => "Linux",
                Platform::Aix => "AIX",
                Platform::Solaris => "SunOS",
            }
            .into();
        }
        for w in &sub.warnings {
            log.warn(shift_warning(w, offset));
        }
        for s in sub.skipped {
            log.skipped.push(SkippedLine {
                line: s.line + offset,
                reason: s.reason,
            });
        }
        let n = sub.reports.len();
        let whole = sub.reports.first().is_some_and(|r| r.since_boot) || n >= OSW_COUNT;
        let step = stated.unwrap_or(1.0);
        for (k, mut r) in sub.reports.into_iter().enumerate() {
            r.line += offset;
            r.interval_s = stated;
            if r.time.is_none() {
                if let Some(t0) = t0 {
                    let own = r.timestamp.as_deref().and_then(stamp_time_of_day);
                    r.time = Some(match own {
                        Some(tod) => {
                            let mut at = t0.date().and_time(tod);
                            if at < t0 - Duration::minutes(1) {
                                at += Duration::days(1);
                            }
                            at
                        }
                        None => {
                            let i = if whole {
                                k
                            } else {
                                OSW_COUNT.saturating_sub(n) + k
                            };
                            t0 + Duration::milliseconds((i as f64 * step * 1000.0).round() as i64)
                        }
                    });
                }
            }
            if r.timestamp.is_none() {
                r.timestamp = Some(mtext.to_string());
            }
            log.reports.push(r);
        }
    }
    if log.reports.is_empty() {
        let why = if blocks_seen == 0 {
            "its markers have no output after them".to_string()
        } else if !failed.is_empty() {
            format!("no block could be read (first error: {})", failed[0])
        } else {
            "its blocks hold no iostat device statistics (is it an oswvmstat, oswtop or other \
             OSWatcher archive?)"
                .to_string()
        };
        return Err(ParseError::UnknownFormat {
            reason: format!(
                "expected an OSWatcher oswiostat archive with iostat disk statistics, but {why}"
            ),
        });
    }
    log.warn(format!(
        "OSWatcher iostat snapshots are 1-second spot samples (iostat … 1 3) taken every \
         SNAP_INTERVAL ({} s): statistics over them are of spot samples, not interval averages",
        snap_interval.as_deref().unwrap_or("unknown")
    ));
    log.header = Some(header);
    Ok(log)
}

/// The OSWatcher `oswiostat` archive format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct OsWatcher;

impl crate::parser::FormatParser for OsWatcher {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::OsWatcher,
            id: "oswatcher",
            name: "OSWatcher oswiostat archive",
            kind: crate::sink::RecordKind::Devices,
            description: "Oracle OSWatcher Black Box (and ExaWatcher) `oswiostat` archive: Linux, AIX or Solaris iostat runs",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like(text)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        crate::parser::devices_into(parse(text), self.info(), settings, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    #[test]
    fn date_layouts() {
        for (s, want) in [
            ("Mon Nov 30 08:00:00 UTC 2026", "2026-11-30 08:00:00"),
            ("Tue Nov  3 08:00:00 CST 2026", "2026-11-03 08:00:00"),
            ("Mon 30 Nov 2026 08:00:00 PM UTC", "2026-11-30 20:00:00"),
            (
                "2019年 04月 04日 星期四 10:00:00 CST",
                "2019-04-04 10:00:00",
            ),
            ("Tue Sep 24 16:28:03 PDT 2013", "2013-09-24 16:28:03"),
            ("Mo 30. Nov 08:00:00 UTC 2026", "2026-11-30 08:00:00"),
            ("2026-11-30 08:00:00", "2026-11-30 08:00:00"),
            ("11/30/2026 08:00:00", "2026-11-30 08:00:00"),
        ] {
            assert_eq!(date_text_time(s), Some(dt(want)), "{s}");
        }
        // A weekday that spells a month (es `mar` = martes) is never read as the month.
        assert_eq!(date_text_time("mar dic  1 08:00:00 CET 2026"), None);
        assert_eq!(date_text_time("0.0 0.0 c0t0d0"), None);
        assert_eq!(date_text_time("sda 1.00 2.00"), None);
    }

    #[test]
    fn markers() {
        assert_eq!(
            marker_time("Wed Feb 29 11:01:52 EST 2012 Sample interval: 5 secconds"),
            (Some(dt("2012-02-29 11:01:52")), Some(5.0))
        );
        assert_eq!(
            marker_time("11/30/2026 08:00:00> Count:3"),
            (Some(dt("2026-11-30 08:00:00")), None)
        );
        assert_eq!(
            osw_header("Linux OSWbb v8.1.2 db01"),
            Some(("Linux".into(), Some("db01".into())))
        );
    }

    #[test]
    fn own_time_of_day() {
        assert_eq!(
            stamp_time_of_day("Time: 11:01:57"),
            NaiveTime::from_hms_opt(11, 1, 57)
        );
        assert_eq!(
            stamp_time_of_day("11/30/2026 08:00:01 PM"),
            NaiveTime::from_hms_opt(20, 0, 1)
        );
        assert_eq!(
            stamp_time_of_day("2026-11-30T08:00:01+0100"),
            NaiveTime::from_hms_opt(8, 0, 1)
        );
    }

    #[test]
    fn compressed_magic() {
        assert!(compressed(b"BZh91AY&SY").is_some());
        assert!(compressed(&[0x1f, 0x9d, 0x90]).is_some());
        assert!(compressed(b"zzz ***").is_none());
    }
}
