//! Configuration and cost of one tier for one workload: drive counts for
//! arrays, volume count / size / provisioned IOPS and throughput for cloud
//! volumes. Formulas and sources: docs/rules.md § Formulas.

use super::eval::{fmt_num, fmt_trim};
use super::schema::{
    CloudPolicy, CloudVolumeSpec, DriveSpec, Instance, IopsModel, OnpremPolicy, Platform, RaidSpec,
    SizeRow, SizeTable, ThroughputModel, Tier, VolumeCountPolicy,
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

/// `$1,234.56/month`.
fn usd_month(x: f64) -> String {
    format!("${}/month", fmt_num(x, 2))
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
    /// Minutes the sized load lasts ([`Demand::peak_minutes`]).
    pub(crate) peak_minutes: Option<f64>,
    /// Long-run average IOPS × headroom factor ([`Demand::mean_iops`]).
    pub(crate) mean_iops: Option<f64>,
    /// Measured read and write requests/s, without headroom or formula margin (for
    /// per-request charges).
    pub(crate) measured_rw: (f64, f64),
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
            peak_minutes: d.peak_minutes.filter(|x| x.is_finite() && *x > 0.0),
            mean_iops: d
                .mean_iops
                .filter(|x| x.is_finite() && *x >= 0.0)
                .map(|m| m * k),
            measured_rw: if rw > 0.0 { (r, w) } else { (0.0, req) },
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
        size_name: None,
        bursting: false,
        latency_ms: None,
        latency_check: Vec::new(),
        lost_because: None,
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

/// What one volume of an n-volume stripe must deliver.
#[derive(Debug, Clone, Copy)]
struct VolNeed {
    /// Counted IOPS per volume.
    iops: f64,
    /// Throughput per volume, in the tier's unit (MiB/s, or MB/s when
    /// `throughput_decimal`).
    t: f64,
    /// GiB per volume.
    gib: f64,
    /// Seconds the sized load lasts (burst check); `None` = unknown.
    peak_s: Option<f64>,
    /// Long-run average IOPS per volume after headroom (burst refill check).
    mean_iops: Option<f64>,
}

/// One volume of a cloud configuration.
#[derive(Debug, Clone)]
struct VolConfig {
    size_gib: f64,
    /// IOPS the volume sustains (provisioned, size-driven, fixed or its size row).
    iops: f64,
    /// True when `iops` are provisioned (billed).
    iops_provisioned: bool,
    /// Throughput the volume delivers, in the tier's unit.
    t: f64,
    /// True when `t` is provisioned (billed above the included amount).
    t_provisioned: bool,
    /// True when provisioned IOPS were raised above the IOPS need only to reach the throughput
    /// (io1: MiB/s per provisioned IOPS); striping may then be cheaper.
    iops_raised_for_throughput: bool,
    /// The `[tier.sizes]` row chosen (fixed-size tiers).
    row: Option<SizeRow>,
    /// True when the configuration relies on credit bursting for the peak.
    bursting: bool,
    binding: Vec<String>,
    notes: Vec<String>,
}

/// Whether a credit bucket of `credits` covers a peak of `need` IOPS on a volume whose
/// sustained rate is `baseline` (AWS-GP: duration = credits / (burst IOPS − baseline), with the
/// demand in place of the burst ceiling): `Ok(explanation)` or `Err(why not)`.
fn burst_covers(
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

fn unit_text(spec: &CloudVolumeSpec) -> &'static str {
    if spec.throughput_decimal {
        "MB/s"
    } else {
        "MiB/s"
    }
}

/// Smallest `[tier.sizes]` row that holds `need` (sustained IOPS, or a burst that covers the
/// peak).
fn configure_row(
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
fn configure_volume(spec: &CloudVolumeSpec, need: &VolNeed) -> Result<VolConfig, String> {
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

fn delivered_iops(m: &IopsModel, size: f64, prov: Option<f64>) -> f64 {
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
fn volume_cost(spec: &CloudVolumeSpec, v: &VolConfig) -> Option<(f64, f64, f64)> {
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

/// Size a cloud volume tier: try 1..=max_volumes equal volumes, each serving
/// 1/n of the counted IOPS, throughput and capacity; keep the fewest (or cheapest)
/// that fits. Tiers whose performance belongs to the VM (`per_vm_pool`) get one
/// volume. I/O request charges = per_million_io × required IOPS × seconds
/// per month / 10^6 (no headroom: it bills actual requests).
pub(crate) fn size_cloud(
    tier: &Tier,
    spec: &CloudVolumeSpec,
    platform: Option<&Platform>,
    instance: Option<&Instance>,
    policy: &CloudPolicy,
    hours_per_month: f64,
    w: &Workload,
) -> TierOption {
    let mut o = base_option(tier, Unit::Volume);
    let u = unit_text(spec);
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
        for (avg, rate, what) in [
            (w.avg_read_kib, w.read_fe, "read"),
            (w.avg_write_kib, w.write_fe, "write"),
        ] {
            if let Some(a) = avg.filter(|a| *a > unit) {
                let parts = ceil_eps(a / unit);
                if what == "read" {
                    parts_rw.0 = parts;
                } else {
                    parts_rw.1 = parts;
                }
                extra += (parts - 1.0) * rate;
                o.notes.push(format!(
                    "average {what} {} KiB > {} KiB IO unit: each {what} counts as {} requests (from the average size: a mix of small and large requests counts differently, by about ±20 %)",
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
        if spec.volume.small_io_counts_full_unit {
            let unit_t = unit * 1024.0 / if spec.throughput_decimal { MB } else { MIB };
            let t_units = counted * unit_t;
            if t_units > need_t + EPS {
                o.binding_limits.push(format!(
                    "each IO of up to {} KiB counts as a full {} KiB unit: {} IOPS use {} {u} of the volume's throughput (measured {} {u}; merging of sequential IOs not assumed)",
                    fmt_trim(unit),
                    fmt_trim(unit),
                    q(counted),
                    q(t_units),
                    q(need_t)
                ));
                need_t = t_units;
            }
        }
    }
    if spec.volume.io_unit_kib.is_none()
        && [w.avg_read_kib, w.avg_write_kib]
            .iter()
            .any(|a| a.is_some_and(|k| k > 256.0))
    {
        o.notes.push(
            "large requests are counted one each: the catalogue's sources give no IO unit for this tier"
                .to_string(),
        );
    }
    if w.capacity_gib.is_none() {
        o.notes.push(
            "capacity not given: volume size is the minimum that reaches the IOPS and throughput - add your data size"
                .to_string(),
        );
    }

    // Host (instance) caps.
    if let Some(i) = instance {
        if i.tiers_unavailable.iter().any(|t| t == &tier.id) {
            o.infeasible_reason = Some(format!(
                "{} cannot attach this tier ({})",
                i.id,
                i.source.split(';').next().unwrap_or(&i.source).trim()
            ));
            return o;
        }
        let (max_iops, max_mb_s) = i.caps_for(&tier.id);
        if counted > max_iops + EPS {
            o.infeasible_reason = Some(format!(
                "needs {} IOPS > {} IOPS, the most one {} can drive (instance cap)",
                q(counted),
                q(max_iops),
                i.id
            ));
            return o;
        }
        if w.sized_mb_s > max_mb_s + EPS {
            o.infeasible_reason = Some(format!(
                "needs {} MB/s > {} MB/s, the most one {} can drive (instance cap)",
                q(w.sized_mb_s),
                q(max_mb_s),
                i.id
            ));
            return o;
        }
        o.binding_limits.push(format!(
            "within the {} cap of {} IOPS and {} MB/s",
            i.id,
            fmt_trim(max_iops),
            fmt_trim(max_mb_s)
        ));
    } else if let Some(p) = platform {
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
    let max_n = if spec.volume.per_vm_pool {
        1
    } else {
        policy.max_volumes.max(1)
    };
    let mut best: Option<(u32, VolConfig, f64)> = None;
    // The fewest volumes that fit, and the error of the count below them.
    let mut first: Option<(u32, VolConfig, f64)> = None;
    let mut err_before_first: Option<String> = None;
    let mut last_err = String::new();
    let mut prev_err: Option<String> = None;
    let mut err_before_best: Option<String> = None;
    // Every count that fits, with its cost and the error of the count below it.
    let mut fits: Vec<(u32, VolConfig, f64, Option<String>)> = Vec::new();
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
                let raised = v.iops_raised_for_throughput;
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
                last_err = e;
            }
        }
    }
    // "cheapest" takes the fewest volumes whose cost is within min_saving_pct of the cheapest
    // count: (fewest-fit n, its cost, chosen cost, cheapest n, cheapest cost).
    let mut saving: Option<(u32, f64, f64, u32, f64)> = None;
    // Without a data size every volume is a minimum-size one, and a stripe of them would be an
    // artefact of the missing capacity: the fewest volumes that fit are kept.
    let cheapest = policy.volume_count == VolumeCountPolicy::Cheapest && w.capacity_gib.is_some();
    if policy.volume_count == VolumeCountPolicy::Cheapest && !cheapest {
        // As "fewest": the first count that fits, unless it fits only by buying IOPS for
        // throughput (then the cheapest count, as the loop found).
        if let Some((fn_, fv, fc)) = &first {
            if !fv.iops_raised_for_throughput {
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
        o.infeasible_reason = Some(if max_n > 1 {
            format!("even striped across {max_n} volumes (cloud.max_volumes): {last_err}")
        } else if spec.volume.per_vm_pool {
            format!("{last_err} (performance is per VM: striping does not add to it)")
        } else {
            last_err
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
                o.binding_limits.push(format!(
                    "requests billed: {} measured requests/s in IO units × 3,600 × {} h",
                    q(billed),
                    fmt_trim(hours_per_month)
                ));
            }
            o.cost_breakdown = Some(breakdown);
        }
        None => {
            o.cost_note = Some(match (&v.row, &spec.price.no_list_price) {
                (Some(r), _) => format!("no list price for size {} in the catalogue", r.name),
                (None, Some(why)) => why.clone(),
                (None, None) => "no list price in the catalogue".to_string(),
            });
        }
    }
    if let Some((fn_, fc, c, bn, bc)) = saving {
        let tail = if bn == n {
            "the cheapest count".to_string()
        } else {
            format!(
                "the fewest within {} % of the cheapest count ({bn} volumes, {})",
                fmt_trim(policy.min_saving_pct),
                usd_month(bc)
            )
        };
        o.binding_limits.push(format!(
            "striped across {n} volumes: {} % cheaper than the fewest that fit ({fn_} volume{}: {} vs {}); {tail} (cloud.min_saving_pct)",
            fmt_num((1.0 - c / fc) * 100.0, 0),
            if fn_ == 1 { "" } else { "s" },
            usd_month(c),
            usd_month(fc),
        ));
    } else if n > 1 {
        match (cheapest, err_before_best) {
            (false, Some(e)) => o.binding_limits.push(format!(
                "striped across {n} volumes: with {} volume(s): {e}",
                n - 1
            )),
            (false, None) => o.binding_limits.push(format!(
                "striped across {n} volumes: fewer volumes fit only by provisioning IOPS for throughput, at a higher cost"
            )),
            (true, Some(e)) => o.binding_limits.push(format!(
                "striped across {n} volumes, the fewest that fit: with {} volume(s): {e}",
                n - 1
            )),
            (true, None) => o
                .binding_limits
                .push(format!("striped across {n} volumes (cheapest count)")),
        }
    }
    if spec.volume.per_vm_pool {
        o.notes.push(
            "performance is per VM (baseline + per-GiB rate of all volumes of this type, up to the VM's cap): one volume of the total size is shown; splitting it changes nothing"
                .to_string(),
        );
        match instance {
            // What the VM delivers: the size's rate, up to the VM's cap.
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
            None => o.notes.push(
                "its IOPS and MiB/s maximums are the best case per VM (the largest machine types); smaller VMs cap lower: give --instance"
                    .to_string(),
            ),
        }
    }
    o.binding_limits.extend(v.binding);
    o.notes.extend(v.notes);
    if w.capacity_gib.is_some() && o.binding_limits.is_empty() {
        o.binding_limits
            .push("capacity: volume size set by the data size".to_string());
    }
    o
}
