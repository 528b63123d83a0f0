//! Typed findings of the sizing of one tier: why a tier cannot meet the demand ([`Infeasible`]),
//! the limits that set its configuration ([`Binding`]), and its sizing notes ([`SizingNote`]).
//! Values with units, no prose; `report::wording::sizing` words them.

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
    /// The demand moves MB/s in a direction whose per-drive rate is not in the sources, so
    /// no drive count can be shown to carry it.
    DriveRateUnsourced {
        /// Reads or writes.
        op: IoKind,
        /// Back-end MB/s needed in that direction.
        mb_s: f64,
    },
    /// Sized MB/s above one array's front-end ceiling (`[onprem].max_front_end_mb_s`, policy).
    ArrayFrontEndOverMax {
        /// Sized MB/s (10^6 B/s).
        mb_s: f64,
        /// The ceiling.
        max_mb_s: f64,
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
    /// No catalogued host type of the platform (without `--instance`) can drive the demand to
    /// this tier, though the platform cap allows it: the tier's per-VM caps are lower.
    NoHostCanDrive {
        /// Counted IOPS.
        needed_iops: f64,
        /// Sized MB/s (10^6 B/s).
        needed_mb_s: f64,
        /// Platform id.
        platform: String,
        /// The host type that drives the most IOPS to the tier, and that cap.
        most_iops: Option<(String, f64)>,
        /// The host type that drives the most MB/s to the tier, and that cap.
        most_mb_s: Option<(String, f64)>,
        /// Host types that can attach the tier but whose cap for it is unknown (not counted);
        /// boxed to keep the variant small.
        cap_unknown: Box<[String]>,
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
    /// Drive array: the drives the back-end MB/s need. Back-end read MB/s =
    /// read MB/s × (1 − array read hit); back-end write MB/s = write MB/s × (1 − coalescing) ×
    /// RAID write penalty (tier-catalog §4.2 applied to bytes); drives = ceil(read / drive
    /// read MB/s + write / drive write MB/s): each drive's time shared between the two.
    DriveThroughput {
        /// Front-end read MB/s after headroom.
        read_mb_s: f64,
        /// Array read hit, fraction.
        read_hit: f64,
        /// Front-end write MB/s after headroom.
        write_mb_s: f64,
        /// Write coalescing, fraction.
        coalesce: f64,
        /// RAID write penalty (the bandwidth multiplier of writes).
        write_penalty: f64,
        /// Back-end read MB/s.
        backend_read_mb_s: f64,
        /// Back-end write MB/s.
        backend_write_mb_s: f64,
        /// Usable sequential read MB/s of one drive (lesser of drive and link).
        drive_read_mb_s: f64,
        /// Usable sequential write MB/s of one drive.
        drive_write_mb_s: f64,
        /// Drives for the MB/s.
        drives: f64,
    },
    /// Drive array: the three counts and which one (or the RAID minimum) set the drive count.
    DriveCounts {
        /// Drives for the IOPS.
        iops: f64,
        /// Drives for the MB/s (`None`: a needed drive rate is not sourced).
        mb_s: Option<f64>,
        /// Drives for the capacity (`None`: capacity not given).
        capacity: Option<f64>,
        /// What set the count.
        set_by: DrivesSetBy,
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
        /// Saving against the fewest that fit, percent, rounded down to 0.1 % (worded with one
        /// decimal, so the words and the JSON carry the same number, never rounded up).
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
    /// No capacity: drives counted for IOPS and MB/s only.
    DrivesForIopsOnly,
    /// The drive class has several catalogued capacities: the one chosen, and why.
    DriveSizeChosen {
        /// The capacity chosen, GB (10^9 B).
        gb: f64,
        /// Every catalogued capacity of the class, GB, ascending.
        catalogued_gb: Vec<f64>,
        /// A capacity was given (else the smallest capacity that needs the fewest drives wins).
        capacity_given: bool,
    },
    /// Drive throughput is not modelled (no longer produced: drives are counted for MB/s).
    DriveThroughputNotModelled,
    /// The drive's link carries less than the drive's own sequential rate, so the link's
    /// figure is used.
    DriveLinkCaps {
        /// Reads or writes.
        op: IoKind,
        /// The drive's datasheet MB/s.
        drive_mb_s: f64,
        /// Link name (`SAS-4 '24G', per lane`).
        link: String,
        /// The link's MB/s.
        link_mb_s: f64,
    },
    /// Datasheet sequential rates are "up to" figures at large blocks: an upper bound of
    /// what a drive moves at the demand's IO sizes.
    DriveRatesSequential,
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
    /// The `--instance` host can attach the tier but its cap for it is unknown
    /// (`tier_caps_unknown`): the demand was not checked against a host cap.
    InstanceCapUnknown {
        /// Host type id.
        instance: String,
    },
}

/// Which requirement set an array's drive count (`TierOption::drives_set_by`): the largest of
/// the IOPS, MB/s and capacity counts, or the RAID minimum when it is above all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrivesSetBy {
    /// Back-end IOPS.
    Iops,
    /// Back-end MB/s.
    Throughput,
    /// Capacity.
    Capacity,
    /// The RAID level's minimum drive count.
    RaidMinimum,
}
