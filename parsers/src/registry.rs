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
//! Adding a format: one module implementing [`FormatParser`], and one entry in the
//! `registry!` list below (its [`Format`] variant with a doc line, and its parser), at its place
//! in detection order.

use crate::error::ParseError;
use crate::parser::{FormatInfo, FormatParser};

/// Declares [`Format`] and [`PARSERS`] from one list, so a format is named once: each entry is
/// the variant's doc, the variant and the parser, in detection order.
macro_rules! registry {
    ($( $(#[doc = $doc:literal])+ $variant:ident => $parser:expr, )+) => {
        /// The input formats this crate recognises, in detection order; each has one entry in
        /// [`PARSERS`], whose [`FormatInfo`] gives its id and name. Serialised as its id.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Format {
            $( $(#[doc = $doc])+ $variant, )+
        }

        /// Every format, in detection order.
        pub static PARSERS: &[&dyn FormatParser] = &[ $( &$parser, )+ ];
    };
}

registry! {
    /// Oracle AWR report in text (`awrrpt.sql` report type `text`, or an `AWR_REPORT_TEXT` spool).
    AwrText => crate::awr::text::AwrText,
    /// Oracle Statspack report (`spreport.sql`).
    Statspack => crate::awr::statspack::Statspack,
    /// Oracle AWR report in HTML.
    AwrHtml => crate::awr::html::AwrHtml,
    /// Oracle AWR Miner or AWS DBCSI capture file (`awr-hist-….out`).
    AwrMiner => crate::awr_miner::AwrMiner,
    /// Google Database Migration Assessment (DMA) zip archive (`opdb__<extract>__<tag>.csv`).
    DmaArchive => crate::dma::DmaArchive,
    /// ESXi `esxtop -b` batch CSV (PDH-CSV 4.0).
    EsxtopCsv => crate::esxtop::EsxtopCsv,
    /// vSAN performance service SOAP response or support-bundle stats dump.
    VsanSoap => crate::vsan::VsanSoap,
    /// vSAN performance service query result (`VsanPerfEntityMetricCSV`) as JSON.
    VsanJson => crate::vsan::VsanJson,
    /// telegraf `vsphere_vsan_*` line protocol.
    TelegrafVsan => crate::vsan::TelegrafVsan,
    /// PowerCLI `Get-VsanStat | Export-Csv` (or its console table).
    PowercliCsv => crate::vsan::PowercliCsv,
    /// HCIBench result summary (`*-res.txt`).
    Hcibench => crate::hcibench::Hcibench,
    /// `sadf -j` (JSON).
    SadfJson => crate::sadf::SadfJson,
    /// `iostat -o JSON` (sysstat 11.5.1+).
    IostatJson => crate::iostat_json::IostatJson,
    /// `sadf -d` (semicolon CSV).
    SadfCsv => crate::sadf::SadfCsv,
    /// Oracle OSWatcher Black Box `oswiostat` archive.
    OsWatcher => crate::oswatcher::OsWatcher,
    /// nmon `.nmon` file (Linux nmon, AIX topas_nmon).
    Nmon => crate::nmon::Nmon,
    /// `sar -d` / `-b` / `-A` text: Linux sysstat, AIX, Solaris, HP-UX.
    SarText => crate::sar::SarText,
    /// Linux sysstat `iostat` text (basic or `-x`, any version 7.x – 12.7).
    IostatText => crate::iostat::IostatText,
    /// AIX `iostat` (plain or `-D`).
    AixIostat => crate::unix_iostat::AixIostat,
    /// Solaris / illumos `iostat -x` (`-xn`, `-xzn`, …).
    SolarisIostat => crate::unix_iostat::SolarisIostat,
}

impl Format {
    /// Stable id (`awr_html`, `iostat_text`, …), from the registry ([`formats`]).
    pub fn id(self) -> &'static str {
        parser(self).info().id
    }

    /// Human name for messages (`Linux iostat log`), from the registry.
    pub fn name(self) -> &'static str {
        parser(self).info().name
    }

    /// Whether the format is a collector capture (AWR Miner / DBCSI, DMA): one file holding
    /// every instance's rows from `DBA_HIST`, so an instance absent from an interval was not
    /// running, not a missing report.
    pub fn collector(self) -> bool {
        matches!(self, Format::AwrMiner | Format::DmaArchive)
    }
}

impl serde::Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// Every format's row, in detection order.
pub fn formats() -> impl Iterator<Item = &'static FormatInfo> {
    PARSERS.iter().map(|p| p.info())
}

/// The parser of `format`.
pub fn parser(format: Format) -> &'static dyn FormatParser {
    // The macro lists the variants and the parsers in one order; a test checks that each
    // parser's `info().format` is its own variant.
    PARSERS[format as usize]
}

/// The first format, in [`PARSERS`] order, whose [`FormatParser::detect_bytes`] says yes to
/// the raw (undecoded) `bytes`: a container format (the DMA zip archive), asked before the
/// bytes are decoded as text. `None` for every text format.
pub fn detect_bytes(bytes: &[u8]) -> Option<&'static dyn FormatParser> {
    PARSERS.iter().find(|p| p.detect_bytes(bytes)).copied()
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
    } else if crate::awr::html::markup(&head) {
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
         they are. When none matches and nearly every line starts with a host prefix (`host: ` \
         from pdsh, clush or `dsh -M`, `host<TAB>` from `parallel --tag`), the lines are split \
         per host, the prefix removed, and each host's lines are detected in the same order; \
         Ansible ad-hoc output (a `host | CHANGED | rc=0 >>` header above each host's block) is \
         split the same way, and is recognised before the formats are asked \
         (see `docs/os-logs.md`). A Linux iostat log is recognised without its banner line too.\n\n\
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
