//! Reading one file: bytes → parser → the engine's sink → a reduced source for one subject.
//!
//! [`read_input`] hands the file to [`sizer_parsers::parse_path_into`], which detects the format
//! from the content and streams it where the format allows (Linux iostat text and Solaris
//! `iostat -x`, gzip'd or not, report by report), into this module's sink. The sink reduces the
//! records in the reader thread, by their kind, never by their format:
//! - interval records (AWR and Statspack reports) are reduced to their model rows and a summary
//!   ([`crate::subject::awr`]); the parsed report is dropped right after;
//! - device reports (OS disk logs) go one at a time into an [`Ingest`], the sink of a host
//!   source;
//! - entity samples (vSAN, esxtop and HCIBench exports) are kept as their series
//!   ([`crate::subject::cluster::VirtSource`]).
//!
//! # Host sources
//! A parser yields `DeviceReport`s; [`Ingest`] keeps, per report, only its time stamp and the
//! host totals of that report ([`crate::figures`]), and per device a few `f32` columns (for
//! percentiles) plus exact running sums and maxima. Memory is bounded by the samples kept (about
//! 4 bytes per device, report and figure kept: total IOPS, MB/s, `r_await`, `w_await`, `await`,
//! queue depth), never by the size of the file.
//!
//! # Which devices make the host total
//! A partition's IO is also counted on its disk, a device-mapper or md device's on the disks
//! below it, and a `-g` group's on its members: adding them would count the same IO twice. By
//! default ([`DeviceSelection::Disks`]) the host total is the sum of whole disks (`DeviceRole::Disk`,
//! see [`sizer_parsers::disk::classify`]); `--devices all` adds every non-group, non-virtual
//! device, `--devices sda,sdb` names them. Excluded devices are still listed with their own
//! figures. When no whole disk is seen, the totals of device-mapper and md devices, and the
//! host-wide totals some logs print (`DeviceSample::host_total`: `sar -b`), are kept as
//! fallbacks for the host analysis.

use std::collections::HashMap;
use std::path::Path;

use chrono::NaiveDateTime;
use sizer_parsers::disk::{classify, DeviceReport, DeviceRole, SkippedLine, SystemHeader};
use sizer_parsers::sink::{DeviceLogEnd, DeviceLogStart};
use sizer_parsers::{ParseError, ParseSettings, Sink};

use crate::model::PolarsError;
use crate::subject::awr::{reduce, ReducedReport};
use crate::subject::cluster::VirtSource;

use crate::figures::*;
use crate::settings::{DeviceSelection, DeviceSettings};

/// What a parser thread hands back: an AWR/Statspack report reduced to its rows, or an OS disk
/// log reduced to its host series.
pub enum Read {
    /// An AWR or Statspack report, reduced to its model rows and a summary.
    Awr(Box<ReducedReport>),
    /// A collector file (AWR Miner, DBCSI): one reduced report per snapshot and instance, in
    /// file order.
    Awrs(Vec<ReducedReport>),
    /// An OS disk log, reduced to its host series and device samples.
    Host(Box<HostSource>),
    /// A capture whose every line carries a host prefix (`pdsh`, `clush`, `parallel --tag`):
    /// one host source per host ([`sizer_parsers::prefix`]), in order of first appearance.
    Hosts(Vec<HostSource>),
    /// A vSAN, esxtop or HCIBench export.
    Virt(Box<VirtSource>),
}

/// Why a file gave no report (its message is the one printed).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The parser's error (not a report, a broken report, an unreadable file).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A report's rows could not become its frame of the model.
    #[error("building the model: {0}")]
    Model(#[from] PolarsError),
    /// A directory (or an entry of it) could not be read while looking for inputs.
    #[error("cannot read the directory: {0}")]
    Directory(#[from] walkdir::Error),
    /// The path is not a regular file (a FIFO, a device, a socket): refused before it is opened,
    /// since reading it could block forever (a FIFO) or never end (`/dev/zero`).
    #[error("not a regular file ({kind}): sizer reads regular files, and `-` for standard input")]
    NotRegular {
        /// `FIFO`, `character device`, `block device`, `socket` or `directory`.
        kind: &'static str,
    },
    /// A file named `*.gz` that is not gzip data and is no report either (a corrupt download).
    #[error("named .gz but not gzip data (it does not start with 1f 8b): {0}")]
    NotGzip(Box<ReadError>),
    /// A symbolic link found in a scanned directory, not followed without `-L`/`--follow`.
    #[error("a symbolic link, not followed (pass -L/--follow to follow links in directories)")]
    Link,
    /// Standard input (`-`) holds more than [`STDIN_LIMIT`] bytes.
    #[error("standard input holds more than {} GiB (decompressed, when it is gzip): save it to a file and pass the file", STDIN_LIMIT >> 30)]
    StdinTooLarge,
}

/// Largest standard input read (`-` is read into memory once, so its format can be detected and
/// it can be parsed without a second read): 4 GiB, as [`sizer_parsers::input::GUNZIP_LIMIT`].
pub const STDIN_LIMIT: u64 = sizer_parsers::input::GUNZIP_LIMIT;

/// Name endings of the files a directory scan treats as meant to be inputs: `.html`, `.htm`,
/// `.txt`, `.lst`, `.log`, `.out`, `.dat`, `.nmon`, `.csv`, `.json`, `.xml`, each optionally
/// followed by `.gz`, and any `.gz`. Such a file that cannot be read as text is a failure, not a
/// skip ([`ReadError::fails_in_directory`]).
pub const REPORT_ENDINGS: &[&str] = &[
    ".html", ".htm", ".txt", ".lst", ".log", ".out", ".dat", ".nmon", ".csv", ".json", ".xml",
    ".gz",
];

/// A file named `*.gz` whose content does not start with the gzip magic bytes (`1f 8b`): a
/// corrupt compressed file, not some other file.
pub(crate) fn is_fake_gzip(path: &Path) -> bool {
    use std::io::Read as _;
    let named = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().ends_with(".gz"));
    let mut magic = [0u8; 2];
    named
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .map_or(true, |()| magic != [0x1F, 0x8B])
}

/// The path names a file meant to be an input (see [`REPORT_ENDINGS`]).
fn looks_like_report(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    REPORT_ENDINGS.iter().any(|e| name.ends_with(e))
}

impl ReadError {
    /// A report that is truncated or lacks a section it needs (or whose model cannot be built)
    /// is a broken report, a failure wherever it was found; anything else is not a report (a
    /// file found in a directory is then skipped).
    pub fn is_broken_report(&self) -> bool {
        matches!(
            self,
            ReadError::Parse(ParseError::Truncated { .. } | ParseError::Section { .. })
                | ReadError::Model(_)
        )
    }

    /// Whether this error, for a file found in a directory, is a failure rather than a skip: a
    /// broken report ([`Self::is_broken_report`]), or a file that looks like a report (its name,
    /// [`REPORT_ENDINGS`], or gzip content) but cannot be read at all: an I/O error, a corrupt
    /// or oversized gzip stream ([`ReadError::NotGzip`] too), an empty file, binary content. A readable text that is no
    /// report (a README, an unrelated CSV) is still skipped.
    pub fn fails_in_directory(&self, path: &Path) -> bool {
        if self.is_broken_report()
            || matches!(
                self,
                ReadError::Parse(ParseError::Gzip { .. } | ParseError::TooLarge { .. })
            )
        {
            return true;
        }
        if matches!(self, ReadError::NotGzip(_)) {
            return true;
        }
        looks_like_report(path)
            && matches!(
                self,
                ReadError::Parse(
                    ParseError::Io { .. } | ParseError::Empty | ParseError::Binary { .. }
                )
            )
    }
}

/// Refuses a path that is not a regular file (after following links), before anything opens it.
///
/// # Errors
/// [`ReadError::NotRegular`], or the parser's [`ParseError::Io`] when the path cannot be
/// looked at (missing, no permission).
pub fn check_regular(path: &Path) -> Result<(), ReadError> {
    let meta = std::fs::metadata(path).map_err(|source| ParseError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    match crate::output::special_kind(&meta) {
        None => Ok(()),
        Some(kind) => Err(ReadError::NotRegular { kind }),
    }
}

/// Reads standard input once, whole, and parses it from memory like a file
/// ([`sizer_parsers::parse_bytes_into`]): its format is detected from the bytes held, so
/// nothing reads it twice. `name` is how it is shown (`-`). It is read under the caps of the
/// command line, as a file is ([`sizer_parsers::input::read_reader_capped`]): at most
/// `limits.max_file_size` bytes, and when it is gzip, decompressed as it is read to at most
/// `limits.max_decompressed_size` bytes; neither more than [`STDIN_LIMIT`].
///
/// # Errors
/// [`ParseError::TooLarge`] past a cap of the command line (naming its flag);
/// [`ReadError::StdinTooLarge`] past [`STDIN_LIMIT`]; the parser's [`ParseError`] (`Io` when
/// reading fails, `Gzip` for a corrupt gzip stream).
pub fn read_stdin(
    name: &str,
    settings: &DeviceSettings,
    limits: &sizer_parsers::input::Limits,
) -> Result<Read, ReadError> {
    // The caps of the command line, and never more than STDIN_LIMIT in memory.
    let caps = sizer_parsers::input::Limits {
        max_file_size: limits.max_file_size.min(STDIN_LIMIT),
        max_decompressed_size: limits.max_decompressed_size.min(STDIN_LIMIT),
    };
    let bytes = sizer_parsers::input::read_reader_capped(
        std::io::stdin().lock(),
        Path::new(name),
        &caps,
        "standard input",
    )
    .map_err(|e| match e {
        // Past STDIN_LIMIT and not past the cap asked for: raising the cap would not help.
        ParseError::TooLarge { limit, flag, .. }
            if limit == STDIN_LIMIT
                && STDIN_LIMIT
                    < match flag {
                        "--max-file-size" => limits.max_file_size,
                        _ => limits.max_decompressed_size,
                    } =>
        {
            ReadError::StdinTooLarge
        }
        e => ReadError::Parse(e),
    })?;
    let mut sink = ReadSink {
        file: name.to_string(),
        selection: &settings.selection,
        host: None,
        read: None,
        hosts: Vec::new(),
        prefix: None,
        prefixed_warnings: Vec::new(),
    };
    let parse = ParseSettings {
        first_report_since_boot: !settings.iostat_y,
        keep_values: false,
    };
    sizer_parsers::parse_bytes_into(&bytes, &parse, &mut sink)?;
    Ok(sink.into_read()?)
}

/// Reads one file, detecting its format from its content, through [`sizer_parsers::parse_path_into`]
/// into the engine's sink: a database report is reduced at once (the parsed form is dropped right
/// away), an OS disk log goes report by report into its host series (streamed from the file where
/// the format allows: any size, gzip'd or not), a virtualisation export is kept as its series.
///
/// With [`DeviceSettings::iostat_y`] the parsers read the first report of an OS log as an
/// interval ([`ParseSettings::first_report_since_boot`]); the engine keeps only the normalised
/// figures of each device ([`ParseSettings::keep_values`] off).
///
/// # Errors
/// The parser's [`ParseError`] (the file is not a report, is broken, or cannot be read).
pub fn read_input(path: &Path, settings: &DeviceSettings) -> Result<Read, ParseError> {
    read_input_limited(path, settings, &sizer_parsers::input::Limits::default())
}

/// [`read_input`] under caps on the file's size and decompressed size
/// ([`sizer_parsers::parse_path_into_limited`]).
///
/// # Errors
/// As [`read_input`]; [`ParseError::TooLarge`] past a cap.
pub fn read_input_limited(
    path: &Path,
    settings: &DeviceSettings,
    limits: &sizer_parsers::input::Limits,
) -> Result<Read, ParseError> {
    let parse = ParseSettings {
        first_report_since_boot: !settings.iostat_y,
        keep_values: false,
    };
    let mut sink = ReadSink {
        file: path.display().to_string(),
        selection: &settings.selection,
        host: None,
        read: None,
        hosts: Vec::new(),
        prefix: None,
        prefixed_warnings: Vec::new(),
    };
    sizer_parsers::parse_path_into_limited(path, &parse, limits, &mut sink)?;
    sink.into_read()
}

/// The engine's sink for one file: each kind of record to the reduction of its subject.
struct ReadSink<'a> {
    file: String,
    selection: &'a DeviceSelection,
    /// The host source being built, from the first [`Sink::device_begin`].
    host: Option<Ingest<'a>>,
    /// A database report or a virtualisation export, once received.
    read: Option<Read>,
    /// A prefixed capture: the hosts' sources already read (the current one is `host`).
    hosts: Vec<HostSource>,
    /// A prefixed capture: the host prefix of the lines being read.
    prefix: Option<String>,
    /// A prefixed capture: what concerns the file, said in every host's warnings.
    prefixed_warnings: Vec<String>,
}

impl ReadSink<'_> {
    /// What the file gave.
    ///
    /// # Errors
    /// [`ParseError::UnknownFormat`] when the parser gave no record at all.
    fn into_read(mut self) -> Result<Read, ParseError> {
        if self.prefix.is_some() {
            self.end_host();
            let notes = std::mem::take(&mut self.prefixed_warnings);
            for h in &mut self.hosts {
                h.warnings.extend(notes.iter().cloned());
            }
            return Ok(Read::Hosts(self.hosts));
        }
        if let Some(host) = self.host {
            return Ok(Read::Host(Box::new(host.into_source())));
        }
        self.read.ok_or_else(|| ParseError::UnknownFormat {
            reason: "the parser gave no record".into(),
        })
    }
}

impl ReadSink<'_> {
    /// Files the current host's source of a prefixed capture.
    fn end_host(&mut self) {
        if let Some(host) = self.host.take() {
            let mut src = host.into_source();
            src.host_prefix = self.prefix.clone();
            self.hosts.push(src);
        }
    }
}

impl Sink for ReadSink<'_> {
    fn host_begin(&mut self, host: &str) -> Result<(), ParseError> {
        self.end_host();
        self.prefix = Some(host.to_string());
        Ok(())
    }

    fn prefixed_end(&mut self, warnings: Vec<String>) -> Result<(), ParseError> {
        self.prefixed_warnings = warnings;
        Ok(())
    }

    fn interval_report(&mut self, report: sizer_parsers::awr::AwrReport) -> Result<(), ParseError> {
        let mut report = report;
        if report.db.db_id == 0 && report.format() == sizer_parsers::Format::AwrMiner {
            if let Some(id) = db_id_from_name(&self.file) {
                report.db.db_id = id;
                if !report.warnings.is_empty() {
                    report
                        .warnings
                        .push(format!("DB Id {id} taken from the file name"));
                }
            }
        }
        let reduced = reduce(self.file.clone(), report);
        self.read = match self.read.take() {
            Some(Read::Awr(first)) => Some(Read::Awrs(vec![*first, reduced])),
            Some(Read::Awrs(mut all)) => {
                all.push(reduced);
                Some(Read::Awrs(all))
            }
            _ => Some(Read::Awr(Box::new(reduced))),
        };
        Ok(())
    }

    fn device_begin(&mut self, start: DeviceLogStart<'_>) -> Result<bool, ParseError> {
        let host = self
            .host
            .get_or_insert_with(|| Ingest::new(&self.file, start.format.id(), self.selection));
        host.device_begin(start)
    }

    fn device_report(&mut self, report: DeviceReport) -> Result<bool, ParseError> {
        match &mut self.host {
            Some(host) => host.device_report(report),
            None => Ok(true),
        }
    }

    fn device_end(&mut self, end: DeviceLogEnd) -> Result<(), ParseError> {
        match &mut self.host {
            Some(host) => host.device_end(end),
            None => Ok(()),
        }
    }

    fn entity_log(&mut self, log: sizer_parsers::entity::EntityLog) -> Result<(), ParseError> {
        self.read = Some(Read::Virt(Box::new(VirtSource {
            file: self.file.clone(),
            log,
        })));
        Ok(())
    }
}

/// The DB Id in a collector file's name, for captures whose `OS-INFORMATION` has no `DBID`
/// (AWR Miner before 3.0.21): the first all-digit `-`-separated token of the file name, which is
/// the DB Id in AWR Miner's `awr-hist-<DBID>-<DBNAME>-<min>-<max>.out` and in DBCSI's
/// `awr-hist-<DBNAME>-<DBID>-<min>-<max>.out` (the snapshot ids come after it).
fn db_id_from_name(file: &str) -> Option<u64> {
    let name = Path::new(file).file_name()?.to_string_lossy().into_owned();
    name.split(['-', '.', '_'])
        .find(|t| t.len() >= 4 && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse().ok())
}

/// A column of `f32` grown in fixed chunks: no doubling of capacity (a `Vec` that grows by
/// doubling can hold twice its length), so memory is 4 bytes per value plus one chunk.
#[derive(Debug, Clone, Default)]
pub(crate) struct Col {
    pub(crate) chunks: Vec<Vec<f32>>,
}

impl Col {
    const CHUNK: usize = 4096;

    pub(crate) fn push(&mut self, v: f32) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < Self::CHUNK => c.push(v),
            _ => {
                let mut c = Vec::with_capacity(Self::CHUNK);
                c.push(v);
                self.chunks.push(c);
            }
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = f32> + '_ {
        self.chunks.iter().flat_map(|c| c.iter().copied())
    }
}

/// One device's samples from one source.
#[derive(Debug, Clone)]
pub(crate) struct DevSeries {
    pub(crate) name: String,
    pub(crate) role: DeviceRole,
    pub(crate) included: bool,
    /// A partition whose disk some report does not list: the reports in which it stood in for
    /// that disk in the host total (`iostat -p sda1`; see [`Ingest::push`]).
    pub(crate) stood_in: u32,
    /// It stood in for its disk in some report (an interval, a summary or a since-boot one).
    pub(crate) stood_in_any: bool,
    /// Since-boot reports in which it stood in (what [`DevSeries::boot_series`] counts).
    pub(crate) stood_in_boot: u32,
    /// The partition's disk by name ([`sizer_parsers::disk::parent_disk`]), and its index once
    /// the log has listed it.
    pub(crate) parent: Option<(String, Option<usize>)>,
    /// The last report (index) that listed this device.
    pub(crate) last_report: Option<u32>,
    /// Samples (interval reports) pushed.
    pub(crate) samples: usize,
    /// Kept figures ([`KEPT`]); `None` until a value appears; NaN = unknown.
    pub(crate) kept: [Option<Col>; KEPT.len()],
    pub(crate) sum: [f64; NF],
    /// Weights of `sum` (1 per sample, or the requests behind a ratio).
    pub(crate) wsum: [f64; NF],
    pub(crate) n: [u32; NF],
    pub(crate) max: [Option<(f64, u32)>; NF],
    /// Samples of since-boot reports (used only when a log has no interval report).
    pub(crate) boot: Vec<(u32, [Option<f64>; NF])>,
}

impl DevSeries {
    pub(crate) fn new(name: &str, role: DeviceRole, included: bool) -> Self {
        DevSeries {
            name: name.to_string(),
            role,
            included,
            stood_in: 0,
            stood_in_any: false,
            stood_in_boot: 0,
            parent: (role == DeviceRole::Partition)
                .then(|| sizer_parsers::disk::parent_disk(name).map(|p| (p, None)))
                .flatten(),
            last_report: None,
            samples: 0,
            kept: Default::default(),
            sum: [0.0; NF],
            wsum: [0.0; NF],
            n: [0; NF],
            max: [None; NF],
            boot: Vec::new(),
        }
    }

    /// A series of the since-boot samples only.
    pub(crate) fn boot_series(&self) -> DevSeries {
        let mut d = DevSeries::new(&self.name, self.role, self.included);
        d.stood_in_any = self.stood_in_boot > 0;
        d.stood_in = self.stood_in_boot;
        d.parent = self.parent.clone();
        for (r, f) in &self.boot {
            d.push(*r, f);
        }
        d
    }

    pub(crate) fn push(&mut self, report: u32, f: &[Option<f64>; NF]) {
        let k = self.samples;
        self.samples += 1;
        for (slot, &fi) in KEPT.iter().enumerate() {
            match (f[fi], &mut self.kept[slot]) {
                (Some(v), Some(col)) => col.push(v as f32),
                (Some(v), none @ None) => {
                    let mut col = Col::default();
                    for _ in 0..k {
                        col.push(f32::NAN);
                    }
                    col.push(v as f32);
                    *none = Some(col);
                }
                (None, Some(col)) => col.push(f32::NAN),
                (None, None) => {}
            }
        }
        for (i, v) in f.iter().enumerate() {
            if let Some(v) = *v {
                // Ratios (latency, IO size) are weighted by the requests behind them, so an idle
                // sample's 0.00 ms does not pull the average down.
                let w = match i {
                    R_AWAIT => f[READ_IOPS],
                    W_AWAIT => f[WRITE_IOPS],
                    AWAIT | AVG_IO_KIB => f[TOTAL_IOPS],
                    _ => Some(1.0),
                }
                .unwrap_or(1.0);
                self.sum[i] += v * w;
                self.wsum[i] += w;
                self.n[i] += 1;
                if self.max[i].is_none_or(|(m, _)| v > m) {
                    self.max[i] = Some((v, report));
                }
            }
        }
    }
}

/// Host totals of one report.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HostRow {
    pub(crate) v: HostFigures,
    pub(crate) devices: u32,
}

/// Per report: what the time resolution and the series need.
#[derive(Debug, Clone)]
pub(crate) struct Meta {
    pub(crate) timestamp: Option<String>,
    pub(crate) time: Option<NaiveDateTime>,
    pub(crate) utc: bool,
    pub(crate) interval_s: Option<f64>,
    pub(crate) since_boot: bool,
    pub(crate) summary: bool,
    pub(crate) line: usize,
}

/// One OS disk log reduced to its host series and device samples.
#[derive(Debug, Clone)]
pub struct HostSource {
    /// Path as given.
    pub file: String,
    /// Format id (`iostat_text`, `sar_text`, …).
    pub format: String,
    /// The banner.
    pub header: Option<SystemHeader>,
    /// The host prefix of a capture whose every line carried one (`pdsh`, `clush`, `parallel
    /// --tag`): this source is the lines of that host ([`sizer_parsers::prefix`]).
    pub host_prefix: Option<String>,
    pub(crate) metas: Vec<Meta>,
    pub(crate) rows: Vec<HostRow>,
    /// Totals over device-mapper and md devices, kept when the default selection finds no whole
    /// disk (empty otherwise).
    pub(crate) alt_rows: Vec<HostRow>,
    /// Some read/write splits came from `sar -b`.
    pub(crate) split_from_sar_b: bool,
    /// `sar -b` totals per report (empty without `sar -b`).
    pub(crate) b_rows: Vec<HostRow>,
    /// Intervals whose devices' tps did not match `sar -b` (its split was not used there).
    pub(crate) sar_b_mismatch: usize,
    pub(crate) devices: Vec<DevSeries>,
    /// Parser warnings.
    pub warnings: Vec<String>,
    /// Lines the parser left out.
    pub skipped: Vec<SkippedLine>,
}

/// Builds a [`HostSource`] one report at a time: the [`Sink`] of an OS disk log (a streaming
/// parser hands over each report as it completes). [`Sink::device_begin`] sets the format id and
/// the banner, [`Sink::device_report`] is [`Ingest::push`], [`Sink::device_end`] is
/// [`Ingest::finish`]; [`Ingest::into_source`] gives the source.
pub struct Ingest<'a> {
    pub(crate) src: HostSource,
    pub(crate) index: HashMap<(String, bool), usize>,
    pub(crate) selection: &'a DeviceSelection,
    /// `sar -b` samples (a host-wide read/write split) by report.
    pub(crate) sar_b: HashMap<usize, [Option<f64>; NF]>,
    /// A device-mapper or md device was seen (see [`HostSource`]'s `alt_rows`).
    pub(crate) has_alt: bool,
    /// A selected device has been seen: the fallback totals are not kept.
    pub(crate) seen_disk: bool,
    /// [`Ingest::finish`] has run.
    pub(crate) finished: bool,
}

impl<'a> Ingest<'a> {
    /// Starts a source.
    pub fn new(file: &str, format: &str, selection: &'a DeviceSelection) -> Self {
        Ingest {
            src: HostSource {
                file: file.to_string(),
                format: format.to_string(),
                header: None,
                host_prefix: None,
                metas: Vec::new(),
                rows: Vec::new(),
                alt_rows: Vec::new(),
                split_from_sar_b: false,
                b_rows: Vec::new(),
                sar_b_mismatch: 0,
                devices: Vec::new(),
                warnings: Vec::new(),
                skipped: Vec::new(),
            },
            index: HashMap::new(),
            selection,
            sar_b: HashMap::new(),
            has_alt: false,
            seen_disk: false,
            finished: false,
        }
    }

    /// Sets the banner.
    pub fn header(&mut self, h: Option<SystemHeader>) {
        self.src.header = h;
    }

    /// Adds one report.
    pub fn push(&mut self, r: &DeviceReport) {
        let ri = self.src.metas.len() as u32;
        self.src.metas.push(Meta {
            timestamp: r.timestamp.clone(),
            time: r.time,
            utc: r.utc,
            interval_s: r.interval_s,
            since_boot: r.since_boot,
            summary: r.summary,
            line: r.line,
        });
        let mut sar_b = None;
        let mut main: Vec<[Option<f64>; NF]> = Vec::new();
        let mut alt: Vec<[Option<f64>; NF]> = Vec::new();
        // First the devices of this report (so that a partition listed before its disk knows
        // the disk is there), then their figures.
        let mut listed: Vec<(usize, [Option<f64>; NF])> = Vec::with_capacity(r.devices.len());
        for d in &r.devices {
            if d.host_total {
                sar_b = Some(figures_of(&d.normalised));
                continue;
            }
            let key = (d.device.clone(), d.group);
            let idx = match self.index.get(&key) {
                Some(&i) => i,
                None => {
                    let role = classify(&d.device, d.group);
                    let inc = self.selection.includes(&d.device, role) && !d.group;
                    self.src.devices.push(DevSeries::new(&d.device, role, inc));
                    self.index.insert(key, self.src.devices.len() - 1);
                    self.src.devices.len() - 1
                }
            };
            self.src.devices[idx].last_report = Some(ri);
            listed.push((idx, figures_of(&d.normalised)));
        }
        for (idx, f) in listed {
            if r.since_boot {
                self.src.devices[idx].boot.push((ri, f));
            } else if !r.summary {
                self.src.devices[idx].push(ri, &f);
            }
            let role = self.src.devices[idx].role;
            if self.src.devices[idx].included {
                main.push(f);
            } else if self.selection == &DeviceSelection::Disks && self.stands_in(idx, ri) {
                // A partition whose disk this report does not list (`iostat -p sda1`): its IO
                // is its disk's, so it stands in for the disk.
                let dv = &mut self.src.devices[idx];
                dv.stood_in_any = true;
                if r.since_boot {
                    dv.stood_in_boot += 1;
                } else if !r.summary {
                    dv.stood_in += 1;
                }
                main.push(f);
            } else if self.selection == &DeviceSelection::Disks
                && matches!(role, DeviceRole::Mapper | DeviceRole::SoftwareRaid)
            {
                alt.push(f);
            }
        }
        let mut row = host_row(&main);
        if let Some(c) = &r.cpu {
            row.v[CPU_BUSY] = c.busy_pct;
            row.v[CPU_IOWAIT] = c.iowait_pct;
        }
        if !alt.is_empty() && !self.has_alt && !self.seen_disk {
            self.has_alt = true;
            self.src.alt_rows = vec![HostRow::default(); self.src.rows.len()];
        }
        if self.has_alt {
            self.src.alt_rows.push(host_row(&alt));
        }
        if let Some(b) = sar_b {
            self.sar_b.insert(self.src.rows.len(), b);
        }
        // Once a whole disk is seen, the device-mapper fallback is not needed.
        if row.devices > 0 && self.has_alt {
            self.has_alt = false;
            self.src.alt_rows = Vec::new();
        }
        if row.devices > 0 {
            self.seen_disk = true;
        }
        self.src.rows.push(row);
    }

    /// True when device `idx` is a partition whose disk report `ri` does not list (the disk's
    /// index is looked up once the log has listed it, then kept).
    fn stands_in(&mut self, idx: usize, ri: u32) -> bool {
        let Some((name, found)) = &self.src.devices[idx].parent else {
            return false;
        };
        let parent = match found {
            Some(p) => Some(*p),
            None => self.index.get(&(name.clone(), false)).copied(),
        };
        if let (Some(p), Some((_, slot))) = (parent, self.src.devices[idx].parent.as_mut()) {
            *slot = Some(p);
        }
        parent.is_none_or(|p| self.src.devices[p].last_report != Some(ri))
    }

    /// Finishes the source with the parser's warnings and skipped lines: takes the host
    /// read/write split from the host-wide totals (`sar -b`) where the disk rows have none.
    pub fn finish(&mut self, warnings: Vec<String>, skipped: Vec<SkippedLine>) {
        self.finished = true;
        // Host read/write split from `sar -b` where the disk rows have none (`sar -d` prints tps
        // only).
        // Only where `sar -b` describes the same devices: its tps must match the devices' total
        // (within 5 % + 0.05); a partial `--devices` selection or stacked devices do not.
        let mut used_b = false;
        let mut mismatched = 0usize;
        let n = self.src.rows.len();
        for (k, row) in self
            .src
            .rows
            .iter_mut()
            .chain(self.src.alt_rows.iter_mut())
            .enumerate()
        {
            let Some(b) = self.sar_b.get(&(k % n.max(1))) else {
                continue;
            };
            if row.v[READ_IOPS].is_none() && row.v[WRITE_IOPS].is_none() && row.devices > 0 {
                match (row.v[TOTAL_IOPS], b[TOTAL_IOPS]) {
                    (Some(t), Some(bt)) if (t - bt).abs() <= 0.05 + 0.05 * bt => {
                        row.v[READ_IOPS] = b[READ_IOPS];
                        row.v[WRITE_IOPS] = b[WRITE_IOPS];
                        used_b |= b[READ_IOPS].is_some();
                    }
                    _ => mismatched += 1,
                }
            }
        }
        if !self.sar_b.is_empty() {
            self.src.b_rows = (0..n)
                .map(|k| match self.sar_b.get(&k) {
                    Some(f) => HostRow {
                        v: std::array::from_fn(|i| f[i]),
                        devices: 1,
                    },
                    None => HostRow::default(),
                })
                .collect();
        }
        // The host CPU belongs to the report: the fallback totals (device-mapper, `sar -b`) get
        // the one the main rows carry.
        for k in 0..n {
            let cpu = [self.src.rows[k].v[CPU_BUSY], self.src.rows[k].v[CPU_IOWAIT]];
            for other in [&mut self.src.alt_rows, &mut self.src.b_rows] {
                if let Some(r) = other.get_mut(k) {
                    [r.v[CPU_BUSY], r.v[CPU_IOWAIT]] = cpu;
                }
            }
        }
        self.src.warnings = warnings;
        self.src.split_from_sar_b = used_b;
        self.src.sar_b_mismatch = mismatched;
        self.src.skipped = skipped;
    }

    /// The source built, finished (without warnings or skipped lines) if [`Ingest::finish`] has
    /// not run.
    pub fn into_source(mut self) -> HostSource {
        if !self.finished {
            self.finish(Vec::new(), Vec::new());
        }
        self.src
    }
}

impl Sink for Ingest<'_> {
    fn device_begin(&mut self, start: DeviceLogStart<'_>) -> Result<bool, ParseError> {
        self.src.format = start.format.id().to_string();
        if start.header.is_some() {
            self.header(start.header.cloned());
        }
        Ok(true)
    }

    fn device_report(&mut self, report: DeviceReport) -> Result<bool, ParseError> {
        self.push(&report);
        Ok(true)
    }

    fn device_end(&mut self, end: DeviceLogEnd) -> Result<(), ParseError> {
        self.finish(end.warnings, end.skipped);
        Ok(())
    }
}

/// Host totals of one report from its selected devices' figures: requests, MB/s and queue
/// depth summed (unknown when any device lacks the figure), latencies weighted by requests.
pub(crate) fn host_row(devs: &[[Option<f64>; NF]]) -> HostRow {
    let mut row = HostRow {
        devices: devs.len() as u32,
        ..HostRow::default()
    };
    if devs.is_empty() {
        return row;
    }
    for i in SUMMED {
        row.v[i] = devs.iter().map(|f| f[i]).sum::<Option<f64>>();
    }
    for (iops, l) in WEIGHTED {
        let (mut s, mut n, mut ok) = (0.0, 0.0, true);
        for f in devs {
            match (f[iops], f[l]) {
                (Some(k), Some(ms)) => {
                    s += k * ms;
                    n += k;
                }
                // A device that served requests without a latency: the weighted figure is unknown.
                (Some(k), None) if k > 0.0 => ok = false,
                (None, _) => ok = false,
                _ => {}
            }
        }
        row.v[l] = (ok && n > 0.0).then(|| s / n);
    }
    row.v[AVG_IO_KIB] = match (row.v[TOTAL_MB], row.v[TOTAL_IOPS]) {
        (Some(mb), Some(i)) if i > 0.0 => Some(mb * 1e6 / i / 1024.0),
        _ => None,
    };
    row
}
