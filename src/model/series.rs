//! Statistics of one figure over a series, the same for every subject: a database's intervals, a
//! host's OS intervals, a cluster's samples. The subject supplies the values and their weights
//! (what the average is weighted by differs) and names the peak's time from the index returned.

use polars::prelude::*;
use serde::Serialize;

use crate::settings::SizeOn;

/// Average, percentiles and max of one figure over a database's intervals.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesStats {
    /// Unit of the figure.
    pub unit: &'static str,
    /// Intervals with a known value (excluded intervals are not counted).
    pub n: usize,
    /// Time-weighted average (weights: interval length).
    pub avg: Option<f64>,
    /// Median (linear interpolation between closest ranks).
    pub p50: Option<f64>,
    /// 95th percentile (linear interpolation).
    pub p95: Option<f64>,
    /// 99th percentile (linear interpolation).
    pub p99: Option<f64>,
    /// Largest value.
    pub max: Option<f64>,
    /// Begin time of the interval with the largest value.
    pub peak_begin: Option<String>,
    /// End time of that interval.
    pub peak_end: Option<String>,
}

impl SeriesStats {
    /// The value of statistic `s`.
    pub fn get(&self, s: SizeOn) -> Option<f64> {
        match s {
            SizeOn::Avg => self.avg,
            SizeOn::P50 => self.p50,
            SizeOn::P95 => self.p95,
            SizeOn::P99 => self.p99,
            SizeOn::Max | SizeOn::MaxInInterval => self.max,
        }
    }
}

/// Statistics of one figure over a series: `values[i]` is sample `i` (`None` or not finite =
/// unknown, left out of every statistic), `weight(i)` its weight in the average (a weight that
/// is not a finite number >= 0 counts as 0). No statistic is NaN or infinite.
///
/// - `avg` = Σ vᵢ·wᵢ ÷ Σ wᵢ over the known values (`None` when Σ wᵢ = 0). Databases weigh by
///   interval length, hosts by interval length (× requests for latencies and IO sizes), clusters
///   by the gap to the previous sample.
/// - `p50`, `p95`, `p99`: polars' quantile with linear interpolation between closest ranks.
/// - `max`, and the index of the sample that holds it (the first of equal maxima), returned
///   beside the statistics so that the caller can name its time (`peak_begin`, `peak_end` are
///   left `None` here).
pub fn series_stats(
    values: &[Option<f64>],
    weight: impl Fn(usize) -> f64,
    unit: &'static str,
) -> (SeriesStats, Option<usize>) {
    // A value that is not finite is unknown here too (the parsers let none through; a sum or a
    // ratio of the engine might still overflow): it never becomes a NaN statistic.
    let finite = |v: &Option<f64>| v.filter(|x| x.is_finite());
    let ca = Float64Chunked::from_iter_options("v".into(), values.iter().map(finite));
    let q = |p: f64| ca.quantile(p, QuantileMethod::Linear).ok().flatten();
    let (mut wsum, mut vsum) = (0.0, 0.0);
    let mut peak: Option<(usize, f64)> = None;
    for (i, v) in values.iter().enumerate() {
        if let Some(v) = finite(v) {
            let w = Some(weight(i))
                .filter(|w| w.is_finite() && *w >= 0.0)
                .unwrap_or(0.0);
            wsum += w;
            vsum += v * w;
            match peak {
                Some((_, b)) if b >= v => {}
                _ => peak = Some((i, v)),
            }
        }
    }
    let stats = SeriesStats {
        unit,
        n: ca.len() - ca.null_count(),
        avg: (wsum > 0.0).then(|| vsum / wsum).filter(|a| a.is_finite()),
        p50: q(0.50),
        p95: q(0.95),
        p99: q(0.99),
        max: ca.max(),
        peak_begin: None,
        peak_end: None,
    };
    (stats, peak.map(|(i, _)| i))
}

/// The 95th and 99th percentiles (linear interpolation) of `f32` samples, rounded to 4 decimals
/// (the per-device figures of OS disk logs are kept as `f32` to bound memory).
pub fn p95_p99_f32(values: Vec<f32>) -> (Option<f64>, Option<f64>) {
    let ca = Float32Chunked::from_vec("v".into(), values);
    let q = |p: f64| {
        ca.quantile(p, QuantileMethod::Linear)
            .ok()
            .flatten()
            .map(|v| (v as f64 * 1e4).round() / 1e4)
    };
    (q(0.95), q(0.99))
}

/// The upper median of `v` (the middle value, or the higher of the two middle ones); `None` when
/// empty. Used for the usual sampling interval of a host series.
pub(crate) fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}
