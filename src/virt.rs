//! Virtualisation exports (vSAN performance service, PowerCLI `Get-VsanStat`, telegraf, `esxtop
//! -b`, HCIBench) → per-entity figures, front end (what the VMs ask for) against back end (what
//! the disks do after the storage policy), the policies' amplification, and a sizing.
//!
//! # Front end and back end
//! | side | taken from, first found |
//! |---|---|
//! | front end | vSAN `cluster-domclient` (the cluster's VM consumption); else `host-domclient` summed over hosts; else PowerCLI `VMConsumption`; else vSAN `virtual-machine` summed; else esxtop `Virtual Disk` per VM (not per vdisk) summed; else HCIBench jobs |
//! | back end | vSAN `cluster-domcompmgr`; else `host-domcompmgr` summed; else PowerCLI `Backend`; else esxtop `Physical Disk Adapter` summed |
//!
//! Per time stamp, IOPS, bytes/s, congestion and outstanding IO are summed over the entities of
//! the side; latencies are weighted by the matching requests (read latency by read IOPS, …);
//! hit rates by read IOPS. The measured write amplification is back-end write IOPS ÷ front-end
//! write IOPS (time-weighted averages; resync and recovery traffic excluded), shown beside each
//! policy's own (`rules/vsan.toml`).
//!
//! # Sizing
//! The front end at `--size-on` (default p95) of its total IOPS goes through the same rules and
//! tier catalogue as the databases (what a replacement must serve). The vSAN advice says, from
//! `rules/vsan.toml`: hybrid or all-flash disk groups (the measured read-cache hit rate against
//! the threshold), which policy (the write share against the erasure-coding threshold), and each
//! policy's back-end IOPS, hosts and capacity multiplier.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use polars::prelude::*;
use serde::Serialize;
use sizer_parsers::entity::{EntityLog, Measure, Series};

use crate::analyze::{SeriesStats, Settings, SizeOn, Warning};
use crate::rules::{self, Demand, Options, Recommendation, RuleSet};

/// One export, as read.
#[derive(Debug, Clone)]
pub struct VirtSource {
    /// Path.
    pub file: String,
    /// The parsed export.
    pub log: EntityLog,
}

/// Figures of one entity.
#[derive(Debug, Clone, Serialize)]
pub struct EntityStats {
    /// Entity type as the source names it.
    pub entity_type: String,
    /// Entity.
    pub entity: String,
    /// Host, when the source says.
    pub host: Option<String>,
    /// Per measure (`read_iops`, `write_latency_ms`, …): statistics over its samples.
    pub figures: BTreeMap<String, SeriesStats>,
    /// Metrics kept without a meaning for sizer (labels verbatim).
    pub other_metrics: Vec<String>,
}

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

/// One storage policy applied to the measured front end.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyRow {
    /// `raid1-ftt1`, …
    pub id: String,
    /// Display name.
    pub name: String,
    /// Back-end IOs per front-end write.
    pub write_amplification: f64,
    /// Back-end IOPS at the sizing statistic of the front end: reads × reads-per-read + writes ×
    /// (reads-per-write + writes-per-write).
    pub backend_iops: Option<f64>,
    /// Raw capacity per usable byte.
    pub capacity_multiplier: f64,
    /// Fewest hosts.
    pub min_hosts: u32,
    /// Needs all-flash disk groups.
    pub all_flash_only: bool,
    /// Source of the numbers.
    pub source: String,
}

/// A piece of advice with the rule behind it.
#[derive(Debug, Clone, Serialize)]
pub struct Advice {
    /// What is advised (`all-flash`, `hybrid`, a policy id).
    pub choice: String,
    /// Why, with the figures compared.
    pub why: String,
    /// The source of the threshold.
    pub source: String,
}

/// One SAP HANA-style check (optional, `--hana-checks`).
#[derive(Debug, Clone, Serialize)]
pub struct HanaCheck {
    /// `log_write_latency`, `log_throughput`, `data_read_throughput`, `data_write_throughput`.
    pub id: &'static str,
    /// What was compared.
    pub what: String,
    /// The measured figure (ms or MB/s), when the data has it.
    pub measured: Option<f64>,
    /// The KPI.
    pub threshold: f64,
    /// `true` met, `false` missed, `None` not shown by this data (a workload that never needed the
    /// throughput does not prove the storage lacks it).
    pub passed: Option<bool>,
    /// What it means.
    pub verdict: String,
    /// Source of the KPI.
    pub source: String,
}

/// The analysis of one cluster, host or test run.
#[derive(Debug, Clone, Serialize)]
pub struct VirtAnalysis {
    /// The export's origin (cluster, host or datastore), else the file name.
    pub name: String,
    /// Files and formats.
    pub sources: Vec<(String, String)>,
    /// First and last sample time (UTC where the source is).
    pub begin: Option<String>,
    /// Last sample time.
    pub end: Option<String>,
    /// Every entity with a normalised figure.
    pub entities: Vec<EntityStats>,
    /// What the VMs ask for.
    pub front_end: Option<Side>,
    /// What the disks do.
    pub back_end: Option<Side>,
    /// Measured back-end write IOPS ÷ front-end write IOPS (time-weighted averages).
    pub measured_write_amplification: Option<f64>,
    /// Measured (back-end reads − front-end reads) ÷ front-end writes: the reads a policy adds
    /// per write (0 for RAID-1, 2 for RAID-5, 3 for RAID-6).
    pub measured_extra_reads_per_write: Option<f64>,
    /// The policy whose back-end writes and extra reads per write are within 0.5 of the measured
    /// ones, when one is.
    pub closest_policy: Option<String>,
    /// Every policy of `rules/vsan.toml` applied to the front end.
    pub policies: Vec<PolicyRow>,
    /// Hybrid or all-flash disk groups.
    pub disk_groups: Option<Advice>,
    /// Which policy.
    pub policy: Option<Advice>,
    /// The statistic sized on.
    pub size_on: SizeOn,
    /// What the rules sized from.
    pub demand: Demand,
    /// The recommendation.
    pub recommendation: Option<Recommendation>,
    /// The data comes from vSAN itself (performance service, PowerCLI, telegraf); `false` for esxtop
    /// and HCIBench alone, where the policies say what this load would cost on vSAN.
    pub vsan_data: bool,
    /// SAP HANA-style checks (empty unless `--hana-checks`).
    pub hana: Vec<HanaCheck>,
    /// Caveats.
    pub warnings: Vec<Warning>,
}

/// The optional SAP HANA-style checks on a front end (see `rules/vsan.toml` `[hana]`): the p95
/// write latency against the log KPI, and the highest throughputs seen against the log and data
/// volume minimums (met when reached; otherwise not shown, since a workload that never needed
/// them does not prove the storage lacks them).
pub fn hana_checks(front: Option<&Side>, k: &crate::rules::vsan::HanaKpis) -> Vec<HanaCheck> {
    let st = |m: &str| front.and_then(|f| f.statistics.get(m));
    let mut out = Vec::new();
    let lat = st("write_latency_ms").and_then(|s| s.p95);
    out.push(HanaCheck {
        id: "log_write_latency",
        what: "write latency, p95 of the front end (ms) — the log volume's small writes".into(),
        measured: lat,
        threshold: k.log_write_latency_max_ms,
        passed: lat.map(|l| l <= k.log_write_latency_max_ms),
        verdict: match lat {
            Some(l) if l <= k.log_write_latency_max_ms => format!(
                "p95 write latency {l:.3} ms is within {} ms",
                k.log_write_latency_max_ms
            ),
            Some(l) => format!(
                "p95 write latency {l:.3} ms is above {} ms: a HANA log volume on this storage would miss the KPI",
                k.log_write_latency_max_ms
            ),
            None => "no write latency in the data".into(),
        },
        source: k.log_write_latency_source.clone(),
    });
    for (id, what, m, th) in [
        (
            "log_throughput",
            "highest write MB/s seen (log volume, 1 MB writes)",
            "write_mb_s",
            k.log_throughput_min_mb_s,
        ),
        (
            "data_read_throughput",
            "highest read MB/s seen (data volume)",
            "read_mb_s",
            k.data_read_throughput_min_mb_s,
        ),
        (
            "data_write_throughput",
            "highest write MB/s seen (data volume)",
            "write_mb_s",
            k.data_write_throughput_min_mb_s,
        ),
    ] {
        // Read and write separately: a total (HCIBench prints one) says nothing of either.
        let seen = st(m).and_then(|s| s.max);
        out.push(HanaCheck {
            id,
            what: what.into(),
            measured: seen,
            threshold: th,
            passed: seen.and_then(|v| (v >= th).then_some(true)),
            verdict: match seen {
                Some(v) if v >= th => format!("{v:.2} MB/s seen: the storage reached the {th} MB/s minimum"),
                Some(v) => format!(
                    "{v:.2} MB/s at most in this data: below the {th} MB/s minimum, which this workload may never have asked for; prove it with SAP's HCMT on the target"
                ),
                None => "no read/write throughput split in the data".into(),
            },
            source: k.throughput_source.clone(),
        });
    }
    out
}

fn measure_name(m: Measure) -> String {
    serde_json::to_value(m)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn iso(t: Option<NaiveDateTime>) -> Option<String> {
    t.map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string())
}

/// Statistics of values over times (`None` times keep order; time-weighted when every time is
/// known, by the gap to the previous sample; equal weights otherwise).
fn stats(points: &[(Option<NaiveDateTime>, f64)], unit: &'static str) -> SeriesStats {
    let ca = Float64Chunked::from_vec("v".into(), points.iter().map(|p| p.1).collect());
    let q = |p: f64| ca.quantile(p, QuantileMethod::Linear).ok().flatten();
    let mut weights: Vec<f64> = vec![1.0; points.len()];
    if points.len() > 1 && points.iter().all(|p| p.0.is_some()) {
        let gaps: Vec<f64> = points
            .windows(2)
            .map(|w| (w[1].0.unwrap() - w[0].0.unwrap()).num_seconds() as f64)
            .collect();
        let mut sorted = gaps.clone();
        sorted.sort_by(f64::total_cmp);
        let med = sorted[sorted.len() / 2].max(1.0);
        weights[0] = med;
        for (k, g) in gaps.iter().enumerate() {
            weights[k + 1] = if *g > 0.0 { *g } else { med };
        }
    }
    let ws: f64 = weights.iter().sum();
    let avg = (ws > 0.0 && !points.is_empty()).then(|| {
        points
            .iter()
            .zip(&weights)
            .map(|(p, w)| p.1 * w)
            .sum::<f64>()
            / ws
    });
    let peak = points
        .iter()
        .enumerate()
        .fold(None, |b: Option<(usize, f64)>, (i, p)| match b {
            Some((_, v)) if v >= p.1 => b,
            _ => Some((i, p.1)),
        });
    SeriesStats {
        unit,
        n: points.len(),
        avg,
        p50: q(0.5),
        p95: q(0.95),
        p99: q(0.99),
        max: ca.max(),
        peak_begin: None,
        peak_end: peak.and_then(|(i, _)| iso(points[i].0)),
    }
}

fn points(s: &Series) -> Vec<(Option<NaiveDateTime>, f64)> {
    s.values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (s.times.get(i).copied().flatten(), v)))
        .collect()
}

/// Measures summed over entities.
const SUMMED: [Measure; 10] = [
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
fn weight_of(m: Measure) -> Option<Measure> {
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
type Totals = BTreeMap<TimeKey, HashMap<Measure, f64>>;

/// A sample time, or (no times) the run and sample index.
type TimeKey = (Option<NaiveDateTime>, usize);

fn side_totals(series: &[&Series]) -> Totals {
    // (entity, measure, occurrence) → series. A second series of the same entity and measure
    // without times is another run (HCIBench prints one block per job and test), not the same
    // samples again; with times, later pages of the same series continue it.
    let mut by: HashMap<(&str, &str, Measure, usize), &Series> = HashMap::new();
    let mut seen: HashMap<(&str, &str, Measure), usize> = HashMap::new();
    for s in series {
        if let Some(m) = s.measure {
            let k = (s.entity_type.as_str(), s.entity.as_str(), m);
            let timed = s.times.iter().any(|t| t.is_some());
            let n = seen.entry(k).or_insert(0);
            let occ = if timed { 0 } else { *n };
            *n += 1;
            by.entry((k.0, k.1, k.2, occ)).or_insert(s);
        }
    }
    // Untimed series (HCIBench runs) are samples of their own, one per entity and occurrence:
    // runs follow each other and are never added up.
    let mut run_ids: HashMap<(&str, &str, usize), usize> = HashMap::new();
    for &(et, en, _, occ) in by.keys() {
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
    for (&(et, en, m, occ), s) in &by {
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

/// Adds `total_iops` (read + write) and total bytes/s where a side has the split only.
fn complete(t: &mut Totals) {
    for vals in t.values_mut() {
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
}

fn side_stats(t: &Totals) -> BTreeMap<String, SeriesStats> {
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
fn pick<'a>(all: &[&'a Series], front: bool) -> Option<(String, Vec<&'a Series>)> {
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

/// Analyses each export (grouped by origin).
///
/// # Errors
/// A polars error computing quantiles.
pub fn analyse(
    sources: Vec<VirtSource>,
    rules: &RuleSet,
    settings: &Settings,
) -> PolarsResult<Vec<VirtAnalysis>> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<VirtSource>> = HashMap::new();
    for s in sources {
        let k = s
            .log
            .origin
            .clone()
            .unwrap_or_else(|| format!("(no origin) {}", s.file));
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(s);
    }
    order
        .into_iter()
        .map(|k| {
            let srcs = groups.remove(&k).unwrap_or_default();
            one(&k, &srcs, rules, settings)
        })
        .collect()
}

fn one(
    name: &str,
    srcs: &[VirtSource],
    rules: &RuleSet,
    settings: &Settings,
) -> PolarsResult<VirtAnalysis> {
    let mut warnings = Vec::new();
    let all: Vec<&Series> = srcs.iter().flat_map(|s| s.log.series.iter()).collect();
    for s in srcs {
        for w in &s.log.warnings {
            warnings.push(Warning {
                id: "parser".into(),
                message: format!("{}: {w}", s.file),
            });
        }
        if let Some(first) = s.log.skipped.first() {
            warnings.push(Warning {
                id: "skipped_lines".into(),
                message: format!(
                    "{}: {} row(s) left out (first: line {}: {})",
                    s.file,
                    s.log.skipped.len(),
                    first.line,
                    first.reason
                ),
            });
        }
    }
    if all.iter().any(|s| s.utc) {
        warnings.push(Warning {
            id: "utc".into(),
            message: "sample times are UTC, as the source gives them".into(),
        });
    }
    // Entities.
    let mut ent_order: Vec<(String, String)> = Vec::new();
    let mut ents: HashMap<(String, String), Vec<&Series>> = HashMap::new();
    for s in &all {
        let k = (s.entity_type.clone(), s.entity.clone());
        if !ents.contains_key(&k) {
            ent_order.push(k.clone());
        }
        ents.entry(k).or_default().push(s);
    }
    let mut entities = Vec::new();
    for k in &ent_order {
        let list = &ents[k];
        let mut figures = BTreeMap::new();
        let mut other = Vec::new();
        for s in list {
            match s.measure {
                Some(m) => {
                    let pts = points(s);
                    if pts.is_empty() {
                        continue;
                    }
                    let (pts, unit, name) = if m.unit() == "B/s" {
                        (
                            pts.iter().map(|(t, v)| (*t, v / 1e6)).collect(),
                            "MB/s",
                            measure_name(m).replace("bytes_per_s", "mb_s"),
                        )
                    } else {
                        (pts, m.unit(), measure_name(m))
                    };
                    figures.entry(name).or_insert_with(|| stats(&pts, unit));
                }
                None => other.push(s.metric.clone()),
            }
        }
        if figures.is_empty() {
            continue;
        }
        entities.push(EntityStats {
            entity_type: k.0.clone(),
            entity: k.1.clone(),
            host: list.first().and_then(|s| s.host.clone()),
            figures,
            other_metrics: other,
        });
    }
    let times: Vec<NaiveDateTime> = all
        .iter()
        .flat_map(|s| s.times.iter().flatten().copied())
        .collect();
    let begin = times.iter().min().copied();
    let end = times.iter().max().copied();

    let build = |front: bool| -> Option<(Side, Totals)> {
        let (basis, series) = pick(&all, front)?;
        let mut t = side_totals(&series);
        complete(&mut t);
        let samples = t.len();
        Some((
            Side {
                basis,
                samples,
                statistics: side_stats(&t),
            },
            t,
        ))
    };
    let front = build(true);
    let back = build(false);
    let avg = |side: &Option<(Side, Totals)>, m: &str| {
        side.as_ref()
            .and_then(|(s, _)| s.statistics.get(m))
            .and_then(|s| s.avg)
    };
    let measured_write_amplification = match (avg(&back, "write_iops"), avg(&front, "write_iops")) {
        (Some(b), Some(f)) if f > 0.0 => Some(b / f),
        _ => None,
    };
    // Extra back-end reads per front-end write (erasure coding reads data and parity).
    let measured_extra_reads_per_write = match (
        avg(&back, "read_iops"),
        avg(&front, "read_iops"),
        avg(&front, "write_iops"),
    ) {
        (Some(br), Some(fr), Some(fw)) if fw > 0.0 => Some(((br - fr) / fw).max(0.0)),
        _ => None,
    };
    let vr = rules.vsan();
    let closest_policy = measured_write_amplification.and_then(|a| {
        let extra = measured_extra_reads_per_write.unwrap_or(0.0);
        let dist = |p: &crate::rules::vsan::VsanPolicy| {
            (p.backend_writes_per_write - a).abs() + (p.backend_reads_per_write - extra).abs()
        };
        // Only a near match names a policy: one back-end write per write is no mirroring at this
        // layer (a SAN or NFS datastore seen by esxtop), not RAID-1 with a measurement error.
        vr.policies
            .iter()
            .min_by(|x, y| dist(x).total_cmp(&dist(y)))
            .filter(|p| dist(p) <= 0.5)
            .map(|p| p.id.clone())
    });
    if measured_write_amplification.is_some() {
        warnings.push(Warning {
            id: "amplification".into(),
            message: "measured amplification compares back-end writes with front-end writes; a policy's writes per write are its copies (RAID-1) or data + parity fragments (RAID-5/6); resync and recovery traffic are not counted".into(),
        });
    }

    // Sizing from the front end.
    let size_on = settings.size_on;
    let fstat = |m: &str| {
        front
            .as_ref()
            .and_then(|(s, _)| s.statistics.get(m))
            .and_then(|s| s.get(size_on))
    };
    let mut demand = Demand {
        capacity_gib: settings.capacity_gib,
        ..Demand::default()
    };
    let mut recommendation = None;
    let mut policies = Vec::new();
    let (mut disk_groups, mut policy) = (None, None);
    if let Some(target) = fstat("total_iops") {
        // The sample whose total is closest to the sizing figure gives the IO character: its
        // read/write split and sizes, scaled to the figure (independent percentiles of reads and
        // writes do not add up to the total's).
        let totals = front.as_ref().map(|(_, t)| t);
        let cs: HashMap<Measure, f64> = totals
            .and_then(|t| {
                t.values()
                    .filter_map(|v| v.get(&Measure::TotalIops).map(|x| (v, (x - target).abs())))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|(v, _)| v.clone())
            })
            .unwrap_or_default();
        let g = |m: Measure| cs.get(&m).copied();
        let (r, w) = match (g(Measure::ReadIops), g(Measure::WriteIops)) {
            (Some(r), Some(w)) if r + w > 0.0 => (target * r / (r + w), target * w / (r + w)),
            _ => (0.0, 0.0),
        };
        let (crb, cwb) = (g(Measure::ReadBytesPerS), g(Measure::WriteBytesPerS));
        let (rm, wm) = match (fstat("total_mb_s"), crb, cwb) {
            (Some(t), Some(a), Some(b)) if a + b > 0.0 => (t * a / (a + b), t * b / (a + b)),
            (Some(t), _, _) => (t, 0.0),
            _ => (0.0, 0.0),
        };
        let kib = |bytes: Option<f64>, iops: Option<f64>| match (bytes, iops) {
            (Some(b), Some(n)) if n > 0.0 && b > 0.0 => Some(b / n / 1024.0),
            _ => None,
        };
        let r6 = |v: f64| (v * 1e6).round() / 1e6;
        // When the sample closest to the sizing figure has no reads (or writes), the request size
        // comes from the averages over all samples: MB/s (10^6 B) ÷ IOPS.
        let avg_kib = |mb: &str, iops: &str| {
            let st = |m: &str| {
                front
                    .as_ref()
                    .and_then(|(s, _)| s.statistics.get(m))
                    .and_then(|s| s.avg)
            };
            match (st(mb), st(iops)) {
                (Some(b), Some(n)) if n > 0.0 && b > 0.0 => Some(b * 1e6 / n / 1024.0),
                _ => None,
            }
        };
        demand = Demand {
            required_iops: r6(target),
            read_iops: r6(r),
            write_iops: r6(w),
            read_mb_s: r6(rm),
            write_mb_s: r6(wm),
            avg_read_kib: kib(crb, g(Measure::ReadIops))
                .or_else(|| avg_kib("read_mb_s", "read_iops"))
                .map(r6),
            avg_write_kib: kib(cwb, g(Measure::WriteIops))
                .or_else(|| avg_kib("write_mb_s", "write_iops"))
                .map(r6),
            capacity_gib: settings.capacity_gib,
            ..Demand::default()
        };
        // The front end's read latency (weighted by reads) grades on the IO report card: as a
        // small random read when reads average at most SMALL_READ_KIB, else as a large read.
        if let Some(lat) = front
            .as_ref()
            .and_then(|(s, _)| s.statistics.get("read_latency_ms"))
            .and_then(|s| s.avg)
        {
            // An unknown read size grades nothing.
            match demand.avg_read_kib {
                Some(k) if k <= crate::hosts::SMALL_READ_KIB => {
                    demand.single_block_read_ms = Some(r6(lat))
                }
                Some(_) => demand.large_read_ms = Some(r6(lat)),
                None => {}
            }
            demand.latency_basis = Some(format!(
                "front-end read latency, read-weighted average over the samples (average read {})",
                demand
                    .avg_read_kib
                    .map_or("unknown".to_string(), |k| format!("{k:.1} KiB"))
            ));
        }
        if r + w <= 0.0 {
            warnings.push(Warning {
                id: "split_unknown".into(),
                message: "the front end gives no read/write split: the rules treat every IO as a write, the worst case for RAID".into(),
            });
        }
        let opts = Options {
            headroom_pct: settings.headroom_pct,
            platforms: settings.platforms.clone(),
            figure_decimals: Some(2),
            formula: Some("front-end read + write IOPS".into()),
            instance: settings.instance.clone(),
        };
        let rec = rules::recommend(rules, &demand, &opts);
        recommendation = Some(rec);
        // Policies.
        for p in &vr.policies {
            policies.push(PolicyRow {
                id: p.id.clone(),
                name: p.name.clone(),
                write_amplification: p.write_amplification(),
                backend_iops: (r + w > 0.0)
                    .then(|| r * p.backend_reads_per_read + w * p.write_amplification()),
                capacity_multiplier: p.capacity_multiplier,
                min_hosts: p.min_hosts,
                all_flash_only: p.all_flash_only,
                source: p.source.clone(),
            });
        }
        // Disk groups: the measured read-cache hit rate (hybrid disk groups' rcHitRate).
        let hit = all
            .iter()
            .filter(|s| {
                s.measure == Some(Measure::ReadCacheHitPct) && s.entity_type == "disk-group"
            })
            .flat_map(|s| s.values.iter().flatten().copied())
            .collect::<Vec<f64>>();
        let th = vr.choice.hybrid_min_read_cache_hit_pct;
        disk_groups = Some(if hit.is_empty() {
            Advice {
                choice: "all-flash".into(),
                why: format!(
                    "no read-cache hit rate in the data (hybrid disk groups report it as rcHitRate): hybrid serves reads from its flash read cache and needs a hit rate of at least {th} % — all-flash unless a hybrid pilot shows that"
                ),
                source: vr.choice.hybrid_source.clone(),
            }
        } else {
            let mean = hit.iter().sum::<f64>() / hit.len() as f64;
            let low = hit.iter().cloned().fold(f64::INFINITY, f64::min);
            if mean >= th && low >= th * 0.9 {
                Advice {
                    choice: "hybrid".into(),
                    why: format!(
                        "measured read-cache hit rate averages {mean:.1} % (lowest {low:.1} %), at or above the {th} % hybrid disk groups need"
                    ),
                    source: vr.choice.hybrid_source.clone(),
                }
            } else {
                Advice {
                    choice: "all-flash".into(),
                    why: format!(
                        "measured read-cache hit rate averages {mean:.1} % (lowest {low:.1} %), below the {th} % hybrid disk groups need: reads would fall through to magnetic disks"
                    ),
                    source: vr.choice.hybrid_source.clone(),
                }
            }
        });
        let ws = if r + w > 0.0 {
            Some(100.0 * w / (r + w))
        } else {
            None
        };
        let max_ws = vr.choice.erasure_coding_max_write_share_pct;
        let hybrid = disk_groups.as_ref().is_some_and(|d| d.choice == "hybrid");
        policy = Some(match ws {
            Some(ws) if ws <= max_ws && !hybrid => {
                let p = vr.policies.iter().find(|p| p.id == "raid5");
                Advice {
                    choice: p.map(|p| p.id.clone()).unwrap_or_else(|| "raid5".into()),
                    why: format!(
                        "writes are {ws:.1} % of front-end IOPS (≤ {max_ws} %): RAID-5 saves capacity ({}× raw instead of 2× for RAID-1 FTT=1) at {}× back-end IOs per write; needs all-flash and {} hosts",
                        p.map(|p| p.capacity_multiplier).unwrap_or(1.333),
                        p.map(|p| p.write_amplification()).unwrap_or(4.0),
                        p.map(|p| p.min_hosts).unwrap_or(4)
                    ),
                    source: vr.choice.erasure_coding_source.clone(),
                }
            }
            Some(ws) => Advice {
                choice: "raid1-ftt1".into(),
                why: if hybrid {
                    format!("hybrid disk groups cannot use erasure coding: RAID-1 FTT=1 (writes are {ws:.1} % of front-end IOPS)")
                } else {
                    format!(
                        "writes are {ws:.1} % of front-end IOPS (> {max_ws} %): RAID-1 FTT=1 needs 2 back-end IOs per write against 4 for RAID-5"
                    )
                },
                source: vr.choice.erasure_coding_source.clone(),
            },
            None => Advice {
                choice: "raid1-ftt1".into(),
                why: "no read/write split: RAID-1 FTT=1, the policy with the fewest back-end IOs per write".into(),
                source: vr.choice.erasure_coding_source.clone(),
            },
        });
    } else {
        let have: Vec<String> = front
            .as_ref()
            .map(|(f, _)| f.statistics.keys().cloned().collect())
            .unwrap_or_default();
        warnings.push(Warning {
            id: "cannot_size".into(),
            message: if have.is_empty() {
                "cannot size: no front-end figures (no VM-level entity: cluster-domclient, host-domclient, VMConsumption, virtual-machine, esxtop Virtual Disk or HCIBench results)".into()
            } else {
                format!(
                    "cannot size: the front end has {} but no total IOPS (read and write IOPS both, or a total, are needed)",
                    have.join(", ")
                )
            },
        });
    }
    if srcs.iter().any(|s| s.log.format == "hcibench") {
        warnings.push(Warning {
            id: "synthetic_load".into(),
            message: "HCIBench results are what the tested cluster delivered under a synthetic load, not a workload's demand: sized as the load a replacement must match".into(),
        });
    }
    let hana = if settings.hana_checks {
        hana_checks(front.as_ref().map(|f| &f.0), &vr.hana)
    } else {
        Vec::new()
    };
    let vsan_data = srcs.iter().any(|s| {
        matches!(
            s.log.format,
            "vsan_json" | "vsan_soap" | "powercli_csv" | "telegraf_vsan"
        )
    });
    Ok(VirtAnalysis {
        vsan_data,
        hana,
        name: name.to_string(),
        sources: srcs
            .iter()
            .map(|s| (s.file.clone(), s.log.format.to_string()))
            .collect(),
        begin: iso(begin),
        end: iso(end),
        entities,
        front_end: front.map(|f| f.0),
        back_end: back.map(|b| b.0),
        measured_write_amplification,
        measured_extra_reads_per_write,
        closest_policy,
        policies,
        disk_groups,
        policy,
        size_on,
        demand,
        recommendation,
        warnings,
    })
}
