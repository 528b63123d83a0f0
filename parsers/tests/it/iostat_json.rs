//! The sysstat `iostat -o JSON` parser on real corpus files (`../shared/corpus/`, read in place,
//! never copied) and on the hand-made fixtures in `fixtures/iostat-json/` (see its README).
//!
//! Every real value below was read by hand from the cited file and line.

use crate::common::shared;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use sizer_parsers::disk::{DeviceLog, DeviceSample};
use sizer_parsers::iostat::ReaderOptions;
use sizer_parsers::iostat_json::{looks_like, parse, parse_bytes, parse_with};
use sizer_parsers::ParseError;

const MIB: f64 = 1_048_576.0;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/iostat-json")
        .join(rel)
}

fn corpus_text(rel: &str) -> Option<String> {
    let p = shared(rel);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    Some(String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned())
}

fn corpus(rel: &str) -> Option<DeviceLog> {
    let text = corpus_text(rel)?;
    Some(parse(&text).unwrap_or_else(|e| panic!("{rel}: {e}")))
}

fn fix(rel: &str) -> DeviceLog {
    let bytes = std::fs::read(fixture(rel)).unwrap();
    parse_bytes(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[track_caller]
fn close(a: Option<f64>, b: f64, what: &str) {
    let a = a.unwrap_or_else(|| panic!("{what}: unknown, expected {b}"));
    assert!(
        (a - b).abs() <= 1e-6 * b.abs().max(1.0),
        "{what}: {a} != {b}"
    );
}

fn dev<'a>(log: &'a DeviceLog, report: usize, name: &str) -> &'a DeviceSample {
    log.reports[report]
        .devices
        .iter()
        .find(|d| d.device == name)
        .unwrap_or_else(|| panic!("no {name} in report {report}"))
}

const SYSSTAT: &str = "sysstat-tests/tests/";

#[test]
fn sysstat_g_json_mb_and_groups() {
    // expected.iostat-g-JSON: `iostat -o JSON -dm -g disks sda sdb -g other sdc sdd 1 2`.
    let Some(log) = corpus(&format!("{SYSSTAT}expected.iostat-g-JSON")) else {
        return;
    };
    assert_eq!(log.format, "iostat_json");
    // Lines 4-9: "nodename": "SYSSTAT.TEST", "sysname": "Linux", "release": "1.2.3-TEST",
    // "machine": "x86_64", "number-of-cpus": 9, "date": "06/01/20"
    let h = log.header.as_ref().unwrap();
    assert_eq!(
        (h.sysname.as_str(), h.kernel.as_str(), h.host.as_str()),
        ("Linux", "1.2.3-TEST", "SYSSTAT.TEST")
    );
    assert_eq!(
        (h.date.as_deref(), h.arch.as_deref(), h.cpus),
        (Some("06/01/20"), Some("x86_64"), Some(9))
    );
    assert_eq!(log.reports.len(), 2);
    assert_eq!((log.reports[0].line, log.reports[1].line), (11, 21));
    assert!(log.reports[0].since_boot && !log.reports[1].since_boot);
    assert_eq!(log.reports[0].timestamp, None, "no -t");
    // Line 13: {"disk_device": "sda", "tps": 8.59, "MB_read/s": 0.22, "MB_wrtn/s": 0.06,
    // "MB_dscd/s": 0.00, "MB_read": 1560, "MB_wrtn": 400, "MB_dscd": 0}
    let sda = dev(&log, 0, "sda");
    assert!(!sda.group);
    close(sda.normalised.total_iops, 8.59, "tps");
    close(sda.normalised.read_bytes_per_s, 0.22 * MIB, "MB_read/s");
    close(sda.normalised.write_bytes_per_s, 0.06 * MIB, "MB_wrtn/s");
    close(sda.value("MB_read"), 1560.0, "MB_read");
    // Line 15: {"disk_device": " disks", "tps": 8.60, … "MB_read": 1562, …}
    let g = dev(&log, 0, "disks");
    assert!(g.group, "leading space: a -g group");
    close(g.normalised.total_iops, 8.60, "group tps");
    close(g.value("MB_read"), 1562.0, "group MB_read");
    assert!(dev(&log, 1, "other").group);
    assert_eq!(log.reports[1].devices.len(), 6);
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
}

#[test]
fn sysstat_x_p_all_json_matches_the_text_report() {
    // expected.iostat-x-p-ALL-JSON: `iostat -o JSON -x -p ALL 1 2`.
    let Some(log) = corpus(&format!("{SYSSTAT}expected.iostat-x-p-ALL-JSON")) else {
        return;
    };
    assert_eq!(log.reports.len(), 2);
    assert_eq!(log.reports[0].devices.len(), 22);
    // Line 13: {"disk_device": "sda", "r/s": 6.90, "w/s": 1.69, …, "rkB/s": 222.14,
    // "wkB/s": 57.08, …, "rrqm/s": 0.39, "wrqm/s": 1.36, …, "rrqm": 5.38, "wrqm": 44.55, …,
    // "r_await": 12.58, "w_await": 9.61, …, "rareq-sz": 32.21, "wareq-sz": 33.71, …,
    // "aqu-sz": 0.10, "util": 0.46}
    let sda = dev(&log, 0, "sda");
    close(sda.value("rrqm/s"), 0.39, "rrqm/s: merges");
    close(sda.value("%rrqm"), 5.38, "rrqm: percent");
    close(sda.value("%wrqm"), 44.55, "wrqm: percent");
    let n = &sda.normalised;
    close(n.read_iops, 6.90, "r/s");
    close(n.write_iops, 1.69, "w/s");
    close(n.read_bytes_per_s, 222.14 * 1024.0, "rkB/s");
    close(n.write_bytes_per_s, 57.08 * 1024.0, "wkB/s");
    close(n.read_await_ms, 12.58, "r_await");
    close(n.write_await_ms, 9.61, "w_await");
    close(n.read_request_bytes, 32.21 * 1024.0, "rareq-sz");
    close(n.queue_depth, 0.10, "aqu-sz");
    close(n.util_pct, 0.46, "util");
    // Line 32: sdq "d/s": 1.20, "dkB/s": 25.21, "d_await": 14.24, "dareq-sz": 20.99
    let sdq = dev(&log, 0, "sdq");
    close(sdq.normalised.discard_iops, 1.20, "d/s");
    close(sdq.normalised.discard_bytes_per_s, 25.21 * 1024.0, "dkB/s");
    close(sdq.value("d_await"), 14.24, "d_await");
    // Same run as the text expected.iostat-x-p-ALL: the same devices, values and units.
    let Some(text) = corpus_text(&format!("{SYSSTAT}expected.iostat-x-p-ALL")) else {
        return;
    };
    let t = sizer_parsers::iostat::parse(&text).unwrap();
    assert_eq!(t.reports.len(), log.reports.len());
    for (rj, rt) in log.reports.iter().zip(&t.reports) {
        assert_eq!(rj.since_boot, rt.since_boot);
        assert_eq!(rj.devices.len(), rt.devices.len());
        for (a, b) in rj.devices.iter().zip(&rt.devices) {
            assert_eq!(a.device, b.device);
            let mut va = a.values.clone();
            let mut vb = b.values.clone();
            va.sort_by(|x, y| x.0.cmp(&y.0));
            vb.sort_by(|x, y| x.0.cmp(&y.0));
            assert_eq!(va, vb, "{}", a.device);
            assert_eq!(a.normalised, b.normalised, "{}", a.device);
        }
    }
}

#[test]
fn corpus_json_files_are_detected_as_iostat_json_only() {
    for f in ["expected.iostat-g-JSON", "expected.iostat-x-p-ALL-JSON"] {
        let Some(text) = corpus_text(&format!("{SYSSTAT}{f}")) else {
            return;
        };
        assert!(looks_like(&text), "{f}");
        assert!(!sizer_parsers::sadf::looks_like(&text), "{f}");
        assert!(!sizer_parsers::iostat::looks_like(&text), "{f}");
    }
    for f in [
        "expected.sadf-j",
        "expected.data-11.6.5-sadf-j",
        "expected.sadf-d",
        "expected.iostat-x",
    ] {
        let Some(text) = corpus_text(&format!("{SYSSTAT}{f}")) else {
            return;
        };
        assert!(!looks_like(&text), "{f} claimed by iostat_json");
    }
}

#[test]
fn fixture_11_5_old_keys_with_timestamps() {
    let log = fix("x-11.5-old-keys-t.json");
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    assert_eq!(
        log.header.as_ref().unwrap().date.as_deref(),
        Some("03/12/24")
    );
    assert_eq!(log.reports.len(), 2);
    let r = &log.reports[0];
    assert_eq!(r.line, 11);
    assert_eq!(r.timestamp.as_deref(), Some("03/12/24 10:00:00"));
    assert_eq!(
        r.time, None,
        "locale %x %X: resolved by disk::resolve_times"
    );
    assert!(r.since_boot);
    let sda = dev(&log, 0, "sda");
    assert_eq!(
        sda.values
            .iter()
            .map(|(c, _)| c.as_str())
            .collect::<Vec<_>>(),
        [
            "rrqm/s", "wrqm/s", "r/s", "w/s", "rkB/s", "wkB/s", "avgrq-sz", "avgqu-sz", "await",
            "r_await", "w_await", "svctm", "%util"
        ]
    );
    close(sda.value("rrqm/s"), 0.50, "old 'rrqm' is merges/s");
    let n = &sda.normalised;
    close(n.read_iops, 20.0, "r");
    close(n.write_iops, 10.0, "w");
    close(n.total_iops, 30.0, "r + w");
    close(n.read_bytes_per_s, 320.0 * 1024.0, "rkB");
    close(n.avg_request_bytes, 26.67 * 512.0, "avgrq-sz in sectors");
    close(n.await_ms, 1.50, "await");
    close(n.write_await_ms, 2.10, "w_await");
    close(n.service_ms, 0.90, "svctm");
    close(n.util_pct, 2.70, "util");
    let n = &dev(&log, 1, "sda").normalised;
    close(n.read_bytes_per_s, 3200.0 * 1024.0, "rkB");
    close(n.util_pct, 9.00, "util");
    assert!(!log.reports[1].since_boot);
    // `-y`: nothing is since boot when the caller says so.
    let text = std::fs::read_to_string(fixture("x-11.5-old-keys-t.json")).unwrap();
    let y = parse_with(
        &text,
        ReaderOptions {
            first_is_since_boot: false,
            ..ReaderOptions::default()
        },
    )
    .unwrap();
    assert!(y.reports.iter().all(|r| !r.since_boot));
}

#[test]
fn fixture_interrupted_run_keeps_its_complete_records() {
    let log = fix("d-12.0-interrupted-iso.json");
    assert_eq!(log.reports.len(), 2);
    assert_eq!(log.skipped.len(), 1);
    let s = &log.skipped[0];
    assert!(s.reason.contains("stops before its end"), "{}", s.reason);
    assert!(s.reason.contains("kept the 2 complete"), "{}", s.reason);
    assert_eq!(log.warnings.len(), 1);
    assert_eq!(
        log.reports[1].timestamp.as_deref(),
        Some("2024-03-12T10:00:10+0100")
    );
    let n = &dev(&log, 1, "vda").normalised;
    close(n.total_iops, 50.0, "tps");
    close(n.read_bytes_per_s, 400.0 * 1024.0, "kB_read/s");
    // A document cut before its first complete record is an error.
    let text = std::fs::read_to_string(fixture("d-12.0-interrupted-iso.json")).unwrap();
    let cut = &text[..text.find("\"kB_read/s\"").unwrap()];
    let e = parse(cut).unwrap_err();
    assert!(e.to_string().contains("stops before its end"), "{e}");
}

#[test]
fn fixture_decimal_commas_are_refused_with_a_hint() {
    let bytes = std::fs::read(fixture("bad-decimal-comma-11.5.1.json")).unwrap();
    let e = parse_bytes(&bytes).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, ParseError::Section { .. }), "{msg}");
    assert!(msg.contains("line 13 column"), "{msg}");
    assert!(msg.contains("LC_ALL=C"), "{msg}");
}

#[test]
fn cpu_only_and_odd_documents() {
    let cpu = r#"{"sysstat": {"hosts": [{"nodename": "h", "date": "01/02/24", "statistics": [
        {"avg-cpu": {"user": 1.00, "nice": 0.00, "system": 1.00, "iowait": 0.00, "steal": 0.00, "idle": 98.00}}]}]}}"#;
    assert!(looks_like(cpu));
    let msg = parse(cpu).unwrap_err().to_string();
    assert!(
        msg.contains("no disk statistics") && msg.contains("avg-cpu"),
        "{msg}"
    );
    // `-x -s` keys, a null value, an unknown key, a missing name.
    let xs = r#"{"sysstat": {"hosts": [{"nodename": "h", "statistics": [{"disk": [
        {"disk_device": "sda", "tps": 10.00, "kB/s": 80.00, "rqm/s": 0.00, "await": 1.00,
         "areq-sz": 8.00, "aqu-sz": 0.01, "util": null, "zz_new": 3}]}]}]}}"#;
    let log = parse(xs).unwrap();
    let sda = dev(&log, 0, "sda");
    close(sda.normalised.total_bytes_per_s, 80.0 * 1024.0, "kB/s");
    close(sda.normalised.avg_request_bytes, 8.0 * 1024.0, "areq-sz");
    assert_eq!(sda.normalised.util_pct, None, "null");
    close(sda.value("zz_new"), 3.0, "kept");
    assert_eq!(log.warnings.len(), 1, "{:?}", log.warnings);
    let bad = r#"{"sysstat": {"hosts": [{"statistics": [{"disk": [{"tps": 1.0}]}]}]}}"#;
    assert!(parse(bad).unwrap_err().to_string().contains("disk_device"));
    let bad = r#"{"sysstat": {"hosts": [{"statistics": [{"disk": [{"disk_device": "sda", "tps": "x"}]}]}]}}"#;
    assert!(parse(bad).unwrap_err().to_string().contains("'tps'"));
    assert!(!looks_like("[1, 2]"));
    assert!(!looks_like(
        "Linux 5.8.0 (h) \t12/02/2021 \t_x86_64_\t(2 CPU)\n"
    ));
}

const FIXTURES: &[&str] = &[
    "x-11.5-old-keys-t.json",
    "d-12.0-interrupted-iso.json",
    "bad-decimal-comma-11.5.1.json",
];

proptest! {
    #[test]
    fn any_prefix_of_a_fixture_is_ok_or_err_never_a_panic(f in 0..FIXTURES.len(), cut in 0.0f64..1.0) {
        let text = std::fs::read_to_string(fixture(FIXTURES[f])).unwrap();
        let mut n = (text.len() as f64 * cut) as usize;
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        let _ = parse_bytes(&text.as_bytes()[..n]);
        let _ = parse(&text[..n]);
    }
}

// ---------------------------------------------------------------------------------------------
// Streaming (`IostatJson::parse_stream`): the same records from a reader read in small pieces.
// ---------------------------------------------------------------------------------------------

#[test]
fn iostat_json_streams_in_small_reads_as_parse_bytes() {
    use crate::sadf::{stream_small_reads, utf16le};
    use sizer_parsers::iostat_json::IostatJson;
    use sizer_parsers::Parsed;
    for f in ["x-11.5-old-keys-t.json", "d-12.0-interrupted-iso.json"] {
        let bytes = std::fs::read(fixture(f)).unwrap();
        let Ok(Parsed::Devices(log)) = stream_small_reads(&IostatJson, &bytes) else {
            panic!("{f}: not a device log");
        };
        let Ok(Parsed::Devices(whole)) = sizer_parsers::parse_bytes(&bytes) else {
            panic!("{f}: not a device log");
        };
        assert_eq!(log, whole, "{f}");
        let text = String::from_utf8(bytes).unwrap();
        let Ok(Parsed::Devices(u16)) = stream_small_reads(&IostatJson, &utf16le(&text)) else {
            panic!("{f}: not a device log");
        };
        assert_eq!(u16, whole, "{f} in UTF-16");
    }
    // Real values: x-11.5-old-keys-t.json, host db02.example.com, elements of lines 11 and 19,
    // sda at 10:00:00 with r 20.00 and rkB 320.00 (11.5.x keys), the first since boot.
    let bytes = std::fs::read(fixture("x-11.5-old-keys-t.json")).unwrap();
    let Ok(Parsed::Devices(log)) = stream_small_reads(&IostatJson, &bytes) else {
        panic!("not a device log");
    };
    assert_eq!(log.header.as_ref().unwrap().host, "db02.example.com");
    assert_eq!((log.reports[0].line, log.reports[1].line), (11, 19));
    assert!(log.reports[0].since_boot && !log.reports[1].since_boot);
    let sda = dev(&log, 0, "sda");
    assert_eq!(sda.value("r/s"), Some(20.0));
    close(sda.normalised.read_bytes_per_s, 320.0 * 1024.0, "rkB");
    // d-12.0-interrupted-iso.json: cut in its third record, the two before kept.
    let bytes = std::fs::read(fixture("d-12.0-interrupted-iso.json")).unwrap();
    let Ok(Parsed::Devices(log)) = stream_small_reads(&IostatJson, &bytes) else {
        panic!("not a device log");
    };
    assert_eq!(log.reports.len(), 2);
    assert!(log.skipped[0].reason.contains("kept the 2 complete"));
    close(dev(&log, 1, "vda").normalised.total_iops, 50.0, "tps");
}

#[test]
fn iostat_json_stream_errors_name_the_same_line() {
    use crate::sadf::stream_small_reads;
    use sizer_parsers::iostat_json::IostatJson;
    let bytes = std::fs::read(fixture("bad-decimal-comma-11.5.1.json")).unwrap();
    let streamed = stream_small_reads(&IostatJson, &bytes).unwrap_err();
    let whole = parse_bytes(&bytes).unwrap_err();
    assert_eq!(streamed.to_string(), whole.to_string());
    let msg = streamed.to_string();
    assert!(
        msg.contains("line 13 column") && msg.contains("LC_ALL=C"),
        "{msg}"
    );
    // Cut before the first complete record: an error naming the cut's line.
    let text = std::fs::read_to_string(fixture("d-12.0-interrupted-iso.json")).unwrap();
    let cut = &text[..text.find("\"kB_read/s\"").unwrap()];
    let e = stream_small_reads(&IostatJson, cut.as_bytes()).unwrap_err();
    assert_eq!(e.to_string(), parse(cut).unwrap_err().to_string());
    assert!(e.to_string().contains("line 14"), "{e}");
}
