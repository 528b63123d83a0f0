//! A large run holds its reports in the spill file (issue 15 item 1, `src/held.rs`): the same
//! inputs read with every report spilled (`Settings::spill_after = Some(0)`) and held in memory
//! give byte-identical JSON and Markdown, on the fixtures (AWR, OS logs beside AWR, collectors)
//! and the corpus.

use std::path::PathBuf;

use sizer::pipeline;
use sizer::rules::RuleSet;
use sizer::settings::Settings;

use crate::common::{corpus_absent, root};

/// The JSON and Markdown of one run over `paths`, spilled or not.
fn outputs(paths: &[PathBuf], spill_after: Option<usize>) -> (Vec<u8>, Vec<u8>, usize, bool) {
    let rules = RuleSet::builtin().expect("the built-in rules load");
    let settings = Settings {
        spill_after,
        ..Settings::default()
    };
    let (inputs, failures) = pipeline::discover(paths);
    let run = pipeline::run_inputs(inputs, failures, &rules, &settings).expect("the run");
    let mut json = Vec::new();
    sizer::report::json(&run, &mut json).expect("JSON");
    let mut md = Vec::new();
    sizer::report::markdown(&run, &mut md).expect("Markdown");
    (
        json,
        md,
        run.analyses.len(),
        run.analyses.in_memory().is_some(),
    )
}

/// Runs `paths` both ways, asserts the outputs are the same bytes, and gives the report count
/// and the (in-memory) JSON.
fn same_both_ways(paths: &[PathBuf]) -> (usize, serde_json::Value) {
    let (json, md, n, in_memory) = outputs(paths, None);
    assert!(in_memory, "{paths:?}: under the default threshold");
    let (json_s, md_s, n_s, in_memory_s) = outputs(paths, Some(0));
    assert!(!in_memory_s, "{paths:?}: spilled");
    assert_eq!(n, n_s);
    // The first differing line, not two megabytes of bytes.
    let first_diff = |a: &[u8], b: &[u8]| {
        let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
        a.lines()
            .zip(b.lines())
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| format!("line {}: {x:?} vs {y:?}", i + 1))
            .unwrap_or_else(|| "lengths differ".into())
    };
    assert!(
        json == json_s,
        "{paths:?} JSON: {}",
        first_diff(&json, &json_s)
    );
    assert!(md == md_s, "{paths:?} Markdown: {}", first_diff(&md, &md_s));
    (
        n,
        serde_json::from_slice(&json_s).expect("the spilled run's JSON parses"),
    )
}

#[test]
fn a_spilled_run_renders_the_fixtures_as_one_in_memory() {
    let f = root().join("fixtures");
    // AWR and Statspack reports (RAC instance reports summed, RAC global shares), OS logs of
    // their hosts (the AWR figures beside the host's), collector captures (peaks inside
    // snapshots, which the kept rows give).
    let (n, doc) = same_both_ways(&[f.join("awr"), f.join("iostat"), f.join("collectors")]);
    // 12 reports (the text twins of the HTML ones are duplicates) and a capture's records.
    assert!(n >= 12, "{n} reports");
    // What the spilled kept rows and heads feed is in the output compared: RAC sums, a
    // capture's peaks inside snapshots, the AWR figures beside a host's.
    let intervals = || {
        doc["databases"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["intervals"].as_array().unwrap())
    };
    assert!(intervals()
        .any(|i| i["scope"] == "rac_sum" && i["instances"].as_array().unwrap().len() == 2));
    assert!(intervals().any(|i| i["peak_iops_in_interval"].is_number()));
    assert!(doc["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| !h["awr"].as_array().unwrap().is_empty()));
}

#[test]
fn a_spilled_run_renders_the_corpus_as_one_in_memory() {
    let c = root().join("../shared/corpus");
    if !c.is_dir() {
        corpus_absent(&c);
        return;
    }
    let (n, _) = same_both_ways(&[c.join("awr"), c.join("field"), c.join("collectors")]);
    assert!(n > 100, "{n} reports");
}

/// `--spill-after 0` on the command line spills a run of two reports and prints what the run
/// in memory prints; a temporary directory that cannot take the spill file fails the run with
/// its cause named, and writes no output.
#[test]
fn spill_after_on_the_command_line_and_a_temporary_directory_that_fails() {
    use std::process::Command;
    let args = [
        "analyze",
        "-f",
        "json",
        "fixtures/awr/rac/sizdemo1_4711_4712.html",
        "fixtures/awr/rac/sizdemo2_4711_4712.html",
    ];
    let run = |extra: &[&str], tmp: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sizer"));
        c.args(args).args(extra).current_dir(root());
        if let Some(t) = tmp {
            c.env("TMPDIR", t);
        }
        c.output().expect("run sizer")
    };
    let memory = run(&[], None);
    let spilled = run(&["--spill-after", "0"], None);
    assert!(memory.status.success() && spilled.status.success());
    assert!(memory.stdout == spilled.stdout);
    let doc: serde_json::Value = serde_json::from_slice(&spilled.stdout).unwrap();
    assert_eq!(doc["reports"].as_array().unwrap().len(), 2);
    // Two instance reports of one interval: one summed interval row.
    assert_eq!(doc["databases"][0]["intervals"][0]["scope"], "rac_sum");

    let gone = std::env::temp_dir().join(format!("sizer-no-such-dir-{}", std::process::id()));
    let failed = run(&["--spill-after", "0"], Some(gone.to_str().unwrap()));
    assert_eq!(failed.status.code(), Some(1), "{failed:?}");
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(
        err.contains("the temporary file that holds the reports of a large run"),
        "{err}"
    );
    assert!(failed.stdout.is_empty());
    // Held in memory, the same run does not need the directory.
    assert!(run(&[], Some(gone.to_str().unwrap())).status.success());
}
