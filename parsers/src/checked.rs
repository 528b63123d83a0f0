//! Every number leaving the crate is a value or unknown: the last check on the way to the sink.
//!
//! # Flow
//! [`crate::parse_bytes_into`] and [`crate::parse_path_into`] put a [`Checked`] between the format
//! parser and the caller's sink. Each OS-log sample (its columns, its normalised figures, the
//! report's CPU columns and interval) and each entity series value goes through
//! [`crate::num::value`] (finite, not negative, at most [`crate::num::MAX_VALUE`]); a value that
//! fails becomes `None` and is counted. The AWR and Statspack parsers read their cells with
//! [`crate::num::number`], which does the same check cell by cell, so their records pass as they
//! are.
//!
//! A normalised total whose part was refused is refused with it (a `-1` in `r/s` must not leave
//! `r/s + w/s` one request short), so a refused cell can only make a figure unknown, never smaller.
//!
//! At the end of a log each refused column (or series) is one warning naming the first refused
//! cell (the line of its report, or the sample of a series), the device or entity, the column or metric, why, and how many more cells
//! of it were refused: `device sda, column 'r/s', line 7 (report): 'NaN' is not a finite number —
//! treated as unknown (and 3 more cells of it, the first is shown)`.

use crate::awr::AwrReport;
use crate::disk::{DeviceReport, Normalised};
use crate::entity::EntityLog;
use crate::error::ParseError;
use crate::num::{self, Range};
use crate::sink::{DeviceLogEnd, DeviceLogStart, Sink};

/// How a refused number is printed in a warning: as `str::parse` would read it back.
fn shown(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// The refused cells of one place (device and column, or entity and metric): the first, and how
/// many.
struct Refused {
    place: String,
    /// Where the first refused cell was (`, line 12 (report)`, `, sample at 2026-01-12 10:00:00`).
    first_at: String,
    first: String,
    count: usize,
}

/// A [`Sink`] that makes every number that is not a value unknown and warns about it (see the
/// module docs), then hands the records to `inner`.
pub(crate) struct Checked<'a> {
    inner: &'a mut dyn Sink,
    refused: Vec<Refused>,
}

impl<'a> Checked<'a> {
    /// Checks the records on their way to `inner`.
    pub(crate) fn new(inner: &'a mut dyn Sink) -> Self {
        Checked {
            inner,
            refused: Vec::new(),
        }
    }

    /// Keeps `v` when it is a value in `range`, else records why and makes it unknown. Returns
    /// whether it was refused. `place` names the column or series, `at` where in it this cell is
    /// (kept for the first refused cell of the place).
    #[inline]
    fn check(
        &mut self,
        v: &mut Option<f64>,
        range: Range,
        place: impl FnOnce() -> String,
        at: &dyn Fn() -> String,
    ) -> bool {
        let Some(x) = *v else { return false };
        // The cell text is formatted only for a refused value: formatting every accepted one
        // made the checked sink cost more than the iostat reader itself.
        match num::value(x, "", range) {
            Ok(ok) => {
                *v = Some(ok);
                false
            }
            Err(_) => {
                *v = None;
                self.refuse(x, range, place(), at);
                true
            }
        }
    }

    /// Records a refused value `x` of `place` (cold: the accepted path stays small enough to
    /// inline into every caller).
    #[cold]
    fn refuse(&mut self, x: f64, range: Range, place: String, at: &dyn Fn() -> String) {
        let why = num::value(x, &shown(x), range).err().unwrap_or_default();
        match self.refused.iter_mut().find(|r| r.place == place) {
            Some(r) => r.count += 1,
            None => self.refused.push(Refused {
                place,
                first_at: at(),
                first: why,
                count: 1,
            }),
        }
    }

    /// The warnings of the refused cells, once per place, in the order first met.
    fn warnings(&mut self) -> Vec<String> {
        self.refused
            .drain(..)
            .map(|r| {
                let more = match r.count {
                    1 => String::new(),
                    2 => " (and 1 more cell of it, the first is shown)".to_string(),
                    n => format!(" (and {} more cells of it, the first is shown)", n - 1),
                };
                format!(
                    "{}{}: {} — treated as unknown{more}",
                    r.place, r.first_at, r.first
                )
            })
            .collect()
    }

    fn check_normalised(
        &mut self,
        n: &mut Normalised,
        place: &dyn Fn(&str) -> String,
        at: &dyn Fn() -> String,
    ) {
        use Range::NonNegative;
        let mut iops = [
            ("read IOPS", &mut n.read_iops),
            ("write IOPS", &mut n.write_iops),
            ("discard IOPS", &mut n.discard_iops),
            ("total IOPS", &mut n.total_iops),
        ];
        self.check_group(&mut iops, place, at);
        let mut bytes = [
            ("read bytes/s", &mut n.read_bytes_per_s),
            ("write bytes/s", &mut n.write_bytes_per_s),
            ("discard bytes/s", &mut n.discard_bytes_per_s),
            ("total bytes/s", &mut n.total_bytes_per_s),
        ];
        self.check_group(&mut bytes, place, at);
        for (what, v) in [
            ("read await (ms)", &mut n.read_await_ms),
            ("write await (ms)", &mut n.write_await_ms),
            ("await (ms)", &mut n.await_ms),
            ("queue depth", &mut n.queue_depth),
            ("request size (bytes)", &mut n.avg_request_bytes),
            ("read request size (bytes)", &mut n.read_request_bytes),
            ("write request size (bytes)", &mut n.write_request_bytes),
            ("service time (ms)", &mut n.service_ms),
        ] {
            self.check(v, NonNegative, || place(what), at);
        }
        // %util may pass 100 (sysstat before 12.x on multi-queue devices): not negative only.
        self.check(&mut n.util_pct, NonNegative, || place("%util"), at);
    }

    /// Checks the parts and the total of one figure: when one is refused, every figure of the
    /// group is unknown (a total without one of its parts is not the total).
    fn check_group(
        &mut self,
        group: &mut [(&str, &mut Option<f64>)],
        place: &dyn Fn(&str) -> String,
        at: &dyn Fn() -> String,
    ) {
        let mut any = false;
        for (what, v) in group.iter_mut() {
            any |= self.check(v, Range::NonNegative, || place(what), at);
        }
        if any {
            for (_, v) in group.iter_mut() {
                **v = None;
            }
        }
    }

    fn check_report(&mut self, r: &mut DeviceReport) {
        let line = r.line;
        let at = || format!(", line {line} (report)");
        self.check(
            &mut r.interval_s,
            Range::NonNegative,
            || "interval".into(),
            &at,
        );
        for d in &mut r.devices {
            let dev = &d.device;
            let place = |what: &str| format!("device {dev}, {what}");
            let mut raw_refused = false;
            for (c, v) in &mut d.values {
                raw_refused |= self.check(
                    v,
                    Range::NonNegative,
                    || place(&format!("column '{c}'")),
                    &at,
                );
            }
            if raw_refused {
                // The normalised figures come from the columns: a refused column may have left
                // a finite but wrong figure (a -1 in `r/s` under `tps`), so none is known. The
                // host total of the interval is then unknown too, never one device short.
                d.normalised = Normalised::default();
            }
            self.check_normalised(&mut d.normalised, &place, &at);
        }
        if let Some(cpu) = &mut r.cpu {
            let place = |what: &str| format!("CPU, {what}");
            let mut refused = false;
            for (c, v) in &mut cpu.values {
                refused |= self.check(v, Range::Percent, || place(&format!("column '{c}'")), &at);
            }
            refused |= self.check(&mut cpu.busy_pct, Range::Percent, || place("busy %"), &at);
            refused |= self.check(
                &mut cpu.iowait_pct,
                Range::Percent,
                || place("iowait %"),
                &at,
            );
            if refused {
                cpu.busy_pct = None;
                cpu.iowait_pct = None;
            }
        }
    }

    fn check_entities(&mut self, log: &mut EntityLog) {
        for s in &mut log.series {
            // A metric sizer does not use keeps its raw values, of any sign; a used one is a
            // measure, never negative.
            let range = match s.measure {
                Some(_) => Range::NonNegative,
                None => Range::Signed { percent: false },
            };
            let place = format!(
                "entity {} ({}), metric '{}'",
                s.entity, s.entity_type, s.metric
            );
            for (k, v) in s.values.iter_mut().enumerate() {
                let when = s.times.get(k).copied().flatten();
                let at = || match when {
                    Some(t) => format!(", sample {} at {t}", k + 1),
                    None => format!(", sample {}", k + 1),
                };
                self.check(v, range, || place.clone(), &at);
            }
        }
        for w in self.warnings() {
            log.warn(w);
        }
    }
}

impl Sink for Checked<'_> {
    fn interval_report(&mut self, report: AwrReport) -> Result<(), ParseError> {
        self.inner.interval_report(report)
    }
    fn device_begin(&mut self, start: DeviceLogStart<'_>) -> Result<bool, ParseError> {
        self.inner.device_begin(start)
    }
    fn device_report(&mut self, mut report: DeviceReport) -> Result<bool, ParseError> {
        self.check_report(&mut report);
        self.inner.device_report(report)
    }
    fn device_end(&mut self, mut end: DeviceLogEnd) -> Result<(), ParseError> {
        for w in self.warnings() {
            if !end.warnings.contains(&w) {
                end.warnings.push(w);
            }
        }
        self.inner.device_end(end)
    }
    fn entity_log(&mut self, mut log: EntityLog) -> Result<(), ParseError> {
        self.check_entities(&mut log);
        self.inner.entity_log(log)
    }
    fn host_begin(&mut self, host: &str) -> Result<(), ParseError> {
        self.inner.host_begin(host)
    }
    fn prefixed_end(&mut self, warnings: Vec<String>) -> Result<(), ParseError> {
        self.inner.prefixed_end(warnings)
    }
}
