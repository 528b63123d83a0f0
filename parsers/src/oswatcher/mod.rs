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
//! content (else by the platform of the first file header read by the block's end): Linux blocks by [`crate::iostat::parse_with`]
//! (unchanged), AIX blocks by [`crate::unix_iostat::parse_aix_with`], Solaris blocks by
//! [`crate::unix_iostat::parse_solaris_with`]. Their reports, skips and warnings are merged, with
//! line numbers counted in the whole archive. Each report keeps the host CPU its block's
//! parser read (Linux `avg-cpu`, AIX `tty:` line, Solaris `us sy wt id`: see those parsers; the
//! AIX `iostat -D` and Solaris `iostat -xn` that oswbb runs print none, so theirs is unknown). A block that its parser rejects (cut in an odd
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
//! # Streaming
//! The format streams ([`OsWatcher`]'s `parse_stream`): lines are read one at a time through
//! `lines::with_stream_lines` by the same body as [`parse`], and the archive is never
//! held whole. What is held, and why:
//! - **the current block's text** (the lines since the last marker: one snapshot's iostat
//!   output, a few dozen lines), because its platform is told from all of its lines and the
//!   embedded parsers read a block whole; it is parsed and dropped at the next marker;
//! - **every parsed report**, compactly (`held`: device names and column-name lists interned
//!   once, 8 bytes a value, only the known normalised figures), because the banner handed over
//!   before the first report is assembled over the whole archive: the first file header's
//!   platform and host, the **last** `VCPUS`/`CPU_CORES` line (hourly files concatenated repeat
//!   their header), then the kernel, host, architecture and CPUs of the first block banners that
//!   print them. So no report can be handed over before the last line; they are handed over one
//!   by one then (through `sink::DeviceStream`);
//! - the file header's fields, warnings and skipped lines.
//!
//! # Compressed archives
//! gzip (`.dat.gz`) is decompressed by [`crate::input::decode`] (see [`parse_bytes`]), or before
//! the stream reaches the parser; bzip2 (`.bz2`) and compress (`.Z`) archives are refused, from
//! their first bytes, with a message saying to decompress them.
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

mod block;
mod held;

use block::Block;
use held::Held;

use crate::disk::{DeviceLog, SkippedLine, SystemHeader};
use crate::error::ParseError;
use crate::lines::{clip, head, text_lines, CLIP_UNIX};

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

/// The parsed state of an archive read so far (see the module docs, "Streaming").
struct Reader {
    /// Warnings and skipped lines (its `reports` stay empty).
    log: DeviceLog,
    /// The first platform named by a file header (`Linux OSWbb v8.1.2 host`).
    platform: String,
    osw_host: Option<String>,
    vcpus: Option<u32>,
    cores: Option<u32>,
    snap_interval: Option<String>,
    saw_marker: bool,
    block: Option<Block>,
    blocks_seen: usize,
    first_failure: Option<String>,
    /// The banner as the blocks' own banners give it (the file header's fields come first).
    found: SystemHeader,
    held: Held,
}

impl Reader {
    fn new() -> Self {
        Reader {
            log: DeviceLog::new(FORMAT),
            platform: String::new(),
            osw_host: None,
            vcpus: None,
            cores: None,
            snap_interval: None,
            saw_marker: false,
            block: None,
            blocks_seen: 0,
            first_failure: None,
            found: SystemHeader::default(),
            held: Held::default(),
        }
    }

    /// Reads archive line `i` (0-based).
    fn line(&mut self, i: usize, raw: &str) -> Result<(), ParseError> {
        if i == 0 {
            if let Some(what) = compressed(raw.as_bytes()) {
                return Err(compressed_error(what));
            }
            if raw.starts_with('\u{1f}') && raw[1..].starts_with('\u{9d}') {
                return Err(compressed_error(
                    "compress (.Z): run `uncompress file.dat.Z` and pass the .dat file",
                ));
            }
        }
        let l = raw.trim_end_matches('\r');
        // File-header lines (they may repeat where hourly files were concatenated) are blank in
        // a block, so block line numbers stay those of the archive.
        if let Some((p, h)) = osw_header(l) {
            if self.platform.is_empty() {
                self.platform = p;
            }
            if self.osw_host.is_none() {
                self.osw_host = h;
            }
            self.text_line(i, "");
            return Ok(());
        }
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() == 2
            && matches!(
                t[0],
                "SNAP_INTERVAL" | "CPU_CORES" | "VCPUS" | "OSWBB_ARCHIVE_DEST"
            )
        {
            match t[0] {
                "SNAP_INTERVAL" => self.snap_interval = Some(t[1].to_string()),
                "CPU_CORES" => self.cores = t[1].parse().ok(),
                "VCPUS" => self.vcpus = t[1].parse().ok(),
                _ => {}
            }
            self.text_line(i, "");
            return Ok(());
        }
        if let Some(m) = marker(l) {
            self.saw_marker = true;
            let next = Block {
                marker: i,
                text: m.to_string(),
                lines: String::new(),
            };
            if let Some(b) = self.block.replace(next) {
                self.read_block(b);
            }
            return Ok(());
        }
        self.text_line(i, l);
        Ok(())
    }

    /// A line of the current block, or (before the first marker) a counted skip.
    fn text_line(&mut self, i: usize, l: &str) {
        match &mut self.block {
            Some(b) => {
                b.lines.push('\n');
                b.lines.push_str(l);
            }
            None if !l.trim().is_empty() => self.log.skipped.push(SkippedLine {
                line: i + 1,
                reason: format!(
                    "text before the first 'zzz ***' marker: '{}'",
                    clip(l.trim(), CLIP_UNIX)
                ),
            }),
            None => {}
        }
    }

    /// Ends the read: reads the last block, refuses an archive without a marker or without
    /// device statistics, and gives the banner, the held reports and the log (warnings and
    /// skipped lines).
    fn finish(mut self) -> Result<(SystemHeader, Held, DeviceLog), ParseError> {
        if !self.saw_marker {
            return Err(ParseError::UnknownFormat {
                reason: "expected an OSWatcher oswiostat archive ('zzz ***<date>' markers, each \
                         followed by iostat output): no marker found"
                    .into(),
            });
        }
        if let Some(b) = self.block.take() {
            self.read_block(b);
        }
        if self.held.is_empty() {
            let why = if self.blocks_seen == 0 {
                "its markers have no output after them".to_string()
            } else if let Some(first) = &self.first_failure {
                format!("no block could be read (first error: {first})")
            } else {
                "its blocks hold no iostat device statistics (is it an oswvmstat, oswtop or \
                 other OSWatcher archive?)"
                    .to_string()
            };
            return Err(ParseError::UnknownFormat {
                reason: format!(
                    "expected an OSWatcher oswiostat archive with iostat disk statistics, but \
                     {why}"
                ),
            });
        }
        self.log.warn(format!(
            "OSWatcher iostat snapshots are 1-second spot samples (iostat … 1 3) taken every \
             SNAP_INTERVAL ({} s): statistics over them are of spot samples, not interval \
             averages",
            self.snap_interval.as_deref().unwrap_or("unknown")
        ));
        // The file header's fields first, then what the blocks' banners gave.
        let found = self.found;
        let header = SystemHeader {
            sysname: if self.platform.is_empty() {
                found.sysname
            } else {
                self.platform
            },
            kernel: found.kernel,
            host: self.osw_host.unwrap_or(found.host),
            date: None,
            arch: found.arch,
            cpus: self.vcpus.or(self.cores).or(found.cpus),
        };
        Ok((header, self.held, self.log))
    }
}

/// Reads every line into a [`Reader`]: the one parser body of [`parse`] and of the streaming
/// [`OsWatcher`] parse.
fn read_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
) -> Result<(SystemHeader, Held, DeviceLog), ParseError> {
    let mut reader = Reader::new();
    for (i, line) in lines.enumerate() {
        reader.line(i, line?.as_ref())?;
    }
    reader.finish()
}

/// Parses an OSWatcher `oswiostat` archive (text; see [`parse_bytes`] for gzip).
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text is a bzip2/compress archive, holds no `zzz`
/// marker, or none of its blocks holds iostat device statistics (e.g. an `oswvmstat` archive).
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    let (header, held, mut log) = read_lines(text_lines(text))?;
    log.reports = held.into_reports().collect();
    log.header = Some(header);
    Ok(log)
}

/// Hands a read archive to `sink`, report by report.
fn into_sink(
    read: (SystemHeader, Held, DeviceLog),
    settings: &crate::parser::ParseSettings,
    sink: &mut dyn crate::sink::Sink,
) -> Result<(), ParseError> {
    let (header, held, log) = read;
    let mut out = crate::sink::DeviceStream::new(sink, crate::Format::OsWatcher, settings);
    for r in held.into_reports() {
        if !out.report(r, Some(&header))? {
            break;
        }
    }
    out.finish(log.warnings, log.skipped)
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
        into_sink(read_lines(text_lines(text))?, settings, sink)
    }

    fn streams(&self) -> bool {
        true
    }

    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        // The reader is gunzipped already; bzip2 and compress are told by their first bytes.
        let head = src.fill_buf().map_err(|source| ParseError::Io {
            path: Default::default(),
            source,
        })?;
        if let Some(what) = compressed(head) {
            return Err(compressed_error(what));
        }
        let read = crate::lines::with_stream_lines(src, |lines| read_lines(lines))?;
        into_sink(read, settings, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::block::{marker_time, stamp_time_of_day};
    use super::*;
    use crate::dates::date_text_time;
    use chrono::{NaiveDateTime, NaiveTime};

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
