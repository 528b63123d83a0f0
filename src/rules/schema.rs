//! Typed form of `rules/tiers.toml` and `rules/sizing.toml`, parsing and validation.
//!
//! Parsing happens in two steps: serde reads the file into "raw" structs that
//! mirror the TOML (unknown keys are errors), then validation checks every
//! value (finite, in range, `source` present, model-specific keys present) and
//! builds the typed structs the engine uses ([`Catalog`], [`SizingPolicy`]).
//! Every error names the file and the TOML key (`tier[3].iops.max`, array
//! indexes 0-based); see [`RulesError`].

use std::collections::HashSet;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::eval::{parse_template, Piece};
use super::{IopsFormula, IopsTerm, RulesError};

// ---------------------------------------------------------------------------
// tiers.toml
// ---------------------------------------------------------------------------

/// `[meta]` of `tiers.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogMeta {
    /// Date the catalogue numbers were checked (ISO 8601 text, e.g. `2026-11-01`).
    pub as_of: String,
    /// Currency of every price (`USD`).
    pub currency: String,
    /// Hours per billing month used to turn per-second rates into monthly
    /// request counts (730, the AWS/infracost convention: IC-AWS).
    pub hours_per_month: f64,
    /// Where the numbers of this table come from.
    pub source: String,
}

/// `[[platform]]` of `tiers.toml`: a place the storage can run (report order).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    /// Identifier used by tiers and by [`super::Options::platforms`] (`onprem`, `aws`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Price region, if prices are regional (`us-east-1`).
    #[serde(default)]
    pub region: Option<String>,
    /// Most IOPS one host (instance) can drive across all its volumes; a sized
    /// demand above it is infeasible on this platform. `None` = no cap.
    #[serde(default)]
    pub instance_max_iops: Option<f64>,
    /// Most MB/s (10^6 B/s) one host can drive; `None` = no cap.
    #[serde(default)]
    pub instance_max_mb_s: Option<f64>,
    /// Where the numbers of this table come from.
    pub source: String,
}

/// Kind of a tier, the TOML key `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TierKind {
    /// Drives in RAID groups in an array (`[tier.drive]` + `[tier.raid]`).
    DriveArray,
    /// Cloud block volumes striped together (`[tier.volume]`, `[tier.iops]`,
    /// `[tier.throughput]`, `[tier.price]`).
    CloudVolume,
}

/// One storage tier of the catalogue, validated.
#[derive(Debug, Clone)]
pub struct Tier {
    /// Unique id, `platform.name` by convention (`aws.gp3`, `onprem.efd.raid5`).
    pub id: String,
    /// Id of the [`Platform`] it belongs to.
    pub platform: String,
    /// Display name.
    pub name: String,
    /// Media class (`ssd`, `hdd`).
    pub media: String,
    /// Group names rules can target as `group:NAME`.
    pub groups: Vec<String>,
    /// Latency class as published (text), if any.
    pub latency: Option<String>,
    /// Worst per-IO latency the published class allows, ms (e.g. 9 for
    /// "single-digit ms", 1 for "sub-ms"); `None` = not published. Used by the
    /// IO report card ([`super::grade`]) to say whether a tier could lower a grade.
    pub latency_ms: Option<f64>,
    /// Sources of the tier as a whole.
    pub source: String,
    /// Caveats copied into every option of this tier.
    pub notes: Vec<String>,
    /// Performance, capacity and price model.
    pub spec: TierSpec,
}

impl Tier {
    /// Every `source` string of the tier and its sub-tables, tier first.
    pub fn sources(&self) -> Vec<String> {
        let mut v = vec![self.source.clone()];
        match &self.spec {
            TierSpec::DriveArray { drive, raid } => {
                v.push(drive.source.clone());
                v.push(raid.source.clone());
            }
            TierSpec::CloudVolume(c) => {
                v.push(c.volume.source.clone());
                v.push(c.iops_source.clone());
                v.push(c.throughput_source.clone());
                if let Some(t) = &c.sizes {
                    v.push(t.source.clone());
                }
                v.push(c.price.source.clone());
            }
        }
        v
    }

    /// Platform ids are the first part of tier ids; the tier's kind word for
    /// its units (`drive` or `volume`).
    pub fn unit_word(&self) -> &'static str {
        match self.spec {
            TierSpec::DriveArray { .. } => "drive",
            TierSpec::CloudVolume(_) => "volume",
        }
    }

    /// True when `target` (a tier id or `group:NAME`) names this tier.
    pub fn matches(&self, target: &str) -> bool {
        match target.strip_prefix("group:") {
            Some(g) => self.groups.iter().any(|x| x == g),
            None => self.id == target,
        }
    }
}

/// Model of a tier.
#[derive(Debug, Clone)]
pub enum TierSpec {
    /// On-premises drives in RAID groups.
    DriveArray {
        /// Per-drive figures.
        drive: DriveSpec,
        /// RAID layout.
        raid: RaidSpec,
    },
    /// Cloud block volumes.
    CloudVolume(Box<CloudVolumeSpec>),
}

/// `[tier.drive]`: one drive of an array.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriveSpec {
    /// Id when defined once in a top-level `[[drive]]` table and referenced
    /// from tiers as `drive = "ID"`.
    #[serde(default)]
    pub id: Option<String>,
    /// Display name (`[[drive]]` tables).
    #[serde(default)]
    pub name: Option<String>,
    /// Random small-block IOPS one drive serves at the back end (requests/s).
    pub iops: f64,
    /// Worst typical per-IO latency of one drive, ms (tier-catalog §4.1 ranges'
    /// upper end); `None` = not known.
    #[serde(default)]
    pub latency_ms: Option<f64>,
    /// Drive capacity in GB (10^9 bytes, as vendors label drives).
    pub size_gb: f64,
    /// True when `size_gb` is an assumption rather than a sourced figure; the
    /// report then says so.
    #[serde(default)]
    pub size_is_assumption: bool,
    /// Where the numbers of this table come from.
    pub source: String,
}

/// `[tier.raid]`: RAID layout of an array tier.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaidSpec {
    /// Id when defined once in a top-level `[[raid]]` table and referenced
    /// from tiers as `raid = "ID"`.
    #[serde(default)]
    pub id: Option<String>,
    /// RAID level label (`raid10`, `raid5`).
    pub level: String,
    /// Back-end IOs per front-end write (RAID 10: 2, RAID 5: 4; tier-catalog §4.2).
    pub write_penalty: f64,
    /// Drives per RAID group; the drive count is rounded up to a multiple of it
    /// (RAID 10: 2 = a mirror pair; RAID 5 4+1: 5).
    pub group_width: u32,
    /// Drives per group that hold data (RAID 10: 1 of 2; RAID 5 4+1: 4 of 5);
    /// usable capacity = drives × data_drives_per_group / group_width × size.
    pub data_drives_per_group: u32,
    /// Fewest drives of a configuration.
    pub min_drives: u32,
    /// Where the numbers of this table come from.
    pub source: String,
}

/// Cloud volume tier, validated.
#[derive(Debug, Clone)]
pub struct CloudVolumeSpec {
    /// `[tier.volume]` size limits.
    pub volume: VolumeSpec,
    /// `[tier.iops]` IOPS model.
    pub iops: IopsModel,
    /// `source` of `[tier.iops]`.
    pub iops_source: String,
    /// `[tier.throughput]` throughput model.
    pub throughput: ThroughputModel,
    /// `source` of `[tier.throughput]`.
    pub throughput_source: String,
    /// Throughput figures of `[tier.throughput]` and `[tier.sizes]` are MB/s
    /// (10^6 B/s, Azure's unit) rather than MiB/s (2^20 B/s, AWS and Google):
    /// `[tier.throughput] unit = "MB/s"`.
    pub throughput_decimal: bool,
    /// `[tier.sizes]`: the discrete sizes of a tier whose volumes come in
    /// fixed sizes (Azure P- and E-tiers), with their limits and prices.
    pub sizes: Option<SizeTable>,
    /// `[tier.price]` list prices.
    pub price: PriceSpec,
}

/// `[tier.sizes]`: fixed volume sizes (Azure managed disk tiers). A volume of
/// any requested size is billed as the smallest row that holds it
/// (AZ-TYPES: "a 200 GiB Standard SSD bills as E15").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeTable {
    /// Rows in ascending size.
    pub rows: Vec<SizeRow>,
    /// Where the numbers of the rows come from.
    pub source: String,
}

/// One fixed size of a [`SizeTable`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeRow {
    /// Size name (`P30`).
    pub name: String,
    /// Size, GiB.
    pub gib: f64,
    /// Sustained (provisioned) IOPS.
    pub iops: f64,
    /// Sustained throughput, in the tier's throughput unit.
    pub mb_s: f64,
    /// Monthly price of one volume; `None` = no list price in the catalogue.
    #[serde(default)]
    pub usd_month: Option<f64>,
    /// IOPS reached while burst credits last (credit-based bursting).
    #[serde(default)]
    pub burst_iops: Option<f64>,
    /// Minutes a full credit bucket lasts at `burst_iops` (Azure: 30).
    #[serde(default)]
    pub burst_minutes: Option<f64>,
}

/// `[tier.volume]`: size limits of one volume.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VolumeSpec {
    /// Smallest volume, GiB (2^30 B).
    pub min_gib: f64,
    /// Largest volume, GiB.
    pub max_gib: f64,
    /// Largest IO counted as one request, KiB (AWS SSD: 256, AWS-IOC); larger
    /// average requests are counted as ceil(size / unit) requests. `None` = not
    /// modelled.
    #[serde(default)]
    pub io_unit_kib: Option<f64>,
    /// Every request up to `io_unit_kib` costs a whole unit of throughput
    /// (AWS st1/sc1: each IO of at most 1 MiB counts as one 1 MiB IO,
    /// AWS-HDD/AWS-IOC), so the throughput needed is at least counted IOPS ×
    /// unit. Merging of sequential small IOs is not assumed.
    #[serde(default)]
    pub small_io_counts_full_unit: bool,
    /// Performance belongs to the VM, not to the volume (Google Persistent
    /// Disk: limits = baseline + per-GiB rate × all GiB of the type attached,
    /// up to a per-VM cap, GCP-PD/GCP-DIAG): striping adds nothing, so one
    /// volume of the total size is configured.
    #[serde(default)]
    pub per_vm_pool: bool,
    /// Where the numbers of this table come from.
    pub source: String,
}

/// Credit-based burst of a size-driven volume (AWS gp2, AWS-GP): a bucket of
/// `credits` I/O credits, refilled at the baseline rate, lets a volume run at
/// up to `iops` while it lasts. Duration at a demand D above the baseline B:
/// `credits / (D − B)` seconds (AWS-GP's formula with D = burst IOPS).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Burst {
    /// Burst ceiling, IOPS (gp2: 3,000).
    pub iops: f64,
    /// Bucket size, I/O credits (gp2: 5,400,000).
    pub credits: f64,
    /// Volumes of this size or more do not burst (their baseline is already
    /// at or above the ceiling), GiB (gp2: 1,000).
    #[serde(default)]
    pub below_gib: Option<f64>,
}

/// IOPS a volume delivers (`[tier.iops]`, key `model`).
#[derive(Debug, Clone, PartialEq)]
pub enum IopsModel {
    /// `model = "fixed"`: every volume delivers `per_volume` IOPS.
    Fixed {
        /// IOPS per volume.
        per_volume: f64,
    },
    /// `model = "size_driven"`: IOPS = clamp(base + per_gib × GiB, min, max)
    /// (gp2: base 0; Google PD: base = the per-VM baseline).
    SizeDriven {
        /// IOPS per GiB.
        per_gib: f64,
        /// Floor, IOPS.
        min: f64,
        /// Ceiling, IOPS.
        max: f64,
        /// IOPS before the per-GiB part (Google PD per-VM baseline); 0 = none.
        base: f64,
        /// Credit-based burst (gp2); `None` = no burst.
        burst: Option<Burst>,
    },
    /// `model = "size_table"`: IOPS of the smallest `[tier.sizes]` row that
    /// holds the volume (Azure P- and E-tiers).
    SizeTable,
    /// `model = "provisioned"`: IOPS are bought, `min..=max` per volume, at most
    /// `max_per_gib` per GiB above `included` (gp3, io1, io2).
    Provisioned {
        /// IOPS included in the storage price (gp3: 3,000); the GiB ratio and
        /// the IOPS price apply above it.
        included: f64,
        /// Fewest IOPS per volume.
        min: f64,
        /// Most IOPS per volume.
        max: f64,
        /// Most provisioned IOPS per GiB of volume size; `None` = no ratio published.
        max_per_gib: Option<f64>,
    },
}

/// One size step of a size-driven throughput model (inline table in `steps`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThroughputStep {
    /// From this volume size, GiB ...
    pub min_gib: f64,
    /// ... the volume delivers this many MiB/s (2^20 B/s).
    pub mib_s: f64,
}

/// Throughput a volume delivers (`[tier.throughput]`, key `model`). All MiB/s.
#[derive(Debug, Clone, PartialEq)]
pub enum ThroughputModel {
    /// `model = "fixed"`: `per_volume_mib_s` per volume.
    Fixed {
        /// MiB/s per volume.
        per_volume_mib_s: f64,
    },
    /// `model = "size_steps"`: MiB/s by volume size (gp2).
    SizeSteps {
        /// Steps in ascending `min_gib` and `mib_s`.
        steps: Vec<ThroughputStep>,
    },
    /// `model = "per_iops"`: throughput follows provisioned IOPS (io1, io2):
    /// min(max_mib_s, max(min(flat_cap_mib_s, mib_s_per_iops × IOPS),
    /// linear_mib_s_per_iops × IOPS)).
    PerIops {
        /// MiB/s per provisioned IOPS (io1: 0.25 = 256 KiB; io2: 0.256).
        mib_s_per_iops: f64,
        /// Cap of the proportional part (io1: 500); `None` = `max_mib_s`.
        flat_cap_mib_s: Option<f64>,
        /// Linear rate that takes over above the flat cap (io1: 16 KiB =
        /// 0.015625 MiB/s per IOPS); `None` = 0.
        linear_mib_s_per_iops: Option<f64>,
        /// Most MiB/s per volume.
        max_mib_s: f64,
    },
    /// `model = "size_linear"`: min(max, base + per_gib × GiB) (Google PD;
    /// AWS st1/sc1 with per_gib = per-TiB rate / 1,024).
    SizeLinear {
        /// Throughput before the per-GiB part.
        base_mib_s: f64,
        /// Throughput per GiB of volume size.
        per_gib_mib_s: f64,
        /// Most throughput per volume (or per VM for pooled tiers).
        max_mib_s: f64,
    },
    /// `model = "size_table"`: throughput of the `[tier.sizes]` row.
    SizeTable,
    /// `model = "provisioned"`: throughput is bought separately (gp3).
    Provisioned {
        /// MiB/s included in the storage price.
        included_mib_s: f64,
        /// Most MiB/s per volume.
        max_mib_s: f64,
        /// Most MiB/s per provisioned IOPS; `None` = no ratio published.
        max_mib_s_per_iops: Option<f64>,
    },
}

impl ThroughputModel {
    /// Per-IOPS cap in MiB/s for `iops` provisioned IOPS (only for
    /// [`ThroughputModel::PerIops`]; other models return `None`).
    pub fn per_iops_cap(&self, iops: f64) -> Option<f64> {
        match self {
            ThroughputModel::PerIops {
                mib_s_per_iops,
                flat_cap_mib_s,
                linear_mib_s_per_iops,
                max_mib_s,
            } => {
                let flat = flat_cap_mib_s.unwrap_or(*max_mib_s);
                let prop = (mib_s_per_iops * iops).min(flat);
                let lin = linear_mib_s_per_iops.unwrap_or(0.0) * iops;
                Some(prop.max(lin).min(*max_mib_s))
            }
            _ => None,
        }
    }
}

/// `[tier.price]`: monthly list prices (currency of [`CatalogMeta::currency`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceSpec {
    /// Per provisioned GiB-month (AWS quotes "GB-month" for provisioned GiB);
    /// `None` only for tiers priced per `[tier.sizes]` row, or when no list
    /// price is in the catalogue (`no_list_price`).
    #[serde(default)]
    pub gib_month: Option<f64>,
    /// Set when the catalogue has no public list price for the tier: its
    /// options get no cost (never 0) and this text says why.
    #[serde(default)]
    pub no_list_price: Option<String>,
    /// Per provisioned IOPS-month in bands of absolute IOPS, charged only above
    /// the IOPS model's `included` (gp3 one band; io2 three).
    #[serde(default)]
    pub iops_month: Vec<PriceBand>,
    /// Per provisioned MiB/s-month above the included throughput (gp3).
    #[serde(default)]
    pub mib_s_month: Option<f64>,
    /// Per million I/O requests (EBS Magnetic).
    #[serde(default)]
    pub per_million_io: Option<f64>,
    /// Where the numbers of this table come from.
    pub source: String,
}

/// One IOPS price band (inline table in `iops_month`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceBand {
    /// Upper end of the band in provisioned IOPS (inclusive); `None` = no end.
    /// Only the last band may omit it.
    #[serde(default)]
    pub upto: Option<f64>,
    /// Price per IOPS-month inside the band.
    pub usd: f64,
}

impl PriceSpec {
    /// Monthly price of `iops` provisioned IOPS when `included` IOPS are free:
    /// Σ over bands of (IOPS of the band above `included`) × band price.
    /// Example (io2): 40,000 IOPS = 32,000 × 0.065 + 8,000 × 0.0455 = 2,444.
    pub fn iops_cost(&self, iops: f64, included: f64) -> f64 {
        let mut lower = 0.0_f64;
        let mut cost = 0.0;
        for band in &self.iops_month {
            let upper = band.upto.unwrap_or(f64::INFINITY);
            let from = lower.max(included);
            let to = upper.min(iops);
            if to > from {
                cost += (to - from) * band.usd;
            }
            lower = upper;
        }
        cost
    }
}

/// The whole tier catalogue (`tiers.toml`), validated.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// `[meta]`.
    pub meta: CatalogMeta,
    /// `[[platform]]` in file order.
    pub platforms: Vec<Platform>,
    /// `[[tier]]` in file order.
    pub tiers: Vec<Tier>,
    /// `[[instance]]`: host (VM, instance) storage caps that `--instance`
    /// can apply.
    pub instances: Vec<Instance>,
}

/// `[[instance]]` of `tiers.toml`: the most storage IO one host type can
/// drive across all its volumes (EC2 `EbsOptimizedInfo` maximums, Azure VM
/// "max uncached disk" limits, Google per-VM PD limits).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Type name as the provider spells it (`r5.4xlarge`, `Standard_E16s_v5`).
    pub id: String,
    /// Platform id.
    pub platform: String,
    /// Most IOPS.
    pub max_iops: f64,
    /// Most throughput, MB/s (10^6 B/s).
    pub max_mb_s: f64,
    /// Lower caps for some tiers (Google PD: the per-VM maximum depends on the disk type).
    #[serde(default)]
    pub tier_caps: Vec<TierCap>,
    /// Tiers this host type cannot attach (pd-extreme and Hyperdisk Extreme need large VMs).
    #[serde(default)]
    pub tiers_unavailable: Vec<String>,
    /// Where the numbers come from.
    pub source: String,
}

/// A per-tier cap of an [`Instance`] (inline table in `tier_caps`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierCap {
    /// Tier id.
    pub tier: String,
    /// Most IOPS with this tier.
    pub max_iops: f64,
    /// Most MB/s (10^6 B/s) with this tier.
    pub max_mb_s: f64,
}

impl Instance {
    /// (max IOPS, max MB/s) of this instance for `tier_id`.
    pub fn caps_for(&self, tier_id: &str) -> (f64, f64) {
        self.tier_caps
            .iter()
            .find(|c| c.tier == tier_id)
            .map_or((self.max_iops, self.max_mb_s), |c| (c.max_iops, c.max_mb_s))
    }
}

/// A drive or RAID layout given inline in a tier or by the id of a
/// top-level `[[drive]]` / `[[raid]]` table.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Ref<T> {
    Id(String),
    Inline(T),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalog {
    meta: CatalogMeta,
    #[serde(default)]
    platform: Vec<Platform>,
    #[serde(default)]
    drive: Vec<DriveSpec>,
    #[serde(default)]
    raid: Vec<RaidSpec>,
    #[serde(default)]
    instance: Vec<Instance>,
    #[serde(default)]
    tier: Vec<RawTier>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTier {
    id: String,
    platform: String,
    kind: TierKind,
    name: String,
    media: String,
    #[serde(default)]
    groups: Vec<String>,
    #[serde(default)]
    latency: Option<String>,
    #[serde(default)]
    latency_ms: Option<f64>,
    source: String,
    #[serde(default)]
    notes: Vec<String>,
    drive: Option<Ref<DriveSpec>>,
    raid: Option<Ref<RaidSpec>>,
    volume: Option<VolumeSpec>,
    iops: Option<RawIops>,
    throughput: Option<RawThroughput>,
    sizes: Option<SizeTable>,
    price: Option<PriceSpec>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum IopsModelKind {
    Fixed,
    SizeDriven,
    SizeTable,
    Provisioned,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIops {
    model: IopsModelKind,
    per_volume: Option<f64>,
    per_gib: Option<f64>,
    min: Option<f64>,
    max: Option<f64>,
    included: Option<f64>,
    max_per_gib: Option<f64>,
    base: Option<f64>,
    burst: Option<Burst>,
    source: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ThroughputModelKind {
    Fixed,
    SizeSteps,
    SizeLinear,
    SizeTable,
    PerIops,
    Provisioned,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawThroughput {
    model: ThroughputModelKind,
    per_volume_mib_s: Option<f64>,
    steps: Option<Vec<ThroughputStep>>,
    mib_s_per_iops: Option<f64>,
    flat_cap_mib_s: Option<f64>,
    linear_mib_s_per_iops: Option<f64>,
    max_mib_s: Option<f64>,
    included_mib_s: Option<f64>,
    max_mib_s_per_iops: Option<f64>,
    base_mib_s: Option<f64>,
    per_gib_mib_s: Option<f64>,
    /// `"MiB/s"` (default) or `"MB/s"` (10^6 B/s).
    unit: Option<String>,
    source: String,
}

// ---------------------------------------------------------------------------
// sizing.toml
// ---------------------------------------------------------------------------

/// `[meta]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizingMeta {
    /// Date the policy was checked (ISO 8601 text).
    pub as_of: String,
    /// Where it comes from.
    pub source: String,
}

/// `[headroom]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeadroomPolicy {
    /// Default headroom over the sizing statistic, percent (30 = × 1.30).
    pub default_pct: f64,
    /// Why / where from.
    pub source: String,
}

/// `[onprem]` of `sizing.toml`: how drive arrays are counted.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnpremPolicy {
    /// Read-hit ratio of the ARRAY cache, percent 0..100 (default 0). Not the
    /// database buffer-cache hit ratio: those hits never reach the array.
    pub array_read_hit_pct: f64,
    /// Share of writes absorbed by array write coalescing, percent 0..100.
    pub write_coalesce_pct: f64,
    /// Drive counts above this are infeasible.
    pub max_drives: u32,
    /// Reasoning shown in docs / reports.
    pub why: String,
    /// Where the numbers come from.
    pub source: String,
}

/// How many volumes a cloud configuration uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VolumeCountPolicy {
    /// Smallest count that meets the demand (stripe only when one volume cannot).
    Fewest,
    /// The fewest volumes whose monthly cost is within [`CloudPolicy::min_saving_pct`] of the
    /// lowest (only when a capacity is given).
    Cheapest,
}

/// `[cloud]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloudPolicy {
    /// Most equal volumes striped together.
    pub max_volumes: u32,
    /// How the volume count is chosen.
    pub volume_count: VolumeCountPolicy,
    /// With `volume_count = "cheapest"`: the fewest volumes whose cost is within this many
    /// percent of the cheapest count are taken (0 = the cheapest count itself).
    #[serde(default)]
    pub min_saving_pct: f64,
    /// Where the numbers come from.
    pub source: String,
}

/// A quantity rules can test. Names are the TOML spellings (`snake_case`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// [`super::Demand::required_iops`], IOPS.
    RequiredIops,
    /// required IOPS × (1 + headroom), IOPS.
    SizedIops,
    /// [`super::Demand::read_iops`].
    ReadIops,
    /// [`super::Demand::write_iops`].
    WriteIops,
    /// [`super::Demand::read_mb_s`], MB/s (10^6).
    ReadMbS,
    /// [`super::Demand::write_mb_s`], MB/s (10^6).
    WriteMbS,
    /// read + write MB/s (10^6).
    TotalMbS,
    /// (read + write MB/s) × (1 + headroom).
    SizedMbS,
    /// write IOPS / (read + write IOPS), 0..1; unknown when both are 0.
    WriteShare,
    /// [`super::Demand::avg_read_kib`], KiB.
    AvgReadKib,
    /// [`super::Demand::avg_write_kib`], KiB.
    AvgWriteKib,
    /// [`super::Demand::small_read_share`], 0..1.
    SmallReadShare,
    /// [`super::Demand::cache_hit_pct`], 0..100.
    CacheHitPct,
    /// [`super::Demand::direct_read_share`], 0..1.
    DirectReadShare,
    /// [`super::Demand::single_block_read_ms`], ms.
    SingleBlockReadMs,
    /// [`super::Demand::log_write_ms`], ms.
    LogWriteMs,
    /// [`super::Demand::capacity_gib`], GiB.
    CapacityGib,
    /// [`super::Demand::window_minutes`], minutes.
    WindowMinutes,
}

impl Metric {
    /// Every metric, in declaration order.
    pub const ALL: [Metric; 18] = [
        Metric::RequiredIops,
        Metric::SizedIops,
        Metric::ReadIops,
        Metric::WriteIops,
        Metric::ReadMbS,
        Metric::WriteMbS,
        Metric::TotalMbS,
        Metric::SizedMbS,
        Metric::WriteShare,
        Metric::AvgReadKib,
        Metric::AvgWriteKib,
        Metric::SmallReadShare,
        Metric::CacheHitPct,
        Metric::DirectReadShare,
        Metric::SingleBlockReadMs,
        Metric::LogWriteMs,
        Metric::CapacityGib,
        Metric::WindowMinutes,
    ];

    /// TOML spelling, e.g. `cache_hit_pct`.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::RequiredIops => "required_iops",
            Metric::SizedIops => "sized_iops",
            Metric::ReadIops => "read_iops",
            Metric::WriteIops => "write_iops",
            Metric::ReadMbS => "read_mb_s",
            Metric::WriteMbS => "write_mb_s",
            Metric::TotalMbS => "total_mb_s",
            Metric::SizedMbS => "sized_mb_s",
            Metric::WriteShare => "write_share",
            Metric::AvgReadKib => "avg_read_kib",
            Metric::AvgWriteKib => "avg_write_kib",
            Metric::SmallReadShare => "small_read_share",
            Metric::CacheHitPct => "cache_hit_pct",
            Metric::DirectReadShare => "direct_read_share",
            Metric::SingleBlockReadMs => "single_block_read_ms",
            Metric::LogWriteMs => "log_write_ms",
            Metric::CapacityGib => "capacity_gib",
            Metric::WindowMinutes => "window_minutes",
        }
    }

    /// Metric named `s` (TOML spelling).
    pub fn from_name(s: &str) -> Option<Metric> {
        Metric::ALL.iter().copied().find(|m| m.as_str() == s)
    }
}

/// Comparison of a [`Condition`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `<`
    #[serde(rename = "<")]
    Lt,
    /// `<=`
    #[serde(rename = "<=")]
    Le,
    /// `>`
    #[serde(rename = ">")]
    Gt,
    /// `>=`
    #[serde(rename = ">=")]
    Ge,
    /// `==` (exact float equality)
    #[serde(rename = "==")]
    Eq,
    /// `!=`
    #[serde(rename = "!=")]
    Ne,
}

impl Op {
    /// The operator as written in TOML.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }

    /// `lhs op rhs`.
    pub fn holds(self, lhs: f64, rhs: f64) -> bool {
        match self {
            Op::Lt => lhs < rhs,
            Op::Le => lhs <= rhs,
            Op::Gt => lhs > rhs,
            Op::Ge => lhs >= rhs,
            Op::Eq => lhs == rhs,
            Op::Ne => lhs != rhs,
        }
    }
}

/// One condition of a rule: `metric op value`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// Quantity tested.
    pub metric: Metric,
    /// Comparison.
    pub op: Op,
    /// Threshold, in the metric's unit.
    pub value: f64,
    /// Source of the threshold (falls back to the rule's `source`).
    #[serde(default)]
    pub source: Option<String>,
}

/// What a fired rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Add `weight` to the score of the target tiers.
    Prefer,
    /// Subtract `weight` from the score of the target tiers.
    Avoid,
    /// Report the message only.
    Note,
    /// Report the message as a warning about the evidence (no effect on the choice).
    Warn,
}
impl Effect {
    /// Whether the effect only reports (`note`, `warn`) rather than changing scores.
    pub fn reports_only(self) -> bool {
        matches!(self, Effect::Note | Effect::Warn)
    }
}

/// `[[rule]]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Unique id (kebab-case).
    pub id: String,
    /// Conditions, all of which must hold; empty = always fires.
    #[serde(default)]
    pub when: Vec<Condition>,
    /// What it does.
    pub effect: Effect,
    /// Tier ids or `group:NAME` (empty for notes).
    #[serde(default)]
    pub targets: Vec<String>,
    /// Score added (prefer) or subtracted (avoid); default 1.
    #[serde(default = "default_weight")]
    pub weight: u32,
    /// Prefer/avoid only applies to target options with at most this many
    /// drives or volumes.
    #[serde(default)]
    pub max_units: Option<u32>,
    /// Message template (placeholders in docs/rules.md).
    pub message: String,
    /// Source of the rule.
    pub source: String,
}

fn default_weight() -> u32 {
    1
}

/// The sizing policy (`sizing.toml`), validated.
#[derive(Debug, Clone)]
pub struct SizingPolicy {
    /// `[meta]`.
    pub meta: SizingMeta,
    /// `[required_iops]`.
    pub required_iops: IopsFormula,
    /// `[headroom]`.
    pub headroom: HeadroomPolicy,
    /// `[onprem]`.
    pub onprem: OnpremPolicy,
    /// `[cloud]`.
    pub cloud: CloudPolicy,
    /// `[report_card]`: latency grades; `None` = no card.
    pub report_card: Option<super::grade::ReportCardSpec>,
    /// `[flash_vs_hdd]`: the on-premises flash-versus-15K comparison; `None` = not stated.
    pub flash_vs_hdd: Option<FlashVsHdd>,
    /// `[[rule]]` in file order.
    pub rules: Vec<Rule>,
}

/// `[flash_vs_hdd]` of `sizing.toml`: which on-premises options the report compares (drive
/// counts for the same load) and the published consequence it quotes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlashVsHdd {
    /// Tier group of the flash options (`onprem_flash`).
    pub flash_group: String,
    /// Tier group of the spinning options compared (`hdd15k`).
    pub hdd_group: String,
    /// Published IOPS of one flash drive in 15K drives (EMC 2008: 30).
    pub flash_iops_in_hdd_drives: f64,
    /// Published power saving per IO of flash over 15K drives, percent (EMC 2008: 98).
    pub power_saving_per_io_pct: f64,
    /// Where the figures come from.
    pub source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSizing {
    meta: SizingMeta,
    required_iops: IopsFormula,
    headroom: HeadroomPolicy,
    onprem: OnpremPolicy,
    cloud: CloudPolicy,
    #[serde(default)]
    report_card: Option<super::grade::ReportCardSpec>,
    #[serde(default)]
    flash_vs_hdd: Option<FlashVsHdd>,
    #[serde(default)]
    rule: Vec<Rule>,
}

// ---------------------------------------------------------------------------
// Parsing helpers and error positions
// ---------------------------------------------------------------------------

/// Parse `text` (the contents of `file`) as TOML into `T`; on error, name the
/// file, the 1-based line and column, and the TOML key at the error position.
pub(crate) fn parse_toml<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, RulesError> {
    toml::from_str::<T>(text).map_err(|e| {
        let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((0, 0));
        let key = e.span().and_then(|s| key_path_at(text, s.start));
        RulesError::Toml {
            file: file.to_string(),
            key,
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })
}

/// 1-based line and column (in characters) of byte offset `pos`.
fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let pos = pos.min(text.len());
    let before = text.get(..pos).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Dotted key path (`tier[2].iops.max`) of the smallest TOML node whose span
/// contains byte `pos`, or `None` when the text does not parse.
fn key_path_at(text: &str, pos: usize) -> Option<String> {
    let root = toml::de::DeTable::parse(text).ok()?;
    let mut best: Option<(usize, usize, String)> = None; // (span len, depth, path)
    walk_table(root.get_ref(), pos, "", 0, &mut best);
    best.map(|(_, _, p)| p)
}

fn consider(
    span: std::ops::Range<usize>,
    pos: usize,
    path: &str,
    depth: usize,
    best: &mut Option<(usize, usize, String)>,
) {
    let inside = (span.start <= pos && pos < span.end) || (span.start == pos && span.is_empty());
    if !inside || path.is_empty() {
        return;
    }
    let len = span.end - span.start;
    let better = match best {
        None => true,
        Some((l, d, _)) => len < *l || (len == *l && depth > *d),
    };
    if better {
        *best = Some((len, depth, path.to_string()));
    }
}

fn walk_table(
    t: &toml::de::DeTable<'_>,
    pos: usize,
    prefix: &str,
    depth: usize,
    best: &mut Option<(usize, usize, String)>,
) {
    for (k, v) in t.iter() {
        let path = if prefix.is_empty() {
            k.get_ref().to_string()
        } else {
            format!("{prefix}.{}", k.get_ref())
        };
        consider(k.span(), pos, &path, depth + 1, best);
        consider(v.span(), pos, &path, depth + 1, best);
        walk_value(v.get_ref(), pos, &path, depth + 1, best);
    }
}

fn walk_value(
    v: &toml::de::DeValue<'_>,
    pos: usize,
    path: &str,
    depth: usize,
    best: &mut Option<(usize, usize, String)>,
) {
    match v {
        toml::de::DeValue::Table(t) => walk_table(t, pos, path, depth, best),
        toml::de::DeValue::Array(a) => {
            for (i, item) in a.iter().enumerate() {
                let p = format!("{path}[{i}]");
                consider(item.span(), pos, &p, depth + 1, best);
                walk_value(item.get_ref(), pos, &p, depth + 1, best);
            }
        }
        _ => {}
    }
}

/// Validation context: the file name every error carries.
struct Check<'a> {
    file: &'a str,
}

impl Check<'_> {
    fn err(&self, key: impl Into<String>, message: impl Into<String>) -> RulesError {
        RulesError::Invalid {
            file: self.file.to_string(),
            key: key.into(),
            message: message.into(),
        }
    }

    fn text(&self, key: &str, s: &str) -> Result<(), RulesError> {
        if s.trim().is_empty() {
            Err(self.err(key, "must be a non-empty string"))
        } else {
            Ok(())
        }
    }

    fn need<T: Copy>(&self, key: &str, v: Option<T>, why: &str) -> Result<T, RulesError> {
        v.ok_or_else(|| self.err(key, format!("is required {why}")))
    }

    /// Finite and >= `min` (inclusive) or > `min` (exclusive).
    fn num(&self, key: &str, v: f64, min: f64, inclusive: bool) -> Result<f64, RulesError> {
        let ok = v.is_finite() && if inclusive { v >= min } else { v > min };
        if ok {
            Ok(v)
        } else {
            let cmp = if inclusive { ">=" } else { ">" };
            Err(self.err(
                key,
                format!("must be a finite number {cmp} {min}, found {v}"),
            ))
        }
    }

    fn pos(&self, key: &str, v: f64) -> Result<f64, RulesError> {
        self.num(key, v, 0.0, false)
    }

    fn nonneg(&self, key: &str, v: f64) -> Result<f64, RulesError> {
        self.num(key, v, 0.0, true)
    }

    fn pct(&self, key: &str, v: f64) -> Result<f64, RulesError> {
        self.nonneg(key, v)?;
        if v >= 100.0 {
            return Err(self.err(key, format!("must be below 100 (percent), found {v}")));
        }
        Ok(v)
    }
}

fn ensure_absent<T>(c: &Check<'_>, key: &str, v: &Option<T>, kind: &str) -> Result<(), RulesError> {
    if v.is_some() {
        Err(c.err(key, format!("is not allowed for kind = \"{kind}\"")))
    } else {
        Ok(())
    }
}

/// Parse and validate a tier catalogue. `file` names the source in errors.
pub(crate) fn parse_catalog(text: &str, file: &str) -> Result<Catalog, RulesError> {
    let raw: RawCatalog = parse_toml(text, file)?;
    validate_catalog(raw, file)
}

fn validate_catalog(raw: RawCatalog, file: &str) -> Result<Catalog, RulesError> {
    let c = Check { file };
    c.text("meta.as_of", &raw.meta.as_of)?;
    c.text("meta.currency", &raw.meta.currency)?;
    c.text("meta.source", &raw.meta.source)?;
    c.pos("meta.hours_per_month", raw.meta.hours_per_month)?;

    if raw.platform.is_empty() {
        return Err(c.err("platform", "at least one [[platform]] is required"));
    }
    let mut pids = HashSet::new();
    for (i, p) in raw.platform.iter().enumerate() {
        let k = format!("platform[{i}]");
        c.text(&format!("{k}.id"), &p.id)?;
        if !pids.insert(p.id.clone()) {
            return Err(c.err(
                format!("{k}.id"),
                format!("duplicate platform id \"{}\"", p.id),
            ));
        }
        c.text(&format!("{k}.name"), &p.name)?;
        c.text(&format!("{k}.source"), &p.source)?;
        if let Some(v) = p.instance_max_iops {
            c.pos(&format!("{k}.instance_max_iops"), v)?;
        }
        if let Some(v) = p.instance_max_mb_s {
            c.pos(&format!("{k}.instance_max_mb_s"), v)?;
        }
    }

    let mut drive_ids = HashSet::new();
    for (i, d) in raw.drive.iter().enumerate() {
        let k = format!("drive[{i}]");
        let id = c.need(&format!("{k}.id"), d.id.as_deref(), "in a [[drive]] table")?;
        c.text(&format!("{k}.id"), id)?;
        if !drive_ids.insert(id.to_string()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate drive id \"{id}\"")));
        }
        check_drive(&c, &k, d)?;
    }
    let mut raid_ids = HashSet::new();
    for (i, r) in raw.raid.iter().enumerate() {
        let k = format!("raid[{i}]");
        let id = c.need(&format!("{k}.id"), r.id.as_deref(), "in a [[raid]] table")?;
        c.text(&format!("{k}.id"), id)?;
        if !raid_ids.insert(id.to_string()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate raid id \"{id}\"")));
        }
        check_raid(&c, &k, r)?;
    }
    let mut inst_ids = HashSet::new();
    for (i, n) in raw.instance.iter().enumerate() {
        let k = format!("instance[{i}]");
        c.text(&format!("{k}.id"), &n.id)?;
        if !inst_ids.insert((n.platform.clone(), n.id.to_ascii_lowercase())) {
            return Err(c.err(
                format!("{k}.id"),
                format!("duplicate instance \"{}\"", n.id),
            ));
        }
        if !pids.contains(&n.platform) {
            return Err(c.err(
                format!("{k}.platform"),
                format!("unknown platform \"{}\"", n.platform),
            ));
        }
        c.pos(&format!("{k}.max_iops"), n.max_iops)?;
        c.pos(&format!("{k}.max_mb_s"), n.max_mb_s)?;
        for (j, tc) in n.tier_caps.iter().enumerate() {
            c.pos(&format!("{k}.tier_caps[{j}].max_iops"), tc.max_iops)?;
            c.pos(&format!("{k}.tier_caps[{j}].max_mb_s"), tc.max_mb_s)?;
            match raw.tier.iter().find(|t| t.id == tc.tier) {
                None => {
                    return Err(c.err(
                        format!("{k}.tier_caps[{j}].tier"),
                        format!("unknown tier \"{}\"", tc.tier),
                    ))
                }
                Some(t) if t.platform != n.platform => {
                    return Err(c.err(
                        format!("{k}.tier_caps[{j}].tier"),
                        format!(
                            "tier \"{}\" is on platform \"{}\", not the instance's \"{}\"",
                            tc.tier, t.platform, n.platform
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
        for (j, t) in n.tiers_unavailable.iter().enumerate() {
            if !raw.tier.iter().any(|x| &x.id == t) {
                return Err(c.err(
                    format!("{k}.tiers_unavailable[{j}]"),
                    format!("unknown tier \"{t}\""),
                ));
            }
        }
        c.text(&format!("{k}.source"), &n.source)?;
    }
    let resolve_drive = |k: &str, r: Ref<DriveSpec>| -> Result<DriveSpec, RulesError> {
        match r {
            Ref::Inline(d) => Ok(d),
            Ref::Id(id) => raw
                .drive
                .iter()
                .find(|d| d.id.as_deref() == Some(id.as_str()))
                .cloned()
                .ok_or_else(|| c.err(k, format!("no [[drive]] with id \"{id}\""))),
        }
    };
    let resolve_raid = |k: &str, r: Ref<RaidSpec>| -> Result<RaidSpec, RulesError> {
        match r {
            Ref::Inline(d) => Ok(d),
            Ref::Id(id) => raw
                .raid
                .iter()
                .find(|d| d.id.as_deref() == Some(id.as_str()))
                .cloned()
                .ok_or_else(|| c.err(k, format!("no [[raid]] with id \"{id}\""))),
        }
    };

    let mut ids = HashSet::new();
    let mut tiers = Vec::with_capacity(raw.tier.len());
    for (i, t) in raw.tier.into_iter().enumerate() {
        let k = format!("tier[{i}]");
        c.text(&format!("{k}.id"), &t.id)?;
        if !ids.insert(t.id.clone()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate tier id \"{}\"", t.id)));
        }
        if t.id.starts_with("group:") {
            return Err(c.err(format!("{k}.id"), "must not start with \"group:\""));
        }
        if !pids.contains(&t.platform) {
            return Err(c.err(
                format!("{k}.platform"),
                format!("unknown platform \"{}\" (tier \"{}\")", t.platform, t.id),
            ));
        }
        c.text(&format!("{k}.name"), &t.name)?;
        c.text(&format!("{k}.media"), &t.media)?;
        c.text(&format!("{k}.source"), &t.source)?;
        if let Some(v) = t.latency_ms {
            c.pos(&format!("{k}.latency_ms"), v)?;
        }
        let mut latency_ms = t.latency_ms;
        let spec = match t.kind {
            TierKind::DriveArray => {
                ensure_absent(&c, &format!("{k}.volume"), &t.volume, "drive_array")?;
                ensure_absent(&c, &format!("{k}.iops"), &t.iops, "drive_array")?;
                ensure_absent(&c, &format!("{k}.throughput"), &t.throughput, "drive_array")?;
                ensure_absent(&c, &format!("{k}.price"), &t.price, "drive_array")?;
                ensure_absent(&c, &format!("{k}.sizes"), &t.sizes, "drive_array")?;
                let drive = t.drive.ok_or_else(|| {
                    c.err(
                        format!("{k}.drive"),
                        "is required for kind = \"drive_array\"",
                    )
                })?;
                let raid = t.raid.ok_or_else(|| {
                    c.err(
                        format!("{k}.raid"),
                        "is required for kind = \"drive_array\"",
                    )
                })?;
                let drive = resolve_drive(&format!("{k}.drive"), drive)?;
                let raid = resolve_raid(&format!("{k}.raid"), raid)?;
                check_drive(&c, &format!("{k}.drive"), &drive)?;
                check_raid(&c, &format!("{k}.raid"), &raid)?;
                latency_ms = latency_ms.or(drive.latency_ms);
                TierSpec::DriveArray { drive, raid }
            }
            TierKind::CloudVolume => {
                ensure_absent(&c, &format!("{k}.drive"), &t.drive, "cloud_volume")?;
                ensure_absent(&c, &format!("{k}.raid"), &t.raid, "cloud_volume")?;
                let req = |name: &str| {
                    c.err(
                        format!("{k}.{name}"),
                        "is required for kind = \"cloud_volume\"",
                    )
                };
                let volume = t.volume.ok_or_else(|| req("volume"))?;
                let iops = t.iops.ok_or_else(|| req("iops"))?;
                let thr = t.throughput.ok_or_else(|| req("throughput"))?;
                let price = t.price.ok_or_else(|| req("price"))?;
                check_volume(&c, &format!("{k}.volume"), &volume)?;
                let iops_source = iops.source.clone();
                let iops = check_iops(&c, &format!("{k}.iops"), iops)?;
                let throughput_source = thr.source.clone();
                let throughput_decimal = match thr.unit.as_deref() {
                    None | Some("MiB/s") => false,
                    Some("MB/s") => true,
                    Some(u) => {
                        return Err(c.err(
                            format!("{k}.throughput.unit"),
                            format!("must be \"MiB/s\" or \"MB/s\", got \"{u}\""),
                        ))
                    }
                };
                let throughput = check_throughput(&c, &format!("{k}.throughput"), thr)?;
                let table = matches!(iops, IopsModel::SizeTable)
                    || matches!(throughput, ThroughputModel::SizeTable);
                match (&t.sizes, table) {
                    (Some(st), true) => check_sizes(&c, &format!("{k}.sizes"), st)?,
                    (None, true) => {
                        return Err(c.err(
                            format!("{k}.sizes"),
                            "is required when iops or throughput model = \"size_table\"",
                        ))
                    }
                    (Some(_), false) => {
                        return Err(c.err(
                            format!("{k}.sizes"),
                            "is only used with iops and throughput model = \"size_table\"",
                        ))
                    }
                    (None, false) => {}
                }
                if table
                    && !(matches!(iops, IopsModel::SizeTable)
                        && matches!(throughput, ThroughputModel::SizeTable))
                {
                    return Err(c.err(
                        format!("{k}.iops.model"),
                        "iops and throughput must both be \"size_table\" or neither",
                    ));
                }
                check_price(&c, &format!("{k}.price"), &price, table)?;
                TierSpec::CloudVolume(Box::new(CloudVolumeSpec {
                    volume,
                    iops,
                    iops_source,
                    throughput,
                    throughput_source,
                    throughput_decimal,
                    sizes: t.sizes,
                    price,
                }))
            }
        };
        tiers.push(Tier {
            id: t.id,
            platform: t.platform,
            name: t.name,
            media: t.media,
            groups: t.groups,
            latency: t.latency,
            latency_ms,
            source: t.source,
            notes: t.notes,
            spec,
        });
    }
    Ok(Catalog {
        meta: raw.meta,
        platforms: raw.platform,
        tiers,
        instances: raw.instance,
    })
}

fn check_sizes(c: &Check<'_>, k: &str, t: &SizeTable) -> Result<(), RulesError> {
    c.text(&format!("{k}.source"), &t.source)?;
    if t.rows.is_empty() {
        return Err(c.err(format!("{k}.rows"), "needs at least one row"));
    }
    for (i, r) in t.rows.iter().enumerate() {
        let rk = format!("{k}.rows[{i}]");
        c.text(&format!("{rk}.name"), &r.name)?;
        c.pos(&format!("{rk}.gib"), r.gib)?;
        c.pos(&format!("{rk}.iops"), r.iops)?;
        c.pos(&format!("{rk}.mb_s"), r.mb_s)?;
        if let Some(v) = r.usd_month {
            c.nonneg(&format!("{rk}.usd_month"), v)?;
            // A disk-month above $1 M is a unit error, not a price.
            plausible(c, &format!("{rk}.usd_month"), v, 1e6)?;
        }
        match (r.burst_iops, r.burst_minutes) {
            (Some(b), Some(m)) => {
                c.pos(&format!("{rk}.burst_iops"), b)?;
                c.pos(&format!("{rk}.burst_minutes"), m)?;
            }
            (None, None) => {}
            _ => {
                return Err(c.err(
                    rk,
                    "burst_iops and burst_minutes go together (both or neither)",
                ))
            }
        }
        if i > 0 && r.gib <= t.rows[i - 1].gib {
            return Err(c.err(format!("{rk}.gib"), "rows must ascend in gib"));
        }
    }
    Ok(())
}

fn check_drive(c: &Check<'_>, k: &str, d: &DriveSpec) -> Result<(), RulesError> {
    c.pos(&format!("{k}.iops"), d.iops)?;
    if let Some(v) = d.latency_ms {
        c.pos(&format!("{k}.latency_ms"), v)?;
    }
    c.pos(&format!("{k}.size_gb"), d.size_gb)?;
    c.text(&format!("{k}.source"), &d.source)
}

fn check_raid(c: &Check<'_>, k: &str, r: &RaidSpec) -> Result<(), RulesError> {
    c.text(&format!("{k}.level"), &r.level)?;
    c.num(&format!("{k}.write_penalty"), r.write_penalty, 1.0, true)?;
    if r.group_width == 0 {
        return Err(c.err(format!("{k}.group_width"), "must be at least 1"));
    }
    if r.data_drives_per_group == 0 || r.data_drives_per_group > r.group_width {
        return Err(c.err(
            format!("{k}.data_drives_per_group"),
            format!("must be 1..={} (group_width)", r.group_width),
        ));
    }
    if r.min_drives == 0 {
        return Err(c.err(format!("{k}.min_drives"), "must be at least 1"));
    }
    c.text(&format!("{k}.source"), &r.source)
}

fn check_volume(c: &Check<'_>, k: &str, v: &VolumeSpec) -> Result<(), RulesError> {
    c.pos(&format!("{k}.min_gib"), v.min_gib)?;
    c.pos(&format!("{k}.max_gib"), v.max_gib)?;
    if v.max_gib < v.min_gib {
        return Err(c.err(format!("{k}.max_gib"), "must be >= min_gib"));
    }
    if let Some(u) = v.io_unit_kib {
        c.pos(&format!("{k}.io_unit_kib"), u)?;
    }
    c.text(&format!("{k}.source"), &v.source)
}

fn check_iops(c: &Check<'_>, k: &str, r: RawIops) -> Result<IopsModel, RulesError> {
    c.text(&format!("{k}.source"), &r.source)?;
    let key = |n: &str| format!("{k}.{n}");
    let only = |allowed: &[&str]| -> Result<(), RulesError> {
        let present = [
            ("per_volume", r.per_volume.is_some()),
            ("per_gib", r.per_gib.is_some()),
            ("min", r.min.is_some()),
            ("max", r.max.is_some()),
            ("included", r.included.is_some()),
            ("max_per_gib", r.max_per_gib.is_some()),
            ("base", r.base.is_some()),
            ("burst", r.burst.is_some()),
        ];
        for (name, is) in present {
            if is && !allowed.contains(&name) {
                return Err(c.err(key(name), "is not used by this iops model"));
            }
        }
        Ok(())
    };
    match r.model {
        IopsModelKind::Fixed => {
            only(&["per_volume"])?;
            let per_volume = c.need(&key("per_volume"), r.per_volume, "for model = \"fixed\"")?;
            Ok(IopsModel::Fixed {
                per_volume: c.pos(&key("per_volume"), per_volume)?,
            })
        }
        IopsModelKind::SizeDriven => {
            only(&["per_gib", "min", "max", "base", "burst"])?;
            let why = "for model = \"size_driven\"";
            let per_gib = c.pos(&key("per_gib"), c.need(&key("per_gib"), r.per_gib, why)?)?;
            let min = c.nonneg(&key("min"), c.need(&key("min"), r.min, why)?)?;
            let max = c.pos(&key("max"), c.need(&key("max"), r.max, why)?)?;
            let base = c.nonneg(&key("base"), r.base.unwrap_or(0.0))?;
            if max < min {
                return Err(c.err(key("max"), "must be >= min"));
            }
            if let Some(b) = &r.burst {
                c.pos(&key("burst.iops"), b.iops)?;
                c.pos(&key("burst.credits"), b.credits)?;
                if let Some(g) = b.below_gib {
                    c.pos(&key("burst.below_gib"), g)?;
                }
            }
            Ok(IopsModel::SizeDriven {
                per_gib,
                min,
                max,
                base,
                burst: r.burst,
            })
        }
        IopsModelKind::SizeTable => {
            only(&[])?;
            Ok(IopsModel::SizeTable)
        }
        IopsModelKind::Provisioned => {
            only(&["included", "min", "max", "max_per_gib"])?;
            let why = "for model = \"provisioned\"";
            let included = c.nonneg(&key("included"), r.included.unwrap_or(0.0))?;
            let min = c.nonneg(&key("min"), c.need(&key("min"), r.min, why)?)?;
            let max = c.pos(&key("max"), c.need(&key("max"), r.max, why)?)?;
            let max_per_gib = match r.max_per_gib {
                Some(v) => Some(c.pos(&key("max_per_gib"), v)?),
                None => None,
            };
            if max < min {
                return Err(c.err(key("max"), "must be >= min"));
            }
            if included > max {
                return Err(c.err(key("included"), "must be <= max"));
            }
            Ok(IopsModel::Provisioned {
                included,
                min,
                max,
                max_per_gib,
            })
        }
    }
}

fn check_throughput(
    c: &Check<'_>,
    k: &str,
    r: RawThroughput,
) -> Result<ThroughputModel, RulesError> {
    c.text(&format!("{k}.source"), &r.source)?;
    let key = |n: &str| format!("{k}.{n}");
    let only = |allowed: &[&str]| -> Result<(), RulesError> {
        let present = [
            ("per_volume_mib_s", r.per_volume_mib_s.is_some()),
            ("steps", r.steps.is_some()),
            ("mib_s_per_iops", r.mib_s_per_iops.is_some()),
            ("flat_cap_mib_s", r.flat_cap_mib_s.is_some()),
            ("linear_mib_s_per_iops", r.linear_mib_s_per_iops.is_some()),
            ("max_mib_s", r.max_mib_s.is_some()),
            ("included_mib_s", r.included_mib_s.is_some()),
            ("max_mib_s_per_iops", r.max_mib_s_per_iops.is_some()),
            ("base_mib_s", r.base_mib_s.is_some()),
            ("per_gib_mib_s", r.per_gib_mib_s.is_some()),
        ];
        for (name, is) in present {
            if is && !allowed.contains(&name) {
                return Err(c.err(key(name), "is not used by this throughput model"));
            }
        }
        Ok(())
    };
    match r.model {
        ThroughputModelKind::Fixed => {
            only(&["per_volume_mib_s"])?;
            let v = c.need(
                &key("per_volume_mib_s"),
                r.per_volume_mib_s,
                "for model = \"fixed\"",
            )?;
            Ok(ThroughputModel::Fixed {
                per_volume_mib_s: c.pos(&key("per_volume_mib_s"), v)?,
            })
        }
        ThroughputModelKind::SizeSteps => {
            only(&["steps"])?;
            let steps = r
                .steps
                .ok_or_else(|| c.err(key("steps"), "is required for model = \"size_steps\""))?;
            if steps.is_empty() {
                return Err(c.err(key("steps"), "needs at least one step"));
            }
            for (i, s) in steps.iter().enumerate() {
                c.pos(&format!("{k}.steps[{i}].min_gib"), s.min_gib)?;
                c.pos(&format!("{k}.steps[{i}].mib_s"), s.mib_s)?;
                if i > 0 && (s.min_gib <= steps[i - 1].min_gib || s.mib_s <= steps[i - 1].mib_s) {
                    return Err(c.err(
                        format!("{k}.steps[{i}]"),
                        "steps must ascend in both min_gib and mib_s",
                    ));
                }
            }
            Ok(ThroughputModel::SizeSteps { steps })
        }
        ThroughputModelKind::SizeLinear => {
            only(&["base_mib_s", "per_gib_mib_s", "max_mib_s"])?;
            let why = "for model = \"size_linear\"";
            let base_mib_s = c.nonneg(&key("base_mib_s"), r.base_mib_s.unwrap_or(0.0))?;
            let per_gib_mib_s = c.pos(
                &key("per_gib_mib_s"),
                c.need(&key("per_gib_mib_s"), r.per_gib_mib_s, why)?,
            )?;
            let max_mib_s = c.pos(
                &key("max_mib_s"),
                c.need(&key("max_mib_s"), r.max_mib_s, why)?,
            )?;
            Ok(ThroughputModel::SizeLinear {
                base_mib_s,
                per_gib_mib_s,
                max_mib_s,
            })
        }
        ThroughputModelKind::SizeTable => {
            only(&[])?;
            Ok(ThroughputModel::SizeTable)
        }
        ThroughputModelKind::PerIops => {
            only(&[
                "mib_s_per_iops",
                "flat_cap_mib_s",
                "linear_mib_s_per_iops",
                "max_mib_s",
            ])?;
            let why = "for model = \"per_iops\"";
            let mib_s_per_iops = c.pos(
                &key("mib_s_per_iops"),
                c.need(&key("mib_s_per_iops"), r.mib_s_per_iops, why)?,
            )?;
            let max_mib_s = c.pos(
                &key("max_mib_s"),
                c.need(&key("max_mib_s"), r.max_mib_s, why)?,
            )?;
            if let Some(v) = r.flat_cap_mib_s {
                c.pos(&key("flat_cap_mib_s"), v)?;
            }
            if let Some(v) = r.linear_mib_s_per_iops {
                c.pos(&key("linear_mib_s_per_iops"), v)?;
            }
            Ok(ThroughputModel::PerIops {
                mib_s_per_iops,
                flat_cap_mib_s: r.flat_cap_mib_s,
                linear_mib_s_per_iops: r.linear_mib_s_per_iops,
                max_mib_s,
            })
        }
        ThroughputModelKind::Provisioned => {
            only(&["included_mib_s", "max_mib_s", "max_mib_s_per_iops"])?;
            let why = "for model = \"provisioned\"";
            let included_mib_s =
                c.nonneg(&key("included_mib_s"), r.included_mib_s.unwrap_or(0.0))?;
            let max_mib_s = c.pos(
                &key("max_mib_s"),
                c.need(&key("max_mib_s"), r.max_mib_s, why)?,
            )?;
            let max_mib_s_per_iops = match r.max_mib_s_per_iops {
                Some(v) => Some(c.pos(&key("max_mib_s_per_iops"), v)?),
                None => None,
            };
            if included_mib_s > max_mib_s {
                return Err(c.err(key("included_mib_s"), "must be <= max_mib_s"));
            }
            Ok(ThroughputModel::Provisioned {
                included_mib_s,
                max_mib_s,
                max_mib_s_per_iops,
            })
        }
    }
}

/// Upper bounds that catch a price in the wrong unit (a monthly figure per GiB above $100, …).
const MAX_UNIT_PRICE: f64 = 100.0;

fn plausible(c: &Check<'_>, key: &str, v: f64, max: f64) -> Result<(), RulesError> {
    if v > max {
        return Err(c.err(
            key,
            format!("{v:e} is implausibly large (> {max} USD per unit and month): check the unit"),
        ));
    }
    Ok(())
}

fn check_price(c: &Check<'_>, k: &str, p: &PriceSpec, table: bool) -> Result<(), RulesError> {
    for (name, v) in [
        ("gib_month", p.gib_month),
        ("mib_s_month", p.mib_s_month),
        ("per_million_io", p.per_million_io),
    ] {
        if let Some(v) = v {
            plausible(c, &format!("{k}.{name}"), v, MAX_UNIT_PRICE)?;
        }
    }
    for (i, b) in p.iops_month.iter().enumerate() {
        plausible(
            c,
            &format!("{k}.iops_month[{i}].usd"),
            b.usd,
            MAX_UNIT_PRICE,
        )?;
    }
    match (p.gib_month, &p.no_list_price) {
        (Some(v), None) => {
            c.nonneg(&format!("{k}.gib_month"), v)?;
        }
        (None, Some(why)) => c.text(&format!("{k}.no_list_price"), why)?,
        (None, None) if table => {}
        (None, None) => {
            return Err(c.err(
                format!("{k}.gib_month"),
                "is required (or no_list_price = \"why\" when the catalogue has no price)",
            ))
        }
        (Some(_), Some(_)) => {
            return Err(c.err(
                format!("{k}.no_list_price"),
                "cannot be set together with gib_month",
            ))
        }
    }
    let mut last = 0.0;
    for (i, b) in p.iops_month.iter().enumerate() {
        let bk = format!("{k}.iops_month[{i}]");
        c.nonneg(&format!("{bk}.usd"), b.usd)?;
        match b.upto {
            Some(u) => {
                c.pos(&format!("{bk}.upto"), u)?;
                if u <= last {
                    return Err(c.err(format!("{bk}.upto"), "bands must ascend"));
                }
                last = u;
            }
            None if i + 1 != p.iops_month.len() => {
                return Err(c.err(format!("{bk}.upto"), "only the last band may omit upto"));
            }
            None => {}
        }
    }
    if let Some(v) = p.mib_s_month {
        c.nonneg(&format!("{k}.mib_s_month"), v)?;
    }
    if let Some(v) = p.per_million_io {
        c.nonneg(&format!("{k}.per_million_io"), v)?;
    }
    c.text(&format!("{k}.source"), &p.source)
}

/// Parse and validate a sizing policy. `file` names the source in errors.
/// Rule targets are checked against a catalogue later ([`check_targets`]).
pub(crate) fn parse_sizing(text: &str, file: &str) -> Result<SizingPolicy, RulesError> {
    let raw: RawSizing = parse_toml(text, file)?;
    let c = Check { file };
    c.text("meta.as_of", &raw.meta.as_of)?;
    c.text("meta.source", &raw.meta.source)?;
    check_formula(&c, "required_iops", &raw.required_iops)?;
    if let Some(fb) = &raw.required_iops.fallback {
        check_formula(&c, "required_iops.fallback", fb)?;
        if fb.fallback.is_some() {
            return Err(c.err(
                "required_iops.fallback.fallback",
                "only one fallback level is allowed",
            ));
        }
    }
    c.nonneg("headroom.default_pct", raw.headroom.default_pct)?;
    c.text("headroom.source", &raw.headroom.source)?;
    c.pct("onprem.array_read_hit_pct", raw.onprem.array_read_hit_pct)?;
    c.pct("onprem.write_coalesce_pct", raw.onprem.write_coalesce_pct)?;
    if raw.onprem.max_drives == 0 {
        return Err(c.err("onprem.max_drives", "must be at least 1"));
    }
    c.text("onprem.why", &raw.onprem.why)?;
    c.text("onprem.source", &raw.onprem.source)?;
    c.pct("cloud.min_saving_pct", raw.cloud.min_saving_pct)?;
    if raw.cloud.max_volumes == 0 {
        return Err(c.err("cloud.max_volumes", "must be at least 1"));
    }
    c.text("cloud.source", &raw.cloud.source)?;

    let mut ids = HashSet::new();
    for (i, r) in raw.rule.iter().enumerate() {
        let k = format!("rule[{i}]");
        c.text(&format!("{k}.id"), &r.id)?;
        if !ids.insert(r.id.clone()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate rule id \"{}\"", r.id)));
        }
        c.text(&format!("{k}.source"), &r.source)?;
        c.text(&format!("{k}.message"), &r.message)?;
        for (j, w) in r.when.iter().enumerate() {
            if !w.value.is_finite() {
                return Err(c.err(format!("{k}.when[{j}].value"), "must be a finite number"));
            }
            if let Some(s) = &w.source {
                c.text(&format!("{k}.when[{j}].source"), s)?;
            }
        }
        match r.effect {
            Effect::Note | Effect::Warn => {
                if !r.targets.is_empty() {
                    return Err(c.err(
                        format!("{k}.targets"),
                        "must be empty for effect = \"note\" or \"warn\"",
                    ));
                }
                if r.max_units.is_some() {
                    return Err(c.err(
                        format!("{k}.max_units"),
                        "is not used by effect = \"note\" or \"warn\"",
                    ));
                }
            }
            Effect::Prefer | Effect::Avoid => {
                if r.targets.is_empty() {
                    return Err(c.err(
                        format!("{k}.targets"),
                        "needs at least one tier id or group:NAME",
                    ));
                }
                if r.weight == 0 {
                    return Err(c.err(format!("{k}.weight"), "must be at least 1"));
                }
            }
        }
        let pieces = parse_template(&r.message).map_err(|m| c.err(format!("{k}.message"), m))?;
        for p in pieces {
            match p {
                Piece::When(idx, _) if idx >= r.when.len() => {
                    return Err(c.err(
                        format!("{k}.message"),
                        format!(
                            "{{when.{idx}}} but the rule has {} condition(s)",
                            r.when.len()
                        ),
                    ));
                }
                Piece::MaxUnits if r.max_units.is_none() => {
                    return Err(c.err(
                        format!("{k}.message"),
                        "{max_units} but the rule has no max_units",
                    ));
                }
                _ => {}
            }
        }
    }
    if let Some(rc) = &raw.report_card {
        rc.check(file)?;
    }
    if let Some(f) = &raw.flash_vs_hdd {
        c.text("flash_vs_hdd.flash_group", &f.flash_group)?;
        c.text("flash_vs_hdd.hdd_group", &f.hdd_group)?;
        c.pos(
            "flash_vs_hdd.flash_iops_in_hdd_drives",
            f.flash_iops_in_hdd_drives,
        )?;
        c.pct(
            "flash_vs_hdd.power_saving_per_io_pct",
            f.power_saving_per_io_pct,
        )?;
        c.text("flash_vs_hdd.source", &f.source)?;
    }
    Ok(SizingPolicy {
        meta: raw.meta,
        required_iops: raw.required_iops,
        headroom: raw.headroom,
        onprem: raw.onprem,
        cloud: raw.cloud,
        report_card: raw.report_card,
        flash_vs_hdd: raw.flash_vs_hdd,
        rules: raw.rule,
    })
}

fn check_formula(c: &Check<'_>, k: &str, f: &IopsFormula) -> Result<(), RulesError> {
    if f.terms.is_empty() {
        return Err(c.err(format!("{k}.terms"), "needs at least one term"));
    }
    let mut seen = HashSet::new();
    for (i, t) in f.terms.iter().enumerate() {
        if IopsTerm::from_name(t).is_none() {
            let names: Vec<&str> = IopsTerm::ALL.iter().map(|x| x.as_str()).collect();
            return Err(c.err(
                format!("{k}.terms[{i}]"),
                format!("unknown term \"{t}\" (known: {})", names.join(", ")),
            ));
        }
        if !seen.insert(t.as_str()) {
            return Err(c.err(format!("{k}.terms[{i}]"), format!("duplicate term \"{t}\"")));
        }
    }
    c.text(&format!("{k}.text"), &f.text)?;
    c.text(&format!("{k}.why"), &f.why)?;
    c.text(&format!("{k}.source"), &f.source)
}

/// Every rule target must name a tier id or a group of at least one tier.
pub(crate) fn check_targets(
    sizing: &SizingPolicy,
    catalog: &Catalog,
    file: &str,
) -> Result<(), RulesError> {
    let c = Check { file };
    for (i, r) in sizing.rules.iter().enumerate() {
        for (j, t) in r.targets.iter().enumerate() {
            if !catalog.tiers.iter().any(|tier| tier.matches(t)) {
                return Err(c.err(
                    format!("rule[{i}].targets[{j}]"),
                    format!(
                        "\"{t}\" matches no tier id or group in the tier catalogue (rule \"{}\")",
                        r.id
                    ),
                ));
            }
        }
    }
    Ok(())
}
