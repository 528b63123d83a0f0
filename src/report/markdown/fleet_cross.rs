//! Words the cross-platform table that opens a fleet summary and the consolidation on
//! time-aligned intervals below it; the figures are the engine's (`crate::fleet::cross`,
//! `crate::consolidate`).

use std::io::{self, Write};

use crate::consolidate::{Consolidation, Excluded};
use crate::fleet::cross::{Cell, CrossPlatform};
use crate::report::fmt::{cell_text, fmt_num, opt_num, right, table, when};
use crate::settings::SizeOn;

/// A platform's display name in a table header.
pub(crate) fn platform_name(id: &str) -> String {
    match id {
        "onprem" => "On-premises".to_string(),
        "aws" => "AWS".to_string(),
        "azure" => "Azure".to_string(),
        "gcp" => "Google Cloud".to_string(),
        other => other.to_string(),
    }
}

/// Name of a sizing statistic in a sentence (`time-weighted average`, `p95`).
pub(crate) fn stat_name(size_on: SizeOn) -> String {
    if size_on == SizeOn::Avg {
        "time-weighted average".to_string()
    } else {
        size_on.name().to_string()
    }
}

fn cell_words(c: &Cell) -> String {
    match c {
        Cell::NotSized => "not sized".into(),
        Cell::NoneFeasible => "none feasible".into(),
        Cell::Priced {
            tier_id,
            count,
            monthly_cost_usd,
        } => format!("{count} × {tier_id}: ${}", fmt_num(*monthly_cost_usd, 2)),
        Cell::CapacityNotGiven { tier_id, count } => {
            format!("{count} × {tier_id} (capacity not given)")
        }
        Cell::NoListPrice {
            tier_id,
            count,
            total_gib,
        } => format!(
            "{count} × {tier_id}, {} GiB raw (no list price)",
            fmt_num(*total_gib, 0)
        ),
    }
}

/// The cross-platform table, with its totals row, the shared layout (with `--consolidate`) and
/// the cheapest platform. `what` names a row (`Database`, `Host`).
pub(crate) fn write_cross(out: &mut dyn Write, what: &str, x: &CrossPlatform) -> io::Result<()> {
    writeln!(
        out,
        "## What to buy, per platform (USD per month, list prices)\n"
    )?;
    let names: Vec<String> = x.platforms.iter().map(|p| platform_name(p)).collect();
    let mut headers: Vec<&str> = vec![what, "Sized IOPS", "Sized MB/s", "Capacity (GiB)"];
    headers.extend(names.iter().map(String::as_str));
    let mut t = table(&headers);
    for r in &x.rows {
        let mut row = vec![
            cell_text(&r.subject),
            opt_num(r.sized_iops, 0),
            opt_num(r.sized_mb_s, 2),
            match r.capacity_gib {
                Some(c) => fmt_num(c, 0),
                None => "not given".into(),
            },
        ];
        row.extend(r.cells.iter().map(cell_words));
        t.add_row(row);
    }
    let mut total = vec![
        "Fleet total (sum of the rows)".to_string(),
        String::new(),
        String::new(),
        String::new(),
    ];
    total.extend(x.totals.iter().map(|t| {
        let left_out = t.capacity_not_given + t.not_priced;
        match t.monthly_cost_usd {
            None if t.platform == "onprem" => "no list prices".to_string(),
            None if t.capacity_not_given > 0 => "no total: capacity not given".to_string(),
            None => "no priced option".to_string(),
            Some(c) if left_out == 0 => format!("${}", fmt_num(c, 2)),
            Some(c) => format!(
                "${} for {} row(s); {} capacity not given{}",
                fmt_num(c, 2),
                t.priced,
                t.capacity_not_given,
                match t.not_priced {
                    0 => String::new(),
                    n => format!(", {n} not priced"),
                }
            ),
        }
    }));
    t.add_row(total);
    if let Some(r) = &x.consolidated {
        let mut row = vec![
            "Shared layout of the consolidation's members (--consolidate)".to_string(),
            opt_num(r.sized_iops, 0),
            opt_num(r.sized_mb_s, 2),
            match r.capacity_gib {
                Some(c) => fmt_num(c, 0),
                None => "not given".into(),
            },
        ];
        row.extend(r.cells.iter().map(cell_words));
        t.add_row(row);
    }
    right(&mut t, &[1, 2, 3]);
    writeln!(out, "{t}\n")?;
    let with_capacity = x.rows.iter().filter(|r| r.capacity_gib.is_some()).count();
    match &x.cheapest {
        Some(c) => writeln!(
            out,
            "Cheapest platform for the fleet: **{}**, ${}/month for the {} row(s) with a capacity (on-premises options carry no list price and are not compared).\n",
            platform_name(&c.platform),
            fmt_num(c.monthly_cost_usd, 2),
            c.rows
        )?,
        None if with_capacity == 0 => writeln!(
            out,
            "No platform is named cheapest: no {} has a capacity, so every cloud option is a performance-only layout of minimum-size volumes (\"capacity not given\"), whose price is not a budget. Give the sizes with `--capacity-file` (docs/capacity.md) or `--capacity`.\n",
            what.to_lowercase()
        )?,
        None => writeln!(
            out,
            "No platform is named cheapest: no cloud platform prices every one of the {with_capacity} row(s) with a capacity.\n"
        )?,
    }
    Ok(())
}

/// The consolidation paragraph: the statistic of the aligned sum beside the sum of the
/// members' statistics, the members, and who was left out and why. `what` is the plural noun
/// (`databases`, `hosts`).
pub(crate) fn write_consolidation(
    out: &mut dyn Write,
    what: &str,
    c: &Consolidation,
) -> io::Result<()> {
    writeln!(out, "## Consolidation on time-aligned intervals\n")?;
    let stat = stat_name(c.size_on);
    match (c.iops_of_sum, c.sum_of_iops, c.interval_min) {
        (Some(sum_stat), Some(stat_sum), Some(l)) => {
            writeln!(
                out,
                "The {what}' series added per aligned {}-minute interval ({} interval(s), {} → {}, each host's clock as printed): the {stat} of the sum is **{} IOPS**{}; the sum of each one's {stat} over the same intervals is {} IOPS{}. {}\n",
                fmt_num(l, 0),
                c.aligned_intervals,
                when(&c.window_begin),
                when(&c.window_end),
                fmt_num(sum_stat, 2),
                match c.mb_s_of_sum {
                    Some(m) => format!(" and {} MB/s", fmt_num(m, 2)),
                    None => String::new(),
                },
                fmt_num(stat_sum, 2),
                match c.sum_of_mb_s {
                    Some(m) => format!(" and {} MB/s", fmt_num(m, 2)),
                    None => String::new(),
                },
                match (c.saving_iops, c.saving_pct) {
                    (Some(v), Some(p)) if v >= 0.0 => format!(
                        "A shared array sized on the aligned sum needs {} IOPS ({} %) less than the rows add up to.",
                        fmt_num(v, 2),
                        fmt_num(p, 1)
                    ),
                    (Some(v), _) => format!(
                        "The aligned sum's {stat} is {} IOPS above the sum of the {stat}s (a percentile of a sum is not bounded by the sum of percentiles): size on the aligned sum.",
                        fmt_num(-v, 2)
                    ),
                    _ => String::new(),
                },
            )?;
            let h1 = format!("IOPS ({stat}, aligned intervals)");
            let h2 = format!("MB/s ({stat})");
            let mut t = table(&["Member", &h1, &h2, "Intervals outside the window"]);
            for m in &c.members {
                t.add_row(vec![
                    cell_text(&m.name),
                    opt_num(m.iops, 2),
                    opt_num(m.mb_s, 2),
                    m.outside.to_string(),
                ]);
            }
            right(&mut t, &[1, 2, 3]);
            writeln!(out, "{t}")?;
            writeln!(out)?;
            if let Some(p) = &c.peak_begin {
                writeln!(
                    out,
                    "The summed IOPS peak in the interval that begins {}.\n",
                    when(&Some(p.clone()))
                )?;
            }
        }
        _ => writeln!(
            out,
            "No two {what} share an aligned interval: there is no sum to size. The fleet total above adds each one's own figure as if the peaks coincided.\n"
        )?,
    }
    if !c.utc_members.is_empty() {
        writeln!(
            out,
            "Times of {} are UTC (sadf), the others local: they were aligned as printed, so the sum may be off by the zone offset.\n",
            c.utc_members.join(", ")
        )?;
    }
    if !c.not_consolidated.is_empty() {
        writeln!(out, "Not in the sum (cannot be consolidated honestly):\n")?;
        for n in &c.not_consolidated {
            let why = match &n.reason {
                Excluded::NotSized => "not sized".to_string(),
                Excluded::NoTimes => "its intervals have no times".to_string(),
                Excluded::TooCoarse { interval_min } => format!(
                    "its interval is {} min long (longer than {} min): its peaks cannot be set against the others'",
                    fmt_num(*interval_min, 0),
                    fmt_num(crate::consolidate::MAX_ALIGN_MIN, 0)
                ),
                Excluded::NoOverlap { begin, end } if c.aligned_intervals > 0 => format!(
                    "its series ({} → {}) does not overlap the aligned window in time",
                    when(&Some(begin.clone())),
                    when(&Some(end.clone()))
                ),
                Excluded::NoOverlap { begin, end } => format!(
                    "its series ({} → {}) overlaps no other {} in time",
                    when(&Some(begin.clone())),
                    when(&Some(end.clone())),
                    what.trim_end_matches('s')
                ),
            };
            writeln!(out, "- {}: {why}", cell_text(&n.name))?;
        }
        writeln!(out)?;
    }
    match &c.recommendation {
        Some(r) => {
            writeln!(
                out,
                "`--consolidate`: the shared layout (last row of the table above) is sized on {} IOPS with headroom{}.\n",
                fmt_num(r.sized_iops, 0),
                match (c.capacity_gib, c.capacity_missing.is_empty()) {
                    (Some(g), _) => format!(", for {} GiB (the members' capacities added)", fmt_num(g, 0)),
                    _ => format!(
                        ", performance-only (capacity not given for {})",
                        c.capacity_missing.join(", ")
                    ),
                }
            )?;
        }
        None if c.iops_of_sum.is_some() => writeln!(
            out,
            "`--consolidate` sizes this sum as one shared on-premises array and one layout per cloud.\n"
        )?,
        None => {}
    }
    Ok(())
}
