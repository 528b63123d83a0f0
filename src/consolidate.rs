//! Consolidation on time-aligned series: the demand of several databases (or hosts) on one
//! shared array, from the sum of their interval series taken at the same wall-clock moments.
//!
//! Flow: [`database_series`] and [`host_series`] take each subject's counted intervals (begin
//! time, length, IOPS and MB/s); [`consolidate`] aligns them, adds them per aligned interval,
//! takes the sizing statistic (`--size-on`, default p95) of the sum and, beside it, the sum of
//! each member's own statistic over the same intervals (what adding the fleet rows gives: every
//! peak counted as if they came at once). With `--consolidate` the sum is sized as one subject:
//! one shared on-premises array, and per cloud one shared layout ([`rules::recommend`]), with
//! the IO character (request sizes, latencies, cache hit) of the largest member.
//!
//! Alignment (documented in `docs/consolidation.md`):
//! - Times are wall-clock times as printed, with no zone conversion: AWR prints the database
//!   host's local clock, OS logs the host's local clock (sadf may print UTC: such members are
//!   named in [`Consolidation::utc_members`]).
//! - The common interval length `L` is the longest of the members' median interval lengths,
//!   rounded to a whole minute. A subject whose median interval is longer than
//!   [`MAX_ALIGN_MIN`] is not aligned ([`Excluded::TooCoarse`]): a multi-day AWR window cannot be
//!   set against hourly peaks.
//! - Each interval goes to the bucket `⌊midpoint ÷ L⌋` (minutes since 1970-01-01 00:00 of the
//!   printed clock), so snapshots a few seconds before or after the hour align; shorter
//!   intervals that land in the same bucket are averaged, weighted by their length (IOPS and
//!   MB/s are rates). A bucket is named by its start.
//! - Members: candidates are ordered by their own sizing figure, largest first. Seeded by each
//!   in turn (except those already in the best group found), the others join in that order while they share a bucket with the window so far
//!   (the window narrows to the buckets every member has); the largest such group wins (the
//!   first of equal ones). A subject outside it is not added ([`Excluded::NoOverlap`]): its load
//!   cannot be added honestly to theirs.
//! - A bucket where some member's figure is unknown is left out of the sum.
//!
//! Units: IOPS = requests/s, MB/s = 10^6 B/s.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDateTime;
use serde::Serialize;

use crate::model::series::series_stats;
use crate::rules::{self, Demand, Options, Recommendation, RuleSet};
use crate::settings::{Settings, SizeOn};
use crate::sizing::{proportional, sustained_minutes, trim6};
use crate::subject::database::DatabaseAnalysis;
use crate::subject::host::HostAnalysis;

/// Longest median interval, minutes, that is aligned with others (policy: an hourly AWR
/// snapshot plus 10 %, as the long-window warning counts hourly series).
pub const MAX_ALIGN_MIN: f64 = 66.0;

/// One interval of a subject: begin (printed wall clock), length in seconds, and the figures
/// `[IOPS, read IOPS, write IOPS, MB/s, read MB/s, write MB/s]` (`None` = unknown).
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Begin time, as printed (no zone).
    pub begin: NaiveDateTime,
    /// Length, seconds (> 0).
    pub len_s: f64,
    /// IOPS, read IOPS, write IOPS, MB/s, read MB/s, write MB/s.
    pub v: [Option<f64>; 6],
}

/// The series of one subject, ready to align.
#[derive(Debug, Clone)]
pub struct SubjectSeries {
    /// Name (database key or host name).
    pub name: String,
    /// Counted intervals with a begin time, in time order.
    pub points: Vec<Point>,
    /// The subject's own sizing figure (at `--size-on`): the order members are taken in.
    pub own_figure: Option<f64>,
    /// Sized (has a recommendation).
    pub sized: bool,
    /// Counted intervals it has in all (with or without a time).
    pub intervals: usize,
    /// Its times are UTC (sadf), not the local clock.
    pub utc: bool,
    /// Its capacity, GiB, when given.
    pub capacity_gib: Option<f64>,
    /// The demand it was sized from: the largest member's IO character (sizes, latencies,
    /// cache hit) is the shared layout's.
    pub demand: Option<Demand>,
}

/// Why a subject is not part of the consolidated sum.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Excluded {
    /// Not sized (no sizing figure).
    NotSized,
    /// Its intervals have no times.
    NoTimes,
    /// Its median interval is longer than [`MAX_ALIGN_MIN`].
    TooCoarse {
        /// Its median interval, minutes.
        interval_min: f64,
    },
    /// It shares no aligned interval with the members.
    NoOverlap {
        /// Its first interval's begin (ISO 8601, as printed).
        begin: String,
        /// Its last interval's end.
        end: String,
    },
}

/// A subject left out of the sum.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotConsolidated {
    /// Name.
    pub name: String,
    /// Why.
    pub reason: Excluded,
}

/// One member of the sum.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Member {
    /// Name.
    pub name: String,
    /// Its statistic (at `size_on`) of IOPS over the aligned intervals.
    pub iops: Option<f64>,
    /// Its statistic of MB/s over the aligned intervals.
    pub mb_s: Option<f64>,
    /// Its counted intervals outside the aligned window (or without a time): not in the sum.
    pub outside: usize,
}

/// The consolidated figures of a fleet (databases, or hosts).
#[derive(Debug, Clone, Serialize)]
pub struct Consolidation {
    /// The statistic taken (`--size-on`).
    pub size_on: SizeOn,
    /// The common interval length, minutes; `None` when nothing could be aligned.
    pub interval_min: Option<f64>,
    /// Members of the sum, largest own figure first (fewer than 2: no sum, and the one listed
    /// is only the largest subject that could be aligned).
    pub members: Vec<Member>,
    /// Subjects left out, with why.
    pub not_consolidated: Vec<NotConsolidated>,
    /// Begin of the first aligned interval (the bucket time, ISO 8601); `None` without 2
    /// members.
    pub window_begin: Option<String>,
    /// End of the last aligned interval (its bucket's begin + the common length).
    pub window_end: Option<String>,
    /// Aligned intervals in the sum.
    pub aligned_intervals: usize,
    /// The statistic of the summed IOPS: the shared demand. `None` without 2 members.
    pub iops_of_sum: Option<f64>,
    /// The statistic of the summed MB/s.
    pub mb_s_of_sum: Option<f64>,
    /// Σ of the members' own statistics over the same aligned intervals (peaks as if they
    /// coincided).
    pub sum_of_iops: Option<f64>,
    /// Σ of the members' MB/s statistics over the same intervals.
    pub sum_of_mb_s: Option<f64>,
    /// `sum_of_iops − iops_of_sum`, IOPS (≥ 0 for max; a percentile of a sum can exceed the
    /// sum of percentiles only by interpolation).
    pub saving_iops: Option<f64>,
    /// `saving_iops ÷ sum_of_iops × 100`.
    pub saving_pct: Option<f64>,
    /// Begin of the aligned interval where the summed IOPS peaks.
    pub peak_begin: Option<String>,
    /// Members whose times are UTC (aligned as printed: off by the zone offset); empty without
    /// 2 members.
    pub utc_members: Vec<String>,
    /// Σ of the members' capacities, GiB, when every member has one.
    pub capacity_gib: Option<f64>,
    /// Members without a capacity (the shared layout is then performance-only); empty without
    /// 2 members.
    pub capacity_missing: Vec<String>,
    /// `--consolidate`: the shared layout sized on the sum (one array, one layout per cloud).
    pub recommendation: Option<Recommendation>,
    /// The aligned series behind the sum, one row per aligned interval in time order (empty
    /// without 2 members): what the fleet chart stacks.
    pub aligned: Vec<AlignedInterval>,
}

/// One aligned interval of a consolidation.
#[derive(Debug, Clone, Serialize)]
pub struct AlignedInterval {
    /// The bucket's begin (ISO 8601, the members' printed clock).
    pub begin: String,
    /// Each member's IOPS in this interval, in the order of [`Consolidation::members`]
    /// (`None`: unknown there).
    pub iops: Vec<Option<f64>>,
    /// Their sum (`None` when a member's figure is unknown).
    pub sum: Option<f64>,
}

/// 1970-01-01 00:00 of the printed clock: the origin of the buckets.
fn epoch() -> NaiveDateTime {
    chrono::DateTime::UNIX_EPOCH.naive_utc()
}

fn parse(s: &Option<String>) -> Option<NaiveDateTime> {
    s.as_deref()
        .and_then(|s| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").ok())
}

fn iso(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// A database's counted intervals (not excluded) with a begin time: its sizing basis
/// (`required_iops` or `measured_iops`), read and write IOPS, and MB/s.
pub fn database_series(d: &DatabaseAnalysis) -> SubjectSeries {
    // A DMA archive's intervals are hours of the day over its whole window, dated on the
    // window's first day only to be shown: they carry no calendar time to align by, so such a
    // database has no timed point (it is named with `NoTimes`).
    let profile = !d.source_kinds.is_empty()
        && d.source_kinds
            .iter()
            .all(|(_, _, f)| *f == sizer_parsers::Format::DmaArchive);
    let counted: Vec<_> = d
        .intervals
        .iter()
        .filter(|i| !i.excluded && !profile)
        .collect();
    let points = counted
        .iter()
        .filter_map(|i| {
            let begin = parse(&i.interval.begin_time)?;
            let len_s = i
                .interval
                .elapsed_min
                .map(|m| m * 60.0)
                .or_else(|| parse(&i.interval.end_time).map(|e| (e - begin).num_seconds() as f64))
                .filter(|l| *l > 0.0)?;
            let w = &i.workload;
            let basis = if d.sizing_basis == "measured_iops" {
                w.measured_iops.exact
            } else {
                w.required_iops.exact
            };
            Some(Point {
                begin,
                len_s,
                v: [
                    basis,
                    w.read_iops.exact,
                    w.write_iops.exact,
                    w.total_mb_s.exact,
                    w.read_mb_s.exact,
                    w.write_mb_s.exact,
                ],
            })
        })
        .collect();
    SubjectSeries {
        name: d.key.clone(),
        points,
        own_figure: d
            .statistics
            .get(&d.sizing_basis)
            .and_then(|s| s.get(d.size_on)),
        sized: d.recommendation.is_some(),
        intervals: counted.len(),
        utc: false,
        capacity_gib: d.capacity.used.as_ref().map(|c| c.gib),
        demand: Some(d.demand.clone()),
    }
}

/// A host's series: each interval ends at its time stamp and lasts its length; figures are the
/// host totals (IOPS = r/s + w/s + d/s, MB/s).
pub fn host_series(h: &HostAnalysis) -> SubjectSeries {
    use crate::figures::{READ_IOPS, READ_MB, TOTAL_IOPS, TOTAL_MB, WRITE_IOPS, WRITE_MB};
    let points = h
        .series
        .iter()
        .filter_map(|(t, len, f)| {
            let end = (*t)?;
            let len_s = Some(*len).filter(|l| l.is_finite() && *l > 0.0)?;
            Some(Point {
                begin: end - chrono::Duration::milliseconds((len_s * 1000.0) as i64),
                len_s,
                v: [
                    f[TOTAL_IOPS],
                    f[READ_IOPS],
                    f[WRITE_IOPS],
                    f[TOTAL_MB],
                    f[READ_MB],
                    f[WRITE_MB],
                ],
            })
        })
        .collect();
    SubjectSeries {
        name: h.host.clone(),
        points,
        own_figure: h
            .statistics
            .get("total_iops")
            .and_then(|s| s.get(h.size_on)),
        sized: h.recommendation.is_some(),
        intervals: h.series.len(),
        utc: h.sources.iter().any(|s| s.utc),
        capacity_gib: h.capacity.used.as_ref().map(|c| c.gib),
        demand: Some(h.demand.clone()),
    }
}

/// Median of the lengths, seconds (the upper one of an even count).
fn median_s(points: &[Point]) -> Option<f64> {
    crate::model::series::median(points.iter().map(|p| p.len_s).collect())
}

/// A subject's buckets: bucket index → length-weighted mean of each figure (`None` when no
/// interval of the bucket knows it).
type Buckets = BTreeMap<i64, [Option<f64>; 6]>;

/// The bucket of an interval: its midpoint, in minutes since [`epoch`], divided by `l_min` and
/// rounded down. An hourly snapshot at 10:00:39 → 11:00:39 (midpoint 10:30:39) and one at
/// 09:59:58 → 10:59:58 both land in 10:00; quarter hours 10:00 … 10:45 all do too.
fn key_of(p: &Point, l_min: i64) -> i64 {
    let mid = (p.begin - epoch()).num_milliseconds() as f64 / 60_000.0 + p.len_s / 120.0;
    (mid / l_min as f64).floor() as i64
}

fn buckets(points: &[Point], l_min: i64) -> Buckets {
    let mut acc: BTreeMap<i64, [(f64, f64); 6]> = BTreeMap::new();
    for p in points {
        let e = acc.entry(key_of(p, l_min)).or_insert([(0.0, 0.0); 6]);
        for (i, v) in p.v.iter().enumerate() {
            if let Some(v) = v.filter(|v| v.is_finite()) {
                e[i].0 += v * p.len_s;
                e[i].1 += p.len_s;
            }
        }
    }
    acc.into_iter()
        .map(|(k, a)| (k, a.map(|(vs, ws)| (ws > 0.0).then(|| vs / ws))))
        .collect()
}

fn bucket_time(k: i64, l_min: i64) -> String {
    iso(epoch() + chrono::Duration::minutes(k * l_min))
}

/// The statistic `s` of `values` (equal weights: the buckets have one length).
fn stat(values: &[Option<f64>], s: SizeOn) -> (Option<f64>, Option<usize>) {
    let (st, peak) = series_stats(values, |_| 1.0, "");
    (st.get(s), peak)
}

/// Aligns `subjects`, adds them per aligned interval and takes the `settings.size_on` statistic
/// of the sum (see the module docs for the alignment). With `size_shared` (`--consolidate`) and
/// at least two members, the sum is sized as one subject. `None` when there are fewer than two
/// subjects.
pub fn consolidate(
    subjects: &[SubjectSeries],
    rules: &RuleSet,
    settings: &Settings,
    size_shared: bool,
) -> Option<Consolidation> {
    if subjects.len() < 2 {
        return None;
    }
    let size_on = settings.size_on;
    let mut not_consolidated = Vec::new();
    let mut candidates: Vec<(&SubjectSeries, f64)> = Vec::new();
    for s in subjects {
        let reason = if !s.sized {
            Some(Excluded::NotSized)
        } else {
            match median_s(&s.points) {
                None => Some(Excluded::NoTimes),
                Some(m) if m / 60.0 > MAX_ALIGN_MIN => Some(Excluded::TooCoarse {
                    interval_min: trim6(m / 60.0),
                }),
                Some(m) => {
                    candidates.push((s, m));
                    None
                }
            }
        };
        if let Some(reason) = reason {
            not_consolidated.push(NotConsolidated {
                name: s.name.clone(),
                reason,
            });
        }
    }
    // Largest own figure first (unknown last), then input order.
    candidates.sort_by(|a, b| {
        b.0.own_figure
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&a.0.own_figure.unwrap_or(f64::NEG_INFINITY))
    });
    let l_min = candidates
        .iter()
        .map(|(_, m)| (m / 60.0).round() as i64)
        .max()
        .map(|l| l.max(1));
    let mut members: Vec<(&SubjectSeries, Buckets)> = Vec::new();
    let mut window: BTreeSet<i64> = BTreeSet::new();
    if let Some(l) = l_min {
        let all: Vec<Buckets> = candidates
            .iter()
            .map(|(s, _)| buckets(&s.points, l))
            .collect();
        let keys: Vec<BTreeSet<i64>> = all.iter().map(|b| b.keys().copied().collect()).collect();
        // The group: seeded by each candidate in turn (largest first; one already in the best
        // group so far is not tried again), the others joining in order while they share a
        // bucket with the window so far; the largest group wins (the first of equal ones).
        let mut best: (Vec<usize>, BTreeSet<i64>) = (Vec::new(), BTreeSet::new());
        for seed in 0..candidates.len() {
            if best.0.len() == candidates.len() {
                break;
            }
            if best.0.contains(&seed) {
                continue;
            }
            let mut group = vec![seed];
            let mut w = keys[seed].clone();
            for (j, k) in keys.iter().enumerate() {
                if j == seed || w.intersection(k).next().is_none() {
                    continue;
                }
                w = w.intersection(k).copied().collect();
                group.push(j);
            }
            if group.len() > best.0.len() {
                best = (group, w);
            }
        }
        let (mut group, w) = best;
        group.sort_unstable();
        window = w;
        for (j, ((s, _), b)) in candidates.iter().zip(all).enumerate() {
            if group.binary_search(&j).is_ok() {
                members.push((s, b));
                continue;
            }
            let first = s.points.first().map(|p| p.begin);
            let last = s
                .points
                .last()
                .map(|p| p.begin + chrono::Duration::seconds(p.len_s as i64));
            not_consolidated.push(NotConsolidated {
                name: s.name.clone(),
                reason: Excluded::NoOverlap {
                    begin: first.map(iso).unwrap_or_default(),
                    end: last.map(iso).unwrap_or_default(),
                },
            });
        }
    }
    // Input order of the names left out.
    let pos = |n: &str| subjects.iter().position(|s| s.name == n);
    not_consolidated.sort_by_key(|x| pos(&x.name));
    let keys: Vec<i64> = window.iter().copied().collect();
    let summed = |i: usize| -> Vec<Option<f64>> {
        keys.iter()
            .map(|k| {
                members
                    .iter()
                    .map(|(_, b)| b.get(k).and_then(|v| v[i]))
                    .try_fold(0.0, |a, v| v.map(|v| a + v))
            })
            .collect()
    };
    let own = |b: &Buckets, i: usize| -> Vec<Option<f64>> {
        keys.iter().map(|k| b.get(k).and_then(|v| v[i])).collect()
    };
    let two = members.len() >= 2;
    let l = l_min.unwrap_or(1);
    let member_rows: Vec<Member> = members
        .iter()
        .map(|(s, b)| {
            let inside = s
                .points
                .iter()
                .filter(|p| window.contains(&key_of(p, l)))
                .count();
            Member {
                name: s.name.clone(),
                iops: stat(&own(b, 0), size_on).0.map(trim6),
                mb_s: stat(&own(b, 3), size_on).0.map(trim6),
                outside: s.intervals.saturating_sub(inside),
            }
        })
        .collect();
    let iops_sum = summed(0);
    let (iops_of_sum, peak) = if two {
        stat(&iops_sum, size_on)
    } else {
        (None, None)
    };
    let aligned: Vec<AlignedInterval> = if two {
        keys.iter()
            .zip(&iops_sum)
            .map(|(k, sum)| AlignedInterval {
                begin: bucket_time(*k, l),
                iops: members
                    .iter()
                    .map(|(_, b)| b.get(k).and_then(|v| v[0]).map(trim6))
                    .collect(),
                sum: sum.map(trim6),
            })
            .collect()
    } else {
        Vec::new()
    };
    let mb_sum = summed(3);
    let mb_s_of_sum = if two { stat(&mb_sum, size_on).0 } else { None };
    let add = |f: fn(&Member) -> Option<f64>| -> Option<f64> {
        two.then(|| {
            member_rows
                .iter()
                .map(f)
                .try_fold(0.0, |a, v| v.map(|v| a + v))
        })
        .flatten()
    };
    let sum_of_iops = add(|m| m.iops);
    let sum_of_mb_s = add(|m| m.mb_s);
    let saving_iops = match (sum_of_iops, iops_of_sum) {
        (Some(s), Some(c)) => Some(trim6(s - c)),
        _ => None,
    };
    let saving_pct = match (saving_iops, sum_of_iops) {
        (Some(v), Some(s)) if s > 0.0 => Some(trim6(100.0 * v / s)),
        _ => None,
    };
    let capacity_missing: Vec<String> = members
        .iter()
        .filter(|(s, _)| two && s.capacity_gib.is_none())
        .map(|(s, _)| s.name.clone())
        .collect();
    let capacity_gib = (two && capacity_missing.is_empty())
        .then(|| members.iter().filter_map(|(s, _)| s.capacity_gib).sum());
    let recommendation = match iops_of_sum {
        Some(t) if size_shared && t.is_finite() && t >= 0.0 => {
            // The read/write split and the MB/s split of the sum's interval closest to the
            // figure.
            let c = crate::sizing::closest(Some(t), iops_sum.iter().copied());
            let at = |i: usize| c.and_then(|c| summed(i)[c]);
            let (read_iops, write_iops) = proportional(t, at(1), at(2))
                .map(|(r, w)| (Some(trim6(r)), Some(trim6(w))))
                .unwrap_or((None, None));
            let (read_mb_s, write_mb_s) = mb_s_of_sum
                .and_then(|m| proportional(m, at(4), at(5)))
                .map(|(r, w)| (Some(trim6(r)), Some(trim6(w))))
                .unwrap_or((None, None));
            let demand = Demand {
                required_iops: Some(trim6(t)),
                read_iops,
                write_iops,
                read_mb_s,
                write_mb_s,
                capacity_gib,
                window_minutes: Some(l as f64),
                peak_minutes: sustained_minutes(iops_sum.iter().map(|v| (*v, Some(l as f64))), t)
                    .or(Some(l as f64)),
                mean_iops: series_stats(&iops_sum, |_| 1.0, "").0.avg.map(trim6),
                // The IO character (sizes, latencies, cache hit) of the largest member; one
                // host's CPU says nothing of a shared array.
                host_cpu_busy_pct: None,
                host_cpu_iowait_pct: None,
                ..members
                    .first()
                    .and_then(|(s, _)| s.demand.clone())
                    .unwrap_or_default()
            };
            let opts = Options {
                headroom_pct: settings.headroom_pct,
                platforms: settings.platforms.clone(),
                figure_decimals: Some(2),
                formula: Some(format!(
                    "the {} of the members' series added per aligned {l}-minute interval",
                    size_on.name()
                )),
                instance: settings.instance.clone(),
            };
            Some(rules::recommend(rules, &demand, &opts))
        }
        _ => None,
    };
    Some(Consolidation {
        size_on,
        interval_min: l_min.map(|l| l as f64),
        utc_members: members
            .iter()
            .filter(|(s, _)| two && s.utc)
            .map(|(s, _)| s.name.clone())
            .collect(),
        members: member_rows,
        not_consolidated,
        window_begin: keys.first().filter(|_| two).map(|k| bucket_time(*k, l)),
        window_end: keys.last().filter(|_| two).map(|k| bucket_time(*k + 1, l)),
        aligned_intervals: if two { keys.len() } else { 0 },
        iops_of_sum: iops_of_sum.map(trim6),
        mb_s_of_sum: mb_s_of_sum.map(trim6),
        sum_of_iops: sum_of_iops.map(trim6),
        sum_of_mb_s: sum_of_mb_s.map(trim6),
        saving_iops,
        saving_pct,
        peak_begin: peak.and_then(|i| keys.get(i)).map(|k| bucket_time(*k, l)),
        capacity_gib,
        capacity_missing,
        recommendation,
        aligned,
    })
}

/// The consolidations of a run: databases and hosts apart (a database's IO is also in its
/// host's OS figures: adding both would count it twice).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Consolidations {
    /// Over the databases (`None` with fewer than two).
    pub databases: Option<Consolidation>,
    /// Over the hosts of the OS logs (`None` with fewer than two).
    pub hosts: Option<Consolidation>,
}

/// The consolidations of the databases and of the hosts.
pub fn of_run(
    dbs: &[DatabaseAnalysis],
    hosts: &[HostAnalysis],
    rules: &RuleSet,
    settings: &Settings,
) -> Consolidations {
    let d: Vec<SubjectSeries> = dbs.iter().map(database_series).collect();
    let h: Vec<SubjectSeries> = hosts.iter().map(host_series).collect();
    Consolidations {
        databases: consolidate(&d, rules, settings, settings.consolidate),
        hosts: consolidate(&h, rules, settings, settings.consolidate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").unwrap()
    }

    fn subject(name: &str, pts: &[(&str, f64, f64)]) -> SubjectSeries {
        SubjectSeries {
            name: name.into(),
            points: pts
                .iter()
                .map(|(b, len_min, iops)| Point {
                    begin: t(b),
                    len_s: len_min * 60.0,
                    v: [Some(*iops), None, None, Some(iops / 100.0), None, None],
                })
                .collect(),
            own_figure: pts.iter().map(|p| p.2).reduce(f64::max),
            sized: true,
            intervals: pts.len(),
            utc: false,
            capacity_gib: Some(100.0),
            demand: None,
        }
    }

    /// A 15-minute series folds into the hourly buckets of an hourly one (length-weighted
    /// means), begin times round to the nearest hour, and a series of another year is named.
    #[test]
    fn quarter_hours_average_into_hours_and_another_year_is_named() {
        let rules = RuleSet::builtin().unwrap();
        // Midpoints 10:29:40 and 11:30:10: buckets 10:00 and 11:00.
        let hourly = subject(
            "H",
            &[
                ("2024-05-06T09:59:40", 60.0, 1000.0),
                ("2024-05-06T11:00:10", 60.0, 2000.0),
            ],
        );
        // Midpoints 10:07:30 … 10:52:30: bucket 10:00 (equal lengths: the plain mean);
        // 11:00 → 11:30 (midpoint 11:15): bucket 11:00.
        let quarter = subject(
            "Q",
            &[
                ("2024-05-06T10:00:00", 15.0, 100.0),
                ("2024-05-06T10:15:00", 15.0, 200.0),
                ("2024-05-06T10:30:00", 15.0, 300.0),
                ("2024-05-06T10:45:00", 15.0, 400.0),
                ("2024-05-06T11:00:00", 30.0, 500.0),
            ],
        );
        let other = subject("O", &[("2023-01-01T10:00:00", 60.0, 9.0)]);
        let c = consolidate(
            &[quarter, hourly, other],
            &rules,
            &Settings::default(),
            false,
        )
        .unwrap();
        assert_eq!(c.interval_min, Some(60.0));
        // H first (own max 2000 > 500).
        assert_eq!(c.members[0].name, "H");
        assert_eq!(c.aligned_intervals, 2);
        // Sum per bucket: 10:00: 1000 + (100+200+300+400)/4 = 1250; 11:00: 2000 + 500 = 2500.
        // p95 of [1250, 2500] (rank 0.95 × (2 − 1)): 1250 + 0.95 × 1250 = 2437.5.
        assert_eq!(c.iops_of_sum, Some(2437.5));
        // H: 1000 + 0.95 × 1000 = 1950; Q: 250 + 0.95 × 250 = 487.5; Σ 2437.5: the peaks
        // coincide, no saving.
        assert_eq!(c.sum_of_iops, Some(2437.5));
        assert_eq!(c.saving_iops, Some(0.0));
        assert_eq!(c.window_begin.as_deref(), Some("2024-05-06T10:00:00"));
        assert_eq!(c.peak_begin.as_deref(), Some("2024-05-06T11:00:00"));
        assert_eq!(
            c.not_consolidated,
            [NotConsolidated {
                name: "O".into(),
                reason: Excluded::NoOverlap {
                    begin: "2023-01-01T10:00:00".into(),
                    end: "2023-01-01T11:00:00".into()
                }
            }]
        );
        assert_eq!(c.capacity_gib, Some(200.0));
        assert!(c.recommendation.is_none());
    }

    /// Two groups on different days: the larger is summed, even when the largest subject is
    /// in the smaller one.
    #[test]
    fn the_larger_overlapping_group_is_summed() {
        let rules = RuleSet::builtin().unwrap();
        let big = subject("BIG", &[("2024-01-01T10:00:00", 60.0, 9000.0)]);
        let a = subject("A", &[("2024-05-06T10:00:00", 60.0, 100.0)]);
        let b = subject("B", &[("2024-05-06T10:00:30", 60.0, 200.0)]);
        let c = consolidate(&[big, a, b], &rules, &Settings::default(), false).unwrap();
        let names: Vec<&str> = c.members.iter().map(|m| m.name.as_str()).collect();
        // B first: its own figure (200) is larger than A's.
        assert_eq!(names, ["B", "A"]);
        // One bucket: the p95 of [300] is 300.
        assert_eq!(c.iops_of_sum, Some(300.0));
        assert_eq!(c.not_consolidated[0].name, "BIG");
    }

    #[test]
    fn a_multi_day_window_is_too_coarse_and_one_subject_is_no_sum() {
        let rules = RuleSet::builtin().unwrap();
        let a = subject("A", &[("2024-05-06T10:00:00", 60.0, 10.0)]);
        let b = subject("B", &[("2024-05-03T10:00:00", 4320.0, 10.0)]);
        let c = consolidate(&[a, b], &rules, &Settings::default(), true).unwrap();
        assert_eq!(
            c.not_consolidated[0].reason,
            Excluded::TooCoarse {
                interval_min: 4320.0
            }
        );
        assert_eq!(c.members.len(), 1);
        assert_eq!(c.iops_of_sum, None);
        assert_eq!(c.aligned_intervals, 0);
        assert!(c.recommendation.is_none());
    }
}
