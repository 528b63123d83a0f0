//! One cloud volume of an n-volume stripe: the smallest size (or size-table row) and the
//! provisioned IOPS and throughput that meet its share of the demand, and its monthly cost.

use super::*;

/// What one volume of an n-volume stripe must deliver.
#[derive(Debug, Clone, Copy)]
pub(super) struct VolNeed {
    /// Counted IOPS per volume.
    pub(super) iops: f64,
    /// Throughput per volume, in the tier's unit (MiB/s, or MB/s when
    /// `throughput_decimal`).
    pub(super) t: f64,
    /// GiB per volume.
    pub(super) gib: f64,
    /// Seconds the sized load lasts (burst check); `None` = unknown.
    pub(super) peak_s: Option<f64>,
    /// Long-run average IOPS per volume after headroom (burst refill check).
    pub(super) mean_iops: Option<f64>,
}

/// One volume of a cloud configuration.
#[derive(Debug, Clone)]
pub(super) struct VolConfig {
    pub(super) size_gib: f64,
    /// IOPS the volume sustains (provisioned, size-driven, fixed or its size row).
    pub(super) iops: f64,
    /// True when `iops` are provisioned (billed).
    pub(super) iops_provisioned: bool,
    /// Throughput the volume delivers, in the tier's unit.
    pub(super) t: f64,
    /// True when `t` is provisioned (billed above the included amount).
    pub(super) t_provisioned: bool,
    /// True when provisioned IOPS were raised above the IOPS need only to reach the throughput
    /// (io1: MiB/s per provisioned IOPS); striping may then be cheaper.
    pub(super) iops_raised_for_throughput: bool,
    /// The `[tier.sizes]` row chosen (fixed-size tiers).
    pub(super) row: Option<SizeRow>,
    /// True when the configuration relies on credit bursting for the peak.
    pub(super) bursting: bool,
    pub(super) binding: Vec<Binding>,
    pub(super) notes: Vec<SizingNote>,
}

/// Whether a credit bucket of `credits` covers a peak of `need` IOPS on a volume whose
/// sustained rate is `baseline` (AWS-GP: duration = credits / (burst IOPS − baseline), with the
/// demand in place of the burst ceiling): `Ok(the bucket arithmetic)` or `Err(why not)`.
pub(super) fn burst_covers(
    credits: f64,
    ceiling: f64,
    baseline: f64,
    need: &VolNeed,
) -> Result<BurstCovers, BurstRefused> {
    if need.iops > ceiling + EPS {
        return Err(BurstRefused::AboveCeiling {
            iops: need.iops,
            ceiling,
        });
    }
    let Some(peak_s) = need.peak_s else {
        return Err(BurstRefused::PeakLengthUnknown);
    };
    let Some(mean) = need.mean_iops else {
        return Err(BurstRefused::MeanUnknown);
    };
    if mean > baseline + EPS {
        return Err(BurstRefused::MeanAboveBaseline { mean, baseline });
    }
    let dur = credits / (need.iops - baseline).max(EPS);
    if dur + EPS < peak_s {
        return Err(BurstRefused::TooShort {
            iops: need.iops,
            lasts_min: dur / 60.0,
            peak_min: peak_s / 60.0,
        });
    }
    Ok(BurstCovers {
        baseline,
        iops: need.iops,
        credits,
        lasts_min: dur / 60.0,
        peak_min: peak_s / 60.0,
        mean,
    })
}

/// The unit the tier states its throughput in.
pub(super) fn unit_of(spec: &CloudVolumeSpec) -> ThroughputUnit {
    if spec.throughput_decimal {
        ThroughputUnit::MbS
    } else {
        ThroughputUnit::MibS
    }
}

/// A size-table row's figures.
fn row_figures(r: &SizeRow, unit: ThroughputUnit) -> SizeRowFigures {
    SizeRowFigures {
        name: r.name.clone(),
        gib: r.gib,
        iops: r.iops,
        throughput: r.mb_s,
        unit,
    }
}

/// Smallest `[tier.sizes]` row that holds `need` (sustained IOPS, or a burst that covers the
/// peak).
pub(super) fn configure_row(
    spec: &CloudVolumeSpec,
    table: &SizeTable,
    need: &VolNeed,
) -> Result<VolConfig, Infeasible> {
    let u = unit_of(spec);
    let mut why_smaller: Option<RowShort> = None;
    let mut burst_note: Option<SizingNote> = None;
    for r in &table.rows {
        if r.gib + EPS < need.gib {
            why_smaller = Some(RowShort::Gib(need.gib));
            continue;
        }
        if r.mb_s + EPS < need.t {
            why_smaller = Some(RowShort::Throughput(need.t, u));
            continue;
        }
        let mut cfg = VolConfig {
            size_gib: r.gib,
            iops: r.iops,
            iops_provisioned: false,
            t: r.mb_s,
            t_provisioned: false,
            iops_raised_for_throughput: false,
            row: Some(r.clone()),
            bursting: false,
            binding: Vec::new(),
            notes: Vec::new(),
        };
        if r.iops + EPS < need.iops {
            let covered = match (r.burst_iops, r.burst_minutes) {
                (Some(bi), Some(bm)) if bi > r.iops => {
                    let credits = bm * 60.0 * (bi - r.iops);
                    match burst_covers(credits, bi, r.iops, need) {
                        Ok(covers) => {
                            cfg.binding.push(Binding::RowBurst {
                                row: r.name.clone(),
                                minutes: bm,
                                burst_iops: bi,
                                covers,
                            });
                            cfg.bursting = true;
                            true
                        }
                        Err(why) => {
                            burst_note.get_or_insert(SizingNote::RowBurstNotCounted {
                                row: r.name.clone(),
                                why,
                            });
                            false
                        }
                    }
                }
                _ => false,
            };
            if !covered {
                why_smaller = Some(RowShort::Iops(need.iops));
                continue;
            }
        }
        cfg.binding.insert(
            0,
            Binding::SizeRow {
                row: row_figures(r, u),
                smaller_lacks: why_smaller,
            },
        );
        cfg.notes.extend(burst_note);
        return Ok(cfg);
    }
    let last = table.rows.last().expect("validated: at least one row");
    Err(Infeasible::NoSizeRow {
        iops: need.iops,
        throughput: need.t,
        gib: need.gib,
        largest: row_figures(last, u),
        burst: burst_note.map(Box::new),
    })
}

/// Smallest volume of `spec` that serves `need`, or the limit that prevents it.
pub(super) fn configure_volume(
    spec: &CloudVolumeSpec,
    need: &VolNeed,
) -> Result<VolConfig, Infeasible> {
    if let Some(table) = &spec.sizes {
        return configure_row(spec, table, need);
    }
    let u = unit_of(spec);
    let need_iops = need.iops;
    let need_mib = need.t;
    let mut binding = Vec::new();
    let mut notes = Vec::new();
    let mut raised_for_throughput = false;
    let mut bursting = false;
    let mut size = ceil_eps(need.gib).max(spec.volume.min_gib);
    let mut prov: Option<f64> = None;

    // 1. IOPS
    match &spec.iops {
        IopsModel::Fixed { per_volume } => {
            if need_iops > per_volume + EPS {
                return Err(Infeasible::IopsOverFixed {
                    needed: need_iops,
                    per_volume: *per_volume,
                });
            }
        }
        IopsModel::SizeDriven {
            per_gib,
            min,
            max,
            base,
            burst,
        } => {
            if need_iops > max + EPS {
                return Err(Infeasible::IopsOverMax {
                    needed: need_iops,
                    max: *max,
                });
            }
            let baseline = |s: f64| (base + per_gib * s).clamp(*min, *max);
            if baseline(size) + EPS < need_iops {
                let s_sus = ceil_eps((need_iops - base) / per_gib).max(size);
                let mut chosen = None;
                if let Some(b) = burst {
                    // Smallest size whose bucket outlasts the peak and whose baseline refills it.
                    let mut s_b = size;
                    if let Some(p) = need.peak_s.filter(|p| *p > 0.0) {
                        s_b = s_b.max(ceil_eps((need_iops - b.credits / p - base) / per_gib));
                    }
                    if let Some(m) = need.mean_iops {
                        s_b = s_b.max(ceil_eps((m - base) / per_gib));
                    }
                    let small_enough = b.below_gib.is_none_or(|g| s_b < g);
                    match burst_covers(b.credits, b.iops, baseline(s_b), need) {
                        Ok(_) if s_b >= s_sus => {
                            notes.push(SizingNote::BurstNoSmaller { burst_iops: b.iops })
                        }
                        Ok(covers) if s_b < s_sus && small_enough => {
                            binding.push(Binding::BurstSize {
                                gib: s_b,
                                covers,
                                sustained_iops: need_iops,
                                sustained_gib: s_sus,
                            });
                            bursting = true;
                            chosen = Some(s_b);
                        }
                        Ok(_) => {}
                        Err(why) => notes.push(SizingNote::BurstNotCounted {
                            burst_iops: b.iops,
                            why,
                        }),
                    }
                }
                match chosen {
                    Some(s) => size = s,
                    None => {
                        binding.push(Binding::SizeForIops {
                            gib: s_sus,
                            per_gib: *per_gib,
                            base: *base,
                            iops: need_iops,
                        });
                        size = s_sus;
                    }
                }
            }
        }
        IopsModel::SizeTable => unreachable!("size_table tiers have [tier.sizes]"),
        IopsModel::Provisioned { min, max, .. } => {
            let p = ceil_eps(need_iops).max(*min);
            if p > max + EPS {
                return Err(Infeasible::IopsOverMax {
                    needed: p,
                    max: *max,
                });
            }
            prov = Some(p);
        }
    }
    let iops_max = match spec.iops {
        IopsModel::Provisioned { max, .. } => max,
        _ => 0.0,
    };

    // 2. Throughput
    let mut prov_mib: Option<f64> = None;
    match &spec.throughput {
        ThroughputModel::Fixed { per_volume_mib_s } => {
            if need_mib > per_volume_mib_s + EPS {
                return Err(Infeasible::ThroughputOverFixed {
                    needed: need_mib,
                    per_volume: *per_volume_mib_s,
                    unit: u,
                });
            }
        }
        ThroughputModel::SizeSteps { steps } => {
            let step = steps
                .iter()
                .find(|s| s.mib_s + EPS >= need_mib)
                .ok_or_else(|| Infeasible::ThroughputOverMax {
                    needed: need_mib,
                    max: steps.last().map_or(0.0, |s| s.mib_s),
                    unit: u,
                })?;
            if step.min_gib > size {
                binding.push(Binding::SizeForThroughputStep {
                    gib: step.min_gib,
                    needed: need_mib,
                    unit: u,
                });
                size = step.min_gib;
            }
        }
        ThroughputModel::SizeLinear {
            base_mib_s,
            per_gib_mib_s,
            max_mib_s,
        } => {
            if need_mib > max_mib_s + EPS {
                return Err(Infeasible::ThroughputOverMax {
                    needed: need_mib,
                    max: *max_mib_s,
                    unit: u,
                });
            }
            if base_mib_s + per_gib_mib_s * size + EPS < need_mib {
                let s = ceil_eps((need_mib - base_mib_s) / per_gib_mib_s);
                binding.push(Binding::SizeForThroughputLinear {
                    gib: s,
                    per_tib: per_gib_mib_s * 1024.0,
                    base: *base_mib_s,
                    needed: need_mib,
                    unit: u,
                });
                size = s;
            }
        }
        ThroughputModel::SizeTable => unreachable!("size_table tiers have [tier.sizes]"),
        t @ ThroughputModel::PerIops { max_mib_s, .. } => {
            if need_mib > max_mib_s + EPS {
                return Err(Infeasible::ThroughputOverMax {
                    needed: need_mib,
                    max: *max_mib_s,
                    unit: u,
                });
            }
            let cap = |p: f64| t.per_iops_cap(p).unwrap_or(0.0);
            match prov {
                Some(p) if cap(p) + EPS < need_mib => {
                    // Smallest IOPS whose cap covers the need (cap is monotone).
                    if cap(iops_max) + EPS < need_mib {
                        return Err(Infeasible::ThroughputOverCapAtMaxIops {
                            needed: need_mib,
                            cap: cap(iops_max),
                            unit: u,
                        });
                    }
                    let (mut lo, mut hi) = (p, iops_max);
                    while hi - lo > 1.0 {
                        let mid = ((lo + hi) / 2.0).floor();
                        if cap(mid) + EPS >= need_mib {
                            hi = mid;
                        } else {
                            lo = mid;
                        }
                    }
                    raised_for_throughput = true;
                    binding.push(Binding::IopsForThroughput {
                        from: p,
                        to: hi,
                        needed: need_mib,
                        unit: u,
                    });
                    prov = Some(hi);
                }
                Some(_) => {}
                None => {
                    let delivered = delivered_iops(&spec.iops, size, None);
                    if cap(delivered) + EPS < need_mib {
                        return Err(Infeasible::ThroughputOverCapAtIops {
                            needed: need_mib,
                            cap: cap(delivered),
                            iops: delivered,
                            unit: u,
                        });
                    }
                }
            }
        }
        ThroughputModel::Provisioned {
            included_mib_s,
            max_mib_s,
            max_mib_s_per_iops,
        } => {
            let m = ceil_eps(need_mib).max(*included_mib_s);
            if m > max_mib_s + EPS {
                return Err(Infeasible::ThroughputOverMax {
                    needed: need_mib,
                    max: *max_mib_s,
                    unit: u,
                });
            }
            let iops_now = prov.unwrap_or_else(|| delivered_iops(&spec.iops, size, None));
            if let Some(max_mib_s_per_iops) = max_mib_s_per_iops.filter(|r| m > r * iops_now + EPS)
            {
                let p2 = ceil_eps(m / max_mib_s_per_iops);
                if prov.is_none() || p2 > iops_max + EPS {
                    return Err(Infeasible::ThroughputNeedsIops {
                        throughput: m,
                        iops: p2,
                        per_iops: max_mib_s_per_iops,
                        unit: u,
                    });
                }
                binding.push(Binding::IopsForThroughputRatio {
                    iops: p2,
                    throughput: m,
                    per_iops: max_mib_s_per_iops,
                    unit: u,
                });
                prov = Some(p2);
            }
            prov_mib = Some(m);
        }
    }

    // 3. Size for the IOPS:GiB ratio of provisioned IOPS
    if let (
        Some(p),
        IopsModel::Provisioned {
            included,
            max_per_gib: Some(max_per_gib),
            ..
        },
    ) = (prov, &spec.iops)
    {
        if p > *included {
            let s = ceil_eps(p / max_per_gib);
            if s > size {
                binding.push(Binding::SizeForIopsRatio {
                    gib: s,
                    max_per_gib: *max_per_gib,
                    iops: p,
                });
                size = s;
            }
        }
    }

    // 4. Size limit
    if size > spec.volume.max_gib + EPS {
        return Err(Infeasible::CapacityOverMax {
            gib: size,
            max_gib: spec.volume.max_gib,
        });
    }

    let iops = delivered_iops(&spec.iops, size, prov);
    let t = match &spec.throughput {
        ThroughputModel::Fixed { per_volume_mib_s } => *per_volume_mib_s,
        ThroughputModel::SizeSteps { steps } => steps
            .iter()
            .rev()
            .find(|s| s.min_gib <= size + EPS)
            .or(steps.first())
            .map_or(0.0, |s| s.mib_s),
        ThroughputModel::SizeLinear {
            base_mib_s,
            per_gib_mib_s,
            max_mib_s,
        } => (base_mib_s + per_gib_mib_s * size).min(*max_mib_s),
        ThroughputModel::SizeTable => 0.0,
        t @ ThroughputModel::PerIops { .. } => t.per_iops_cap(iops).unwrap_or(0.0),
        ThroughputModel::Provisioned { .. } => prov_mib.unwrap_or(0.0),
    };
    Ok(VolConfig {
        size_gib: size,
        iops,
        iops_provisioned: prov.is_some(),
        t,
        t_provisioned: prov_mib.is_some(),
        iops_raised_for_throughput: raised_for_throughput,
        row: None,
        bursting,
        binding,
        notes,
    })
}

pub(super) fn delivered_iops(m: &IopsModel, size: f64, prov: Option<f64>) -> f64 {
    match *m {
        IopsModel::Fixed { per_volume } => per_volume,
        IopsModel::SizeDriven {
            per_gib,
            min,
            max,
            base,
            ..
        } => (base + per_gib * size).clamp(min, max),
        IopsModel::SizeTable => 0.0,
        IopsModel::Provisioned { min, .. } => prov.unwrap_or(min),
    }
}

/// Monthly cost of one volume (storage, IOPS, throughput), USD; `None` when the catalogue has
/// no list price for it.
pub(super) fn volume_cost(spec: &CloudVolumeSpec, v: &VolConfig) -> Option<(f64, f64, f64)> {
    if let Some(r) = &v.row {
        return r.usd_month.map(|p| (p, 0.0, 0.0));
    }
    let storage = v.size_gib * spec.price.gib_month?;
    let iops = match spec.iops {
        IopsModel::Provisioned { included, .. } if v.iops_provisioned => {
            spec.price.iops_cost(v.iops, included)
        }
        _ => 0.0,
    };
    let thr = match spec.throughput {
        ThroughputModel::Provisioned { included_mib_s, .. } if v.t_provisioned => {
            (v.t - included_mib_s).max(0.0) * spec.price.mib_s_month.unwrap_or(0.0)
        }
        _ => 0.0,
    };
    Some((storage, iops, thr))
}
