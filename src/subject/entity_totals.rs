//! The two sides of a cluster, from its entities' series: which entities make a side (`pick`),
//! their totals per time stamp (`side_totals`) and the statistics of those totals.
//!
//! | side | taken from, first found |
//! |---|---|
//! | front end | vSAN `cluster-domclient` (the cluster's VM consumption); else `host-domclient` summed over hosts; else PowerCLI `VMConsumption`; else vSAN `virtual-machine` summed; else esxtop `Virtual Disk` per VM (not per vdisk) summed; else HCIBench jobs |
//! | back end | vSAN `cluster-domcompmgr`; else `host-domcompmgr` summed; else PowerCLI `Backend`; else esxtop `Physical Disk Adapter` summed |
//!
//! Per time stamp, IOPS, bytes/s, congestion and outstanding IO are summed over the entities of
//! the side; latencies are weighted by the matching requests (read latency by read IOPS, …);
//! hit rates by read IOPS. Statistics are weighted by the gap to the previous sample.

use crate::subject::iso;
use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use serde::Serialize;
use sizer_parsers::entity::{Measure, Series};

use crate::model::series::{series_stats, SeriesStats};

/// Front end or back end over time.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// Where it comes from (`cluster-domclient`, `host-domclient (3 hosts summed)`, …).
    pub basis: String,
    /// Samples (time stamps) in the series.
    pub samples: usize,
    /// Per measure: statistics of the side's totals.
    pub statistics: BTreeMap<String, SeriesStats>,
}

pub(crate) fn measure_name(m: Measure) -> String {
    serde_json::to_value(m)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Statistics of values over times (`None` times keep order; time-weighted when every time is
/// known, by the gap to the previous sample; equal weights otherwise).
pub(crate) fn stats(points: &[(Option<NaiveDateTime>, f64)], unit: &'static str) -> SeriesStats {
    let mut weights: Vec<f64> = vec![1.0; points.len()];
    if points.len() > 1 && points.iter().all(|p| p.0.is_some()) {
        let gaps: Vec<f64> = points
            .windows(2)
            .map(|w| match (w[1].0, w[0].0) {
                (Some(b), Some(a)) => (b - a).num_seconds() as f64,
                _ => 0.0,
            })
            .collect();
        let mut sorted = gaps.clone();
        sorted.sort_by(f64::total_cmp);
        let med = sorted[sorted.len() / 2].max(1.0);
        weights[0] = med;
        for (k, g) in gaps.iter().enumerate() {
            weights[k + 1] = if *g > 0.0 { *g } else { med };
        }
    }
    let values: Vec<Option<f64>> = points.iter().map(|p| Some(p.1)).collect();
    let (mut stats, peak) = series_stats(&values, |i| weights[i], unit);
    stats.peak_end = peak.and_then(|i| iso(points[i].0));
    stats
}

pub(crate) fn points(s: &Series) -> Vec<(Option<NaiveDateTime>, f64)> {
    s.values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (s.times.get(i).copied().flatten(), v)))
        .collect()
}

/// Measures summed over entities.
pub(crate) const SUMMED: [Measure; 10] = [
    Measure::ReadIops,
    Measure::WriteIops,
    Measure::TotalIops,
    Measure::ReadBytesPerS,
    Measure::WriteBytesPerS,
    Measure::TotalBytesPerS,
    Measure::Congestion,
    Measure::OutstandingIo,
    Measure::RecoveryWriteIops,
    Measure::ResyncReadIops,
];

/// The weight of a weighted measure (latency by its requests).
pub(crate) fn weight_of(m: Measure) -> Option<Measure> {
    use Measure::*;
    match m {
        ReadLatencyMs | ReadCacheHitPct => Some(ReadIops),
        WriteLatencyMs => Some(WriteIops),
        LatencyMs | DeviceLatencyMs | KernelLatencyMs | GuestLatencyMs | QueueLatencyMs => {
            Some(TotalIops)
        }
        _ => None,
    }
}

/// Totals of one side per time key: measure → value. Time key: the sample time, or its index
/// where the source has no times.
pub(crate) type Totals = BTreeMap<TimeKey, HashMap<Measure, f64>>;

/// A sample time, or (no times) the run and sample index.
pub(crate) type TimeKey = (Option<NaiveDateTime>, usize);

pub(crate) fn side_totals(series: &[&Series]) -> Totals {
    // (entity, measure, occurrence) → series. A second series of the same entity and measure
    // without times is another run (HCIBench prints one block per job and test), not the same
    // samples again; with times, later pages of the same series continue it.
    // `order` keeps the keys of `by` in input order: every walk below goes through it, never
    // through the map, so sums are added in the same order on every run (floating-point addition
    // is not associative: a hash order made the last digits of the JSON differ between runs).
    let mut by: HashMap<(&str, &str, Measure, usize), &Series> = HashMap::new();
    let mut order: Vec<(&str, &str, Measure, usize)> = Vec::new();
    let mut seen: HashMap<(&str, &str, Measure), usize> = HashMap::new();
    for s in series {
        if let Some(m) = s.measure {
            let k = (s.entity_type.as_str(), s.entity.as_str(), m);
            let timed = s.times.iter().any(|t| t.is_some());
            let n = seen.entry(k).or_insert(0);
            let occ = if timed { 0 } else { *n };
            *n += 1;
            let key = (k.0, k.1, k.2, occ);
            if let std::collections::hash_map::Entry::Vacant(e) = by.entry(key) {
                order.push(key);
                e.insert(s);
            }
        }
    }
    // Untimed series (HCIBench runs) are samples of their own, one per entity and occurrence:
    // runs follow each other and are never added up.
    let mut run_ids: HashMap<(&str, &str, usize), usize> = HashMap::new();
    for &(et, en, _, occ) in &order {
        let n = run_ids.len();
        run_ids.entry((et, en, occ)).or_insert(n);
    }
    let key = |s: &Series, i: usize, occ: usize| match s.times.get(i).copied().flatten() {
        Some(t) => (Some(t), 0),
        None => (
            None,
            run_ids[&(s.entity_type.as_str(), s.entity.as_str(), occ)] * 1_000_000 + i,
        ),
    };
    // Sums and weighted sums per time.
    let mut sums: BTreeMap<TimeKey, HashMap<Measure, (f64, f64)>> = BTreeMap::new();
    for &(et, en, m, occ) in &order {
        let s = by[&(et, en, m, occ)];
        // HCIBench prints 0.00 ms for the direction a job never ran (R_LATENCY of a write-only
        // job): no requests, no latency.
        let zero_is_none = et == "hcibench" && m.unit() == "ms";
        for (i, v) in s.values.iter().enumerate() {
            let Some(v) = v else { continue };
            if zero_is_none && *v == 0.0 {
                continue;
            }
            let k = key(s, i, occ);
            let slot = sums.entry(k).or_default().entry(m).or_insert((0.0, 0.0));
            if SUMMED.contains(&m) {
                slot.0 += v;
                slot.1 = 1.0;
            } else {
                // Weighted by the entity's own requests at the same index; equal weights when it
                // has none.
                let w = weight_of(m)
                    .and_then(|wm| by.get(&(et, en, wm, occ)))
                    .and_then(|ws| ws.values.get(i).copied().flatten())
                    .or_else(|| {
                        // Total IOPS from read + write when the entity has no total.
                        (weight_of(m) == Some(Measure::TotalIops))
                            .then(|| {
                                let r = by.get(&(et, en, Measure::ReadIops, occ))?;
                                let w = by.get(&(et, en, Measure::WriteIops, occ))?;
                                Some(r.values.get(i).copied()?? + w.values.get(i).copied()??)
                            })
                            .flatten()
                    })
                    .unwrap_or(1.0);
                slot.0 += v * w;
                slot.1 += w;
            }
        }
    }
    sums.into_iter()
        .map(|(k, ms)| {
            let vals = ms
                .into_iter()
                .filter_map(|(m, (s, w))| {
                    if SUMMED.contains(&m) {
                        Some((m, s))
                    } else {
                        (w > 0.0).then(|| (m, s / w))
                    }
                })
                .collect();
            (k, vals)
        })
        .collect()
}

/// A total below the sum of its parts by more than this share, and by more than
/// [`TOTAL_SLACK_ABS`] (the rounding of printed rates), contradicts them: a total counts every
/// command (esxtop `Commands/sec` = reads + writes + other commands), so it is never below
/// reads + writes. Seen when a header lost a cell and every counter was read one column off.
pub(crate) const TOTAL_SLACK_SHARE: f64 = 0.01;
/// See [`TOTAL_SLACK_SHARE`]: 0.5 IOPS or B/s.
pub(crate) const TOTAL_SLACK_ABS: f64 = 0.5;

/// Adds `total_iops` (read + write) and total bytes/s where a side has the split only. When a
/// total is below its read + write parts in any sample ([`TOTAL_SLACK_SHARE`]), the columns of
/// the whole side are suspect (read one off), so its totals are unknown in every sample: one
/// sample left with a total would be sized alone. Returns how many samples had such a total.
pub(crate) fn complete(t: &mut Totals) -> usize {
    let mut contradicted = 0;
    for vals in t.values_mut() {
        let mut bad = false;
        for (total, read, write) in [
            (Measure::TotalIops, Measure::ReadIops, Measure::WriteIops),
            (
                Measure::TotalBytesPerS,
                Measure::ReadBytesPerS,
                Measure::WriteBytesPerS,
            ),
        ] {
            if let (Some(tot), Some(r), Some(w)) = (
                vals.get(&total).copied(),
                vals.get(&read).copied(),
                vals.get(&write).copied(),
            ) {
                let parts = r + w;
                if tot < parts * (1.0 - TOTAL_SLACK_SHARE) && parts - tot > TOTAL_SLACK_ABS {
                    vals.remove(&total);
                    bad = true;
                }
            }
        }
        contradicted += usize::from(bad);
        if bad {
            // The parts are as doubtful as the total: nothing of this sample is completed.
            continue;
        }
        if !vals.contains_key(&Measure::TotalIops) {
            if let (Some(r), Some(w)) = (
                vals.get(&Measure::ReadIops).copied(),
                vals.get(&Measure::WriteIops).copied(),
            ) {
                vals.insert(Measure::TotalIops, r + w);
            }
        }
        if !vals.contains_key(&Measure::TotalBytesPerS) {
            if let (Some(r), Some(w)) = (
                vals.get(&Measure::ReadBytesPerS).copied(),
                vals.get(&Measure::WriteBytesPerS).copied(),
            ) {
                vals.insert(Measure::TotalBytesPerS, r + w);
            }
        }
    }
    if contradicted > 0 {
        for vals in t.values_mut() {
            vals.remove(&Measure::TotalIops);
            vals.remove(&Measure::TotalBytesPerS);
        }
    }
    contradicted
}

pub(crate) fn side_stats(t: &Totals) -> BTreeMap<String, SeriesStats> {
    let mut out = BTreeMap::new();
    let mut measures: Vec<Measure> = t.values().flat_map(|v| v.keys().copied()).collect();
    measures.sort_by_key(|m| measure_name(*m));
    measures.dedup();
    for m in measures {
        let pts: Vec<(Option<NaiveDateTime>, f64)> = t
            .iter()
            .filter_map(|(k, v)| v.get(&m).map(|x| (k.0, *x)))
            .collect();
        let (vals, unit) = if m.unit() == "B/s" {
            // Shown as MB/s (10^6 bytes/s).
            (
                pts.iter().map(|(t, v)| (*t, v / 1e6)).collect::<Vec<_>>(),
                "MB/s",
            )
        } else {
            (pts, m.unit())
        };
        let name = if unit == "MB/s" {
            measure_name(m).replace("bytes_per_s", "mb_s")
        } else {
            measure_name(m)
        };
        out.insert(name, stats(&vals, unit));
    }
    out
}

/// Picks the series of a side: (basis text, series).
pub(crate) fn pick<'a>(all: &[&'a Series], front: bool) -> Option<(String, Vec<&'a Series>)> {
    let of = |t: &str| -> Vec<&'a Series> {
        all.iter().copied().filter(|s| s.entity_type == t).collect()
    };
    let count = |v: &[&Series]| {
        let mut e: Vec<&str> = v.iter().map(|s| s.entity.as_str()).collect();
        e.sort();
        e.dedup();
        e.len()
    };
    let order: &[(&str, &str)] = if front {
        &[
            (
                "cluster-domclient",
                "vSAN cluster-domclient (VM consumption)",
            ),
            (
                "host-domclient",
                "vSAN host-domclient (VM consumption per host)",
            ),
            ("VMConsumption", "PowerCLI VMConsumption"),
            ("virtual-machine", "vSAN virtual-machine"),
            ("Virtual Disk", "esxtop Virtual Disk (per VM)"),
            ("hcibench", "HCIBench results"),
        ]
    } else {
        &[
            ("cluster-domcompmgr", "vSAN cluster-domcompmgr (back end)"),
            (
                "host-domcompmgr",
                "vSAN host-domcompmgr (back end per host)",
            ),
            ("Backend", "PowerCLI Backend"),
            ("Physical Disk Adapter", "esxtop Physical Disk Adapter"),
        ]
    };
    for (t, label) in order {
        let mut v = of(t);
        if *t == "Virtual Disk" {
            // VM-level rows only: `vm:scsi0:0` rows are the same IO per virtual disk.
            v.retain(|s| !s.entity.contains(':'));
        }
        if !v.iter().any(|s| s.measure.is_some()) {
            continue;
        }
        let n = count(&v);
        if *t == "hcibench" {
            return Some((
                format!(
                    "{label}: {} run(s), each one sample",
                    v.iter()
                        .filter(|s| s.measure == Some(Measure::TotalIops))
                        .count()
                        .max(1)
                ),
                v,
            ));
        }
        if matches!(*t, "VMConsumption" | "Backend") && n > 1 {
            // PowerCLI names the cluster and its hosts alike: the cluster's view already holds its
            // hosts' IO. Keep the entity with the most IO (the cluster), not a sum.
            let total = |e: &str| -> f64 {
                v.iter()
                    .filter(|s| {
                        s.entity == e
                            && matches!(
                                s.measure,
                                Some(Measure::ReadIops | Measure::WriteIops | Measure::TotalIops)
                            )
                    })
                    .flat_map(|s| s.values.iter().flatten())
                    .sum()
            };
            let mut names: Vec<&str> = v.iter().map(|s| s.entity.as_str()).collect();
            names.sort();
            names.dedup();
            let best = names
                .iter()
                .copied()
                .max_by(|a, b| total(a).total_cmp(&total(b)))
                .unwrap_or_default()
                .to_string();
            let others: Vec<&str> = names.iter().copied().filter(|x| *x != best).collect();
            v.retain(|s| s.entity == best);
            return Some((
                format!(
                    "{label} of {best} (the entity with the most IO: a cluster holds its hosts' IO, so {} not added)",
                    others.join(", ")
                ),
                v,
            ));
        }
        let basis = if n > 1 {
            format!("{label}, {n} entities summed")
        } else {
            label.to_string()
        };
        return Some((basis, v));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(vals: &[(Measure, f64)]) -> Totals {
        let mut t = Totals::new();
        t.insert((None, 0), vals.iter().copied().collect());
        t
    }

    #[test]
    fn one_total_below_its_parts_makes_every_total_of_the_side_unknown() {
        use Measure::*;
        // A sample of all zeros (consistent) and one with 0.01 commands/s beside 2,000 reads +
        // writes: the side's columns are suspect, so neither keeps a total (the zeros alone
        // would be sized on 0).
        let mut t = sample(&[(TotalIops, 0.0), (ReadIops, 0.0), (WriteIops, 0.0)]);
        t.insert(
            (None, 1),
            [(TotalIops, 0.01), (ReadIops, 1200.0), (WriteIops, 800.0)]
                .into_iter()
                .collect(),
        );
        assert_eq!(complete(&mut t), 1);
        assert!(t.values().all(|v| !v.contains_key(&TotalIops)));
    }

    #[test]
    fn a_total_below_its_parts_is_unknown_and_counted() {
        use Measure::*;
        // 0.01 commands/s beside 1,200 reads/s + 800 writes/s (a header one cell short): the
        // total is unknown, and the sample is counted.
        let mut t = sample(&[(TotalIops, 0.01), (ReadIops, 1200.0), (WriteIops, 800.0)]);
        assert_eq!(complete(&mut t), 1);
        assert_eq!(t[&(None, 0)].get(&TotalIops), None);
        // 1,985 against 2,000 is 0.75 % below, within the 1 % of rounding: kept.
        let mut t = sample(&[(TotalIops, 1985.0), (ReadIops, 1200.0), (WriteIops, 800.0)]);
        assert_eq!(complete(&mut t), 0);
        assert_eq!(t[&(None, 0)].get(&TotalIops), Some(&1985.0));
        // 0.4 against 0.8 is half, but only 0.4 IOPS: rounding of small printed rates, kept.
        let mut t = sample(&[(TotalIops, 0.4), (ReadIops, 0.4), (WriteIops, 0.4)]);
        assert_eq!(complete(&mut t), 0);
        // No total: it is completed as read + write (1,200 + 800 = 2,000).
        let mut t = sample(&[(ReadIops, 1200.0), (WriteIops, 800.0)]);
        assert_eq!(complete(&mut t), 0);
        assert_eq!(t[&(None, 0)].get(&TotalIops), Some(&2000.0));
    }
}
