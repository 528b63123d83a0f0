//! What a run holds of each report between reading it and rendering, in memory or, for a large
//! run, in the spill file ([`crate::spill`]).
//!
//! Each report, as it arrives (`Reports::push`), becomes:
//! - its `ReportInfo` (identity, snapshots, format): kept in memory, small;
//! - a `ReportHead`: the interval, warnings and figures that its database is built from, in
//!   memory. A run in memory keeps the report's figures there (shared, `Arc`, with the
//!   database's interval row when the report alone gives that interval); a spilled run keeps
//!   none but a RAC global report's, and its databases compute an interval's figures again
//!   from the kept rows of the one report that gives it, so it holds figures per interval, not
//!   per report;
//! - its [`Analysis`], which only the JSON `reports` list renders: in memory for a small run, or
//!   written at once to the spill file as its JSON and dropped ([`ReportList`]);
//! - its kept rows ([`KeptRows`]), read again only for a RAC sum, a RAC global report's
//!   instance shares or a collector's peaks: likewise in memory or spilled (`KeptList`).
//!
//! The JSON of a spilled run is byte for byte that of the same run in memory: the JSON renderer
//! prints each report's analysis from the same pretty JSON text (a test runs the corpus both
//! ways).

use std::borrow::Cow;
use std::io;
use std::sync::Arc;

use sizer_parsers::awr::ReportKind;

use crate::metrics::IntervalFigures;
use crate::model::KeptRows;
use crate::spill::{Span, Spill, Spilled};
use crate::subject::awr::{report_analysis, Analysis, Interval, ReportFrame, ReportInfo};
use crate::warning::Warning;

/// What the engine reads again of a report's [`Analysis`] once every report is in: the
/// databases' interval rows, their warnings, and the AWR figures shown beside a host's.
#[derive(Debug, Clone)]
pub(crate) struct ReportHead {
    /// The report's figures (the same allocation as its [`Analysis::workload`]); `None` in a
    /// spilled run for a report that is not a RAC global report: its database computes them
    /// again from its kept rows where it alone gives an interval
    /// ([`crate::subject::awr::figures_of_kept`]), so the run holds figures per interval,
    /// not per report.
    pub(crate) workload: Option<Arc<IntervalFigures>>,
    /// `measured_iops` and `total_mb_s` of the figures, unrounded: what a host shows beside
    /// its own (`subject::side_by_side`).
    pub(crate) measured_iops: Option<f64>,
    pub(crate) total_mb_s: Option<f64>,
    /// Its interval (snapshot ids, local times).
    pub(crate) interval: Interval,
    /// Its caveats ([`Analysis::warnings`]).
    pub(crate) warnings: Vec<Warning>,
}

impl ReportHead {
    fn of(a: &Analysis, keep_figures: bool) -> ReportHead {
        ReportHead {
            workload: keep_figures.then(|| a.workload.clone()),
            measured_iops: a.workload.measured_iops.exact,
            total_mb_s: a.workload.total_mb_s.exact,
            interval: a.interval.clone(),
            warnings: a.warnings.clone(),
        }
    }
}

/// Every report's [`Analysis`], in run order: in memory, or in the spill file as the JSON the
/// document prints.
#[derive(Debug)]
pub struct ReportList(Listed);

#[derive(Debug)]
enum Listed {
    Memory(Vec<Analysis>),
    /// Per report, where its JSON is; `None` for a collector capture's records, which the
    /// document does not list.
    Spilled(Arc<Spilled>, Vec<Option<Span>>),
}

impl ReportList {
    /// How many reports (collector records included).
    pub fn len(&self) -> usize {
        match &self.0 {
            Listed::Memory(v) => v.len(),
            Listed::Spilled(_, v) => v.len(),
        }
    }

    /// Whether the run read no report.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The analyses, when the run kept them in memory (a run of at most
    /// [`crate::settings::Settings::spill_after`] inputs); `None` when they were spilled.
    pub fn in_memory(&self) -> Option<&[Analysis]> {
        match &self.0 {
            Listed::Memory(v) => Some(v),
            Listed::Spilled(..) => None,
        }
    }

    /// Calls `each` with the pretty JSON (`serde_json::to_writer_pretty`, indent 0) of every
    /// report the document lists (collector records are not listed), in run order.
    ///
    /// # Errors
    /// The first error of `each`, or a read error of the spill file.
    pub(crate) fn each_json(
        &self,
        mut each: impl FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        match &self.0 {
            Listed::Memory(v) => {
                let mut buf = Vec::new();
                for a in v.iter().filter(|a| !a.source.format.collector()) {
                    buf.clear();
                    serde_json::to_writer_pretty(&mut buf, a).map_err(io::Error::other)?;
                    each(&buf)?;
                }
                Ok(())
            }
            Listed::Spilled(file, spans) => {
                for s in spans.iter().flatten() {
                    each(&file.json(*s)?)?;
                }
                Ok(())
            }
        }
    }
}

/// Every report's [`KeptRows`], in run order: in memory or spilled.
#[derive(Debug)]
pub(crate) enum KeptList {
    Memory(Vec<KeptRows>),
    Spilled(Arc<Spilled>, Vec<Span>),
}

impl KeptList {
    /// Report `i`'s kept rows (read back from the spill file when spilled).
    ///
    /// # Errors
    /// A read error of the spill file, or a record it did not write (`InvalidData`).
    ///
    /// # Panics
    /// When `i` is not a report of the run.
    pub(crate) fn get(&self, i: usize) -> io::Result<Cow<'_, KeptRows>> {
        match self {
            KeptList::Memory(v) => Ok(Cow::Borrowed(&v[i])),
            KeptList::Spilled(file, spans) => KeptRows::from_bytes(&file.get(spans[i])?)
                .map(Cow::Owned)
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "kept rows cut short")),
        }
    }
}

/// The reports read, in run order, each reduced as it arrives to what the run holds of it (see
/// the module docs), in parallel lists reserved once.
pub(crate) struct Reports {
    infos: Vec<(String, ReportInfo)>,
    heads: Vec<ReportHead>,
    analyses: Vec<Analysis>,
    kept: Vec<KeptRows>,
    /// With a spill file: where each report's analysis JSON and kept rows went.
    spill: Option<(Spill, Vec<Option<Span>>, Vec<Span>)>,
}

/// The lists [`Reports::finish`] gives: per report, in run order.
pub(crate) struct Held {
    pub(crate) infos: Vec<(String, ReportInfo)>,
    pub(crate) heads: Vec<ReportHead>,
    pub(crate) kept: KeptList,
    pub(crate) analyses: ReportList,
}

impl Reports {
    /// Room for `n` reports, held in memory, or spilled when `spill`.
    ///
    /// # Errors
    /// With `spill`, when the spill file cannot be made ([`Spill::new`]).
    pub(crate) fn new(n: usize, spill: bool) -> io::Result<Reports> {
        let spill = if spill {
            Some((Spill::new()?, Vec::with_capacity(n), Vec::with_capacity(n)))
        } else {
            None
        };
        let memory = if spill.is_some() { 0 } else { n };
        Ok(Reports {
            infos: Vec::with_capacity(n),
            heads: Vec::with_capacity(n),
            analyses: Vec::with_capacity(memory),
            kept: Vec::with_capacity(memory),
            spill,
        })
    }

    /// Adds one report (its `part`, the export frame, must have gone to the sink already).
    ///
    /// # Errors
    /// A write error of the spill file.
    pub(crate) fn push(&mut self, x: ReportFrame) -> io::Result<()> {
        let ReportFrame {
            file,
            kept,
            part: _,
            workload,
            mut info,
        } = x;
        let a = report_analysis(&file, &mut info, workload);
        // Spilled, only a RAC global report's figures stay (they cannot be computed again
        // from its kept rows).
        let keep_figures = self.spill.is_none() || info.kind == ReportKind::RacGlobal;
        self.heads.push(ReportHead::of(&a, keep_figures));
        match &mut self.spill {
            None => {
                self.analyses.push(a);
                self.kept.push(kept);
            }
            Some((spill, json, rows)) => {
                let listed = if a.source.format.collector() {
                    None
                } else {
                    let mut text = spill.buffer();
                    serde_json::to_writer_pretty(&mut text, &a).map_err(io::Error::other)?;
                    Some(spill.put_buffer_deflated(text)?)
                };
                json.push(listed);
                let mut bytes = spill.buffer();
                kept.write_bytes(&mut bytes);
                rows.push(spill.put_buffer(bytes)?);
            }
        }
        self.infos.push((file, info));
        Ok(())
    }

    /// The lists, the spill file (if any) written out for reading.
    ///
    /// # Errors
    /// A write error of the spill file's last records.
    pub(crate) fn finish(self) -> io::Result<Held> {
        let (kept, analyses) = match self.spill {
            None => (
                KeptList::Memory(self.kept),
                ReportList(Listed::Memory(self.analyses)),
            ),
            Some((spill, json, rows)) => {
                let file = Arc::new(spill.finish()?);
                (
                    KeptList::Spilled(file.clone(), rows),
                    ReportList(Listed::Spilled(file, json)),
                )
            }
        };
        Ok(Held {
            infos: self.infos,
            heads: self.heads,
            kept,
            analyses,
        })
    }
}
