//! The interface every input format implements, and the settings a parse takes.
//!
//! # Flow
//! A format is a unit struct in its own module (`sar::SarText`, `esxtop::EsxtopCsv`, …) that
//! implements [`FormatParser`]: [`FormatParser::info`] says what it is (its [`Format`], stable id,
//! human name, [`RecordKind`] and a one-line description), [`FormatParser::detect`] tells it from
//! the content (the first 64 KiB are enough), and [`FormatParser::parse`] reads a decoded text
//! and hands the records to a [`Sink`]. A line-oriented format that can read from a
//! [`BufRead`] without holding the input says so with [`FormatParser::streams`] and implements
//! [`FormatParser::parse_stream`]. The registry (`registry::PARSERS`) lists the formats in
//! detection order; nothing else names them.

use std::io::BufRead;

use crate::disk::{require_devices, DeviceLog};
use crate::error::ParseError;
use crate::sink::{replay_devices, RecordKind, Sink};
use crate::Format;

pub use crate::settings::ParseSettings;

/// What a format is: the registry's row for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FormatInfo {
    /// The format.
    pub format: Format,
    /// Stable id (`awr_html`, `iostat_text`, …): the `format` field of every output.
    pub id: &'static str,
    /// Human name for messages (`Linux iostat log`).
    pub name: &'static str,
    /// The records it produces.
    pub kind: RecordKind,
    /// One line for `--help` and `docs/formats.md`: the tool, its options and versions.
    pub description: &'static str,
}

/// One input format: detection from content and a parse into a [`Sink`].
pub trait FormatParser: Sync {
    /// What the format is.
    fn info(&self) -> &'static FormatInfo;

    /// True when `text` (the decoded start of an input, at least its first 64 KiB when it is
    /// that long) is this format. The registry asks formats in its order and takes the first
    /// that says yes, so a format may assume that those before it said no.
    fn detect(&self, text: &str) -> bool;

    /// Parses a whole decoded text into `sink`, in the order of calls [`Sink`] documents.
    ///
    /// # Errors
    /// The format's [`ParseError`] (naming line or section), or the sink's.
    fn parse(
        &self,
        text: &str,
        settings: &ParseSettings,
        sink: &mut dyn Sink,
    ) -> Result<(), ParseError>;

    /// True when `bytes` (the raw start of an input, before any decoding: at least its first
    /// 64 KiB, or the whole input) is this format. For container formats whose files are
    /// binary (a zip archive): the registry asks them before the input is decoded as text
    /// (`registry::detect_bytes`). The default says no.
    fn detect_bytes(&self, bytes: &[u8]) -> bool {
        let _ = bytes;
        false
    }

    /// Parses a whole raw input (a format that [`FormatParser::detect_bytes`] recognises). The
    /// default decodes it ([`crate::input::decode`]) and calls [`FormatParser::parse`].
    ///
    /// # Errors
    /// As [`FormatParser::parse`], and the decoding's.
    fn parse_bytes(
        &self,
        bytes: &[u8],
        settings: &ParseSettings,
        sink: &mut dyn Sink,
    ) -> Result<(), ParseError> {
        let decoded = crate::input::decode(bytes)?;
        self.parse(&decoded.text, settings, sink)
    }

    /// True when [`FormatParser::parse_stream`] reads line by line without holding the input.
    fn streams(&self) -> bool {
        false
    }

    /// Parses from a reader (already decompressed) into `sink`. The default reads the reader
    /// whole, decodes it ([`crate::input::decode`]) and calls [`FormatParser::parse`]; a
    /// streaming format overrides it.
    ///
    /// # Errors
    /// [`ParseError::Io`] (with an empty path: the caller names the file) when reading fails,
    /// else as [`FormatParser::parse`].
    fn parse_stream(
        &self,
        src: &mut dyn BufRead,
        settings: &ParseSettings,
        sink: &mut dyn Sink,
    ) -> Result<(), ParseError> {
        let mut bytes = Vec::new();
        src.read_to_end(&mut bytes)
            .map_err(|source| ParseError::Io {
                path: Default::default(),
                source,
            })?;
        let decoded = crate::input::decode(&bytes)?;
        self.parse(&decoded.text, settings, sink)
    }
}

/// The end of a device format's [`FormatParser::parse`] when its parser collects a whole
/// [`DeviceLog`] first: refuses a log without a single device sample, applies
/// [`ParseSettings::first_report_since_boot`] to its first report, and replays it into the sink.
///
/// # Errors
/// The parser's error, the "no device statistics" [`ParseError::Section`] of
/// [`require_devices`], or the sink's.
pub(crate) fn devices_into(
    log: Result<DeviceLog, ParseError>,
    info: &FormatInfo,
    settings: &ParseSettings,
    sink: &mut dyn Sink,
) -> Result<(), ParseError> {
    let mut log = log?;
    require_devices(&log, info.name)?;
    if !settings.first_report_since_boot {
        if let Some(first) = log.reports.first_mut() {
            first.since_boot = false;
        }
    }
    replay_devices(log, info.format, sink)
}
