//! On-premises drive arrays: how many drives of one kind, in one RAID layout, carry the
//! sized IOPS, MB/s and capacity (docs/rules.md § Formulas, "Drive arrays").
//!
//! Three counts are computed and the largest wins:
//! - IOPS (tier-catalog §4.2): back-end IOPS = R × (1 − array read hit) + W × (1 − write
//!   coalescing) × RAID write penalty; drives = ceil(back-end / drive IOPS);
//! - MB/s: back-end read MB/s = read MB/s × (1 − array read hit), back-end write MB/s = write
//!   MB/s × (1 − coalescing) × RAID write penalty (the §4.2 formula applied to bytes: each
//!   back-end IO moves one front-end block; policy, conservative for full-stripe writes);
//!   drives = ceil(back-end read / drive read MB/s + back-end write / drive write MB/s), each
//!   drive's time shared between reads and writes (policy), a drive's MB/s being the lesser
//!   of its datasheet sequential rate and its link's (`[[link]]`);
//! - capacity: whole RAID groups of usable GiB.
//!
//! Then at least the RAID minimum, rounded up to whole groups. A sized MB/s above the array's
//! front-end ceiling (`[onprem].max_front_end_mb_s`, policy) or a drive count above
//! `max_drives` is infeasible, as is MB/s in a direction whose drive rate is not sourced.

use super::*;
use crate::rules::findings::DrivesSetBy;

/// The MB/s half of an array sizing: back-end MB/s and the drives they need.
struct Bandwidth {
    backend_read: f64,
    backend_write: f64,
    /// Drives for the MB/s (`None` when a rate the demand needs is not sourced).
    drives: Option<f64>,
    /// The direction whose drive rate is missing, with its back-end MB/s.
    unsourced: Option<(IoKind, f64)>,
}

fn bandwidth(
    drive: &DriveSpec,
    raid: &RaidSpec,
    hit: f64,
    coalesce: f64,
    w: &Workload,
) -> Bandwidth {
    let backend_read = w.read_mb_s * (1.0 - hit);
    let backend_write = w.write_mb_s * (1.0 - coalesce) * raid.write_penalty;
    // Time one drive needs per second for each direction (0 when that direction moves nothing).
    let share = |mb: f64, rate: Option<f64>| -> Result<f64, ()> {
        if mb <= 0.0 {
            Ok(0.0)
        } else {
            rate.map(|r| mb / r).ok_or(())
        }
    };
    let r = share(backend_read, drive.read_mb_s());
    let wr = share(backend_write, drive.write_mb_s());
    let (drives, unsourced) = match (r, wr) {
        (Ok(a), Ok(b)) => (Some(ceil_eps(a + b)), None),
        (Err(()), _) => (None, Some((IoKind::Read, backend_read))),
        (_, Err(())) => (None, Some((IoKind::Write, backend_write))),
    };
    Bandwidth {
        backend_read,
        backend_write,
        drives,
        unsourced,
    }
}

/// Size an array on every catalogued capacity of the drive class ([`DriveSpec::variants`]) and
/// keep the best: feasible first, then the fewest drives, then the least raw capacity (so
/// without `--capacity` the smallest size that needs the fewest drives). With more than one
/// capacity the option notes which one was chosen and why.
pub(crate) fn size_drive_array_sizes(
    tier: &Tier,
    drive: &DriveSpec,
    raid: &RaidSpec,
    policy: &OnpremPolicy,
    w: &Workload,
) -> TierOption {
    let variants = drive.variants();
    let mut best: Option<TierOption> = None;
    for d in &variants {
        let o = size_drive_array(tier, d, raid, policy, w);
        let better = best.as_ref().is_none_or(|b| {
            (!o.feasible, o.count, o.total_gib) < (!b.feasible, b.count, b.total_gib)
        });
        if better {
            best = Some(o);
        }
    }
    let mut o = best.unwrap_or_else(|| size_drive_array(tier, drive, raid, policy, w));
    if variants.len() > 1 {
        o.note(SizingNote::DriveSizeChosen {
            gb: o.size_per_unit_gib * GIB / GB,
            catalogued_gb: variants.iter().map(|d| d.size_gb).collect(),
            capacity_given: w.capacity_gib.is_some(),
        });
    }
    o
}

/// Size an on-premises drive array of one drive capacity for `w` (module docs for the
/// formulas). Cost: none (no public list price).
pub(crate) fn size_drive_array(
    tier: &Tier,
    drive: &DriveSpec,
    raid: &RaidSpec,
    policy: &OnpremPolicy,
    w: &Workload,
) -> TierOption {
    let mut o = base_option(tier, Unit::Drive);
    let hit = policy.array_read_hit_pct / 100.0;
    let coalesce = policy.write_coalesce_pct / 100.0;
    let backend = w.read_fe * (1.0 - hit) + w.write_fe * (1.0 - coalesce) * raid.write_penalty;
    let width = f64::from(raid.group_width);
    let size_gib = drive.size_gb * GB / GIB;
    let usable_per_group = f64::from(raid.data_drives_per_group) * size_gib;

    let n_iops = ceil_eps(backend / drive.iops);
    let bw = bandwidth(drive, raid, hit, coalesce, w);
    let n_mb = bw.drives.unwrap_or(0.0);
    let n_cap = w
        .capacity_gib
        .map(|c| ceil_eps(c / usable_per_group) * width);
    let min = f64::from(raid.min_drives);
    let raw = n_iops.max(n_mb).max(n_cap.unwrap_or(0.0)).max(min);
    let n = ceil_eps(raw / width) * width;

    let fe = w.read_fe + w.write_fe;
    o.backend_iops = Some(backend);
    o.backend_mb_s = Some(bw.backend_read + bw.backend_write);
    o.drives_for_iops = Some(n_iops as u32);
    o.drives_for_mb_s = bw.drives.map(|x| x as u32);
    o.drives_for_capacity = n_cap.map(|x| x as u32);
    o.count = n as u32;
    o.size_per_unit_gib = size_gib;
    o.total_gib = n * size_gib;
    o.usable_gib = n / width * usable_per_group;
    // Front-end IOPS the drives serve at this read/write mix.
    o.iops_capability = if backend > 0.0 {
        n * drive.iops * fe / backend
    } else {
        n * drive.iops
    };
    // Front-end MB/s the drives carry at this mix: n drives' time / time per front-end MB.
    // (An unsourced rate only occurs with `drives` None, so INFINITY never divides a load.)
    if bw.drives.is_some() && w.sized_mb_s > 0.0 {
        let time_per_mb = (bw.backend_read / drive.read_mb_s().unwrap_or(f64::INFINITY)
            + bw.backend_write / drive.write_mb_s().unwrap_or(f64::INFINITY))
            / w.sized_mb_s;
        if time_per_mb > 0.0 {
            o.throughput_mib_s = Some(mb_to_mib(n / time_per_mb));
            o.throughput_mib_s_per_unit = Some(mb_to_mib(1.0 / time_per_mb));
        }
    }
    o.cost_note = Some(CostNote::OnpremArray);

    // The count is set by the largest requirement; ties go IOPS, MB/s, capacity.
    let cap = n_cap.unwrap_or(0.0);
    let set_by = if min > n_iops.max(n_mb).max(cap) {
        DrivesSetBy::RaidMinimum
    } else if n_iops >= n_mb && n_iops >= cap {
        DrivesSetBy::Iops
    } else if n_mb >= cap {
        DrivesSetBy::Throughput
    } else {
        DrivesSetBy::Capacity
    };
    o.drives_set_by = Some(set_by);
    o.binding_limits.push(Binding::DriveCounts {
        iops: n_iops,
        mb_s: bw.drives,
        capacity: n_cap,
        set_by,
    });
    match set_by {
        DrivesSetBy::Iops => o.binding_limits.push(Binding::DriveIops {
            reads: w.read_fe,
            read_hit: hit,
            writes: w.write_fe,
            coalesce,
            write_penalty: raid.write_penalty,
            backend,
            drive_iops: drive.iops,
            drives: n_iops,
        }),
        DrivesSetBy::Throughput => o.binding_limits.push(Binding::DriveThroughput {
            read_mb_s: w.read_mb_s,
            read_hit: hit,
            write_mb_s: w.write_mb_s,
            coalesce,
            write_penalty: raid.write_penalty,
            backend_read_mb_s: bw.backend_read,
            backend_write_mb_s: bw.backend_write,
            drive_read_mb_s: drive.read_mb_s().unwrap_or(0.0),
            drive_write_mb_s: drive.write_mb_s().unwrap_or(0.0),
            drives: n_mb,
        }),
        DrivesSetBy::Capacity => o.binding_limits.push(Binding::DriveCapacity {
            gib: w.capacity_gib.unwrap_or(0.0),
            usable_per_group,
            group_width: raid.group_width,
            drives: cap,
        }),
        DrivesSetBy::RaidMinimum => o.binding_limits.push(Binding::MinDrives {
            min: raid.min_drives,
            level: raid.level.clone(),
            for_iops: n_iops,
        }),
    }
    if n > raw {
        o.binding_limits.push(Binding::WholeGroups {
            from: raw,
            group_width: raid.group_width,
            level: raid.level.clone(),
        });
    }
    if drive.size_is_assumption {
        o.note(SizingNote::DriveSizeAssumed { gb: drive.size_gb });
    }
    if w.capacity_gib.is_none() {
        o.note(SizingNote::DrivesForIopsOnly);
    }
    if let Some(l) = &drive.link {
        for (op, own) in [
            (IoKind::Read, drive.seq_read_mb_s),
            (IoKind::Write, drive.seq_write_mb_s),
        ] {
            if let Some(d) = own.filter(|d| *d > l.mb_s) {
                o.note(SizingNote::DriveLinkCaps {
                    op,
                    drive_mb_s: d,
                    link: l.name.clone(),
                    link_mb_s: l.mb_s,
                });
            }
        }
    }
    if w.sized_mb_s > 0.0 {
        o.note(SizingNote::DriveRatesSequential);
    }
    o.infeasible_reason = if let Some((op, mb_s)) = bw.unsourced {
        Some(Infeasible::DriveRateUnsourced { op, mb_s })
    } else if let Some(max) = policy
        .max_front_end_mb_s
        .filter(|m| w.sized_mb_s > *m + EPS)
    {
        Some(Infeasible::ArrayFrontEndOverMax {
            mb_s: w.sized_mb_s,
            max_mb_s: max,
        })
    } else if n > f64::from(policy.max_drives) {
        Some(Infeasible::DrivesOverMax {
            drives: n,
            max_drives: policy.max_drives,
        })
    } else {
        None
    };
    o.feasible = o.infeasible_reason.is_none();
    o
}
