//! Renderers: Markdown for people, JSON for machines. Both take a writer and finished results.
//!
//! The JSON document is specified in `docs/json-schema.md`.

use std::io::{self, Write};

use comfy_table::presets::ASCII_MARKDOWN;
use comfy_table::{Cell, CellAlignment, Table};
use serde::Serialize;

use crate::analyze::{DatabaseAnalysis, Run, SizeOn, SERIES_FIELDS};
use crate::metrics::Metric;
use crate::rules::{Recommendation, TierOption, Unit};

/// Identifier of the JSON document layout; bumped on any incompatible change.
pub const JSON_SCHEMA: &str = "sizer.analyze/2";

/// Formats `v` with `d` decimals and `,` thousands separators (`1,353.87`).
pub fn fmt_num(v: f64, d: usize) -> String {
    let s = format!("{:.*}", d, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let mut grouped = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        "-"
    } else {
        ""
    };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

fn metric_text(m: &Metric) -> String {
    match m.value {
        Some(v) => fmt_num(v, m.decimals as usize),
        None => "unknown".to_string(),
    }
}

fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(ASCII_MARKDOWN);
    t.set_header(header.iter().map(Cell::new));
    t
}

fn right(t: &mut Table, cols: &[usize]) {
    for &c in cols {
        if let Some(col) = t.column_mut(c) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
}

/// Escapes `|` so free text cannot break a Markdown table row.
fn cell_text(s: &str) -> String {
    s.replace('|', "\\|")
}

fn option_summary(o: &TierOption, capacity_given: bool) -> String {
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
        if capacity_given {
            ""
        } else {
            "; capacity not given: minimum size for the sized IOPS, add --capacity"
        }
    )
}

fn options_table(opts: &[&TierOption]) -> Table {
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
                s = format!("{s}; {}", o.binding_limits.join("; "));
            }
            s
        } else {
            "–".to_string()
        };
        let why_not = if i == 0 && o.lost_because.is_none() && o.feasible {
            "recommended".to_string()
        } else {
            o.lost_because.clone().unwrap_or_default()
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
                (_, None) => o.cost_note.clone().unwrap_or_else(|| "not computed".into()),
            }),
            Cell::new(cell_text(&status)),
            Cell::new(cell_text(&why_not)),
        ]);
    }
    right(&mut t, &[1, 2, 3, 4, 5]);
    t
}

fn write_recommendation(out: &mut dyn Write, r: &Recommendation) -> io::Result<()> {
    writeln!(out, "## Recommendation\n")?;
    writeln!(
        out,
        "Sized for {} IOPS and {} MB/s ({} MiB/s): the workload figures above plus {} % headroom. Rules: {} (catalogue as of {}).\n",
        // Whole IOPS, but not "0" for a near-idle load.
        fmt_num(r.sized_iops, if r.sized_iops < 10.0 { 2 } else { 0 }),
        fmt_num(r.sized_mb_s, 2),
        fmt_num(r.sized_mib_s, 2),
        fmt_num(r.headroom_pct, 0),
        r.rules_origin,
        r.catalog_as_of
    )?;
    for p in &r.platforms {
        writeln!(out, "### {}\n", p.name)?;
        match &p.recommended {
            Some(o) => writeln!(
                out,
                "**Recommended: {}.**\n",
                option_summary(o, r.capacity_given)
            )?,
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
        let mut notes: Vec<(&str, Vec<&str>)> = Vec::new();
        for o in &all {
            for n in &o.notes {
                match notes.iter_mut().find(|(t, _)| t == n) {
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
                Cell::new(opt_num(g.measured_ms, 2)),
                Cell::new(p95),
                Cell::new(g.grade.clone().unwrap_or_else(|| "–".into())),
                Cell::new(cell_text(&g.basis)),
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
                Cell::new(cell_text(&f.message)),
                Cell::new(cell_text(&f.source)),
            ]);
        }
        writeln!(out, "{t}\n")?;
    }
    for n in &r.not_evaluated {
        writeln!(out, "- Not evaluated `{}`: {}", n.id, n.reason)?;
    }
    for n in &r.not_fired {
        writeln!(out, "- Did not fire `{}`: {}", n.id, n.reason)?;
    }
    if !r.not_evaluated.is_empty() || !r.not_fired.is_empty() {
        writeln!(out)?;
    }
    // Platform-specific explanation lines ("aws: …") are already printed under each platform.
    let general: Vec<&String> = r
        .explanation
        .iter()
        .filter(|e| {
            !r.platforms
                .iter()
                .any(|p| e.starts_with(&format!("{}: ", p.platform)))
        })
        .chain(r.notes.iter())
        .collect();
    for n in &general {
        writeln!(out, "- {n}")?;
    }
    if !general.is_empty() {
        writeln!(out)?;
    }
    Ok(())
}

fn opt_num(v: Option<f64>, d: usize) -> String {
    v.map(|v| fmt_num(v, d)).unwrap_or_else(|| "unknown".into())
}

fn when(t: &Option<String>) -> String {
    t.as_deref().unwrap_or("?").replace('T', " ")
}

fn when_or_dash(t: &Option<String>) -> String {
    t.as_deref()
        .map(|t| t.replace('T', " "))
        .unwrap_or_else(|| "–".into())
}

/// The `Summary` table of a database.
fn write_summary(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
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
        format!("{} % of requests", metric_text(&w.read_pct)),
    ]);
    t.add_row(vec![
        "DB buffer cache hit %".to_string(),
        format!(
            "{} (printed Buffer Hit %: {})",
            metric_text(&w.cache_hit_pct),
            metric_text(&w.buffer_hit_pct_printed)
        ),
    ]);
    match &d.recommendation {
        Some(r) => {
            t.add_row(vec![
                format!("Sized demand (+{} % headroom)", fmt_num(r.headroom_pct, 0)),
                format!(
                    "{} IOPS, {} MB/s",
                    fmt_num(r.sized_iops, 0),
                    fmt_num(r.sized_mb_s, 2)
                ),
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

fn basis_text(d: &DatabaseAnalysis) -> &'static str {
    if d.sizing_basis == "measured_iops" {
        "measured IOPS"
    } else {
        "required IOPS"
    }
}

fn size_on_text(d: &DatabaseAnalysis) -> String {
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

fn write_intervals(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
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
            metric_text(&w.required_iops),
            metric_text(&w.measured_iops),
            metric_text(&w.read_iops),
            metric_text(&w.write_iops),
            metric_text(&w.total_mb_s),
            metric_text(&w.db_file_sequential_read_ms),
            cell_text(&if iv.excluded {
                format!("left out of statistics; {}", iv.flags.join("; "))
            } else {
                iv.flags.join("; ")
            }),
        ]);
    }
    right(&mut t, &[2, 5, 6, 7, 8, 9, 10]);
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
    for (f, _) in SERIES_FIELDS {
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
    writeln!(out, "{t}\n")
}

/// RAC global reports: each instance's share of the cluster figure.
fn write_per_instance(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
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

fn write_workload(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
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
    let rows: [(&str, &Metric); 19] = [
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
    ];
    for (name, m) in rows {
        let from = match &m.unknown_reason {
            Some(why) => format!("unknown: {why}"),
            None => m.from.clone(),
        };
        t.add_row(vec![
            Cell::new(name),
            Cell::new(metric_text(m)),
            Cell::new(m.unit),
            Cell::new(cell_text(&from)),
        ]);
    }
    right(&mut t, &[1]);
    writeln!(out, "{t}\n")?;

    writeln!(out, "## Latency\n")?;
    let mut t = table(&["Wait event", "Average wait (ms)", "As printed", "From"]);
    for (name, m) in [
        ("db file sequential read", &w.db_file_sequential_read_ms),
        ("db file scattered read", &w.db_file_scattered_read_ms),
        ("log file parallel write", &w.log_file_parallel_write_ms),
        ("log file sync", &w.log_file_sync_ms),
    ] {
        t.add_row(vec![
            Cell::new(name),
            Cell::new(metric_text(m)),
            Cell::new(m.printed.as_deref().unwrap_or("–")),
            Cell::new(cell_text(m.unknown_reason.as_deref().unwrap_or(&m.from))),
        ]);
    }
    right(&mut t, &[1, 2]);
    writeln!(out, "{t}\n")
}

fn write_database(out: &mut dyn Write, d: &DatabaseAnalysis) -> io::Result<()> {
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
    if d.sources.len() <= 6 {
        for (file, (kind, title, format)) in d.sources.iter().zip(&d.source_kinds) {
            let what = match kind.as_str() {
                "rac_global" => "RAC global report",
                "pdb" => "PDB report",
                _ => "instance report",
            };
            let kind = match format.as_str() {
                "statspack" => "Statspack report".to_string(),
                "awr_text" => format!("AWR {what} (text)"),
                _ => format!("AWR {what}"),
            };
            writeln!(
                out,
                "- Source: `{file}` — {kind} ({title}), release {}{flag_text}",
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
        write_recommendation(out, r)?;
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
            "- Redo writes are already inside 'physical write total IO requests' (every LGWR write to every log member), so required IOPS carries the redo rate ({} writes/s here) once more, as margin. Measured IOPS is what the database issued.",
            metric_text(&w.redo_writes_per_s)
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

/// Short meanings of warning ids, for the fleet table's legend.
fn warning_legend(id: &str) -> &'static str {
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
fn platform_choice(rec: Option<&Recommendation>, platform: &str) -> (String, Option<f64>) {
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
fn summary_platforms<'a>(
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
fn platform_cells(
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

fn write_fleet(out: &mut dyn Write, run: &Run) -> io::Result<()> {
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

fn write_unread(out: &mut dyn Write, run: &Run) -> io::Result<()> {
    if !run.failures.is_empty() {
        writeln!(out, "# Not analysed\n")?;
        for f in &run.failures {
            writeln!(out, "- `{}`: {}", f.file, f.error)?;
        }
        writeln!(out)?;
    }
    if !run.skipped.is_empty() {
        writeln!(
            out,
            "# Skipped: not reports ({} files)\n",
            run.skipped.len()
        )?;
        // Grouped by reason, so the few that matter (AWR text, Statspack) are not buried.
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for f in &run.skipped {
            match groups.iter_mut().find(|(r, _)| *r == f.reason) {
                Some((_, files)) => files.push(&f.file),
                None => groups.push((&f.reason, vec![&f.file])),
            }
        }
        groups.sort_by_key(|(_, files)| files.len());
        for (reason, files) in groups {
            writeln!(out, "- {reason} ({} file(s)):", files.len())?;
            for f in files.iter().take(10) {
                writeln!(out, "  - `{f}`")?;
            }
            if files.len() > 10 {
                writeln!(out, "  - … and {} more", files.len() - 10)?;
            }
        }
        writeln!(out)?;
    }
    if !run.duplicates.is_empty() {
        writeln!(out, "# Duplicates (counted once)\n")?;
        for f in &run.duplicates {
            if f.differs {
                writeln!(
                    out,
                    "- `{}`: same database, instance and snapshots as `{}` but **different figures** (an edited copy, or a cloned database that kept its DB Id); `{}` was used",
                    f.file, f.duplicate_of, f.duplicate_of
                )?;
            } else {
                writeln!(
                    out,
                    "- `{}`: same database, instance, snapshots and figures as `{}`",
                    f.file, f.duplicate_of
                )?;
            }
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Names of the host figures as the report prints them.
fn host_figure_label(f: &str) -> &'static str {
    match f {
        "total_iops" => "IOPS (r/s + w/s + d/s, sysstat tps)",
        "read_iops" => "r/s",
        "write_iops" => "w/s",
        "total_mb_s" => "MB/s (10^6 bytes/s), read + write + discard",
        "read_mb_s" => "read MB/s",
        "write_mb_s" => "write MB/s",
        "avg_io_kib" => "average IO size, KiB",
        "r_await_ms" => "r_await, ms",
        "w_await_ms" => "w_await, ms",
        "await_ms" => "await, ms",
        "queue_depth" => "aqu-sz (queue depth)",
        "util_pct" => "%util",
        "svctm_ms" => "svctm, ms",
        _ => "?",
    }
}

fn write_host(out: &mut dyn Write, h: &crate::hosts::HostAnalysis) -> io::Result<()> {
    writeln!(
        out,
        "# Host {}{}\n",
        h.host,
        h.os.as_deref()
            .map(|o| format!(" ({o})"))
            .unwrap_or_default()
    )?;
    for s in &h.sources {
        let mut what = vec![
            format!("{} report(s)", s.reports),
            format!("{} interval(s) used", s.intervals),
        ];
        if s.since_boot_left_out > 0 {
            what.push(format!(
                "{} since-boot report(s) left out (averages since boot, not intervals; pass --iostat-y for logs taken with iostat -y)",
                s.since_boot_left_out
            ));
        }
        if s.summaries_left_out > 0 {
            what.push(format!(
                "{} Average/Summary report(s) not used",
                s.summaries_left_out
            ));
        }
        if s.duplicate_times > 0 {
            what.push(format!(
                "{} interval(s) already read from another file",
                s.duplicate_times
            ));
        }
        if s.skipped_count > 0 {
            what.push(format!("{} line(s) left out", s.skipped_count));
        }
        if let Some(o) = s.date_order {
            what.push(format!(
                "dates read {}",
                match o {
                    sizer_parsers::disk::DateOrder::Mdy => "month first (MM/DD)",
                    sizer_parsers::disk::DateOrder::Dmy => "day first (DD/MM)",
                    sizer_parsers::disk::DateOrder::Ymd => "year first",
                }
            ));
        }
        if s.utc {
            what.push("times in UTC".into());
        }
        writeln!(out, "- `{}` ({}): {}", s.file, s.format, what.join("; "))?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{}: {} interval(s){}. Host total: {}.\n",
        match (&h.begin, &h.end) {
            (Some(_), Some(_)) => format!("Window {} → {}", when(&h.begin), when(&h.end)),
            _ => "No time stamps in the log (iostat without -t)".to_string(),
        },
        h.intervals,
        h.interval_s
            .map(|s| format!(" of {} s", fmt_num(s, if s.fract() == 0.0 { 0 } else { 1 })))
            .unwrap_or_default(),
        h.selection
    )?;
    writeln!(out, "## Host totals\n")?;
    let mut t = table(&["Figure", "Average", "p50", "p95", "p99", "Max", "Peak at"]);
    for (f, _) in crate::hosts::FIGURES.iter() {
        let Some(st) = h.statistics.get(*f) else {
            continue;
        };
        if st.n == 0 {
            continue;
        }
        t.add_row(vec![
            host_figure_label(f).to_string(),
            opt_num(st.avg, 2),
            opt_num(st.p50, 2),
            opt_num(st.p95, 2),
            opt_num(st.p99, 2),
            opt_num(st.max, 2),
            when_or_dash(&st.peak_end),
        ]);
    }
    right(&mut t, &[1, 2, 3, 4, 5]);
    writeln!(out, "{t}\n")?;
    writeln!(
        out,
        "Averages are time-weighted; percentiles interpolate linearly between intervals. Latencies are weighted by each device's requests. Figures a log does not print are left out, never shown as 0.\n"
    )?;
    writeln!(out, "## Devices\n")?;
    let mut t = table(&[
        "Device",
        "Role",
        "In total",
        "Samples",
        "IOPS avg",
        "IOPS p95",
        "IOPS max",
        "MB/s avg",
        "MB/s p95",
        "r_await avg",
        "w_await avg",
        "aqu-sz avg",
        "%util avg / max",
        "svctm avg",
    ]);
    let virtual_devs: Vec<&str> = h
        .devices
        .iter()
        .filter(|d| d.role == "virtual" && !d.included)
        .map(|d| d.device.as_str())
        .collect();
    for d in h
        .devices
        .iter()
        .filter(|d| d.role != "virtual" || d.included)
    {
        let f = |n: &str| d.figures.get(n);
        let g = |n: &str, which: fn(&crate::hosts::DeviceFigure) -> Option<f64>| {
            f(n).and_then(which)
                .map(|v| fmt_num(v, 2))
                .unwrap_or_else(|| "–".into())
        };
        t.add_row(vec![
            cell_text(&d.device),
            d.role.to_string(),
            if d.included { "yes" } else { "no" }.to_string(),
            d.samples.to_string(),
            g("total_iops", |x| x.avg),
            g("total_iops", |x| x.p95),
            g("total_iops", |x| x.max),
            g("total_mb_s", |x| x.avg),
            g("total_mb_s", |x| x.p95),
            g("r_await_ms", |x| x.avg),
            g("w_await_ms", |x| x.avg),
            g("queue_depth", |x| x.avg),
            match f("util_pct") {
                Some(u) => format!("{} / {}", opt_num(u.avg, 2), opt_num(u.max, 2)),
                None => "–".into(),
            },
            g("svctm_ms", |x| x.avg),
        ]);
    }
    right(&mut t, &[3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    writeln!(out, "{t}\n")?;
    if !virtual_devs.is_empty() {
        writeln!(
            out,
            "Not listed: {} loop, RAM, optical and floppy device(s) ({}), never part of the host total.\n",
            virtual_devs.len(),
            virtual_devs.join(", ")
        )?;
    }
    writeln!(
        out,
        "Device figures are means of the samples (latencies and IO sizes weighted by the requests behind them). `%util` and `svctm` are shown, never used for sizing: a device that serves requests in parallel (NVMe, RAID, SAN LUN) can be 100 % busy with room to spare.\n"
    )?;
    if !h.awr.is_empty() {
        writeln!(out, "## AWR and OS side by side\n")?;
        let mut t = table(&[
            "Database / instance",
            "AWR interval",
            "AWR IOPS (read + write total)",
            "OS IOPS",
            "AWR MB/s",
            "OS MB/s",
            "OS coverage",
        ]);
        for a in &h.awr {
            t.add_row(vec![
                format!("{} / {}", a.database, a.instance),
                format!("{} → {}", when(&a.begin), when(&a.end)),
                opt_num(a.awr_iops, 2),
                opt_num(a.os_iops, 2),
                opt_num(a.awr_mb_s, 2),
                opt_num(a.os_mb_s, 2),
                format!("{} %", fmt_num(100.0 * a.covered_s / a.awr_s.max(1.0), 0)),
            ]);
        }
        right(&mut t, &[2, 3, 4, 5, 6]);
        writeln!(out, "{t}\n")?;
        writeln!(
            out,
            "The OS sees every process on the host (and, for SAN LUNs shared with other hosts, not the whole array); AWR sees one database. OS figures are time-weighted over the OS intervals that end inside the AWR interval.\n"
        )?;
    }
    if !h.warnings.is_empty() {
        writeln!(out, "## Warnings\n")?;
        for w in &h.warnings {
            writeln!(out, "- `{}`: {}", w.id, w.message)?;
        }
        writeln!(out)?;
    }
    match &h.recommendation {
        Some(r) => {
            writeln!(
                out,
                "Sized on the {} of the host total IOPS: {} IOPS, {} MB/s ({}).\n",
                if h.size_on == SizeOn::Avg {
                    "time-weighted average".to_string()
                } else {
                    h.size_on.name().to_string()
                },
                fmt_num(h.demand.required_iops, 2),
                fmt_num(h.demand.read_mb_s + h.demand.write_mb_s, 2),
                if h.demand.read_iops + h.demand.write_iops > 0.0 {
                    format!(
                        "{} r/s, {} w/s",
                        fmt_num(h.demand.read_iops, 2),
                        fmt_num(h.demand.write_iops, 2)
                    )
                } else {
                    "read/write split unknown".to_string()
                },
            )?;
            write_recommendation(out, r)?;
        }
        None => writeln!(out, "No recommendation: see the warnings.\n")?,
    }
    Ok(())
}

fn write_host_fleet(out: &mut dyn Write, run: &Run) -> io::Result<()> {
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

fn virt_label(m: &str) -> String {
    match m {
        "total_iops" => "IOPS (read + write)".into(),
        "read_iops" => "read IOPS".into(),
        "write_iops" => "write IOPS".into(),
        "total_mb_s" => "MB/s (10^6 bytes/s)".into(),
        "read_mb_s" => "read MB/s".into(),
        "write_mb_s" => "write MB/s".into(),
        "read_latency_ms" => "read latency, ms".into(),
        "write_latency_ms" => "write latency, ms".into(),
        "latency_ms" => "latency, ms".into(),
        "device_latency_ms" => "DAVG (device), ms".into(),
        "kernel_latency_ms" => "KAVG (kernel), ms".into(),
        "guest_latency_ms" => "GAVG (guest), ms".into(),
        "queue_latency_ms" => "QAVG (queue), ms".into(),
        "congestion" => "congestion".into(),
        "outstanding_io" => "outstanding IO".into(),
        "read_cache_hit_pct" => "read-cache hit, %".into(),
        "read_latency_p95_ms" => "read latency p95 (as reported), ms".into(),
        "write_latency_p95_ms" => "write latency p95 (as reported), ms".into(),
        other => other.replace('_', " "),
    }
}

/// Figures in the order a reader expects: IOPS, throughput, latency, then the rest.
fn ordered(
    m: &std::collections::BTreeMap<String, crate::analyze::SeriesStats>,
) -> Vec<(&String, &crate::analyze::SeriesStats)> {
    const ORDER: [&str; 12] = [
        "total_iops",
        "read_iops",
        "write_iops",
        "total_mb_s",
        "read_mb_s",
        "write_mb_s",
        "read_latency_ms",
        "write_latency_ms",
        "latency_ms",
        "guest_latency_ms",
        "device_latency_ms",
        "kernel_latency_ms",
    ];
    let rank = |k: &str| ORDER.iter().position(|o| *o == k).unwrap_or(ORDER.len());
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by_key(|(k, _)| (rank(k), (*k).clone()));
    v
}

fn write_virtual(out: &mut dyn Write, v: &crate::virt::VirtAnalysis) -> io::Result<()> {
    writeln!(out, "# vSAN / ESXi: {}\n", v.name)?;
    for (f, fmt) in &v.sources {
        writeln!(out, "- `{f}` ({fmt})")?;
    }
    writeln!(out)?;
    if let (Some(_), Some(_)) = (&v.begin, &v.end) {
        writeln!(out, "Samples {} → {}.\n", when(&v.begin), when(&v.end))?;
    }
    writeln!(out, "## Front end and back end\n")?;
    for (title, side) in [
        ("Front end (what the VMs ask for)", &v.front_end),
        ("Back end (what the disks do)", &v.back_end),
    ] {
        match side {
            Some(s) => {
                writeln!(out, "**{title}**: {} ({} samples).\n", s.basis, s.samples)?;
                let mut t = table(&["Figure", "Average", "p95", "p99", "Max", "Peak at"]);
                for (k, st) in ordered(&s.statistics) {
                    t.add_row(vec![
                        virt_label(k),
                        opt_num(st.avg, 2),
                        opt_num(st.p95, 2),
                        opt_num(st.p99, 2),
                        opt_num(st.max, 2),
                        when_or_dash(&st.peak_end),
                    ]);
                }
                right(&mut t, &[1, 2, 3, 4]);
                writeln!(out, "{t}\n")?;
            }
            None => writeln!(out, "**{title}**: not in the data.\n")?,
        }
    }
    if let Some(a) = v.measured_write_amplification {
        writeln!(
            out,
            "Measured: {} back-end writes and {} extra back-end reads per front-end write{}.\n",
            fmt_num(a, 2),
            opt_num(v.measured_extra_reads_per_write, 2),
            match &v.closest_policy {
                Some(p) => format!(": the pattern of the policy `{p}`"),
                None => ": no vSAN policy's pattern (within 0.5 IO per write)".to_string(),
            }
        )?;
    }
    if !v.policies.is_empty() {
        if v.vsan_data {
            writeln!(out, "## Storage policies\n")?;
        } else {
            writeln!(
                out,
                "## vSAN storage policies (if this load moved to vSAN: the data is not from vSAN)\n"
            )?;
        }
        let mut t = table(&[
            "Policy",
            "Back-end IOs per write",
            "Back-end IOPS",
            "Raw capacity per usable",
            "Min hosts",
            "All-flash only",
        ]);
        for p in &v.policies {
            t.add_row(vec![
                format!("{} (`{}`)", p.name, p.id),
                fmt_num(p.write_amplification, 0),
                opt_num(p.backend_iops, 0),
                format!("{}×", fmt_num(p.capacity_multiplier, 2)),
                p.min_hosts.to_string(),
                if p.all_flash_only { "yes" } else { "no" }.to_string(),
            ]);
        }
        right(&mut t, &[1, 2, 3, 4]);
        writeln!(out, "{t}\n")?;
        writeln!(
            out,
            "Back-end IOPS at the sizing statistic ({}) of the front end: reads + writes × back-end IOs per write (rules/vsan.toml, with sources).\n",
            v.size_on.name()
        )?;
        for (what, a) in [("Disk groups", &v.disk_groups), ("Policy", &v.policy)] {
            if let Some(a) = a {
                writeln!(
                    out,
                    "- **{what}: {}** — {} (source: {})",
                    a.choice, a.why, a.source
                )?;
            }
        }
        writeln!(out)?;
    }
    if !v.hana.is_empty() {
        writeln!(out, "## SAP HANA-style checks (--hana-checks)\n")?;
        let mut t = table(&["Check", "Measured", "KPI", "Result", "Why", "Source"]);
        for c in &v.hana {
            t.add_row(vec![
                c.what.clone(),
                opt_num(c.measured, 3),
                fmt_num(c.threshold, 2),
                match c.passed {
                    Some(true) => "met".to_string(),
                    Some(false) => "missed".to_string(),
                    None => "not shown".to_string(),
                },
                cell_text(&c.verdict),
                cell_text(&c.source),
            ]);
        }
        right(&mut t, &[1, 2]);
        writeln!(out, "{t}\n")?;
    }
    writeln!(out, "## Entities\n")?;
    let mut t = table(&[
        "Type",
        "Entity",
        "IOPS avg / p95 / max",
        "MB/s avg / max",
        "Read / write latency avg, ms",
        "Other figures (avg)",
    ]);
    for e in &v.entities {
        let f = |k: &str| e.figures.get(k);
        let iops = f("total_iops").or(f("read_iops"));
        let tri = |s: Option<&crate::analyze::SeriesStats>| match s {
            Some(s) => format!(
                "{} / {} / {}",
                opt_num(s.avg, 2),
                opt_num(s.p95, 2),
                opt_num(s.max, 2)
            ),
            None => "–".into(),
        };
        let iops_text = match (f("total_iops"), f("read_iops"), f("write_iops")) {
            (Some(_), _, _) => tri(iops),
            (None, Some(r), Some(w)) => {
                format!("r {} + w {} (avg)", opt_num(r.avg, 2), opt_num(w.avg, 2))
            }
            _ => "–".into(),
        };
        let mb = f("total_mb_s").map(|s| format!("{} / {}", opt_num(s.avg, 2), opt_num(s.max, 2)));
        let mb = mb.or_else(|| match (f("read_mb_s"), f("write_mb_s")) {
            (Some(r), Some(w)) => {
                Some(format!("r {} + w {}", opt_num(r.avg, 2), opt_num(w.avg, 2)))
            }
            _ => None,
        });
        let lat = match (f("read_latency_ms"), f("write_latency_ms")) {
            (None, None) => "–".into(),
            (r, w) => format!(
                "{} / {}",
                r.map(|s| opt_num(s.avg, 2)).unwrap_or_else(|| "–".into()),
                w.map(|s| opt_num(s.avg, 2)).unwrap_or_else(|| "–".into())
            ),
        };
        let others: Vec<String> = e
            .figures
            .iter()
            .filter(|(k, _)| {
                ![
                    "total_iops",
                    "read_iops",
                    "write_iops",
                    "total_mb_s",
                    "read_mb_s",
                    "write_mb_s",
                    "read_latency_ms",
                    "write_latency_ms",
                ]
                .contains(&k.as_str())
            })
            .map(|(k, s)| format!("{} {}", virt_label(k), opt_num(s.avg, 2)))
            .collect();
        t.add_row(vec![
            cell_text(&e.entity_type),
            cell_text(&e.entity),
            iops_text,
            mb.unwrap_or_else(|| "–".into()),
            lat,
            cell_text(&others.join("; ")),
        ]);
    }
    writeln!(out, "{t}\n")?;
    if !v.warnings.is_empty() {
        writeln!(out, "## Warnings\n")?;
        for w in &v.warnings {
            writeln!(out, "- `{}`: {}", w.id, w.message)?;
        }
        writeln!(out)?;
    }
    match &v.recommendation {
        Some(r) => {
            writeln!(
                out,
                "Sized on the {} of the front end: {} IOPS, {} MB/s.\n",
                v.size_on.name(),
                fmt_num(v.demand.required_iops, 2),
                fmt_num(v.demand.read_mb_s + v.demand.write_mb_s, 2)
            )?;
            write_recommendation(out, r)?;
        }
        None => writeln!(out, "No recommendation: see the warnings.\n")?,
    }
    Ok(())
}

/// Renders the run as Markdown: a fleet summary (when there is more than one database), one
/// section per database, then the files not analysed, skipped and duplicated.
///
/// # Errors
/// Only I/O errors of `out`.
pub fn markdown(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    if run.databases.len() > 1 {
        write_fleet(out, run)?;
    }
    for (i, d) in run.databases.iter().enumerate() {
        if i > 0 || run.databases.len() > 1 {
            writeln!(out, "---\n")?;
        }
        write_database(out, d)?;
    }
    if run.hosts.len() > 1 {
        if !run.databases.is_empty() {
            writeln!(out, "---\n")?;
        }
        write_host_fleet(out, run)?;
    }
    for (i, h) in run.hosts.iter().enumerate() {
        if i > 0 || !run.databases.is_empty() || run.hosts.len() > 1 {
            writeln!(out, "---\n")?;
        }
        write_host(out, h)?;
    }
    for (i, v) in run.virtual_.iter().enumerate() {
        if i > 0 || !run.databases.is_empty() || !run.hosts.is_empty() {
            writeln!(out, "---\n")?;
        }
        write_virtual(out, v)?;
    }
    write_unread(out, run)
}

#[derive(Serialize)]
struct JsonDoc<'a> {
    schema: &'static str,
    generator: String,
    databases: &'a [DatabaseAnalysis],
    hosts: &'a [crate::hosts::HostAnalysis],
    #[serde(rename = "virtual")]
    virtual_: &'a [crate::virt::VirtAnalysis],
    reports: &'a [crate::analyze::Analysis],
    failed: &'a [crate::analyze::Failure],
    skipped: &'a [crate::analyze::Skipped],
    duplicates: &'a [crate::analyze::Duplicate],
}

/// Renders the run as one JSON document (see `docs/json-schema.md`).
///
/// # Errors
/// I/O errors of `out`.
pub fn json(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    let doc = JsonDoc {
        schema: JSON_SCHEMA,
        generator: format!("sizer {}", env!("CARGO_PKG_VERSION")),
        databases: &run.databases,
        hosts: &run.hosts,
        virtual_: &run.virtual_,
        reports: &run.analyses,
        failed: &run.failures,
        skipped: &run.skipped,
        duplicates: &run.duplicates,
    };
    // Keep the I/O error's kind (a closed pipe is not a failure for the caller).
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(|e| match e.io_error_kind() {
        Some(kind) => io::Error::new(kind, e),
        None => io::Error::other(e),
    })?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::fmt_num;

    #[test]
    fn numbers_are_grouped_and_rounded() {
        assert_eq!(fmt_num(1353.8749, 2), "1,353.87");
        assert_eq!(fmt_num(1234567.0, 0), "1,234,567");
        assert_eq!(fmt_num(0.5, 1), "0.5");
        assert_eq!(fmt_num(-1234.5, 1), "-1,234.5");
        assert_eq!(fmt_num(999.996, 2), "1,000.00");
        assert_eq!(fmt_num(-0.001, 2), "0.00");
    }
}

/// One tier of the catalogue in words: (size range, IOPS model, throughput model, price).
fn tier_terms(t: &crate::rules::Tier) -> [String; 4] {
    use crate::rules::{IopsModel, ThroughputModel, TierSpec};
    let n = |v: f64| {
        if (v - v.round()).abs() < 1e-9 {
            fmt_num(v, 0)
        } else {
            let s = format!("{v}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    };
    match &t.spec {
        TierSpec::DriveArray { drive, raid } => [
            format!(
                "{} GB drives{}; {} ({}+{} groups, min {})",
                n(drive.size_gb),
                if drive.size_is_assumption {
                    " (assumed)"
                } else {
                    ""
                },
                raid.level,
                raid.data_drives_per_group,
                raid.group_width - raid.data_drives_per_group,
                raid.min_drives
            ),
            format!(
                "{} per drive; write penalty {}",
                n(drive.iops),
                n(raid.write_penalty)
            ),
            "not modelled".to_string(),
            "no public list price".to_string(),
        ],
        TierSpec::CloudVolume(c) => {
            let u = if c.throughput_decimal {
                "MB/s"
            } else {
                "MiB/s"
            };
            let size = format!(
                "{}–{} GiB{}",
                n(c.volume.min_gib),
                n(c.volume.max_gib),
                c.volume
                    .io_unit_kib
                    .map(|k| format!("; IO unit {} KiB", n(k)))
                    .unwrap_or_default()
            );
            let rows = c.sizes.as_ref().map(|s| &s.rows[..]).unwrap_or(&[]);
            let iops = match &c.iops {
                IopsModel::Fixed { per_volume } => format!("{} per volume", n(*per_volume)),
                IopsModel::SizeDriven {
                    per_gib,
                    min,
                    max,
                    base,
                    burst,
                } => {
                    let mut s = if *base > 0.0 {
                        format!("{} + {}/GiB per VM", n(*base), n(*per_gib))
                    } else {
                        format!("{}/GiB", n(*per_gib))
                    };
                    s.push_str(&format!(", {}–{}", n(*min), n(*max)));
                    if let Some(b) = burst {
                        s.push_str(&format!(
                            "; burst {} ({} credits{})",
                            n(b.iops),
                            fmt_num(b.credits, 0),
                            b.below_gib
                                .map(|g| format!(", below {} GiB", n(g)))
                                .unwrap_or_default()
                        ));
                    }
                    s
                }
                IopsModel::SizeTable => match (rows.first(), rows.last()) {
                    (Some(a), Some(b)) => format!(
                        "by size: {} {} … {} {}",
                        a.name,
                        n(a.iops),
                        b.name,
                        n(b.iops)
                    ),
                    _ => "by size".to_string(),
                },
                IopsModel::Provisioned {
                    included,
                    min,
                    max,
                    max_per_gib,
                } => format!(
                    "provisioned {}–{}{}{}",
                    n(*min),
                    n(*max),
                    if *included > 0.0 {
                        format!(", {} included", n(*included))
                    } else {
                        String::new()
                    },
                    max_per_gib
                        .map(|r| format!(", ≤ {}/GiB", n(r)))
                        .unwrap_or_default()
                ),
            };
            let thr = match &c.throughput {
                ThroughputModel::Fixed { per_volume_mib_s } => {
                    format!("{} {u} per volume", n(*per_volume_mib_s))
                }
                ThroughputModel::SizeSteps { steps } => steps
                    .iter()
                    .map(|s| format!("{} {u} from {} GiB", n(s.mib_s), n(s.min_gib)))
                    .collect::<Vec<_>>()
                    .join(", "),
                ThroughputModel::SizeLinear {
                    base_mib_s,
                    per_gib_mib_s,
                    max_mib_s,
                } => format!(
                    "{}{}/GiB, max {} {u}",
                    if *base_mib_s > 0.0 {
                        format!("{} + ", n(*base_mib_s))
                    } else {
                        String::new()
                    },
                    n(*per_gib_mib_s),
                    n(*max_mib_s)
                ),
                ThroughputModel::SizeTable => match (rows.first(), rows.last()) {
                    (Some(a), Some(b)) => format!(
                        "by size: {} {} … {} {} {u}",
                        a.name,
                        n(a.mb_s),
                        b.name,
                        n(b.mb_s)
                    ),
                    _ => "by size".to_string(),
                },
                ThroughputModel::PerIops {
                    mib_s_per_iops,
                    flat_cap_mib_s,
                    linear_mib_s_per_iops,
                    max_mib_s,
                } => {
                    let mut s = format!("{} {u} per IOPS", n(*mib_s_per_iops));
                    if let Some(f) = flat_cap_mib_s {
                        s.push_str(&format!(" up to {}", n(*f)));
                    }
                    if let Some(l) = linear_mib_s_per_iops {
                        s.push_str(&format!(", then {} per IOPS", n(*l)));
                    }
                    s.push_str(&format!(", max {}", n(*max_mib_s)));
                    s
                }
                ThroughputModel::Provisioned {
                    included_mib_s,
                    max_mib_s,
                    max_mib_s_per_iops,
                } => format!(
                    "provisioned up to {} {u}{}{}",
                    n(*max_mib_s),
                    if *included_mib_s > 0.0 {
                        format!(", {} included", n(*included_mib_s))
                    } else {
                        String::new()
                    },
                    max_mib_s_per_iops
                        .map(|r| format!(", ≤ {} per IOPS", n(r)))
                        .unwrap_or_default()
                ),
            };
            let p = &c.price;
            let mut price = Vec::new();
            if let Some(why) = &p.no_list_price {
                price.push(format!("none: {why}"));
            }
            if let Some(g) = p.gib_month {
                price.push(format!("${}/GiB-month", n(g)));
            }
            if !rows.is_empty() {
                if let (Some(a), Some(b)) = (rows.first(), rows.last()) {
                    price.push(format!(
                        "per size: {} ${} … {} ${}/month",
                        a.name,
                        a.usd_month.map_or("?".into(), n),
                        b.name,
                        b.usd_month.map_or("?".into(), n)
                    ));
                }
            }
            for b in &p.iops_month {
                price.push(match b.upto {
                    Some(u) => format!("${}/IOPS-month up to {}", n(b.usd), n(u)),
                    None => format!("${}/IOPS-month", n(b.usd)),
                });
            }
            if let Some(m) = p.mib_s_month {
                price.push(format!("${}/{u}-month", n(m)));
            }
            if let Some(m) = p.per_million_io {
                price.push(format!("${} per million IOs", n(m)));
            }
            [size, iops, thr, price.join("; ")]
        }
    }
}

/// The catalogue as JSON rows (one per tier, in catalogue order).
#[derive(serde::Serialize)]
struct TierRow<'a> {
    id: &'a str,
    platform: &'a str,
    name: &'a str,
    media: &'a str,
    groups: &'a [String],
    latency: Option<&'a str>,
    latency_ms: Option<f64>,
    size: String,
    iops: String,
    throughput: String,
    price: String,
    notes: &'a [String],
    sources: Vec<String>,
}

fn tier_rows<'a>(rules: &'a crate::rules::RuleSet, ids: &[String]) -> Vec<TierRow<'a>> {
    rules
        .tiers()
        .iter()
        .filter(|t| ids.is_empty() || ids.iter().any(|i| i == &t.platform))
        .map(|t| {
            let [size, iops, throughput, price] = tier_terms(t);
            TierRow {
                id: &t.id,
                platform: &t.platform,
                name: &t.name,
                media: &t.media,
                groups: &t.groups,
                latency: t.latency.as_deref(),
                latency_ms: t.latency_ms,
                size,
                iops,
                throughput,
                price,
                notes: &t.notes,
                sources: t.sources(),
            }
        })
        .collect()
}

/// `sizer tiers`: the catalogue of `ids` platforms (empty = all) as Markdown tables, one per
/// platform, then the host caps and every tier's sources.
pub fn tiers_markdown(
    rules: &crate::rules::RuleSet,
    ids: &[String],
    out: &mut dyn Write,
) -> io::Result<()> {
    let cat = rules.catalog();
    writeln!(out, "# Storage tier catalogue\n")?;
    writeln!(
        out,
        "Rules: {}; catalogue as of {}; prices in {} per month ({} h), list prices without discounts. IOPS = requests/s; MiB/s = 2^20 B/s; MB/s = 10^6 B/s.\n",
        rules.origin(),
        cat.meta.as_of,
        cat.meta.currency,
        fmt_num(cat.meta.hours_per_month, 0)
    )?;
    let rows = tier_rows(rules, ids);
    for p in &cat.platforms {
        if !ids.is_empty() && !ids.iter().any(|i| i == &p.id) {
            continue;
        }
        writeln!(out, "## {} (`{}`)\n", p.name, p.id)?;
        let mut t = table(&[
            "Tier",
            "Media",
            "Size",
            "IOPS",
            "Throughput",
            "Latency (worst, ms)",
            "Price",
        ]);
        for r in rows.iter().filter(|r| r.platform == p.id) {
            t.add_row(vec![
                Cell::new(format!("{} (`{}`)", r.name, r.id)),
                Cell::new(r.media),
                Cell::new(cell_text(&r.size)),
                Cell::new(cell_text(&r.iops)),
                Cell::new(cell_text(&r.throughput)),
                Cell::new(
                    r.latency_ms
                        .map(|v| format!("{v}"))
                        .unwrap_or_else(|| "not published".into()),
                ),
                Cell::new(cell_text(&r.price)),
            ]);
        }
        writeln!(out, "{t}\n")?;
        let inst: Vec<&crate::rules::Instance> = cat
            .instances
            .iter()
            .filter(|i| i.platform == p.id)
            .collect();
        if !inst.is_empty() {
            writeln!(out, "Host caps (`--instance`):\n")?;
            let mut t = table(&[
                "Instance",
                "Max IOPS",
                "Max MB/s",
                "Per-tier caps",
                "Source",
            ]);
            for i in inst {
                t.add_row(vec![
                    Cell::new(format!("`{}`", i.id)),
                    Cell::new(fmt_num(i.max_iops, 0)),
                    Cell::new(fmt_num(i.max_mb_s, 2)),
                    Cell::new(
                        i.tier_caps
                            .iter()
                            .map(|c| {
                                format!(
                                    "{}: {} IOPS, {} MB/s",
                                    c.tier,
                                    fmt_num(c.max_iops, 0),
                                    fmt_num(c.max_mb_s, 2)
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                    Cell::new(cell_text(&i.source)),
                ]);
            }
            right(&mut t, &[1, 2]);
            writeln!(out, "{t}\n")?;
        }
    }
    writeln!(out, "## Sources\n")?;
    for r in &rows {
        writeln!(out, "- `{}`:", r.id)?;
        for s in &r.sources {
            writeln!(out, "  - {s}")?;
        }
        for n in r.notes {
            writeln!(out, "  - note: {n}")?;
        }
    }
    Ok(())
}

/// `sizer tiers --format json`: `{rules_origin, catalog_as_of, currency, hours_per_month,
/// platforms: [{id, name, region}], tiers: [...], instances: [...]}`.
pub fn tiers_json(
    rules: &crate::rules::RuleSet,
    ids: &[String],
    out: &mut dyn Write,
) -> io::Result<()> {
    let cat = rules.catalog();
    let doc = serde_json::json!({
        "rules_origin": rules.origin(),
        "catalog_as_of": cat.meta.as_of,
        "currency": cat.meta.currency,
        "hours_per_month": cat.meta.hours_per_month,
        "platforms": cat.platforms.iter()
            .filter(|p| ids.is_empty() || ids.iter().any(|i| i == &p.id))
            .collect::<Vec<_>>(),
        "tiers": tier_rows(rules, ids),
        "instances": cat.instances.iter()
            .filter(|i| ids.is_empty() || ids.iter().any(|x| x == &i.platform))
            .collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(|e| match e.io_error_kind() {
        Some(kind) => io::Error::new(kind, e),
        None => io::Error::other(e),
    })?;
    writeln!(out)
}
