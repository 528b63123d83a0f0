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

use crate::rules::grade::ReportCardSpec;
use crate::subject::database::DatabaseAnalysis;

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

/// The charts of one database: required, read and write IOPS with the sizing line and the peak;
/// MB/s; single-block read and log write latency with the report card's bands for small random
/// reads; host CPU busy where a CPU figure exists. Empty for fewer than two timed intervals.
/// Intervals left out of the statistics (restarts) are left out here too.
pub fn database_charts(d: &DatabaseAnalysis, card: Option<&ReportCardSpec>) -> Vec<Chart> {
    let rows: Vec<_> = d
        .intervals
        .iter()
        .filter(|iv| !iv.excluded)
        .filter_map(|iv| {
            let t = iv.interval.begin_time.as_deref()?;
            Some((t, parse_time(t)?, &iv.workload))
        })
        .collect();
    if rows.len() < 2 {
        return Vec::new();
    }
    let t0 = rows.iter().map(|r| r.1).min().expect("two rows");
    let series = |name: &str, f: &dyn Fn(&crate::metrics::IntervalFigures) -> Option<f64>| {
        let mut points: Vec<Point> = rows
            .iter()
            .map(|(t, at, w)| Point {
                time: t.to_string(),
                x: (*at - t0).num_milliseconds() as f64 / 1000.0,
                y: f(w),
            })
            .collect();
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        ChartSeries {
            name: name.to_string(),
            points,
        }
    };
    let clock = "interval begin, the database host's clock".to_string();
    let rec = d.recommendation.as_ref();
    let statistic = d.size_on.name().to_string();
    let mut out = Vec::new();

    let required = series("required IOPS", &|w| w.required_iops.exact);
    let peak = peak_of(&required);
    let mut lines = Vec::new();
    if let Some(r) = rec {
        lines.push(RefLine {
            kind: RefKind::Statistic,
            statistic: statistic.clone(),
            value: r.required_iops,
        });
        lines.push(RefLine {
            kind: RefKind::Sized {
                headroom_pct: r.headroom_pct,
            },
            statistic: statistic.clone(),
            value: r.sized_iops,
        });
    }
    out.push(Chart {
        id: "iops",
        title: "IOPS per interval".into(),
        unit: "IOPS",
        clock: clock.clone(),
        series: vec![
            required,
            series("read IOPS", &|w| w.read_iops.exact),
            series("write IOPS", &|w| w.write_iops.exact),
        ],
        lines,
        peak,
        bands: Vec::new(),
    });

    let total = series("total MB/s", &|w| w.total_mb_s.exact);
    let mut lines = Vec::new();
    if let Some((r, mb)) = rec.and_then(|r| Some((r, r.sized_mb_s?))) {
        lines.push(RefLine {
            kind: RefKind::Sized {
                headroom_pct: r.headroom_pct,
            },
            statistic: statistic.clone(),
            value: mb,
        });
    }
    out.push(Chart {
        id: "mb_s",
        title: "Throughput per interval".into(),
        unit: "MB/s (10^6 B/s)",
        clock: clock.clone(),
        peak: peak_of(&total),
        series: vec![
            total,
            series("read MB/s", &|w| w.read_mb_s.exact),
            series("write MB/s", &|w| w.write_mb_s.exact),
        ],
        lines,
        bands: Vec::new(),
    });

    let reads = series("db file sequential read (ms)", &|w| {
        w.db_file_sequential_read_ms.exact
    });
    let logs = series("log file parallel write (ms)", &|w| {
        w.log_file_parallel_write_ms.exact
    });
    if has_values(&reads) || has_values(&logs) {
        let bands = card
            .and_then(|card| {
                let t = card
                    .test
                    .iter()
                    .find(|t| t.measured_by == "single_block_read_ms")?;
                Some((card, t))
            })
            .map(|(card, t)| {
                t.bounds_ms
                    .iter()
                    .zip(&card.letters)
                    .map(|(&upper_ms, letter)| Band {
                        letter: letter.clone(),
                        upper_ms,
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.push(Chart {
            id: "latency",
            title: "Latency per interval (average waits)".into(),
            unit: "ms",
            clock: clock.clone(),
            series: vec![reads, logs],
            lines: Vec::new(),
            peak: None,
            bands,
        });
    }

    let cpu = series("host CPU busy (%)", &|w| w.host_cpu_busy_pct.exact);
    if has_values(&cpu) {
        out.push(Chart {
            id: "cpu",
            title: "Host CPU busy per interval".into(),
            unit: "%",
            clock,
            peak: peak_of(&cpu),
            series: vec![
                cpu,
                series("host CPU iowait (%)", &|w| w.host_cpu_iowait_pct.exact),
            ],
            lines: Vec::new(),
            bands: Vec::new(),
        });
    }
    out
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
