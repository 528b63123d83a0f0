//! The one list of input formats, in detection order, and everything derived from it.
//!
//! # Flow
//! [`PARSERS`] lists every [`FormatParser`] in the order [`detect`] asks them. The order matters
//! where one format's text can hold another's: an AWR text report (recognised by its heading
//! above any markup) before Statspack before AWR HTML; esxtop and the vSAN exports before
//! HCIBench; `sadf -j` before `iostat -o JSON` (both are `{"sysstat": …}`), and both, and `sadf
//! -d`, before the text formats (a sadf file may carry pasted sar text and its banner);
//! OSWatcher (whose archives hold iostat runs with their banners) before nmon, sar and iostat;
//! Linux iostat before AIX and Solaris iostat. [`crate::Format::id`] and
//! [`crate::Format::name`], [`formats`], the `--help` list ([`formats_text`]) and
//! `docs/formats.md` ([`formats_markdown`]) all come from the same rows.
//!
//! Adding a format: one module implementing [`FormatParser`], one [`crate::Format`] variant and
//! one line here.

use crate::error::ParseError;
use crate::parser::{FormatInfo, FormatParser};
use crate::Format;

/// Every format, in detection order.
pub static PARSERS: &[&dyn FormatParser] = &[
    &crate::awr::text::AwrText,
    &crate::awr::statspack::Statspack,
    &crate::awr::html::AwrHtml,
    &crate::esxtop::EsxtopCsv,
    &crate::vsan::VsanSoap,
    &crate::vsan::VsanJson,
    &crate::vsan::TelegrafVsan,
    &crate::vsan::PowercliCsv,
    &crate::hcibench::Hcibench,
    &crate::sadf::SadfJson,
    &crate::iostat_json::IostatJson,
    &crate::sadf::SadfCsv,
    &crate::oswatcher::OsWatcher,
    &crate::nmon::Nmon,
    &crate::sar::SarText,
    &crate::iostat::IostatText,
    &crate::unix_iostat::AixIostat,
    &crate::unix_iostat::SolarisIostat,
];

/// Every format's row, in detection order.
pub fn formats() -> impl Iterator<Item = &'static FormatInfo> {
    PARSERS.iter().map(|p| p.info())
}

/// The parser of `format`.
pub fn parser(format: Format) -> &'static dyn FormatParser {
    *PARSERS
        .iter()
        .find(|p| p.info().format == format)
        .expect("every Format has a registry line (tested)")
}

/// The first format, in [`PARSERS`] order, whose [`FormatParser::detect`] says yes.
///
/// # Errors
/// [`ParseError::UnknownFormat`] saying what was looked for (and, for sysstat's version output
/// or an HTML page that is not an AWR report, what the text is instead).
pub fn detect(text: &str) -> Result<&'static dyn FormatParser, ParseError> {
    if let Some(p) = PARSERS.iter().find(|p| p.detect(text)) {
        return Ok(*p);
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

/// The format list for `--help`: one line per format, in detection order, `id  name (kind):
/// description`, ids padded to one column.
pub fn formats_text() -> String {
    let width = formats().map(|f| f.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for f in formats() {
        out.push_str(&format!(
            "  {:width$}  {} ({}): {}\n",
            f.id,
            f.name,
            f.kind.label(),
            f.description
        ));
    }
    out
}

/// `docs/formats.md`: a Markdown table of every format, in detection order. A test compares the
/// checked-in file with this text, so the docs cannot drift from the registry.
pub fn formats_markdown() -> String {
    let mut out = String::from(
        "# Input formats\n\n\
         Generated from the parser registry (`parsers/src/registry.rs`): do not edit by hand. \
         Regenerate with `SIZER_BLESS=1 cargo test -p sizer-parsers registry`.\n\n\
         sizer tells the format from the content, never from the file name, asking the formats \
         in this order and taking the first that matches. gzip-compressed inputs are read as \
         they are.\n\n\
         | # | id | name | records | what |\n|---|---|---|---|---|\n",
    );
    for (k, f) in formats().enumerate() {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} |\n",
            k + 1,
            f.id,
            f.name,
            f.kind.label(),
            f.description.replace('|', "\\|")
        ));
    }
    out
}
