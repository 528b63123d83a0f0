//! From rows to series: one [`Series`] per (`Entity`, `Name`) in order of first appearance, its
//! measure from the PowerCLI name table and the vSAN labels, its values scaled by the `Unit`
//! column as each row is read, and its times read at the end, over the whole file in one date
//! order (from each distinct `Time` text, kept once, and one small sample record per row).

use std::collections::HashMap;

use chrono::NaiveDateTime;

use super::{api_label, truncated, Options, Row, POWERCLI_NAMES, SECTION};
use crate::disk::{resolve_stamps, DateOrder, Stamp};
use crate::entity::{vsan_label, EntityLog, Measure, Series, SkippedLine};
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

/// One data row, once its value is in its series: what the times need at the end.
struct Sample {
    /// Index of its series.
    series: usize,
    /// Index of its `Time` text in [`Builder::stamp_text`].
    stamp: usize,
    /// Its 1-based line.
    line: usize,
}

/// The series of a file, built row by row: values go into their series at once; the `Time`
/// texts are kept once each (a file repeats every time for every metric), with one [`Sample`]
/// per row, and read at the end, when the whole file has decided the date order.
pub(super) struct Builder {
    opts: Options,
    log: EntityLog,
    /// Warnings of the layout (ignored columns, names cut short), before the dates' warnings.
    layout_warnings: Vec<String>,
    /// Warnings of the measures, after the dates' warnings.
    measure_warnings: Vec<String>,
    notes: Notes,
    index: HashMap<(String, String), usize>,
    /// Per series: the factor, decided on its first row.
    factors: Vec<f64>,
    stamps: HashMap<String, usize>,
    stamp_text: Vec<String>,
    samples: Vec<Sample>,
}

impl Builder {
    pub(super) fn new(opts: Options) -> Self {
        Builder {
            opts,
            log: EntityLog::new("powercli_csv"),
            layout_warnings: Vec::new(),
            measure_warnings: Vec::new(),
            notes: Notes::default(),
            index: HashMap::new(),
            factors: Vec::new(),
            stamps: HashMap::new(),
            stamp_text: Vec::new(),
            samples: Vec::new(),
        }
    }

    /// A warning of the layout.
    pub(super) fn warn(&mut self, w: String) {
        self.layout_warnings.push(w);
    }

    /// A line left out.
    pub(super) fn skip(&mut self, s: SkippedLine) {
        self.log.skipped.push(s);
    }

    /// One data row, in file order: its value into the series of its (`Entity`, `Name`).
    pub(super) fn row(&mut self, r: Row) {
        let key = (r.entity, r.name);
        let i = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                let (entity, name) = &key;
                let (measure, factor, raw_unit) =
                    resolve_measure(name, r.unit.as_deref(), &mut self.measure_warnings);
                if measure.is_none() {
                    self.notes.kept(view(name), name);
                }
                self.factors.push(factor);
                self.log.series.push(Series {
                    entity_type: view(name).to_string(),
                    entity: entity.clone(),
                    host: None,
                    metric: name.clone(),
                    measure,
                    raw_unit,
                    values: Vec::new(),
                    times: Vec::new(),
                    utc: false,
                    interval_s: None,
                });
                let i = self.log.series.len() - 1;
                self.index.insert(key, i);
                i
            }
        };
        self.log.series[i]
            .values
            .push(r.value.map(|v| v * self.factors[i]));
        let stamp = match self.stamps.get(r.time.as_str()) {
            Some(&k) => k,
            None => {
                self.stamp_text.push(r.time.clone());
                self.stamps.insert(r.time, self.stamp_text.len() - 1);
                self.stamp_text.len() - 1
            }
        };
        self.samples.push(Sample {
            series: i,
            stamp,
            line: r.line,
        });
    }

    /// The log: the times read over the whole file, and the warnings.
    ///
    /// # Errors
    /// No data row at all: the file holds no vSAN statistics.
    pub(super) fn finish(self) -> Result<EntityLog, ParseError> {
        let mut log = self.log;
        for w in self.layout_warnings {
            log.warn(w);
        }
        if self.samples.is_empty() {
            return Err(no_data(
                SECTION,
                "Get-VsanStat rows (Entity, Name, Time, Value)",
            ));
        }
        // Times: the whole file decides the date order.
        let stamps: Vec<Stamp> = self
            .samples
            .iter()
            .map(|r| {
                let text = self.stamp_text[r.stamp].as_str();
                Stamp {
                    timestamp: (!text.is_empty()).then_some(text),
                    time: None,
                    summary: false,
                    line: r.line,
                }
            })
            .collect();
        let t = resolve_stamps(None, &stamps, self.opts.date_order);
        drop(stamps);
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
        for w in self.measure_warnings {
            log.warn(w);
        }
        let times: Vec<Option<NaiveDateTime>> = t.times;
        for (r, time) in self.samples.iter().zip(times) {
            log.series[r.series].times.push(time);
        }
        self.notes.finish(&mut log);
        Ok(log)
    }
}

/// The view of a PowerCLI name: the part before its first `.`.
fn view(name: &str) -> &str {
    name.split_once('.').map_or(name, |(v, _)| v)
}

/// (measure, factor, raw unit) of a series, from the `Name` and `Unit` of its first row; a
/// warning goes into `warnings`.
fn resolve_measure(
    name: &str,
    unit: Option<&str>,
    warnings: &mut Vec<String>,
) -> (Option<Measure>, f64, String) {
    let label = if truncated(name) {
        let p = name.trim_end_matches('…').trim_end_matches("...");
        let hits: Vec<&(&str, &str)> = POWERCLI_NAMES
            .iter()
            .filter(|(n, _)| n.len() >= p.len() && n[..p.len()].eq_ignore_ascii_case(p))
            .collect();
        match hits.as_slice() {
            [(_, l)] => Some(*l),
            [] => None,
            _ => {
                warnings.push(format!(
                    "`{name}` matches {} PowerCLI names: kept unnormalised",
                    hits.len()
                ));
                Some("")
            }
        }
    } else {
        api_label(name)
    };
    let api = label.filter(|l| !l.is_empty()).and_then(vsan_label);
    let printed = unit.map(str::trim).unwrap_or("");
    let Some((m, api_factor, api_unit)) = api else {
        return (None, 1.0, printed.to_string());
    };
    // No `Unit` column (the table view), or an empty cell: the API unit.
    if printed.is_empty() {
        return (Some(m), api_factor, api_unit.to_string());
    }
    match unit_factor(m, printed) {
        Some(f) => (Some(m), f, printed.to_string()),
        None => {
            warnings.push(format!(
                "`{name}`: unit `{printed}` is not understood for {} (in {}): kept unnormalised",
                m.unit(),
                label.unwrap_or("")
            ));
            (None, 1.0, printed.to_string())
        }
    }
}
