//! Collector captures (AWR Miner, DBCSI) through the whole engine: every corpus file of
//! `../shared/corpus/collectors` (skipped when absent) is one database whose series statistics
//! match `EXPECTED.jsonl` (read independently of sizer: per snapshot `read_iops + write_iops`
//! summed over the instances, its max and its p95 with linear interpolation), and the hand-made
//! fixtures of `fixtures/collectors/` check redo writes and the errors of bad captures.

use crate::common::*;

fn database(path: &std::path::Path) -> serde_json::Value {
    json_of(path).1
}

#[test]
fn every_capture_is_one_database_sized_on_its_expected_series() {
    let Some(exp) = corpus_file("collectors", "EXPECTED.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(exp).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let e: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = e["file"].as_str().unwrap();
        let db = database(&corpus_file("collectors", file).unwrap());
        let ivs = db["intervals"].as_array().unwrap();
        assert_eq!(ivs.len() as u64, e["snaps"].as_u64().unwrap(), "{file}");
        assert_eq!(
            db["instances"].as_array().unwrap().len() as u64,
            e["instances"].as_u64().unwrap(),
            "{file}"
        );
        // No interval is left out: a snapshot without some instance is not a missing report.
        assert!(ivs.iter().all(|i| i["excluded"] == false), "{file}");
        let m = &db["statistics"]["measured_iops"];
        assert_eq!(m["n"].as_u64(), e["snaps"].as_u64(), "{file}");
        let max = m["max"].as_f64().unwrap();
        let p95 = m["p95"].as_f64().unwrap();
        assert!(
            (max - e["max_iops"].as_f64().unwrap()).abs() < 1e-6,
            "{file}: max {max}"
        );
        assert!(
            (p95 - e["p95_iops"].as_f64().unwrap()).abs() < 0.006,
            "{file}: p95 {p95}"
        );
        // No IOSTAT-BY-FUNCTION in these files: sized on measured IOPS, at its p95.
        assert_eq!(db["sizing_basis"], "measured_iops", "{file}");
        assert!(
            (db["demand"]["required_iops"].as_f64().unwrap() - p95).abs() < 1e-6,
            "{file}"
        );
    }
}

#[test]
fn six_node_rac_is_one_database_with_its_id_from_the_file_name() {
    let Some(p) = corpus_file("collectors", "awrminer-USPS-389926331-6node-rac.out.gz") else {
        return;
    };
    let db = database(&p);
    // AWR Miner 2.9.6 prints no DBID: the first all-digit token of the file name.
    assert_eq!(db["key"], "USPS (DB Id 389926331)");
    let ivs = db["intervals"].as_array().unwrap();
    // Snap 776 (awk): 14.4+1.7 + 18.6+6.3 + 16.5+14.6 + 13.4+1.2 + 13.2+1.1 + 13.4+1.5 = 115.9.
    let s776 = ivs
        .iter()
        .find(|i| i["interval"]["end_snap"] == 776)
        .unwrap();
    assert_eq!(s776["scope"], "rac_sum");
    assert_eq!(s776["instances"].as_array().unwrap().len(), 6);
    assert!((s776["workload"]["measured_iops"]["value"].as_f64().unwrap() - 115.9).abs() < 1e-9);
    // Snap 974, the peak: instances 1, 3, 4 only (4.1+12.3 + 7272.3+2240.2 + 6+57014.3 =
    // 66549.2), flagged but counted.
    let s974 = ivs
        .iter()
        .find(|i| i["interval"]["end_snap"] == 974)
        .unwrap();
    assert!((s974["workload"]["measured_iops"]["value"].as_f64().unwrap() - 66549.2).abs() < 1e-9);
    let flag = s974["flags"][0].as_str().unwrap();
    assert!(
        flag.contains("inst 2, inst 5, inst 6 not in the capture"),
        "{flag}"
    );
    assert_eq!(s974["excluded"], false);
}

#[test]
fn redo_writes_make_required_iops() {
    let db = database(&root().join("fixtures/collectors/awrminer-lgwr-single.out"));
    assert_eq!(db["key"], "SIZDEMO (DB Id 3141592653)");
    let ivs = db["intervals"].as_array().unwrap();
    // Snap 101: 250.5 + 100.5 + LGWR (36000 + 3600) / 3600 s = 351 + 11 = 362.
    let w = &ivs[0]["workload"];
    assert!((w["required_iops"]["value"].as_f64().unwrap() - 362.0).abs() < 1e-9);
    // Snap 102: 500 + 200 + 54000 / 3600 = 715; its read_mb_s is blank, so MB/s is unknown.
    let w = &ivs[1]["workload"];
    assert!((w["required_iops"]["value"].as_f64().unwrap() - 715.0).abs() < 1e-9);
    assert!(w["total_mb_s"]["value"].is_null(), "{}", w["total_mb_s"]);
    assert_eq!(db["sizing_basis"], "required_iops");
}

#[test]
fn bad_captures_fail_naming_file_and_section() {
    for (f, want) in [
        (
            "fixtures/collectors/awrminer-truncated.out",
            "~~END-MAIN-METRICS~~",
        ),
        (
            "fixtures/collectors/awrminer-no-dashes.out",
            "section 'MAIN-METRICS'",
        ),
    ] {
        let o = sizer(&["analyze", f]);
        assert_exit(&o, 1);
        let err = stderr(&o);
        assert!(err.contains(f) && err.contains(want), "{err}");
    }
}

#[test]
fn size_on_disk_is_the_capacity_unless_one_is_given() {
    let Some(p) = corpus_file(
        "collectors",
        "awrminer-TWUAT-2235791934-2node-3.x-decimal-comma.out",
    ) else {
        return;
    };
    let db = database(&p);
    // SIZE-ON-DISK, last row (line 1535): `748     931,93` (GiB: the script divides by 1024^3).
    let used = &db["capacity"]["used"];
    assert_eq!(used["gib"].as_f64(), Some(931.93), "{used}");
    let src = used["source"].as_str().unwrap();
    assert!(
        src.starts_with("SIZE-ON-DISK of ") && src.ends_with("snapshot 748"),
        "{src}"
    );
    // --capacity wins.
    let rules = sizer::rules::RuleSet::builtin().unwrap();
    let settings = sizer::settings::Settings {
        capacity_gib: Some(2048.0),
        ..Default::default()
    };
    let run = sizer::pipeline::run(&[p.as_path()], &rules, &settings).unwrap();
    let c = run.databases[0].capacity.used.as_ref().unwrap();
    assert_eq!((c.gib, c.source.as_str()), (2048.0, "--capacity"));
}

#[test]
fn peaks_inside_snapshots_are_shown_and_can_be_sized_on() {
    let Some(p) = corpus_file("collectors", "awrminer-USPS-389926331-6node-rac.out.gz") else {
        return;
    };
    let db = database(&p);
    let ivs = db["intervals"].as_array().unwrap();
    let peak = |snap: u64| {
        ivs.iter()
            .find(|i| i["interval"]["end_snap"] == snap)
            .unwrap()["peak_iops_in_interval"]
            .as_f64()
            .unwrap()
    };
    // awk, read_iops_max + write_iops_max of snap 776: 660.8+19.1 + 639.7+211.1 + 616.2+266 +
    // 611.7+6.5 + 647.2+5.7 + 658.5+6.8 = 4349.3 (its averages sum to 115.9).
    assert!((peak(776) - 4349.3).abs() < 1e-6);
    // The highest, snap 795: 33119.9+126.3 + 47764.8+26827.1 + 7869.8+14099.7 + 84876.6+146.1
    // + 54370.8+134.1 + 39731.3+141.3 = 309207.8.
    assert!((peak(795) - 309207.8).abs() < 1e-6);
    let s = &db["statistics"]["peak_iops_in_interval"];
    assert_eq!(s["n"], 210);
    assert!((s["max"].as_f64().unwrap() - 309207.8).abs() < 1e-6);
    // Sized on them with --size-on max-in-interval.
    let rules = sizer::rules::RuleSet::builtin().unwrap();
    let settings = sizer::settings::Settings {
        size_on: sizer::settings::SizeOn::MaxInInterval,
        ..Default::default()
    };
    let run = sizer::pipeline::run(&[p.as_path()], &rules, &settings).unwrap();
    let d = &run.databases[0];
    assert_eq!(d.sizing_basis, "peak_iops_in_interval");
    assert!((d.demand.required_iops.unwrap() - 309207.8).abs() < 1e-6);
    // AWR reports have no peaks: the busiest interval, with a warning.
    let o = sizer(&[
        "analyze",
        "--size-on",
        "max-in-interval",
        "fixtures/awr/awrrpt_19c_small.html",
    ]);
    assert_exit(&o, 0);
    assert!(stdout(&o).contains("no_peak_in_interval"), "{}", stdout(&o));
}

#[test]
fn dma_archive_is_sized_on_its_hour_of_day_profile() {
    let Some(p) = corpus_file("collectors", "dma-3.0.8-19c-2node-rac-29days.zip") else {
        return;
    };
    // EXPECTED.jsonl has no line for the DMA archive: the figures are hand-checked with
    //   unzip -p dma-….zip 'opdb__awrhistsysmetricsumm__*' | awk -F'|' \
    //     '$5=="Physical Read Total IO Requests Per Sec"||$5=="Physical Write Total IO Requests Per Sec" \
    //      {s[$4]+=$7} END{for(h in s) print h, s[h]}'
    // (column 7 = AVG_VALUE, summed over both instances per hour HO). Hour 00: instance 1
    // 224 + 53 = 277, instance 2 119, sum 396 = the max. Sorted, the 24 hourly sums end
    // … 327, 372, 380, 396; p95 by linear interpolation: rank 0.95 × 23 = 21.85 (0-based),
    // 372 + 0.85 × (380 − 372) = 378.8.
    let db = database(&p);
    assert_eq!(db["key"], "OUSPRD (DB Id 203789423)");
    assert_eq!(db["instances"].as_array().unwrap().len(), 2);
    let ivs = db["intervals"].as_array().unwrap();
    assert_eq!(ivs.len(), 24);
    assert!(ivs.iter().all(|i| i["scope"] == "rac_sum"));
    let h0 = &ivs[0];
    assert!((h0["workload"]["measured_iops"]["value"].as_f64().unwrap() - 396.0).abs() < 1e-9);
    let m = &db["statistics"]["measured_iops"];
    assert_eq!(m["n"].as_u64(), Some(24));
    assert!((m["max"].as_f64().unwrap() - 396.0).abs() < 1e-9);
    assert!((m["p95"].as_f64().unwrap() - 378.8).abs() < 1e-9);
    // Redo Writes Per Sec is in the extract: required = measured + redo writes.
    assert_eq!(db["sizing_basis"], "required_iops");
    let text = serde_json::to_string(&db).unwrap();
    assert!(
        text.contains("hour-of-day profile"),
        "the coarser-basis caveat"
    );
    assert!(
        text.contains("AVERAGE + 2 × STANDARD_DEVIATION"),
        "the inflation caveat"
    );
}

#[test]
fn dma_archive_without_the_metric_extracts_fails_naming_file_and_extract() {
    let f = "fixtures/collectors/dma-no-metrics.zip";
    let o = sizer(&["analyze", f]);
    assert_exit(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(f)
            && err.contains("opdb__awrhistsysmetricsumm__")
            && err.contains("only dbsummary"),
        "{err}"
    );
}

/// AWR Miner 5.0.1's documentation sample, zipped as Oracle ships it
/// (`awr-hist-1288227953-ORCL-14815-14820.out` inside): read from the zip as the capture itself.
/// MAIN-METRICS (unzip -p + awk) reads 19.4 + 7.6 = 27.0, 5.4 + 3.8 = 9.2, 1.7 + 1.5 = 3.2,
/// 1.1 + 1.4 = 2.5 and 1.2 + 1.4 = 2.6 IOPS: max 27.0, p95 9.2 + 0.8 × (27.0 − 9.2) = 23.44.
#[test]
fn a_zipped_capture_reads_as_the_capture() {
    let Some(f) = corpus_file("collectors", "awrminer-5.0.1-doc-sample-output.zip") else {
        return;
    };
    let db = database(&f);
    assert_eq!(db["database"]["db_id"], 1288227953u64);
    let s = &db["statistics"]["measured_iops"];
    assert_eq!(s["n"], 5);
    assert!((s["max"].as_f64().unwrap() - 27.0).abs() < 1e-9, "{s}");
    assert!((s["p95"].as_f64().unwrap() - 23.44).abs() < 1e-9, "{s}");
}
