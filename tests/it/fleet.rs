//! Fleet answers (issue 17 items 2, 3, 5, 6): the consolidation on time-aligned series, the
//! cross-platform table, the exit status of a batch with a database that cannot be sized, and an
//! AWR report beside an OS log of another year.
//!
//! `fixtures/fleet/` (see fixtures/README.md): SIZFLTA hourly 2024-05-06 09:00:05–13:00:05
//! (required IOPS 1,000, 3,000, 2,000, 1,000), SIZFLTB 10:00:31–14:00:31 (2,000, 1,000, 3,000,
//! 1,000), SIZFLTC one hour of 2023-05-06 (1,200). Every interval moves 30.4673214 MB/s
//! (read 22,785,474.6 + write 7,681,846.8 B/s).

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{assert_exit, root, sizer, stderr, stdout};

fn json(args: &[&str]) -> (Value, String, Option<i32>) {
    let mut a = vec!["analyze", "-f", "json"];
    a.extend(args);
    let o = sizer(&a);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    (v, stderr(&o), o.status.code())
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[track_caller]
fn close(v: &Value, want: f64) {
    assert!((f(v) - want).abs() < 1e-6, "{v} != {want}");
}

/// A fresh directory under the system temp dir.
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("sizer-fleet-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

#[test]
fn overlapping_hourly_series_are_added_per_interval_and_the_p95_of_the_sum_is_sized() {
    let (v, _, code) = json(&["--consolidate", "fixtures/fleet/"]);
    assert_eq!(code, Some(0));
    let c = &v["fleet"]["databases"]["consolidation"];
    assert_eq!(c["interval_min"], 60.0);
    // Midpoints 10:30:05 (A) and 10:30:31 (B) share the 10:00 bucket; A's 09:00 and B's 13:00
    // have no partner: aligned buckets 10:00, 11:00, 12:00.
    assert_eq!(c["aligned_intervals"], 3);
    assert_eq!(c["window_begin"], "2024-05-06T10:00:00");
    assert_eq!(c["window_end"], "2024-05-06T13:00:00");
    // Sums: 3,000 + 2,000 = 5,000; 2,000 + 1,000 = 3,000; 1,000 + 3,000 = 4,000.
    // p95 of [3,000, 4,000, 5,000]: rank 0.95 × 2 = 1.9 → 4,000 + 0.9 × 1,000 = 4,900.
    close(&c["iops_of_sum"], 4900.0);
    // Each member over the same buckets: [1,000, 2,000, 3,000] → 2,000 + 0.9 × 1,000 = 2,900.
    let m = c["members"].as_array().unwrap();
    assert_eq!(m.len(), 2);
    for x in m {
        close(&x["iops"], 2900.0);
        assert_eq!(x["outside"], 1, "{x}");
        close(&x["mb_s"], 30.467321);
    }
    close(&c["sum_of_iops"], 5800.0);
    close(&c["saving_iops"], 900.0);
    // 900 / 5,800 × 100 = 15.517241…
    close(&c["saving_pct"], 15.517241);
    // MB/s: every interval 30.4673214, so the sum is 60.9346428 in each bucket.
    close(&c["mb_s_of_sum"], 60.934643);
    assert_eq!(c["peak_begin"], "2024-05-06T10:00:00");
    // SIZFLTC is of 2023: named, never added.
    let n = &c["not_consolidated"][0];
    assert!(n["name"].as_str().unwrap().starts_with("SIZFLTC"), "{n}");
    assert_eq!(n["reason"]["kind"], "no_overlap");
    assert_eq!(n["reason"]["begin"], "2023-05-06T10:00:12");
    assert_eq!(n["reason"]["end"], "2023-05-06T11:00:12");
    // --consolidate: the shared layout is sized on 4,900 × 1.3 = 6,370 IOPS.
    close(&c["recommendation"]["sized_iops"], 6370.0);
    let shared = &v["fleet"]["databases"]["cross_platform"]["consolidated"];
    close(&shared["sized_iops"], 6370.0);
    assert!(shared["capacity_gib"].is_null());
    let cells = shared["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4);
    // No capacity: performance-only, so no cloud price is shown.
    assert!(cells[1..]
        .iter()
        .all(|c| c["kind"] == "capacity_not_given" && c.get("monthly_cost_usd").is_none()));
}

#[test]
fn the_fleet_report_opens_with_the_cross_platform_table_and_the_consolidation() {
    let o = sizer(&["analyze", "fixtures/fleet/"]);
    assert_exit(&o, 0);
    let md = stdout(&o);
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("no {s:?} in\n{md}"));
    assert!(at("## What to buy, per platform") < at("## Consolidation on time-aligned"));
    assert!(at("## Consolidation on time-aligned") < at("## Sizing figures per database"));
    assert!(
        md.contains("the p95 of the sum is **4,900.00 IOPS**"),
        "{md}"
    );
    assert!(md.contains("needs 900.00 IOPS (15.5 %) less"), "{md}");
    assert!(
        md.contains("does not overlap the aligned window in time"),
        "{md}"
    );
    // Performance-only: worded, never a dollar figure.
    let table = &md[at("## What to buy")..at("## Consolidation")];
    assert!(
        table.contains("1 × aws.io2 (capacity not given)"),
        "{table}"
    );
    assert!(!table.contains('$'), "{table}");
    assert!(table.contains("No platform is named cheapest"), "{table}");
}

#[test]
fn cross_platform_rows_are_sorted_by_sized_iops_and_totals_add_the_priced_rows_only() {
    let d = temp("caps");
    let caps = d.join("caps.csv");
    std::fs::write(
        &caps,
        "key,size,growth_pct_per_year,horizon\n1000000001,1TiB,,\n1000000003,500GiB,,\n",
    )
    .unwrap();
    let (v, err, code) = json(&[
        "--capacity-file",
        caps.to_str().unwrap(),
        "fixtures/fleet/sizfltc_5301_5302.txt",
        "fixtures/fleet/",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let x = &v["fleet"]["databases"]["cross_platform"];
    assert_eq!(
        x["platforms"],
        serde_json::json!(["onprem", "aws", "azure", "gcp"])
    );
    let rows = x["rows"].as_array().unwrap();
    // Sized IOPS: A and B 2,850 × 1.3 = 3,705 (A first: input order), C 1,200 × 1.3 = 1,560.
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "SIZFLTA (DB Id 1000000001)",
            "SIZFLTB (DB Id 1000000002)",
            "SIZFLTC (DB Id 1000000003)"
        ]
    );
    close(&rows[0]["sized_iops"], 3705.0);
    close(&rows[2]["sized_iops"], 1560.0);
    close(&rows[0]["capacity_gib"], 1024.0);
    assert!(rows[1]["capacity_gib"].is_null());
    // B has no capacity: its cloud cells say so and carry no price.
    for c in rows[1]["cells"].as_array().unwrap()[1..].iter() {
        assert_eq!(c["kind"], "capacity_not_given", "{c}");
    }
    assert_eq!(rows[0]["cells"][0]["kind"], "no_list_price");
    // Each cloud total is A's price + C's, and counts B as capacity not given.
    let mut best: Option<(String, f64)> = None;
    for (i, t) in x["totals"].as_array().unwrap().iter().enumerate() {
        if t["platform"] == "onprem" {
            assert!(t["monthly_cost_usd"].is_null());
            assert_eq!(t["not_priced"], 3);
            continue;
        }
        let a = f(&rows[0]["cells"][i]["monthly_cost_usd"]);
        let c = f(&rows[2]["cells"][i]["monthly_cost_usd"]);
        close(&t["monthly_cost_usd"], ((a + c) * 100.0).round() / 100.0);
        assert_eq!(t["priced"], 2);
        assert_eq!(t["capacity_not_given"], 1);
        let total = f(&t["monthly_cost_usd"]);
        if best.as_ref().is_none_or(|b| total < b.1) {
            best = Some((t["platform"].as_str().unwrap().to_string(), total));
        }
    }
    let (p, total) = best.unwrap();
    assert_eq!(x["cheapest"]["platform"], p.as_str());
    close(&x["cheapest"]["monthly_cost_usd"], total);
    assert_eq!(x["cheapest"]["rows"], 2);
}

/// A database of a directory batch that cannot be sized (no IO request statistic at all, as an
/// idle PDB report) is a warning and exit 0; named on the command line, or with `--strict`, it
/// is exit 1.
#[test]
fn a_database_that_cannot_be_sized_in_a_batch_is_a_warning_unless_strict() {
    let d = temp("idle");
    let src = std::fs::read_to_string(root().join("fixtures/fleet/sizfltc_5301_5302.txt")).unwrap();
    let idle: String = src
        .lines()
        .filter(|l| !(l.contains("IO requests") || l.contains("redo writes")))
        .filter(|l| !l.contains("Total Requests:"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(d.join("idle.txt"), idle).unwrap();
    std::fs::copy(
        root().join("fixtures/fleet/sizflta_5101_5102.txt"),
        d.join("a.txt"),
    )
    .unwrap();
    let dir = d.to_str().unwrap();
    let o = sizer(&["analyze", dir]);
    assert_exit(&o, 0);
    assert!(
        stderr(&o).contains("sizer: warning: could not size SIZFLTC"),
        "{}",
        stderr(&o)
    );
    let md = stdout(&o);
    assert!(md.contains("# Not sized"), "{md}");
    assert!(
        md.contains("cannot size: no interval has a known measured iops"),
        "{md}"
    );
    assert_exit(&sizer(&["analyze", "--strict", dir]), 1);
    let named = d.join("idle.txt");
    assert_exit(&sizer(&["analyze", named.to_str().unwrap()]), 1);
    let (v, _, code) = json(&[dir]);
    assert_eq!(code, Some(0));
    assert_eq!(v["not_sized"][0]["kind"], "database");
    assert_eq!(v["not_sized"][0]["subject"], "SIZFLTC (DB Id 1000000003)");
}

/// AWR of db01.example.com, 2024-03-12 10:00:05–11:00:05, beside an iostat log of the same host
/// a year earlier: not set side by side, and the answer says why.
#[test]
fn awr_beside_an_os_log_of_another_year_is_named_not_compared() {
    let d = temp("year");
    let log =
        std::fs::read_to_string(root().join("fixtures/iostat/db01-awr-window-12.3.txt")).unwrap();
    std::fs::write(
        d.join("db01-2023.txt"),
        log.replace("2024-03-12", "2023-03-12")
            .replace("03/12/2024", "03/12/2023"),
    )
    .unwrap();
    let awr = root().join("fixtures/awr/awrrpt_19c_small.html");
    let log = d.join("db01-2023.txt");
    let (v, _, _) = json(&[awr.to_str().unwrap(), log.to_str().unwrap()]);
    let h = &v["hosts"][0];
    assert_eq!(h["host"], "db01.example.com");
    assert_eq!(h["awr"].as_array().unwrap().len(), 0);
    let n = &h["awr_not_aligned"][0];
    assert_eq!(n["instance"], "sizdemo");
    assert_eq!(n["begin"], "2024-03-12T10:00:05");
    assert_eq!(n["os_begin"], "2023-03-12T10:00:05");
    assert_eq!(n["no_times"], false);
    let o = sizer(&["analyze", awr.to_str().unwrap(), log.to_str().unwrap()]);
    let md = stdout(&o);
    assert!(
        md.contains("the two windows do not overlap (different days or years)"),
        "{md}"
    );
    assert!(!md.contains("| AWR IOPS (read + write total)"), "{md}");
}

/// The done-when check of issue 17 on the corpus, with fixtures/capacity/corpus.csv: the fleet
/// report opens with the cross-platform table, every cloud total is a real sum over the 20
/// databases, the cheapest platform is named, and the consolidation says what it could add.
#[test]
fn corpus_fleet_with_its_capacity_file_has_real_totals_and_the_consolidation() {
    let dir = root().join("../shared/corpus");
    if !dir.is_dir() {
        crate::common::corpus_absent(&dir);
        return;
    }
    let caps = root().join("fixtures/capacity/corpus.csv");
    let (caps, dir) = (caps.to_str().unwrap(), dir.to_str().unwrap());
    let (v, err, _) = json(&["--capacity-file", caps, dir]);
    // Every row of the file matched a database or host.
    assert_eq!(v["capacity_rows"], serde_json::json!([]), "{err}");
    let x = &v["fleet"]["databases"]["cross_platform"];
    let rows = x["rows"].as_array().unwrap();
    // 15 AWR and Statspack databases, the 6 AWR Miner / DBCSI captures (one of them zipped;
    // sized from their SIZE-ON-DISK, not from the file) and the DMA archive (OUSPRD).
    assert_eq!(rows.len(), 22);
    assert!(rows.iter().all(|r| r["capacity_gib"].is_number()));
    // Sorted by sized IOPS: the 6-node USPS capture first, then DBU (2,748.02 × 1.3 = 3,572.43)
    // among the AWR reports.
    assert_eq!(rows[0]["subject"], "USPS (DB Id 389926331)");
    let sized: Vec<f64> = rows.iter().map(|r| f(&r["sized_iops"])).collect();
    assert!(sized.windows(2).all(|w| w[0] >= w[1]), "{sized:?}");
    let dbu = rows
        .iter()
        .find(|r| r["subject"] == "DBU (DB Id 3128649325)")
        .unwrap();
    close(&dbu["sized_iops"], 3572.43);
    // RECEIPT: 2 TiB grown 15 % a year for 3 years: 2,048 × 1.15³ = 3,114.752 GiB.
    let receipt = rows
        .iter()
        .find(|r| r["subject"] == "RECEIPT (DB Id 1431238624)")
        .unwrap();
    assert!((f(&receipt["capacity_gib"]) - 3114.752).abs() < 1e-3);
    // DBV: 800 GiB, 275 IOPS and 25.74 MB/s are inside gp3's 3,000 IOPS and 125 MiB/s
    // baseline, so one volume at $0.08 per GiB-month: 800 × 0.08 = $64.00.
    let dbv = rows
        .iter()
        .find(|r| r["subject"] == "DBV (DB Id 2903553770)")
        .unwrap();
    assert_eq!(dbv["cells"][1]["tier_id"], "aws.gp3");
    close(&dbv["cells"][1]["monthly_cost_usd"], 64.0);
    for (i, t) in x["totals"].as_array().unwrap().iter().enumerate().skip(1) {
        assert_eq!(t["priced"], 22, "{t}");
        let sum: f64 = rows
            .iter()
            .map(|r| f(&r["cells"][i]["monthly_cost_usd"]))
            .sum();
        assert!((f(&t["monthly_cost_usd"]) - sum).abs() < 0.005, "{t}");
    }
    assert!(x["cheapest"]["platform"].is_string());
    // The corpus databases come from different days and years, or from windows of days: none
    // can be added to another, and each is named with why.
    let c = &v["fleet"]["databases"]["consolidation"];
    assert!(c["iops_of_sum"].is_null());
    assert_eq!(c["not_consolidated"].as_array().unwrap().len(), 21);
    let o = sizer(&["analyze", "--capacity-file", caps, dir]);
    let md = stdout(&o);
    let first = md.find("\n## ").map(|i| &md[i + 1..]).unwrap_or("");
    assert!(first.starts_with("## What to buy, per platform"), "{md}");
    assert!(md.contains("Cheapest platform for the fleet: **"), "{md}");
    assert!(
        md.contains("No two databases share an aligned interval"),
        "{md}"
    );
}

/// With a capacity for every member, the shared layout is sized for their sum (1 TiB + 500 GiB
/// = 1,024 + 500 = 1,524 GiB) and priced; SIZFLTC, not a member, adds nothing to it.
#[test]
fn the_shared_layout_is_sized_for_the_members_capacities_added() {
    let d = temp("shared");
    let caps = d.join("caps.csv");
    std::fs::write(
        &caps,
        "key,size\n1000000001,1TiB\n1000000002,500GiB\n1000000003,10TiB\n",
    )
    .unwrap();
    let (v, err, code) = json(&[
        "--consolidate",
        "--capacity-file",
        caps.to_str().unwrap(),
        "fixtures/fleet/",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let c = &v["fleet"]["databases"]["consolidation"];
    close(&c["capacity_gib"], 1524.0);
    close(&c["recommendation"]["capacity_gib"], 1524.0);
    let shared = &v["fleet"]["databases"]["cross_platform"]["consolidated"];
    close(&shared["capacity_gib"], 1524.0);
    for cell in shared["cells"].as_array().unwrap()[1..].iter() {
        assert_eq!(cell["kind"], "priced", "{cell}");
        assert!(f(&cell["monthly_cost_usd"]) > 0.0, "{cell}");
    }
}
