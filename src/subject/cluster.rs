//! One cluster, host or test run of the virtualisation exports (vSAN performance service,
//! PowerCLI `Get-VsanStat`, telegraf, `esxtop -b`, HCIBench): entity series → per-entity
//! statistics → front end (what the VMs ask for) against back end (what the disks do after the
//! storage policy, [`crate::subject::entity_totals`]) → measured amplification → the sizing of the
//! front end and the vSAN advice.
//!
//! # Sizing
//! The front end at `--size-on` (default p95) of its total IOPS goes through the same sizing path
//! and tier catalogue as the databases ([`crate::sizing`]: what a replacement must serve). The
//! vSAN advice says, from `rules/vsan.toml`: hybrid or all-flash disk groups (the measured
//! read-cache hit rate against the threshold), which policy (the write share against the
//! erasure-coding threshold), and each policy's back-end IOPS, hosts and capacity multiplier. The
//! measured write amplification is back-end write IOPS ÷ front-end write IOPS (time-weighted
//! averages; resync and recovery traffic excluded), shown beside each policy's own.

use crate::subject::iso;
use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use serde::Serialize;
use sizer_parsers::entity::{EntityLog, Measure, Series};

use crate::model::series::SeriesStats;
use crate::rules::{Demand, Recommendation, RuleSet};
use crate::settings::{Settings, SizeOn};
use crate::sizing::{self, trim6, DemandAt, RuleWarnings, SMALL_READ_KIB};
use crate::subject::entity_totals::{
    complete, measure_name, pick, points, side_stats, side_totals, stats, Side, Totals,
};
use crate::subject::hana::{hana_checks, HanaCheck};
use crate::subject::virt_cpu::{host_cpu, VirtCpu};
use crate::warning::Warning;

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
    /// ReducedReport capacity per usable byte.
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
    /// The host CPU beside the IO: esxtop `Physical Cpu(_Total)\% Util Time`, per sample and
    /// over the samples; unknown with its reason for the other exports
    /// ([`crate::subject::virt_cpu`]).
    pub host_cpu: VirtCpu,
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

/// Analyses each export (grouped by origin).
///
pub fn analyse(
    sources: Vec<VirtSource>,
    rules: &RuleSet,
    settings: &Settings,
) -> Vec<VirtAnalysis> {
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
            cluster(&k, &srcs, rules, settings)
        })
        .collect()
}

pub(crate) fn cluster(
    name: &str,
    srcs: &[VirtSource],
    rules: &RuleSet,
    settings: &Settings,
) -> VirtAnalysis {
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
        // The host CPU is not a storage entity: it has its own figure (`host_cpu`).
        if k.0 == sizer_parsers::esxtop::CPU_OBJECT.0 {
            continue;
        }
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

    // Samples per side (back, front) whose total contradicted its read + write parts.
    let mut contradicted = [0usize; 2];
    let mut build = |front: bool| -> Option<(Side, Totals)> {
        let (basis, series) = pick(&all, front)?;
        let mut t = side_totals(&series);
        contradicted[usize::from(front)] = complete(&mut t);
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
    for (side, n, of) in [
        (
            "front end",
            contradicted[1],
            front.as_ref().map_or(0, |f| f.0.samples),
        ),
        (
            "back end",
            contradicted[0],
            back.as_ref().map_or(0, |b| b.0.samples),
        ),
    ] {
        if n > 0 {
            warnings.push(Warning {
                id: "total_below_parts".into(),
                message: format!(
                    "{side}: in {n} of {of} samples the total (IOPS or MB/s) is below reads + \
                     writes by more than 1 %, which a total of every command cannot be: the \
                     file's columns may be read one off (a header cell missing?), so the side's \
                     totals are unknown and not sized on"
                ),
            });
        }
    }
    let (host_cpu, busy) = host_cpu(srcs.iter().map(|s| &s.log), front.as_ref().map(|f| &f.1));
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
    let no_statistics = BTreeMap::new();
    let fstats = front
        .as_ref()
        .map_or(&no_statistics, |(s, _)| &s.statistics);
    let fstat = |m: &str| sizing::at(fstats, m, settings);
    let favg = |m: &str| fstats.get(m).and_then(|s| s.avg);
    // The read/write IOPS at the sizing figure, once it is sized.
    let mut split: Option<(f64, f64)> = None;
    let sized = sizing::size(
        rules,
        settings,
        fstats,
        "total_iops",
        RuleWarnings::WithRecommendation,
        &mut warnings,
        |target, warnings| {
            // The front end's read/write split over the whole series (average reads and writes,
            // whose sum is the average total) is scaled to the sizing figure: one sample's split
            // can be all writes where the series is 87 % writes. The request sizes come from the
            // sample whose total is closest to the sizing figure.
            // The host CPU is that sample's too, as for hosts.
            let closest = front.as_ref().and_then(|(_, t)| {
                let i = sizing::closest(
                    Some(target),
                    t.values().map(|v| v.get(&Measure::TotalIops).copied()),
                )?;
                t.iter().nth(i)
            });
            let cs: Option<&HashMap<Measure, f64>> = closest.map(|(_, v)| v);
            let cpu_busy = closest
                .and_then(|((t, _), _)| busy.get(t.as_ref()?))
                .copied();
            let g = |m: Measure| cs.and_then(|c| c.get(&m).copied());
            let (r, w) = sizing::proportional(target, favg("read_iops"), favg("write_iops"))
                .or_else(|| {
                    sizing::proportional(target, g(Measure::ReadIops), g(Measure::WriteIops))
                })
                .map_or((None, None), |(r, w)| (Some(r), Some(w)));
            let (crb, cwb) = (g(Measure::ReadBytesPerS), g(Measure::WriteBytesPerS));
            let (rm, wm) = match fstat("total_mb_s") {
                Some(t) => sizing::proportional(t, favg("read_mb_s"), favg("write_mb_s"))
                    .or_else(|| sizing::proportional(t, crb, cwb))
                    .map_or((Some(t), Some(0.0)), |(r, w)| (Some(r), Some(w))),
                None => (None, None),
            };
            let kib = |bytes: Option<f64>, iops: Option<f64>| match (bytes, iops) {
                (Some(b), Some(n)) if n > 0.0 && b > 0.0 => Some(b / n / 1024.0),
                _ => None,
            };
            // When the sample closest to the sizing figure has no reads (or writes), the request
            // size comes from the averages over all samples: MB/s (10^6 B) ÷ IOPS.
            let avg_kib = |mb: &str, iops: &str| match (favg(mb), favg(iops)) {
                (Some(b), Some(n)) if n > 0.0 && b > 0.0 => Some(b * 1e6 / n / 1024.0),
                _ => None,
            };
            let mut demand = Demand {
                required_iops: Some(trim6(target)),
                read_iops: r.map(trim6),
                write_iops: w.map(trim6),
                read_mb_s: rm.map(trim6),
                write_mb_s: wm.map(trim6),
                avg_read_kib: kib(crb, g(Measure::ReadIops))
                    .or_else(|| avg_kib("read_mb_s", "read_iops"))
                    .map(trim6),
                avg_write_kib: kib(cwb, g(Measure::WriteIops))
                    .or_else(|| avg_kib("write_mb_s", "write_iops"))
                    .map(trim6),
                capacity_gib: settings.capacity_gib,
                host_cpu_busy_pct: cpu_busy.map(trim6),
                ..Demand::default()
            };
            // The front end's read latency (weighted by reads) grades on the IO report card: as a
            // small random read when reads average at most SMALL_READ_KIB, else as a large read.
            if let Some(lat) = favg("read_latency_ms") {
                // An unknown read size grades nothing.
                match demand.avg_read_kib {
                    Some(k) if k <= SMALL_READ_KIB => {
                        demand.single_block_read_ms = Some(trim6(lat))
                    }
                    Some(_) => demand.large_read_ms = Some(trim6(lat)),
                    None => {}
                }
                demand.latency_basis = Some(format!(
                    "front-end read latency, read-weighted average over the samples (average read {})",
                    demand
                        .avg_read_kib
                        .map_or("unknown".to_string(), |k| format!("{k:.1} KiB"))
                ));
            }
            if r.zip(w).is_none_or(|(r, w)| r + w <= 0.0) {
                warnings.push(Warning {
                    id: "split_unknown".into(),
                    message: "the front end gives no read/write split: the rules treat every IO as a write, the worst case for RAID".into(),
                });
            }
            // Policies are still listed without a split (their back-end IOPS unknown).
            split = Some((r.unwrap_or(0.0), w.unwrap_or(0.0)));
            Some(DemandAt {
                demand,
                figure_decimals: 2,
                formula: Some("front-end read + write IOPS".into()),
            })
        },
    );
    let mut policies = Vec::new();
    let (mut disk_groups, mut policy) = (None, None);
    if let Some((r, w)) = split {
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
            } else if contradicted[1] > 0 {
                "cannot size: the front end's totals contradict its reads and writes (total_below_parts), so no total IOPS is trusted".into()
            } else {
                format!(
                    "cannot size: the front end has {} but no total IOPS (read and write IOPS both, or a total, are needed)",
                    have.join(", ")
                )
            },
        });
    }
    if srcs.iter().any(|s| s.log.is_synthetic_load()) {
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
    let vsan_data = srcs.iter().any(|s| s.log.is_vsan_performance());
    VirtAnalysis {
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
        host_cpu,
        measured_write_amplification,
        measured_extra_reads_per_write,
        closest_policy,
        policies,
        disk_groups,
        policy,
        size_on,
        demand: sized.demand,
        recommendation: sized.recommendation,
        warnings,
    }
}
