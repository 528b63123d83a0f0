//! `sizer tiers`, `--target`, `--instance`, `--capacity` and `--rules FILE` end to end, and the
//! per-target answer on every AWR and Statspack report of the shared corpus.

use std::path::PathBuf;
use std::process::Output;

use crate::common::{root, sizer, stdout};

use serde_json::Value;

const GOOD_19C: &str = "fixtures/awr/awrrpt_19c_small.html";

fn json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&stdout(o)).expect("JSON on stdout")
}

#[test]
fn tiers_lists_every_tier_with_its_sources() {
    let v = json(&sizer(&["tiers", "--format", "json"]));
    let tiers = v["tiers"].as_array().unwrap();
    let builtin = sizer::rules::RuleSet::builtin().unwrap();
    assert_eq!(tiers.len(), builtin.tiers().len());
    for t in tiers {
        let sources = t["sources"].as_array().unwrap();
        assert!(
            !sources.is_empty()
                && sources
                    .iter()
                    .all(|s| !s.as_str().unwrap().trim().is_empty()),
            "{t}"
        );
        assert!(!t["price"].as_str().unwrap().is_empty(), "{t}");
    }
    let gp2 = tiers.iter().find(|t| t["id"] == "aws.gp2").unwrap();
    assert_eq!(
        gp2["iops"],
        "3/GiB, 100–16,000; burst 3,000 (5,400,000 credits, below 1,000 GiB)"
    );
    let p = tiers
        .iter()
        .find(|t| t["id"] == "azure.premium-ssd")
        .unwrap();
    assert_eq!(p["price"], "per size: P1 $0.6 … P80 $3604.11/month");
    assert_eq!(v["catalog_as_of"], "2026-11-30");

    // Markdown, one platform.
    let o = sizer(&["tiers", "--target", "gcp"]);
    let md = stdout(&o);
    assert!(md.contains("## Google Cloud block storage"), "{md}");
    assert!(md.contains("`gcp.hyperdisk-extreme`"));
    assert!(!md.contains("`aws.gp3`"));
    assert!(md.contains("`n2-standard-32`"));
}

#[test]
fn target_instance_and_capacity_flags() {
    let v = json(&sizer(&[
        "analyze",
        "--format",
        "json",
        "--target",
        "azure,gcp",
        "--capacity",
        "2TiB",
        GOOD_19C,
    ]));
    let rec = &v["databases"][0]["recommendation"];
    let ids: Vec<&str> = rec["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["platform"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["azure", "gcp"]);
    assert_eq!(rec["capacity_gib"], 2048.0);
    for p in rec["platforms"].as_array().unwrap() {
        let r = &p["recommended"];
        assert!(r["total_gib"].as_f64().unwrap() >= 2048.0, "{r}");
    }

    // An instance of another platform caps nothing there; an unknown one is a usage error.
    let o = sizer(&["analyze", "--instance", "m5.nonesuch", GOOD_19C]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--instance m5.nonesuch: not in the catalogue") && err.contains("r5.4xlarge"),
        "{err}"
    );
    let v = json(&sizer(&[
        "analyze",
        "--format",
        "json",
        "--target",
        "aws",
        "--instance",
        "r5.4xlarge",
        GOOD_19C,
    ]));
    let p = &v["databases"][0]["recommendation"]["platforms"][0];
    assert_eq!(p["instance"], "r5.4xlarge");
}

#[test]
fn rules_file_replaces_the_catalogue() {
    let dir = std::env::temp_dir().join(format!("sizer-tiers-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("my-tiers.toml");
    // gp3 storage at $1/GiB-month instead of $0.08.
    let text =
        sizer::rules::BUILTIN_TIERS_TOML.replacen("gib_month = 0.08\n", "gib_month = 1.0\n", 1);
    assert_ne!(text, sizer::rules::BUILTIN_TIERS_TOML);
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let base = json(&sizer(&[
        "analyze", "--format", "json", "--target", "aws", GOOD_19C,
    ]));
    let mine = json(&sizer(&[
        "analyze", "--format", "json", "--target", "aws", "--rules", f, GOOD_19C,
    ]));
    let gp3 = |v: &Value| -> Value {
        let p = &v["databases"][0]["recommendation"]["platforms"][0];
        std::iter::once(&p["recommended"])
            .chain(p["alternatives"].as_array().unwrap().iter())
            .find(|o| o["tier_id"] == "aws.gp3")
            .unwrap()
            .clone()
    };
    let (a, b) = (gp3(&base), gp3(&mine));
    let gib = a["total_gib"].as_f64().unwrap();
    assert_eq!(
        b["cost_breakdown"]["storage_usd"].as_f64().unwrap(),
        (gib * 100.0).round() / 100.0
    );
    assert_eq!(mine["databases"][0]["recommendation"]["rules_origin"], f);
    // `sizer tiers --rules FILE` shows the same catalogue.
    let v = json(&sizer(&["tiers", "--format", "json", "--rules", f]));
    assert_eq!(v["rules_origin"], f);

    // A syntax error names the file, line and column.
    std::fs::write(&file, "[meta]\nas_of = \"x\"\n[[tier]\nid = \"a\"\n").unwrap();
    let o = sizer(&["tiers", "--rules", f]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("my-tiers.toml:3:"), "{err}");
    // A price in the wrong unit is refused.
    let text =
        sizer::rules::BUILTIN_TIERS_TOML.replacen("gib_month = 0.08\n", "gib_month = 1e300\n", 1);
    std::fs::write(&file, text).unwrap();
    let o = sizer(&["tiers", "--rules", f]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("implausibly large"), "{err}");

    // A file that is neither catalogue nor policy is refused with its name.
    std::fs::write(&file, "[something]\nx = 1\n").unwrap();
    let o = sizer(&["tiers", "--rules", f]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("my-tiers.toml") && err.contains("neither a tier catalogue"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn corpus_reports() -> Option<Vec<PathBuf>> {
    let dir = root().join("../shared/corpus/awr");
    if !dir.is_dir() {
        crate::common::corpus_absent(&dir);
        return None;
    }
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html" || x == "txt"))
        .collect();
    v.sort();
    Some(v)
}

/// Every corpus report: one answer per target, with a configuration, a cost (clouds) or the
/// reason there is none, an explanation, and a reason for every runner-up.
#[test]
fn every_corpus_report_gets_a_costed_explained_answer_per_target() {
    let Some(files) = corpus_reports() else {
        return;
    };
    assert!(files.len() >= 14, "{files:?}");
    for f in files {
        let o = sizer(&[
            "analyze",
            "--format",
            "json",
            "--target",
            "all",
            f.to_str().unwrap(),
        ]);
        let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        for db in v["databases"].as_array().unwrap() {
            let rec = &db["recommendation"];
            assert!(
                rec.is_object(),
                "{}: not sized: {}",
                f.display(),
                db["warnings"]
            );
            let platforms = rec["platforms"].as_array().unwrap();
            let ids: Vec<&str> = platforms
                .iter()
                .map(|p| p["platform"].as_str().unwrap())
                .collect();
            assert_eq!(ids, ["onprem", "aws", "azure", "gcp"], "{}", f.display());
            for p in platforms {
                let r = &p["recommended"];
                assert!(
                    r.is_object(),
                    "{} {}: {}",
                    f.display(),
                    p["platform"],
                    p["explanation"]
                );
                assert!(r["feasible"].as_bool().unwrap());
                assert!(r["count"].as_u64().unwrap() >= 1);
                if p["platform"] != "onprem" {
                    assert!(
                        r["monthly_cost_usd"].as_f64().is_some(),
                        "{} {}: no cost",
                        f.display(),
                        r["tier_id"]
                    );
                    assert!(r["cost_breakdown"]["storage_usd"].as_f64().is_some());
                } else {
                    assert!(r["cost_note"].as_str().is_some());
                    assert!(
                        p["explanation"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|e| e.as_str().unwrap().starts_with("Flash vs 15K")),
                        "{}: {}",
                        f.display(),
                        p["explanation"]
                    );
                }
                assert!(p["explanation"].as_array().unwrap().len() >= 2);
                for a in p["alternatives"].as_array().unwrap() {
                    assert!(
                        a["lost_because"].as_str().is_some_and(|s| !s.is_empty()),
                        "{} {}: {a}",
                        f.display(),
                        a["tier_id"]
                    );
                }
            }
            // The four Delphix tests always; `direct_path_read` and `smart_scan` only where the
            // report has the event (then measured).
            let card = rec["report_card"]["tests"].as_array().unwrap();
            let ids: Vec<&str> = card.iter().map(|t| t["test"].as_str().unwrap()).collect();
            for id in [
                "random_read",
                "sequential_read",
                "log_write_small",
                "log_write_large",
            ] {
                assert!(ids.contains(&id), "{}: {ids:?}", f.display());
            }
            for t in card {
                if matches!(t["test"].as_str(), Some("direct_path_read" | "smart_scan")) {
                    assert!(t["measured_ms"].is_number(), "{}: {t}", f.display());
                }
            }
            assert!(card.len() <= 6);
        }
    }
}

/// The per-target checks of one recommendation object (a database's, a host's or a virtual
/// cluster's): four targets, a configuration, a cost or its reason, an explanation, and a reason
/// for every runner-up.
fn check_targets(what: &str, rec: &Value) {
    let platforms = rec["platforms"].as_array().unwrap();
    let ids: Vec<&str> = platforms
        .iter()
        .map(|p| p["platform"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["onprem", "aws", "azure", "gcp"], "{what}");
    for p in platforms {
        let r = &p["recommended"];
        assert!(
            r.is_object(),
            "{what} {}: {}",
            p["platform"],
            p["explanation"]
        );
        assert!(r["count"].as_u64().unwrap() >= 1, "{what}");
        if p["platform"] == "onprem" {
            assert!(r["cost_note"].as_str().is_some(), "{what}");
        } else {
            assert!(
                r["monthly_cost_usd"].as_f64().is_some(),
                "{what} {}: no cost",
                r["tier_id"]
            );
        }
        assert!(!p["explanation"].as_array().unwrap().is_empty(), "{what}");
        for a in p["alternatives"].as_array().unwrap() {
            assert!(
                a["lost_because"].as_str().is_some_and(|s| !s.is_empty()),
                "{what} {}",
                a["tier_id"]
            );
        }
    }
    assert_eq!(
        rec["report_card"]["tests"].as_array().unwrap().len(),
        4,
        "{what}"
    );
}

/// OS disk logs and vSAN/ESXi exports of the corpus: every host or cluster that can be sized
/// gets the same per-target answer; the ones that cannot say why.
#[test]
fn every_corpus_host_and_cluster_gets_an_answer_per_target() {
    let base = root().join("../shared/corpus");
    if !base.join("iostat").is_dir() {
        crate::common::corpus_absent(&base);
        return;
    }
    let mut sized = 0;
    for dir in ["iostat", "vsan"] {
        let o = sizer(&[
            "analyze",
            "--format",
            "json",
            "--target",
            "all",
            base.join(dir).to_str().unwrap(),
        ]);
        let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        for (kind, key) in [("hosts", "host"), ("virtual", "name")] {
            for h in v[kind].as_array().unwrap() {
                let what = format!("{dir} {kind} {}", h[key]);
                let rec = &h["recommendation"];
                if rec.is_null() {
                    assert!(
                        h["warnings"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|w| w["id"] == "cannot_size"),
                        "{what}: neither sized nor explained"
                    );
                    continue;
                }
                check_targets(&what, rec);
                sized += 1;
            }
        }
    }
    assert!(sized >= 10, "only {sized} hosts/clusters sized");
}

/// The IO report card grades the p95 range the AWR Wait Event Histogram gives, and the log-write
/// scale follows the average redo write.
#[test]
fn report_card_grades_histogram_p95_ranges_on_corpus_reports() {
    let Some(files) = corpus_reports() else {
        return;
    };
    let card = |name: &str| -> Vec<Value> {
        let f = files
            .iter()
            .find(|f| f.file_name().unwrap() == name)
            .expect("corpus file");
        let v = json(&sizer(&[
            "analyze",
            "--format",
            "json",
            f.to_str().unwrap(),
        ]));
        v["databases"][0]["recommendation"]["report_card"]["tests"]
            .as_array()
            .unwrap()
            .clone()
    };
    // 11.2.0.4: 'log file parallel write' 58.8 % < 1 ms … 91.7 % < 4 ms, 99.4 % < 8 ms → p95
    // in [4, 8) ms; average redo write 198.8 KiB → the 128 KiB scale: A- (< 6) to B (< 8).
    // The average (168 s / 92,374 waits = 1.82 ms) alone would have said A+.
    let t = card("pcambell-xydb-11.2.0.4-single.html");
    let large = t.iter().find(|g| g["test"] == "log_write_large").unwrap();
    assert_eq!(large["p95_range_ms"], serde_json::json!([4.0, 8.0]));
    assert_eq!(large["grade"], "A- to B");
    assert!((large["measured_ms"].as_f64().unwrap() - 1.82).abs() < 0.005);
    let small = t.iter().find(|g| g["test"] == "log_write_small").unwrap();
    assert!(small["grade"].is_null());
    assert!(small["basis"]
        .as_str()
        .unwrap()
        .starts_with("not this scale: the average log write is 198.8 KiB"));
    // 19c: 'db file sequential read' 32.6 % < 1 ms, 97.7 % < 2 ms → p95 in [1, 2) → A+;
    // 'log file parallel write' 94.9 % < 8 ms → p95 in [8, 16), redo writes of 7.4 KiB →
    // the 1 KiB scale: D (≥ 3 ms).
    let t = card("pcambell-orcl-19c-single-noncdb.html");
    let rr = t.iter().find(|g| g["test"] == "random_read").unwrap();
    assert_eq!(rr["p95_range_ms"], serde_json::json!([1.0, 2.0]));
    assert_eq!(rr["grade"], "A+");
    let small = t.iter().find(|g| g["test"] == "log_write_small").unwrap();
    assert_eq!(small["p95_range_ms"], serde_json::json!([8.0, 16.0]));
    assert_eq!(small["grade"], "D");
}
