//! Typed form of `rules/tiers.toml`: the platforms, the tiers with their drive, RAID, volume,
//! IOPS, throughput and price models, and the host caps. Built by the `catalog_check` module.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

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
    /// Identifier used by tiers and by [`crate::rules::Options::platforms`] (`onprem`, `aws`).
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
    /// IO report card ([`crate::rules::grade`]) to say whether a tier could lower a grade.
    pub latency_ms: Option<f64>,
    /// Sources of the tier as a whole.
    pub source: String,
    /// Caveats copied into every option of this tier (shared, not copied, by each option).
    pub notes: Vec<Arc<str>>,
    /// Performance, capacity and price model.
    pub spec: TierSpec,
    /// Every `source` string of the tier and its sub-tables, tier first (`Tier::collect_sources`),
    /// built once when the catalogue is checked and shared by every option of the tier.
    pub sources: Arc<[String]>,
}

impl Tier {
    /// Every `source` string of the tier and its sub-tables, tier first: the tier's own, then
    /// the drive's, its link's (`[[link]] ID: derivation; source`) and the RAID's for an array;
    /// the volume's, IOPS, throughput, size-table and price sources for a cloud volume.
    pub(crate) fn collect_sources(&self) -> Vec<String> {
        let mut v = vec![self.source.clone()];
        match &self.spec {
            TierSpec::DriveArray { drive, raid } => {
                v.push(drive.source.clone());
                v.extend(drive.size.iter().map(|s| s.source.clone()));
                if let Some(l) = &drive.link {
                    v.push(format!("[[link]] {}: {}; {}", l.id, l.derivation, l.source));
                }
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
        drive: Box<DriveSpec>,
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
    /// Sequential read rate of one drive, MB/s (10^6 B/s; datasheet "up to" figure);
    /// `None` = not in the sources (the tier then cannot be shown to carry read MB/s).
    #[serde(default)]
    pub seq_read_mb_s: Option<f64>,
    /// Sequential write rate of one drive, MB/s (10^6 B/s); `None` = not in the sources.
    #[serde(default)]
    pub seq_write_mb_s: Option<f64>,
    /// Id of the `[[link]]` the drive connects by (`pcie4x4`, `sas12`, `sata6`); its
    /// `mb_s` caps the drive's rates. `None` = no link ceiling applied.
    #[serde(default)]
    pub interface: Option<String>,
    /// The `[[link]]` named by `interface`, filled in by validation.
    #[serde(skip)]
    pub link: Option<LinkSpec>,
    /// Where the numbers of this table come from.
    pub source: String,
    /// Other catalogued capacities of the same drive class (`[[drive.size]]`), each with its own
    /// datasheet figures; the array is sized on each and the fewest drives win
    /// ([`DriveSpec::variants`]).
    #[serde(default)]
    pub size: Vec<DriveSize>,
}

/// `[[drive.size]]`: another capacity of a drive class, with the same interface and latency
/// class as its `[[drive]]` and its own datasheet figures (every rate is per capacity: smaller
/// drives of a model often write more slowly).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriveSize {
    /// Display name (model and capacity).
    pub name: String,
    /// Capacity, GB (10^9 B).
    pub size_gb: f64,
    /// Random small-block IOPS (requests/s), as [`DriveSpec::iops`].
    pub iops: f64,
    /// Sequential read MB/s (10^6 B/s); `None` = not in the sources.
    #[serde(default)]
    pub seq_read_mb_s: Option<f64>,
    /// Sequential write MB/s (10^6 B/s); `None` = not in the sources.
    #[serde(default)]
    pub seq_write_mb_s: Option<f64>,
    /// Where this size's numbers come from.
    pub source: String,
}

impl DriveSpec {
    /// Usable sequential read MB/s: the lesser of the drive's own and its link's (`None` when
    /// the drive's own figure is not sourced).
    pub fn read_mb_s(&self) -> Option<f64> {
        self.seq_read_mb_s.map(|d| self.capped(d))
    }

    /// Usable sequential write MB/s, as [`DriveSpec::read_mb_s`].
    pub fn write_mb_s(&self) -> Option<f64> {
        self.seq_write_mb_s.map(|d| self.capped(d))
    }

    /// The drive and each of its `[[drive.size]]` capacities as drives of their own (same id,
    /// interface, link and latency; the size's name, capacity, IOPS, rates and source), smallest
    /// capacity first. A drive without sizes is its only variant.
    pub fn variants(&self) -> Vec<DriveSpec> {
        let mut v: Vec<DriveSpec> = std::iter::once(DriveSpec {
            size: Vec::new(),
            ..self.clone()
        })
        .chain(self.size.iter().map(|s| DriveSpec {
            name: Some(s.name.clone()),
            iops: s.iops,
            size_gb: s.size_gb,
            size_is_assumption: false,
            seq_read_mb_s: s.seq_read_mb_s,
            seq_write_mb_s: s.seq_write_mb_s,
            source: s.source.clone(),
            size: Vec::new(),
            ..self.clone()
        }))
        .collect();
        v.sort_by(|a, b| a.size_gb.total_cmp(&b.size_gb));
        v
    }

    fn capped(&self, own: f64) -> f64 {
        match &self.link {
            Some(l) => own.min(l.mb_s),
            None => own,
        }
    }
}

/// `[[link]]` of `tiers.toml`: the most one drive's connection carries in one direction,
/// MB/s (10^6 B/s) after line encoding (PCIe generation x lanes, one SAS or SATA lane).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Id drives name as `interface` (`pcie4x4`).
    pub id: String,
    /// Display name (`PCIe 4.0 x4`).
    pub name: String,
    /// Lanes the figure covers.
    pub lanes: u32,
    /// Payload MB/s of the link, one direction.
    pub mb_s: f64,
    /// How `mb_s` follows from the line rate and encoding.
    pub derivation: String,
    /// Where the figures come from.
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
    /// What the provider sizes it for (general purpose, memory or storage optimised).
    pub family: HostFamily,
    /// Virtual CPUs; `None` = not in the catalogue.
    #[serde(default)]
    pub vcpus: Option<u32>,
    /// Memory, GiB (2^30 B); `None` = not in the catalogue.
    #[serde(default)]
    pub memory_gib: Option<f64>,
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
    /// Tiers this host type can attach but whose per-VM cap no source gives (Google Hyperdisk
    /// on M3 and Z3): no figure stands in for the cap, so the host answer does not count the
    /// host for them and says the cap is unknown, and `--instance` does not check it.
    #[serde(default)]
    pub tier_caps_unknown: Vec<String>,
    /// Where the numbers come from.
    pub source: String,
}

/// The `family` of an [`Instance`]: the provider's own grouping of its host types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostFamily {
    /// General purpose (AWS m, Azure D, Google n2 / c3 / c4).
    General,
    /// Memory optimised (AWS r / x / u, Azure E / M, Google m3).
    Memory,
    /// Storage optimised (local NVMe first: AWS i, Azure L, Google z3).
    Storage,
}

impl HostFamily {
    /// Every family, in report order.
    pub const ALL: [HostFamily; 3] = [HostFamily::General, HostFamily::Memory, HostFamily::Storage];
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
    /// True when the host type can attach `tier_id` but its cap for it is unknown
    /// (`tier_caps_unknown`).
    pub fn cap_unknown(&self, tier_id: &str) -> bool {
        self.tier_caps_unknown.iter().any(|t| t == tier_id)
    }

    /// (max IOPS, max MB/s) of this instance for `tier_id` (meaningless when
    /// [`Instance::cap_unknown`]: callers check that first).
    pub fn caps_for(&self, tier_id: &str) -> (f64, f64) {
        self.tier_caps
            .iter()
            .find(|c| c.tier == tier_id)
            .map_or((self.max_iops, self.max_mb_s), |c| (c.max_iops, c.max_mb_s))
    }
}
