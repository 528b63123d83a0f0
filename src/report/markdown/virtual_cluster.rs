//! The Markdown section of one vSAN cluster or ESXi host: front and back end, storage policies,
//! HANA-style checks, entities, warnings and recommendation.

use std::io::{self, Write};

use super::recommendation::write_recommendation;
use crate::report::fmt::{cell_text, fmt_num, opt_num, right, table, when, when_or_dash};

pub(crate) fn virt_label(m: &str) -> String {
    match m {
        "total_iops" => {
            "IOPS (total: reads + writes; esxtop Commands/sec also counts other commands)".into()
        }
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
pub(crate) fn ordered(
    m: &std::collections::BTreeMap<String, crate::model::series::SeriesStats>,
) -> Vec<(&String, &crate::model::series::SeriesStats)> {
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

pub(crate) fn write_virtual(
    out: &mut dyn Write,
    v: &crate::subject::cluster::VirtAnalysis,
) -> io::Result<()> {
    writeln!(out, "# vSAN / ESXi: {}\n", v.name)?;
    for (f, fmt) in &v.sources {
        writeln!(
            out,
            "- `{}` ({fmt})",
            crate::report::fmt::escape_controls(f)
        )?;
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
                    t.add_row(stats_row(virt_label(k), st));
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
    write_host_cpu(out, v)?;
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
        let tri = |s: Option<&crate::model::series::SeriesStats>| match s {
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
                "Sized on the {} of the front end: {} IOPS, {}.\n",
                v.size_on.name(),
                crate::report::fmt::opt_num(v.demand.required_iops, 2),
                crate::report::fmt::throughput_text(&v.demand)
            )?;
            write_recommendation(out, r, None)?;
        }
        None => writeln!(out, "No recommendation: see the warnings.\n")?,
    }
    Ok(())
}

/// The host CPU beside the IO: its statistics, the sized sample's busy % with the CPU rule, and
/// per sample the CPU beside the front end's IOPS and MB/s; or why it is unknown.
fn write_host_cpu(
    out: &mut dyn Write,
    v: &crate::subject::cluster::VirtAnalysis,
) -> io::Result<()> {
    use crate::report::wording::cpu::CPU_RULE;
    let c = &v.host_cpu;
    let (Some(basis), Some(st)) = (&c.basis, &c.statistics) else {
        let why = c.unknown_reason.as_deref().unwrap_or("no host CPU figure");
        return writeln!(out, "**Host CPU**: unknown ({why}).\n");
    };
    let hosts = c
        .hosts
        .iter()
        .map(|h| format!("`{h}`"))
        .collect::<Vec<_>>()
        .join(", ");
    write!(
        out,
        "**Host CPU**: busy % is esxtop `{basis}`, the share of time the logical CPUs (hardware threads) of {hosts} were busy ({} samples)",
        st.n
    )?;
    if !c.other_counters.is_empty() {
        let others = c
            .other_counters
            .iter()
            .map(|o| format!("`{o}`"))
            .collect::<Vec<_>>()
            .join(", ");
        write!(out, "; also read, not used for busy: {others}")?;
    }
    writeln!(out, ".\n")?;
    let mut t = table(&["Figure", "Average", "p95", "p99", "Max", "Peak at"]);
    t.add_row(stats_row("host CPU busy, %".to_string(), st));
    right(&mut t, &[1, 2, 3, 4]);
    writeln!(out, "{t}\n")?;
    if let Some(busy) = v.demand.host_cpu_busy_pct {
        let fired = v
            .recommendation
            .as_ref()
            .is_some_and(|r| r.fired_rules.iter().any(|f| f.id == CPU_RULE));
        writeln!(
            out,
            "At the sized sample (the front-end sample closest to the sizing figure): {} % busy{}.\n",
            fmt_num(busy, 2),
            if fired {
                format!(": the host CPU, not storage, bounds the workload (rule `{CPU_RULE}`)")
            } else {
                String::new()
            }
        )?;
    }
    let mut t = table(&[
        "Sample",
        "Front-end IOPS",
        "Front-end MB/s",
        "Host CPU busy, %",
    ]);
    for i in &c.intervals {
        t.add_row(vec![
            when_or_dash(&i.end),
            opt_num(i.front_end_iops, 2),
            opt_num(i.front_end_mb_s, 2),
            opt_num(i.host_cpu_busy_pct, 2),
        ]);
    }
    right(&mut t, &[1, 2, 3]);
    writeln!(out, "{t}\n")
}

/// One row of a statistics table: `label`, average, p95, p99, max (2 decimals) and the time of
/// the peak.
fn stats_row(label: String, st: &crate::model::series::SeriesStats) -> Vec<String> {
    vec![
        label,
        opt_num(st.avg, 2),
        opt_num(st.p95, 2),
        opt_num(st.p99, 2),
        opt_num(st.max, 2),
        when_or_dash(&st.peak_end),
    ]
}
