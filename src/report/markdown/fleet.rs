//! The fleet summaries: one row per database (`# Storage sizing: fleet summary`) and one row per
//! host (`# OS disk logs: hosts summary`), with each platform's choice and the totals.

use std::io::{self, Write};

use crate::analyze::{Run, SizeOn};
use crate::report::fmt::{cell_text, fmt_num, metric_text, opt_num, right, table, when};
use crate::rules::Recommendation;

/// Short meanings of warning ids, for the fleet table's legend.
pub(crate) fn warning_legend(id: &str) -> &'static str {
    match id {
        "rac_instance" => "a report covers one instance of a RAC database: the figures are a lower bound unless every instance's report is given",
        "rac_partial" => "an interval lacks some RAC instance's report",
        "pdb_report" => "PDB-level report: size from CDB-level reports",
        "exadata" => "Exadata: a non-Exadata array would see a different IO profile",
        "long_window" => "a report window much longer than an hour hides peaks",
        "restart" => "an instance restarted inside an interval (left out)",
        "overlap" => "overlapping reports: the longer one is left out",
        "required_unknown" => "required IOPS unknown: sized on measured IOPS",
        "io_profile_mismatch" => "IO Profile disagrees with Instance Activity Stats",
        "all_flagged" => "every interval is flagged: approximate",
        "cannot_size" => "no IOPS figure: not sized",
        "slow-single-block-reads" | "slow-log-writes" => "slow storage today: measured IOPS may understate demand",
        "parser" => "cells that could not be read",
        _ => "see the database's section",
    }
}

/// A summary table's cell for one platform: `count × tier` (or why none) and its monthly cost.
pub(crate) fn platform_choice(
    rec: Option<&Recommendation>,
    platform: &str,
) -> (String, Option<f64>) {
    let Some(r) = rec else {
        return ("–".into(), None);
    };
    match r.platforms.iter().find(|x| x.platform == platform) {
        Some(pr) => match &pr.recommended {
            Some(o) => (format!("{} × {}", o.count, o.tier_id), o.monthly_cost_usd),
            None => ("none feasible".into(), None),
        },
        None => ("–".into(), None),
    }
}

/// Platforms of a summary table, in the order the recommendations list them: (id, header).
pub(crate) fn summary_platforms<'a>(
    recs: impl Iterator<Item = Option<&'a Recommendation>>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in recs.flatten() {
        for p in &r.platforms {
            if !out.iter().any(|(id, _)| id == &p.platform) {
                let header = match p.platform.as_str() {
                    "onprem" => "On-premises".to_string(),
                    "aws" => "AWS (USD/month)".to_string(),
                    "azure" => "Azure (USD/month)".to_string(),
                    "gcp" => "Google Cloud (USD/month)".to_string(),
                    other => other.to_string(),
                };
                out.push((p.platform.clone(), header));
            }
        }
    }
    out
}

/// One summary row's platform cells (`count × tier`, with `$cost` when priced), adding each
/// cost to `totals`.
pub(crate) fn platform_cells(
    rec: Option<&Recommendation>,
    platforms: &[(String, String)],
    totals: &mut [f64],
) -> Vec<String> {
    platforms
        .iter()
        .zip(totals.iter_mut())
        .map(|((id, _), total)| {
            let (cell, cost) = platform_choice(rec, id);
            match cost {
                Some(c) => {
                    *total += c;
                    format!("{cell}: {}", fmt_num(c, 2))
                }
                None => cell,
            }
        })
        .collect()
}

pub(crate) fn write_fleet(out: &mut dyn Write, run: &Run) -> io::Result<()> {
    let size_on = run.databases.first().map(|d| d.size_on).unwrap_or_default();
    let stat_name = if size_on == SizeOn::Avg {
        "time-weighted average".to_string()
    } else {
        size_on.name().to_string()
    };
    writeln!(out, "# Storage sizing: fleet summary\n")?;
    writeln!(
        out,
        "{} database(s) from {} report(s); each sized on the {stat_name} of its intervals plus headroom.{}{}{}\n",
        run.databases.len(),
        run.analyses.len(),
        match run.failures.len() {
            0 => String::new(),
            n => format!(" {n} file(s) could not be analysed (see the end)."),
        },
        match run.skipped.len() {
            0 => String::new(),
            n => format!(" {n} file(s) that are not reports were skipped."),
        },
        match run.duplicates.len() {
            0 => String::new(),
            n => format!(" {n} duplicate report(s) counted once."),
        },
    )?;
    let capacity_given = run
        .databases
        .iter()
        .filter_map(|d| d.recommendation.as_ref())
        .any(|r| r.capacity_given);
    if !capacity_given {
        writeln!(
            out,
            "Capacity was not given (`--capacity`; AWR and Statspack reports carry no datafile size): drives and volumes are the minimum for the sized IOPS and MB/s, so each cloud price is that of a performance-only layout (no total is added up); give the data size for real costs.\n"
        )?;
    }
    let header_stat = format!("Required IOPS ({stat_name})");
    let platforms = summary_platforms(run.databases.iter().map(|d| d.recommendation.as_ref()));
    let mut headers: Vec<&str> = vec![
        "Database",
        "Reports",
        "Intervals",
        header_stat.as_str(),
        "MB/s",
        "Sized IOPS (+headroom)",
        "DB buffer cache hit %",
    ];
    headers.extend(platforms.iter().map(|(_, h)| h.as_str()));
    headers.push("Warnings");
    let mut t = table(&headers);
    let (mut sum_iops, mut sum_mb, mut sum_sized) = (0.0, 0.0, 0.0);
    let mut sum_cost = vec![0.0; platforms.len()];
    let mut ids_seen: Vec<String> = Vec::new();
    for d in &run.databases {
        let stat = |f: &str| d.statistics.get(f).and_then(|s| s.get(d.size_on));
        let cells = platform_cells(d.recommendation.as_ref(), &platforms, &mut sum_cost);
        let iops = stat(&d.sizing_basis);
        let sized = d.recommendation.as_ref().map(|r| r.sized_iops);
        sum_iops += iops.unwrap_or(0.0);
        sum_mb += stat("total_mb_s").unwrap_or(0.0);
        sum_sized += sized.unwrap_or(0.0);
        let mut ids: Vec<&str> = Vec::new();
        for w in &d.warnings {
            if !ids.contains(&w.id.as_str()) {
                ids.push(&w.id);
            }
            if !ids_seen.contains(&w.id) {
                ids_seen.push(w.id.clone());
            }
        }
        let mut row = vec![
            d.key.clone(),
            d.sources.len().to_string(),
            d.intervals.len().to_string(),
            format!(
                "{}{}",
                opt_num(
                    iops,
                    d.intervals[d.character_interval]
                        .workload
                        .required_iops
                        .decimals as usize
                ),
                if d.sizing_basis == "measured_iops" {
                    " (measured)"
                } else {
                    ""
                }
            ),
            opt_num(stat("total_mb_s"), 2),
            opt_num(sized, 0),
            metric_text(&d.intervals[d.character_interval].workload.cache_hit_pct),
        ];
        row.extend(cells);
        row.push(ids.join(", "));
        t.add_row(row);
    }
    let mut total = vec![
        "Total (sum of databases)".to_string(),
        run.analyses.len().to_string(),
        run.databases
            .iter()
            .map(|d| d.intervals.len())
            .sum::<usize>()
            .to_string(),
        fmt_num(sum_iops, 2),
        fmt_num(sum_mb, 2),
        fmt_num(sum_sized, 0),
        String::new(),
    ];
    // Without a capacity every volume is a minimum-size one: a fleet total of those prices
    // would read as a budget, so none is printed.
    total.extend(platforms.iter().zip(&sum_cost).map(|((id, _), c)| {
        if id == "onprem" {
            String::new()
        } else if capacity_given {
            fmt_num(*c, 2)
        } else {
            "no total: capacity not given".to_string()
        }
    }));
    total.push(String::new());
    t.add_row(total);
    right(&mut t, &[1, 2, 3, 4, 5, 6]);
    writeln!(out, "{t}\n")?;
    writeln!(
        out,
        "Each database's figures are the {stat_name} of its own intervals; the total adds them as if their peaks coincided (an upper bound for a shared array). Cache hit % is that of the interval whose IOPS is closest to the sizing figure.\n"
    )?;
    if !ids_seen.is_empty() {
        writeln!(out, "Warnings:\n")?;
        for id in &ids_seen {
            writeln!(out, "- `{id}`: {}", warning_legend(id))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

pub(crate) fn write_host_fleet(out: &mut dyn Write, run: &Run) -> io::Result<()> {
    writeln!(out, "# OS disk logs: hosts summary\n")?;
    let size_on = run.hosts.first().map(|h| h.size_on).unwrap_or_default();
    let stat_name = if size_on == SizeOn::Avg {
        "time-weighted average".to_string()
    } else {
        size_on.name().to_string()
    };
    let header_stat = format!("Host IOPS ({stat_name})");
    let platforms = summary_platforms(run.hosts.iter().map(|h| h.recommendation.as_ref()));
    let mut headers: Vec<&str> = vec![
        "Host",
        "Logs",
        "Intervals",
        "Window",
        header_stat.as_str(),
        "MB/s",
        "Sized IOPS (+headroom)",
    ];
    headers.extend(platforms.iter().map(|(_, h)| h.as_str()));
    headers.push("Warnings");
    let mut t = table(&headers);
    let mut sum_cost = vec![0.0; platforms.len()];
    for h in &run.hosts {
        let stat = |f: &str| h.statistics.get(f).and_then(|s| s.get(h.size_on));
        let cells = platform_cells(h.recommendation.as_ref(), &platforms, &mut sum_cost);
        let mut ids: Vec<&str> = Vec::new();
        for w in &h.warnings {
            if !ids.contains(&w.id.as_str()) {
                ids.push(&w.id);
            }
        }
        let mut row = vec![
            cell_text(&h.host),
            h.sources.len().to_string(),
            h.intervals.to_string(),
            match (&h.begin, &h.end) {
                (Some(_), Some(_)) => format!("{} → {}", when(&h.begin), when(&h.end)),
                _ => "no time stamps".into(),
            },
            opt_num(stat("total_iops"), 2),
            opt_num(stat("total_mb_s"), 2),
            opt_num(h.recommendation.as_ref().map(|r| r.sized_iops), 0),
        ];
        row.extend(cells);
        row.push(ids.join(", "));
        t.add_row(row);
    }
    right(&mut t, &[1, 2, 4, 5, 6]);
    writeln!(out, "{t}\n")?;
    Ok(())
}
