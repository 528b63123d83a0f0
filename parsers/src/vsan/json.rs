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
//! # Streaming
//! The document is read from a reader with serde_json's streaming deserializer and walked in
//! document order: each entity object is read whole (one small [`serde_json::Value`]) and turned
//! into series as soon as it ends, so the state kept is the series so far and the entity being
//! read. Two consequences for odd documents, the same for a whole text: entities under several
//! keys of one wrapper object are read in document order; and an object's keys before its
//! `entityRefId` are searched for entities (an object whose `value` holds entities is a wrapper,
//! not an entity).
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

use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
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
    read(&mut text.as_bytes())
}

/// Reads the JSON document from `src` (already decompressed; decoded on the fly as
/// [`crate::input::decode`] does), converting each entity as soon as it has been read.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else see the module doc.
pub(crate) fn read(src: &mut dyn std::io::BufRead) -> Result<EntityLog, ParseError> {
    let mut rd = crate::sysstat_json::DecodeReader::new(src);
    let mut ctx = Ctx {
        log: EntityLog::new("vsan_json"),
        notes: Notes::default(),
        failed: None,
    };
    let r = {
        let mut de = serde_json::Deserializer::from_reader(&mut rd);
        Walk {
            ctx: &mut ctx,
            keep: false,
        }
        .deserialize(&mut de)
        .and_then(|_| de.end())
    };
    if let Err(e) = r {
        if let Some(f) = ctx.failed.take() {
            return Err(f);
        }
        if e.is_io() {
            return Err(ParseError::Io {
                path: Default::default(),
                source: e.into(),
            });
        }
        return Err(ParseError::section(
            SECTION,
            Some(e.line()),
            "a JSON document",
            format!("{e} (column {})", e.column()),
        ));
    }
    let Ctx { mut log, notes, .. } = ctx;
    notes.finish(&mut log);
    if log.series.is_empty() {
        return Err(no_data(
            SECTION,
            "VsanPerfEntityMetricCSV objects (`entityRefId`, `sampleInfo`, `value[]`)",
        ));
    }
    Ok(log)
}

/// The state of a read: the series so far.
struct Ctx {
    log: EntityLog,
    notes: Notes,
    /// The conversion's error, returned instead of the serde_json error that carried it out.
    failed: Option<ParseError>,
}

/// Walks any JSON value in document order, converting each entity (an object with an
/// `entityRefId` key, read whole as a small [`Value`]) as soon as it ends. With `keep`, it also
/// gives back the value it walked (for an object that may turn out to be an entity: its
/// `sampleInfo` and `value`), unless an entity was found inside it (`None`).
struct Walk<'c> {
    ctx: &'c mut Ctx,
    keep: bool,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = Option<Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Value>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = Option<Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Option<Value>, E> {
        Ok(self.keep.then_some(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Option<Value>, E> {
        Ok(self.keep.then(|| Value::Number(v.into())))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Option<Value>, E> {
        Ok(self.keep.then(|| Value::Number(v.into())))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Option<Value>, E> {
        // As serde_json's own `Value` reads a float.
        Ok(self
            .keep
            .then(|| serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Option<Value>, E> {
        Ok(self.keep.then(|| Value::String(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<Option<Value>, E> {
        Ok(self.keep.then_some(Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<Option<Value>, E> {
        Ok(self.keep.then_some(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Option<Value>, A::Error> {
        let mut out = self.keep.then(Vec::new);
        while let Some(x) = s.next_element_seed(Walk {
            ctx: &mut *self.ctx,
            keep: out.is_some(),
        })? {
            match (x, &mut out) {
                (Some(v), Some(o)) => o.push(v),
                // An entity inside: the array is not kept.
                (None, Some(_)) => out = None,
                _ => {}
            }
        }
        Ok(out.map(Value::Array))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Option<Value>, A::Error> {
        let ctx = self.ctx;
        // The keys an entity is read from (all keys while the object is kept).
        let mut kept = Map::new();
        let mut keeping = self.keep;
        let mut entity_ref = false;
        while let Some(k) = m.next_key::<String>()? {
            let lower = k.to_ascii_lowercase();
            if lower == "entityrefid" {
                entity_ref = true;
                let v = m.next_value::<Value>()?;
                kept.insert(k, v);
                continue;
            }
            let wanted = keeping || lower == "sampleinfo" || lower == "value";
            if entity_ref {
                // An entity is read whole: nothing inside it is searched.
                if wanted {
                    let v = m.next_value::<Value>()?;
                    kept.insert(k, v);
                } else {
                    m.next_value::<IgnoredAny>()?;
                }
                continue;
            }
            match m.next_value_seed(Walk {
                ctx: &mut *ctx,
                keep: wanted,
            })? {
                Some(v) if wanted => {
                    kept.insert(k, v);
                }
                Some(_) => {}
                None => keeping = false,
            }
        }
        if entity_ref {
            let converted = match get(&kept, "entityRefId") {
                Some(r) => {
                    entity(&kept, r).and_then(|e| push_metric_csv(&mut ctx.log, &mut ctx.notes, &e))
                }
                None => Ok(()),
            };
            if let Err(e) = converted {
                ctx.failed = Some(e);
                return Err(A::Error::custom("stopped by the vSAN JSON reader"));
            }
            return Ok(None);
        }
        Ok(keeping.then_some(Value::Object(kept)))
    }
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
