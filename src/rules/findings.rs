//! Typed findings: what the rules decided and the evidence, as values with units, no prose.
//!
//! [`recommend`](super::recommend) fills these into a [`Recommendation`](super::Recommendation);
//! the report layer (`report::wording`) turns each one into words, the same words for the
//! Markdown and the JSON. Money is USD per month, sizes GiB, throughput MB/s (10^6 B/s) or MiB/s
//! (2^20 B/s) as the field name says, latency ms.

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
        /// Sized throughput, MB/s (10^6 B/s).
        sized_mb_s: f64,
        /// The same in MiB/s (2^20 B/s).
        sized_mib_s: f64,
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
        /// Host types that can: (id, max IOPS, max MB/s).
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

/// A fired prefer/avoid rule not applied to an option because it needs too many units.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleNotApplied {
    /// Rule id.
    pub rule: String,
    /// Units the option needs.
    pub count: u32,
    /// What `count` counts.
    pub unit: Unit,
    /// The rule's `max_units`.
    pub max_units: u32,
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
    /// A demand figure is not a finite non-negative number: 0 was used.
    NotFiniteNonNegative {
        /// Field of the demand (`read_iops`).
        name: String,
        /// Its value.
        value: f64,
    },
    /// Read and write IOPS are 0: all required IOPS are treated as writes.
    SplitUnknownAllWrites,
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

/// The unit a tier states its throughput in (`throughput_decimal` in the catalogue).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThroughputUnit {
    /// MB/s, 10^6 B/s.
    MbS,
    /// MiB/s, 2^20 B/s.
    MibS,
}

/// A read or a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoKind {
    /// Reads.
    Read,
    /// Writes.
    Write,
}

/// Why a tier cannot serve the demand (`TierOption::infeasible_reason`). Figures per volume
/// are the demand's share of one volume of the stripe; throughput in `unit`.
#[derive(Debug, Clone, PartialEq)]
pub enum Infeasible {
    /// IOPS per volume above the tier's fixed IOPS.
    IopsOverFixed {
        /// IOPS needed per volume.
        needed: f64,
        /// IOPS of one volume.
        per_volume: f64,
    },
    /// IOPS per volume above the tier's maximum.
    IopsOverMax {
        /// IOPS needed per volume (provisioned: rounded up, at least the minimum).
        needed: f64,
        /// Maximum IOPS per volume.
        max: f64,
    },
    /// Throughput per volume above the tier's fixed throughput.
    ThroughputOverFixed {
        /// Needed per volume.
        needed: f64,
        /// Throughput of one volume.
        per_volume: f64,
        /// Unit of both.
        unit: ThroughputUnit,
    },
    /// Throughput per volume above the tier's maximum.
    ThroughputOverMax {
        /// Needed per volume.
        needed: f64,
        /// Maximum per volume.
        max: f64,
        /// Unit of both.
        unit: ThroughputUnit,
    },
    /// Throughput per volume above what the maximum provisioned IOPS allow.
    ThroughputOverCapAtMaxIops {
        /// Needed per volume.
        needed: f64,
        /// Throughput at the maximum IOPS.
        cap: f64,
        /// Unit of both.
        unit: ThroughputUnit,
    },
    /// Throughput per volume above what the volume's IOPS allow.
    ThroughputOverCapAtIops {
        /// Needed per volume.
        needed: f64,
        /// Throughput at `iops`.
        cap: f64,
        /// IOPS the volume delivers.
        iops: f64,
        /// Unit of both.
        unit: ThroughputUnit,
    },
    /// The throughput needs more provisioned IOPS than the volume allows.
    ThroughputNeedsIops {
        /// Throughput per volume (rounded up, at least the included amount).
        throughput: f64,
        /// IOPS it needs.
        iops: f64,
        /// Maximum throughput per provisioned IOPS.
        per_iops: f64,
        /// Unit of the throughputs.
        unit: ThroughputUnit,
    },
    /// The size per volume is above the tier's maximum.
    CapacityOverMax {
        /// GiB per volume needed.
        gib: f64,
        /// Maximum GiB per volume.
        max_gib: f64,
    },
    /// No `[tier.sizes]` row holds the need.
    NoSizeRow {
        /// IOPS needed per volume.
        iops: f64,
        /// Throughput needed per volume.
        throughput: f64,
        /// GiB needed per volume.
        gib: f64,
        /// The largest row.
        largest: SizeRowFigures,
        /// Why its credit bursting was not counted, if it has some.
        burst: Option<Box<SizingNote>>,
    },
    /// More drives than `[onprem].max_drives`.
    DrivesOverMax {
        /// Drives needed.
        drives: f64,
        /// `max_drives`.
        max_drives: u32,
    },
    /// The host type cannot attach the tier.
    NotAttachable {
        /// Host type id.
        instance: String,
        /// The first part of its `source` (catalogue text).
        source: String,
    },
    /// IOPS above the host type's cap.
    InstanceIops {
        /// Counted IOPS.
        needed: f64,
        /// The cap.
        max: f64,
        /// Host type id.
        instance: String,
    },
    /// MB/s (10^6 B/s) above the host type's cap.
    InstanceMbS {
        /// Sized MB/s.
        needed: f64,
        /// The cap, MB/s.
        max: f64,
        /// Host type id.
        instance: String,
    },
    /// IOPS above the platform's largest host.
    PlatformIops {
        /// Counted IOPS.
        needed: f64,
        /// The cap.
        max: f64,
        /// Platform id.
        platform: String,
    },
    /// MB/s (10^6 B/s) above the platform's largest host.
    PlatformMbS {
        /// Sized MB/s.
        needed: f64,
        /// The cap, MB/s.
        max: f64,
        /// Platform id.
        platform: String,
    },
    /// Even the most volumes (`cloud.max_volumes`) do not fit: the reason at that count.
    EvenStriped {
        /// `cloud.max_volumes`.
        max_volumes: u32,
        /// Why that count does not fit.
        last: Box<Infeasible>,
    },
    /// One volume does not fit, and performance is per VM (striping adds nothing).
    PerVm(Box<Infeasible>),
}

/// A size-table row's figures (throughput in the tier's unit).
#[derive(Debug, Clone, PartialEq)]
pub struct SizeRowFigures {
    /// Row name (`P30`).
    pub name: String,
    /// GiB.
    pub gib: f64,
    /// IOPS.
    pub iops: f64,
    /// Throughput.
    pub throughput: f64,
    /// Unit of `throughput`.
    pub unit: ThroughputUnit,
}

/// A credit bucket that covers the peak (AWS-GP: minutes = credits / (IOPS − baseline) / 60).
#[derive(Debug, Clone, PartialEq)]
pub struct BurstCovers {
    /// Sustained IOPS of the volume.
    pub baseline: f64,
    /// IOPS of the peak.
    pub iops: f64,
    /// I/O credits of a full bucket.
    pub credits: f64,
    /// Minutes the bucket lasts at `iops`.
    pub lasts_min: f64,
    /// Minutes the load at this level lasted.
    pub peak_min: f64,
    /// Long-run average IOPS (refills the bucket when at most the baseline).
    pub mean: f64,
}

/// Why a credit bucket does not cover the peak.
#[derive(Debug, Clone, PartialEq)]
pub enum BurstRefused {
    /// The peak is above the burst ceiling.
    AboveCeiling {
        /// IOPS of the peak.
        iops: f64,
        /// Burst ceiling, IOPS.
        ceiling: f64,
    },
    /// The length of the peak is unknown.
    PeakLengthUnknown,
    /// The average IOPS are unknown.
    MeanUnknown,
    /// The average is above the baseline: spent credits would not come back.
    MeanAboveBaseline {
        /// Average IOPS.
        mean: f64,
        /// Baseline IOPS.
        baseline: f64,
    },
    /// The bucket runs out before the peak ends.
    TooShort {
        /// IOPS of the peak.
        iops: f64,
        /// Minutes the bucket lasts.
        lasts_min: f64,
        /// Minutes the load at this level lasted.
        peak_min: f64,
    },
}

/// What a smaller size-table row lacked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowShort {
    /// GiB per volume.
    Gib(f64),
    /// Throughput per volume, in the unit.
    Throughput(f64, ThroughputUnit),
    /// IOPS per volume.
    Iops(f64),
}

/// A limit that set the configuration (`TierOption::binding_limits`).
#[derive(Debug, Clone, PartialEq)]
pub enum Binding {
    /// Drive array: the drives the back-end IOPS need (tier-catalog §4.2).
    DriveIops {
        /// Front-end reads/s after headroom.
        reads: f64,
        /// Array read hit, fraction (0 = none).
        read_hit: f64,
        /// Front-end writes/s after headroom.
        writes: f64,
        /// Write coalescing, fraction (0 = none).
        coalesce: f64,
        /// RAID write penalty.
        write_penalty: f64,
        /// Back-end IOPS.
        backend: f64,
        /// IOPS of one drive.
        drive_iops: f64,
        /// Drives for the IOPS.
        drives: f64,
    },
    /// Drive array: the drives the capacity needs.
    DriveCapacity {
        /// Capacity asked for, GiB.
        gib: f64,
        /// Usable GiB per RAID group.
        usable_per_group: f64,
        /// Drives per group.
        group_width: u32,
        /// Drives for the capacity.
        drives: f64,
    },
    /// Drive array: the RAID level's minimum drive count.
    MinDrives {
        /// Minimum drives.
        min: u32,
        /// RAID level.
        level: String,
        /// Drives the IOPS alone need.
        for_iops: f64,
    },
    /// Drive array: rounded up to whole RAID groups.
    WholeGroups {
        /// Drives before rounding.
        from: f64,
        /// Drives per group.
        group_width: u32,
        /// RAID level.
        level: String,
    },
    /// Each IO counts as a full IO unit of throughput.
    FullIoUnit {
        /// IO unit, KiB.
        unit_kib: f64,
        /// Counted IOPS.
        iops: f64,
        /// Throughput they use.
        used: f64,
        /// Measured throughput (after headroom).
        measured: f64,
        /// Unit of the throughputs.
        unit: ThroughputUnit,
    },
    /// Within the host type's caps.
    WithinInstanceCap {
        /// Host type id.
        instance: String,
        /// Its IOPS cap.
        max_iops: f64,
        /// Its MB/s cap (10^6 B/s).
        max_mb_s: f64,
    },
    /// Per-request charges: the requests billed.
    RequestsBilled {
        /// Measured requests/s in IO units.
        requests_s: f64,
        /// Hours per month.
        hours: f64,
    },
    /// `cheapest`: more volumes than the fewest that fit, for a saving.
    StripedCheaper {
        /// Volumes chosen.
        volumes: u32,
        /// Saving against the fewest that fit, percent.
        saving_pct: f64,
        /// The fewest volumes that fit.
        fewest: u32,
        /// Cost of the chosen count, USD per month.
        usd: f64,
        /// Cost of the fewest, USD per month.
        fewest_usd: f64,
        /// (cheapest count, its cost USD per month) when not the chosen count.
        cheapest: Option<(u32, f64)>,
        /// `cloud.min_saving_pct`.
        min_saving_pct: f64,
    },
    /// Striped across several volumes.
    Striped {
        /// Volumes.
        volumes: u32,
        /// Whether the count policy is `cheapest` with a capacity.
        cheapest_policy: bool,
        /// Why one volume fewer does not fit (`None`: fewer fit only by buying IOPS).
        fewer: Option<Infeasible>,
    },
    /// The volume size is set by the data size.
    CapacitySetsSize,
    /// The size-table row chosen.
    SizeRow {
        /// The row.
        row: SizeRowFigures,
        /// What the next smaller row lacked, if any.
        smaller_lacks: Option<RowShort>,
    },
    /// A size-table row meets the peak by credit bursting.
    RowBurst {
        /// Row name.
        row: String,
        /// Minutes of a full bucket at the burst IOPS.
        minutes: f64,
        /// Burst IOPS.
        burst_iops: f64,
        /// The bucket arithmetic.
        covers: BurstCovers,
    },
    /// A size-driven volume meets the peak by credit bursting.
    BurstSize {
        /// GiB chosen.
        gib: f64,
        /// The bucket arithmetic.
        covers: BurstCovers,
        /// IOPS needed per volume.
        sustained_iops: f64,
        /// GiB sustained IOPS would need.
        sustained_gib: f64,
    },
    /// Size raised for IOPS per GiB.
    SizeForIops {
        /// GiB.
        gib: f64,
        /// IOPS per GiB.
        per_gib: f64,
        /// Baseline IOPS (0 = none).
        base: f64,
        /// IOPS needed.
        iops: f64,
    },
    /// Size raised to the step that gives the throughput.
    SizeForThroughputStep {
        /// GiB.
        gib: f64,
        /// Throughput needed.
        needed: f64,
        /// Its unit.
        unit: ThroughputUnit,
    },
    /// Size raised for throughput per TiB.
    SizeForThroughputLinear {
        /// GiB.
        gib: f64,
        /// Throughput per TiB.
        per_tib: f64,
        /// Baseline throughput (0 = none).
        base: f64,
        /// Throughput needed.
        needed: f64,
        /// Unit of the throughputs.
        unit: ThroughputUnit,
    },
    /// Provisioned IOPS raised for throughput per IOPS.
    IopsForThroughput {
        /// IOPS before.
        from: f64,
        /// IOPS after.
        to: f64,
        /// Throughput needed.
        needed: f64,
        /// Its unit.
        unit: ThroughputUnit,
    },
    /// Provisioned IOPS raised for the maximum throughput per IOPS.
    IopsForThroughputRatio {
        /// IOPS after.
        iops: f64,
        /// Throughput provisioned.
        throughput: f64,
        /// Maximum throughput per IOPS.
        per_iops: f64,
        /// Unit of the throughputs.
        unit: ThroughputUnit,
    },
    /// Size raised for the maximum IOPS per GiB.
    SizeForIopsRatio {
        /// GiB.
        gib: f64,
        /// Maximum IOPS per GiB.
        max_per_gib: f64,
        /// Provisioned IOPS.
        iops: f64,
    },
}

/// A caveat of the sizing of one option.
#[derive(Debug, Clone, PartialEq)]
pub enum SizingNote {
    /// A size-table row's credit bursting was not counted.
    RowBurstNotCounted {
        /// Row name.
        row: String,
        /// Why.
        why: BurstRefused,
    },
    /// Bursting would need a size no smaller than the sustained one.
    BurstNoSmaller {
        /// Burst IOPS.
        burst_iops: f64,
    },
    /// Bursting not counted; sized on the baseline.
    BurstNotCounted {
        /// Burst IOPS.
        burst_iops: f64,
        /// Why.
        why: BurstRefused,
    },
    /// The drive size is the catalogue's assumption.
    DriveSizeAssumed {
        /// Drive size, GB (10^9 B).
        gb: f64,
    },
    /// No capacity: drives counted for IOPS only.
    DrivesForIopsOnly,
    /// Drive throughput is not modelled.
    DriveThroughputNotModelled,
    /// Requests above the IO unit count as several.
    IoUnitSplit {
        /// Reads or writes.
        op: IoKind,
        /// Average request, KiB.
        avg_kib: f64,
        /// IO unit, KiB.
        unit_kib: f64,
        /// Requests each counts as.
        parts: f64,
    },
    /// Large requests counted one each (no IO unit in the catalogue).
    LargeRequestsCountedOnce,
    /// No capacity: the volume size is the minimum for IOPS and throughput.
    VolumeCapacityNotGiven,
    /// Performance is per VM: one volume of the total size is shown.
    PerVmPool,
    /// Per-VM maximums are the best case without `--instance`.
    PerVmBestCase,
}
