//! The orchestrator: paths → files read in parallel → duplicates dropped → subjects → [`Run`].
//!
//! 1. [`discover`] expands directories recursively; every file is tried and its format detected
//!    from its content. A file named on the command line that cannot be read is a [`Failure`];
//!    a file found inside a directory that is not a report is [`Skipped`] with the reason, unless
//!    it looks like a report and cannot be read at all (a corrupt `.gz`, an empty `.html`:
//!    [`ReadError::fails_in_directory`]). Symbolic links inside directories are not followed
//!    unless asked ([`discover_with`]); paths that are not regular files are refused before they
//!    are opened; `-` is standard input, read once.
//! 2. Files are read in parallel (rayon), a bounded batch at a time, by
//!    [`crate::ingest::read_input`]: each worker reduces its file at once (a report to its model
//!    rows and a summary, an OS disk log to its host series, an export to its entity series), so
//!    memory grows with what is kept, not with the files.
//! 3. Back on the calling thread (polars has its own pool), reports of the same database, instance
//!    and snapshot interval are counted once ([`Duplicate`]); each other report gets its figures
//!    and keeps only the few rows read again later ([`crate::subject::awr`],
//!    [`crate::metrics::kept`]); a run of more than [`Settings::spill_after`] inputs holds
//!    those rows and the report's analysis in a temporary file ([`crate::held`]). With `--export`, its full rows are handed at once, as its frame
//!    of the model, to a [`ModelSink`] (the streaming export, `ModelExport` of the export module), and
//!    dropped: the run never holds every row of every report.
//! 4. The subjects: databases ([`crate::subject::database`]), hosts ([`crate::subject::host`],
//!    with the AWR figures of the same host beside them, [`crate::subject::side_by_side`]) and
//!    clusters ([`crate::subject::cluster`]). Each is sized through [`crate::sizing`].
//! 5. The databases' (and the hosts') series are added per aligned interval
//!    ([`crate::consolidate`]): the shared demand, sized as one layout with `--consolidate`.
//! 6. The [`Run`] holds every result and the series frames (for `--export`).
//!
//! Nothing below this module imports it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::RunError;
pub(crate) use crate::held::Reports;
use crate::held::{Held, ReportList};
use crate::ingest::{check_regular, read_input_limited, read_stdin, Read, ReadError};
use crate::model::{DataFrame, Model};
use crate::rules::RuleSet;
use crate::settings::Settings;
use crate::subject::awr::{
    duplicate_key, fingerprint, finish, formula_of, DuplicateKey, ReportInfo,
};
use crate::subject::database::{databases, DatabaseAnalysis};
use crate::subject::{cluster, host, side_by_side};

/// A file named on the command line that could not be analysed.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Path as given.
    pub file: String,
    /// The error, one line (the cause's message).
    pub error: String,
    /// The typed cause (the parser's error with its file, line and section, or the directory
    /// walk's); `None` only for a failure made by a caller of [`run_inputs`].
    #[serde(skip)]
    pub cause: Option<Arc<ReadError>>,
}

/// A file found in a directory that is not a readable report.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    /// Path as found.
    pub file: String,
    /// Why it was skipped, one line (the cause's message).
    pub reason: String,
    /// The typed cause.
    #[serde(skip)]
    pub cause: Option<Arc<ReadError>>,
}

/// A report of an interval already covered by another report.
#[derive(Debug, Clone, Serialize)]
pub struct Duplicate {
    /// The file counted once more.
    pub file: String,
    /// The file that was kept.
    pub duplicate_of: String,
    /// The two disagree on `physical read/write total IO requests`, `… total bytes` or
    /// `redo writes`: not a copy, a conflict (an edited file or a cloned database that kept its
    /// DB Id); the first one read is kept.
    pub differs: bool,
}

/// All results of one run.
#[derive(Debug)]
pub struct Run {
    /// One per readable, non-duplicate report, in input order (in memory, or in the spill file
    /// of a large run: [`crate::held`]).
    pub analyses: ReportList,
    /// One per database, in order of first appearance.
    pub databases: Vec<DatabaseAnalysis>,
    /// Files named on the command line that could not be analysed.
    pub failures: Vec<Failure>,
    /// Files found in directories that were not readable reports.
    pub skipped: Vec<Skipped>,
    /// Reports of an interval already covered.
    pub duplicates: Vec<Duplicate>,
    /// The interval series of every database (see `series_frame`).
    pub series: DataFrame,
    /// One per host of the OS disk logs (iostat, sar, sadf, nmon, OSWatcher, …).
    pub hosts: Vec<host::HostAnalysis>,
    /// The host series (see [`host::series_frame`]).
    pub host_series: DataFrame,
    /// One per cluster, host or test run of the virtualisation exports (vSAN, esxtop, HCIBench).
    pub virtual_: Vec<cluster::VirtAnalysis>,
    /// `--capacity-file` rows refused (a bad unit, a negative size, a duplicate key) or matched
    /// by no database or host, by line; empty without the file.
    pub capacity_rows: Vec<crate::capacity::RefusedRow>,
    /// What each analysed report says of itself beyond its rows (identity, instances, snapshot
    /// precision, parser warnings), in the order of [`Run::analyses`]: the export's reports table
    /// carries it so that `--from-export` can rebuild the run.
    pub(crate) infos: Vec<(String, ReportInfo)>,
    /// The databases' and the hosts' series added per aligned interval
    /// ([`crate::consolidate`]); sized as one shared layout with `--consolidate`.
    pub consolidation: crate::consolidate::Consolidations,
}

/// Where the full rows of each report go as the report is finished (`--export`): one report's
/// frame of the model ([`Model`], columns [`crate::model::COLUMNS`]) at a time, in input order,
/// duplicates left out. The run keeps none of these rows.
pub trait ModelSink: Send {
    /// One report's rows. A sink that fails keeps its error for when it is finished (the run
    /// and its report go on).
    fn report(&mut self, part: Model);
}

/// The reports seen so far, by identity ([`duplicate_key`]), with the file first read and the
/// figures copies must agree on.
#[derive(Default)]
pub(crate) struct Seen(HashMap<DuplicateKey, (String, Vec<Option<f64>>)>);

impl Seen {
    /// `None` for a report not seen before (now remembered), else the [`Duplicate`] it is.
    pub(crate) fn check(&mut self, file: &str, info: &ReportInfo) -> Option<Duplicate> {
        let key = duplicate_key(info);
        let figures = fingerprint(info);
        if let Some((first, first_figures)) = self.0.get(&key) {
            return Some(Duplicate {
                file: file.to_string(),
                duplicate_of: first.clone(),
                differs: *first_figures != figures,
            });
        }
        self.0.insert(key, (file.to_string(), figures));
        None
    }
}

/// A file to read and whether the user named it.
#[derive(Debug, Clone)]
pub struct Input {
    /// The path.
    pub path: PathBuf,
    /// Named on the command line (an error is a failure) or found in a directory (skipped).
    pub explicit: bool,
    /// What the path is.
    pub kind: InputKind,
}

/// What an [`Input`]'s path stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A path to open (refused when it is not a regular file).
    File,
    /// Standard input: `-`, or `/dev/stdin` (`/dev/fd/0`, `/proc/self/fd/0`) when that is not a
    /// regular file. Read once, into memory.
    Stdin,
    /// A symbolic link found in a directory scanned without following links: skipped.
    Link,
}

/// The names of standard input other than `-`.
const STDIN_ALIASES: &[&str] = &["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];

/// Whether `p`, named on the command line, is standard input: `-`, or one of its `/dev` names
/// when that is a pipe or terminal rather than a redirected regular file (which is read as a
/// file).
fn is_stdin(p: &Path) -> bool {
    p == Path::new("-")
        || (STDIN_ALIASES.iter().any(|a| p == Path::new(a))
            && !std::fs::metadata(p).is_ok_and(|m| m.is_file()))
}

/// Expands directories recursively (files sorted by path within each directory), not following
/// symbolic links found inside them: as [`discover_with`] with `follow` false.
pub fn discover(paths: &[PathBuf]) -> (Vec<Input>, Vec<Failure>) {
    discover_with(paths, false)
}

/// Expands directories recursively (files sorted by path within each directory).
///
/// Paths named here are taken as given (a link named on the command line is followed). Inside a
/// directory, a symbolic link is followed only with `follow` (`-L`/`--follow`, as fd and
/// ripgrep); otherwise it becomes an [`InputKind::Link`] input, listed as skipped, so a link to
/// `/etc` is never read. Entries that are neither files nor directories (FIFOs, sockets) are
/// inputs too, refused unread when they are read. `-` is standard input.
///
/// A path that does not exist, or a directory entry that cannot be read, is a [`Failure`].
pub fn discover_with(paths: &[PathBuf], follow: bool) -> (Vec<Input>, Vec<Failure>) {
    let mut inputs: Vec<Input> = Vec::new();
    let mut failures = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |path: PathBuf, explicit: bool, kind: InputKind, inputs: &mut Vec<Input>| {
        // The same file given twice (or reached twice through links) is read once; a link not
        // followed is its own entry.
        let key = match kind {
            InputKind::Stdin => PathBuf::from("-"),
            InputKind::Link => path.clone(),
            InputKind::File => std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone()),
        };
        if seen.insert((kind == InputKind::Link, key)) {
            inputs.push(Input {
                path,
                explicit,
                kind,
            });
        }
    };
    for p in paths {
        if is_stdin(p) {
            add(p.clone(), true, InputKind::Stdin, &mut inputs);
        } else if p.is_dir() {
            // walkdir reports a link loop as an error (with `follow`).
            for entry in walkdir::WalkDir::new(p)
                .follow_links(follow)
                .sort_by_file_name()
            {
                match entry {
                    Ok(e) if e.file_type().is_dir() => {}
                    Ok(e) if e.file_type().is_symlink() => {
                        add(e.into_path(), false, InputKind::Link, &mut inputs)
                    }
                    Ok(e) => add(e.into_path(), false, InputKind::File, &mut inputs),
                    Err(e) => {
                        let file = e
                            .path()
                            .map(|p| p.display().to_string())
                            .unwrap_or_else(|| p.display().to_string());
                        let cause = ReadError::from(e);
                        failures.push(Failure {
                            file,
                            error: cause.to_string(),
                            cause: Some(Arc::new(cause)),
                        })
                    }
                }
            }
        } else {
            add(p.clone(), true, InputKind::File, &mut inputs);
        }
    }
    (inputs, failures)
}

/// Reads one input by its kind: a link not followed is refused, a path that is not a regular
/// file is refused before it is opened, standard input is read once from memory.
fn read_one(
    inp: &Input,
    devices: &crate::settings::DeviceSettings,
    limits: &sizer_parsers::input::Limits,
) -> Result<Read, ReadError> {
    match inp.kind {
        InputKind::Link => Err(ReadError::Link),
        InputKind::Stdin => read_stdin(&inp.path.display().to_string(), devices, limits),
        InputKind::File => {
            check_regular(&inp.path)?;
            read_input_limited(&inp.path, devices, limits).map_err(|e| {
                let e = ReadError::from(e);
                if crate::ingest::is_fake_gzip(&inp.path) {
                    ReadError::NotGzip(Box::new(e))
                } else {
                    e
                }
            })
        }
    }
}

/// Reads, parses and sizes every input.
///
/// # Errors
/// [`RunError::Model`] when the model or a series frame cannot be built; per-file problems
/// become [`Failure`]s
/// or [`Skipped`] entries.
pub fn run(paths: &[&Path], rules: &RuleSet, settings: &Settings) -> Result<Run, RunError> {
    let inputs: Vec<Input> = paths
        .iter()
        .map(|p| Input {
            path: p.to_path_buf(),
            explicit: true,
            kind: if is_stdin(p) {
                InputKind::Stdin
            } else {
                InputKind::File
            },
        })
        .collect();
    run_inputs(inputs, Vec::new(), rules, settings)
}

/// As [`run`], on inputs already discovered (see [`discover`]).
///
/// # Errors
/// As [`run`].
pub fn run_inputs(
    inputs: Vec<Input>,
    failures: Vec<Failure>,
    rules: &RuleSet,
    settings: &Settings,
) -> Result<Run, RunError> {
    run_inputs_into(inputs, failures, rules, settings, None)
}

/// As [`run_inputs`], handing each report's full rows to `rows` as the report is finished
/// (`--export`: see [`ModelSink`]).
///
/// # Errors
/// As [`run`].
pub fn run_inputs_into(
    inputs: Vec<Input>,
    mut failures: Vec<Failure>,
    rules: &RuleSet,
    settings: &Settings,
    mut rows: Option<&mut dyn ModelSink>,
) -> Result<Run, RunError> {
    let bar = if settings.progress {
        let pb = indicatif::ProgressBar::new(inputs.len() as u64);
        pb.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {pos}/{len} files read [{elapsed_precise}] {wide_bar} {rate}, {eta} left",
            )
            .map(|s| {
                // indicatif's `{per_sec}` prints four decimals; a whole number of files/s reads.
                s.with_key(
                    "rate",
                    |st: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} files/s", st.per_sec());
                    },
                )
            })
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb
    } else {
        indicatif::ProgressBar::hidden()
    };
    let (formula, formula_info) = formula_of(rules);
    // Parse in parallel, a bounded batch at a time, so that only one batch of reports' rows is
    // alive before each report is reduced to its figures and kept rows.
    let batch_len = rayon::current_num_threads().max(1) * 8;
    let mut skipped = Vec::new();
    let mut duplicates = Vec::new();
    // One report per input is the rule (a collector file gives several): reserved once, the
    // lists do not double past the reports they hold.
    // A large run holds its reports' analyses and kept rows in the spill file (crate::held).
    let spill = inputs.len() > settings.spill_threshold();
    let mut reports = Reports::new(inputs.len(), spill).map_err(RunError::Spill)?;
    let mut seen = Seen::default();
    let mut host_sources: Vec<crate::ingest::HostSource> = Vec::new();
    let mut virt_sources: Vec<cluster::VirtSource> = Vec::new();
    let mut pending = inputs.into_iter();
    loop {
        let batch: Vec<Input> = pending.by_ref().take(batch_len).collect();
        if batch.is_empty() {
            break;
        }
        let reads: Vec<(Input, Result<Read, ReadError>)> = batch
            .into_par_iter()
            .map(|inp| {
                let r = read_one(&inp, &settings.devices, &settings.limits);
                bar.inc(1);
                (inp, r)
            })
            .collect();
        // Duplicates are dropped here, before their rows become part of the model.
        for (inp, r) in reads {
            let r = r.and_then(|read| {
                let raws = match read {
                    Read::Awr(raw) => vec![*raw],
                    Read::Awrs(raws) => raws,
                    Read::Host(h) => {
                        host_sources.push(*h);
                        return Ok(Vec::new());
                    }
                    Read::Hosts(hs) => {
                        host_sources.extend(hs);
                        return Ok(Vec::new());
                    }
                    Read::Virt(v) => {
                        virt_sources.push(*v);
                        return Ok(Vec::new());
                    }
                };
                let mut done = Vec::with_capacity(raws.len());
                for raw in raws {
                    if let Some(d) = seen.check(&raw.file, &raw.info) {
                        duplicates.push(d);
                        continue;
                    }
                    done.push(finish(raw, &formula, rows.is_some()).map_err(ReadError::from)?);
                }
                Ok(done)
            });
            match r {
                Ok(xs) => {
                    for mut x in xs {
                        if let (Some(sink), Some(part)) = (rows.as_deref_mut(), x.part.take()) {
                            sink.report(part);
                        }
                        reports.push(x).map_err(RunError::Spill)?;
                    }
                }
                Err(e) if inp.explicit || e.fails_in_directory(&inp.path) => {
                    failures.push(Failure {
                        file: inp.path.display().to_string(),
                        error: e.to_string(),
                        cause: Some(Arc::new(e)),
                    })
                }
                Err(e) => skipped.push(Skipped {
                    file: inp.path.display().to_string(),
                    reason: e.to_string(),
                    cause: Some(Arc::new(e)),
                }),
            }
        }
    }
    bar.finish_and_clear();
    assemble(
        Gathered {
            reports,
            failures,
            skipped,
            duplicates,
            host_sources,
            virt_sources,
        },
        (&formula, &formula_info),
        rules,
        settings,
    )
}

/// What the reading stage hands to [`assemble`]: the reports in run order, duplicates already
/// dropped, and everything else that was read or refused.
pub(crate) struct Gathered {
    pub(crate) reports: Reports,
    pub(crate) failures: Vec<Failure>,
    pub(crate) skipped: Vec<Skipped>,
    pub(crate) duplicates: Vec<Duplicate>,
    pub(crate) host_sources: Vec<crate::ingest::HostSource>,
    pub(crate) virt_sources: Vec<cluster::VirtSource>,
}

/// The subjects of what was read, sized: databases, hosts and clusters, and the [`Run`]. One run
/// and a merge of exports (`--from-export`) both end here.
///
/// # Errors
/// [`RunError::Model`] when a series frame cannot be built.
pub(crate) fn assemble(
    g: Gathered,
    (formula, formula_info): (&crate::metrics::Formula, &crate::subject::awr::FormulaInfo),
    rules: &RuleSet,
    settings: &Settings,
) -> Result<Run, RunError> {
    let Gathered {
        reports,
        failures,
        skipped,
        duplicates,
        host_sources,
        virt_sources,
    } = g;
    let Held {
        infos,
        heads,
        kept,
        analyses,
    } = reports.finish().map_err(RunError::Spill)?;

    let databases = databases(
        &infos,
        &kept,
        &heads,
        formula,
        formula_info,
        rules,
        settings,
    )?;
    // The kept rows served the RAC sums and shares: nothing reads them again.
    drop(kept);
    let series = crate::subject::database::series_frame(&databases)?;
    let mut hosts = host::hosts(host_sources, rules, settings, &settings.devices);
    side_by_side::side_by_side(&mut hosts, &infos, &heads, &databases);
    // The heads' figures live on only where a database's interval row shares them.
    drop(heads);
    let host_series = host::series_frame(&hosts)?;
    let virtual_ = cluster::analyse(virt_sources, rules, settings);
    let consolidation = crate::consolidate::of_run(&databases, &hosts, rules, settings);
    // The capacity file's refused rows, and its rows that no database or host matched.
    let capacity_rows = match &settings.capacity_file {
        Some(f) => {
            let used: Vec<usize> = databases
                .iter()
                .map(|d| &d.capacity)
                .chain(hosts.iter().map(|h| &h.capacity))
                .filter_map(|c| c.used.as_ref().and_then(|u| u.line))
                .collect();
            let mut rows = f.refused.clone();
            rows.extend(f.unmatched(&used));
            rows.sort_by_key(|r| r.line);
            rows
        }
        None => Vec::new(),
    };
    Ok(Run {
        infos,
        capacity_rows,
        consolidation,
        analyses,
        databases,
        failures,
        skipped,
        duplicates,
        series,
        hosts,
        host_series,
        virtual_,
    })
}
