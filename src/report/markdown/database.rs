//! The Markdown section of one database: sources, summary, warnings, intervals, statistics,
//! RAC instances, workload, latency, recommendation and notes.

use std::io::{self, Write};

use comfy_table::Cell;
use sizer_parsers::awr::ReportKind;
use sizer_parsers::Format;

use super::recommendation::{option_summary, write_recommendation};
use crate::metrics::Figure;
use crate::report::fmt::{cell_text, figure_text, fmt_num, opt_num, right, table, when};
use crate::report::wording::precision::{from_cell, value_cell};
use crate::settings::SizeOn;
use crate::subject::database::{DatabaseAnalysis, SERIES_FIELDS};

/// The `Summary` table of a database.
pub(crate) fn write_summary(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
    let w = &d.intervals[d.character_interval].workload;
    let stat = |f: &str| d.statistics.get(f).and_then(|s| s.get(d.size_on));
    let on = size_on_text(d);
    writeln!(out, "## Summary\n")?;
    let mut t = table(&["Figure", "Value"]);
    let many = d.intervals.len() > 1;
    let sized = |f: &str, dec: usize| -> String {
        let v = opt_num(stat(f), dec);
        if many {
            format!("{v} ({on})")
        } else {
            v
        }
    };
    t.add_row(vec![
        "Required IOPS".to_string(),
        format!(
            "{}{}",
            sized("required_iops", w.required_iops.decimals as usize),
            if d.sizing_basis == "measured_iops" {
                " (sizing uses measured IOPS)"
            } else {
                ""
            }
        ),
    ]);
    t.add_row(vec![
        "Measured IOPS (read + write)".to_string(),
        sized("measured_iops", w.measured_iops.decimals as usize),
    ]);
    if d.statistics
        .get(crate::subject::database::PEAK_IN_INTERVAL)
        .is_some_and(|s| s.n > 0)
    {
        t.add_row(vec![
            "Peak IOPS inside the intervals (upper bound)".to_string(),
            sized(crate::subject::database::PEAK_IN_INTERVAL, 1),
        ]);
    }
    if let Some(o) = w.exadata.as_deref().and_then(|x| x.off_exadata.as_ref()) {
        t.add_row(vec!["Off-Exadata estimate".to_string(), o.to_string()]);
    }
    t.add_row(vec![
        "Throughput (MB/s, 10^6 B)".to_string(),
        format!(
            "{} (read {}, write {})",
            sized("total_mb_s", 2),
            opt_num(stat("read_mb_s"), 2),
            opt_num(stat("write_mb_s"), 2)
        ),
    ]);
    t.add_row(vec![
        "Reads".to_string(),
        format!("{} % of requests", figure_text(&w.read_pct)),
    ]);
    t.add_row(vec![
        "DB buffer cache hit %".to_string(),
        format!(
            "{} (printed Buffer Hit %: {})",
            figure_text(&w.cache_hit_pct),
            figure_text(&w.buffer_hit_pct_printed)
        ),
    ]);
    t.add_row(vec![
        "Host CPU".to_string(),
        format!(
            "{}{}",
            cell_text(
                &crate::report::wording::cpu::CpuSummary {
                    busy: w.host_cpu_busy_pct.value,
                    busy_figure: &w.host_cpu_busy_pct,
                    iowait: &w.host_cpu_iowait_pct,
                    recommendation: d.recommendation.as_ref(),
                }
                .to_string()
            ),
            if many && w.host_cpu_busy_pct.value.is_some() {
                " (interval closest to the sizing figure)"
            } else {
                ""
            }
        ),
    ]);
    match &d.recommendation {
        Some(r) => {
            t.add_row(vec![
                format!("Sized demand (+{} % headroom)", fmt_num(r.headroom_pct, 0)),
                match r.sized_mb_s {
                    Some(mb) => {
                        format!("{} IOPS, {} MB/s", fmt_num(r.sized_iops, 0), fmt_num(mb, 2))
                    }
                    None => format!(
                        "{} IOPS, throughput unknown (tiers checked on IOPS only)",
                        fmt_num(r.sized_iops, 0)
                    ),
                },
            ]);
            for p in &r.platforms {
                t.add_row(vec![
                    format!("Recommended: {}", p.name),
                    match &p.recommended {
                        Some(o) => cell_text(&option_summary(o, r.capacity_given)),
                        None => "no tier meets the demand".into(),
                    },
                ]);
            }
        }
        None => {
            t.add_row(vec![
                "Recommendation".to_string(),
                "none: the figures needed to size are unknown (see Warnings)".to_string(),
            ]);
        }
    }
    writeln!(out, "{t}\n")
}

pub(crate) fn basis_text(d: &DatabaseAnalysis) -> &'static str {
    if d.sizing_basis == "measured_iops" {
        "measured IOPS"
    } else if d.sizing_basis == crate::subject::database::PEAK_IN_INTERVAL {
        "the peak IOPS inside the intervals (read_iops_max + write_iops_max)"
    } else {
        "required IOPS"
    }
}

pub(crate) fn size_on_text(d: &DatabaseAnalysis) -> String {
    let n = match d.intervals.iter().filter(|i| !i.excluded).count() {
        0 => d.intervals.len(), // every interval flagged: all are used (warning `all_flagged`)
        n => n,
    };
    match (d.size_on, n) {
        (_, 1) => "one interval".to_string(),
        (SizeOn::Avg, n) => format!("time-weighted average of {n} intervals"),
        (s, n) => format!("{} of {n} intervals", s.name()),
    }
}

pub(crate) fn write_intervals(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
    writeln!(out, "## Intervals\n")?;
    let mut t = table(&[
        "Begin",
        "End",
        "Minutes",
        "Scope",
        "Instances",
        "Required IOPS",
        "Measured IOPS",
        "Read IOPS",
        "Write IOPS",
        "MB/s",
        "db file sequential read (ms)",
        "Host CPU busy (%)",
        "Flags",
    ]);
    for iv in &d.intervals {
        let w = &iv.workload;
        t.add_row(vec![
            when(&iv.interval.begin_time),
            when(&iv.interval.end_time),
            opt_num(iv.interval.elapsed_min, 2),
            iv.scope.to_string(),
            iv.instances.join(", "),
            figure_text(&w.required_iops),
            figure_text(&w.measured_iops),
            figure_text(&w.read_iops),
            figure_text(&w.write_iops),
            figure_text(&w.total_mb_s),
            figure_text(&w.db_file_sequential_read_ms),
            figure_text(&w.host_cpu_busy_pct),
            cell_text(&if iv.excluded {
                format!("left out of statistics; {}", iv.flags.join("; "))
            } else {
                iv.flags.join("; ")
            }),
        ]);
    }
    right(&mut t, &[2, 5, 6, 7, 8, 9, 10, 11]);
    writeln!(out, "{t}\n")?;

    writeln!(out, "## Statistics over the intervals\n")?;
    writeln!(
        out,
        "Average: time-weighted by interval length. Percentiles: linear interpolation between the closest ranks of the intervals (restarted intervals left out).\n"
    )?;
    let mut t = table(&[
        "Figure",
        "Unit",
        "Avg",
        "p50",
        "p95",
        "p99",
        "Max",
        "Peak interval",
    ]);
    let peak = crate::subject::database::PEAK_IN_INTERVAL;
    for f in SERIES_FIELDS.iter().map(|(f, _)| *f).chain([peak]) {
        let Some(s) = d.statistics.get(f) else {
            continue;
        };
        if s.n == 0 {
            continue;
        }
        let dec = if s.unit == "ms" { 3 } else { 2 };
        t.add_row(vec![
            f.to_string(),
            s.unit.to_string(),
            opt_num(s.avg, dec),
            opt_num(s.p50, dec),
            opt_num(s.p95, dec),
            opt_num(s.p99, dec),
            opt_num(s.max, dec),
            if f == "cache_hit_pct" {
                "– (the best hit ratio is no peak)".to_string()
            } else {
                format!("{} → {}", when(&s.peak_begin), when(&s.peak_end))
            },
        ]);
    }
    right(&mut t, &[2, 3, 4, 5, 6]);
    writeln!(out, "{t}\n")?;
    if d.statistics.get(peak).is_some_and(|s| s.n > 0) {
        writeln!(
            out,
            "{peak}: the peak inside each interval beside its average (`read_iops_max + write_iops_max`, the busiest 60-second samples of the snapshot, summed over RAC instances): an upper bound of the busiest minute, since reads, writes and instances may peak in different minutes. `--size-on max-in-interval` sizes on its max.\n"
        )?;
    }
    Ok(())
}

/// RAC global reports: each instance's share of the cluster figure.
pub(crate) fn write_per_instance(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
    let rows: Vec<_> = d
        .intervals
        .iter()
        .flat_map(|iv| iv.per_instance.iter().map(move |p| (iv, p)))
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "## Instances of the RAC global report
"
    )?;
    writeln!(
        out,
        "Each instance's IO from `IOStat by File Type` (row `Total` of its `I#`); sizing uses the cluster-wide `System Statistics (Global)`.
"
    )?;
    let mut t = table(&[
        "Interval",
        "Instance",
        "Reads/s",
        "Writes/s",
        "Read MB/s",
        "Write MB/s",
    ]);
    for (iv, p) in rows {
        t.add_row(vec![
            format!(
                "{} → {}",
                when(&iv.interval.begin_time),
                when(&iv.interval.end_time)
            ),
            p.instance.clone(),
            opt_num(p.read_reqs_per_s, 2),
            opt_num(p.write_reqs_per_s, 2),
            opt_num(p.read_mb_s, 2),
            opt_num(p.write_mb_s, 2),
        ]);
    }
    right(&mut t, &[2, 3, 4, 5]);
    writeln!(out, "{t}\n")
}

pub(crate) fn write_workload(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
    let iv = &d.intervals[d.character_interval];
    let w = &iv.workload;
    if d.intervals.len() > 1 {
        writeln!(
            out,
            "## Workload of the interval {} → {}\n\nThe interval whose {} is closest to the sizing figure ({}); its IO sizes, hit ratio and latencies describe the workload's character to the rules.\n",
            when(&iv.interval.begin_time),
            when(&iv.interval.end_time),
            basis_text(d),
            size_on_text(d)
        )?;
    } else {
        writeln!(out, "## Workload\n")?;
    }
    let mut t = table(&["Figure", "Value", "Unit", "From"]);
    let rows: [(&str, &Figure); 21] = [
        ("Read IOPS", &w.read_iops),
        ("Write IOPS", &w.write_iops),
        ("Redo writes", &w.redo_writes_per_s),
        ("Measured IOPS", &w.measured_iops),
        ("Required IOPS", &w.required_iops),
        ("IO Profile Total Requests", &w.io_profile_total_iops),
        ("Read throughput", &w.read_mb_s),
        ("Write throughput", &w.write_mb_s),
        ("Total throughput", &w.total_mb_s),
        ("Average read size", &w.avg_read_kib),
        ("Average write size", &w.avg_write_kib),
        ("Read share", &w.read_pct),
        ("Small (single-block) reads", &w.small_read_iops),
        ("Large (multi-block) reads", &w.large_read_iops),
        ("Small (single-block) writes", &w.small_write_iops),
        ("Large (multi-block) writes", &w.large_write_iops),
        ("Direct path reads (of physical reads)", &w.direct_read_pct),
        ("DB buffer cache read-hit (recomputed)", &w.cache_hit_pct),
        ("Buffer Hit % (printed)", &w.buffer_hit_pct_printed),
        ("Host CPU busy", &w.host_cpu_busy_pct),
        ("Host CPU iowait", &w.host_cpu_iowait_pct),
    ];
    for (name, m) in rows {
        let from = match m.unknown_reason() {
            Some(why) => format!("unknown: {why}"),
            None => from_cell(m),
        };
        t.add_row(vec![
            Cell::new(name),
            Cell::new(value_cell(m)),
            Cell::new(m.unit),
            Cell::new(cell_text(&from)),
        ]);
    }
    right(&mut t, &[1]);
    writeln!(out, "{t}\n")?;

    writeln!(out, "## Latency\n")?;
    let mut t = table(&["Wait event", "Average wait (ms)", "As printed", "From"]);
    let optional = [
        ("direct path read", &w.direct_path_read_ms),
        ("cell smart table scan", &w.cell_smart_table_scan_ms),
    ];
    for (name, m) in [
        ("db file sequential read", &w.db_file_sequential_read_ms),
        ("db file scattered read", &w.db_file_scattered_read_ms),
        ("log file parallel write", &w.log_file_parallel_write_ms),
        ("log file sync", &w.log_file_sync_ms),
    ]
    .into_iter()
    .chain(optional.into_iter().filter(|(_, m)| m.value.is_some()))
    {
        let from = match m.unknown_reason() {
            Some(why) => why.to_string(),
            None => from_cell(m),
        };
        t.add_row(vec![
            Cell::new(name),
            Cell::new(value_cell(m)),
            Cell::new(m.printed().unwrap_or("–")),
            Cell::new(cell_text(&from)),
        ]);
    }
    right(&mut t, &[1, 2]);
    writeln!(out, "{t}\n")?;
    super::exadata::write_exadata(out, w.exadata.as_deref(), w.small_read_basis)
}

pub(crate) fn write_database(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
    let db = &d.database;
    writeln!(out, "# Storage sizing: {}\n", d.key)?;
    let mut flags = Vec::new();
    if db.rac == Some(true) {
        flags.push("RAC");
    }
    if db.cdb == Some(true) {
        flags.push("CDB");
    }
    let flag_text = if flags.is_empty() {
        String::new()
    } else {
        format!(" ({})", flags.join(", "))
    };
    // A collector capture gives one record per snapshot and instance: its file is one source.
    let mut files: Vec<(&String, usize, &Format)> = Vec::new();
    for (file, (_, _, format)) in d.sources.iter().zip(&d.source_kinds) {
        match files.iter_mut().find(|(f, _, _)| *f == file) {
            Some(e) => e.1 += 1,
            None => files.push((file, 1, format)),
        }
    }
    if files.len() < d.sources.len() && files.len() <= 6 {
        for (file, n, format) in &files {
            writeln!(
                out,
                "- Source: `{}` — {} ({n} records: one per {} and instance), release {}{flag_text}",
                crate::report::fmt::escape_controls(file),
                format.name(),
                if **format == Format::DmaArchive {
                    "hour of day"
                } else {
                    "snapshot"
                },
                db.release
            )?;
        }
    } else if d.sources.len() <= 6 {
        for (file, (kind, title, format)) in d.sources.iter().zip(&d.source_kinds) {
            let what = match kind {
                ReportKind::RacGlobal => "RAC global report",
                ReportKind::Pdb => "PDB report",
                ReportKind::Instance => "instance report",
            };
            let kind = match format {
                Format::Statspack => "Statspack report".to_string(),
                Format::AwrText => format!("AWR {what} (text)"),
                _ => format!("AWR {what}"),
            };
            writeln!(
                out,
                "- Source: `{}` — {kind} ({title}), release {}{flag_text}",
                crate::report::fmt::escape_controls(file),
                db.release
            )?;
        }
    } else {
        writeln!(
            out,
            "- Sources: {} reports, release {}{flag_text}",
            d.sources.len(),
            db.release
        )?;
    }
    if !db.containers.is_empty() {
        let names: Vec<String> = db
            .containers
            .iter()
            .map(|(id, n)| format!("{n} (Id {id})"))
            .collect();
        writeln!(out, "- Containers: {}", names.join(", "))?;
    }
    for i in &d.instance_info {
        let mut host = Vec::new();
        if let Some(p) = &i.platform {
            host.push(p.clone());
        }
        if let Some(c) = i.cpus {
            host.push(format!("{c} CPUs"));
        }
        if let Some(m) = i.memory_gb {
            host.push(format!("{} GB memory", fmt_num(m, 2)));
        }
        writeln!(
            out,
            "- Instance: {} (#{}) on {}{}",
            i.name,
            i.number,
            i.host.as_deref().unwrap_or("unknown host"),
            if host.is_empty() {
                String::new()
            } else {
                format!(" — {}", host.join(", "))
            }
        )?;
    }
    let (Some(first), Some(last)) = (d.intervals.first(), d.intervals.last()) else {
        return Ok(());
    };
    if d.intervals.len() == 1 {
        let iv = &first.interval;
        writeln!(
            out,
            "- Interval: snaps {}–{}, {} → {}, elapsed {}, DB time {}",
            iv.begin_snap,
            iv.end_snap,
            when(&iv.begin_time),
            when(&iv.end_time),
            iv.elapsed_min
                .map(|m| format!("{} min", fmt_num(m, 2)))
                .unwrap_or_else(|| "unknown".into()),
            iv.db_time_min
                .map(|m| format!("{} min", fmt_num(m, 2)))
                .unwrap_or_else(|| "unknown".into())
        )?;
    } else {
        writeln!(
            out,
            "- Intervals: {}, from {} to {}",
            d.intervals.len(),
            when(&first.interval.begin_time),
            when(&last.interval.end_time)
        )?;
    }
    writeln!(
        out,
        "- Sized on: {} of {}\n",
        size_on_text(d),
        basis_text(d)
    )?;
    super::recommendation::write_answer(
        out,
        d.recommendation.as_ref(),
        &format!("the {} of {}", size_on_text(d), basis_text(d)),
    )?;
    write_summary(out, d)?;
    if !d.warnings.is_empty() {
        writeln!(out, "## Warnings\n")?;
        for wn in &d.warnings {
            writeln!(out, "- **{}**: {}", wn.id, wn.message)?;
        }
        writeln!(out)?;
    }
    if d.intervals.len() > 1 {
        write_intervals(out, d)?;
    }
    write_per_instance(out, d)?;
    write_workload(out, d)?;
    if let Some(r) = &d.recommendation {
        write_recommendation(out, r, Some(&d.capacity))?;
    }
    let w = &d.intervals[d.character_interval].workload;
    writeln!(out, "## Notes\n")?;
    writeln!(
        out,
        "- Required IOPS = {} ({}). {}",
        d.required_iops_formula.text,
        d.required_iops_formula.terms.join(" + "),
        d.required_iops_formula.why
    )?;
    let terms = &d.required_iops_formula.terms;
    if w.redo_writes_per_s.value.is_some()
        && terms.iter().any(|t| t == "redo_writes")
        && terms.iter().any(|t| t == "write_total")
    {
        writeln!(
            out,
            "- Redo writes are already inside 'physical write total IO requests' (every LGWR write to every log member), so required IOPS carries the redo rate ({} writes/s here) once more, as margin ({} over measured IOPS in this report). Measured IOPS is what the database issued.",
            figure_text(&w.redo_writes_per_s),
            signed_pct(&w.required_margin_pct)
        )?;
    }
    if d.intervals.len() > 1 {
        writeln!(
            out,
            "- Each figure's statistic is taken over its own series (the p95 of read IOPS and the p95 of write IOPS may come from different intervals), so read + write at the p95 need not equal the p95 of measured IOPS."
        )?;
    }
    writeln!(
        out,
        "- MB = 10^6 bytes, MiB = 2^20 bytes, KiB = 2^10 bytes; rates are per second averaged over each report interval; values are shown to the precision the report prints."
    )?;
    writeln!(out)
}

/// A percentage figure with its sign (`+12.3 %`), or `unknown`.
fn signed_pct(f: &Figure) -> String {
    match f.value {
        Some(v) if v >= 0.0 => format!("+{} %", figure_text(f)),
        Some(_) => format!("{} %", figure_text(f)),
        None => "unknown".to_string(),
    }
}
