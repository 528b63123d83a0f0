//! The reports of an archive, held in a compact form until the archive's banner is complete (see
//! the module docs, "Streaming"): device names and column-name lists are interned once per
//! archive, each value is 8 bytes, and of the [`Normalised`] figures only those known are kept.

use std::collections::HashMap;

use chrono::NaiveDateTime;

use crate::disk::{CpuUtil, DeviceReport, DeviceSample, Normalised};

/// `Option<f64>` in 8 bytes: a blank cell is a NaN with a payload no parsed number carries
/// (a parsed `NaN` is the canonical one).
const BLANK_BITS: u64 = 0x7ff8_0000_0b1a_4c00;

fn pack(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::from_bits(BLANK_BITS))
}

fn unpack(v: f64) -> Option<f64> {
    (v.to_bits() != BLANK_BITS).then_some(v)
}

/// The known figures of a [`Normalised`]: bit `k` of `known` set for field `k`, whose value is
/// the next one in `values`.
struct PackedNormalised {
    known: u32,
    values: Box<[f64]>,
}

impl PackedNormalised {
    fn new(n: &Normalised) -> Self {
        let mut known = 0u32;
        let mut values = Vec::new();
        for (k, v) in n.to_fields().into_iter().enumerate() {
            if let Some(v) = v {
                known |= 1 << k;
                values.push(v);
            }
        }
        PackedNormalised {
            known,
            values: values.into_boxed_slice(),
        }
    }

    fn normalised(&self) -> Normalised {
        let mut f = [None; Normalised::FIELDS];
        let mut next = self.values.iter();
        for (k, slot) in f.iter_mut().enumerate() {
            if self.known & (1 << k) != 0 {
                *slot = next.next().copied();
            }
        }
        Normalised::from_fields(f)
    }
}

struct HeldDevice {
    /// Index in [`Held::names`].
    name: u32,
    group: bool,
    host_total: bool,
    /// Index in [`Held::columns`].
    columns: u32,
    values: Box<[f64]>,
    normalised: PackedNormalised,
}

/// A report's host CPU ([`CpuUtil`]): its column list interned like a device's, its values
/// packed, the busy and iowait figures as the block's parser (and the checked sink) left them.
struct HeldCpu {
    /// Index in [`Held::columns`].
    columns: u32,
    values: Box<[f64]>,
    busy: Option<f64>,
    iowait: Option<f64>,
}

struct HeldReport {
    timestamp: Option<String>,
    time: Option<NaiveDateTime>,
    utc: bool,
    interval_s: Option<f64>,
    since_boot: bool,
    summary: bool,
    line: usize,
    devices: Vec<HeldDevice>,
    cpu: Option<HeldCpu>,
}

/// Reports in file order, compactly; [`Held::into_reports`] gives them back as they were put.
#[derive(Default)]
pub(super) struct Held {
    names: Vec<String>,
    name_ids: HashMap<String, u32>,
    /// Column-name lists (one per iostat layout in the archive, a few at most).
    columns: Vec<Vec<String>>,
    last_columns: Option<u32>,
    reports: Vec<HeldReport>,
}

impl Held {
    /// True when no report is held.
    pub(super) fn is_empty(&self) -> bool {
        self.reports.is_empty()
    }

    fn name_id(&mut self, name: &str) -> u32 {
        if let Some(&k) = self.name_ids.get(name) {
            return k;
        }
        let k = self.names.len() as u32;
        self.names.push(name.to_string());
        self.name_ids.insert(name.to_string(), k);
        k
    }

    fn columns_id(&mut self, values: &[(String, Option<f64>)]) -> u32 {
        let same = |cols: &[String]| {
            cols.len() == values.len() && cols.iter().zip(values).all(|(c, (n, _))| c == n)
        };
        if let Some(k) = self.last_columns {
            if same(&self.columns[k as usize]) {
                return k;
            }
        }
        let k = match self.columns.iter().position(|c| same(c)) {
            Some(k) => k as u32,
            None => {
                self.columns
                    .push(values.iter().map(|(n, _)| n.clone()).collect());
                (self.columns.len() - 1) as u32
            }
        };
        self.last_columns = Some(k);
        k
    }

    /// Holds one report.
    pub(super) fn push(&mut self, r: DeviceReport) {
        let devices = r
            .devices
            .iter()
            .map(|d| HeldDevice {
                name: self.name_id(&d.device),
                group: d.group,
                host_total: d.host_total,
                columns: self.columns_id(&d.values),
                values: d.values.iter().map(|(_, v)| pack(*v)).collect(),
                normalised: PackedNormalised::new(&d.normalised),
            })
            .collect();
        let cpu = r.cpu.as_ref().map(|c| HeldCpu {
            columns: self.columns_id(&c.values),
            values: c.values.iter().map(|(_, v)| pack(*v)).collect(),
            busy: c.busy_pct,
            iowait: c.iowait_pct,
        });
        self.reports.push(HeldReport {
            timestamp: r.timestamp,
            time: r.time,
            utc: r.utc,
            interval_s: r.interval_s,
            since_boot: r.since_boot,
            summary: r.summary,
            line: r.line,
            devices,
            cpu,
        });
    }

    /// The held reports, rebuilt one at a time, in the order they were put.
    pub(super) fn into_reports(self) -> impl Iterator<Item = DeviceReport> {
        let Held {
            names,
            columns,
            reports,
            ..
        } = self;
        reports.into_iter().map(move |h| DeviceReport {
            timestamp: h.timestamp,
            time: h.time,
            utc: h.utc,
            interval_s: h.interval_s,
            since_boot: h.since_boot,
            summary: h.summary,
            line: h.line,
            devices: h
                .devices
                .iter()
                .map(|d| DeviceSample {
                    device: names[d.name as usize].clone(),
                    group: d.group,
                    host_total: d.host_total,
                    values: columns[d.columns as usize]
                        .iter()
                        .zip(d.values.iter())
                        .map(|(c, v)| (c.clone(), unpack(*v)))
                        .collect(),
                    normalised: d.normalised.normalised(),
                })
                .collect(),
            cpu: h.cpu.map(|c| CpuUtil {
                values: columns[c.columns as usize]
                    .iter()
                    .zip(c.values.iter())
                    .map(|(n, v)| (n.clone(), unpack(*v)))
                    .collect(),
                busy_pct: c.busy,
                iowait_pct: c.iowait,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_comes_back_as_it_was_put() {
        let mut r = DeviceReport::new(7);
        r.timestamp = Some("Mon Nov 30 08:00:00 UTC 2026".into());
        r.since_boot = true;
        r.devices.push(DeviceSample {
            device: "sda".into(),
            group: false,
            host_total: false,
            values: vec![("r/s".into(), Some(4.0)), ("w/s".into(), None)],
            normalised: Normalised {
                read_iops: Some(4.0),
                service_ms: Some(0.5),
                ..Default::default()
            },
        });
        let mut held = Held::default();
        held.push(r.clone());
        // The host CPU comes back too, its unknown column unknown (never 0).
        r.cpu = Some(CpuUtil::from_columns(vec![
            ("%user".into(), Some(5.0)),
            ("%steal".into(), None),
            ("%iowait".into(), Some(96.0)),
            ("%idle".into(), Some(0.0)),
        ]));
        held.push(r.clone());
        assert_eq!(held.columns.len(), 2);
        let back: Vec<DeviceReport> = held.into_reports().collect();
        assert_eq!(back[1].cpu.as_ref().and_then(|c| c.iowait_pct), Some(96.0));
        let first = DeviceReport {
            cpu: None,
            ..r.clone()
        };
        assert_eq!(back, vec![first, r]);
        assert_eq!(unpack(pack(Some(f64::NAN))).map(f64::is_nan), Some(true));
    }
}
