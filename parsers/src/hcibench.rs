//! HCIBench result summaries (`<run>-res.txt`, fio and vdbench engines) into an [`EntityLog`]
//! of format `hcibench`.
//!
//! # Tool and layout
//! HCIBench (VMware's vSAN/HCI benchmark harness, 1.6 – 2.x) writes one summary per test run
//! with `parseFioResult.rb` or `parseVdbResult.rb` (read in the HCIBench sources;
//! `../shared/reference/vsan-formats.md` §6):
//! ```text
//! Datastore     = vsanDatastore
//! =============================
//! JOB_NAME      = job0
//! VMs           = 16
//! IOPS          = 26833.38 IO/S
//! THROUGHPUT    = 107.00 MB/s
//! R_LATENCY     = 0.00 ms
//! W_LATENCY     = 11.28 ms
//! 95%tile_R_LAT = 0.00 ms
//! 95%tile_W_LAT = 42.00 ms
//! =============================
//! Resource Usage:
//! CPU USAGE     = 62.46%
//! RAM USAGE     = 29.16%
//! vSAN PCPU USAGE = 22.14%
//! ```
//! - per datastore a `Datastore = <name>` line (or `Datastore: <name>`), then one block per fio
//!   job between `=============================` lines, opened by `JOB_NAME = <job>`;
//!   Kubernetes runs print `PODS` instead of `VMs`; newer versions print 4 decimals;
//! - the vdbench form opens a block with `Version: vdbench50407` and `Run Def: RD=run1; I/O rate:
//!   Uncontrolled MAX; elapsed=3600 warmup=1800; For loops: None`, and adds `LATENCY` and
//!   `95%tile_LAT`;
//! - after the blocks, `Resource Usage:` and `CPU USAGE`, `RAM USAGE`, `vSAN PCPU USAGE` (%);
//! - separators are TABs or spaces around `=`.
//!
//! # Records
//! One [`Series`] per metric per block, with one value and no time (`times: [None]`):
//! `entity_type` = `hcibench`, `entity` = the `JOB_NAME` or the `Run Def` text verbatim
//! (`Resource Usage` for the resource lines), `metric` = the key verbatim. When the file holds
//! several datastores, the entity is prefixed with the datastore (`ds1: job0`) so that the jobs
//! of different datastores stay apart. [`EntityLog::origin`] is the datastore name (several
//! joined with `, `). The vdbench `Version:` line is read but not stored.
//!
//! # Metrics and units
//! | key (verbatim) | printed unit | [`Measure`] | factor |
//! |---|---|---|---|
//! | `IOPS` | `IO/S` | `TotalIops` | 1 |
//! | `THROUGHPUT` | `MB/s` | `TotalBytesPerS` | 1,048,576 |
//! | `LATENCY` (vdbench) | `ms` | `LatencyMs` | 1 |
//! | `R_LATENCY` | `ms` | `ReadLatencyMs` | 1 |
//! | `W_LATENCY` | `ms` | `WriteLatencyMs` | 1 |
//! | `95%tile_R_LAT` (fio) | `ms` | `ReadLatencyP95Ms` | 1 |
//! | `95%tile_W_LAT` (fio) | `ms` | `WriteLatencyP95Ms` | 1 |
//! | `95%tile_LAT` (vdbench) | `ms` | none (kept raw) | – |
//! | `VMs`, `PODS` | – | none (`count`) | – |
//! | `CPU USAGE`, `RAM USAGE`, `vSAN PCPU USAGE` | `%` | none (kept raw) | – |
//!
//! Sources (`vsan-formats.md` §0, §6, read in `parseFioResult.rb`/`parseVdbResult.rb`):
//! - fio `THROUGHPUT` is the sum over VMs of fio's `bw` (KiB/s) ÷ 1024, so its "MB" is a MiB:
//!   ×2^20 to bytes/s. vdbench's `MB/sec` is also 2^20 bytes [inferred: vdbench reports in
//!   binary units];
//! - latencies are the mean over VMs of fio `lat_ns.mean` ÷ 10^6 (ms), or vdbench's response
//!   times (ms). fio's 95th percentile is the mean of the VMs' percentiles (not a cluster
//!   percentile); vdbench's `95%tile_LAT` is only avg + 1.645·σ, which is why it gets no measure.
//!
//! A key not in this table is kept with `measure: None` (`raw_unit` = the unit printed after the
//! number) and listed once in [`EntityLog::warnings`]. A value printed with an unexpected unit is
//! kept without a measure and warned. A value that is not a number (`NaN`, which HCIBench prints
//! when every VM finished early) is `None`, with a warning. Never 0.
//!
//! # Quirks tolerated
//! - `There are N VMs finished testing early…` and `Testing is done, N out of M VMs finished test
//!   successfully…` lines: kept as warnings (the figures then leave those VMs out); the file
//!   names listed after the latter are counted as skipped lines;
//! - any other line that is not part of the summary (e.g. the prose of a document that embeds a
//!   summary, code fences) is counted in [`EntityLog::skipped`];
//! - blank lines, CRLF, a UTF-8 BOM, a missing `Datastore` line (origin `None`).
//!
//! A text with no result block is an error saying that it holds no HCIBench results.
//!
//! # Streaming
//! The format streams ([`parse_reader`], the registry's `parse_stream`): one parser body reads
//! the lines of the whole text ([`parse`]) or of a reader, one at a time. It keeps the series
//! read so far (one value each), the datastore names, the open block's entity and the unknown
//! keys; never the lines. The datastore prefix of the entities is known only at the end of the
//! file (when a second datastore appears), so the one [`EntityLog`] is handed over then.
//!
//! ```
//! let text = "Datastore = vsanDatastore\n=============================\n\
//!             JOB_NAME\t= job0\nVMs\t\t= 4\nIOPS\t\t= 1000.50 IO/S\nTHROUGHPUT\t= 3.91 MB/s\n\
//!             =============================\n";
//! let log = sizer_parsers::hcibench::parse(text).unwrap();
//! assert_eq!(log.origin.as_deref(), Some("vsanDatastore"));
//! let tput = log.series.iter().find(|s| s.metric == "THROUGHPUT").unwrap();
//! assert_eq!(tput.entity, "job0");
//! assert_eq!(tput.values, vec![Some(3.91 * 1048576.0)]);
//! ```

use crate::disk::MIB;
pub use crate::entity::{EntityLog, Measure, Series, SkippedLine};
use crate::error::ParseError;

/// Format id of this parser.
pub const FORMAT: &str = "hcibench";

/// [`Series::entity_type`] of every series.
pub const ENTITY_TYPE: &str = "hcibench";

/// [`Series::entity`] of the `Resource Usage:` lines.
pub const RESOURCE_USAGE: &str = "Resource Usage";

/// The keys this module knows: (key, measure, factor from the printed value to
/// [`Measure::unit`], unit HCIBench prints). Keys match case-insensitively.
pub const METRICS: &[(&str, Option<Measure>, f64, &str)] = &[
    ("IOPS", Some(Measure::TotalIops), 1.0, "IO/S"),
    ("THROUGHPUT", Some(Measure::TotalBytesPerS), MIB, "MB/s"),
    ("LATENCY", Some(Measure::LatencyMs), 1.0, "ms"),
    ("R_LATENCY", Some(Measure::ReadLatencyMs), 1.0, "ms"),
    ("W_LATENCY", Some(Measure::WriteLatencyMs), 1.0, "ms"),
    ("95%tile_R_LAT", Some(Measure::ReadLatencyP95Ms), 1.0, "ms"),
    ("95%tile_W_LAT", Some(Measure::WriteLatencyP95Ms), 1.0, "ms"),
    ("95%tile_LAT", None, 1.0, "ms"),
    ("VMs", None, 1.0, ""),
    ("PODS", None, 1.0, ""),
    ("CPU USAGE", None, 1.0, "%"),
    ("RAM USAGE", None, 1.0, "%"),
    ("vSAN PCPU USAGE", None, 1.0, "%"),
];

const SEPARATOR_MIN: usize = 10;
const SECTION: &str = "HCIBench result summary";

fn is_separator(line: &str) -> bool {
    line.len() >= SEPARATOR_MIN && line.bytes().all(|b| b == b'=')
}

/// Cheap check on the first 64 KiB: a `=====…` separator line, a `JOB_NAME =` or `Run Def:` line
/// and an `IOPS = … IO/S` line.
pub fn looks_like(text: &str) -> bool {
    let mut end = text.len().min(64 * 1024);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let (mut sep, mut job, mut iops) = (false, false, false);
    for line in text[..end].lines() {
        let l = line.trim();
        sep |= is_separator(l);
        job |= (l.starts_with("JOB_NAME") && l.contains('=')) || l.starts_with("Run Def:");
        iops |= l.starts_with("IOPS") && l.contains("IO/S");
        if sep && job && iops {
            return true;
        }
    }
    false
}

/// Decodes bytes with [`crate::input::decode`] and parses them.
///
/// # Errors
/// As [`crate::input::decode`] and [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<EntityLog, ParseError> {
    let decoded = crate::input::decode(bytes)?;
    parse(&decoded.text)
}

/// `26833.38 IO/S` → (Some(26833.38), `IO/S`); `62.46%` → (Some(62.46), `%`); `16` → (Some(16),
/// ``). `Err` when there is no number at the start.
fn value_and_unit(v: &str) -> Result<(Option<f64>, &str), ()> {
    let t = v.trim();
    let end = t
        .find(|c: char| c.is_whitespace() || c == '%')
        .unwrap_or(t.len());
    let (num, unit) = (&t[..end], t[end..].trim());
    match num.parse::<f64>() {
        Ok(n) if n.is_finite() => Ok((Some(n), unit)),
        Ok(_) => Ok((None, unit)), // NaN / inf
        Err(_) => Err(()),
    }
}

/// The block being read.
struct Block {
    entity: Option<String>,
    line: usize,
}

/// Parses an HCIBench `-res.txt` summary (already decoded to text).
///
/// # Errors
/// [`ParseError::Section`] when the text holds no result block (no `JOB_NAME` or `Run Def:`
/// block with values): it then holds no HCIBench results.
pub fn parse(text: &str) -> Result<EntityLog, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    parse_lines(crate::lines::text_lines(text))
}

/// Reads an HCIBench summary from `src` line by line (see `lines::with_stream_lines`
/// for the decoding): the same [`EntityLog`] as [`parse`] of the decoded whole text.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else as [`parse`].
pub fn parse_reader(src: &mut dyn std::io::BufRead) -> Result<EntityLog, ParseError> {
    crate::lines::with_stream_lines(src, |lines| parse_lines(lines))
}

/// The one parser body of [`parse`] and [`parse_reader`], over the lines of `split('\n')` (a
/// line's CR is trimmed with its other white space).
fn parse_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
) -> Result<EntityLog, ParseError> {
    let mut log = EntityLog::new(FORMAT);
    let mut datastores: Vec<String> = Vec::new();
    // Datastore index of each series (for the prefix when there are several).
    let mut series_ds: Vec<Option<usize>> = Vec::new();
    let mut current_ds: Option<usize> = None;
    let mut block: Option<Block> = None;
    let mut resources = false;
    let mut unknown: Vec<String> = Vec::new();

    for (i, raw) in lines.enumerate() {
        let raw = raw?;
        let line_no = i + 1;
        let line = raw.as_ref().trim();
        if line.is_empty() {
            continue;
        }
        if is_separator(line) {
            block = None;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Datastore") {
            let rest = rest.trim_start();
            if let Some(name) = rest.strip_prefix('=').or_else(|| rest.strip_prefix(':')) {
                let name = name.trim().to_string();
                current_ds = Some(match datastores.iter().position(|d| *d == name) {
                    Some(d) => d,
                    None => {
                        datastores.push(name);
                        datastores.len() - 1
                    }
                });
                block = None;
                resources = false;
                continue;
            }
        }
        if line.eq_ignore_ascii_case("Resource Usage:") {
            resources = true;
            block = None;
            continue;
        }
        if line.starts_with("Version:") {
            block = Some(Block {
                entity: None,
                line: line_no,
            });
            resources = false;
            continue;
        }
        if let Some(rd) = line.strip_prefix("Run Def:") {
            let rd = rd.trim().to_string();
            match &mut block {
                Some(b) if b.entity.is_none() => b.entity = Some(rd),
                _ => {
                    block = Some(Block {
                        entity: Some(rd),
                        line: line_no,
                    })
                }
            }
            resources = false;
            continue;
        }
        if (line.starts_with("There are ") && line.contains("finished testing early"))
            || (line.starts_with("Testing is done,") && line.contains("VMs finished"))
        {
            log.warn(format!("line {line_no}: {line}"));
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            log.skipped.push(SkippedLine {
                line: line_no,
                reason: "not part of an HCIBench result summary".into(),
            });
            continue;
        };
        let key = key.trim();
        if key == "JOB_NAME" {
            block = Some(Block {
                entity: Some(value.trim().to_string()),
                line: line_no,
            });
            resources = false;
            continue;
        }
        let known = METRICS.iter().find(|(k, ..)| k.eq_ignore_ascii_case(key));
        let Ok((value, unit)) = value_and_unit(value) else {
            log.skipped.push(SkippedLine {
                line: line_no,
                reason: format!("'{key}' has no number: not an HCIBench result line"),
            });
            continue;
        };
        let entity = if resources {
            RESOURCE_USAGE.to_string()
        } else {
            match &block {
                Some(b) => b
                    .entity
                    .clone()
                    .unwrap_or_else(|| format!("block at line {}", b.line)),
                None => {
                    log.skipped.push(SkippedLine {
                        line: line_no,
                        reason: format!("'{key}' outside a result block (no JOB_NAME or Run Def)"),
                    });
                    continue;
                }
            }
        };
        if value.is_none() {
            log.warn(format!(
                "line {line_no}: {key} of {entity} is not a number ('{}'): unknown",
                line.split_once('=').map_or("", |(_, v)| v.trim())
            ));
        }
        let (measure, factor, raw_unit) = match known {
            Some(&(_, m, f, expected)) => {
                if !expected.is_empty() && !unit.eq_ignore_ascii_case(expected) {
                    log.warn(format!(
                        "line {line_no}: {key} of {entity} printed in '{unit}', expected \
                         '{expected}': kept without a measure"
                    ));
                    (None, 1.0, unit.to_string())
                } else if expected.is_empty() {
                    (
                        m,
                        f,
                        if unit.is_empty() { "count" } else { unit }.to_string(),
                    )
                } else {
                    (m, f, expected.to_string())
                }
            }
            None => {
                if !unknown.iter().any(|k| k == key) {
                    unknown.push(key.to_string());
                }
                (None, 1.0, unit.to_string())
            }
        };
        log.series.push(Series {
            entity_type: ENTITY_TYPE.to_string(),
            entity,
            host: None,
            metric: key.to_string(),
            measure,
            raw_unit,
            values: vec![value.map(|v| v * factor)],
            times: vec![None],
            utc: false,
            interval_s: None,
        });
        series_ds.push(if resources { None } else { current_ds });
    }

    if !log.series.iter().any(|s| s.entity != RESOURCE_USAGE) {
        return Err(ParseError::section(
            SECTION,
            None,
            "result blocks (`JOB_NAME = …` or `Run Def:` followed by IOPS, THROUGHPUT and \
             latencies) of an HCIBench -res.txt",
            "none: the text holds no HCIBench results",
        ));
    }
    if datastores.len() > 1 {
        for (s, ds) in log.series.iter_mut().zip(&series_ds) {
            if let Some(d) = ds {
                s.entity = format!("{}: {}", datastores[*d], s.entity);
            }
        }
    }
    if !datastores.is_empty() {
        log.origin = Some(datastores.join(", "));
    }
    if !unknown.is_empty() {
        log.warn(format!(
            "keys not known to sizer, kept without a measure: {}",
            unknown.join(", ")
        ));
    }
    Ok(log)
}

/// The HCIBench result summary format (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Hcibench;

impl crate::parser::FormatParser for Hcibench {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::Hcibench,
            id: "hcibench",
            name: "HCIBench result summary",
            kind: crate::sink::RecordKind::Entities,
            description: "HCIBench result summary (`*-res.txt`, fio or vdbench)",
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
        let _ = settings;
        sink.entity_log(parse(text)?)
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
        let _ = settings;
        sink.entity_log(parse_reader(src)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_units() {
        assert_eq!(
            value_and_unit(" 26833.38 IO/S"),
            Ok((Some(26833.38), "IO/S"))
        );
        assert_eq!(value_and_unit("62.46%"), Ok((Some(62.46), "%")));
        assert_eq!(value_and_unit("16"), Ok((Some(16.0), "")));
        assert_eq!(value_and_unit("NaN ms"), Ok((None, "ms")));
        assert_eq!(value_and_unit("run1; I/O rate"), Err(()));
    }

    #[test]
    fn separators() {
        assert!(is_separator("============================="));
        assert!(!is_separator("==="));
        assert!(!is_separator("== x =="));
    }
}
