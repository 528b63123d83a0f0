//! The optional SAP HANA-style checks on a cluster's front end (`--hana-checks`, KPIs in
//! `rules/vsan.toml` `[hana]`): measured figures against the KPIs, never a verdict the data cannot
//! show.

use serde::Serialize;

use crate::subject::entity_totals::Side;

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
