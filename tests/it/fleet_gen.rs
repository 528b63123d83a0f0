//! The fleet generator of `benches/fleet.sh` (`examples/fleet_gen/`) writes reports that parse
//! and group as planned, and a run whose stderr is not a terminal prints no progress.
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;

#[path = "../../examples/fleet_gen/gen.rs"]
#[allow(dead_code)]
mod gen;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sizer-fleet-gen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn plan(databases: usize, reports: usize) -> gen::Plan {
    gen::Plan {
        databases,
        reports,
        rac_instances: 2,
        gzip: true,
        start: chrono::NaiveDate::from_ymd_opt(2026, 1, 5)
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .unwrap(),
        first_snap: 1001,
    }
}

/// `sizer analyze -f json DIR` as JSON, with its stderr; asserts exit 0.
fn analyze(dir: &Path) -> (Value, String) {
    let o = common::sizer(&["analyze", "-f", "json", dir.to_str().unwrap()]);
    common::assert_exit(&o, 0);
    (
        serde_json::from_slice(&o.stdout).expect("JSON"),
        common::stderr(&o),
    )
}

/// Checks that the run has `want[d]` intervals for database `d` (instances `rac[d]`), each a
/// complete interval of consecutive snapshots one hour apart from 2026-01-05 00:00.
fn check(v: &Value, want: &[usize], rac: &[bool]) {
    assert!(
        v["failed"].as_array().unwrap().is_empty(),
        "{}",
        v["failed"]
    );
    assert!(
        v["skipped"].as_array().unwrap().is_empty(),
        "{}",
        v["skipped"]
    );
    assert!(v["duplicates"].as_array().unwrap().is_empty());
    let dbs = v["databases"].as_array().unwrap();
    assert_eq!(dbs.len(), want.len());
    let reports: usize = want
        .iter()
        .zip(rac)
        .map(|(n, r)| n * if *r { 2 } else { 1 })
        .sum();
    assert_eq!(v["reports"].as_array().unwrap().len(), reports);
    // Each report's title (sizer's source line) names the generated database, not the template.
    for r in v["reports"].as_array().unwrap() {
        let title = r["source"]["title"].as_str().unwrap();
        let want = format!(
            "AWR Report for DB: {}, ",
            r["database"]["db_name"].as_str().unwrap()
        );
        assert!(title.starts_with(&want), "{title}");
    }
    for (d, (&n, &is_rac)) in want.iter().zip(rac).enumerate() {
        let key = format!("{} (DB Id {})", gen::db_name(d), gen::db_id(d));
        let db = dbs
            .iter()
            .find(|db| db["key"] == key.as_str())
            .unwrap_or_else(|| panic!("no database {key}"));
        let ivs = db["intervals"].as_array().unwrap();
        assert_eq!(ivs.len(), n, "{key}");
        for (r, iv) in ivs.iter().enumerate() {
            assert_eq!(iv["interval"]["begin_snap"], 1001 + r, "{key}");
            assert_eq!(iv["interval"]["end_snap"], 1002 + r, "{key}");
            // Round r begins r hours after 2026-01-05 00:00 and lasts 60 minutes.
            let begin = format!("2026-01-05T{r:02}:00:00");
            assert_eq!(iv["interval"]["begin_time"], begin.as_str(), "{key}");
            assert_eq!(iv["interval"]["elapsed_min"], 60.0);
            assert_eq!(iv["excluded"], false, "{key} {iv}");
            assert!(
                iv["flags"].as_array().unwrap().is_empty(),
                "{key} {}",
                iv["flags"]
            );
            let name = gen::db_name(d).to_lowercase();
            if is_rac {
                assert_eq!(iv["scope"], "rac_sum");
                let both = serde_json::json!([format!("{name}_1"), format!("{name}_2")]);
                assert_eq!(iv["instances"], both);
            } else {
                assert_eq!(iv["scope"], "instance");
                assert_eq!(iv["instances"], serde_json::json!([name]));
            }
        }
    }
}

#[test]
fn fleet_gen_on_the_fixtures_gives_the_planned_databases_intervals_and_no_progress() {
    let root = common::root();
    let templates: Vec<gen::Template> = [
        "fixtures/awr/awrrpt_19c_small.html",
        "fixtures/awr/rac/sizdemo1_4711_4712.html",
    ]
    .iter()
    .map(|t| gen::Template::load(&root.join(t)).unwrap())
    .collect();
    let d = temp("fixtures");
    // 4 databases, the odd ones RAC of 2 instances: 6 reports a round. 10 reports: round 0 (6),
    // then round 1 of database 0 (7), 1 (9) and 2 (10): intervals 2, 2, 2, 1.
    let s = gen::generate(&templates, &plan(4, 10), &d).unwrap();
    assert_eq!(s.reports, 10);
    let (v, stderr) = analyze(&d);
    check(&v, &[2, 2, 2, 1], &[false, true, false, true]);
    // stderr is a pipe here: no progress bar, no redraws, nothing at all on a clean run.
    assert_eq!(stderr, "", "stderr of a non-terminal run");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn fleet_gen_on_the_benchmark_templates_gives_the_planned_databases_and_intervals() {
    let list = std::fs::read_to_string(common::root().join("benches/fleet-templates.txt")).unwrap();
    let mut templates = Vec::new();
    for name in list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let Some(p) = common::corpus_file("awr", name.trim()) else {
            return;
        };
        templates.push(gen::Template::load(&p).unwrap());
    }
    let rac: Vec<bool> = templates.iter().map(|t| t.rac).collect();
    assert_eq!(rac, [false, true, false, true, false]);
    let d = temp("corpus");
    // 5 databases, 1 and 3 RAC: 7 reports a round. 20 reports: rounds 0 and 1 (14), then round 2
    // of databases 0 (15), 1 (17), 2 (18) and 3 (20): intervals 3, 3, 3, 3, 2.
    let s = gen::generate(&templates, &plan(5, 20), &d).unwrap();
    assert_eq!(s.reports, 20);
    let (v, _) = analyze(&d);
    check(&v, &[3, 3, 3, 3, 2], &rac);
    std::fs::remove_dir_all(&d).unwrap();
}

/// With a terminal (a pseudo-terminal from util-linux `script`) and `CI` unset, the progress
/// bar is drawn: the control that the test above would see one if the gate were wrong.
#[test]
fn a_terminal_run_draws_progress() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("SKIPPED: util-linux `script` is not installed (needed for a pseudo-terminal)");
        return;
    }
    let templates =
        [
            gen::Template::load(&common::root().join("fixtures/awr/awrrpt_19c_small.html"))
                .unwrap(),
        ];
    let d = temp("tty");
    gen::generate(&templates, &plan(3, 6), &d).unwrap();
    let cmd = format!(
        "{} analyze -f json {} > /dev/null",
        env!("CARGO_BIN_EXE_sizer"),
        d.display()
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env_remove("CI")
        .output()
        .expect("run script");
    let tty = String::from_utf8_lossy(&o.stdout);
    // Files read of the total, the rate and the time left (the last draw, before it is cleared).
    assert!(tty.contains("6/6 files read"), "terminal output: {tty:?}");
    assert!(
        tty.contains(" files/s, ") && tty.contains(" left"),
        "terminal output: {tty:?}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}
