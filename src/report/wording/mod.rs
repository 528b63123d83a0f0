//! Words for the typed findings of the rules, one wording for every renderer.
//!
//! The rules return values ([`crate::rules::findings`]); this module turns each into the
//! sentence a reader sees. The Markdown renderer calls the `Display` impls; the JSON renderer
//! serializes the same findings as the same strings (the `Serialize` impls here), so both
//! formats always say the same thing.

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::report::fmt::{fmt_num, fmt_trim};
use crate::rules::findings::{
    CostNote, DrivesSetBy, Explanation, FalseCondition, FlashVsHdd, Grade, LatencyRisk, Lost,
    LostBecause, MessagePart, NotAppliedBecause, Note, RuleMessage, RuleNotApplied,
};
use crate::rules::grade::{BasisFigure, CardNote, GradeBasis, LogWriteSize};
use crate::rules::{NotEvaluatedRule, OptionNote, Unit};

/// The words of `v`, or `missing` when there is none.
fn or_text(v: Option<&impl Display>, missing: &str) -> String {
    v.map_or_else(|| missing.to_string(), |v| v.to_string())
}

/// `$1,234.56/month`.
fn usd(x: f64) -> String {
    format!("${}/month", fmt_num(x, 2))
}

/// `drive` or `volume`.
pub(crate) fn unit_name(u: Unit) -> &'static str {
    match u {
        Unit::Drive => "drive",
        Unit::Volume => "volume",
    }
}

/// `3 drives`, `1 volume`.
fn units(count: u32, unit: Unit) -> String {
    format!(
        "{} {}{}",
        fmt_num(f64::from(count), 0),
        unit_name(unit),
        if count == 1 { "" } else { "s" }
    )
}

/// Serializes a finding as its words.
macro_rules! serialize_as_words {
    ($($t:ty),*) => {$(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
    )*};
}
serialize_as_words!(
    Grade,
    Explanation,
    LostBecause,
    CostNote,
    RuleMessage,
    FalseCondition,
    RuleNotApplied,
    OptionNote,
    Note,
    GradeBasis,
    CardNote,
    DrivesSetBy
);

pub(crate) mod cpu;
mod exadata;
mod host;
pub(crate) mod precision;
mod sizing;

pub(crate) use host::HostLine;

/// A histogram edge in ms: whole numbers without decimals (`8`), others as printed (`0.5`).
fn fmt_ms(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Display for GradeBasis {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some((lo, hi)) = self.p95_ms {
            if hi.is_finite() {
                write!(
                    f,
                    "p95 between {} and {} ms from the Wait Event Histogram (graded); ",
                    fmt_ms(lo),
                    fmt_ms(hi)
                )?;
            } else {
                write!(
                    f,
                    "p95 above {} ms from the Wait Event Histogram (graded); ",
                    fmt_ms(lo)
                )?;
            }
        }
        match &self.figure {
            BasisFigure::NotThisScale { avg_log_write_kib } => write!(
                f,
                "not this scale: the average log write is {} KiB",
                fmt_num(*avg_log_write_kib, 1)
            )?,
            BasisFigure::NotMeasured => f.write_str("not measured")?,
            BasisFigure::Given(b) => f.write_str(b)?,
            BasisFigure::WaitEvent {
                measured_by,
                event,
                waits,
                bounds,
            } => {
                let named = match measured_by.as_str() {
                    "single_block_read_ms" => "db file sequential read",
                    "large_read_ms" => "db file scattered read",
                    "log_write_ms" => "log file parallel write",
                    "direct_path_read_ms" => "direct path read",
                    "smart_scan_ms" => "cell smart table scan",
                    _ => "",
                };
                write!(f, "average '{}' wait", event.as_deref().unwrap_or(named))?;
                if let Some(n) = waits {
                    write!(f, " over {} waits", fmt_num(*n, 0))?;
                }
                if let Some(b) = bounds {
                    write!(f, "{}", precision::BoundsClause(b, self.p95_ms.is_none()))?;
                }
            }
        }
        match self.log_write {
            Some(LogWriteSize::Kib(k)) => write!(f, ", average log write {} KiB", fmt_num(k, 1))?,
            Some(LogWriteSize::Unknown) => {
                f.write_str("; log write size unknown: graded on both scales")?
            }
            None => {}
        }
        if let Some(floor) = self.from_cache_below_ms {
            write!(
                f,
                "; served from cache, not storage: the average is below the {} ms storage floor (policy: faster than the catalogued storage serves an IO), so tiers are not graded against it",
                fmt_trim(floor)
            )?;
        }
        Ok(())
    }
}

impl Display for CardNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            CardNote::P95Grades => f.write_str("grades are for 95th-percentile latency: where the report prints a Wait Event Histogram the p95 lies between two bucket edges and the grade spans the letters between them; otherwise the average is graded, which is at most its p95, so the grade is the best the p95 could earn. A tier is graded on the worst latency its published class allows (catalogue latency_ms) and compared with the best grade today's p95 can have"),
        }
    }
}

impl Display for Note {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Note::HeadroomIgnored { given, default_pct } => write!(
                f,
                "headroom {given} % ignored (must be a finite number >= 0); default {} % used",
                fmt_trim(*default_pct)
            ),
            Note::NotFiniteNonNegative { name, value } => write!(
                f,
                "{name} = {value} is not a finite non-negative number: taken as unknown"
            ),
            Note::SplitUnknownAllWrites => f.write_str(
                "read/write split unknown (read_iops + write_iops unknown or 0): all required IOPS treated as writes (worst case for RAID)",
            ),
            Note::ThroughputUnknown {
                read_known: false,
                write_known: false,
            } => f.write_str("throughput unknown: tiers checked on IOPS only"),
            Note::ThroughputUnknown {
                read_known,
                write_known: _,
            } => write!(
                f,
                "{} throughput unknown: tiers checked on IOPS and {} throughput only (a lower bound of the throughput needed)",
                if *read_known { "write" } else { "read" },
                if *read_known { "read" } else { "write" },
            ),
            Note::RequiredAboveReadWrite {
                required,
                read_write,
                decimals,
            } => {
                let d = *decimals as usize;
                write!(
                    f,
                    "required IOPS {} exceed read + write {} by {}: the difference (a formula term such as redo writes) is counted as writes",
                    fmt_num(*required, d),
                    fmt_num(*read_write, d),
                    fmt_num(required - read_write, d)
                )
            }
            Note::RequiredBelowReadWrite {
                required,
                read_write,
                decimals,
                factor,
            } => {
                let d = *decimals as usize;
                write!(
                    f,
                    "required IOPS {} are below read + write {}: reads and writes scaled by {factor:.4} for the RAID back-end",
                    fmt_num(*required, d),
                    fmt_num(*read_write, d)
                )
            }
            Note::CapacityIgnored { given } => {
                write!(f, "capacity_gib = {given} ignored (not a positive number)")
            }
            Note::CapacityNotGiven => {
                f.write_str("capacity not given: sizes are the minimum for IOPS and throughput")
            }
            Note::UnknownPlatform { given, known } => write!(
                f,
                "unknown platform \"{given}\" ignored (known: {})",
                known.join(", ")
            ),
            Note::InstanceOtherPlatform { instance, platform } => write!(
                f,
                "instance {instance} caps {platform} volumes, and {platform} is not among the targets: it changes nothing here"
            ),
            Note::UnknownInstance { given, known } => write!(
                f,
                "instance \"{given}\" is not in the catalogue ([[instance]]); no instance cap applied (known: {})",
                known.join(", ")
            ),
        }
    }
}

impl Display for Grade {
    /// `B`, or `B to D` for a span.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.best == self.worst {
            f.write_str(&self.best)
        } else {
            write!(f, "{} to {}", self.best, self.worst)
        }
    }
}

impl Display for OptionNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            OptionNote::Catalogue(t) => f.write_str(t),
            OptionNote::Sizing(n) => n.fmt(f),
            OptionNote::RuleNotApplied(n) => n.fmt(f),
        }
    }
}

impl Serialize for NotEvaluatedRule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("NotEvaluatedRule", 3)?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("reason", &not_evaluated_reason(&self.unknown_metrics))?;
        st.serialize_field("unknown_metrics", &self.unknown_metrics)?;
        st.end()
    }
}

impl Display for LatencyRisk {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let worse: Vec<String> = self
            .worse
            .iter()
            .map(|(test, grade, today)| format!("{test} could grade {grade} ({today} today)"))
            .collect();
        write!(
            f,
            "at the up to {} ms its published class allows: {}",
            fmt_num(self.tier_ms, if self.tier_ms < 1.0 { 2 } else { 0 }),
            worse.join(", ")
        )
    }
}

impl Display for CostNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            CostNote::OnpremArray => f.write_str("no public list price for on-premises arrays"),
            CostNote::Catalogue(why) => f.write_str(why),
            CostNote::RowUnpriced { row } => {
                write!(f, "no list price for size {row} in the catalogue")
            }
            CostNote::NotInCatalogue => f.write_str("no list price in the catalogue"),
        }
    }
}

impl Display for RuleNotApplied {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.why {
            NotAppliedBecause::OverMaxUnits {
                count,
                unit,
                max_units,
            } => write!(
                f,
                "rule {} not applied: needs {}, more than its max_units {max_units}",
                self.rule,
                units(*count, *unit),
            ),
            NotAppliedBecause::Infeasible(Some(why)) => write!(
                f,
                "rule {} not applied: the tier does not meet the demand ({why})",
                self.rule
            ),
            NotAppliedBecause::Infeasible(None) => write!(
                f,
                "rule {} not applied: the tier does not meet the demand",
                self.rule
            ),
        }
    }
}

impl Display for RuleMessage {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for p in &self.0 {
            match p {
                MessagePart::Text(t) => f.write_str(t)?,
                MessagePart::Number {
                    value,
                    decimals: Some(d),
                } => f.write_str(&fmt_num(*value, *d))?,
                MessagePart::Number {
                    value,
                    decimals: None,
                } => f.write_str(&fmt_trim(*value))?,
                MessagePart::Count(n) => write!(f, "{n}")?,
                MessagePart::Unknown => f.write_str("unknown")?,
                MessagePart::Missing => f.write_str("?")?,
            }
        }
        Ok(())
    }
}

impl Display for FalseCondition {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} is not {} {}",
            self.metric.as_str(),
            fmt_num(self.value, 2),
            self.op.as_str(),
            fmt_trim(self.threshold)
        )
    }
}

/// `cache_hit_pct unknown, log_write_ms unknown`: the reason a rule was not evaluated.
pub fn not_evaluated_reason(unknown_metrics: &[String]) -> String {
    unknown_metrics
        .iter()
        .map(|u| format!("{u} unknown"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Display for LostBecause {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            LostBecause::Infeasible(r) => write!(
                f,
                "not feasible: {}",
                or_text(r.as_ref(), "limits exceeded")
            ),
            LostBecause::Ranked(parts) => {
                let words: Vec<String> = parts.iter().map(lost_words).collect();
                f.write_str(&words.join("; "))
            }
        }
    }
}

fn lost_words(l: &Lost) -> String {
    match l {
        Lost::UnpricedAgainstPriced { higher_score } => format!(
            "no list price in the catalogue, so it cannot be costed against priced tiers{}",
            match higher_score {
                Some((score, rules)) => format!(
                    " (its rule score {score:+} is higher: {})",
                    rules.join(", ")
                ),
                None => String::new(),
            }
        ),
        Lost::RuleScore {
            score,
            winner_score,
            winner_preferred,
            avoided_by,
        } => {
            let mut why = format!("rule score {score:+} < {winner_score:+}");
            if let Some((tier, rules)) = winner_preferred {
                why.push_str(&format!(" (`{tier}` preferred by {})", rules.join(", ")));
            }
            if !avoided_by.is_empty() {
                why.push_str(&format!(" (avoided by {})", avoided_by.join(", ")));
            }
            why
        }
        Lost::CostsMore { usd: x, winner_usd } => format!(
            "costs {} more ({} vs {})",
            usd(x - winner_usd),
            usd(*x),
            usd(*winner_usd)
        ),
        Lost::CheaperButRanked { usd: x, winner_usd } => format!(
            "{} cheaper ({} vs {}), but ranked lower by rule",
            usd(winner_usd - x),
            usd(*x),
            usd(*winner_usd)
        ),
        Lost::SameCostMoreUnits {
            count,
            winner_count,
        } => format!("same cost, more units ({count} vs {winner_count})"),
        Lost::SameCostCatalogueOrder => "same cost; catalogue order".to_string(),
        Lost::UnpricedRanksAfter => {
            "no list price in the catalogue, so it ranks after every priced tier".to_string()
        }
        Lost::MoreUnits {
            count,
            winner_count,
        } => format!("needs more units ({count} vs {winner_count})"),
        Lost::MoreRawCapacity { gib, winner_gib } => format!(
            "no list prices: same unit count, more raw capacity ({} vs {} GiB)",
            fmt_num(*gib, 0),
            fmt_num(*winner_gib, 0)
        ),
        Lost::UnpricedCatalogueOrder => "no list price to compare; catalogue order".to_string(),
        Lost::Latency(r) => r.to_string(),
    }
}

fn flash_words(x: &FlashVsHdd) -> String {
    let claim = format!(
        "the published claim is one flash drive ≈ the IOPS of {} 15K drives at {} % less power per IO ({})",
        fmt_trim(x.flash_iops_in_hdd_drives),
        fmt_trim(x.power_saving_per_io_pct),
        x.source
    );
    if x.hdd_drives <= x.flash_drives {
        return format!(
            "Flash vs 15K for the same load: `{}` needs {} drives and `{}` {} drives ({} and {} for the IOPS alone): the load is too small for the drive count to differ (RAID minimums or capacity set both); {claim}.",
            x.flash_tier,
            fmt_num(f64::from(x.flash_drives), 0),
            x.hdd_tier,
            fmt_num(f64::from(x.hdd_drives), 0),
            fmt_num(f64::from(x.flash_for_iops), 0),
            fmt_num(f64::from(x.hdd_for_iops), 0)
        );
    }
    let ratio = f64::from(x.hdd_drives) / f64::from(x.flash_drives.max(1));
    format!(
        "Flash vs 15K for the same load: `{}` needs {} drives, `{}` {} drives: {} more drive slots ({}× the drives) for 15K; {claim}.",
        x.flash_tier,
        fmt_num(f64::from(x.flash_drives), 0),
        x.hdd_tier,
        fmt_num(f64::from(x.hdd_drives), 0),
        fmt_num(f64::from(x.hdd_drives - x.flash_drives), 0),
        fmt_num(ratio, 1)
    )
}

impl Display for Explanation {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let s = match self {
            Explanation::Sized {
                required_iops,
                figure_decimals,
                formula,
                headroom_pct,
                sized_iops,
                sized_mb_s,
                sized_mib_s,
            } => match (sized_mb_s, sized_mib_s) {
                (Some(mb), Some(mib)) => format!(
                    "Sized for {} IOPS ({formula}) × (1 + {} % headroom) = {} IOPS and {} MB/s = {} MiB/s (1 MB = 10^6 B, 1 MiB = 2^20 B).",
                    fmt_num(*required_iops, *figure_decimals as usize),
                    fmt_trim(*headroom_pct),
                    fmt_num(*sized_iops, 2),
                    fmt_num(*mb, 2),
                    fmt_num(*mib, 2)
                ),
                _ => format!(
                    "Sized for {} IOPS ({formula}) × (1 + {} % headroom) = {} IOPS; throughput unknown: tiers checked on IOPS only.",
                    fmt_num(*required_iops, *figure_decimals as usize),
                    fmt_trim(*headroom_pct),
                    fmt_num(*sized_iops, 2),
                ),
            },
            Explanation::ForPlatform {
                platform,
                explanation,
            } => format!("{platform}: {explanation}"),
            Explanation::NoTierFeasible { reasons } => {
                let mut s = String::from("no tier is feasible");
                for (ids, r) in reasons {
                    s.push_str(&format!("; {}: {}", ids.join(", "), or_text(r.as_ref(), "?")));
                }
                s
            }
            Explanation::Recommended {
                tier_id,
                name,
                count,
                unit,
                total_gib,
                monthly_cost_usd,
            } => format!(
                "{tier_id} ({name}) recommended: {}, {} GiB, {}.",
                units(*count, *unit),
                fmt_num(*total_gib, 0),
                monthly_cost_usd
                    .map(usd)
                    .unwrap_or_else(|| "no list price".to_string())
            ),
            Explanation::PreferredByRules { rules, score } => format!(
                "Preferred by rule {} (score {score:+}); rule preferences are applied before cost and unit count.",
                rules.join(", ")
            ),
            Explanation::ChosenDespiteAvoid { rules } => format!(
                "Recommended although rule {} counts against it (see its message under the rules): no feasible priced tier scores higher.",
                rules.join(", ")
            ),
            Explanation::NoRulePreference => {
                "No rule prefers one feasible tier over another.".to_string()
            }
            Explanation::RulePreferenceNotApplied { skipped } => format!(
                "No rule preference applies: {}.",
                skipped
                    .iter()
                    .map(|(n, tier)| format!("{n} ({tier})"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Explanation::HighestRuleScore { score } => {
                format!("It has the highest rule score among feasible tiers ({score:+}).")
            }
            Explanation::Cheapest => "It is the cheapest feasible tier.".to_string(),
            Explanation::CheaperExists {
                tier_id,
                cheapest_usd,
                more_usd,
            } => format!(
                "The cheapest feasible tier is {tier_id} at {}; the recommendation costs {} more.",
                usd(*cheapest_usd),
                usd(*more_usd)
            ),
            Explanation::UnpricedWinner {
                cost_note,
                tier_id,
                cheapest_usd,
            } => format!(
                "It has no list price in the catalogue ({}); the cheapest priced feasible tier is {tier_id} at {}.",
                cost_note
                    .as_ref()
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "no price".to_string()),
                usd(*cheapest_usd)
            ),
            Explanation::FewestUnitsWins {
                count,
                unit,
                total_gib,
            } => format!(
                "No public list prices, so among equally scored tiers the one with the fewest units wins ({}), then the least raw capacity ({} GiB).",
                units(*count, *unit),
                fmt_num(*total_gib, 0)
            ),
            Explanation::NoListPrice => "No public list price for this tier.".to_string(),
            Explanation::PreferredButInfeasible {
                tier_id,
                rules,
                reason,
            } => format!(
                "{tier_id} is preferred by {} but infeasible: {}.",
                rules.join(", "),
                or_text(reason.as_ref(), "?")
            ),
            Explanation::LatencyRisk {
                tier_id,
                risk,
                keeps,
            } => {
                let mut s = format!("Latency: `{tier_id}` may be slower than today's storage: {risk}");
                match keeps {
                    Some(k) => s.push_str(&format!(
                        "; `{}` (up to {} ms, {}) keeps today's grades",
                        k.tier_id,
                        fmt_trim(k.latency_ms),
                        k.monthly_cost_usd
                            .map(usd)
                            .unwrap_or_else(|| "no list price".to_string())
                    )),
                    None => {
                        s.push_str("; no feasible tier of this platform keeps today's grades")
                    }
                }
                s.push('.');
                s
            }
            Explanation::LatencyKept { latency_ms } => format!(
                "Latency: even at the up to {} ms its published class allows, it keeps every measured grade of the IO report card.",
                fmt_trim(*latency_ms)
            ),
            Explanation::FlashVsHdd(x) => flash_words(x),
            Explanation::NoHostTypeFits {
                platform,
                sized_iops,
                sized_mb_s,
            } => format!(
                "No catalogued {platform} host type drives {} IOPS and {} MB/s; add yours as an [[instance]] in a --rules copy.",
                fmt_num(*sized_iops, 0),
                fmt_num(*sized_mb_s, 2)
            ),
            Explanation::HostTypeTooSmall {
                instance,
                sized_iops,
                sized_mb_s,
                fits,
            } => format!(
                "{instance} cannot drive {} IOPS and {} MB/s; the smallest catalogued host types that can (one per family): {}.",
                fmt_num(*sized_iops, 0),
                fmt_num(*sized_mb_s, 2),
                fits.iter()
                    .map(|(id, iops, mb)| format!(
                        "{id} ({} IOPS, {} MB/s)",
                        fmt_num(*iops, 0),
                        fmt_num(*mb, 2)
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        f.write_str(&s)
    }
}

#[cfg(test)]
#[path = "../tests_wording.rs"]
mod tests;
