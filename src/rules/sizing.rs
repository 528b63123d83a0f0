//! Configuration and cost of one tier for one workload: drive counts for
//! arrays, volume count / size / provisioned IOPS and throughput for cloud
//! volumes. Formulas and sources: docs/rules.md § Formulas.

use super::eval::{fmt_num, fmt_trim};
use super::schema::{
    CloudPolicy, CloudVolumeSpec, DriveSpec, IopsModel, OnpremPolicy, Platform, RaidSpec,
    ThroughputModel, Tier, VolumeCountPolicy,
};
use super::{CostBreakdown, Demand, TierOption, Unit};

/// Bytes per GB (10^9) and per GiB (2^30).
const GB: f64 = 1e9;
const GIB: f64 = 1_073_741_824.0;
/// Bytes per MB (10^6) and per MiB (2^20).
const MB: f64 = 1e6;
const MIB: f64 = 1_048_576.0;

/// Tolerance for float comparisons against limits (IOPS, MiB/s, GiB).
const EPS: f64 = 1e-9;

/// ceil that ignores float noise just above an integer (8.000000000001 → 8).
pub(crate) fn ceil_eps(x: f64) -> f64 {
    (x - 1e-9 * x.abs().max(1.0)).ceil().max(0.0)
}

/// A quantity for a message: no decimals when (nearly) whole, else 2, so a
/// limit like 100 is never shown as the demand 100.19 rounded to "100".
fn q(x: f64) -> String {
    if (x - x.round()).abs() < 1e-6 {
        fmt_num(x, 0)
    } else {
        fmt_num(x, 2)
    }
}

/// MB/s (10^6 B/s) → MiB/s (2^20 B/s).
pub(crate) fn mb_to_mib(mb_s: f64) -> f64 {
    mb_s * MB / MIB
}

/// The demand after headroom, split for the sizing formulas.
#[derive(Debug, Clone)]
pub(crate) struct Workload {
    /// Required IOPS before headroom.
    pub(crate) required_iops: f64,
    /// required × k.
    pub(crate) sized_iops: f64,
    /// Front-end reads/s after headroom (R of tier-catalog §4.2).
    pub(crate) read_fe: f64,
    /// Front-end writes/s after headroom (W), including any part of required
    /// IOPS beyond read + write (e.g. redo writes).
    pub(crate) write_fe: f64,
    /// (read + write MB/s) × k, MB/s 10^6.
    pub(crate) sized_mb_s: f64,
    /// sized_mb_s in MiB/s.
    pub(crate) sized_mib_s: f64,
    /// Capacity asked for, GiB (None = not given).
    pub(crate) capacity_gib: Option<f64>,
    pub(crate) avg_read_kib: Option<f64>,
    pub(crate) avg_write_kib: Option<f64>,
    /// Notes about how the demand was read (split assumptions, ignored values).
    pub(crate) notes: Vec<String>,
}

fn finite_nonneg(v: f64, name: &str, notes: &mut Vec<String>) -> f64 {
    if v.is_finite() && v >= 0.0 {
        v
    } else {
        notes.push(format!(
            "{name} = {v} is not a finite non-negative number; 0 used"
        ));
        0.0
    }
}

impl Workload {
    /// `dec`: decimals to quote the demand's own figures with (the source's precision).
    pub(crate) fn new(d: &Demand, headroom_pct: f64, dec: usize) -> Workload {
        let mut notes = Vec::new();
        let k = 1.0 + headroom_pct / 100.0;
        let req = finite_nonneg(d.required_iops, "required_iops", &mut notes);
        let r = finite_nonneg(d.read_iops, "read_iops", &mut notes);
        let w = finite_nonneg(d.write_iops, "write_iops", &mut notes);
        let rmb = finite_nonneg(d.read_mb_s, "read_mb_s", &mut notes);
        let wmb = finite_nonneg(d.write_mb_s, "write_mb_s", &mut notes);
        let rw = r + w;
        let (re, we) = if rw <= 0.0 {
            if req > 0.0 {
                notes.push(
                    "read/write split unknown (read_iops + write_iops = 0): all required IOPS treated as writes (worst case for RAID)"
                        .to_string(),
                );
            }
            (0.0, req)
        } else if (req - rw).abs() <= 1e-9 * rw.max(1.0) {
            (r, w)
        } else if req > rw {
            notes.push(format!(
                "required IOPS {} exceed read + write {} by {}: the difference (a formula term such as redo writes) is counted as writes",
                fmt_num(req, dec),
                fmt_num(rw, dec),
                fmt_num(req - rw, dec)
            ));
            (r, w + (req - rw))
        } else {
            let f = req / rw;
            notes.push(format!(
                "required IOPS {} are below read + write {}: reads and writes scaled by {:.4} for the RAID back-end",
                fmt_num(req, dec),
                fmt_num(rw, dec),
                f
            ));
            (r * f, w * f)
        };
        let capacity_gib = match d.capacity_gib {
            Some(c) if c.is_finite() && c > 0.0 => Some(c),
            Some(c) => {
                notes.push(format!(
                    "capacity_gib = {c} ignored (not a positive number)"
                ));
                None
            }
            None => None,
        };
        let sized_mb_s = (rmb + wmb) * k;
        Workload {
            required_iops: req,
            sized_iops: req * k,
            read_fe: re * k,
            write_fe: we * k,
            sized_mb_s,
            sized_mib_s: mb_to_mib(sized_mb_s),
            capacity_gib,
            avg_read_kib: d.avg_read_kib.filter(|x| x.is_finite() && *x > 0.0),
            avg_write_kib: d.avg_write_kib.filter(|x| x.is_finite() && *x > 0.0),
            notes,
        }
    }
}

fn base_option(tier: &Tier, unit: Unit) -> TierOption {
    TierOption {
        tier_id: tier.id.clone(),
        name: tier.name.clone(),
        platform: tier.platform.clone(),
        media: tier.media.clone(),
        latency: tier.latency.clone(),
        feasible: false,
        infeasible_reason: None,
        unit,
        count: 0,
        size_per_unit_gib: 0.0,
        total_gib: 0.0,
        usable_gib: 0.0,
        iops_capability: 0.0,
        provisioned_iops: None,
        provisioned_iops_per_unit: None,
        throughput_mib_s: None,
        throughput_mib_s_per_unit: None,
        backend_iops: None,
        counted_iops: None,
        drives_for_iops: None,
        drives_for_capacity: None,
        monthly_cost_usd: None,
        cost_breakdown: None,
        cost_note: None,
        binding_limits: Vec::new(),
        notes: tier.notes.clone(),
        rule_score: 0,
        preferred_by: Vec::new(),
        avoided_by: Vec::new(),
        sources: tier.sources(),
    }
}

/// Size an on-premises drive array (tier-catalog §4.2):
/// back-end = R × (1 − array read hit) + W × (1 − write coalescing) × penalty;
/// drives for IOPS = ceil(back-end / drive IOPS); drives for capacity =
/// whole groups × group width; then at least `min_drives`, rounded up to a
/// multiple of `group_width`. Cost: none (no public list price).
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
    let n_cap = w
        .capacity_gib
        .map(|c| ceil_eps(c / usable_per_group) * width);
    let raw = n_iops
        .max(n_cap.unwrap_or(0.0))
        .max(f64::from(raid.min_drives));
    let n = ceil_eps(raw / width) * width;

    let fe = w.read_fe + w.write_fe;
    o.backend_iops = Some(backend);
    o.drives_for_iops = Some(n_iops as u32);
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
    o.cost_note = Some("no public list price for on-premises arrays".to_string());

    let read_part = if hit > 0.0 {
        format!(
            "{} reads × (1 − {} array read hit)",
            fmt_num(w.read_fe, 2),
            fmt_trim(hit)
        )
    } else {
        format!("{} reads", fmt_num(w.read_fe, 2))
    };
    let write_part = if coalesce > 0.0 {
        format!(
            "{} writes × (1 − {} coalescing) × {}",
            fmt_num(w.write_fe, 2),
            fmt_trim(coalesce),
            fmt_trim(raid.write_penalty)
        )
    } else {
        format!(
            "{} writes × {}",
            fmt_num(w.write_fe, 2),
            fmt_trim(raid.write_penalty)
        )
    };
    let iops_text = format!(
        "IOPS: back-end {read_part} + {write_part} = {} IOPS / {} IOPS per drive = {} drives",
        fmt_num(backend, 2),
        fmt_trim(drive.iops),
        n_iops
    );
    let cap_text = n_cap.map(|nc| {
        format!(
            "capacity: {} GiB / {} GiB usable per {}-drive group = {} drives",
            fmt_num(w.capacity_gib.unwrap_or(0.0), 0),
            fmt_num(usable_per_group, 1),
            raid.group_width,
            nc
        )
    });
    let min = f64::from(raid.min_drives);
    if n_iops >= n_cap.unwrap_or(0.0) && n_iops >= min {
        o.binding_limits.push(iops_text);
    } else if n_cap.unwrap_or(0.0) > n_iops && n_cap.unwrap_or(0.0) >= min {
        o.binding_limits.extend(cap_text);
    } else {
        o.binding_limits.push(format!(
            "minimum {} drives for {} (IOPS alone need {n_iops})",
            raid.min_drives, raid.level
        ));
    }
    if n > raw {
        o.binding_limits.push(format!(
            "rounded up from {raw} to whole {}-drive {} groups",
            raid.group_width, raid.level
        ));
    }
    if drive.size_is_assumption {
        o.notes.push(format!(
            "drive size {} GB is an assumption (set [tier.drive].size_gb in a --rules copy)",
            fmt_trim(drive.size_gb)
        ));
    }
    if w.capacity_gib.is_none() {
        o.notes
            .push("capacity not given: drives counted for IOPS only".to_string());
    }
    o.notes
        .push("throughput (MB/s) per drive is not modelled (no sourced figure)".to_string());
    if n > f64::from(policy.max_drives) {
        o.infeasible_reason = Some(format!(
            "needs {} drives > max_drives {} ([onprem] in sizing.toml)",
            n, policy.max_drives
        ));
    } else {
        o.feasible = true;
    }
    o
}

/// One volume of a cloud configuration.
#[derive(Debug, Clone)]
struct VolConfig {
    size_gib: f64,
    /// IOPS the volume delivers (provisioned, size-driven or fixed).
    iops: f64,
    /// True when `iops` are provisioned (billed).
    iops_provisioned: bool,
    /// MiB/s the volume delivers (provisioned or cap).
    mib_s: f64,
    /// True when `mib_s` is provisioned (billed above the included amount).
    mib_s_provisioned: bool,
    /// True when provisioned IOPS were raised above the IOPS need only to reach the throughput
    /// (io1: MiB/s per provisioned IOPS); striping may then be cheaper.
    iops_raised_for_throughput: bool,
    binding: Vec<String>,
}

/// Smallest volume of `spec` that serves `need_iops` IOPS, `need_mib` MiB/s
/// and `need_gib` GiB, or the limit that prevents it.
fn configure_volume(
    spec: &CloudVolumeSpec,
    need_iops: f64,
    need_mib: f64,
    need_gib: f64,
) -> Result<VolConfig, String> {
    let mut binding = Vec::new();
    let mut raised_for_throughput = false;
    let mut size = ceil_eps(need_gib).max(spec.volume.min_gib);
    let mut prov: Option<f64> = None;

    // 1. IOPS
    match spec.iops {
        IopsModel::Fixed { per_volume } => {
            if need_iops > per_volume + EPS {
                return Err(format!(
                    "needs {} IOPS per volume > {} per volume",
                    q(need_iops),
                    fmt_trim(per_volume)
                ));
            }
        }
        IopsModel::SizeDriven { per_gib, min, max } => {
            if need_iops > max + EPS {
                return Err(format!(
                    "needs {} IOPS per volume > max {} per volume",
                    q(need_iops),
                    fmt_trim(max)
                ));
            }
            if need_iops > min {
                let s = ceil_eps(need_iops / per_gib);
                if s > size {
                    binding.push(format!(
                        "size raised to {} GiB: {} IOPS per GiB for {} IOPS",
                        fmt_trim(s),
                        fmt_trim(per_gib),
                        q(need_iops)
                    ));
                    size = s;
                }
            }
        }
        IopsModel::Provisioned { min, max, .. } => {
            let p = ceil_eps(need_iops).max(min);
            if p > max + EPS {
                return Err(format!(
                    "needs {} IOPS per volume > max {} per volume",
                    q(p),
                    fmt_trim(max)
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
                    "needs {} MiB/s per volume > {} per volume",
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
                        "needs {} MiB/s per volume > max {} per volume",
                        q(need_mib),
                        fmt_trim(steps.last().map_or(0.0, |s| s.mib_s))
                    )
                })?;
            if step.min_gib > size {
                binding.push(format!(
                    "size raised to {} GiB: {} MiB/s needs at least {} GiB",
                    fmt_trim(step.min_gib),
                    q(need_mib),
                    fmt_trim(step.min_gib)
                ));
                size = step.min_gib;
            }
        }
        t @ ThroughputModel::PerIops { max_mib_s, .. } => {
            if need_mib > max_mib_s + EPS {
                return Err(format!(
                    "needs {} MiB/s per volume > max {} per volume",
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
                            "needs {} MiB/s per volume > {} at max IOPS",
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
                        "provisioned IOPS raised from {} to {} for {} MiB/s (throughput per IOPS)",
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
                            "needs {} MiB/s per volume > {} at {} IOPS",
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
                    "needs {} MiB/s per volume > max {} per volume",
                    q(need_mib),
                    fmt_trim(*max_mib_s)
                ));
            }
            let iops_now = prov.unwrap_or_else(|| delivered_iops(&spec.iops, size, None));
            if m > max_mib_s_per_iops * iops_now + EPS {
                let p2 = ceil_eps(m / max_mib_s_per_iops);
                if prov.is_none() || p2 > iops_max + EPS {
                    return Err(format!(
                        "{} MiB/s per volume needs {} IOPS at {} MiB/s per IOPS, more than the volume allows",
                        q(m),
                        fmt_num(p2, 0),
                        fmt_trim(*max_mib_s_per_iops)
                    ));
                }
                binding.push(format!(
                    "provisioned IOPS raised to {} for {} MiB/s ({} MiB/s per IOPS)",
                    fmt_num(p2, 0),
                    q(m),
                    fmt_trim(*max_mib_s_per_iops)
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
            max_per_gib,
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
    let mib_s = match &spec.throughput {
        ThroughputModel::Fixed { per_volume_mib_s } => *per_volume_mib_s,
        ThroughputModel::SizeSteps { steps } => steps
            .iter()
            .rev()
            .find(|s| s.min_gib <= size + EPS)
            .or(steps.first())
            .map_or(0.0, |s| s.mib_s),
        t @ ThroughputModel::PerIops { .. } => t.per_iops_cap(iops).unwrap_or(0.0),
        ThroughputModel::Provisioned { .. } => prov_mib.unwrap_or(0.0),
    };
    Ok(VolConfig {
        size_gib: size,
        iops,
        iops_provisioned: prov.is_some(),
        mib_s,
        mib_s_provisioned: prov_mib.is_some(),
        iops_raised_for_throughput: raised_for_throughput,
        binding,
    })
}

fn delivered_iops(m: &IopsModel, size: f64, prov: Option<f64>) -> f64 {
    match *m {
        IopsModel::Fixed { per_volume } => per_volume,
        IopsModel::SizeDriven { per_gib, min, max } => (per_gib * size).clamp(min, max),
        IopsModel::Provisioned { min, .. } => prov.unwrap_or(min),
    }
}

/// Monthly cost of one volume (storage, IOPS, throughput), USD.
fn volume_cost(spec: &CloudVolumeSpec, v: &VolConfig) -> (f64, f64, f64) {
    let storage = v.size_gib * spec.price.gib_month;
    let iops = match spec.iops {
        IopsModel::Provisioned { included, .. } if v.iops_provisioned => {
            spec.price.iops_cost(v.iops, included)
        }
        _ => 0.0,
    };
    let thr = match spec.throughput {
        ThroughputModel::Provisioned { included_mib_s, .. } if v.mib_s_provisioned => {
            (v.mib_s - included_mib_s).max(0.0) * spec.price.mib_s_month.unwrap_or(0.0)
        }
        _ => 0.0,
    };
    (storage, iops, thr)
}

/// Size a cloud volume tier: try 1..=max_volumes equal volumes, each serving
/// 1/n of the counted IOPS, MiB/s and capacity; keep the fewest (or cheapest)
/// that fits. I/O request charges = per_million_io × required IOPS × seconds
/// per month / 10^6 (no headroom: it bills actual requests).
pub(crate) fn size_cloud(
    tier: &Tier,
    spec: &CloudVolumeSpec,
    platform: Option<&Platform>,
    policy: &CloudPolicy,
    hours_per_month: f64,
    w: &Workload,
) -> TierOption {
    let mut o = base_option(tier, Unit::Volume);

    // IO-size accounting: requests larger than the IO unit count as several.
    let mut counted = w.sized_iops;
    if let Some(unit) = spec.volume.io_unit_kib {
        let mut extra = 0.0;
        for (avg, rate, what) in [
            (w.avg_read_kib, w.read_fe, "read"),
            (w.avg_write_kib, w.write_fe, "write"),
        ] {
            if let Some(a) = avg.filter(|a| *a > unit) {
                let parts = ceil_eps(a / unit);
                extra += (parts - 1.0) * rate;
                o.notes.push(format!(
                    "average {what} {} KiB > {} KiB IO unit: each {what} counts as {} requests",
                    fmt_num(a, 1),
                    fmt_trim(unit),
                    fmt_trim(parts)
                ));
            }
        }
        if extra > 0.0 {
            counted += extra;
            o.counted_iops = Some(counted);
        }
    }
    if w.capacity_gib.is_none() {
        o.notes.push(
            "capacity not given: volume size is the minimum that reaches the IOPS and throughput - add your data size"
                .to_string(),
        );
    }

    // Host (instance) caps of the platform.
    if let Some(p) = platform {
        if let Some(max) = p.instance_max_iops.filter(|m| counted > *m + EPS) {
            o.infeasible_reason = Some(format!(
                "needs {} IOPS > {} IOPS, the most one {} host can drive (platform cap)",
                q(counted),
                fmt_trim(max),
                p.id
            ));
            return o;
        }
        if let Some(max) = p.instance_max_mb_s.filter(|m| w.sized_mb_s > *m + EPS) {
            o.infeasible_reason = Some(format!(
                "needs {} MB/s > {} MB/s, the most one {} host can drive (platform cap)",
                q(w.sized_mb_s),
                fmt_trim(max),
                p.id
            ));
            return o;
        }
    }

    let cap = w.capacity_gib.unwrap_or(0.0);
    let max_n = policy.max_volumes.max(1);
    let mut best: Option<(u32, VolConfig, f64)> = None;
    let mut last_err = String::new();
    let mut prev_err: Option<String> = None;
    let mut err_before_best: Option<String> = None;
    for n in 1..=max_n {
        let nf = f64::from(n);
        match configure_volume(spec, counted / nf, w.sized_mib_s / nf, cap / nf) {
            Ok(v) => {
                let raised = v.iops_raised_for_throughput;
                let (s, i, t) = volume_cost(spec, &v);
                let total = nf * (s + i + t);
                let better = match &best {
                    None => true,
                    Some((_, _, c)) => total < *c - 1e-9,
                };
                if better {
                    err_before_best = prev_err.clone();
                    best = Some((n, v, total));
                }
                // "fewest" stops at the first count that fits, unless that count only fits by
                // buying IOPS for throughput: then more volumes may cost less.
                if policy.volume_count == VolumeCountPolicy::Fewest && !raised {
                    break;
                }
            }
            Err(e) => {
                prev_err = Some(e.clone());
                last_err = e;
            }
        }
    }
    let Some((n, v, _)) = best else {
        o.infeasible_reason = Some(if max_n > 1 {
            format!("even striped across {max_n} volumes (cloud.max_volumes): {last_err}")
        } else {
            last_err
        });
        return o;
    };

    let nf = f64::from(n);
    let (s, i, t) = volume_cost(spec, &v);
    let io_requests = spec
        .price
        .per_million_io
        .map(|p| p * w.required_iops * hours_per_month * 3600.0 / 1e6)
        .unwrap_or(0.0);
    let breakdown = CostBreakdown {
        storage_usd: nf * s,
        iops_usd: nf * i,
        throughput_usd: nf * t,
        io_requests_usd: io_requests,
    };
    o.feasible = true;
    o.count = n;
    o.size_per_unit_gib = v.size_gib;
    o.total_gib = nf * v.size_gib;
    o.usable_gib = o.total_gib;
    o.iops_capability = nf * v.iops;
    o.provisioned_iops = Some(nf * v.iops);
    o.provisioned_iops_per_unit = Some(v.iops);
    o.throughput_mib_s = Some(nf * v.mib_s);
    o.throughput_mib_s_per_unit = Some(v.mib_s);
    o.monthly_cost_usd =
        Some(breakdown.storage_usd + breakdown.iops_usd + breakdown.throughput_usd + io_requests);
    o.cost_breakdown = Some(breakdown);
    if n > 1 {
        match (&policy.volume_count, err_before_best) {
            (VolumeCountPolicy::Fewest, Some(e)) => o.binding_limits.push(format!(
                "striped across {n} volumes: with {} volume(s): {e}",
                n - 1
            )),
            (VolumeCountPolicy::Fewest, None) => o.binding_limits.push(format!(
                "striped across {n} volumes: fewer volumes fit only by provisioning IOPS for throughput, at a higher cost"
            )),
            _ => o
                .binding_limits
                .push(format!("striped across {n} volumes (cheapest count)")),
        }
    }
    o.binding_limits.extend(v.binding);
    if w.capacity_gib.is_some() && o.binding_limits.is_empty() {
        o.binding_limits
            .push("capacity: volume size set by the data size".to_string());
    }
    o
}
