//! The result of [`recommend`](super::recommend): per platform the chosen tier and the
//! alternatives, the rules that fired, did not fire or could not be evaluated.

use std::sync::Arc;

use serde::Serialize;

use super::findings::{
    Binding, CostNote, DrivesSetBy, Explanation, FalseCondition, Infeasible, LostBecause, Note,
    RuleMessage, RuleNotApplied, SizingNote,
};
use super::grade;
use super::schema::{Effect, HostFamily};

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

fn round2_opt<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => round2(v, s),
        None => s.serialize_none(),
    }
}

fn cents<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 100.0).round() / 100.0)
}

/// Serializes a catalogue value shared by reference count as the value itself (what serde's
/// `rc` feature does, without the feature: it would rebuild every crate that depends on serde).
fn shared<T: Serialize + ?Sized, S: serde::Serializer>(
    v: &Arc<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    T::serialize(v, s)
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
    pub infeasible_reason: Option<Infeasible>,
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
    /// Throughput of all volumes, MiB/s; arrays: the front-end MiB/s the drives carry at the
    /// demand's read/write MB/s mix (`None` when the demand moves no MB/s or a rate is not
    /// sourced).
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
    pub lost_because: Option<LostBecause>,
    /// Drives needed for IOPS alone (arrays).
    pub drives_for_iops: Option<u32>,
    /// Drives needed for capacity alone (arrays; `None` when capacity unknown).
    pub drives_for_capacity: Option<u32>,
    /// Drives needed for the back-end MB/s alone (arrays; `None` when a needed drive rate is
    /// not sourced).
    pub drives_for_mb_s: Option<u32>,
    /// Back-end MB/s (10^6 B/s) after the RAID write multiplier and array cache (arrays only).
    pub backend_mb_s: Option<f64>,
    /// Which requirement set the drive count (arrays only), worded: `IOPS`, `MB/s`,
    /// `capacity` or `RAID minimum`.
    pub drives_set_by: Option<DrivesSetBy>,
    /// Monthly list cost, USD; `None` when no public price exists (never 0 for unknown).
    /// Serialized rounded to cents.
    #[serde(serialize_with = "cents_opt")]
    pub monthly_cost_usd: Option<f64>,
    /// Components of `monthly_cost_usd`.
    pub cost_breakdown: Option<CostBreakdown>,
    /// Why `monthly_cost_usd` is `None`.
    pub cost_note: Option<CostNote>,
    /// Limits that set the configuration (IOPS, capacity, ratios, striping).
    pub binding_limits: Vec<Binding>,
    /// Caveats and assumptions.
    pub notes: Vec<OptionNote>,
    /// Σ prefer weights − Σ avoid weights of the fired rules that target it.
    pub rule_score: i64,
    /// Ids of fired rules that prefer it.
    pub preferred_by: Vec<String>,
    /// Ids of fired rules that avoid it.
    pub avoided_by: Vec<String>,
    /// `source` strings of the tier and its sub-tables (the catalogue's, shared:
    /// [`crate::rules::schema::Tier::sources`]).
    #[serde(serialize_with = "shared")]
    pub sources: Arc<[String]>,
    /// Cloud tiers without `--instance`: per host family (general, memory, storage), the
    /// smallest catalogued host type that drives the counted IOPS and sized MB/s to this tier.
    /// Empty for arrays and when an instance was given.
    pub hosts: Vec<HostChoice>,
}

/// A host type's storage caps for one tier (`[[instance]]` of the catalogue, `caps_for`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostFit {
    /// Host type id (`r6i.8xlarge`).
    pub id: String,
    /// vCPUs; `None` = not in the catalogue.
    pub vcpus: Option<u32>,
    /// Memory, GiB; `None` = not in the catalogue.
    pub memory_gib: Option<f64>,
    /// Most IOPS it drives to this tier.
    pub max_iops: f64,
    /// Most MB/s (10^6 B/s) it drives to this tier.
    pub max_mb_s: f64,
}

/// The VM-size answer for one host family: the smallest catalogued host type of the family
/// (fewest vCPUs, then least memory, unknown last; then the lowest caps) that can attach the tier
/// and drive the counted IOPS and sized MB/s to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostChoice {
    /// The family.
    pub family: HostFamily,
    /// Catalogued types of the family on the platform that can attach the tier.
    pub catalogued: u32,
    /// The smallest that drives the demand; `None` when none of them can (or none is catalogued).
    pub host: Option<HostFit>,
    /// When `host` is `None` and some are catalogued: the one that drives the most MB/s (then
    /// IOPS) to the tier, for comparison.
    pub largest: Option<HostFit>,
    /// Ids of the family's host types that can attach the tier but whose cap for it no source
    /// gives (`tier_caps_unknown`): not counted in `catalogued` and never picked. When `host` is
    /// named, only those smaller than it (fewer vCPUs, then less memory).
    pub cap_unknown: Vec<String>,
}

impl TierOption {
    /// Adds a caveat of the sizing.
    pub(crate) fn note(&mut self, note: SizingNote) {
        self.notes.push(OptionNote::Sizing(note));
    }
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
    pub explanation: Vec<Explanation>,
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
    /// Applies only to options whose published latency grades worse than today's.
    pub slower_than_measured: bool,
    /// Message with the actual numbers.
    pub message: RuleMessage,
    /// Source of the rule.
    pub source: String,
}

/// A rule with a known condition that did not hold.
#[derive(Debug, Clone, Serialize)]
pub struct NotFiredRule {
    /// Rule id.
    pub id: String,
    /// The first false condition (worded `cache_hit_pct = 99.50 is not < 95`).
    pub reason: FalseCondition,
}

/// A rule that could not be evaluated because a metric it needs is unknown. Serialized (by the
/// report layer) as `{id, reason, unknown_metrics}`, `reason` worded from the metrics
/// (`cache_hit_pct unknown`).
#[derive(Debug, Clone)]
pub struct NotEvaluatedRule {
    /// Rule id.
    pub id: String,
    /// The unknown metrics (TOML spelling).
    pub unknown_metrics: Vec<String>,
}

/// The outcome of [`recommend`](crate::rules::recommend). Field names are stable (JSON output).
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
    /// (read + write MB/s) × (1 + headroom_pct / 100), MB/s (10^6); `None` when the throughput
    /// is unknown (the tiers were checked on IOPS only, [`Note::ThroughputUnknown`]). When only
    /// one of read and write is known, the known part (a lower bound).
    #[serde(serialize_with = "round2_opt")]
    pub sized_mb_s: Option<f64>,
    /// `sized_mb_s` in MiB/s (× 10^6 / 2^20).
    #[serde(serialize_with = "round2_opt")]
    pub sized_mib_s: Option<f64>,
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
    pub notes: Vec<Note>,
    /// The sizing, then each platform's explanation ([`Explanation::ForPlatform`]).
    pub explanation: Vec<Explanation>,
    /// IO report card of the measured latencies (`None` when the rules have no
    /// `[report_card]`).
    pub report_card: Option<grade::ReportCard>,
}

/// A caveat or assumption of one option.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionNote {
    /// A note of the tier in the catalogue (`notes` of `[[tier]]`, catalogue text).
    Catalogue(Arc<str>),
    /// A caveat of the sizing.
    Sizing(SizingNote),
    /// A fired prefer/avoid rule that could not apply to the option.
    RuleNotApplied(RuleNotApplied),
}
