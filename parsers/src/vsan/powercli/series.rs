//! From rows to series: one [`Series`] per (`Entity`, `Name`) in order of first appearance, its
//! measure from the PowerCLI name table and the vSAN labels, its values scaled by the `Unit`
//! column, and its times read over the whole file in one date order.

use std::collections::HashMap;

use chrono::NaiveDateTime;

use super::{api_label, truncated, Options, Row, Rows, POWERCLI_NAMES, SECTION};
use crate::disk::{resolve_stamps, DateOrder, Stamp};
use crate::entity::{vsan_label, EntityLog, Measure, Series};
use crate::error::ParseError;
use crate::vsan::{no_data, Notes};

/// Factor from a printed `Unit` to the measure's unit, or `None` when the unit is not understood
/// or does not fit the measure.
pub(super) fn unit_factor(measure: Measure, unit: &str) -> Option<f64> {
    let u: String = unit
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let target = measure.unit();
    let f = match u.as_str() {
        "microseconds" | "microsecond" | "us" | "µs" => ("ms", 0.001),
        "milliseconds" | "millisecond" | "ms" => ("ms", 1.0),
        "seconds" | "second" | "s" => ("ms", 1000.0),
        "nanoseconds" | "nanosecond" | "ns" => ("ms", 1e-6),
        "%" | "percent" | "percentage" => ("%", 1.0),
        "bytes/s" | "b/s" | "bytespersecond" | "bytes/sec" | "bytes/second" => ("B/s", 1.0),
        "bytes" | "byte" | "b" => ("B", 1.0),
        "iops" | "io/s" | "number" | "count" => {
            return (target == "IOPS" || target == "count").then_some(1.0)
        }
        _ => return None,
    };
    (f.0 == target).then_some(f.1)
}

pub(super) fn build(rows: Rows, opts: Options) -> Result<EntityLog, ParseError> {
    let mut log = EntityLog::new("powercli_csv");
    for w in rows.warnings {
        log.warn(w);
    }
    log.skipped = rows.skipped;
    if rows.rows.is_empty() {
        return Err(no_data(
            SECTION,
            "Get-VsanStat rows (Entity, Name, Time, Value)",
        ));
    }
    // Times: the whole file decides the date order.
    let stamps: Vec<Stamp> = rows
        .rows
        .iter()
        .map(|r| Stamp {
            timestamp: (!r.time.is_empty()).then_some(r.time.as_str()),
            time: None,
            summary: false,
            line: r.line,
        })
        .collect();
    let t = resolve_stamps(None, &stamps, opts.date_order);
    if t.ambiguous {
        log.warn(
            "every date reads both month-first and day-first: read month first (en-US); set \
             the session culture's date order if it was day-first",
        );
    } else if t.inferred {
        log.warn(format!(
            "dates fit both orders: read {} because the times then run forward in the \
             smallest steps",
            match t.order {
                Some(DateOrder::Dmy) => "day first",
                _ => "month first",
            }
        ));
    }
    if let Some((line, text)) = t.unreadable.first() {
        log.warn(format!(
            "{} time(s) cannot be read (first: line {line}, `{text}`): kept as missing times",
            t.unreadable.len()
        ));
    }
    let times: Vec<Option<NaiveDateTime>> = t.times;

    let mut notes = Notes::default();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    // Per series: the factor, decided on its first row.
    let mut factors: Vec<f64> = Vec::new();
    for (r, time) in rows.rows.iter().zip(times) {
        let key = (r.entity.clone(), r.name.clone());
        let i = match index.get(&key) {
            Some(&i) => i,
            None => {
                let (measure, factor, raw_unit) = resolve_measure(r, rows.has_unit, &mut log);
                if measure.is_none() {
                    notes.kept(view(&r.name), &r.name);
                }
                index.insert(key, log.series.len());
                factors.push(factor);
                log.series.push(Series {
                    entity_type: view(&r.name).to_string(),
                    entity: r.entity.clone(),
                    host: None,
                    metric: r.name.clone(),
                    measure,
                    raw_unit,
                    values: Vec::new(),
                    times: Vec::new(),
                    utc: false,
                    interval_s: None,
                });
                log.series.len() - 1
            }
        };
        let s = &mut log.series[i];
        s.values.push(r.value.map(|v| v * factors[i]));
        s.times.push(time);
    }
    notes.finish(&mut log);
    Ok(log)
}

/// The view of a PowerCLI name: the part before its first `.`.
fn view(name: &str) -> &str {
    name.split_once('.').map_or(name, |(v, _)| v)
}

/// (measure, factor, raw unit) of a series, from its first row.
fn resolve_measure(r: &Row, has_unit: bool, log: &mut EntityLog) -> (Option<Measure>, f64, String) {
    let label = if truncated(&r.name) {
        let p = r.name.trim_end_matches('…').trim_end_matches("...");
        let hits: Vec<&(&str, &str)> = POWERCLI_NAMES
            .iter()
            .filter(|(n, _)| n.len() >= p.len() && n[..p.len()].eq_ignore_ascii_case(p))
            .collect();
        match hits.as_slice() {
            [(_, l)] => Some(*l),
            [] => None,
            _ => {
                log.warn(format!(
                    "`{}` matches {} PowerCLI names: kept unnormalised",
                    r.name,
                    hits.len()
                ));
                Some("")
            }
        }
    } else {
        api_label(&r.name)
    };
    let api = label.filter(|l| !l.is_empty()).and_then(vsan_label);
    let printed = r.unit.as_deref().map(str::trim).unwrap_or("");
    let Some((m, api_factor, api_unit)) = api else {
        return (None, 1.0, printed.to_string());
    };
    if !has_unit || printed.is_empty() {
        return (Some(m), api_factor, api_unit.to_string());
    }
    match unit_factor(m, printed) {
        Some(f) => (Some(m), f, printed.to_string()),
        None => {
            log.warn(format!(
                "`{}`: unit `{printed}` is not understood for {} (in {}): kept unnormalised",
                r.name,
                m.unit(),
                label.unwrap_or("")
            ));
            (None, 1.0, printed.to_string())
        }
    }
}
