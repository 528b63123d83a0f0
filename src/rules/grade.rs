//! IO report card: letter grades for measured latencies, in the style of the Delphix IO
//! Report Card (tier-catalog §4.4: support.delphix.com KBA1001; thresholds from Kyle Hailey's
//! `khailey-zz/fio_scripts`, `grade.r`). Four tests, each graded on its 95th-percentile
//! latency: small random reads, 1 MiB sequential reads, 1 KiB log writes and 128 KiB log
//! writes; A+ … C-, anything slower than the last bound is D.
//!
//! The thresholds are data (`[report_card]` of `rules/sizing.toml`). The engine grades what
//! the evidence measured (AWR average waits are at most their p95, so the grade of an average
//! is the best the p95 could earn) and the worst latency each tier's published class allows
//! (catalogue `latency_ms`); a tier whose grade is worse than today's may slow the workload.

use serde::{Deserialize, Serialize};

use super::demand::AverageBounds;
use super::findings::Grade;
use super::{Demand, RulesError, Tier};

/// One test of the card (`[[report_card.test]]`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardTest {
    /// Id (`random_read`).
    pub id: String,
    /// What the test measures.
    pub name: String,
    /// Upper bounds of the letters, ms, ascending (one per letter of
    /// [`ReportCardSpec::letters`]).
    pub bounds_ms: Vec<f64>,
    /// Which measured figure it grades: `single_block_read_ms`, `large_read_ms`,
    /// `log_write_ms`, `direct_path_read_ms` or `smart_scan_ms` (fields of [`Demand`]).
    pub measured_by: String,
    /// Log writes only: the test applies when the average log write
    /// ([`Demand::avg_log_write_kib`]) is below this size, KiB; unknown size = both apply.
    #[serde(default)]
    pub io_kib_below: Option<f64>,
    /// Log writes only: the test applies when the average log write is at least this, KiB.
    #[serde(default)]
    pub io_kib_from: Option<f64>,
    /// Left out of the card when the evidence does not measure it (events that only some
    /// databases have: `direct path read`, Exadata's `cell smart table scan`).
    #[serde(default)]
    pub only_when_measured: bool,
}

/// `[report_card]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportCardSpec {
    /// Letters from best to worst; a latency above the last bound gets `below_last`.
    pub letters: Vec<String>,
    /// Letter for a latency above every bound (`D`).
    pub below_last: String,
    /// Tests.
    pub test: Vec<CardTest>,
    /// Where the thresholds come from.
    pub source: String,
    /// Storage floor, ms (policy): a measured average below it (its upper bound included, when
    /// it was recomputed from a coarse total) is faster than any storage device serves an IO,
    /// so the IOs were served from a cache (OS page cache, host memory): the test is graded but
    /// tiers are not compared with it. `None` = no floor.
    #[serde(default)]
    pub storage_floor_ms: Option<f64>,
    /// Why the floor is where it is.
    #[serde(default)]
    pub storage_floor_source: Option<String>,
}

impl ReportCardSpec {
    /// Check shapes; `file` names the file in errors.
    pub(crate) fn check(&self, file: &str) -> Result<(), RulesError> {
        let err = |key: String, message: String| RulesError::Invalid {
            file: file.to_string(),
            key,
            message,
        };
        if self.letters.is_empty() {
            return Err(err(
                "report_card.letters".into(),
                "needs at least one letter".into(),
            ));
        }
        if self.source.trim().is_empty() {
            return Err(err("report_card.source".into(), "must not be empty".into()));
        }
        if let Some(f) = self.storage_floor_ms {
            if !f.is_finite() || f <= 0.0 {
                return Err(err(
                    "report_card.storage_floor_ms".into(),
                    "must be a positive number of ms".into(),
                ));
            }
            if self
                .storage_floor_source
                .as_deref()
                .is_none_or(|s| s.trim().is_empty())
            {
                return Err(err(
                    "report_card.storage_floor_source".into(),
                    "is required with storage_floor_ms".into(),
                ));
            }
        }
        for (i, t) in self.test.iter().enumerate() {
            let k = format!("report_card.test[{i}]");
            if t.bounds_ms.len() != self.letters.len() {
                return Err(err(
                    format!("{k}.bounds_ms"),
                    format!(
                        "needs one bound per letter ({}), got {}",
                        self.letters.len(),
                        t.bounds_ms.len()
                    ),
                ));
            }
            if t.bounds_ms.windows(2).any(|w| w[1] <= w[0])
                || t.bounds_ms.iter().any(|b| !b.is_finite() || *b <= 0.0)
            {
                return Err(err(
                    format!("{k}.bounds_ms"),
                    "must be positive and ascending".into(),
                ));
            }
            if measured(&Demand::default(), &t.measured_by).is_err() {
                return Err(err(
                    format!("{k}.measured_by"),
                    format!(
                        "unknown figure \"{}\" (known: single_block_read_ms, large_read_ms, log_write_ms, direct_path_read_ms, smart_scan_ms)",
                        t.measured_by
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Letter index for `ms` on `t` (0 = best; `letters.len()` = `below_last`).
    pub fn index(&self, t: &CardTest, ms: f64) -> usize {
        t.bounds_ms
            .iter()
            .position(|b| ms < *b)
            .unwrap_or(self.letters.len())
    }

    /// Letter for index `i`.
    pub fn letter(&self, i: usize) -> &str {
        self.letters
            .get(i)
            .map(String::as_str)
            .unwrap_or(&self.below_last)
    }
}

fn measured(d: &Demand, name: &str) -> Result<Option<f64>, ()> {
    match name {
        "single_block_read_ms" => Ok(d.single_block_read_ms),
        "large_read_ms" => Ok(d.large_read_ms),
        "log_write_ms" => Ok(d.log_write_ms),
        "direct_path_read_ms" => Ok(d.direct_path_read_ms),
        "smart_scan_ms" => Ok(d.smart_scan_ms),
        _ => Err(()),
    }
}

/// The p95 range (from a wait histogram) of the figure a test grades, if known.
fn measured_p95(d: &Demand, name: &str) -> Option<(f64, f64)> {
    match name {
        "single_block_read_ms" => d.single_block_read_p95,
        "large_read_ms" => d.large_read_p95,
        "log_write_ms" => d.log_write_p95,
        _ => None,
    }
}

fn range_ser<S: serde::Serializer>(v: &Option<(f64, f64)>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some((lo, hi)) => (lo, hi.is_finite().then_some(*hi)).serialize(s),
        None => s.serialize_none(),
    }
}

/// The grade of one measured figure.
#[derive(Debug, Clone, Serialize)]
pub struct TestGrade {
    /// Test id.
    pub test: String,
    /// Test description.
    pub name: String,
    /// Measured average latency, ms; `None` = not measured.
    pub measured_ms: Option<f64>,
    /// The waits the grade rests on (AWR: `Waits` of the event whose average is graded);
    /// `None` when not a wait event or not graded.
    pub waits: Option<f64>,
    /// The average's bounds, ms, where it was recomputed from a coarsely printed total (AWR
    /// Total Wait Time / Waits); without a histogram the grade spans the bounds' letters, and
    /// an average known only as "at most" (a total printed as 0) is `measured_ms` = its bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_bounds: Option<AverageBounds>,
    /// Where the 95th percentile lies, `[lo, hi]` ms (`lo ≤ p95 < hi`; `hi` null = no upper
    /// edge), from the report's Wait Event Histogram; `None` when the report prints none.
    #[serde(serialize_with = "range_ser")]
    pub p95_range_ms: Option<(f64, f64)>,
    /// What the measured figures are (worded by the report layer).
    pub basis: GradeBasis,
    /// Letter: of the p95 range when known (`B` or a span `B to D` when the range straddles a
    /// bound), else of the average (the best the p95 could earn; a span when the average is
    /// known only between bounds that straddle a letter's bound); `None` when not measured.
    pub grade: Option<Grade>,
    /// Index of the best letter the measured p95 can have (0 = the first letter); what tiers
    /// are compared with.
    pub best_index: Option<usize>,
    /// Upper bound of the best letter, ms (`None` for the last letter or not measured).
    pub bound_ms: Option<f64>,
    /// True when the measured average is below the card's storage floor
    /// ([`ReportCardSpec::storage_floor_ms`]): served from a cache, not a storage latency to
    /// keep, so tiers are not compared with this test ([`tier_grades`]).
    pub served_from_cache: bool,
}

/// How a tier's published latency would grade on one measured test.
#[derive(Debug, Clone, Serialize)]
pub struct TierGrade {
    /// Test id.
    pub test: String,
    /// The tier's worst published latency, ms.
    pub tier_ms: f64,
    /// Its letter.
    pub grade: String,
    /// Today's grade (measured; a span such as `B to D` when a histogram's p95 straddles a
    /// bound).
    pub measured_grade: Grade,
    /// True when the tier's letter is worse than today's: it may slow the workload.
    pub worse: bool,
}

/// The card of one workload.
#[derive(Debug, Clone, Serialize)]
pub struct ReportCard {
    /// One entry per test of the card, measured or not.
    pub tests: Vec<TestGrade>,
    /// Where the thresholds come from.
    pub source: String,
    /// How to read it (worded by the report layer).
    pub note: CardNote,
}

/// What a test's grade rests on: the figure measured, the histogram's p95 when graded on it,
/// and the log-write size that picked the scale.
#[derive(Debug, Clone, PartialEq)]
pub struct GradeBasis {
    /// The figure itself.
    pub figure: BasisFigure,
    /// `[lo, hi)` ms of the Wait Event Histogram bucket holding the p95, when graded on it
    /// (`hi` infinite = the open-ended bucket).
    pub p95_ms: Option<(f64, f64)>,
    /// The average log-write size, for log-write tests that are graded.
    pub log_write: Option<LogWriteSize>,
    /// The storage floor, ms, when the measured average is below it (served from cache).
    pub from_cache_below_ms: Option<f64>,
}

/// The measured figure of a test.
#[derive(Debug, Clone, PartialEq)]
pub enum BasisFigure {
    /// A size-bound test whose size range excludes the average log write, KiB.
    NotThisScale {
        /// Average log-write size, KiB.
        avg_log_write_kib: f64,
    },
    /// Nothing measured.
    NotMeasured,
    /// The demand's own latency basis (OS logs, vSAN: the source's latency column).
    Given(String),
    /// The AWR wait event the test is measured by (`measured_by` of the card).
    WaitEvent {
        /// The `measured_by` metric (`single_block_read_ms`, `large_read_ms`, `log_write_ms`,
        /// `direct_path_read_ms`, `smart_scan_ms`).
        measured_by: String,
        /// The event whose average is graded, when the demand names it (on Exadata the cell
        /// event standing for `db file sequential read`).
        event: Option<String>,
        /// The waits the average rests on.
        waits: Option<f64>,
        /// The average's bounds where it was recomputed from a coarsely printed total.
        bounds: Option<AverageBounds>,
    },
}

/// The average log-write size of a graded log-write test.
#[derive(Debug, Clone, PartialEq)]
pub enum LogWriteSize {
    /// Known, KiB.
    Kib(f64),
    /// Unknown: graded on both scales.
    Unknown,
}

/// How to read the report card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardNote {
    /// Grades are for p95 latency (histogram span, else the average); tiers are graded on the
    /// worst latency their class allows.
    P95Grades,
}

/// Grade the measured latencies of `d`.
pub fn card(spec: &ReportCardSpec, d: &Demand) -> ReportCard {
    let tests = spec
        .test
        .iter()
        .filter(|t| {
            !t.only_when_measured
                || measured(d, &t.measured_by)
                    .ok()
                    .flatten()
                    .is_some_and(f64::is_finite)
        })
        .map(|t| {
            // A size-bound test whose size range excludes the measured average is not graded.
            let size = (t.measured_by == "log_write_ms")
                .then_some(d.avg_log_write_kib)
                .flatten();
            let excluded = size.is_some_and(|k| {
                t.io_kib_below.is_some_and(|b| k >= b) || t.io_kib_from.is_some_and(|f| k < f)
            });
            let ms = measured(d, &t.measured_by)
                .ok()
                .flatten()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .filter(|_| !excluded);
            let p95 = measured_p95(d, &t.measured_by).filter(|_| !excluded);
            // An average recomputed from a coarsely printed total is known only between bounds
            // (a total printed as 0: at most its upper bound): graded on both ends.
            let bounds = d
                .latency_events
                .iter()
                .find(|e| e.measured_by == t.measured_by)
                .and_then(|e| e.bounds)
                .filter(|_| ms.is_some() && d.latency_basis.is_none());
            // Letter indexes: the p95 range's ends (the upper edge is exclusive), else the
            // average's (the best the p95 could be), or its bounds' ends.
            let (best, worst) = match (p95, ms) {
                (Some((lo, hi)), _) => {
                    let worst = if hi.is_finite() {
                        // p95 < hi: the letter of the largest value below hi.
                        spec.index(t, hi - 1e-9)
                    } else {
                        spec.letters.len()
                    };
                    (Some(spec.index(t, lo)), Some(worst))
                }
                (None, Some(_)) if bounds.is_some() => {
                    let b = bounds.unwrap_or_else(|| unreachable!());
                    let hi = (b.hi_ms - 1e-9).max(b.lo_ms);
                    (Some(spec.index(t, b.lo_ms)), Some(spec.index(t, hi)))
                }
                (None, Some(v)) => {
                    let i = spec.index(t, v);
                    (Some(i), Some(i))
                }
                (None, None) => (None, None),
            };
            let grade = match (best, worst) {
                (Some(b), Some(w)) => Some(Grade {
                    best: spec.letter(b).to_string(),
                    worst: spec.letter(w).to_string(),
                }),
                _ => None,
            };
            let graded = ms.is_some() || p95.is_some();
            let ev = d
                .latency_events
                .iter()
                .find(|e| e.measured_by == t.measured_by)
                .filter(|_| graded && d.latency_basis.is_none());
            let figure = match (&d.latency_basis, graded) {
                (_, false) if excluded => BasisFigure::NotThisScale {
                    avg_log_write_kib: size.unwrap_or(0.0),
                },
                (_, false) => BasisFigure::NotMeasured,
                (Some(b), true) => BasisFigure::Given(b.clone()),
                (None, true) => BasisFigure::WaitEvent {
                    measured_by: t.measured_by.clone(),
                    event: ev.map(|e| e.event.clone()),
                    waits: ev.and_then(|e| e.waits),
                    bounds,
                },
            };
            let log_write = match size {
                Some(k) if graded => Some(LogWriteSize::Kib(k)),
                None if graded && t.measured_by == "log_write_ms" => Some(LogWriteSize::Unknown),
                _ => None,
            };
            // Below the storage floor even at its upper bound: no storage device served it.
            let floor = spec
                .storage_floor_ms
                .filter(|fl| ms.is_some_and(|v| bounds.map_or(v, |b| b.hi_ms.max(v)) < *fl));
            let basis = GradeBasis {
                figure,
                p95_ms: p95,
                log_write,
                from_cache_below_ms: floor,
            };
            TestGrade {
                test: t.id.clone(),
                name: t.name.clone(),
                measured_ms: ms,
                waits: ev.and_then(|e| e.waits),
                average_bounds: bounds,
                p95_range_ms: p95,
                basis,
                grade,
                best_index: best,
                bound_ms: best.and_then(|i| t.bounds_ms.get(i).copied()),
                served_from_cache: floor.is_some(),
            }
        })
        .collect();
    ReportCard {
        tests,
        source: spec.source.clone(),
        note: CardNote::P95Grades,
    }
}

/// Grade `tier`'s published latency on every measured test of `card`, except those served from
/// cache (below the storage floor): no tier could keep a latency no storage device has, and
/// it is not the storage's latency.
pub fn tier_grades(spec: &ReportCardSpec, card: &ReportCard, tier: &Tier) -> Vec<TierGrade> {
    let Some(tms) = tier.latency_ms else {
        return Vec::new();
    };
    card.tests
        .iter()
        .filter_map(|g| Some((spec.test.iter().find(|t| t.id == g.test)?, g)))
        .filter(|(_, g)| !g.served_from_cache)
        .filter_map(|(t, g)| {
            let mi = g.best_index?;
            let ti = spec.index(t, tms);
            Some(TierGrade {
                test: t.id.clone(),
                tier_ms: tms,
                grade: spec.letter(ti).to_string(),
                measured_grade: g.grade.clone().unwrap_or_else(|| Grade {
                    best: spec.letter(mi).to_string(),
                    worst: spec.letter(mi).to_string(),
                }),
                worse: ti > mi,
            })
        })
        .collect()
}

/// The grades a tier's published latency could lower (`None` when it lowers none).
pub fn latency_risk(grades: &[TierGrade]) -> Option<super::findings::LatencyRisk> {
    let worse: Vec<(String, String, Grade)> = grades
        .iter()
        .filter(|g| g.worse)
        .map(|g| {
            (
                g.test.to_string(),
                g.grade.to_string(),
                g.measured_grade.clone(),
            )
        })
        .collect();
    if worse.is_empty() {
        return None;
    }
    Some(super::findings::LatencyRisk {
        tier_ms: grades[0].tier_ms,
        worse,
    })
}
