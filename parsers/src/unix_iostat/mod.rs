//! AIX and Solaris/illumos `iostat` text output, into [`DeviceLog`]s.
//!
//! Two formats live here because they share their plumbing (line classification, counted
//! skips, the decimal `K/M/G/T` suffixes): AIX `iostat` (format id `aix_iostat`, [`parse_aix`])
//! and Solaris/illumos `iostat -x` (format id `solaris_iostat`, [`parse_solaris`]). [`parse`]
//! picks one by content. Every column is found by its header **name**, never by position.
//!
//! # AIX `iostat` (AIX 5.3 – 7.3)
//! Sources: the AIX `iostat` command reference (IBM Knowledge Center, "iostat Command", AIX 7.1,
//! `http://www-01.ibm.com/support/knowledgecenter/ssw_aix_71/i_commands/iostat.html`; its
//! per-column definitions are quoted below as monitoring tools quote them),
//! `../shared/reference/iostat-sar-formats.md` §4.1, and the corpus excerpts
//! `iostat/aix-iostat-D-and-plain-EXCERPTS.txt`.
//!
//! Layouts read:
//! - **plain** (`iostat [-d] [-T] [int cnt]`): a `Disks:` header `% tm_act Kbps tps Kb_read
//!   Kb_wrtn [time]` (the `%` is printed apart from `tm_act`: the two tokens are joined into the
//!   column name `% tm_act`), one row per disk. The `tty:` line
//!   (`tty: tin tout avg-cpu: % user % sys % idle % iowait [physc % entc]`) and its value line
//!   give the host CPU of the report that follows ([`DeviceReport::cpu`], by column name: busy %
//!   = 100 − `% idle` − `% iowait`, iowait % = `% iowait`; on a shared-processor LPAR `physc`,
//!   the physical processors consumed, and `% entc`, the percent of the entitled capacity
//!   consumed, are kept in its values); the `tin`/`tout` tty columns are not read. An `-a` adapter
//!   table (a header labelled `Adapter:`/`Vadapter:`) gives rows with [`DeviceSample::group`] set:
//!   an adapter total double-counts its disks \[doc, not seen in a real capture\];
//! - **extended** `-D` (OSWatcher runs `iostat -D 1 3`): one block of four stanzas per disk,
//!   `<disk> xfer: %tm_act bps tps bread bwrtn`, `read: rps avgserv minserv maxserv timeouts
//!   fails`, `write: wps avgserv …`, `queue: avgtime mintime maxtime avgwqsz avgsqsz sqfull`,
//!   each stanza header followed by its value line; `---…` separator lines. The column names
//!   repeat between stanzas, so each is kept in [`DeviceSample::values`] as `stanza:column`
//!   (`xfer:bps`, `read:avgserv`, `write:avgserv`, `queue:avgtime`).
//! - `-T`: a `time` column (`HH:MM:SS`, no date) in any header or stanza: its value is the
//!   report's [`DeviceReport::timestamp`] (time of day only), not a number in `values`.
//!
//! Not read: the `-l` long layout (one row per disk under a two-line grouped `xfers read write
//! queue` header): a clear [`ParseError`] says to rerun without `-l`. `-s` system-throughput lines
//! (`System: host` then an unlabelled `Kbps tps …` table) are left out as counted skips.
//!
//! | [`Normalised`] field | AIX column (unit → factor) |
//! |---|---|
//! | `read_iops` / `write_iops` | `-D` `read:rps` / `write:wps` (transfers/s) |
//! | `total_iops` | plain `tps`, `-D` `xfer:tps` |
//! | `read_bytes_per_s` / `write_bytes_per_s` | `-D` `xfer:bread` / `xfer:bwrtn` (**bytes**/s, ×1) |
//! | `total_bytes_per_s` | plain `Kbps` (KB/s, ×1024); `-D` `bps` (= bread + bwrtn) stays in `values` |
//! | `read_await_ms` / `write_await_ms` | `read:avgserv + queue:avgtime` / `write:avgserv + queue:avgtime` (ms; see below) |
//! | `await_ms` | `read_await_ms`, `write_await_ms` weighted by `rps`, `wps` (when `rps + wps > 0`) |
//! | `service_ms` | `read:avgserv`, `write:avgserv` weighted by `rps`, `wps` (when `rps + wps > 0`) |
//! | `queue_depth` | `queue:avgwqsz + queue:avgsqsz` (requests) |
//! | `avg_request_bytes` | derived: `bps / tps` (`-D`), `Kbps × 1024 / tps` (plain), when `tps > 0` |
//! | `read_request_bytes` / `write_request_bytes` | derived: `bread / rps`, `bwrtn / wps` when > 0 |
//! | `util_pct` | `% tm_act` / `xfer:%tm_act` (shown only) |
//!
//! **Latency, honestly.** AIX `avgserv` is the device *service* time of a transfer ("average
//! service time per read transfer"), measured from the moment the disk driver sends it to the
//! device: it **excludes** the time spent in the driver's wait queue, which is `queue:avgtime`
//! ("average time spent by a transfer request in the wait queue"). The response time an
//! application sees is therefore approximated here as `avgserv + avgtime`: a common reading of
//! `-D` output, and an approximation made by this parser, not a value AIX prints. It assumes reads
//! and writes wait equally long in the queue (AIX prints one `avgtime` for both).
//! When no `queue:` stanza was read the await fields are `None` (never the bare service time).
//! `avgwqsz` (wait queue) + `avgsqsz` (service queue, bounded by the disk's `queue_depth`) is the
//! number of requests queued or in service, the counterpart of sysstat's `aqu-sz`.
//!
//! **Suffixes.** `-D` prints large values with a suffix. Sizes and counts (`bps`, `tps`, `bread`,
//! `bwrtn`, `rps`, `wps`, …) take `K`, `M`, `G`, `T` as powers of **1000**: in corpus excerpt A
//! the disk reads 4.0 transfers/s of 4 KiB pages and prints `bread 16.4K` (16 384 bytes/s / 1000
//! = 16.4; with 1024 it would print `16.0K`, and no 512-byte multiple fits 16.4 × 1024 / 4).
//! Times (`*serv`, `*time`) are milliseconds; `S` marks seconds (×1000, seen as `1.1S` in a real
//! `maxtime`) and `H` hours (×3 600 000) \[doc\]. Any other suffix on a time is not guessed: the
//! value is `None` and a warning names the line.
//!
//! **Since boot.** AIX prints statistics since boot in a run's first report: `since_boot` is set
//! on the first report after each `System configuration:` banner (the start of a run), and on the
//! first report of the input when [`UnixIostatOptions::first_is_since_boot`] is set (the default). AIX
//! re-prints the banner when the configuration changes mid-run; such a report is then also
//! marked since boot (the text cannot tell the two apart).
//!
//! # Solaris / illumos `iostat -x` (Solaris 8 – 11.4, illumos/SmartOS)
//! Sources: the Solaris `iostat(1M)` manual page (e.g. `https://unix.com/man-page/opensolaris/1M/iostat`:
//! `wait` "average number of transactions waiting for service (queue length)", `actv` "average
//! number of transactions actively being serviced", `svc_t` "average response time of
//! transactions, in milliseconds", `wsvc_t` "average service time in wait queue, in
//! milliseconds", `asvc_t` "average service time of active transactions, in milliseconds"),
//! `../shared/reference/iostat-sar-formats.md` §4.2 and the corpus excerpts
//! `iostat/solaris-illumos-iostat-xzn-EXCERPTS.txt`.
//!
//! Layouts read: `-x`, `-xn`, `-xzn`, `-xne`, `-xM`, `-xtc`: an `extended device statistics`
//! title (optional), then a header with `device` **first** (`-x` without `-n`) or **last**
//! (`-n`); `r/s w/s kr/s kw/s wait actv wsvc_t asvc_t %w %b` or the older single `svc_t`; `-e`
//! error columns `s/w h/w trn tot`; `-M` `Mr/s Mw/s`. With `-t`/`-c` the header also names the
//! `tin tout us sy wt id` tty/CPU columns, whose values appear on the **first** row only: they are
//! system values, not the device's: `us sy wt id` become the report's host CPU
//! ([`DeviceReport::cpu`]), `tin`/`tout` are not read. With `-n` Solaris prints the CPU on its
//! own lines before the device table (`     cpu` / ` us sy wt id` / `  3  2  0 95`): that CPU
//! belongs to the report whose devices follow. By name: busy % = 100 − `id` − `wt` (= `us` +
//! `sy`), iowait % = `wt`. Solaris 10 and later always print `wt` as 0: "%wio will now always
//! return zero" (OpenSolaris perf-discuss, quoted at
//! `https://prefetch.net/blog/2005/06/12/mpstats-wi-wait-on-io-statistic`), and Oracle's
//! `iostat(1M)` page says the I/O wait time is no longer calculated as a percentage of CPU time
//! (Oracle Solaris 11.2 reference, `https://docs.oracle.com/cd/E56344_01/html/E54077/iostat-1m.html`,
//! entry `wt`). An iostat log prints no release, so its IO wait is unknown (a warning says why),
//! never the printed 0. Device names are taken verbatim (they may
//! hold `(`, `:` or `/`: `sol:vold(pid1533)`, `host:/export`); `-C` controller totals (`c4`, a
//! `c` and digits only) have [`DeviceSample::group`] set. `-T d` date lines (`Tue Sep 24
//! 16:28:03 PDT 2013`) and `-T u` epoch lines start a report: the text is kept in `timestamp`
//! and, when it reads unambiguously (English month name or a `年 月 日` date, 4-digit year),
//! [`DeviceReport::time`] is set (host wall-clock time; the zone abbreviation is not applied;
//! epoch seconds are UTC with `utc` set). `<<device added: sd0>>` state-change lines are ignored
//! with a warning. `since_boot` is set on the first report of the input (Solaris prints no banner
//! between runs).
//!
//! | [`Normalised`] field | Solaris column (unit → factor) |
//! |---|---|
//! | `read_iops` / `write_iops` / `total_iops` | `r/s` / `w/s` / `r/s + w/s` |
//! | `read_bytes_per_s` / `write_bytes_per_s` | `kr/s` / `kw/s` (KB/s, ×1024); `Mr/s` / `Mw/s` (`-M`, ×1048576) |
//! | `await_ms` | `wsvc_t + asvc_t` (ms); older layouts: `svc_t`, which **is** the whole response time (wait + active) |
//! | `service_ms` | `asvc_t` (active service time, ms); `None` for the older `svc_t` layout |
//! | `queue_depth` | `wait + actv` (transactions waiting + being serviced) |
//! | `avg_request_bytes` | derived: `(read + write bytes/s) / (r/s + w/s)` when > 0 |
//! | `util_pct` | `%b` (percent of time busy; shown only) |
//!
//! `%w` (percent of time the wait queue was not empty) and the `-e` error counts stay in
//! `values` only. There is no read/write latency split in Solaris `iostat`.
//!
//! # Bad input
//! A value line with a different count of values than its header, a stanza header without its
//! value line (a `-D` block cut in the middle), data before any header and unrelated text lines
//! (shell prompts, `### comment` lines) are counted [`SkippedLine`]s naming the line. A header name this
//! module does not know is kept in `values` and warned once. An input with no device statistics
//! (only `tty:`/CPU lines, a banner) is an error saying so.
//!
//! # Example
//! ```
//! let text = "\nSystem configuration: lcpu=4 drives=1 paths=1 vdisks=0\n\n\
//! hdisk0          xfer:  %tm_act      bps      tps      bread      bwrtn\n\
//! \x20                        12.0     1.2M    100.0     819.2K     409.6K\n\
//! \x20               read:      rps  avgserv  minserv  maxserv   timeouts      fails\n\
//! \x20                        60.0      2.0      0.1      9.0           0          0\n\
//! \x20              write:      wps  avgserv  minserv  maxserv   timeouts      fails\n\
//! \x20                        40.0      1.0      0.2      4.0           0          0\n\
//! \x20              queue:  avgtime  mintime  maxtime  avgwqsz    avgsqsz     sqfull\n\
//! \x20                         0.5      0.0      3.0      0.1        0.2         0.0\n";
//! let log = sizer_parsers::unix_iostat::parse_aix(text).unwrap();
//! let n = &log.reports[0].devices[0].normalised;
//! assert_eq!(n.read_iops, Some(60.0));
//! assert_eq!(n.read_bytes_per_s, Some(819_200.0));
//! assert_eq!(n.read_await_ms, Some(2.5)); // avgserv 2.0 + avgtime 0.5
//! assert!(log.reports[0].since_boot);
//! ```
//!
//! # Module layout
//! Flow: detection → `aix` (plain tables and `-D` stanzas) or `solaris` (`-x` tables with `-T`
//! stamps); both use the helpers of this file (line classes, ratios, weighted means, report
//! ends) and give one [`DeviceReport`] per interval. Both read lines in order and hand each
//! report on when the next one starts, over a whole text ([`parse_aix_with`],
//! [`parse_solaris_with`]) or a stream (the registry's `parse_stream`), so a log is never held
//! whole.

use chrono::{DateTime, NaiveDateTime};

use crate::disk::{
    CpuUtil, DeviceLog, DeviceReport, DeviceSample, Normalised, SkippedLine, SystemHeader,
};
use crate::error::ParseError;
use crate::lines::{clip, head, CLIP_UNIX};
// As printed: the `checked` sink makes NaN, inf, negative and huge values unknown, with a warning.
use crate::num::{as_printed as number, Scale};

mod aix;
mod solaris;
pub use aix::{aix_normalise, looks_like_aix, parse_aix, parse_aix_with};
pub use solaris::{looks_like_solaris, parse_solaris, parse_solaris_with, sol_normalise};

/// Format id of AIX `iostat` logs.
pub const AIX_FORMAT: &str = "aix_iostat";
/// Format id of Solaris/illumos `iostat -x` logs.
pub const SOLARIS_FORMAT: &str = "solaris_iostat";

const AIX_SECTION: &str = "AIX iostat";

/// How the AIX and Solaris parsers read what the text cannot say.
#[derive(Debug, Clone, Copy)]
pub struct UnixIostatOptions {
    /// Mark the first report of the input as since boot (`true` by default). AIX runs that start
    /// with a `System configuration:` banner are marked whatever this says.
    pub first_is_since_boot: bool,
}

impl Default for UnixIostatOptions {
    fn default() -> Self {
        UnixIostatOptions {
            first_is_since_boot: true,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

/// True for lines written by other collectors that embed iostat output (OSWatcher markers,
/// nmon records): the wrapper's parser reads those files, not this module.
fn wrapped(head: &str) -> bool {
    head.lines().take(400).any(|l| {
        let l = l.trim_start();
        l.starts_with("zzz ***") || l.starts_with("zzz <") || l.starts_with("AAA,") || {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.len() >= 2 && t[1] == "OSWbb"
        }
    })
}

/// A line of values only: every token starts like a number (`0`, `16.4K`, `1.2S`, `.5`) or is a
/// `HH:MM:SS` time.
fn values_line(t: &str) -> bool {
    let mut any = false;
    for tok in t.split_whitespace() {
        any = true;
        let c = tok.as_bytes()[0];
        // `NaN` and `inf` are read as values too, so that the row is kept and the cell is made
        // unknown with a warning (the `checked` sink), not the whole row left out (its report's
        // host total would be one disk short).
        let non_finite = matches!(
            tok.trim_start_matches(['-', '+'])
                .to_ascii_lowercase()
                .as_str(),
            "nan" | "inf" | "infinity"
        );
        if !(c.is_ascii_digit() || c == b'.' || (c == b'-' && tok.len() > 1) || non_finite) {
            return false;
        }
    }
    any
}

fn is_dash_line(t: &str) -> bool {
    t.len() >= 8 && t.bytes().all(|b| b == b'-' || b == b' ')
}

fn lookup(values: &[(String, Option<f64>)], name: &str) -> Option<f64> {
    values.iter().find(|(n, _)| n == name).and_then(|(_, v)| *v)
}

fn ratio(num: Option<f64>, den: Option<f64>) -> Option<f64> {
    match (num, den) {
        (Some(n), Some(d)) if d > 0.0 => Some(n / d),
        _ => None,
    }
}

/// `(a × wa + b × wb) / (wa + wb)` when the weights are known and their sum is > 0.
fn weighted(a: Option<f64>, wa: Option<f64>, b: Option<f64>, wb: Option<f64>) -> Option<f64> {
    let (wa, wb) = (wa?, wb?);
    if wa + wb <= 0.0 {
        return None;
    }
    match (a, b) {
        (Some(a), Some(b)) => Some((a * wa + b * wb) / (wa + wb)),
        (Some(a), None) if wb == 0.0 => Some(a),
        (None, Some(b)) if wa == 0.0 => Some(b),
        _ => None,
    }
}

fn finish(log: &mut DeviceLog, mut r: DeviceReport, reports: &mut Vec<DeviceReport>) {
    if !r.devices.is_empty() {
        r.devices.shrink_to_fit();
        reports.push(r);
    } else if r.timestamp.is_some() {
        log.warn(format!(
            "line {}: a time stamp with no device lines after it",
            r.line
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------------

/// True when the text looks like AIX or Solaris `iostat` output ([`looks_like_aix`] or
/// [`looks_like_solaris`]).
pub fn looks_like(text: &str) -> bool {
    looks_like_aix(text) || looks_like_solaris(text)
}

/// Parses AIX or Solaris `iostat` output, whichever [`looks_like_aix`] / [`looks_like_solaris`]
/// recognises.
///
/// # Errors
/// [`ParseError::UnknownFormat`] when it is neither; else as [`parse_aix`] / [`parse_solaris`].
pub fn parse(text: &str) -> Result<DeviceLog, ParseError> {
    if looks_like_aix(text) {
        parse_aix(text)
    } else if looks_like_solaris(text) {
        parse_solaris(text)
    } else {
        Err(ParseError::UnknownFormat {
            reason: "expected AIX iostat output (a 'Disks:' table or '<disk> xfer:' stanzas) or \
                     Solaris iostat -x output (an 'r/s w/s kr/s kw/s wait actv … device' header)"
                .into(),
        })
    }
}

/// The AIX `iostat` format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct AixIostat;

impl crate::parser::FormatParser for AixIostat {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::AixIostat,
            id: "aix_iostat",
            name: "AIX iostat log",
            kind: crate::sink::RecordKind::Devices,
            description: "AIX `iostat` (plain or `-D`, with `-T` times)",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like_aix(text)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        crate::parser::devices_into(parse_aix(text), self.info(), settings, sink)
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
        aix::aix_stream_into(src, settings, sink)
    }
}

/// The Solaris `iostat -x` format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct SolarisIostat;

impl crate::parser::FormatParser for SolarisIostat {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::SolarisIostat,
            id: "solaris_iostat",
            name: "Solaris iostat log",
            kind: crate::sink::RecordKind::Devices,
            description: "Solaris / illumos `iostat -x` (`-xn`, `-xzn`, `-T d|u`)",
        }
    }

    fn detect(&self, text: &str) -> bool {
        looks_like_solaris(text)
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        crate::parser::devices_into(parse_solaris(text), self.info(), settings, sink)
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
        solaris::solaris_stream_into(src, settings, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::aix::*;
    use super::solaris::*;

    #[test]
    fn aix_cells() {
        assert_eq!(aix_cell("16.4K", false), Ok((Some(16_400.0), false)));
        assert_eq!(aix_cell("1.2S", true), Ok((Some(1200.0), false)));
        assert_eq!(aix_cell("2.0H", true), Ok((Some(7_200_000.0), false)));
        assert_eq!(aix_cell("3.5", true), Ok((Some(3.5), false)));
        assert_eq!(aix_cell("2.0M", true), Ok((None, true)));
        assert!(aix_cell("abc", false).is_err());
    }

    #[test]
    fn aix_header_percent_join() {
        assert_eq!(
            aix_columns(&["%", "tm_act", "Kbps", "tps"]),
            vec!["% tm_act", "Kbps", "tps"]
        );
    }

    #[test]
    fn solaris_headers() {
        let h = sol_header("r/s w/s kr/s kw/s wait actv wsvc_t asvc_t %w %b device").unwrap();
        assert_eq!((h.before.len(), h.after.len(), h.system), (10, 0, 0));
        let h = sol_header("device r/s w/s kr/s kw/s wait actv svc_t %w %b tin tout us sy wt id")
            .unwrap();
        assert_eq!((h.before.len(), h.after.len(), h.system), (0, 9, 6));
        assert!(sol_header("Device r/s w/s rkB/s wkB/s").is_none());
    }

    #[test]
    fn epoch() {
        assert_eq!(
            epoch_line("1380065283").unwrap().to_string(),
            "2013-09-24 23:28:03"
        );
        assert!(epoch_line("12").is_none());
    }
}
