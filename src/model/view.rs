//! [`View`]: the rows of one report's instance (or of a RAC interval's instances summed) as a
//! lookup by section and statistic, which the metrics module reads its figures from.
//!
//! A report's figures are read at once from a view of all its rows ([`View::of_rows`]), in the
//! thread that finishes the report. After that, only two things read rows again: the sum of
//! several instance reports of one RAC interval ([`View::sum`], then the same figures), and a RAC
//! global report's per-instance IO (`IOStat by Filetype`, row `Total`). [`super::KeptRows`]
//! holds just those rows, compactly, and gives them back as a view; the report's ~1,100
//! statistics go to `--export` as the report is finished, and are dropped.

use std::collections::HashMap;

use polars::prelude::*;

use super::awr::{section, Model, StatRow};

/// A wait histogram read back from the model: `(edge_ms, cumulative %)` ascending, and the
/// event's waits.
pub type Histogram = (Vec<(f64, f64)>, Option<f64>);

impl View {
    /// The rows of `instance` (`*` for cluster-wide) among one report's `rows`, as a lookup
    /// table: the same table as [`View::of`] on the report's frame (the first row of a section
    /// and statistic wins), without building the frame.
    pub fn of_rows(rows: &[StatRow], instance: &str) -> View {
        View::of_rows_where(rows, |r| r.instance == instance)
    }

    /// The rows for which `keep` holds, as a lookup table (the first of a section and statistic
    /// wins).
    fn of_rows_where(rows: &[StatRow], keep: impl Fn(&StatRow) -> bool) -> View {
        let mut map: Table = HashMap::new();
        // A report's ~1,100 rows come in runs of one section (a few dozen sections): the
        // section is looked up once per run, not once per row with an owned key each
        // (`docs/performance.md`, "Fleet CPU").
        let mut kept = rows.iter().filter(|r| keep(r)).peekable();
        while let Some(first) = kept.peek() {
            let section = first.section;
            let stats = map.entry(section.to_string()).or_default();
            while let Some(r) = kept.next_if(|r| r.section == section) {
                stats.entry(r.statistic.clone()).or_insert_with(|| Cells {
                    total: r.total,
                    per_second: r.per_second,
                    per_trans: r.per_trans,
                    value: r.value,
                    printed: r.printed.clone(),
                    lo: r.lo,
                    hi: r.hi,
                });
            }
        }
        View { map }
    }

    /// The lookup table of `cells` (section, statistic, cells), the first of a section and
    /// statistic winning, as [`View::of_rows`] does: how [`super::KeptRows`] gives its rows back.
    pub(crate) fn of_cells(
        cells: impl IntoIterator<Item = (&'static str, std::sync::Arc<str>, Cells)>,
    ) -> View {
        let mut map: Table = HashMap::new();
        for (sec, stat, c) in cells {
            map.entry(sec.to_string())
                .or_default()
                .entry(stat.to_string())
                .or_insert(c);
        }
        View { map }
    }

    /// The cells sorted by section and statistic (tests compare views with it).
    #[cfg(test)]
    pub(crate) fn sorted(&self) -> Vec<(&str, &str, &Cells)> {
        let mut v: Vec<(&str, &str, &Cells)> = self
            .map
            .iter()
            .flat_map(|(s, m)| m.iter().map(move |(n, c)| (s.as_str(), n.as_str(), c)))
            .collect();
        v.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        v
    }

    /// How many (section, statistic) cells the view holds.
    pub fn len(&self) -> usize {
        self.map.values().map(HashMap::len).sum()
    }

    /// Whether the view holds no cell.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rows of `df` (typically one source's frame) for `instance`, as a lookup table.
    ///
    /// # Errors
    /// A polars error if `df` lacks a column of [`super::awr::COLUMNS`].
    pub fn of(df: &DataFrame, instance: &str) -> PolarsResult<View> {
        let inst = df.column("instance")?.str()?;
        let df = df.filter(&inst.equal(instance))?;
        let sect = df.column("section")?.str()?;
        let stat = df.column("statistic")?.str()?;
        let cols = ["total", "per_second", "per_trans", "value", "lo", "hi"];
        let vals: Vec<&Float64Chunked> = cols
            .iter()
            .map(|c| df.column(c).and_then(|c| c.f64()))
            .collect::<PolarsResult<_>>()?;
        let printed = df.column("printed")?.str()?;
        let mut map: Table = HashMap::new();
        for i in 0..df.height() {
            let (Some(s), Some(n)) = (sect.get(i), stat.get(i)) else {
                continue;
            };
            map.entry(s.to_string())
                .or_default()
                .entry(n.to_string())
                .or_insert(Cells {
                    total: vals[0].get(i),
                    per_second: vals[1].get(i),
                    per_trans: vals[2].get(i),
                    value: vals[3].get(i),
                    printed: printed.get(i).map(str::to_string),
                    lo: vals[4].get(i),
                    hi: vals[5].get(i),
                });
        }
        Ok(View { map })
    }
}

/// The numeric cells of one model row.
#[derive(Debug, Clone, Default)]
pub struct Cells {
    /// `total` column.
    pub total: Option<f64>,
    /// `per_second` column.
    pub per_second: Option<f64>,
    /// `per_trans` column.
    pub per_trans: Option<f64>,
    /// `value` column.
    pub value: Option<f64>,
    /// `printed` column.
    pub printed: Option<String>,
    /// `lo` column: lower bound of `value` when recomputed from a total.
    pub lo: Option<f64>,
    /// `hi` column: upper bound of `value`.
    pub hi: Option<f64>,
}

impl Cells {
    /// The rate to use: Total / elapsed where recomputed (`value`, unit `/s`, Instance Activity
    /// rows), else `per Second` as printed.
    pub fn rate(&self) -> Option<f64> {
        self.value.or(self.per_second)
    }
}

/// The model's rows of one source/instance keyed by (section, statistic).
#[derive(Debug, Default)]
pub struct View {
    map: Table,
}

/// Section → statistic → cells: a lookup by `&str` allocates nothing.
type Table = HashMap<String, HashMap<String, Cells>>;

impl View {
    /// The row for `statistic` in `section`, if the source has it.
    pub fn get(&self, section: &str, statistic: &str) -> Option<&Cells> {
        #[cfg(test)]
        lookups::record(section, statistic);
        self.map.get(section)?.get(statistic)
    }

    /// Whether the source has any row in `section`.
    pub fn has_section(&self, section: &str) -> bool {
        #[cfg(test)]
        lookups::record(section, lookups::ANY);
        self.map.get(section).is_some_and(|m| !m.is_empty())
    }

    /// The Wait Event Histogram of `event` as `(edge_ms, cumulative %)` ascending, and the
    /// event's waits; `None` when the source has none.
    pub fn histogram(&self, event: &str) -> Option<Histogram> {
        #[cfg(test)]
        lookups::record(section::WAIT_HISTOGRAM, lookups::ANY);
        let prefix = format!("{event} [<");
        let mut cdf: Vec<(f64, f64)> = Vec::new();
        let mut waits = None;
        for (stat, v) in self.map.get(section::WAIT_HISTOGRAM).into_iter().flatten() {
            let Some(edge) = stat
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(" ms]"))
                .and_then(|e| e.parse::<f64>().ok())
            else {
                continue;
            };
            if let Some(cum) = v.value {
                cdf.push((edge, cum));
                waits = waits.or(v.total);
            }
        }
        if cdf.is_empty() {
            return None;
        }
        cdf.sort_by(|a, b| a.0.total_cmp(&b.0));
        Some((cdf, waits))
    }
}

fn add(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x + y),
        _ => None,
    }
}

impl View {
    /// The sum of the views of several instances over the same interval (a RAC database needs the
    /// sum of its instances at the same time).
    ///
    /// - Instance Activity Stats, IO Profile and IOStat rows: `total`, `per_second` and `per_trans`
    ///   are added; a statistic missing from any instance is unknown in the sum (never a partial
    ///   sum).
    /// - Instance Activity rates recomputed as Total / elapsed (`value`, `lo`, `hi`) are added
    ///   when every instance has one; otherwise they are dropped and the printed rates used.
    /// - Wait events: `total` (waits) are added and `value` (average wait, ms) is the
    ///   waits-weighted mean Σ(waitsᵢ × avgᵢ) / Σ waitsᵢ, `lo` and `hi` likewise (an instance
    ///   without bounds counts with its value); the printed text is dropped.
    /// - Instance Efficiency percentages are not additive and are left out (recompute hit ratios
    ///   from the summed statistics).
    pub fn sum(views: &[&View]) -> View {
        let Some((first, rest)) = views.split_first() else {
            return View::default();
        };
        let mut map: Table = HashMap::new();
        for (sec, stats) in &first.map {
            if sec == section::EFFICIENCY {
                continue;
            }
            for (name, v0) in stats {
                let mut acc = v0.clone();
                // Wait averages and histogram shares are both weighted by the waits.
                let waits = sec == section::FG_WAITS
                    || sec == section::BG_WAITS
                    || sec == section::WAIT_HISTOGRAM;
                let weigh = |c: &Cells, f: fn(&Cells) -> Option<f64>| match (c.total, f(c)) {
                    (Some(w), Some(a)) => Some(w * a),
                    _ => None,
                };
                let lo_or_value: fn(&Cells) -> Option<f64> = |c| c.lo.or(c.value);
                let hi_or_value: fn(&Cells) -> Option<f64> = |c| c.hi.or(c.value);
                let mut weighted = if waits { weigh(v0, |c| c.value) } else { None };
                let mut weighted_lo = if waits { weigh(v0, lo_or_value) } else { None };
                let mut weighted_hi = if waits { weigh(v0, hi_or_value) } else { None };
                let mut bounded = v0.lo.is_some();
                let mut complete = true;
                for other in rest {
                    let Some(o) = other.get(sec, name) else {
                        complete = false;
                        break;
                    };
                    acc.total = add(acc.total, o.total);
                    acc.per_second = add(acc.per_second, o.per_second);
                    acc.per_trans = add(acc.per_trans, o.per_trans);
                    bounded |= o.lo.is_some();
                    if waits {
                        weighted = add(weighted, weigh(o, |c| c.value));
                        weighted_lo = add(weighted_lo, weigh(o, lo_or_value));
                        weighted_hi = add(weighted_hi, weigh(o, hi_or_value));
                    } else {
                        // Recomputed rates (Total / elapsed) add up only when every instance
                        // has one; otherwise the printed rates are used.
                        acc.value = add(acc.value, o.value);
                        acc.lo = add(acc.lo, o.lo);
                        acc.hi = add(acc.hi, o.hi);
                        if o.printed.is_none() {
                            acc.printed = None;
                        }
                    }
                }
                if !complete {
                    continue;
                }
                if waits {
                    let per_wait = |s: Option<f64>| match (s, acc.total) {
                        (Some(s), Some(w)) if w > 0.0 => Some(s / w),
                        _ => None,
                    };
                    acc.value = per_wait(weighted);
                    (acc.lo, acc.hi) = if bounded {
                        (per_wait(weighted_lo), per_wait(weighted_hi))
                    } else {
                        (None, None)
                    };
                    acc.printed = None;
                } else if sec != section::ACTIVITY || acc.lo.is_none() {
                    acc.value = None;
                    acc.lo = None;
                    acc.hi = None;
                }
                map.entry(sec.clone())
                    .or_default()
                    .insert(name.clone(), acc);
            }
        }
        View { map }
    }
}

/// The lookups made on views while recording (tests only): `crate::metrics::kept`'s test checks
/// that every statistic the figures read is kept.
#[cfg(test)]
pub(crate) mod lookups {
    use std::cell::RefCell;
    use std::collections::BTreeSet;

    /// The statistic recorded for a lookup of a whole section.
    pub(crate) const ANY: &str = "*";

    thread_local! {
        static SEEN: RefCell<Option<BTreeSet<(String, String)>>> = const { RefCell::new(None) };
    }

    pub(crate) fn record(section: &str, statistic: &str) {
        SEEN.with(|s| {
            if let Some(set) = s.borrow_mut().as_mut() {
                set.insert((section.to_string(), statistic.to_string()));
            }
        });
    }

    /// Runs `f`, returning what it returns and the (section, statistic) lookups it made on
    /// views, in this thread.
    pub(crate) fn recording<R>(f: impl FnOnce() -> R) -> (R, BTreeSet<(String, String)>) {
        SEEN.with(|s| *s.borrow_mut() = Some(BTreeSet::new()));
        let r = f();
        let seen = SEEN.with(|s| s.borrow_mut().take()).unwrap_or_default();
        (r, seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (section, statistic, total, per_second, value)
    type Row<'a> = (&'static str, &'a str, Option<f64>, Option<f64>, Option<f64>);

    fn view(rows: &[Row]) -> View {
        let mut map: Table = HashMap::new();
        for (sec, stat, total, per_second, value) in rows {
            map.entry(sec.to_string()).or_default().insert(
                stat.to_string(),
                Cells {
                    total: *total,
                    per_second: *per_second,
                    value: *value,
                    ..Default::default()
                },
            );
        }
        View { map }
    }

    #[test]
    fn instances_are_summed_and_waits_weighted() {
        let a = view(&[
            (
                section::ACTIVITY,
                "redo writes",
                Some(3600.0),
                Some(1.0),
                None,
            ),
            (
                section::FG_WAITS,
                "log file sync",
                Some(100.0),
                None,
                Some(2.0),
            ),
            (section::EFFICIENCY, "Buffer Hit %", None, None, Some(99.0)),
            (section::ACTIVITY, "only on a", Some(1.0), Some(1.0), None),
        ]);
        let b = view(&[
            (
                section::ACTIVITY,
                "redo writes",
                Some(7200.0),
                Some(2.0),
                None,
            ),
            (
                section::FG_WAITS,
                "log file sync",
                Some(300.0),
                None,
                Some(4.0),
            ),
            (section::EFFICIENCY, "Buffer Hit %", None, None, Some(97.0)),
        ]);
        let s = View::sum(&[&a, &b]);
        let redo = s.get(section::ACTIVITY, "redo writes").unwrap();
        assert_eq!((redo.total, redo.per_second), (Some(10800.0), Some(3.0)));
        // (100 × 2 + 300 × 4) / 400 = 3.5 ms
        let lfs = s.get(section::FG_WAITS, "log file sync").unwrap();
        assert_eq!((lfs.total, lfs.value), (Some(400.0), Some(3.5)));
        assert!(s.get(section::EFFICIENCY, "Buffer Hit %").is_none());
        assert!(s.get(section::ACTIVITY, "only on a").is_none());
    }
}

/// Lookup tables of a [`Model`] (kept here, not in `awr`, so that `awr` does not depend on
/// this module).
impl Model {
    /// The rows of `instance` (`*` for cluster-wide), as a lookup table: on one source's model
    /// (from [`Model::build`]) that is one instance of one report.
    ///
    /// # Errors
    /// A polars error if the model lacks a column of [`super::awr::COLUMNS`].
    pub fn instance_view(&self, instance: &str) -> PolarsResult<View> {
        View::of(&self.df, instance)
    }

    /// The rows of one source and instance (`*` for cluster-wide), as a lookup table.
    ///
    /// # Errors
    /// A polars error if the model lacks a column of [`super::awr::COLUMNS`].
    pub fn view(&self, source: &str, instance: &str) -> PolarsResult<View> {
        let src = self.df.column("source")?.str()?;
        let mask = src.equal(source);
        View::of(&self.df.filter(&mask)?, instance)
    }
}
