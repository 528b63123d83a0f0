//! The one sizing path: a subject's series statistics → a [`Demand`] → [`rules::recommend`] →
//! its recommendation and the warnings of the rules that fired.
//!
//! Every subject (a database from its AWR intervals, a host from its OS disk-log totals, a cluster
//! from its vSAN/esxtop front end) goes through `size`:
//! 1. The sizing figure is the subject's `basis` series (`required_iops`, `measured_iops` or
//!    `total_iops`) at the statistic the user chose ([`Settings::size_on`], default p95).
//! 2. The subject turns that figure into a [`Demand`] (its read/write split, IO sizes, latency
//!    and window, from the sample closest to the figure, see `closest`); the shared path adds
//!    the capacity and the options (headroom, platforms, host type).
//! 3. The rules recommend (headroom is applied there, from `--headroom` or `rules/sizing.toml`).
//! 4. Fired rules with effect `warn` become the subject's warnings, when the subject words them
//!    as warnings (`RuleWarnings`).
//!
//! What differs per subject is only step 2; the helpers here (`closest`, `proportional`,
//! `trim6`, `sustained_minutes`) are the shared pieces of it.

use std::collections::BTreeMap;

use crate::model::series::SeriesStats;
use crate::rules::{self, Demand, Options, Recommendation, RuleSet};
use crate::settings::Settings;
use crate::warning::Warning;

/// Average read size up to which a host's r_await is graded as a small random read on the IO
/// report card (the Delphix random-read test uses small blocks; tier-catalog §4.4), KiB.
pub(crate) const SMALL_READ_KIB: f64 = 32.0;

/// Whether the warnings of fired rules with effect `warn` are added to the subject's warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RuleWarnings {
    /// Databases and hosts: each such rule becomes a [`Warning`] with the rule's id.
    AsWarnings,
    /// Clusters: the report shows them with the recommendation only.
    WithRecommendation,
}

/// What a subject builds from the sizing figure: the demand and how to describe it to the rules.
#[derive(Debug, Clone)]
pub(crate) struct DemandAt {
    /// The figures to size from (before headroom); capacity is set by [`size`].
    pub(crate) demand: Demand,
    /// Decimals the sizing figure is shown with.
    pub(crate) figure_decimals: u32,
    /// How the sizing figure was obtained, when it is not the rules' required-IOPS formula.
    pub(crate) formula: Option<String>,
}

/// The outcome of [`size`].
#[derive(Debug, Clone)]
pub(crate) struct Sized {
    /// The demand the rules sized from (only the capacity when the subject could not be sized).
    pub(crate) demand: Demand,
    /// The recommendation; `None` when the basis has no value at the statistic, or the subject
    /// could not build a demand (the caller says why in its own words).
    pub(crate) recommendation: Option<Recommendation>,
}

/// The value of series `field` at the statistic the user sizes on.
pub(crate) fn at(
    statistics: &BTreeMap<String, SeriesStats>,
    field: &str,
    settings: &Settings,
) -> Option<f64> {
    statistics.get(field).and_then(|s| s.get(settings.size_on))
}

/// Sizes one subject: `basis` is the key in `statistics` of the figure sized; `demand_at` gets
/// that figure at the chosen statistic (and the warnings, to add its own caveats) and returns the
/// demand, or `None` when it cannot build one. A figure that is not a finite number >= 0 is not
/// sized (warning `figure_not_finite`): the answer says the figure is unknown, never sizes on 0.
pub(crate) fn size(
    rules: &RuleSet,
    settings: &Settings,
    statistics: &BTreeMap<String, SeriesStats>,
    basis: &str,
    rule_warnings: RuleWarnings,
    warnings: &mut Vec<Warning>,
    demand_at: impl FnOnce(f64, &mut Vec<Warning>) -> Option<DemandAt>,
) -> Sized {
    let unsized_demand = || Demand {
        capacity_gib: settings.capacity_gib,
        ..Demand::default()
    };
    let figure = at(statistics, basis, settings);
    if let Some(t) = figure.filter(|t| !t.is_finite() || *t < 0.0) {
        // Never sized on a figure that is not a number of IOPS (nor on 0 in its place).
        warnings.push(Warning {
            id: "figure_not_finite".into(),
            message: format!(
                "the sizing figure ({basis} at {}) is {t}, not a finite number of IOPS: not sized",
                settings.size_on.name()
            ),
        });
        return Sized {
            demand: unsized_demand(),
            recommendation: None,
        };
    }
    let Some(call) = figure.and_then(|t| demand_at(t, warnings)) else {
        return Sized {
            demand: unsized_demand(),
            recommendation: None,
        };
    };
    let demand = Demand {
        capacity_gib: settings.capacity_gib,
        ..call.demand
    };
    let opts = Options {
        headroom_pct: settings.headroom_pct,
        platforms: settings.platforms.clone(),
        figure_decimals: Some(call.figure_decimals),
        formula: call.formula,
        instance: settings.instance.clone(),
    };
    let rec = rules::recommend(rules, &demand, &opts);
    if rule_warnings == RuleWarnings::AsWarnings {
        for f in rec
            .fired_rules
            .iter()
            .filter(|f| f.effect == rules::Effect::Warn)
        {
            warnings.push(Warning {
                id: f.id.clone(),
                message: f.message.to_string(),
            });
        }
    }
    Sized {
        demand,
        recommendation: Some(rec),
    }
}

/// Index of the sample whose value is closest to `target` (the first of equally close ones;
/// unknown values are skipped; with no target, the first known value). The sample closest to the
/// sizing figure gives the subject's IO character: read/write split, sizes, latency.
pub(crate) fn closest(
    target: Option<f64>,
    values: impl Iterator<Item = Option<f64>>,
) -> Option<usize> {
    values
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i, (v - target.unwrap_or(v)).abs())))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// `total` split in the proportion `a : b` (`None` when either part is unknown or both are 0):
/// a statistic of total MB/s or IOPS shared between reads and writes as in the sample or the
/// statistics they come from (independent percentiles of reads and writes do not add up to the
/// total's).
pub(crate) fn proportional(total: f64, a: Option<f64>, b: Option<f64>) -> Option<(f64, f64)> {
    match (a, b) {
        (Some(a), Some(b)) if a + b > 0.0 => Some((total * a / (a + b), total * b / (a + b))),
        _ => None,
    }
}

/// A figure trimmed of float noise (rounded to 10⁻⁶), so the JSON reads 3150.22, not
/// 3150.2200000000003.
pub(crate) fn trim6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// Minutes of the longest run of consecutive intervals whose value is at least `target` (each
/// `(value, minutes)` in time order; a missing value breaks a run): how long a load at the sizing
/// figure lasted. `None` when no interval reaches it or lengths are unknown.
pub(crate) fn sustained_minutes(
    values: impl Iterator<Item = (Option<f64>, Option<f64>)>,
    target: f64,
) -> Option<f64> {
    let (mut best, mut run) = (0.0_f64, 0.0_f64);
    for (v, len) in values {
        match (v, len) {
            (Some(v), Some(l)) if v >= target * (1.0 - 1e-9) => {
                run += l;
                best = best.max(run);
            }
            _ => run = 0.0,
        }
    }
    (best > 0.0).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_takes_the_first_of_equals_and_skips_unknowns() {
        let v = [None, Some(10.0), Some(30.0), Some(10.0)];
        assert_eq!(closest(Some(11.0), v.iter().copied()), Some(1));
        assert_eq!(closest(Some(29.0), v.iter().copied()), Some(2));
        assert_eq!(closest(None, v.iter().copied()), Some(1));
        assert_eq!(closest(Some(1.0), [None, None].into_iter()), None);
    }

    #[test]
    fn proportional_split() {
        assert_eq!(proportional(10.0, Some(3.0), Some(1.0)), Some((7.5, 2.5)));
        assert_eq!(proportional(10.0, Some(0.0), Some(0.0)), None);
        assert_eq!(proportional(10.0, None, Some(1.0)), None);
    }

    #[test]
    fn sustained_run_of_intervals() {
        let s = [
            (Some(5.0), Some(60.0)),
            (Some(9.0), Some(60.0)),
            (Some(10.0), Some(30.0)),
            (None, Some(60.0)),
            (Some(9.5), Some(15.0)),
        ];
        assert_eq!(sustained_minutes(s.iter().copied(), 9.0), Some(90.0));
        assert_eq!(sustained_minutes(s.iter().copied(), 11.0), None);
    }
}
