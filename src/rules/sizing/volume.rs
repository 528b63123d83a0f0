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
    pub(super) binding: Vec<String>,
    pub(super) notes: Vec<String>,
}

/// Whether a credit bucket of `credits` covers a peak of `need` IOPS on a volume whose
/// sustained rate is `baseline` (AWS-GP: duration = credits / (burst IOPS − baseline), with the
/// demand in place of the burst ceiling): `Ok(explanation)` or `Err(why not)`.
pub(super) fn burst_covers(
    credits: f64,
    ceiling: f64,
    baseline: f64,
    need: &VolNeed,
) -> Result<String, String> {
    if need.iops > ceiling + EPS {
        return Err(format!(
            "the peak of {} IOPS is above the burst ceiling of {}",
            q(need.iops),
            q(ceiling)
        ));
    }
    let Some(peak_s) = need.peak_s else {
        return Err("the length of the peak is unknown".to_string());
    };
    let Some(mean) = need.mean_iops else {
        return Err("the average IOPS (to refill the bucket) is unknown".to_string());
    };
    if mean > baseline + EPS {
        return Err(format!(
            "the average of {} IOPS is above the baseline of {}, so spent credits would not come back",
            q(mean),
            q(baseline)
        ));
    }
    let dur = credits / (need.iops - baseline).max(EPS);
    if dur + EPS < peak_s {
        return Err(format!(
            "at {} IOPS the bucket lasts {} min, less than the {} min the load at this level lasted",
            q(need.iops),
            fmt_num(dur / 60.0, 1),
            fmt_num(peak_s / 60.0, 1)
        ));
    }
    Ok(format!(
        "bursts: baseline {} IOPS; at {} IOPS the {} I/O-credit bucket lasts {} / ({} − {}) s = {} min ≥ the {} min the load at this level lasted, and the average {} IOPS ≤ the baseline refills it",
        q(baseline),
        q(need.iops),
        fmt_num(credits, 0),
        fmt_num(credits, 0),
        q(need.iops),
        q(baseline),
        fmt_num(dur / 60.0, 1),
        fmt_num(peak_s / 60.0, 1),
        q(mean)
    ))
}

pub(super) fn unit_text(spec: &CloudVolumeSpec) -> &'static str {
    if spec.throughput_decimal {
        "MB/s"
    } else {
        "MiB/s"
    }
}

/// Smallest `[tier.sizes]` row that holds `need` (sustained IOPS, or a burst that covers the
/// peak).
pub(super) fn configure_row(
    spec: &CloudVolumeSpec,
    table: &SizeTable,
    need: &VolNeed,
) -> Result<VolConfig, String> {
    let u = unit_text(spec);
    let mut why_smaller: Option<String> = None;
    let mut burst_note: Option<String> = None;
    for r in &table.rows {
        if r.gib + EPS < need.gib {
            why_smaller = Some(format!("{} GiB", q(need.gib)));
            continue;
        }
        if r.mb_s + EPS < need.t {
            why_smaller = Some(format!("{} {u}", q(need.t)));
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
                        Ok(t) => {
                            cfg.binding.push(format!(
                                "{} ({} min at {} IOPS from a full bucket) {t}",
                                r.name,
                                fmt_trim(bm),
                                q(bi)
                            ));
                            cfg.bursting = true;
                            true
                        }
                        Err(e) => {
                            burst_note.get_or_insert(format!(
                                "credit bursting of {} not counted: {e}",
                                r.name
                            ));
                            false
                        }
                    }
                }
                _ => false,
            };
            if !covered {
                why_smaller = Some(format!("{} IOPS", q(need.iops)));
                continue;
            }
        }
        cfg.binding.insert(
            0,
            match &why_smaller {
                Some(w) => format!(
                    "size {} ({} GiB, {} IOPS, {} {u}): the smallest size with {w}",
                    r.name,
                    q(r.gib),
                    q(r.iops),
                    q(r.mb_s)
                ),
                None => format!(
                    "size {} ({} GiB, {} IOPS, {} {u}): the smallest size",
                    r.name,
                    q(r.gib),
                    q(r.iops),
                    q(r.mb_s)
                ),
            },
        );
        cfg.notes.extend(burst_note);
        return Ok(cfg);
    }
    let last = table.rows.last().expect("validated: at least one row");
    let mut e = format!(
        "needs {} IOPS, {} {u} and {} GiB per volume; the largest size {} gives {} IOPS, {} {u}, {} GiB",
        q(need.iops),
        q(need.t),
        q(need.gib),
        last.name,
        q(last.iops),
        q(last.mb_s),
        q(last.gib)
    );
    if let Some(b) = burst_note {
        e.push_str(&format!(" ({b})"));
    }
    Err(e)
}

/// Smallest volume of `spec` that serves `need`, or the limit that prevents it.
pub(super) fn configure_volume(
    spec: &CloudVolumeSpec,
    need: &VolNeed,
) -> Result<VolConfig, String> {
    if let Some(table) = &spec.sizes {
        return configure_row(spec, table, need);
    }
    let u = unit_text(spec);
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
                return Err(format!(
                    "needs {} IOPS per volume > {} per volume",
                    q(need_iops),
                    fmt_trim(*per_volume)
                ));
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
                return Err(format!(
                    "needs {} IOPS per volume > max {} per volume",
                    q(need_iops),
                    fmt_trim(*max)
                ));
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
                        Ok(_) if s_b >= s_sus => notes.push(format!(
                            "burst to {} IOPS not counted: the average load needs a baseline as large as the peak's, so the sustained size is no larger",
                            fmt_trim(b.iops)
                        )),
                        Ok(t) if s_b < s_sus && small_enough => {
                            binding.push(format!(
                                "size {} GiB {t} (sustained {} IOPS would need {} GiB)",
                                fmt_trim(s_b),
                                q(need_iops),
                                fmt_trim(s_sus)
                            ));
                            bursting = true;
                            chosen = Some(s_b);
                        }
                        Ok(_) => {}
                        Err(e) => notes.push(format!(
                            "burst to {} IOPS not counted: {e}; sized on the baseline",
                            fmt_trim(b.iops)
                        )),
                    }
                }
                match chosen {
                    Some(s) => size = s,
                    None => {
                        binding.push(format!(
                            "size raised to {} GiB: {} IOPS per GiB{} for {} IOPS",
                            fmt_trim(s_sus),
                            fmt_trim(*per_gib),
                            if *base > 0.0 {
                                format!(" above a baseline of {}", fmt_trim(*base))
                            } else {
                                String::new()
                            },
                            q(need_iops)
                        ));
                        size = s_sus;
                    }
                }
            }
        }
        IopsModel::SizeTable => unreachable!("size_table tiers have [tier.sizes]"),
        IopsModel::Provisioned { min, max, .. } => {
            let p = ceil_eps(need_iops).max(*min);
            if p > max + EPS {
                return Err(format!(
                    "needs {} IOPS per volume > max {} per volume",
                    q(p),
                    fmt_trim(*max)
                ));
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
                return Err(format!(
                    "needs {} {u} per volume > {} per volume",
                    q(need_mib),
                    fmt_trim(*per_volume_mib_s)
                ));
            }
        }
        ThroughputModel::SizeSteps { steps } => {
            let step = steps
                .iter()
                .find(|s| s.mib_s + EPS >= need_mib)
                .ok_or_else(|| {
                    format!(
                        "needs {} {u} per volume > max {} per volume",
                        q(need_mib),
                        fmt_trim(steps.last().map_or(0.0, |s| s.mib_s))
                    )
                })?;
            if step.min_gib > size {
                binding.push(format!(
                    "size raised to {} GiB: {} {u} needs at least {} GiB",
                    fmt_trim(step.min_gib),
                    q(need_mib),
                    fmt_trim(step.min_gib)
                ));
                size = step.min_gib;
            }
        }
        ThroughputModel::SizeLinear {
            base_mib_s,
            per_gib_mib_s,
            max_mib_s,
        } => {
            if need_mib > max_mib_s + EPS {
                return Err(format!(
                    "needs {} {u} per volume > max {} per volume",
                    q(need_mib),
                    fmt_trim(*max_mib_s)
                ));
            }
            if base_mib_s + per_gib_mib_s * size + EPS < need_mib {
                let s = ceil_eps((need_mib - base_mib_s) / per_gib_mib_s);
                binding.push(format!(
                    "size raised to {} GiB: {} {u} per TiB{} for {} {u}",
                    fmt_trim(s),
                    fmt_num(per_gib_mib_s * 1024.0, 2),
                    if *base_mib_s > 0.0 {
                        format!(" above a baseline of {}", fmt_trim(*base_mib_s))
                    } else {
                        String::new()
                    },
                    q(need_mib)
                ));
                size = s;
            }
        }
        ThroughputModel::SizeTable => unreachable!("size_table tiers have [tier.sizes]"),
        t @ ThroughputModel::PerIops { max_mib_s, .. } => {
            if need_mib > max_mib_s + EPS {
                return Err(format!(
                    "needs {} {u} per volume > max {} per volume",
                    q(need_mib),
                    fmt_trim(*max_mib_s)
                ));
            }
            let cap = |p: f64| t.per_iops_cap(p).unwrap_or(0.0);
            match prov {
                Some(p) if cap(p) + EPS < need_mib => {
                    // Smallest IOPS whose cap covers the need (cap is monotone).
                    if cap(iops_max) + EPS < need_mib {
                        return Err(format!(
                            "needs {} {u} per volume > {} at max IOPS",
                            q(need_mib),
                            q(cap(iops_max))
                        ));
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
                    binding.push(format!(
                        "provisioned IOPS raised from {} to {} for {} {u} (throughput per IOPS)",
                        q(p),
                        q(hi),
                        q(need_mib)
                    ));
                    prov = Some(hi);
                }
                Some(_) => {}
                None => {
                    let delivered = delivered_iops(&spec.iops, size, None);
                    if cap(delivered) + EPS < need_mib {
                        return Err(format!(
                            "needs {} {u} per volume > {} at {} IOPS",
                            q(need_mib),
                            q(cap(delivered)),
                            q(delivered)
                        ));
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
                return Err(format!(
                    "needs {} {u} per volume > max {} per volume",
                    q(need_mib),
                    fmt_trim(*max_mib_s)
                ));
            }
            let iops_now = prov.unwrap_or_else(|| delivered_iops(&spec.iops, size, None));
            if let Some(max_mib_s_per_iops) = max_mib_s_per_iops.filter(|r| m > r * iops_now + EPS)
            {
                let p2 = ceil_eps(m / max_mib_s_per_iops);
                if prov.is_none() || p2 > iops_max + EPS {
                    return Err(format!(
                        "{} {u} per volume needs {} IOPS at {} {u} per IOPS, more than the volume allows",
                        q(m),
                        fmt_num(p2, 0),
                        fmt_trim(max_mib_s_per_iops)
                    ));
                }
                binding.push(format!(
                    "provisioned IOPS raised to {} for {} {u} ({} {u} per IOPS)",
                    fmt_num(p2, 0),
                    q(m),
                    fmt_trim(max_mib_s_per_iops)
                ));
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
                binding.push(format!(
                    "size raised to {} GiB: at most {} IOPS per GiB for {} IOPS",
                    fmt_trim(s),
                    fmt_trim(*max_per_gib),
                    q(p)
                ));
                size = s;
            }
        }
    }

    // 4. Size limit
    if size > spec.volume.max_gib + EPS {
        return Err(format!(
            "needs {} GiB per volume > max {} GiB",
            q(size),
            fmt_trim(spec.volume.max_gib)
        ));
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
