//! The one sink every parser writes into, in the style of ripgrep's `grep_searcher::Sink`.
//!
//! # Flow
//! A parser never returns its records to the caller: it hands them to a [`Sink`] as it reads
//! them, so the caller decides what to keep (the `sizer` engine keeps a few figures per interval
//! and drops the rest; [`Collect`] keeps everything and gives back a [`crate::Parsed`]). Each
//! format produces one [`RecordKind`]:
//!
//! - **interval records** (AWR HTML and text, Statspack): one [`Sink::interval_report`] call with
//!   the whole [`AwrReport`] (a report is small and its sections refer to each other);
//! - **device reports** (iostat, sar, sadf, nmon, OSWatcher, AIX/Solaris iostat): one
//!   [`Sink::device_begin`] with the format and the system banner, then one
//!   [`Sink::device_report`] per interval (or summary) in file order, then one
//!   [`Sink::device_end`] with the warnings and the skipped lines. A streaming parser calls
//!   `device_report` as soon as each report is complete;
//! - **entity samples** (vSAN JSON/SOAP, PowerCLI, telegraf, esxtop, HCIBench): one
//!   [`Sink::entity_log`] call with every series.
//!
//! Every method may stop the parse: `Ok(false)` from [`Sink::device_report`] (or
//! [`Sink::device_begin`]) means "enough", and the parser returns `Ok` at once (no
//! `device_end` call); an `Err` is returned by the parser as it is. When the parser itself fails,
//! records already given to the sink belong to an input that is in error: drop them.
//!
//! The default methods ignore their records and go on, so a sink implements only the kinds it
//! takes.

use crate::awr::AwrReport;
use crate::disk::{DeviceLog, DeviceReport, SkippedLine, SystemHeader};
use crate::entity::EntityLog;
use crate::error::ParseError;
use crate::Format;

/// The three kinds of record a format produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    /// Interval records of a database report ([`AwrReport`]).
    Intervals,
    /// Block-device reports of an OS log ([`DeviceReport`]s).
    Devices,
    /// Per-entity metric series of a virtualisation tool ([`EntityLog`]).
    Entities,
}

impl RecordKind {
    /// The kind as the format list writes it: `interval records`, `device reports`,
    /// `entity samples`.
    pub fn label(self) -> &'static str {
        match self {
            RecordKind::Intervals => "interval records",
            RecordKind::Devices => "device reports",
            RecordKind::Entities => "entity samples",
        }
    }
}

/// The start of an OS disk log: given to [`Sink::device_begin`] once, before its first report.
#[derive(Debug, Clone, Copy)]
pub struct DeviceLogStart<'a> {
    /// The format being read.
    pub format: Format,
    /// The first system banner of the log (`Linux 5.8.0 (host) 12/02/2021 _x86_64_ (2 CPU)`,
    /// nmon `AAA` lines, …), when it prints one.
    pub header: Option<&'a SystemHeader>,
}

/// The end of an OS disk log: given to [`Sink::device_end`] once, after its last report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceLogEnd {
    /// Unknown column names, ignored sections, a read that stopped early and similar, each once.
    pub warnings: Vec<String>,
    /// Lines or records left out (truncated or short lines, reports with a bad value), each
    /// with its 1-based line and why.
    pub skipped: Vec<SkippedLine>,
}

/// Where parsers put their records. See the module docs for the order of calls.
///
/// Errors are [`ParseError`]s so that a parser can return them unchanged; a sink that must refuse
/// an input (too many samples, say) returns a [`ParseError::Section`] naming what it expected.
pub trait Sink {
    /// A whole database report (AWR HTML or text, Statspack), with `encoding` and
    /// `source_format` set.
    ///
    /// # Errors
    /// Whatever the sink returns; the parser passes it on.
    fn interval_report(&mut self, report: AwrReport) -> Result<(), ParseError> {
        let _ = report;
        Ok(())
    }

    /// The start of an OS disk log, before its first report. `Ok(false)` stops the parse.
    ///
    /// # Errors
    /// Whatever the sink returns; the parser passes it on.
    fn device_begin(&mut self, start: DeviceLogStart<'_>) -> Result<bool, ParseError> {
        let _ = start;
        Ok(true)
    }

    /// One interval report (or summary) of an OS disk log, in file order. `Ok(false)` stops the
    /// parse.
    ///
    /// # Errors
    /// Whatever the sink returns; the parser passes it on.
    fn device_report(&mut self, report: DeviceReport) -> Result<bool, ParseError> {
        let _ = report;
        Ok(true)
    }

    /// The end of an OS disk log, after its last report: what the parser noticed and tolerated.
    ///
    /// # Errors
    /// Whatever the sink returns; the parser passes it on.
    fn device_end(&mut self, end: DeviceLogEnd) -> Result<(), ParseError> {
        let _ = end;
        Ok(())
    }

    /// Every series of a virtualisation export (vSAN, esxtop, HCIBench).
    ///
    /// # Errors
    /// Whatever the sink returns; the parser passes it on.
    fn entity_log(&mut self, log: EntityLog) -> Result<(), ParseError> {
        let _ = log;
        Ok(())
    }

    /// In a capture whose every line carries a host prefix (the `prefix` module: `pdsh`, `clush`,
    /// `parallel --tag`), the records up to the next call (or to [`Sink::prefixed_end`]) are the
    /// log of `host`: one OS disk log, from its [`Sink::device_begin`] to its
    /// [`Sink::device_end`]. Such a file gives one log per host.
    ///
    /// # Errors
    /// Whatever the sink returns; the parser passes it on.
    fn host_begin(&mut self, host: &str) -> Result<(), ParseError> {
        let _ = host;
        Ok(())
    }

    /// The end of a prefixed capture, after its last host's log: what concerns the file rather
    /// than one host (lines without a prefix, hosts whose lines are no OS disk log), each once.
    ///
    /// # Errors
    /// Whatever the sink returns; the parser passes it on.
    fn prefixed_end(&mut self, warnings: Vec<String>) -> Result<(), ParseError> {
        let _ = warnings;
        Ok(())
    }
}

/// Hands a parsed [`DeviceLog`] to a sink in the documented order (begin, reports, end): what a
/// parser that reads its whole input first (a JSON document, a format whose reports refer to
/// later lines) does at the end.
///
/// # Errors
/// The sink's.
pub fn replay_devices(
    log: DeviceLog,
    format: Format,
    sink: &mut dyn Sink,
) -> Result<(), ParseError> {
    let start = DeviceLogStart {
        format,
        header: log.header.as_ref(),
    };
    if !sink.device_begin(start)? {
        return Ok(());
    }
    for r in log.reports {
        if !sink.device_report(r)? {
            return Ok(());
        }
    }
    sink.device_end(DeviceLogEnd {
        warnings: log.warnings,
        skipped: log.skipped,
    })
}

/// The order of calls of a streaming device parser, kept once: [`DeviceStream::report`] begins
/// the log at its first report (with the banner known by then) and hands each report on;
/// [`DeviceStream::finish`] ends it. A parser that has collected its whole log uses
/// [`replay_devices`] instead.
pub(crate) struct DeviceStream<'s> {
    sink: &'s mut dyn Sink,
    format: Format,
    first_report_since_boot: bool,
    begun: bool,
    stopped: bool,
    first_line: Option<usize>,
    reports: usize,
    device_samples: bool,
}

impl<'s> DeviceStream<'s> {
    /// A stream of `format`'s reports into `sink`; `settings` says whether the first report is
    /// read as since boot.
    pub(crate) fn new(
        sink: &'s mut dyn Sink,
        format: Format,
        settings: &crate::settings::ParseSettings,
    ) -> Self {
        DeviceStream {
            sink,
            format,
            first_report_since_boot: settings.first_report_since_boot,
            begun: false,
            stopped: false,
            first_line: None,
            reports: 0,
            device_samples: false,
        }
    }

    /// Hands one finished report on (beginning the log with `header` at the first). `Ok(false)`
    /// when the sink has had enough: the parser stops reading and returns `Ok`.
    ///
    /// # Errors
    /// The sink's.
    pub(crate) fn report(
        &mut self,
        mut report: DeviceReport,
        header: Option<&SystemHeader>,
    ) -> Result<bool, ParseError> {
        if self.stopped {
            return Ok(false);
        }
        if !self.begun {
            self.begun = true;
            if !self.sink.device_begin(DeviceLogStart {
                format: self.format,
                header,
            })? {
                self.stopped = true;
                return Ok(false);
            }
            if !self.first_report_since_boot {
                report.since_boot = false;
            }
            self.first_line = Some(report.line);
        }
        self.reports += 1;
        self.device_samples |= !report.devices.is_empty();
        if !self.sink.device_report(report)? {
            self.stopped = true;
            return Ok(false);
        }
        Ok(true)
    }

    /// Ends the log with what the parser noticed (nothing when the sink stopped it).
    ///
    /// # Errors
    /// The "no device statistics" [`ParseError::Section`] of [`crate::disk::require_devices`]
    /// when no report had a device line (the records already handed over belong to an input in
    /// error), or the sink's.
    pub(crate) fn finish(
        self,
        warnings: Vec<String>,
        skipped: Vec<SkippedLine>,
    ) -> Result<(), ParseError> {
        if self.stopped {
            return Ok(());
        }
        if !self.device_samples {
            return Err(crate::disk::no_devices(
                self.first_line,
                self.reports,
                self.format.name(),
            ));
        }
        self.sink.device_end(DeviceLogEnd { warnings, skipped })
    }
}

/// One host's log of a prefixed capture, as [`crate::parse_bytes`] collects it
/// ([`crate::Parsed::Hosts`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct HostLog {
    /// The host prefix of its lines.
    pub host: String,
    /// Its lines, read as the OS disk log they are.
    pub log: crate::disk::DeviceLog,
}

/// A sink that keeps every record: the records of one input, as [`crate::parse_bytes`] returns
/// them.
#[derive(Debug, Default)]
pub struct Collect {
    parsed: Option<crate::Parsed>,
    /// A prefixed capture: the hosts' logs so far (the current one is `parsed`).
    hosts: Vec<HostLog>,
    host: Option<String>,
}

impl Collect {
    /// An empty collector.
    pub fn new() -> Self {
        Collect::default()
    }

    /// What was collected: `None` when the parser gave no record at all.
    pub fn into_parsed(mut self) -> Option<crate::Parsed> {
        if self.host.is_some() {
            self.end_host();
            return Some(crate::Parsed::Hosts {
                hosts: self.hosts,
                warnings: Vec::new(),
            });
        }
        self.parsed
    }

    /// Files the current host's log of a prefixed capture.
    fn end_host(&mut self) {
        if let (Some(host), Some(crate::Parsed::Devices(log))) =
            (self.host.take(), self.parsed.take())
        {
            self.hosts.push(HostLog { host, log: *log });
        }
    }

    fn device_log(&mut self) -> Option<&mut DeviceLog> {
        match &mut self.parsed {
            Some(crate::Parsed::Devices(log)) => Some(log),
            _ => None,
        }
    }
}

impl Sink for Collect {
    fn interval_report(&mut self, report: AwrReport) -> Result<(), ParseError> {
        // A second record makes the file a collector capture: every record is kept.
        self.parsed = match self.parsed.take() {
            Some(crate::Parsed::Awr(first)) => Some(crate::Parsed::Intervals {
                reports: vec![*first, report],
            }),
            Some(crate::Parsed::Intervals { mut reports }) => {
                reports.push(report);
                Some(crate::Parsed::Intervals { reports })
            }
            _ => Some(crate::Parsed::Awr(Box::new(report))),
        };
        Ok(())
    }

    fn device_begin(&mut self, start: DeviceLogStart<'_>) -> Result<bool, ParseError> {
        let mut log = DeviceLog::new(start.format.id());
        log.header = start.header.cloned();
        self.parsed = Some(crate::Parsed::Devices(Box::new(log)));
        Ok(true)
    }

    fn device_report(&mut self, report: DeviceReport) -> Result<bool, ParseError> {
        if let Some(log) = self.device_log() {
            log.reports.push(report);
        }
        Ok(true)
    }

    fn device_end(&mut self, end: DeviceLogEnd) -> Result<(), ParseError> {
        if let Some(log) = self.device_log() {
            log.warnings = end.warnings;
            log.skipped = end.skipped;
        }
        Ok(())
    }

    fn entity_log(&mut self, log: EntityLog) -> Result<(), ParseError> {
        self.parsed = Some(crate::Parsed::Entities(Box::new(log)));
        Ok(())
    }

    fn host_begin(&mut self, host: &str) -> Result<(), ParseError> {
        self.end_host();
        self.host = Some(host.to_string());
        Ok(())
    }

    fn prefixed_end(&mut self, warnings: Vec<String>) -> Result<(), ParseError> {
        self.end_host();
        self.parsed = Some(crate::Parsed::Hosts {
            hosts: std::mem::take(&mut self.hosts),
            warnings,
        });
        Ok(())
    }
}
