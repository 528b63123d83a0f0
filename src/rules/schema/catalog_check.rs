//! Reading and validating `rules/tiers.toml`: serde reads the raw tables, then every value is
//! checked and the typed [`Catalog`] is built.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;

use super::catalog::*;
use super::drive::{check_drive, check_link, check_raid, resolve_link};
use super::position::{ensure_absent, parse_toml, Check};
use crate::rules::RulesError;

/// A drive or RAID layout given inline in a tier or by the id of a
/// top-level `[[drive]]` / `[[raid]]` table.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum Ref<T> {
    Id(String),
    Inline(T),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCatalog {
    meta: CatalogMeta,
    #[serde(default)]
    platform: Vec<Platform>,
    #[serde(default)]
    drive: Vec<DriveSpec>,
    #[serde(default)]
    raid: Vec<RaidSpec>,
    #[serde(default)]
    link: Vec<LinkSpec>,
    #[serde(default)]
    instance: Vec<Instance>,
    #[serde(default)]
    tier: Vec<RawTier>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTier {
    id: String,
    platform: String,
    kind: TierKind,
    name: String,
    media: String,
    #[serde(default)]
    groups: Vec<String>,
    #[serde(default)]
    latency: Option<String>,
    #[serde(default)]
    latency_ms: Option<f64>,
    source: String,
    #[serde(default)]
    notes: Vec<String>,
    drive: Option<Ref<DriveSpec>>,
    raid: Option<Ref<RaidSpec>>,
    volume: Option<VolumeSpec>,
    iops: Option<RawIops>,
    throughput: Option<RawThroughput>,
    sizes: Option<SizeTable>,
    price: Option<PriceSpec>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum IopsModelKind {
    Fixed,
    SizeDriven,
    SizeTable,
    Provisioned,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawIops {
    model: IopsModelKind,
    per_volume: Option<f64>,
    per_gib: Option<f64>,
    min: Option<f64>,
    max: Option<f64>,
    included: Option<f64>,
    max_per_gib: Option<f64>,
    base: Option<f64>,
    burst: Option<Burst>,
    source: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ThroughputModelKind {
    Fixed,
    SizeSteps,
    SizeLinear,
    SizeTable,
    PerIops,
    Provisioned,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawThroughput {
    model: ThroughputModelKind,
    per_volume_mib_s: Option<f64>,
    steps: Option<Vec<ThroughputStep>>,
    mib_s_per_iops: Option<f64>,
    flat_cap_mib_s: Option<f64>,
    linear_mib_s_per_iops: Option<f64>,
    max_mib_s: Option<f64>,
    included_mib_s: Option<f64>,
    max_mib_s_per_iops: Option<f64>,
    base_mib_s: Option<f64>,
    per_gib_mib_s: Option<f64>,
    /// `"MiB/s"` (default) or `"MB/s"` (10^6 B/s).
    unit: Option<String>,
    source: String,
}

/// Parse and validate a tier catalogue. `file` names the source in errors.
pub(crate) fn parse_catalog(text: &str, file: &str) -> Result<Catalog, RulesError> {
    let raw: RawCatalog = parse_toml(text, file)?;
    validate_catalog(raw, file)
}

pub(crate) fn validate_catalog(raw: RawCatalog, file: &str) -> Result<Catalog, RulesError> {
    let c = Check { file };
    c.text("meta.as_of", &raw.meta.as_of)?;
    c.text("meta.currency", &raw.meta.currency)?;
    c.text("meta.source", &raw.meta.source)?;
    c.pos("meta.hours_per_month", raw.meta.hours_per_month)?;

    if raw.platform.is_empty() {
        return Err(c.err("platform", "at least one [[platform]] is required"));
    }
    let mut pids = HashSet::new();
    for (i, p) in raw.platform.iter().enumerate() {
        let k = format!("platform[{i}]");
        c.text(&format!("{k}.id"), &p.id)?;
        if !pids.insert(p.id.clone()) {
            return Err(c.err(
                format!("{k}.id"),
                format!("duplicate platform id \"{}\"", p.id),
            ));
        }
        c.text(&format!("{k}.name"), &p.name)?;
        c.text(&format!("{k}.source"), &p.source)?;
        if let Some(v) = p.instance_max_iops {
            c.pos(&format!("{k}.instance_max_iops"), v)?;
        }
        if let Some(v) = p.instance_max_mb_s {
            c.pos(&format!("{k}.instance_max_mb_s"), v)?;
        }
    }

    let mut link_ids = HashSet::new();
    for (i, l) in raw.link.iter().enumerate() {
        let k = format!("link[{i}]");
        check_link(&c, &k, l)?;
        if !link_ids.insert(l.id.clone()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate link id \"{}\"", l.id)));
        }
    }
    let mut drive_ids = HashSet::new();
    for (i, d) in raw.drive.iter().enumerate() {
        let k = format!("drive[{i}]");
        resolve_link(&c, &k, &mut d.clone(), &raw.link)?;
        let id = c.need(&format!("{k}.id"), d.id.as_deref(), "in a [[drive]] table")?;
        c.text(&format!("{k}.id"), id)?;
        if !drive_ids.insert(id.to_string()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate drive id \"{id}\"")));
        }
        check_drive(&c, &k, d)?;
    }
    let mut raid_ids = HashSet::new();
    for (i, r) in raw.raid.iter().enumerate() {
        let k = format!("raid[{i}]");
        let id = c.need(&format!("{k}.id"), r.id.as_deref(), "in a [[raid]] table")?;
        c.text(&format!("{k}.id"), id)?;
        if !raid_ids.insert(id.to_string()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate raid id \"{id}\"")));
        }
        check_raid(&c, &k, r)?;
    }
    let tier_platforms: Vec<(&str, &str)> = raw
        .tier
        .iter()
        .map(|t| (t.id.as_str(), t.platform.as_str()))
        .collect();
    super::instance_check::check_instances(&c, &raw.instance, &raw.platform, &tier_platforms)?;
    let resolve_drive = |k: &str, r: Ref<DriveSpec>| -> Result<DriveSpec, RulesError> {
        match r {
            Ref::Inline(d) => Ok(d),
            Ref::Id(id) => raw
                .drive
                .iter()
                .find(|d| d.id.as_deref() == Some(id.as_str()))
                .cloned()
                .ok_or_else(|| c.err(k, format!("no [[drive]] with id \"{id}\""))),
        }
    };
    let resolve_raid = |k: &str, r: Ref<RaidSpec>| -> Result<RaidSpec, RulesError> {
        match r {
            Ref::Inline(d) => Ok(d),
            Ref::Id(id) => raw
                .raid
                .iter()
                .find(|d| d.id.as_deref() == Some(id.as_str()))
                .cloned()
                .ok_or_else(|| c.err(k, format!("no [[raid]] with id \"{id}\""))),
        }
    };

    let mut ids = HashSet::new();
    let mut tiers = Vec::with_capacity(raw.tier.len());
    for (i, t) in raw.tier.into_iter().enumerate() {
        let k = format!("tier[{i}]");
        c.text(&format!("{k}.id"), &t.id)?;
        if !ids.insert(t.id.clone()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate tier id \"{}\"", t.id)));
        }
        if t.id.starts_with("group:") {
            return Err(c.err(format!("{k}.id"), "must not start with \"group:\""));
        }
        if !pids.contains(&t.platform) {
            return Err(c.err(
                format!("{k}.platform"),
                format!("unknown platform \"{}\" (tier \"{}\")", t.platform, t.id),
            ));
        }
        c.text(&format!("{k}.name"), &t.name)?;
        c.text(&format!("{k}.media"), &t.media)?;
        c.text(&format!("{k}.source"), &t.source)?;
        if let Some(v) = t.latency_ms {
            c.pos(&format!("{k}.latency_ms"), v)?;
        }
        let mut latency_ms = t.latency_ms;
        let spec = match t.kind {
            TierKind::DriveArray => {
                ensure_absent(&c, &format!("{k}.volume"), &t.volume, "drive_array")?;
                ensure_absent(&c, &format!("{k}.iops"), &t.iops, "drive_array")?;
                ensure_absent(&c, &format!("{k}.throughput"), &t.throughput, "drive_array")?;
                ensure_absent(&c, &format!("{k}.price"), &t.price, "drive_array")?;
                ensure_absent(&c, &format!("{k}.sizes"), &t.sizes, "drive_array")?;
                let drive = t.drive.ok_or_else(|| {
                    c.err(
                        format!("{k}.drive"),
                        "is required for kind = \"drive_array\"",
                    )
                })?;
                let raid = t.raid.ok_or_else(|| {
                    c.err(
                        format!("{k}.raid"),
                        "is required for kind = \"drive_array\"",
                    )
                })?;
                let mut drive = resolve_drive(&format!("{k}.drive"), drive)?;
                resolve_link(&c, &format!("{k}.drive"), &mut drive, &raw.link)?;
                let raid = resolve_raid(&format!("{k}.raid"), raid)?;
                check_drive(&c, &format!("{k}.drive"), &drive)?;
                check_raid(&c, &format!("{k}.raid"), &raid)?;
                latency_ms = latency_ms.or(drive.latency_ms);
                TierSpec::DriveArray {
                    drive: Box::new(drive),
                    raid,
                }
            }
            TierKind::CloudVolume => {
                ensure_absent(&c, &format!("{k}.drive"), &t.drive, "cloud_volume")?;
                ensure_absent(&c, &format!("{k}.raid"), &t.raid, "cloud_volume")?;
                let req = |name: &str| {
                    c.err(
                        format!("{k}.{name}"),
                        "is required for kind = \"cloud_volume\"",
                    )
                };
                let volume = t.volume.ok_or_else(|| req("volume"))?;
                let iops = t.iops.ok_or_else(|| req("iops"))?;
                let thr = t.throughput.ok_or_else(|| req("throughput"))?;
                let price = t.price.ok_or_else(|| req("price"))?;
                check_volume(&c, &format!("{k}.volume"), &volume)?;
                let iops_source = iops.source.clone();
                let iops = check_iops(&c, &format!("{k}.iops"), iops)?;
                let throughput_source = thr.source.clone();
                let throughput_decimal = match thr.unit.as_deref() {
                    None | Some("MiB/s") => false,
                    Some("MB/s") => true,
                    Some(u) => {
                        return Err(c.err(
                            format!("{k}.throughput.unit"),
                            format!("must be \"MiB/s\" or \"MB/s\", got \"{u}\""),
                        ))
                    }
                };
                let throughput = check_throughput(&c, &format!("{k}.throughput"), thr)?;
                let table = matches!(iops, IopsModel::SizeTable)
                    || matches!(throughput, ThroughputModel::SizeTable);
                match (&t.sizes, table) {
                    (Some(st), true) => check_sizes(&c, &format!("{k}.sizes"), st)?,
                    (None, true) => {
                        return Err(c.err(
                            format!("{k}.sizes"),
                            "is required when iops or throughput model = \"size_table\"",
                        ))
                    }
                    (Some(_), false) => {
                        return Err(c.err(
                            format!("{k}.sizes"),
                            "is only used with iops and throughput model = \"size_table\"",
                        ))
                    }
                    (None, false) => {}
                }
                if table
                    && !(matches!(iops, IopsModel::SizeTable)
                        && matches!(throughput, ThroughputModel::SizeTable))
                {
                    return Err(c.err(
                        format!("{k}.iops.model"),
                        "iops and throughput must both be \"size_table\" or neither",
                    ));
                }
                check_price(&c, &format!("{k}.price"), &price, table)?;
                TierSpec::CloudVolume(Box::new(CloudVolumeSpec {
                    volume,
                    iops,
                    iops_source,
                    throughput,
                    throughput_source,
                    throughput_decimal,
                    sizes: t.sizes,
                    price,
                }))
            }
        };
        let mut tier = Tier {
            id: t.id,
            platform: t.platform,
            name: t.name,
            media: t.media,
            groups: t.groups,
            latency: t.latency,
            latency_ms,
            source: t.source,
            notes: t.notes.into_iter().map(Into::into).collect(),
            spec,
            sources: Arc::from(Vec::new()),
        };
        tier.sources = tier.collect_sources().into();
        tiers.push(tier);
    }
    Ok(Catalog {
        meta: raw.meta,
        platforms: raw.platform,
        tiers,
        instances: raw.instance,
    })
}

pub(crate) fn check_sizes(c: &Check<'_>, k: &str, t: &SizeTable) -> Result<(), RulesError> {
    c.text(&format!("{k}.source"), &t.source)?;
    if t.rows.is_empty() {
        return Err(c.err(format!("{k}.rows"), "needs at least one row"));
    }
    for (i, r) in t.rows.iter().enumerate() {
        let rk = format!("{k}.rows[{i}]");
        c.text(&format!("{rk}.name"), &r.name)?;
        c.pos(&format!("{rk}.gib"), r.gib)?;
        c.pos(&format!("{rk}.iops"), r.iops)?;
        c.pos(&format!("{rk}.mb_s"), r.mb_s)?;
        if let Some(v) = r.usd_month {
            c.nonneg(&format!("{rk}.usd_month"), v)?;
            // A disk-month above $1 M is a unit error, not a price.
            plausible(c, &format!("{rk}.usd_month"), v, 1e6)?;
        }
        match (r.burst_iops, r.burst_minutes) {
            (Some(b), Some(m)) => {
                c.pos(&format!("{rk}.burst_iops"), b)?;
                c.pos(&format!("{rk}.burst_minutes"), m)?;
            }
            (None, None) => {}
            _ => {
                return Err(c.err(
                    rk,
                    "burst_iops and burst_minutes go together (both or neither)",
                ))
            }
        }
        if i > 0 && r.gib <= t.rows[i - 1].gib {
            return Err(c.err(format!("{rk}.gib"), "rows must ascend in gib"));
        }
    }
    Ok(())
}

pub(crate) fn check_volume(c: &Check<'_>, k: &str, v: &VolumeSpec) -> Result<(), RulesError> {
    c.pos(&format!("{k}.min_gib"), v.min_gib)?;
    c.pos(&format!("{k}.max_gib"), v.max_gib)?;
    if v.max_gib < v.min_gib {
        return Err(c.err(format!("{k}.max_gib"), "must be >= min_gib"));
    }
    if let Some(u) = v.io_unit_kib {
        c.pos(&format!("{k}.io_unit_kib"), u)?;
    }
    c.text(&format!("{k}.source"), &v.source)
}

pub(crate) fn check_iops(c: &Check<'_>, k: &str, r: RawIops) -> Result<IopsModel, RulesError> {
    c.text(&format!("{k}.source"), &r.source)?;
    let key = |n: &str| format!("{k}.{n}");
    let only = |allowed: &[&str]| -> Result<(), RulesError> {
        let present = [
            ("per_volume", r.per_volume.is_some()),
            ("per_gib", r.per_gib.is_some()),
            ("min", r.min.is_some()),
            ("max", r.max.is_some()),
            ("included", r.included.is_some()),
            ("max_per_gib", r.max_per_gib.is_some()),
            ("base", r.base.is_some()),
            ("burst", r.burst.is_some()),
        ];
        for (name, is) in present {
            if is && !allowed.contains(&name) {
                return Err(c.err(key(name), "is not used by this iops model"));
            }
        }
        Ok(())
    };
    match r.model {
        IopsModelKind::Fixed => {
            only(&["per_volume"])?;
            let per_volume = c.need(&key("per_volume"), r.per_volume, "for model = \"fixed\"")?;
            Ok(IopsModel::Fixed {
                per_volume: c.pos(&key("per_volume"), per_volume)?,
            })
        }
        IopsModelKind::SizeDriven => {
            only(&["per_gib", "min", "max", "base", "burst"])?;
            let why = "for model = \"size_driven\"";
            let per_gib = c.pos(&key("per_gib"), c.need(&key("per_gib"), r.per_gib, why)?)?;
            let min = c.nonneg(&key("min"), c.need(&key("min"), r.min, why)?)?;
            let max = c.pos(&key("max"), c.need(&key("max"), r.max, why)?)?;
            let base = c.nonneg(&key("base"), r.base.unwrap_or(0.0))?;
            if max < min {
                return Err(c.err(key("max"), "must be >= min"));
            }
            if let Some(b) = &r.burst {
                c.pos(&key("burst.iops"), b.iops)?;
                c.pos(&key("burst.credits"), b.credits)?;
                if let Some(g) = b.below_gib {
                    c.pos(&key("burst.below_gib"), g)?;
                }
            }
            Ok(IopsModel::SizeDriven {
                per_gib,
                min,
                max,
                base,
                burst: r.burst,
            })
        }
        IopsModelKind::SizeTable => {
            only(&[])?;
            Ok(IopsModel::SizeTable)
        }
        IopsModelKind::Provisioned => {
            only(&["included", "min", "max", "max_per_gib"])?;
            let why = "for model = \"provisioned\"";
            let included = c.nonneg(&key("included"), r.included.unwrap_or(0.0))?;
            let min = c.nonneg(&key("min"), c.need(&key("min"), r.min, why)?)?;
            let max = c.pos(&key("max"), c.need(&key("max"), r.max, why)?)?;
            let max_per_gib = match r.max_per_gib {
                Some(v) => Some(c.pos(&key("max_per_gib"), v)?),
                None => None,
            };
            if max < min {
                return Err(c.err(key("max"), "must be >= min"));
            }
            if included > max {
                return Err(c.err(key("included"), "must be <= max"));
            }
            Ok(IopsModel::Provisioned {
                included,
                min,
                max,
                max_per_gib,
            })
        }
    }
}

pub(crate) fn check_throughput(
    c: &Check<'_>,
    k: &str,
    r: RawThroughput,
) -> Result<ThroughputModel, RulesError> {
    c.text(&format!("{k}.source"), &r.source)?;
    let key = |n: &str| format!("{k}.{n}");
    let only = |allowed: &[&str]| -> Result<(), RulesError> {
        let present = [
            ("per_volume_mib_s", r.per_volume_mib_s.is_some()),
            ("steps", r.steps.is_some()),
            ("mib_s_per_iops", r.mib_s_per_iops.is_some()),
            ("flat_cap_mib_s", r.flat_cap_mib_s.is_some()),
            ("linear_mib_s_per_iops", r.linear_mib_s_per_iops.is_some()),
            ("max_mib_s", r.max_mib_s.is_some()),
            ("included_mib_s", r.included_mib_s.is_some()),
            ("max_mib_s_per_iops", r.max_mib_s_per_iops.is_some()),
            ("base_mib_s", r.base_mib_s.is_some()),
            ("per_gib_mib_s", r.per_gib_mib_s.is_some()),
        ];
        for (name, is) in present {
            if is && !allowed.contains(&name) {
                return Err(c.err(key(name), "is not used by this throughput model"));
            }
        }
        Ok(())
    };
    match r.model {
        ThroughputModelKind::Fixed => {
            only(&["per_volume_mib_s"])?;
            let v = c.need(
                &key("per_volume_mib_s"),
                r.per_volume_mib_s,
                "for model = \"fixed\"",
            )?;
            Ok(ThroughputModel::Fixed {
                per_volume_mib_s: c.pos(&key("per_volume_mib_s"), v)?,
            })
        }
        ThroughputModelKind::SizeSteps => {
            only(&["steps"])?;
            let steps = r
                .steps
                .ok_or_else(|| c.err(key("steps"), "is required for model = \"size_steps\""))?;
            if steps.is_empty() {
                return Err(c.err(key("steps"), "needs at least one step"));
            }
            for (i, s) in steps.iter().enumerate() {
                c.pos(&format!("{k}.steps[{i}].min_gib"), s.min_gib)?;
                c.pos(&format!("{k}.steps[{i}].mib_s"), s.mib_s)?;
                if i > 0 && (s.min_gib <= steps[i - 1].min_gib || s.mib_s <= steps[i - 1].mib_s) {
                    return Err(c.err(
                        format!("{k}.steps[{i}]"),
                        "steps must ascend in both min_gib and mib_s",
                    ));
                }
            }
            Ok(ThroughputModel::SizeSteps { steps })
        }
        ThroughputModelKind::SizeLinear => {
            only(&["base_mib_s", "per_gib_mib_s", "max_mib_s"])?;
            let why = "for model = \"size_linear\"";
            let base_mib_s = c.nonneg(&key("base_mib_s"), r.base_mib_s.unwrap_or(0.0))?;
            let per_gib_mib_s = c.pos(
                &key("per_gib_mib_s"),
                c.need(&key("per_gib_mib_s"), r.per_gib_mib_s, why)?,
            )?;
            let max_mib_s = c.pos(
                &key("max_mib_s"),
                c.need(&key("max_mib_s"), r.max_mib_s, why)?,
            )?;
            Ok(ThroughputModel::SizeLinear {
                base_mib_s,
                per_gib_mib_s,
                max_mib_s,
            })
        }
        ThroughputModelKind::SizeTable => {
            only(&[])?;
            Ok(ThroughputModel::SizeTable)
        }
        ThroughputModelKind::PerIops => {
            only(&[
                "mib_s_per_iops",
                "flat_cap_mib_s",
                "linear_mib_s_per_iops",
                "max_mib_s",
            ])?;
            let why = "for model = \"per_iops\"";
            let mib_s_per_iops = c.pos(
                &key("mib_s_per_iops"),
                c.need(&key("mib_s_per_iops"), r.mib_s_per_iops, why)?,
            )?;
            let max_mib_s = c.pos(
                &key("max_mib_s"),
                c.need(&key("max_mib_s"), r.max_mib_s, why)?,
            )?;
            if let Some(v) = r.flat_cap_mib_s {
                c.pos(&key("flat_cap_mib_s"), v)?;
            }
            if let Some(v) = r.linear_mib_s_per_iops {
                c.pos(&key("linear_mib_s_per_iops"), v)?;
            }
            Ok(ThroughputModel::PerIops {
                mib_s_per_iops,
                flat_cap_mib_s: r.flat_cap_mib_s,
                linear_mib_s_per_iops: r.linear_mib_s_per_iops,
                max_mib_s,
            })
        }
        ThroughputModelKind::Provisioned => {
            only(&["included_mib_s", "max_mib_s", "max_mib_s_per_iops"])?;
            let why = "for model = \"provisioned\"";
            let included_mib_s =
                c.nonneg(&key("included_mib_s"), r.included_mib_s.unwrap_or(0.0))?;
            let max_mib_s = c.pos(
                &key("max_mib_s"),
                c.need(&key("max_mib_s"), r.max_mib_s, why)?,
            )?;
            let max_mib_s_per_iops = match r.max_mib_s_per_iops {
                Some(v) => Some(c.pos(&key("max_mib_s_per_iops"), v)?),
                None => None,
            };
            if included_mib_s > max_mib_s {
                return Err(c.err(key("included_mib_s"), "must be <= max_mib_s"));
            }
            Ok(ThroughputModel::Provisioned {
                included_mib_s,
                max_mib_s,
                max_mib_s_per_iops,
            })
        }
    }
}

/// Upper bounds that catch a price in the wrong unit (a monthly figure per GiB above $100, …).
pub(crate) const MAX_UNIT_PRICE: f64 = 100.0;

pub(crate) fn plausible(c: &Check<'_>, key: &str, v: f64, max: f64) -> Result<(), RulesError> {
    if v > max {
        return Err(c.err(
            key,
            format!("{v:e} is implausibly large (> {max} USD per unit and month): check the unit"),
        ));
    }
    Ok(())
}

pub(crate) fn check_price(
    c: &Check<'_>,
    k: &str,
    p: &PriceSpec,
    table: bool,
) -> Result<(), RulesError> {
    for (name, v) in [
        ("gib_month", p.gib_month),
        ("mib_s_month", p.mib_s_month),
        ("per_million_io", p.per_million_io),
    ] {
        if let Some(v) = v {
            plausible(c, &format!("{k}.{name}"), v, MAX_UNIT_PRICE)?;
        }
    }
    for (i, b) in p.iops_month.iter().enumerate() {
        plausible(
            c,
            &format!("{k}.iops_month[{i}].usd"),
            b.usd,
            MAX_UNIT_PRICE,
        )?;
    }
    match (p.gib_month, &p.no_list_price) {
        (Some(v), None) => {
            c.nonneg(&format!("{k}.gib_month"), v)?;
        }
        (None, Some(why)) => c.text(&format!("{k}.no_list_price"), why)?,
        (None, None) if table => {}
        (None, None) => {
            return Err(c.err(
                format!("{k}.gib_month"),
                "is required (or no_list_price = \"why\" when the catalogue has no price)",
            ))
        }
        (Some(_), Some(_)) => {
            return Err(c.err(
                format!("{k}.no_list_price"),
                "cannot be set together with gib_month",
            ))
        }
    }
    let mut last = 0.0;
    for (i, b) in p.iops_month.iter().enumerate() {
        let bk = format!("{k}.iops_month[{i}]");
        c.nonneg(&format!("{bk}.usd"), b.usd)?;
        match b.upto {
            Some(u) => {
                c.pos(&format!("{bk}.upto"), u)?;
                if u <= last {
                    return Err(c.err(format!("{bk}.upto"), "bands must ascend"));
                }
                last = u;
            }
            None if i + 1 != p.iops_month.len() => {
                return Err(c.err(format!("{bk}.upto"), "only the last band may omit upto"));
            }
            None => {}
        }
    }
    if let Some(v) = p.mib_s_month {
        c.nonneg(&format!("{k}.mib_s_month"), v)?;
    }
    if let Some(v) = p.per_million_io {
        c.nonneg(&format!("{k}.per_million_io"), v)?;
    }
    c.text(&format!("{k}.source"), &p.source)
}
