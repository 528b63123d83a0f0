//! Chart data: what each chart of a report plots, computed from a subject's interval series.
//!
//! Flow: a finished [`DatabaseAnalysis`] → [`database_charts`] → a list of [`Chart`]s (pure
//! data: points, reference lines, the peak marker, grade bands) → `report::svg` draws each one
//! as SVG. Every point is a figure the JSON already carries (`databases[].intervals[].workload`,
//! `statistics`, `recommendation.sized_iops`), so the charts add no figure of their own and can
//! be checked by their data, not by pixels.
//!
//! Charts are made for a subject with at least two intervals that have a begin time (a line over
//! time needs two points). The x axis is the interval's begin time on the source's own clock
//! (AWR: the database host's local time, as the report prints it; no zone is assumed).

use chrono::NaiveDateTime;

use crate::figures::HostFigures;
use crate::rules::grade::ReportCardSpec;
use crate::subject::database::DatabaseAnalysis;
use crate::subject::host::HostAnalysis;

/// One chart: series of points over time, with reference lines and marks.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// File-name stem, unique within its subject: `iops`, `mb_s`, `latency`, `cpu`.
    pub id: &'static str,
    /// Title (`Required IOPS per interval`).
    pub title: String,
    /// Unit of the y axis (`IOPS`, `MB/s (10^6 B/s)`, `ms`, `%`).
    pub unit: &'static str,
    /// What the x axis is (`interval begin, database host clock`).
    pub clock: String,
    /// The series drawn, each a line.
    pub series: Vec<ChartSeries>,
    /// Horizontal reference lines (the sizing line: statistic plus headroom).
    pub lines: Vec<RefLine>,
    /// The peak of the first series, marked.
    pub peak: Option<Marker>,
    /// Grade bands (latency charts): the IO report card's letter bounds, ms.
    pub bands: Vec<Band>,
    /// Bars instead of lines (a single interval): the demand against what each platform's
    /// recommended layout delivers. Empty for a line chart.
    pub bars: Vec<Bar>,
    /// The series are stacked (each drawn on top of the ones before it): the fleet chart.
    pub stacked: bool,
}

/// One bar of a single-interval chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// What it is.
    pub kind: BarKind,
    /// The value, in the chart's unit.
    pub value: f64,
}

/// What a bar stands for.
#[derive(Debug, Clone, PartialEq)]
pub enum BarKind {
    /// The required figure of the interval (before headroom).
    Required,
    /// The sized demand: required plus `headroom_pct` %.
    Sized {
        /// Headroom, %.
        headroom_pct: f64,
    },
    /// What a platform's recommended layout delivers.
    Layout {
        /// Platform name (`AWS EBS (us-east-1, on-demand list prices)`).
        platform: String,
        /// Units (`4`).
        count: u32,
        /// Tier id (`aws.gp3`).
        tier_id: String,
    },
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSeries {
    /// Legend name (`read IOPS`).
    pub name: String,
    /// Points in time order; a `None` value is unknown in that interval (a gap, never 0).
    pub points: Vec<Point>,
}

/// A point: the interval's begin time and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Begin time as the source prints it (ISO 8601 without zone).
    pub time: String,
    /// Seconds from the first point's time (the x coordinate).
    pub x: f64,
    /// The value, or unknown.
    pub y: Option<f64>,
}

/// A horizontal line across the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct RefLine {
    /// What it stands for; the renderer words the legend from these fields
    /// (`sized: p95 + 30 % headroom = 1,298`).
    pub kind: RefKind,
    /// The sizing statistic's name (`p95`, `max`, `average`).
    pub statistic: String,
    /// The y value.
    pub value: f64,
}

/// What a reference line stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RefKind {
    /// The sized demand: the sizing statistic plus `headroom_pct` %.
    Sized {
        /// Headroom, %.
        headroom_pct: f64,
    },
    /// The sizing statistic itself (p95, max… of the series).
    Statistic,
    /// The members' own statistics added (a fleet chart: as if their peaks coincided).
    SumOfMembers,
}

/// The peak of a series.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// The point.
    pub point: Point,
}

/// A band of the IO report card: latencies up to `upper_ms` (above the previous band) grade
/// `letter`.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// Grade letter (`A+`).
    pub letter: String,
    /// Upper bound, ms.
    pub upper_ms: f64,
}

/// Timed rows of a subject's series, and the first time (x = 0).
struct Rows<'a, T> {
    rows: Vec<(String, NaiveDateTime, &'a T)>,
    t0: NaiveDateTime,
}

impl<'a, T> Rows<'a, T> {
    /// `None` below two rows.
    fn new(rows: Vec<(String, NaiveDateTime, &'a T)>) -> Option<Self> {
        if rows.len() < 2 {
            return None;
        }
        let t0 = rows.iter().map(|r| r.1).min()?;
        Some(Rows { rows, t0 })
    }

    fn series(&self, name: &str, f: impl Fn(&T) -> Option<f64>) -> ChartSeries {
        let mut points: Vec<Point> = self
            .rows
            .iter()
            .map(|(t, at, w)| Point {
                time: t.clone(),
                x: (*at - self.t0).num_milliseconds() as f64 / 1000.0,
                y: f(w),
            })
            .collect();
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        ChartSeries {
            name: name.to_string(),
            points,
        }
    }
}

/// The reference lines of a sized figure: the statistic itself (IOPS only) and the sized line.
fn sizing_lines(statistic: &str, headroom_pct: f64, stat: Option<f64>, sized: f64) -> Vec<RefLine> {
    let mut lines = Vec::new();
    if let Some(v) = stat {
        lines.push(RefLine {
            kind: RefKind::Statistic,
            statistic: statistic.to_string(),
            value: v,
        });
    }
    lines.push(RefLine {
        kind: RefKind::Sized { headroom_pct },
        statistic: statistic.to_string(),
        value: sized,
    });
    lines
}

/// The report card's bands of the test graded by `measured_by`, best letter first.
fn bands(card: Option<&ReportCardSpec>, measured_by: &str) -> Vec<Band> {
    let Some(card) = card else {
        return Vec::new();
    };
    let Some(t) = card.test.iter().find(|t| t.measured_by == measured_by) else {
        return Vec::new();
    };
    t.bounds_ms
        .iter()
        .zip(&card.letters)
        .map(|(&upper_ms, letter)| Band {
            letter: letter.clone(),
            upper_ms,
        })
        .collect()
}

/// The four charts of a subject, from its series: IOPS (with the sizing lines and the peak of
/// the first series), MB/s, latency (with bands) and CPU; latency and CPU only where a value is
/// known.
struct Parts {
    clock: String,
    iops: (Vec<ChartSeries>, Vec<RefLine>),
    mb_s: (Vec<ChartSeries>, Vec<RefLine>),
    latency: (Vec<ChartSeries>, Vec<Band>),
    cpu: Vec<ChartSeries>,
}

fn assemble(p: Parts) -> Vec<Chart> {
    let mut out = Vec::new();
    let first_peak = |s: &[ChartSeries]| s.first().and_then(peak_of);
    out.push(Chart {
        id: "iops",
        title: "IOPS per interval".into(),
        unit: "IOPS",
        clock: p.clock.clone(),
        peak: first_peak(&p.iops.0),
        series: p.iops.0,
        lines: p.iops.1,
        bands: Vec::new(),
        bars: Vec::new(),
        stacked: false,
    });
    out.push(Chart {
        id: "mb_s",
        title: "Throughput per interval".into(),
        unit: "MB/s (10^6 B/s)",
        clock: p.clock.clone(),
        peak: first_peak(&p.mb_s.0),
        series: p.mb_s.0,
        lines: p.mb_s.1,
        bands: Vec::new(),
        bars: Vec::new(),
        stacked: false,
    });
    if p.latency.0.iter().any(has_values) {
        out.push(Chart {
            id: "latency",
            title: "Latency per interval (averages)".into(),
            unit: "ms",
            clock: p.clock.clone(),
            series: p.latency.0,
            lines: Vec::new(),
            peak: None,
            bands: p.latency.1,
            bars: Vec::new(),
            stacked: false,
        });
    }
    if p.cpu.first().is_some_and(has_values) {
        out.push(Chart {
            id: "cpu",
            title: "Host CPU per interval".into(),
            unit: "%",
            clock: p.clock,
            peak: first_peak(&p.cpu),
            series: p.cpu,
            lines: Vec::new(),
            bands: Vec::new(),
            bars: Vec::new(),
            stacked: false,
        });
    }
    out
}

/// The charts of one database: required, read and write IOPS with the sizing statistic, the
/// sized line and the peak; MB/s with the sized line; `db file sequential read` and `log file
/// parallel write` averages with the report card's bands for small random reads; host CPU busy
/// and iowait where a CPU figure exists. Empty for fewer than two timed intervals. Intervals
/// left out of the statistics (restarts) are left out here too. x = the interval's begin time.
pub fn database_charts(d: &DatabaseAnalysis, card: Option<&ReportCardSpec>) -> Vec<Chart> {
    let rows = d
        .intervals
        .iter()
        .filter(|iv| !iv.excluded)
        .filter_map(|iv| {
            let t = iv.interval.begin_time.as_deref()?;
            Some((t.to_string(), parse_time(t)?, &iv.workload))
        })
        .collect();
    let Some(r) = Rows::new(rows) else {
        return d
            .recommendation
            .as_ref()
            .map(single_interval)
            .into_iter()
            .collect();
    };
    let rec = d.recommendation.as_ref();
    let stat = d.size_on.name();
    assemble(Parts {
        clock: "interval begin, the database host's clock".into(),
        iops: (
            vec![
                // Where the required formula is unknown (no redo writes: a RAC collector
                // capture), sizing uses measured IOPS, and so does the chart.
                Some(r.series("required IOPS", |w| w.required_iops.exact))
                    .filter(has_values)
                    .unwrap_or_else(|| {
                        r.series("measured IOPS (read + write)", |w| w.measured_iops.exact)
                    }),
                r.series("read IOPS", |w| w.read_iops.exact),
                r.series("write IOPS", |w| w.write_iops.exact),
            ],
            rec.map(|x| sizing_lines(stat, x.headroom_pct, Some(x.required_iops), x.sized_iops))
                .unwrap_or_default(),
        ),
        mb_s: (
            vec![
                r.series("total MB/s", |w| w.total_mb_s.exact),
                r.series("read MB/s", |w| w.read_mb_s.exact),
                r.series("write MB/s", |w| w.write_mb_s.exact),
            ],
            rec.and_then(|x| Some(sizing_lines(stat, x.headroom_pct, None, x.sized_mb_s?)))
                .unwrap_or_default(),
        ),
        latency: (
            vec![
                r.series("db file sequential read (ms)", |w| {
                    w.db_file_sequential_read_ms.exact
                }),
                r.series("log file parallel write (ms)", |w| {
                    w.log_file_parallel_write_ms.exact
                }),
            ],
            bands(card, "single_block_read_ms"),
        ),
        cpu: vec![
            r.series("host CPU busy (%)", |w| w.host_cpu_busy_pct.exact),
            r.series("host CPU iowait (%)", |w| w.host_cpu_iowait_pct.exact),
        ],
    })
}

/// The charts of one host, from its host-total series (`figures::FIGURES`): total, read and
/// write IOPS with the sizing statistic, the sized line and the peak; MB/s; `r_await` and
/// `w_await` (ms, weighted by each device's requests) with the small-random-read bands; CPU
/// busy and iowait where the logs print a CPU. x = the sample time, which ends its interval, on
/// the host's clock.
pub fn host_charts(h: &HostAnalysis, card: Option<&ReportCardSpec>) -> Vec<Chart> {
    let rows = h
        .series
        .iter()
        .filter_map(|(t, _, v)| {
            let t = (*t)?;
            Some((t.format("%Y-%m-%dT%H:%M:%S").to_string(), t, v))
        })
        .collect();
    let Some(r) = Rows::new(rows) else {
        return h
            .recommendation
            .as_ref()
            .map(single_interval)
            .into_iter()
            .collect();
    };
    let at = |name: &str| crate::figures::FIGURES.iter().position(|f| f.0 == name);
    let fig = |name: &'static str| {
        let i = at(name);
        move |v: &HostFigures| i.and_then(|i| v.get(i).copied().flatten())
    };
    let rec = h.recommendation.as_ref();
    let stat = h.size_on.name();
    assemble(Parts {
        clock: "sample time (end of each interval), the host's clock".into(),
        iops: (
            vec![
                r.series("IOPS", fig("total_iops")),
                r.series("read IOPS", fig("read_iops")),
                r.series("write IOPS", fig("write_iops")),
            ],
            rec.map(|x| sizing_lines(stat, x.headroom_pct, Some(x.required_iops), x.sized_iops))
                .unwrap_or_default(),
        ),
        mb_s: (
            vec![
                r.series("total MB/s", fig("total_mb_s")),
                r.series("read MB/s", fig("read_mb_s")),
                r.series("write MB/s", fig("write_mb_s")),
            ],
            rec.and_then(|x| Some(sizing_lines(stat, x.headroom_pct, None, x.sized_mb_s?)))
                .unwrap_or_default(),
        ),
        latency: (
            vec![
                r.series("r_await (ms)", fig("r_await_ms")),
                r.series("w_await (ms)", fig("w_await_ms")),
            ],
            bands(card, "single_block_read_ms"),
        ),
        cpu: vec![
            r.series("host CPU busy (%)", fig("host_cpu_busy_pct")),
            r.series("host CPU iowait (%)", fig("host_cpu_iowait_pct")),
        ],
    })
}

/// The chart of a subject with one interval: its required and sized IOPS against the IOPS each
/// platform's recommended layout delivers (`iops_capability`), as bars.
fn single_interval(rec: &crate::rules::Recommendation) -> Chart {
    let mut bars = vec![
        Bar {
            kind: BarKind::Required,
            value: rec.required_iops,
        },
        Bar {
            kind: BarKind::Sized {
                headroom_pct: rec.headroom_pct,
            },
            value: rec.sized_iops,
        },
    ];
    for p in &rec.platforms {
        if let Some(o) = &p.recommended {
            bars.push(Bar {
                kind: BarKind::Layout {
                    platform: p.name.clone(),
                    count: o.count,
                    tier_id: o.tier_id.clone(),
                },
                value: o.iops_capability,
            });
        }
    }
    Chart {
        id: "iops",
        title: "IOPS: the demand against the recommended layouts".into(),
        unit: "IOPS",
        clock: String::new(),
        series: Vec::new(),
        lines: Vec::new(),
        peak: None,
        bands: Vec::new(),
        bars,
        stacked: false,
    }
}

/// The fleet chart of a consolidation with at least two members: each member's IOPS per
/// aligned interval, stacked, with the statistic of the sum and the members' own statistics
/// added (the saving is the gap between them); the peak of the sum marked. `None` without an
/// aligned series. x = the aligned interval's begin on the members' printed clock.
pub fn fleet_chart(c: &crate::consolidate::Consolidation) -> Option<Chart> {
    let first = c.aligned.first()?;
    let t0 = parse_time(&first.begin)?;
    let points = |f: &dyn Fn(&crate::consolidate::AlignedInterval) -> Option<f64>| {
        c.aligned
            .iter()
            .filter_map(|a| {
                let t = parse_time(&a.begin)?;
                Some(Point {
                    time: a.begin.clone(),
                    x: (t - t0).num_milliseconds() as f64 / 1000.0,
                    y: f(a),
                })
            })
            .collect::<Vec<_>>()
    };
    let series: Vec<ChartSeries> = c
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| ChartSeries {
            name: m.name.clone(),
            points: points(&|a| a.iops.get(i).copied().flatten()),
        })
        .collect();
    let sum = ChartSeries {
        name: "sum".into(),
        points: points(&|a| a.sum),
    };
    let statistic = c.size_on.name().to_string();
    let mut lines = Vec::new();
    if let Some(v) = c.iops_of_sum {
        lines.push(RefLine {
            kind: RefKind::Statistic,
            statistic: statistic.clone(),
            value: v,
        });
    }
    if let Some(v) = c.sum_of_iops {
        lines.push(RefLine {
            kind: RefKind::SumOfMembers,
            statistic,
            value: v,
        });
    }
    Some(Chart {
        id: "iops",
        title: "Fleet IOPS on time-aligned intervals (stacked)".into(),
        unit: "IOPS",
        clock: "aligned interval begin, the members' clock".into(),
        peak: peak_of(&sum),
        series,
        lines,
        bands: Vec::new(),
        bars: Vec::new(),
        stacked: true,
    })
}

/// The highest known point of `s` (the first of equal ones).
fn peak_of(s: &ChartSeries) -> Option<Marker> {
    s.points
        .iter()
        .filter(|p| p.y.is_some())
        .fold(None::<&Point>, |best, p| match best {
            Some(b) if b.y >= p.y => Some(b),
            _ => Some(p),
        })
        .map(|p| Marker { point: p.clone() })
}

fn has_values(s: &ChartSeries) -> bool {
    s.points.iter().any(|p| p.y.is_some())
}

/// `2018-01-11T09:30:36` (or with a space, or fractional seconds) as a local time.
pub fn parse_time(t: &str) -> Option<NaiveDateTime> {
    [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
    ]
    .iter()
    .find_map(|f| NaiveDateTime::parse_from_str(t, f).ok())
}
