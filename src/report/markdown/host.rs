//! The Markdown section of one host's OS disk logs: sources, host totals, devices, AWR side by
//! side, warnings and recommendation.

use std::io::{self, Write};

use super::recommendation::write_recommendation;
use crate::report::fmt::{cell_text, fmt_num, opt_num, right, table, when, when_or_dash};
use crate::settings::SizeOn;

/// Names of the host figures as the report prints them.
pub(crate) fn host_figure_label(f: &str) -> &'static str {
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
        "host_cpu_busy_pct" => "host CPU busy, % (100 − %idle − %iowait)",
        "host_cpu_iowait_pct" => "host CPU %iowait",
        "util_pct" => "%util",
        "svctm_ms" => "svctm, ms",
        _ => "?",
    }
}

/// ` of 31 s`, or ` of 22–39 s (median 31 s)` when the lengths differ; empty when unknown.
fn interval_text(h: &crate::subject::host::HostAnalysis) -> String {
    let s = |v: f64| fmt_num(v, if v.fract() == 0.0 { 0 } else { 1 });
    match (h.interval_s, h.interval_s_min, h.interval_s_max) {
        (Some(m), Some(lo), Some(hi)) if s(lo) != s(hi) => {
            format!(" of {}–{} s (median {} s)", s(lo), s(hi), s(m))
        }
        (Some(m), _, _) => format!(" of {} s", s(m)),
        _ => String::new(),
    }
}

pub(crate) fn write_host(
    out: &mut dyn Write,
    h: &crate::subject::host::HostAnalysis,
) -> io::Result<()> {
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
        writeln!(
            out,
            "- `{}` ({}): {}",
            crate::report::fmt::escape_controls(&s.file),
            s.format,
            what.join("; ")
        )?;
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
        interval_text(h),
        h.selection
    )?;
    super::recommendation::write_answer(
        out,
        h.recommendation.as_ref(),
        &format!("the {} of the host total IOPS", h.size_on.name()),
    )?;
    writeln!(out, "## Host totals\n")?;
    let mut t = table(&["Figure", "Average", "p50", "p95", "p99", "Max", "Peak at"]);
    for (f, _) in crate::figures::FIGURES.iter() {
        let Some(st) = h.statistics.get(*f) else {
            continue;
        };
        if st.n == 0 {
            continue;
        }
        // A figure known in fewer intervals than the host total is averaged over those only:
        // say so, or its average can read above the total's.
        let label = match h.statistics.get("total_iops").map(|t| t.n) {
            Some(total) if st.n < total => {
                format!("{} ({} of {total} intervals)", host_figure_label(f), st.n)
            }
            _ => host_figure_label(f).to_string(),
        };
        t.add_row(vec![
            label,
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
        let g = |n: &str, which: fn(&crate::subject::host::DeviceFigure) -> Option<f64>| {
            f(n).and_then(which)
                .map(|v| fmt_num(v, 2))
                .unwrap_or_else(|| "–".into())
        };
        t.add_row(vec![
            cell_text(&d.device),
            d.role.to_string(),
            match (&d.stands_in_for, d.included) {
                (Some(p), _) => format!("yes, for {}", cell_text(p)),
                (None, true) => "yes".to_string(),
                (None, false) => "no".to_string(),
            },
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
    if !h.awr_not_aligned.is_empty() {
        if h.awr.is_empty() {
            writeln!(out, "## AWR and OS side by side\n")?;
        }
        for a in &h.awr_not_aligned {
            let os = match (&a.os_begin, &a.os_end) {
                (Some(_), Some(_)) => format!("{} → {}", when(&a.os_begin), when(&a.os_end)),
                _ => "no time stamps".to_string(),
            };
            let awr = match (&a.begin, &a.end) {
                (Some(_), Some(_)) => format!("{} → {}", when(&a.begin), when(&a.end)),
                _ => "no times".to_string(),
            };
            writeln!(
                out,
                "- {} / {} (AWR {awr}) is not set beside this host's OS figures (OS logs {os}): {}.{}",
                a.database,
                a.instance,
                if a.no_times {
                    "one side has no times to align"
                } else {
                    "the two windows do not overlap (different days or years), so the figures are of different moments"
                },
                if a.os_times_utc {
                    " The OS log prints UTC and AWR the database host's local time."
                } else {
                    ""
                }
            )?;
        }
        writeln!(out)?;
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
                "Sized on the {} of the host total IOPS: {} IOPS, {} ({}).\n",
                if h.size_on == SizeOn::Avg {
                    "time-weighted average".to_string()
                } else {
                    h.size_on.name().to_string()
                },
                crate::report::fmt::opt_num(h.demand.required_iops, 2),
                crate::report::fmt::throughput_text(&h.demand),
                match (h.demand.read_iops, h.demand.write_iops) {
                    (Some(r), Some(w)) if r + w > 0.0 =>
                        format!("{} r/s, {} w/s", fmt_num(r, 2), fmt_num(w, 2)),
                    _ => "read/write split unknown".to_string(),
                },
            )?;
            let cpu = crate::report::wording::cpu::HostCpuLine {
                busy: h.demand.host_cpu_busy_pct,
                iowait: h.demand.host_cpu_iowait_pct,
                recommendation: Some(r),
            };
            if cpu.known() {
                writeln!(out, "{cpu}\n")?;
            } else if let Some(n) = h
                .statistics
                .get("host_cpu_busy_pct")
                .map(|s| s.n)
                .filter(|n| *n > 0)
            {
                writeln!(
                    out,
                    "Host CPU in the interval closest to the sizing figure: not printed (the log prints a CPU in {n} of its {} intervals), so the CPU rules are not evaluated.\n",
                    h.intervals
                )?;
            }
            write_recommendation(out, r, Some(&h.capacity))?;
        }
        None => writeln!(out, "No recommendation: see the warnings.\n")?,
    }
    Ok(())
}
