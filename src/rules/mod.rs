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
//! The result is data, not prose: [`recommend`] returns a [`Recommendation`]
//! whose explanations, reasons and notes are typed [`findings`] (ids, counts,
//! GiB, USD per month, ms). The report layer (`report::wording`) words them, the
//! same words for Markdown and JSON.
//!
//! Modules: `demand` (the input), `ruleset` (loading the TOML files), `schema`
//! (their typed form and validation), `metric` and `template` (what rules test
//! and their message templates), `eval` (evaluating rules), `sizing` (one tier
//! for one workload), `grade` (the IO report card), `vsan` (vSAN policies),
//! `recommendation` (the output types) and `findings` (the typed findings).
//!
//! Units: IOPS = requests per second; MB/s = 10^6 B/s (what the demand is
//! measured in); MiB/s = 2^20 B/s (what AWS limits use); GiB = 2^30 B; drive
//! sizes in GB = 10^9 B; money in USD per month (730 h).

mod demand;
mod eval;
pub mod findings;
pub mod grade;
mod metric;
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
mod tests_cpu;
#[cfg(test)]
mod tests_hosts;
#[cfg(test)]
mod tests_onprem;
#[cfg(test)]
mod tests_tiers;
pub mod vsan;

pub use schema::{
    Catalog, CatalogMeta, CloudPolicy, CloudVolumeSpec, Condition, DriveSpec, Effect, FlashVsHdd,
    HeadroomPolicy, Instance, IopsModel, Metric, OnpremPolicy, Op, Platform, PriceBand, PriceSpec,
    RaidSpec, Rule, SizeRow, SizeTable, SizingMeta, SizingPolicy, ThroughputModel, ThroughputStep,
    Tier, TierKind, TierSpec, VolumeCountPolicy, VolumeSpec,
};

use eval::{Outcome, Values};
use findings::{
    Explanation, Infeasible, LatencyKeeper, Lost, LostBecause, NotAppliedBecause, Note,
    RuleNotApplied,
};
use sizing::Workload;

pub use demand::{AverageBounds, Demand, IopsFormula, IopsTerm, LatencyEvent};
pub use recommendation::{
    CostBreakdown, FiredRule, HostChoice, HostFit, NotEvaluatedRule, NotFiredRule, OptionNote,
    Options, PlatformRecommendation, Recommendation, TierOption, Unit,
};
pub use ruleset::{
    RuleSet, RulesError, BUILTIN_SIZING_TOML, BUILTIN_TIERS_TOML, DEFAULT_MAX_RULES_SIZE,
};

/// Size every tier of the requested platforms for `demand` and pick one per
/// platform. The algorithm is in the module docs and `docs/rules.md`.
pub fn recommend(rules: &RuleSet, demand: &Demand, opts: &Options) -> Recommendation {
    let mut notes = Vec::new();
    let default_h = rules.default_headroom_pct();
    let headroom = match opts.headroom_pct {
        Some(h) if h.is_finite() && h >= 0.0 => h,
        Some(h) => {
            notes.push(Note::HeadroomIgnored {
                given: h,
                default_pct: default_h,
            });
            default_h
        }
        None => default_h,
    };
    let dec = opts.figure_decimals.unwrap_or(2) as usize;
    let w = Workload::new(demand, headroom, dec);
    notes.extend(w.notes.iter().cloned());
    if w.capacity_gib.is_none() {
        notes.push(Note::CapacityNotGiven);
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
            let known = rules
                .catalog
                .platforms
                .iter()
                .map(|x| x.id.clone())
                .collect();
            notes.push(Note::UnknownPlatform {
                given: p.clone(),
                known,
            });
        }
    }
    let formula = opts
        .formula
        .clone()
        .unwrap_or_else(|| rules.required_iops_formula().formula());
    let mut explanation = vec![Explanation::Sized {
        required_iops: w.required_iops,
        figure_decimals: dec as u32,
        formula: formula.clone(),
        headroom_pct: headroom,
        sized_iops: w.sized_iops,
        sized_mb_s: w.throughput_known.then_some(w.sized_mb_s),
        sized_mib_s: w.throughput_known.then_some(w.sized_mib_s),
    }];
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
                notes.push(Note::InstanceOtherPlatform {
                    instance: i.id.clone(),
                    platform: i.platform.clone(),
                });
            }
        }
        if found.is_none() {
            notes.push(Note::UnknownInstance {
                given: id.to_string(),
                known: rules
                    .catalog
                    .instances
                    .iter()
                    .map(|i| i.id.clone())
                    .collect(),
            });
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
        explanation.extend(pr.explanation.iter().map(|e| Explanation::ForPlatform {
            platform: p.id.clone(),
            explanation: Box::new(e.clone()),
        }));
        platforms.push(pr);
    }

    Recommendation {
        rules_origin: rules.origin.clone(),
        catalog_as_of: rules.catalog.meta.as_of.clone(),
        headroom_pct: headroom,
        required_iops: w.required_iops,
        required_iops_formula: formula,
        sized_iops: w.sized_iops,
        sized_mb_s: w.throughput_known.then_some(w.sized_mb_s),
        sized_mib_s: w.throughput_known.then_some(w.sized_mib_s),
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
                    sizing::size_drive_array_sizes(t, drive, raid, &rules.sizing.onprem, w)
                }
                TierSpec::CloudVolume(spec) => sizing::size_cloud(
                    t,
                    spec,
                    Some((p, &rules.catalog.instances)),
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
        if let Some(risk) = grade::latency_risk(&rec.latency_check) {
            let keeps = alternatives
                .iter()
                .find(|a| !a.latency_check.is_empty() && !a.latency_check.iter().any(|g| g.worse))
                .map(|k| LatencyKeeper {
                    tier_id: k.tier_id.clone(),
                    latency_ms: k.latency_ms.unwrap_or(0.0),
                    monthly_cost_usd: k.monthly_cost_usd,
                });
            explanation.push(Explanation::LatencyRisk {
                tier_id: rec.tier_id.clone(),
                risk,
                keeps,
            });
        } else if !rec.latency_check.is_empty() {
            explanation.push(Explanation::LatencyKept {
                latency_ms: rec.latency_ms.unwrap_or(0.0),
            });
        }
    }
    for a in infeasible.iter_mut() {
        a.lost_because = Some(LostBecause::Infeasible(a.infeasible_reason.clone()));
    }
    explanation.extend(flash);
    // A host type too small for every tier: name the smallest catalogued one per family that is
    // large enough.
    if let (Some(inst), None) = (instance, &recommended) {
        let others: Vec<Instance> = rules
            .catalog
            .instances
            .iter()
            .filter(|i| i.id != inst.id)
            .cloned()
            .collect();
        let fits: Vec<(String, f64, f64)> =
            sizing::smallest_per_family(&others, &p.id, None, w.sized_iops, w.sized_mb_s)
                .into_iter()
                .filter_map(|c| c.host)
                .map(|h| (h.id, h.max_iops, h.max_mb_s))
                .collect();
        explanation.push(if fits.is_empty() {
            Explanation::NoHostTypeFits {
                platform: p.id.clone(),
                sized_iops: w.sized_iops,
                sized_mb_s: w.sized_mb_s,
            }
        } else {
            Explanation::HostTypeTooSmall {
                instance: inst.id.clone(),
                sized_iops: w.sized_iops,
                sized_mb_s: w.sized_mb_s,
                fits,
            }
        });
    }
    alternatives.extend(infeasible);
    // Every database keeps its options until the report is written: no growth slack (a `Vec`
    // grown by pushes can hold twice its length, about 16 KB per database here).
    alternatives.shrink_to_fit();
    explanation.shrink_to_fit();
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
fn lost_because(rec: &TierOption, a: &TierOption) -> LostBecause {
    let mut parts = Vec::new();
    if a.monthly_cost_usd.is_none() && rec.monthly_cost_usd.is_some() {
        parts.push(Lost::UnpricedAgainstPriced {
            higher_score: (a.rule_score > rec.rule_score)
                .then(|| (a.rule_score, a.preferred_by.clone())),
        });
        if let Some(r) = grade::latency_risk(&a.latency_check) {
            parts.push(Lost::Latency(r));
        }
        return LostBecause::Ranked(parts);
    }
    if a.rule_score < rec.rule_score {
        parts.push(Lost::RuleScore {
            score: a.rule_score,
            winner_score: rec.rule_score,
            winner_preferred: (!rec.preferred_by.is_empty())
                .then(|| (rec.tier_id.clone(), rec.preferred_by.clone())),
            avoided_by: a.avoided_by.clone(),
        });
    }
    match (a.monthly_cost_usd, rec.monthly_cost_usd) {
        (Some(x), Some(y)) if x > y + 0.005 => parts.push(Lost::CostsMore {
            usd: x,
            winner_usd: y,
        }),
        (Some(x), Some(y)) if x + 0.005 < y => parts.push(Lost::CheaperButRanked {
            usd: x,
            winner_usd: y,
        }),
        (Some(_), Some(_)) => {
            if a.count > rec.count {
                parts.push(Lost::SameCostMoreUnits {
                    count: a.count,
                    winner_count: rec.count,
                });
            } else {
                parts.push(Lost::SameCostCatalogueOrder);
            }
        }
        (None, Some(_)) => parts.push(Lost::UnpricedRanksAfter),
        (_, None) => {
            if a.count > rec.count {
                parts.push(Lost::MoreUnits {
                    count: a.count,
                    winner_count: rec.count,
                });
            } else if a.rule_score >= rec.rule_score && a.total_gib > rec.total_gib + 0.5 {
                parts.push(Lost::MoreRawCapacity {
                    gib: a.total_gib,
                    winner_gib: rec.total_gib,
                });
            } else if a.rule_score >= rec.rule_score {
                parts.push(Lost::UnpricedCatalogueOrder);
            }
        }
    }
    if let Some(r) = grade::latency_risk(&a.latency_check) {
        parts.push(Lost::Latency(r));
    }
    LostBecause::Ranked(parts)
}

/// The flash-versus-15K comparison of an on-premises platform: drive counts of the best flash
/// and best spinning option for the same load, and the published power consequence.
fn flash_vs_hdd(
    cmp: &schema::FlashVsHdd,
    rules: &RuleSet,
    feasible: &[TierOption],
) -> Option<Explanation> {
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
    Some(Explanation::FlashVsHdd(findings::FlashVsHdd {
        flash_tier: f.tier_id.clone(),
        flash_drives: f.count,
        flash_for_iops: f.drives_for_iops.unwrap_or(f.count),
        hdd_tier: h.tier_id.clone(),
        hdd_drives: h.count,
        hdd_for_iops: h.drives_for_iops.unwrap_or(h.count),
        flash_iops_in_hdd_drives: cmp.flash_iops_in_hdd_drives,
        power_saving_per_io_pct: cmp.power_saving_per_io_pct,
        source: cmp.source.clone(),
    }))
}

/// Apply fired prefer/avoid rules to one option.
fn score(tier: &Tier, o: &mut TierOption, fired: &[FiredRule]) {
    for f in fired {
        if f.effect.reports_only() || !f.targets.iter().any(|t| tier.matches(t)) {
            continue;
        }
        // A latency rule applies only where the report card says the tier could be slower.
        if f.slower_than_measured && !o.latency_check.iter().any(|g| g.worse) {
            continue;
        }
        if let Some(max) = f.max_units {
            // An infeasible option's count is no configuration: the limit that applied is the
            // one that makes it infeasible, not max_units.
            let why = if !o.feasible {
                Some(NotAppliedBecause::Infeasible(o.infeasible_reason.clone()))
            } else if o.count > max {
                Some(NotAppliedBecause::OverMaxUnits {
                    count: o.count,
                    unit: o.unit,
                    max_units: max,
                })
            } else {
                None
            };
            if let Some(why) = why {
                o.notes.push(OptionNote::RuleNotApplied(RuleNotApplied {
                    rule: f.id.clone(),
                    why,
                }));
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

/// Sentences on why `rec` won.
fn explain(
    rec: Option<&TierOption>,
    feasible: &[TierOption],
    infeasible: &[TierOption],
    fired: &[FiredRule],
) -> Vec<Explanation> {
    let mut out = Vec::new();
    let Some(rec) = rec else {
        // One clause per distinct reason, with the tiers it stops.
        let mut reasons: Vec<(Vec<String>, Option<Infeasible>)> = Vec::new();
        for o in infeasible {
            match reasons.iter_mut().find(|(_, r)| *r == o.infeasible_reason) {
                Some((ids, _)) => ids.push(o.tier_id.clone()),
                None => reasons.push((vec![o.tier_id.clone()], o.infeasible_reason.clone())),
            }
        }
        out.push(Explanation::NoTierFeasible { reasons });
        return out;
    };
    out.push(Explanation::Recommended {
        tier_id: rec.tier_id.clone(),
        name: rec.name.clone(),
        count: rec.count,
        unit: rec.unit,
        total_gib: rec.total_gib,
        monthly_cost_usd: rec.monthly_cost_usd,
    });
    if !rec.avoided_by.is_empty() {
        out.push(Explanation::ChosenDespiteAvoid {
            rules: rec.avoided_by.clone(),
        });
    }
    if rec.rule_score > 0 {
        out.push(Explanation::PreferredByRules {
            rules: rec.preferred_by.clone(),
            score: rec.rule_score,
        });
    } else if feasible.iter().all(|o| o.rule_score == rec.rule_score) {
        // A rule that fired but could not apply (max_units) must not read as "no rule".
        let skipped: Vec<(RuleNotApplied, String)> = feasible
            .iter()
            .flat_map(|o| o.notes.iter().map(move |n| (o, n)))
            .filter_map(|(o, n)| match n {
                OptionNote::RuleNotApplied(r) => Some((r.clone(), o.tier_id.clone())),
                OptionNote::Catalogue(_) | OptionNote::Sizing(_) => None,
            })
            .collect();
        if skipped.is_empty() {
            out.push(Explanation::NoRulePreference);
        } else {
            out.push(Explanation::RulePreferenceNotApplied { skipped });
        }
    } else {
        out.push(Explanation::HighestRuleScore {
            score: rec.rule_score,
        });
    }
    let cheapest = feasible
        .iter()
        .filter(|o| o.monthly_cost_usd.is_some())
        .min_by(|a, b| cost_key(a).total_cmp(&cost_key(b)));
    match (rec.monthly_cost_usd, cheapest) {
        (Some(c), Some(ch)) if ch.tier_id == rec.tier_id || cost_key(ch) >= c => {
            out.push(Explanation::Cheapest);
        }
        (Some(c), Some(ch)) => out.push(Explanation::CheaperExists {
            tier_id: ch.tier_id.clone(),
            cheapest_usd: cost_key(ch),
            more_usd: c - cost_key(ch),
        }),
        (None, Some(ch)) => out.push(Explanation::UnpricedWinner {
            cost_note: rec.cost_note.clone(),
            tier_id: ch.tier_id.clone(),
            cheapest_usd: cost_key(ch),
        }),
        (None, None) => {
            let same = feasible
                .iter()
                .filter(|o| o.rule_score == rec.rule_score)
                .count();
            if same > 1 {
                out.push(Explanation::FewestUnitsWins {
                    count: rec.count,
                    unit: rec.unit,
                    total_gib: rec.total_gib,
                });
            } else {
                out.push(Explanation::NoListPrice);
            }
        }
        (Some(_), None) => {}
    }
    // Preferred tiers that lost because they are infeasible.
    for o in infeasible {
        let pref: Vec<String> = fired
            .iter()
            .filter(|f| f.effect == Effect::Prefer && o.preferred_by.contains(&f.id))
            .map(|f| f.id.clone())
            .collect();
        if !pref.is_empty() {
            out.push(Explanation::PreferredButInfeasible {
                tier_id: o.tier_id.clone(),
                rules: pref,
                reason: o.infeasible_reason.clone(),
            });
        }
    }
    out
}
