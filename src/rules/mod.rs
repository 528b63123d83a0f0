//! Data-driven storage sizing rules: workload [`Demand`] + [`RuleSet`] →
//! [`Recommendation`].
//!
//! # Overview
//!
//! The numbers live in two TOML files, not in code: `rules/tiers.toml` (the
//! tier catalogue: per-drive and per-volume limits, list prices) and
//! `rules/sizing.toml` (the required-IOPS formula, headroom, on-premises and
//! cloud policy, and the rules). Every number there carries a `source` and each
//! file an `as_of` date. Both are embedded in the binary ([`RuleSet::builtin`]);
//! [`RuleSet::load_dir`] reads a user copy instead (`sizer --rules DIR`). The
//! schema, formulas and selection algorithm are documented in `docs/rules.md`.
//!
//! The engine knows nothing of input formats: the metrics module turns
//! evidence into a [`Demand`] (IOPS, MB/s, IO sizes, cache hit, latencies,
//! capacity), and [`recommend`] does the rest:
//!
//! 1. headroom: `sized_iops = required_iops × (1 + headroom_pct / 100)`, the same
//!    factor for MB/s;
//! 2. every rule of `sizing.toml` is evaluated on the demand: fired, not fired,
//!    or not evaluated (a metric it needs is unknown);
//! 3. every tier of each requested platform is sized: drives for arrays
//!    (back-end IOPS with RAID write penalty, capacity, RAID groups), volume
//!    count / size / provisioned IOPS / throughput and monthly cost for cloud
//!    volumes; a tier is infeasible when a limit cannot be met;
//! 4. per platform, fired `prefer` / `avoid` rules score the tiers; the
//!    feasible tier with the highest score wins, then the cheapest, then the
//!    one with fewer units.
//!
//! Units: IOPS = requests per second; MB/s = 10^6 B/s (what the demand is
//! measured in); MiB/s = 2^20 B/s (what AWS limits use); GiB = 2^30 B; drive
//! sizes in GB = 10^9 B; money in USD per month (730 h).

mod eval;
pub mod grade;
pub mod schema;
mod sizing;
/// Float equality to 1e-6 relative, for the unit tests (their hand computations are exact to
/// more digits than that).
#[cfg(test)]
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[cfg(test)]
macro_rules! assert_close {
    ($a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        assert!(close(a, b), "{} = {a}, expected {b}", stringify!($a));
    }};
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_tiers;
pub mod vsan;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use schema::{
    Catalog, CatalogMeta, CloudPolicy, CloudVolumeSpec, Condition, DriveSpec, Effect, FlashVsHdd,
    HeadroomPolicy, Instance, IopsModel, Metric, OnpremPolicy, Op, Platform, PriceBand, PriceSpec,
    RaidSpec, Rule, SizeRow, SizeTable, SizingMeta, SizingPolicy, ThroughputModel, ThroughputStep,
    Tier, TierKind, TierSpec, VolumeCountPolicy, VolumeSpec,
};

use eval::{fmt_num, fmt_trim, Outcome, Values};
use sizing::Workload;

/// Text of the built-in tier catalogue (`rules/tiers.toml`), e.g. for
/// `sizer` to write out as a starting point for `--rules DIR`.
pub const BUILTIN_TIERS_TOML: &str = include_str!("../../rules/tiers.toml");
/// Text of the built-in sizing policy and rules (`rules/sizing.toml`).
pub const BUILTIN_SIZING_TOML: &str = include_str!("../../rules/sizing.toml");

/// What the workload needs, at the sizing statistic (before headroom). Built
/// by the metrics module; `None` = unknown (rules that need it are reported as
/// not evaluated, never treated as 0).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Demand {
    /// IOPS the storage must serve (requests/s), summed by the caller from
    /// the terms of [`RuleSet::required_iops_formula`].
    pub required_iops: f64,
    /// Read requests per second.
    pub read_iops: f64,
    /// Write requests per second.
    pub write_iops: f64,
    /// Read throughput, MB/s (1 MB = 10^6 bytes).
    pub read_mb_s: f64,
    /// Write throughput, MB/s (10^6 bytes).
    pub write_mb_s: f64,
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
    /// ([`OnpremPolicy::array_read_hit_pct`]).
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

/// Error loading or validating rule files. Every variant names the file; TOML
/// errors also give the 1-based line and column and, when it can be found,
/// the dotted key (`tier[2].price.gib_month`, array indexes 0-based).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A file could not be read.
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid TOML or does not match the schema (unknown key,
    /// wrong type, missing field).
    #[error("{file}:{line}:{column}: {}{message}", key_prefix(.key))]
    Toml {
        /// File name (or `<built-in>/rules/...`).
        file: String,
        /// Dotted key at the error position, when found.
        key: Option<String>,
        /// 1-based line (0 = unknown).
        line: usize,
        /// 1-based column (0 = unknown).
        column: usize,
        /// Parser message.
        message: String,
    },
    /// A value is out of range, missing for its model, unsourced, or refers to
    /// something that does not exist.
    #[error("{file}: at `{key}`: {message}")]
    Invalid {
        /// File name.
        file: String,
        /// Dotted key.
        key: String,
        /// What is wrong.
        message: String,
    },
}

fn key_prefix(key: &Option<String>) -> String {
    key.as_ref()
        .map(|k| format!("at `{k}`: "))
        .unwrap_or_default()
}

/// Parsed and validated `tiers.toml` + `sizing.toml`.
#[derive(Debug, Clone)]
pub struct RuleSet {
    catalog: Catalog,
    sizing: SizingPolicy,
    vsan: vsan::VsanRules,
    origin: String,
}

impl RuleSet {
    /// The rules embedded in the binary (`rules/tiers.toml`, `rules/sizing.toml`).
    pub fn builtin() -> Result<RuleSet, RulesError> {
        RuleSet::from_toml_strs(
            BUILTIN_TIERS_TOML,
            "<built-in>/rules/tiers.toml",
            BUILTIN_SIZING_TOML,
            "<built-in>/rules/sizing.toml",
        )
        .map(|r| r.with_origin("built-in"))
    }

    /// Load `DIR/tiers.toml` and `DIR/sizing.toml` (both required; start from
    /// copies of [`BUILTIN_TIERS_TOML`] and [`BUILTIN_SIZING_TOML`]). Errors
    /// name the file and the TOML key.
    pub fn load_dir(dir: &Path) -> Result<RuleSet, RulesError> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path)
                .map(|text| (text, path.display().to_string()))
                .map_err(|source| RulesError::Read { path, source })
        };
        let (tiers, tiers_file) = read("tiers.toml")?;
        let (sizing, sizing_file) = read("sizing.toml")?;
        let mut r = RuleSet::from_toml_strs(&tiers, &tiers_file, &sizing, &sizing_file)?
            .with_origin(&dir.display().to_string());
        // vsan.toml is optional in a rules directory: the built-in one otherwise.
        if dir.join("vsan.toml").exists() {
            let (text, file) = read("vsan.toml")?;
            r.vsan = vsan::VsanRules::parse(&text, &file).map_err(|message| RulesError::Toml {
                file,
                key: None,
                line: 0,
                column: 0,
                message,
            })?;
        }
        Ok(r)
    }

    /// Load rules from `path`: a directory (as [`RuleSet::load_dir`]), or one TOML file that
    /// replaces its built-in counterpart: a tier catalogue (it has `[[tier]]` or
    /// `[[platform]]`) or a sizing policy (it has `[required_iops]`). Errors name the file.
    pub fn load(path: &Path) -> Result<RuleSet, RulesError> {
        if path.is_dir() {
            return RuleSet::load_dir(path);
        }
        let text = std::fs::read_to_string(path).map_err(|source| RulesError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let file = path.display().to_string();
        let table: toml::Table = schema::parse_toml(&text, &file)?;
        let r = if table.contains_key("tier") || table.contains_key("platform") {
            RuleSet::from_toml_strs(
                &text,
                &file,
                BUILTIN_SIZING_TOML,
                "<built-in>/rules/sizing.toml",
            )
        } else if table.contains_key("required_iops") {
            RuleSet::from_toml_strs(
                BUILTIN_TIERS_TOML,
                "<built-in>/rules/tiers.toml",
                &text,
                &file,
            )
        } else {
            Err(RulesError::Invalid {
                file: file.clone(),
                key: "(file)".to_string(),
                message: "neither a tier catalogue ([[tier]], [[platform]]) nor a sizing policy ([required_iops]); give one of those files or a directory holding tiers.toml and sizing.toml".to_string(),
            })
        }?;
        Ok(r.with_origin(&file))
    }

    /// Parse rule files from strings; `*_file` name them in errors.
    pub fn from_toml_strs(
        tiers_toml: &str,
        tiers_file: &str,
        sizing_toml: &str,
        sizing_file: &str,
    ) -> Result<RuleSet, RulesError> {
        let catalog = schema::parse_catalog(tiers_toml, tiers_file)?;
        let sizing = schema::parse_sizing(sizing_toml, sizing_file)?;
        schema::check_targets(&sizing, &catalog, sizing_file)?;
        Ok(RuleSet {
            catalog,
            sizing,
            vsan: vsan::VsanRules::builtin(),
            origin: format!("{tiers_file} + {sizing_file}"),
        })
    }

    /// vSAN storage policies and advice thresholds (`vsan.toml`).
    pub fn vsan(&self) -> &vsan::VsanRules {
        &self.vsan
    }

    fn with_origin(mut self, origin: &str) -> RuleSet {
        self.origin = origin.to_string();
        self
    }

    /// Which terms make "required IOPS" (`[required_iops]` of sizing.toml).
    pub fn required_iops_formula(&self) -> &IopsFormula {
        &self.sizing.required_iops
    }

    /// Default headroom, percent (`[headroom].default_pct`, e.g. 30).
    pub fn default_headroom_pct(&self) -> f64 {
        self.sizing.headroom.default_pct
    }

    /// The tier catalogue.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The sizing policy and rules.
    pub fn sizing(&self) -> &SizingPolicy {
        &self.sizing
    }

    /// Tiers in file order.
    pub fn tiers(&self) -> &[Tier] {
        &self.catalog.tiers
    }

    /// Rules in file order.
    pub fn rules(&self) -> &[Rule] {
        &self.sizing.rules
    }

    /// `as_of` of the tier catalogue (prices and limits).
    pub fn catalog_as_of(&self) -> &str {
        &self.catalog.meta.as_of
    }

    /// Where the rules came from: `built-in` or the directory.
    pub fn origin(&self) -> &str {
        &self.origin
    }
}

/// Options of one recommendation.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Headroom over the sizing statistic, percent; `None` = the rule set's
    /// default. Negative or non-finite values are ignored (with a note).
    pub headroom_pct: Option<f64>,
    /// Platform ids to size (`onprem`, `aws`; case-insensitive); empty = all.
    pub platforms: Vec<String>,
    /// Decimals the demand's own figures (required, read, write IOPS) are quoted with in notes and
    /// explanations: the precision the source prints them with; `None` = 2.
    pub figure_decimals: Option<u32>,
    /// The required-IOPS formula to quote when the demand does not come from the rule set's own
    /// (OS logs: `r/s + w/s + d/s`); `None` = the rule set's formula.
    pub formula: Option<String>,
    /// Host type whose storage caps apply (`[[instance]]` id of the catalogue, e.g.
    /// `r5.4xlarge`), on its platform only; `None` = the platform's own cap.
    pub instance: Option<String>,
}

/// What an option counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Physical drives in an array.
    Drive,
    /// Cloud block volumes.
    Volume,
}

/// Serializes options; an infeasible one gets `null` for the configuration it does not have.
fn options_ser<S: serde::Serializer>(v: &[TierOption], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::{Error, SerializeSeq};
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for o in v {
        let mut val = serde_json::to_value(o).map_err(S::Error::custom)?;
        if !o.feasible {
            if let Some(m) = val.as_object_mut() {
                for k in [
                    "count",
                    "size_per_unit_gib",
                    "total_gib",
                    "usable_gib",
                    "iops_capability",
                ] {
                    m.insert(k.to_string(), serde_json::Value::Null);
                }
            }
        }
        seq.serialize_element(&val)?;
    }
    seq.end()
}

/// Serializes a computed figure to 2 decimals (no float noise such as 1899.8460000000002).
fn round2<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 100.0).round() / 100.0)
}

fn cents<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 100.0).round() / 100.0)
}

fn cents_opt<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_f64((v * 100.0).round() / 100.0),
        None => s.serialize_none(),
    }
}

/// Monthly cost components, USD (serialized rounded to cents).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostBreakdown {
    /// Provisioned capacity: GiB × price per GiB-month, all units.
    #[serde(serialize_with = "cents")]
    pub storage_usd: f64,
    /// Provisioned IOPS above the included amount, by price band, all units.
    #[serde(serialize_with = "cents")]
    pub iops_usd: f64,
    /// Provisioned throughput above the included amount, all units.
    #[serde(serialize_with = "cents")]
    pub throughput_usd: f64,
    /// Per-request charges: required IOPS × 3,600 × hours per month / 10^6 ×
    /// price per million (EBS Magnetic); no headroom.
    #[serde(serialize_with = "cents")]
    pub io_requests_usd: f64,
}

/// One tier configured for the demand.
#[derive(Debug, Clone, Serialize)]
pub struct TierOption {
    /// Tier id (`aws.gp3`).
    pub tier_id: String,
    /// Display name.
    pub name: String,
    /// Platform id.
    pub platform: String,
    /// Media class (`ssd`, `hdd`).
    pub media: String,
    /// Published latency class, if any.
    pub latency: Option<String>,
    /// Meets sized IOPS, MB/s and capacity within every limit.
    pub feasible: bool,
    /// The limit that cannot be met, when not feasible.
    pub infeasible_reason: Option<String>,
    /// What `count` counts.
    pub unit: Unit,
    /// Drives or volumes (0 for an infeasible cloud option).
    pub count: u32,
    /// Size of one drive or volume, GiB.
    pub size_per_unit_gib: f64,
    /// count × size, GiB (raw).
    pub total_gib: f64,
    /// Usable GiB after RAID (equal to `total_gib` for cloud volumes).
    pub usable_gib: f64,
    /// Front-end IOPS the configuration serves at the demand's read/write mix.
    pub iops_capability: f64,
    /// Provisioned (or size-derived) IOPS of all volumes (cloud only).
    pub provisioned_iops: Option<f64>,
    /// IOPS per volume (cloud only).
    pub provisioned_iops_per_unit: Option<f64>,
    /// Throughput of all volumes, MiB/s (cloud only; not modelled for drives).
    pub throughput_mib_s: Option<f64>,
    /// Throughput per volume, MiB/s.
    pub throughput_mib_s_per_unit: Option<f64>,
    /// Back-end IOPS after RAID write penalty and array cache (arrays only).
    pub backend_iops: Option<f64>,
    /// IOPS as the provider counts them when requests exceed its IO unit
    /// (e.g. 512 KiB reads = 2 × 256 KiB); `None` when equal to sized IOPS.
    pub counted_iops: Option<f64>,
    /// Name of the fixed size chosen (Azure `P30`); `None` for other tiers.
    pub size_name: Option<String>,
    /// The configuration meets the peak only with credit-based bursting (see
    /// `binding_limits` for the bucket arithmetic).
    pub bursting: bool,
    /// Worst per-IO latency of the tier's published class, ms (catalogue `latency_ms`).
    pub latency_ms: Option<f64>,
    /// IO report card grade the tier's `latency_ms` would get on each measured test, and
    /// whether that is worse than today's measured grade.
    pub latency_check: Vec<grade::TierGrade>,
    /// For an option that did not win: why (infeasible, a rule, cost, latency).
    pub lost_because: Option<String>,
    /// Drives needed for IOPS alone (arrays).
    pub drives_for_iops: Option<u32>,
    /// Drives needed for capacity alone (arrays; `None` when capacity unknown).
    pub drives_for_capacity: Option<u32>,
    /// Monthly list cost, USD; `None` when no public price exists (never 0 for unknown).
    /// Serialized rounded to cents.
    #[serde(serialize_with = "cents_opt")]
    pub monthly_cost_usd: Option<f64>,
    /// Components of `monthly_cost_usd`.
    pub cost_breakdown: Option<CostBreakdown>,
    /// Why `monthly_cost_usd` is `None`.
    pub cost_note: Option<String>,
    /// Limits that set the configuration (IOPS, capacity, ratios, striping).
    pub binding_limits: Vec<String>,
    /// Caveats and assumptions.
    pub notes: Vec<String>,
    /// Σ prefer weights − Σ avoid weights of the fired rules that target it.
    pub rule_score: i64,
    /// Ids of fired rules that prefer it.
    pub preferred_by: Vec<String>,
    /// Ids of fired rules that avoid it.
    pub avoided_by: Vec<String>,
    /// `source` strings of the tier and its sub-tables.
    pub sources: Vec<String>,
}

/// Result for one platform.
#[derive(Debug, Clone, Serialize)]
pub struct PlatformRecommendation {
    /// Platform id.
    pub platform: String,
    /// Display name.
    pub name: String,
    /// `[[instance]]` whose caps were applied, if any.
    pub instance: Option<String>,
    /// The winning option; `None` when no tier is feasible.
    pub recommended: Option<TierOption>,
    /// Other feasible options by cost (unknown cost last, then fewer units),
    /// then infeasible ones in catalogue order (`feasible = false`,
    /// `infeasible_reason` set). An infeasible option has no configuration:
    /// it is serialized with `count`, `size_per_unit_gib`, `total_gib`,
    /// `usable_gib` and `iops_capability` as `null`, never 0.
    #[serde(serialize_with = "options_ser")]
    pub alternatives: Vec<TierOption>,
    /// Why the recommended option won.
    pub explanation: Vec<String>,
}

/// A rule whose conditions all held.
#[derive(Debug, Clone, Serialize)]
pub struct FiredRule {
    /// Rule id.
    pub id: String,
    /// What it does.
    pub effect: Effect,
    /// Targets (tier ids or `group:NAME`).
    pub targets: Vec<String>,
    /// Score added or subtracted (0 for notes).
    pub weight: u32,
    /// Applies only to options with at most this many units.
    pub max_units: Option<u32>,
    /// Message with the actual numbers.
    pub message: String,
    /// Source of the rule.
    pub source: String,
}

/// A rule with a known condition that did not hold.
#[derive(Debug, Clone, Serialize)]
pub struct NotFiredRule {
    /// Rule id.
    pub id: String,
    /// The first false condition, e.g. `cache_hit_pct = 99.50 is not < 95`.
    pub reason: String,
}

/// A rule that could not be evaluated because a metric it needs is unknown.
#[derive(Debug, Clone, Serialize)]
pub struct NotEvaluatedRule {
    /// Rule id.
    pub id: String,
    /// E.g. `cache_hit_pct unknown`.
    pub reason: String,
    /// The unknown metrics (TOML spelling).
    pub unknown_metrics: Vec<String>,
}

/// The outcome of [`recommend`]. Field names are stable (JSON output).
#[derive(Debug, Clone, Serialize)]
pub struct Recommendation {
    /// Where the rules came from (`built-in` or a directory).
    pub rules_origin: String,
    /// `as_of` of the tier catalogue.
    pub catalog_as_of: String,
    /// Headroom used, percent.
    pub headroom_pct: f64,
    /// Required IOPS before headroom.
    #[serde(serialize_with = "round2")]
    pub required_iops: f64,
    /// The formula behind `required_iops`, e.g. `read_total + write_total`.
    pub required_iops_formula: String,
    /// required_iops × (1 + headroom_pct / 100).
    #[serde(serialize_with = "round2")]
    pub sized_iops: f64,
    /// (read + write MB/s) × (1 + headroom_pct / 100), MB/s (10^6).
    #[serde(serialize_with = "round2")]
    pub sized_mb_s: f64,
    /// `sized_mb_s` in MiB/s (× 10^6 / 2^20).
    #[serde(serialize_with = "round2")]
    pub sized_mib_s: f64,
    /// Capacity asked for, GiB.
    pub capacity_gib: Option<f64>,
    /// False when capacity was not given (sizes are then minimums for IOPS).
    pub capacity_given: bool,
    /// One entry per platform, in catalogue order.
    pub platforms: Vec<PlatformRecommendation>,
    /// Rules that fired.
    pub fired_rules: Vec<FiredRule>,
    /// Rules with a false condition.
    pub not_fired: Vec<NotFiredRule>,
    /// Rules that needed an unknown metric.
    pub not_evaluated: Vec<NotEvaluatedRule>,
    /// Caveats about the demand and options.
    pub notes: Vec<String>,
    /// Short sentences on the sizing and on why each recommended tier won.
    pub explanation: Vec<String>,
    /// IO report card of the measured latencies (`None` when the rules have no
    /// `[report_card]`).
    pub report_card: Option<grade::ReportCard>,
}

/// Size every tier of the requested platforms for `demand` and pick one per
/// platform. The algorithm is in the module docs and `docs/rules.md`.
pub fn recommend(rules: &RuleSet, demand: &Demand, opts: &Options) -> Recommendation {
    let mut notes = Vec::new();
    let default_h = rules.default_headroom_pct();
    let headroom = match opts.headroom_pct {
        Some(h) if h.is_finite() && h >= 0.0 => h,
        Some(h) => {
            notes.push(format!(
                "headroom {h} % ignored (must be a finite number >= 0); default {} % used",
                fmt_trim(default_h)
            ));
            default_h
        }
        None => default_h,
    };
    let dec = opts.figure_decimals.unwrap_or(2) as usize;
    let w = Workload::new(demand, headroom, dec);
    notes.extend(w.notes.iter().cloned());
    if w.capacity_gib.is_none() {
        notes.push("capacity not given: sizes are the minimum for IOPS and throughput".to_string());
    }

    // Rules
    let values = Values::new(demand, headroom);
    let mut fired = Vec::new();
    let mut not_fired = Vec::new();
    let mut not_evaluated = Vec::new();
    for r in rules.rules() {
        match eval::evaluate(r, &values) {
            Outcome::Fired(f) => fired.push(f),
            Outcome::NotFired(n) => not_fired.push(n),
            Outcome::NotEvaluated(n) => not_evaluated.push(n),
        }
    }

    // Platforms
    let wanted: Vec<String> = opts
        .platforms
        .iter()
        .map(|p| p.trim().to_ascii_lowercase())
        .collect();
    for p in &wanted {
        if !rules
            .catalog
            .platforms
            .iter()
            .any(|x| x.id.eq_ignore_ascii_case(p))
        {
            let known: Vec<&str> = rules
                .catalog
                .platforms
                .iter()
                .map(|x| x.id.as_str())
                .collect();
            notes.push(format!(
                "unknown platform \"{p}\" ignored (known: {})",
                known.join(", ")
            ));
        }
    }
    let formula = opts
        .formula
        .clone()
        .unwrap_or_else(|| rules.required_iops_formula().formula());
    let mut explanation = vec![format!(
        "Sized for {} IOPS ({formula}) × (1 + {} % headroom) = {} IOPS and {} MB/s = {} MiB/s (1 MB = 10^6 B, 1 MiB = 2^20 B).",
        fmt_num(w.required_iops, dec),
        fmt_trim(headroom),
        fmt_num(w.sized_iops, 2),
        fmt_num(w.sized_mb_s, 2),
        fmt_num(w.sized_mib_s, 2)
    )];
    let card = rules
        .sizing
        .report_card
        .as_ref()
        .map(|spec| grade::card(spec, demand));
    let instance = opts.instance.as_deref().map(str::trim);
    if let Some(id) = instance {
        let found = rules
            .catalog
            .instances
            .iter()
            .find(|i| i.id.eq_ignore_ascii_case(id));
        if let Some(i) = found {
            if !wanted.is_empty() && !wanted.iter().any(|w| w.eq_ignore_ascii_case(&i.platform)) {
                notes.push(format!(
                    "instance {} caps {} volumes, and {} is not among the targets: it changes nothing here",
                    i.id, i.platform, i.platform
                ));
            }
        }
        if found.is_none() {
            notes.push(format!(
                "instance \"{id}\" is not in the catalogue ([[instance]]); no instance cap applied (known: {})",
                rules
                    .catalog
                    .instances
                    .iter()
                    .map(|i| i.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let mut platforms = Vec::new();
    for p in &rules.catalog.platforms {
        if !wanted.is_empty() && !wanted.iter().any(|x| p.id.eq_ignore_ascii_case(x)) {
            continue;
        }
        let inst = instance.and_then(|id| {
            rules
                .catalog
                .instances
                .iter()
                .find(|i| i.platform == p.id && i.id.eq_ignore_ascii_case(id))
        });
        let pr = size_platform(rules, p, inst, &w, &fired, card.as_ref());
        explanation.extend(pr.explanation.iter().map(|s| format!("{}: {s}", p.id)));
        platforms.push(pr);
    }

    Recommendation {
        rules_origin: rules.origin.clone(),
        catalog_as_of: rules.catalog.meta.as_of.clone(),
        headroom_pct: headroom,
        required_iops: w.required_iops,
        required_iops_formula: formula,
        sized_iops: w.sized_iops,
        sized_mb_s: w.sized_mb_s,
        sized_mib_s: w.sized_mib_s,
        capacity_gib: w.capacity_gib,
        capacity_given: w.capacity_gib.is_some(),
        platforms,
        fired_rules: fired,
        not_fired,
        not_evaluated,
        notes,
        explanation,
        report_card: card,
    }
}

fn cost_key(o: &TierOption) -> f64 {
    o.monthly_cost_usd.unwrap_or(f64::INFINITY)
}

fn usd(x: f64) -> String {
    format!("${}/month", fmt_num(x, 2))
}

/// Size every tier of `p`, score them with the fired rules, pick the winner.
fn size_platform(
    rules: &RuleSet,
    p: &Platform,
    instance: Option<&Instance>,
    w: &Workload,
    fired: &[FiredRule],
    card: Option<&grade::ReportCard>,
) -> PlatformRecommendation {
    let mut options: Vec<TierOption> = rules
        .tiers()
        .iter()
        .filter(|t| t.platform == p.id)
        .map(|t| {
            let mut o = match &t.spec {
                TierSpec::DriveArray { drive, raid } => {
                    sizing::size_drive_array(t, drive, raid, &rules.sizing.onprem, w)
                }
                TierSpec::CloudVolume(spec) => sizing::size_cloud(
                    t,
                    spec,
                    Some(p),
                    instance,
                    &rules.sizing.cloud,
                    rules.catalog.meta.hours_per_month,
                    w,
                ),
            };
            o.latency_ms = t.latency_ms;
            if let (Some(spec), Some(card)) = (&rules.sizing.report_card, card) {
                o.latency_check = grade::tier_grades(spec, card, t);
            }
            score(t, &mut o, fired);
            o
        })
        .collect();

    // Winner: highest score, then cheapest (unknown cost last), then fewer
    // units; sort is stable, so catalogue order breaks remaining ties.
    let mut feasible: Vec<TierOption> = Vec::new();
    let mut infeasible: Vec<TierOption> = Vec::new();
    for o in options.drain(..) {
        if o.feasible {
            feasible.push(o);
        } else {
            infeasible.push(o);
        }
    }
    // Without prices (arrays), fewer units, then less raw capacity (fewer idle GiB bought).
    let by_cost = |a: &TierOption, b: &TierOption| {
        cost_key(a)
            .total_cmp(&cost_key(b))
            .then(a.count.cmp(&b.count))
            .then(a.total_gib.total_cmp(&b.total_gib))
    };
    // The winner: a priced option before an unpriced one (a recommendation must be costable
    // when the platform has prices), then the highest score, then by_cost; the first of equals
    // (catalogue order).
    let best = (0..feasible.len()).min_by(|&i, &j| {
        let (a, b) = (&feasible[i], &feasible[j]);
        b.monthly_cost_usd
            .is_some()
            .cmp(&a.monthly_cost_usd.is_some())
            .then(b.rule_score.cmp(&a.rule_score))
            .then_with(|| by_cost(a, b))
    });
    let mut explanation = explain(best.map(|i| &feasible[i]), &feasible, &infeasible, fired);
    let flash = rules
        .sizing
        .flash_vs_hdd
        .as_ref()
        .and_then(|cmp| flash_vs_hdd(cmp, rules, &feasible));
    let mut alternatives = feasible;
    let recommended = best.map(|i| alternatives.remove(i));
    alternatives.sort_by(by_cost);
    if let Some(rec) = &recommended {
        for a in alternatives.iter_mut() {
            a.lost_because = Some(lost_because(rec, a));
        }
        if let Some(risk) = grade::risk_text(&rec.latency_check) {
            let keeps: Vec<&TierOption> = alternatives
                .iter()
                .filter(|a| !a.latency_check.is_empty() && !a.latency_check.iter().any(|g| g.worse))
                .collect();
            let mut s = format!(
                "Latency: `{}` may be slower than today's storage: {risk}",
                rec.tier_id
            );
            match keeps.first() {
                Some(k) => s.push_str(&format!(
                    "; `{}` (up to {} ms, {}) keeps today's grades",
                    k.tier_id,
                    fmt_trim(k.latency_ms.unwrap_or(0.0)),
                    k.monthly_cost_usd
                        .map(usd)
                        .unwrap_or_else(|| "no list price".to_string())
                )),
                None => s.push_str("; no feasible tier of this platform keeps today's grades"),
            }
            s.push('.');
            explanation.push(s);
        } else if !rec.latency_check.is_empty() {
            explanation.push(format!(
                "Latency: even at the up to {} ms its published class allows, it keeps every measured grade of the IO report card.",
                fmt_trim(rec.latency_ms.unwrap_or(0.0))
            ));
        }
    }
    for a in infeasible.iter_mut() {
        a.lost_because = Some(format!(
            "not feasible: {}",
            a.infeasible_reason.as_deref().unwrap_or("limits exceeded")
        ));
    }
    explanation.extend(flash);
    // A host type too small for every tier: name the catalogued ones that are large enough.
    if let (Some(inst), None) = (instance, &recommended) {
        let fits: Vec<String> = rules
            .catalog
            .instances
            .iter()
            .filter(|i| {
                i.platform == p.id
                    && i.id != inst.id
                    && i.max_iops + 1e-9 >= w.sized_iops
                    && i.max_mb_s + 1e-9 >= w.sized_mb_s
            })
            .map(|i| {
                format!(
                    "{} ({} IOPS, {} MB/s)",
                    i.id,
                    fmt_num(i.max_iops, 0),
                    fmt_num(i.max_mb_s, 2)
                )
            })
            .collect();
        explanation.push(if fits.is_empty() {
            format!(
                "No catalogued {} host type drives {} IOPS and {} MB/s; add yours as an [[instance]] in a --rules copy.",
                p.id,
                fmt_num(w.sized_iops, 0),
                fmt_num(w.sized_mb_s, 2)
            )
        } else {
            format!(
                "{} cannot drive {} IOPS and {} MB/s; catalogued host types that can: {}.",
                inst.id,
                fmt_num(w.sized_iops, 0),
                fmt_num(w.sized_mb_s, 2),
                fits.join(", ")
            )
        });
    }
    alternatives.extend(infeasible);
    PlatformRecommendation {
        platform: p.id.clone(),
        name: p.name.clone(),
        instance: instance.map(|i| i.id.clone()),
        recommended,
        alternatives,
        explanation,
    }
}

/// Why feasible option `a` lost to `rec`.
fn lost_because(rec: &TierOption, a: &TierOption) -> String {
    let mut parts = Vec::new();
    if a.monthly_cost_usd.is_none() && rec.monthly_cost_usd.is_some() {
        parts.push(format!(
            "no list price in the catalogue, so it cannot be costed against priced tiers{}",
            if a.rule_score > rec.rule_score {
                format!(
                    " (its rule score {:+} is higher: {})",
                    a.rule_score,
                    a.preferred_by.join(", ")
                )
            } else {
                String::new()
            }
        ));
        if let Some(r) = grade::risk_text(&a.latency_check) {
            parts.push(r);
        }
        return parts.join("; ");
    }
    if a.rule_score < rec.rule_score {
        let mut why = format!("rule score {:+} < {:+}", a.rule_score, rec.rule_score);
        if !rec.preferred_by.is_empty() {
            why.push_str(&format!(
                " (`{}` preferred by {})",
                rec.tier_id,
                rec.preferred_by.join(", ")
            ));
        }
        if !a.avoided_by.is_empty() {
            why.push_str(&format!(" (avoided by {})", a.avoided_by.join(", ")));
        }
        parts.push(why);
    }
    match (a.monthly_cost_usd, rec.monthly_cost_usd) {
        (Some(x), Some(y)) if x > y + 0.005 => parts.push(format!(
            "costs {} more ({} vs {})",
            usd(x - y),
            usd(x),
            usd(y)
        )),
        (Some(x), Some(y)) if x + 0.005 < y => parts.push(format!(
            "{} cheaper ({} vs {}), but ranked lower by rule",
            usd(y - x),
            usd(x),
            usd(y)
        )),
        (Some(_), Some(_)) => {
            if a.count > rec.count {
                parts.push(format!(
                    "same cost, more units ({} vs {})",
                    a.count, rec.count
                ));
            } else {
                parts.push("same cost; catalogue order".to_string());
            }
        }
        (None, Some(_)) => parts.push(
            "no list price in the catalogue, so it ranks after every priced tier".to_string(),
        ),
        (_, None) => {
            if a.count > rec.count {
                parts.push(format!("needs more units ({} vs {})", a.count, rec.count));
            } else if a.rule_score >= rec.rule_score && a.total_gib > rec.total_gib + 0.5 {
                parts.push(format!(
                    "no list prices: same unit count, more raw capacity ({} vs {} GiB)",
                    fmt_num(a.total_gib, 0),
                    fmt_num(rec.total_gib, 0)
                ));
            } else if a.rule_score >= rec.rule_score {
                parts.push("no list price to compare; catalogue order".to_string());
            }
        }
    }
    if let Some(r) = grade::risk_text(&a.latency_check) {
        parts.push(r);
    }
    parts.join("; ")
}

/// The flash-versus-15K sentence of an on-premises platform: drive counts of the best flash
/// and best spinning option for the same load, and the published power consequence.
fn flash_vs_hdd(cmp: &FlashVsHdd, rules: &RuleSet, feasible: &[TierOption]) -> Option<String> {
    let in_group = |o: &TierOption, g: &str| {
        rules
            .tiers()
            .iter()
            .any(|t| t.id == o.tier_id && t.groups.iter().any(|x| x == g))
    };
    let fewest = |g: &str| {
        feasible
            .iter()
            .filter(|o| in_group(o, g))
            .min_by_key(|o| o.count)
    };
    let (f, h) = (fewest(&cmp.flash_group)?, fewest(&cmp.hdd_group)?);
    let ratio = f64::from(h.count) / f64::from(f.count.max(1));
    let claim = format!(
        "the published claim is one flash drive ≈ the IOPS of {} 15K drives at {} % less power per IO ({})",
        fmt_trim(cmp.flash_iops_in_hdd_drives),
        fmt_trim(cmp.power_saving_per_io_pct),
        cmp.source
    );
    let hdd_for_iops = h.drives_for_iops.unwrap_or(h.count);
    let flash_for_iops = f.drives_for_iops.unwrap_or(f.count);
    if h.count <= f.count {
        return Some(format!(
            "Flash vs 15K for the same load: `{}` needs {} drives and `{}` {} drives ({} and {} for the IOPS alone): the load is too small for the drive count to differ (RAID minimums or capacity set both); {claim}.",
            f.tier_id, f.count, h.tier_id, h.count, flash_for_iops, hdd_for_iops
        ));
    }
    Some(format!(
        "Flash vs 15K for the same load: `{}` needs {} drives, `{}` {} drives: {} more drive slots ({}× the drives) for 15K; {claim}.",
        f.tier_id,
        f.count,
        h.tier_id,
        h.count,
        h.count - f.count,
        fmt_num(ratio, 1)
    ))
}

/// Apply fired prefer/avoid rules to one option.
fn score(tier: &Tier, o: &mut TierOption, fired: &[FiredRule]) {
    for f in fired {
        if f.effect.reports_only() || !f.targets.iter().any(|t| tier.matches(t)) {
            continue;
        }
        if let Some(max) = f.max_units {
            if !o.feasible || o.count > max {
                o.notes.push(format!(
                    "rule {} not applied: needs {} {}s > max_units {max}",
                    f.id,
                    o.count,
                    match o.unit {
                        Unit::Drive => "drive",
                        Unit::Volume => "volume",
                    }
                ));
                continue;
            }
        }
        match f.effect {
            Effect::Prefer => {
                o.rule_score += i64::from(f.weight);
                o.preferred_by.push(f.id.clone());
            }
            Effect::Avoid => {
                o.rule_score -= i64::from(f.weight);
                o.avoided_by.push(f.id.clone());
            }
            Effect::Note | Effect::Warn => {}
        }
    }
}

fn units(o: &TierOption) -> String {
    let u = match o.unit {
        Unit::Drive => "drive",
        Unit::Volume => "volume",
    };
    format!("{} {u}{}", o.count, if o.count == 1 { "" } else { "s" })
}

/// Sentences on why `rec` won.
fn explain(
    rec: Option<&TierOption>,
    feasible: &[TierOption],
    infeasible: &[TierOption],
    fired: &[FiredRule],
) -> Vec<String> {
    let mut out = Vec::new();
    let Some(rec) = rec else {
        // One clause per distinct reason, with the tiers it stops.
        let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
        for o in infeasible {
            let r = o.infeasible_reason.as_deref().unwrap_or("?");
            match by_reason.iter_mut().find(|(x, _)| *x == r) {
                Some((_, ids)) => ids.push(&o.tier_id),
                None => by_reason.push((r, vec![&o.tier_id])),
            }
        }
        let mut s = String::from("no tier is feasible");
        for (r, ids) in by_reason {
            let _ = write!(s, "; {}: {r}", ids.join(", "));
        }
        out.push(s);
        return out;
    };
    let cost = rec
        .monthly_cost_usd
        .map(usd)
        .unwrap_or_else(|| "no list price".to_string());
    out.push(format!(
        "{} ({}) recommended: {}, {} GiB, {}.",
        rec.tier_id,
        rec.name,
        units(rec),
        fmt_num(rec.total_gib, 0),
        cost
    ));
    if rec.rule_score > 0 {
        let msgs: Vec<String> = rec.preferred_by.to_vec();
        out.push(format!(
            "Preferred by rule {} (score {:+}); rule preferences are applied before cost and unit count.",
            msgs.join(", "),
            rec.rule_score
        ));
    } else if feasible.iter().all(|o| o.rule_score == rec.rule_score) {
        // A rule that fired but could not apply (max_units) must not read as "no rule".
        let skipped: Vec<String> = feasible
            .iter()
            .flat_map(|o| o.notes.iter().map(move |n| (o, n)))
            .filter(|(_, n)| n.starts_with("rule ") && n.contains(" not applied: "))
            .map(|(o, n)| format!("{} ({})", n, o.tier_id))
            .collect();
        if skipped.is_empty() {
            out.push("No rule prefers one feasible tier over another.".to_string());
        } else {
            out.push(format!(
                "No rule preference applies: {}.",
                skipped.join("; ")
            ));
        }
    } else {
        out.push(format!(
            "It has the highest rule score among feasible tiers ({:+}).",
            rec.rule_score
        ));
    }
    let cheapest = feasible
        .iter()
        .filter(|o| o.monthly_cost_usd.is_some())
        .min_by(|a, b| cost_key(a).total_cmp(&cost_key(b)));
    match (rec.monthly_cost_usd, cheapest) {
        (Some(c), Some(ch)) if ch.tier_id == rec.tier_id || cost_key(ch) >= c => {
            out.push("It is the cheapest feasible tier.".to_string());
        }
        (Some(c), Some(ch)) => out.push(format!(
            "The cheapest feasible tier is {} at {}; the recommendation costs {} more.",
            ch.tier_id,
            usd(cost_key(ch)),
            usd(c - cost_key(ch))
        )),
        (None, Some(ch)) => out.push(format!(
            "It has no list price in the catalogue ({}); the cheapest priced feasible tier is {} at {}.",
            rec.cost_note.as_deref().unwrap_or("no price"),
            ch.tier_id,
            usd(cost_key(ch))
        )),
        (None, None) => {
            let same: Vec<&TierOption> = feasible
                .iter()
                .filter(|o| o.rule_score == rec.rule_score)
                .collect();
            if same.len() > 1 {
                out.push(format!(
                    "No public list prices, so among equally scored tiers the one with the fewest units wins ({}), then the least raw capacity ({} GiB).",
                    units(rec),
                    fmt_num(rec.total_gib, 0)
                ));
            } else {
                out.push("No public list price for this tier.".to_string());
            }
        }
        (Some(_), None) => {}
    }
    // Preferred tiers that lost because they are infeasible.
    for o in infeasible {
        let pref: Vec<&FiredRule> = fired
            .iter()
            .filter(|f| f.effect == Effect::Prefer && o.preferred_by.contains(&f.id))
            .collect();
        if !pref.is_empty() {
            out.push(format!(
                "{} is preferred by {} but infeasible: {}.",
                o.tier_id,
                pref.iter()
                    .map(|f| f.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                o.infeasible_reason.as_deref().unwrap_or("?")
            ));
        }
    }
    out
}
