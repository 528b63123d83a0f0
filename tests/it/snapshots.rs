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

/// The outline of an HTML report: its headings in order, each chart (`<figure>`, with the SVG's
/// polyline and rectangle counts: the chart's data, not its pixels) and each folded table, as
/// one line per element.
fn html_outline(files: &[&str]) -> String {
    let rules = RuleSet::builtin().unwrap();
    let (inputs, failures) = pipeline::discover(
        &files
            .iter()
            .map(std::path::PathBuf::from)
            .collect::<Vec<_>>(),
    );
    let run = pipeline::run_inputs(inputs, failures, &rules, &Settings::default()).unwrap();
    let charts =
        sizer::report::chart_files::chart_files(&run, rules.sizing().report_card.as_ref()).unwrap();
    let mut buf = Vec::new();
    sizer::report::html(&run, &mut buf, &charts).unwrap();
    let html = String::from_utf8(buf).unwrap();
    let mut out = String::new();
    let mut rest = html.as_str();
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let tag: String = rest[1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '/')
            .collect();
        match tag.as_str() {
            "h1" | "h2" | "h3" => {
                let end = rest.find("</").unwrap_or(rest.len());
                let start = rest.find('>').map(|j| j + 1).unwrap_or(0).min(end);
                out.push_str(&format!("{tag} {}\n", &rest[start..end]));
            }
            "figure" => {
                let end = rest.find("</figure>").unwrap_or(rest.len());
                let fig = &rest[..end];
                out.push_str(&format!(
                    "  chart: {} polylines, {} rects, {} circles\n",
                    fig.matches("<polyline").count(),
                    fig.matches("<rect").count(),
                    fig.matches("<circle").count()
                ));
            }
            "details" => out.push_str("  folded table\n"),
            _ => {}
        }
        rest = &rest[1..];
    }
    out
}

#[test]
fn html_outline_database() {
    insta::assert_snapshot!(html_outline(&["fixtures/awr/rac/"]));
}

#[test]
fn html_outline_host() {
    insta::assert_snapshot!(html_outline(&["fixtures/iostat/pdsh-x-10.2-two-hosts.txt"]));
}

#[test]
fn html_outline_fleet() {
    insta::assert_snapshot!(html_outline(&["fixtures/fleet/"]));
}
