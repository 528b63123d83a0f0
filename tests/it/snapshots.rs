//! Snapshots of the Markdown report for the hand-made fixtures: any change to what a user reads
//! shows up as a diff (`cargo insta review`).

use std::path::Path;

use sizer::pipeline;
use sizer::rules::RuleSet;
use sizer::settings::Settings;

fn markdown(file: &str) -> String {
    // Relative path, so the snapshot does not depend on where the checkout lives.
    let rules = RuleSet::builtin().unwrap();
    let run = pipeline::run(&[Path::new(file)], &rules, &Settings::default()).unwrap();
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    let mut buf = Vec::new();
    sizer::report::markdown(&run, &mut buf).unwrap();
    String::from_utf8(buf).unwrap()
}

#[test]
fn markdown_19c_fixture() {
    insta::assert_snapshot!(markdown("fixtures/awr/awrrpt_19c_small.html"));
}

#[test]
fn markdown_11203_fixture() {
    insta::assert_snapshot!(markdown("fixtures/awr/awrrpt_11203_small.html"));
}
