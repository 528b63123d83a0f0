//! End-to-end tests of OS disk logs (iostat, sar, sadf, nmon, OSWatcher, AIX/Solaris iostat)
//! through `sizer analyze`: per-host and per-device figures checked against values read by hand
//! from the corpus files (`../shared/corpus`, skipped with a message when absent) and the
//! project's fixtures.

use std::path::PathBuf;

use crate::common::{root, sizer};

use serde_json::Value;

fn corpus(rel: &str) -> Option<PathBuf> {
    let p = root().join("../shared/corpus").join(rel);
    if p.exists() {
        Some(p)
    } else {
        crate::common::corpus_absent(&p);
        None
    }
}

/// `sizer analyze -f json ARGS…`, the parsed document.
fn json(args: &[&str]) -> Value {
    let mut a = vec!["analyze", "-f", "json"];
    a.extend_from_slice(args);
    let o = sizer(&a);
    assert!(
        o.status.code().is_some_and(|c| c <= 1),
        "sizer {a:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "sizer {a:?}: not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[track_caller]
fn assert_close(v: &Value, expected: f64, tol: f64) {
    let got = v
        .as_f64()
        .unwrap_or_else(|| panic!("expected a number near {expected}, got {v}"));
    assert!(
        close(got, expected, tol),
        "expected {expected} ± {tol}, got {got}"
    );
}

fn host<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["hosts"]
        .as_array()
        .expect("hosts")
        .iter()
        .find(|h| h["host"] == name)
        .unwrap_or_else(|| panic!("no host {name} in {}", doc["hosts"]))
}

fn device<'a>(h: &'a Value, name: &str) -> &'a Value {
    h["devices"]
        .as_array()
        .expect("devices")
        .iter()
        .find(|d| d["device"] == name)
        .unwrap_or_else(|| panic!("no device {name}"))
}

fn warning_ids(h: &Value) -> Vec<String> {
    h["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap().to_string())
        .collect()
}

/// sysstat 9.x basic report, 512-byte blocks, DD/MM/YY banner (27/07/10). Two intervals after
/// the since-boot report: sda 2.34 + sdb 78.93 = 81.27 tps, then 4.35 + 124.08 = 128.43 tps.
#[test]
fn iostat_basic_blocks_host_totals() {
    let Some(f) = corpus("iostat/linux-iostat-9.x-ubuntu-basic-Blk-sectors-DDMMYY.txt") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let h = host(&doc, "bozo");
    assert_eq!(h["intervals"], 2);
    assert_eq!(h["sources"][0]["since_boot_left_out"], 1);
    // No time stamp in the log: the banner's date (27/07/10) orders nothing.
    assert!(h["sources"][0]["date_order"].is_null());
    let t = &h["statistics"]["total_iops"];
    assert_close(&t["avg"], 104.85, 1e-9);
    assert_close(&t["max"], 128.43, 1e-9);
    // p95 by linear interpolation: 81.27 + 0.95 × (128.43 − 81.27).
    assert_close(&t["p95"], 126.072, 1e-9);
    // (0 + 61.54 + 976.59 + 1139.80) blocks/s × 512 bytes = 1.11510016 MB/s.
    assert_close(&h["statistics"]["total_mb_s"]["max"], 1.115_100_16, 1e-9);
    // No r/s w/s in the basic report: the split is unknown, not 0/0 silently.
    assert!(h["statistics"]["read_iops"]["n"] == 0);
    assert!(warning_ids(h).contains(&"split_unknown".to_string()));
    assert_eq!(device(h, "scd0")["role"], "virtual");
    assert_eq!(device(h, "scd0")["included"], false);
    assert_close(
        &device(h, "sdb")["figures"]["total_iops"]["max"],
        124.08,
        1e-9,
    );
    assert!(h["recommendation"]["platforms"].as_array().unwrap().len() >= 2);
}

/// sysstat 9.0.4 `-xt`, sectors, 12-hour times. sda: w/s 0, 0, 6, 1 and r/s 0, 1, 0, 0 over
/// 18:08:38 – 18:08:41; w_await 29.83 at 06:08:40 PM; svctm 0.00, 15.00, 14.67, 14.00.
#[test]
fn iostat_x_sectors_ampm_times_and_peaks() {
    let Some(f) = corpus("iostat/linux-iostat-9.0.4-rhel6-xt-sectors-12h-AMPM.txt") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let h = host(&doc, "myhostname");
    assert_eq!(h["intervals"], 4);
    assert_eq!(h["begin"], "2018-06-14T18:08:37");
    assert_eq!(h["end"], "2018-06-14T18:08:41");
    assert_close(&h["interval_s"], 1.0, 0.0);
    let t = &h["statistics"]["total_iops"];
    assert_close(&t["avg"], 2.0, 1e-9);
    assert_close(&t["max"], 6.0, 1e-9);
    assert_eq!(t["peak_end"], "2018-06-14T18:08:40");
    // 200 sectors/s × 512 = 0.1024 MB/s written at the peak.
    assert_close(&h["statistics"]["write_mb_s"]["max"], 0.1024, 1e-12);
    assert_close(&h["statistics"]["w_await_ms"]["max"], 29.83, 1e-9);
    // r_await only where there were reads (one interval): 15.00 ms.
    assert_eq!(h["statistics"]["r_await_ms"]["n"], 1);
    assert_close(&h["statistics"]["r_await_ms"]["avg"], 15.0, 1e-9);
    let sda = device(h, "sda");
    assert_close(&sda["figures"]["svctm_ms"]["max"], 15.0, 1e-9);
    assert_close(&sda["figures"]["util_pct"]["max"], 8.8, 1e-9);
    assert_eq!(
        sda["figures"]["util_pct"]["peak_time"],
        "2018-06-14T18:08:40"
    );
    assert_close(&h["demand"]["required_iops"], 5.25, 1e-9);
}

/// A log of one `iostat -x` report (averages since boot) is sized from it, with a warning;
/// `--iostat-y` says the first report is an interval.
#[test]
fn iostat_since_boot_only_and_iostat_y() {
    let Some(f) = corpus("iostat/linux-iostat-11.6.1-ubuntu1804-mx-svctm.txt") else {
        return;
    };
    let f = f.to_str().unwrap();
    let doc = json(&[f]);
    let h = host(&doc, "kbrazil-ubuntu");
    assert!(warning_ids(h).contains(&"since_boot_only".to_string()));
    // sda: r/s 40.74 + w/s 44.66; rMB/s 1.93 and wMB/s 3.43 (MiB) → 2.02 + 3.60 MB/s.
    assert_close(&h["statistics"]["total_iops"]["avg"], 85.40, 1e-9);
    assert_close(&h["statistics"]["read_iops"]["avg"], 40.74, 1e-9);
    assert_close(
        &h["statistics"]["read_mb_s"]["avg"],
        1.93 * 1_048_576.0 / 1e6,
        1e-9,
    );
    let doc = json(&["--iostat-y", f]);
    let h = host(&doc, "kbrazil-ubuntu");
    assert!(!warning_ids(h).contains(&"since_boot_only".to_string()));
    assert_eq!(h["sources"][0]["since_boot_left_out"], 0);
    assert_eq!(h["intervals"], 1);
}

/// Partitions and device-mapper devices are left out of the host total unless asked for.
#[test]
fn devices_selection() {
    let Some(f) = corpus("iostat/linux-iostat-10.1.5-centos7-x-kBps.txt") else {
        return;
    };
    let f = f.to_str().unwrap();
    // sda 0.13 + 0.11; dm-0 0.14 + 0.11; dm-1 0.00 + 0.00 (r/s + w/s as printed).
    let doc = json(&["--iostat-y", f]);
    let h = host(&doc, "localhost.localdomain");
    assert_close(&h["statistics"]["total_iops"]["avg"], 0.24, 1e-9);
    assert_eq!(device(h, "dm-0")["included"], false);
    let doc = json(&["--iostat-y", "--devices", "all", f]);
    let h = host(&doc, "localhost.localdomain");
    assert_close(&h["statistics"]["total_iops"]["avg"], 0.49, 1e-9);
    let doc = json(&["--iostat-y", "--devices", "dm-0", f]);
    let h = host(&doc, "localhost.localdomain");
    assert_close(&h["statistics"]["total_iops"]["avg"], 0.25, 1e-9);
    let o = sizer(&["analyze", "--devices", ",", f]);
    assert_eq!(o.status.code(), Some(2));
}

/// 03/04/2019 11:59:58 PM then 03/05/2019 12:00:08 AM: both dates read both ways; month first
/// gives a 10-second interval, day first a month, so month first is taken; `--date-order dmy`
/// overrides it.
#[test]
fn date_order_from_the_sequence_and_the_flag() {
    let f = "fixtures/iostat/x-9.0-sectors-ampm-p.txt";
    let doc = json(&[f]);
    let h = host(&doc, "db02.example.com");
    assert_eq!(h["begin"], "2019-03-04T23:59:58");
    assert_eq!(h["end"], "2019-03-05T00:00:08");
    assert_close(&h["interval_s"], 10.0, 0.0);
    assert!(warning_ids(h).contains(&"date_order_inferred".to_string()));
    // sda only (sda1 is its partition): 20 r/s + 20 w/s.
    assert_close(&h["statistics"]["total_iops"]["max"], 40.0, 1e-9);
    assert_eq!(device(h, "sda1")["role"], "partition");
    let doc = json(&["--date-order", "dmy", f]);
    let h = host(&doc, "db02.example.com");
    assert_eq!(h["end"], "2019-05-03T00:00:08");
}

/// The first line of the Markdown host section and its tables, as a user reads them.
#[test]
fn markdown_host_section() {
    let o = sizer(&["analyze", "fixtures/iostat/x-12.3-flush-iso-N.txt"]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.contains("# Host db01.example.com (Linux 6.1.0-18-amd64)"),
        "{md}"
    );
    assert!(md.contains("## Host totals"), "{md}");
    assert!(md.contains("## Devices"), "{md}");
    assert!(md.contains("IOPS (r/s + w/s + d/s, sysstat tps)"), "{md}");
    assert!(md.contains("## Recommendation"), "{md}");
}

/// AWR and iostat of the same host and hour side by side: the AWR report's host is
/// db01.example.com, 10:00:05 – 11:00:05; the iostat intervals ending inside it give 3,000,
/// 2,950 and 3,100 IOPS (1,200 s each) and 24.576, 24.1664, 25.3952 MB/s (kB = 1024 B).
#[test]
fn awr_and_iostat_side_by_side() {
    let doc = json(&[
        "fixtures/awr/awrrpt_19c_small.html",
        "fixtures/iostat/db01-awr-window-12.3.txt",
    ]);
    let h = host(&doc, "db01.example.com");
    assert_eq!(h["intervals"], 3);
    assert_eq!(h["begin"], "2024-03-12T10:00:05");
    let a = &h["awr"][0];
    assert_eq!(a["instance"], "sizdemo");
    assert_close(&a["awr_iops"], 3000.21, 1e-9);
    assert_close(&a["os_iops"], 9050.0 / 3.0, 1e-9);
    assert_close(&a["os_mb_s"], (24.576 + 24.1664 + 25.3952) / 3.0, 1e-9);
    assert_close(&a["covered_s"], 3600.0, 1e-9);
    // nvme0n1p1 is a partition of nvme0n1: not added again.
    assert_eq!(device(h, "nvme0n1p1")["included"], false);
    let o = sizer(&[
        "analyze",
        "fixtures/awr/awrrpt_19c_small.html",
        "fixtures/iostat/db01-awr-window-12.3.txt",
    ]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("## AWR and OS side by side"), "{md}");
    assert!(md.contains("3,016.67"), "{md}");
}

/// A binary sysstat data file (`/var/log/sa/saDD`) is refused with the command that converts it.
#[test]
fn binary_sa_file_says_to_run_sadf() {
    let o = sizer(&["analyze", "fixtures/bad/sa15"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("fixtures/bad/sa15"), "{err}");
    assert!(err.contains("binary sysstat data file"), "{err}");
    assert!(err.contains("sadf -d"), "{err}");
}

/// A line with fewer values than its header names the line; the other file still runs.
#[test]
fn bad_iostat_line_is_reported_and_the_batch_goes_on() {
    let o = sizer(&[
        "analyze",
        "fixtures/iostat/bad-short-line.txt",
        "fixtures/iostat/x-9.0-sectors-ampm-p.txt",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("fixtures/iostat/bad-short-line.txt"), "{err}");
    assert!(err.contains("line 5"), "{err}");
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("# Host db02.example.com"), "{md}");
}

/// Reads the host-series export (`--export FILE.csv`) of one file: header and rows.
fn host_series_csv(file: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let out = std::env::temp_dir().join(format!(
        "sizer-hosts-test-{}-{}.csv",
        std::process::id(),
        file.rsplit('/').next().unwrap()
    ));
    let o = sizer(&["analyze", "--export", out.to_str().unwrap(), file]);
    assert!(o.status.code().is_some_and(|c| c <= 1), "{o:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let mut lines = text.lines();
    let header = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (header, rows)
}

fn col(header: &[String], row: &[String], name: &str) -> f64 {
    let i = header.iter().position(|h| h == name).unwrap();
    row[i]
        .parse()
        .unwrap_or_else(|_| panic!("{name}: '{}'", row[i]))
}

/// Linux `sar -A` 10.1.5 without `-p` (`devM-N` names). 09:10:01: dev8-0 0.35 tps (0.53 + 1.71
/// sectors/s, await 20.24) and dev8-16 0.28 tps (1.31 + 1.26, await 14.05); the dm devices
/// (dev253-*) are left out. `sar -b` at 09:10:01: rtps 0.06, wtps 0.58.
#[test]
fn sar_a_linux_host_totals_with_the_sar_b_split() {
    let Some(f) = corpus("iostat/linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt") else {
        return;
    };
    let f = f.to_str().unwrap();
    let (hdr, rows) = host_series_csv(f);
    let first = rows
        .iter()
        .find(|r| r[1] == "2016-03-28T09:10:01")
        .expect("09:10:01");
    assert_close(&col(&hdr, first, "total_iops").into(), 0.63, 1e-9);
    assert_close(&col(&hdr, first, "read_iops").into(), 0.06, 1e-9);
    assert_close(&col(&hdr, first, "write_iops").into(), 0.58, 1e-9);
    assert_close(
        &col(&hdr, first, "total_mb_s").into(),
        (0.53 + 1.71 + 1.31 + 1.26) * 512.0 / 1e6,
        1e-12,
    );
    assert_close(
        &col(&hdr, first, "await_ms").into(),
        (0.35 * 20.24 + 0.28 * 14.05) / 0.63,
        1e-9,
    );
    assert_close(&col(&hdr, first, "interval_s").into(), 600.0, 0.0);
    let doc = json(&[f]);
    let h = host(&doc, "hostname.example.com");
    assert_eq!(h["intervals"], 36);
    assert_eq!(h["sources"][0]["summaries_left_out"], 1);
    assert_eq!(device(h, "dev253-0")["role"], "mapper");
    assert_eq!(device(h, "dev8-16")["included"], true);
    assert!(warning_ids(h).contains(&"split_from_sar_b".to_string()));
}

/// A SLES 15 `sar -A` whose disk table lists only `devM-N` devices of dynamic majors (dev253-0,
/// dev254-0, dev254-1: device-mapper or virtio, stacked: dev253-0 and dev254-1 both write 496.80
/// kB/s at 16:08:55): the total is the file's own `sar -b` (6.70 tps at 16:08:55 = dev253-0
/// alone), with a warning, not the stacked sum (17.4).
#[test]
fn sar_with_only_dynamic_major_devices_falls_back_to_sar_b() {
    let Some(f) = corpus("iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let h = host(&doc, "hostname.example.com");
    assert!(warning_ids(h).contains(&"no_whole_disks".to_string()));
    // One story: the total is `sar -b`, so "no device matches the selection: the host has no
    // total" (which contradicted it) is not said, and the selection names `sar -b`.
    assert!(!warning_ids(h).contains(&"no_devices_selected".to_string()));
    assert!(
        h["selection"].as_str().unwrap().starts_with("`sar -b`"),
        "{}",
        h["selection"]
    );
    assert_eq!(h["intervals"], 6);
    assert_close(&h["statistics"]["total_iops"]["max"], 6.7, 1e-9);
    // bwrtn/s 993.60 blocks × 512 = 0.5087232 MB/s.
    assert_close(
        &h["statistics"]["write_mb_s"]["max"],
        993.6 * 512.0 / 1e6,
        1e-9,
    );
    assert_eq!(
        h["statistics"]["total_iops"]["peak_end"],
        "2018-04-08T16:08:55"
    );
    assert_eq!(device(h, "dev254-1")["included"], false);
}

/// Solaris 11.3 `sar -A`: at 12:20:00 the disks sd4 10 + sd5 43 + sd7 10 + sd9 43 r+w/s = 106;
/// slices (`sd5,a`), HBA (`mpt_sas3`) and MPxIO path rows (`sd5.t3.m`) are not added again.
#[test]
fn solaris_sar_disks_without_slices_and_paths() {
    let Some(f) = corpus("iostat/solaris-11.3-sar-A.txt") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let h = host(&doc, "ala52s01");
    assert_eq!(h["intervals"], 30);
    assert_close(&h["statistics"]["total_iops"]["max"], 106.0, 1e-9);
    assert_eq!(
        h["statistics"]["total_iops"]["peak_end"],
        "2017-05-26T12:20:00"
    );
    assert_eq!(device(h, "sd5,a")["role"], "partition");
    assert_eq!(device(h, "mpt_sas3")["included"], false);
    assert_eq!(device(h, "sd5.t3.m")["included"], false);
    // r+w/s only: no read/write split on Solaris sar.
    assert!(warning_ids(h).contains(&"split_unknown".to_string()));
}

/// nmon (Linux 15h, `-g auto`): T0044 (10:45:56) DISKXFER sda 1202.6 + sdb 14.6 = 1217.2; the
/// partitions and dm devices are left out, and the `-g` disk groups named after their disks are
/// listed apart.
#[test]
fn nmon_host_totals_and_groups() {
    let Some(f) = corpus("iostat/nmon-linux-15h-fedora21-g-auto-DG.nmon.txt") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let h = &doc["hosts"][0];
    assert_eq!(h["intervals"], 47);
    assert_close(&h["interval_s"], 30.0, 0.0);
    assert_close(&h["statistics"]["total_iops"]["max"], 1217.2, 1e-9);
    assert_eq!(
        h["statistics"]["total_iops"]["peak_end"],
        "2015-08-18T10:45:56"
    );
    let sda: Vec<&Value> = h["devices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["device"] == "sda")
        .collect();
    assert_eq!(sda.len(), 2, "the disk and its -g group");
    assert!(sda
        .iter()
        .any(|d| d["role"] == "group" && d["included"] == false));
    assert!(sda
        .iter()
        .any(|d| d["role"] == "disk" && d["samples"] == 47 && d["included"] == true));
}

/// `sadf -dT` pasted after a `sar -u` run: dev259-0 (an NVMe namespace, blkext major 259) tps 0.36,
/// with the `sar -b` split 0.03 / 0.33.
#[test]
fn sadf_excerpt_with_junk_around_it() {
    let Some(f) = corpus("iostat/linux-sar-AMPM-and-sadf-dT-10.1.5-centos7-EXCERPT.txt") else {
        return;
    };
    let doc = json(&["--iostat-y", f.to_str().unwrap()]);
    let h = &doc["hosts"][0];
    assert_eq!(h["host"], "d0cc44ac1f1c.mylabserver.com");
    assert_eq!(h["sources"][0]["format"], "sadf_csv");
    assert_close(&h["statistics"]["total_iops"]["avg"], 0.36, 1e-9);
    assert_close(&h["statistics"]["read_iops"]["avg"], 0.03, 1e-9);
    assert_close(&h["statistics"]["write_iops"]["avg"], 0.33, 1e-9);
    assert_close(&h["interval_s"], 601.0, 0.0);
    assert!(h["sources"][0]["skipped_count"].as_u64().unwrap() > 0);
}

/// OSWatcher `oswiostat` archive, gzip-compressed: three 30-second snapshots of `iostat -xk 1 3`
/// (the third report kept). sda + sdb: 4 + 20 + 100 + 50 = 174, 8 + 250 = 258, 10 + 10 = 20 IOPS.
/// Given with its uncompressed copy, the same times are one interval each.
#[test]
fn oswatcher_gzip_archive_and_its_copy() {
    let gz = "fixtures/oswatcher/db01_iostat_26.11.30.0800.dat.gz";
    let doc = json(&[gz]);
    let h = host(&doc, "db01.example.com");
    assert_eq!(h["sources"][0]["format"], "oswatcher");
    assert_eq!(h["intervals"], 3);
    assert_close(
        &h["statistics"]["total_iops"]["avg"],
        (174.0 + 258.0 + 20.0) / 3.0,
        1e-9,
    );
    assert_close(&h["statistics"]["total_iops"]["max"], 258.0, 1e-9);
    assert_eq!(
        h["statistics"]["total_iops"]["peak_end"],
        "2026-11-30T08:00:32"
    );
    assert_close(&h["interval_s"], 30.0, 0.0);
    assert_eq!(device(h, "dm-0")["included"], false);
    let doc = json(&[gz, "fixtures/oswatcher/db01_iostat_26.11.30.0800.dat"]);
    let h = host(&doc, "db01.example.com");
    assert_eq!(h["intervals"], 3);
    assert_eq!(h["sources"][1]["duplicate_times"], 3);
}

/// AIX and Solaris logs go through the same engine.
#[test]
fn aix_and_solaris_iostat_fixtures_are_sized() {
    for (f, host_name) in [
        ("fixtures/oswatcher/aix01_iostat_26.11.30.1000.dat", "aix01"),
        ("fixtures/oswatcher/sol01_iostat_26.11.30.1100.dat", "sol01"),
    ] {
        let doc = json(&[f]);
        let h = host(&doc, host_name);
        assert!(h["intervals"].as_u64().unwrap() >= 2, "{f}");
        assert!(h["recommendation"].is_object(), "{f}");
    }
}

/// A log cut in the middle of a line (copied while iostat was still writing): the reports before
/// the cut are used and the cut report is named in the skipped lines (issue 14: a line that
/// does not fit its header leaves its report out, and reading goes on); the same log gzip'd
/// reads the same.
#[test]
fn cut_and_gzipped_iostat_logs() {
    let text = std::fs::read(root().join("fixtures/iostat/db01-awr-window-12.3.txt")).unwrap();
    let dir = std::env::temp_dir().join(format!("sizer-hosts-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("db01-cut.txt");
    std::fs::write(&cut, &text[..text.len() - 60]).unwrap();
    let doc = json(&[cut.to_str().unwrap()]);
    let h = host(&doc, "db01.example.com");
    // The 11:00:05 report is cut: 10:20:05 and 10:40:05 remain (3,000 and 2,950 IOPS).
    assert_eq!(h["intervals"], 2);
    assert_close(&h["statistics"]["total_iops"]["avg"], 2975.0, 1e-9);
    let skipped = h["sources"][0]["skipped"].as_array().unwrap();
    assert!(
        skipped.iter().any(|s| {
            let r = s["reason"].as_str().unwrap();
            r.starts_with("report left out: ") && r.contains("values under the header")
        }),
        "{skipped:?}"
    );
    assert!(h["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["id"] == "skipped_lines"));
    let gz = dir.join("db01.txt.gz");
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut z, &text).unwrap();
    std::fs::write(&gz, z.finish().unwrap()).unwrap();
    let doc = json(&[gz.to_str().unwrap()]);
    let h = host(&doc, "db01.example.com");
    assert_eq!(h["intervals"], 3);
    assert_close(&h["statistics"]["total_iops"]["avg"], 9050.0 / 3.0, 1e-9);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Solaris `iostat -x` streams like Linux iostat: the same log gzip'd (read line by line through
/// gunzip, report by report into the engine's sink) gives the same host figures as the plain
/// file: 2 intervals of 300 and 64 IOPS (the since-boot report left out), the peak in the
/// interval 09:00:00 to 09:00:05.
#[test]
fn gzipped_solaris_iostat_reads_as_the_plain_log() {
    let plain = "fixtures/solaris/iostat-xnCz-Td.txt";
    let text = std::fs::read(root().join(plain)).unwrap();
    let dir = std::env::temp_dir().join(format!("sizer-hosts-sol-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = dir.join("iostat-xnCz-Td.txt.gz");
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut z, &text).unwrap();
    std::fs::write(&gz, z.finish().unwrap()).unwrap();
    let a = json(&[plain]);
    let b = json(&[gz.to_str().unwrap()]);
    let (a, b) = (&a["hosts"][0], &b["hosts"][0]);
    assert_eq!(a["intervals"], 2);
    assert_close(&a["statistics"]["total_iops"]["avg"], 182.0, 1e-9);
    assert_close(&a["statistics"]["total_iops"]["max"], 300.0, 1e-9);
    assert_eq!(
        a["statistics"]["total_iops"]["peak_begin"],
        "2026-11-30T09:00:00"
    );
    assert_eq!(a["statistics"], b["statistics"]);
    assert_eq!(a["devices"], b["devices"]);
    assert_eq!(b["sources"][0]["format"], "solaris_iostat");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sadf_d_intervals_unequal_and_apart_are_stated() {
    // sysstat-tests/tests/expected.sadf-d: `sar -b` rows (lines 231-234, 671) at 13:20:19,
    // 13:20:29, 13:20:39, 13:20:49 and 13:54:35, with printed intervals 31, 31, 39, 22, 31 s.
    // Covered: 31 + 31 + 39 + 22 + 31 = 154 s. Window: the first interval begins 31 s before
    // 13:20:19 (13:19:48) and the last ends 13:54:35: 34 min 47 s = 2,087 s. 2,087 − 154 =
    // 1,933 s > max(3 × 31, 208.7): the window is not covered.
    let Some(p) = corpus("sysstat-tests/tests/expected.sadf-d") else {
        return;
    };
    let ps = p.to_str().unwrap();
    let d = json(&[ps]);
    let h = &d["hosts"][0];
    assert_eq!(
        (
            h["interval_s"].as_f64(),
            h["interval_s_min"].as_f64(),
            h["interval_s_max"].as_f64()
        ),
        (Some(31.0), Some(22.0), Some(39.0))
    );
    let w = h["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == "window_not_covered")
        .expect("window_not_covered");
    assert!(
        w["message"]
            .as_str()
            .unwrap()
            .starts_with("the 5 interval(s) cover 154 s of the 2,087 s window (35 min)"),
        "{w}"
    );
    // The 13:20:39 interval's `sar -b` row (all 0.00) disagrees with its devices, so r/s and
    // w/s are known in 4 of the 5 intervals: the table says so beside their averages.
    assert_eq!(h["statistics"]["write_iops"]["n"], 4);
    assert_eq!(h["statistics"]["total_iops"]["n"], 5);
    let md = String::from_utf8(sizer(&["analyze", ps]).stdout).unwrap();
    assert!(
        md.contains("5 interval(s) of 22–39 s (median 31 s)"),
        "{md}"
    );
    assert!(md.contains("| w/s (4 of 5 intervals) "), "{md}");
}
