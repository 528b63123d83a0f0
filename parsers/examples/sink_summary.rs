//! Reads each file given through the sink and prints one line per input: its format, and how many
//! reports, device samples, series or intervals it holds. A model of what the engine's host
//! ingest does: keep a few figures per report, never the whole log (Linux iostat streams).
//!
//! `cargo run -p sizer-parsers --example sink_summary -- fixtures/iostat/*.txt`

use sizer_parsers::awr::AwrReport;
use sizer_parsers::disk::DeviceReport;
use sizer_parsers::entity::EntityLog;
use sizer_parsers::sink::{DeviceLogEnd, DeviceLogStart};
use sizer_parsers::{parse_path_into, ParseError, ParseSettings, Sink};

#[derive(Default)]
struct Summary {
    host: Option<String>,
    reports: usize,
    samples: usize,
    host_totals: usize,
    peak_iops: f64,
    skipped: usize,
    text: String,
}

impl Sink for Summary {
    fn interval_report(&mut self, r: AwrReport) -> Result<(), ParseError> {
        self.text = format!("{} ({} activity rows)", r.db.db_name, r.activity.len());
        Ok(())
    }
    fn device_begin(&mut self, start: DeviceLogStart<'_>) -> Result<bool, ParseError> {
        self.host = start.header.map(|h| h.host.clone());
        Ok(true)
    }
    fn device_report(&mut self, r: DeviceReport) -> Result<bool, ParseError> {
        self.reports += 1;
        self.samples += r.devices.len();
        self.host_totals += r.devices.iter().filter(|d| d.host_total).count();
        let iops: f64 = r
            .devices
            .iter()
            .filter(|d| !d.group && !d.host_total)
            .filter_map(|d| d.normalised.total_iops)
            .sum();
        self.peak_iops = self.peak_iops.max(iops);
        Ok(true)
    }
    fn device_end(&mut self, end: DeviceLogEnd) -> Result<(), ParseError> {
        self.skipped = end.skipped.len();
        self.text = format!(
            "host {:?}: {} reports, {} samples ({} sar -b totals), peak {:.1} IOPS summed over every device row, {} skipped",
            self.host, self.reports, self.samples, self.host_totals, self.peak_iops, self.skipped
        );
        Ok(())
    }
    fn entity_log(&mut self, log: EntityLog) -> Result<(), ParseError> {
        self.text = format!("{} series", log.series.len());
        Ok(())
    }
}

fn main() {
    let settings = ParseSettings {
        keep_values: false,
        ..ParseSettings::default()
    };
    for p in std::env::args().skip(1) {
        let mut sink = Summary::default();
        match parse_path_into(std::path::Path::new(&p), &settings, &mut sink) {
            Ok(format) => println!("{p}: {}: {}", format.id(), sink.text),
            Err(e) => eprintln!("{p}: {e}"),
        }
    }
}
