//! Words for the sizing findings of one tier option: why it is infeasible
//! ([`Infeasible`]), the limits that set its configuration ([`Binding`]) and its caveats
//! ([`SizingNote`]), with the credit-bucket arithmetic they quote.
//!
//! Quantities the demand gives (IOPS, GiB, throughput per volume) are quoted by [`q`]; limits of
//! the catalogue in their shortest exact form ([`fmt_trim`]), so a limit like 100 never reads as
//! the demand 100.19 rounded to "100".

use std::fmt::{self, Display, Formatter};

use super::usd;
use crate::report::fmt::{fmt_num, fmt_trim};
use crate::rules::findings::{
    Binding, BurstCovers, BurstRefused, DrivesSetBy, Infeasible, IoKind, RowShort, SizeRowFigures,
    SizingNote, ThroughputUnit,
};

serialize_as_words!(Infeasible, Binding, SizingNote);

/// A quantity for a message: no decimals when (nearly) whole, else 2.
pub(crate) fn q(x: f64) -> String {
    if (x - x.round()).abs() < 1e-6 {
        fmt_num(x, 0)
    } else {
        fmt_num(x, 2)
    }
}

impl Display for ThroughputUnit {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ThroughputUnit::MbS => "MB/s",
            ThroughputUnit::MibS => "MiB/s",
        })
    }
}

impl Display for IoKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IoKind::Read => "read",
            IoKind::Write => "write",
        })
    }
}

/// ` above a baseline of 3,000`, or nothing when the baseline is 0.
fn above_baseline(base: f64) -> String {
    if base > 0.0 {
        format!(" above a baseline of {}", fmt_trim(base))
    } else {
        String::new()
    }
}

impl Display for SizeRowFigures {
    /// `P30 (1,024 GiB, 5,000 IOPS, 200 MB/s)`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} GiB, {} IOPS, {} {})",
            self.name,
            q(self.gib),
            q(self.iops),
            q(self.throughput),
            self.unit
        )
    }
}

impl Display for RowShort {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            RowShort::Gib(g) => write!(f, "{} GiB", q(*g)),
            RowShort::Throughput(t, u) => write!(f, "{} {u}", q(*t)),
            RowShort::Iops(i) => write!(f, "{} IOPS", q(*i)),
        }
    }
}

impl Display for BurstCovers {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bursts: baseline {} IOPS; at {} IOPS the {} I/O-credit bucket lasts {} / ({} − {}) s = {} min ≥ the {} min the load at this level lasted, and the average {} IOPS ≤ the baseline refills it",
            q(self.baseline),
            q(self.iops),
            fmt_num(self.credits, 0),
            fmt_num(self.credits, 0),
            q(self.iops),
            q(self.baseline),
            fmt_num(self.lasts_min, 1),
            fmt_num(self.peak_min, 1),
            q(self.mean)
        )
    }
}

impl Display for BurstRefused {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            BurstRefused::AboveCeiling { iops, ceiling } => write!(
                f,
                "the peak of {} IOPS is above the burst ceiling of {}",
                q(*iops),
                q(*ceiling)
            ),
            BurstRefused::PeakLengthUnknown => f.write_str("the length of the peak is unknown"),
            BurstRefused::MeanUnknown => {
                f.write_str("the average IOPS (to refill the bucket) is unknown")
            }
            BurstRefused::MeanAboveBaseline { mean, baseline } => write!(
                f,
                "the average of {} IOPS is above the baseline of {}, so spent credits would not come back",
                q(*mean),
                q(*baseline)
            ),
            BurstRefused::TooShort {
                iops,
                lasts_min,
                peak_min,
            } => write!(
                f,
                "at {} IOPS the bucket lasts {} min, less than the {} min the load at this level lasted",
                q(*iops),
                fmt_num(*lasts_min, 1),
                fmt_num(*peak_min, 1)
            ),
        }
    }
}

impl Display for Infeasible {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Infeasible::IopsOverFixed { needed, per_volume } => write!(
                f,
                "needs {} IOPS per volume > {} per volume",
                q(*needed),
                fmt_trim(*per_volume)
            ),
            Infeasible::IopsOverMax { needed, max } => write!(
                f,
                "needs {} IOPS per volume > max {} per volume",
                q(*needed),
                fmt_trim(*max)
            ),
            Infeasible::ThroughputOverFixed {
                needed,
                per_volume,
                unit,
            } => write!(
                f,
                "needs {} {unit} per volume > {} per volume",
                q(*needed),
                fmt_trim(*per_volume)
            ),
            Infeasible::ThroughputOverMax { needed, max, unit } => write!(
                f,
                "needs {} {unit} per volume > max {} per volume",
                q(*needed),
                fmt_trim(*max)
            ),
            Infeasible::ThroughputOverCapAtMaxIops { needed, cap, unit } => write!(
                f,
                "needs {} {unit} per volume > {} at max IOPS",
                q(*needed),
                q(*cap)
            ),
            Infeasible::ThroughputOverCapAtIops {
                needed,
                cap,
                iops,
                unit,
            } => write!(
                f,
                "needs {} {unit} per volume > {} at {} IOPS",
                q(*needed),
                q(*cap),
                q(*iops)
            ),
            Infeasible::ThroughputNeedsIops {
                throughput,
                iops,
                per_iops,
                unit,
            } => write!(
                f,
                "{} {unit} per volume needs {} IOPS at {} {unit} per IOPS, more than the volume allows",
                q(*throughput),
                fmt_num(*iops, 0),
                fmt_trim(*per_iops)
            ),
            Infeasible::CapacityOverMax { gib, max_gib } => write!(
                f,
                "needs {} GiB per volume > max {} GiB",
                q(*gib),
                fmt_trim(*max_gib)
            ),
            Infeasible::NoSizeRow {
                iops,
                throughput,
                gib,
                largest,
                burst,
            } => {
                let u = largest.unit;
                write!(
                    f,
                    "needs {} IOPS, {} {u} and {} GiB per volume; the largest size {} gives {} IOPS, {} {u}, {} GiB",
                    q(*iops),
                    q(*throughput),
                    q(*gib),
                    largest.name,
                    q(largest.iops),
                    q(largest.throughput),
                    q(largest.gib)
                )?;
                match burst {
                    Some(b) => write!(f, " ({b})"),
                    None => Ok(()),
                }
            }
            Infeasible::DriveRateUnsourced { op, mb_s } => write!(
                f,
                "needs {} MB/s of back-end {op}s, but the drive's sequential {op} rate is not in the catalogue's sources, so no drive count can be shown to carry it",
                fmt_num(*mb_s, 2)
            ),
            Infeasible::ArrayFrontEndOverMax { mb_s, max_mb_s } => write!(
                f,
                "sized {} MB/s > {} MB/s, one array's front-end ceiling (max_front_end_mb_s, [onprem] in sizing.toml: policy)",
                fmt_num(*mb_s, 2),
                fmt_trim(*max_mb_s)
            ),
            Infeasible::DrivesOverMax { drives, max_drives } => write!(
                f,
                "needs {} drives > max_drives {} ([onprem] in sizing.toml)",
                fmt_num(*drives, 0),
                fmt_num(*max_drives as f64, 0)
            ),
            Infeasible::NotAttachable { instance, source } => {
                write!(f, "{instance} cannot attach this tier ({source})")
            }
            Infeasible::InstanceIops {
                needed,
                max,
                instance,
            } => write!(
                f,
                "needs {} IOPS > {} IOPS, the most one {instance} can drive (instance cap)",
                q(*needed),
                q(*max)
            ),
            Infeasible::InstanceMbS {
                needed,
                max,
                instance,
            } => write!(
                f,
                "needs {} MB/s > {} MB/s, the most one {instance} can drive (instance cap)",
                q(*needed),
                q(*max)
            ),
            Infeasible::PlatformIops {
                needed,
                max,
                platform,
            } => write!(
                f,
                "needs {} IOPS > {} IOPS, the most one {platform} host can drive (platform cap)",
                q(*needed),
                fmt_trim(*max)
            ),
            Infeasible::PlatformMbS {
                needed,
                max,
                platform,
            } => write!(
                f,
                "needs {} MB/s > {} MB/s, the most one {platform} host can drive (platform cap)",
                q(*needed),
                fmt_trim(*max)
            ),
            Infeasible::NoHostCanDrive {
                needed_iops,
                needed_mb_s,
                platform,
                most_iops,
                most_mb_s,
                cap_unknown,
            } => {
                write!(
                    f,
                    "needs {} IOPS and {} MB/s: no catalogued {platform} VM {}can drive that to this tier",
                    q(*needed_iops),
                    q(*needed_mb_s),
                    if cap_unknown.is_empty() {
                        ""
                    } else {
                        "with a known cap "
                    }
                )?;
                if let (Some((ii, iv)), Some((mi, mv))) = (most_iops, most_mb_s) {
                    write!(
                        f,
                        " (the most: {ii}, {} IOPS; {mi}, {} MB/s)",
                        fmt_trim(*iv),
                        fmt_trim(*mv)
                    )?;
                }
                if !cap_unknown.is_empty() {
                    write!(f, "; {}", super::host::CapUnknown(cap_unknown))?;
                }
                Ok(())
            }
            Infeasible::EvenStriped { max_volumes, last } => write!(
                f,
                "even striped across {max_volumes} volumes (cloud.max_volumes): {last}"
            ),
            Infeasible::PerVm(last) => write!(
                f,
                "{last} (performance is per VM: striping does not add to it)"
            ),
        }
    }
}

impl Display for Binding {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Binding::DriveIops {
                reads,
                read_hit,
                writes,
                coalesce,
                write_penalty,
                backend,
                drive_iops,
                drives,
            } => {
                let read_part = if *read_hit > 0.0 {
                    format!(
                        "{} reads × (1 − {} array read hit)",
                        fmt_num(*reads, 2),
                        fmt_trim(*read_hit)
                    )
                } else {
                    format!("{} reads", fmt_num(*reads, 2))
                };
                let write_part = if *coalesce > 0.0 {
                    format!(
                        "{} writes × (1 − {} coalescing) × {}",
                        fmt_num(*writes, 2),
                        fmt_trim(*coalesce),
                        fmt_trim(*write_penalty)
                    )
                } else {
                    format!(
                        "{} writes × {}",
                        fmt_num(*writes, 2),
                        fmt_trim(*write_penalty)
                    )
                };
                write!(
                    f,
                    "IOPS: back-end {read_part} + {write_part} = {} IOPS / {} IOPS per drive = {drives} drives",
                    fmt_num(*backend, 2),
                    fmt_trim(*drive_iops)
                )
            }
            Binding::DriveThroughput {
                read_mb_s,
                read_hit,
                write_mb_s,
                coalesce,
                write_penalty,
                backend_read_mb_s,
                backend_write_mb_s,
                drive_read_mb_s,
                drive_write_mb_s,
                drives,
            } => {
                let read_part = if *read_hit > 0.0 {
                    format!(
                        "{} MB/s reads × (1 − {} array read hit) = {}",
                        fmt_num(*read_mb_s, 2),
                        fmt_trim(*read_hit),
                        fmt_num(*backend_read_mb_s, 2)
                    )
                } else {
                    format!("{} MB/s reads", fmt_num(*read_mb_s, 2))
                };
                let write_part = if *coalesce > 0.0 {
                    format!(
                        "{} MB/s writes × (1 − {} coalescing) × {} = {}",
                        fmt_num(*write_mb_s, 2),
                        fmt_trim(*coalesce),
                        fmt_trim(*write_penalty),
                        fmt_num(*backend_write_mb_s, 2)
                    )
                } else {
                    format!(
                        "{} MB/s writes × {} = {}",
                        fmt_num(*write_mb_s, 2),
                        fmt_trim(*write_penalty),
                        fmt_num(*backend_write_mb_s, 2)
                    )
                };
                let mut per_drive = Vec::new();
                if *backend_read_mb_s > 0.0 {
                    per_drive.push(format!(
                        "{} / {} MB/s read per drive",
                        fmt_num(*backend_read_mb_s, 2),
                        fmt_trim(*drive_read_mb_s)
                    ));
                }
                if *backend_write_mb_s > 0.0 {
                    per_drive.push(format!(
                        "{} / {} MB/s write per drive",
                        fmt_num(*backend_write_mb_s, 2),
                        fmt_trim(*drive_write_mb_s)
                    ));
                }
                write!(
                    f,
                    "MB/s: back-end {read_part} + {write_part}; {} = {drives} drives",
                    per_drive.join(" + ")
                )
            }
            Binding::DriveCounts {
                iops,
                mb_s,
                capacity,
                set_by,
            } => {
                let mb = mb_s.map_or("not sourced".to_string(), |x| x.to_string());
                let cap = capacity.map_or("capacity not given".to_string(), |x| {
                    format!("capacity {x}")
                });
                write!(
                    f,
                    "drives for IOPS {iops}, MB/s {mb}, {cap}: the count is set by {}",
                    match set_by {
                        DrivesSetBy::RaidMinimum => "the RAID minimum".to_string(),
                        s => s.to_string(),
                    }
                )
            }
            Binding::DriveCapacity {
                gib,
                usable_per_group,
                group_width,
                drives,
            } => write!(
                f,
                "capacity: {} GiB / {} GiB usable per {group_width}-drive group = {drives} drives",
                fmt_num(*gib, 0),
                fmt_num(*usable_per_group, 1)
            ),
            Binding::MinDrives {
                min,
                level,
                for_iops,
            } => write!(
                f,
                "minimum {min} drives for {level} (IOPS alone need {for_iops})"
            ),
            Binding::WholeGroups {
                from,
                group_width,
                level,
            } => write!(
                f,
                "rounded up from {from} to whole {group_width}-drive {level} groups"
            ),
            Binding::FullIoUnit {
                unit_kib,
                iops,
                used,
                measured,
                unit,
            } => write!(
                f,
                "each IO of up to {} KiB counts as a full {} KiB unit: {} IOPS use {} {unit} of the volume's throughput (measured {} {unit}; merging of sequential IOs not assumed)",
                fmt_trim(*unit_kib),
                fmt_trim(*unit_kib),
                q(*iops),
                q(*used),
                q(*measured)
            ),
            Binding::WithinInstanceCap {
                instance,
                max_iops,
                max_mb_s,
            } => write!(
                f,
                "within the {instance} cap of {} IOPS and {} MB/s",
                fmt_trim(*max_iops),
                fmt_trim(*max_mb_s)
            ),
            Binding::RequestsBilled { requests_s, hours } => write!(
                f,
                "requests billed: {} measured requests/s in IO units × 3,600 × {} h",
                q(*requests_s),
                fmt_trim(*hours)
            ),
            Binding::StripedCheaper {
                volumes,
                saving_pct,
                fewest,
                usd: chosen,
                fewest_usd,
                cheapest,
                min_saving_pct,
            } => {
                let tail = match cheapest {
                    None => "the cheapest count".to_string(),
                    Some((bn, bc)) => format!(
                        "the fewest within {} % of the cheapest count ({bn} volumes, {})",
                        fmt_trim(*min_saving_pct),
                        usd(*bc)
                    ),
                };
                write!(
                    f,
                    "striped across {volumes} volumes: {} % cheaper than the fewest that fit ({volumes} volumes: {}; {fewest} volume{}: {}); {tail} (cloud.min_saving_pct)",
                    fmt_num(*saving_pct, 1),
                    usd(*chosen),
                    if *fewest == 1 { "" } else { "s" },
                    usd(*fewest_usd),
                )
            }
            Binding::Striped {
                volumes,
                cheapest_policy,
                fewer,
            } => match (cheapest_policy, fewer) {
                (false, Some(e)) => write!(
                    f,
                    "striped across {volumes} volumes: with {} volume(s): {e}",
                    volumes - 1
                ),
                (false, None) => write!(
                    f,
                    "striped across {volumes} volumes: fewer volumes fit only by provisioning IOPS for throughput, at a higher cost"
                ),
                (true, Some(e)) => write!(
                    f,
                    "striped across {volumes} volumes, the fewest that fit: with {} volume(s): {e}",
                    volumes - 1
                ),
                (true, None) => write!(f, "striped across {volumes} volumes (cheapest count)"),
            },
            Binding::CapacitySetsSize => f.write_str("capacity: volume size set by the data size"),
            Binding::SizeRow { row, smaller_lacks } => match smaller_lacks {
                Some(w) => write!(f, "size {row}: the smallest size with {w}"),
                None => write!(f, "size {row}: the smallest size"),
            },
            Binding::RowBurst {
                row,
                minutes,
                burst_iops,
                covers,
            } => write!(
                f,
                "{row} ({} min at {} IOPS from a full bucket) {covers}",
                fmt_trim(*minutes),
                q(*burst_iops)
            ),
            Binding::BurstSize {
                gib,
                covers,
                sustained_iops,
                sustained_gib,
            } => write!(
                f,
                "size {} GiB {covers} (sustained {} IOPS would need {} GiB)",
                fmt_trim(*gib),
                q(*sustained_iops),
                fmt_trim(*sustained_gib)
            ),
            Binding::SizeForIops {
                gib,
                per_gib,
                base,
                iops,
            } => write!(
                f,
                "size raised to {} GiB: {} IOPS per GiB{} for {} IOPS",
                fmt_trim(*gib),
                fmt_trim(*per_gib),
                above_baseline(*base),
                q(*iops)
            ),
            Binding::SizeForThroughputStep { gib, needed, unit } => write!(
                f,
                "size raised to {} GiB: {} {unit} needs at least {} GiB",
                fmt_trim(*gib),
                q(*needed),
                fmt_trim(*gib)
            ),
            Binding::SizeForThroughputLinear {
                gib,
                per_tib,
                base,
                needed,
                unit,
            } => write!(
                f,
                "size raised to {} GiB: {} {unit} per TiB{} for {} {unit}",
                fmt_trim(*gib),
                fmt_num(*per_tib, 2),
                above_baseline(*base),
                q(*needed)
            ),
            Binding::IopsForThroughput {
                from,
                to,
                needed,
                unit,
            } => write!(
                f,
                "provisioned IOPS raised from {} to {} for {} {unit} (throughput per IOPS)",
                q(*from),
                q(*to),
                q(*needed)
            ),
            Binding::IopsForThroughputRatio {
                iops,
                throughput,
                per_iops,
                unit,
            } => write!(
                f,
                "provisioned IOPS raised to {} for {} {unit} ({} {unit} per IOPS)",
                fmt_num(*iops, 0),
                q(*throughput),
                fmt_trim(*per_iops)
            ),
            Binding::SizeForIopsRatio {
                gib,
                max_per_gib,
                iops,
            } => write!(
                f,
                "size raised to {} GiB: at most {} IOPS per GiB for {} IOPS",
                fmt_trim(*gib),
                fmt_trim(*max_per_gib),
                q(*iops)
            ),
        }
    }
}

impl Display for SizingNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SizingNote::RowBurstNotCounted { row, why } => {
                write!(f, "credit bursting of {row} not counted: {why}")
            }
            SizingNote::BurstNoSmaller { burst_iops } => write!(
                f,
                "burst to {} IOPS not counted: the average load needs a baseline as large as the peak's, so the sustained size is no larger",
                fmt_trim(*burst_iops)
            ),
            SizingNote::BurstNotCounted { burst_iops, why } => write!(
                f,
                "burst to {} IOPS not counted: {why}; sized on the baseline",
                fmt_trim(*burst_iops)
            ),
            SizingNote::DriveSizeAssumed { gb } => write!(
                f,
                "drive size {} GB is an assumption (set [tier.drive].size_gb in a --rules copy)",
                fmt_trim(*gb)
            ),
            SizingNote::DrivesForIopsOnly => {
                f.write_str("capacity not given: drives counted for IOPS and MB/s only")
            }
            SizingNote::DriveSizeChosen {
                gb,
                catalogued_gb,
                capacity_given,
            } => {
                let all: Vec<String> = catalogued_gb.iter().map(|g| fmt_trim(*g)).collect();
                write!(
                    f,
                    "drive size {} GB of the catalogued {} GB: ",
                    fmt_trim(*gb),
                    all.join(" / ")
                )?;
                if *capacity_given {
                    f.write_str("the fewest drives for IOPS, MB/s and capacity, then the least raw capacity")
                } else {
                    f.write_str("capacity not given, so the smallest size that needs the fewest drives for IOPS and MB/s")
                }
            }
            SizingNote::DriveThroughputNotModelled => {
                f.write_str("throughput (MB/s) per drive is not modelled (no sourced figure)")
            }
            SizingNote::DriveLinkCaps {
                op,
                drive_mb_s,
                link,
                link_mb_s,
            } => write!(
                f,
                "the drive's sequential {op} rate of {} MB/s is above its link ({link}: {} MB/s), so the link's figure is used",
                fmt_trim(*drive_mb_s),
                fmt_trim(*link_mb_s)
            ),
            SizingNote::DriveRatesSequential => f.write_str(
                "drive MB/s are datasheet sequential 'up to' rates (large blocks): an upper bound at smaller IO sizes, where the IOPS count applies",
            ),
            SizingNote::IoUnitSplit {
                op,
                avg_kib,
                unit_kib,
                parts,
            } => write!(
                f,
                "average {op} {} KiB > {} KiB IO unit: each {op} counts as {} requests (from the average size: a mix of small and large requests counts differently, by about ±20 %)",
                fmt_num(*avg_kib, 1),
                fmt_trim(*unit_kib),
                fmt_trim(*parts)
            ),
            SizingNote::LargeRequestsCountedOnce => f.write_str(
                "large requests are counted one each: the catalogue's sources give no IO unit for this tier",
            ),
            SizingNote::VolumeCapacityNotGiven => f.write_str(
                "capacity not given: volume size is the minimum that reaches the IOPS and throughput - add your data size",
            ),
            SizingNote::PerVmPool => f.write_str(
                "performance is per VM (baseline + per-GiB rate of all volumes of this type, up to the VM's cap): one volume of the total size is shown; splitting it changes nothing",
            ),
            SizingNote::PerVmBestCase => f.write_str(
                "its IOPS and MiB/s maximums are the best case per VM (the largest machine types); smaller VMs cap lower: give --instance",
            ),
            SizingNote::InstanceCapUnknown { instance } => write!(
                f,
                "{instance} can attach this tier, but no source gives its per-VM cap for it: the demand is not checked against a host cap"
            ),
        }
    }
}

#[cfg(test)]
#[path = "../tests_wording_sizing.rs"]
mod tests;

impl Display for DrivesSetBy {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrivesSetBy::Iops => "IOPS",
            DrivesSetBy::Throughput => "MB/s",
            DrivesSetBy::Capacity => "capacity",
            DrivesSetBy::RaidMinimum => "RAID minimum",
        })
    }
}
