//! The AWR Miner / DBCSI capture parser (`sizer_parsers::awr_miner`) on every collector file of
//! the shared corpus (`../shared/corpus/collectors`, skipped when absent) and on the hand-made
//! fixtures of `fixtures/collectors/`.
//!
//! The corpus figures are `EXPECTED.jsonl` (read independently of sizer) and values read by hand
//! with an awk script that cuts `MAIN-METRICS` at its dashes line (the arithmetic is in the
//! comments).

use crate::common::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sizer_parsers::awr::AwrReport;
use sizer_parsers::{parse_file, Format, ParseError, Parsed};

fn collector(file: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/collectors")
        .join(file);
    if p.is_file() {
        Some(p)
    } else {
        corpus_absent(&p);
        None
    }
}

fn records(p: &Path) -> Vec<AwrReport> {
    match parse_file(p) {
        Ok(Parsed::Intervals { reports }) => reports,
        Ok(Parsed::Awr(r)) => vec![*r],
        Ok(other) => panic!("{}: not interval records: {other:?}", p.display()),
        Err(e) => panic!("{}: {e}", p.display()),
    }
}

fn per_s(r: &AwrReport, n: &str) -> Option<f64> {
    r.activity(n).and_then(|s| s.per_second)
}

/// Per snapshot id: `read_iops + write_iops` summed over the instances, and the instances.
fn sums(rs: &[AwrReport]) -> BTreeMap<u64, (f64, Vec<u32>)> {
    let mut out: BTreeMap<u64, (f64, Vec<u32>)> = BTreeMap::new();
    for r in rs {
        let e = out.entry(r.snapshots.end_id).or_default();
        e.0 += per_s(r, "physical read total IO requests").unwrap()
            + per_s(r, "physical write total IO requests").unwrap();
        e.1.push(r.instances[0].number);
    }
    out
}

/// p95 with linear interpolation between the closest ranks (as EXPECTED.jsonl).
fn p95(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let x = (v.len() - 1) as f64 * 0.95;
    let lo = x.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] + (v[hi] - v[lo]) * (x - lo as f64)
}

#[test]
fn every_corpus_capture_matches_expected_max_and_p95() {
    let Some(exp) = collector("EXPECTED.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(exp).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let e: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = e["file"].as_str().unwrap();
        let p = collector(file).unwrap();
        assert_eq!(
            sizer_parsers::detect(&sizer_parsers::input::peek_text(&p, 64 * 1024).unwrap()).ok(),
            Some(Format::AwrMiner),
            "{file}"
        );
        let rs = records(&p);
        let s = sums(&rs);
        let insts: std::collections::BTreeSet<u32> =
            rs.iter().map(|r| r.instances[0].number).collect();
        assert_eq!(
            s.len() as u64,
            e["snaps"].as_u64().unwrap(),
            "{file}: snapshots"
        );
        assert_eq!(
            insts.len() as u64,
            e["instances"].as_u64().unwrap(),
            "{file}"
        );
        let v: Vec<f64> = s.values().map(|x| x.0).collect();
        let max = v.iter().cloned().fold(f64::MIN, f64::max);
        assert!(
            (max - e["max_iops"].as_f64().unwrap()).abs() < 1e-6,
            "{file}: max {max}"
        );
        let p = p95(v);
        // EXPECTED rounds to 2 decimals.
        assert!(
            (p - e["p95_iops"].as_f64().unwrap()).abs() < 0.006,
            "{file}: p95 {p}"
        );
        let mb = rs
            .iter()
            .fold(BTreeMap::<u64, f64>::new(), |mut m, r| {
                *m.entry(r.snapshots.end_id).or_default() +=
                    (per_s(r, "physical read total bytes").unwrap_or(0.0)
                        + per_s(r, "physical write total bytes").unwrap_or(0.0))
                        / 1048576.0;
                m
            })
            .into_values()
            .fold(f64::MIN, f64::max);
        assert!(
            (mb - e["max_mb_s"].as_f64().unwrap()).abs() < 1e-6,
            "{file}: MiB/s {mb}"
        );
        n += 1;
    }
    assert_eq!(n, 5, "EXPECTED.jsonl rows");
}

#[test]
fn decimal_comma_capture_reads_its_commas() {
    let Some(p) = collector("awrminer-TWUAT-2235791934-2node-3.x-decimal-comma.out") else {
        return;
    };
    let rs = records(&p);
    // MAIN-METRICS line 1545, snap 1 inst 1: read_iops `247,3`, write_iops `495,8`, dur_m 35,
    // end `13/04/23 08:59`; line 1546 inst 2: `327` + `359,8`. awk: 247.3 + 495.8 + 327 + 359.8
    // = 1429.9.
    let r = &rs[0];
    assert_eq!((r.snapshots.end_id, r.instances[0].number), (1, 1));
    close(
        per_s(r, "physical read total IO requests"),
        247.3,
        "read_iops",
    );
    close(
        per_s(r, "physical write total IO requests"),
        495.8,
        "write_iops",
    );
    assert_eq!(r.snapshots.elapsed_min, Some(35.0));
    assert_eq!(
        r.snapshots.end_time.unwrap().to_string(),
        "2013-04-23 08:59:00"
    );
    assert_eq!(
        r.snapshots.begin_time.unwrap().to_string(),
        "2013-04-23 08:24:00"
    );
    // read_mb_s `60,3` MiB/s (its read_mb_s_max is `293,9`) → bytes/s.
    close(
        per_s(r, "physical read total bytes"),
        60.3 * 1048576.0,
        "read_mb_s",
    );
    close(Some(sums(&rs)[&1].0), 1429.9, "snap 1 summed");
    assert_eq!(r.db.db_name, "TWUAT");
    assert_eq!(r.db.rac, Some(true));
    // AWR Miner 2.9 prints no DBID: the engine takes it from the file name.
    assert_eq!(r.db.db_id, 0);
    // SIZE-ON-DISK line 1535, its last row: `748     931,93`.
    let size = r.db.size_on_disk.unwrap();
    assert_eq!((size.gib, size.snap_id), (931.93, 748));
}

#[test]
fn six_node_rac_sums_its_instances() {
    let Some(p) = collector("awrminer-USPS-389926331-6node-rac.out.gz") else {
        return;
    };
    let s = sums(&records(&p));
    // awk on snap 776: 14.4+1.7 + 18.6+6.3 + 16.5+14.6 + 13.4+1.2 + 13.2+1.1 + 13.4+1.5 = 115.9,
    // instances 1 2 3 5 6 4 in file order.
    let (sum, insts) = &s[&776];
    close(Some(*sum), 115.9, "snap 776");
    assert_eq!(insts, &[1, 2, 3, 5, 6, 4]);
    // The peak (EXPECTED max_iops 66549.2), snap 974, has only instances 1, 3 and 4:
    // 4.1+12.3 + 7272.3+2240.2 + 6+57014.3 = 66549.2.
    let (sum, insts) = &s[&974];
    close(Some(*sum), 66549.2, "snap 974");
    assert_eq!(insts, &[1, 3, 4]);
    // 135 snapshots with all six instances, 75 with three.
    assert_eq!(s.values().filter(|x| x.1.len() == 6).count(), 135);
    assert_eq!(s.values().filter(|x| x.1.len() == 3).count(), 75);
}

#[test]
fn dbcsi_capture_has_its_dbid_and_says_nvl() {
    let Some(p) = collector("dbcsi-awr-sample01-12.2-single.out") else {
        return;
    };
    let rs = records(&p);
    assert_eq!(rs.len(), 3);
    assert_eq!(
        (rs[0].db.db_name.as_str(), rs[0].db.db_id),
        ("ORA12C", 595413474)
    );
    assert_eq!(rs[0].db.release, "12.2.0.1.0");
    assert!(rs[0].heading.starts_with("DBCSI"), "{}", rs[0].heading);
    assert!(
        rs[0].warnings.iter().any(|w| w.contains("nvl")),
        "{:?}",
        rs[0].warnings
    );
    // Line 136, snap 18: read_iops 8.4 + write_iops 6.8 = 15.2 (EXPECTED max_iops).
    close(
        per_s(&rs[1], "physical read total IO requests"),
        8.4,
        "read_iops",
    );
    close(
        per_s(&rs[1], "physical write total IO requests"),
        6.8,
        "write_iops",
    );
    assert_eq!(
        rs[1].snapshots.end_time.unwrap().to_string(),
        "2026-01-12 00:00:00"
    );
}

#[test]
fn redo_writes_from_iostat_by_function_and_blank_is_unknown() {
    let rs = records(&fixture("collectors/awrminer-lgwr-single.out"));
    assert_eq!(rs.len(), 2);
    // Snap 101: LGWR SM_W_REQS 36000 + LG_W_REQS 3600 over 60 min = 39600 / 3600 s = 11 /s.
    close(per_s(&rs[0], "redo writes"), 11.0, "redo writes 101");
    // Snap 102: 54000 + 0 over 3600 s = 15 /s.
    close(per_s(&rs[1], "redo writes"), 15.0, "redo writes 102");
    // `.9` MiB/s without its leading zero; `.5` redo MiB/s.
    close(
        per_s(&rs[0], "physical write total bytes"),
        0.9 * 1048576.0,
        "write_mb_s",
    );
    close(per_s(&rs[0], "redo size"), 0.5 * 1048576.0, "redo_mb_s");
    // Snap 102 prints a blank read_mb_s: unknown, not 0.
    assert!(rs[1].activity("physical read total bytes").is_none());
    assert_eq!(rs[0].db.db_id, 3141592653);
    assert_eq!(rs[0].instances[0].host.as_deref(), Some("db01.example.com"));
}

#[test]
fn bad_captures_name_their_section() {
    let e = parse_file(&fixture("collectors/awrminer-truncated.out")).unwrap_err();
    assert!(matches!(e, ParseError::Truncated { .. }), "{e}");
    let m = e.to_string();
    assert!(
        m.contains("MAIN-METRICS") && m.contains("~~END-MAIN-METRICS~~"),
        "{m}"
    );
    let e = parse_file(&fixture("collectors/awrminer-no-dashes.out")).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("section 'MAIN-METRICS'") && m.contains("dashes"),
        "{m}"
    );
}
