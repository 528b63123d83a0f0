//! Exadata figures of one interval: what the cells did, read from the same model view as
//! [`crate::metrics::workload`], which calls [`figures`] and keeps the result in
//! [`crate::metrics::IntervalFigures::exadata`].
//!
//! On Exadata, `physical read total IO requests` counts Smart Scan and flash-cache-optimized
//! requests too (awr-notes §2 and §3.7), so "total − multi block requests" (Karl Arao's small
//! reads) overstates the single-block reads: most of the rest is Smart Scan. Here:
//! - single-block reads/s = read IOPS × (`cell single block physical read` waits + `db file
//!   sequential read` waits, Foreground + Background Wait Events) / `physical read total IO
//!   requests` (interval totals): each wait is one single-block read request, and the rate is
//!   scaled from the printed read rate so that it is not a difference of rounded rates;
//! - Smart Scan: `cell smart table scan` + `cell smart index scan` waits/s (same scaling) and
//!   their waits-weighted average; `cell physical IO bytes eligible for predicate offload` and
//!   `cell physical IO interconnect bytes returned by smart scan` per second in MB/s (10^6);
//!   the read requests that are not single-block reads (read IOPS − single-block reads/s: the
//!   multiblock, Smart Scan, control file and other requests);
//! - off-Exadata estimate: required IOPS × the `[exadata]` factor of `rules/sizing.toml` (the
//!   OMAT PDF's 6× IO factor, awr-notes §2 and §3.7); throughput stays `physical read total
//!   bytes`, which already counts what Smart Scan read on the cells (AWS Exadata blueprint).

use serde::{Deserialize, Serialize};

use super::{Figure, ValueOrWhy};
use crate::model::{section, View};

/// The `[exadata]` policy of `rules/sizing.toml`: the off-Exadata factor and its source.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExadataPolicy {
    /// Off-Exadata IO factor applied to required IOPS (OMAT: 6).
    pub off_exadata_iops_factor: f64,
    /// Why it is applied as it is.
    pub why: String,
    /// Where the factor comes from.
    pub source: String,
}

/// What the small (single-block) read figure is computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SmallReadBasis {
    /// `physical read total IO requests` − `physical read total multi block requests` (Karl
    /// Arao), for every report that is not Exadata.
    TotalMinusMultiblock,
    /// Exadata: the `cell single block physical read` (and `db file sequential read`) waits of
    /// the Foreground and Background Wait Events.
    SingleBlockReadWaits,
}

/// Smart Scan on its own line.
#[derive(Debug, Clone, Serialize)]
pub struct SmartScan {
    /// `cell smart table scan` + `cell smart index scan` waits per second.
    pub waits_per_s: Figure,
    /// Their waits-weighted average wait, ms.
    pub avg_wait_ms: Figure,
    /// Their wait time, s: Σ waits × average wait (the printed averages; the model keeps no
    /// Total Wait Time).
    pub wait_s: Figure,
    /// Their share of DB time, %: 100 × `wait_s` / (header `DB Time` × 60); set by the subject,
    /// which knows the interval's DB time ([`set_db_time`]).
    pub db_time_pct: Figure,
    /// Read requests that are not single-block reads: read IOPS − single-block reads/s (the
    /// multiblock, Smart Scan, control file and other requests of `physical read total IO
    /// requests`).
    pub other_read_iops: Figure,
    /// `cell physical IO bytes eligible for predicate offload` per second, MB/s (10^6).
    pub eligible_mb_s: Figure,
    /// `cell physical IO interconnect bytes returned by smart scan` per second, MB/s (10^6).
    pub returned_mb_s: Figure,
}

/// The off-Exadata estimate beside the as-measured figure.
#[derive(Debug, Clone, Serialize)]
pub struct OffExadata {
    /// The factor applied (`[exadata] off_exadata_iops_factor`).
    pub factor: f64,
    /// Required IOPS on Exadata: the required-IOPS formula on the report's measured per-second
    /// rates, before headroom (the demand's `required_iops`, not the `measured_iops` read +
    /// write statistic).
    pub required_iops: Figure,
    /// Required IOPS × factor: what a non-Exadata array may see.
    pub estimated_iops: Figure,
    /// Read + write MB/s, unchanged (`physical read/write total bytes`).
    pub total_mb_s: Figure,
    /// Why the factor is applied so (from the policy).
    pub why: String,
    /// Source of the factor.
    pub source: String,
}

/// The Exadata figures of one interval.
#[derive(Debug, Clone, Serialize)]
pub struct ExadataFigures {
    /// Single-block read requests/s from the waits (unknown without `cell single block
    /// physical read` waits; the small reads then stay total − multiblock).
    pub single_block_reads_per_s: Figure,
    /// The waits counted (interval total).
    pub single_block_read_waits: Figure,
    /// Smart Scan.
    pub smart_scan: SmartScan,
    /// Off-Exadata estimate; `None` when the rules give no `[exadata]` factor.
    pub off_exadata: Option<OffExadata>,
}

const SINGLE: [&str; 2] = ["cell single block physical read", "db file sequential read"];
const SMART: [&str; 2] = ["cell smart table scan", "cell smart index scan"];
const RD: &str = "physical read total IO requests";
const ELIGIBLE: &str = "cell physical IO bytes eligible for predicate offload";
const RETURNED: &str = "cell physical IO interconnect bytes returned by smart scan";

const DB_TIME_FROM: &str = "100 × Smart Scan wait time / (header 'DB Time' minutes × 60)";

/// Sets the Smart Scan share of DB time from the interval's `DB Time:` minutes (the report
/// header; a RAC sum: the instances' DB times added).
pub fn set_db_time(x: Option<&mut ExadataFigures>, db_time_min: Option<f64>) {
    let Some(x) = x else { return };
    let s = &mut x.smart_scan;
    let v = match (s.wait_s.exact, db_time_min) {
        (Some(w), Some(m)) if m > 0.0 => Ok(100.0 * w / (m * 60.0)),
        (None, _) => Err("no Smart Scan waits".to_string()),
        _ => Err("the report header gives no DB Time".to_string()),
    };
    s.db_time_pct = Figure::of(v, "%", 1, DB_TIME_FROM);
}

/// Waits and waits × average (ms) of `events` over the Foreground and Background Wait Events.
fn waits_of(v: &View, events: &[&str]) -> (f64, f64) {
    let mut n = 0.0;
    let mut weighted = 0.0;
    for table in [section::FG_WAITS, section::BG_WAITS] {
        for e in events {
            if let Some(c) = v.get(table, e) {
                let w = c.total.unwrap_or(0.0);
                n += w;
                weighted += w * c.value.unwrap_or(0.0);
            }
        }
    }
    (n, weighted)
}

/// Whether the view is of an Exadata database: a `cell single block physical read` wait, or
/// Exadata-only cell statistics above zero (`cell physical IO interconnect bytes` is counted
/// on every platform and does not count).
pub fn is_exadata(v: &View) -> bool {
    waits_of(v, &SINGLE[..1]).0 > 0.0
        || ["cell flash cache read hits", ELIGIBLE].iter().any(|s| {
            v.get(section::ACTIVITY, s)
                .and_then(|c| c.total)
                .is_some_and(|t| t > 0.0)
        })
}

/// The Exadata figures, or `None` when the view is not of an Exadata database.
///
/// `read_iops` and `required_iops` are the interval's figures; `rate_decimals` the report's
/// printed precision of per-second rates.
pub fn figures(
    v: &View,
    read_iops: &Figure,
    required_iops: &Figure,
    total_mb_s: &Figure,
    rate_decimals: u32,
    policy: Option<&ExadataPolicy>,
) -> Option<ExadataFigures> {
    if !is_exadata(v) {
        return None;
    }
    let read_total = v.get(section::ACTIVITY, RD).and_then(|c| c.total);
    // Per second = the printed read rate × waits / read requests (interval totals).
    let per_s = |waits: f64| -> ValueOrWhy {
        let rate = read_iops
            .exact
            .ok_or_else(|| format!("'{RD}' is unknown"))?;
        match read_total {
            Some(t) if t > 0.0 => Ok(rate * waits / t),
            _ => Err(format!("no '{RD}' in the interval to scale the waits by")),
        }
    };
    let (single_n, _) = waits_of(v, &SINGLE);
    // Only with cell single-block waits: `db file sequential read` alone (files off the cells)
    // would not stand for the database's single-block reads.
    let single = if waits_of(v, &SINGLE[..1]).0 > 0.0 {
        per_s(single_n)
    } else {
        Err("no 'cell single block physical read' waits in the Foreground or Background Wait Events".to_string())
    };
    let scaled = format!(
        "'{RD}' per Second × waits / '{RD}' (interval totals), Foreground + Background Wait Events"
    );
    let (smart_n, smart_w) = waits_of(v, &SMART);
    let rate_mb = |stat: &str| -> ValueOrWhy {
        v.get(section::ACTIVITY, stat)
            .and_then(|c| c.per_second)
            .map(|b| b / 1e6)
            .ok_or_else(|| format!("'{stat}' is not in this report's Instance Activity Stats"))
    };
    let other = match (read_iops.exact, &single) {
        (Some(r), Ok(s)) => Ok((r - s).max(0.0)),
        (None, _) => Err(format!("'{RD}' is unknown")),
        (_, Err(e)) => Err(e.clone()),
    };
    let smart_scan = SmartScan {
        waits_per_s: Figure::of(
            if smart_n > 0.0 {
                per_s(smart_n)
            } else {
                Err("no 'cell smart table scan' or 'cell smart index scan' waits".to_string())
            },
            "waits/s",
            rate_decimals,
            format!("'{}' + '{}': {scaled}", SMART[0], SMART[1]),
        ),
        avg_wait_ms: Figure::of(
            if smart_n > 0.0 {
                Ok(smart_w / smart_n)
            } else {
                Err("no Smart Scan waits".to_string())
            },
            "ms",
            3,
            format!("'{}' + '{}' average wait, weighted by waits", SMART[0], SMART[1]),
        ),
        wait_s: Figure::of(
            if smart_n > 0.0 {
                Ok(smart_w / 1000.0)
            } else {
                Err("no Smart Scan waits".to_string())
            },
            "s",
            0,
            format!("Σ Waits × average wait of '{}' and '{}'", SMART[0], SMART[1]),
        ),
        db_time_pct: Figure::unknown(
            "%",
            1,
            DB_TIME_FROM,
            "the interval's DB time is not known".to_string(),
        ),
        other_read_iops: Figure::of(
            other,
            "IOPS",
            rate_decimals,
            format!("'{RD}' per Second − single-block reads/s (multiblock, Smart Scan, control file and other reads)"),
        ),
        eligible_mb_s: Figure::of(rate_mb(ELIGIBLE), "MB/s", 2, format!("'{ELIGIBLE}' per Second / 10^6")),
        returned_mb_s: Figure::of(rate_mb(RETURNED), "MB/s", 2, format!("'{RETURNED}' per Second / 10^6")),
    };
    let mut waits = Figure::known(
        single_n,
        "waits",
        0,
        format!(
            "'{}' + '{}' Waits, Foreground + Background Wait Events",
            SINGLE[0], SINGLE[1]
        ),
    );
    waits.notes_mut().waits = Some(single_n);
    let off_exadata = policy.map(|p| OffExadata {
        factor: p.off_exadata_iops_factor,
        required_iops: required_iops.clone(),
        estimated_iops: Figure::of(
            required_iops
                .exact
                .map(|q| q * p.off_exadata_iops_factor)
                .ok_or_else(|| "required IOPS is unknown".to_string()),
            "IOPS",
            required_iops.decimals,
            format!(
                "required IOPS × {} ([exadata] off_exadata_iops_factor, rules/sizing.toml)",
                p.off_exadata_iops_factor
            ),
        ),
        total_mb_s: total_mb_s.clone(),
        why: p.why.clone(),
        source: p.source.clone(),
    });
    Some(ExadataFigures {
        single_block_reads_per_s: Figure::of(
            single,
            "IOPS",
            rate_decimals,
            format!("'{}' + '{}': {scaled}", SINGLE[0], SINGLE[1]),
        ),
        single_block_read_waits: waits,
        smart_scan,
        off_exadata,
    })
}
