//! The `sar` text parser on real corpus files (`../shared/corpus/`, read in place, never copied)
//! and on the hand-made fixtures in `fixtures/sar/` (see its README).
//!
//! Every real value below was read by hand from the cited file and line.

use crate::common::shared;
use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use proptest::prelude::*;
use sizer_parsers::disk::{resolve_times, DeviceLog, DeviceReport, DeviceSample};
use sizer_parsers::sar::{looks_like, parse, parse_bytes, SAR_B_DEVICE};
use sizer_parsers::ParseError;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/sar")
        .join(rel)
}

/// Reads a corpus file, or `None` (after printing SKIPPED) when the corpus is absent.
fn corpus_bytes(rel: &str) -> Option<Vec<u8>> {
    let p = shared(rel);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    Some(std::fs::read(&p).unwrap())
}

/// Parses a corpus file, or `None` when the corpus is absent.
fn corpus(rel: &str) -> Option<DeviceLog> {
    let bytes = corpus_bytes(rel)?;
    Some(parse_bytes(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}")))
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

/// The interval report printed at `ts` (the first one when several segments share it).
#[track_caller]
fn at<'a>(log: &'a DeviceLog, ts: &str) -> &'a DeviceReport {
    log.reports
        .iter()
        .find(|r| r.timestamp.as_deref() == Some(ts))
        .unwrap_or_else(|| panic!("no report at {ts}"))
}

/// The n-th summary report (0-based).
#[track_caller]
fn summary(log: &DeviceLog, n: usize) -> &DeviceReport {
    log.reports
        .iter()
        .filter(|r| r.summary)
        .nth(n)
        .unwrap_or_else(|| panic!("no summary #{n}"))
}

#[track_caller]
fn dev<'a>(r: &'a DeviceReport, name: &str) -> &'a DeviceSample {
    r.devices
        .iter()
        .find(|d| d.device == name)
        .unwrap_or_else(|| panic!("no {name} in the report of line {}", r.line))
}

fn dt(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
}

const SYSSTAT: &str = "sysstat-tests/tests/";
const IOSTAT: &str = "iostat/";

#[test]
fn rhel7_10_1_5_sar_a_sectors_and_dev_m_n() {
    // iostat/linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt: sysstat 10.1.5 `sar -A`, devM-N names.
    let Some(log) = corpus(&format!(
        "{IOSTAT}linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt"
    )) else {
        return;
    };
    assert_eq!(log.format, "sar_text");
    let h = log.header.as_ref().unwrap();
    assert_eq!(h.kernel, "3.10.0-327.el7.x86_64");
    assert_eq!(h.host, "hostname.example.com");
    assert_eq!(h.date.as_deref(), Some("03/28/16"));
    assert_eq!(h.cpus, Some(48));
    // 09:10:01 … 15:00:01 every 10 minutes = 36 intervals, then one Average.
    assert_eq!(log.reports.len(), 37);
    assert!(log.reports[36].summary && !log.reports[35].summary);
    assert!(log.reports.iter().all(|r| r.devices.len() == 6));
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
    // line 2287: 09:10:01 dev8-0 0.35 0.53 1.71 6.44 0.01 20.24 5.61 0.20
    let r = at(&log, "09:10:01");
    assert_eq!(r.line, 1938, "first row of the day: the -b table's");
    let d = dev(r, "dev8-0");
    assert!(!d.group);
    let n = &d.normalised;
    close(n.total_iops, 0.35, "tps");
    close(n.read_bytes_per_s, 0.53 * 512.0, "rd_sec/s");
    close(n.write_bytes_per_s, 1.71 * 512.0, "wr_sec/s");
    close(n.avg_request_bytes, 6.44 * 512.0, "avgrq-sz");
    close(n.queue_depth, 0.01, "avgqu-sz");
    close(n.await_ms, 20.24, "await");
    close(n.service_ms, 5.61, "svctm");
    close(n.util_pct, 0.20, "%util");
    assert_eq!(n.read_iops, None, "sar -d has no r/s");
    close(d.value("rd_sec/s"), 0.53, "verbatim");
    // line 1938: 09:10:01 0.63 0.06 0.58 1.84 2.97 (sar -b)
    let b = dev(r, SAR_B_DEVICE);
    assert!(b.group, "sar -b totals double-count the devices");
    close(b.normalised.total_iops, 0.63, "tps");
    close(b.normalised.read_iops, 0.06, "rtps");
    close(b.normalised.write_iops, 0.58, "wtps");
    close(b.normalised.read_bytes_per_s, 1.84 * 512.0, "bread/s");
    close(b.normalised.write_bytes_per_s, 2.97 * 512.0, "bwrtn/s");
    // line 2296: 09:20:01 dev8-16 13.52 580.18 56.83 47.10 0.11 8.28 3.27 4.42
    close(
        dev(at(&log, "09:20:01"), "dev8-16")
            .normalised
            .read_bytes_per_s,
        580.18 * 512.0,
        "rd_sec/s",
    );
    // line 2467: Average: dev8-0 0.56 5.70 2.10 13.88 0.01 12.88 5.12 0.29
    let s = summary(&log, 0);
    assert_eq!(s.timestamp, None);
    let n = &dev(s, "dev8-0").normalised;
    close(n.total_iops, 0.56, "avg tps");
    close(n.read_bytes_per_s, 5.70 * 512.0, "avg rd_sec/s");
    close(n.await_ms, 12.88, "avg await");
    // line 1974: Average: 1.17 0.60 0.57 22.61 4.81
    let n = &dev(s, SAR_B_DEVICE).normalised;
    close(n.total_iops, 1.17, "avg tps");
    close(n.read_bytes_per_s, 22.61 * 512.0, "avg bread/s");
    // Times join the banner date.
    let t = resolve_times(&log, None);
    assert_eq!(t.times[0], Some(dt("2016-03-28 09:10:01")));
}

#[test]
fn sles15_11_6_1_live_run_interleaved_tables() {
    // iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt: a live `sar -A 10 6`: every activity
    // printed per interval, then `Average:` headers and rows; a collector footer after the end.
    let Some(log) = corpus(&format!(
        "{IOSTAT}linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt"
    )) else {
        return;
    };
    assert_eq!(log.reports.len(), 7);
    assert_eq!(log.reports[0].timestamp.as_deref(), Some("16:08:55"));
    assert_eq!(log.reports[5].timestamp.as_deref(), Some("16:09:45"));
    // line 721: 16:08:55 dev253-0 6.70 0.00 496.80 74.15 0.02 4.72 1.01 0.68
    let d = dev(&log.reports[0], "dev253-0");
    let n = &d.normalised;
    close(n.total_iops, 6.70, "tps");
    close(n.read_bytes_per_s, 0.0, "rkB/s");
    close(n.write_bytes_per_s, 496.80 * 1024.0, "wkB/s");
    close(n.avg_request_bytes, 74.15 * 1024.0, "areq-sz");
    close(n.queue_depth, 0.02, "aqu-sz");
    close(n.await_ms, 4.72, "await");
    close(n.service_ms, 1.01, "svctm");
    close(n.util_pct, 0.68, "%util");
    // line 703: 16:08:55 6.70 0.00 6.70 0.00 993.60
    let b = &dev(&log.reports[0], SAR_B_DEVICE).normalised;
    close(b.write_iops, 6.70, "wtps");
    close(b.write_bytes_per_s, 993.60 * 512.0, "bwrtn/s");
    // lines 5539 and 5559: the `Average:` tables.
    let s = summary(&log, 0);
    close(
        dev(s, SAR_B_DEVICE).normalised.write_bytes_per_s,
        265.60 * 512.0,
        "avg bwrtn/s",
    );
    let n = &dev(s, "dev254-1").normalised;
    close(n.total_iops, 3.25, "avg tps");
    close(n.write_bytes_per_s, 132.80 * 1024.0, "avg wkB/s");
    close(n.avg_request_bytes, 40.86 * 1024.0, "avg areq-sz");
    close(n.await_ms, 3.10, "avg await");
}

#[test]
fn solaris_11_3_sar_a_disk_section() {
    // iostat/solaris-11.3-sar-A.txt: the `sar -d` section starts at line 38 (header), 30 intervals
    // 08:20:00 … 18:00:00 with the time on the first device row only, `Average` at line 1503.
    let Some(log) = corpus(&format!("{IOSTAT}solaris-11.3-sar-A.txt")) else {
        return;
    };
    let h = log.header.as_ref().unwrap();
    assert_eq!(
        (h.sysname.as_str(), h.host.as_str(), h.kernel.as_str()),
        ("SunOS", "ala52s01", "5.11")
    );
    assert_eq!(h.arch.as_deref(), Some("sun4v"));
    assert_eq!(h.date.as_deref(), Some("05/26/2017"));
    assert_eq!(log.reports.len(), 31);
    let first = &log.reports[0];
    assert_eq!(
        (first.timestamp.as_deref(), first.line),
        (Some("08:20:00"), 40)
    );
    assert_eq!(first.devices.len(), 47, "lines 40-86");
    assert_eq!(log.reports[29].timestamp.as_deref(), Some("18:00:00"));
    // line 63 (continuation row of 08:20:00): sd5 4 0.1 44 2700 0.0 2.7
    let d = dev(first, "sd5");
    assert!(!d.group);
    let n = &d.normalised;
    close(n.total_iops, 44.0, "r+w/s");
    close(n.total_bytes_per_s, 2700.0 * 512.0, "blks/s");
    close(n.util_pct, 4.0, "%busy");
    close(n.queue_depth, 0.1, "avque");
    close(n.await_ms, 0.0 + 2.7, "avwait + avserv");
    close(n.service_ms, 2.7, "avserv");
    assert_eq!((n.read_iops, n.write_iops), (None, None));
    // line 43: mpt_sas3 4 0.1 38 2700 0.0 3.1 — an HBA total: flagged, kept.
    let hba = dev(first, "mpt_sas3");
    assert!(hba.group);
    close(hba.normalised.total_iops, 38.0, "HBA r+w/s");
    assert!(dev(first, "sd5.t3.m").group, "MPxIO path");
    // lines 42, 52, 60: mpt_sas2, sd4.t2.m and sd4 all show 6 r+w/s and 212 blks/s.
    for name in ["mpt_sas2", "sd4.t2.m", "sd4"] {
        let n = &dev(first, name).normalised;
        close(n.total_iops, 6.0, name);
        close(n.total_bytes_per_s, 212.0 * 512.0, name);
    }
    assert!(!dev(first, "sd5,a").group, "a slice is not a group");
    // line 1505 (Average block continuation): mpt_sas2 1 0.0 7 247 0.0 3.1; line 1527: sd5 4 0.1 41 2556 0.0 2.7
    let s = summary(&log, 0);
    assert_eq!(s.line, 1503);
    close(dev(s, "mpt_sas2").normalised.total_iops, 7.0, "avg r+w/s");
    let n = &dev(s, "sd5").normalised;
    close(n.total_iops, 41.0, "avg r+w/s");
    close(n.total_bytes_per_s, 2556.0 * 512.0, "avg blks/s");
    // Solaris `sar -b` (buffer cache `bread/s lread/s %rcache …`) is not disk IO: ignored.
    assert!(log
        .reports
        .iter()
        .all(|r| r.devices.iter().all(|d| d.device != SAR_B_DEVICE)));
    // The one warning: the `sar -u` table's %wio is not used on SunOS 5.11 (always 0).
    assert_eq!(log.warnings.len(), 1, "{:?}", log.warnings);
    assert!(log.warnings[0].starts_with("host CPU %wio is printed but not used"));
}

#[test]
fn sysstat_12_device_last_and_restart_segments() {
    // expected.sar-dev (`sar --dev=sda -dp`): DEV last; two LINUX RESTART lines (12, 14).
    let Some(log) = corpus(&format!("{SYSSTAT}expected.sar-dev")) else {
        return;
    };
    assert_eq!(log.reports.len(), 7);
    assert_eq!(log.reports.iter().filter(|r| r.summary).count(), 2);
    // line 6: 13:20:39 1604.70 41499.97 10663.48 0.00 32.51 18.56 12.00 85.36 sda
    let d = dev(at(&log, "13:20:39"), "sda");
    assert_eq!(d.values[0], ("tps".to_string(), Some(1604.70)));
    let n = &d.normalised;
    close(n.total_iops, 1604.70, "tps");
    close(n.read_bytes_per_s, 41499.97 * 1024.0, "rkB/s");
    close(n.write_bytes_per_s, 10663.48 * 1024.0, "wkB/s");
    close(n.discard_bytes_per_s, 0.0, "dkB/s");
    close(n.avg_request_bytes, 32.51 * 1024.0, "areq-sz");
    close(n.queue_depth, 18.56, "aqu-sz");
    close(n.await_ms, 12.00, "await");
    close(n.util_pct, 85.36, "%util");
    assert_eq!(n.service_ms, None, "12.x prints no svctm");
    // After the restarts, line 17: 13:54:35 1.60 0.00 0.00 0.80 0.50 0.00 1.00 0.00 sda
    let r = &log.reports[5];
    assert_eq!(r.timestamp.as_deref(), Some("13:54:35"));
    close(
        dev(r, "sda").normalised.discard_bytes_per_s,
        0.80 * 1024.0,
        "dkB/s",
    );
    // Each segment keeps its own Average (line 8 and line 18).
    assert_eq!(summary(&log, 0).line, 8);
    close(
        dev(summary(&log, 1), "sda").normalised.total_iops,
        1.60,
        "2nd avg",
    );
    assert_eq!(
        log.reports[4].line, 8,
        "the first Average precedes the restart"
    );
    let t = resolve_times(&log, None);
    assert_eq!(t.times[2], Some(dt("2019-04-18 13:20:39")));
}

#[test]
fn sysstat_ansi_colours() {
    // expected1.sar-always: S_COLORS=always; line 30 (escapes removed):
    // 13:20:39 sda 1604.70 41499.97 10663.48 0.00 32.51 18.56 12.00 85.36
    let Some(log) = corpus(&format!("{SYSSTAT}expected1.sar-always")) else {
        return;
    };
    let n = &dev(at(&log, "13:20:39"), "sda").normalised;
    close(n.total_iops, 1604.70, "tps");
    close(n.util_pct, 85.36, "%util");
    assert_eq!(log.reports.len(), 5);
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
}

#[test]
fn sysstat_human_and_dec0_values() {
    // expected.sar-human line 391: 13:20:39 sda 1604.70 40.5M 10.4M 0.0k 32.5k 18.56 12.00 85.4%
    let Some(h) = corpus(&format!("{SYSSTAT}expected.sar-human")) else {
        return;
    };
    let n = &dev(at(&h, "13:20:39"), "sda").normalised;
    close(n.read_bytes_per_s, 40.5 * 1_048_576.0, "40.5M");
    close(n.write_bytes_per_s, 10.4 * 1_048_576.0, "10.4M");
    close(n.avg_request_bytes, 32.5 * 1024.0, "32.5k");
    close(n.util_pct, 85.4, "85.4%");
    // expected.sar-human line 302/306 (-b): 13:20:49 136.22 85.80 5.85 44.57 4497.45 48.24 214.83
    let b = &dev(at(&h, "13:20:49"), SAR_B_DEVICE).normalised;
    close(b.discard_iops, 44.57, "dtps");
    close(b.discard_bytes_per_s, 214.83 * 512.0, "bdscd/s");
    close(b.read_bytes_per_s, 4497.45 * 512.0, "bread/s");
    // expected.sar-dec (--dec=0) line 391: 13:20:39 sda 1605 41500 10663 0 33 19 12 85
    let Some(d) = corpus(&format!("{SYSSTAT}expected.sar-dec")) else {
        return;
    };
    let n = &dev(at(&d, "13:20:39"), "sda").normalised;
    close(n.total_iops, 1605.0, "tps");
    close(n.read_bytes_per_s, 41500.0 * 1024.0, "rkB/s");
    // expected.sar-jID line 38: persistent names, name last, human values.
    let Some(j) = corpus(&format!("{SYSSTAT}expected.sar-jID")) else {
        return;
    };
    let d = dev(
        at(&j, "13:20:39"),
        "ata-Hitachi_HDS723020BLA642_MN1240F33J1XND",
    );
    close(d.normalised.total_iops, 1604.70, "tps");
}

#[test]
fn sysstat_x_extended_min_max_left_out() {
    // expected2.sar-xall (`sar -A -x`): intervals, then per device a `Summary:` block with
    // Minimum:/Maximum:/Average: rows (lines 685-688 for sda, 760-763 for sdq).
    let Some(log) = corpus(&format!("{SYSSTAT}expected2.sar-xall")) else {
        return;
    };
    // line 649: 13:20:39 sda 1604.70 41499.97 …
    close(
        dev(at(&log, "13:20:39"), "sda").normalised.total_iops,
        1604.70,
        "interval",
    );
    let s = summary(&log, 0);
    // line 688: Average: sda 0.00 … — not line 687's Maximum 1604.70.
    close(dev(s, "sda").normalised.total_iops, 0.0, "Average row");
    // line 763: Average: sdq 21.08 403.48 0.00 19.51 20.07 0.04 4.87 2.40
    let n = &dev(s, "sdq").normalised;
    close(n.total_iops, 21.08, "avg tps");
    close(n.read_bytes_per_s, 403.48 * 1024.0, "avg rkB/s");
    close(n.discard_bytes_per_s, 19.51 * 1024.0, "avg dkB/s");
    close(n.await_ms, 4.87, "avg await");
    // Every Minimum:/Maximum: row of a disk table is counted, named by line, never a report.
    assert!(log.skipped.iter().any(|s| s.line == 687));
    assert!(log.skipped.iter().any(|s| s.line == 686));
    assert!(log
        .skipped
        .iter()
        .all(|s| s.reason.contains("Minimum:") || s.reason.contains("Maximum:")));
    assert_eq!(log.skipped.len(), 70);
    assert!(log.warnings.iter().any(|w| w.contains("sar -x")));
    assert_eq!(log.reports.iter().filter(|r| !r.summary).count(), 5);
}

#[test]
fn sysstat_since_boot_and_midnight() {
    // expected.sar-x0 (`sar … -x 0`): rows printed with the header's own time 12:53:20 are
    // averages since boot. line 20: 12:53:20 sda 8.59 222.14 57.08 0.00 32.51 0.10 12.00 0.46
    let Some(log) = corpus(&format!("{SYSSTAT}expected.sar-x0")) else {
        return;
    };
    assert_eq!(log.reports.len(), 1);
    let r = &log.reports[0];
    assert!(r.since_boot && !r.summary);
    let n = &dev(r, "sda").normalised;
    close(n.total_iops, 8.59, "tps");
    close(n.read_bytes_per_s, 222.14 * 1024.0, "rkB/s");
    close(n.write_bytes_per_s, 57.08 * 1024.0, "wkB/s");
    // expected.data-ppc-11.7.2 lines 48-50 (-b only): 19:43:21, then 00:03:37 the next day.
    let Some(ppc) = corpus(&format!("{SYSSTAT}expected.data-ppc-11.7.2")) else {
        return;
    };
    assert_eq!(ppc.reports.len(), 3);
    assert!(!ppc.reports[0].since_boot);
    let t = resolve_times(&ppc, None);
    assert_eq!(t.times[0], Some(dt("2017-04-27 19:43:21")));
    assert_eq!(t.times[1], Some(dt("2017-04-28 00:03:37")));
}

#[test]
fn sysstat_sar_a_live_run() {
    // expected.sar-A (a live `sar -Bbd… 1 2`): tables interleaved per interval.
    // line 84 (DEV header 83): 12:53:21 sdq 9.62 7.86 0.00 16.04 2.48 0.01 13.00 0.96
    let Some(log) = corpus(&format!("{SYSSTAT}expected.sar-A")) else {
        return;
    };
    assert_eq!(log.reports.len(), 3);
    let n = &dev(at(&log, "12:53:21"), "sdq").normalised;
    close(n.total_iops, 9.62, "tps");
    close(n.discard_bytes_per_s, 16.04 * 1024.0, "dkB/s");
    close(n.avg_request_bytes, 2.48 * 1024.0, "areq-sz");
    close(n.await_ms, 13.00, "await");
}

/// Every sar text file of the corpus with disk data parses; those without disk data give the clear
/// "no disk statistics" error. Not tried here: `sadf -d`/`-j` outputs and iostat files (other
/// formats: [`looks_like`] must refuse them, checked below).
#[test]
fn every_corpus_sar_text_file() {
    const WITH_DISKS: &[&str] = &[
        "sysstat-tests/tests/expected.data-10.3.1",
        "sysstat-tests/tests/expected.data-11.6.5",
        "sysstat-tests/tests/expected.data-12.0.0",
        "sysstat-tests/tests/expected.data-9.1.6",
        "sysstat-tests/tests/expected.data-ppc-11.7.2",
        "sysstat-tests/tests/expected.sar-A",
        "sysstat-tests/tests/expected.sar-Ax",
        "sysstat-tests/tests/expected.sar-all",
        "sysstat-tests/tests/expected.sar-dec",
        "sysstat-tests/tests/expected.sar-dev",
        "sysstat-tests/tests/expected.sar-human",
        "sysstat-tests/tests/expected.sar-jID",
        "sysstat-tests/tests/expected.sar-jUUID",
        "sysstat-tests/tests/expected.sar-pretty",
        "sysstat-tests/tests/expected.sar-x0",
        "sysstat-tests/tests/expected.sar-z",
        "sysstat-tests/tests/expected.sar32-A",
        "sysstat-tests/tests/expected1.sar-always",
        "sysstat-tests/tests/expected2.sar-all",
        "sysstat-tests/tests/expected2.sar-x2",
        "sysstat-tests/tests/expected2.sar-xall",
        "sysstat-tests/tests/expected2.sar32-A",
        "sysstat-tests/tests/expected3.sar-all",
        "iostat/linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt",
        "iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt",
        "iostat/solaris-11.3-sar-A.txt",
    ];
    const WITHOUT_DISKS: &[&str] = &[
        // `sar -f sa20190502`: CPU only.
        "sysstat-tests/tests/expected.sar-D",
        // `sar -u 1 3` (12-hour times) followed by `sadf -dT` output.
        "iostat/linux-sar-AMPM-and-sadf-dT-10.1.5-centos7-EXCERPT.txt",
    ];
    let mut samples = 0;
    for rel in WITH_DISKS {
        let Some(bytes) = corpus_bytes(rel) else {
            return;
        };
        let text = String::from_utf8_lossy(&bytes);
        assert!(looks_like(&text), "{rel}: not recognised");
        let log = parse(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(log.header.is_some(), "{rel}: no banner");
        assert!(
            log.reports
                .iter()
                .any(|r| !r.summary && !r.devices.is_empty()),
            "{rel}: no interval"
        );
        assert!(
            log.warnings
                .iter()
                .all(|w| w.starts_with("sar -x") || w.starts_with("host CPU %wio")),
            "{rel}: {:?}",
            log.warnings
        );
        assert!(
            log.skipped.iter().all(|s| s.reason.starts_with("sar -x")),
            "{rel}: {:?}",
            log.skipped
        );
        samples += log.reports.iter().map(|r| r.devices.len()).sum::<usize>();
    }
    assert!(samples > 2500, "{samples} device samples");
    for rel in WITHOUT_DISKS {
        let Some(bytes) = corpus_bytes(rel) else {
            return;
        };
        let e = parse_bytes(&bytes).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, ParseError::Section { .. }), "{rel}: {msg}");
        assert!(msg.contains("no disk statistics"), "{rel}: {msg}");
        assert!(msg.contains("sar -d"), "{rel}: {msg}");
    }
}

/// Files of other formats are never claimed by [`looks_like`]: every iostat, sadf and JSON file
/// of the corpus.
#[test]
fn looks_like_refuses_other_formats() {
    let dir = shared(SYSSTAT);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        crate::common::corpus_absent(&dir);
        return;
    };
    let mut refused = 0;
    for e in entries {
        let name = e.unwrap().file_name().into_string().unwrap();
        let is_sar =
            name.contains(".sar") || (name.starts_with("expected.data-") && !name.contains("sadf"));
        if is_sar {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        assert!(!looks_like(&text), "{name} claimed as sar");
        refused += 1;
    }
    assert!(refused > 80, "{refused}");
    for f in [
        "linux-iostat-10.1.5-centos7-basic-interval.txt",
        "linux-iostat-10.1.5-centos7-x-kBps.txt",
        "linux-iostat-11.6.1-ubuntu1804-mx-svctm.txt",
        "linux-iostat-12.x-ubuntu2010-x-discard-flush.txt",
        "linux-iostat-9.0.4-rhel6-xt-sectors-12h-AMPM.txt",
        "linux-iostat-9.x-ubuntu-basic-Blk-sectors-DDMMYY.txt",
        "aix-iostat-D-and-plain-EXCERPTS.txt",
        "solaris-illumos-iostat-xzn-EXCERPTS.txt",
        "nmon-linux-15h-fedora21-g-auto-DG.nmon.txt",
    ] {
        let text = std::fs::read_to_string(shared(&format!("{IOSTAT}{f}"))).unwrap();
        assert!(!looks_like(&text), "{f} claimed as sar");
    }
    // The parser says so too for an iostat file: a banner, but no sar table.
    let text = std::fs::read_to_string(shared(&format!(
        "{IOSTAT}linux-iostat-10.1.5-centos7-x-kBps.txt"
    )))
    .unwrap();
    assert!(matches!(
        parse(&text),
        Err(ParseError::UnknownFormat { .. })
    ));
}

#[test]
fn fixture_aix_7_2_kbs() {
    // aix-7.2-sar-d-Kbs.txt: hdisk1 at 10:01:00: 800 r+w/s, 25600 KB/s (32 KB per IO),
    // avwait 0.5 + avserv 2.0 = 2.5 ms.
    let log = fix("aix-7.2-sar-d-Kbs.txt");
    let h = log.header.as_ref().unwrap();
    assert_eq!((h.sysname.as_str(), h.host.as_str()), ("AIX", "aixdb01"));
    assert_eq!(h.kernel, "7.2", "`2 7` is release 2 of version 7");
    assert_eq!(h.cpus, Some(16), "lcpu=16");
    assert_eq!(h.date.as_deref(), Some("01/02/24"));
    assert_eq!(log.reports.len(), 4);
    let r = &log.reports[0];
    assert_eq!(r.timestamp.as_deref(), Some("10:01:00"));
    assert_eq!(r.devices.len(), 4, "continuation rows belong to 10:01:00");
    let n = &dev(r, "hdisk1").normalised;
    close(n.total_iops, 800.0, "r+w/s");
    close(n.total_bytes_per_s, 25600.0 * 1024.0, "Kbs/s");
    close(n.await_ms, 2.5, "avwait + avserv");
    close(n.service_ms, 2.0, "avserv");
    close(n.queue_depth, 0.4, "avque");
    close(n.util_pct, 35.0, "%busy");
    assert_eq!(n.read_iops, None);
    assert_eq!(n.avg_request_bytes, None, "not printed, not derived");
    // Average (the mean of the three intervals): hdisk1 800 r+w/s, avwait 0.6 + avserv 2.0.
    let s = summary(&log, 0);
    assert_eq!(s.devices.len(), 4);
    close(dev(s, "hdisk1").normalised.await_ms, 2.6, "avg await");
    close(dev(s, "hdisk2").normalised.total_iops, 200.0, "avg r+w/s");
    assert!(!dev(s, "cd0").group);
    assert!(log.warnings.is_empty() && log.skipped.is_empty());
    let t = resolve_times(&log, None);
    assert_eq!(t.times[2], Some(dt("2024-01-02 10:03:00")));
}

#[test]
fn fixture_hpux_11_31_blks() {
    // hpux-11.31-sar-d-blks.txt: disk5 at 08:05:00: 850 r+w/s, 54400 blocks/s (= 64 blocks = 32 KiB
    // per IO), %busy 45.20, avwait 2.10 + avserv 4.30 = 6.40 ms.
    let log = fix("hpux-11.31-sar-d-blks.txt");
    let h = log.header.as_ref().unwrap();
    assert_eq!(
        (h.sysname.as_str(), h.kernel.as_str(), h.arch.as_deref()),
        ("HP-UX", "B.11.31", Some("ia64"))
    );
    assert_eq!(log.reports.len(), 3);
    let n = &dev(at(&log, "08:05:00"), "disk5").normalised;
    close(n.total_iops, 850.0, "r+w/s");
    close(n.total_bytes_per_s, 54400.0 * 512.0, "blks/s");
    close(n.util_pct, 45.20, "%busy");
    close(n.await_ms, 6.40, "avwait + avserv");
    close(n.service_ms, 4.30, "avserv");
    let r = at(&log, "08:10:00");
    assert_eq!(r.devices.len(), 3);
    close(dev(r, "disk14").normalised.total_iops, 0.0, "idle disk14");
    let s = summary(&log, 0);
    let n = &dev(s, "disk5").normalised;
    close(n.total_iops, 900.0, "avg r+w/s");
    close(n.total_bytes_per_s, 57600.0 * 512.0, "avg blks/s");
    close(n.queue_depth, 1.30, "avg avque");
}

#[test]
fn fixture_hpux_dash_r_read_write_split() {
    // HP-UX `sar -d -R` adds r/s and w/s (sar(1M)).
    let text = "HP-UX hpdb01 B.11.31 U ia64    03/21/24\n\n\
                08:00:00   device   %busy   avque   r+w/s    r/s    w/s  blks/s  avwait  avserv\n\
                08:05:00   disk5     45.20    1.20     850    600    250   54400    2.10    4.30\n";
    let log = parse(text).unwrap();
    let n = &log.reports[0].devices[0].normalised;
    close(n.read_iops, 600.0, "r/s");
    close(n.write_iops, 250.0, "w/s");
    close(n.total_iops, 850.0, "r+w/s");
}

#[test]
fn fixture_french_decimal_comma_moyenne() {
    // linux-11.7-fr-decimal-comma-b-dp.txt (LC_ALL=fr_FR: `0,30`, `Moyenne :`, DD/MM/YYYY date).
    let log = fix("linux-11.7-fr-decimal-comma-b-dp.txt");
    assert_eq!(
        log.header.as_ref().unwrap().date.as_deref(),
        Some("02/01/2024")
    );
    assert_eq!(log.reports.len(), 3);
    let r = at(&log, "10:10:01");
    assert_eq!(r.devices.len(), 3);
    // sda: 150 tps, 800 kB/s read, 1600 kB/s written, (800 + 1600) / 150 = 16 kB per request.
    let n = &dev(r, "sda").normalised;
    close(n.total_iops, 150.0, "tps 150,00");
    close(n.read_bytes_per_s, 800.0 * 1024.0, "rkB/s 800,00");
    close(n.avg_request_bytes, 16.0 * 1024.0, "areq-sz 16,00");
    close(n.queue_depth, 0.30, "aqu-sz 0,30");
    close(n.util_pct, 7.50, "%util 7,50");
    // sar -b: 1600 blocks/s read = sda's 800 kB/s.
    let b = &dev(r, SAR_B_DEVICE).normalised;
    close(b.read_bytes_per_s, 1600.0 * 512.0, "bread/s 1600,00");
    close(b.read_iops, 50.0, "rtps 50,00");
    // `Moyenne :` rows are the summary.
    let s = summary(&log, 0);
    assert!(s.timestamp.is_none());
    close(dev(s, "rhel-root").normalised.queue_depth, 0.43, "0,43");
    close(dev(s, SAR_B_DEVICE).normalised.total_iops, 200.0, "200,00");
    // The day comes first: 02/01/2024 is 2 January when the caller says so.
    let t = resolve_times(&log, Some(sizer_parsers::disk::DateOrder::Dmy));
    assert_eq!(t.times[0], Some(dt("2024-01-02 10:10:01")));
}

#[test]
fn fixture_12h_live_run_across_midnight() {
    // linux-10.1-live-12h-midnight-sectors.txt: `sar -d -b 600 3` in en_US (12-hour times),
    // 11:50:01 PM, 12:00:01 AM, 12:10:01 AM.
    let log = fix("linux-10.1-live-12h-midnight-sectors.txt");
    let stamps: Vec<_> = log.reports.iter().map(|r| r.timestamp.as_deref()).collect();
    assert_eq!(
        stamps,
        [
            Some("11:50:01 PM"),
            Some("12:00:01 AM"),
            Some("12:10:01 AM"),
            None
        ]
    );
    // dev8-0 at 12:00:01 AM: 60 tps, 320 + 640 sectors/s, avgrq-sz 16 sectors = 8 KiB.
    let n = &dev(&log.reports[1], "dev8-0").normalised;
    close(n.total_iops, 60.0, "tps");
    close(n.read_bytes_per_s, 320.0 * 512.0, "rd_sec/s");
    close(n.write_bytes_per_s, 640.0 * 512.0, "wr_sec/s");
    close(n.avg_request_bytes, 8192.0, "avgrq-sz");
    close(n.service_ms, 1.0, "svctm");
    close(
        dev(&log.reports[1], SAR_B_DEVICE).normalised.write_iops,
        40.0,
        "wtps",
    );
    close(
        dev(&log.reports[3], "dev253-0").normalised.await_ms,
        3.5,
        "Average: await",
    );
    let t = resolve_times(&log, None);
    assert_eq!(t.times[0], Some(dt("2024-03-09 23:50:01")));
    assert_eq!(t.times[1], Some(dt("2024-03-10 00:00:01")));
    assert_eq!(t.times[2], Some(dt("2024-03-10 00:10:01")));
}

#[test]
fn fixture_bad_rows_are_counted_with_their_line() {
    // bad-short-row.txt: line 5 has 4 fields of 9 after the time; line 7 has `2.O0` (a letter O).
    let log = fix("bad-short-row.txt");
    assert_eq!(log.skipped.len(), 2, "{:?}", log.skipped);
    let short = &log.skipped[0];
    assert_eq!(short.line, 5);
    assert!(
        short.reason.contains("a device name and 8 values"),
        "{}",
        short.reason
    );
    assert!(short.reason.contains("line 3"), "{}", short.reason);
    assert!(
        short.reason.contains("found 4 field(s)"),
        "{}",
        short.reason
    );
    let bad = &log.skipped[1];
    assert_eq!(bad.line, 7);
    assert!(bad.reason.contains("'await'"), "{}", bad.reason);
    assert!(bad.reason.contains("2.O0"), "{}", bad.reason);
    // The good rows stay, the bad ones give no number at all.
    let r = at(&log, "10:00:10");
    assert_eq!(r.devices.len(), 1);
    close(dev(r, "sda").normalised.total_iops, 10.0, "tps");
    assert_eq!(at(&log, "10:00:20").devices.len(), 1);
    // AIX/Solaris/HP-UX: a continuation row with one value too many is not read as `Average`
    // (line 6), nor is a continuation row before any time (line 4).
    let text = "AIX aixdb01 2 7 00F93CFF4C00    01/02/24\n\n\
                10:00:00  device  %busy  avque  r+w/s  Kbs/s  avwait  avserv\n\
                          hdisk9  1  0.0  2  32  0.0  1.0\n\
                10:01:00  hdisk0  2  0.0  4  64  0.0  1.5\n\
                          cdrom  0  0.0  0  0  0.0  0.0  7\n";
    let log = parse(text).unwrap();
    assert_eq!(
        log.skipped.iter().map(|s| s.line).collect::<Vec<_>>(),
        [4, 6]
    );
    assert_eq!(log.reports.len(), 1);
    assert_eq!(log.reports[0].devices.len(), 1);
}

#[test]
fn translated_summaries_and_times() {
    let body = |label: &str, time: &str| {
        format!(
            "Linux 5.14.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
             {time}  DEV  tps  rkB/s  wkB/s  areq-sz  aqu-sz  await  %util\n\
             {time}  sda  2.00  8.00  0.00  4.00  0.01  0.50  0.10\n\
             {label}  sda  3.00  8.00  0.00  4.00  0.01  0.50  0.10\n"
        )
    };
    for label in [
        "Average:",
        "Moyenne :",
        "Durchschn.:",
        "Media:",
        "Média:",
        "Promedio:",
        "Gemiddeld:",
        "Среднее:",
        "平均值:",
        "平均時間：",
        "平均値:",
        "Trung bình:",
        "Gj.snitt:",
    ] {
        for time in ["10:00:10", "10:00:10 AM", "10時00分10秒", "10시 00분 10초"] {
            let log = parse(&body(label, time)).unwrap_or_else(|e| panic!("{label} {time}: {e}"));
            assert_eq!(log.reports.len(), 2, "{label} {time}");
            assert_eq!(log.reports[0].timestamp.as_deref(), Some(time));
            assert!(log.reports[1].summary, "{label}");
            close(log.reports[1].devices[0].normalised.total_iops, 3.0, label);
        }
    }
    // A translated -x block: the last row of the device is the average, the others are left out.
    let x = "Linux 5.14.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
             10:00:00  DEV  tps  await\n10:00:10  sda  2.00  0.50\n10:00:20  sda  4.00  0.70\n\n\
             Zusammenfassung:  DEV  tps  await\nMinimum:  sda  2.00  0.50\nMaximal:  sda  4.00  0.70\n\
             Durchschn.:  sda  3.00  0.60\n";
    let log = parse(x).unwrap();
    assert_eq!(log.reports.len(), 3);
    close(
        summary(&log, 0).devices[0].normalised.total_iops,
        3.0,
        "avg",
    );
    assert_eq!(
        log.skipped.iter().map(|s| s.line).collect::<Vec<_>>(),
        [8, 9]
    );
}

#[test]
fn restart_comment_and_concatenated_files() {
    let text = "Linux 5.14.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
                10:00:00     LINUX RESTART\t(2 CPU)\n10:00:05     COM nightly batch\n\n\
                10:00:05  tps  rtps  wtps  bread/s  bwrtn/s\n10:00:15  5.00  1.00  4.00  8.00  64.00\n\
                Average:  5.00  1.00  4.00  8.00  64.00\n\n\
                10:00:05  DEV  tps  rkB/s  wkB/s  areq-sz  aqu-sz  await  %util\n\
                10:00:15  sda  5.00  4.00  32.00  7.20  0.01  1.00  0.50\n\
                Average:  sda  5.00  4.00  32.00  7.20  0.01  1.00  0.50\n\n\
                10:30:00     LINUX RESTART\t(2 CPU)\n\n\
                10:30:00  tps  rtps  wtps  bread/s  bwrtn/s\n10:30:10  9.00  1.00  8.00  8.00  64.00\n\
                Average:  9.00  1.00  8.00  8.00  64.00\n\n\
                10:30:00  DEV  tps  rkB/s  wkB/s  areq-sz  aqu-sz  await  %util\n\
                10:30:10  sda  9.00  4.00  32.00  4.00  0.01  1.00  0.50\n\
                Average:  sda  9.00  4.00  32.00  4.00  0.01  1.00  0.50\n\
                Linux 5.14.0 (h) \t01/03/24 \t_x86_64_\t(2 CPU)\n\n\
                10:00:00  DEV  tps  rkB/s  wkB/s  areq-sz  aqu-sz  await  %util\n\
                10:00:15  sda  7.00  4.00  32.00  5.14  0.01  1.00  0.50\n";
    let log = parse(text).unwrap();
    let shape: Vec<(Option<&str>, bool, usize)> = log
        .reports
        .iter()
        .map(|r| (r.timestamp.as_deref(), r.summary, r.devices.len()))
        .collect();
    assert_eq!(
        shape,
        [
            (Some("10:00:15"), false, 2),
            (None, true, 2),
            (Some("10:30:10"), false, 2),
            (None, true, 2),
            (Some("10:00:15"), false, 1),
        ]
    );
    close(
        dev(&log.reports[3], SAR_B_DEVICE).normalised.total_iops,
        9.0,
        "2nd segment's Average",
    );
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
}

#[test]
fn unknown_column_kept_and_warned() {
    let text = "Linux 5.14.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
                10:00:00  DEV  tps  rkB/s  zz_future  %util\n\
                10:00:10  sda  2.00  8.00  9.00  0.10\n\
                10:00:20  sda  2.00  8.00  9.00  0.10\n";
    let log = parse(text).unwrap();
    let d = &log.reports[0].devices[0];
    close(d.value("zz_future"), 9.0, "kept");
    close(d.normalised.util_pct, 0.10, "%util");
    assert_eq!(log.warnings.len(), 1, "{:?}", log.warnings);
    assert!(log.warnings[0].contains("zz_future"));
}

#[test]
fn errors_name_what_was_expected() {
    // A table mixing decimal commas and points.
    let mixed = "Linux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n\n\
                 10:00:00  DEV  tps  rkB/s\n10:00:10  sda  1,5  2.5\n";
    let e = parse(mixed).unwrap_err();
    assert!(matches!(e, ParseError::Section { .. }), "{e}");
    assert!(e.to_string().contains("line 4"), "{e}");
    // Only CPU data: no disk statistics.
    let cpu = "Linux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n\n\
               10:00:00  CPU  %user  %nice  %system  %iowait  %steal  %idle\n\
               10:00:10  all  1.00  0.00  1.00  0.00  0.00  98.00\n";
    let msg = parse(cpu).unwrap_err().to_string();
    assert!(msg.contains("no disk statistics"), "{msg}");
    assert!(msg.contains("CPU %user"), "{msg}");
    // A disk table whose every row is bad.
    let bad = "Linux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n\n\
               10:00:00  DEV  tps  rkB/s\n10:00:10  sda  1.5\n";
    let msg = parse(bad).unwrap_err().to_string();
    assert!(msg.contains("no disk statistics could be read"), "{msg}");
    assert!(msg.contains("line 4"), "{msg}");
    // Not sar at all.
    assert!(matches!(
        parse("just some text\nand more\n"),
        Err(ParseError::UnknownFormat { .. })
    ));
    assert!(matches!(parse_bytes(b""), Err(ParseError::Empty)));
    // Text that is not sar output around the tables is reported once.
    let noisy = "[oracle@db01 ~]$ sar -d 10 1\nLinux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n\n\
                 10:00:00  DEV  tps\n10:00:10  sda  1.5\n";
    let log = parse(noisy).unwrap();
    assert_eq!(log.warnings.len(), 1);
    assert!(log.warnings[0].contains("line 1"), "{:?}", log.warnings);
}

#[test]
fn fixtures_are_recognised() {
    for f in FIXTURES {
        let text = std::fs::read_to_string(fixture(f)).unwrap();
        assert!(looks_like(&text), "{f}");
    }
}

const FIXTURES: &[&str] = &[
    "aix-7.2-sar-d-Kbs.txt",
    "hpux-11.31-sar-d-blks.txt",
    "linux-11.7-fr-decimal-comma-b-dp.txt",
    "linux-10.1-live-12h-midnight-sectors.txt",
    "bad-short-row.txt",
];

proptest! {
    #[test]
    fn any_prefix_of_a_fixture_is_ok_or_err_never_a_panic(f in 0..FIXTURES.len(), cut in 0.0f64..1.0) {
        let text = std::fs::read_to_string(fixture(FIXTURES[f])).unwrap();
        let cut_at = (text.len() as f64 * cut) as usize;
        let _ = parse_bytes(&text.as_bytes()[..cut_at]);
        let mut n = cut_at;
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        let _ = parse(&text[..n]);
        let _ = looks_like(&text[..n]);
    }

    #[test]
    fn any_line_soup_is_ok_or_err_never_a_panic(lines in proptest::collection::vec("[ -~]{0,40}", 0..12)) {
        let text = format!("Linux 5.1 (h) \t01/02/24 \t_x86_64_\t(1 CPU)\n{}", lines.join("\n"));
        let _ = parse(&text);
    }
}

/// A reader that returns at most 7 bytes per read, and fails once `fail_at` bytes are read (when
/// set): streaming parsers must not depend on how the input arrives.
pub(crate) struct Trickle<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) fail_at: Option<usize>,
}

impl<'a> Trickle<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Trickle {
            bytes,
            pos: 0,
            fail_at: None,
        }
    }
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let end = self
            .fail_at
            .unwrap_or(self.bytes.len())
            .min(self.bytes.len());
        if self.pos >= end && self.fail_at.is_some() {
            return Err(std::io::Error::other("disk went away"));
        }
        let n = buf.len().min(7).min(end - self.pos);
        buf[..n].copy_from_slice(&self.bytes[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Records the order of the sink calls and the reports.
#[derive(Default)]
struct Calls {
    begins: Vec<Option<String>>,
    reports: Vec<DeviceReport>,
    ends: usize,
    stop_after: Option<usize>,
}

impl sizer_parsers::Sink for Calls {
    fn device_begin(
        &mut self,
        start: sizer_parsers::sink::DeviceLogStart<'_>,
    ) -> Result<bool, ParseError> {
        self.begins.push(start.header.map(|h| h.host.clone()));
        Ok(true)
    }
    fn device_report(&mut self, report: DeviceReport) -> Result<bool, ParseError> {
        self.reports.push(report);
        Ok(self.stop_after.is_none_or(|n| self.reports.len() < n))
    }
    fn device_end(&mut self, _: sizer_parsers::sink::DeviceLogEnd) -> Result<(), ParseError> {
        self.ends += 1;
        Ok(())
    }
}

#[test]
fn sar_text_streams_a_real_file_in_small_reads() {
    use sizer_parsers::sar::SarText;
    use sizer_parsers::sink::Collect;
    use sizer_parsers::{FormatParser, ParseSettings, Parsed};

    let rel = format!("{IOSTAT}linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt");
    let Some(bytes) = corpus_bytes(&rel) else {
        return;
    };
    assert!(SarText.streams());
    let mut src = std::io::BufReader::with_capacity(16, Trickle::new(&bytes));
    let mut sink = Collect::new();
    SarText
        .parse_stream(&mut src, &ParseSettings::default(), &mut sink)
        .unwrap();
    let Some(Parsed::Devices(log)) = sink.into_parsed() else {
        panic!("no device records");
    };
    assert_eq!(*log, parse_bytes(&bytes).unwrap());
    // The values of the file, as rhel7_10_1_5_sar_a_sectors_and_dev_m_n reads them.
    assert_eq!(log.header.as_ref().unwrap().cpus, Some(48));
    assert_eq!(log.reports.len(), 37);
    // line 2287: 09:10:01 dev8-0 0.35 0.53 1.71 6.44 0.01 20.24 5.61 0.20
    let r = at(&log, "09:10:01");
    assert_eq!(r.line, 1938);
    close(dev(r, "dev8-0").normalised.await_ms, 20.24, "await");
    close(dev(r, "dev8-0").value("rd_sec/s"), 0.53, "verbatim");
    // line 1938: 09:10:01 0.63 0.06 0.58 1.84 2.97 (sar -b)
    close(dev(r, SAR_B_DEVICE).normalised.write_iops, 0.58, "wtps");
    // line 2467: Average: dev8-0 0.56 5.70 2.10 13.88 0.01 12.88 5.12 0.29
    close(
        dev(summary(&log, 0), "dev8-0").normalised.total_iops,
        0.56,
        "avg tps",
    );

    // Without the printed columns (as the engine reads): the same figures, no `values`.
    let settings = ParseSettings {
        keep_values: false,
        ..ParseSettings::default()
    };
    let mut src = std::io::BufReader::with_capacity(16, Trickle::new(&bytes));
    let mut lean = Collect::new();
    SarText
        .parse_stream(&mut src, &settings, &mut lean)
        .unwrap();
    let Some(Parsed::Devices(lean)) = lean.into_parsed() else {
        panic!("no device records");
    };
    assert_eq!(lean.reports.len(), 37);
    for (a, b) in lean.reports.iter().zip(&log.reports) {
        assert_eq!(a.devices.len(), b.devices.len());
        for (x, y) in a.devices.iter().zip(&b.devices) {
            assert!(x.values.is_empty());
            assert_eq!((&x.device, &x.normalised), (&y.device, &y.normalised));
        }
    }
}

#[test]
fn sar_text_hands_a_run_over_when_the_next_banner_starts() {
    use sizer_parsers::sar::SarText;
    use sizer_parsers::{FormatParser, ParseSettings};

    let first = "Linux 5.14.0 (h1) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
                 10:00:00  DEV  tps  rkB/s  wkB/s  areq-sz  aqu-sz  await  %util\n\
                 10:00:10  sda  5.00  4.00  32.00  7.20  0.01  1.00  0.50\n\
                 10:00:20  sda  6.00  4.00  32.00  6.00  0.01  1.00  0.50\n\n\
                 10:00:00  tps  rtps  wtps  bread/s  bwrtn/s\n\
                 10:00:10  5.00  1.00  4.00  8.00  64.00\n\
                 10:00:20  6.00  1.00  5.00  8.00  64.00\n";
    let second = "Linux 5.14.0 (h2) \t01/03/24 \t_x86_64_\t(2 CPU)\n\n\
                  10:00:00  DEV  tps  rkB/s  wkB/s  areq-sz  aqu-sz  await  %util\n\
                  10:00:15  sda  7.00  4.00  32.00  5.14  0.01  1.00  0.50\n";
    let text = format!("{first}{second}");
    // The read fails within the second run: the first run's two reports (each with the `-d`
    // device and the `-b` totals printed after all its intervals) were handed over by then.
    let mut src = std::io::BufReader::with_capacity(
        16,
        Trickle {
            fail_at: Some(first.len() + 60),
            ..Trickle::new(text.as_bytes())
        },
    );
    let mut calls = Calls::default();
    let err = SarText
        .parse_stream(&mut src, &ParseSettings::default(), &mut calls)
        .unwrap_err();
    assert!(matches!(err, ParseError::Io { .. }), "{err}");
    assert_eq!(calls.begins, [Some("h1".to_string())]);
    let got: Vec<(Option<&str>, usize, usize)> = calls
        .reports
        .iter()
        .map(|r| (r.timestamp.as_deref(), r.line, r.devices.len()))
        .collect();
    assert_eq!(got, [(Some("10:00:10"), 4, 2), (Some("10:00:20"), 5, 2)]);
    close(
        dev(&calls.reports[1], SAR_B_DEVICE).normalised.write_iops,
        5.0,
        "wtps",
    );
    assert_eq!(calls.ends, 0);

    // Read whole, then stopped by the sink after its first report: no end.
    let mut calls = Calls {
        stop_after: Some(1),
        ..Calls::default()
    };
    SarText
        .parse_stream(&mut text.as_bytes(), &ParseSettings::default(), &mut calls)
        .unwrap();
    assert_eq!((calls.reports.len(), calls.ends), (1, 0));
    // And to the end: three reports, the first since boot unless the settings say otherwise.
    let mut calls = Calls::default();
    let settings = ParseSettings {
        first_report_since_boot: false,
        ..ParseSettings::default()
    };
    SarText
        .parse_stream(&mut text.as_bytes(), &settings, &mut calls)
        .unwrap();
    assert_eq!((calls.reports.len(), calls.ends), (3, 1));
    assert_eq!(calls.reports[2].timestamp.as_deref(), Some("10:00:15"));
}

#[test]
fn a_later_runs_system_configuration_is_not_the_first_banners() {
    // The header is handed over when the second banner starts another run: the AIX
    // `System configuration: lcpu=…` line of a later file does not give the HP-UX host a CPU count.
    let hpux = std::fs::read_to_string(fixture("hpux-11.31-sar-d-blks.txt")).unwrap();
    let aix = std::fs::read_to_string(fixture("aix-7.2-sar-d-Kbs.txt")).unwrap();
    assert_eq!(
        parse(&aix).unwrap().header.unwrap().cpus,
        Some(16),
        "the AIX file alone"
    );
    let log = parse(&format!("{hpux}\n{aix}")).unwrap();
    let h = log.header.unwrap();
    assert_eq!((h.sysname.as_str(), h.cpus), ("HP-UX", None));
}

/// Every sar fixture, and the corpus's sar files, read in 7-byte pieces: the same records as the
/// whole text, or the same error.
#[test]
fn every_sar_file_streams_what_the_whole_text_gives() {
    use sizer_parsers::sar::SarText;
    use sizer_parsers::sink::Collect;
    use sizer_parsers::{FormatParser, ParseSettings};

    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .collect();
    files.sort();
    for rel in [
        "linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt",
        "linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt",
        "solaris-11.3-sar-A.txt",
    ] {
        let p = shared(&format!("{IOSTAT}{rel}"));
        if p.exists() {
            files.push(p);
        } else {
            crate::common::corpus_absent(&p);
        }
    }
    let mut compared = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if !looks_like(text) {
            continue;
        }
        let settings = ParseSettings::default();
        let mut whole = Collect::new();
        let a = SarText.parse(text, &settings, &mut whole);
        let mut src = std::io::BufReader::with_capacity(16, Trickle::new(&bytes));
        let mut streamed = Collect::new();
        let b = SarText.parse_stream(&mut src, &settings, &mut streamed);
        match (a, b) {
            (Ok(()), Ok(())) => assert_eq!(
                serde_json::to_value(whole.into_parsed()).unwrap(),
                serde_json::to_value(streamed.into_parsed()).unwrap(),
                "{}",
                f.display()
            ),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", f.display()),
            (a, b) => panic!("{}: {a:?} / {b:?}", f.display()),
        }
        compared += 1;
    }
    assert!(compared >= 8, "only {compared} sar files compared");
}

#[test]
fn sar_u_all_rows_are_the_reports_cpu() {
    // iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt line 4: `16:08:55 all 5.47 0.00 5.39
    // 0.15 0.00 0.00 0.00 0.00 0.00 88.99` under `CPU %usr %nice %sys %iowait %steal %irq %soft
    // %guest %gnice %idle` → busy 100 − 88.99 − 0.15 = 10.86, iowait 0.15; line 4840 (`Average:
    // all … 0.05 … 97.61`) → the summary: busy 100 − 97.61 − 0.05 = 2.34. The per-CPU rows
    // (`0`, `1`) and the other `CPU` tables (`total/s dropd/s …`, no %idle) are not read.
    let Some(log) = corpus("iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt") else {
        return;
    };
    let c = at(&log, "16:08:55").cpu.as_ref().expect("cpu at 16:08:55");
    close(c.busy_pct, 100.0 - 88.99 - 0.15, "busy");
    close(c.iowait_pct, 0.15, "iowait");
    assert_eq!(c.values[0], ("%usr".to_string(), Some(5.47)));
    assert_eq!(c.values.len(), 10);
    let s = summary(&log, 0).cpu.as_ref().expect("Average: cpu");
    close(s.busy_pct, 100.0 - 97.61 - 0.05, "average busy");
    // Every interval report has its CPU.
    assert!(
        log.reports.iter().all(|r| r.cpu.is_some()),
        "a report without CPU"
    );
}
