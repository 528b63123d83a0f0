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
mod dates;
pub mod disk;
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
pub mod sadf;
pub mod sar;
mod sysstat_json;
pub mod unix_iostat;
pub mod vsan;

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
    /// `sar -d` / `-b` / `-A` text: Linux sysstat, AIX, Solaris, HP-UX.
    SarText,
    /// `sadf -d` (semicolon CSV).
    SadfCsv,
    /// `sadf -j` (JSON).
    SadfJson,
    /// `iostat -o JSON` (sysstat 11.5.1+).
    IostatJson,
    /// AIX `iostat` (plain or `-D`).
    AixIostat,
    /// Solaris / illumos `iostat -x` (`-xn`, `-xzn`, …).
    SolarisIostat,
    /// nmon `.nmon` file (Linux nmon, AIX topas_nmon).
    Nmon,
    /// Oracle OSWatcher Black Box `oswiostat` archive.
    OsWatcher,
    /// ESXi `esxtop -b` batch CSV (PDH-CSV 4.0).
    EsxtopCsv,
    /// HCIBench result summary (`*-res.txt`).
    Hcibench,
    /// vSAN performance service query result (`VsanPerfEntityMetricCSV`) as JSON.
    VsanJson,
    /// vSAN performance service SOAP response or support-bundle stats dump.
    VsanSoap,
    /// PowerCLI `Get-VsanStat | Export-Csv` (or its console table).
    PowercliCsv,
    /// telegraf `vsphere_vsan_*` line protocol.
    TelegrafVsan,
}

impl Format {
    /// Stable id: `awr_html`, `awr_text`, `statspack`.
    pub fn id(self) -> &'static str {
        match self {
            Format::AwrHtml => "awr_html",
            Format::AwrText => "awr_text",
            Format::Statspack => "statspack",
            Format::IostatText => "iostat_text",
            Format::SarText => "sar_text",
            Format::SadfCsv => "sadf_csv",
            Format::SadfJson => "sadf_json",
            Format::IostatJson => "iostat_json",
            Format::AixIostat => "aix_iostat",
            Format::SolarisIostat => "solaris_iostat",
            Format::Nmon => "nmon",
            Format::OsWatcher => "oswatcher",
            Format::EsxtopCsv => "esxtop_csv",
            Format::Hcibench => "hcibench",
            Format::VsanJson => "vsan_json",
            Format::VsanSoap => "vsan_soap",
            Format::PowercliCsv => "powercli_csv",
            Format::TelegrafVsan => "telegraf_vsan",
        }
    }

    /// Human name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::AwrHtml => "AWR HTML report",
            Format::AwrText => "AWR text report",
            Format::Statspack => "Statspack report",
            Format::IostatText => "Linux iostat log",
            Format::SarText => "sar log",
            Format::SadfCsv => "sadf -d (CSV) file",
            Format::SadfJson => "sadf -j (JSON) file",
            Format::IostatJson => "iostat JSON log",
            Format::AixIostat => "AIX iostat log",
            Format::SolarisIostat => "Solaris iostat log",
            Format::Nmon => "nmon file",
            Format::OsWatcher => "OSWatcher oswiostat archive",
            Format::EsxtopCsv => "esxtop batch CSV",
            Format::Hcibench => "HCIBench result summary",
            Format::VsanJson => "vSAN performance JSON",
            Format::VsanSoap => "vSAN performance SOAP dump",
            Format::PowercliCsv => "PowerCLI Get-VsanStat export",
            Format::TelegrafVsan => "telegraf vSAN line protocol",
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
    if esxtop::looks_like(text) {
        return Ok(Format::EsxtopCsv);
    }
    match vsan::format_of(text) {
        Some("vsan_soap") => return Ok(Format::VsanSoap),
        Some("vsan_json") => return Ok(Format::VsanJson),
        Some("telegraf_vsan") => return Ok(Format::TelegrafVsan),
        Some("powercli_csv") => return Ok(Format::PowercliCsv),
        _ => {}
    }
    if hcibench::looks_like(text) {
        return Ok(Format::Hcibench);
    }
    // JSON and sadf CSV first: a sadf file may carry pasted sar text and its banner.
    if sadf::looks_like_json(text) {
        return Ok(Format::SadfJson);
    }
    if iostat_json::looks_like(text) {
        return Ok(Format::IostatJson);
    }
    if sadf::looks_like_csv(text) {
        return Ok(Format::SadfCsv);
    }
    // OSWatcher archives hold iostat runs (with their banners): before iostat.
    if oswatcher::looks_like(text) {
        return Ok(Format::OsWatcher);
    }
    if nmon::looks_like(text) {
        return Ok(Format::Nmon);
    }
    if sar::looks_like(text) {
        return Ok(Format::SarText);
    }
    if iostat::looks_like(text) {
        return Ok(Format::IostatText);
    }
    if unix_iostat::looks_like_aix(text) {
        return Ok(Format::AixIostat);
    }
    if unix_iostat::looks_like_solaris(text) {
        return Ok(Format::SolarisIostat);
    }
    let head: String = text
        .chars()
        .take(64 * 1024)
        .collect::<String>()
        .to_ascii_lowercase();
    let version_output = text
        .lines()
        .take(20)
        .any(|l| l.trim_start().starts_with("sysstat version "));
    let reason = if version_output {
        "sysstat's version output (`iostat -V`, `sar -V`): it holds no statistics".to_string()
    } else if head.contains("<html") || head.contains("<!doctype html") {
        "an HTML page without AWR report tables (no 'WORKLOAD REPOSITORY' heading): expected an Oracle AWR report".to_string()
    } else {
        "expected an Oracle AWR report (HTML or text, with a 'WORKLOAD REPOSITORY' heading), a Statspack report, an OS disk log (iostat, sar, sadf, nmon, OSWatcher) or a vSAN/ESXi export (vSAN performance JSON/SOAP, PowerCLI, telegraf, esxtop, HCIBench)"
            .to_string()
    };
    Err(ParseError::UnknownFormat { reason })
}

/// A parsed input of any supported format.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum Parsed {
    /// An AWR report (HTML or text) or a Statspack report: the same records.
    Awr(Box<awr::AwrReport>),
    /// Block-device activity from an OS tool (iostat, sar, sadf, nmon, OSWatcher, …).
    Devices(Box<disk::DeviceLog>),
    /// Per-entity metric series from a virtualisation tool (vSAN, esxtop, HCIBench).
    Entities(Box<entity::EntityLog>),
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
        Format::IostatText => return devices(iostat::parse(&decoded.text)?, format),
        Format::SarText => return devices(sar::parse(&decoded.text)?, format),
        Format::SadfCsv => return devices(sadf::parse_csv(&decoded.text)?, format),
        Format::SadfJson => return devices(sadf::parse_json(&decoded.text)?, format),
        Format::IostatJson => return devices(iostat_json::parse(&decoded.text)?, format),
        Format::AixIostat => return devices(unix_iostat::parse_aix(&decoded.text)?, format),
        Format::SolarisIostat => {
            return devices(unix_iostat::parse_solaris(&decoded.text)?, format)
        }
        Format::Nmon => return devices(nmon::parse(&decoded.text)?, format),
        Format::OsWatcher => return devices(oswatcher::parse(&decoded.text)?, format),
        Format::EsxtopCsv => return Ok(Parsed::Entities(Box::new(esxtop::parse(&decoded.text)?))),
        Format::Hcibench => return Ok(Parsed::Entities(Box::new(hcibench::parse(&decoded.text)?))),
        Format::VsanJson => {
            return Ok(Parsed::Entities(Box::new(vsan::parse_json(&decoded.text)?)))
        }
        Format::VsanSoap => {
            return Ok(Parsed::Entities(Box::new(vsan::parse_soap(&decoded.text)?)))
        }
        Format::PowercliCsv => {
            return Ok(Parsed::Entities(Box::new(vsan::parse_powercli(
                &decoded.text,
            )?)))
        }
        Format::TelegrafVsan => {
            return Ok(Parsed::Entities(Box::new(vsan::parse_telegraf(
                &decoded.text,
            )?)))
        }
    };
    r.encoding = decoded.encoding.to_string();
    r.source_format = format.id().to_string();
    Ok(Parsed::Awr(Box::new(r)))
}

fn devices(log: disk::DeviceLog, format: Format) -> Result<Parsed, ParseError> {
    disk::require_devices(&log, format.name())?;
    Ok(Parsed::Devices(Box::new(log)))
}

/// Reads and parses one file. The caller adds the path to error messages.
///
/// # Errors
/// [`ParseError::Io`] when the file cannot be read, else as [`parse_bytes`].
pub fn parse_file(path: &Path) -> Result<Parsed, ParseError> {
    let bytes = input::read_file(path)?;
    parse_bytes(&bytes)
}
