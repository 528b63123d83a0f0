//! Batch behaviour: directories, duplicates, time series, RAC summing, skipped files.
//!
//! Corpus-based tests skip with a message when `../shared/corpus` is absent; the RAC tests use the
//! project's own fixtures in `fixtures/awr/rac/` (see `fixtures/README.md`).

use std::path::{Path, PathBuf};

use serde_json::Value;
use sizer::pipeline;
use sizer::rules::RuleSet;
use sizer::settings::{Settings, SizeOn};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus_awr() -> Option<PathBuf> {
    let dir = root().join("../shared/corpus/awr");
    if dir.is_dir() {
        Some(dir)
    } else {
        crate::common::corpus_absent(&dir);
        None
    }
}

/// A fresh directory under the system temp dir.
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("sizer-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn run_json(paths: &[PathBuf], settings: &Settings) -> Value {
    let rules = RuleSet::builtin().unwrap();
    let (inputs, failures) = pipeline::discover(paths);
    let run = pipeline::run_inputs(inputs, failures, &rules, settings).unwrap();
    let mut buf = Vec::new();
    sizer::report::json(&run, &mut buf).unwrap();
    serde_json::from_slice(&buf).unwrap()
}

fn close(v: &Value, want: f64, tol: f64) -> bool {
    v.as_f64().is_some_and(|g| (g - want).abs() <= tol)
}

#[test]
fn two_consecutive_reports_form_a_two_point_series_with_the_right_peak() {
    let Some(dir) = corpus_awr() else { return };
    let d = temp("series");
    for f in [
        "sarthi2020-receipt-12.1.0.2-aix-snap173494-173496.html",
        "sarthi2020-receipt-12.1.0.2-aix-snap173496-173498.html",
    ] {
        std::fs::copy(dir.join(f), d.join(f)).unwrap();
    }
    let v = run_json(std::slice::from_ref(&d), &Settings::default());
    let dbs = v["databases"].as_array().unwrap();
    assert_eq!(dbs.len(), 1);
    let db = &dbs[0];
    assert_eq!(db["key"], "RECEIPT (DB Id 1431238624)");
    let ivs = db["intervals"].as_array().unwrap();
    assert_eq!(ivs.len(), 2);
    assert_eq!(ivs[0]["interval"]["begin_snap"], 173494);
    assert_eq!(ivs[1]["interval"]["begin_snap"], 173496);
    // Required IOPS per interval (EXPECTED.jsonl): 924.86 then 1,001.80; the peak is the second.
    let req = &db["statistics"]["required_iops"];
    assert!(close(&req["max"], 1001.80, 1e-6), "{req}");
    assert_eq!(req["peak_begin"], "2018-01-11T10:30:50");
    assert_eq!(req["peak_end"], "2018-01-11T11:30:05");
    // p95 with linear interpolation: 924.86 + 0.95 × (1,001.80 − 924.86) = 997.953.
    assert!(close(&req["p95"], 997.953, 1e-6), "{req}");
    // Time-weighted average: (924.86 × 60.24 + 1,001.80 × 59.25) / (60.24 + 59.25).
    let avg = (924.86 * 60.24 + 1001.80 * 59.25) / (60.24 + 59.25);
    assert!(close(&req["avg"], avg, 1e-6), "{req}");
    // The sizing uses the p95 by default, and says so.
    assert_eq!(db["size_on"], "p95");
    assert!(close(&db["demand"]["required_iops"], 997.953, 1e-6));
    // Read MB/s peaks in the first interval (89.54 vs 53.21 MB/s).
    assert_eq!(
        db["statistics"]["read_mb_s"]["peak_begin"],
        "2018-01-11T09:30:36"
    );
    // --size-on max sizes on the busiest interval.
    let v = run_json(
        std::slice::from_ref(&d),
        &Settings {
            size_on: SizeOn::Max,
            ..Settings::default()
        },
    );
    assert!(close(
        &v["databases"][0]["demand"]["required_iops"],
        1001.80,
        1e-6
    ));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn copies_under_other_names_count_once() {
    let Some(dir) = corpus_awr() else { return };
    let d = temp("dups");
    let f = "pcambell-orcl-19c-single-noncdb.html";
    std::fs::copy(dir.join(f), d.join("a.html")).unwrap();
    std::fs::copy(dir.join(f), d.join("b-copy.html")).unwrap();
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::copy(dir.join(f), d.join("sub/c.htm")).unwrap();
    let v = run_json(std::slice::from_ref(&d), &Settings::default());
    assert_eq!(v["reports"].as_array().unwrap().len(), 1);
    assert_eq!(v["duplicates"].as_array().unwrap().len(), 2);
    let db = &v["databases"][0];
    assert_eq!(db["intervals"].as_array().unwrap().len(), 1);
    assert!(close(
        &db["intervals"][0]["workload"]["measured_iops"]["value"],
        5.81,
        1e-9
    ));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_directory_with_bad_files_still_yields_the_others_and_lists_them() {
    let Some(dir) = corpus_awr() else { return };
    let d = temp("mixed");
    std::fs::copy(
        dir.join("pcambell-xydb-11.2.0.4-single.html"),
        d.join("good.html"),
    )
    .unwrap();
    std::fs::write(d.join("empty.html"), b"").unwrap();
    std::fs::write(d.join("notes.txt"), b"capacity planning notes\n").unwrap();
    let good = std::fs::read(dir.join("pcambell-orcl-19c-single-noncdb.html")).unwrap();
    std::fs::write(d.join("cut.html"), &good[..good.len() / 2]).unwrap();
    let v = run_json(std::slice::from_ref(&d), &Settings::default());
    assert_eq!(v["databases"].as_array().unwrap().len(), 1);
    assert_eq!(v["databases"][0]["database"]["db_name"], "XYDB");
    let skipped: Vec<(String, String)> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string(),
                s["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let names: Vec<&str> = skipped.iter().map(|(f, _)| f.as_str()).collect();
    // Files that are not reports are skipped...
    assert_eq!(names, vec!["notes.txt"]);
    assert!(skipped[0].1.contains("not a recognised report"));
    // ...while a broken report is a failure wherever it was found: the answer lacks it; and so
    // is a file that looks like a report and cannot be read at all (issue 14: an empty `.html`
    // was skipped, so a directory of such files exited 0).
    let failed = v["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 2);
    assert!(failed[0]["file"].as_str().unwrap().ends_with("cut.html"));
    assert!(failed[0]["error"]
        .as_str()
        .unwrap()
        .starts_with("truncated report"));
    assert!(failed[1]["file"].as_str().unwrap().ends_with("empty.html"));
    assert!(failed[1]["error"].as_str().unwrap().contains("empty"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn rac_instance_reports_are_summed_per_interval_and_partial_coverage_is_flagged() {
    let v = run_json(&[root().join("fixtures/awr/rac")], &Settings::default());
    let dbs = v["databases"].as_array().unwrap();
    assert_eq!(dbs.len(), 1);
    let db = &dbs[0];
    assert_eq!(db["instances"], serde_json::json!(["sizdemo1", "sizdemo2"]));
    let ivs = db["intervals"].as_array().unwrap();
    assert_eq!(ivs.len(), 2);
    // Snaps 4711-4712: both instances, summed (fixture comments give the hand sums).
    let a = &ivs[0];
    assert_eq!(a["scope"], "rac_sum");
    assert_eq!(a["instances"], serde_json::json!(["sizdemo1", "sizdemo2"]));
    let w = &a["workload"];
    assert!(
        close(&w["read_iops"]["value"], 3600.18, 1e-9),
        "{}",
        w["read_iops"]
    );
    assert!(close(&w["write_iops"]["value"], 900.14, 1e-9));
    assert!(close(&w["redo_writes_per_s"]["value"], 225.02, 1e-9));
    assert!(close(&w["required_iops"]["value"], 4725.34, 1e-9));
    assert!(close(&w["measured_iops"]["value"], 4500.32, 1e-9));
    // Waits-weighted log file sync. Instance 1's average is Total Wait Time / Waits, 381 s /
    // 179,820 = 2.11880 ms (± 0.5 s / 179,820 = ± 0.0028 ms, finer than the printed 2.12ms);
    // instance 2's total (281 s / 89,910: ± 0.0056 ms) is not finer than 3.12ms, which is kept:
    // (381,000 + 89,910 × 3.12) / 269,730 = 661,519.2 / 269,730 = 2.45253 → 2.453.
    assert!(close(&w["log_file_sync_ms"]["value"], 2.453, 1e-9));
    // Buffer Hit % is not additive: unknown for the sum, the recomputed ratio is known.
    assert!(w["buffer_hit_pct_printed"]["value"].is_null());
    assert!(close(&w["cache_hit_pct"]["value"], 93.50, 0.005));
    assert!(a["flags"].as_array().unwrap().is_empty());
    // Snaps 4712-4713: instance 1 only → partial coverage flagged.
    let b = &ivs[1];
    assert_eq!(b["instances"], serde_json::json!(["sizdemo1"]));
    let flag = b["flags"][0].as_str().unwrap();
    assert!(
        flag.starts_with("partial: no report of instance sizdemo2"),
        "{flag}"
    );
    let warns: Vec<&str> = db["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert!(warns.contains(&"rac_partial"), "{warns:?}");
    // The partial interval understates the database: left out because a complete one exists,
    // so every statistic is the full interval's 4,725.34 IOPS.
    assert_eq!(b["excluded"], true);
    let req = &db["statistics"]["required_iops"];
    assert_eq!(req["n"], 1);
    assert!(close(&req["max"], 4725.34, 1e-9));
    assert!(close(&req["p95"], 4725.34, 1e-9));
}

#[test]
fn the_series_is_a_polars_frame_and_the_model_exports() {
    let rules = RuleSet::builtin().unwrap();
    let d = temp("export");
    for ext in ["parquet", "csv"] {
        let p = d.join(format!("model.{ext}"));
        // The rows are streamed to the export as each report is read; the run keeps none.
        let mut x = sizer::export::ModelExport::create(&p).unwrap();
        let (inputs, failures) = pipeline::discover(&[root().join("fixtures/awr/rac")]);
        let run =
            pipeline::run_inputs_into(inputs, failures, &rules, &Settings::default(), Some(&mut x))
                .unwrap();
        assert_eq!(run.series.height(), 2);
        let req = run.series.column("required_iops").unwrap().f64().unwrap();
        assert_eq!(req.get(0), Some(4725.34));
        // Every model row of the three reports: each has 34 Instance Activity Stats, 19 Load
        // Profile, 33 IO Profile (11 rows × Read+Write, Read, Write), 11 Instance Efficiency,
        // 30 IOStat by Function (6 × 5 columns), 20 IOStat by Filetype (4 × 5), 5 Foreground
        // and 3 Background Wait Events: 155 rows; 3 × 155 = 465 (the same count as the export
        // of the build before streaming, 54dc99b).
        assert_eq!(x.rows(), 465);
        // The model, then its reports and results tables beside it.
        assert_eq!(
            x.finish(&run).unwrap(),
            vec![
                p.clone(),
                d.join(format!("model.reports.{ext}")),
                d.join(format!("model.results.{ext}"))
            ]
        );
        assert!(
            std::fs::metadata(&p).unwrap().len() > 1000,
            "{ext} too small"
        );
    }
    let csv = std::fs::read_to_string(d.join("model.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert_eq!(header, sizer::model::COLUMNS.join(","));
    assert_eq!(csv.lines().count() - 1, 465);
    // 'physical read total IO requests' Total: 8,640,432 (sizdemo1, snaps 4711-4712)
    // + 8,640,432 (sizdemo1, 4712-4713) + 4,320,216 (sizdemo2, 4711-4712) = 21,601,080.
    let reads: f64 = csv
        .lines()
        .filter(|l| l.contains(",Instance Activity Stats,physical read total IO requests,"))
        .map(|l| l.split(',').nth(14).unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(reads, 21_601_080.0);
    // The Parquet file holds the same rows.
    let f = std::fs::File::open(d.join("model.parquet")).unwrap();
    use polars::prelude::SerReader;
    let df = polars::prelude::ParquetReader::new(f).finish().unwrap();
    assert_eq!(df.height(), 465);
    assert_eq!(
        df.get_column_names()
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>(),
        sizer::model::COLUMNS
    );
    let stat = df.column("statistic").unwrap().str().unwrap();
    let total = df.column("total").unwrap().f64().unwrap();
    let parquet_reads: f64 = (0..df.height())
        .filter(|&i| stat.get(i) == Some("physical read total IO requests"))
        .filter_map(|i| total.get(i))
        .sum();
    assert_eq!(parquet_reads, 21_601_080.0);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn an_interval_spanning_an_instance_restart_is_flagged_and_left_out_of_peaks() {
    let d = temp("restart");
    let src = std::fs::read_to_string(root().join("fixtures/awr/awrrpt_19c_small.html")).unwrap();
    std::fs::write(d.join("normal.html"), &src).unwrap();
    // The same instance, next interval (snaps 4712-4713), restarted at 11:30 inside it, with
    // twice the read rate: it must not become the peak.
    let restarted = src
        .replace("Snaps: 4711-4712", "Snaps: 4712-4713")
        .replace(">4712<", ">4713<")
        .replace(">4711<", ">4712<")
        .replace("12-Mar-24 11:00:05", "12-Mar-24 12:00:05")
        .replace("12-Mar-24 10:00:05", "12-Mar-24 11:00:05")
        .replace("01-Mar-24 06:12", "12-Mar-24 11:30")
        .replace(">2,400.12<", ">4,800.24<")
        // The IO Profile total agrees with the rows (issue 14: a mismatch is an error):
        // 4,800.24 + 600.09 = 5,400.33, printed with 1 decimal.
        .replace(">           3,000.2<", ">           5,400.3<");
    assert_ne!(restarted, src);
    std::fs::write(d.join("restarted.html"), &restarted).unwrap();
    let v = run_json(std::slice::from_ref(&d), &Settings::default());
    let db = &v["databases"][0];
    let ivs = db["intervals"].as_array().unwrap();
    assert_eq!(ivs.len(), 2);
    assert_eq!(ivs[1]["excluded"], true);
    assert!(ivs[1]["flags"][0].as_str().unwrap().starts_with("restart"));
    // Statistics over the one interval that counts: the peak is the normal interval's figure.
    let req = &db["statistics"]["required_iops"];
    assert_eq!(req["n"], 1);
    assert!(close(&req["max"], 3150.22, 1e-9), "{req}");
    let ids: Vec<&str> = db["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"restart"), "{ids:?}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_long_window_gets_the_peak_factor_of_the_hourly_series_in_the_run() {
    let d = temp("factor");
    let src = std::fs::read_to_string(root().join("fixtures/awr/awrrpt_19c_small.html")).unwrap();
    // Three hourly intervals of SIZDEMO with read rates 2,400.12, 1,200.06 and 600.03 IOPS, and
    // the IO Profile totals that agree with them (+ 600.09 writes, 1 decimal: a mismatch is an
    // error since issue 14).
    for (i, (snap, begin, end, reads, total)) in [
        (4711, "10:00:05", "11:00:05", "2,400.12", "3,000.2"),
        (4712, "11:00:05", "12:00:05", "1,200.06", "1,800.2"),
        (4713, "12:00:05", "13:00:05", "600.03", "1,200.1"),
    ]
    .iter()
    .enumerate()
    {
        let t = src
            .replace("Snaps: 4711-4712", &format!("Snaps: {snap}-{}", snap + 1))
            .replace(">4712<", &format!(">{}<", snap + 1))
            .replace(">4711<", &format!(">{snap}<"))
            .replace("12-Mar-24 11:00:05", &format!("12-Mar-24 {end}"))
            .replace("12-Mar-24 10:00:05", &format!("12-Mar-24 {begin}"))
            .replace(">2,400.12<", &format!(">{reads}<"))
            .replace(">           3,000.2<", &format!(">{total:>18}<"));
        std::fs::write(d.join(format!("hour{i}.html")), t).unwrap();
    }
    // Another database with one 6-day report.
    let Some(corpus) = corpus_awr() else { return };
    std::fs::copy(
        corpus.join("azure-lab1-dbv-19c-exadata-rac-global.html"),
        d.join("week.html"),
    )
    .unwrap();
    let v = run_json(std::slice::from_ref(&d), &Settings::default());
    let dbs = v["databases"].as_array().unwrap();
    let hourly = dbs
        .iter()
        .find(|x| x["database"]["db_name"] == "SIZDEMO")
        .unwrap();
    let s = &hourly["statistics"]["required_iops"];
    let factor = s["p95"].as_f64().unwrap() / s["avg"].as_f64().unwrap();
    let week = dbs
        .iter()
        .find(|x| x["database"]["db_name"] == "DBV")
        .unwrap();
    let msg = week["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == "long_window")
        .expect("long_window warning")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.starts_with(
            "interval of 10,080.25 min (168.0 h, > 120 min: `long-window-hides-peaks`)"
        ),
        "{msg}"
    );
    // DBV has no hourly series of its own: SIZDEMO's ratio is quoted for reference only.
    assert!(
        msg.contains(&format!(
            "peak at {factor:.2}×–{factor:.2}× their average, which is not this database's ratio"
        )),
        "{msg} / {factor}"
    );
    // The hourly database itself gets no long-window warning.
    assert!(!hourly["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["id"] == "long_window"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn an_interval_spanning_shorter_ones_is_left_out_so_no_load_counts_twice() {
    let d = temp("overlap");
    let src = std::fs::read_to_string(root().join("fixtures/awr/awrrpt_19c_small.html")).unwrap();
    let hour = |snap: u64, begin: &str, end: &str| {
        src.replace("Snaps: 4711-4712", &format!("Snaps: {snap}-{}", snap + 1))
            .replace(">4712<", &format!(">{}<", snap + 1))
            .replace(">4711<", &format!(">{snap}<"))
            .replace("12-Mar-24 11:00:05", &format!("12-Mar-24 {end}"))
            .replace("12-Mar-24 10:00:05", &format!("12-Mar-24 {begin}"))
    };
    std::fs::write(d.join("h1.html"), hour(4711, "10:00:05", "11:00:05")).unwrap();
    std::fs::write(d.join("h2.html"), hour(4712, "11:00:05", "12:00:05")).unwrap();
    // A two-hour report over the same snapshots (4711-4713).
    let two = hour(4711, "10:00:05", "12:00:05")
        .replace(">4712<", ">4713<")
        .replace("Snaps: 4711-4712", "Snaps: 4711-4713");
    std::fs::write(d.join("two-hours.html"), two).unwrap();
    let v = run_json(std::slice::from_ref(&d), &Settings::default());
    let db = &v["databases"][0];
    let ivs = db["intervals"].as_array().unwrap();
    assert_eq!(ivs.len(), 3);
    let long = ivs
        .iter()
        .find(|i| i["interval"]["end_snap"] == 4713 && i["interval"]["begin_snap"] == 4711)
        .unwrap();
    assert_eq!(long["excluded"], true);
    assert!(long["flags"][0]
        .as_str()
        .unwrap()
        .starts_with("overlap: snapshots 4711–4713"));
    assert_eq!(db["statistics"]["required_iops"]["n"], 2);
    std::fs::remove_dir_all(&d).unwrap();
}

/// A text report and an HTML report of the same data give the same recommendation (issue 4): the
/// project's fixture pairs (see `fixtures/README.md`).
#[test]
fn text_and_html_reports_of_the_same_data_give_the_same_recommendation() {
    let pairs = [
        (
            "fixtures/awr/text/awrrpt_19c_small.txt",
            "fixtures/awr/awrrpt_19c_small.html",
        ),
        (
            "fixtures/awr/text/awrrpt_11203_small.txt",
            "fixtures/awr/awrrpt_11203_small.html",
        ),
        (
            "fixtures/awr/text/awrrpt_11204_small.txt",
            "fixtures/awr/text/awrrpt_11204_small.html",
        ),
        (
            "fixtures/awr/text/awrrpt_121_small.txt",
            "fixtures/awr/text/awrrpt_121_small.html",
        ),
        (
            "fixtures/awr/text/awrgrpt_19c_small.txt",
            "fixtures/awr/text/awrgrpt_19c_small.html",
        ),
    ];
    for (text, html) in pairs {
        let t = run_json(&[root().join(text)], &Settings::default());
        let h = run_json(&[root().join(html)], &Settings::default());
        assert_eq!(t["reports"][0]["source"]["format"], "awr_text", "{text}");
        assert_eq!(h["reports"][0]["source"]["format"], "awr_html", "{html}");
        let (td, hd) = (&t["databases"][0], &h["databases"][0]);
        assert_eq!(td["key"], hd["key"], "{text}");
        // Figures agree to the text report's precision (it prints rates with fewer decimals).
        for m in [
            "read_iops",
            "write_iops",
            "redo_writes_per_s",
            "measured_iops",
            "required_iops",
        ] {
            let (a, b) = (
                td["intervals"][0]["workload"][m]["value"].as_f64().unwrap(),
                hd["intervals"][0]["workload"][m]["value"].as_f64().unwrap(),
            );
            let f = &td["intervals"][0]["workload"][m];
            let dec = f["decimals"].as_i64().unwrap() as i32;
            if let Some(d) = f.get("derived") {
                // Recomputed as Total / elapsed: the HTML's rate (2 decimals) lies within the
                // text's bounds, give or take the HTML's own rounding.
                let (lo, hi) = (d["lo"].as_f64().unwrap(), d["hi"].as_f64().unwrap());
                assert!(
                    b >= lo - 0.005 - 1e-9 && b <= hi + 0.005 + 1e-9,
                    "{text}: {m} HTML {b} outside the text's [{lo}, {hi}]"
                );
                // The printed figure is kept beside it, to the text's 1 decimal.
                let p = f["as_printed"].as_f64().unwrap();
                assert!(
                    (p - b).abs() <= 0.15 + 1e-9,
                    "{text}: {m} printed {p} vs {b}"
                );
            } else {
                // Each is a rounding of the same rate; a sum of three roundings may differ by
                // 3 halves.
                assert!(
                    (a - b).abs() <= 1.5 * 10f64.powi(-dec) + 1e-9,
                    "{text}: {m} {a} vs {b}"
                );
            }
        }
        // The same tiers and counts on every platform.
        let tp = td["recommendation"]["platforms"].as_array().unwrap();
        let hp = hd["recommendation"]["platforms"].as_array().unwrap();
        assert_eq!(tp.len(), hp.len());
        for (a, b) in tp.iter().zip(hp) {
            assert_eq!(
                a["recommended"]["tier_id"], b["recommended"]["tier_id"],
                "{text}"
            );
            assert_eq!(
                a["recommended"]["count"], b["recommended"]["count"],
                "{text}"
            );
        }
    }
}

/// The `long_window` warning and the `long-window-hides-peaks` rule use one threshold (the
/// rule's, 120 min): a 90-minute report gets neither, a 150-minute report gets both.
#[test]
fn the_long_window_warning_uses_its_rules_threshold() {
    let src = std::fs::read_to_string(root().join("fixtures/awr/awrrpt_19c_small.html")).unwrap();
    for (mins, end, warned) in [("90.00", "11:30:05", false), ("150.00", "12:30:05", true)] {
        let d = temp(&format!("window-{mins}"));
        let t = src
            .replace("60.00 (mins)", &format!("{mins} (mins)"))
            .replace("12-Mar-24 11:00:05", &format!("12-Mar-24 {end}"));
        std::fs::write(d.join("r.html"), t).unwrap();
        let v = run_json(std::slice::from_ref(&d), &Settings::default());
        let db = &v["databases"][0];
        let warnings: Vec<&str> = db["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["id"].as_str().unwrap())
            .collect();
        let fired: Vec<&str> = db["recommendation"]["fired_rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            warnings.contains(&"long_window"),
            warned,
            "{mins}: {warnings:?}"
        );
        assert_eq!(
            fired.contains(&"long-window-hides-peaks"),
            warned,
            "{mins}: {fired:?}"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
