//! On-premises answers on real reports (issue 13, item 2): drive counts that carry IOPS, MB/s
//! and capacity, and flash kept where today's latency is flash-class.

use crate::common::{root, sizer, stdout};
use serde_json::Value;

fn onprem(file: &str) -> Option<Value> {
    let p = root().join(file);
    if !p.is_file() {
        crate::common::corpus_absent(&p);
        return None;
    }
    let o = sizer(&["analyze", "--format", "json", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let rec = &v["databases"][0]["recommendation"];
    let p = rec["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["platform"] == "onprem")
        .expect("onprem platform")
        .clone();
    Some(p)
}

fn option<'a>(p: &'a Value, tier: &str) -> &'a Value {
    std::iter::once(&p["recommended"])
        .chain(p["alternatives"].as_array().unwrap().iter())
        .find(|o| o["tier_id"] == tier)
        .unwrap_or_else(|| panic!("no option {tier}"))
}

/// DBV (Exadata, RAC global report): single-block reads 0.51 ms (A+), log writes 0.37 ms (A-).
/// Before issue 13 it got 4 × 300 GB 15K HDD in RAID 10 (fewest drives, then least raw GiB);
/// the 15K's 6 ms class grades random reads B and 1 KiB log writes D. Now the latency rule
/// avoids every tier that grades worse, so a flash tier wins.
#[test]
fn dbv_exadata_flash_workload_gets_flash_on_premises() {
    let Some(p) = onprem("../shared/corpus/awr/azure-lab1-dbv-19c-exadata-rac-global.html") else {
        return;
    };
    let rec = &p["recommended"];
    assert_eq!(rec["media"], "ssd", "{rec}");
    // Of the flash tiers that keep every grade, 4 × 960 GB SATA SSD in RAID 10 has the fewest
    // drives and the least raw capacity: 4 × 960e9 / 2^30 = 3,576.28 GiB.
    assert_eq!(rec["tier_id"], "onprem.sata-ssd.raid10");
    assert_eq!(rec["count"], 4);
    assert!((rec["total_gib"].as_f64().unwrap() - 3576.28).abs() < 0.01);
    assert!(rec["latency_check"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["worse"] == false));
    // MB/s: read 18.71 × 1.3 = 24.32 MB/s, write 1.09 × 1.3 = 1.42 MB/s × 2 (RAID 10) = 2.83;
    // 24.32 / 560 + 2.83 / 530 = 0.0434 + 0.0053 = 0.049 → 1 drive; IOPS: (70.59 + 204.76 × 2)
    // / 94,000 → 1 drive; the RAID 10 minimum of 4 sets the count.
    assert_eq!(rec["drives_for_mb_s"], 1);
    assert_eq!(rec["drives_for_iops"], 1);
    assert_eq!(rec["drives_set_by"], "RAID minimum");
    let be = rec["backend_mb_s"].as_f64().unwrap();
    assert!((be - (24.32 + 2.83)).abs() < 0.02, "{be}");
    // The 15K option lost to the latency rule, named by id.
    let hdd = option(&p, "onprem.hdd15k.raid10");
    let why = hdd["lost_because"].as_str().unwrap();
    assert!(why.contains("keep-measured-latency-on-premises"), "{why}");
    assert!(hdd["latency_check"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["test"] == "log_write_small" && g["grade"] == "D" && g["worse"] == true));
}

/// xydb (590.81 MB/s of reads, 15.68 MB/s of writes): the 7,200 rpm HDD in RAID 10 needs
/// its MB/s count, not its IOPS count: read 590.81 × 1.3 = 768.05, write 15.68 × 1.3 × 2 =
/// 40.77; (768.05 + 40.77) / 285 MB/s per drive = 2.84 → 3 drives for MB/s.
#[test]
fn xydb_drive_counts_carry_mb_s() {
    let Some(p) = onprem("../shared/corpus/awr/pcambell-xydb-11.2.0.4-single.html") else {
        return;
    };
    let o = option(&p, "onprem.hdd7k.raid10");
    assert_eq!(o["drives_for_mb_s"], 3, "{o}");
    let be = o["backend_mb_s"].as_f64().unwrap();
    assert!((be - (768.05 + 40.77)).abs() < 0.05, "{be}");
    // Every built-in drive class has a sourced sequential rate (no 10K class is built in for
    // want of one): no option is infeasible for an unsourced rate.
    let all: Vec<&Value> = std::iter::once(&p["recommended"])
        .chain(p["alternatives"].as_array().unwrap().iter())
        .collect();
    assert!(all.iter().all(|o| !o["infeasible_reason"]
        .as_str()
        .unwrap_or("")
        .contains("not in the catalogue's sources")));
    assert!(all
        .iter()
        .all(|o| !o["tier_id"].as_str().unwrap().contains("hdd10k")));
}

/// xydb1 (11.2.0.4 RAC instance, reads at 41 ms, average read 772 KiB): the spinning-drive
/// preference fires (max_units 24). Its note on a tier that cannot carry the load must name
/// the limit that applied, never "needs 4 drives > max_units 24" (4 is not > 24).
#[test]
fn xydb1_rule_notes_name_the_limit_that_applied() {
    let Some(p) = onprem("../shared/corpus/awr/pcambell-xydb1-11.2.0.4-rac-instance.html") else {
        return;
    };
    let mut seen = 0;
    for o in std::iter::once(&p["recommended"]).chain(p["alternatives"].as_array().unwrap()) {
        for n in o["notes"].as_array().unwrap() {
            let n = n.as_str().unwrap();
            if !n.contains("not applied") {
                continue;
            }
            seen += 1;
            if o["feasible"] == true {
                // "needs N drives, more than its max_units 24": N > 24.
                let count: u32 = n
                    .split("needs ")
                    .nth(1)
                    .and_then(|t| t.split(' ').next())
                    .and_then(|t| t.parse().ok())
                    .unwrap_or_else(|| panic!("{n}"));
                assert!(count > 24, "{n}");
                assert!(n.ends_with("more than its max_units 24"), "{n}");
            } else {
                assert!(n.contains("the tier does not meet the demand ("), "{n}");
                assert!(!n.contains("max_units"), "{n}");
            }
        }
    }
    // The rule applied where it could: the 7.2K arrays (4, 10 and 16 drives, all ≤ 24) carry it.
    // (Its "not applied" notes were on the 10K tiers, infeasible for want of a sourced rate,
    // which the catalogue no longer builds in: `seen` may be 0; the wording of that note is
    // tested in src/rules/tests.rs and src/report/tests_wording.rs.)
    let _ = seen;
    for t in [
        "onprem.hdd7k.raid10",
        "onprem.hdd7k.raid5",
        "onprem.hdd7k.raid6",
    ] {
        let o = option(&p, t);
        assert!(
            o["preferred_by"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r == "large-reads-suit-hdd-arrays"),
            "{t}: {o}"
        );
    }
}
