//! Parsers for the performance evidence `sizer` reads. Format knowledge only: no tiers, no sizing.
//!
//! # Brief overview
//! path or bytes → [`input`] (gunzip, reject empty/binary, UTF-8, UTF-16 or windows-1252) →
//! [`registry::detect`] (the first [`FormatParser`] of [`registry::PARSERS`] whose content
//! detection matches) → [`FormatParser::parse`] (or [`FormatParser::parse_stream`] for a format
//! that streams) → a [`Sink`], which receives one of three record kinds ([`RecordKind`]):
//! interval records ([`awr::AwrReport`]) from AWR and Statspack reports, device reports
//! ([`disk::DeviceReport`], between a start and an end) from OS disk logs, entity samples
//! ([`entity::EntityLog`]) from vSAN, esxtop and HCIBench exports.
//!
//! [`parse_path_into`] is the engine's entry point (a file into a sink, streaming where the
//! format allows); [`parse_bytes`] and [`parse_file`] collect the records into a [`Parsed`]
//! with [`sink::Collect`]. The `sizer` crate turns records into its columnar model; this crate
//! never sees polars.
//!
//! Every format parser also takes `&str` (no I/O), so tests need no temporary files; the shared
//! plumbing (decoding, the detection head and line clipping, the date tokenizer, the sysstat
//! JSON reader) exists once, in private modules.
//!
//! # Streaming
//! Every OS log and virtualisation export streams: [`parse_path_into`] reads it from the file
//! (gunzipped on the fly), never holding its text, and each format keeps only its parsed state.
//! Line formats share one reader (`lines`: the same lines as the decoded whole text); JSON
//! documents are walked with serde_json's streaming deserializer and XML with a scanner over a
//! refilled buffer, through a decoding reader (BOM, UTF-16, windows-1252 as [`input::decode`]).
//! A report reaches the sink as soon as the format lets it be complete:
//! - at once: Linux iostat, Solaris `iostat -x`, AIX `iostat` (after its `System
//!   configuration:` banner), `sadf -j` and `iostat -o JSON` (each `statistics` element);
//! - at the end of a run: `sar` (a later activity table of the run adds to any interval);
//! - at the end of the file: `sadf -d` (each activity is printed for every time stamp in turn),
//!   nmon (reports in snapshot order, devices in first-appearance order over every header),
//!   OSWatcher (its banner is assembled over all its blocks), and the entity formats (esxtop,
//!   vSAN JSON and SOAP, PowerCLI, telegraf, HCIBench build one series per counter over the
//!   file and hand over one [`entity::EntityLog`]).
//!
//! Each module's docs say what it holds until then. Database reports (AWR HTML and text,
//! Statspack) are documents of a few hundred KiB whose sections refer to each other: they are
//! read whole and handed over as one record.
#![deny(missing_docs)]

pub mod awr;
pub mod awr_miner;
mod checked;
mod dates;
pub mod disk;
pub mod dma;
pub mod entity;
pub mod error;
pub mod esxtop;
pub mod hcibench;
pub mod html;
pub mod input;
pub mod iostat;
pub mod iostat_json;
mod lines;
pub mod nmon;
pub mod num;
pub mod oswatcher;
pub mod parser;
pub mod prefix;
pub mod registry;
pub mod sadf;
pub mod sar;
mod settings;
pub mod sink;
mod sysstat_json;
pub mod unix_iostat;
pub mod vsan;

pub use error::{Location, ParseError};
pub use parser::{FormatInfo, FormatParser, ParseSettings};
pub use sink::{RecordKind, Sink};

use std::path::Path;

pub use registry::Format;

/// Tells the format from the content (never from the file name): the first format of
/// [`registry::PARSERS`] whose detection matches.
///
/// # Errors
/// [`ParseError::UnknownFormat`] saying what was looked for.
pub fn detect(text: &str) -> Result<Format, ParseError> {
    registry::detect(text).map(|p| p.info().format)
}

/// A parsed input of any supported format.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum Parsed {
    /// An AWR report (HTML or text) or a Statspack report: the same records.
    Awr(Box<awr::AwrReport>),
    /// A collector capture: AWR Miner or DBCSI, one record per snapshot and instance, in file
    /// order ([`awr_miner`]); a DMA archive, one record per instance and hour of day ([`dma`]).
    Intervals {
        /// The records, in file order.
        reports: Vec<awr::AwrReport>,
    },
    /// Block-device activity from an OS tool (iostat, sar, sadf, nmon, OSWatcher, …).
    Devices(Box<disk::DeviceLog>),
    /// Per-entity metric series from a virtualisation tool (vSAN, esxtop, HCIBench).
    Entities(Box<entity::EntityLog>),
    /// A capture whose every line carries a host prefix (`pdsh`, `clush`, `parallel --tag`):
    /// one OS disk log per host ([`prefix`]).
    Hosts {
        /// Each host's log, in order of first appearance.
        hosts: Vec<sink::HostLog>,
        /// What concerns the file rather than one host (lines without a prefix, hosts whose
        /// lines are no OS disk log).
        warnings: Vec<String>,
    },
}

/// Decodes, detects and parses in-memory bytes, collecting every record.
///
/// # Errors
/// Any [`ParseError`] from decoding, detection or the format parser.
pub fn parse_bytes(bytes: &[u8]) -> Result<Parsed, ParseError> {
    let mut sink = sink::Collect::new();
    parse_bytes_into(bytes, &ParseSettings::default(), &mut sink)?;
    sink.into_parsed().ok_or_else(|| ParseError::UnknownFormat {
        reason: "the parser gave no record".into(),
    })
}

/// Reads and parses one file, collecting every record. The caller adds the path to error
/// messages.
///
/// # Errors
/// [`ParseError::Io`] when the file cannot be read, else as [`parse_bytes`].
pub fn parse_file(path: &Path) -> Result<Parsed, ParseError> {
    let bytes = input::read_file(path)?;
    parse_bytes(&bytes)
}

/// Decodes, detects and parses in-memory bytes into `sink`; returns the format read.
///
/// # Errors
/// Any [`ParseError`] from decoding, detection, the format parser or the sink.
pub fn parse_bytes_into(
    bytes: &[u8],
    settings: &ParseSettings,
    sink: &mut dyn Sink,
) -> Result<Format, ParseError> {
    // A container format (the DMA zip archive) is recognised from its raw bytes, before they
    // are decoded as text (where a zip is refused).
    if let Some(parser) = registry::detect_bytes(bytes) {
        let mut checked = checked::Checked::new(sink);
        parser.parse_bytes(bytes, settings, &mut checked)?;
        return Ok(parser.info().format);
    }
    let decoded = input::decode(bytes)?;
    // An Ansible header line comes before the log it names, so the registry could take the
    // first host's lines for a log of the whole file: the capture is recognised first.
    let ansible = prefix::detect(head_of(&decoded.text)) == Some(prefix::PrefixKind::Ansible);
    let detected = match ansible {
        true => Err(ParseError::UnknownFormat {
            reason: "an Ansible capture".into(),
        }),
        false => registry::detect(&decoded.text),
    };
    let parser = match detected {
        Ok(p) => p,
        Err(e) => {
            let Some(kind) = prefix::detect(head_of(&decoded.text)) else {
                return Err(e);
            };
            let text = decoded.text.as_bytes();
            let mut open = || Ok(Box::new(text) as Box<dyn std::io::BufRead + '_>);
            return prefix::parse_prefixed(kind, &mut open, settings, sink);
        }
    };
    let mut checked = checked::Checked::new(sink);
    let mut stamped = WithEncoding {
        inner: &mut checked,
        encoding: decoded.encoding,
    };
    parser.parse(&decoded.text, settings, &mut stamped)?;
    Ok(parser.info().format)
}

/// Opens, detects and parses one file into `sink`; returns the format read. This is the entry
/// point of the `sizer` engine.
///
/// Detection reads the first 64 KiB ([`input::peek_text`], gunzipped when the file is gzip).
/// A format that streams ([`FormatParser::streams`]: every OS log and virtualisation export) is
/// then read from the file, gunzipped on the fly, so a log of any size is never in memory whole;
/// a database report is read whole, decoded ([`input::decode`]) and parsed.
///
/// A streamed Linux iostat log is read leniently, as a log still being written is: a report with
/// a value that is not a number, or with a line that does not fit its header, is left out and
/// counted in the skipped lines, and the rest of the log is read (unless no report could be read
/// at all). [`parse_file`] reads such a log strictly (the first bad report is the error).
///
/// Every record reaches `sink` through the `checked` sink: a number that is not a value (NaN, inf,
/// negative, beyond [`num::MAX_VALUE`]) is unknown, with a warning naming where it was.
///
/// # Errors
/// [`ParseError::Io`] naming the path; else as [`parse_bytes_into`].
pub fn parse_path_into(
    path: &Path,
    settings: &ParseSettings,
    sink: &mut dyn Sink,
) -> Result<Format, ParseError> {
    parse_path_into_limited(path, settings, &input::Limits::default(), sink)
}

/// How much of a file whose first 64 KiB are no known format is read to detect it on its whole
/// text: 64 MiB (a database report, the only format read whole, is a few MB). Past it the file
/// is "not a recognised report" at once.
pub const UNDETECTED_READ_LIMIT: u64 = 64 << 20;

/// [`parse_path_into`] under caps on the file's size and, for gzip, its decompressed size
/// ([`input::Limits`]): a file over [`input::Limits::max_file_size`] is refused before it is
/// opened; a stream stops at either cap ([`input::open_stream_capped`]); a document read whole
/// is read through the same capped reader ([`input::read_capped`]), so nothing is buffered past
/// a cap. Content whose first 64 KiB are binary is refused from those bytes (a gzip bomb of
/// zeros is not read on).
///
/// # Errors
/// [`ParseError::TooLarge`] naming the cap and its flag; else as [`parse_path_into`].
pub fn parse_path_into_limited(
    path: &Path,
    settings: &ParseSettings,
    limits: &input::Limits,
    sink: &mut dyn Sink,
) -> Result<Format, ParseError> {
    input::check_file_size(path, limits)?;
    let head = input::peek_text(path, 64 * 1024);
    if let Err(e @ ParseError::Binary { .. }) = head {
        return Err(e);
    }
    // Content whose head is no known format is read whole (to detect on the whole text) only up
    // to UNDETECTED_READ_LIMIT: a gzip bomb of text lines is refused there, not at the caps.
    let mut whole = *limits;
    let mut undetected = None;
    if let Ok(head) = head {
        // As in `parse_bytes_into`: an Ansible capture is recognised before the registry.
        let detected = match prefix::detect(&head) == Some(prefix::PrefixKind::Ansible) {
            true => Err(ParseError::UnknownFormat {
                reason: "an Ansible capture".into(),
            }),
            false => registry::detect(&head),
        };
        if detected.is_err() {
            if let Some(kind) = prefix::detect(&head) {
                let mut open = || open_decoded(path, limits);
                return prefix::parse_prefixed(kind, &mut open, settings, sink).map_err(
                    |e| match e {
                        ParseError::Io { source, .. } => input::io_error(path, source),
                        e => e,
                    },
                );
            }
        }
        if let Err(e) = &detected {
            whole.max_file_size = whole.max_file_size.min(UNDETECTED_READ_LIMIT);
            whole.max_decompressed_size = whole.max_decompressed_size.min(UNDETECTED_READ_LIMIT);
            undetected = Some(ParseError::UnknownFormat {
                reason: match e {
                    ParseError::UnknownFormat { reason } => reason.clone(),
                    other => other.to_string(),
                },
            });
        }
        if let Ok(parser) = detected {
            if parser.streams() {
                let mut src = open_decoded(path, limits)?;
                let mut checked = checked::Checked::new(sink);
                return match parser.parse_stream(&mut src, settings, &mut checked) {
                    Err(ParseError::Io { source, .. }) => Err(input::io_error(path, source)),
                    r => r.map(|()| parser.info().format),
                };
            }
        }
    }
    let bytes = match input::read_capped(path, &whole) {
        // The cap reached is this read's own, not the user's: the file is no report.
        Err(ParseError::TooLarge { what, limit, .. })
            if undetected.is_some()
                && limit == UNDETECTED_READ_LIMIT
                && UNDETECTED_READ_LIMIT
                    < if what == "the file" {
                        limits.max_file_size
                    } else {
                        limits.max_decompressed_size
                    } =>
        {
            return Err(undetected.expect("checked"));
        }
        r => r?,
    };
    parse_bytes_into(&bytes, settings, sink)
}

/// Opens `path` as a stream under `limits`, gunzipped, and UTF-16 decoded to UTF-8 on the fly,
/// so every streaming parser reads it as the whole-text decoder does (a UTF-16 log was
/// detected, then read raw).
fn open_decoded(
    path: &Path,
    limits: &input::Limits,
) -> Result<Box<dyn std::io::BufRead>, ParseError> {
    let mut src = input::open_stream_capped(path, limits)?;
    let utf16 = src
        .fill_buf()
        .map(input::is_utf16)
        .map_err(|source| ParseError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if utf16 {
        src = Box::new(sysstat_json::DecodeReader::new(src));
    }
    Ok(src)
}

/// The first 64 KiB of `text` (cut at a character boundary), what detection looks at.
fn head_of(text: &str) -> &str {
    let mut end = text.len().min(64 * 1024);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Sets the decoding on database reports on their way to the caller's sink.
struct WithEncoding<'a> {
    inner: &'a mut dyn Sink,
    encoding: &'static str,
}

impl Sink for WithEncoding<'_> {
    fn interval_report(&mut self, mut report: awr::AwrReport) -> Result<(), ParseError> {
        report.encoding = self.encoding.to_string();
        self.inner.interval_report(report)
    }
    fn device_begin(&mut self, start: sink::DeviceLogStart<'_>) -> Result<bool, ParseError> {
        self.inner.device_begin(start)
    }
    fn device_report(&mut self, report: disk::DeviceReport) -> Result<bool, ParseError> {
        self.inner.device_report(report)
    }
    fn device_end(&mut self, end: sink::DeviceLogEnd) -> Result<(), ParseError> {
        self.inner.device_end(end)
    }
    fn entity_log(&mut self, log: entity::EntityLog) -> Result<(), ParseError> {
        self.inner.entity_log(log)
    }
    fn host_begin(&mut self, host: &str) -> Result<(), ParseError> {
        self.inner.host_begin(host)
    }
    fn prefixed_end(&mut self, warnings: Vec<String>) -> Result<(), ParseError> {
        self.inner.prefixed_end(warnings)
    }
}
