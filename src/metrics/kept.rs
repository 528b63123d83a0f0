//! Which rows of a report the engine reads once the report is reduced: the rows a report keeps
//! in memory ([`crate::model::KeptRows`]) after its figures are read and its full rows went to
//! `--export`.
//!
//! After a report's own [`crate::metrics::IntervalFigures`] are computed (from all its rows),
//! two computations read rows again, later, when every report of a database is known:
//! - the sum of the instance reports of one RAC interval ([`crate::model::View::sum`]), whose
//!   figures are computed by the same [`crate::metrics::workload`]: it reads the rows of
//!   [`is_read_by_workload`], so an instance (or PDB, or single-instance) report keeps those of
//!   its instance;
//! - a RAC global report's share of each instance ([`RAC_GLOBAL_INSTANCE_ROWS`], `IOStat by
//!   Filetype` row `Total` of each `I#`), which is all such a report keeps (its cluster-wide
//!   figures are never recomputed).
//!
//! A test records every lookup [`crate::metrics::workload`] makes on every fixture report and
//! checks that each one is kept here, so a figure added to the metrics that reads another
//! statistic fails it until the statistic is listed.

use crate::model::section;

/// Instance Activity Stats read by the figures (verbatim names): the IO requests and bytes, the
/// multiblock requests, redo, the cache hit ratio's and the direct-read share's blocks, the
/// formula terms' statistics ([`crate::metrics::term_statistic`]) and the Exadata cell
/// statistics ([`crate::metrics::exadata`]).
pub const ACTIVITY: [&str; 20] = [
    "physical read total IO requests",
    "physical write total IO requests",
    "physical read total bytes",
    "physical write total bytes",
    "physical read total multi block requests",
    "physical write total multi block requests",
    "redo writes",
    "redo size",
    "physical reads cache",
    "db block gets from cache",
    "consistent gets from cache",
    "physical reads",
    "physical reads direct",
    "physical read IO requests",
    "physical write IO requests",
    "cell flash cache read hits",
    "cell physical IO bytes eligible for predicate offload",
    "cell physical IO interconnect bytes returned by smart scan",
    // Collector captures: the peaks inside each snapshot (the database's peak series).
    sizer_parsers::awr_miner::READ_IOPS_MAX,
    sizer_parsers::awr_miner::WRITE_IOPS_MAX,
];

/// Wait events read by the figures, in the Foreground and the Background Wait Events alike.
pub const WAIT_EVENTS: [&str; 9] = [
    "db file sequential read",
    "cell single block physical read",
    "db file scattered read",
    "cell multiblock physical read",
    "log file parallel write",
    "log file sync",
    "direct path read",
    "cell smart table scan",
    "cell smart index scan",
];

/// The IO Profile row read by the figures (the check against read + write requests).
pub const IO_PROFILE: &str = "Total Requests [Read+Write]";

/// The Instance Efficiency row read by the figures (printed beside the recomputed hit ratio).
pub const EFFICIENCY: &str = "Buffer Hit %";

/// The `IOStat by Filetype` rows of each instance of a RAC global report that give the
/// instance's share (the database analysis's `InstanceShare`).
pub const RAC_GLOBAL_INSTANCE_ROWS: [&str; 4] = [
    "Total [Reads/s]",
    "Total [Writes/s]",
    "Total [Read bytes/s]",
    "Total [Write bytes/s]",
];

/// Whether [`crate::metrics::workload`] (with [`crate::metrics::exadata`] and
/// [`crate::cpu`]) may read the row `statistic` of `section`: the statistics listed here, and
/// the whole `Wait Event Histogram` (only the graded events are in the model) and `Host CPU`
/// sections.
pub fn is_read_by_workload(sec: &str, statistic: &str) -> bool {
    match sec {
        section::ACTIVITY => ACTIVITY.contains(&statistic),
        section::FG_WAITS | section::BG_WAITS => WAIT_EVENTS.contains(&statistic),
        section::IO_PROFILE => statistic == IO_PROFILE,
        section::EFFICIENCY => statistic == EFFICIENCY,
        section::WAIT_HISTOGRAM | section::HOST_CPU => true,
        _ => false,
    }
}

/// Whether a RAC global report keeps the row `statistic` of `section` for `instance` (its
/// per-instance share; never the cluster-wide `*` rows).
pub fn is_instance_share(instance: &str, sec: &str, statistic: &str) -> bool {
    instance != "*"
        && sec == section::IOSTAT_FILETYPE
        && RAC_GLOBAL_INSTANCE_ROWS.contains(&statistic)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::ingest::{read_input, Read};
    use crate::metrics::{workload, FigureSource, Formula};
    use crate::model::{lookups, View};
    use crate::rules::RuleSet;
    use crate::settings::DeviceSettings;
    use crate::subject::awr::{formula_of, ReducedReport};

    /// Every AWR and Statspack report of the fixtures, and of the corpus when it is present.
    fn reports() -> Vec<ReducedReport> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<PathBuf> = Vec::new();
        for dir in ["fixtures/awr", "../shared/corpus/awr"] {
            for e in walkdir::WalkDir::new(root.join(dir)).into_iter().flatten() {
                if e.file_type().is_file() {
                    files.push(e.into_path());
                }
            }
        }
        files
            .iter()
            .filter_map(|f| match read_input(f, &DeviceSettings::default()) {
                Ok(Read::Awr(r)) => Some(*r),
                _ => None,
            })
            .collect()
    }

    fn instance_of(r: &ReducedReport) -> String {
        match r.info.kind {
            sizer_parsers::awr::ReportKind::RacGlobal => "*".into(),
            _ => r
                .info
                .instances
                .first()
                .map_or("*".into(), |i| i.name.clone()),
        }
    }

    /// The rules' formula, and one with every term (so that each term's statistic is looked up).
    fn formulas() -> Vec<Formula> {
        let (f, _) = formula_of(&RuleSet::builtin().unwrap());
        let mut all = f.clone();
        all.terms = [
            "read_total",
            "write_total",
            "redo_writes",
            "read_database",
            "write_database",
        ]
        .map(String::from)
        .to_vec();
        vec![f, all]
    }

    #[test]
    fn every_row_the_figures_look_up_is_kept() {
        let reports = reports();
        // 5 AWR fixtures (2 HTML, 3 RAC instances) and 10 text fixtures at least.
        assert!(reports.len() >= 15, "{}", reports.len());
        for r in &reports {
            let view = View::of_rows(&r.rows, &instance_of(r));
            for f in formulas() {
                for source in [
                    FigureSource::Report {
                        kind: r.info.kind,
                        statspack: r.info.statspack,
                    },
                    FigureSource::RacSum,
                ] {
                    let (_, seen) = lookups::recording(|| workload(&view, source, &f, 2, None));
                    assert!(seen.len() > 30, "{}: {} lookups", r.file, seen.len());
                    for (sec, stat) in &seen {
                        let whole = stat == lookups::ANY
                            && (sec == section::WAIT_HISTOGRAM || sec == section::HOST_CPU);
                        assert!(
                            whole || is_read_by_workload(sec, stat),
                            "{}: the figures read '{stat}' of {sec}, which a report does not keep (add it to crate::metrics::kept)",
                            r.file
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_kept_rows_give_the_same_figures_as_every_row() {
        let (f, _) = formula_of(&RuleSet::builtin().unwrap());
        let json = |v: &View, r: &ReducedReport, source| {
            serde_json::to_string(&workload(v, source, &f, r.info.rate_decimals, None)).unwrap()
        };
        let reports = reports();
        let mut kept_cells = 0;
        let (mut kept_bytes, mut max_bytes) = (0, 0);
        for r in &reports {
            let inst = instance_of(r);
            let full = View::of_rows(&r.rows, &inst);
            let kept = View::of_rows(
                &r.rows
                    .iter()
                    .filter(|x| is_read_by_workload(x.section, &x.statistic))
                    .cloned()
                    .collect::<Vec<_>>(),
                &inst,
            );
            kept_cells += kept.len();
            assert!(kept.len() < full.len(), "{}", r.file);
            // What a report holds: the compact rows, which give back exactly that view.
            let compact = crate::model::KeptRows::of(&r.rows, |i, s, n| {
                i == inst && is_read_by_workload(s, n)
            });
            let back = compact.view(&inst).unwrap_or_default();
            assert_eq!(
                format!("{:?}", back.sorted()),
                format!("{:?}", kept.sorted()),
                "{}",
                r.file
            );
            kept_bytes += compact.heap_bytes();
            max_bytes = max_bytes.max(compact.heap_bytes());
            let source = FigureSource::Report {
                kind: r.info.kind,
                statspack: r.info.statspack,
            };
            assert_eq!(json(&full, r, source), json(&kept, r, source), "{}", r.file);
            // The view of the rows is the view of the report's frame of the model, which the
            // figures were read from before the frame was built only for --export.
            let framed = crate::model::Model::build(&[(r.meta.clone(), r.rows.clone())])
                .unwrap()
                .instance_view(&inst)
                .unwrap();
            assert_eq!(
                json(&framed, r, source),
                json(&full, r, source),
                "{}",
                r.file
            );
        }
        // A few dozen cells a report, not ~1,100 (the histogram's edges are most of them).
        assert!(kept_cells < 200 * reports.len(), "{kept_cells}");
        // And a few KB a report once compact (5 bytes a cell and 8 a known value): the fleet
        // memory per report of docs/performance.md rests on it.
        eprintln!(
            "kept rows: {} reports, {kept_cells} cells, {kept_bytes} bytes, at most {max_bytes}",
            reports.len()
        );
        assert!(kept_bytes < 2_500 * reports.len(), "{kept_bytes}");
        assert!(max_bytes < 5_000, "{max_bytes}");
        // A RAC interval summed from the instances' kept rows gives the figures of the sum of
        // all their rows (fixtures/awr/rac, snaps 4711-4712).
        let rac: Vec<&ReducedReport> = reports
            .iter()
            .filter(|r| r.file.contains("rac/") && r.file.contains("4711_4712"))
            .collect();
        assert_eq!(rac.len(), 2);
        let full: Vec<View> = rac
            .iter()
            .map(|r| View::of_rows(&r.rows, &instance_of(r)))
            .collect();
        let kept: Vec<crate::model::KeptRows> = rac
            .iter()
            .map(|r| {
                let inst = instance_of(r);
                crate::model::KeptRows::of(&r.rows, |i, s, n| {
                    i == inst && is_read_by_workload(s, n)
                })
            })
            .collect();
        let kept_views: Vec<View> = kept
            .iter()
            .zip(&rac)
            .map(|(k, r)| k.view(&instance_of(r)).unwrap())
            .collect();
        let kept_views: Vec<&View> = kept_views.iter().collect();
        let sum_full = View::sum(&full.iter().collect::<Vec<_>>());
        let sum_kept = View::sum(&kept_views);
        assert_eq!(
            json(&sum_full, rac[0], FigureSource::RacSum),
            json(&sum_kept, rac[0], FigureSource::RacSum)
        );
    }
}
