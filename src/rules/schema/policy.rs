//! Typed form of `rules/sizing.toml` (required-IOPS formula, headroom, on-premises and cloud
//! policy, report card, rules), its parsing and validation.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::catalog::Catalog;
use super::position::{parse_toml, Check};
use crate::rules::grade::ReportCardSpec;
use crate::rules::metric::{Metric, Op};
use crate::rules::template::{parse_template, Piece};
use crate::rules::{IopsFormula, IopsTerm, RulesError};

/// `[meta]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizingMeta {
    /// Date the policy was checked (ISO 8601 text).
    pub as_of: String,
    /// Where it comes from.
    pub source: String,
}

/// `[headroom]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeadroomPolicy {
    /// Default headroom over the sizing statistic, percent (30 = × 1.30).
    pub default_pct: f64,
    /// Why / where from.
    pub source: String,
}

/// `[onprem]` of `sizing.toml`: how drive arrays are counted.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnpremPolicy {
    /// Read-hit ratio of the ARRAY cache, percent 0..100 (default 0). Not the
    /// database buffer-cache hit ratio: those hits never reach the array.
    pub array_read_hit_pct: f64,
    /// Share of writes absorbed by array write coalescing, percent 0..100.
    pub write_coalesce_pct: f64,
    /// Drive counts above this are infeasible.
    pub max_drives: u32,
    /// Most MB/s (10^6 B/s, reads + writes) one array's front end (host ports and
    /// controllers) carries: a policy figure; a sized demand above it is infeasible on one
    /// array. `None` = no ceiling.
    #[serde(default)]
    pub max_front_end_mb_s: Option<f64>,
    /// Reasoning shown in docs / reports.
    pub why: String,
    /// Where the numbers come from.
    pub source: String,
}

/// How many volumes a cloud configuration uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VolumeCountPolicy {
    /// Smallest count that meets the demand (stripe only when one volume cannot).
    Fewest,
    /// The fewest volumes whose monthly cost is within [`CloudPolicy::min_saving_pct`] of the
    /// lowest (only when a capacity is given).
    Cheapest,
}

/// `[cloud]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloudPolicy {
    /// Most equal volumes striped together.
    pub max_volumes: u32,
    /// How the volume count is chosen.
    pub volume_count: VolumeCountPolicy,
    /// With `volume_count = "cheapest"`: the fewest volumes whose cost is within this many
    /// percent of the cheapest count are taken (0 = the cheapest count itself).
    #[serde(default)]
    pub min_saving_pct: f64,
    /// Where the numbers come from.
    pub source: String,
}

/// One condition of a rule: `metric op value`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// Quantity tested.
    pub metric: Metric,
    /// Comparison.
    pub op: Op,
    /// Threshold, in the metric's unit.
    pub value: f64,
    /// Source of the threshold (falls back to the rule's `source`).
    #[serde(default)]
    pub source: Option<String>,
}

/// What a fired rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Add `weight` to the score of the target tiers.
    Prefer,
    /// Subtract `weight` from the score of the target tiers.
    Avoid,
    /// Report the message only.
    Note,
    /// Report the message as a warning about the evidence (no effect on the choice).
    Warn,
}
impl Effect {
    /// Whether the effect only reports (`note`, `warn`) rather than changing scores.
    pub fn reports_only(self) -> bool {
        matches!(self, Effect::Note | Effect::Warn)
    }
}

/// `[[rule]]` of `sizing.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Unique id (kebab-case).
    pub id: String,
    /// Conditions, all of which must hold; empty = always fires.
    #[serde(default)]
    pub when: Vec<Condition>,
    /// What it does.
    pub effect: Effect,
    /// Tier ids or `group:NAME` (empty for notes).
    #[serde(default)]
    pub targets: Vec<String>,
    /// Score added (prefer) or subtracted (avoid); default 1.
    #[serde(default = "default_weight")]
    pub weight: u32,
    /// Prefer/avoid only applies to target options with at most this many
    /// drives or volumes.
    #[serde(default)]
    pub max_units: Option<u32>,
    /// Prefer/avoid only applies to target options whose published latency (`latency_ms`)
    /// grades worse on the IO report card than today's measured latency
    /// ([`crate::rules::grade::TierGrade::worse`]); default false.
    #[serde(default)]
    pub slower_than_measured: bool,
    /// Message template (placeholders in docs/rules.md).
    pub message: String,
    /// Source of the rule.
    pub source: String,
}

pub(crate) fn default_weight() -> u32 {
    1
}

/// The sizing policy (`sizing.toml`), validated.
#[derive(Debug, Clone)]
pub struct SizingPolicy {
    /// `[meta]`.
    pub meta: SizingMeta,
    /// `[required_iops]`.
    pub required_iops: IopsFormula,
    /// `[headroom]`.
    pub headroom: HeadroomPolicy,
    /// `[onprem]`.
    pub onprem: OnpremPolicy,
    /// `[cloud]`.
    pub cloud: CloudPolicy,
    /// `[report_card]`: latency grades; `None` = no card.
    pub report_card: Option<ReportCardSpec>,
    /// `[flash_vs_hdd]`: the on-premises flash-versus-15K comparison; `None` = not stated.
    pub flash_vs_hdd: Option<FlashVsHdd>,
    /// `[exadata]`: the off-Exadata factor; `None` = no off-Exadata estimate.
    pub exadata: Option<crate::metrics::exadata::ExadataPolicy>,
    /// `[[rule]]` in file order.
    pub rules: Vec<Rule>,
}

/// `[flash_vs_hdd]` of `sizing.toml`: which on-premises options the report compares (drive
/// counts for the same load) and the published consequence it quotes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlashVsHdd {
    /// Tier group of the flash options (`onprem_flash`).
    pub flash_group: String,
    /// Tier group of the spinning options compared (`hdd15k`).
    pub hdd_group: String,
    /// Published IOPS of one flash drive in 15K drives (EMC 2008: 30).
    pub flash_iops_in_hdd_drives: f64,
    /// Published power saving per IO of flash over 15K drives, percent (EMC 2008: 98).
    pub power_saving_per_io_pct: f64,
    /// Where the figures come from.
    pub source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSizing {
    meta: SizingMeta,
    required_iops: IopsFormula,
    headroom: HeadroomPolicy,
    onprem: OnpremPolicy,
    cloud: CloudPolicy,
    #[serde(default)]
    report_card: Option<ReportCardSpec>,
    #[serde(default)]
    flash_vs_hdd: Option<FlashVsHdd>,
    #[serde(default)]
    exadata: Option<crate::metrics::exadata::ExadataPolicy>,
    #[serde(default)]
    rule: Vec<Rule>,
}

/// Rule targets are checked against a catalogue later ([`check_targets`]).
pub(crate) fn parse_sizing(text: &str, file: &str) -> Result<SizingPolicy, RulesError> {
    let raw: RawSizing = parse_toml(text, file)?;
    let c = Check { file };
    c.text("meta.as_of", &raw.meta.as_of)?;
    c.text("meta.source", &raw.meta.source)?;
    check_formula(&c, "required_iops", &raw.required_iops)?;
    if let Some(fb) = &raw.required_iops.fallback {
        check_formula(&c, "required_iops.fallback", fb)?;
        if fb.fallback.is_some() {
            return Err(c.err(
                "required_iops.fallback.fallback",
                "only one fallback level is allowed",
            ));
        }
    }
    c.nonneg("headroom.default_pct", raw.headroom.default_pct)?;
    c.text("headroom.source", &raw.headroom.source)?;
    c.pct("onprem.array_read_hit_pct", raw.onprem.array_read_hit_pct)?;
    c.pct("onprem.write_coalesce_pct", raw.onprem.write_coalesce_pct)?;
    if raw.onprem.max_drives == 0 {
        return Err(c.err("onprem.max_drives", "must be at least 1"));
    }
    if let Some(v) = raw.onprem.max_front_end_mb_s {
        c.pos("onprem.max_front_end_mb_s", v)?;
    }
    c.text("onprem.why", &raw.onprem.why)?;
    c.text("onprem.source", &raw.onprem.source)?;
    c.pct("cloud.min_saving_pct", raw.cloud.min_saving_pct)?;
    if raw.cloud.max_volumes == 0 {
        return Err(c.err("cloud.max_volumes", "must be at least 1"));
    }
    c.text("cloud.source", &raw.cloud.source)?;

    let mut ids = HashSet::new();
    for (i, r) in raw.rule.iter().enumerate() {
        let k = format!("rule[{i}]");
        c.text(&format!("{k}.id"), &r.id)?;
        if !ids.insert(r.id.clone()) {
            return Err(c.err(format!("{k}.id"), format!("duplicate rule id \"{}\"", r.id)));
        }
        c.text(&format!("{k}.source"), &r.source)?;
        c.text(&format!("{k}.message"), &r.message)?;
        for (j, w) in r.when.iter().enumerate() {
            if !w.value.is_finite() {
                return Err(c.err(format!("{k}.when[{j}].value"), "must be a finite number"));
            }
            if let Some(s) = &w.source {
                c.text(&format!("{k}.when[{j}].source"), s)?;
            }
        }
        match r.effect {
            Effect::Note | Effect::Warn => {
                if !r.targets.is_empty() {
                    return Err(c.err(
                        format!("{k}.targets"),
                        "must be empty for effect = \"note\" or \"warn\"",
                    ));
                }
                if r.max_units.is_some() {
                    return Err(c.err(
                        format!("{k}.max_units"),
                        "is not used by effect = \"note\" or \"warn\"",
                    ));
                }
                if r.slower_than_measured {
                    return Err(c.err(
                        format!("{k}.slower_than_measured"),
                        "is not used by effect = \"note\" or \"warn\"",
                    ));
                }
            }
            Effect::Prefer | Effect::Avoid => {
                if r.targets.is_empty() {
                    return Err(c.err(
                        format!("{k}.targets"),
                        "needs at least one tier id or group:NAME",
                    ));
                }
                if r.weight == 0 {
                    return Err(c.err(format!("{k}.weight"), "must be at least 1"));
                }
            }
        }
        let pieces = parse_template(&r.message).map_err(|m| c.err(format!("{k}.message"), m))?;
        for p in pieces {
            match p {
                Piece::When(idx, _) if idx >= r.when.len() => {
                    return Err(c.err(
                        format!("{k}.message"),
                        format!(
                            "{{when.{idx}}} but the rule has {} condition(s)",
                            r.when.len()
                        ),
                    ));
                }
                Piece::MaxUnits if r.max_units.is_none() => {
                    return Err(c.err(
                        format!("{k}.message"),
                        "{max_units} but the rule has no max_units",
                    ));
                }
                _ => {}
            }
        }
    }
    if let Some(rc) = &raw.report_card {
        rc.check(file)?;
    }
    if let Some(f) = &raw.flash_vs_hdd {
        c.text("flash_vs_hdd.flash_group", &f.flash_group)?;
        c.text("flash_vs_hdd.hdd_group", &f.hdd_group)?;
        c.pos(
            "flash_vs_hdd.flash_iops_in_hdd_drives",
            f.flash_iops_in_hdd_drives,
        )?;
        c.pct(
            "flash_vs_hdd.power_saving_per_io_pct",
            f.power_saving_per_io_pct,
        )?;
        c.text("flash_vs_hdd.source", &f.source)?;
    }
    if let Some(x) = &raw.exadata {
        c.pos("exadata.off_exadata_iops_factor", x.off_exadata_iops_factor)?;
        c.text("exadata.why", &x.why)?;
        c.text("exadata.source", &x.source)?;
    }
    Ok(SizingPolicy {
        meta: raw.meta,
        required_iops: raw.required_iops,
        headroom: raw.headroom,
        onprem: raw.onprem,
        cloud: raw.cloud,
        report_card: raw.report_card,
        flash_vs_hdd: raw.flash_vs_hdd,
        exadata: raw.exadata,
        rules: raw.rule,
    })
}

pub(crate) fn check_formula(c: &Check<'_>, k: &str, f: &IopsFormula) -> Result<(), RulesError> {
    if f.terms.is_empty() {
        return Err(c.err(format!("{k}.terms"), "needs at least one term"));
    }
    let mut seen = HashSet::new();
    for (i, t) in f.terms.iter().enumerate() {
        if IopsTerm::from_name(t).is_none() {
            let names: Vec<&str> = IopsTerm::ALL.iter().map(|x| x.as_str()).collect();
            return Err(c.err(
                format!("{k}.terms[{i}]"),
                format!("unknown term \"{t}\" (known: {})", names.join(", ")),
            ));
        }
        if !seen.insert(t.as_str()) {
            return Err(c.err(format!("{k}.terms[{i}]"), format!("duplicate term \"{t}\"")));
        }
    }
    c.text(&format!("{k}.text"), &f.text)?;
    c.text(&format!("{k}.why"), &f.why)?;
    c.text(&format!("{k}.source"), &f.source)
}

/// Every rule target must name a tier id or a group of at least one tier.
pub(crate) fn check_targets(
    sizing: &SizingPolicy,
    catalog: &Catalog,
    file: &str,
) -> Result<(), RulesError> {
    let c = Check { file };
    for (i, r) in sizing.rules.iter().enumerate() {
        for (j, t) in r.targets.iter().enumerate() {
            if !catalog.tiers.iter().any(|tier| tier.matches(t)) {
                return Err(c.err(
                    format!("rule[{i}].targets[{j}]"),
                    format!(
                        "\"{t}\" matches no tier id or group in the tier catalogue (rule \"{}\")",
                        r.id
                    ),
                ));
            }
        }
    }
    Ok(())
}
