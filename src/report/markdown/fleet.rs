//! The fleet summaries: one row per database (`# Storage sizing: fleet summary`) and one row per
//! host (`# OS disk logs: hosts summary`). Each opens with the cross-platform table and the
//! consolidation on time-aligned intervals (`fleet_cross`), then the sizing figures per row.

use std::io::{self, Write};

use super::fleet_cross::{stat_name, write_consolidation, write_cross};
use crate::fleet::{DatabaseFleet, HostFleet};
use crate::report::fmt::{cell_text, fmt_num, opt_num, right, table, when};

/// Short meanings of warning ids, for the fleet table's legend.
pub(crate) fn warning_legend(id: &str) -> &'static str {
    match id {
        "rac_instance" => "a report covers one instance of a RAC database: the figures are a lower bound unless every instance's report is given",
        "rac_partial" => "an interval lacks some RAC instance's report",
        "pdb_report" => "PDB-level report: size from CDB-level reports",
        "long_window" => "a report window much longer than an hour hides peaks",
        "restart" => "an instance restarted inside an interval (left out)",
        "overlap" => "overlapping reports: the longer one is left out",
        "required_unknown" => "required IOPS unknown: sized on measured IOPS",
        "io_profile_mismatch" => "IO Profile disagrees with Instance Activity Stats",
        "all_flagged" => "every interval is flagged: approximate",
        "cannot_size" => "no IOPS figure: not sized",
        "capacity_not_in_file" => "not in --capacity-file: sized for performance only",
        "figure_not_finite" => "the sizing figure is not a finite number: not sized",
        "slow-single-block-reads" | "slow-log-writes" => "slow storage today: measured IOPS may understate demand",
        "parser" => "cells that could not be read",
        _ => "see the database's section",
    }
}

fn value_text(v: Option<f64>, decimals: u32) -> String {
    match v {
        Some(v) => fmt_num(v, decimals as usize),
        None => "unknown".to_string(),
    }
}

pub(crate) fn write_fleet(out: &mut dyn Write, f: &DatabaseFleet) -> io::Result<()> {
    let stat_name = stat_name(f.size_on);
    writeln!(out, "# Storage sizing: fleet summary\n")?;
    writeln!(
        out,
        "{} database(s) from {} report(s); each sized on the {stat_name} of its intervals plus headroom.{}{}{}\n",
        f.databases,
        f.reports,
        match f.failed {
            0 => String::new(),
            n => format!(" {n} file(s) could not be analysed (see the end)."),
        },
        match f.skipped {
            0 => String::new(),
            n => format!(" {n} file(s) that are not reports were skipped."),
        },
        match f.duplicates {
            0 => String::new(),
            n => format!(" {n} duplicate report(s) counted once."),
        },
    )?;
    write_cross(out, "Database", &f.cross_platform)?;
    if let Some(c) = &f.consolidation {
        write_consolidation(out, "databases", c)?;
    }
    writeln!(out, "## Sizing figures per database\n")?;
    let header_stat = format!("Required IOPS ({stat_name})");
    let mut headers: Vec<&str> = vec![
        "Database",
        "Reports",
        "Intervals",
        header_stat.as_str(),
        "MB/s",
        "Sized IOPS (+headroom)",
        "DB buffer cache hit %",
    ];
    headers.push("Warnings");
    let mut t = table(&headers);
    for r in &f.rows {
        let mut row = vec![
            r.database.clone(),
            r.reports.to_string(),
            r.intervals.to_string(),
            format!(
                "{}{}",
                value_text(r.iops, r.iops_decimals),
                if r.measured { " (measured)" } else { "" }
            ),
            opt_num(r.total_mb_s, 2),
            opt_num(r.sized_iops, 0),
            value_text(r.cache_hit_pct, r.cache_hit_decimals),
        ];
        row.push(r.warnings.join(", "));
        t.add_row(row);
    }
    let mut total = vec![
        "Total (sum of databases)".to_string(),
        f.totals.reports.to_string(),
        f.totals.intervals.to_string(),
        fmt_num(f.totals.iops, 2),
        fmt_num(f.totals.total_mb_s, 2),
        fmt_num(f.totals.sized_iops, 0),
        String::new(),
    ];
    total.push(String::new());
    t.add_row(total);
    right(&mut t, &[1, 2, 3, 4, 5, 6]);
    writeln!(out, "{t}\n")?;
    writeln!(
        out,
        "Each database's figures are the {stat_name} of its own intervals; the total adds them as if their peaks coincided (an upper bound for a shared array: the consolidation above adds the series interval by interval). Cache hit % is that of the interval whose IOPS is closest to the sizing figure.\n"
    )?;
    if !f.warnings.is_empty() {
        writeln!(out, "Warnings:\n")?;
        for id in &f.warnings {
            writeln!(out, "- `{id}`: {}", warning_legend(id))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

pub(crate) fn write_host_fleet(out: &mut dyn Write, f: &HostFleet) -> io::Result<()> {
    writeln!(out, "# OS disk logs: hosts summary\n")?;
    write_cross(out, "Host", &f.cross_platform)?;
    if let Some(c) = &f.consolidation {
        write_consolidation(out, "hosts", c)?;
    }
    writeln!(out, "## Sizing figures per host\n")?;
    let header_stat = format!("Host IOPS ({})", stat_name(f.size_on));
    let mut headers: Vec<&str> = vec![
        "Host",
        "Logs",
        "Intervals",
        "Window",
        header_stat.as_str(),
        "MB/s",
        "Sized IOPS (+headroom)",
    ];
    headers.push("Warnings");
    let mut t = table(&headers);
    for h in &f.rows {
        let mut row = vec![
            cell_text(&h.host),
            h.logs.to_string(),
            h.intervals.to_string(),
            match (&h.begin, &h.end) {
                (Some(_), Some(_)) => format!("{} → {}", when(&h.begin), when(&h.end)),
                _ => "no time stamps".into(),
            },
            opt_num(h.total_iops, 2),
            opt_num(h.total_mb_s, 2),
            opt_num(h.sized_iops, 0),
        ];
        row.push(h.warnings.join(", "));
        t.add_row(row);
    }
    right(&mut t, &[1, 2, 4, 5, 6]);
    writeln!(out, "{t}\n")?;
    Ok(())
}
