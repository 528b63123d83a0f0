//! `--capacity-file` and `--horizon` end to end (issue 17 item 1): each database and host is
//! sized for its own row, grown to the horizon; bad rows are refused with their line and the
//! run goes on; a subject missing from the file is sized performance-only and flagged.
//! fixtures/capacity/README.md gives each row's arithmetic.

use serde_json::Value;

use crate::common::{root, sizer, stderr, stdout};

fn run(extra: &[&str]) -> (Value, String, Option<i32>) {
    let caps = root().join("fixtures/capacity/caps.csv");
    let f = |p: &str| root().join(p).to_str().unwrap().to_string();
    let mut args = vec![
        "analyze".to_string(),
        "-f".into(),
        "json".into(),
        "--capacity-file".into(),
        caps.to_str().unwrap().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(f("fixtures/awr/awrrpt_19c_small.html"));
    args.push(f("fixtures/awr/awrrpt_11203_small.html"));
    args.push(f("fixtures/iostat/x-11.6-bcache-over-nvme.txt"));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = sizer(&a);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    (v, stderr(&o), o.status.code())
}

fn db<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["databases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["key"].as_str().unwrap().starts_with(name))
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn each_subject_is_sized_for_its_own_row_grown_to_the_horizon() {
    let (v, err, code) = run(&["--horizon", "2y"]);
    // Line 4 (DB Id 3141592653 = SIZDEMO): 2 TiB = 2,048 GiB × 1.1³ (its own 3y horizon wins
    // over --horizon 2y) = 2,725.888 GiB.
    let c = &db(&v, "SIZDEMO")["capacity"]["used"];
    assert!((c["gib"].as_f64().unwrap() - 2725.888).abs() < 1e-9, "{c}");
    assert_eq!(c["horizon_years"], 3.0);
    assert!(c["source"]
        .as_str()
        .unwrap()
        .ends_with("caps.csv line 4, key 3141592653"));
    // The sizing used it: the demand's capacity and the recommendation's.
    let d = db(&v, "SIZDEMO");
    assert!((d["demand"]["capacity_gib"].as_f64().unwrap() - 2725.888).abs() < 1e-9);
    assert_eq!(d["recommendation"]["capacity_given"], true);
    // Line 5 (SIZOLD@db02.example.com): 500 GB = 500 × 10^9 / 2^30 = 465.66 GiB, no growth.
    let c = &db(&v, "SIZOLD")["capacity"]["used"];
    assert!((c["gib"].as_f64().unwrap() - 465.661_287_307_739_26).abs() < 1e-9);
    assert_eq!(c["growth_pct_per_year"], Value::Null);
    // Line 6 (host cache01.example.com): 1.5 TiB = 1,536 GiB × 1.2² (--horizon 2y) = 2,211.84.
    let h = &v["hosts"][0];
    assert!((h["capacity"]["used"]["gib"].as_f64().unwrap() - 2211.84).abs() < 1e-9);
    // Line 7 matches nothing, line 8 has an unknown unit: both reported, the run went on
    // (exit 1, as for an input that failed).
    let rows = v["capacity_rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0]["line"], 7);
    assert!(rows[0]["reason"]
        .as_str()
        .unwrap()
        .contains("\"NOSUCHDB\" matches no database"));
    assert_eq!(rows[1]["line"], 8);
    assert!(rows[1]["reason"]
        .as_str()
        .unwrap()
        .contains("unknown unit \"furlongs\""));
    assert!(err.contains("caps.csv line 8: size: unknown unit"), "{err}");
    assert_eq!(code, Some(1));
}

#[test]
fn without_horizon_a_growth_rate_alone_keeps_the_size() {
    let (v, _, _) = run(&[]);
    // Line 6 has growth 20 % a year but no horizon, and no --horizon: 1,536 GiB as given.
    let h = &v["hosts"][0]["capacity"]["used"];
    assert_eq!(h["gib"], 1536.0);
    assert_eq!(h["horizon_years"], Value::Null);
}

#[test]
fn a_subject_missing_from_the_file_is_performance_only_and_flagged() {
    let caps = root().join("fixtures/capacity/caps.csv");
    let r = root().join("../shared/corpus/awr/pcambell-orcl-19c-single-noncdb.html");
    if !r.is_file() {
        crate::common::corpus_absent(&r);
        return;
    }
    let o = sizer(&[
        "analyze",
        "--capacity-file",
        caps.to_str().unwrap(),
        r.to_str().unwrap(),
    ]);
    let md = stdout(&o);
    assert!(
        md.contains("Capacity: not in --capacity-file, so sized for performance only"),
        "{md}"
    );
    assert!(md.contains("capacity_not_in_file"), "{md}");
    let o = sizer(&[
        "analyze",
        "-f",
        "json",
        "--capacity-file",
        caps.to_str().unwrap(),
        r.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let d = &v["databases"][0];
    assert_eq!(d["capacity"]["missing_from_file"], true);
    assert_eq!(d["demand"]["capacity_gib"], Value::Null);
}

#[test]
fn a_capacity_file_without_key_or_size_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "name,gib\nX,100\n").unwrap();
    let r = root().join("fixtures/awr/awrrpt_19c_small.html");
    let o = sizer(&[
        "analyze",
        "--capacity-file",
        bad.to_str().unwrap(),
        r.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("line 1: expected a header naming the columns `key` and `size`"),
        "{}",
        stderr(&o)
    );
}
