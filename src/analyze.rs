//! The analysis pipeline: files → parsers → model → metrics → rules, one [`Analysis`] per report.
//!
//! One bad file never stops the others: it becomes a [`Failure`] naming the file and the reason.

use std::path::Path;

use serde::Serialize;
use sizer_parsers::awr::{AwrReport, ReportKind};
use sizer_parsers::Parsed;

use crate::metrics::{self, Formula, Workload};
use crate::model::{self, Model, SourceMeta, StatRow};
use crate::rules::{self, Demand, Options, Recommendation, RuleSet};

/// User settings that shape the sizing.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Headroom over the sizing figure, %; `None` = the rules' default.
    pub headroom_pct: Option<f64>,
    /// Data capacity to provision, GiB; `None` = unknown (size for performance only).
    pub capacity_gib: Option<f64>,
    /// Platforms to recommend for (`onprem`, `aws`); empty = all.
    pub platforms: Vec<String>,
}

/// What was read: file, format and report identity.
#[derive(Debug, Clone, Serialize)]
pub struct SourceInfo {
    /// Path as given on the command line.
    pub file: String,
    /// `awr_html`.
    pub format: &'static str,
    /// `instance`, `rac_global`, `pdb`.
    pub report_kind: &'static str,
    /// The report's `<title>` (`AWR Report for DB: …, Snaps: …`).
    pub title: String,
    /// The report's main heading (`WORKLOAD REPOSITORY report for`).
    pub heading: String,
    /// `UTF-8` or `windows-1252`.
    pub encoding: String,
}

/// The snapshot interval.
#[derive(Debug, Clone, Serialize)]
pub struct Interval {
    /// Begin snapshot id.
    pub begin_snap: u64,
    /// End snapshot id.
    pub end_snap: u64,
    /// Begin time (database local time, ISO 8601 without zone).
    pub begin_time: Option<String>,
    /// End time.
    pub end_time: Option<String>,
    /// `Elapsed:` minutes.
    pub elapsed_min: Option<f64>,
    /// `DB Time:` minutes.
    pub db_time_min: Option<f64>,
}

/// A tolerated problem or caveat, with a stable id.
#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    /// Stable id: `rac_instance`, `pdb_report`, `exadata`, `io_profile_mismatch`, `parser`,
    /// `required_unknown`, or the id of a fired rule with effect `warn`
    /// (`long-window-hides-peaks`).
    pub id: String,
    /// The message.
    pub message: String,
}

/// The analysis of one report.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// What was read.
    pub source: SourceInfo,
    /// Database identity as the report prints it.
    pub database: sizer_parsers::awr::DbInfo,
    /// Instances covered.
    pub instances: Vec<sizer_parsers::awr::InstanceInfo>,
    /// Interval.
    pub interval: Interval,
    /// Workload figures.
    pub workload: Workload,
    /// The required-IOPS formula used and why (from the rules).
    pub required_iops_formula: FormulaInfo,
    /// The figures the rules sized from (before headroom).
    pub demand: Demand,
    /// Which figure the IOPS demand is (`required_iops`, or `measured_iops` when required is unknown).
    pub sizing_basis: String,
    /// The recommendation.
    pub recommendation: Recommendation,
    /// The AWR statistics behind the figures, verbatim names, as printed (Instance Activity Stats).
    pub statistics: std::collections::BTreeMap<String, StatisticValue>,
    /// Caveats.
    pub warnings: Vec<Warning>,
}

/// One Instance Activity Stats row as printed.
#[derive(Debug, Clone, Serialize)]
pub struct StatisticValue {
    /// `Total` over the interval.
    pub total: Option<f64>,
    /// `per Second`.
    pub per_second: Option<f64>,
    /// `per Trans`.
    pub per_trans: Option<f64>,
}

/// The statistics listed in [`Analysis::statistics`].
pub const STATISTICS_SHOWN: [&str; 14] = [
    "physical read total IO requests",
    "physical write total IO requests",
    "redo writes",
    "physical read total bytes",
    "physical write total bytes",
    "physical read total multi block requests",
    "physical write total multi block requests",
    "physical read IO requests",
    "physical write IO requests",
    "physical reads cache",
    "db block gets from cache",
    "consistent gets from cache",
    "session logical reads",
    "redo size",
];

/// The required-IOPS formula as reported.
#[derive(Debug, Clone, Serialize)]
pub struct FormulaInfo {
    /// Terms (`read_total`, `write_total`, `redo_writes`, …).
    pub terms: Vec<String>,
    /// Formula text.
    pub text: String,
    /// Why this formula.
    pub why: String,
    /// Source.
    pub source: String,
}

/// A file that could not be analysed.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Path as given.
    pub file: String,
    /// The error, one line.
    pub error: String,
}

/// All results of one run.
#[derive(Debug)]
pub struct Run {
    /// One per readable report, in input order.
    pub analyses: Vec<Analysis>,
    /// Unreadable inputs, in input order.
    pub failures: Vec<Failure>,
    /// The columnar model of every readable report.
    pub model: Model,
}

struct Parsedfile {
    file: String,
    report: AwrReport,
    meta: SourceMeta,
}

/// Reads, parses and sizes every file.
///
/// # Errors
/// Only a polars error building the model; per-file problems become [`Failure`]s.
pub fn run(paths: &[&Path], rules: &RuleSet, settings: &Settings) -> anyhow::Result<Run> {
    let mut failures = Vec::new();
    let mut parsed = Vec::new();
    let mut sources: Vec<(SourceMeta, Vec<StatRow>)> = Vec::new();
    for p in paths {
        let file = p.display().to_string();
        match sizer_parsers::parse_file(p) {
            Ok(Parsed::Awr(report)) => {
                let (meta, rows) = model::awr_rows(&file, &report);
                sources.push((meta.clone(), rows));
                parsed.push(Parsedfile { file, report, meta });
            }
            Err(e) => failures.push(Failure {
                file,
                error: e.to_string(),
            }),
        }
    }
    let model = Model::build(&sources)?;
    drop(sources);
    let f = rules.required_iops_formula();
    let formula = Formula {
        terms: f.terms.clone(),
        text: f.text.clone(),
        fallback: f.fallback.as_ref().map(|fb| {
            Box::new(Formula {
                terms: fb.terms.clone(),
                text: fb.text.clone(),
                fallback: None,
            })
        }),
    };
    let mut analyses = Vec::new();
    for p in parsed {
        let inst = match p.report.kind {
            ReportKind::RacGlobal => "*".to_string(),
            _ => p
                .report
                .instances
                .first()
                .map(|i| i.name.clone())
                .unwrap_or_else(|| "*".into()),
        };
        let view = model.view(&p.file, &inst)?;
        let workload = metrics::workload(&view, p.meta.report_kind, &formula);
        match size(&p, workload, rules, settings, f) {
            Ok(a) => analyses.push(a),
            Err(e) => failures.push(Failure {
                file: p.file.clone(),
                error: e,
            }),
        }
    }
    Ok(Run {
        analyses,
        failures,
        model,
    })
}

fn size(
    p: &Parsedfile,
    w: Workload,
    rules: &RuleSet,
    settings: &Settings,
    f: &rules::IopsFormula,
) -> Result<Analysis, String> {
    let r = &p.report;
    let mut warnings: Vec<Warning> = r
        .warnings
        .iter()
        .map(|m| Warning {
            id: "parser".into(),
            message: m.clone(),
        })
        .collect();
    let (iops, basis) = match (w.required_iops.value, w.measured_iops.value) {
        (Some(v), _) => (v, "required_iops"),
        (None, Some(m)) => {
            warnings.push(Warning {
                id: "required_unknown".into(),
                message: format!(
                    "required IOPS is unknown ({}); sizing from measured IOPS {:.2} instead",
                    w.required_iops
                        .unknown_reason
                        .as_deref()
                        .unwrap_or("a term is missing"),
                    m
                ),
            });
            (m, "measured_iops")
        }
        (None, None) => {
            return Err(format!(
                "cannot size: {}",
                w.read_iops
                    .unknown_reason
                    .clone()
                    .or(w.write_iops.unknown_reason.clone())
                    .unwrap_or_else(|| "no IO request statistics".into())
            ))
        }
    };
    let elapsed = r.snapshots.elapsed_min;
    if r.kind != ReportKind::RacGlobal && r.db.rac == Some(true) {
        warnings.push(Warning {
            id: "rac_instance".into(),
            message: format!(
                "instance {} of a RAC database: these figures are one instance only; the database needs the sum of all instances over the same interval (or a RAC global report, awrgrpt.sql)",
                r.instances.first().map(|i| i.name.as_str()).unwrap_or("?")
            ),
        });
    }
    if r.kind == ReportKind::Pdb {
        warnings.push(Warning {
            id: "pdb_report".into(),
            message: "PDB-level report: it has no 'redo writes', no IOStat by Function and no Buffer Hit %; the storage serves the whole CDB, so size from CDB-level reports".into(),
        });
    }
    // 'cell physical IO interconnect bytes' is counted on every platform; these two are Exadata-only.
    let exa = r.activity.iter().any(|s| {
        (s.name == "cell flash cache read hits"
            || s.name == "cell physical IO bytes eligible for predicate offload")
            && s.total.unwrap_or(0.0) > 0.0
    }) || r.wait_events.iter().any(|e| {
        e.event.starts_with("cell single block physical read") && e.waits.unwrap_or(0.0) > 0.0
    });
    if exa {
        warnings.push(Warning {
            id: "exadata".into(),
            message: "Exadata: 'physical read total IO requests' include Smart Scan and flash-cache-optimized requests, so a non-Exadata array would see a different IO profile (Oracle's OMAT applies a 6x IO factor when moving off Exadata)".into(),
        });
    }
    if let (Some(io), Some(m)) = (w.io_profile_total_iops.value, w.measured_iops.value) {
        if (io - m).abs() > 0.05 + 1e-9 {
            warnings.push(Warning {
                id: "io_profile_mismatch".into(),
                message: format!(
                    "IO Profile 'Total Requests' {io:.1}/s differs from read + write total IO requests {m:.2}/s beyond rounding"
                ),
            });
        }
    }
    let demand = Demand {
        required_iops: iops,
        read_iops: w.read_iops.value.unwrap_or(0.0),
        write_iops: w.write_iops.value.unwrap_or(0.0),
        read_mb_s: w.read_mb_s.value.unwrap_or(0.0),
        write_mb_s: w.write_mb_s.value.unwrap_or(0.0),
        avg_read_kib: w.avg_read_kib.value,
        avg_write_kib: w.avg_write_kib.value,
        small_read_share: match (w.small_read_iops.value, w.read_iops.value) {
            (Some(s), Some(t)) if t > 0.0 => Some(s / t),
            _ => None,
        },
        cache_hit_pct: w.cache_hit_pct.value.or(w.buffer_hit_pct_printed.value),
        direct_read_share: w.direct_read_pct.value.map(|p| p / 100.0),
        single_block_read_ms: w.db_file_sequential_read_ms.value,
        log_write_ms: w.log_file_parallel_write_ms.value,
        capacity_gib: settings.capacity_gib,
        window_minutes: elapsed,
    };
    let opts = Options {
        headroom_pct: settings.headroom_pct,
        platforms: settings.platforms.clone(),
    };
    let recommendation = rules::recommend(rules, &demand, &opts);
    // Rules with effect "warn" (e.g. a window that hides peaks) are caveats about the evidence.
    warnings.extend(
        recommendation
            .fired_rules
            .iter()
            .filter(|f| f.effect == rules::Effect::Warn)
            .map(|f| Warning {
                id: f.id.clone(),
                message: f.message.clone(),
            }),
    );
    let fmt_t =
        |t: Option<chrono::NaiveDateTime>| t.map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string());
    Ok(Analysis {
        source: SourceInfo {
            file: p.file.clone(),
            format: "awr_html",
            report_kind: p.meta.report_kind,
            title: r.title.clone(),
            heading: r.heading.clone(),
            encoding: r.encoding.clone(),
        },
        database: r.db.clone(),
        instances: r.instances.clone(),
        interval: Interval {
            begin_snap: r.snapshots.begin_id,
            end_snap: r.snapshots.end_id,
            begin_time: fmt_t(r.snapshots.begin_time),
            end_time: fmt_t(r.snapshots.end_time),
            elapsed_min: r.snapshots.elapsed_min,
            db_time_min: r.snapshots.db_time_min,
        },
        required_iops_formula: FormulaInfo {
            terms: f.terms.clone(),
            text: f.text.clone(),
            why: f.why.clone(),
            source: f.source.clone(),
        },
        statistics: STATISTICS_SHOWN
            .iter()
            .filter_map(|n| {
                r.activity(n).map(|s| {
                    (
                        n.to_string(),
                        StatisticValue {
                            total: s.total,
                            per_second: s.per_second,
                            per_trans: s.per_trans,
                        },
                    )
                })
            })
            .collect(),
        workload: w,
        demand,
        sizing_basis: basis.to_string(),
        recommendation,
        warnings,
    })
}
