//! Rule evaluation: metric values, three-valued conditions, message templates
//! and number formatting.

use super::findings::{FalseCondition, MessagePart, RuleMessage};
use super::metric::Metric;
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
        let total_mb_s = d.read_mb_s.zip(d.write_mb_s).map(|(r, w)| r + w);
        let rw = d.read_iops.zip(d.write_iops).map(|(r, w)| r + w);
        let mut vals = [None; Metric::ALL.len()];
        for (i, m) in Metric::ALL.iter().enumerate() {
            vals[i] = known(match m {
                Metric::RequiredIops => d.required_iops,
                Metric::SizedIops => d.required_iops.map(|r| r * k),
                Metric::ReadIops => d.read_iops,
                Metric::WriteIops => d.write_iops,
                Metric::ReadMbS => d.read_mb_s,
                Metric::WriteMbS => d.write_mb_s,
                Metric::TotalMbS => total_mb_s,
                Metric::SizedMbS => total_mb_s.map(|t| t * k),
                Metric::WriteShare => match (rw, d.write_iops) {
                    (Some(rw), Some(w)) if rw > 0.0 => Some(w / rw),
                    _ => None,
                },
                Metric::AvgReadKib => d.avg_read_kib,
                Metric::AvgWriteKib => d.avg_write_kib,
                Metric::SmallReadShare => d.small_read_share,
                Metric::CacheHitPct => d.cache_hit_pct,
                Metric::DirectReadShare => d.direct_read_share,
                Metric::SingleBlockReadMs => d.single_block_read_ms,
                Metric::LogWriteMs => d.log_write_ms,
                Metric::CapacityGib => d.capacity_gib,
                Metric::WindowMinutes => d.window_minutes,
                Metric::HostCpuBusyPct => d.host_cpu_busy_pct,
                Metric::HostCpuIowaitPct => d.host_cpu_iowait_pct,
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
                    reason: FalseCondition {
                        metric: c.metric,
                        value: v,
                        op: c.op,
                        threshold: c.value,
                    },
                });
            }
            Some(_) => {}
        }
    }
    if !unknown.is_empty() {
        return Outcome::NotEvaluated(NotEvaluatedRule {
            id: rule.id.clone(),
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
        slower_than_measured: rule.slower_than_measured,
        message: render(rule, values),
        source: rule.source.clone(),
    })
}

/// Fill the rule's message template with the actual values.
pub(crate) fn render(rule: &Rule, values: &Values) -> RuleMessage {
    let Ok(pieces) = parse_template(&rule.message) else {
        // validated at load; kept verbatim otherwise
        return RuleMessage(vec![MessagePart::Text(rule.message.clone())]);
    };
    let mut out = Vec::new();
    for p in pieces {
        out.push(match p {
            Piece::Lit(t) => MessagePart::Text(t.to_string()),
            Piece::Metric(m, f) => match values.get(m) {
                Some(v) => number(v, f, 2),
                None => MessagePart::Unknown,
            },
            Piece::When(i, f) => match rule.when.get(i) {
                Some(c) if f.decimals.is_none() && !f.percent => MessagePart::Number {
                    value: c.value,
                    decimals: None,
                },
                Some(c) => number(c.value, f, 0),
                None => MessagePart::Missing,
            },
            Piece::MaxUnits => match rule.max_units {
                Some(n) => MessagePart::Count(n),
                None => MessagePart::Missing,
            },
        });
    }
    RuleMessage(out)
}

fn number(v: f64, f: Fmt, default_decimals: usize) -> MessagePart {
    let value = if f.percent { v * 100.0 } else { v };
    let d = f
        .decimals
        .unwrap_or(if f.percent { 0 } else { default_decimals });
    MessagePart::Number {
        value,
        decimals: Some(d),
    }
}
