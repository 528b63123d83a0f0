//! The cross-platform table that opens a fleet report: one row per database (or host), sorted by
//! sized IOPS, highest first; per platform the recommended option and its monthly cost with the
//! subject's capacity; the fleet total per platform; the cheapest platform named.
//!
//! A price is final only when the subject's capacity was given: without one the volumes are the
//! minimum size for the IOPS and MB/s, and the cell is [`Cell::CapacityNotGiven`] (no dollar
//! figure). Totals add the final prices only, and say how many rows they leave out. The cheapest
//! platform is picked only among platforms that price every row with a capacity (so the totals
//! compare the same rows); on-premises options carry no list price and are never picked.
//!
//! Units: IOPS = requests/s, MB/s = 10^6 B/s, GiB = 2^30 B, money USD per month.

use serde::Serialize;

use crate::rules::Recommendation;

/// One platform's cell of a row.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cell {
    /// The subject has no recommendation, or the platform was not sized.
    NotSized,
    /// No tier of the platform is feasible.
    NoneFeasible,
    /// The recommended option, priced with the subject's capacity.
    Priced {
        /// Tier id.
        tier_id: String,
        /// Drives or volumes.
        count: u32,
        /// Monthly list cost, USD.
        monthly_cost_usd: f64,
    },
    /// The recommended option of a performance-only layout (capacity not given): its price is
    /// that of minimum-size volumes, so none is shown.
    CapacityNotGiven {
        /// Tier id.
        tier_id: String,
        /// Drives or volumes.
        count: u32,
    },
    /// The recommended option has no list price (on-premises).
    NoListPrice {
        /// Tier id.
        tier_id: String,
        /// Drives.
        count: u32,
        /// Raw capacity of the drives, GiB.
        total_gib: f64,
    },
}

/// One database or host.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Database key or host name.
    pub subject: String,
    /// Sized IOPS (with headroom); `None` = not sized.
    pub sized_iops: Option<f64>,
    /// Sized MB/s (with headroom); `None` = unknown or not sized.
    pub sized_mb_s: Option<f64>,
    /// Capacity sized for, GiB; `None` = not given (performance-only).
    pub capacity_gib: Option<f64>,
    /// Where the capacity came from (`--capacity`, `FILE line N, key K`).
    pub capacity_source: Option<String>,
    /// One per platform of [`CrossPlatform::platforms`].
    pub cells: Vec<Cell>,
}

/// The fleet total of one platform.
#[derive(Debug, Clone, Serialize)]
pub struct Total {
    /// Platform id.
    pub platform: String,
    /// Σ monthly cost of the priced rows, USD; `None` when no row is priced.
    pub monthly_cost_usd: Option<f64>,
    /// Rows priced.
    pub priced: usize,
    /// Rows with an option but no capacity (performance-only: not in the total).
    pub capacity_not_given: usize,
    /// Rows without a priced option for another reason (not sized, none feasible, no list
    /// price).
    pub not_priced: usize,
}

/// The platform whose total is lowest.
#[derive(Debug, Clone, Serialize)]
pub struct Cheapest {
    /// Platform id.
    pub platform: String,
    /// Its total, USD per month.
    pub monthly_cost_usd: f64,
    /// Rows the totals compared (every row with a capacity).
    pub rows: usize,
}

/// The cross-platform table.
#[derive(Debug, Clone, Serialize)]
pub struct CrossPlatform {
    /// Platform ids, the order of every `cells` and `totals`.
    pub platforms: Vec<String>,
    /// Rows, sized IOPS highest first (not sized last).
    pub rows: Vec<Row>,
    /// Per platform.
    pub totals: Vec<Total>,
    /// The cheapest platform for the fleet; `None` when no row has a capacity, or no platform
    /// prices every such row.
    pub cheapest: Option<Cheapest>,
    /// `--consolidate`: the shared layout, sized on the time-aligned sum of the consolidation's
    /// members ([`crate::consolidate`]), as a row (not in `rows` nor in `totals`).
    pub consolidated: Option<Row>,
}

/// Rounded to 2 decimals (money to cents; figures without float noise).
fn cents(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The cell of `platform` in `rec`.
pub fn cell(rec: Option<&Recommendation>, platform: &str) -> Cell {
    let Some(r) = rec else {
        return Cell::NotSized;
    };
    let Some(pr) = r.platforms.iter().find(|x| x.platform == platform) else {
        return Cell::NotSized;
    };
    let Some(o) = &pr.recommended else {
        return Cell::NoneFeasible;
    };
    match o.monthly_cost_usd {
        None => Cell::NoListPrice {
            tier_id: o.tier_id.clone(),
            count: o.count,
            total_gib: o.total_gib,
        },
        Some(_) if !r.capacity_given => Cell::CapacityNotGiven {
            tier_id: o.tier_id.clone(),
            count: o.count,
        },
        Some(c) => Cell::Priced {
            tier_id: o.tier_id.clone(),
            count: o.count,
            monthly_cost_usd: c,
        },
    }
}

/// The row of one subject (or of the shared layout).
fn row(
    name: &str,
    rec: Option<&Recommendation>,
    capacity_source: Option<String>,
    platforms: &[String],
) -> Row {
    Row {
        subject: name.to_string(),
        sized_iops: rec.map(|r| cents(r.sized_iops)),
        sized_mb_s: rec.and_then(|r| r.sized_mb_s).map(cents),
        capacity_gib: rec
            .filter(|r| r.capacity_given)
            .and_then(|r| r.capacity_gib),
        capacity_source,
        cells: platforms.iter().map(|p| cell(rec, p)).collect(),
    }
}

/// One subject's input: name, recommendation, capacity source.
pub struct Subject<'a> {
    /// Database key or host name.
    pub name: &'a str,
    /// Its recommendation.
    pub recommendation: Option<&'a Recommendation>,
    /// Its capacity as resolved.
    pub capacity: &'a crate::capacity::CapacityInfo,
}

/// The table of `subjects` over `platforms`, with the shared layout `consolidated` when sized.
pub fn table(
    platforms: &[String],
    subjects: &[Subject<'_>],
    consolidated: Option<&Recommendation>,
) -> CrossPlatform {
    let mut rows: Vec<Row> = subjects
        .iter()
        .map(|s| {
            row(
                s.name,
                s.recommendation,
                s.capacity.used.as_ref().map(|c| c.source.clone()),
                platforms,
            )
        })
        .collect();
    // Highest sized IOPS first; not sized last; ties keep the input order (stable sort).
    rows.sort_by(|a, b| {
        b.sized_iops
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&a.sized_iops.unwrap_or(f64::NEG_INFINITY))
    });
    let totals: Vec<Total> = platforms
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (mut sum, mut priced, mut perf, mut other) = (0.0, 0, 0, 0);
            for r in &rows {
                match &r.cells[i] {
                    Cell::Priced {
                        monthly_cost_usd, ..
                    } => {
                        sum += monthly_cost_usd;
                        priced += 1;
                    }
                    Cell::CapacityNotGiven { .. } => perf += 1,
                    _ => other += 1,
                }
            }
            Total {
                platform: p.clone(),
                monthly_cost_usd: (priced > 0).then_some(cents(sum)),
                priced,
                capacity_not_given: perf,
                not_priced: other,
            }
        })
        .collect();
    let with_capacity = rows.iter().filter(|r| r.capacity_gib.is_some()).count();
    let cheapest = totals
        .iter()
        .filter(|t| with_capacity > 0 && t.priced == with_capacity)
        .filter_map(|t| t.monthly_cost_usd.map(|c| (t, c)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, c)| Cheapest {
            platform: t.platform.clone(),
            monthly_cost_usd: c,
            rows: with_capacity,
        });
    CrossPlatform {
        platforms: platforms.to_vec(),
        rows,
        totals,
        cheapest,
        consolidated: consolidated.map(|r| {
            row(
                "shared layout (--consolidate)",
                Some(r),
                r.capacity_given
                    .then(|| "the members' capacities added".to_string()),
                platforms,
            )
        }),
    }
}
