//! Rule evaluation: metric values, three-valued conditions, message templates
//! and number formatting.

use super::metric::Metric;
use super::num::{fmt_num, fmt_trim};
use super::schema::Rule;
use super::template::{parse_template, Fmt, Piece};
use super::{Demand, FiredRule, NotEvaluatedRule, NotFiredRule};

/// Values of every [`Metric`] for one demand and headroom; `None` = unknown.
#[derive(Debug, Clone)]
pub(crate) struct Values {
    vals: [Option<f64>; Metric::ALL.len()],
}

/// A value is usable when it is present and finite.
fn known(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite())
}

impl Values {
    pub(crate) fn new(d: &Demand, headroom_pct: f64) -> Values {
        let k = 1.0 + headroom_pct / 100.0;
        let total_mb_s = d.read_mb_s + d.write_mb_s;
        let rw = d.read_iops + d.write_iops;
        let mut vals = [None; Metric::ALL.len()];
        for (i, m) in Metric::ALL.iter().enumerate() {
            vals[i] = known(match m {
                Metric::RequiredIops => Some(d.required_iops),
                Metric::SizedIops => Some(d.required_iops * k),
                Metric::ReadIops => Some(d.read_iops),
                Metric::WriteIops => Some(d.write_iops),
                Metric::ReadMbS => Some(d.read_mb_s),
                Metric::WriteMbS => Some(d.write_mb_s),
                Metric::TotalMbS => Some(total_mb_s),
                Metric::SizedMbS => Some(total_mb_s * k),
                Metric::WriteShare => (rw > 0.0).then(|| d.write_iops / rw),
                Metric::AvgReadKib => d.avg_read_kib,
                Metric::AvgWriteKib => d.avg_write_kib,
                Metric::SmallReadShare => d.small_read_share,
                Metric::CacheHitPct => d.cache_hit_pct,
                Metric::DirectReadShare => d.direct_read_share,
                Metric::SingleBlockReadMs => d.single_block_read_ms,
                Metric::LogWriteMs => d.log_write_ms,
                Metric::CapacityGib => d.capacity_gib,
                Metric::WindowMinutes => d.window_minutes,
            });
        }
        Values { vals }
    }

    pub(crate) fn get(&self, m: Metric) -> Option<f64> {
        let i = Metric::ALL.iter().position(|x| *x == m).unwrap_or(0);
        self.vals[i]
    }
}

/// Result of evaluating one rule.
#[derive(Debug, Clone)]
pub(crate) enum Outcome {
    Fired(FiredRule),
    NotFired(NotFiredRule),
    NotEvaluated(NotEvaluatedRule),
}

/// Evaluate `rule`: every condition true → fired; any known condition false →
/// not fired (unknown metrics then do not matter); otherwise (all known ones
/// true, some unknown) → not evaluated.
pub(crate) fn evaluate(rule: &Rule, values: &Values) -> Outcome {
    let mut unknown: Vec<String> = Vec::new();
    for c in &rule.when {
        match values.get(c.metric) {
            None => {
                if !unknown.iter().any(|u| u == c.metric.as_str()) {
                    unknown.push(c.metric.as_str().to_string());
                }
            }
            Some(v) if !c.op.holds(v, c.value) => {
                return Outcome::NotFired(NotFiredRule {
                    id: rule.id.clone(),
                    reason: format!(
                        "{} = {} is not {} {}",
                        c.metric.as_str(),
                        fmt_num(v, 2),
                        c.op.as_str(),
                        fmt_trim(c.value)
                    ),
                });
            }
            Some(_) => {}
        }
    }
    if !unknown.is_empty() {
        let reason = unknown
            .iter()
            .map(|u| format!("{u} unknown"))
            .collect::<Vec<_>>()
            .join(", ");
        return Outcome::NotEvaluated(NotEvaluatedRule {
            id: rule.id.clone(),
            reason,
            unknown_metrics: unknown,
        });
    }
    Outcome::Fired(FiredRule {
        id: rule.id.clone(),
        effect: rule.effect,
        targets: rule.targets.clone(),
        weight: if rule.effect.reports_only() {
            0
        } else {
            rule.weight
        },
        max_units: rule.max_units,
        message: render(rule, values),
        source: rule.source.clone(),
    })
}

/// Render the rule's message with the actual values.
pub(crate) fn render(rule: &Rule, values: &Values) -> String {
    let Ok(pieces) = parse_template(&rule.message) else {
        return rule.message.clone(); // validated at load; kept verbatim otherwise
    };
    let mut s = String::new();
    for p in pieces {
        match p {
            Piece::Lit(t) => s.push_str(t),
            Piece::Metric(m, f) => match values.get(m) {
                Some(v) => s.push_str(&fmt_with(v, f, 2)),
                None => s.push_str("unknown"),
            },
            Piece::When(i, f) => match rule.when.get(i) {
                Some(c) if f.decimals.is_none() && !f.percent => s.push_str(&fmt_trim(c.value)),
                Some(c) => s.push_str(&fmt_with(c.value, f, 0)),
                None => s.push('?'),
            },
            Piece::MaxUnits => match rule.max_units {
                Some(n) => s.push_str(&n.to_string()),
                None => s.push('?'),
            },
        }
    }
    s
}

fn fmt_with(v: f64, f: Fmt, default_decimals: usize) -> String {
    let v = if f.percent { v * 100.0 } else { v };
    let d = f
        .decimals
        .unwrap_or(if f.percent { 0 } else { default_decimals });
    fmt_num(v, d)
}
