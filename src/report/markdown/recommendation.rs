//! The `## Recommendation` section of a database, host or cluster: the platforms' choices,
//! the options table, the IO report card and the rules that fired.

use std::io::{self, Write};

use comfy_table::{Cell, Table};

use crate::report::fmt::{cell_text, fmt_num, opt_num, right, table};
use crate::report::wording::{not_evaluated_reason, HostLine};
use crate::rules::findings::Explanation;
use crate::rules::{Recommendation, TierOption, Unit};

/// `## Answer`: the report's opening table, one row per platform: the recommended tier, count ×
/// size, the monthly cost (or why there is none: no list price on-premises, "capacity not given"
/// for a performance-only layout, never a dollar figure that looks final), and the sized IOPS
/// and MB/s with what they were sized on (`sized_on`: `the p95 of 24 intervals`, to which the
/// headroom is added here).
pub(crate) fn write_answer(
    out: &mut dyn Write,
    rec: Option<&Recommendation>,
    sized_on: &str,
) -> io::Result<()> {
    let Some(rec) = rec else {
        return Ok(());
    };
    writeln!(out, "## Answer\n")?;
    let mut t = table(&[
        "Platform",
        "Recommended",
        "Count × size",
        "Monthly cost (USD)",
        "Sized IOPS",
        "Sized MB/s",
    ]);
    for p in &rec.platforms {
        let short = p.name.split(" (").next().unwrap_or(&p.name).to_string();
        let row = match &p.recommended {
            Some(o) => {
                let unit = match o.unit {
                    Unit::Drive => "drive",
                    Unit::Volume => "volume",
                };
                let cost = match (o.monthly_cost_usd, rec.capacity_given) {
                    (None, _) => "no list price".to_string(),
                    (Some(_), false) => "capacity not given".to_string(),
                    (Some(c), true) => fmt_num(c, 2),
                };
                vec![
                    short,
                    format!("`{}`", o.tier_id),
                    format!(
                        "{} × {} GiB {unit}{}",
                        o.count,
                        fmt_num(o.size_per_unit_gib, 0),
                        if o.count == 1 { "" } else { "s" }
                    ),
                    cost,
                    fmt_num(rec.sized_iops, 0),
                    opt_num(rec.sized_mb_s, 2),
                ]
            }
            None => vec![
                short,
                "no tier meets the demand".to_string(),
                "–".into(),
                "–".into(),
                fmt_num(rec.sized_iops, 0),
                opt_num(rec.sized_mb_s, 2),
            ],
        };
        t.add_row(row);
    }
    right(&mut t, &[3, 4, 5]);
    writeln!(out, "{t}\n")?;
    writeln!(
        out,
        "Sized on {sized_on} + {} % headroom; the sections below give the evidence, and each platform's every-tier comparison.\n",
        fmt_num(rec.headroom_pct, 0)
    )
}

pub(crate) fn option_summary(o: &TierOption, capacity_given: bool) -> String {
    let unit = match o.unit {
        Unit::Drive => "drive",
        Unit::Volume => "volume",
    };
    let plural = if o.count == 1 { "" } else { "s" };
    let cost = match o.monthly_cost_usd {
        Some(c) => format!("${}/month", fmt_num(c, 2)),
        None => "no list price".to_string(),
    };
    let usable = if (o.usable_gib - o.total_gib).abs() > 0.5 {
        format!(
            ", {} GiB raw, {} GiB usable",
            fmt_num(o.total_gib, 0),
            fmt_num(o.usable_gib, 0)
        )
    } else {
        String::new()
    };
    // Drives by their vendor label (GB = 10^9 B) and in GiB; Azure volumes by their size name.
    let size = match (o.unit, &o.size_name) {
        (Unit::Drive, _) => format!(
            "{} GB ({} GiB)",
            fmt_num(o.size_per_unit_gib * 1_073_741_824.0 / 1e9, 0),
            fmt_num(o.size_per_unit_gib, 0)
        ),
        (_, Some(n)) => format!("{n} ({} GiB)", fmt_num(o.size_per_unit_gib, 0)),
        _ => format!("{} GiB", fmt_num(o.size_per_unit_gib, 0)),
    };
    format!(
        "{} × {size} {}{}{} — {} ({}{})",
        o.count,
        unit,
        plural,
        usable,
        o.name,
        cost,
        match (capacity_given, o.unit) {
            (true, _) => "",
            (false, Unit::Drive) => {
                "; capacity not given: the fewest drives for the sized IOPS, MB/s and RAID minimum, add --capacity"
            }
            (false, Unit::Volume) => {
                "; capacity not given: minimum size for the sized IOPS, add --capacity"
            }
        }
    )
}

pub(crate) fn options_table(opts: &[&TierOption]) -> Table {
    let mut t = table(&[
        "Tier",
        "Count",
        "GiB each",
        "IOPS",
        "MiB/s",
        "Monthly cost (USD)",
        "Configuration",
        "Why not chosen",
    ]);
    for (i, o) in opts.iter().enumerate() {
        let status = if o.feasible {
            let mut s = "meets demand".to_string();
            if let Some(n) = &o.size_name {
                s = format!("{s} ({n})");
            }
            if !o.binding_limits.is_empty() {
                let limits: Vec<String> = o.binding_limits.iter().map(|b| b.to_string()).collect();
                s = format!("{s}; {}", limits.join("; "));
            }
            s
        } else {
            "–".to_string()
        };
        let why_not = if i == 0 && o.lost_because.is_none() && o.feasible {
            "recommended".to_string()
        } else {
            o.lost_because
                .as_ref()
                .map(|l| l.to_string())
                .unwrap_or_default()
        };
        let iops = o.provisioned_iops.unwrap_or(o.iops_capability);
        // An infeasible option has no configuration: show dashes, never zeros.
        let dash = |v: String| if o.feasible { v } else { "–".to_string() };
        t.add_row(vec![
            Cell::new(format!("{} (`{}`)", o.name, o.tier_id)),
            Cell::new(dash(o.count.to_string())),
            Cell::new(dash(fmt_num(o.size_per_unit_gib, 0))),
            Cell::new(dash(fmt_num(iops, 0))),
            Cell::new(
                o.throughput_mib_s
                    .filter(|_| o.feasible)
                    .map(|v| fmt_num(v, 0))
                    .unwrap_or_else(|| "–".into()),
            ),
            Cell::new(match (&o.cost_breakdown, o.monthly_cost_usd) {
                (Some(b), Some(c)) if b.iops_usd + b.throughput_usd + b.io_requests_usd > 0.0 => {
                    let mut parts = vec![format!("capacity {}", fmt_num(b.storage_usd, 2))];
                    if b.iops_usd > 0.0 {
                        parts.push(format!("IOPS {}", fmt_num(b.iops_usd, 2)));
                    }
                    if b.throughput_usd > 0.0 {
                        parts.push(format!("throughput {}", fmt_num(b.throughput_usd, 2)));
                    }
                    if b.io_requests_usd > 0.0 {
                        parts.push(format!("requests {}", fmt_num(b.io_requests_usd, 2)));
                    }
                    format!("{} ({})", fmt_num(c, 2), parts.join(" + "))
                }
                (_, Some(c)) => fmt_num(c, 2),
                (_, None) => o
                    .cost_note
                    .as_ref()
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "not computed".into()),
            }),
            Cell::new(cell_text(&status)),
            Cell::new(cell_text(&why_not)),
        ]);
    }
    right(&mut t, &[1, 2, 3, 4, 5]);
    t
}

/// The capacity line under "Sized for": the size used and where it came from, or that the
/// subject is missing from `--capacity-file` (nothing without a capacity).
fn capacity_line(c: &crate::capacity::CapacityInfo) -> Option<String> {
    if c.missing_from_file {
        return Some(
            "Capacity: not in --capacity-file, so sized for performance only (add a row for it)."
                .into(),
        );
    }
    let u = c.used.as_ref()?;
    let grown = match (u.growth_pct_per_year, u.horizon_years) {
        (Some(g), Some(y)) => format!(
            ": {} GiB grown {} % a year for {} year(s)",
            fmt_num(u.base_gib, 2),
            crate::report::fmt::fmt_trim(g),
            crate::report::fmt::fmt_trim(y)
        ),
        _ => String::new(),
    };
    Some(format!(
        "Capacity: {} GiB (from {}{grown}).",
        fmt_num(u.gib, 2),
        u.source
    ))
}

pub(crate) fn write_recommendation(
    out: &mut dyn Write,
    r: &Recommendation,
    capacity: Option<&crate::capacity::CapacityInfo>,
) -> io::Result<()> {
    writeln!(out, "## Recommendation\n")?;
    writeln!(
        out,
        "Sized for {} IOPS and {}: the workload figures above plus {} % headroom. Rules: {} (catalogue as of {}).\n",
        // Whole IOPS, but not "0" for a near-idle load.
        fmt_num(r.sized_iops, if r.sized_iops < 10.0 { 2 } else { 0 }),
        match (r.sized_mb_s, r.sized_mib_s) {
            (Some(mb), Some(mib)) => format!("{} MB/s ({} MiB/s)", fmt_num(mb, 2), fmt_num(mib, 2)),
            _ => "an unknown throughput (tiers checked on IOPS only)".to_string(),
        },
        fmt_num(r.headroom_pct, 0),
        r.rules_origin,
        r.catalog_as_of
    )?;
    if let Some(line) = capacity.and_then(capacity_line) {
        writeln!(out, "{line}\n")?;
    }
    for p in &r.platforms {
        writeln!(out, "### {}\n", p.name)?;
        match &p.recommended {
            Some(o) => {
                writeln!(
                    out,
                    "**Recommended: {}.**\n",
                    option_summary(o, r.capacity_given)
                )?;
                if !o.hosts.is_empty() {
                    let line = HostLine {
                        tier: &o.name,
                        hosts: &o.hosts,
                        iops: o.counted_iops.unwrap_or(r.sized_iops),
                        counted: o.counted_iops.is_some(),
                        mb_s: r.sized_mb_s,
                    };
                    writeln!(out, "{line}\n")?;
                }
            }
            None => writeln!(out, "**No tier of this platform meets the demand.**\n")?,
        }
        for e in &p.explanation {
            writeln!(out, "- {e}")?;
        }
        if !p.explanation.is_empty() {
            writeln!(out)?;
        }
        let mut all: Vec<&TierOption> = p.recommended.iter().collect();
        all.extend(p.alternatives.iter());
        if !all.is_empty() {
            writeln!(out, "{}\n", options_table(&all))?;
        }
        // Assumptions and caveats of the options (drive sizes, IO-unit splitting, limits used),
        // each note once with the tiers it applies to.
        let mut notes: Vec<(String, Vec<&str>)> = Vec::new();
        for o in &all {
            for n in &o.notes {
                let n = n.to_string();
                match notes.iter_mut().find(|(t, _)| *t == n) {
                    Some((_, tiers)) => tiers.push(&o.tier_id),
                    None => notes.push((n, vec![&o.tier_id])),
                }
            }
        }
        for (n, tiers) in &notes {
            let who = if tiers.len() == all.len() && all.len() > 1 {
                "all tiers".to_string()
            } else {
                tiers
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            writeln!(out, "- {who}: {n}")?;
        }
        if !notes.is_empty() {
            writeln!(out)?;
        }
    }
    if let Some(card) = &r.report_card {
        writeln!(out, "### IO report card\n")?;
        let mut t = table(&["Test", "Average (ms)", "p95 (ms)", "Grade", "Measured as"]);
        for g in &card.tests {
            let p95 = match g.p95_range_ms {
                Some((lo, hi)) if hi.is_finite() => format!("{lo}–{hi}"),
                Some((lo, _)) => format!("≥ {lo}"),
                None => "–".to_string(),
            };
            t.add_row(vec![
                Cell::new(format!("{} (`{}`)", g.name, g.test)),
                Cell::new(match (g.measured_ms, &g.average_bounds) {
                    (Some(v), Some(b)) if b.at_most => {
                        crate::report::wording::precision::at_most_text(v, 2)
                    }
                    _ => opt_num(g.measured_ms, 2),
                }),
                Cell::new(p95),
                Cell::new(
                    g.grade
                        .as_ref()
                        .map_or_else(|| "–".into(), |g| g.to_string()),
                ),
                Cell::new(cell_text(&g.basis.to_string())),
            ]);
        }
        right(&mut t, &[1, 2]);
        writeln!(out, "{t}\n")?;
        writeln!(out, "- {} ({}).", card.note, card.source)?;
        writeln!(out)?;
    }
    writeln!(out, "### Rules\n")?;
    if r.fired_rules.is_empty() {
        writeln!(out, "No rule fired.\n")?;
    } else {
        let mut t = table(&["Rule", "Effect", "Why", "Source"]);
        for f in &r.fired_rules {
            let effect = serde_json::to_value(f.effect)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let targets = if f.targets.is_empty() {
                effect
            } else {
                format!("{effect} {}", f.targets.join(", "))
            };
            t.add_row(vec![
                Cell::new(format!("`{}`", f.id)),
                Cell::new(cell_text(&targets)),
                Cell::new(cell_text(&f.message.to_string())),
                Cell::new(cell_text(&f.source)),
            ]);
        }
        writeln!(out, "{t}\n")?;
    }
    for n in &r.not_evaluated {
        writeln!(
            out,
            "- Not evaluated `{}`: {}",
            n.id,
            not_evaluated_reason(&n.unknown_metrics)
        )?;
    }
    for n in &r.not_fired {
        writeln!(out, "- Did not fire `{}`: {}", n.id, n.reason)?;
    }
    if !r.not_evaluated.is_empty() || !r.not_fired.is_empty() {
        writeln!(out)?;
    }
    // Platform-specific explanation lines ("aws: …") are already printed under each platform.
    let general: Vec<String> = r
        .explanation
        .iter()
        .filter(|e| !matches!(e, Explanation::ForPlatform { .. }))
        .map(|e| e.to_string())
        .chain(r.notes.iter().map(|n| n.to_string()))
        .collect();
    for n in &general {
        writeln!(out, "- {n}")?;
    }
    if !general.is_empty() {
        writeln!(out)?;
    }
    Ok(())
}
