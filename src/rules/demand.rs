//! What a workload needs ([`Demand`]) and how required IOPS is computed from a database's
//! IO counters ([`IopsFormula`], [`IopsTerm`]).

use serde::{Deserialize, Serialize};

/// What the workload needs, at the sizing statistic (before headroom). Built
/// by the metrics module; `None` = unknown (rules that need it are reported as
/// not evaluated, never treated as 0).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Demand {
    /// IOPS the storage must serve (requests/s), summed by the caller from
    /// the terms of [`RuleSet::required_iops_formula`](crate::rules::RuleSet::required_iops_formula).
    /// `None` when the subject could not be sized (its JSON demand then says unknown, not 0).
    pub required_iops: Option<f64>,
    /// Read requests per second; `None` when the source gives no read/write split (the rules then
    /// count every request as a write, [`Note::SplitUnknownAllWrites`](crate::rules::Note)).
    pub read_iops: Option<f64>,
    /// Write requests per second; `None` as `read_iops`.
    pub write_iops: Option<f64>,
    /// Read throughput, MB/s (1 MB = 10^6 bytes); `None` = unknown (tiers are then checked on
    /// IOPS only, [`Note::ThroughputUnknown`](crate::rules::Note)), never 0.
    pub read_mb_s: Option<f64>,
    /// Write throughput, MB/s (10^6 bytes); `None` as `read_mb_s`.
    pub write_mb_s: Option<f64>,
    /// Average read request size, KiB (2^10 bytes).
    pub avg_read_kib: Option<f64>,
    /// Average write request size, KiB (2^10 bytes).
    pub avg_write_kib: Option<f64>,
    /// Share of read requests that are single-block (not multi-block), 0..1.
    pub small_read_share: Option<f64>,
    /// Share of physical reads that bypass the buffer cache (direct path reads), 0..1 (Oracle:
    /// 'physical reads direct' / 'physical reads', blocks). When most reads are direct, the
    /// buffer-cache hit ratio says little about the reads that reach storage.
    pub direct_read_share: Option<f64>,
    /// Database buffer-cache read-hit ratio, percent 0..100. Used by rules
    /// only; it is NOT the array cache hit of the back-end formula
    /// ([`OnpremPolicy::array_read_hit_pct`](crate::rules::OnpremPolicy::array_read_hit_pct)).
    pub cache_hit_pct: Option<f64>,
    /// Average single-block (small random) read latency, ms: Oracle 'db file sequential read';
    /// OS logs and vSAN: the request-weighted read latency when reads average at most 32 KiB.
    pub single_block_read_ms: Option<f64>,
    /// Average redo log write wait, ms (Oracle: 'log file parallel write').
    pub log_write_ms: Option<f64>,
    /// Data capacity the user said they need, GiB; `None` = unknown (volumes
    /// and drives are then sized for IOPS and throughput only).
    pub capacity_gib: Option<f64>,
    /// Length of the measured interval, minutes.
    pub window_minutes: Option<f64>,
    /// How long the sized load lasts, minutes: the interval the sizing figure was measured over
    /// (an AWR report's elapsed time, the sampling interval of an OS log's peak, or the run of
    /// consecutive intervals at or above it). Credit-based bursts (gp2, Azure P1–P20) are
    /// counted only when they outlast it. `None` = unknown (bursts not counted).
    pub peak_minutes: Option<f64>,
    /// Long-run average IOPS (time-weighted over all intervals, before headroom): a burst
    /// bucket refills only when it is at or below the volume's baseline. `None` = unknown.
    pub mean_iops: Option<f64>,
    /// Average multiblock / large read wait, ms (Oracle: 'db file scattered read'), for the
    /// IO report card's large-read test.
    pub large_read_ms: Option<f64>,
    /// What `single_block_read_ms` and `log_write_ms` are, for the IO report card (e.g.
    /// "AWR average wait"); `None` = the Oracle wait events named on those fields.
    pub latency_basis: Option<String>,
    /// Average redo (log) write, KiB (Oracle: 'redo size' / 'redo writes'): which log-write
    /// scale of the IO report card applies. `None` = unknown (both scales are shown).
    pub avg_log_write_kib: Option<f64>,
    /// Where the 95th percentile of single-block reads lies, ms: `(lo, hi)` with `lo ≤ p95 <
    /// hi` (`hi` infinite for the open-ended bucket), from the AWR Wait Event Histogram.
    pub single_block_read_p95: Option<(f64, f64)>,
    /// The same for multiblock reads.
    pub large_read_p95: Option<(f64, f64)>,
    /// The same for log writes ('log file parallel write').
    pub log_write_p95: Option<(f64, f64)>,
    /// Host CPU busy, percent 0..100, over the interval the demand describes (AWR: Operating
    /// System Statistics BUSY_TIME / (BUSY_TIME + IDLE_TIME); `crate::cpu`). `None` = unknown.
    pub host_cpu_busy_pct: Option<f64>,
    /// Host CPU IO wait, percent 0..100, over the same interval: the share of time the CPUs sat
    /// idle with IO outstanding (AWR: 100 × `IOWAIT_TIME` / (`BUSY_TIME` + `IDLE_TIME`), else
    /// `Host CPU` `%WIO`; OS logs: the IO-wait column, `%iowait`, `Wait%`, `% iowait`, `wt`;
    /// `crate::cpu`). `None` = unknown (esxtop prints none).
    pub host_cpu_iowait_pct: Option<f64>,
    /// Average 'direct path read' wait, ms (IO report card, large-read scale).
    pub direct_path_read_ms: Option<f64>,
    /// Average Exadata 'cell smart table scan' wait, ms (IO report card, large-read scale).
    pub smart_scan_ms: Option<f64>,
    /// The wait event behind each graded latency and the waits its average rests on, keyed
    /// by the report card's `measured_by` (`single_block_read_ms`, …); empty for OS logs.
    pub latency_events: Vec<LatencyEvent>,
}

impl Demand {
    /// Read + write MB/s (10^6 B/s); `None` when either is unknown.
    pub fn total_mb_s(&self) -> Option<f64> {
        self.read_mb_s.zip(self.write_mb_s).map(|(r, w)| r + w)
    }
}

/// The wait event behind a graded latency.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LatencyEvent {
    /// The report card's `measured_by` figure this event measures.
    pub measured_by: String,
    /// The event, verbatim (`cell single block physical read`).
    pub event: String,
    /// Its waits in the interval (`Waits` of the row whose average is used).
    pub waits: Option<f64>,
    /// Where the average was recomputed from a total printed coarser than needed (AWR Total
    /// Wait Time / Waits): the bounds the true average lies in; `None` = as printed.
    pub bounds: Option<AverageBounds>,
}

/// The bounds of an average wait recomputed from its total (`crate::metrics::Derivation`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AverageBounds {
    /// Lower bound, ms.
    pub lo_ms: f64,
    /// Upper bound, ms.
    pub hi_ms: f64,
    /// Known only as an upper bound (a total printed as 0): the average is at most `hi_ms`.
    pub at_most: bool,
    /// The total the bounds come from: Total Wait Time as printed (seconds) and half a unit
    /// of its last printed digit (seconds); `None` = from the printed average itself, which
    /// rounds to 0 (it is below half a unit of its last digit).
    pub total_wait_s: Option<(f64, f64)>,
}

/// One term of the required-IOPS formula (TOML spelling in `snake_case`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IopsTerm {
    /// All read requests/s the database issued (every file type and function).
    ReadTotal,
    /// All write requests/s, including every redo log write to every member.
    WriteTotal,
    /// Redo log write calls/s (one per log-group write, not per member).
    RedoWrites,
    /// Database-only read requests/s (buffer cache + direct), a subset of `read_total`.
    ReadDatabase,
    /// Database-only write requests/s (no redo), a subset of `write_total`.
    WriteDatabase,
}

impl IopsTerm {
    /// Every term, in declaration order.
    pub const ALL: [IopsTerm; 5] = [
        IopsTerm::ReadTotal,
        IopsTerm::WriteTotal,
        IopsTerm::RedoWrites,
        IopsTerm::ReadDatabase,
        IopsTerm::WriteDatabase,
    ];

    /// TOML spelling, e.g. `read_total`.
    pub fn as_str(self) -> &'static str {
        match self {
            IopsTerm::ReadTotal => "read_total",
            IopsTerm::WriteTotal => "write_total",
            IopsTerm::RedoWrites => "redo_writes",
            IopsTerm::ReadDatabase => "read_database",
            IopsTerm::WriteDatabase => "write_database",
        }
    }

    /// Term named `s` (TOML spelling).
    pub fn from_name(s: &str) -> Option<IopsTerm> {
        IopsTerm::ALL.iter().copied().find(|t| t.as_str() == s)
    }
}

/// The required-IOPS formula as written in `[required_iops]` of
/// `sizing.toml`: which per-second request rates are summed, why, and the
/// source. The caller (metrics) computes the sum ([`IopsFormula::compute`]);
/// the report prints [`IopsFormula::formula`], `text` and `why`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IopsFormula {
    /// Terms summed, TOML spelling, e.g. `["read_total", "write_total"]`;
    /// every entry is a valid [`IopsTerm`] name (checked at load, see
    /// [`IopsFormula::term_kinds`]).
    pub terms: Vec<String>,
    /// Human description of the formula.
    pub text: String,
    /// Why these terms (e.g. redo is already inside `write_total`).
    pub why: String,
    /// Source of the choice.
    pub source: String,
    /// Formula to use when a term of this one is unavailable (`[required_iops.fallback]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Box<IopsFormula>>,
}

impl IopsFormula {
    /// The terms joined with `+`, e.g. `read_total + write_total`.
    pub fn formula(&self) -> String {
        self.terms.join(" + ")
    }

    /// The terms as [`IopsTerm`]s (names that are not terms are skipped; a
    /// loaded rule set has none).
    pub fn term_kinds(&self) -> Vec<IopsTerm> {
        self.terms
            .iter()
            .filter_map(|t| IopsTerm::from_name(t))
            .collect()
    }

    /// Sum of the terms, each looked up with `value_of` (requests/s). Error:
    /// the name of the first term that is not a known term or that `value_of`
    /// cannot supply.
    pub fn compute(&self, value_of: impl Fn(IopsTerm) -> Option<f64>) -> Result<f64, String> {
        self.terms.iter().try_fold(0.0, |acc, name| {
            IopsTerm::from_name(name)
                .and_then(&value_of)
                .map(|v| acc + v)
                .ok_or_else(|| name.clone())
        })
    }
}
