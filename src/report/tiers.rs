//! `sizer tiers`: the tier catalogue in words, as Markdown tables or as JSON rows.

use std::io::{self, Write};

use comfy_table::Cell;

use crate::report::fmt::{cell_text, fmt_num, fmt_trim, right, table};

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
        TierSpec::DriveArray { drive, raid } => {
            // Every catalogued capacity of the class, smallest first, with its own figures.
            let variants = drive.variants();
            let each = |f: &dyn Fn(&crate::rules::DriveSpec) -> String| -> String {
                if variants.len() == 1 {
                    return f(&variants[0]);
                }
                variants
                    .iter()
                    .map(|d| format!("{} ({} GB)", f(d), n(d.size_gb)))
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            let rate = |v: Option<f64>| v.map_or("not sourced".to_string(), &n);
            [
                format!(
                    "{} GB drives{}; {} ({}+{} groups, min {})",
                    variants
                        .iter()
                        .map(|d| n(d.size_gb))
                        .collect::<Vec<_>>()
                        .join(" or "),
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
                    each(&|d| n(d.iops)),
                    n(raid.write_penalty)
                ),
                format!(
                    "{} MB/s read / write per drive{}",
                    each(&|d| format!("{} / {}", rate(d.read_mb_s()), rate(d.write_mb_s()))),
                    drive
                        .link
                        .as_ref()
                        .map(|l| format!(" ({}: {} MB/s)", l.name, n(l.mb_s)))
                        .unwrap_or_default()
                ),
                "no public list price".to_string(),
            ]
        }
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
    notes: Vec<&'a str>,
    sources: &'a [String],
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
                notes: t.notes.iter().map(|n| &**n).collect(),
                sources: &t.sources,
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
        if let (Some(iops), Some(mb_s)) = (p.instance_max_iops, p.instance_max_mb_s) {
            writeln!(
                out,
                "Platform cap without `--instance` (the most its largest host drives): {} IOPS, {} MB/s. Source: {}\n",
                fmt_num(iops, 0),
                fmt_trim(mb_s),
                p.source
            )?;
        }
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
            writeln!(
                out,
                "Host caps (`--instance`; without it, each answer names the smallest per family that drives the demand):\n"
            )?;
            let mut t = table(&[
                "Instance",
                "Family",
                "vCPU",
                "Memory (GiB)",
                "Max IOPS",
                "Max MB/s",
                "Per-tier caps",
                "Source",
            ]);
            for i in inst {
                t.add_row(vec![
                    Cell::new(format!("`{}`", i.id)),
                    Cell::new(i.family.to_string()),
                    Cell::new(i.vcpus.map_or_else(|| "–".into(), |v| v.to_string())),
                    Cell::new(i.memory_gib.map_or_else(|| "–".into(), fmt_trim)),
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
                            .chain(
                                i.tier_caps_unknown
                                    .iter()
                                    .map(|t| format!("{t}: cap unknown")),
                            )
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                    Cell::new(cell_text(&i.source)),
                ]);
            }
            right(&mut t, &[2, 3, 4, 5]);
            writeln!(out, "{t}\n")?;
        }
    }
    writeln!(out, "## Sources\n")?;
    for r in &rows {
        writeln!(out, "- `{}`:", r.id)?;
        for s in r.sources {
            writeln!(out, "  - {s}")?;
        }
        for n in &r.notes {
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
