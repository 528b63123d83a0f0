//! `--format html` (issue 18, item 3): one self-contained page with the Markdown's sections, the
//! charts inline as SVG, the per-tier tables folded, and no external reference. Its tables are
//! read back with the project's HTML table reader and checked against the JSON's figures.

use crate::common::{assert_exit, corpus_file, sizer, stdout};

/// The RECEIPT pair: a page titled after the database, its 4 charts inline, a `<details>` per
/// platform's tier table, no `src=`/`href=` and no `http` outside SVG namespaces; the Summary
/// table holds the JSON's required IOPS p95 (997.95), the sized demand (1,297 IOPS) and every
/// platform's name.
#[test]
fn receipt_html_is_self_contained_and_holds_the_json_figures() {
    let (Some(a), Some(b)) = (
        corpus_file(
            "awr",
            "sarthi2020-receipt-12.1.0.2-aix-snap173494-173496.html",
        ),
        corpus_file(
            "awr",
            "sarthi2020-receipt-12.1.0.2-aix-snap173496-173498.html",
        ),
    ) else {
        return;
    };
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = sizer(&["analyze", "--format", "html", a, b]);
    assert_exit(&o, 0);
    let html = stdout(&o);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    assert!(html.contains("<title>Storage sizing: RECEIPT (DB Id 1431238624)</title>"));
    assert_eq!(html.matches("<svg").count(), 4, "4 charts inline");
    assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
    // One folded tier table per platform (on-premises, AWS, Azure, Google).
    assert_eq!(html.matches("<details>").count(), 4);
    assert_eq!(
        html.matches("<details>").count(),
        html.matches("</details>").count()
    );
    // One inline script (printing opens the folded tables), nothing fetched.
    assert_eq!(html.matches("<script").count(), 1);
    assert!(html.contains("<script>addEventListener('beforeprint'"));
    for attr in ["src=", "href=", "@import", "url("] {
        assert!(!html.contains(attr), "an external reference: {attr}");
    }
    let no_ns = html
        .replace("http://www.w3.org/2000/svg", "")
        .replace("http://www.w3.org/1999/xlink", "");
    assert!(!no_ns.contains("http:") && !no_ns.contains("https:"));

    // The figures of the JSON summary are in the page's Summary table.
    let o = sizer(&["analyze", "--format", "json", a, b]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let db = &doc["databases"][0];
    let rec = &db["recommendation"];
    let page = sizer_parsers::html::parse(&html);
    let summary = page
        .tables
        .iter()
        .find(|t| t.heading == "Summary")
        .expect("a Summary table under its heading");
    let cells: Vec<&str> = summary.rows().flat_map(|r| r.texts()).collect();
    let text = cells.join(" | ");
    let p95 = db["statistics"]["required_iops"]["p95"].as_f64().unwrap();
    assert!(text.contains(&sizer::report::fmt_num(p95, 2)), "{text}");
    let sized = rec["sized_iops"].as_f64().unwrap();
    assert!(text.contains(&sizer::report::fmt_num(sized, 0)), "{text}");
    for p in rec["platforms"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap_or_default();
        assert!(text.contains(name), "{name} is not in the Summary: {text}");
    }
}

/// A file name that is markup stays text: `<script>` is escaped, never an element.
#[test]
fn markup_in_a_name_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("<script>x.html");
    std::fs::copy(
        crate::common::root().join("fixtures/awr/awrrpt_19c_small.html"),
        &f,
    )
    .unwrap();
    let o = sizer(&["analyze", "--format", "html", f.to_str().unwrap()]);
    assert_exit(&o, 0);
    let html = stdout(&o);
    assert!(!html.contains("<script>x"), "raw markup from a file name");
    assert!(html.contains("&lt;script&gt;x.html"));
}
