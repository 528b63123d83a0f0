//! Data-driven storage sizing rules: workload [`Demand`] + [`RuleSet`] →
//! [`Recommendation`].
//!
//! # Overview
//!
//! The numbers live in two TOML files, not in code: `rules/tiers.toml` (the
//! tier catalogue: per-drive and per-volume limits, list prices) and
//! `rules/sizing.toml` (the required-IOPS formula, headroom, on-premises and
//! cloud policy, and the rules). Every number there carries a `source` and each
//! file an `as_of` date. Both are embedded in the binary ([`RuleSet::builtin`]);
//! [`RuleSet::load_dir`] reads a user copy instead (`sizer --rules DIR`). The
//! schema, formulas and selection algorithm are documented in `docs/rules.md`.
//!
//! The engine knows nothing of input formats: the metrics module turns
//! evidence into a [`Demand`] (IOPS, MB/s, IO sizes, cache hit, latencies,
//! capacity), and [`recommend`] does the rest:
//!
//! 1. headroom: `sized_iops = required_iops × (1 + headroom_pct / 100)`, the same
//!    factor for MB/s;
//! 2. every rule of `sizing.toml` is evaluated on the demand: fired, not fired,
//!    or not evaluated (a metric it needs is unknown);
//! 3. every tier of each requested platform is sized: drives for arrays
//!    (back-end IOPS with RAID write penalty, capacity, RAID groups), volume
//!    count / size / provisioned IOPS / throughput and monthly cost for cloud
//!    volumes; a tier is infeasible when a limit cannot be met;
//! 4. per platform, fired `prefer` / `avoid` rules score the tiers; the
//!    feasible tier with the highest score wins, then the cheapest, then the
//!    one with fewer units.
//!
//! Units: IOPS = requests per second; MB/s = 10^6 B/s (what the demand is
//! measured in); MiB/s = 2^20 B/s (what AWS limits use); GiB = 2^30 B; drive
//! sizes in GB = 10^9 B; money in USD per month (730 h).

mod demand;
mod eval;
pub mod grade;
mod metric;
mod num;
mod recommendation;
mod ruleset;
pub mod schema;
mod sizing;
mod template;
/// Float equality to 1e-6 relative, for the unit tests (their hand computations are exact to
/// more digits than that).
#[cfg(test)]
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[cfg(test)]
macro_rules! assert_close {
    ($a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        assert!(close(a, b), "{} = {a}, expected {b}", stringify!($a));
    }};
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_tiers;
pub mod vsan;

use std::fmt::Write as _;

pub use schema::{
    Catalog, CatalogMeta, CloudPolicy, CloudVolumeSpec, Condition, DriveSpec, Effect, FlashVsHdd,
    HeadroomPolicy, Instance, IopsModel, Metric, OnpremPolicy, Op, Platform, PriceBand, PriceSpec,
    RaidSpec, Rule, SizeRow, SizeTable, SizingMeta, SizingPolicy, ThroughputModel, ThroughputStep,
    Tier, TierKind, TierSpec, VolumeCountPolicy, VolumeSpec,
};

use eval::{Outcome, Values};
use num::{fmt_num, fmt_trim};
use sizing::Workload;

pub use demand::{Demand, IopsFormula, IopsTerm};
pub use recommendation::{
    CostBreakdown, FiredRule, NotEvaluatedRule, NotFiredRule, Options, PlatformRecommendation,
    Recommendation, TierOption, Unit,
};
pub use ruleset::{RuleSet, RulesError, BUILTIN_SIZING_TOML, BUILTIN_TIERS_TOML};

/// Size every tier of the requested platforms for `demand` and pick one per
/// platform. The algorithm is in the module docs and `docs/rules.md`.
pub fn recommend(rules: &RuleSet, demand: &Demand, opts: &Options) -> Recommendation {
    let mut notes = Vec::new();
    let default_h = rules.default_headroom_pct();
    let headroom = match opts.headroom_pct {
        Some(h) if h.is_finite() && h >= 0.0 => h,
        Some(h) => {
            notes.push(format!(
                "headroom {h} % ignored (must be a finite number >= 0); default {} % used",
                fmt_trim(default_h)
            ));
            default_h
        }
        None => default_h,
    };
    let dec = opts.figure_decimals.unwrap_or(2) as usize;
    let w = Workload::new(demand, headroom, dec);
    notes.extend(w.notes.iter().cloned());
    if w.capacity_gib.is_none() {
        notes.push("capacity not given: sizes are the minimum for IOPS and throughput".to_string());
    }

    // Rules
    let values = Values::new(demand, headroom);
    let mut fired = Vec::new();
    let mut not_fired = Vec::new();
    let mut not_evaluated = Vec::new();
    for r in rules.rules() {
        match eval::evaluate(r, &values) {
            Outcome::Fired(f) => fired.push(f),
            Outcome::NotFired(n) => not_fired.push(n),
            Outcome::NotEvaluated(n) => not_evaluated.push(n),
        }
    }

    // Platforms
    let wanted: Vec<String> = opts
        .platforms
        .iter()
        .map(|p| p.trim().to_ascii_lowercase())
        .collect();
    for p in &wanted {
        if !rules
            .catalog
            .platforms
            .iter()
            .any(|x| x.id.eq_ignore_ascii_case(p))
        {
            let known: Vec<&str> = rules
                .catalog
                .platforms
                .iter()
                .map(|x| x.id.as_str())
                .collect();
            notes.push(format!(
                "unknown platform \"{p}\" ignored (known: {})",
                known.join(", ")
            ));
        }
    }
    let formula = opts
        .formula
        .clone()
        .unwrap_or_else(|| rules.required_iops_formula().formula());
    let mut explanation = vec![format!(
        "Sized for {} IOPS ({formula}) × (1 + {} % headroom) = {} IOPS and {} MB/s = {} MiB/s (1 MB = 10^6 B, 1 MiB = 2^20 B).",
        fmt_num(w.required_iops, dec),
        fmt_trim(headroom),
        fmt_num(w.sized_iops, 2),
        fmt_num(w.sized_mb_s, 2),
        fmt_num(w.sized_mib_s, 2)
    )];
    let card = rules
        .sizing
        .report_card
        .as_ref()
        .map(|spec| grade::card(spec, demand));
    let instance = opts.instance.as_deref().map(str::trim);
    if let Some(id) = instance {
        let found = rules
            .catalog
            .instances
            .iter()
            .find(|i| i.id.eq_ignore_ascii_case(id));
        if let Some(i) = found {
            if !wanted.is_empty() && !wanted.iter().any(|w| w.eq_ignore_ascii_case(&i.platform)) {
                notes.push(format!(
                    "instance {} caps {} volumes, and {} is not among the targets: it changes nothing here",
                    i.id, i.platform, i.platform
                ));
            }
        }
        if found.is_none() {
            notes.push(format!(
                "instance \"{id}\" is not in the catalogue ([[instance]]); no instance cap applied (known: {})",
                rules
                    .catalog
                    .instances
                    .iter()
                    .map(|i| i.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let mut platforms = Vec::new();
    for p in &rules.catalog.platforms {
        if !wanted.is_empty() && !wanted.iter().any(|x| p.id.eq_ignore_ascii_case(x)) {
            continue;
        }
        let inst = instance.and_then(|id| {
            rules
                .catalog
                .instances
                .iter()
                .find(|i| i.platform == p.id && i.id.eq_ignore_ascii_case(id))
        });
        let pr = size_platform(rules, p, inst, &w, &fired, card.as_ref());
        explanation.extend(pr.explanation.iter().map(|s| format!("{}: {s}", p.id)));
        platforms.push(pr);
    }

    Recommendation {
        rules_origin: rules.origin.clone(),
        catalog_as_of: rules.catalog.meta.as_of.clone(),
        headroom_pct: headroom,
        required_iops: w.required_iops,
        required_iops_formula: formula,
        sized_iops: w.sized_iops,
        sized_mb_s: w.sized_mb_s,
        sized_mib_s: w.sized_mib_s,
        capacity_gib: w.capacity_gib,
        capacity_given: w.capacity_gib.is_some(),
        platforms,
        fired_rules: fired,
        not_fired,
        not_evaluated,
        notes,
        explanation,
        report_card: card,
    }
}

fn cost_key(o: &TierOption) -> f64 {
    o.monthly_cost_usd.unwrap_or(f64::INFINITY)
}

fn usd(x: f64) -> String {
    format!("${}/month", fmt_num(x, 2))
}

/// Size every tier of `p`, score them with the fired rules, pick the winner.
fn size_platform(
    rules: &RuleSet,
    p: &Platform,
    instance: Option<&Instance>,
    w: &Workload,
    fired: &[FiredRule],
    card: Option<&grade::ReportCard>,
) -> PlatformRecommendation {
    let mut options: Vec<TierOption> = rules
        .tiers()
        .iter()
        .filter(|t| t.platform == p.id)
        .map(|t| {
            let mut o = match &t.spec {
                TierSpec::DriveArray { drive, raid } => {
                    sizing::size_drive_array(t, drive, raid, &rules.sizing.onprem, w)
                }
                TierSpec::CloudVolume(spec) => sizing::size_cloud(
                    t,
                    spec,
                    Some(p),
                    instance,
                    &rules.sizing.cloud,
                    rules.catalog.meta.hours_per_month,
                    w,
                ),
            };
            o.latency_ms = t.latency_ms;
            if let (Some(spec), Some(card)) = (&rules.sizing.report_card, card) {
                o.latency_check = grade::tier_grades(spec, card, t);
            }
            score(t, &mut o, fired);
            o
        })
        .collect();

    // Winner: highest score, then cheapest (unknown cost last), then fewer
    // units; sort is stable, so catalogue order breaks remaining ties.
    let mut feasible: Vec<TierOption> = Vec::new();
    let mut infeasible: Vec<TierOption> = Vec::new();
    for o in options.drain(..) {
        if o.feasible {
            feasible.push(o);
        } else {
            infeasible.push(o);
        }
    }
    // Without prices (arrays), fewer units, then less raw capacity (fewer idle GiB bought).
    let by_cost = |a: &TierOption, b: &TierOption| {
        cost_key(a)
            .total_cmp(&cost_key(b))
            .then(a.count.cmp(&b.count))
            .then(a.total_gib.total_cmp(&b.total_gib))
    };
    // The winner: a priced option before an unpriced one (a recommendation must be costable
    // when the platform has prices), then the highest score, then by_cost; the first of equals
    // (catalogue order).
    let best = (0..feasible.len()).min_by(|&i, &j| {
        let (a, b) = (&feasible[i], &feasible[j]);
        b.monthly_cost_usd
            .is_some()
            .cmp(&a.monthly_cost_usd.is_some())
            .then(b.rule_score.cmp(&a.rule_score))
            .then_with(|| by_cost(a, b))
    });
    let mut explanation = explain(best.map(|i| &feasible[i]), &feasible, &infeasible, fired);
    let flash = rules
        .sizing
        .flash_vs_hdd
        .as_ref()
        .and_then(|cmp| flash_vs_hdd(cmp, rules, &feasible));
    let mut alternatives = feasible;
    let recommended = best.map(|i| alternatives.remove(i));
    alternatives.sort_by(by_cost);
    if let Some(rec) = &recommended {
        for a in alternatives.iter_mut() {
            a.lost_because = Some(lost_because(rec, a));
        }
        if let Some(risk) = grade::risk_text(&rec.latency_check) {
            let keeps: Vec<&TierOption> = alternatives
                .iter()
                .filter(|a| !a.latency_check.is_empty() && !a.latency_check.iter().any(|g| g.worse))
                .collect();
            let mut s = format!(
                "Latency: `{}` may be slower than today's storage: {risk}",
                rec.tier_id
            );
            match keeps.first() {
                Some(k) => s.push_str(&format!(
                    "; `{}` (up to {} ms, {}) keeps today's grades",
                    k.tier_id,
                    fmt_trim(k.latency_ms.unwrap_or(0.0)),
                    k.monthly_cost_usd
                        .map(usd)
                        .unwrap_or_else(|| "no list price".to_string())
                )),
                None => s.push_str("; no feasible tier of this platform keeps today's grades"),
            }
            s.push('.');
            explanation.push(s);
        } else if !rec.latency_check.is_empty() {
            explanation.push(format!(
                "Latency: even at the up to {} ms its published class allows, it keeps every measured grade of the IO report card.",
                fmt_trim(rec.latency_ms.unwrap_or(0.0))
            ));
        }
    }
    for a in infeasible.iter_mut() {
        a.lost_because = Some(format!(
            "not feasible: {}",
            a.infeasible_reason.as_deref().unwrap_or("limits exceeded")
        ));
    }
    explanation.extend(flash);
    // A host type too small for every tier: name the catalogued ones that are large enough.
    if let (Some(inst), None) = (instance, &recommended) {
        let fits: Vec<String> = rules
            .catalog
            .instances
            .iter()
            .filter(|i| {
                i.platform == p.id
                    && i.id != inst.id
                    && i.max_iops + 1e-9 >= w.sized_iops
                    && i.max_mb_s + 1e-9 >= w.sized_mb_s
            })
            .map(|i| {
                format!(
                    "{} ({} IOPS, {} MB/s)",
                    i.id,
                    fmt_num(i.max_iops, 0),
                    fmt_num(i.max_mb_s, 2)
                )
            })
            .collect();
        explanation.push(if fits.is_empty() {
            format!(
                "No catalogued {} host type drives {} IOPS and {} MB/s; add yours as an [[instance]] in a --rules copy.",
                p.id,
                fmt_num(w.sized_iops, 0),
                fmt_num(w.sized_mb_s, 2)
            )
        } else {
            format!(
                "{} cannot drive {} IOPS and {} MB/s; catalogued host types that can: {}.",
                inst.id,
                fmt_num(w.sized_iops, 0),
                fmt_num(w.sized_mb_s, 2),
                fits.join(", ")
            )
        });
    }
    alternatives.extend(infeasible);
    PlatformRecommendation {
        platform: p.id.clone(),
        name: p.name.clone(),
        instance: instance.map(|i| i.id.clone()),
        recommended,
        alternatives,
        explanation,
    }
}

/// Why feasible option `a` lost to `rec`.
fn lost_because(rec: &TierOption, a: &TierOption) -> String {
    let mut parts = Vec::new();
    if a.monthly_cost_usd.is_none() && rec.monthly_cost_usd.is_some() {
        parts.push(format!(
            "no list price in the catalogue, so it cannot be costed against priced tiers{}",
            if a.rule_score > rec.rule_score {
                format!(
                    " (its rule score {:+} is higher: {})",
                    a.rule_score,
                    a.preferred_by.join(", ")
                )
            } else {
                String::new()
            }
        ));
        if let Some(r) = grade::risk_text(&a.latency_check) {
            parts.push(r);
        }
        return parts.join("; ");
    }
    if a.rule_score < rec.rule_score {
        let mut why = format!("rule score {:+} < {:+}", a.rule_score, rec.rule_score);
        if !rec.preferred_by.is_empty() {
            why.push_str(&format!(
                " (`{}` preferred by {})",
                rec.tier_id,
                rec.preferred_by.join(", ")
            ));
        }
        if !a.avoided_by.is_empty() {
            why.push_str(&format!(" (avoided by {})", a.avoided_by.join(", ")));
        }
        parts.push(why);
    }
    match (a.monthly_cost_usd, rec.monthly_cost_usd) {
        (Some(x), Some(y)) if x > y + 0.005 => parts.push(format!(
            "costs {} more ({} vs {})",
            usd(x - y),
            usd(x),
            usd(y)
        )),
        (Some(x), Some(y)) if x + 0.005 < y => parts.push(format!(
            "{} cheaper ({} vs {}), but ranked lower by rule",
            usd(y - x),
            usd(x),
            usd(y)
        )),
        (Some(_), Some(_)) => {
            if a.count > rec.count {
                parts.push(format!(
                    "same cost, more units ({} vs {})",
                    a.count, rec.count
                ));
            } else {
                parts.push("same cost; catalogue order".to_string());
            }
        }
        (None, Some(_)) => parts.push(
            "no list price in the catalogue, so it ranks after every priced tier".to_string(),
        ),
        (_, None) => {
            if a.count > rec.count {
                parts.push(format!("needs more units ({} vs {})", a.count, rec.count));
            } else if a.rule_score >= rec.rule_score && a.total_gib > rec.total_gib + 0.5 {
                parts.push(format!(
                    "no list prices: same unit count, more raw capacity ({} vs {} GiB)",
                    fmt_num(a.total_gib, 0),
                    fmt_num(rec.total_gib, 0)
                ));
            } else if a.rule_score >= rec.rule_score {
                parts.push("no list price to compare; catalogue order".to_string());
            }
        }
    }
    if let Some(r) = grade::risk_text(&a.latency_check) {
        parts.push(r);
    }
    parts.join("; ")
}

/// The flash-versus-15K sentence of an on-premises platform: drive counts of the best flash
/// and best spinning option for the same load, and the published power consequence.
fn flash_vs_hdd(cmp: &FlashVsHdd, rules: &RuleSet, feasible: &[TierOption]) -> Option<String> {
    let in_group = |o: &TierOption, g: &str| {
        rules
            .tiers()
            .iter()
            .any(|t| t.id == o.tier_id && t.groups.iter().any(|x| x == g))
    };
    let fewest = |g: &str| {
        feasible
            .iter()
            .filter(|o| in_group(o, g))
            .min_by_key(|o| o.count)
    };
    let (f, h) = (fewest(&cmp.flash_group)?, fewest(&cmp.hdd_group)?);
    let ratio = f64::from(h.count) / f64::from(f.count.max(1));
    let claim = format!(
        "the published claim is one flash drive ≈ the IOPS of {} 15K drives at {} % less power per IO ({})",
        fmt_trim(cmp.flash_iops_in_hdd_drives),
        fmt_trim(cmp.power_saving_per_io_pct),
        cmp.source
    );
    let hdd_for_iops = h.drives_for_iops.unwrap_or(h.count);
    let flash_for_iops = f.drives_for_iops.unwrap_or(f.count);
    if h.count <= f.count {
        return Some(format!(
            "Flash vs 15K for the same load: `{}` needs {} drives and `{}` {} drives ({} and {} for the IOPS alone): the load is too small for the drive count to differ (RAID minimums or capacity set both); {claim}.",
            f.tier_id, f.count, h.tier_id, h.count, flash_for_iops, hdd_for_iops
        ));
    }
    Some(format!(
        "Flash vs 15K for the same load: `{}` needs {} drives, `{}` {} drives: {} more drive slots ({}× the drives) for 15K; {claim}.",
        f.tier_id,
        f.count,
        h.tier_id,
        h.count,
        h.count - f.count,
        fmt_num(ratio, 1)
    ))
}

/// Apply fired prefer/avoid rules to one option.
fn score(tier: &Tier, o: &mut TierOption, fired: &[FiredRule]) {
    for f in fired {
        if f.effect.reports_only() || !f.targets.iter().any(|t| tier.matches(t)) {
            continue;
        }
        if let Some(max) = f.max_units {
            if !o.feasible || o.count > max {
                o.notes.push(format!(
                    "rule {} not applied: needs {} {}s > max_units {max}",
                    f.id,
                    o.count,
                    match o.unit {
                        Unit::Drive => "drive",
                        Unit::Volume => "volume",
                    }
                ));
                continue;
            }
        }
        match f.effect {
            Effect::Prefer => {
                o.rule_score += i64::from(f.weight);
                o.preferred_by.push(f.id.clone());
            }
            Effect::Avoid => {
                o.rule_score -= i64::from(f.weight);
                o.avoided_by.push(f.id.clone());
            }
            Effect::Note | Effect::Warn => {}
        }
    }
}

fn units(o: &TierOption) -> String {
    let u = match o.unit {
        Unit::Drive => "drive",
        Unit::Volume => "volume",
    };
    format!("{} {u}{}", o.count, if o.count == 1 { "" } else { "s" })
}

/// Sentences on why `rec` won.
fn explain(
    rec: Option<&TierOption>,
    feasible: &[TierOption],
    infeasible: &[TierOption],
    fired: &[FiredRule],
) -> Vec<String> {
    let mut out = Vec::new();
    let Some(rec) = rec else {
        // One clause per distinct reason, with the tiers it stops.
        let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
        for o in infeasible {
            let r = o.infeasible_reason.as_deref().unwrap_or("?");
            match by_reason.iter_mut().find(|(x, _)| *x == r) {
                Some((_, ids)) => ids.push(&o.tier_id),
                None => by_reason.push((r, vec![&o.tier_id])),
            }
        }
        let mut s = String::from("no tier is feasible");
        for (r, ids) in by_reason {
            let _ = write!(s, "; {}: {r}", ids.join(", "));
        }
        out.push(s);
        return out;
    };
    let cost = rec
        .monthly_cost_usd
        .map(usd)
        .unwrap_or_else(|| "no list price".to_string());
    out.push(format!(
        "{} ({}) recommended: {}, {} GiB, {}.",
        rec.tier_id,
        rec.name,
        units(rec),
        fmt_num(rec.total_gib, 0),
        cost
    ));
    if rec.rule_score > 0 {
        let msgs: Vec<String> = rec.preferred_by.to_vec();
        out.push(format!(
            "Preferred by rule {} (score {:+}); rule preferences are applied before cost and unit count.",
            msgs.join(", "),
            rec.rule_score
        ));
    } else if feasible.iter().all(|o| o.rule_score == rec.rule_score) {
        // A rule that fired but could not apply (max_units) must not read as "no rule".
        let skipped: Vec<String> = feasible
            .iter()
            .flat_map(|o| o.notes.iter().map(move |n| (o, n)))
            .filter(|(_, n)| n.starts_with("rule ") && n.contains(" not applied: "))
            .map(|(o, n)| format!("{} ({})", n, o.tier_id))
            .collect();
        if skipped.is_empty() {
            out.push("No rule prefers one feasible tier over another.".to_string());
        } else {
            out.push(format!(
                "No rule preference applies: {}.",
                skipped.join("; ")
            ));
        }
    } else {
        out.push(format!(
            "It has the highest rule score among feasible tiers ({:+}).",
            rec.rule_score
        ));
    }
    let cheapest = feasible
        .iter()
        .filter(|o| o.monthly_cost_usd.is_some())
        .min_by(|a, b| cost_key(a).total_cmp(&cost_key(b)));
    match (rec.monthly_cost_usd, cheapest) {
        (Some(c), Some(ch)) if ch.tier_id == rec.tier_id || cost_key(ch) >= c => {
            out.push("It is the cheapest feasible tier.".to_string());
        }
        (Some(c), Some(ch)) => out.push(format!(
            "The cheapest feasible tier is {} at {}; the recommendation costs {} more.",
            ch.tier_id,
            usd(cost_key(ch)),
            usd(c - cost_key(ch))
        )),
        (None, Some(ch)) => out.push(format!(
            "It has no list price in the catalogue ({}); the cheapest priced feasible tier is {} at {}.",
            rec.cost_note.as_deref().unwrap_or("no price"),
            ch.tier_id,
            usd(cost_key(ch))
        )),
        (None, None) => {
            let same: Vec<&TierOption> = feasible
                .iter()
                .filter(|o| o.rule_score == rec.rule_score)
                .collect();
            if same.len() > 1 {
                out.push(format!(
                    "No public list prices, so among equally scored tiers the one with the fewest units wins ({}), then the least raw capacity ({} GiB).",
                    units(rec),
                    fmt_num(rec.total_gib, 0)
                ));
            } else {
                out.push("No public list price for this tier.".to_string());
            }
        }
        (Some(_), None) => {}
    }
    // Preferred tiers that lost because they are infeasible.
    for o in infeasible {
        let pref: Vec<&FiredRule> = fired
            .iter()
            .filter(|f| f.effect == Effect::Prefer && o.preferred_by.contains(&f.id))
            .collect();
        if !pref.is_empty() {
            out.push(format!(
                "{} is preferred by {} but infeasible: {}.",
                o.tier_id,
                pref.iter()
                    .map(|f| f.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                o.infeasible_reason.as_deref().unwrap_or("?")
            ));
        }
    }
    out
}
