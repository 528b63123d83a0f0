//! Configuration and cost of one tier for one workload: drive counts for
//! arrays, volume count / size / provisioned IOPS and throughput for cloud
//! volumes. Formulas and sources: docs/rules.md § Formulas.
//!
//! `onprem::size_drive_array_sizes` counts the drives of an on-premises array (IOPS, MB/s and
//! capacity) on each catalogued capacity of the drive class and keeps the fewest; `cloud::size_cloud` tries 1..n equal volumes, each configured by `volume` (size,
//! provisioned IOPS and throughput, burst, cost).

mod cloud;
mod host;
mod onprem;
mod volume;

#[cfg(test)]
pub(crate) use cloud::saving_pct;
pub(crate) use cloud::size_cloud;
pub(crate) use host::smallest_per_family;
pub(crate) use onprem::size_drive_array_sizes;

use crate::rules::findings::{
    Binding, BurstCovers, BurstRefused, CostNote, Infeasible, IoKind, Note, RowShort,
    SizeRowFigures, SizingNote, ThroughputUnit,
};
use crate::rules::schema::{
    CloudPolicy, CloudVolumeSpec, DriveSpec, Instance, IopsModel, OnpremPolicy, Platform, RaidSpec,
    SizeRow, SizeTable, ThroughputModel, Tier, VolumeCountPolicy,
};
use crate::rules::{CostBreakdown, Demand, OptionNote, TierOption, Unit};

/// Bytes per GB (10^9) and per GiB (2^30).
pub(super) const GB: f64 = 1e9;
pub(super) const GIB: f64 = 1_073_741_824.0;
/// Bytes per MB (10^6) and per MiB (2^20).
pub(super) const MB: f64 = 1e6;
pub(super) const MIB: f64 = 1_048_576.0;

/// Tolerance for float comparisons against limits (IOPS, MiB/s, GiB).
pub(super) const EPS: f64 = 1e-9;

/// ceil that ignores float noise just above an integer (8.000000000001 → 8), never below 0
/// and never −0 (0 − ε rounds up to −0.0, which `max` may keep and a report prints as "-0";
/// adding +0.0 makes it +0.0).
pub(crate) fn ceil_eps(x: f64) -> f64 {
    (x - 1e-9 * x.abs().max(1.0)).ceil().max(0.0) + 0.0
}

#[cfg(test)]
mod ceil_tests {
    use super::ceil_eps;

    #[test]
    fn ceil_eps_of_zero_is_positive_zero() {
        // A load of 0 IOPS needs 0 drives for its IOPS: printed "0", not "-0".
        assert!(ceil_eps(0.0).is_sign_positive());
        assert_eq!(format!("{}", ceil_eps(0.0)), "0");
        assert_eq!(ceil_eps(8.000000000001), 8.0);
        assert_eq!(ceil_eps(8.1), 9.0);
        assert_eq!(ceil_eps(-3.0), 0.0);
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
    /// Read MB/s × k (10^6 B/s).
    pub(crate) read_mb_s: f64,
    /// Write MB/s × k (10^6 B/s).
    pub(crate) write_mb_s: f64,
    /// sized_mb_s in MiB/s.
    pub(crate) sized_mib_s: f64,
    /// Some throughput is known: when not, `sized_mb_s` is 0 only so that no tier is refused on
    /// it, and the recommendation's `sized_mb_s` is `None` ([`Note::ThroughputUnknown`]).
    pub(crate) throughput_known: bool,
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
    pub(crate) notes: Vec<Note>,
}

/// A demand figure that may be unknown: a finite number >= 0, else unknown with a note (never 0).
fn known_nonneg(v: Option<f64>, name: &str, notes: &mut Vec<Note>) -> Option<f64> {
    let v = v?;
    if v.is_finite() && v >= 0.0 {
        Some(v)
    } else {
        notes.push(Note::NotFiniteNonNegative {
            name: name.to_string(),
            value: v,
        });
        None
    }
}

pub(super) fn finite_nonneg(v: f64, name: &str, notes: &mut Vec<Note>) -> f64 {
    if v.is_finite() && v >= 0.0 {
        v
    } else {
        notes.push(Note::NotFiniteNonNegative {
            name: name.to_string(),
            value: v,
        });
        0.0
    }
}

impl Workload {
    /// `dec`: decimals to quote the demand's own figures with (the source's precision).
    pub(crate) fn new(d: &Demand, headroom_pct: f64, dec: usize) -> Workload {
        let mut notes = Vec::new();
        let k = 1.0 + headroom_pct / 100.0;
        // The engine sizes only a known, finite figure (`sizing::size`); unknown here is 0 with
        // the note saying so.
        let req = finite_nonneg(
            d.required_iops.unwrap_or(f64::NAN),
            "required_iops",
            &mut notes,
        );
        let r = known_nonneg(d.read_iops, "read_iops", &mut notes);
        let w = known_nonneg(d.write_iops, "write_iops", &mut notes);
        let rmb = known_nonneg(d.read_mb_s, "read_mb_s", &mut notes);
        let wmb = known_nonneg(d.write_mb_s, "write_mb_s", &mut notes);
        // An unknown split counts every request as a write (below); an unknown part of the
        // throughput is left out of the throughput checks and said so, never taken as 0 MB/s.
        let (r, w) = match (r, w) {
            (Some(r), Some(w)) => (r, w),
            _ => (0.0, 0.0),
        };
        if rmb.is_none() || wmb.is_none() {
            notes.push(Note::ThroughputUnknown {
                read_known: rmb.is_some(),
                write_known: wmb.is_some(),
            });
        }
        let throughput_known = rmb.is_some() || wmb.is_some();
        let (rmb, wmb) = (rmb.unwrap_or(0.0), wmb.unwrap_or(0.0));
        let rw = r + w;
        let (re, we) = if rw <= 0.0 {
            if req > 0.0 {
                notes.push(Note::SplitUnknownAllWrites);
            }
            (0.0, req)
        } else if (req - rw).abs() <= 1e-9 * rw.max(1.0) {
            (r, w)
        } else if req > rw {
            notes.push(Note::RequiredAboveReadWrite {
                required: req,
                read_write: rw,
                decimals: dec as u32,
            });
            (r, w + (req - rw))
        } else {
            let f = req / rw;
            notes.push(Note::RequiredBelowReadWrite {
                required: req,
                read_write: rw,
                decimals: dec as u32,
                factor: f,
            });
            (r * f, w * f)
        };
        let capacity_gib = match d.capacity_gib {
            Some(c) if c.is_finite() && c > 0.0 => Some(c),
            Some(c) => {
                notes.push(Note::CapacityIgnored { given: c });
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
            read_mb_s: rmb * k,
            write_mb_s: wmb * k,
            sized_mib_s: mb_to_mib(sized_mb_s),
            throughput_known,
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

pub(super) fn base_option(tier: &Tier, unit: Unit) -> TierOption {
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
        drives_for_mb_s: None,
        backend_mb_s: None,
        drives_set_by: None,
        monthly_cost_usd: None,
        cost_breakdown: None,
        cost_note: None,
        binding_limits: Vec::new(),
        notes: tier
            .notes
            .iter()
            .cloned()
            .map(OptionNote::Catalogue)
            .collect(),
        rule_score: 0,
        preferred_by: Vec::new(),
        avoided_by: Vec::new(),
        sources: tier.sources.clone(),
        hosts: Vec::new(),
    }
}
