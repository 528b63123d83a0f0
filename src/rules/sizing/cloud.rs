//! Sizing a cloud volume tier: 1..=max_volumes equal volumes, the fewest (or cheapest) that fit.

use super::host::hosts_for_tier;
use super::volume::*;
use super::*;

/// Size a cloud volume tier: try 1..=max_volumes equal volumes, each serving
/// 1/n of the counted IOPS, throughput and capacity; keep the fewest (or cheapest)
/// that fits. Tiers whose performance belongs to the VM (`per_vm_pool`) get one
/// volume. I/O request charges = per_million_io × required IOPS × seconds
/// per month / 10^6 (no headroom: it bills actual requests).
pub(crate) fn size_cloud(
    tier: &Tier,
    spec: &CloudVolumeSpec,
    platform: Option<(&Platform, &[Instance])>,
    instance: Option<&Instance>,
    policy: &CloudPolicy,
    hours_per_month: f64,
    w: &Workload,
) -> TierOption {
    let mut o = base_option(tier, Unit::Volume);
    let u = unit_of(spec);
    // The demand's throughput in the tier's unit.
    let mut need_t = if spec.throughput_decimal {
        w.sized_mb_s
    } else {
        w.sized_mib_s
    };

    // IO-size accounting: requests larger than the IO unit count as several.
    let mut counted = w.sized_iops;
    // Requests per read and per write as the provider counts them (1 when not split).
    let mut parts_rw = (1.0, 1.0);
    if let Some(unit) = spec.volume.io_unit_kib {
        let mut extra = 0.0;
        for (avg, rate, op) in [
            (w.avg_read_kib, w.read_fe, IoKind::Read),
            (w.avg_write_kib, w.write_fe, IoKind::Write),
        ] {
            if let Some(a) = avg.filter(|a| *a > unit) {
                let parts = ceil_eps(a / unit);
                match op {
                    IoKind::Read => parts_rw.0 = parts,
                    IoKind::Write => parts_rw.1 = parts,
                }
                extra += (parts - 1.0) * rate;
                o.note(SizingNote::IoUnitSplit {
                    op,
                    avg_kib: a,
                    unit_kib: unit,
                    parts,
                });
            }
        }
        if extra > 0.0 {
            counted += extra;
            o.counted_iops = Some(counted);
        }
        if spec.volume.small_io_counts_full_unit {
            let unit_t = unit * 1024.0 / if spec.throughput_decimal { MB } else { MIB };
            let t_units = counted * unit_t;
            if t_units > need_t + EPS {
                o.binding_limits.push(Binding::FullIoUnit {
                    unit_kib: unit,
                    iops: counted,
                    used: t_units,
                    measured: need_t,
                    unit: u,
                });
                need_t = t_units;
            }
        }
    }
    if spec.volume.io_unit_kib.is_none()
        && [w.avg_read_kib, w.avg_write_kib]
            .iter()
            .any(|a| a.is_some_and(|k| k > 256.0))
    {
        o.note(SizingNote::LargeRequestsCountedOnce);
    }
    if w.capacity_gib.is_none() {
        o.note(SizingNote::VolumeCapacityNotGiven);
    }

    // Host (instance) caps.
    if let Some(i) = instance {
        if i.tiers_unavailable.iter().any(|t| t == &tier.id) {
            o.infeasible_reason = Some(Infeasible::NotAttachable {
                instance: i.id.clone(),
                source: attach_reason(&i.source, &tier.id),
            });
            return o;
        }
        let (max_iops, max_mb_s) = if i.cap_unknown(&tier.id) {
            o.note(SizingNote::InstanceCapUnknown {
                instance: i.id.clone(),
            });
            (f64::INFINITY, f64::INFINITY)
        } else {
            i.caps_for(&tier.id)
        };
        if counted > max_iops + EPS {
            o.infeasible_reason = Some(Infeasible::InstanceIops {
                needed: counted,
                max: max_iops,
                instance: i.id.clone(),
            });
            return o;
        }
        if w.sized_mb_s > max_mb_s + EPS {
            o.infeasible_reason = Some(Infeasible::InstanceMbS {
                needed: w.sized_mb_s,
                max: max_mb_s,
                instance: i.id.clone(),
            });
            return o;
        }
        if !i.cap_unknown(&tier.id) {
            o.binding_limits.push(Binding::WithinInstanceCap {
                instance: i.id.clone(),
                max_iops,
                max_mb_s,
            });
        }
    } else if let Some((p, catalogued)) = platform {
        if let Some(max) = p.instance_max_iops.filter(|m| counted > *m + EPS) {
            o.infeasible_reason = Some(Infeasible::PlatformIops {
                needed: counted,
                max,
                platform: p.id.clone(),
            });
            return o;
        }
        if let Some(max) = p.instance_max_mb_s.filter(|m| w.sized_mb_s > *m + EPS) {
            o.infeasible_reason = Some(Infeasible::PlatformMbS {
                needed: w.sized_mb_s,
                max,
                platform: p.id.clone(),
            });
            return o;
        }
        // The VM-size answer: the smallest host per family that drives this to this tier.
        let (hosts, none) = hosts_for_tier(catalogued, &p.id, &tier.id, counted, w.sized_mb_s);
        o.hosts = hosts;
        if none.is_some() {
            o.infeasible_reason = none;
            return o;
        }
    }

    let cap = w.capacity_gib.unwrap_or(0.0);
    let max_n = if spec.volume.per_vm_pool {
        1
    } else {
        policy.max_volumes.max(1)
    };
    let mut best: Option<(u32, VolConfig, f64)> = None;
    // The fewest volumes that fit, and the error of the count below them.
    let mut first: Option<(u32, VolConfig, f64)> = None;
    let mut err_before_first: Option<Infeasible> = None;
    let mut last_err: Option<Infeasible> = None;
    let mut prev_err: Option<Infeasible> = None;
    let mut err_before_best: Option<Infeasible> = None;
    // Every count that fits, with its cost and the error of the count below it.
    let mut fits: Vec<(u32, VolConfig, f64, Option<Infeasible>)> = Vec::new();
    for n in 1..=max_n {
        let nf = f64::from(n);
        let need = VolNeed {
            iops: counted / nf,
            t: need_t / nf,
            gib: cap / nf,
            peak_s: w.peak_minutes.map(|m| m * 60.0),
            // The average in the same units as the peak (IO-unit accounting scales both).
            mean_iops: w
                .mean_iops
                .map(|m| m * counted / w.sized_iops.max(EPS) / nf),
        };
        match configure_volume(spec, &need) {
            Ok(v) => {
                // "fewest" keeps one row even when it was bought for performance.
                let raised = if policy.volume_count == VolumeCountPolicy::Fewest {
                    v.iops_raised_for_throughput
                } else {
                    bought_for_performance(&v, w.capacity_gib)
                };
                // Unknown price: compare by count only (the first fit wins).
                let total = volume_cost(spec, &v)
                    .map(|(s, i, t)| nf * (s + i + t))
                    .unwrap_or(f64::INFINITY);
                if first.is_none() {
                    first = Some((n, v.clone(), total));
                    err_before_first = prev_err.clone();
                }
                fits.push((n, v.clone(), total, prev_err.clone()));
                let better = match &best {
                    None => true,
                    Some((_, _, c)) => total < *c - 1e-9,
                };
                if better {
                    err_before_best = prev_err.clone();
                    best = Some((n, v, total));
                }
                // "fewest" (and "cheapest" without a capacity, which keeps the fewest) stops at
                // the first count that fits, unless that count only fits by buying IOPS for
                // throughput: then more volumes may cost less.
                let keeps_fewest =
                    policy.volume_count == VolumeCountPolicy::Fewest || w.capacity_gib.is_none();
                if keeps_fewest && !raised {
                    break;
                }
            }
            Err(e) => {
                prev_err = Some(e.clone());
                last_err = Some(e);
            }
        }
    }
    // "cheapest" takes the fewest volumes whose cost is within min_saving_pct of the cheapest
    // count: (fewest-fit n, its cost, chosen cost, cheapest n, cheapest cost).
    let mut saving: Option<(u32, f64, f64, u32, f64)> = None;
    // Without a data size every volume is a minimum-size one, and a stripe of them would be an
    // artefact of the missing capacity: the fewest volumes that fit are kept, unless the fewest
    // fit only by buying IOPS or a size-table row for performance (a P80 for its MB/s), where
    // more, smaller volumes may cost less.
    let first_bought = first.as_ref().is_some_and(|(_, fv, _)| {
        !fv.iops_raised_for_throughput && bought_for_performance(fv, w.capacity_gib)
    });
    let cheapest = policy.volume_count == VolumeCountPolicy::Cheapest
        && (w.capacity_gib.is_some() || first_bought);
    if policy.volume_count == VolumeCountPolicy::Cheapest && !cheapest {
        // As "fewest": the first count that fits, unless it fits only by buying IOPS for
        // throughput (then the cheapest count, as the loop found).
        if let Some((fn_, fv, fc)) = &first {
            if !bought_for_performance(fv, w.capacity_gib) {
                best = Some((*fn_, fv.clone(), *fc));
                err_before_best = err_before_first.clone();
            }
        }
    }
    if cheapest {
        if let (Some((bn, _, bc)), Some((fn_, fv, fc))) = (best.clone(), first.clone()) {
            if bn != fn_ && fc.is_finite() {
                let within = bc * (1.0 + policy.min_saving_pct / 100.0) + 1e-9;
                match fits.iter().find(|f| f.2 <= within) {
                    Some((n, v, c, e)) if *n != fn_ => {
                        saving = Some((fn_, fc, *c, bn, bc));
                        best = Some((*n, v.clone(), *c));
                        err_before_best = e.clone();
                    }
                    _ => {
                        best = Some((fn_, fv, fc));
                        err_before_best = err_before_first.clone();
                    }
                }
            }
        }
    }
    let Some((n, v, _)) = best else {
        // No count fitted: the loop ran (max_n >= 1) and every count failed.
        o.infeasible_reason = last_err.map(|last| {
            if max_n > 1 {
                Infeasible::EvenStriped {
                    max_volumes: max_n,
                    last: Box::new(last),
                }
            } else if spec.volume.per_vm_pool {
                Infeasible::PerVm(Box::new(last))
            } else {
                last
            }
        });
        return o;
    };

    let nf = f64::from(n);
    let to_mib = |t: f64| {
        if spec.throughput_decimal {
            mb_to_mib(t)
        } else {
            t
        }
    };
    o.feasible = true;
    o.count = n;
    o.size_per_unit_gib = v.size_gib;
    o.total_gib = nf * v.size_gib;
    o.usable_gib = o.total_gib;
    o.iops_capability = nf * v.iops;
    o.provisioned_iops = Some(nf * v.iops);
    o.provisioned_iops_per_unit = Some(v.iops);
    o.throughput_mib_s = Some(nf * to_mib(v.t));
    o.throughput_mib_s_per_unit = Some(to_mib(v.t));
    o.size_name = v.row.as_ref().map(|r| r.name.clone());
    o.bursting = v.bursting;
    match volume_cost(spec, &v) {
        Some((s, i, t)) => {
            // Requests billed: the measured reads and writes (no headroom, no formula margin),
            // each counted in the tier's IO units.
            let billed = w.measured_rw.0 * parts_rw.0 + w.measured_rw.1 * parts_rw.1;
            let io_requests = spec
                .price
                .per_million_io
                .map(|p| p * billed * hours_per_month * 3600.0 / 1e6)
                .unwrap_or(0.0);
            // Each component in cents, and the total their sum, so an itemised quote adds up.
            let c = |x: f64| (x * 100.0).round() / 100.0;
            let breakdown = CostBreakdown {
                storage_usd: c(nf * s),
                iops_usd: c(nf * i),
                throughput_usd: c(nf * t),
                io_requests_usd: c(io_requests),
            };
            o.monthly_cost_usd = Some(
                breakdown.storage_usd
                    + breakdown.iops_usd
                    + breakdown.throughput_usd
                    + breakdown.io_requests_usd,
            );
            if billed > 0.0 && spec.price.per_million_io.is_some() {
                o.binding_limits.push(Binding::RequestsBilled {
                    requests_s: billed,
                    hours: hours_per_month,
                });
            }
            o.cost_breakdown = Some(breakdown);
        }
        None => {
            o.cost_note = Some(match (&v.row, &spec.price.no_list_price) {
                (Some(r), _) => CostNote::RowUnpriced {
                    row: r.name.clone(),
                },
                (None, Some(why)) => CostNote::Catalogue(why.clone()),
                (None, None) => CostNote::NotInCatalogue,
            });
        }
    }
    if let Some((fn_, fc, c, bn, bc)) = saving {
        o.binding_limits.push(Binding::StripedCheaper {
            volumes: n,
            saving_pct: saving_pct(c, fc),
            fewest: fn_,
            usd: c,
            fewest_usd: fc,
            cheapest: (bn != n).then_some((bn, bc)),
            min_saving_pct: policy.min_saving_pct,
        });
    } else if n > 1 {
        o.binding_limits.push(Binding::Striped {
            volumes: n,
            cheapest_policy: cheapest,
            fewer: err_before_best,
        });
    }
    if spec.volume.per_vm_pool {
        o.note(SizingNote::PerVmPool);
        match instance {
            // What the VM delivers: the size's rate, up to the VM's cap.
            Some(i) if i.cap_unknown(&tier.id) => {}
            Some(i) => {
                let (max_iops, max_mb_s) = i.caps_for(&tier.id);
                if o.iops_capability > max_iops {
                    o.iops_capability = max_iops;
                    o.provisioned_iops = Some(max_iops);
                    o.provisioned_iops_per_unit = Some(max_iops);
                }
                let cap_mib = mb_to_mib(max_mb_s);
                if o.throughput_mib_s.is_some_and(|t| t > cap_mib) {
                    o.throughput_mib_s = Some(cap_mib);
                    o.throughput_mib_s_per_unit = Some(cap_mib);
                }
            }
            None => o.note(SizingNote::PerVmBestCase),
        }
    }
    o.binding_limits.extend(v.binding);
    o.notes.extend(v.notes.into_iter().map(OptionNote::Sizing));
    if w.capacity_gib.is_some() && o.binding_limits.is_empty() {
        o.binding_limits.push(Binding::CapacitySetsSize);
    }
    o
}

/// True when a volume's size or provisioned IOPS were bought for performance, not for data:
/// IOPS raised to reach a throughput (io1), or, without a data size, a size-table row (an Azure
/// P-tier) that is the smallest row with the IOPS and MB/s. Striping may then be cheaper.
fn bought_for_performance(v: &VolConfig, capacity_gib: Option<f64>) -> bool {
    v.iops_raised_for_throughput || (capacity_gib.is_none() && v.row.is_some())
}

/// The part of a host type's `source` (`;`-separated) that says why it cannot attach `tier_id`:
/// the first part naming the tier (its id after the platform, `pd-extreme`, with or without the
/// hyphen; Persistent Disk for `pd-*`) together with a restriction ("needs", "require", "not
/// in", "not among", "not offered", "support"); else the first part naming it; else the first.
pub(super) fn attach_reason(source: &str, tier_id: &str) -> String {
    let short = tier_id.split_once('.').map_or(tier_id, |(_, t)| t);
    let mut names = vec![short.to_string(), short.replace('-', " ")];
    if short.starts_with("pd-") {
        names.push("persistent disk".to_string());
    }
    let parts: Vec<&str> = source.split(';').map(str::trim).collect();
    let names_it = |p: &&str| {
        let l = p.to_lowercase();
        names.iter().any(|n| l.contains(n.as_str()))
    };
    let restricts = |p: &&str| {
        let l = p.to_lowercase();
        [
            "need",
            "require",
            "not in ",
            "not among",
            "not offered",
            "support",
        ]
        .iter()
        .any(|k| l.contains(k))
    };
    parts
        .iter()
        .find(|p| names_it(p) && restricts(p))
        .or_else(|| parts.iter().find(|p| names_it(p)))
        .or_else(|| parts.first())
        .map_or_else(String::new, |p| p.to_string())
}

/// The saving of `usd` against `fewest_usd`, percent, rounded DOWN to 0.1 % (the precision it
/// is worded with): a saving is never overstated across a boundary (9.96 % is 9.9 %, never
/// "10 %"; 99.7 % never "100 %"). The float noise of an exact tenth (26.5 as 26.4999…) is kept.
pub(crate) fn saving_pct(usd: f64, fewest_usd: f64) -> f64 {
    let pct = (1.0 - usd / fewest_usd) * 100.0;
    ((pct * 10.0) + 1e-9).floor() / 10.0
}
