//! IntervalFigures metrics of one report, read from the columnar model.
//!
//! Every [`Figure`] carries its unit, the AWR statistics it came from and, when unknown, why.
//! Formulas (per second over the report interval; AWR statistic names verbatim):
//! - read IOPS = `physical read total IO requests`; write IOPS = `physical write total IO requests`;
//!   redo writes/s = `redo writes`.
//! - measured IOPS = read IOPS + write IOPS (equals IO Profile `Total Requests` from 11.2.0.4).
//! - required IOPS = the terms chosen in `rules/sizing.toml` (`[required_iops] terms`). The
//!   default, read + write + redo writes, is the Delphix/Enkitec sizing formula; because
//!   `physical write total IO requests` already includes every LGWR write, it carries the redo
//!   rate once more as margin.
//! - read/write MB/s = `physical read/write total bytes` / 10^6 (MB = 10^6 bytes).
//! - average read/write IO size, KiB (2^10 bytes) = total bytes / total IO requests / 1024.
//! - read share % = 100 × read IOPS / measured IOPS.
//! - large reads/s = `physical read total multi block requests`; small reads/s = read IOPS − large
//!   (Karl Arao); the same for writes.
//! - cache read-hit % = 100 × (1 − `physical reads cache` / (`db block gets from cache` +
//!   `consistent gets from cache`)) on the interval totals (awr-notes §2: equals the printed
//!   `Buffer Hit %` to 2 decimals); the printed `Buffer Hit %` is kept beside it.
//! - latency: average wait (ms) of `db file sequential read`, `db file scattered read`,
//!   `log file sync` (foreground) and `log file parallel write` (background), as printed or,
//!   where finer, Total Wait Time × 1000 / Waits (`crate::model::precision`).
//! - text reports (1-decimal `per Second`): the rates are Total / elapsed seconds where finer.
//!   Each such figure keeps the printed one in `as_printed` and says in `derived` what it was
//!   computed from and its bounds ([`Derivation`]).

use serde::Serialize;
use sizer_parsers::awr::ReportKind;

pub mod exadata;
mod figure;
pub mod kept;
pub mod text;

pub use figure::{average_bounds, derived_decimals, Derivation, DerivedFrom, Figure, FigureNotes};
pub(crate) use figure::{round_signed, ValueOrWhy};

use crate::model::{decimals_in_ms, half_unit, section, View};

/// Where the 95th percentile of an event's waits lies, from the report's Wait Event Histogram:
/// `lo_ms ≤ p95 < hi_ms` (`hi_ms` = null when only the open-ended bucket reaches 95 %).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct P95Range {
    /// Lower edge, ms.
    pub lo_ms: f64,
    /// Upper edge, ms; `None` = no upper edge (the open-ended bucket).
    pub hi_ms: Option<f64>,
    /// The event read (`db file sequential read`, or the Exadata cell event).
    pub event: String,
    /// Waits of the event (the histogram's total).
    pub waits: Option<f64>,
}

/// The p95 range of whichever of `events` has a histogram with the most waits.
fn p95_of(v: &View, events: &[&str]) -> Option<P95Range> {
    let (event, (cdf, waits)) = events
        .iter()
        .filter_map(|e| v.histogram(e).map(|h| (e, h)))
        .max_by(|a, b| a.1 .1.unwrap_or(0.0).total_cmp(&b.1 .1.unwrap_or(0.0)))?;
    // Shares as AWR prints them (rounded to 0.1 %): the first edge reaching 95 % bounds the p95.
    let mut lo = 0.0;
    let mut hi = None;
    for (edge, cum) in cdf {
        if cum >= 95.0 {
            hi = Some(edge);
            break;
        }
        lo = edge;
    }
    Some(P95Range {
        lo_ms: lo,
        hi_ms: hi,
        event: event.to_string(),
        waits,
    })
}

/// The workload figures of one report.
#[derive(Debug, Clone, Serialize)]
pub struct IntervalFigures {
    /// `physical read total IO requests` per second.
    pub read_iops: Figure,
    /// `physical write total IO requests` per second.
    pub write_iops: Figure,
    /// `redo writes` per second.
    pub redo_writes_per_s: Figure,
    /// read IOPS + write IOPS.
    pub measured_iops: Figure,
    /// The rules' required-IOPS formula.
    pub required_iops: Figure,
    /// The terms of the formula `required_iops` used, joined by ` + ` (`read_total +
    /// write_total + redo_writes`), when it is the fallback (`[required_iops.fallback]`: a
    /// term of the main formula was unknown); `None` for the main formula.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_iops_fallback: Option<String>,
    /// How much required IOPS is above measured IOPS, % of measured: 100 × (required −
    /// measured) / measured (with the default formula, the redo writes counted once more).
    /// Unknown when either is unknown or nothing was measured.
    pub required_margin_pct: Figure,
    /// IO Profile `Total Requests` Read+Write per second, as printed (cross-check).
    pub io_profile_total_iops: Figure,
    /// `physical read total bytes` per second, bytes/s (as printed).
    pub read_bytes_per_s: Figure,
    /// `physical write total bytes` per second, bytes/s (as printed).
    pub write_bytes_per_s: Figure,
    /// `physical read total bytes`/s in MB/s (10^6).
    pub read_mb_s: Figure,
    /// `physical write total bytes`/s in MB/s (10^6).
    pub write_mb_s: Figure,
    /// read + write MB/s.
    pub total_mb_s: Figure,
    /// Average read request, KiB.
    pub avg_read_kib: Figure,
    /// Average write request, KiB.
    pub avg_write_kib: Figure,
    /// Average redo write, KiB: 'redo size' / 'redo writes' (interval totals). Picks the IO
    /// report card's log-write scale (1 KiB or 128 KiB writes).
    pub avg_redo_write_kib: Figure,
    /// p95 range of single-block reads ('db file sequential read' or Exadata's 'cell single
    /// block physical read'), from the Wait Event Histogram; `None` when not printed.
    pub single_block_read_p95: Option<P95Range>,
    /// p95 range of multiblock reads ('db file scattered read' / 'cell multiblock physical
    /// read').
    pub multiblock_read_p95: Option<P95Range>,
    /// p95 range of 'log file parallel write'.
    pub log_write_p95: Option<P95Range>,
    /// Reads as % of requests.
    pub read_pct: Figure,
    /// Single-block (small) read requests/s.
    pub small_read_iops: Figure,
    /// Multi-block (large) read requests/s.
    pub large_read_iops: Figure,
    /// Single-block (small) write requests/s.
    pub small_write_iops: Figure,
    /// Multi-block (large) write requests/s.
    pub large_write_iops: Figure,
    /// Share of physical reads (blocks) that are direct path reads, bypassing the buffer cache, %.
    pub direct_read_pct: Figure,
    /// `Buffer Hit %` as printed.
    pub buffer_hit_pct_printed: Figure,
    /// Cache read-hit % recomputed from the cache statistics.
    pub cache_hit_pct: Figure,
    /// Average `db file sequential read` wait, ms.
    pub db_file_sequential_read_ms: Figure,
    /// Average `db file scattered read` wait, ms.
    pub db_file_scattered_read_ms: Figure,
    /// Average `log file parallel write` wait, ms.
    pub log_file_parallel_write_ms: Figure,
    /// Average `log file sync` wait, ms.
    pub log_file_sync_ms: Figure,
    /// Average `direct path read` wait, ms (IO report card).
    pub direct_path_read_ms: Figure,
    /// Average `cell smart table scan` wait, ms (Exadata; IO report card).
    pub cell_smart_table_scan_ms: Figure,
    /// What `small_read_iops` is computed from.
    pub small_read_basis: exadata::SmallReadBasis,
    /// Exadata figures (single-block reads from the cell waits, Smart Scan, the off-Exadata
    /// estimate); `None` when the source is not an Exadata database.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exadata: Option<Box<exadata::ExadataFigures>>,
    /// Host CPU busy, % ([`crate::cpu`]).
    pub host_cpu_busy_pct: Figure,
    /// Host CPU idle with IO outstanding (iowait), % ([`crate::cpu`]).
    pub host_cpu_iowait_pct: Figure,
}

/// The required-IOPS formula as chosen in the rules: term ids and the text to print.
#[derive(Debug, Clone)]
pub struct Formula {
    /// Term ids: `read_total`, `write_total`, `redo_writes`, `read_database`, `write_database`.
    pub terms: Vec<String>,
    /// Human text of the formula.
    pub text: String,
    /// Used only when the report lacks `physical read/write total IO requests` (old releases).
    pub fallback: Option<Box<Formula>>,
    /// `[exadata]` of the rules: the off-Exadata factor (`None` = no estimate).
    pub exadata: Option<exadata::ExadataPolicy>,
}

/// Names of the AWR statistics behind each formula term.
pub fn term_statistic(term: &str) -> Option<&'static str> {
    Some(match term {
        "read_total" => "physical read total IO requests",
        "write_total" => "physical write total IO requests",
        "redo_writes" => "redo writes",
        "read_database" => "physical read IO requests",
        "write_database" => "physical write IO requests",
        _ => return None,
    })
}

/// What a workload's figures are computed from. It words the unknown reasons and names the
/// sections; it changes no figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureSource {
    /// One report of `kind`; `statspack` for a Statspack report
    /// ([`sizer_parsers::awr::AwrReport::is_statspack`]).
    Report {
        /// Instance, RAC global or PDB report.
        kind: ReportKind,
        /// A Statspack report (no IO Profile; `Instance Efficiency Indicators`).
        statspack: bool,
    },
    /// The sum of a RAC database's instance reports over one interval.
    RacSum,
}

impl FigureSource {
    fn is(self, k: ReportKind) -> bool {
        matches!(self, FigureSource::Report { kind, .. } if kind == k)
    }

    fn statspack(self) -> bool {
        matches!(
            self,
            FigureSource::Report {
                statspack: true,
                ..
            }
        )
    }
}

/// Why a statistic may be missing, for the unknown reason.
fn missing(stat: &str, source: FigureSource) -> String {
    if source.is(ReportKind::Pdb) {
        format!("'{stat}' is not in this report (PDB-level reports omit instance-wide statistics such as redo writes; size from a CDB-level report)")
    } else {
        format!("'{stat}' is not in this report's Instance Activity Stats")
    }
}

/// Computes the workload of one source from its model rows.
///
/// `source` says what the figures come from ([`FigureSource`]), used only in wording (unknown
/// reasons, section names).
/// `rate_decimals` is the precision the report prints its `per Second` rates with (2 in HTML
/// reports, 1 in most text reports): the IOPS and bytes/s figures are given to it.
///
/// `elapsed` is the report's `Elapsed:` (minutes, printed decimals), named in the provenance
/// of rates recomputed as Total / elapsed; `None` for a sum of instance reports.
pub fn workload(
    v: &View,
    source: FigureSource,
    formula: &Formula,
    rate_decimals: u32,
    elapsed: Option<(f64, u32)>,
) -> IntervalFigures {
    // A row that is printed but whose cell the parser refused (NaN, negative…) is unknown for
    // that reason, not "not in this report".
    let absent = |stat: &str| match v.get(section::ACTIVITY, stat) {
        Some(_) => format!(
            "'{stat}' is printed but its value could not be read (see the parser's warning)"
        ),
        None => missing(stat, source),
    };
    let rate = |stat: &str| -> ValueOrWhy {
        v.get(section::ACTIVITY, stat)
            .and_then(|x| x.rate())
            .ok_or_else(|| absent(stat))
    };
    // A text report's rates, recomputed as Total / elapsed (model::activity_rate): the bounds
    // and the printed rate of a sum of statistics, each × `factor`; `None` when none of them
    // was recomputed (the figure is then the printed one) or one is missing.
    let hp = half_unit(rate_decimals as i32);
    let finer_rate = |fig: Figure, stats: &[&str], factor: f64| -> Figure {
        let (mut lo, mut hi, mut printed, mut any) = (0.0, 0.0, 0.0, false);
        if !factor.is_finite() {
            return fig;
        }
        for stat in stats {
            let Some(c) = v.get(section::ACTIVITY, stat) else {
                return fig;
            };
            let Some(p) = c.per_second else {
                return fig;
            };
            let (l, h) = match (c.lo, c.hi) {
                (Some(l), Some(h)) => {
                    any = true;
                    (l, h)
                }
                _ => (p - hp, p + hp),
            };
            lo += l * factor;
            hi += h * factor;
            printed += p * factor;
        }
        if !any {
            return fig;
        }
        fig.finer(
            lo.max(0.0),
            hi,
            Some(printed),
            rate_decimals,
            DerivedFrom::TotalOverElapsed {
                elapsed_min: elapsed.map(|e| e.0),
                elapsed_decimals: elapsed.map(|e| e.1),
            },
        )
    };
    let total = |stat: &str| -> ValueOrWhy {
        v.get(section::ACTIVITY, stat)
            .and_then(|x| x.total)
            .ok_or_else(|| absent(stat))
    };
    const RD: &str = "physical read total IO requests";
    const WR: &str = "physical write total IO requests";
    const RB: &str = "physical read total bytes";
    const WB: &str = "physical write total bytes";
    const RM: &str = "physical read total multi block requests";
    const WM: &str = "physical write total multi block requests";
    let r = rate(RD);
    let w = rate(WR);
    let redo = rate("redo writes");
    let measured = r.clone().and_then(|r| Ok(r + w.clone()?));
    let sum = |f: &Formula| {
        f.terms.iter().try_fold(0.0, |acc, t| {
            let stat = term_statistic(t).ok_or_else(|| format!("unknown formula term '{t}'"))?;
            Ok::<f64, String>(acc + rate(stat)?)
        })
    };
    let exadata_policy = formula.exadata.as_ref();
    // The fallback formula, and why: said in the figure's provenance, never silently.
    let (required, formula, fallback_why) = match (&formula.fallback, r.is_err() || w.is_err()) {
        (Some(fb), true) => (
            sum(fb),
            fb.as_ref(),
            r.clone().err().or_else(|| w.clone().err()),
        ),
        _ => (sum(formula), formula, None),
    };
    let required_iops_fallback = fallback_why.is_some().then(|| formula.terms.join(" + "));
    let margin = match (&required, &measured) {
        (Ok(q), Ok(m)) if *m > 0.0 => Ok(100.0 * (q - m) / m),
        (Ok(_), Ok(_)) => Err("no requests measured in the interval".to_string()),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };
    let rb = rate(RB);
    let wb = rate(WB);
    // Interval totals, not the rounded per-second rates (0.01 requests/s would round away).
    let ratio_kib = |bytes: &str, reqs: &str| {
        let (b, q) = (total(bytes)?, total(reqs)?);
        if q > 0.0 {
            Ok(b / q / 1024.0)
        } else {
            Err("no requests in the interval".to_string())
        }
    };
    let io_row = v.get(section::IO_PROFILE, "Total Requests [Read+Write]");
    // As printed: 1 decimal in instance reports, 2 in `IO Profile (Global)`.
    let io_decimals = io_row
        .as_ref()
        .and_then(|x| x.printed.as_deref())
        .and_then(|p| p.trim().split_once('.'))
        .map_or(1, |(_, f)| f.len() as u32);
    let io_total = io_row.and_then(|x| x.per_second).ok_or_else(|| {
        if source.statspack() {
            "Statspack reports have no IO Profile".to_string()
        } else {
            "the report has no IO Profile (added in 11.2.0.4) or no Total Requests row".to_string()
        }
    });
    let hit = (|| {
        let prc = total("physical reads cache")?;
        let dbg = total("db block gets from cache")?;
        let cg = total("consistent gets from cache")?;
        if dbg + cg <= 0.0 {
            return Err("no logical reads from cache in the interval".to_string());
        }
        Ok(100.0 * (1.0 - prc / (dbg + cg)))
    })();
    let printed_hit = v
        .get(section::EFFICIENCY, "Buffer Hit %")
        .and_then(|x| x.value)
        .ok_or_else(|| {
            if source.is(ReportKind::RacGlobal) {
                "RAC global reports print no database Buffer Hit % (only Global Cache Efficiency)"
                    .to_string()
            } else {
                "the report prints no Buffer Hit % (Instance Efficiency Percentages)".to_string()
            }
        });
    let wait = |sec: &'static str, other: &'static str, ev: &'static str, from: &str| -> Figure {
        // Exadata reports the same waits under the cell events; where both are printed, the one
        // with more waits is the database's real single-block / multiblock read.
        let exa = match ev {
            "db file sequential read" => Some("cell single block physical read"),
            "db file scattered read" => Some("cell multiblock physical read"),
            _ => None,
        };
        let pick = |table: &'static str| {
            let mut best: Option<(&str, &crate::model::Cells)> = None;
            for name in std::iter::once(ev).chain(exa) {
                if let Some(r) = v.get(table, name).filter(|r| r.value.is_some()) {
                    let more = best
                        .as_ref()
                        .is_none_or(|(_, b)| r.total.unwrap_or(0.0) > b.total.unwrap_or(0.0));
                    if more {
                        best = Some((name, r));
                    }
                }
            }
            best.map(|(name, r)| (name, table, r))
        };
        let found = pick(sec).or_else(|| pick(other));
        let from = match &found {
            Some((name, table, _)) if *name != ev => {
                format!("{table} '{name}' average wait (the Exadata event for '{ev}')")
            }
            Some((_, table, _)) if *table != sec => format!("{table} '{ev}' average wait"),
            _ => from.to_string(),
        };
        let row = found.map(|(_, _, r)| r);
        match row.as_ref().and_then(|x| x.value) {
            Some(ms) => {
                let printed = row.and_then(|x| x.printed.as_deref());
                let d = printed.map_or(2, decimals_in_ms);
                let waits = row.and_then(|x| x.total);
                let mut m = Figure::known(ms, "ms", d, from);
                // Recomputed as Total Wait Time / Waits where finer than printed
                // (model::wait_average): the bounds give back the total and its precision.
                let (lo, hi) = (row.and_then(|x| x.lo), row.and_then(|x| x.hi));
                let pd = printed.map_or(0, decimals_in_ms);
                let zero = printed.and_then(crate::model::printed_ms) == Some(0.0);
                match (lo, hi, waits) {
                    // A printed 0 read as the bound it is (model::wait_average: the total is
                    // not finer than it).
                    (Some(lo), Some(hi), _)
                        if zero && (hi - half_unit(pd as i32)).abs() < 1e-12 =>
                    {
                        m = m.finer(lo, hi, Some(0.0), pd, DerivedFrom::PrintedZero);
                    }
                    (Some(lo), Some(hi), Some(n)) => {
                        let at_most = lo <= 0.0;
                        let half = if at_most { hi } else { (hi - lo) / 2.0 } * n / 1000.0;
                        // Half a unit of the total's last printed digit: 0.5 × 10^-k s.
                        let k = (0.5 / half).log10().round() as i32;
                        let total_wait_half_s = round_signed(0.5 * 10f64.powi(-k), k + 1);
                        let total_wait_s = if at_most {
                            0.0
                        } else {
                            round_signed((lo + hi) / 2.0 * n / 1000.0, k)
                        };
                        m = m.finer(
                            lo,
                            hi,
                            printed.and_then(crate::model::printed_ms),
                            // A sum of instances has no printed cell: 2 decimals, as before.
                            printed.map_or(2, decimals_in_ms),
                            DerivedFrom::TotalWaitTimeOverWaits {
                                total_wait_s,
                                total_wait_half_s,
                                waits: n,
                            },
                        );
                    }
                    _ => {}
                }
                let notes = m.notes_mut();
                notes.printed = printed.map(Into::into);
                notes.event = found.map(|(name, _, _)| name.into());
                notes.waits = waits;
                m
            }
            None => Figure::unknown(
                "ms",
                2,
                from,
                format!("no '{ev}' wait event (with an average wait) in the report"),
            ),
        }
    };
    let fg = section::FG_WAITS;
    let bg = section::BG_WAITS;
    // Single-block requests/s = the rate × the single-block share of the interval totals, so the
    // figure is not the difference of two rounded rates.
    let small = |tot: &ValueOrWhy, all: &str, multi: &str| {
        let rate_all = tot.clone()?;
        let (t, m) = (total(all)?, total(multi)?);
        if t > 0.0 {
            Ok(rate_all * (t - m) / t)
        } else {
            Ok(rate_all - rate(multi)?)
        }
    };
    // The single-block share of the interval totals (small requests = rate × share).
    let share = |all: &str, multi: &str| match (total(all), total(multi)) {
        (Ok(t), Ok(m)) if t > 0.0 => (t - m) / t,
        _ => f64::NAN,
    };
    let required_stats: Vec<&str> = formula
        .terms
        .iter()
        .filter_map(|t| term_statistic(t))
        .collect();
    let formula_from = format!(
        "{} per Second (rules/sizing.toml{})",
        formula
            .terms
            .iter()
            .map(|t| format!("'{}'", term_statistic(t).unwrap_or(t)))
            .collect::<Vec<_>>()
            .join(" + "),
        fallback_why.map_or(String::new(), |why| format!(
            ", the fallback formula [required_iops.fallback]: {why}"
        ))
    );
    let cpu = crate::cpu::awr_figures(
        v,
        match source {
            FigureSource::Report { kind, .. } => Some(kind),
            FigureSource::RacSum => None,
        },
    )
    .map(|c| match c.value {
        Ok((x, d)) => Figure::known(x, "%", d, c.from),
        Err(why) => Figure::unknown("%", 2, c.from, why),
    });
    let mut figures = IntervalFigures {
        read_iops: finer_rate(Figure::of(r.clone(), "IOPS", rate_decimals, format!("'{RD}' per Second")), &[RD], 1.0),
        write_iops: finer_rate(Figure::of(w.clone(), "IOPS", rate_decimals, format!("'{WR}' per Second")), &[WR], 1.0),
        redo_writes_per_s: finer_rate(Figure::of(redo, "writes/s", rate_decimals, "'redo writes' per Second"), &["redo writes"], 1.0),
        measured_iops: finer_rate(
            Figure::of(
                measured.clone(),
                "IOPS",
                rate_decimals,
                format!("'{RD}' + '{WR}' per Second"),
            ),
            &[RD, WR],
            1.0,
        ),
        required_iops: finer_rate(
            Figure::of(required, "IOPS", rate_decimals, formula_from),
            &required_stats,
            1.0,
        ),
        required_iops_fallback,
        required_margin_pct: Figure::of(
            margin,
            "%",
            1,
            "100 × (required IOPS − measured IOPS) / measured IOPS",
        ),
        io_profile_total_iops: Figure::of(
            io_total,
            "IOPS",
            io_decimals,
            "IO Profile 'Total Requests' Read+Write per Second (as printed)",
        ),
        read_bytes_per_s: Figure::of(rb.clone(), "bytes/s", rate_decimals, format!("'{RB}' per Second")),
        write_bytes_per_s: Figure::of(wb.clone(), "bytes/s", rate_decimals, format!("'{WB}' per Second")),
        read_mb_s: Figure::of(
            rb.clone().map(|b| b / 1e6),
            "MB/s",
            2,
            format!("'{RB}' per Second / 10^6"),
        ),
        write_mb_s: Figure::of(
            wb.clone().map(|b| b / 1e6),
            "MB/s",
            2,
            format!("'{WB}' per Second / 10^6"),
        ),
        total_mb_s: Figure::of(
            rb.clone().and_then(|r| Ok((r + wb.clone()?) / 1e6)),
            "MB/s",
            2,
            format!("('{RB}' + '{WB}') per Second / 10^6"),
        ),
        avg_read_kib: Figure::of(
            ratio_kib(RB, RD),
            "KiB",
            1,
            format!("'{RB}' / '{RD}' / 1024 (interval totals)"),
        ),
        avg_write_kib: Figure::of(
            ratio_kib(WB, WR),
            "KiB",
            1,
            format!("'{WB}' / '{WR}' / 1024 (interval totals)"),
        ),
        single_block_read_p95: p95_of(
            v,
            &["db file sequential read", "cell single block physical read"],
        ),
        multiblock_read_p95: p95_of(
            v,
            &["db file scattered read", "cell multiblock physical read"],
        ),
        log_write_p95: p95_of(v, &["log file parallel write"]),
        avg_redo_write_kib: Figure::of(
            ratio_kib("redo size", "redo writes"),
            "KiB",
            1,
            "'redo size' / 'redo writes' / 1024 (interval totals)",
        ),
        read_pct: Figure::of(
            (|| {
                let (rt, wt) = (total(RD)?, total(WR)?);
                if rt + wt > 0.0 {
                    Ok(100.0 * rt / (rt + wt))
                } else {
                    Err("no requests in the interval".to_string())
                }
            })(),
            "%",
            1,
            format!("100 × '{RD}' / ('{RD}' + '{WR}'), interval totals"),
        ),
        small_read_iops: finer_rate(Figure::of(small(&r, RD, RM), "IOPS", rate_decimals, format!("'{RD}' × (1 − '{RM}' / '{RD}'), interval totals")), &[RD], share(RD, RM)),
        large_read_iops: finer_rate(Figure::of(rate(RM), "IOPS", rate_decimals, format!("'{RM}' per Second")), &[RM], 1.0),
        small_write_iops: finer_rate(Figure::of(small(&w, WR, WM), "IOPS", rate_decimals, format!("'{WR}' × (1 − '{WM}' / '{WR}'), interval totals")), &[WR], share(WR, WM)),
        large_write_iops: finer_rate(Figure::of(rate(WM), "IOPS", rate_decimals, format!("'{WM}' per Second")), &[WM], 1.0),
        direct_read_pct: Figure::of(
            (|| {
                let pr = total("physical reads")?;
                let dr = total("physical reads direct")?;
                if pr > 0.0 {
                    Ok(100.0 * dr / pr)
                } else {
                    Err("no physical reads in the interval".to_string())
                }
            })(),
            "%",
            1,
            "100 × 'physical reads direct' / 'physical reads' (blocks, interval totals)",
        ),
        buffer_hit_pct_printed: Figure::of(
            printed_hit,
            "%",
            2,
            if source.statspack() {
                "Instance Efficiency Indicators 'Buffer Hit %' (as printed)"
            } else {
                "Instance Efficiency Percentages 'Buffer Hit %' (as printed)"
            },
        ),
        cache_hit_pct: Figure::of(
            hit,
            "%",
            2,
            "100 × (1 − 'physical reads cache' / ('db block gets from cache' + 'consistent gets from cache')), interval totals",
        ),
        db_file_sequential_read_ms: wait(fg, bg, "db file sequential read", "Foreground Wait Events 'db file sequential read' average wait"),
        db_file_scattered_read_ms: wait(fg, bg, "db file scattered read", "Foreground Wait Events 'db file scattered read' average wait"),
        log_file_parallel_write_ms: wait(bg, fg, "log file parallel write", "Background Wait Events 'log file parallel write' average wait"),
        log_file_sync_ms: wait(fg, bg, "log file sync", "Foreground Wait Events 'log file sync' average wait"),
        direct_path_read_ms: wait(fg, bg, "direct path read", "Foreground Wait Events 'direct path read' average wait"),
        cell_smart_table_scan_ms: wait(fg, bg, "cell smart table scan", "Foreground Wait Events 'cell smart table scan' average wait"),
        host_cpu_busy_pct: cpu[0].clone(),
        host_cpu_iowait_pct: cpu[1].clone(),
        small_read_basis: exadata::SmallReadBasis::TotalMinusMultiblock,
        exadata: None,
    };
    // Exadata: single-block reads are the cell waits (crate::metrics::exadata), not total − multiblock.
    let f = &figures;
    let exadata = exadata::figures(
        v,
        &f.read_iops,
        &f.required_iops,
        &f.total_mb_s,
        rate_decimals,
        exadata_policy,
    );
    figures.exadata = exadata.map(Box::new);
    if let Some(x) = figures
        .exadata
        .as_ref()
        .filter(|x| x.single_block_reads_per_s.value.is_some())
    {
        figures.small_read_iops = x.single_block_reads_per_s.clone();
        figures.small_read_basis = exadata::SmallReadBasis::SingleBlockReadWaits;
    }
    figures
}
