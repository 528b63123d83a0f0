//! The sysstat `sadf -d` / `sadf -j` parser on real corpus files (`../shared/corpus/`, read in
//! place, never copied) and on the hand-made fixtures in `fixtures/sadf/` (see its README).
//!
//! Every real value below was read by hand from the cited file and line.

use crate::common::shared;
use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use proptest::prelude::*;
use sizer_parsers::disk::{DeviceLog, DeviceSample};
use sizer_parsers::sadf::{
    looks_like, looks_like_csv, looks_like_json, parse, parse_bytes, parse_csv, parse_json, SAR_B,
};
use sizer_parsers::ParseError;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/sadf")
        .join(rel)
}

/// The text of a corpus file, or `None` (after printing SKIPPED) when the corpus is absent.
fn corpus_text(rel: &str) -> Option<String> {
    let p = shared(rel);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    Some(String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned())
}

fn corpus(rel: &str) -> Option<DeviceLog> {
    let p = shared(rel);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    let bytes = std::fs::read(&p).unwrap();
    Some(parse_bytes(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}")))
}

fn fix(rel: &str) -> DeviceLog {
    let bytes = std::fs::read(fixture(rel)).unwrap();
    parse_bytes(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn fix_err(rel: &str) -> ParseError {
    let bytes = std::fs::read(fixture(rel)).unwrap();
    parse_bytes(&bytes).expect_err("must be rejected")
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

fn dt(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
}

const SYSSTAT: &str = "sysstat-tests/tests/";
const EXCERPT: &str = "iostat/linux-sar-AMPM-and-sadf-dT-10.1.5-centos7-EXCERPT.txt";

#[test]
fn sysstat_sadf_d_all_activities_12_7() {
    // expected.sadf-d (`sadf -d -C -- -A`): 43 activities; only `sar -b` (line 230) and DEV
    // (line 269) are read.
    let Some(log) = corpus(&format!("{SYSSTAT}expected.sadf-d")) else {
        return;
    };
    assert_eq!(log.format, "sadf_csv");
    assert_eq!(log.header.as_ref().unwrap().host, "SYSSTAT.TEST");
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    // Time stamps 13:20:19, :29, :39, :49 and, after the LINUX-RESTART / COM lines 604-606,
    // 13:54:35.
    assert_eq!(log.reports.len(), 5);
    let r = &log.reports[0];
    assert_eq!(r.line, 231);
    assert_eq!(r.timestamp.as_deref(), Some("2019-04-18 13:20:19 UTC"));
    assert_eq!(r.time, Some(dt("2019-04-18 13:20:19")));
    assert!(r.utc);
    assert_eq!(r.interval_s, Some(31.0));
    assert!(!r.since_boot && !r.summary);
    assert_eq!(r.devices.len(), 18, "sar -b + 17 devices");
    // Line 231: SYSSTAT.TEST;31;2019-04-18 13:20:19 UTC;20.85;12.83;4.81;3.21;57.43;38.50;32.08
    let b = dev(&log, 0, SAR_B);
    assert!(b.group, "sar -b totals double-count the devices");
    let n = &b.normalised;
    close(n.total_iops, 20.85, "tps");
    close(n.read_iops, 12.83, "rtps");
    close(n.write_iops, 4.81, "wtps");
    close(n.discard_iops, 3.21, "dtps");
    close(n.read_bytes_per_s, 57.43 * 512.0, "bread/s");
    close(n.write_bytes_per_s, 38.50 * 512.0, "bwrtn/s");
    close(n.discard_bytes_per_s, 32.08 * 512.0, "bdscd/s");
    // Line 284: …;sdq;9.62;7.86;0.00;16.04;2.48;0.01;13.00;0.96
    let sdq = dev(&log, 0, "sdq");
    assert!(!sdq.group);
    let n = &sdq.normalised;
    close(n.total_iops, 9.62, "tps");
    close(n.read_bytes_per_s, 7.86 * 1024.0, "rkB/s");
    close(n.write_bytes_per_s, 0.0, "wkB/s");
    close(n.discard_bytes_per_s, 16.04 * 1024.0, "dkB/s");
    close(n.avg_request_bytes, 2.48 * 1024.0, "areq-sz");
    close(n.queue_depth, 0.01, "aqu-sz");
    close(n.await_ms, 13.00, "await");
    close(n.util_pct, 0.96, "%util");
    assert_eq!(n.read_iops, None, "sar -d prints no r/s");
    assert_eq!(n.service_ms, None, "12.x prints no svctm");
    // Line 234: …13:20:49 UTC;136.22;85.80;5.85;44.57;4497.45;48.24;214.83
    let r3 = &log.reports[3];
    assert_eq!(r3.interval_s, Some(22.0));
    close(
        dev(&log, 3, SAR_B).normalised.read_bytes_per_s,
        4497.45 * 512.0,
        "bread/s",
    );
    // Line 337: …13:20:49 UTC;sdr;8.93;2.23;22.33;0.00;2.75;0.04;10.00;4.47
    let n = &dev(&log, 3, "sdr").normalised;
    close(n.total_iops, 8.93, "tps");
    close(n.write_bytes_per_s, 22.33 * 1024.0, "wkB/s");
    close(n.await_ms, 10.00, "await");
    close(n.util_pct, 4.47, "%util");
    // Line 671 (first line of 13:54:35), line 696: cciss/c0d0;32402.95;…;0.10;0.00
    assert_eq!(log.reports[4].line, 671);
    let n = &dev(&log, 4, "cciss/c0d0").normalised;
    close(n.total_iops, 32402.95, "tps");
    close(n.await_ms, 0.10, "await");
}

#[test]
fn sysstat_sadf_j_same_records_as_sadf_d() {
    // expected.sadf-j is `sadf -j -C -- -A` on the same binary file as expected.sadf-d.
    let Some(j) = corpus(&format!("{SYSSTAT}expected.sadf-j")) else {
        return;
    };
    assert_eq!(j.format, "sadf_json");
    let h = j.header.as_ref().unwrap();
    assert_eq!(
        (h.host.as_str(), h.sysname.as_str(), h.kernel.as_str()),
        ("SYSSTAT.TEST", "Linux", "1.2.3-TEST")
    );
    assert_eq!(
        (h.date.as_deref(), h.arch.as_deref(), h.cpus),
        (Some("2019-04-18"), Some("x86_64"), Some(9))
    );
    assert_eq!(j.reports.len(), 5);
    // Line 13 opens the first record; line 14:
    // "timestamp": {"date": "2019-04-18", "time": "13:20:19", "tz": "UTC", "interval": 31}
    let r = &j.reports[0];
    assert_eq!(r.line, 13);
    assert_eq!(r.timestamp.as_deref(), Some("2019-04-18 13:20:19 UTC"));
    assert_eq!(r.time, Some(dt("2019-04-18 13:20:19")));
    assert!(r.utc);
    assert_eq!(r.interval_s, Some(31.0));
    assert_eq!(j.reports[4].line, 700);
    // Line 75: "io": {"tps": 20.85, "io-reads": {"rtps": 12.83, "bread": 57.43}, …
    let b = dev(&j, 0, SAR_B);
    assert!(b.group);
    close(b.value("rtps"), 12.83, "rtps");
    close(b.value("bread/s"), 57.43, "bread");
    close(b.value("bdscd/s"), 32.08, "bdscd");
    // Line 99: {"disk-device": "sdq", "tps": 9.62, "rd_sec": 15.72, "wr_sec": 0.00,
    // "dc_sec": 32.08, "rkB": 7.86, "wkB": 0.00, "dkB": 16.04, "avgrq-sz": 4.97,
    // "areq-sz": 2.48, "avgqu-sz": 0.01, "aqu-sz": 0.01, "await": 13.00, "util-percent": 0.96}
    let sdq = dev(&j, 0, "sdq");
    close(sdq.value("rd_sec/s"), 15.72, "rd_sec");
    close(sdq.value("dsec/s"), 32.08, "dc_sec");
    close(sdq.value("rkB/s"), 7.86, "rkB");
    close(sdq.value("avgrq-sz"), 4.97, "avgrq-sz");
    close(sdq.value("areq-sz"), 2.48, "areq-sz");
    close(sdq.value("%util"), 0.96, "util-percent");
    assert_eq!(sdq.values.len(), 13);
    close(sdq.normalised.read_bytes_per_s, 15.72 * 512.0, "rd_sec/s");
    // Line 784: cciss/c0d0 after the restart, tps 32402.95.
    close(
        dev(&j, 4, "cciss/c0d0").normalised.total_iops,
        32402.95,
        "tps",
    );
    // The same records as sadf -d, device by device (sectors vs kB rounding: ≤ 0.01 sector).
    let Some(d) = corpus(&format!("{SYSSTAT}expected.sadf-d")) else {
        return;
    };
    for (rj, rd) in j.reports.iter().zip(&d.reports) {
        assert_eq!(rj.timestamp, rd.timestamp);
        assert_eq!(
            (rj.time, rj.utc, rj.interval_s),
            (rd.time, rd.utc, rd.interval_s)
        );
        assert_eq!(rj.devices.len(), rd.devices.len());
        for (a, b) in rj.devices.iter().zip(&rd.devices) {
            assert_eq!((&a.device, a.group), (&b.device, b.group));
            let (x, y) = (&a.normalised, &b.normalised);
            for (p, q, what) in [
                (x.total_iops, y.total_iops, "tps"),
                (x.read_iops, y.read_iops, "read iops"),
                (x.await_ms, y.await_ms, "await"),
                (x.util_pct, y.util_pct, "util"),
                (x.queue_depth, y.queue_depth, "queue"),
            ] {
                assert_eq!(p, q, "{} {what}", a.device);
            }
            for (p, q) in [
                (x.read_bytes_per_s, y.read_bytes_per_s),
                (x.write_bytes_per_s, y.write_bytes_per_s),
                (x.discard_bytes_per_s, y.discard_bytes_per_s),
            ] {
                let (p, q) = (p.unwrap(), q.unwrap());
                assert!((p - q).abs() <= 0.01 * 512.0 + 1e-9, "{} {p} {q}", a.device);
            }
        }
    }
}

#[test]
fn centos7_10_1_5_sadf_dt_after_pasted_sar_text() {
    // The excerpt holds a shell prompt, a `sar -u 1 3` run (lines 1-8), the `sadf -dT -- -A`
    // prompt (line 9), then sadf output from sysstat 10.1.5.
    let Some(log) = corpus(EXCERPT) else {
        return;
    };
    assert_eq!(
        log.skipped.iter().map(|s| s.line).collect::<Vec<_>>(),
        vec![1, 2, 4, 5, 6, 7, 8, 9]
    );
    assert_eq!(
        log.header.as_ref().unwrap().host,
        "d0cc44ac1f1c.mylabserver.com"
    );
    assert_eq!(log.reports.len(), 1);
    let r = &log.reports[0];
    // Line 21: d0cc44ac1f1c.mylabserver.com;601;2020-10-01 21:30:01;0.36;0.03;0.33;0.56;3.61
    assert_eq!(r.line, 21);
    assert_eq!(r.timestamp.as_deref(), Some("2020-10-01 21:30:01"));
    assert_eq!(r.time, Some(dt("2020-10-01 21:30:01")));
    assert!(!r.utc, "-T before 12.7.1: local time, no ' UTC' suffix");
    assert_eq!(r.interval_s, Some(601.0));
    let n = &dev(&log, 0, SAR_B).normalised;
    close(n.total_iops, 0.36, "tps");
    close(n.read_iops, 0.03, "rtps");
    close(n.write_iops, 0.33, "wtps");
    close(n.read_bytes_per_s, 0.56 * 512.0, "bread/s");
    close(n.write_bytes_per_s, 3.61 * 512.0, "bwrtn/s");
    assert_eq!(n.discard_iops, None, "10.1.5 prints no dtps");
    // Line 35: …;dev259-0;0.36;0.56;3.61;11.45;0.00;2.12;1.99;0.07
    let d = dev(&log, 0, "dev259-0");
    let n = &d.normalised;
    close(n.total_iops, 0.36, "tps");
    close(n.read_bytes_per_s, 0.56 * 512.0, "rd_sec/s");
    close(n.write_bytes_per_s, 3.61 * 512.0, "wr_sec/s");
    close(n.avg_request_bytes, 11.45 * 512.0, "avgrq-sz");
    close(n.queue_depth, 0.0, "avgqu-sz");
    close(n.await_ms, 2.12, "await");
    close(n.service_ms, 1.99, "svctm");
    close(n.util_pct, 0.07, "%util");
    close(d.value("rd_sec/s"), 0.56, "verbatim");
    // The TTY section (line 32) has more fields than its header: ignored, not an error.
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
}

/// Files whose sar options select no disk activity: a clear error naming what they hold.
#[test]
fn sysstat_files_without_disk_statistics_say_what_they_hold() {
    let cases: &[(&str, &[&str])] = &[
        (
            "expected.sadf-d-T-tz",
            &[
                "CPU utilisation (-u)",
                "task creation and context switches (-w)",
                "2019-04-18 09:20:19 EST to 2019-04-18 09:20:29 EST",
            ],
        ),
        (
            "expected.sadf-d-t-tz",
            &["2019-04-18 15:20:19 CET to 2019-04-18 15:20:29 CET"],
        ),
        ("expected.sadf-d-tz", &["2019-04-18 13:20:19 UTC"]),
        (
            "expected.sadf-d-qu",
            &["queue length and load (-q)", "13:54:35 UTC"],
        ),
        (
            "expected.sadf-dh",
            &["CPU utilisation (-u ALL)", "interrupts (-I)"],
        ),
        ("expected01.sadf-d", &["task creation", "no data lines"]),
        (
            "expected.data-11.6.5-sadf-d",
            &[
                "fans (-m FAN)",
                "temperature sensors (-m TEMP)",
                "voltage inputs (-m IN)",
                "host linux.home, 2018-08-29 09:34:34 UTC",
            ],
        ),
        (
            "expected.data-wghfreq-sadf-d",
            &["weighted CPU frequency (-m FREQ)"],
        ),
        (
            "expected.data-11.6.5-sadf-j",
            &[
                "'power-management' (fan-speed, temperature, voltage-input; sar -m)",
                "host linux.home",
            ],
        ),
        (
            "expected.data-wghfreq-sadf-j",
            &["cpu-weighted-frequency", "SYSSTAT.TEST"],
        ),
    ];
    for (f, needles) in cases {
        let Some(text) = corpus_text(&format!("{SYSSTAT}{f}")) else {
            return;
        };
        assert!(looks_like(&text), "{f}");
        let e = parse(&text).expect_err(f);
        let msg = e.to_string();
        assert!(matches!(e, ParseError::Section { .. }), "{f}: {msg}");
        assert!(msg.contains("no disk statistics"), "{f}: {msg}");
        for n in *needles {
            assert!(msg.contains(n), "{f}: '{n}' not in {msg}");
        }
    }
}

/// Every sadf file of the corpus: detected as sadf (and as the right form), read or refused
/// with the no-disk error; none is claimed by the iostat parsers, and no iostat file by sadf.
#[test]
fn every_corpus_sadf_file() {
    const PARSE: &[&str] = &[
        "sysstat-tests/tests/expected.sadf-d",
        "sysstat-tests/tests/expected.sadf-j",
        EXCERPT,
    ];
    const NO_DISK: &[&str] = &[
        "sysstat-tests/tests/expected.sadf-d-T-tz",
        "sysstat-tests/tests/expected.sadf-d-qu",
        "sysstat-tests/tests/expected.sadf-d-t-tz",
        "sysstat-tests/tests/expected.sadf-d-tz",
        "sysstat-tests/tests/expected.sadf-dh",
        "sysstat-tests/tests/expected01.sadf-d",
        "sysstat-tests/tests/expected.data-11.6.5-sadf-d",
        "sysstat-tests/tests/expected.data-11.6.5-sadf-j",
        "sysstat-tests/tests/expected.data-wghfreq-sadf-d",
        "sysstat-tests/tests/expected.data-wghfreq-sadf-j",
    ];
    let mut samples = 0;
    for f in PARSE.iter().chain(NO_DISK) {
        let Some(text) = corpus_text(f) else { return };
        let json = f.ends_with("sadf-j");
        assert_eq!(looks_like_json(&text), json, "{f}");
        assert_eq!(looks_like_csv(&text), !json, "{f}");
        assert!(!sizer_parsers::iostat::looks_like(&text), "{f}");
        assert!(!sizer_parsers::iostat_json::looks_like(&text), "{f}");
        match parse(&text) {
            Ok(log) => {
                assert!(PARSE.contains(f), "{f} parsed");
                samples += log.reports.iter().map(|r| r.devices.len()).sum::<usize>();
            }
            Err(e) => {
                assert!(NO_DISK.contains(f), "{f}: {e}");
                assert!(e.to_string().contains("no disk statistics"), "{f}: {e}");
            }
        }
    }
    assert_eq!(samples, 89 + 89 + 2);
    for f in [
        "sysstat-tests/tests/expected.iostat-g-JSON",
        "sysstat-tests/tests/expected.iostat-x-p-ALL-JSON",
        "sysstat-tests/tests/expected.iostat-x",
        "sysstat-tests/tests/expected.sar-A",
        "iostat/linux-iostat-10.1.5-centos7-x-kBps.txt",
        "iostat/linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt",
        "iostat/nmon-linux-15h-fedora21-g-auto-DG.nmon.txt",
        "iostat/solaris-11.3-sar-A.txt",
        "awr/theyanvictor-igt-11.2.0.4-statspack.txt",
        "awr/pcambell-orcl-19c-single-noncdb.html",
    ] {
        let Some(text) = corpus_text(f) else { return };
        assert!(!looks_like(&text), "{f} claimed by sadf");
    }
}

#[test]
fn fixture_two_versions_of_sadf_d_in_one_file() {
    let log = fix("d-two-versions.csv");
    // The two pasted shell prompts (lines 1 and 15) are counted; the LINUX-RESTART and COM lines
    // (13, 14: the comment holds a ';') are not.
    assert_eq!(
        log.skipped.iter().map(|s| s.line).collect::<Vec<_>>(),
        vec![1, 15]
    );
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    assert_eq!(log.reports.len(), 3);
    let stamps: Vec<_> = log
        .reports
        .iter()
        .map(|r| r.timestamp.as_deref().unwrap())
        .collect();
    assert_eq!(
        stamps,
        [
            "2024-03-11 10:10:01 UTC",
            "2024-03-11 10:20:01 UTC",
            "2024-03-12 10:10:01 UTC"
        ]
    );
    assert_eq!(log.reports[0].line, 6, "first line of 10:10:01 (sar -b)");
    // 10.x layout: sectors, avgrq-sz in sectors, svctm.
    let n = &dev(&log, 0, "dev8-0").normalised;
    close(n.read_bytes_per_s, 2.0 * 1_048_576.0, "4096 rd_sec/s");
    close(n.write_bytes_per_s, 1_048_576.0, "2048 wr_sec/s");
    close(n.avg_request_bytes, 40.96 * 512.0, "avgrq-sz");
    close(n.queue_depth, 0.30, "avgqu-sz");
    close(n.service_ms, 1.50, "svctm");
    assert_eq!(n.discard_bytes_per_s, None, "10.x has no discard");
    let b = &dev(&log, 0, SAR_B).normalised;
    close(b.read_iops, 100.0, "rtps");
    close(b.read_bytes_per_s, 2.0 * 1_048_576.0, "4096 bread/s");
    assert_eq!(b.discard_iops, None);
    assert_eq!(log.reports[1].devices.len(), 3);
    // 12.x layout after the restart.
    let n = &dev(&log, 2, "nvme0n1").normalised;
    close(n.read_bytes_per_s, 4.0 * 1_048_576.0, "4096 rkB/s");
    close(n.discard_bytes_per_s, 1_048_576.0, "1024 dkB/s");
    close(n.avg_request_bytes, 34.13 * 1024.0, "areq-sz");
    assert_eq!(n.service_ms, None);
    let b = &dev(&log, 2, SAR_B).normalised;
    close(b.discard_iops, 10.0, "dtps");
    close(b.discard_bytes_per_s, 1_048_576.0, "2048 bdscd/s");
    close(b.total_iops, 210.0, "tps");
}

#[test]
fn fixture_dh_one_line_per_time_stamp_with_zone_and_decimal_comma() {
    let log = fix("dh-T-zone-decimal-comma.csv");
    assert!(log.skipped.is_empty() && log.warnings.is_empty());
    assert_eq!(log.reports.len(), 2);
    let r = &log.reports[0];
    assert_eq!(r.timestamp.as_deref(), Some("2024-01-15 09:05:00 CET"));
    assert_eq!(r.time, Some(dt("2024-01-15 09:05:00")));
    assert!(!r.utc, "CET is local time");
    assert_eq!(r.interval_s, Some(300.0));
    let names: Vec<_> = r.devices.iter().map(|d| d.device.as_str()).collect();
    assert_eq!(names, [SAR_B, "sda", "sdb"]);
    let b = &dev(&log, 0, SAR_B).normalised;
    close(b.total_iops, 80.0, "tps 80,00");
    close(b.read_iops, 40.0, "rtps");
    close(b.read_bytes_per_s, 480.0 * 1024.0, "960 bread/s");
    let n = &dev(&log, 0, "sda").normalised;
    close(n.read_bytes_per_s, 480.0 * 1024.0, "rkB/s 480,00");
    close(n.write_bytes_per_s, 160.0 * 1024.0, "wkB/s");
    close(n.avg_request_bytes, 10.67 * 1024.0, "areq-sz 10,67");
    close(n.util_pct, 4.20, "%util");
    close(
        dev(&log, 0, "sdb").normalised.write_bytes_per_s,
        80.0 * 1024.0,
        "sdb",
    );
    // The second record lists one device only.
    let names: Vec<_> = log.reports[1]
        .devices
        .iter()
        .map(|d| d.device.as_str())
        .collect();
    assert_eq!(names, [SAR_B, "sda"]);
    close(
        dev(&log, 1, "sda").normalised.avg_request_bytes,
        8.0 * 1024.0,
        "areq-sz",
    );
}

#[test]
fn fixture_sadf_j_with_utc_flag_sectors_and_io() {
    let log = fix("j-11-utc-disk-io.json");
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    let h = log.header.as_ref().unwrap();
    assert_eq!(
        (h.host.as_str(), h.kernel.as_str(), h.cpus),
        ("db03.example.com", "3.10.0-1160.el7.x86_64", Some(4))
    );
    assert_eq!(log.reports.len(), 2);
    let r = &log.reports[0];
    assert_eq!(r.line, 11);
    assert_eq!(r.timestamp.as_deref(), Some("2021-06-07 02:10:01"));
    assert_eq!(r.time, Some(dt("2021-06-07 02:10:01")));
    assert!(r.utc, "\"utc\": 1");
    assert_eq!(r.interval_s, Some(600.0));
    assert_eq!(log.reports[1].line, 22);
    let b = dev(&log, 0, SAR_B);
    assert_eq!(
        b.values.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(),
        ["tps", "rtps", "bread/s", "wtps", "bwrtn/s"]
    );
    close(b.normalised.read_iops, 80.0, "rtps");
    close(b.normalised.write_iops, 40.0, "wtps");
    close(b.normalised.read_bytes_per_s, 2560.0 * 512.0, "bread");
    let d = dev(&log, 0, "dev8-0");
    assert_eq!(
        d.values.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(),
        ["tps", "rd_sec/s", "wr_sec/s", "avgrq-sz", "avgqu-sz", "await", "svctm", "%util"]
    );
    let n = &d.normalised;
    close(n.read_bytes_per_s, 1.25 * 1_048_576.0, "2560 rd_sec");
    close(n.avg_request_bytes, 32.0 * 512.0, "avgrq-sz");
    close(n.service_ms, 1.20, "svctm");
    close(n.util_pct, 14.40, "util-percent");
    close(
        dev(&log, 1, "dev8-1").normalised.write_bytes_per_s,
        640.0 * 512.0,
        "wr_sec",
    );
}

#[test]
fn fixture_short_row_is_an_error_naming_line_and_header() {
    let e = fix_err("bad-short-row.csv");
    let msg = e.to_string();
    assert!(matches!(e, ParseError::Section { .. }), "{msg}");
    assert!(msg.contains("line 3"), "{msg}");
    assert!(msg.contains("header of line 1"), "{msg}");
    assert!(msg.contains("8 fields after the time stamp"), "{msg}");
    assert!(msg.contains("DEV;tps;rkB/s"), "{msg}");
}

#[test]
fn fixture_malformed_json_names_line_and_column() {
    let e = fix_err("bad-missing-comma.json");
    let msg = e.to_string();
    assert!(matches!(e, ParseError::Section { .. }), "{msg}");
    assert!(msg.contains("line 14 column"), "{msg}");
    assert!(msg.contains("sadf -j"), "{msg}");
}

#[test]
fn epoch_stamps_unknown_columns_duplicates_and_crlf() {
    // `sadf -d -U`: seconds since the epoch; CRLF line ends; a made-up column.
    let text = "# hostname;interval;timestamp;DEV;tps;rkB/s;zz_new;%util\r\n\
                h1;60;1710238201;sda;2.00;8.00;1.00;0.50\r\n\
                h1;60;1710238201;sda;2.00;8.00;1.00;0.50\r\n\
                h1;60;1710238261;sda;4.00;16.00;1.00;0.90\r\n";
    let log = parse_csv(text).unwrap();
    assert_eq!(log.reports.len(), 2);
    let r = &log.reports[0];
    assert_eq!(r.timestamp.as_deref(), Some("1710238201"));
    assert_eq!(r.time, Some(dt("2024-03-12 10:10:01")));
    assert!(r.utc);
    close(dev(&log, 1, "sda").value("zz_new"), 1.0, "kept");
    assert_eq!(log.warnings.len(), 1, "{:?}", log.warnings);
    assert!(log.warnings[0].contains("zz_new"));
    assert_eq!(log.skipped.len(), 1, "the repeated line 3");
    assert_eq!(log.skipped[0].line, 3);
}

#[test]
fn data_before_any_header_and_a_missing_header() {
    let text = "h1;60;2024-03-12 10:10:01 UTC;sda;2.00\n\
                # hostname;interval;timestamp;DEV;tps\n\
                h1;60;2024-03-12 10:11:01 UTC;sda;3.00\n";
    let log = parse_csv(text).unwrap();
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 1);
    assert_eq!(log.reports.len(), 1);
    assert!(matches!(
        parse_csv("h1;60;2024-03-12 10:10:01 UTC;sda;2.00\n"),
        Err(ParseError::UnknownFormat { .. })
    ));
    // A value that is not a number names its column and line.
    let bad =
        "# hostname;interval;timestamp;DEV;tps;%util\nh1;60;2024-03-12 10:10:01 UTC;sda;2.00;n/a\n";
    let msg = parse_csv(bad).unwrap_err().to_string();
    assert!(msg.contains("line 2") && msg.contains("'%util'"), "{msg}");
}

#[test]
fn dh_with_two_name_keyed_repeating_groups_is_refused() {
    let text = "# hostname;interval;timestamp;DEV;tps;%util[...];IFACE;rxpck/s[...]\n\
                h1;60;2024-03-12 10:10:01 UTC;sda;1.00;0.10;eth0;5.00\n";
    let msg = parse_csv(text).unwrap_err().to_string();
    assert!(msg.contains("without -h"), "{msg}");
    // With IFACE not repeating, the DEV items are counted from the field count.
    let text = "# hostname;interval;timestamp;DEV;tps;%util[...];IFACE;rxpck/s\n\
                h1;60;2024-03-12 10:10:01 UTC;sda;1.00;0.10;sdb;2.00;0.20;eth0;5.00\n";
    let log = parse_csv(text).unwrap();
    assert_eq!(log.reports[0].devices.len(), 2);
    close(dev(&log, 0, "sdb").normalised.util_pct, 0.20, "sdb");
}

#[test]
fn malformed_json_and_non_sysstat_json() {
    let e = parse_json("{\"sysstat\": {\"hosts\": [}").unwrap_err();
    assert!(e.to_string().contains("line 1 column"), "{e}");
    let e = parse_json("{\"other\": 1}").unwrap_err();
    assert!(e.to_string().contains("'sysstat'"), "{e}");
    assert!(!looks_like("{\"other\": 1}"));
}

const FIXTURES: &[&str] = &[
    "d-two-versions.csv",
    "dh-T-zone-decimal-comma.csv",
    "j-11-utc-disk-io.json",
    "bad-short-row.csv",
    "bad-missing-comma.json",
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
        let _ = parse_csv(&text[..n]);
        let _ = parse_json(&text[..n]);
    }

    #[test]
    fn any_line_is_ok_or_err_never_a_panic(line in "[a-z0-9;:. ,\\-\\[\\]/%]{0,80}") {
        let text = format!("# hostname;interval;timestamp;CPU;%user[...];DEV;tps;%util[...]\n{line}\n");
        let _ = parse_csv(&text);
    }
}

#[test]
fn sadf_d_streams_a_real_file_in_small_reads() {
    use crate::sar::Trickle;
    use sizer_parsers::sadf::SadfCsv;
    use sizer_parsers::sink::Collect;
    use sizer_parsers::{FormatParser, ParseSettings, Parsed};

    let p = shared(&format!("{SYSSTAT}expected.sadf-d"));
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return;
    }
    let bytes = std::fs::read(&p).unwrap();
    assert!(SadfCsv.streams());
    let read = |settings: &ParseSettings| {
        let mut src = std::io::BufReader::with_capacity(16, Trickle::new(&bytes));
        let mut sink = Collect::new();
        SadfCsv.parse_stream(&mut src, settings, &mut sink).unwrap();
        match sink.into_parsed() {
            Some(Parsed::Devices(log)) => *log,
            other => panic!("not a device log: {other:?}"),
        }
    };
    let log = read(&ParseSettings::default());
    assert_eq!(log, parse_bytes(&bytes).unwrap());
    // The values of the file, as sysstat_sadf_d_all_activities_12_7 reads them.
    assert_eq!(log.reports.len(), 5);
    assert_eq!(log.reports[0].line, 231);
    assert_eq!(log.reports[0].devices.len(), 18, "sar -b + 17 devices");
    // Line 231: SYSSTAT.TEST;31;2019-04-18 13:20:19 UTC;20.85;12.83;4.81;3.21;57.43;38.50;32.08
    close(dev(&log, 0, SAR_B).normalised.discard_iops, 3.21, "dtps");
    close(dev(&log, 0, SAR_B).value("bread/s"), 57.43, "verbatim");
    // Line 284: …;sdq;9.62;7.86;0.00;16.04;2.48;0.01;13.00;0.96
    close(dev(&log, 0, "sdq").normalised.await_ms, 13.00, "await");
    // Line 696: cciss/c0d0;32402.95;…
    close(
        dev(&log, 4, "cciss/c0d0").normalised.total_iops,
        32402.95,
        "tps",
    );

    // Without the printed columns (as the engine reads), and no report since boot: the same
    // figures, no `values`.
    let lean = read(&ParseSettings {
        first_report_since_boot: false,
        keep_values: false,
    });
    assert_eq!(lean.reports.len(), log.reports.len());
    for (a, b) in lean.reports.iter().zip(&log.reports) {
        assert_eq!((a.line, a.devices.len()), (b.line, b.devices.len()));
        for (x, y) in a.devices.iter().zip(&b.devices) {
            assert!(x.values.is_empty());
            assert_eq!((&x.device, &x.normalised), (&y.device, &y.normalised));
        }
    }
}

#[test]
fn sadf_d_stream_errors_name_the_same_line() {
    use sizer_parsers::sadf::SadfCsv;
    use sizer_parsers::sink::Collect;
    use sizer_parsers::{FormatParser, ParseSettings};

    let text = "# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;areq-sz;aqu-sz;await;%util\n\
                db01;600;2024-03-12 10:10:01 UTC;sda;12.00;8.00;0.00;0.67;0.05;4.00;1.20\n\
                db01;600;2024-03-12 10:20:01 UTC;sda;12.00;8.00;0.00;0.67;0.05;4.00\n";
    let whole = parse_csv(text).unwrap_err().to_string();
    let mut sink = Collect::new();
    let streamed = SadfCsv
        .parse_stream(&mut text.as_bytes(), &ParseSettings::default(), &mut sink)
        .unwrap_err()
        .to_string();
    assert_eq!(whole, streamed);
    assert!(streamed.contains("line 3"), "{streamed}");
}

// ---------------------------------------------------------------------------------------------
// Streaming (`SadfJson::parse_stream`): the same records from a reader read in small pieces.
// The helpers are shared with the iostat JSON and vSAN streaming tests.
// ---------------------------------------------------------------------------------------------

/// A reader that hands over at most 7 bytes per read.
pub(crate) struct Trickle<'a>(pub(crate) &'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// `bytes` through `parser.parse_stream` in reads of at most 7 bytes (a `BufReader` of
/// capacity 16 on top), collected.
pub(crate) fn stream_small_reads(
    parser: &dyn sizer_parsers::FormatParser,
    bytes: &[u8],
) -> Result<sizer_parsers::Parsed, ParseError> {
    let mut src = std::io::BufReader::with_capacity(16, Trickle(bytes));
    let mut sink = sizer_parsers::sink::Collect::new();
    parser.parse_stream(
        &mut src,
        &sizer_parsers::ParseSettings::default(),
        &mut sink,
    )?;
    Ok(sink.into_parsed().expect("records"))
}

/// UTF-16LE with its byte-order mark.
pub(crate) fn utf16le(text: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        out.extend_from_slice(&u.to_le_bytes());
    }
    out
}

#[test]
fn sadf_json_streams_in_small_reads_as_parse_bytes() {
    use sizer_parsers::Parsed;
    let bytes = std::fs::read(fixture("j-11-utc-disk-io.json")).unwrap();
    let Ok(Parsed::Devices(log)) = stream_small_reads(&sizer_parsers::sadf::SadfJson, &bytes)
    else {
        panic!("not a device log");
    };
    let Ok(Parsed::Devices(whole)) = sizer_parsers::parse_bytes(&bytes) else {
        panic!("not a device log");
    };
    assert_eq!(log, whole);
    // Real values of the fixture: host db03.example.com, the element of line 11 at 02:10:01,
    // the second of line 22; `io` rtps 80.00, dev8-0 `rd_sec` 2560.00.
    assert_eq!(log.header.as_ref().unwrap().host, "db03.example.com");
    assert_eq!(log.reports.len(), 2);
    assert_eq!((log.reports[0].line, log.reports[1].line), (11, 22));
    assert_eq!(
        log.reports[0].timestamp.as_deref(),
        Some("2021-06-07 02:10:01")
    );
    close(dev(&log, 0, SAR_B).normalised.read_iops, 80.0, "rtps");
    close(
        dev(&log, 0, "dev8-0").normalised.read_bytes_per_s,
        2560.0 * 512.0,
        "rd_sec",
    );
    // The same document in UTF-16 (decoded on the fly) and with a UTF-8 byte-order mark.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let Ok(Parsed::Devices(u16)) =
        stream_small_reads(&sizer_parsers::sadf::SadfJson, &utf16le(&text))
    else {
        panic!("not a device log");
    };
    assert_eq!(u16, whole);
    let bom = [&b"\xEF\xBB\xBF"[..], &bytes].concat();
    let Ok(Parsed::Devices(b)) = stream_small_reads(&sizer_parsers::sadf::SadfJson, &bom) else {
        panic!("not a device log");
    };
    assert_eq!(b, whole);
}

#[test]
fn sadf_json_stream_errors_name_the_same_line() {
    let bytes = std::fs::read(fixture("bad-missing-comma.json")).unwrap();
    let streamed = stream_small_reads(&sizer_parsers::sadf::SadfJson, &bytes).unwrap_err();
    let whole = sizer_parsers::parse_bytes(&bytes).unwrap_err();
    assert_eq!(streamed.to_string(), whole.to_string());
    assert!(streamed.to_string().contains("line "), "{streamed}");
    // A document cut inside its second record keeps the first, streamed or whole.
    let text = std::fs::read_to_string(fixture("j-11-utc-disk-io.json")).unwrap();
    let cut = &text[..text.find("02:20:01").unwrap()];
    let Ok(sizer_parsers::Parsed::Devices(log)) =
        stream_small_reads(&sizer_parsers::sadf::SadfJson, cut.as_bytes())
    else {
        panic!("not a device log");
    };
    assert_eq!(*log, parse_json(cut).unwrap());
    assert_eq!(log.reports.len(), 1);
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 23);
    assert!(
        log.skipped[0].reason.contains("kept the 1 complete"),
        "{:?}",
        log.skipped
    );
}
