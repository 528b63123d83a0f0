//! End-to-end tests of virtualisation exports (esxtop, HCIBench, vSAN performance service,
//! PowerCLI) through `sizer analyze`: values read by hand from `../shared/corpus/vsan/` (skipped
//! with a message when absent) and the project's fixtures.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus(rel: &str) -> Option<PathBuf> {
    let p = root().join("../shared/corpus/vsan").join(rel);
    if p.exists() {
        Some(p)
    } else {
        crate::common::corpus_absent(&p);
        None
    }
}

fn json(args: &[&str]) -> Value {
    let mut a = vec!["analyze", "-f", "json"];
    a.extend_from_slice(args);
    let o = Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(&a)
        .current_dir(root())
        .output()
        .expect("run sizer");
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{a:?}: not JSON ({e}); stderr {}",
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[track_caller]
fn close(v: &Value, expected: f64, tol: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!(
        (got - expected).abs() <= tol,
        "expected {expected} ± {tol}, got {got}"
    );
}

/// esxtop batch CSV (first all-zero row dropped): two samples. VM-level Virtual Disk rows summed:
/// Commands/sec 16.66 and 14.65, Writes/sec 16.66 and 10.64; the adapter vmhba0 writes 17.67
/// and 11.24. Measured 14.455 / 13.65 = 1.059 back-end writes per write: no vSAN policy.
#[test]
fn esxtop_front_end_back_end_and_amplification() {
    let Some(f) = corpus("DERIVED_esxtopd_disk-columns-only.csv") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let v = &doc["virtual"][0];
    assert_eq!(v["name"], "localhost.home");
    let fe = &v["front_end"];
    assert_eq!(fe["samples"], 2);
    close(
        &fe["statistics"]["total_iops"]["avg"],
        (16.66 + 14.65) / 2.0,
        1e-9,
    );
    close(&fe["statistics"]["total_iops"]["max"], 16.66, 1e-9);
    close(
        &fe["statistics"]["write_iops"]["avg"],
        (16.66 + 10.64) / 2.0,
        1e-9,
    );
    // 0.32 MBytes/s read at 14:06:37: MiB → 0.33554432 MB/s.
    close(
        &fe["statistics"]["read_mb_s"]["max"],
        0.32 * 1_048_576.0 / 1e6,
        1e-9,
    );
    close(
        &v["back_end"]["statistics"]["write_iops"]["avg"],
        (17.67 + 11.24) / 2.0,
        1e-9,
    );
    close(&v["measured_write_amplification"], 14.455 / 13.65, 1e-9);
    assert!(v["closest_policy"].is_null());
    assert_eq!(v["policy"]["choice"], "raid1-ftt1");
    assert!(v["recommendation"].is_object());
    // The sample closest to the sizing figure has no reads: the read size comes from the
    // averages over both samples, 0.16777216 MB/s ÷ 2.01 IOPS = 81.5 KiB, so the front end's
    // 0.55 ms read latency is graded as a large read.
    close(
        &v["demand"]["avg_read_kib"],
        0.16777216e6 / 2.01 / 1024.0,
        1e-3,
    );
    let card = &v["recommendation"]["report_card"]["tests"];
    assert_eq!(card[1]["test"], "sequential_read");
    close(&card[1]["measured_ms"], 0.55, 1e-6);
    // The demand keeps the front end's split: writes average (16.66 + 10.64) / 2 = 13.65 and
    // reads (0 + 4.02) / 2 = 2.01 IOPS, so writes are 13.65 / 15.66 = 87.2 %, applied to the
    // sizing figure (the p95 of the total). The closest sample alone (14:06:32, 16.66 writes of
    // 16.66) is 100 % writes.
    let dm = &v["demand"];
    let (r, w) = (
        dm["read_iops"].as_f64().unwrap(),
        dm["write_iops"].as_f64().unwrap(),
    );
    close(
        &Value::from(100.0 * w / (r + w)),
        100.0 * 13.65 / 15.66,
        1e-6,
    );
    assert!(v["policy"]["why"]
        .as_str()
        .unwrap()
        .starts_with("writes are 87.2 % of front-end IOPS"));
}

/// HCIBench results (7 runs of the curve test): each run is one sample, not summed.
#[test]
fn hcibench_runs_are_samples() {
    let Some(f) = corpus("cleeistaken_Test-Profiles_Curve_README_hcibench_results.md") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let v = &doc["virtual"][0];
    let fe = &v["front_end"]["statistics"];
    assert_eq!(fe["total_iops"]["n"], 7);
    close(&fe["total_iops"]["max"], 26833.38, 1e-9);
    // THROUGHPUT 107.00 MB/s (fio KiB/s ÷ 1024, so MiB/s) → 112.197632 MB/s.
    close(&fe["total_mb_s"]["max"], 107.0 * 1_048_576.0 / 1e6, 1e-9);
    close(&fe["write_latency_ms"]["max"], 11.28, 1e-9);
    let ids: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"synthetic_load"), "{ids:?}");
}

/// The vSAN performance-service SOAP mock: cluster-domclient iopsRead 10, 11; iopsWrite 12, 13;
/// latencyAvgRead 14, 15 µs (0.014, 0.015 ms).
#[test]
fn vsan_soap_cluster_front_end() {
    let Some(f) = corpus("otel_vcenterreceiver_mock_cluster-vsan.xml") else {
        return;
    };
    let doc = json(&[f.to_str().unwrap()]);
    let fe = &doc["virtual"][0]["front_end"];
    assert_eq!(fe["basis"], "vSAN cluster-domclient (VM consumption)");
    close(&fe["statistics"]["total_iops"]["max"], 24.0, 1e-9);
    close(&fe["statistics"]["read_iops"]["avg"], 10.5, 1e-9);
    close(&fe["statistics"]["read_latency_ms"]["max"], 0.015, 1e-12);
}

/// vSAN JSON fixture with front end and back end under RAID-1 FTT=1 writes 2 copies.
#[test]
fn vsan_fixtures_parse_and_are_analysed() {
    let dir = root().join("fixtures/vsan");
    let mut analysed = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".md") || name.starts_with("bad") {
            continue;
        }
        let doc = json(&[p.to_str().unwrap()]);
        let n = doc["virtual"].as_array().map(|a| a.len()).unwrap_or(0);
        assert!(
            n > 0 || doc["failed"].as_array().is_some_and(|f| !f.is_empty()),
            "{name}: {doc}"
        );
        analysed += n;
    }
    assert!(analysed >= 5, "{analysed}");
}

/// Front end and back end of one cluster (fixture): the back end writes 2 and reads 2 extra per
/// front-end write, the RAID-5 pattern; disk groups hit their read cache 83 % of the time
/// (below 90 %: all-flash); writes are 33.3 % (above 30 %: RAID-1 FTT=1 advised).
#[test]
fn vsan_front_back_amplification_and_advice() {
    let doc = json(&["fixtures/vsan/query-perf-front-back-raid5-pattern.json"]);
    let v = &doc["virtual"][0];
    assert_eq!(v["back_end"]["basis"], "vSAN cluster-domcompmgr (back end)");
    close(&v["measured_write_amplification"], 2.0, 1e-9);
    close(&v["measured_extra_reads_per_write"], 2.0, 1e-9);
    assert_eq!(v["closest_policy"], "raid5");
    assert_eq!(v["disk_groups"]["choice"], "all-flash");
    assert!(v["disk_groups"]["why"].as_str().unwrap().contains("83.0 %"));
    assert_eq!(v["policy"]["choice"], "raid1-ftt1");
    // Front end, time-weighted average of 150 and 180 IOPS; latency weighted by requests:
    // (100 × 0.5 + 120 × 0.7) / 220 would be the pooled mean; per sample 0.5 and 0.7 ms.
    let fe = &v["front_end"]["statistics"];
    close(&fe["total_iops"]["avg"], 165.0, 1e-9);
    close(&fe["read_latency_ms"]["max"], 0.7, 1e-12);
    close(
        &fe["total_mb_s"]["max"],
        (983_040.0 + 491_520.0) / 1e6,
        1e-9,
    );
    // RAID-1 FTT=1 back end at the p95 of the front end: r + 2w.
    let p95r = 100.0 + 0.95 * 20.0;
    let p95w = 50.0 + 0.95 * 10.0;
    let ftt1 = v["policies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "raid1-ftt1")
        .unwrap();
    close(&ftt1["backend_iops"], p95r + 2.0 * p95w, 1e-9);
}

/// `--hana-checks` on the front/back fixture: p95 write latency 1.5 + 0.95 × 0.4 = 1.88 ms
/// misses the 1 ms log KPI; throughputs of about 1 MB/s are "not shown" (not failed); without
/// the flag there are no checks.
#[test]
fn hana_checks_are_optional_and_sourced() {
    let f = "fixtures/vsan/query-perf-front-back-raid5-pattern.json";
    let doc = json(&[f]);
    assert_eq!(doc["virtual"][0]["hana"].as_array().unwrap().len(), 0);
    let doc = json(&["--hana-checks", f]);
    let checks = doc["virtual"][0]["hana"].as_array().unwrap();
    assert_eq!(checks.len(), 4);
    let lat = &checks[0];
    assert_eq!(lat["id"], "log_write_latency");
    close(&lat["measured"], 1.5 + 0.95 * 0.4, 1e-9);
    assert_eq!(lat["passed"], false);
    assert!(checks[1]["passed"].is_null());
    assert!(checks[1]["source"]
        .as_str()
        .unwrap()
        .contains("MSFT-HANA-STORAGE"));
}

/// PowerCLI export of a cluster and one of its hosts: the front end is the cluster's
/// VMConsumption alone (the host's IO is inside it), 1,500 and 1,650 IOPS; the back end writes
/// twice per write with no extra reads (RAID-1 FTT=1); a recommendation is made.
#[test]
fn powercli_cluster_not_added_to_its_host() {
    let doc = json(&["fixtures/vsan/get-vsanstat-cluster-and-host-en-US.csv"]);
    let v = &doc["virtual"][0];
    assert!(v["front_end"]["basis"]
        .as_str()
        .unwrap()
        .contains("of VSAN-Cluster"));
    let fe = &v["front_end"]["statistics"];
    close(&fe["total_iops"]["max"], 1650.0, 1e-9);
    close(&fe["read_latency_ms"]["max"], 1.1, 1e-12);
    close(&fe["write_mb_s"]["max"], 9.0112, 1e-9);
    close(&v["measured_write_amplification"], 2.0, 1e-9);
    close(&v["measured_extra_reads_per_write"], 0.0, 1e-9);
    assert_eq!(v["closest_policy"], "raid1-ftt1");
    assert!(v["recommendation"].is_object());
}
