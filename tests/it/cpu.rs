//! Host CPU beside the IO (issue 13, item 8): the figures of real reports through the JSON
//! document, and the rule that says when the host CPU, not storage, bounds the workload.
//! Each value is hand-computed in its comment from the numbers the report prints.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sizer::pipeline;
use sizer::rules::RuleSet;
use sizer::settings::Settings;

fn corpus(name: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/awr")
        .join(name);
    if p.is_file() {
        Some(p)
    } else {
        crate::common::corpus_absent(&p);
        None
    }
}

/// The JSON document of one run over `path`.
fn run_json(path: &Path) -> Value {
    let rules = RuleSet::builtin().expect("built-in rules load");
    let run = pipeline::run(&[path], &rules, &Settings::default()).expect("run");
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    let mut buf = Vec::new();
    sizer::report::json(&run, &mut buf).expect("json renders");
    serde_json::from_slice(&buf).expect("output is JSON")
}

fn fired(db: &Value) -> Vec<String> {
    db["recommendation"]["fired_rules"]
        .as_array()
        .expect("fired_rules")
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn db1uat_cpu_bounds_the_workload() {
    // sarthi2020-db1uat-11.2.0.3-aix-single.html, Operating System Statistics: BUSY_TIME
    // 2,665,943, IDLE_TIME 225,076, IOWAIT_TIME 95,486. Busy = 2,665,943 / 2,891,019 =
    // 92.2147 % → 92.21; iowait = 95,486 / 2,891,019 = 3.3029 % → 3.30. (Host CPU %Idle 7.8 →
    // 92.2 % as printed.) 92.21 > 70: `host-cpu-bounds-workload` fires.
    let Some(p) = corpus("sarthi2020-db1uat-11.2.0.3-aix-single.html") else {
        return;
    };
    let doc = run_json(&p);
    let db = &doc["databases"][0];
    let w = &db["intervals"][0]["workload"];
    assert_eq!(w["host_cpu_busy_pct"]["value"], 92.21);
    assert_eq!(w["host_cpu_busy_pct"]["unit"], "%");
    assert_eq!(w["host_cpu_iowait_pct"]["value"], 3.30);
    let busy = db["demand"]["host_cpu_busy_pct"].as_f64().unwrap();
    assert!((busy - 92.214_683).abs() < 1e-4, "{busy}");
    assert!(fired(db).contains(&"host-cpu-bounds-workload".to_string()));
    let s = &db["statistics"]["host_cpu_busy_pct"];
    assert_eq!(s["n"], 1);
    // The Markdown says it in the Summary.
    let md = crate::common::stdout(&crate::common::sizer(&["analyze", p.to_str().unwrap()]));
    assert!(
        md.contains("92.21 % busy, iowait 3.30 %: the host CPU, not storage, bounds the workload (rule `host-cpu-bounds-workload`)"),
        "{md}"
    );
}

#[test]
fn receipt_cpu_below_threshold_does_not_fire() {
    // sarthi2020-receipt-12.1.0.2-aix-snap173494-173496.html: Host CPU %Idle 79.9, so busy is
    // about 20 % (BUSY_TIME 873,370 of BUSY + IDLE): well below 70, the rule does not fire.
    let Some(p) = corpus("sarthi2020-receipt-12.1.0.2-aix-snap173494-173496.html") else {
        return;
    };
    let doc = run_json(&p);
    let db = &doc["databases"][0];
    let busy = db["intervals"][0]["workload"]["host_cpu_busy_pct"]["value"]
        .as_f64()
        .unwrap();
    assert!((busy - 20.1).abs() < 0.2, "{busy}");
    assert!(!fired(db).contains(&"host-cpu-bounds-workload".to_string()));
    let nf = db["recommendation"]["not_fired"].as_array().unwrap();
    assert!(nf.iter().any(|r| r["id"] == "host-cpu-bounds-workload"));
}

#[test]
fn rac_global_sums_the_instances_cpu_time() {
    // azure-lab1-dbv-19c-exadata-rac-global.html, OS Statistics By Instance: Busy 3,000,647.27 +
    // 2,905,931.80 = 5,906,579.07 s of (16,581,575.01 + 16,588,391.00) = 33,169,966.01 s
    // (the report's own Sum row) → 17.807 % → 17.81 busy (instances 18.10 and 17.52 %).
    let Some(p) = corpus("azure-lab1-dbv-19c-exadata-rac-global.html") else {
        return;
    };
    let doc = run_json(&p);
    let w = &doc["databases"][0]["intervals"][0]["workload"];
    assert_eq!(w["host_cpu_busy_pct"]["value"], 17.81);
    // iowait: % WIO 0.06 and 0.05 weighted by each instance's Busy + Idle: (0.06 × 16,581,575.01
    // + 0.05 × 16,588,391.00) / 33,169,966.01 = 1,824,314.05 / 33,169,966.01 = 0.0550 % → 0.05.
    assert_eq!(w["host_cpu_iowait_pct"]["value"], 0.05);
    let exact: f64 = (0.06 * 16_581_575.01 + 0.05 * 16_588_391.00) / 33_169_966.01;
    assert!((exact - 0.055).abs() < 1e-4);
}

#[test]
fn pdb_report_cpu_is_unknown_with_a_reason() {
    // pcambell-idcdb1-12.2.0.1-rac-pdb-report.html prints no Host CPU and no OS statistics:
    // the figure is unknown (never 0) and the rule is not evaluated.
    let Some(p) = corpus("pcambell-idcdb1-12.2.0.1-rac-pdb-report.html") else {
        return;
    };
    let doc = run_json(&p);
    let db = &doc["databases"][0];
    let f = &db["intervals"][0]["workload"]["host_cpu_busy_pct"];
    assert!(f["value"].is_null());
    assert!(f["unknown_reason"].as_str().unwrap().contains("PDB"));
}

#[test]
fn iostat_avg_cpu_is_in_the_host_series_and_the_rule() {
    // fixtures/iostat/x-12.3-flush-iso-N.txt: the first report (since boot, left out) has
    // avg-cpu %iowait 1.00, %idle 92.00; the second (the one interval) 1.00 and 91.00 → busy
    // 100 − 91 − 1 = 8.00 %, iowait 1.00 %. 8 is not > 70: the rule does not fire.
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/iostat/x-12.3-flush-iso-N.txt");
    let doc = run_json(&p);
    let h = &doc["hosts"][0];
    let s = &h["statistics"]["host_cpu_busy_pct"];
    assert_eq!(s["n"], 1);
    assert_eq!(s["unit"], "%");
    assert!((s["avg"].as_f64().unwrap() - 8.0).abs() < 1e-9, "{s}");
    let w = &h["statistics"]["host_cpu_iowait_pct"];
    assert!((w["max"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{w}");
    assert!((h["demand"]["host_cpu_busy_pct"].as_f64().unwrap() - 8.0).abs() < 1e-9);
    assert!(!fired(h).contains(&"host-cpu-bounds-workload".to_string()));
    // Devices never carry the host's CPU.
    for d in h["devices"].as_array().unwrap() {
        assert!(d["figures"].get("host_cpu_busy_pct").is_none(), "{d}");
    }
}

#[test]
fn sar_u_cpu_reaches_the_host_answer_through_the_fallback_totals() {
    // iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt lists only device-mapper devices, so
    // the host total is their sum; the CPU still comes from `sar -u`: 16:08:55 `all` %iowait
    // 0.15, %idle 88.99 → 10.86 % busy, the most of the six intervals, at the IOPS peak (the
    // interval closest to the sized p95 IOPS, whose CPU the rule tests). 10.86 is not > 70.
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt");
    if !p.is_file() {
        crate::common::corpus_absent(&p);
        return;
    }
    let doc = run_json(&p);
    let h = &doc["hosts"][0];
    let s = &h["statistics"]["host_cpu_busy_pct"];
    assert_eq!(s["n"], 6);
    assert!((s["max"].as_f64().unwrap() - 10.86).abs() < 1e-9, "{s}");
    assert!((h["demand"]["host_cpu_busy_pct"].as_f64().unwrap() - 10.86).abs() < 1e-9);
    assert!(!fired(h).contains(&"host-cpu-bounds-workload".to_string()));
}

#[test]
fn esxtop_physical_cpu_total_beside_the_io_and_the_rule() {
    // fixtures/esxtop/esxtop-host-cpu-total.csv (README there), samples 20 s apart after the
    // dropped no-delta row. `Physical Cpu(_Total)\% Util Time`: 35.00, 48.00, 82.50, 60.00.
    // Equal 20 s weights: average (35 + 48 + 82.5 + 60) / 4 = 225.5 / 4 = 56.375; max 82.50 at
    // 10:01:00; p95 = 60 + 0.85 × (82.5 − 60) = 79.125 (rank 0.95 × 3 = 2.85 of 35, 48, 60,
    // 82.5). Front-end IOPS (Virtual Disk db02 reads + writes): 1,000, 1,500, 3,000, 2,000;
    // p95 = 2,000 + 0.85 × 1,000 = 2,850, closest sample 3,000 at 10:01:00, whose CPU (82.50)
    // the rule tests: 82.50 > 70, `host-cpu-bounds-workload` fires.
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/esxtop/esxtop-host-cpu-total.csv");
    let doc = run_json(&p);
    let v = &doc["virtual"][0];
    let c = &v["host_cpu"];
    assert_eq!(c["basis"], "Physical Cpu(_Total)\\% Util Time");
    assert_eq!(c["hosts"][0], "esx03.example.com");
    assert_eq!(
        c["other_counters"],
        serde_json::json!([
            "Physical Cpu(_Total)\\% Core Util Time",
            "Physical Cpu(_Total)\\% Processor Time"
        ])
    );
    assert!(c["unknown_reason"].is_null());
    let s = &c["statistics"];
    assert_eq!((s["n"].as_u64(), s["unit"].as_str()), (Some(4), Some("%")));
    assert!((s["avg"].as_f64().unwrap() - 56.375).abs() < 1e-9, "{s}");
    assert!((s["p95"].as_f64().unwrap() - 79.125).abs() < 1e-9, "{s}");
    assert_eq!(s["max"], 82.5);
    assert_eq!(s["peak_end"], "2024-11-20T10:01:00");
    // Per sample, CPU beside the front end's IO. MB/s: (4.69 + 3.13) MiB/s × 1.048576 =
    // 8.1998 MB/s at 10:00:20.
    let iv = c["intervals"].as_array().unwrap();
    let col = |k: &str| -> Vec<f64> { iv.iter().map(|i| i[k].as_f64().unwrap()).collect() };
    assert_eq!(col("host_cpu_busy_pct"), [35.0, 48.0, 82.5, 60.0]);
    assert_eq!(col("front_end_iops"), [1000.0, 1500.0, 3000.0, 2000.0]);
    assert!((col("front_end_mb_s")[0] - 7.82 * 1.048_576).abs() < 1e-9);
    assert_eq!(iv[2]["end"], "2024-11-20T10:01:00");
    // The sized sample's CPU, and the rule quoting it.
    assert_eq!(v["demand"]["host_cpu_busy_pct"], 82.5);
    let rule = v["recommendation"]["fired_rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "host-cpu-bounds-workload")
        .expect("fired");
    assert!(
        rule["message"]
            .as_str()
            .unwrap()
            .starts_with("host CPU 82.50 % busy > 70 %"),
        "{rule}"
    );
    // The CPU is not a storage entity.
    assert!(v["entities"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["entity_type"] != "Physical Cpu"));
    // The Markdown shows it beside the IO, and per sample.
    let md = crate::common::stdout(&crate::common::sizer(&["analyze", p.to_str().unwrap()]));
    assert!(
        md.contains("| host CPU busy, % |   56.38 | 79.12 | 81.82 | 82.50 | 2024-11-20 10:01:00 |"),
        "{md}"
    );
    assert!(md.contains("82.50 % busy: the host CPU, not storage, bounds the workload (rule `host-cpu-bounds-workload`)"), "{md}");
    assert!(
        md.contains("| 2024-11-20 10:01:00 |       3,000.00 |          24.58 |            82.50 |"),
        "{md}"
    );
}

#[test]
fn esxtop_below_seventy_does_not_fire() {
    // fixtures/esxtop/esxtop-default-small.csv: `Physical Cpu(_Total)\% Util Time` 36.00,
    // 37.00, 38.00; front-end IOPS 1,000, 1,600, 1,000, p95 1,540 → closest sample 1,600 at
    // 09:00:10, whose CPU is 37.00: not > 70, the rule does not fire.
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/esxtop/esxtop-default-small.csv");
    let doc = run_json(&p);
    let v = &doc["virtual"][0];
    assert_eq!(v["demand"]["host_cpu_busy_pct"], 37.0);
    assert!(!fired(v).contains(&"host-cpu-bounds-workload".to_string()));
    let nf = v["recommendation"]["not_fired"].as_array().unwrap();
    assert!(nf.iter().any(|r| r["id"] == "host-cpu-bounds-workload"));
    assert!((v["host_cpu"]["statistics"]["avg"].as_f64().unwrap() - 37.0).abs() < 1e-9);
}

#[test]
fn esxtop_corpus_without_cpu_columns_is_unknown_not_zero() {
    // DERIVED_esxtopd_disk-columns-only.csv was cut to its disk columns: no host CPU. The
    // figure is unknown with its reason, never 0, and the rule is not evaluated.
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/vsan/DERIVED_esxtopd_disk-columns-only.csv");
    if !p.is_file() {
        crate::common::corpus_absent(&p);
        return;
    }
    let doc = run_json(&p);
    let v = &doc["virtual"][0];
    let c = &v["host_cpu"];
    assert!(c["statistics"].is_null() && c["basis"].is_null());
    assert_eq!(c["intervals"], serde_json::json!([]));
    assert_eq!(
        c["unknown_reason"],
        "no `Physical Cpu(_Total)\\% Util Time` column in the esxtop file"
    );
    assert!(v["demand"]["host_cpu_busy_pct"].is_null());
    let ne = v["recommendation"]["not_evaluated"].as_array().unwrap();
    assert!(ne.iter().any(|r| r["id"] == "host-cpu-bounds-workload"));
    let md = crate::common::stdout(&crate::common::sizer(&["analyze", p.to_str().unwrap()]));
    assert!(md.contains(
        "**Host CPU**: unknown (no `Physical Cpu(_Total)\\% Util Time` column in the esxtop file)."
    ), "{md}");
}
