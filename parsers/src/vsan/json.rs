//! vSAN performance query results as JSON (format id `vsan_json`).
//!
//! `VsanPerformanceManager.VsanPerfQueryPerf` returns `VsanPerfEntityMetricCSV[]`. The VI/JSON API
//! (developer.broadcom.com, "VsanPerfEntityMetricCSV", JSON example) writes each as:
//! ```text
//! {"_typeName": "VsanPerfEntityMetricCSV",
//!  "entityRefId": "cluster-domclient:52f1…",
//!  "sampleInfo": "2017-06-14 23:10:00,2017-06-14 23:15:00",
//!  "value": [{"_typeName": "VsanPerfMetricSeriesCSV",
//!             "metricId": {"label": "iopsRead", "group": …, "metricsCollectInterval": 300, …},
//!             "threshold": …, "numExceptions": …, "values": "1,2"}]}
//! ```
//! Accepted: one such object, an array of them, or any JSON document that holds them at any depth
//! (`{"returnval": [...]}`, pyVmomi's `VmomiJSONEncoder` objects with `_vimtype`, a script's own
//! wrapper). Keys are matched **case-insensitively**, so PowerShell's `ConvertTo-Json` of the
//! PowerCLI view objects (`EntityRefId`, `SampleInfo`, `Value`, `MetricId.Label`, `Values`) is
//! read too. Every object with an `entityRefId` key is one entity.
//!
//! Per entity: `entityRefId` is split at its first `:` into [`Series::entity_type`] and
//! [`Series::entity`] (`vscsi:<uuid>|vscsi0:1` → `vscsi`, `<uuid>|vscsi0:1`); `sampleInfo`'s
//! comma-separated stamps are the times (UTC, `utc: true`); each `value[]` element is one
//! [`Series`] whose `values` string is read index-aligned with the times;
//! `metricsCollectInterval` → [`Series::interval_s`]. Units and factors: see [`crate::vsan`].
//!
//! Tolerated: `value` given as a single object instead of an array; `values` given as a JSON
//! array of numbers/`null`; `metricsCollectInterval` as a string; cells `None` or empty (missing
//! samples) → `None`; an empty `sampleInfo` (telegraf issue #19099: the service returned no
//! stamps) → the series keep their values with no times, and a warning; an empty `values` string
//! → every sample `None`, warned.
//!
//! Errors: invalid JSON (with serde_json's line and column); a `values` count different from the
//! `sampleInfo` count, or a cell that is not a number, naming the entity and the metric; a
//! `metricId` that is a string (PowerShell `ConvertTo-Json` cut at its default `-Depth 2`); no
//! entity with a series at all.
//!
//! ```
//! // PowerShell `ConvertTo-Json -Depth 5` of a VsanPerfQueryPerf result.
//! let text = r#"[{"EntityRefId": "virtual-machine:502d7c3e", "SampleInfo": "2024-03-12 09:00:00",
//!   "Value": [{"MetricId": {"Label": "latencyRead", "MetricsCollectInterval": 300}, "Values": "2100"}]}]"#;
//! let log = sizer_parsers::vsan::json::parse(text).unwrap();
//! assert_eq!(log.series[0].entity_type, "virtual-machine");
//! assert_eq!(log.series[0].values, vec![Some(2.1)]); // µs → ms
//! ```
//!
//! [`Series`]: crate::entity::Series
//! [`Series::entity_type`]: crate::entity::Series::entity_type
//! [`Series::entity`]: crate::entity::Series::entity
//! [`Series::interval_s`]: crate::entity::Series::interval_s

use serde_json::{Map, Value};

use super::{head, no_data, push_metric_csv, MetricCsv, Notes, SeriesCsv, CSV_SECTION};
use crate::entity::EntityLog;
use crate::error::ParseError;

/// Section name used in errors.
const SECTION: &str = "vSAN performance query result (JSON)";

/// A JSON document (first non-blank character `{` or `[`) with an `"entityRefId"` key (any case)
/// in its first 64 KiB.
pub fn looks_like(text: &str) -> bool {
    let h = head(text).trim_start_matches('\u{feff}').trim_start();
    if !(h.starts_with('{') || h.starts_with('[')) {
        return false;
    }
    h.to_ascii_lowercase().contains("\"entityrefid\"")
}

/// Parses the JSON document.
///
/// # Errors
/// See the module doc.
pub fn parse(text: &str) -> Result<EntityLog, ParseError> {
    let text = text.trim_start_matches('\u{feff}');
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        ParseError::section(
            SECTION,
            Some(e.line()),
            "a JSON document",
            format!("{e} (column {})", e.column()),
        )
    })?;
    let mut found = Vec::new();
    collect(&doc, &mut found)?;
    let mut log = EntityLog::new("vsan_json");
    let mut notes = Notes::default();
    for m in &found {
        push_metric_csv(&mut log, &mut notes, m)?;
    }
    notes.finish(&mut log);
    if log.series.is_empty() {
        return Err(no_data(
            SECTION,
            "VsanPerfEntityMetricCSV objects (`entityRefId`, `sampleInfo`, `value[]`)",
        ));
    }
    Ok(log)
}

/// A key of an object, case-insensitively.
fn get<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    o.get(key).or_else(|| {
        o.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

/// A string, number or `null` as text (`None` for `null`/absent).
fn text_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Null => None,
        Value::Array(a) => Some(
            a.iter()
                .map(|x| match x {
                    Value::Number(n) => n.to_string(),
                    Value::String(s) => s.clone(),
                    _ => "None".to_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
        ),
        other => Some(other.to_string()),
    }
}

/// Finds every object with an `entityRefId` key, in document order.
fn collect(v: &Value, out: &mut Vec<MetricCsv>) -> Result<(), ParseError> {
    match v {
        Value::Array(a) => {
            for x in a {
                collect(x, out)?;
            }
        }
        Value::Object(o) => {
            if let Some(r) = get(o, "entityRefId") {
                out.push(entity(o, r)?);
            } else {
                for x in o.values() {
                    collect(x, out)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn entity(o: &Map<String, Value>, r: &Value) -> Result<MetricCsv, ParseError> {
    let ref_id = match r {
        Value::String(s) => s.clone(),
        other => {
            return Err(ParseError::section(
                CSV_SECTION,
                None,
                "`entityRefId` as a string",
                other.to_string(),
            ))
        }
    };
    let mut m = MetricCsv {
        sample_info: text_of(get(o, "sampleInfo")),
        ref_id,
        ..MetricCsv::default()
    };
    let series: Vec<&Value> = match get(o, "value") {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(v @ Value::Object(_)) => vec![v],
        Some(Value::Null) | None => Vec::new(),
        Some(other) => {
            return Err(ParseError::section(
                CSV_SECTION,
                None,
                format!(
                    "`value` of `{}` as a list of VsanPerfMetricSeriesCSV",
                    m.ref_id
                ),
                other.to_string(),
            ))
        }
    };
    for s in series {
        let Value::Object(so) = s else {
            return Err(ParseError::section(
                CSV_SECTION,
                None,
                format!(
                    "VsanPerfMetricSeriesCSV objects in `value` of `{}`",
                    m.ref_id
                ),
                s.to_string(),
            ));
        };
        let (label, interval) = match get(so, "metricId") {
            Some(Value::Object(id)) => (
                text_of(get(id, "label")).unwrap_or_default(),
                text_of(get(id, "metricsCollectInterval")).and_then(|t| t.trim().parse().ok()),
            ),
            Some(Value::String(s)) => {
                return Err(ParseError::section(
                    CSV_SECTION,
                    None,
                    format!(
                        "a `metricId` object (with `label`) in `value` of `{}`",
                        m.ref_id
                    ),
                    format!(
                        "the string `{s}`: the JSON was cut short (PowerShell `ConvertTo-Json` \
                         stops at `-Depth 2` by default: export with `-Depth 5` or more)"
                    ),
                ))
            }
            _ => (String::new(), None),
        };
        if label.trim().is_empty() {
            return Err(ParseError::section(
                CSV_SECTION,
                None,
                format!("`metricId.label` in every series of `{}`", m.ref_id),
                "a series without a label".to_string(),
            ));
        }
        m.series.push(SeriesCsv {
            label,
            interval,
            values: text_of(get(so, "values")),
        });
    }
    Ok(m)
}
