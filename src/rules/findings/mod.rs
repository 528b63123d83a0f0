//! Typed findings: what the rules decided and the evidence, as values with units, no prose.
//!
//! [`recommend`](super::recommend) fills these into a [`Recommendation`](super::Recommendation);
//! the report layer (`report::wording`) turns each one into words, the same words for the
//! Markdown and the JSON. Money is USD per month, sizes GiB, throughput MB/s (10^6 B/s) or MiB/s
//! (2^20 B/s) as the field name says, latency ms.

mod sizing;

pub use sizing::*;

use super::metric::{Metric, Op};
use super::Unit;

/// A sentence of a recommendation's explanation: why the sizing and each platform's choice.
#[derive(Debug, Clone, PartialEq)]
pub enum Explanation {
    /// The demand and the headroom behind the sized figures.
    Sized {
        /// Required IOPS before headroom.
        required_iops: f64,
        /// Decimals the source prints the required IOPS with.
        figure_decimals: u32,
        /// The required-IOPS formula quoted (`read_total + write_total`, `r/s + w/s + d/s`).
        formula: String,
        /// Headroom, percent.
        headroom_pct: f64,
        /// Sized IOPS (required × (1 + headroom)).
        sized_iops: f64,
        /// Sized throughput, MB/s (10^6 B/s); `None` when unknown (checked on IOPS only).
        sized_mb_s: Option<f64>,
        /// The same in MiB/s (2^20 B/s).
        sized_mib_s: Option<f64>,
    },
    /// A platform's explanation, repeated in the recommendation-wide list.
    ForPlatform {
        /// Platform id (`aws`).
        platform: String,
        /// The platform's own explanation.
        explanation: Box<Explanation>,
    },
    /// No tier of the platform is feasible: each distinct reason with the tiers it stops.
    NoTierFeasible {
        /// (tier ids, reason) in catalogue order of first appearance.
        reasons: Vec<(Vec<String>, Option<Infeasible>)>,
    },
    /// The winning option.
    Recommended {
        /// Tier id.
        tier_id: String,
        /// Tier display name.
        name: String,
        /// Drives or volumes.
        count: u32,
        /// What `count` counts.
        unit: Unit,
        /// Raw capacity, GiB.
        total_gib: f64,
        /// Monthly list cost, USD; `None` = no list price.
        monthly_cost_usd: Option<f64>,
    },
    /// The winner is preferred by fired rules.
    PreferredByRules {
        /// Rule ids.
        rules: Vec<String>,
        /// Its rule score.
        score: i64,
    },
    /// The winner was avoided by fired rules (their messages give why) and still won: on its
    /// remaining score, or as the only priced fit.
    ChosenDespiteAvoid {
        /// Rule ids.
        rules: Vec<String>,
    },
    /// Every feasible tier has the same rule score and no rule was skipped.
    NoRulePreference,
    /// Every feasible tier has the same score because prefer/avoid rules could not apply.
    RulePreferenceNotApplied {
        /// (the rule that was not applied, the tier it was skipped for).
        skipped: Vec<(RuleNotApplied, String)>,
    },
    /// The winner has the highest rule score.
    HighestRuleScore {
        /// Its rule score.
        score: i64,
    },
    /// The winner is the cheapest feasible tier.
    Cheapest,
    /// A cheaper feasible tier exists (ranked lower by rule).
    CheaperExists {
        /// The cheapest feasible tier.
        tier_id: String,
        /// Its monthly cost, USD.
        cheapest_usd: f64,
        /// How much more the winner costs, USD per month.
        more_usd: f64,
    },
    /// The winner has no list price; the cheapest priced feasible tier.
    UnpricedWinner {
        /// Why the winner has no price.
        cost_note: Option<CostNote>,
        /// The cheapest priced feasible tier.
        tier_id: String,
        /// Its monthly cost, USD.
        cheapest_usd: f64,
    },
    /// No list prices: the fewest units, then the least raw capacity, won.
    FewestUnitsWins {
        /// Units of the winner.
        count: u32,
        /// What `count` counts.
        unit: Unit,
        /// Raw capacity of the winner, GiB.
        total_gib: f64,
    },
    /// The only tier at its score has no list price.
    NoListPrice,
    /// A tier preferred by fired rules is infeasible.
    PreferredButInfeasible {
        /// The tier.
        tier_id: String,
        /// Ids of the rules preferring it.
        rules: Vec<String>,
        /// Why it is infeasible.
        reason: Option<Infeasible>,
    },
    /// The winner's published latency could lower measured grades of the IO report card.
    LatencyRisk {
        /// The winner.
        tier_id: String,
        /// The grades it could lower.
        risk: LatencyRisk,
        /// The first feasible alternative that keeps today's grades, if any.
        keeps: Option<LatencyKeeper>,
    },
    /// The winner's published latency keeps every measured grade.
    LatencyKept {
        /// The tier's published worst latency, ms.
        latency_ms: f64,
    },
    /// On-premises flash versus 15K drives for the same load.
    FlashVsHdd(FlashVsHdd),
    /// No catalogued host type of the platform drives the demand.
    NoHostTypeFits {
        /// Platform id.
        platform: String,
        /// Sized IOPS.
        sized_iops: f64,
        /// Sized MB/s (10^6 B/s).
        sized_mb_s: f64,
    },
    /// The given host type cannot drive the demand; others can.
    HostTypeTooSmall {
        /// The `--instance` given.
        instance: String,
        /// Sized IOPS.
        sized_iops: f64,
        /// Sized MB/s (10^6 B/s).
        sized_mb_s: f64,
        /// The smallest host type that can, per family (general, memory, storage): (id, max
        /// IOPS, max MB/s).
        fits: Vec<(String, f64, f64)>,
    },
}

/// An alternative that keeps today's latency grades.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyKeeper {
    /// Tier id.
    pub tier_id: String,
    /// Its published worst latency, ms.
    pub latency_ms: f64,
    /// Its monthly cost, USD; `None` = no list price.
    pub monthly_cost_usd: Option<f64>,
}

/// Measured grades a tier's published latency could lower.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyRisk {
    /// The tier's published worst latency, ms.
    pub tier_ms: f64,
    /// (test id, grade at the tier's latency, grade today) of each test it could lower.
    pub worse: Vec<(String, String, Grade)>,
}

/// A measured grade: one letter, or a span of letters when a histogram's p95 straddles a
/// bound (letters of the card's `letters`; worded `B` or `B to D` by the report layer).
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    /// The best letter the measure can have.
    pub best: String,
    /// The worst letter (equal to `best` when the grade is one letter).
    pub worst: String,
}

/// The flash-versus-15K comparison (`[flash_vs_hdd]` of `sizing.toml`).
#[derive(Debug, Clone, PartialEq)]
pub struct FlashVsHdd {
    /// Best flash option's tier.
    pub flash_tier: String,
    /// Its drive count.
    pub flash_drives: u32,
    /// Drives it needs for the IOPS alone.
    pub flash_for_iops: u32,
    /// Best 15K option's tier.
    pub hdd_tier: String,
    /// Its drive count.
    pub hdd_drives: u32,
    /// Drives it needs for the IOPS alone.
    pub hdd_for_iops: u32,
    /// Published IOPS of one flash drive in 15K drives.
    pub flash_iops_in_hdd_drives: f64,
    /// Published power saving per IO, percent.
    pub power_saving_per_io_pct: f64,
    /// Where the published figures come from.
    pub source: String,
}

/// A fired prefer/avoid rule with `max_units` not applied to an option: the option needs more
/// units than the rule allows, or it is not feasible at all (then its unit count is no
/// configuration, and the limit that applied is the one that makes it infeasible).
#[derive(Debug, Clone, PartialEq)]
pub struct RuleNotApplied {
    /// Rule id.
    pub rule: String,
    /// Why it was not applied.
    pub why: NotAppliedBecause,
}

/// Why a rule with `max_units` was not applied to an option.
#[derive(Debug, Clone, PartialEq)]
pub enum NotAppliedBecause {
    /// The option needs more units than the rule's `max_units`.
    OverMaxUnits {
        /// Units the option needs.
        count: u32,
        /// What `count` counts.
        unit: Unit,
        /// The rule's `max_units`.
        max_units: u32,
    },
    /// The option is not feasible (the reason, when known): no unit count meets the demand.
    Infeasible(Option<Infeasible>),
}

/// Why an alternative did not win.
#[derive(Debug, Clone, PartialEq)]
pub enum LostBecause {
    /// It is infeasible (the reason, when known).
    Infeasible(Option<Infeasible>),
    /// It is feasible; each reason it ranked lower.
    Ranked(Vec<Lost>),
}

/// One reason a feasible alternative ranked below the winner.
#[derive(Debug, Clone, PartialEq)]
pub enum Lost {
    /// No list price against a priced winner; its higher score and the rules behind it, if so.
    UnpricedAgainstPriced {
        /// (its rule score, rules preferring it) when higher than the winner's.
        higher_score: Option<(i64, Vec<String>)>,
    },
    /// A lower rule score.
    RuleScore {
        /// Its score.
        score: i64,
        /// The winner's score.
        winner_score: i64,
        /// (winner tier, rules preferring it), when the winner is preferred.
        winner_preferred: Option<(String, Vec<String>)>,
        /// Rules avoiding it.
        avoided_by: Vec<String>,
    },
    /// It costs more.
    CostsMore {
        /// Its monthly cost, USD.
        usd: f64,
        /// The winner's monthly cost, USD.
        winner_usd: f64,
    },
    /// It is cheaper but ranked lower by rule.
    CheaperButRanked {
        /// Its monthly cost, USD.
        usd: f64,
        /// The winner's monthly cost, USD.
        winner_usd: f64,
    },
    /// Same cost, more units.
    SameCostMoreUnits {
        /// Its units.
        count: u32,
        /// The winner's units.
        winner_count: u32,
    },
    /// Same cost; the catalogue order decided.
    SameCostCatalogueOrder,
    /// No list price: ranked after every priced tier.
    UnpricedRanksAfter,
    /// Neither is priced: it needs more units.
    MoreUnits {
        /// Its units.
        count: u32,
        /// The winner's units.
        winner_count: u32,
    },
    /// Neither is priced: same units, more raw capacity.
    MoreRawCapacity {
        /// Its raw GiB.
        gib: f64,
        /// The winner's raw GiB.
        winner_gib: f64,
    },
    /// Neither is priced; the catalogue order decided.
    UnpricedCatalogueOrder,
    /// Its published latency could lower measured grades.
    Latency(LatencyRisk),
}

/// Why an option has no monthly cost.
#[derive(Debug, Clone, PartialEq)]
pub enum CostNote {
    /// On-premises arrays have no public list price.
    OnpremArray,
    /// The catalogue's own reason there is no list price (`price.no_list_price`).
    Catalogue(String),
    /// The chosen size-table row has no price.
    RowUnpriced {
        /// Row name (`P30`).
        row: String,
    },
    /// The catalogue has no price for the tier.
    NotInCatalogue,
}

/// The message of a fired rule: its `message` template with the values filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleMessage(pub Vec<MessagePart>);

/// A piece of a fired rule's message.
#[derive(Debug, Clone, PartialEq)]
pub enum MessagePart {
    /// Literal text of the rule file.
    Text(String),
    /// A number: value (already × 100 when a percent placeholder), decimals, or shortest exact
    /// form when `decimals` is `None`.
    Number {
        /// The value.
        value: f64,
        /// Decimals; `None` = shortest exact form.
        decimals: Option<usize>,
    },
    /// A whole number (`{max_units}`).
    Count(u32),
    /// A metric placeholder whose value is unknown.
    Unknown,
    /// A placeholder with nothing to fill (`{when.9}` of a rule with two conditions).
    Missing,
}

/// Why a rule did not fire: its first known condition that does not hold.
#[derive(Debug, Clone, PartialEq)]
pub struct FalseCondition {
    /// Quantity tested.
    pub metric: Metric,
    /// Its value.
    pub value: f64,
    /// Comparison of the condition.
    pub op: Op,
    /// Threshold of the condition.
    pub threshold: f64,
}

/// A caveat about the demand or the options asked for (a recommendation's `notes`).
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// The headroom given is not a finite number >= 0: the default was used.
    HeadroomIgnored {
        /// Headroom given, percent.
        given: f64,
        /// Default used, percent.
        default_pct: f64,
    },
    /// A demand figure is not a finite non-negative number: it was taken as unknown.
    NotFiniteNonNegative {
        /// Field of the demand (`read_iops`).
        name: String,
        /// Its value.
        value: f64,
    },
    /// Read and write IOPS are 0 or unknown: all required IOPS are treated as writes.
    SplitUnknownAllWrites,
    /// Read or write throughput (MB/s) is unknown: the tiers are checked on IOPS and on the part
    /// of the throughput that is known, which is a lower bound (nothing is sized on 0 MB/s).
    ThroughputUnknown {
        /// Read MB/s is known.
        read_known: bool,
        /// Write MB/s is known.
        write_known: bool,
    },
    /// Required IOPS exceed read + write: the difference is counted as writes.
    RequiredAboveReadWrite {
        /// Required IOPS.
        required: f64,
        /// Read + write IOPS.
        read_write: f64,
        /// Decimals the source prints them with.
        decimals: u32,
    },
    /// Required IOPS are below read + write: both are scaled for the RAID back end.
    RequiredBelowReadWrite {
        /// Required IOPS.
        required: f64,
        /// Read + write IOPS.
        read_write: f64,
        /// Decimals the source prints them with.
        decimals: u32,
        /// Scale factor (required ÷ (read + write)).
        factor: f64,
    },
    /// The capacity given is not a positive number: ignored.
    CapacityIgnored {
        /// Capacity given, GiB.
        given: f64,
    },
    /// No capacity: sizes are the minimum for IOPS and throughput.
    CapacityNotGiven,
    /// A platform asked for is not in the catalogue.
    UnknownPlatform {
        /// The id given.
        given: String,
        /// Platform ids of the catalogue.
        known: Vec<String>,
    },
    /// The host type given caps a platform that is not sized.
    InstanceOtherPlatform {
        /// Host type id.
        instance: String,
        /// Its platform.
        platform: String,
    },
    /// The host type given is not in the catalogue.
    UnknownInstance {
        /// The id given.
        given: String,
        /// Host type ids of the catalogue.
        known: Vec<String>,
    },
}
