//! The sink: a counting sink receives the same records as the collected parse, for every format,
//! and a sink can stop a parse early.

use std::path::{Path, PathBuf};

use sizer_parsers::awr::AwrReport;
use sizer_parsers::disk::DeviceReport;
use sizer_parsers::entity::EntityLog;
use sizer_parsers::sink::{Collect, DeviceLogEnd, DeviceLogStart};
use sizer_parsers::{parse_file, parse_path_into, Format, ParseError, ParseSettings, Parsed, Sink};

/// Counts every call and what it carried.
#[derive(Debug, Default)]
struct Counting {
    intervals: usize,
    begins: Vec<(Format, Option<String>)>,
    reports: usize,
    samples: usize,
    host_totals: usize,
    ends: Vec<(usize, usize)>,
    entity_series: Vec<usize>,
    /// Stop after this many device reports.
    stop_after: Option<usize>,
    /// `host_begin` calls (a prefixed capture: one log per host).
    hosts: usize,
}

impl Sink for Counting {
    fn interval_report(&mut self, report: AwrReport) -> Result<(), ParseError> {
        assert!(!report.source_format.is_empty() && !report.encoding.is_empty());
        self.intervals += 1;
        Ok(())
    }
    fn device_begin(&mut self, start: DeviceLogStart<'_>) -> Result<bool, ParseError> {
        self.begins
            .push((start.format, start.header.map(|h| h.host.clone())));
        Ok(true)
    }
    fn device_report(&mut self, report: DeviceReport) -> Result<bool, ParseError> {
        // One log at a time: begun (once per host of a prefixed capture), not yet ended.
        assert_eq!(
            self.begins.len(),
            self.hosts.max(1),
            "a report before device_begin"
        );
        assert_eq!(
            self.ends.len(),
            self.begins.len() - 1,
            "a report after device_end"
        );
        self.reports += 1;
        self.samples += report.devices.len();
        self.host_totals += report.devices.iter().filter(|d| d.host_total).count();
        Ok(self.stop_after.is_none_or(|n| self.reports < n))
    }
    fn device_end(&mut self, end: DeviceLogEnd) -> Result<(), ParseError> {
        self.ends.push((end.warnings.len(), end.skipped.len()));
        Ok(())
    }
    fn entity_log(&mut self, log: EntityLog) -> Result<(), ParseError> {
        self.entity_series.push(log.series.len());
        Ok(())
    }
    fn host_begin(&mut self, _host: &str) -> Result<(), ParseError> {
        assert_eq!(
            self.ends.len(),
            self.begins.len(),
            "a host begun inside a log"
        );
        self.hosts += 1;
        Ok(())
    }
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x != "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_counting_sink_gets_what_the_collected_parse_holds_for_every_fixture() {
    let mut formats = std::collections::BTreeSet::new();
    let mut checked = 0;
    for f in fixtures() {
        let Ok(parsed) = parse_file(&f) else {
            continue;
        };
        let mut count = Counting::default();
        let format = parse_path_into(&f, &ParseSettings::default(), &mut count)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        formats.insert(format.id());
        let name = f.display().to_string();
        match parsed {
            Parsed::Awr(r) => {
                assert_eq!(count.intervals, 1, "{name}");
                assert_eq!(r.source_format, format.id(), "{name}");
            }
            Parsed::Intervals { reports: rs } => {
                assert_eq!(count.intervals, rs.len(), "{name}");
                assert!(rs.iter().all(|r| r.source_format == format.id()), "{name}");
            }
            Parsed::Devices(log) => {
                assert_eq!(log.format, format.id(), "{name}");
                assert_eq!(count.begins.len(), 1, "{name}");
                assert_eq!(count.begins[0].0, format, "{name}");
                assert_eq!(
                    count.begins[0].1,
                    log.header.as_ref().map(|h| h.host.clone()),
                    "{name}"
                );
                assert_eq!(count.reports, log.reports.len(), "{name}");
                let samples: usize = log.reports.iter().map(|r| r.devices.len()).sum();
                assert_eq!(count.samples, samples, "{name}");
                assert_eq!(
                    count.ends,
                    vec![(log.warnings.len(), log.skipped.len())],
                    "{name}"
                );
            }
            Parsed::Entities(log) => {
                assert_eq!(log.format, format.id(), "{name}");
                assert_eq!(count.entity_series, vec![log.series.len()], "{name}");
            }
            // A prefixed capture: one log per host, each begun with its own banner.
            Parsed::Hosts { hosts, .. } => {
                assert_eq!(count.begins.len(), hosts.len(), "{name}");
                for (b, h) in count.begins.iter().zip(&hosts) {
                    assert_eq!(b.0.id(), h.log.format, "{name}");
                    assert_eq!(b.1, h.log.header.as_ref().map(|x| x.host.clone()), "{name}");
                }
                let reports: usize = hosts.iter().map(|h| h.log.reports.len()).sum();
                assert_eq!(count.reports, reports, "{name}");
                assert_eq!(count.ends.len(), hosts.len(), "{name}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} fixtures read");
    // Every kind of format was exercised, the streaming one included.
    for id in [
        "awr_html",
        "awr_text",
        "statspack",
        "iostat_text",
        "sar_text",
        "sadf_csv",
        "sadf_json",
        "iostat_json",
        "aix_iostat",
        "nmon",
        "oswatcher",
        "esxtop_csv",
        "hcibench",
    ] {
        assert!(formats.contains(id), "no fixture read as {id}: {formats:?}");
    }
}

#[test]
fn collect_gives_back_parse_file_records() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sar/aix-7.2-sar-d-Kbs.txt");
    let mut sink = Collect::new();
    parse_path_into(&f, &ParseSettings::default(), &mut sink).unwrap();
    let (Some(Parsed::Devices(a)), Ok(Parsed::Devices(b))) = (sink.into_parsed(), parse_file(&f))
    else {
        panic!("not a device log");
    };
    assert_eq!(a, b);
    assert_eq!(a.format, "sar_text");
}

#[test]
fn a_sink_can_stop_a_streamed_iostat_log_after_one_report() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/iostat/x-12.3-flush-iso-N.txt");
    let Ok(Parsed::Devices(log)) = parse_file(&f) else {
        panic!("not a device log");
    };
    assert!(log.reports.len() > 1);
    let mut count = Counting {
        stop_after: Some(1),
        ..Counting::default()
    };
    parse_path_into(&f, &ParseSettings::default(), &mut count).unwrap();
    assert_eq!(count.reports, 1);
    assert_eq!(count.samples, log.reports[0].devices.len());
    assert!(count.ends.is_empty(), "no device_end after a stop");
}

#[test]
fn a_sink_can_stop_a_collected_log_too() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sadf/j-11-utc-disk-io.json");
    let mut count = Counting {
        stop_after: Some(1),
        ..Counting::default()
    };
    assert_eq!(
        parse_path_into(&f, &ParseSettings::default(), &mut count).unwrap(),
        Format::SadfJson
    );
    assert_eq!(count.reports, 1);
    assert!(count.ends.is_empty());
}

#[test]
fn sar_b_rows_are_typed_host_totals() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sadf/j-11-utc-disk-io.json");
    let Ok(Parsed::Devices(log)) = parse_file(&f) else {
        panic!("not a device log");
    };
    let totals: Vec<_> = log
        .reports
        .iter()
        .flat_map(|r| &r.devices)
        .filter(|d| d.host_total)
        .collect();
    assert!(!totals.is_empty());
    for d in &totals {
        assert_eq!(d.device, "sar -b");
        assert!(d.group);
    }
    // No disk row is a host total.
    assert!(log
        .reports
        .iter()
        .flat_map(|r| &r.devices)
        .all(|d| d.host_total == (d.device == "sar -b")));
}

#[test]
fn iostat_y_clears_since_boot_on_a_collected_log_and_on_every_streamed_run() {
    let settings = ParseSettings {
        first_report_since_boot: false,
        keep_values: false,
    };
    // Streamed (Linux iostat text): no report is since boot, and values are not kept.
    let f =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/iostat/db01-awr-window-12.3.txt");
    let mut sink = Collect::new();
    parse_path_into(&f, &settings, &mut sink).unwrap();
    let Some(Parsed::Devices(log)) = sink.into_parsed() else {
        panic!("not a device log");
    };
    assert!(log.reports.iter().all(|r| !r.since_boot));
    assert!(log.reports[0].devices.iter().all(|d| d.values.is_empty()));
    // Read whole (iostat -o JSON): the first report is an interval.
    let f = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/iostat-json/x-11.5-old-keys-t.json");
    let Ok(Parsed::Devices(default)) = parse_file(&f) else {
        panic!("not a device log");
    };
    assert!(default.reports[0].since_boot);
    let mut sink = Collect::new();
    parse_path_into(&f, &settings, &mut sink).unwrap();
    let Some(Parsed::Devices(log)) = sink.into_parsed() else {
        panic!("not a device log");
    };
    assert!(!log.reports[0].since_boot);
    assert_eq!(log.reports.len(), default.reports.len());
}

#[test]
fn a_gzip_log_is_streamed_like_the_plain_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/oswatcher");
    let mut plain = Counting::default();
    let mut gz = Counting::default();
    parse_path_into(
        &dir.join("db01_iostat_26.11.30.0800.dat"),
        &ParseSettings::default(),
        &mut plain,
    )
    .unwrap();
    parse_path_into(
        &dir.join("db01_iostat_26.11.30.0800.dat.gz"),
        &ParseSettings::default(),
        &mut gz,
    )
    .unwrap();
    assert!(plain.reports > 0);
    assert_eq!((plain.reports, plain.samples), (gz.reports, gz.samples));
}

/// Every file of the corpus and the fixtures: what `parse_path_into` collects is what
/// `parse_file` returns, record for record, and a failure is the same failure, except that a
/// streamed Linux iostat log is read leniently (a report with a bad value is left out, a cut
/// line stops the read) where `parse_file` is strict.
#[test]
fn parse_path_into_collects_what_parse_file_returns_for_every_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = fixtures();
    let corpus = root.join("../../shared/corpus");
    if corpus.is_dir() {
        let mut stack = vec![corpus];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    files.push(p);
                }
            }
        }
    } else {
        crate::common::corpus_absent(&corpus);
    }
    let (mut same, mut lenient) = (0, 0);
    for f in &files {
        let name = f.display().to_string();
        let whole = parse_file(f);
        let mut sink = Collect::new();
        let streamed = parse_path_into(f, &ParseSettings::default(), &mut sink);
        match (whole, streamed) {
            (Ok(a), Ok(_)) => {
                let b = sink.into_parsed().expect("records");
                assert_eq!(
                    serde_json::to_value(&a).unwrap(),
                    serde_json::to_value(&b).unwrap(),
                    "{name}"
                );
                same += 1;
            }
            (Err(a), Err(b)) if a.to_string() == b.to_string() => same += 1,
            // The streamed iostat log's "no device line" error names no line (as the engine's
            // stream always said); the whole-text one names the first report's.
            (Err(a), Err(b)) => {
                let (a, b) = (a.to_string(), b.to_string());
                assert!(a.starts_with("line "), "{name}: {a}");
                assert!(
                    a.ends_with(&b) && b.contains("device statistics in this Linux iostat log"),
                    "{name}: {a} / {b}"
                );
                lenient += 1;
            }
            (Err(_), Ok(Format::IostatText)) => {
                let Some(Parsed::Devices(log)) = sink.into_parsed() else {
                    panic!("{name}: no records");
                };
                assert!(
                    log.skipped
                        .iter()
                        .any(|s| s.reason.starts_with("report left out: "))
                        || log
                            .warnings
                            .iter()
                            .any(|w| w.starts_with("reading stopped at a line")),
                    "{name}: streamed without saying what it left out"
                );
                lenient += 1;
            }
            (a, b) => panic!(
                "{name}: parse_file {:?}, parse_path_into {:?}",
                a.map(|_| ()),
                b
            ),
        }
    }
    assert!(same > 100, "only {same} files compared");
    assert!(lenient >= 1, "no iostat log was read leniently");
}

/// Solaris `iostat -x` streams: the reports arrive one by one, a sink can stop after the first,
/// and the whole read gives what `parse_file` gives (checked for every file above).
#[test]
fn solaris_iostat_streams_report_by_report() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/iostat/solaris-illumos-iostat-xzn-EXCERPTS.txt");
    if !corpus.is_file() {
        crate::common::corpus_absent(&corpus);
        return;
    }
    let Ok(Parsed::Devices(log)) = parse_file(&corpus) else {
        panic!("not a device log");
    };
    assert_eq!(log.format, "solaris_iostat");
    assert!(log.reports.len() > 1);
    let mut all = Counting::default();
    assert_eq!(
        parse_path_into(&corpus, &ParseSettings::default(), &mut all).unwrap(),
        Format::SolarisIostat
    );
    assert_eq!(all.reports, log.reports.len());
    assert_eq!(all.ends.len(), 1);
    let mut one = Counting {
        stop_after: Some(1),
        ..Counting::default()
    };
    parse_path_into(&corpus, &ParseSettings::default(), &mut one).unwrap();
    assert_eq!(one.reports, 1);
    assert_eq!(one.samples, log.reports[0].devices.len());
    assert!(one.ends.is_empty());
}

/// A database report names the format it was read from, typed: AWR text, Statspack and AWR HTML.
#[test]
fn interval_report_format() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (file, format) in [
        ("fixtures/awr/text/awrrpt_19c_small.txt", Format::AwrText),
        (
            "fixtures/awr/text/spreport_10g_small.txt",
            Format::Statspack,
        ),
        ("fixtures/awr/awrrpt_19c_small.html", Format::AwrHtml),
    ] {
        let Ok(Parsed::Awr(r)) = parse_file(&root.join(file)) else {
            panic!("{file}: not a database report");
        };
        assert_eq!(
            (r.format(), r.is_statspack()),
            (format, format == Format::Statspack),
            "{file}"
        );
    }
}

/// AIX `iostat` streams: for every AIX fixture and the corpus's AIX file, the streamed records
/// (through `parse_path_into`, and through `parse_stream` over a reader, with either
/// since-boot setting) equal the collected parse, a failure is the same failure, and a sink can
/// stop after the first report.
#[test]
fn aix_iostat_streams_what_the_collected_parse_holds() {
    use sizer_parsers::unix_iostat::AixIostat;
    use sizer_parsers::FormatParser;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("../fixtures/aix"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .collect();
    files.sort();
    let corpus = root.join("../../shared/corpus/iostat/aix-iostat-D-and-plain-EXCERPTS.txt");
    if corpus.is_file() {
        files.push(corpus);
    } else {
        crate::common::corpus_absent(&corpus);
    }
    let (mut streamed_ok, mut failures) = (0, 0);
    for f in &files {
        let name = f.display().to_string();
        let whole = parse_file(f);
        let mut sink = Collect::new();
        let streamed = parse_path_into(f, &ParseSettings::default(), &mut sink);
        let log = match (whole, streamed) {
            (Ok(Parsed::Devices(log)), Ok(format)) => {
                assert_eq!(format, Format::AixIostat, "{name}");
                let Some(Parsed::Devices(b)) = sink.into_parsed() else {
                    panic!("{name}: no device records");
                };
                assert_eq!(
                    serde_json::to_value(&log).unwrap(),
                    serde_json::to_value(&b).unwrap(),
                    "{name}"
                );
                log
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{name}");
                failures += 1;
                continue;
            }
            (a, b) => panic!(
                "{name}: parse_file {:?}, parse_path_into {b:?}",
                a.map(|_| ())
            ),
        };
        assert!(AixIostat.streams());
        let text = std::fs::read_to_string(f).unwrap();
        for since_boot in [true, false] {
            let settings = ParseSettings {
                first_report_since_boot: since_boot,
                ..ParseSettings::default()
            };
            let mut collected = Collect::new();
            AixIostat.parse(&text, &settings, &mut collected).unwrap();
            let mut streamed = Collect::new();
            AixIostat
                .parse_stream(&mut text.as_bytes(), &settings, &mut streamed)
                .unwrap();
            assert_eq!(
                serde_json::to_value(collected.into_parsed()).unwrap(),
                serde_json::to_value(streamed.into_parsed()).unwrap(),
                "{name}, first report since boot: {since_boot}"
            );
        }
        let mut one = Counting {
            stop_after: Some(1),
            ..Counting::default()
        };
        parse_path_into(f, &ParseSettings::default(), &mut one).unwrap();
        assert_eq!(one.reports, 1, "{name}");
        assert_eq!(one.samples, log.reports[0].devices.len(), "{name}");
        assert!(one.ends.is_empty(), "{name}");
        streamed_ok += 1;
    }
    assert!(streamed_ok >= 2, "only {streamed_ok} AIX logs streamed");
    assert!(failures >= 1, "no AIX failure compared");
}
