//! Parsers for the performance evidence `sizer` reads. Format knowledge only: no tiers, no sizing.
//!
//! # Brief overview
//! bytes → [`input::decode`] (reject empty/binary, UTF-8 or windows-1252) → format detection
//! ([`detect`]) → a format parser ([`awr::html::parse`], [`awr::text::parse`],
//! [`awr::statspack::parse`]) → typed records ([`awr::AwrReport`]).
//! The `sizer` crate turns records into its columnar model; this crate never sees polars.
//!
//! Every parser takes `&str` (no I/O), so tests need no temporary files; [`parse_file`] is the one
//! wrapper that opens a path and names it in errors.
#![deny(missing_docs)]

pub mod awr;
pub mod disk;
pub mod error;
pub mod html;
pub mod input;
pub mod iostat;
pub mod nmon;
pub mod num;
pub mod oswatcher;
pub mod unix_iostat;

pub use error::{Location, ParseError};

use std::path::Path;

/// The input formats this crate recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Oracle AWR report in HTML.
    AwrHtml,
    /// Oracle AWR report in text (`awrrpt.sql` report type `text`, or an `AWR_REPORT_TEXT` spool).
    AwrText,
    /// Oracle Statspack report (`spreport.sql`).
    Statspack,
    /// Linux sysstat `iostat` text (basic or `-x`, any version 7.x – 12.7).
    IostatText,
}

impl Format {
    /// Stable id: `awr_html`, `awr_text`, `statspack`.
    pub fn id(self) -> &'static str {
        match self {
            Format::AwrHtml => "awr_html",
            Format::AwrText => "awr_text",
            Format::Statspack => "statspack",
            Format::IostatText => "iostat_text",
        }
    }

    /// Human name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::AwrHtml => "AWR HTML report",
            Format::AwrText => "AWR text report",
            Format::Statspack => "Statspack report",
            Format::IostatText => "Linux iostat log",
        }
    }
}

/// Tells the format from the content (never from the file name).
///
/// # Errors
/// [`ParseError::UnknownFormat`] saying what was looked for.
pub fn detect(text: &str) -> Result<Format, ParseError> {
    // A text report is recognised by its heading line above any HTML markup, so HTML quoted in
    // its SQL text does not make it an HTML report.
    if awr::text::looks_like(text) {
        return Ok(Format::AwrText);
    }
    if awr::statspack::looks_like(text) {
        return Ok(Format::Statspack);
    }
    if awr::html::looks_like(text) {
        return Ok(Format::AwrHtml);
    }
    if iostat::looks_like(text) {
        return Ok(Format::IostatText);
    }
    let head: String = text
        .chars()
        .take(64 * 1024)
        .collect::<String>()
        .to_ascii_lowercase();
    let reason = if head.contains("<html") || head.contains("<!doctype html") {
        "an HTML page without AWR report tables (no 'WORKLOAD REPOSITORY' heading): expected an Oracle AWR report".to_string()
    } else {
        "expected an Oracle AWR report (HTML or text, with a 'WORKLOAD REPOSITORY' heading), a Statspack report, or an OS disk log (iostat, sar, sadf, nmon, OSWatcher)"
            .to_string()
    };
    Err(ParseError::UnknownFormat { reason })
}

/// A parsed input of any supported format.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum Parsed {
    /// An AWR report (HTML or text) or a Statspack report: the same records.
    Awr(awr::AwrReport),
    /// Block-device activity from an OS tool (iostat, sar, sadf, nmon, OSWatcher, …).
    Devices(disk::DeviceLog),
}

/// Decodes, detects and parses in-memory bytes.
///
/// # Errors
/// Any [`ParseError`] from decoding, detection or the format parser.
pub fn parse_bytes(bytes: &[u8]) -> Result<Parsed, ParseError> {
    let decoded = input::decode(bytes)?;
    let format = detect(&decoded.text)?;
    let mut r = match format {
        Format::AwrHtml => awr::html::parse(&decoded.text)?,
        Format::AwrText => awr::text::parse(&decoded.text)?,
        Format::Statspack => awr::statspack::parse(&decoded.text)?,
        Format::IostatText => return Ok(Parsed::Devices(iostat::parse(&decoded.text)?)),
    };
    r.encoding = decoded.encoding.to_string();
    r.source_format = format.id().to_string();
    Ok(Parsed::Awr(r))
}

/// Reads and parses one file. The caller adds the path to error messages.
///
/// # Errors
/// [`ParseError::Io`] when the file cannot be read, else as [`parse_bytes`].
pub fn parse_file(path: &Path) -> Result<Parsed, ParseError> {
    let bytes = input::read_file(path)?;
    parse_bytes(&bytes)
}
