//! Figures printed coarser than their totals (issue 13 item 7): a text report's `per Second`
//! rates recomputed as Total / elapsed, average waits as Total Wait Time / Waits, and averages
//! known only as a bound (a total or an average printed as 0), graded with that uncertainty.
//! Hand arithmetic in each test; the corpus tests skip (or fail under CI) without the corpus.

use std::path::Path;

use serde_json::Value;
use sizer::pipeline;
use sizer::rules::RuleSet;
use sizer::settings::Settings;

use crate::common::{corpus_file as corpus, json_of, root};

fn markdown_of(path: &Path) -> String {
    let rules = RuleSet::builtin().expect("built-in rules load");
    let run = pipeline::run(&[path], &rules, &Settings::default()).expect("run");
    let mut buf = Vec::new();
    sizer::report::markdown(&run, &mut buf).expect("markdown renders");
    String::from_utf8(buf).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn near(got: &Value, want: f64, tol: f64, what: &str) {
    let g = f(got);
    assert!(
        (g - want).abs() <= tol,
        "{what}: {g}, expected {want} ± {tol}"
    );
}

/// The IO report card test `id` of a database.
fn card<'a>(db: &'a Value, id: &str) -> &'a Value {
    db["recommendation"]["report_card"]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["test"] == id)
        .unwrap_or_else(|| panic!("no test {id}"))
}

#[test]
fn text_awr_rates_are_total_over_elapsed() {
    let Some(p) = corpus("awr", "jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt") else {
        return;
    };
    let (r, _) = json_of(&p);
    let w = &r["workload"];
    // Elapsed 60.25 min = 3,615 s, printed to 0.01 min: ± 0.3 s.
    // read 395,292 / 3,615 = 109.3477 (printed 109.4), bounds 395,292 / 3,615.3 = 109.3386 and
    // / 3,614.7 = 109.3568; write 154,813 / 3,615 = 42.8252 (42.8); redo 103,638 / 3,615 =
    // 28.6689 (28.7); required = 653,743 / 3,615 = 180.8418 (from the printed: 180.9).
    for (m, want, printed) in [
        ("read_iops", 109.35, 109.4),
        ("write_iops", 42.83, 42.8),
        ("redo_writes_per_s", 28.67, 28.7),
        ("measured_iops", 152.17, 152.2),
        ("required_iops", 180.84, 180.9),
    ] {
        assert_eq!(f(&w[m]["value"]), want, "{m}");
        assert_eq!(w[m]["decimals"], 2, "{m}");
        assert_eq!(f(&w[m]["as_printed"]), printed, "{m}");
        let d = &w[m]["derived"];
        assert_eq!(d["basis"]["kind"], "total_over_elapsed", "{m}");
        assert_eq!(f(&d["basis"]["elapsed_min"]), 60.25);
        assert_eq!(d["basis"]["elapsed_decimals"], 2);
        assert_eq!(d["printed_decimals"], 1);
    }
    near(&w["read_iops"]["derived"]["lo"], 109.3386, 1e-4, "read lo");
    near(&w["read_iops"]["derived"]["hi"], 109.3568, 1e-4, "read hi");
    // Small rates: 'physical read total multi block requests' 994 / 3,615 = 0.275 (printed 0.3).
    assert_eq!(f(&w["large_read_iops"]["value"]), 0.27);
    assert_eq!(f(&w["large_read_iops"]["as_printed"]), 0.3);
    // The average waits keep their printed microseconds: 40 s / 360,121 waits is ± 0.0014 ms,
    // coarser than 109.72us (± 0.000005 ms).
    assert_eq!(f(&w["db_file_sequential_read_ms"]["value"]), 0.10972);
    assert!(w["db_file_sequential_read_ms"].get("derived").is_none());
    // The Markdown says what the figure was derived from and to what precision.
    let md = markdown_of(&p);
    assert!(
        md.contains("| Read IOPS                             | 109.35 |"),
        "{md}"
    );
    assert!(md.contains("recomputed as Total / elapsed seconds, finer than the printed per Second (109.4): Elapsed 60.25 min is printed to 0.01 min (± 0.3 s), so ± 0.01"));
}

/// The text twin of an HTML report: Total / elapsed gives the HTML's two-decimal rates
/// (`field/EXPECTED-text.jsonl`), where the text printed 1.0 and 0.1 for 0.95 and 0.05.
#[test]
fn text_twin_rates_match_the_html_values() {
    let Some(p) = corpus("field", "1newstar-ORCL-orcl1-11.2.0.4-rac-instance.txt") else {
        return;
    };
    let e: Value = std::fs::read_to_string(p.with_file_name("EXPECTED-text.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["file"] == "1newstar-ORCL-orcl1-11.2.0.4-rac-instance.txt")
        .unwrap();
    let (r, _) = json_of(&p);
    let w = &r["workload"];
    // Elapsed 60.22 min = 3,613.2 s: 9,031 / 3,613.2 = 2.4994; 3,435 / 3,613.2 = 0.9507 (printed
    // 1.0); redo writes 183 / 3,613.2 = 0.0506 (printed 0.1); measured 3.4501; required 3.5008.
    for (key, m) in [
        ("physical read total IO requests", "read_iops"),
        ("physical write total IO requests", "write_iops"),
        ("redo writes", "redo_writes_per_s"),
        ("measured_iops", "measured_iops"),
        ("required_iops_seed", "required_iops"),
    ] {
        near(&w[m]["value"], f(&e[key]), 0.005 + 1e-9, m);
        assert_eq!(w[m]["decimals"], 2, "{m}");
    }
    assert_eq!(f(&w["write_iops"]["as_printed"]), 1.0);
    assert_eq!(f(&w["redo_writes_per_s"]["as_printed"]), 0.1);
}

#[test]
fn statspack_averages_and_rates_come_from_the_totals() {
    let Some(p) = corpus("awr", "theyanvictor-igt-11.2.0.4-statspack.txt") else {
        return;
    };
    let (r, db) = json_of(&p);
    let w = &r["workload"];
    // Foreground Wait Events l.121: log file sync 27,042 waits, 6 s, printed 0 (ms):
    // 6 × 1000 / 27,042 = 0.2219 ms, between 5.5 and 6.5 s / 27,042 = 0.2034 and 0.2404 ms.
    let lfs = &w["log_file_sync_ms"];
    assert_eq!(f(&lfs["value"]), 0.22);
    assert_eq!(lfs["printed"], "0");
    assert_eq!(f(&lfs["as_printed"]), 0.0);
    assert_eq!(
        lfs["derived"]["basis"]["kind"],
        "total_wait_time_over_waits"
    );
    assert_eq!(f(&lfs["derived"]["basis"]["total_wait_s"]), 6.0);
    assert_eq!(f(&lfs["derived"]["basis"]["total_wait_half_s"]), 0.5);
    assert_eq!(f(&lfs["derived"]["basis"]["waits"]), 27_042.0);
    near(&lfs["derived"]["lo"], 0.2034, 1e-4, "lfs lo");
    near(&lfs["derived"]["hi"], 0.2404, 1e-4, "lfs hi");
    assert_eq!(lfs["derived"]["at_most"], false);
    // l.126: db file scattered read 8,143 waits, Total Wait Time printed 0 s (under 0.5 s):
    // at most 0.5 × 1000 / 8,143 = 0.0614 ms, shown rounded up as ≤ 0.062, not 0.0 ms.
    let sc = &w["db_file_scattered_read_ms"];
    assert_eq!(sc["derived"]["at_most"], true);
    assert_eq!(f(&sc["derived"]["lo"]), 0.0);
    near(&sc["derived"]["hi"], 0.0614, 1e-4, "scattered hi");
    assert_eq!(f(&sc["value"]), 0.062);
    // Rates (Elapsed 1,439.98 min = 86,398.8 s): read 641,372 / 86,398.8 = 7.4234 (printed 7.4),
    // write 440,701 / 86,398.8 = 5.1008 (5.1), redo 61,305 / 86,398.8 = 0.7096 (0.7).
    assert_eq!(f(&w["read_iops"]["value"]), 7.42);
    assert_eq!(f(&w["write_iops"]["value"]), 5.10);
    assert_eq!(f(&w["redo_writes_per_s"]["value"]), 0.71);
    assert_eq!(f(&w["required_iops"]["value"]), 13.23);
    // The card grades the histogram's p95 here; the average's bound is stated beside it.
    let seq = card(&db, "sequential_read");
    assert_eq!(seq["grade"], "A+");
    assert_eq!(seq["average_bounds"]["at_most"], true);
    let md = markdown_of(&p);
    assert!(md.contains("| db file scattered read  |           ≤ 0.062 |          0 |"));
    assert!(md.contains("6 s (printed to 1 s, ± 0.5 s) over 27,042 waits, so 0.203 to 0.240 ms"));
    assert!(md.contains(
        "Total Wait Time printed 0 s (to 1 s: under 0.5 s) over 8,143 waits, so at most 0.062 ms"
    ));
}

/// A hand-made Statspack report without a Wait Event Histogram, so that the card grades the
/// averages (fixture header: the hand figures).
#[test]
fn bounded_averages_are_graded_on_their_bounds() {
    let p = root().join("fixtures/awr/text/spreport_10g_whole_seconds.txt");
    let (r, db) = json_of(&p);
    let w = &r["workload"];
    // db file sequential read: 40 waits, 0 s, printed 0 ms. The printed 0 means under 0.5 ms;
    // the total (under 0.5 s / 40 = 12.5 ms) is coarser: at most 0.5 ms, not 0.0 ms.
    let seq = &w["db_file_sequential_read_ms"];
    assert_eq!(f(&seq["value"]), 0.5);
    assert_eq!(seq["derived"]["basis"]["kind"], "printed_zero");
    assert_eq!(seq["derived"]["at_most"], true);
    let g = card(&db, "random_read");
    // 0 to 0.5 ms is below the 2 ms A+ bound: A+, graded on the bound.
    assert_eq!(g["grade"], "A+");
    assert_eq!(f(&g["average_bounds"]["hi_ms"]), 0.5);
    // db file scattered read: 432 s / 36,000 = 12.000 ms ± 0.5 s / 36,000 = ± 0.0139 ms:
    // 11.986 to 12.014 ms straddles sequential_read's 12 ms bound: A+ to A (the printed 12 alone
    // graded A).
    let sc = &w["db_file_scattered_read_ms"];
    assert_eq!(f(&sc["value"]), 12.0);
    near(&sc["derived"]["lo"], 11.9861, 1e-4, "lo");
    near(&sc["derived"]["hi"], 12.0139, 1e-4, "hi");
    assert_eq!(card(&db, "sequential_read")["grade"], "A+ to A");
    // log file parallel write: 400 waits, 0 s, printed 0: at most 0.5 ms; 4 KiB writes
    // (1,638,400 / 400 / 1024) are graded on log_write_small (bounds 0.2, 0.5, …): A+ to A.
    assert_eq!(f(&w["log_file_parallel_write_ms"]["value"]), 0.5);
    assert_eq!(card(&db, "log_write_small")["grade"], "A+ to A");
    // Rates over 3,600 s: multiblock reads 576 / 3,600 = 0.16 (printed 0.2, 25 % off); multiblock
    // writes 4,248 / 3,600 = 1.18 (printed 1.2); redo writes 400 / 3,600 = 0.11 (0.1);
    // required 280 + 80 + 0.111 = 360.11 (printed rates: 360.1).
    assert_eq!(f(&w["large_read_iops"]["value"]), 0.16);
    assert_eq!(f(&w["large_read_iops"]["as_printed"]), 0.2);
    assert_eq!(f(&w["large_write_iops"]["value"]), 1.18);
    assert_eq!(f(&w["large_write_iops"]["as_printed"]), 1.2);
    assert_eq!(f(&w["redo_writes_per_s"]["value"]), 0.11);
    assert_eq!(f(&w["required_iops"]["value"]), 360.11);
    assert_eq!(f(&w["required_iops"]["as_printed"]), 360.1);
    let md = markdown_of(&p);
    assert!(md.contains("| db file sequential read |             ≤ 0.5 |          0 |"));
    assert!(md.contains("| large sequential read (fio 1 MiB, 1 user) (`sequential_read`)  |        12.00 |        – | A+ to A |"));
    assert!(md.contains("Total Wait Time 432 s ± 0.5 s puts the average between 11.986 and 12.014 ms, graded on both ends"));
}
