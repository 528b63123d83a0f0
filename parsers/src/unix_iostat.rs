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
//!   column name `% tm_act`), one row per disk, `tty:`/`avg-cpu:` blocks skipped. An `-a` adapter
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
//! first report of the input when [`Options::first_is_since_boot`] is set (the default). AIX
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
//! system values, not the device's, and are left out. Device names are taken verbatim (they may
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
//! (shell prompts, `### comment` lines) are counted [`Skip`]s naming the line. A header name this
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

use chrono::{DateTime, NaiveDateTime};

use crate::disk::{DeviceLog, DeviceReport, DeviceSample, Normalised, Skip, SystemHeader};
use crate::error::ParseError;
use crate::lines::{clip, head, CLIP_UNIX};
use crate::num::{number, Scale};

/// Format id of AIX `iostat` logs.
pub const AIX_FORMAT: &str = "aix_iostat";
/// Format id of Solaris/illumos `iostat -x` logs.
pub const SOLARIS_FORMAT: &str = "solaris_iostat";

const AIX_SECTION: &str = "AIX iostat";

/// Parse options.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Mark the first report of the input as since boot (`true` by default). AIX runs that start
    /// with a `System configuration:` banner are marked whatever this says.
    pub first_is_since_boot: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
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
        if !(c.is_ascii_digit() || c == b'.' || (c == b'-' && tok.len() > 1)) {
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

// ---------------------------------------------------------------------------------------------
// AIX
// ---------------------------------------------------------------------------------------------

const AIX_STANZAS: [&str; 4] = ["xfer:", "read:", "write:", "queue:"];

const AIX_PLAIN_KNOWN: &[&str] = &["% tm_act", "Kbps", "tps", "Kb_read", "Kb_wrtn", "time"];
const AIX_D_KNOWN: &[&str] = &[
    "xfer:%tm_act",
    "xfer:bps",
    "xfer:tps",
    "xfer:bread",
    "xfer:bwrtn",
    "read:rps",
    "read:avgserv",
    "read:minserv",
    "read:maxserv",
    "read:timeouts",
    "read:fails",
    "write:wps",
    "write:avgserv",
    "write:minserv",
    "write:maxserv",
    "write:timeouts",
    "write:fails",
    "queue:avgtime",
    "queue:mintime",
    "queue:maxtime",
    "queue:avgwqsz",
    "queue:avgsqsz",
    "queue:sqfull",
];

/// True when the text holds AIX `iostat` device output: a `Disks:` header with `tm_act`, or a
/// `<disk> xfer: %tm_act …` stanza, in the first 64 KiB. Files of collectors that embed it
/// (OSWatcher, nmon) are left to their own parsers.
pub fn looks_like_aix(text: &str) -> bool {
    let h = head(text);
    if wrapped(h) {
        return false;
    }
    h.lines().any(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        (t.first() == Some(&"Disks:") && t.iter().any(|x| x.ends_with("tm_act")))
            || (t.len() >= 3 && t[1] == "xfer:" && t[2] == "%tm_act")
    })
}

/// Parses AIX `iostat` output with the default [`Options`].
///
/// # Errors
/// As [`parse_aix_with`].
pub fn parse_aix(text: &str) -> Result<DeviceLog, ParseError> {
    parse_aix_with(text, Options::default())
}

/// An active plain (`Disks:`) header.
struct PlainTable {
    columns: Vec<String>,
    group: bool,
    line: usize,
    text: String,
}

/// A `-D` stanza header waiting for its value line.
struct Stanza {
    device: usize,
    name: &'static str,
    columns: Vec<String>,
    line: usize,
}

/// Splits an AIX header into column names, joining a lone `%` to the next token (`% tm_act`).
fn aix_columns(toks: &[&str]) -> Vec<String> {
    let mut cols = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "%" && i + 1 < toks.len() {
            cols.push(format!("% {}", toks[i + 1]));
            i += 2;
        } else {
            cols.push(toks[i].to_string());
            i += 1;
        }
    }
    cols
}

/// Value of an AIX cell. `time` says the column is a duration (ms; `S` seconds, `H` hours);
/// otherwise `K/M/G/T` are powers of 1000. `Ok(None)` with `unit_note` set for a time with a
/// suffix that is not documented.
fn aix_cell(tok: &str, time: bool) -> Result<(Option<f64>, bool), String> {
    if time {
        if let Some(n) = tok.strip_suffix('S') {
            return number(n, Scale::Decimal).map(|v| (v.map(|v| v * 1000.0), false));
        }
        if let Some(n) = tok.strip_suffix('H') {
            return number(n, Scale::Decimal).map(|v| (v.map(|v| v * 3_600_000.0), false));
        }
        if tok.ends_with(|c: char| c.is_ascii_alphabetic()) {
            let bare = tok.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            return match number(bare, Scale::Decimal) {
                Ok(_) => Ok((None, true)),
                Err(e) => Err(e),
            };
        }
    }
    number(tok, Scale::Decimal).map(|v| (v, false))
}

fn aix_time_column(stanza: &str, col: &str) -> bool {
    (stanza == "read:" || stanza == "write:") && col.ends_with("serv")
        || stanza == "queue:" && col.ends_with("time")
}

/// Parses AIX `iostat` output (plain or `-D`).
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text holds no AIX device statistics (no `Disks:` table,
/// no `xfer:` stanza: for example only `tty:`/CPU lines); [`ParseError::Section`] for the `-l`
/// long layout (not read) and for a value that is not a number.
pub fn parse_aix_with(text: &str, opts: Options) -> Result<DeviceLog, ParseError> {
    let mut log = DeviceLog::new(AIX_FORMAT);
    let mut reports: Vec<DeviceReport> = Vec::new();
    let mut cur: Option<DeviceReport> = None;
    let mut since_boot_next = opts.first_is_since_boot;
    let mut plain: Option<PlainTable> = None;
    let mut stanza: Option<Stanza> = None;
    let mut block_dev: Option<usize> = None;
    let mut skip_cpu_values = false;
    let mut saw_cpu = false;
    let mut in_system = false;

    macro_rules! close {
        () => {
            if let Some(r) = cur.take() {
                finish(&mut log, r, &mut reports);
            }
        };
    }
    macro_rules! open {
        ($no:expr) => {{
            if cur.is_none() {
                let mut r = DeviceReport::new($no);
                r.since_boot = since_boot_next;
                since_boot_next = false;
                cur = Some(r);
            }
            cur.as_mut().expect("just opened")
        }};
    }

    let lines: Vec<&str> = text.split('\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        let no = i + 1;
        let t = raw.trim_end_matches('\r').trim();
        if t.is_empty() {
            in_system = false;
            continue;
        }
        if let Some(st) = stanza.take() {
            if values_line(t) {
                let toks: Vec<&str> = t.split_whitespace().collect();
                if toks.len() != st.columns.len() {
                    log.skipped.push(Skip {
                        line: no,
                        reason: format!(
                            "{} values under the '{}' stanza header of line {} ({} columns): '{}'",
                            toks.len(),
                            st.name,
                            st.line,
                            st.columns.len(),
                            clip(t, CLIP_UNIX)
                        ),
                    });
                    continue;
                }
                let Some(r) = cur.as_mut().filter(|r| st.device < r.devices.len()) else {
                    continue;
                };
                for (c, tok) in st.columns.iter().zip(&toks) {
                    if c == "time" {
                        if r.timestamp.is_none() {
                            r.timestamp = Some(tok.to_string());
                        }
                        continue;
                    }
                    let name = format!("{}{}", st.name, c);
                    let (v, odd) = aix_cell(tok, aix_time_column(st.name, c)).map_err(|why| {
                        ParseError::section(
                            AIX_SECTION,
                            Some(no),
                            format!(
                                "a number in column '{c}' of the '{}' stanza of line {}",
                                st.name, st.line
                            ),
                            why,
                        )
                    })?;
                    if odd {
                        log.warn(format!(
                            "line {no}: '{tok}' in '{name}' has a time unit AIX does not \
                             document (ms, S, H): left unknown"
                        ));
                    }
                    if !AIX_D_KNOWN.contains(&name.as_str()) {
                        log.warn(format!(
                            "line {}: unknown column '{name}' kept as printed",
                            st.line
                        ));
                    }
                    r.devices[st.device].values.push((name, v));
                }
                continue;
            }
            log.skipped.push(Skip {
                line: st.line,
                reason: format!(
                    "the '{}' stanza header of '{}' has no value line after it (the -D block \
                     is cut)",
                    st.name,
                    cur.as_ref()
                        .map(|r| r.devices[st.device].device.clone())
                        .unwrap_or_default()
                ),
            });
        }
        if skip_cpu_values {
            skip_cpu_values = false;
            if values_line(t) {
                continue;
            }
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        if t.starts_with("System configuration:") {
            close!();
            block_dev = None;
            plain = None;
            since_boot_next = true;
            if log.header.is_none() {
                let cpus = toks
                    .iter()
                    .find_map(|x| x.strip_prefix("lcpu="))
                    .and_then(|n| n.parse().ok());
                log.header = Some(SystemHeader {
                    sysname: "AIX".into(),
                    cpus,
                    ..Default::default()
                });
            }
            continue;
        }
        if toks[0] == "tty:" {
            close!();
            block_dev = None;
            plain = None;
            saw_cpu = true;
            skip_cpu_values = true;
            continue;
        }
        if toks[0] == "System:" {
            // `-s` system throughput: a name line, an unlabelled header and one value line.
            in_system = true;
            log.skipped.push(Skip {
                line: no,
                reason: format!(
                    "'-s' system throughput line left out (a host total, not a disk): '{}'",
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        if in_system {
            log.skipped.push(Skip {
                line: no,
                reason: format!(
                    "'-s' system throughput line left out: '{}'",
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        if is_dash_line(t) {
            continue;
        }
        // `-D` stanza header: `<disk> xfer: …` or `read: …`.
        let (dev_name, label_at) = if AIX_STANZAS.contains(&toks[0]) {
            (None, 0)
        } else if toks.len() > 1 && AIX_STANZAS.contains(&toks[1]) {
            (Some(toks[0]), 1)
        } else {
            (None, usize::MAX)
        };
        if label_at != usize::MAX {
            plain = None;
            let name = AIX_STANZAS
                .iter()
                .find(|s| **s == toks[label_at])
                .copied()
                .expect("matched above");
            if let Some(d) = dev_name {
                let repeated = cur
                    .as_ref()
                    .is_some_and(|r| r.devices.iter().any(|x| x.device == d));
                if repeated {
                    close!();
                }
                let r = open!(no);
                r.devices.push(DeviceSample {
                    device: d.to_string(),
                    group: false,
                    host_total: false,
                    values: Vec::new(),
                    normalised: Normalised::default(),
                });
                block_dev = Some(r.devices.len() - 1);
            }
            let Some(device) = block_dev else {
                log.skipped.push(Skip {
                    line: no,
                    reason: format!(
                        "a '{name}' stanza outside a disk block (no '<disk> xfer:' line before \
                         it; the -D output is cut): '{}'",
                        clip(t, CLIP_UNIX)
                    ),
                });
                // Its value line, if any, is skipped as data before a header.
                continue;
            };
            stanza = Some(Stanza {
                device,
                name,
                columns: toks[label_at + 1..].iter().map(|s| s.to_string()).collect(),
                line: no,
            });
            continue;
        }
        // Plain header: `Disks: % tm_act Kbps tps Kb_read Kb_wrtn [time]`, `Adapter: …`.
        if toks[0].ends_with(':') && toks.len() > 1 && !values_line(&toks[1..].join(" ")) {
            let cols = aix_columns(&toks[1..]);
            if cols.iter().any(|c| c == "xfers") {
                return Err(ParseError::section(
                    AIX_SECTION,
                    Some(no),
                    "the plain 'Disks:' table or the '-D' stanza layout",
                    "the '-l' long layout ('Disks: xfers read write queue'), which is not read: \
                     rerun iostat without -l (e.g. 'iostat -D 60 60')",
                ));
            }
            if cols.iter().any(|c| c == "tps" || c == "Kbps") {
                block_dev = None;
                for c in &cols {
                    if !AIX_PLAIN_KNOWN.contains(&c.as_str()) {
                        log.warn(format!("line {no}: unknown column '{c}' kept as printed"));
                    }
                }
                plain = Some(PlainTable {
                    columns: cols,
                    group: toks[0].to_ascii_lowercase().contains("adapter"),
                    line: no,
                    text: t.to_string(),
                });
                continue;
            }
        }
        if let Some(p) = &plain {
            let n = p.columns.len();
            if toks.len() == n + 1 && values_line(&toks[1..].join(" ")) {
                let device = toks[0];
                let repeated = cur.as_ref().is_some_and(|r| {
                    r.devices
                        .iter()
                        .any(|x| x.device == device && x.group == p.group)
                });
                if repeated {
                    close!();
                }
                let (group, header_line) = (p.group, p.line);
                let columns = p.columns.clone();
                let r = open!(no);
                let mut values = Vec::with_capacity(n);
                for (c, tok) in columns.iter().zip(&toks[1..]) {
                    if c == "time" {
                        if r.timestamp.is_none() {
                            r.timestamp = Some(tok.to_string());
                        }
                        continue;
                    }
                    let (v, _) = aix_cell(tok, false).map_err(|why| {
                        ParseError::section(
                            AIX_SECTION,
                            Some(no),
                            format!("a number in column '{c}' of the header of line {header_line}"),
                            why,
                        )
                    })?;
                    values.push((c.clone(), v));
                }
                r.devices.push(DeviceSample {
                    device: device.to_string(),
                    group,
                    host_total: false,
                    values,
                    normalised: Normalised::default(),
                });
                continue;
            }
            if toks.len() > 1 && values_line(&toks[1..].join(" ")) {
                log.skipped.push(Skip {
                    line: no,
                    reason: format!(
                        "a disk name and {n} values under the header of line {} ('{}'), found \
                         {} fields: '{}'",
                        p.line,
                        clip(&p.text, CLIP_UNIX),
                        toks.len(),
                        clip(t, CLIP_UNIX)
                    ),
                });
                continue;
            }
        }
        log.skipped.push(Skip {
            line: no,
            reason: if values_line(t) {
                format!(
                    "values before any AIX iostat header: '{}'",
                    clip(t, CLIP_UNIX)
                )
            } else {
                format!("not AIX iostat output: '{}'", clip(t, CLIP_UNIX))
            },
        });
    }
    if let Some(st) = stanza.take() {
        log.skipped.push(Skip {
            line: st.line,
            reason: format!(
                "the '{}' stanza header has no value line after it (the input ends: the -D \
                 block is cut)",
                st.name
            ),
        });
    }
    if let Some(r) = cur.take() {
        finish(&mut log, r, &mut reports);
    }
    if reports.is_empty() {
        let what = if saw_cpu {
            "it holds only tty/CPU statistics"
        } else {
            "it holds no disk statistics"
        };
        return Err(ParseError::UnknownFormat {
            reason: format!(
                "expected AIX iostat disk statistics (a 'Disks:' table or '<disk> xfer:' \
                 stanzas from 'iostat -D'), but {what}"
            ),
        });
    }
    for r in &mut reports {
        for d in &mut r.devices {
            d.normalised = aix_normalise(&d.values);
        }
    }
    log.reports = reports;
    Ok(log)
}

/// Normalises AIX columns (plain or `-D`, see the module table).
pub fn aix_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let v = |n: &str| lookup(values, n);
    if values.iter().any(|(n, _)| n.starts_with("xfer:")) || v("read:rps").is_some() {
        let (rps, wps, tps) = (v("read:rps"), v("write:wps"), v("xfer:tps"));
        let avgtime = v("queue:avgtime");
        let rserv = v("read:avgserv");
        let wserv = v("write:avgserv");
        let r_await = rserv.zip(avgtime).map(|(a, b)| a + b);
        let w_await = wserv.zip(avgtime).map(|(a, b)| a + b);
        Normalised {
            read_iops: rps,
            write_iops: wps,
            total_iops: tps,
            read_bytes_per_s: v("xfer:bread"),
            write_bytes_per_s: v("xfer:bwrtn"),
            read_await_ms: r_await,
            write_await_ms: w_await,
            await_ms: weighted(r_await, rps, w_await, wps),
            queue_depth: v("queue:avgwqsz")
                .zip(v("queue:avgsqsz"))
                .map(|(a, b)| a + b),
            avg_request_bytes: ratio(v("xfer:bps"), tps),
            read_request_bytes: ratio(v("xfer:bread"), rps),
            write_request_bytes: ratio(v("xfer:bwrtn"), wps),
            util_pct: v("xfer:%tm_act"),
            service_ms: weighted(rserv, rps, wserv, wps),
            ..Default::default()
        }
    } else {
        let kbps = v("Kbps").map(|k| k * 1024.0);
        Normalised {
            total_iops: v("tps"),
            total_bytes_per_s: kbps,
            avg_request_bytes: ratio(kbps, v("tps")),
            util_pct: v("% tm_act"),
            ..Default::default()
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Solaris
// ---------------------------------------------------------------------------------------------

const SOL_KNOWN: &[&str] = &[
    "r/s", "w/s", "kr/s", "kw/s", "Mr/s", "Mw/s", "wait", "actv", "wsvc_t", "asvc_t", "svc_t",
    "%w", "%b", "s/w", "h/w", "trn", "tot",
];
/// `-t` / `-c` columns: system values printed on the first row only.
const SOL_SYSTEM: &[&str] = &["tin", "tout", "us", "sy", "wt", "id"];

/// A Solaris device header.
struct SolTable {
    /// Device columns before the `device` column (all of them with `-n`).
    before: Vec<String>,
    /// Device columns after the `device` column (all of them without `-n`).
    after: Vec<String>,
    /// tty/CPU columns (first row only).
    system: usize,
    line: usize,
    text: String,
}

fn sol_header(t: &str) -> Option<SolTable> {
    let toks: Vec<&str> = t.split_whitespace().collect();
    let di = toks.iter().position(|x| *x == "device")?;
    let has = |c: &str| toks.contains(&c);
    if !((has("r/s") && has("w/s")) || (has("Mr/s") && has("Mw/s"))) {
        return None;
    }
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut system = 0;
    for (k, tok) in toks.iter().enumerate() {
        if k == di {
            continue;
        }
        if SOL_SYSTEM.contains(tok) {
            system += 1;
        } else if k < di {
            before.push(tok.to_string());
        } else {
            after.push(tok.to_string());
        }
    }
    Some(SolTable {
        before,
        after,
        system,
        line: 0,
        text: t.to_string(),
    })
}

/// True when the text holds Solaris/illumos `iostat -x` output: a header naming `r/s`, `w/s`,
/// `actv` and a `device` column, in the first 64 KiB (FreeBSD's `iostat -x` has no `actv`; Linux
/// names `Device` and `rkB/s`). Files of collectors that embed it (OSWatcher) are left to their
/// own parser.
pub fn looks_like_solaris(text: &str) -> bool {
    let h = head(text);
    if wrapped(h) {
        return false;
    }
    h.lines().any(|l| {
        let toks: Vec<&str> = l.split_whitespace().collect();
        toks.contains(&"actv") && sol_header(l).is_some()
    })
}

/// Parses Solaris `iostat -x` output with the default [`Options`].
///
/// # Errors
/// As [`parse_solaris_with`].
pub fn parse_solaris(text: &str) -> Result<DeviceLog, ParseError> {
    parse_solaris_with(text, Options::default())
}

/// A `-T u` epoch line (`1380065283`).
fn epoch_line(t: &str) -> Option<NaiveDateTime> {
    if (9..=11).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()) {
        return DateTime::from_timestamp(t.parse().ok()?, 0).map(|d| d.naive_utc());
    }
    None
}

/// Parses Solaris/illumos `iostat -x` output.
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text holds no `iostat -x` device header or no device
/// line.
pub fn parse_solaris_with(text: &str, opts: Options) -> Result<DeviceLog, ParseError> {
    let mut log = DeviceLog::new(SOLARIS_FORMAT);
    let mut reports: Vec<DeviceReport> = Vec::new();
    let mut cur: Option<DeviceReport> = None;
    let mut table: Option<SolTable> = None;
    let mut since_boot_next = opts.first_is_since_boot;
    let mut saw_header = false;

    let mut new_report = |cur: &mut Option<DeviceReport>,
                          log: &mut DeviceLog,
                          reports: &mut Vec<DeviceReport>,
                          no: usize| {
        if let Some(r) = cur.take() {
            finish(log, r, reports);
        }
        let mut r = DeviceReport::new(no);
        r.since_boot = since_boot_next;
        since_boot_next = false;
        *cur = Some(r);
    };

    for (i, raw) in text.split('\n').enumerate() {
        let no = i + 1;
        let t = raw.trim_end_matches('\r').trim();
        if t.is_empty() {
            continue;
        }
        if t.contains("extended device statistics") {
            // Keep a report opened by a `-T` line just before the title.
            let keep = cur
                .as_ref()
                .is_some_and(|r| r.devices.is_empty() && r.timestamp.is_some())
                && table.is_none();
            if !keep {
                new_report(&mut cur, &mut log, &mut reports, no);
            }
            table = None;
            continue;
        }
        let stamp = epoch_line(t)
            .map(|d| (d, true))
            .or_else(|| crate::dates::date_text_time(t).map(|d| (d, false)));
        if let Some((time, utc)) = stamp {
            new_report(&mut cur, &mut log, &mut reports, no);
            table = None;
            let r = cur.as_mut().expect("opened");
            r.timestamp = Some(t.to_string());
            r.time = Some(time);
            r.utc = utc;
            continue;
        }
        if let Some(mut h) = sol_header(t) {
            saw_header = true;
            h.line = no;
            let fresh = cur.as_ref().is_some_and(|r| r.devices.is_empty()) && table.is_none();
            if !fresh {
                new_report(&mut cur, &mut log, &mut reports, no);
            }
            for c in h.before.iter().chain(&h.after) {
                if !SOL_KNOWN.contains(&c.as_str()) {
                    log.warn(format!("line {no}: unknown column '{c}' kept as printed"));
                }
            }
            if h.system > 0 {
                log.warn(format!(
                    "line {no}: tty/CPU columns (-t/-c) left out: they are system values printed \
                     on the first row only"
                ));
            }
            table = Some(h);
            continue;
        }
        if t.starts_with("<<") && t.ends_with(">>") {
            log.warn(format!("line {no}: state-change message ignored: '{t}'"));
            continue;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        let Some(tb) = &table else {
            log.skipped.push(Skip {
                line: no,
                reason: format!(
                    "not Solaris iostat -x output (no device header before it): '{}'",
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        };
        let (nb, na) = (tb.before.len(), tb.after.len());
        let numeric = toks.len() > 1
            && toks
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != nb)
                .all(|(_, x)| values_line(x));
        if !numeric {
            log.skipped.push(Skip {
                line: no,
                reason: format!("not Solaris iostat -x output: '{}'", clip(t, CLIP_UNIX)),
            });
            continue;
        }
        if toks.len() != nb + 1 + na && toks.len() != nb + 1 + na + tb.system {
            log.skipped.push(Skip {
                line: no,
                reason: format!(
                    "{} values and a device name under the header of line {} ('{}'), found {} \
                     fields: '{}'",
                    nb + na,
                    tb.line,
                    clip(&tb.text, CLIP_UNIX),
                    toks.len(),
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        let device = toks[nb];
        let cells = toks[..nb].iter().chain(&toks[nb + 1..nb + 1 + na]);
        let names = tb.before.iter().chain(&tb.after);
        let mut values = Vec::with_capacity(nb + na);
        let mut bad = None;
        for (c, tok) in names.zip(cells) {
            match number(tok, Scale::Decimal) {
                Ok(v) => values.push((c.clone(), v)),
                Err(why) => {
                    bad = Some(format!("column '{c}': {why}"));
                    break;
                }
            }
        }
        if let Some(why) = bad {
            log.skipped.push(Skip {
                line: no,
                reason: format!(
                    "a number in every column of the header of line {} ({why}): '{}'",
                    tb.line,
                    clip(t, CLIP_UNIX)
                ),
            });
            continue;
        }
        let group = device.len() > 1
            && device.starts_with('c')
            && device[1..].bytes().all(|b| b.is_ascii_digit());
        if cur.is_none() {
            new_report(&mut cur, &mut log, &mut reports, no);
        }
        cur.as_mut().expect("opened").devices.push(DeviceSample {
            device: device.to_string(),
            group,
            host_total: false,
            normalised: sol_normalise(&values),
            values,
        });
    }
    if let Some(r) = cur.take() {
        finish(&mut log, r, &mut reports);
    }
    if reports.is_empty() {
        return Err(ParseError::UnknownFormat {
            reason: if saw_header {
                "expected Solaris iostat -x device lines under the 'r/s w/s kr/s kw/s … device' \
                 header, but the file holds no disk statistics"
                    .into()
            } else {
                "expected Solaris iostat -x output (an 'r/s w/s kr/s kw/s wait actv … device' \
                 header): the file holds no disk statistics"
                    .into()
            },
        });
    }
    log.reports = reports;
    Ok(log)
}

/// Normalises Solaris `iostat -x` columns (see the module table).
pub fn sol_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let v = |n: &str| lookup(values, n);
    let r = v("r/s");
    let w = v("w/s");
    let rb = v("kr/s")
        .map(|x| x * 1024.0)
        .or(v("Mr/s").map(|x| x * 1_048_576.0));
    let wb = v("kw/s")
        .map(|x| x * 1024.0)
        .or(v("Mw/s").map(|x| x * 1_048_576.0));
    let total = r.zip(w).map(|(a, b)| a + b);
    let await_ms = match (v("wsvc_t"), v("asvc_t")) {
        (Some(a), Some(b)) => Some(a + b),
        _ => v("svc_t"),
    };
    Normalised {
        read_iops: r,
        write_iops: w,
        total_iops: total,
        read_bytes_per_s: rb,
        write_bytes_per_s: wb,
        await_ms,
        queue_depth: v("wait").zip(v("actv")).map(|(a, b)| a + b),
        avg_request_bytes: ratio(rb.zip(wb).map(|(a, b)| a + b), total),
        util_pct: v("%b"),
        service_ms: v("asvc_t"),
        ..Default::default()
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
