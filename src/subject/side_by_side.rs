//! AWR and OS figures of the same host and window, side by side: each AWR instance report (and
//! each instance of a RAC global report) whose `Host Name` is a host of the OS logs gets the host's
//! time-weighted totals over the OS intervals inside its interval.
//!
//! Alignment: both clocks are the host's own local wall clock (AWR prints the database host's
//! local time, the OS logs the host's local time unless `sadf` wrote UTC), so the times are
//! compared as printed, with no zone conversion. An OS interval counts when its end lies inside
//! the AWR interval (begin, end]. An AWR report of this host whose interval no OS interval falls
//! in (a log of another day or year), or that has no times, is not set side by side: it is listed
//! in [`HostAnalysis::awr_not_aligned`] with both windows, so the answer says so.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use sizer_parsers::awr::ReportKind;

use crate::figures::{TOTAL_IOPS, TOTAL_MB};
use crate::subject::host::{AwrNotAligned, AwrSideBySide, HostAnalysis, SeriesRow};

/// Short host name: up to the first dot, lower case.
pub(crate) fn short(h: &str) -> String {
    h.split('.').next().unwrap_or(h).trim().to_ascii_lowercase()
}

/// Fills [`HostAnalysis::awr`] (and [`HostAnalysis::awr_not_aligned`]): each AWR instance report (and each instance of a RAC global
/// report, from its `IOStat by File Type` share) whose `Host Name` is this host, and whose
/// interval overlaps the host's series, gets the instance's own figures beside the host's
/// time-weighted totals over the OS intervals that end inside it.
pub(crate) fn side_by_side(
    hosts: &mut [HostAnalysis],
    infos: &[(String, crate::subject::awr::ReportInfo)],
    heads: &[crate::held::ReportHead],
    dbs: &[crate::subject::database::DatabaseAnalysis],
) {
    if hosts.is_empty() {
        return;
    }
    let parse = |s: &Option<String>| {
        s.as_deref()
            .and_then(|s| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").ok())
    };
    // (database, instance, instance's host, begin, end, AWR IOPS, AWR MB/s): one per instance
    // report, and one per instance of a RAC global report (its `IOStat by File Type` share).
    type Row = (
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        Option<f64>,
        Option<f64>,
    );
    // Each report's database, by file (a database lists its reports in `sources`).
    let db_of: HashMap<&str, &str> = dbs
        .iter()
        .flat_map(|d| d.sources.iter().map(|f| (f.as_str(), d.key.as_str())))
        .rev()
        .collect();
    let mut rows: Vec<Row> = Vec::new();
    for ((file, info), head) in infos.iter().zip(heads) {
        if info.kind == ReportKind::RacGlobal {
            continue;
        }
        let Some(inst) = info.instances.first() else {
            continue;
        };
        let Some(host) = inst.host.clone() else {
            continue;
        };
        let key = db_of
            .get(file.as_str())
            .map(|k| k.to_string())
            .unwrap_or_else(|| info.db.db_name.clone());
        rows.push((
            key,
            inst.name.clone(),
            host,
            head.interval.begin_time.clone(),
            head.interval.end_time.clone(),
            head.measured_iops,
            head.total_mb_s,
        ));
    }
    for d in dbs {
        for iv in d.intervals.iter().filter(|i| i.scope == "cluster") {
            for share in &iv.per_instance {
                let Some(host) = d
                    .instance_info
                    .iter()
                    .find(|i| i.name == share.instance)
                    .and_then(|i| i.host.clone())
                else {
                    continue;
                };
                let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
                    (Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
                rows.push((
                    d.key.clone(),
                    share.instance.clone(),
                    host,
                    iv.interval.begin_time.clone(),
                    iv.interval.end_time.clone(),
                    sum(share.read_reqs_per_s, share.write_reqs_per_s),
                    sum(share.read_mb_s, share.write_mb_s),
                ));
            }
        }
    }
    for h in hosts.iter_mut() {
        let hs = short(&h.host);
        for (db, inst, host, begin, end, awr_iops, awr_mb_s) in &rows {
            if short(host) != hs {
                continue;
            }
            let not_aligned = |no_times: bool| AwrNotAligned {
                database: db.clone(),
                instance: inst.clone(),
                begin: begin.clone(),
                end: end.clone(),
                os_begin: h.begin.clone(),
                os_end: h.end.clone(),
                os_times_utc: h.sources.iter().any(|s| s.utc),
                no_times,
            };
            let (Some(b), Some(e)) = (parse(begin), parse(end)) else {
                h.awr_not_aligned.push(not_aligned(true));
                continue;
            };
            let inside: Vec<&SeriesRow> = h
                .series
                .iter()
                .filter(|(t, _, _)| t.is_some_and(|t| t > b && t <= e))
                .collect();
            if inside.is_empty() {
                h.awr_not_aligned
                    .push(not_aligned(!h.series.iter().any(|x| x.0.is_some())));
                continue;
            }
            let wavg = |i: usize| {
                let (mut ws, mut vs) = (0.0, 0.0);
                for (_, w, v) in &inside {
                    if let Some(x) = v[i] {
                        ws += w;
                        vs += x * w;
                    }
                }
                (ws > 0.0).then(|| vs / ws)
            };
            let covered: f64 = inside.iter().map(|x| x.1).sum();
            h.awr.push(AwrSideBySide {
                database: db.clone(),
                instance: inst.clone(),
                begin: begin.clone(),
                end: end.clone(),
                awr_iops: *awr_iops,
                awr_mb_s: *awr_mb_s,
                os_iops: wavg(TOTAL_IOPS),
                os_mb_s: wavg(TOTAL_MB),
                covered_s: covered,
                awr_s: (e - b).num_seconds() as f64,
            });
        }
    }
}
