//! The sysstat `iostat` text parser on real corpus files (`../shared/corpus/`, read in place, never
//! copied) and on the hand-made fixtures in `fixtures/iostat/` (see its README).
//!
//! Every real value below was read by hand from the cited file and line.

use crate::common::shared;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use sizer_parsers::disk::sysstat_normalise;
use sizer_parsers::iostat::{parse, parse_bytes, parse_with, IostatLog, Reader, ReaderOptions};
use sizer_parsers::ParseError;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/iostat")
        .join(rel)
}

/// Parses a corpus file, or `None` (after printing SKIPPED) when the corpus is absent.
fn corpus(rel: &str) -> Option<IostatLog> {
    let p = shared(rel);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    let bytes = std::fs::read(&p).unwrap();
    Some(parse_bytes(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}")))
}

fn fix(rel: &str) -> IostatLog {
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

fn dev<'a>(
    log: &'a IostatLog,
    report: usize,
    name: &str,
) -> &'a sizer_parsers::iostat::DeviceSample {
    log.reports[report]
        .devices
        .iter()
        .find(|d| d.device == name)
        .unwrap_or_else(|| panic!("no {name} in report {report}"))
}

const SYSSTAT: &str = "sysstat-tests/tests/";
const IOSTAT: &str = "iostat/";

#[test]
fn centos7_10_1_5_x_kb_with_r_await() {
    // iostat/linux-iostat-10.1.5-centos7-x-kBps.txt line 7:
    // sda 0.00 0.02 0.13 0.11 5.27 1.10 52.53 0.00 0.88 0.53 1.29 0.52 0.01
    let Some(log) = corpus(&format!("{IOSTAT}linux-iostat-10.1.5-centos7-x-kBps.txt")) else {
        return;
    };
    let h = log.header.as_ref().unwrap();
    assert_eq!(h.kernel, "3.10.0-1062.1.2.el7.x86_64");
    assert_eq!(h.host, "localhost.localdomain");
    assert_eq!(h.date.as_deref(), Some("11/30/2021"));
    assert_eq!(h.arch.as_deref(), Some("x86_64"));
    assert_eq!(h.cpus, Some(1));
    assert_eq!(log.reports.len(), 1);
    assert!(log.reports[0].since_boot);
    let n = &dev(&log, 0, "sda").normalised;
    close(n.read_iops, 0.13, "r/s");
    close(n.write_iops, 0.11, "w/s");
    close(n.read_bytes_per_s, 5.27 * 1024.0, "rkB/s");
    close(n.write_bytes_per_s, 1.10 * 1024.0, "wkB/s");
    close(n.avg_request_bytes, 52.53 * 512.0, "avgrq-sz");
    close(n.await_ms, 0.88, "await");
    close(n.read_await_ms, 0.53, "r_await");
    close(n.write_await_ms, 1.29, "w_await");
    close(n.util_pct, 0.01, "%util");
    // svctm is kept by name, not read from w_await's position.
    close(dev(&log, 0, "sda").value("svctm"), 0.52, "svctm");
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
}

#[test]
fn rhel6_9_0_4_sectors_with_12h_timestamps() {
    // iostat/linux-iostat-9.0.4-rhel6-xt-sectors-12h-AMPM.txt, line 3 "06/14/2018 06:08:37 PM",
    // line 10: sdb 0.25 74.33 5.67 0.86 1149.19 601.76 268.22 0.00 0.06 38.02 127.18 1.84 1.20;
    // line 52 (third report): sda 1.00 0.00 1.00 0.00 16.00 0.00 16.00 0.01 15.00 15.00 ...
    let Some(log) = corpus(&format!(
        "{IOSTAT}linux-iostat-9.0.4-rhel6-xt-sectors-12h-AMPM.txt"
    )) else {
        return;
    };
    assert_eq!(log.header.as_ref().unwrap().cpus, Some(32));
    assert_eq!(
        log.reports[0].timestamp.as_deref(),
        Some("06/14/2018 06:08:37 PM")
    );
    assert!(log.reports[0].since_boot);
    assert!(!log.reports[1].since_boot);
    assert_eq!(
        log.reports[2].timestamp.as_deref(),
        Some("06/14/2018 06:08:39 PM")
    );
    let n = &dev(&log, 0, "sdb").normalised;
    close(n.read_iops, 5.67, "r/s");
    close(n.write_iops, 0.86, "w/s");
    close(n.read_bytes_per_s, 1149.19 * 512.0, "rsec/s");
    close(n.write_bytes_per_s, 601.76 * 512.0, "wsec/s");
    close(n.avg_request_bytes, 268.22 * 512.0, "avgrq-sz");
    close(n.queue_depth, 0.0, "avgqu-sz");
    close(n.read_await_ms, 38.02, "r_await");
    close(n.write_await_ms, 127.18, "w_await");
    let n = &dev(&log, 2, "sda").normalised;
    close(n.read_bytes_per_s, 16.0 * 512.0, "rsec/s");
    close(n.read_await_ms, 15.0, "r_await");
    for r in &log.reports {
        assert!(r.timestamp.as_deref().unwrap().ends_with('M'));
        assert_eq!(r.devices.len(), 11);
    }
}

#[test]
fn ubuntu1804_11_6_1_mb_and_rareq_sz() {
    // iostat/linux-iostat-11.6.1-ubuntu1804-mx-svctm.txt line 16:
    // sda 40.74 44.66 1.93 3.43 3.50 96.04 7.90 68.26 1.65 3.00 0.20 48.60 78.55 0.55 4.66
    let Some(log) = corpus(&format!(
        "{IOSTAT}linux-iostat-11.6.1-ubuntu1804-mx-svctm.txt"
    )) else {
        return;
    };
    let n = &dev(&log, 0, "sda").normalised;
    close(n.read_iops, 40.74, "r/s");
    close(n.write_iops, 44.66, "w/s");
    close(n.read_bytes_per_s, 1.93 * 1_048_576.0, "rMB/s");
    close(n.write_bytes_per_s, 3.43 * 1_048_576.0, "wMB/s");
    close(n.read_await_ms, 1.65, "r_await");
    close(n.write_await_ms, 3.00, "w_await");
    close(n.queue_depth, 0.20, "aqu-sz");
    close(n.read_request_bytes, 48.60 * 1024.0, "rareq-sz");
    close(n.write_request_bytes, 78.55 * 1024.0, "wareq-sz");
    assert_eq!(n.await_ms, None, "11.5.7+ prints no await");
    close(n.util_pct, 4.66, "%util");
}

#[test]
fn ubuntu2010_12_x_discard_and_flush() {
    // iostat/linux-iostat-12.x-ubuntu2010-x-discard-flush.txt line 19:
    // sda 2.67 100.76 0.66 19.76 0.36 37.75 2.81 129.44 4.42 61.15 0.42 46.11 0.00 ... 0.00 0.41
    let Some(log) = corpus(&format!(
        "{IOSTAT}linux-iostat-12.x-ubuntu2010-x-discard-flush.txt"
    )) else {
        return;
    };
    let d = dev(&log, 0, "sda");
    assert_eq!(d.values.len(), 22);
    close(d.value("%rrqm"), 19.76, "%rrqm");
    let n = &d.normalised;
    close(n.read_iops, 2.67, "r/s");
    close(n.write_iops, 2.81, "w/s");
    close(n.read_bytes_per_s, 100.76 * 1024.0, "rkB/s");
    close(n.write_bytes_per_s, 129.44 * 1024.0, "wkB/s");
    close(n.read_await_ms, 0.36, "r_await");
    close(n.write_await_ms, 0.42, "w_await");
    close(n.discard_iops, 0.0, "d/s");
    close(n.total_iops, 2.67 + 2.81, "r+w+d+f");
    close(n.util_pct, 0.41, "%util");
}

#[test]
fn ubuntu_9_x_basic_blocks_ddmmyy() {
    // iostat/linux-iostat-9.x-ubuntu-basic-Blk-sectors-DDMMYY.txt line 1 date "27/07/10",
    // line 16 (second report): sdb 78.93 634.11 0.00 1896 0
    let Some(log) = corpus(&format!(
        "{IOSTAT}linux-iostat-9.x-ubuntu-basic-Blk-sectors-DDMMYY.txt"
    )) else {
        return;
    };
    let h = log.header.as_ref().unwrap();
    assert_eq!(h.date.as_deref(), Some("27/07/10"));
    assert_eq!(h.arch.as_deref(), Some("i686"));
    assert_eq!(log.reports.len(), 3);
    assert!(log.reports[0].since_boot && !log.reports[1].since_boot);
    let d = dev(&log, 1, "sdb");
    close(d.normalised.total_iops, 78.93, "tps");
    close(d.normalised.read_bytes_per_s, 634.11 * 512.0, "Blk_read/s");
    close(d.normalised.write_bytes_per_s, 0.0, "Blk_wrtn/s");
    close(d.value("Blk_read"), 1896.0, "Blk_read");
    assert_eq!(d.normalised.read_iops, None, "basic report has no r/s");
}

#[test]
fn centos7_10_1_5_basic_kb() {
    // iostat/linux-iostat-10.1.5-centos7-basic-interval.txt line 8:
    // dm-0 0.25 4.39 1.04 170325 40464
    let Some(log) = corpus(&format!(
        "{IOSTAT}linux-iostat-10.1.5-centos7-basic-interval.txt"
    )) else {
        return;
    };
    assert_eq!(log.reports.len(), 3);
    let n = &dev(&log, 0, "dm-0").normalised;
    close(n.total_iops, 0.25, "tps");
    close(n.read_bytes_per_s, 4.39 * 1024.0, "kB_read/s");
    close(n.write_bytes_per_s, 1.04 * 1024.0, "kB_wrtn/s");
}

#[test]
fn sysstat_12_x_and_pretty_split_tables() {
    // sysstat-tests/tests/expected.iostat-x line 9:
    // sdq 6.87 222.11 0.38 5.22 12.59 32.34 0.00 ... 1.20 25.21 0.08 5.96 14.24 20.99 0.00 0.00 0.10 0.45
    let Some(x) = corpus(&format!("{SYSSTAT}expected.iostat-x")) else {
        return;
    };
    let n = &dev(&x, 0, "sdq").normalised;
    close(n.read_iops, 6.87, "r/s");
    close(n.read_bytes_per_s, 222.11 * 1024.0, "rkB/s");
    close(n.read_await_ms, 12.59, "r_await");
    close(n.discard_iops, 1.20, "d/s");
    close(n.discard_bytes_per_s, 25.21 * 1024.0, "dkB/s");
    close(n.queue_depth, 0.10, "aqu-sz");
    // expected.iostat-x-pretty lines 9, 16, 23, 30: the same sdq split over 4 tables, name last.
    let Some(p) = corpus(&format!("{SYSSTAT}expected.iostat-x-pretty")) else {
        return;
    };
    assert_eq!(p.reports.len(), 1);
    let d = dev(&p, 0, "sdq");
    assert_eq!(d.values.len(), 22);
    assert_eq!(d.normalised, dev(&x, 0, "sdq").normalised);
    // expected.iostat-compact: one table, name last, same numbers.
    let Some(c) = corpus(&format!("{SYSSTAT}expected.iostat-compact")) else {
        return;
    };
    assert_eq!(dev(&c, 0, "sdq").values, dev(&x, 0, "sdq").values);
}

#[test]
fn sysstat_posixly_correct_blocks_and_groups_and_short() {
    // expected.iostat-ev line 4: sda 8.59 444.28 114.16 0.00 3195498 821088 0 (Blk_, ISO banner date)
    let Some(ev) = corpus(&format!("{SYSSTAT}expected.iostat-ev")) else {
        return;
    };
    assert_eq!(
        ev.header.as_ref().unwrap().date.as_deref(),
        Some("2020-06-01")
    );
    close(
        dev(&ev, 0, "sda").normalised.read_bytes_per_s,
        444.28 * 512.0,
        "Blk_read/s",
    );
    // expected.iostat-g line 6: " disks 8.60 222.43 57.08 ..." (group row, leading space)
    let Some(g) = corpus(&format!("{SYSSTAT}expected.iostat-g")) else {
        return;
    };
    let disks = dev(&g, 0, "disks");
    assert!(disks.group);
    assert!(!dev(&g, 0, "sda").group);
    close(
        disks.normalised.read_bytes_per_s,
        222.43 * 1024.0,
        "group kB_read/s",
    );
    // expected.iostat-xs line 7: sda 8.59 279.22 1.75 12.00 32.51 0.10 0.46
    let Some(xs) = corpus(&format!("{SYSSTAT}expected.iostat-xs")) else {
        return;
    };
    let n = &dev(&xs, 0, "sda").normalised;
    close(n.total_iops, 8.59, "tps");
    close(n.total_bytes_per_s, 279.22 * 1024.0, "kB/s");
    close(n.await_ms, 12.0, "await");
    close(n.avg_request_bytes, 32.51 * 1024.0, "areq-sz");
    close(n.queue_depth, 0.10, "aqu-sz");
    // expected.iostat-h line 4: "8.59 222.1k 57.1k 0.0k 1.5G 400.9M 0.0k sda" (human, name last)
    let Some(h) = corpus(&format!("{SYSSTAT}expected.iostat-h")) else {
        return;
    };
    let d = dev(&h, 0, "sda");
    close(d.normalised.read_bytes_per_s, 222.1 * 1024.0, "222.1k");
    close(d.value("kB_read"), 1.5 * 1_048_576.0, "1.5G in kB");
}

/// Every iostat text file of the corpus parses. Not tried: the two `-o JSON` files of
/// sysstat-tests (`expected.iostat-g-JSON`, `expected.iostat-x-p-ALL-JSON`), the AIX and Solaris
/// excerpts, `sar`/`sadf`/nmon files (other formats).
#[test]
fn every_corpus_iostat_text_file_parses() {
    const SYSSTAT_FILES: &[&str] = &[
        "expected.iostat",
        "expected.iostat+f-alt-ALL-ms",
        "expected.iostat+f-alt-list-ms",
        "expected.iostat+f-alt-pALL",
        "expected.iostat+f-alt-pALL-ms",
        "expected.iostat-0",
        "expected.iostat-ALL",
        "expected.iostat-ALL-p-ALL",
        "expected.iostat-Gz",
        "expected.iostat-N",
        "expected.iostat-N-list1",
        "expected.iostat-N-list2",
        "expected.iostat-alt-pALL",
        "expected.iostat-cciss",
        "expected.iostat-compact",
        "expected.iostat-ct",
        "expected.iostat-dec",
        "expected.iostat-ev",
        "expected.iostat-f-alt-ALL-ms",
        "expected.iostat-f-alt-list-ms",
        "expected.iostat-f-alt-pALL",
        "expected.iostat-f-alt-pALL-ms",
        "expected.iostat-foo",
        "expected.iostat-g",
        "expected.iostat-g2",
        "expected.iostat-gALL",
        "expected.iostat-gH",
        "expected.iostat-gp",
        "expected.iostat-gpALL",
        "expected.iostat-gpy",
        "expected.iostat-h",
        "expected.iostat-human",
        "expected.iostat-jID",
        "expected.iostat-jLABEL",
        "expected.iostat-jLABEL-list",
        "expected.iostat-jPARTUUID",
        "expected.iostat-jPATH",
        "expected.iostat-jUUID-list",
        "expected.iostat-jUUID-list2",
        "expected.iostat-kz",
        "expected.iostat-list",
        "expected.iostat-mz",
        "expected.iostat-p-ALL",
        "expected.iostat-p-cciss",
        "expected.iostat-p-sda",
        "expected.iostat-pretty",
        "expected.iostat-s",
        "expected.iostat-s-0",
        "expected.iostat-s-ALL",
        "expected.iostat-s-ALL-p-ALL",
        "expected.iostat-s-list",
        "expected.iostat-s-list-p",
        "expected.iostat-sigint",
        "expected.iostat-sp-0",
        "expected.iostat-x",
        "expected.iostat-x-0",
        "expected.iostat-x-ALL",
        "expected.iostat-x-ALL-flush",
        "expected.iostat-x-ALL-p-ALL",
        "expected.iostat-x-list",
        "expected.iostat-x-p-ALL",
        "expected.iostat-x-p-sda",
        "expected.iostat-x-pretty",
        "expected.iostat-xs",
        "expected.iostat-xs-list",
        "expected.iostat-xs-list-part",
        "expected.iostat-xs-p-sda",
        "expected.iostat-xs-sdb",
        "expected.iostat-ym",
        "expected2.iostat+f-alt-list-ms",
        "expected2.iostat-f-alt-list-ms",
        "expected2.iostat-gpALL",
        "expected3.iostat-gpALL",
    ];
    const IOSTAT_FILES: &[&str] = &[
        "linux-iostat-10.1.5-centos7-basic-interval.txt",
        "linux-iostat-10.1.5-centos7-x-kBps.txt",
        "linux-iostat-11.6.1-ubuntu1804-mx-svctm.txt",
        "linux-iostat-12.x-ubuntu2010-x-discard-flush.txt",
        "linux-iostat-9.0.4-rhel6-xt-sectors-12h-AMPM.txt",
        "linux-iostat-9.x-ubuntu-basic-Blk-sectors-DDMMYY.txt",
    ];
    let files = SYSSTAT_FILES
        .iter()
        .map(|f| format!("{SYSSTAT}{f}"))
        .chain(IOSTAT_FILES.iter().map(|f| format!("{IOSTAT}{f}")));
    let mut devices = 0;
    for rel in files {
        let Some(log) = corpus(&rel) else { return };
        assert!(log.header.is_some(), "{rel}: no banner");
        assert!(log.warnings.is_empty(), "{rel}: {:?}", log.warnings);
        devices += log.reports.iter().map(|r| r.devices.len()).sum::<usize>();
    }
    assert!(devices > 1000, "{devices} device samples");
    // Version output (no banner, no device header): a clear error, not an empty log.
    // `expected.iostat-foo` (empty device list) parses above: one report with no device.
    let p = shared(&format!("{SYSSTAT}expected.iostat-V-env"));
    if let Ok(bytes) = std::fs::read(p) {
        let e = parse_bytes(&bytes).unwrap_err();
        assert!(matches!(e, ParseError::UnknownFormat { .. }), "{e}");
    }
}

#[test]
fn fixture_12_3_flush_iso_timestamps_dm_names() {
    // x-12.3-flush-iso-N.txt: nvme0n1 100 r/s × 8 kB = 800 kB/s; 50 w/s × 32 kB = 1600 kB/s.
    let log = fix("x-12.3-flush-iso-N.txt");
    assert_eq!(log.reports.len(), 2);
    assert_eq!(
        log.reports[1].timestamp.as_deref(),
        Some("2024-01-02T10:01:00+0100")
    );
    let n = &dev(&log, 0, "nvme0n1").normalised;
    close(n.read_bytes_per_s, 800.0 * 1024.0, "rkB/s");
    close(n.write_bytes_per_s, 1600.0 * 1024.0, "wkB/s");
    // r + w + d, not flushes (sysstat tps: rd_ios + wr_ios + dc_ios).
    close(n.total_iops, 150.0, "r+w+d");
    // (100 × 8 + 50 × 32) / 150 kB = 16 kB
    close(n.avg_request_bytes, 16.0 * 1024.0, "weighted rareq/wareq");
    let n = &dev(&log, 1, "vg0-data").normalised;
    close(n.discard_iops, 10.0, "d/s");
    close(n.discard_bytes_per_s, 512.0 * 1024.0, "dkB/s");
    close(n.write_await_ms, 0.65, "w_await");
    // -y logs: nothing is since boot when the caller says so.
    let text = std::fs::read_to_string(fixture("x-12.3-flush-iso-N.txt")).unwrap();
    let y = parse_with(
        &text,
        ReaderOptions {
            first_is_since_boot: false,
            ..ReaderOptions::default()
        },
    )
    .unwrap();
    assert!(y.reports.iter().all(|r| !r.since_boot));
    assert!(log.reports[0].since_boot);
}

#[test]
fn fixture_9_0_sectors_ampm_partitions() {
    // sda: 160 rsec/s = 80 kB/s; avgrq-sz 16 sectors = 8 kB.
    let log = fix("x-9.0-sectors-ampm-p.txt");
    assert_eq!(
        log.reports[1].timestamp.as_deref(),
        Some("03/05/2019 12:00:08 AM")
    );
    let n = &dev(&log, 0, "sda1").normalised;
    close(n.read_bytes_per_s, 80.0 * 1024.0, "rsec/s");
    close(n.avg_request_bytes, 8.0 * 1024.0, "avgrq-sz");
    close(n.await_ms, 5.0, "await");
    close(n.queue_depth, 0.2, "avgqu-sz");
}

#[test]
fn fixture_7_0_time_prefix_no_arch() {
    let log = fix("x-7.0-time-prefix-kB.txt");
    let h = log.header.as_ref().unwrap();
    assert_eq!((h.arch.as_deref(), h.cpus), (None, None));
    assert_eq!(
        log.reports[0].timestamp.as_deref(),
        Some("Time: 03:49:57 PM")
    );
    let n = &dev(&log, 0, "sda").normalised;
    close(n.read_bytes_per_s, 40.0 * 1024.0, "rkB/s");
    assert_eq!(n.read_await_ms, None, "7.x has no r_await");
}

#[test]
fn fixture_decimal_comma() {
    let log = fix("basic-decimal-comma-ddmmyy.txt");
    let n = &dev(&log, 0, "sda").normalised;
    close(n.total_iops, 12.5, "tps 12,50");
    close(n.read_bytes_per_s, 100.25 * 1024.0, "kB_read/s 100,25");
    // A report mixing ',' and '.' is refused.
    let mixed =
        "Linux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n\nDevice tps kB_read/s\nsda 1,5 2.5\n";
    assert!(matches!(parse(mixed), Err(ParseError::Section { .. })));
}

#[test]
fn fixture_short_line_is_an_error_naming_line_and_header() {
    let e = fix_err("bad-short-line.txt");
    let msg = e.to_string();
    assert!(matches!(e, ParseError::Section { .. }), "{msg}");
    assert!(msg.contains("line 5"), "{msg}");
    assert!(msg.contains("line 3"), "{msg}");
    assert!(msg.contains("r_await"), "{msg}");
}

fn fix_err(rel: &str) -> ParseError {
    let bytes = std::fs::read(fixture(rel)).unwrap();
    parse_bytes(&bytes).expect_err("must be rejected")
}

#[test]
fn fixture_unknown_column_kept_and_warned() {
    let log = fix("unknown-column.txt");
    let d = dev(&log, 0, "sda");
    close(d.value("zz_future"), 9.0, "kept");
    close(d.normalised.util_pct, 0.30, "%util");
    assert_eq!(log.warnings.len(), 1, "{:?}", log.warnings);
    assert!(log.warnings[0].contains("zz_future"));
}

#[test]
fn empty_and_binary_input_rejected_by_decode() {
    assert!(matches!(parse_bytes(b""), Err(ParseError::Empty)));
    assert!(matches!(
        parse_bytes(b"\x00\x01sa binary"),
        Err(ParseError::Binary { .. })
    ));
    assert!(matches!(
        parse("just some text\n"),
        Err(ParseError::UnknownFormat { .. })
    ));
}

const FIXTURES: &[&str] = &[
    "x-12.3-flush-iso-N.txt",
    "x-9.0-sectors-ampm-p.txt",
    "x-7.0-time-prefix-kB.txt",
    "basic-decimal-comma-ddmmyy.txt",
    "unknown-column.txt",
    "bad-short-line.txt",
];

proptest! {
    #[test]
    fn any_prefix_of_a_fixture_is_ok_or_err_never_a_panic(f in 0..FIXTURES.len(), cut in 0.0f64..1.0) {
        let text = std::fs::read_to_string(fixture(FIXTURES[f])).unwrap();
        let cut_at = (text.len() as f64 * cut) as usize;
        // Any byte prefix (decode handles a split character) ...
        let _ = parse_bytes(&text.as_bytes()[..cut_at]);
        // ... and any text prefix.
        let mut n = cut_at;
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        let _ = parse(&text[..n]);
    }
}

// ---------------------------------------------------------------------------------------------
// Streaming reader
// ---------------------------------------------------------------------------------------------

fn no_values() -> ReaderOptions {
    ReaderOptions {
        keep_values: false,
        ..ReaderOptions::default()
    }
}

/// Every report of a [`Reader`] over `text`, errors as their message.
fn stream(
    text: &str,
    opts: ReaderOptions,
) -> Vec<Result<sizer_parsers::iostat::IostatReport, String>> {
    Reader::new(text.as_bytes(), opts)
        .map(|r| r.map_err(|e| e.to_string()))
        .collect()
}

/// Every sysstat iostat text file of the corpus (all of `iostat/`, every `*iostat*` of
/// sysstat-tests but the two `-o JSON` ones), or `None` when the corpus is absent.
fn corpus_iostat_files() -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    let sysstat: fn(&str) -> bool = |n| n.contains("iostat") && !n.ends_with("JSON");
    let iostat: fn(&str) -> bool = |n| n.starts_with("linux-iostat-");
    for (dir, keep) in [(SYSSTAT, sysstat), (IOSTAT, iostat)] {
        let d = shared(dir);
        let Ok(entries) = std::fs::read_dir(&d) else {
            crate::common::corpus_absent(&d);
            return None;
        };
        for e in entries {
            let p = e.unwrap().path();
            if keep(p.file_name().unwrap().to_str().unwrap()) {
                files.push(p);
            }
        }
    }
    files.sort();
    Some(files)
}

/// The per-header plan that fills `normalised` when values are not kept gives exactly what
/// `disk::sysstat_normalise` gives on the kept values, on every corpus iostat file; and the
/// streaming reader gives the same reports as `parse` (less the values), or the same error.
#[test]
fn plan_and_values_paths_give_the_same_normalised_on_every_corpus_file() {
    let Some(files) = corpus_iostat_files() else {
        return;
    };
    assert!(files.len() >= 80, "{} files", files.len());
    let mut samples = 0;
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let text = sizer_parsers::input::decode(&bytes).unwrap().text;
        let streamed = stream(&text, no_values());
        match parse(&text) {
            Ok(log) => {
                let mut reports = Vec::new();
                for r in &log.reports {
                    for d in &r.devices {
                        assert_eq!(
                            d.normalised,
                            sysstat_normalise(&d.values),
                            "{}: {} line {}",
                            p.display(),
                            d.device,
                            r.line
                        );
                        samples += 1;
                    }
                    let mut r = r.clone();
                    r.devices.iter_mut().for_each(|d| d.values.clear());
                    reports.push(Ok(r));
                }
                assert_eq!(streamed, reports, "{}", p.display());
                let kept = parse_with(&text, ReaderOptions::default()).unwrap();
                assert_eq!(kept, log);
            }
            Err(e) => {
                // Only the version banner has no disk statistics.
                assert!(matches!(e, ParseError::UnknownFormat { .. }), "{e}");
                assert_eq!(streamed.last(), Some(&Err(e.to_string())));
            }
        }
    }
    assert!(samples > 1000, "{samples} samples");
}

#[test]
fn keep_values_false_fills_normalised_only() {
    let text = std::fs::read_to_string(fixture("x-12.3-flush-iso-N.txt")).unwrap();
    let all = parse(&text).unwrap();
    let lean = parse_with(&text, no_values()).unwrap();
    assert_eq!(lean.reports.len(), 2);
    for (a, b) in all.reports.iter().zip(&lean.reports) {
        for (x, y) in a.devices.iter().zip(&b.devices) {
            assert_eq!(x.values.len(), 22);
            assert!(y.values.is_empty());
            assert_eq!(x.normalised, y.normalised);
            assert_eq!((&x.device, x.group), (&y.device, y.group));
        }
    }
    close(
        dev(&lean, 1, "vg0-data").normalised.discard_bytes_per_s,
        512.0 * 1024.0,
        "dkB/s",
    );
    // The same errors either way.
    for f in ["bad-short-line.txt", "unknown-column.txt"] {
        let text = std::fs::read_to_string(fixture(f)).unwrap();
        assert_eq!(
            parse(&text).map(|_| ()).map_err(|e| e.to_string()),
            parse_with(&text, no_values())
                .map(|_| ())
                .map_err(|e| e.to_string()),
            "{f}"
        );
    }
    let bad = "Linux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n\nDevice r/s rrqm/s\nsda 1.00 x\n";
    let e = parse_with(bad, no_values()).unwrap_err().to_string();
    assert!(e.contains("line 4") && e.contains("'rrqm/s'"), "{e}");
}

/// A log of `n` one-second reports (12.x `-x`, two devices), built here.
fn synthetic(n: usize) -> String {
    let mut s = String::from("Linux 6.1.0 (h) \t01/02/24 \t_x86_64_\t(4 CPU)\n\n");
    for i in 0..n {
        s.push_str(&format!(
            "01/02/24 10:{:02}:{:02}\nDevice r/s rkB/s w/s wkB/s aqu-sz %util\n\
             sda {i}.00 8.00 1.00 4.00 0.10 1.00\nnvme0n1 2.50 10.00 3.00 12.00 0.01 0.50\n\n",
            i / 60 % 60,
            i % 60
        ));
    }
    s
}

/// Counts the bytes a reader has taken from its source.
struct Counting<'a> {
    bytes: &'a [u8],
    read: std::rc::Rc<std::cell::Cell<usize>>,
}

impl std::io::Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.bytes.read(buf)?;
        self.read.set(self.read.get() + n);
        Ok(n)
    }
}

#[test]
fn reader_yields_each_report_before_reading_the_rest() {
    let text = synthetic(2000);
    assert!(text.len() > 200_000);
    let read = std::rc::Rc::new(std::cell::Cell::new(0));
    let src = std::io::BufReader::with_capacity(
        4096,
        Counting {
            bytes: text.as_bytes(),
            read: read.clone(),
        },
    );
    let mut reader = Reader::new(src, no_values());
    let first = reader.next().unwrap().unwrap();
    assert!(first.since_boot);
    assert_eq!(first.timestamp.as_deref(), Some("01/02/24 10:00:00"));
    close(first.devices[0].normalised.read_iops, 0.0, "r/s");
    assert!(
        read.get() <= 8192,
        "{} bytes read for the first report",
        read.get()
    );
    assert_eq!(reader.header().unwrap().cpus, Some(4));
    let mut n = 1;
    for r in reader.by_ref() {
        let r = r.unwrap();
        assert!(!r.since_boot);
        close(r.devices[0].normalised.read_iops, n as f64, "r/s");
        close(r.devices[1].normalised.total_iops, 5.5, "r+w");
        n += 1;
    }
    assert_eq!(n, 2000);
    assert_eq!(read.get(), text.len());
    assert!(reader.warnings().is_empty() && reader.skipped().is_empty());
    assert_eq!(reader.lines_read(), text.lines().count());
    // The same reports as a whole-text parse.
    let log = parse(&text).unwrap();
    assert_eq!(log.reports.len(), 2000);
    assert_eq!(
        stream(&text, ReaderOptions::default()),
        log.reports.into_iter().map(Ok).collect::<Vec<_>>()
    );
}

#[test]
fn reader_goes_on_after_a_bad_value_and_after_a_malformed_line() {
    let head = "Linux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n\n";
    let report = |sda: &str| format!("Device r/s w/s\nsda {sda}\n\n");
    // A bad value: that report is an error, the next one still comes.
    let text = format!(
        "{head}{}{}{}",
        report("1.00 2.00"),
        report("1.00 zz"),
        report("3.00 4.00")
    );
    let items = stream(&text, no_values());
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[2].is_ok());
    let e = items[1].as_ref().unwrap_err();
    assert!(e.contains("line 7") && e.contains("'w/s'"), "{e}");
    assert_eq!(parse(&text).unwrap_err().to_string(), *e);
    // Decimal commas mixed with points in one report: an error naming the first comma line.
    let text = format!(
        "{head}Device r/s w/s\nsda 1,00 2,00\nsdb 1.00 2.00\n\n{}",
        report("1,50 2,50")
    );
    let items = stream(&text, no_values());
    assert!(
        items[0].as_ref().unwrap_err().contains("line 4"),
        "{items:?}"
    );
    // ... while each report decides for itself: the next one, all commas, reads.
    close(
        items[1].as_ref().unwrap().devices[0].normalised.read_iops,
        1.5,
        "1,50",
    );
    // A malformed line mid-file (issue 14) is an error for its report only: the stream goes on
    // with the next report (the one of line 12, read: 1.00 r/s).
    let text = format!(
        "{head}{}{}Device r/s w/s\nsda 1.00\n\n{}",
        report("1.00 2.00"),
        report("x 2.00"),
        report("1.00 2.00")
    );
    let items = stream(&text, no_values());
    assert_eq!(items.len(), 4, "{items:?}");
    assert!(items[1].as_ref().unwrap_err().contains("line 7"));
    let bad = items[2].as_ref().unwrap_err();
    assert!(bad.contains("line 10") && bad.contains("2 fields"), "{bad}");
    let after = items[3].as_ref().unwrap();
    assert_eq!(after.line, 12);
    close(after.devices[0].normalised.read_iops, 1.0, "after");
    // parse (strict) still stops at the first bad report.
    assert!(parse(&text).unwrap_err().to_string().contains("line 7"));
    // No iostat output at all: the error comes at the end.
    let items = stream("just text\n", no_values());
    assert_eq!(items.len(), 1);
    assert!(items[0]
        .as_ref()
        .unwrap_err()
        .contains("expected Linux sysstat iostat output"));
}

#[test]
fn reader_decodes_invalid_utf8_lossily_and_drops_a_bom() {
    let mut bytes = b"\xEF\xBB\xBFLinux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\r\n\r\n".to_vec();
    bytes.extend_from_slice(b"Device r/s w/s\r\nsd\xFFa 1.00 2.00\r\nsdb 3.00 4.00");
    let items: Vec<_> = Reader::new(&bytes[..], ReaderOptions::default()).collect();
    assert_eq!(items.len(), 1);
    let r = items[0].as_ref().unwrap();
    assert_eq!(r.devices[0].device, "sd\u{fffd}a");
    assert_eq!(r.devices[1].device, "sdb");
    close(
        r.devices[1].normalised.write_iops,
        4.0,
        "w/s on the last line, no end of line",
    );
}

#[test]
fn pretty_split_tables_merge_without_values_too() {
    // expected.iostat-x-pretty: sdq over 4 tables, merged into one sample.
    let p = shared(&format!("{SYSSTAT}expected.iostat-x-pretty"));
    let Ok(text) = std::fs::read_to_string(&p) else {
        crate::common::corpus_absent(&p);
        return;
    };
    let lean = parse_with(&text, no_values()).unwrap();
    let all = parse(&text).unwrap();
    let (a, b) = (dev(&all, 0, "sdq"), dev(&lean, 0, "sdq"));
    assert!(b.values.is_empty());
    assert_eq!(a.normalised, b.normalised);
    close(b.normalised.discard_iops, 1.20, "d/s");
    close(b.normalised.queue_depth, 0.10, "aqu-sz");
}

#[test]
fn avg_cpu_is_read_by_column_name() {
    // fixtures/iostat/x-12.3-flush-iso-N.txt lines 4-5 and 13-14:
    // avg-cpu: %user %nice %system %iowait %steal %idle / 5.00 0.00 2.00 1.00 0.00 92.00, then
    // 6.00 0.00 2.00 1.00 0.00 91.00. Busy = 100 − %idle − %iowait = 100 − 92 − 1 = 7.00, then
    // 100 − 91 − 1 = 8.00; iowait 1.00.
    let log = fix("x-12.3-flush-iso-N.txt");
    let c0 = log.reports[0].cpu.as_ref().expect("avg-cpu of report 0");
    close(c0.busy_pct, 7.0, "busy 0");
    close(c0.iowait_pct, 1.0, "iowait 0");
    assert_eq!(c0.values[0], ("%user".to_string(), Some(5.0)));
    assert_eq!(c0.values[5], ("%idle".to_string(), Some(92.0)));
    let c1 = log.reports[1].cpu.as_ref().expect("avg-cpu of report 1");
    close(c1.busy_pct, 8.0, "busy 1");
    // Decimal commas (fixtures/iostat/basic-decimal-comma-ddmmyy.txt lines 3-4):
    // 1,00 0,00 0,50 0,25 0,00 98,25 → busy 100 − 98.25 − 0.25 = 1.50, iowait 0.25.
    let log = fix("basic-decimal-comma-ddmmyy.txt");
    let c = log.reports[0].cpu.as_ref().expect("avg-cpu");
    close(c.busy_pct, 1.5, "busy");
    close(c.iowait_pct, 0.25, "iowait");
}

#[test]
fn avg_cpu_of_a_corpus_log() {
    // iostat/linux-iostat-10.1.5-centos7-x-kBps.txt lines 3-4: avg-cpu %user %nice %system
    // %iowait %steal %idle = 0.14 0.00 0.16 0.00 0.00 99.70 → busy 100 − 99.70 − 0.00 = 0.30.
    let Some(log) = corpus(&format!("{IOSTAT}linux-iostat-10.1.5-centos7-x-kBps.txt")) else {
        return;
    };
    let c = log.reports[0].cpu.as_ref().expect("avg-cpu");
    close(c.busy_pct, 100.0 - 99.70 - 0.0, "busy");
    assert_eq!(c.iowait_pct, Some(0.0));
}
