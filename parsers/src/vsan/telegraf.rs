//! telegraf's vSAN measurements in InfluxDB line protocol (format id `telegraf_vsan`).
//!
//! telegraf `inputs.vsphere` with `vsan_enabled = true` writes one point per entity and sample
//! time (`outputs.file`, `influx` format), as in the corpus `telegraf_vsan_sample_output_lineprotocol.md`
//! and `telegraf_README-VSAN_2019-07_camelCase.md`:
//! ```text
//! vsphere_vsan_performance_clusterdomclient,clustername=Example-VSAN,…,uuid=…,vcenter=localhost:8898 latency_avg_write=1011,iops_read=6,… 1578955200000000000
//! vsphere_vsan_performance_cluster-domclient,clustername=Example-VSAN,…,uuid=… latencyAvgWrite=7689,iopsRead=13,… 1557336300000000000
//! vsphere_vsan_summary,clustername=Example-VSAN,… total_capacity_byte=14102625779712i,free_capacity_byte=11022535578757i 1578955488000000000
//! ```
//! Both generations are read:
//! - **camelCase** (2019, the plugin's first vSAN release): measurement
//!   `vsphere_vsan_performance_<entity-type>` with the type's hyphens (`host-domclient`), fields
//!   named with the API labels (`iopsRead`, `latencyAvgWrite`), summary fields `TotalCapacityB`,
//!   `FreeCapacityB`, `OverallHealth`, …;
//! - **snake_case** (later releases): hyphens dropped from the type (`hostdomclient`), fields in
//!   snake case (`iops_read`, `latency_avg_write`, `lat_avg_resync_read`), summary fields
//!   `total_capacity_byte`, `free_capacity_byte`, `overall_health`, ….
//!
//! # Records
//! One [`Series`] per (measurement, tag set, field), in order of first appearance; its values and
//! times are the points' in file order.
//! - [`Series::entity_type`]: the measurement's suffix, **restored to the API's hyphenated name**
//!   when it is one of [`super::ENTITY_TYPES`] with the hyphens dropped (`clusterdomclient` →
//!   `cluster-domclient`); `vsphere_vsan_summary` → `vsan-summary`.
//! - [`Series::entity`]: the first tag present of `deviceName`/`device_name`, `ssdUuid`/`ssd_uuid`,
//!   `vnic`, `pnic`, `hostname`, `uuid`, `clustername`, `moid` (telegraf's vSAN README: disks carry
//!   `deviceName`, NICs `vnic`/`pnic`, hosts `hostname`, cluster types `uuid`).
//! - [`Series::host`]: the `hostname` tag (the ESXi host; the `host` tag is telegraf's own host).
//! - [`EntityLog::origin`]: the `clustername` tag of the first vSAN point (else `vcenter`).
//! - [`Series::metric`]: the field name verbatim. Its API label (snake case turned back to camel
//!   case: `lat_avg_resync_read` → `latAvgResyncRead`) gives the measure through
//!   [`super::vsan_measure`]; units as the API (telegraf passes the service's values through:
//!   latencies µs → ÷ 1000, throughput B/s). Summary: `TotalCapacityB` / `total_capacity_byte` →
//!   [`Measure::CapacityBytes`] (bytes); the other summary fields are kept unnormalised.
//! - Times: the point's timestamp, UTC (telegraf parses `sampleInfo` as UTC; `vsan-formats.md`
//!   §0), `utc: true`. Its precision is told from its size (≥ 10¹⁷ ns, ≥ 10¹⁴ µs, ≥ 10¹¹ ms,
//!   else s), so `--precision` other than ns is read too. A point without a timestamp has time
//!   `None`.
//!
//! Tolerated: blank lines and `#` comments; escaped `\,`, `\ `, `\=` in names and tags; quoted
//! string fields (kept as `None`, warned); `i`/`u` integer suffixes; CRLF. Points of other
//! measurements (`vsphere_host_cpu`, …, written by the same telegraf) are left out and counted
//! in one warning. A `vsphere_vsan_*` line that cannot be read (truncated, no fields) is counted
//! in [`EntityLog::skipped`] with its line. No vSAN point at all is an error.
//!
//! # Streaming
//! The format streams ([`parse_reader`], the registry's `parse_stream`): one parser body reads
//! the lines of the whole text ([`parse`]) or of a reader, one at a time, and keeps the series
//! (values and times), the (measurement, tags, field) → series index, and the names for the
//! warnings; never the lines. A series grows until the last point, so the one [`EntityLog`] is
//! handed over at the end of the file.
//!
//! ```
//! let lp = "vsphere_vsan_performance_clusterdomclient,clustername=Prod,uuid=52a3 \
//!           iops_read=1200,latency_avg_read=850 1710324000000000000\n";
//! let log = sizer_parsers::vsan::telegraf::parse(lp).unwrap();
//! let s = &log.series[1];
//! assert_eq!((s.entity_type.as_str(), s.entity.as_str()), ("cluster-domclient", "52a3"));
//! assert_eq!(s.values, vec![Some(0.85)]); // latency_avg_read µs → ms
//! assert_eq!(s.times[0].unwrap().to_string(), "2024-03-13 10:00:00");
//! ```
//!
//! [`Series`]: crate::entity::Series
//! [`Series::entity_type`]: crate::entity::Series::entity_type
//! [`Series::entity`]: crate::entity::Series::entity
//! [`Series::host`]: crate::entity::Series::host
//! [`Series::metric`]: crate::entity::Series::metric

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime};

use super::{head, known_entity_type, vsan_measure, Notes, ENTITY_TYPES};
use crate::entity::{EntityLog, Measure, Series, SkippedLine};
use crate::error::ParseError;

/// Section name used in errors.
const SECTION: &str = "telegraf vSAN line protocol";

/// Measurement prefix of the vSAN performance points.
pub const PERF_PREFIX: &str = "vsphere_vsan_performance_";

/// One parsed point.
#[derive(Debug)]
struct Point {
    measurement: String,
    tags: Vec<(String, String)>,
    /// The tag section as printed (identity of the series).
    tag_text: String,
    fields: Vec<(String, Option<f64>)>,
    /// Fields whose value is a string or boolean.
    non_numeric: Vec<String>,
    timestamp: Option<i64>,
}

/// Splits at unescaped `sep` outside double quotes (when `quotes`).
fn split_unescaped(s: &str, sep: char, quotes: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut esc = false;
    let mut q = false;
    for (i, c) in s.char_indices() {
        if esc {
            esc = false;
            continue;
        }
        match c {
            '\\' => esc = true,
            '"' if quotes => q = !q,
            c if c == sep && !q => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(&n) = it.peek() {
                if matches!(n, ',' | ' ' | '=' | '\\' | '"') {
                    out.push(n);
                    it.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// Splits a line into its (series key, fields, timestamp) sections at unescaped spaces outside
/// quotes.
fn sections(l: &str) -> Vec<&str> {
    split_unescaped(l, ' ', true)
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect()
}

fn point(l: &str) -> Option<Point> {
    let secs = sections(l);
    if secs.len() < 2 || secs.len() > 3 {
        return None;
    }
    let key = split_unescaped(secs[0], ',', false);
    let measurement = unescape(key[0]);
    if measurement.is_empty() {
        return None;
    }
    let mut tags = Vec::new();
    for t in &key[1..] {
        let kv = split_unescaped(t, '=', false);
        if kv.len() != 2 {
            return None;
        }
        tags.push((unescape(kv[0]), unescape(kv[1])));
    }
    let mut fields = Vec::new();
    let mut non_numeric = Vec::new();
    for f in split_unescaped(secs[1], ',', true) {
        let (k, v) = f.split_once('=')?;
        let k = unescape(k);
        if k.is_empty() || v.is_empty() {
            return None;
        }
        let num = if v.starts_with('"') {
            if v.len() < 2 || !v.ends_with('"') {
                return None;
            }
            None
        } else if matches!(
            v,
            "t" | "T" | "true" | "True" | "TRUE" | "f" | "F" | "false" | "False" | "FALSE"
        ) {
            None
        } else {
            let n = v
                .strip_suffix('i')
                .or_else(|| v.strip_suffix('u'))
                .unwrap_or(v);
            // NaN and inf pass as read: the `checked` sink makes them unknown, with a warning naming the cell.
            Some(n.parse::<f64>().ok()?)
        };
        if num.is_none() {
            non_numeric.push(k.clone());
        }
        fields.push((k, num));
    }
    let timestamp = match secs.get(2) {
        Some(t) => Some(t.trim().parse::<i64>().ok()?),
        None => None,
    };
    Some(Point {
        measurement,
        tags,
        tag_text: key[1..].join(","),
        fields,
        non_numeric,
        timestamp,
    })
}

/// An epoch timestamp of any precision, as UTC.
fn epoch(ts: i64) -> Option<NaiveDateTime> {
    let a = ts.unsigned_abs();
    let (secs, nanos) = if a >= 100_000_000_000_000_000 {
        (ts.div_euclid(1_000_000_000), ts.rem_euclid(1_000_000_000))
    } else if a >= 100_000_000_000_000 {
        (ts.div_euclid(1_000_000), ts.rem_euclid(1_000_000) * 1000)
    } else if a >= 100_000_000_000 {
        (ts.div_euclid(1000), ts.rem_euclid(1000) * 1_000_000)
    } else {
        (ts, 0)
    };
    DateTime::from_timestamp(secs, nanos as u32).map(|d| d.naive_utc())
}

/// `lat_avg_resync_read` → `latAvgResyncRead`; a name without `_` is returned as is.
pub fn camel_label(field: &str) -> String {
    if !field.contains('_') {
        return field.to_string();
    }
    let mut out = String::with_capacity(field.len());
    for (i, part) in field.split('_').filter(|p| !p.is_empty()).enumerate() {
        if i == 0 {
            out.push_str(part);
        } else {
            let mut c = part.chars();
            if let Some(f) = c.next() {
                out.extend(f.to_uppercase());
                out.push_str(c.as_str());
            }
        }
    }
    out
}

/// The entity type of a `vsphere_vsan_performance_<suffix>` measurement, hyphens restored.
pub fn entity_type(suffix: &str) -> String {
    if known_entity_type(suffix) {
        return suffix.to_string();
    }
    for t in ENTITY_TYPES {
        if t.replace('-', "") == suffix {
            return t.to_string();
        }
        if format!("hr{}", t.replace('-', "")) == suffix {
            return format!("hr-{t}");
        }
    }
    suffix.to_string()
}

fn is_vsan(l: &str) -> bool {
    l.starts_with("vsphere_vsan_")
}

/// The first line that is not blank or a `#` comment reads as line protocol, and a line starts
/// with `vsphere_vsan_`: in the first 64 KiB, or anywhere when the first point is a `vsphere_`
/// one (a telegraf file may list host and VM measurements for a long while before the vSAN ones).
pub fn looks_like(text: &str) -> bool {
    let h = head(text);
    let mut lines = h
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let Some(first) = lines.next() else {
        return false;
    };
    if point(first).is_none() {
        return false;
    }
    if is_vsan(first) || lines.any(is_vsan) {
        return true;
    }
    first.starts_with("vsphere_")
        && memchr::memmem::find(text.as_bytes(), b"\nvsphere_vsan_").is_some()
}

const ENTITY_TAGS: &[&str] = &[
    "deviceName",
    "device_name",
    "ssdUuid",
    "ssd_uuid",
    "vnic",
    "pnic",
    "hostname",
    "uuid",
    "clustername",
    "moid",
];

/// Parses the line protocol.
///
/// # Errors
/// No `vsphere_vsan_*` point at all.
pub fn parse(text: &str) -> Result<EntityLog, ParseError> {
    parse_lines(crate::lines::text_lines(text))
}

/// Reads the line protocol from `src` line by line (see `lines::with_stream_lines` for
/// the decoding): the same [`EntityLog`] as [`parse`] of the decoded whole text.
///
/// # Errors
/// [`ParseError::Io`] (empty path) when reading fails; else as [`parse`].
pub fn parse_reader(src: &mut dyn std::io::BufRead) -> Result<EntityLog, ParseError> {
    crate::lines::with_stream_lines(src, |lines| parse_lines(lines))
}

/// The one parser body of [`parse`] and [`parse_reader`], over the lines of `split('\n')` (a
/// line's CR is trimmed with its other white space).
fn parse_lines<L: AsRef<str>>(
    lines: impl Iterator<Item = Result<L, ParseError>>,
) -> Result<EntityLog, ParseError> {
    let mut log = EntityLog::new("telegraf_vsan");
    let mut notes = Notes::default();
    let mut index: HashMap<(String, String, String), usize> = HashMap::new();
    let mut factors: Vec<f64> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    let mut other_count = 0usize;
    let mut clusters: Vec<String> = Vec::new();
    for (i, raw) in lines.enumerate() {
        let raw = raw?;
        let l = raw.as_ref().trim_start_matches('\u{feff}').trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if !is_vsan(l) {
            other_count += 1;
            let m = l.split([',', ' ']).next().unwrap_or("").to_string();
            if others.len() < 10 && !others.contains(&m) {
                others.push(m);
            }
            continue;
        }
        let Some(p) = point(l) else {
            log.skipped.push(SkippedLine {
                line: i + 1,
                reason: "a vsphere_vsan_ line that is not complete line protocol \
                         (`measurement,tags field=value,… timestamp`)"
                    .to_string(),
            });
            continue;
        };
        let (etype, summary) = match p.measurement.strip_prefix(PERF_PREFIX) {
            Some(s) => (entity_type(s), false),
            None if p.measurement == "vsphere_vsan_summary" => ("vsan-summary".to_string(), true),
            None => (
                p.measurement
                    .strip_prefix("vsphere_vsan_")
                    .unwrap_or(&p.measurement)
                    .to_string(),
                false,
            ),
        };
        let tag = |k: &str| p.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.as_str());
        let entity = ENTITY_TAGS
            .iter()
            .find_map(|k| tag(k))
            .unwrap_or("")
            .to_string();
        let host = tag("hostname").map(str::to_string);
        if let Some(c) = tag("clustername").or_else(|| tag("vcenter")) {
            if !clusters.iter().any(|x| x == c) {
                clusters.push(c.to_string());
            }
        }
        for f in &p.non_numeric {
            log.warn(format!(
                "`{}` field `{f}` is not a number: kept as missing values",
                p.measurement
            ));
        }
        let time = p.timestamp.and_then(epoch);
        for (field, v) in &p.fields {
            let key = (p.measurement.clone(), p.tag_text.clone(), field.clone());
            let idx = match index.get(&key) {
                Some(&i) => i,
                None => {
                    let label = camel_label(field);
                    let measure = if summary {
                        matches!(label.as_str(), "TotalCapacityB" | "totalCapacityByte")
                            .then_some((Measure::CapacityBytes, 1.0, "B"))
                    } else {
                        vsan_measure(&etype, &label)
                    };
                    if measure.is_none() {
                        if summary {
                            notes.kept(&etype, field);
                        } else {
                            notes.unnormalised(&etype, field);
                        }
                    }
                    index.insert(key, log.series.len());
                    factors.push(measure.map_or(1.0, |m| m.1));
                    log.series.push(Series {
                        entity_type: etype.clone(),
                        entity: entity.clone(),
                        host: host.clone(),
                        metric: field.clone(),
                        measure: measure.map(|m| m.0),
                        raw_unit: measure.map_or(String::new(), |m| m.2.to_string()),
                        values: Vec::new(),
                        times: Vec::new(),
                        utc: true,
                        interval_s: None,
                    });
                    log.series.len() - 1
                }
            };
            let s = &mut log.series[idx];
            s.values.push(v.map(|x| x * factors[idx]));
            s.times.push(time);
        }
    }
    log.origin = clusters.first().cloned();
    if clusters.len() > 1 {
        log.warn(format!(
            "points of {} clusters: {}",
            clusters.len(),
            clusters.join(", ")
        ));
    }
    if other_count > 0 {
        log.warn(format!(
            "{other_count} line(s) of other measurements left out ({})",
            others.join(", ")
        ));
    }
    if !log.skipped.is_empty() {
        log.warn(format!(
            "{} vsphere_vsan_ line(s) could not be read (first: line {})",
            log.skipped.len(),
            log.skipped[0].line
        ));
    }
    notes.finish(&mut log);
    if log.series.is_empty() {
        return Err(super::no_data(
            SECTION,
            "`vsphere_vsan_performance_*` or `vsphere_vsan_summary` points",
        ));
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel() {
        assert_eq!(camel_label("lat_avg_resync_read"), "latAvgResyncRead");
        assert_eq!(camel_label("latency_dev_d_avg"), "latencyDevDAvg");
        assert_eq!(camel_label("iopsRead"), "iopsRead");
    }

    #[test]
    fn types() {
        assert_eq!(entity_type("clusterdomclient"), "cluster-domclient");
        assert_eq!(entity_type("host-domclient"), "host-domclient");
        assert_eq!(entity_type("hrclusterdomclient"), "hr-cluster-domclient");
        assert_eq!(entity_type("somethingnew"), "somethingnew");
    }

    #[test]
    fn escapes_and_precision() {
        let p = point(r#"m,a=x\ y,b=1\,2 f="s p",g=2i 1557336300"#).unwrap();
        assert_eq!(p.tags[0], ("a".into(), "x y".into()));
        assert_eq!(p.tags[1], ("b".into(), "1,2".into()));
        assert_eq!(p.fields[0].1, None);
        assert_eq!(p.fields[1].1, Some(2.0));
        let t = epoch(1557336300).unwrap();
        assert_eq!(epoch(1557336300000000000), Some(t));
        assert_eq!(epoch(1557336300000), Some(t));
        assert!(point("m f= 1").is_none());
        assert!(point("vsphere_vsan_performance_x,a=b").is_none());
    }
}
