//! The VM-size answer of a cloud tier: per host family (general purpose, memory optimised,
//! storage optimised), the smallest catalogued `[[instance]]` that can attach the tier and drive
//! the demand to it.
//!
//! A host drives the demand to a tier when the tier is not in its `tiers_unavailable` and the
//! counted IOPS and the sized MB/s are each at most its cap for that tier
//! ([`Instance::caps_for`]: the tier's own `tier_caps` entry, else `max_iops` / `max_mb_s`).
//! A host that can attach the tier but whose cap for it is unknown (`tier_caps_unknown`) is
//! never picked: it is listed in [`HostChoice::cap_unknown`] (and in the infeasible reason),
//! so the answer says which hosts were not counted, rather than guess a figure.
//! "Smallest" = fewest vCPUs, then least memory (unknown after known), then the lowest MB/s and
//! IOPS caps, then the id: the cheapest-looking host that is large enough, without prices.

use std::cmp::Ordering;

use crate::rules::findings::Infeasible;
use crate::rules::schema::{HostFamily, Instance};
use crate::rules::{HostChoice, HostFit};

use super::EPS;

/// `i`'s caps for `tier` (`None` = the host's overall caps), or `None` when it cannot attach it
/// or its cap for it is unknown.
fn caps(i: &Instance, tier: Option<&str>) -> Option<(f64, f64)> {
    match tier {
        Some(t) if i.tiers_unavailable.iter().any(|u| u == t) || i.cap_unknown(t) => None,
        Some(t) => Some(i.caps_for(t)),
        None => Some((i.max_iops, i.max_mb_s)),
    }
}

/// Ids of the hosts in `hosts` that can attach `tier` but whose cap for it is unknown; with a
/// `pick`, only those smaller than it (the ones that might have been a smaller answer).
fn cap_unknown<'a>(
    hosts: impl Iterator<Item = &'a Instance>,
    tier: Option<&str>,
    pick: Option<&HostFit>,
) -> Vec<String> {
    let Some(t) = tier else {
        return Vec::new();
    };
    hosts
        .filter(|i| i.cap_unknown(t))
        .filter(|i| {
            pick.is_none_or(|p| {
                by_size((i.vcpus, i.memory_gib), (p.vcpus, p.memory_gib)) == Ordering::Less
            })
        })
        .map(|i| i.id.clone())
        .collect()
}

fn fit(i: &Instance, (max_iops, max_mb_s): (f64, f64)) -> HostFit {
    HostFit {
        id: i.id.clone(),
        vcpus: i.vcpus,
        memory_gib: i.memory_gib,
        max_iops,
        max_mb_s,
    }
}

/// Known values before unknown ones.
fn known_first(x: Option<f64>, y: Option<f64>) -> Ordering {
    match (x, y) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Size order: fewer vCPUs, then less memory (unknown last).
fn by_size(a: (Option<u32>, Option<f64>), b: (Option<u32>, Option<f64>)) -> Ordering {
    known_first(a.0.map(f64::from), b.0.map(f64::from)).then_with(|| known_first(a.1, b.1))
}

/// Smaller first: fewer vCPUs, less memory (unknown last); at the same size the one that
/// drives more first (higher MB/s, then IOPS: `m6i.8xlarge`'s 1,250 MB/s before
/// `m5.8xlarge`'s 850, the newer generation at the same vCPUs and memory), then id.
fn smaller(a: &HostFit, b: &HostFit) -> Ordering {
    by_size((a.vcpus, a.memory_gib), (b.vcpus, b.memory_gib))
        .then(b.max_mb_s.total_cmp(&a.max_mb_s))
        .then(b.max_iops.total_cmp(&a.max_iops))
        .then_with(|| a.id.cmp(&b.id))
}

/// Per family (in [`HostFamily::ALL`] order), the smallest host of `platform` in `instances`
/// that drives `iops` and `mb_s` (MB/s, 10^6 B/s) to `tier` (`None` = to any tier, by the
/// host's overall caps).
pub(crate) fn smallest_per_family(
    instances: &[Instance],
    platform: &str,
    tier: Option<&str>,
    iops: f64,
    mb_s: f64,
) -> Vec<HostChoice> {
    HostFamily::ALL
        .iter()
        .map(|&family| {
            let of_family = || {
                instances
                    .iter()
                    .filter(move |i| i.platform == platform && i.family == family)
            };
            let usable: Vec<HostFit> = of_family()
                .filter_map(|i| caps(i, tier).map(|c| fit(i, c)))
                .collect();
            let host = usable
                .iter()
                .filter(|h| iops <= h.max_iops + EPS && mb_s <= h.max_mb_s + EPS)
                .min_by(|a, b| smaller(a, b))
                .cloned();
            let largest = if host.is_none() {
                usable
                    .iter()
                    .max_by(|a, b| {
                        a.max_mb_s
                            .total_cmp(&b.max_mb_s)
                            .then(a.max_iops.total_cmp(&b.max_iops))
                            .then_with(|| smaller(a, b))
                    })
                    .cloned()
            } else {
                None
            };
            HostChoice {
                family,
                catalogued: usable.len() as u32,
                cap_unknown: cap_unknown(of_family(), tier, host.as_ref()),
                host,
                largest,
            }
        })
        .collect()
}

/// The host answer of a cloud tier without `--instance`: the per-family choice, and
/// [`Infeasible::NoHostCanDrive`] when the platform has catalogued hosts with a known cap for the
/// tier but none of them drives the demand to it (hosts whose cap is unknown are named there).
pub(crate) fn hosts_for_tier(
    instances: &[Instance],
    platform: &str,
    tier: &str,
    iops: f64,
    mb_s: f64,
) -> (Vec<HostChoice>, Option<Infeasible>) {
    let choices = smallest_per_family(instances, platform, Some(tier), iops, mb_s);
    if choices.iter().any(|c| c.host.is_some()) || choices.iter().all(|c| c.catalogued == 0) {
        return (choices, None);
    }
    let usable: Vec<HostFit> = instances
        .iter()
        .filter(|i| i.platform == platform)
        .filter_map(|i| caps(i, Some(tier)).map(|c| fit(i, c)))
        .collect();
    let most = |key: fn(&HostFit) -> f64| {
        usable
            .iter()
            .max_by(|a, b| key(a).total_cmp(&key(b)).then_with(|| smaller(b, a)))
            .map(|h| (h.id.clone(), key(h)))
    };
    let reason = Infeasible::NoHostCanDrive {
        needed_iops: iops,
        needed_mb_s: mb_s,
        platform: platform.to_string(),
        most_iops: most(|h| h.max_iops),
        most_mb_s: most(|h| h.max_mb_s),
        cap_unknown: cap_unknown(
            instances.iter().filter(|i| i.platform == platform),
            Some(tier),
            None,
        )
        .into(),
    };
    (choices, Some(reason))
}
