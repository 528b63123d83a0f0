//! Host CPU of an ESXi host beside its IO (issue 13, item 8): esxtop's
//! `Physical Cpu(_Total)\% Util Time` series → busy % per sample → statistics over the samples
//! and, per sample, the CPU beside the front end's IO.
//!
//! Flow: the parser keeps the three host-wide CPU counters of `Physical Cpu(_Total)` and marks
//! `% Util Time` as [`Measure::HostCpuBusyPct`] (`sizer_parsers::esxtop`, module docs *Host CPU*:
//! why that one, with its source); `host_cpu` reads those series of a cluster's sources into a
//! [`VirtCpu`]; the cluster takes the busy % of its sized sample (the front-end sample closest to
//! the sizing figure, as hosts do) into the `Demand`, where the rule `host-cpu-bounds-workload`
//! tests it.
//!
//! Per time stamp, busy % is the mean over the hosts that have it (each host's `_Total` is
//! already the mean over its logical CPUs). Statistics are time-weighted like every other
//! cluster series ([`crate::subject::entity_totals`]). The vSAN performance service exports and
//! HCIBench carry no host CPU: there the figure is unknown with that reason, never 0.

use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use serde::Serialize;
use sizer_parsers::entity::{EntityLog, Measure};

use crate::model::series::SeriesStats;
use crate::subject::entity_totals::{stats, Totals};
use crate::subject::iso;

/// The host CPU of a cluster or ESXi host.
#[derive(Debug, Clone, Serialize)]
pub struct VirtCpu {
    /// The esxtop counter busy % comes from, verbatim (`Physical Cpu(_Total)\% Util Time`),
    /// `None` when unknown.
    pub basis: Option<String>,
    /// The hosts whose CPU is in the figure (esxtop `\\host\…`).
    pub hosts: Vec<String>,
    /// Busy %, over the samples: `{unit "%", n, avg, p50, p95, p99, max, peak_end}`; `None` when
    /// unknown.
    pub statistics: Option<SeriesStats>,
    /// The other CPU counters read, kept raw and not used (`Physical Cpu(_Total)\% Core Util
    /// Time`, `Physical Cpu(_Total)\% Processor Time`), each once.
    pub other_counters: Vec<String>,
    /// Per sample, the CPU beside the front end's IO (empty when the CPU is unknown).
    pub intervals: Vec<CpuInterval>,
    /// Why the host CPU is unknown (`None` when known).
    pub unknown_reason: Option<String>,
}

/// One sample: host CPU beside the front end's IO.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpuInterval {
    /// Sample time (end of the sample interval, ISO 8601; UTC for esxtop).
    pub end: Option<String>,
    /// Host CPU busy, % (mean over the hosts), or `None` when this sample has none.
    pub host_cpu_busy_pct: Option<f64>,
    /// Front-end read + write IOPS at that time, when the front end has the sample.
    pub front_end_iops: Option<f64>,
    /// Front-end MB/s (10^6 bytes/s) at that time.
    pub front_end_mb_s: Option<f64>,
}

/// Busy % per sample time: the mean over the hosts' `_Total` `% Util Time`.
pub(crate) type BusyByTime = BTreeMap<NaiveDateTime, f64>;

/// Reads the host CPU of `logs` beside the front end's totals (`front`, per time key).
pub(crate) fn host_cpu<'a>(
    logs: impl Iterator<Item = &'a EntityLog> + Clone,
    front: Option<&Totals>,
) -> (VirtCpu, BusyByTime) {
    let mut sums: BTreeMap<NaiveDateTime, (f64, f64)> = BTreeMap::new();
    let (mut hosts, mut other, mut basis) = (Vec::new(), Vec::new(), None);
    for s in logs
        .clone()
        .flat_map(|l| l.series.iter())
        .filter(|s| s.entity_type == sizer_parsers::esxtop::CPU_OBJECT.0)
    {
        let name = format!("{}({})\\{}", s.entity_type, s.entity, s.metric);
        if s.measure != Some(Measure::HostCpuBusyPct) {
            if !other.contains(&name) {
                other.push(name);
            }
            continue;
        }
        basis.get_or_insert_with(|| name.clone());
        if let Some(h) = &s.host {
            if !hosts.contains(h) {
                hosts.push(h.clone());
            }
        }
        for (t, v) in s.times.iter().zip(&s.values) {
            if let (Some(t), Some(v)) = (t, v) {
                let e = sums.entry(*t).or_insert((0.0, 0.0));
                e.0 += v;
                e.1 += 1.0;
            }
        }
    }
    let busy: BusyByTime = sums.into_iter().map(|(t, (s, n))| (t, s / n)).collect();
    if busy.is_empty() {
        let esxtop = logs
            .clone()
            .any(|l| l.format == sizer_parsers::esxtop::FORMAT);
        let reason = if esxtop {
            "no `Physical Cpu(_Total)\\% Util Time` column in the esxtop file"
        } else if logs.clone().all(|l| l.is_synthetic_load()) {
            "HCIBench results carry no host CPU"
        } else {
            "the vSAN performance service data carries no host CPU"
        };
        let cpu = VirtCpu {
            basis: None,
            hosts,
            statistics: None,
            other_counters: other,
            intervals: Vec::new(),
            unknown_reason: Some(reason.to_string()),
        };
        return (cpu, busy);
    }
    let points: Vec<(Option<NaiveDateTime>, f64)> =
        busy.iter().map(|(t, v)| (Some(*t), *v)).collect();
    // Every time of the CPU or of the front end, in order.
    let mut rows: BTreeMap<NaiveDateTime, CpuInterval> = BTreeMap::new();
    let row = |t: NaiveDateTime| CpuInterval {
        end: iso(Some(t)),
        host_cpu_busy_pct: None,
        front_end_iops: None,
        front_end_mb_s: None,
    };
    for (t, v) in &busy {
        rows.entry(*t).or_insert_with(|| row(*t)).host_cpu_busy_pct = Some(*v);
    }
    for ((t, _), vals) in front.into_iter().flatten() {
        let Some(t) = t else { continue };
        let r = rows.entry(*t).or_insert_with(|| row(*t));
        r.front_end_iops = vals.get(&Measure::TotalIops).copied();
        r.front_end_mb_s = vals.get(&Measure::TotalBytesPerS).map(|b| b / 1e6);
    }
    let cpu = VirtCpu {
        basis,
        hosts,
        statistics: Some(stats(&points, "%")),
        other_counters: other,
        intervals: rows.into_values().collect(),
        unknown_reason: None,
    };
    (cpu, busy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sizer_parsers::entity::Series;

    fn t(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    fn busy(host: &str, values: &[Option<f64>]) -> Series {
        Series {
            entity_type: "Physical Cpu".into(),
            entity: "_Total".into(),
            host: Some(host.into()),
            metric: "% Util Time".into(),
            measure: Some(Measure::HostCpuBusyPct),
            raw_unit: "%".into(),
            values: values.to_vec(),
            times: vec![
                Some(t("2024-01-02 10:00:05")),
                Some(t("2024-01-02 10:00:10")),
            ],
            utc: true,
            interval_s: None,
        }
    }

    #[test]
    fn busy_is_the_mean_over_the_hosts_that_have_the_sample() {
        // Two hosts at 10:00:05: (40 + 80) / 2 = 60; at 10:00:10 only esx2 has a value: 90.
        let mut log = EntityLog::new(sizer_parsers::esxtop::FORMAT);
        log.series = vec![
            busy("esx1", &[Some(40.0), None]),
            busy("esx2", &[Some(80.0), Some(90.0)]),
        ];
        let (cpu, by_time) = host_cpu(std::iter::once(&log), None);
        assert_eq!(by_time.values().copied().collect::<Vec<_>>(), [60.0, 90.0]);
        assert_eq!(cpu.hosts, ["esx1", "esx2"]);
        let s = cpu.statistics.expect("known");
        assert_eq!((s.n, s.max), (2, Some(90.0)));
        // No front end: the per-sample rows carry the CPU alone.
        assert_eq!(cpu.intervals.len(), 2);
        assert_eq!(cpu.intervals[0].front_end_iops, None);
    }

    #[test]
    fn exports_without_cpu_say_why() {
        let vsan = EntityLog::new("vsan_json");
        let (cpu, by_time) = host_cpu(std::iter::once(&vsan), None);
        assert!(by_time.is_empty() && cpu.statistics.is_none() && cpu.intervals.is_empty());
        assert_eq!(
            cpu.unknown_reason.as_deref(),
            Some("the vSAN performance service data carries no host CPU")
        );
        let hci = EntityLog::new("hcibench");
        let (cpu, _) = host_cpu(std::iter::once(&hci), None);
        assert_eq!(
            cpu.unknown_reason.as_deref(),
            Some("HCIBench results carry no host CPU")
        );
    }
}
