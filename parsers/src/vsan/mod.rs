//! vSAN performance-service exports into [`EntityLog`]s: four formats, one module each.
//!
//! | format id | module | what it reads |
//! |---|---|---|
//! | `vsan_json` | [`json`] | `VsanPerfQueryPerf` results as JSON (VI/JSON API, pyVmomi, PowerShell `ConvertTo-Json`) |
//! | `vsan_soap` | [`soap`] | the support-bundle `perf_stats_with_dump` text (`SOAP stats dump`), a plain SOAP response body, and the dump script's pyVmomi text form |
//! | `powercli_csv` | [`powercli`] | PowerCLI `Get-VsanStat … \| Export-Csv` (and the cmdlet's default table view, captured as text) |
//! | `telegraf_vsan` | [`telegraf`] | telegraf `inputs.vsphere` vSAN measurements in InfluxDB line protocol |
//!
//! Each format is registered ([`VsanSoap`], [`VsanJson`], [`TelegrafVsan`], [`PowercliCsv`]);
//! to read a text directly, call [`looks_like`] / [`parse`] (which dispatch on the content,
//! see [`format_of`]) or the per-format functions ([`looks_like_json`] / [`parse_json`],
//! [`looks_like_soap`] / [`parse_soap`], [`looks_like_powercli`] / [`parse_powercli`],
//! [`looks_like_telegraf`] / [`parse_telegraf`]).
//!
//! # Records
//! Every format gives one [`Series`] per metric of one entity: the metric label **verbatim**
//! (`iopsRead`, `iops_read`, `VMConsumption.ReadIops`), its values converted to
//! [`Measure::unit`] when the metric is one sizer normalises ([`Series::measure`] is `Some`), or
//! as printed when it is not. Unknown entity types and metrics are kept with `measure: None` and
//! listed once per entity type in [`EntityLog::warnings`]. A value that is not printed (empty,
//! `None` in the perf service's CSV) is `None`, never 0. The JSON and SOAP readers join the pages
//! of a query: a later `VsanPerfEntityMetricCSV` with the same `entityRefId` and label extends the
//! earlier series (the support-bundle dump pages host and cluster entities by 12 hours).
//!
//! # Units (`../shared/reference/vsan-formats.md` §0, §4, §5)
//! The perf service's values are integers in the unit of the label (vSAN API
//! `VsanPerfStatsUnitType`; labels and units listed in the corpus `equelin_vsanmetrics_entities.md`):
//!
//! | label (examples) | service unit | [`Measure`] unit | factor |
//! |---|---|---|---|
//! | `iopsRead`, `iopsDevWrite`, `iops` | number (IOPS) | IOPS | 1 |
//! | `throughputRead`, `throughputDevWrite`, `throughput` | `rate_bytes` (B/s) | B/s | 1 |
//! | `latencyAvgRead`, `latencyDevRead`, `latencyRead`, `latencyDevDAvg` | declared `time_ms`, **really µs** | ms | ÷ 1000 |
//! | `congestion`, `oio` | number | count | 1 |
//! | `rcHitRate`, `clientCacheHitRate` | `percentage` (0–100) | % | 1 |
//! | `capacity`, `capacityUsed` | `size_bytes` | B | 1 |
//!
//! The label → measure table is [`crate::entity::VSAN_LABELS`] (less [`NOT_NORMALISED`]).
//! [`Series::raw_unit`] is the service unit of that table, or empty for a metric that is not
//! normalised (the exports do not carry units; PowerCLI's `Unit` column is kept as printed).
//!
//! Latencies are µs although the service's metadata says `time_ms`: PowerCLI `Get-VsanStat`
//! reports them with `Unit = Microseconds`, the OpenTelemetry receiver with unit `us`, and the
//! telegraf samples (`latencyAvgWrite=7689`) would be absurd in ms (`vsan-formats.md` §0). A
//! label is normalised only for the entity types in [`ENTITY_TYPES`] (whose units the sources
//! above document); any other entity type is kept as printed (ESA `vsan-esa-*` and `lsom2-*`
//! types: Broadcom's own dump parser rescales some of their latencies from ns).
//!
//! # Times
//! `sampleInfo` holds `YYYY-MM-DD HH:MM:SS` stamps without a zone; the service writes UTC
//! (current telegraf and OpenTelemetry read them as UTC; `vsan-formats.md` §5), so
//! [`Series::utc`] is `true`. telegraf's epoch stamps are UTC too. PowerCLI prints local time in
//! the session's culture (`utc: false`).
//!
//! # Example
//! ```
//! use sizer_parsers::entity::Measure;
//! let text = r#"{"_typeName":"VsanPerfEntityMetricCSV","entityRefId":"cluster-domclient:52f1",
//!   "sampleInfo":"2017-06-14 23:10:00,2017-06-14 23:15:00",
//!   "value":[{"metricId":{"label":"latencyAvgRead","metricsCollectInterval":300},"values":"1500,2500"}]}"#;
//! assert_eq!(sizer_parsers::vsan::format_of(text), Some("vsan_json"));
//! let log = sizer_parsers::vsan::parse(text).unwrap();
//! let s = &log.series[0];
//! assert_eq!((s.entity_type.as_str(), s.entity.as_str()), ("cluster-domclient", "52f1"));
//! assert_eq!(s.measure, Some(Measure::ReadLatencyMs));
//! assert_eq!(s.values, vec![Some(1.5), Some(2.5)]); // µs → ms
//! ```

pub mod json;
pub mod powercli;
pub mod soap;
pub mod telegraf;

use std::collections::HashMap;

use chrono::NaiveDateTime;

use crate::entity::{vsan_label, EntityLog, Measure, Series};
use crate::error::ParseError;

pub use crate::entity::SkippedLine;
pub use json::{looks_like as looks_like_json, parse as parse_json};
pub use powercli::{
    looks_like as looks_like_powercli, parse as parse_powercli, parse_with as parse_powercli_with,
};
pub use soap::{looks_like as looks_like_soap, parse as parse_soap};
pub use telegraf::{looks_like as looks_like_telegraf, parse as parse_telegraf};

/// vSAN performance-service entity types whose metric units are documented (the perf service's
/// `VsanPerfEntityType` list in the corpus `equelin_vsanmetrics_entities.md`, plus the types of
/// telegraf's vSAN README and `vsan-formats.md` §5). Their labels found in
/// [`crate::entity::VSAN_LABELS`] are normalised; a `hr-` prefix (high-resolution copy of a type,
/// `hr-cluster-domclient`) is accepted. Any other type is kept, not normalised, and warned.
pub const ENTITY_TYPES: &[&str] = &[
    "cluster-domclient",
    "cluster-domcompmgr",
    "host-domclient",
    "host-domcompmgr",
    "host-domowner",
    "cache-disk",
    "capacity-disk",
    "disk-group",
    "vscsi",
    "virtual-machine",
    "virtual-disk",
    "vsan-vnic-net",
    "vsan-host-net",
    "vsan-pnic-net",
    "vsan-iscsi-host",
    "vsan-iscsi-target",
    "vsan-iscsi-lun",
    "vsan-cluster-capacity",
    "cluster-pmem",
    "lsom-world-cpu",
    "nic-world-cpu",
    "dom-world-cpu",
    "cmmds-world-cpu",
    "host-cpu",
];

/// Whether an entity type is one of [`ENTITY_TYPES`] (or its `hr-` copy).
pub fn known_entity_type(t: &str) -> bool {
    let t = t.strip_prefix("hr-").unwrap_or(t);
    ENTITY_TYPES.contains(&t)
}

/// Labels of [`crate::entity::VSAN_LABELS`] this module keeps unnormalised: `numOio`. The
/// corpus telegraf samples print it beside `oio` on the same `host-domclient` point
/// (`numOio=107657` with `oio=12`; `num_oio=12623` with `oio=4`), so it is not the
/// outstanding-IO count (it looks like a sum over the interval) and reading it as
/// [`Measure::OutstandingIo`] would give a wrong number.
pub const NOT_NORMALISED: &[&str] = &["numOio"];

/// The measure of a vSAN perf-service label on an entity type: `None` for an unknown type, a
/// label sizer does not normalise, or one of [`NOT_NORMALISED`]. (measure, factor to
/// [`Measure::unit`], raw unit).
pub fn vsan_measure(entity_type: &str, label: &str) -> Option<(Measure, f64, &'static str)> {
    if !known_entity_type(entity_type) || NOT_NORMALISED.contains(&label) {
        return None;
    }
    vsan_label(label)
}

/// Which of this module's formats the text is in: `vsan_soap`, `vsan_json`, `telegraf_vsan` or
/// `powercli_csv` (tried in that order), or `None`.
pub fn format_of(text: &str) -> Option<&'static str> {
    if soap::looks_like(text) {
        Some("vsan_soap")
    } else if json::looks_like(text) {
        Some("vsan_json")
    } else if telegraf::looks_like(text) {
        Some("telegraf_vsan")
    } else if powercli::looks_like(text) {
        Some("powercli_csv")
    } else {
        None
    }
}

/// Whether the text is in one of this module's formats (see [`format_of`]).
pub fn looks_like(text: &str) -> bool {
    format_of(text).is_some()
}

/// Parses any of this module's formats, chosen by [`format_of`].
///
/// # Errors
/// [`ParseError::UnknownFormat`] when the text is in none of them; else as the format's parser.
pub fn parse(text: &str) -> Result<EntityLog, ParseError> {
    match format_of(text) {
        Some("vsan_soap") => soap::parse(text),
        Some("vsan_json") => json::parse(text),
        Some("telegraf_vsan") => telegraf::parse(text),
        Some("powercli_csv") => powercli::parse(text),
        _ => Err(ParseError::UnknownFormat {
            reason: "expected a vSAN performance export: a VsanPerfQueryPerf result (JSON, SOAP \
                     or a support-bundle `SOAP stats dump`), PowerCLI `Get-VsanStat` output \
                     (Export-Csv with Entity,Name,Time,Unit,Value), or telegraf \
                     `vsphere_vsan_*` line protocol"
                .to_string(),
        }),
    }
}

/// The first 64 KiB of a text (on a char boundary): what `looks_like` functions look at.
pub(crate) use crate::lines::head;

// ---------------------------------------------------------------------------------------------
// VsanPerfEntityMetricCSV, shared by the JSON and SOAP readers
// ---------------------------------------------------------------------------------------------

/// One `VsanPerfEntityMetricCSV` as read from JSON, XML or pyVmomi text, before conversion.
#[derive(Debug, Default)]
pub(crate) struct MetricCsv {
    /// `entityRefId` as printed.
    pub ref_id: String,
    /// `sampleInfo` (`None` when absent or unset).
    pub sample_info: Option<String>,
    /// `value[]`.
    pub series: Vec<SeriesCsv>,
    /// 1-based line where the object starts, when known.
    pub line: Option<usize>,
}

/// One `VsanPerfMetricSeriesCSV`.
#[derive(Debug, Default)]
pub(crate) struct SeriesCsv {
    /// `metricId.label`.
    pub label: String,
    /// `metricId.metricsCollectInterval`, seconds.
    pub interval: Option<f64>,
    /// `values` (`None` when absent or unset).
    pub values: Option<String>,
}

/// Section name used in errors of the JSON and SOAP readers.
pub(crate) const CSV_SECTION: &str = "VsanPerfEntityMetricCSV";

/// Unknown entity types and unnormalised metrics met while parsing, turned into warnings once;
/// and where each (entity type, entity, metric) series is, to join the pages of a query.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    unknown_types: Vec<String>,
    unnormalised: Vec<(String, Vec<String>)>,
    index: HashMap<(String, String, String), usize>,
}

impl Notes {
    /// Records a series whose measure is `None`.
    pub fn unnormalised(&mut self, entity_type: &str, metric: &str) {
        if !known_entity_type(entity_type) {
            if !self.unknown_types.iter().any(|t| t == entity_type) {
                self.unknown_types.push(entity_type.to_string());
            }
            return;
        }
        match self.unnormalised.iter_mut().find(|(t, _)| t == entity_type) {
            Some((_, m)) => {
                if !m.iter().any(|x| x == metric) {
                    m.push(metric.to_string());
                }
            }
            None => self
                .unnormalised
                .push((entity_type.to_string(), vec![metric.to_string()])),
        }
    }

    /// Records a metric kept without a measure for a reason of the format (PowerCLI name not in
    /// the mapping, telegraf summary field), under a group name.
    pub fn kept(&mut self, group: &str, metric: &str) {
        match self.unnormalised.iter_mut().find(|(t, _)| t == group) {
            Some((_, m)) => {
                if !m.iter().any(|x| x == metric) {
                    m.push(metric.to_string());
                }
            }
            None => self
                .unnormalised
                .push((group.to_string(), vec![metric.to_string()])),
        }
    }

    /// Adds the warnings to the log.
    pub fn finish(self, log: &mut EntityLog) {
        for t in self.unknown_types {
            log.warn(format!(
                "unknown vSAN entity type `{t}`: its metrics are kept as printed, not normalised"
            ));
        }
        for (t, m) in self.unnormalised {
            log.warn(format!(
                "`{t}`: {} metric(s) kept as printed, not normalised: {}",
                m.len(),
                m.join(", ")
            ));
        }
    }
}

/// Reads one `sampleInfo` stamp (`2017-06-14 23:10:00`, also with `T` or fractional seconds).
pub(crate) fn sample_time(s: &str) -> Option<NaiveDateTime> {
    let s = s.trim();
    let s = s.strip_suffix('Z').unwrap_or(s);
    let s = s.replacen('T', " ", 1);
    NaiveDateTime::parse_from_str(&s, "%Y-%m-%d %H:%M:%S")
        .or_else(|_| NaiveDateTime::parse_from_str(&s, "%Y-%m-%d %H:%M:%S%.f"))
        .or_else(|_| NaiveDateTime::parse_from_str(&s, "%Y-%m-%d %H:%M"))
        .ok()
}

/// Splits an `entityRefId` at its first `:` into (type, id).
pub(crate) fn split_ref(ref_id: &str, line: Option<usize>) -> Result<(&str, &str), ParseError> {
    ref_id.split_once(':').ok_or_else(|| {
        ParseError::section(
            CSV_SECTION,
            line,
            "an entityRefId `<entity type>:<id>` (e.g. `cluster-domclient:<uuid>`)",
            format!("`{ref_id}`"),
        )
    })
}

/// Converts one `VsanPerfEntityMetricCSV` into series appended to `log`.
///
/// # Errors
/// A `values` string whose count differs from `sampleInfo`'s, or a value that is not a number,
/// naming the entity and the metric.
pub(crate) fn push_metric_csv(
    log: &mut EntityLog,
    notes: &mut Notes,
    m: &MetricCsv,
) -> Result<(), ParseError> {
    let (etype, entity) = split_ref(m.ref_id.trim(), m.line)?;
    let info = m.sample_info.as_deref().map(str::trim).unwrap_or("");
    let times: Option<Vec<Option<NaiveDateTime>>> = if info.is_empty() {
        log.warn(format!(
            "`{}`: empty sampleInfo (the service collected no samples, or lost their times): its \
             series have no times",
            m.ref_id.trim()
        ));
        None
    } else {
        let mut v = Vec::new();
        for stamp in info.split(',') {
            let t = sample_time(stamp);
            if t.is_none() {
                log.warn(format!(
                    "`{}`: sampleInfo time `{}` cannot be read (expected YYYY-MM-DD HH:MM:SS)",
                    m.ref_id.trim(),
                    stamp.trim()
                ));
            }
            v.push(t);
        }
        Some(v)
    };
    if m.series.is_empty() {
        log.warn(format!(
            "`{}`: no metric series (empty `value` list)",
            m.ref_id.trim()
        ));
    }
    for s in &m.series {
        let label = s.label.trim();
        let raw = s.values.as_deref().map(str::trim).unwrap_or("");
        let mut values: Vec<Option<f64>> = if raw.is_empty() {
            match &times {
                Some(t) => {
                    log.warn(format!(
                        "`{}` `{label}`: empty values: every sample is missing",
                        m.ref_id.trim()
                    ));
                    vec![None; t.len()]
                }
                None => Vec::new(),
            }
        } else {
            let mut v = Vec::new();
            for (i, cell) in raw.split(',').enumerate() {
                v.push(csv_value(cell).ok_or_else(|| {
                    ParseError::section(
                        CSV_SECTION,
                        m.line,
                        format!(
                            "numbers in `values` of `{}` metric `{label}`",
                            m.ref_id.trim()
                        ),
                        format!("`{}` (value {})", cell.trim(), i + 1),
                    )
                })?);
            }
            v
        };
        let times = match &times {
            Some(t) => {
                if t.len() != values.len() {
                    return Err(ParseError::section(
                        CSV_SECTION,
                        m.line,
                        format!(
                            "{} values for `{}` metric `{label}` (one per sampleInfo time)",
                            t.len(),
                            m.ref_id.trim()
                        ),
                        format!("{} values", values.len()),
                    ));
                }
                t.clone()
            }
            None => vec![None; values.len()],
        };
        let measure = vsan_measure(etype, label);
        if measure.is_some() {
            for v in values.iter_mut().flatten() {
                *v *= measure.map_or(1.0, |m| m.1);
            }
        }
        let key = (etype.to_string(), entity.to_string(), label.to_string());
        if let Some(&i) = notes.index.get(&key) {
            // A later page of the same series (the dump script queries 12-hour pages).
            let s = &mut log.series[i];
            s.values.extend(values);
            s.times.extend(times);
            continue;
        }
        let raw_unit = match measure {
            Some((.., u)) => u.to_string(),
            None => {
                notes.unnormalised(etype, label);
                String::new()
            }
        };
        notes.index.insert(key, log.series.len());
        log.series.push(Series {
            entity_type: etype.to_string(),
            entity: entity.to_string(),
            host: None,
            metric: label.to_string(),
            measure: measure.map(|(m, ..)| m),
            raw_unit,
            values,
            times,
            utc: true,
            interval_s: s.interval,
        });
    }
    Ok(())
}

/// One cell of a perf-service `values` string: `None` for an empty cell or `None` (how the
/// service marks a missing sample, see the support-bundle parsers), else a number.
fn csv_value(cell: &str) -> Option<Option<f64>> {
    let c = cell.trim();
    if c.is_empty() || c == "None" || c == "null" {
        return Some(None);
    }
    // NaN and inf pass as read: the `checked` sink makes them unknown, with a warning naming the cell.
    c.parse::<f64>().ok().map(Some)
}

/// The error for a file of a recognised layout that holds no series.
pub(crate) fn no_data(section: &str, what: &str) -> ParseError {
    ParseError::section(
        section,
        None,
        what.to_string(),
        "no metric series: the file holds no vSAN performance data".to_string(),
    )
}

/// The vSAN performance SOAP format (see [`soap`]).
#[derive(Debug, Clone, Copy)]
pub struct VsanSoap;

impl crate::parser::FormatParser for VsanSoap {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::VsanSoap,
            id: "vsan_soap",
            name: "vSAN performance SOAP dump",
            kind: crate::sink::RecordKind::Entities,
            description: "vSAN performance service `VsanPerfQueryPerf` SOAP response, or a support-bundle stats dump",
        }
    }

    fn detect(&self, text: &str) -> bool {
        format_of(text) == Some("vsan_soap")
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(parse_soap(text)?)
    }

    fn streams(&self) -> bool {
        true
    }

    /// Streams the input: each entity becomes series as soon as its element (or its last line
    /// of the text form) has been read (see [`soap`]); the whole log goes to the sink at the end.
    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(soap::read(src)?)
    }
}

/// The vSAN performance JSON format (see [`json`]).
#[derive(Debug, Clone, Copy)]
pub struct VsanJson;

impl crate::parser::FormatParser for VsanJson {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::VsanJson,
            id: "vsan_json",
            name: "vSAN performance JSON",
            kind: crate::sink::RecordKind::Entities,
            description:
                "vSAN performance service query result (`VsanPerfEntityMetricCSV`) as JSON",
        }
    }

    fn detect(&self, text: &str) -> bool {
        format_of(text) == Some("vsan_json")
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(parse_json(text)?)
    }

    fn streams(&self) -> bool {
        true
    }

    /// Streams the document: each entity becomes series as soon as it has been read (see
    /// [`json`]); the whole log goes to the sink at the end.
    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(json::read(src)?)
    }
}

/// The telegraf vSAN line-protocol format (see [`telegraf`]).
#[derive(Debug, Clone, Copy)]
pub struct TelegrafVsan;

impl crate::parser::FormatParser for TelegrafVsan {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::TelegrafVsan,
            id: "telegraf_vsan",
            name: "telegraf vSAN line protocol",
            kind: crate::sink::RecordKind::Entities,
            description: "telegraf `vsphere_vsan_*` measurements in InfluxDB line protocol",
        }
    }

    fn detect(&self, text: &str) -> bool {
        format_of(text) == Some("telegraf_vsan")
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(parse_telegraf(text)?)
    }

    fn streams(&self) -> bool {
        true
    }

    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(telegraf::parse_reader(src)?)
    }
}

/// The PowerCLI `Get-VsanStat` export format (see [`powercli`]).
#[derive(Debug, Clone, Copy)]
pub struct PowercliCsv;

impl crate::parser::FormatParser for PowercliCsv {
    fn info(&self) -> &'static crate::parser::FormatInfo {
        &crate::parser::FormatInfo {
            format: crate::Format::PowercliCsv,
            id: "powercli_csv",
            name: "PowerCLI Get-VsanStat export",
            kind: crate::sink::RecordKind::Entities,
            description: "PowerCLI `Get-VsanStat | Export-Csv` (or its console table)",
        }
    }

    fn detect(&self, text: &str) -> bool {
        format_of(text) == Some("powercli_csv")
    }

    fn parse(
        &self,
        text: &str,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(parse_powercli(text)?)
    }

    fn streams(&self) -> bool {
        true
    }

    fn parse_stream(
        &self,
        src: &mut dyn std::io::BufRead,
        settings: &crate::parser::ParseSettings,
        sink: &mut dyn crate::sink::Sink,
    ) -> Result<(), crate::ParseError> {
        let _ = settings;
        sink.entity_log(powercli::parse_reader(src)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells() {
        assert_eq!(csv_value("12"), Some(Some(12.0)));
        assert_eq!(csv_value(" None"), Some(None));
        assert_eq!(csv_value(""), Some(None));
        assert_eq!(csv_value("x"), None);
        // Made unknown, with a warning, on its way out (the `checked` sink).
        assert_eq!(csv_value("inf"), Some(Some(f64::INFINITY)));
    }

    #[test]
    fn stamps() {
        let t = sample_time("2017-06-14 23:10:00").unwrap();
        assert_eq!(t.to_string(), "2017-06-14 23:10:00");
        assert!(sample_time("2017-06-14T23:10:00Z").is_some());
        assert!(sample_time("14/06/2017").is_none());
    }

    #[test]
    fn hr_types_are_known() {
        assert!(known_entity_type("hr-cluster-domclient"));
        assert!(!known_entity_type("vsan-esa-disk-layer"));
        assert!(vsan_measure("vsan-esa-disk-layer", "iopsRead").is_none());
        assert_eq!(
            vsan_measure("disk-group", "rcHitRate").map(|m| m.0),
            Some(Measure::ReadCacheHitPct)
        );
    }
}
